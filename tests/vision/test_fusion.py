"""Pocket pulses fused with vision's drops: each rule on a hand-made shot."""

from __future__ import annotations

import numpy as np

from vision.events import Disappearance, Path
from vision.fusion import FELT_AFTER_LOST_S, fuse_pulses
from vision.geometry import Table

TABLE = Table()


def rolling(key: int | str, start: tuple[float, float], end: tuple[float, float],
            lost_at: float | None = None, seen_again: float | None = None) -> Path:  # fmt: skip
    """A ball rolling from `start` to `end` over 0–1 s, out of sight from `lost_at` on
    (until `seen_again`)."""
    times = np.arange(0, 1.5, 1 / 60)
    f = np.clip(times, 0, 1)[:, None]
    xy = np.asarray(start) + (np.asarray(end) - np.asarray(start)) * f
    seen = np.ones(len(times), bool)
    if lost_at is not None:
        seen &= ~((times >= lost_at) & (times < (seen_again if seen_again else 99.0)))
    return Path(key, times, xy, seen, start)


def test_a_pulse_confirms_and_times_a_drop() -> None:
    drops = [Disappearance(3, 0.90, "FR")]
    fused = fuse_pulses(drops, [(1.05, "FR")], [], TABLE)
    assert fused == [Disappearance(3, 1.05, "FR")]


def test_a_drop_no_sensor_felt_did_not_happen() -> None:
    drops = [Disappearance(3, 0.90, "FR"), Disappearance(5, 0.40, "HL")]
    fused = fuse_pulses(drops, [(1.0, "FR")], [], TABLE)
    assert [d.key for d in fused] == [3]


def test_a_ball_lost_at_speed_in_a_mouth_no_sensor_felt_flew_off_the_table() -> None:
    # Lost in the head-right mouth at 5 m/s and never found: it did not stop in the shadow.
    drops = [Disappearance(2, 3.9, "HR", speed=5000.0), Disappearance(5, 0.4, "HL", speed=300.0)]
    fused = fuse_pulses(drops, [], [], TABLE)
    assert fused == [Disappearance(2, 3.9, None, 5000.0)]


def test_a_ball_seen_leaving_the_table_needs_no_pulse() -> None:
    drops = [Disappearance("cue", 0.5, None)]
    assert fuse_pulses(drops, [(2.0, "SL")], [], TABLE) == drops


def test_a_pulse_nothing_explains_is_the_ball_lost_in_that_mouth() -> None:
    # The 5 rolls into the FL mouth and is lost there at 0.9 s; the tracker later "finds" it
    # elsewhere (it took another ball for it), so vision reported no drop.
    five = rolling(5, (2200.0, 300.0), (2520.0, 20.0), lost_at=0.9, seen_again=1.2)
    two = rolling(2, (1200.0, 600.0), (1300.0, 650.0))
    fused = fuse_pulses([], [(0.95, "FL")], [two, five], TABLE)
    assert fused == [Disappearance(5, 0.95, "FL")]


def test_a_pulse_as_late_as_a_rattle_and_the_fall_is_the_ball_lost_in_that_mouth() -> None:
    # The 5 is lost in the FL mouth at 0.9 s, rattles in the jaws and drops; the beam in the
    # throat feels it 1.2 s later (the shot waits FELT_AFTER_LOST_S for it).
    five = rolling(5, (2200.0, 300.0), (2520.0, 20.0), lost_at=0.9)
    two = rolling(2, (1200.0, 600.0), (1300.0, 650.0))
    late = 0.9 + FELT_AFTER_LOST_S - 0.1
    assert fuse_pulses([], [(late, "FL")], [two, five], TABLE) == [Disappearance(5, late, "FL")]
    assert fuse_pulses([], [(0.9 + FELT_AFTER_LOST_S + 0.1, "FL")], [two, five], TABLE) == []


def test_a_late_pulse_from_its_own_pocket_goes_to_a_badly_timed_drop() -> None:
    # Vision lost the cue ball early and timed its drop 1.4 s before the pulse came.
    drops = [Disappearance("cue", 1.0, "SR")]
    fused = fuse_pulses(drops, [(2.4, "SR")], [], TABLE)
    assert fused == [Disappearance("cue", 2.4, "SR")]


def test_a_pulse_nothing_explains_is_the_one_ball_lost_and_never_found() -> None:
    # Fresh 6's 196: the maroon 7 lost rolling along the right cushion 800 mm from the corner,
    # knocked on by the 4 out of sight; the head-right pocket's pulse comes 1.8 s later. No
    # other ball is missing: it is the 7.
    seven = rolling(7, (1700.0, 1228.0), (840.0, 1228.0), lost_at=0.9)
    two = rolling(2, (1200.0, 600.0), (1300.0, 650.0))
    fused = fuse_pulses([], [(2.7, "HR")], [two, seven], TABLE, missing=[7])
    assert fused == [Disappearance(7, 2.7, "HR")]
    # Not a ball lost after the pulse, and not one of two: which went down is not known.
    assert fuse_pulses([], [(0.5, "HR")], [two, seven], TABLE, missing=[7]) == []
    four = rolling(4, (600.0, 300.0), (700.0, 500.0), lost_at=0.5)
    assert fuse_pulses([], [(2.7, "HR")], [two, seven, four], TABLE, missing=[7, 4]) == []


def test_a_pulse_nothing_explains_is_the_one_ball_out_of_sight_the_whole_shot() -> None:
    # Fresh 8's 245: the 8 under a bystander leaning over the table the whole shot, hit and
    # potted there; the foot-left pocket's pulse is all that shows it. No ball seen in the
    # shot is missing: it is the 8, the one ball never seen in it and not found at its end.
    two = rolling(2, (1200.0, 600.0), (1300.0, 650.0))
    fused = fuse_pulses([], [(3.5, "FL")], [two], TABLE, hidden=[8])
    assert fused == [Disappearance(8, 3.5, "FL")]
    # A ball lost in the shot and never found goes first; two hidden, neither is known.
    seven = rolling(7, (1700.0, 1228.0), (840.0, 1228.0), lost_at=0.9)
    fused = fuse_pulses([], [(2.7, "HR")], [two, seven], TABLE, missing=[7], hidden=[8])
    assert fused == [Disappearance(7, 2.7, "HR")]
    assert fuse_pulses([], [(3.5, "FL")], [two], TABLE, hidden=[8, 4]) == []
