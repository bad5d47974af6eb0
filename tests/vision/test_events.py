"""Events from tracks: synthetic paths whose answers are known exactly."""

from __future__ import annotations

import numpy as np
import pytest

from vision.events import F64, Path, cushion_contacts, disappearance, first_contacts, strike_time
from vision.geometry import BALL_RADIUS_MM, Table

TABLE = Table()
FPS = 60.0


def straight(
    key: int | str,
    start: tuple[float, float],
    velocity: tuple[float, float],
    t0: float,
    times: F64,
    stop_at: float | None = None,
) -> Path:
    """A ball resting at `start` until t0, then rolling at `velocity` (mm/s)."""
    xy = []
    for t in times:
        moving = max(0.0, t - t0)
        if stop_at is not None:
            moving = min(moving, stop_at - t0)
        xy.append(np.asarray(start) + np.asarray(velocity) * moving)
    return Path(key, times, np.array(xy), np.ones(len(times), bool), start)


def test_the_strike_is_placed_between_frames() -> None:
    times = np.arange(0, 1, 1 / FPS)
    cue = straight("cue", (500.0, 635.0), (3000.0, 0.0), 0.2071, times)
    assert strike_time(cue) == pytest.approx(0.2071, abs=0.001)


def test_first_contact_is_the_ball_the_cue_ball_reaches_first_at_break_speed() -> None:
    times = np.arange(0, 1, 1 / FPS)
    # 8 m/s: more than two balls between frames. The 3 sits beside the path, the 1 on it.
    contact = 0.3 + (1905 - 2 * BALL_RADIUS_MM - 500) / 8000
    cue = straight("cue", (500.0, 635.0), (8000.0, 0.0), 0.3, times, stop_at=contact)
    one = straight(1, (1905.0, 635.0), (6000.0, 0.0), contact, times)
    three = straight(3, (1960.0, 700.0), (3000.0, 2000.0), contact + 0.004, times)
    found, _ = first_contacts(cue, [three, one], 0.3)
    assert [k for _, k in found][:1] == [1]
    assert found[0][0] == pytest.approx(contact, abs=0.002)


def test_a_ball_beside_the_path_is_no_contact() -> None:
    times = np.arange(0, 1, 1 / FPS)
    cue = straight("cue", (500.0, 300.0), (2000.0, 0.0), 0.1, times, stop_at=0.7)
    near = straight(2, (1000.0, 300.0 + 2 * BALL_RADIUS_MM + 6), (0.0, 500.0), 0.5, times)
    found, _ = first_contacts(cue, [near], 0.1)
    assert found == []


def test_a_bounce_off_the_foot_cushion_is_timed_on_the_cushion() -> None:
    times = np.arange(0, 2, 1 / FPS)
    hit = 0.5 + (2540 - BALL_RADIUS_MM - 1500) / 2000
    xy = []
    for t in times:
        if t < 0.5:
            xy.append((1500.0, 400.0))
        elif t < hit:
            xy.append((1500 + 2000 * (t - 0.5), 400.0))
        else:
            xy.append((2540 - BALL_RADIUS_MM - 1500 * (t - hit), 400.0))
    path = Path(3, times, np.array(xy), np.ones(len(times), bool), (1500.0, 400.0))
    events = cushion_contacts(path, TABLE, 0.5)
    assert [(e.balls, e.rail) for e in events] == [((3,), "foot")]
    assert events[0].t == pytest.approx(hit, abs=1 / FPS / 2)


def test_a_ball_frozen_to_a_cushion_does_not_touch_it_by_rolling_along_it() -> None:
    times = np.arange(0, 1.5, 1 / FPS)
    start = (800.0, BALL_RADIUS_MM + 1.0)  # frozen to the left cushion
    path = straight(5, start, (1500.0, 0.0), 0.2, times, stop_at=1.0)
    assert all(e.frozen_no_leave for e in cushion_contacts(path, TABLE, 0.2))


def test_a_ball_lost_at_a_corner_dropped_in_that_pocket() -> None:
    times = np.arange(0, 1, 1 / FPS)
    path = straight(9, (2200.0, 900.0), (1000.0, 1000.0), 0.1, times)
    seen = np.array([p[0] < 2540 - 40 and p[1] < 1270 - 40 for p in path.xy])
    gone = Path(9, times, path.xy, seen, path.start)
    drop = disappearance(gone, TABLE, 1 / FPS)
    assert drop is not None and drop.pocket == "FR"


def test_a_ball_lost_far_from_any_pocket_left_the_table() -> None:
    times = np.arange(0, 1, 1 / FPS)
    path = straight(4, (800.0, 600.0), (0.0, 2000.0), 0.1, times)
    seen = np.array([p[1] < 1270 - BALL_RADIUS_MM for p in path.xy])
    drop = disappearance(Path(4, times, path.xy, seen, path.start), TABLE, 1 / FPS)
    assert drop is not None and drop.pocket is None
