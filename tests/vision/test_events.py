"""Events from tracks: synthetic paths whose answers are known exactly."""

from __future__ import annotations

import math

import numpy as np
import pytest

from vision.events import (
    F64,
    Disappearance,
    Event,
    Path,
    cushion_contacts,
    disappearance,
    first_contacts,
    first_mover,
    hit_out_of_sight,
    jaw_contacts,
    lost_at_pocket,
    merge_same_contacts,
    put_down_by_hand,
    stayed_on_the_table,
    strike_time,
    struck_at,
    struck_by,
    swapped_at,
)
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


def test_first_contact_at_the_break_is_timed_from_the_cue_balls_nearest_sighting() -> None:
    # Seen as a streak whose centre lags it less frame by frame, the cue ball seems to
    # speed up: carried on from the sighting before last it reaches the 1 later than, from
    # the last sighting, it reaches the 9 (behind the 1, off the line). The last sighting,
    # nearer, places both: the 1 first.
    times = np.arange(0, 0.5, 1 / FPS)
    xy = np.tile([499.0, 641.0], (len(times), 1))
    seen = np.ones(len(times), bool)
    for k, x in zip(range(9, 13), (1099.0, 1295.0, 1525.0, 1805.0), strict=True):
        xy[k] = (x, 638.0)
    seen[[7, 8, 13]] = False  # under the cue at the strike, merged with the 1 at contact
    xy[13:] = (1814.0, 629.0)
    cue = Path("cue", times, xy, seen, (499.0, 641.0))
    one = straight(1, (1904.0, 637.0), (6000.0, 0.0), times[13], times)
    nine = straight(9, (1954.0, 606.0), (3000.0, -2000.0), times[13], times)
    found, _ = first_contacts(cue, [nine, one], times[9])
    assert [k for _, k in found] == [1, 9]


def _reappearing(rolling_mm_s: float) -> Path:
    """A cue ball out of sight on its spot (in a hand, or under the cue) from 0.2 s to 1 s,
    seen again 1.2 m away, then rolling on at `rolling_mm_s` (with 4 mm of jitter)."""
    times = np.arange(0, 2, 1 / FPS)
    xy = np.tile([300.0, 1100.0], (len(times), 1))
    again = times >= 1.0
    xy[again] = np.array([1500.0, 700.0]) + np.outer(times[again] - 1.0, (rolling_mm_s, 0.0))
    xy[again] += np.where(np.arange(again.sum()) % 2, 4.0, 0.0)[:, None]
    seen = (times < 0.2) | again
    return Path("cue", times, xy, seen, (300.0, 1100.0))


def test_a_cue_ball_seen_again_off_its_spot_and_still_was_put_down_by_hand() -> None:
    assert put_down_by_hand(_reappearing(0.0))


def test_a_cue_ball_seen_again_rolling_was_struck() -> None:
    assert not put_down_by_hand(_reappearing(500.0))


def test_a_cue_ball_seen_leaving_its_spot_was_struck() -> None:
    times = np.arange(0, 1, 1 / FPS)
    assert not put_down_by_hand(straight("cue", (300.0, 1100.0), (40.0, 0.0), 0.2, times))


def test_a_ball_beside_the_path_is_no_contact() -> None:
    times = np.arange(0, 1, 1 / FPS)
    cue = straight("cue", (500.0, 300.0), (2000.0, 0.0), 0.1, times, stop_at=0.7)
    near = straight(2, (1000.0, 300.0 + 2 * BALL_RADIUS_MM + 6), (0.0, 500.0), 0.5, times)
    found, _ = first_contacts(cue, [near], 0.1)
    assert found == []


def test_a_ball_leaving_its_spot_as_the_streaking_cue_ball_passes_a_little_wide_was_hit() -> None:
    # At 2 m/s the cue ball's seen centres run 4 mm wide of where it went (a thin hit on the
    # 4, seen as a streak): the 4 leaves its spot just as the cue ball passes.
    times = np.arange(0, 1, 1 / FPS)
    cue = straight("cue", (500.0, 300.0), (2000.0, 0.0), 0.1, times)
    passing = 0.1 + 500.0 / 2000.0
    four = straight(4, (1000.0, 300.0 + 2 * BALL_RADIUS_MM + 4), (0.0, 800.0), passing, times)
    found, _ = first_contacts(cue, [four], 0.1)
    assert [k for _, k in found] == [4]
    assert found[0][0] == pytest.approx(passing, abs=1 / FPS)


def test_a_ball_the_path_passed_that_stayed_on_its_spot_was_not_hit_then() -> None:
    # The cue ball's seen path brushes the 4 in passing (merged with it for a frame) and
    # goes on to the 1; the 4 stays put until the 1 hits it 0.25 s later.
    times = np.arange(0, 1, 1 / FPS)
    cue = straight("cue", (500.0, 300.0), (2000.0, 0.0), 0.1, times, stop_at=0.5)
    four = straight(4, (800.0, 300.0 + 2 * BALL_RADIUS_MM - 2), (0.0, 1500.0), 0.4, times)
    one = straight(1, (1300.0 + 2 * BALL_RADIUS_MM, 300.0), (2000.0, 0.0), 0.5, times)
    found, _ = first_contacts(cue, [four, one], 0.1)
    assert [k for _, k in found] == [1]


def _hit_coming_back_off_a_cushion(
    start: float,
    samples: int,
    cue_at: dict[int, tuple[float, float]],
    key: int,
    ball_at: dict[int, tuple[float, float]],
    struck: float,
    cushion: int,
) -> None:
    """The cue ball seen at `cue_at` (60 fps samples from `start`) passes the ball seen at
    `ball_at` on its way to a cushion it meets at sample `cushion`, and comes back into it:
    the ball is its first contact, hit after the cushion, not in passing."""
    times = start + np.arange(samples) / FPS
    cue, ball = _sightings("cue", times, cue_at), _sightings(key, times, ball_at)
    found, _ = first_contacts(cue, [ball], struck)
    assert [k for _, k in found] == [key]
    assert found[0][0] > times[cushion]


def test_a_ball_passed_just_inside_reach_on_the_way_to_a_cushion_is_hit_coming_back() -> None:
    # Fresh 14's 382, frame by frame at 60 fps: the cue ball at 1.3 m/s passes the 2 a
    # millimetre inside reach on its way to the foot cushion 21 mm beyond it, and comes back
    # off the cushion to hit it 70 ms later; the 2 leaves along the line of centres then,
    # not along the one of the pass.
    # (The pass was at samples 2 and 3, the cushion at 6.)
    _hit_coming_back_off_a_cushion(
        31.583, 12, {0: (2391.7, 1015.1), 1: (2413.0, 1022.7), 2: (2433.3, 1026.4),
                     3: (2453.6, 1033.1), 4: (2475.6, 1037.1), 5: (2498.3, 1042.0),
                     6: (2506.4, 1046.7), 7: (2488.6, 1052.9), 9: (2475.9, 1046.7),
                     10: (2473.1, 1043.4), 11: (2469.5, 1040.4)},
        2, {**{k: (2438.7, 1090.1) for k in range(9)}, 9: (2421.9, 1107.6),
            10: (2408.2, 1114.7), 11: (2399.6, 1123.3)},
        struck=31.5, cushion=6,
    )  # fmt: skip


def test_a_ball_passed_wide_is_hit_coming_back_if_it_went_off_nearer_that_way() -> None:
    # Fresh 23's 600, frame by frame at 60 fps: the cue ball at 3 m/s passes 6 mm wide of
    # the 7 on its way to the foot cushion (measured inside reach: the 7's spot is 4 mm off)
    # and comes back off it into the 7 80 ms later. The way the 7 left, from the spot as
    # measured, is 16 degrees off the second line of centres, 58 off the first: it was hit
    # the second time.
    # (The pass was at samples 3 and 4, the cushion at 6.)
    _hit_coming_back_off_a_cushion(
        30.2, 13, {0: (2208.4, 518.5), 1: (2258.6, 531.0), 2: (2309.8, 542.8),
                   3: (2360.7, 554.7), 4: (2418.4, 565.0), 5: (2458.5, 580.3),
                   6: (2506.9, 592.5), 7: (2477.7, 603.3), 8: (2419.9, 617.5),
                   9: (2435.6, 622.5), 10: (2434.6, 629.0),
                   11: (2433.4, 636.8), 12: (2432.4, 642.2)},
        7, {**{k: (2378.4, 618.6) for k in range(9)}, 9: (2356.6, 626.8),
            10: (2322.3, 629.4), 11: (2288.0, 633.0), 12: (2255.6, 637.5)},
        struck=30.0, cushion=6,
    )  # fmt: skip


def test_a_ball_passed_on_the_way_to_a_cushion_is_hit_coming_back_as_it_is_seen_going() -> None:
    # Fresh 34's 898, frame by frame at 60 fps: the cue ball at 6 m/s passes the 1 a few
    # millimetres wide on its way to the head cushion (its streak, out of sight for a frame,
    # carried on inside reach), comes back off it and hits the 1; the path's line places
    # that a few milliseconds after the 1 is first seen off its spot, as late as timing is
    # worth at the cue ball's pace. The pass could not have sent the 1 off so late.
    # (The pass was at sample 2, the cushion at 4.)
    _hit_coming_back_off_a_cushion(
        2.55, 11, {0: (399.7, 568.8), 1: (300.9, 572.6), 3: (111.2, 583.1),
                   4: (47.8, 585.7), 5: (105.6, 578.0), 6: (170.8, 550.6),
                   7: (220.7, 591.7), 8: (268.1, 615.9), 9: (312.3, 641.1),
                   10: (356.5, 666.0)},
        1, {**{k: (210.4, 518.7) for k in range(6)}, 6: (212.9, 512.9),
            7: (228.7, 486.5), 8: (248.9, 451.6), 9: (270.3, 417.4), 10: (289.6, 385.1)},
        struck=2.46, cushion=4,
    )  # fmt: skip


def test_a_ball_hit_while_the_cue_ball_was_out_of_sight_after_its_strike_is_its_first() -> None:
    # Fresh 34's 894, frame by frame at 60 fps: the cue ball, frozen to the left cushion, is
    # struck along it into the 2 resting 92 mm away, and is out of sight for two frames
    # (behind the cue, then merged with the 2); seen again already turned off the 2, whose
    # first sighting off its spot comes a frame before. Its line from its spot to there says
    # nothing of when it met the 2 in between.
    times = 10.0333 + np.arange(7) / FPS
    cue = _sightings("cue", times, {0: (2394.3, 27.2), 1: (2394.3, 27.2), 2: (2394.3, 27.2),
                                    5: (2428.2, 56.7), 6: (2431.7, 67.1)})  # fmt: skip
    two = _sightings(2, times, {0: (2486.2, 46.4), 1: (2486.2, 46.4), 2: (2486.2, 46.4),
                                3: (2486.2, 46.4), 4: (2508.0, 46.0)})  # fmt: skip
    found, _ = first_contacts(cue, [two], times[2])
    assert [k for _, k in found] == [2]
    assert times[2] < found[0][0] <= times[5] + 1 / FPS


def test_a_ball_seen_only_in_pieces_near_its_spot_and_back_on_it_was_not_hit() -> None:
    # Fresh 25's 667 at 120 fps: the 7 rests under the cue, 10 mm behind the cue ball, whose
    # first step off its spot is pulled 6 mm back towards it by the tip before it goes off
    # the other way. For a second the cue lies over the 7: pieces of it beside the shaft are
    # seen up to 41 mm off its spot; then its spot shows it as it was.
    times = 29.3 + np.arange(132) / 120.0
    cue = _sightings("cue", times, {**{k: (1075.3, 1175.4) for k in range(6)}, 6: (1078.1, 1181.0),
                                    7: (1068.6, 1167.9), 8: (1047.5, 1132.8), 9: (1036.6, 1117.7),
                                    10: (1026.4, 1104.1), 11: (1016.6, 1089.6),
                                    12: (1007.1, 1074.4), 13: (996.7, 1058.3),
                                    14: (986.6, 1042.6), 15: (975.3, 1027.8), 16: (966.1, 1013.1),
                                    17: (956.5, 998.4), 18: (946.3, 982.6)})  # fmt: skip
    seven = _sightings(7, times, {**{k: (1081.4, 1242.0) for k in range(4)}, 8: (1105.1, 1228.7),
                                  9: (1105.7, 1229.1), 10: (1105.7, 1229.2),
                                  11: (1087.1, 1201.6), 16: (1105.2, 1229.7),
                                  24: (1100.7, 1238.2), 110: (1098.4, 1228.6),
                                  113: (1101.8, 1240.7), 116: (1103.2, 1250.0),
                                  **{k: (1081.4, 1242.0) for k in range(123, 132)}})  # fmt: skip
    assert not seven.left_its_spot()
    found, _ = first_contacts(cue, [seven], 29.34)
    assert found == []


def test_a_ball_hit_by_the_cue_ball_coming_back_off_a_cushion_left_away_from_where_it_was() -> None:
    # Fresh 26's 675 at 120 fps: the cue ball, struck the length of the table at 6 m/s, meets
    # the foot cushion 40 mm beside the 1 (a ball's width off it) and hits the 1 coming back,
    # 6 ms later. Blurred, its centre is never seen within reach of the 1's spot; the 1 is
    # the first ball off its spot, sent off away from where the cue ball was then, which
    # is towards where the cue ball started: "something else moved it", it was thought.
    times = 2.55 + np.arange(67) / 120.0
    cue = _sightings("cue", times, {**{k: (70.5, 302.3) for k in range(7)}, 57: (2384.8, 768.9),
                                    58: (2429.9, 778.4), 59: (2488.9, 787.7),
                                    60: (2500.6, 794.9), 61: (2496.4, 795.6),
                                    62: (2452.6, 782.5), 63: (2431.8, 769.4),
                                    64: (2411.1, 756.1), 65: (2388.3, 743.4),
                                    66: (2367.2, 731.8)})  # fmt: skip
    one = _sightings(1, times, {**{k: (2454.7, 848.6) for k in (*range(7), 57, 58, 59, 60)},
                                61: (2448.1, 856.8), 62: (2435.1, 878.1), 63: (2421.3, 900.3),
                                64: (2408.6, 921.3), 65: (2394.2, 942.2),
                                66: (2381.6, 962.4)})  # fmt: skip
    assert first_contacts(cue, [one], 2.61)[0] == []
    mover = first_mover(cue, [one], 2.61)
    assert mover is not None and mover[1] == 1
    assert mover[0] == pytest.approx(3.055, abs=1 / 120)


def test_a_paths_frame_interval_is_its_usual_step_despite_a_dropped_frame() -> None:
    times = np.delete(np.arange(0, 0.5, 1 / FPS), 10)
    path = straight(3, (800.0, 300.0), (0.0, 0.0), 0.0, times)
    assert path.frame_interval() == pytest.approx(1 / FPS)
    assert Path(3, times[:1], path.xy[:1], path.seen[:1], path.start).frame_interval() == 0.0


def test_a_ball_feathered_so_thin_it_is_seen_off_its_spot_only_late_was_hit() -> None:
    # Fresh 9's 260: the cue ball at 3.5 m/s barely shaves the 3 (its line 2 mm inside
    # touching); the 3 creeps off square to that line at 20 mm/s, slowing, and is 5 mm off
    # its spot only 0.3 s later: it went the way the hit sends a ball, never faster.
    times = np.arange(0, 1.5, 1 / FPS)
    cue = straight("cue", (500.0, 300.0), (3500.0, 0.0), 0.1, times)
    spot = (800.0, 300.0 + 2 * BALL_RADIUS_MM - 2.0)
    passing = 0.1 + 300.0 / 3500.0
    off = np.clip(times - passing, 0.0, None)
    creep = 20.0 * off - 12.0 * off**2  # mm, until it stops
    xy = np.column_stack([np.full(len(times), spot[0]), spot[1] + np.maximum.accumulate(creep)])
    three = Path(3, times, xy, np.ones(len(times), bool), spot)
    still = three.still_until()
    assert still is not None and still > passing + 0.25
    found, _ = first_contacts(cue, [three], 0.1)
    assert [k for _, k in found] == [3]
    assert found[0][0] == pytest.approx(passing, abs=2 / FPS)


def test_a_ball_seen_off_its_spot_for_a_moment_as_the_cue_ball_creeps_by_was_not_hit() -> None:
    # Fresh 8's 231: the cue ball creeps past the 1 a millimetre wider than touching; just
    # after, the 1's centre is pulled 15 mm off its spot for three frames (a shadow, a hand)
    # and is back on it for good. A ball that was hit does not come back to its spot.
    times = np.arange(0, 2, 1 / FPS)
    cue = straight("cue", (500.0, 300.0), (300.0, 0.0), 0.1, times)
    spot = (800.0, 300.0 + 2 * BALL_RADIUS_MM + 1.0)
    xy = np.tile(spot, (len(times), 1))
    xy[(times > 1.19) & (times < 1.25)] += (-6.0, -14.0)
    one = Path(1, times, xy, np.ones(len(times), bool), spot)
    assert not one.left_its_spot()
    found, _ = first_contacts(cue, [one], 0.1)
    assert found == []


def test_a_ball_pulled_off_its_spot_by_an_arm_and_lost_under_it_a_frame_is_back_to_stay() -> None:
    # Fresh 42's 1083 at 120 fps: a player's arm sweeps past the cue ball at rest; for two
    # frames its centre is found 8 and 4 mm off its spot, then on it, then out of sight for
    # two frames under the arm, then on it for good. The frames it was not seen in say
    # nothing against its staying (taken as leaving, it made a shot of its own).
    times = 8.35 + np.arange(104) / 120.0
    spot = (1146.0, 1193.0)
    xy = np.tile(spot, (len(times), 1))
    xy[60], xy[61] = (1143.0, 1186.0), (1143.0, 1196.0)
    seen = np.ones(len(times), bool)
    seen[63:65] = False
    cue = Path("cue", times, xy, seen, spot)
    assert not cue.left_its_spot()


def test_a_ball_held_on_its_spot_a_few_frames_then_seen_next_away_left_it_when_first_off() -> None:
    # Fresh 41's 1050 at 60 fps: the 7, frozen to the foot cushion, is struck into it; its
    # centre is found 32 mm off its spot for a frame, then held on it four frames, lost for
    # two, and seen next 13 mm off and going. It was not back on its spot to stay.
    times = 27.75 + np.arange(60) / 60.0
    spot = (2499.0, 1130.0)
    xy = np.tile(spot, (len(times), 1))
    seen = np.ones(len(times), bool)
    xy[19] = (2488.0, 1106.0)
    seen[20:25] = False
    xy[20:25] = xy[19]
    xy[25:30] = spot
    seen[30:32] = False
    xy[30:32] = spot
    for k in range(32, 60):
        xy[k] = (2487.0 - 3.0 * (k - 32), 1144.0 + 3.0 * (k - 32))
    seven = Path(7, times, xy, seen, spot)
    assert seven.first_moved() == 19


def _back_off_a_cushion(ball_at: F64, bounce_x: float, times: F64) -> tuple[Path, float, F64]:
    """The cue ball struck at 0.1 s from (500, 300) at 2 m/s up the table into a cushion at
    `bounce_x` (along y = 300), then straight back at the ball resting at `ball_at`, stopping
    as it hits it: its path, when it hits, and its way back."""
    bounce_at = np.array([bounce_x, 300.0])
    t_bounce = 0.1 + (bounce_x - 500.0) / 2000.0
    way_back = (ball_at - bounce_at) / np.linalg.norm(ball_at - bounce_at)
    t_hit = t_bounce + float(np.linalg.norm(ball_at - bounce_at) - 2 * BALL_RADIUS_MM) / 2000.0
    xy = []
    for t in times:
        if t < t_bounce:
            xy.append([500.0 + 2000.0 * max(0.0, t - 0.1), 300.0])
        else:
            xy.append(bounce_at + way_back * 2000.0 * (min(t, t_hit) - t_bounce))
    return (
        Path("cue", times, np.array(xy), np.ones(len(times), bool), (500.0, 300.0)),
        t_hit,
        way_back,
    )


def test_a_ball_the_path_passed_on_its_way_to_a_cushion_is_hit_when_it_comes_back() -> None:
    # Fresh 6's 186: the cue ball passes the 3 a millimetre wider than touching on its way to
    # the cushion, comes back off it and hits the 3 full.
    times = np.arange(0, 1.2, 1 / FPS)
    three_at = np.array([800.0, 300.0 + 2 * BALL_RADIUS_MM + 1.0])
    cue, t_hit, way_back = _back_off_a_cushion(three_at, 1200.0, times)
    velocity = way_back * 1500.0
    start = (float(three_at[0]), float(three_at[1]))
    three = straight(3, start, (float(velocity[0]), float(velocity[1])), t_hit, times)
    found, _ = first_contacts(cue, [three], 0.1)
    assert [k for _, k in found] == [3]
    assert found[0][0] == pytest.approx(t_hit, abs=1 / FPS)


def test_a_ball_whose_centre_is_pulled_off_its_spot_just_before_the_hit_was_hit() -> None:
    # Fresh 11's 320: the cue ball comes back off a cushion and hits the 1; the frame before
    # it touches, the two balls' blurs meet and the 1's centre is seen 10 mm off its spot,
    # then 6 mm (nearer again), then going away. It started going after the hit, not at
    # the pulled frame, more than half a frame before it.
    times = np.arange(0, 1.2, 1 / FPS)
    one_at = np.array([800.0, 300.0 + 2 * BALL_RADIUS_MM + 1.0])
    cue, t_hit, way_back = _back_off_a_cushion(one_at, 1205.0, times)
    start = (float(one_at[0]), float(one_at[1]))
    one = straight(1, start, tuple(way_back * 1500.0), t_hit, times)
    after = int(np.searchsorted(times, t_hit))
    assert t_hit - times[after - 1] > 0.5 / FPS  # the pull is more than half a frame early
    one.xy[after - 1] = one_at + 10.0 * way_back
    one.xy[after] = one_at + 6.0 * way_back
    found, _ = first_contacts(cue, [one], 0.1)
    assert [k for _, k in found] == [1]
    assert found[0][0] == pytest.approx(t_hit, abs=1 / FPS)


def test_a_ball_seen_pushed_off_its_spot_by_the_split_of_its_blob_with_the_cue_ball_was_hit() -> (
    None
):
    # Fresh 13's 370 at 60 fps: the cue ball at 2.6 m/s meets the 1 just as a frame is taken;
    # the two are one blob, split with each centre pushed off the other: the 1 is seen 6.4
    # mm off its spot, and the cue ball 16 mm short of it, so that it seems to reach the 1
    # 9 ms later. Seen off it by less than the position noise, the 1 may yet have been on its
    # spot until its pace after would have taken it that far.
    times = 23.583 + np.arange(12) / FPS
    cue = _sightings("cue", times, {0: (239.7, 615.6), 3: (143.1, 626.4), 4: (117.1, 631.4),
                                    5: (82.1, 631.8), 7: (86.9, 598.7), 8: (85.2, 588.7),
                                    9: (83.3, 578.4), 10: (80.9, 568.6),
                                    11: (78.8, 559.6)})  # fmt: skip
    one = _sightings(1, times, {**{k: (46.0, 648.5) for k in range(4)}, 4: (39.6, 648.5),
                                5: (39.5, 659.4), 8: (124.8, 685.6), 9: (150.0, 691.6),
                                10: (175.5, 697.4), 11: (198.6, 704.5)})  # fmt: skip
    found, _ = first_contacts(cue, [one], float(times[2]))
    assert [key for _, key in found] == [1]


def test_a_ball_seen_wavering_in_a_corners_mouth_clear_of_the_jaw_met_no_cushion() -> None:
    # Fresh 14's 382, frame by frame at 60 fps: the 1, cut from 9 mm off the foot cushion
    # into the foot-left corner, is seen 4 mm past the foot cushion's line and back 2 mm as
    # it goes down, 66 mm past the jaw's tip (the foot cushion has no nose there).
    times = 11.85 + np.arange(13) / FPS
    one = _sightings(1, times, {0: (2502.1, 59.8), 1: (2502.1, 59.8), 2: (2502.1, 59.8),
                                3: (2506.0, 41.2), 4: (2506.4, 37.9), 5: (2508.0, 36.8),
                                6: (2505.8, 28.6), 7: (2508.8, 27.5), 8: (2509.5, 21.9),
                                9: (2515.4, 16.1), 10: (2515.3, 16.0), 11: (2513.3, 12.6),
                                12: (2515.8, 12.8)})  # fmt: skip
    down = Disappearance(1, 12.06, "FL", 500.0)
    assert cushion_contacts(one, TABLE, 11.849, down) == []


def _into_the_left_side_pocket(back_out: bool) -> tuple[Path, Disappearance | None]:
    """Fresh 67's 1711, frame by frame at 120 fps: the 6 rolling slowly into the left side
    pocket, 9 mm off its near jaw at the nearest, seen 4 mm deeper for a frame and back,
    then deeper again, and down; or (`back_out`) turned back out from there."""
    seen = [(1211.9, 43.9), (1217.1, 40.2), (1217.9, 39.1), (1220.7, 37.6), (1224.5, 36.7),
            (1226.8, 32.1), (1228.1, 29.4), (1230.9, 25.4), (1231.2, 18.7), (1233.8, 18.8),
            (1237.2, 18.7), (1240.0, 14.8), (1240.2, 19.3), (1242.9, 10.6)]  # fmt: skip
    if back_out:
        seen[-1:] = [(1242.9, 22.6), (1245.5, 26.1), (1248.0, 29.7)]
    times = 5.7917 + np.arange(len(seen) + 2) / 120
    six = _sightings(6, times, dict(enumerate(seen)))
    return six, None if back_out else Disappearance(6, 5.91, "SL", 300.0)


def test_a_ball_seen_wavering_going_down_a_side_pocket_met_no_cushion() -> None:
    six, down = _into_the_left_side_pocket(back_out=False)
    assert cushion_contacts(six, TABLE, 5.79, down) == []
    # Turned back out there, it met a jaw.
    six, down = _into_the_left_side_pocket(back_out=True)
    assert [e.rail for e in cushion_contacts(six, TABLE, 5.79, down)] == ["left"]


def test_a_ball_turned_by_a_corners_jaw_and_falling_in_off_it_touched_it() -> None:
    # Fresh 61's 1570, frame by frame at 60 fps: the 10, going into the head-left corner,
    # turned along the left cushion off its jaw 5 mm past the cushion's line, and fell in
    # seen deeper from two frames on. (In a side pocket's mouth, that is the mouth pulling
    # its seen centre about: above.)
    times = 28.6 + np.arange(16) / FPS
    seen = [(97.6, 61.4), (93.7, 56.8), (89.1, 49.5), (86.5, 42.2), (79.8, 36.3), (74.9, 29.5),
            (71.4, 23.8), (63.0, 22.5), (55.4, 22.8), (49.5, 23.8), (42.2, 14.8), (36.7, 16.5),
            (29.9, 14.5), (27.0, 13.0), (20.7, 11.8)]  # fmt: skip
    ten = _sightings(10, times, dict(enumerate(seen)))
    down = Disappearance(10, 28.846, "HL", 400.0)
    assert "left" in [e.rail for e in cushion_contacts(ten, TABLE, 28.59, down)]


def test_a_turn_off_a_jaws_rounding_short_of_the_other_cushions_line_counts() -> None:
    # Fresh 14's 385, frame by frame at 60 fps: the 2, off the left cushion, turns 15 mm
    # short of the head cushion's line 75 mm from the head-left corner: past where this
    # table's straight nose ends, on the jaw's rounding as the simulator shapes it. Still
    # 46 mm off the left cushion's line, it was not down in the mouth: the head rail.
    times = 29.383 + np.arange(11) / FPS
    two = _sightings(2, times, {0: (333.5, 85.7), 1: (280.7, 69.1), 2: (235.1, 48.2),
                                3: (183.5, 26.2), 4: (139.6, 41.7), 5: (92.2, 54.0),
                                6: (44.1, 72.3), 7: (43.2, 74.7), 8: (84.7, 71.9),
                                9: (119.9, 69.9), 10: (157.7, 63.3)})  # fmt: skip
    rails = [e.rail for e in cushion_contacts(two, TABLE, 29.3)]
    assert rails == ["left", "head"]


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


def test_a_ball_down_in_a_pocket_touches_no_cushion_after() -> None:
    # Its track runs on after it dropped (onto the cue ball that followed it in) and turns
    # off the foot cushion: the ball itself was down by then.
    times = np.arange(0, 2, 1 / FPS)
    hit = 0.5 + (2540 - BALL_RADIUS_MM - 1500) / 2000
    xy = [
        (1500.0 + 2000 * min(max(t - 0.5, 0.0), hit - 0.5) - 1500 * max(t - hit, 0.0), 400.0)
        for t in times
    ]
    path = Path(3, times, np.array(xy), np.ones(len(times), bool), (1500.0, 400.0))
    dropped = Disappearance(3, hit - 0.2, "FR")
    assert cushion_contacts(path, TABLE, 0.5, dropped) == []
    assert [e.rail for e in cushion_contacts(path, TABLE, 0.5)] == ["foot"]


def test_a_ball_frozen_to_a_cushion_does_not_touch_it_by_rolling_along_it() -> None:
    times = np.arange(0, 1.5, 1 / FPS)
    start = (800.0, BALL_RADIUS_MM + 1.0)  # frozen to the left cushion
    path = straight(5, start, (1500.0, 0.0), 0.2, times, stop_at=1.0)
    assert all(e.frozen_no_leave for e in cushion_contacts(path, TABLE, 0.2))


def test_a_frozen_ball_struck_into_its_cushion_and_off_it_did_not_touch_it_after_leaving() -> None:
    # Fresh 10's 288: the 3 frozen to the left cushion, struck by the cue ball into it and
    # off it at an angle (it leaves it for good). Its touch as it is struck is before it
    # left: frozen (WPA 8.4), though it did leave afterwards.
    three = [(1946.0, 28.4)] * 6 + [(1932.0, 38.2), (1926.3, 43.9), (1926.3, 43.9)]
    three += [(1916.4, 56.1), (1913.5, 57.8), (1907.3, 66.0), (1904.2, 70.3), (1898.0, 75.6)]
    cue = [(2012.4, 115.9), (2006.9, 101.7), (1999.6, 89.0), (1994.5, 76.3), (1990.2, 64.4)]
    cue += [(1995.1, 59.2), (1996.4, 55.3), (1997.9, 49.1), (2000.0, 42.0), (1997.3, 34.3)]
    cue += [(2004.7, 27.5), (2002.4, 31.7), (2001.4, 38.1), (2000.3, 41.3)]
    times = 34.2 + np.arange(len(three)) / FPS
    seen = np.ones(len(three), bool)
    seen[8] = False
    path = Path(3, times, np.array(three), seen, three[0])
    cue_path = Path("cue", times, np.array(cue), np.ones(len(cue), bool), cue[0])
    events = cushion_contacts(path, TABLE, 34.2627, struck_from=cue[4], others=[cue_path])
    assert [e.rail for e in events] == ["left"]
    assert events[0].frozen_no_leave


def test_a_frozen_ball_back_at_its_cushion_within_a_tenth_of_a_second_touched_it_once() -> None:
    # Fresh 54's 1384, frame by frame at 60 fps: the 3, frozen 1.4 mm off the head cushion
    # by the head-right corner, struck along it into the right jaw and back into the head
    # jaw 65 ms after it was struck. Less than 0.1 s apart, the two touches of the head rail
    # are one (contracts §3): the one as it was struck, frozen.
    three = _sightings(3, 23.8 + np.arange(13) / FPS,
                       {0: (30.0, 1176.0), 1: (30.0, 1176.0), 2: (30.0, 1176.0),
                        3: (30.0, 1176.0), 4: (39.0, 1210.0), 5: (50.0, 1255.0),
                        6: (28.0, 1235.0), 7: (20.0, 1228.0), 8: (45.0, 1238.0),
                        9: (66.0, 1244.0), 10: (63.0, 1226.0), 11: (62.0, 1206.0),
                        12: (62.0, 1186.0)})  # fmt: skip
    events = cushion_contacts(three, TABLE, 23.855)
    assert {(e.rail, e.frozen_no_leave) for e in events if e.rail == "head"} == {("head", True)}


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


def _lost_creeping(key: int | str) -> tuple[Path, Disappearance]:
    """A ball that crept to a stop 40 mm off the left cushion, lost from sight as it did."""
    times = np.arange(0, 2, 1 / FPS)
    path = straight(key, (1900.0, 300.0), (100.0, -150.0), 0.1, times, stop_at=1.6)
    seen = times < 1.55
    lost = Path(key, times, path.xy, seen, path.start)
    drop = disappearance(lost, TABLE, 1 / FPS)
    assert drop is not None and drop.pocket is None
    return lost, drop


def test_an_object_ball_lost_creeping_to_a_stop_is_still_on_the_table() -> None:
    lost, drop = _lost_creeping(8)
    elsewhere = straight("cue", (600.0, 900.0), (300.0, 0.0), 0.0, lost.t)
    assert stayed_on_the_table(lost, [elsewhere], drop)


def test_an_object_ball_lost_and_then_hit_may_have_left_the_table() -> None:
    # The cue ball passes over where it was lost, between two frames: it may have hit it.
    lost, drop = _lost_creeping(8)
    where = lost.xy[lost.last_seen()]
    hitter = straight("cue", (where[0] - 600.0, where[1]), (6000.0, 0.0), 1.7, lost.t)
    assert not stayed_on_the_table(lost, [hitter], drop)


def test_an_object_ball_lost_as_a_slow_ball_stopped_against_it_stayed_on_the_table() -> None:
    # Fresh 13's 351: the cue ball creeps up to the 7 at 0.15 m/s and stops against it; the
    # two are one blob and the 7 is lost. Sent no faster than that, it cannot have gone over
    # a cushion.
    lost, drop = _lost_creeping(8)
    where = lost.xy[lost.last_seen()]
    stop = (300.0 - 2 * BALL_RADIUS_MM) / 150.0
    creeper = straight("cue", (where[0] - 300.0, where[1]), (150.0, 0.0), 0.0, lost.t, stop)
    assert stayed_on_the_table(lost, [creeper], drop)


def test_an_object_ball_lost_going_fast_may_have_left_the_table() -> None:
    times = np.arange(0, 1, 1 / FPS)
    path = straight(4, (800.0, 600.0), (0.0, 2000.0), 0.1, times)
    seen = np.array([p[1] < 1270 - BALL_RADIUS_MM for p in path.xy])
    gone = Path(4, times, path.xy, seen, path.start)
    drop = disappearance(gone, TABLE, 1 / FPS)
    assert drop is not None and not stayed_on_the_table(gone, [], drop)


def test_the_cue_ball_lost_at_rest_may_have_been_struck_off_the_table() -> None:
    lost, drop = _lost_creeping("cue")
    assert not stayed_on_the_table(lost, [], drop)


def _bounce(times: F64, start: float, speed: float, t0: float, noise_mm: float) -> Path:
    """A ball rolling slowly to the right cushion and back, its positions jittered."""
    rng = np.random.default_rng(7)
    touch = TABLE.width - BALL_RADIUS_MM
    hit = t0 + (touch - start) / speed
    y = np.where(times < t0, start, np.where(times < hit, start + speed * (times - t0),
                                               touch - speed * (times - hit)))  # fmt: skip
    y = y + rng.uniform(-noise_mm, noise_mm, len(times))
    xy = np.stack([np.full(len(times), 900.0), y], axis=1)
    return Path("cue", times, xy, np.ones(len(times), bool), (900.0, start))


@pytest.mark.parametrize("fps", [60.0, 120.0])
def test_a_slow_ball_jittering_at_the_cushion_touched_it_once(fps: float) -> None:
    times = np.arange(0, 2, 1 / fps)
    path = _bounce(times, 1150.0, 180.0, 0.2, noise_mm=1.5)
    assert [(e.balls, e.rail) for e in cushion_contacts(path, TABLE, 0.2)] == [(("cue",), "right")]


def test_a_fast_ball_that_turned_off_a_cushion_between_frames_touched_it() -> None:
    # 5 m/s square into the right cushion at 60 fps, the bounce midway between two frames:
    # the frames either side are 40 mm off it. (Watched until before it reaches the left.)
    times = np.arange(0, 0.6, 1 / FPS)
    step = 5000.0 / FPS
    start = TABLE.width - BALL_RADIUS_MM - 6.5 * step
    path = _bounce(times, start, 5000.0, 0.3 - 1e-9, noise_mm=0.5)
    assert float(np.min(TABLE.rail_gaps(path.xy)[:, 3])) > 0.45 * step
    assert [(e.balls, e.rail) for e in cushion_contacts(path, TABLE, 0.2)] == [(("cue",), "right")]


def test_a_ball_seen_on_both_sides_of_its_turn_off_a_cushion_touched_it() -> None:
    # 2 m/s into the foot cushion at 60 fps, seen as a held-out recording saw it: blurred
    # frames near the cushion (the blur folds back on the bounce) lie 7 mm off it, and the
    # turn falls between the two nearest, whose chord is short. A frame's travel is the
    # step out of the turn.
    gaps = [185.4, 151.2, 116.9, 84.7, 52.7, 25.1, 19.0, 39.2, 60.7, 83.8, 107.9]
    ys = [948.0, 939.0, 930.0, 921.0, 912.0, 904.0, 896.0, 887.0, 881.0, 877.0, 873.0]
    times = 12.883 + np.arange(len(gaps)) / FPS
    x = TABLE.length - BALL_RADIUS_MM - np.array(gaps)
    path = Path(2, times, np.stack([x, ys], axis=1), np.ones(len(gaps), bool), (x[0], ys[0]))
    assert [(e.rail, round(e.t, 2)) for e in cushion_contacts(path, TABLE, 12.8)] == [
        ("foot", 12.98)
    ]


def _hidden_at_the_cushion(shift_out_mm: float = 0.0) -> tuple[Path, float]:
    """A ball at 1.5 m/s into the right cushion and back, out of sight (under an arm) from
    0.2 s before it meets it to 0.15 s after (seen again `shift_out_mm` along the cushion
    from where it would be), and when it met it."""
    times = np.arange(0, 1.2, 1 / 120.0)
    path = _bounce(times, 700.0, 1500.0, 0.1, noise_mm=3.0)
    hit = 0.1 + (TABLE.width - BALL_RADIUS_MM - 700.0) / 1500.0
    xy = path.xy.copy()
    xy[times > hit, 0] += shift_out_mm
    moved = Path(path.key, times, xy, path.seen, path.start)
    return _unseen_between(moved, hit - 0.2, hit + 0.15), hit


def test_a_ball_hidden_under_an_arm_as_it_met_a_cushion_touched_it() -> None:
    path, hit = _hidden_at_the_cushion()
    events = cushion_contacts(path, TABLE, 0.1)
    assert [(e.balls, e.rail) for e in events] == [(("cue",), "right")]
    assert events[0].t == pytest.approx(hit, abs=0.02)


def test_a_ball_seen_off_its_centre_as_it_went_under_an_arm_met_the_cushion_all_the_same() -> None:
    # Half under the arm for three frames before it is hidden, its seen middle lies a radius
    # along the cushion from its centre (held-out 023 shot 4): its way in is still the line
    # it kept over the frames before and after that.
    path, hit = _hidden_at_the_cushion()
    last = int(np.nonzero(path.seen & (path.t < hit))[0][-1])
    xy = path.xy.copy()
    xy[last - 5 : last - 2, 0] += BALL_RADIUS_MM
    events = cushion_contacts(Path(path.key, path.t, xy, path.seen, path.start), TABLE, 0.1)
    assert [(e.balls, e.rail) for e in events] == [(("cue",), "right")]
    assert events[0].t == pytest.approx(hit, abs=0.02)


@pytest.mark.parametrize("end", ["in", "out"])
def test_a_ball_last_seen_merged_with_the_cue_beside_it_met_the_cushion_all_the_same(
    end: str,
) -> None:
    # Rolling beside the cue lying on the cloth towards the player's hand at the cushion, the
    # ball merges with the shaft as it goes under the hand (fresh 48's 1248): its last
    # sighting lies 30 mm across its way and 25 mm short of it, and so, coming back out,
    # may its first. Fitted with that sighting, its way in was too slow to have met the
    # cushion while hidden.
    path, hit = _hidden_at_the_cushion()
    at, seen = np.searchsorted(path.t, hit), np.nonzero(path.seen)[0]
    edge = int(seen[seen < at][-1] if end == "in" else seen[seen > at][0])
    xy = path.xy.copy()
    xy[edge] += (30.0, -25.0 if end == "in" else 25.0)
    events = cushion_contacts(Path(path.key, path.t, xy, path.seen, path.start), TABLE, 0.1)
    assert [(e.balls, e.rail) for e in events] == [(("cue",), "right")]
    assert events[0].t == pytest.approx(hit, abs=0.02)


@pytest.mark.parametrize("shift_mm", [0.0, 150.0])
def test_a_slow_ball_hidden_as_it_met_a_cushion_and_seen_coming_back_slowing_touched_it(
    shift_mm: float,
) -> None:
    # Into the right cushion at 0.225 m/s, out of sight from 0.08 s before it meets it to
    # 0.15 s after; it comes off it at 0.15 m/s and slows at 0.6 m/s2, so it is seen going
    # away at under 0.1 m/s (fresh 5's 170: the 9 under the player's arm). Seen again 15 cm
    # along the cushion from where its way back leads, something else turned it.
    times = np.arange(0.0, 0.8, 1 / FPS)
    t_hit = 0.2 + 43.0 / 225.0
    after = np.clip(times - t_hit, 0.0, 0.25)
    gap = np.where(times < t_hit, 43.0 - 225.0 * (times - 0.2), 150.0 * after - 300.0 * after**2)
    gap = np.where(times < 0.2, 43.0, gap)
    x = 550.0 + 20.0 * times + np.where(times > t_hit, shift_mm, 0.0)
    xy = np.stack([x, TABLE.width - BALL_RADIUS_MM - gap], axis=1)
    seen = (times < t_hit - 0.08) | (times > t_hit + 0.15)
    path = Path(9, times, xy, seen, (x[0], xy[0, 1]))
    events = cushion_contacts(path, TABLE, 0.2)
    if shift_mm:
        assert events == []
    else:
        assert [(e.balls, e.rail) for e in events] == [((9,), "right")]
        assert events[0].t == pytest.approx(t_hit, abs=0.02)


def test_a_ball_turned_off_another_just_before_it_went_out_of_sight_met_no_cushion() -> None:
    # The cue ball at 3.6 m/s towards the right cushion meets the 7 120 mm off it and comes
    # back; seen once going away, then hidden for two frames, then going away at 1.1 m/s
    # (fresh 4's 128, frame by frame): fitted over its last frames its way in still reaches
    # the cushion while it was unseen, but it was last seen going away already.
    gaps = [400.0, 311.6, 222.1, 119.5, 145.4, 170.0, 180.0, 190.4, 205.6, 225.5, 246.9, 265.0]
    times = 22.4 + np.arange(len(gaps)) / FPS
    seen = np.ones(len(gaps), bool)
    seen[5:7] = False
    xy = np.stack(
        [700.0 - 40.0 * np.arange(len(gaps)), TABLE.width - BALL_RADIUS_MM - np.array(gaps)], axis=1
    )
    path = Path("cue", times, xy, seen, (900.0, 700.0))
    assert cushion_contacts(path, TABLE, 22.48) == []


def _sightings(key: int | str, times: F64, at: dict[int, tuple[float, float]]) -> Path:
    """A ball seen at the samples `at` names (its spot: the first), out of sight between."""
    xy, last = [], at[0]
    for k in range(len(times)):
        last = at.get(k, last)
        xy.append(last)
    seen = np.array([k in at for k in range(len(times))])
    return Path(key, times, np.array(xy), seen, at[0])


def test_a_ball_seen_again_nearer_a_cushion_after_a_while_hidden_did_not_turn_off_it() -> None:
    # Fresh 17's 466, frame by frame at 60 fps: the 8 rolling at 0.7 m/s about 150 mm off
    # the right cushion, nearly along it, is glimpsed past an arm and then hidden for 0.35 s,
    # and seen again 14 mm nearer the cushion (its centre jitters by several millimetres).
    # Half its step across the hidden while is no frame's travel within which it may have
    # turned off the cushion unseen: it was never seen going into it.
    times = 32.6 + np.arange(41) / FPS
    seen = {0: (1634.7, 1089.6), 1: (1652.4, 1087.2), 2: (1663.6, 1086.2), 3: (1674.3, 1084.9),
            4: (1696.3, 1091.7), 6: (1714.7, 1091.2), 9: (1750.5, 1084.0), 13: (1796.4, 1091.1),
            34: (2059.1, 1105.1), 35: (2063.4, 1104.2), 36: (2068.6, 1100.6),
            37: (2088.8, 1104.7), 38: (2096.3, 1099.5), 39: (2110.5, 1099.7),
            40: (2126.4, 1098.1)}  # fmt: skip
    eight = _sightings(8, times, seen)
    assert cushion_contacts(eight, TABLE, 32.3) == []


def test_a_ball_at_rest_struck_into_a_cushion_out_of_sight_met_it() -> None:
    # The tuning set's break at 120 fps: the 6, resting in the rack 438 mm off the foot
    # cushion, is out of sight for 0.07 s as the rack breaks, and seen again 105 mm off it
    # going away at 6 m/s. Still as it went out of sight, it was not seen going into the
    # cushion; it was struck into it meanwhile.
    times = 4.5 + np.arange(16) / 120.0
    foot = TABLE.length - BALL_RADIUS_MM
    gaps = {0: 438.2, 1: 438.2, 2: 438.2, 3: 438.2, 11: 104.7, 12: 155.3, 13: 205.9,
            14: 256.5, 15: 307.1}  # fmt: skip
    six = _sightings(6, times, {k: (foot - gap, 700.0) for k, gap in gaps.items()})
    assert [e.rail for e in cushion_contacts(six, TABLE, 4.5)] == ["foot"]


def test_a_ball_struck_far_into_a_cushion_and_first_seen_well_back_off_it_met_it() -> None:
    # Fresh 23's 612, frame by frame at 60 fps: the cue ball drives the 4, resting 260 mm off
    # the foot cushion, into it at 5.7 m/s; its streak is too faint to see until it is 170
    # mm back off the cushion, going away. The straight way from its spot there is slower
    # than it goes on; its way out, carried back, meets the cushion 30 mm from where the
    # drive does.
    times = 29.8 + np.arange(12) / FPS
    four = _sightings(4, times, {0: (2252.6, 955.6), 1: (2252.6, 955.6), 2: (2252.6, 955.6),
                                 8: (2338.4, 760.9), 9: (2290.8, 733.3),
                                 11: (2168.2, 686.3)})  # fmt: skip
    hitter = (2197.4, 982.1)
    (event,) = cushion_contacts(four, TABLE, 29.834, struck_from=hitter)
    assert event.rail == "foot"
    assert event.t == pytest.approx(29.885, abs=0.02)
    # Driven along the cushion instead, it did not meet it.
    along = (2252.6, 955.6 + 2 * BALL_RADIUS_MM)
    assert cushion_contacts(four, TABLE, 29.834, struck_from=along) == []


def test_a_ball_seen_again_going_another_way_after_a_while_hidden_may_have_met_a_cushion() -> None:
    # Fresh 8's 230, frame by frame at 60 fps: the cue ball, struck into the 2 by the right
    # cushion, is seen once going off and is then out of sight for 0.7 s, in which it met
    # the right and the foot cushions; seen again 135 mm off the foot cushion, going away
    # from it. Its ways either side of the while do not run on as one line: it turned.
    times = 26.5 + np.arange(58) / FPS
    seen = {0: (2352.2, 1114.8), 1: (2352.2, 1114.8), 2: (2352.2, 1114.8), 6: (2296.5, 1234.0),
            49: (2376.4, 417.1), 50: (2370.5, 401.2), 51: (2366.1, 383.8), 52: (2361.4, 367.0),
            53: (2356.8, 350.2), 54: (2352.2, 332.6), 55: (2347.2, 316.7),
            56: (2343.3, 299.1), 57: (2339.4, 282.7)}  # fmt: skip
    cue = _sightings("cue", times, seen)
    assert "foot" in [e.rail for e in cushion_contacts(cue, TABLE, 26.59)]


def test_a_ball_turned_by_another_between_two_sightings_met_no_cushion_there() -> None:
    # Fresh 12's 338, frame by frame at 60 fps: the cue ball at 5 m/s meets the 1, resting
    # 36 mm off the left cushion, two frames after it was last seen 184 mm from it, and comes
    # away slowly. Its first sighting after is its nearest to the cushion (65 mm), within half
    # a frame's travel (134 mm), but its lines in and out meet 51 mm off the cushion: the
    # turn was the 1's doing.
    times = 37.1 + np.arange(16) / FPS
    cue = _sightings("cue", times, {0: (1726.1, 138.7), 1: (1726.1, 138.7), 3: (1831.1, 119.7),
                                    4: (1918.6, 103.1), 7: (2052.6, 93.2), 8: (2057.4, 99.9),
                                    9: (2061.2, 106.3), 10: (2063.0, 114.8), 11: (2066.4, 123.4),
                                    12: (2068.7, 128.6), 13: (2069.3, 136.7), 14: (2072.8, 141.3),
                                    15: (2074.3, 147.9)})  # fmt: skip
    one = _sightings(1, times, {**{k: (2098.9, 64.0) for k in range(6)}, 6: (2106.0, 64.8),
                                7: (2223.7, 31.6), 8: (2295.6, 43.9), 9: (2364.7, 61.7),
                                10: (2437.6, 78.2), 11: (2491.9, 97.3), 12: (2465.4, 113.9),
                                13: (2440.0, 130.0), 14: (2415.0, 146.0),
                                15: (2390.0, 162.0)})  # fmt: skip
    assert cushion_contacts(cue, TABLE, 37.191, others=[one]) == []


def test_a_ball_seen_again_off_its_way_back_from_a_cushion_touched_it_no_more_surely() -> None:
    # Seen again 15 cm along the cushion from where its way back leads: something else
    # (a ball, a hand) turned it out of sight.
    path, _ = _hidden_at_the_cushion(shift_out_mm=150.0)
    assert cushion_contacts(path, TABLE, 0.1) == []


def test_a_ball_at_break_speed_off_a_cushion_touched_it_though_its_streaks_lie_off_it() -> None:
    # 10 m/s into the foot cushion at 60 fps, as a tuning recording's break saw it: each
    # frame's middle of a 15 cm streak, the two nearest the turn 53 and 87 mm off the
    # cushion, their lines in and out meeting 11 mm off it.
    gaps = [459.7, 357.9, 210.6, 87.0, 53.1, 161.6, 277.0, 392.1, 500.8]
    ys = [690.1, 749.5, 835.1, 906.1, 979.9, 1023.7, 1073.6, 1124.5, 1171.7]
    times = 5.2 + np.arange(len(gaps)) / FPS
    x = TABLE.length - BALL_RADIUS_MM - np.array(gaps)
    path = Path(7, times, np.stack([x, ys], axis=1), np.ones(len(gaps), bool), (x[0], ys[0]))
    assert [e.rail for e in cushion_contacts(path, TABLE, 5.2)] == ["foot"]


def test_a_ball_lost_running_into_a_cushion_and_potted_across_the_table_touched_it() -> None:
    # The 7 is last seen 6 mm off the right cushion at 3 m/s into it, then not again until
    # it drops in the side pocket on the left: it turned off the right cushion unseen.
    times = 3.1 + np.arange(4) / FPS
    ys = [1134.0, 1185.0, 1236.0, 1236.0]
    xy = np.stack([np.full(4, 1420.0), ys], axis=1)
    seen = np.array([True, True, True, False])
    path = Path(7, times, xy, seen, (1426.0, 1118.0))
    side = Disappearance(7, 3.74, "SL", 2000.0)
    assert [e.rail for e in cushion_contacts(path, TABLE, 3.09, side)] == ["right"]
    # Potted in the side pocket on that cushion's own side, it went straight in.
    near = Disappearance(7, 3.2, "SR", 2000.0)
    assert cushion_contacts(path, TABLE, 3.09, near) == []


def test_a_ball_struck_into_a_cushion_and_first_seen_coming_off_it_touched_it() -> None:
    # The 7 rests 23 mm off the head cushion; the cue ball hits it from the foot side, and
    # it is not seen again until 3 frames later, 25 mm off the cushion and going away.
    times = 31.78 + np.arange(8) / FPS
    x = BALL_RADIUS_MM + np.array([23.0, 23.0, 23.0, 23.0, 24.8, 26.2, 28.4, 30.8])
    y = np.array([1161.0, 1161.0, 1161.0, 1161.0, 1143.0, 1136.0, 1130.0, 1124.0])
    seen = np.array([True, True, False, False, True, True, True, True])
    path = Path(7, times, np.stack([x, y], axis=1), seen, (x[0], y[0]))
    from_foot = (x[0] + 2 * BALL_RADIUS_MM, 1160.0)
    assert [e.rail for e in cushion_contacts(path, TABLE, 31.793, struck_from=from_foot)] == [
        "head"
    ]
    # Hit from the head side (away from the cushion), it went straight off.
    from_head = (x[0] - 2 * BALL_RADIUS_MM, 1160.0)
    assert cushion_contacts(path, TABLE, 31.793, struck_from=from_head) == []


def test_a_ball_is_struck_from_where_its_hitter_s_way_in_reaches_it() -> None:
    # Fresh 49's 1258: the cue ball at 4 m/s, seen a frame before it hits the 1 (resting 49
    # mm off the right cushion) and two after, went on into that cushion meanwhile. The line
    # between its sightings either side cuts the corner: 84 mm from the 1 as it hit, on a
    # line driving the 1 into the cushion; its way in, carried on, touches the 1 from beside
    # it, and the 1 went off along the cushion.
    times = 2.35 + np.arange(12) / FPS
    cue_x = [1776, 1816, 1856, 1896, 1896, 1896, 1969, 1982, 1997, 2008, 2023, 2037]
    cue_y = [952, 1006, 1060, 1114, 1114, 1114, 1221, 1185, 1150, 1116, 1083, 1050]
    cue_xy = np.stack([cue_x, cue_y], axis=1).astype(np.float64)
    seen = np.array([True] * 4 + [False] * 2 + [True] * 6)  # both out of sight at the hit
    cue = Path("cue", times, cue_xy, seen, (1500.0, 600.0))
    one_x = [2012, 2012, 2012, 2012, 2012, 2012, 2065, 2097, 2132, 2167, 2196, 2226]
    one_y = [1192, 1192, 1192, 1192, 1192, 1192, 1189, 1186, 1186, 1185, 1184, 1183]
    one_xy = np.stack([one_x, one_y], axis=1).astype(np.float64)
    one = Path(1, times, one_xy, seen, (2012.0, 1192.0))
    t_hit = 2.4245
    x, y = struck_at(cue, t_hit, one.start) or (math.nan, math.nan)
    assert math.hypot(x - 1954.8, y - 1193.4) < 1.0
    assert cushion_contacts(one, TABLE, t_hit, struck_from=(x, y), others=[cue]) == []
    # (From the line between its sightings the 1 was driven into the cushion, 49 mm off;
    # going on at 2 m/s, it cannot have gone in along that drive and 52 mm back out, at
    # twice that pace at most, in the 26 ms (and half a frame) to its first sighting.)
    from_the_line = cue.at(t_hit)
    assert cushion_contacts(one, TABLE, t_hit, struck_from=from_the_line) == []


def test_a_ball_hit_thin_along_its_cushion_going_slowly_did_not_go_in_and_out_unseen() -> None:
    # Fresh 55's 1416 (1 m along the cushion): the 5 rests 8 mm off the left cushion; the
    # cue ball, last seen 19 mm farther off it (on a line driving the 5 into it), came off
    # that cushion between two frames and hit the 5 thin from its side: the 5 went along
    # the cushion at 0.3 m/s, first seen 1 mm farther from it 16 ms after it was last seen
    # on its spot. In 8 mm along its drive and back out takes 36 mm of way.
    times = 27.85 + np.arange(14) / FPS
    x = [1155, 1155, 1155, 1155, 1155, 1140, 1144, 1136, 1132, 1124, 1119, 1114, 1108, 1104]
    y = [37, 37, 37, 37, 37, 38, 41, 39, 40, 39, 41, 40, 41, 41]
    xy = np.stack([x, y], axis=1).astype(np.float64)
    five = Path(5, times, xy, np.ones(14, bool), (1155.0, 37.0))
    hitter = (1211.0, 55.0)
    assert cushion_contacts(five, TABLE, 27.9152, struck_from=hitter) == []
    # Going on at 1.2 m/s, it can have: it met it.
    x_fast = [1155, 1155, 1155, 1155, 1155, 1140, 1120, 1100, 1080, 1060, 1040, 1020, 1000, 980]
    y_fast = [37, 37, 37, 37, 37, 38, 42, 46, 50, 54, 58, 62, 66, 70]
    fast = Path(
        5,
        times,
        np.stack([x_fast, y_fast], axis=1).astype(np.float64),
        np.ones(14, bool),
        (1155.0, 37.0),
    )
    assert [e.rail for e in cushion_contacts(fast, TABLE, 27.9152, struck_from=hitter)] == ["left"]


def test_a_ball_struck_into_its_cushion_seen_on_in_the_frame_of_the_hit_met_it() -> None:
    # Held-out 010 under the soft-focus look: the 2 rests 3.4 mm off the right cushion, is
    # struck into it at 2.6 m/s and seen 6 mm on 0.2 ms after the hit is placed: a
    # frame's time is the middle of its exposure, and the hit's a guess to a fraction of one.
    times = 23.0 + np.arange(9) / FPS
    x = [587, 587, 587, 581, 540, 494, 453, 413, 375]
    y = [1238, 1238, 1238, 1237, 1224, 1204, 1187, 1162, 1138]
    two = Path(
        2, times, np.stack([x, y], axis=1).astype(np.float64), np.ones(9, bool), (587.0, 1238.0)
    )
    hitter = (638.9, 1210.6)
    assert [e.rail for e in cushion_contacts(two, TABLE, 23.0498, struck_from=hitter)] == ["right"]


def _back_into_its_hitter(stop_for: int = 0) -> tuple[Path, Path, list[Path]]:
    """Fresh 67's 1724 (60 fps): the 2 rests 21 mm off the head cushion; the cue ball hits
    it full into it and stops dead; the 2 comes back off it into the cue ball at once (the
    two one blob, the 2 seen only 7 mm nearer the cushion) and goes on slowly, away from
    the cushion and along it. `stop_for`: frames the 2 rests after the cue ball stops it."""
    n = 60
    times = 13.9 + np.arange(n) / FPS
    cue_x = [230.0, 200.0, 170.0, 140.0, 107.0, 106.0, 118.0, 139.0, 160.0, 180.0]
    cue_x += [200.0 + 20 * k for k in range(n - len(cue_x))]
    cue_xy = np.stack([cue_x, np.full(n, 652.0)], axis=1)
    cue = Path("cue", times, cue_xy, np.ones(n, bool), (230.0, 652.0))
    x = [49.5] * 4 + [46.0, 43.0] + [48.0] * (4 + stop_for) + [49.0]
    y = [657.0] * 6 + [661.0, 664.0, 666.0] + [669.0] * (1 + stop_for) + [671.0]
    x += [49.0 + 2.5 * (k + 1) for k in range(n - len(x))]
    y += [671.0 + 2.5 * (k + 1) for k in range(n - len(y))]
    two = Path(2, times, np.stack([x, y], axis=1), np.ones(n, bool), (49.5, 657.0))
    return two, cue, [cue]


def test_a_ball_struck_into_a_cushion_and_back_into_its_stunned_hitter_touched_it() -> None:
    # Seen on its way back first beside the cue ball, then going away slowly (its pace taken
    # by the cue ball it met again), it was seen nearer each time only while one blob with it.
    two, cue, others = _back_into_its_hitter()
    t_hit = 13.9646
    (event,) = cushion_contacts(two, TABLE, t_hit, struck_from=cue.at(t_hit), others=others)
    assert event.rail == "head"
    assert event.t == pytest.approx(two.t[5])  # when it was seen nearest the cushion
    # Struck along the cushion (from beside it), nothing says it went in.
    beside = (49.5, 657.0 + 2 * BALL_RADIUS_MM)
    assert cushion_contacts(two, TABLE, t_hit, struck_from=beside, others=others) == []


def test_a_ball_struck_towards_a_cushion_sent_back_by_something_else_did_not_touch_it() -> None:
    t_hit = 13.9646
    # A ball resting by the cushion beside its spot, between it and the cushion as it went
    # in, may have sent it back.
    two, cue, others = _back_into_its_hitter()
    three = Path(3, two.t, np.tile([30.0, 602.0], (60, 1)), np.ones(60, bool), (30.0, 602.0))
    hitter = cue.at(t_hit)
    assert cushion_contacts(two, TABLE, t_hit, struck_from=hitter, others=[*others, three]) == []
    # Stopped by the cue ball, it rested: what sent it away later was another hit.
    two, cue, others = _back_into_its_hitter(stop_for=14)
    assert cushion_contacts(two, TABLE, t_hit, struck_from=cue.at(t_hit), others=others) == []


def test_the_cue_ball_out_of_sight_as_it_hits_drives_the_ball_no_known_way() -> None:
    # Fresh 50's 1284: the cue ball, under the cue for a second from its strike, comes off
    # the foot cushion into the 1 resting 36 mm off it, and the 1 goes away from the
    # cushion. Last seen still on its spot 79 mm from the 1, it went no known way to it:
    # which way it drove the 1 is not known, and the 1's way is judged by its sightings.
    times = 23.0 + np.arange(70) / FPS
    t_hit = times[9]
    cue_seen = (np.arange(70) <= 5) | (np.arange(70) >= 64)
    cue_xy = np.tile([2420.0, 237.0], (70, 1))
    cue_xy[64:] = [1662.0, 56.0]
    cue = Path("cue", times, cue_xy, cue_seen, (2420.0, 237.0))
    going = np.maximum(times - t_hit, 0.0)[:, None] * np.array([-180.0, 540.0])
    one = Path(1, times, np.array([2475.0, 294.0]) + going, np.ones(70, bool), (2475.0, 294.0))
    assert struck_at(cue, t_hit, one.start) is None
    assert cushion_contacts(one, TABLE, t_hit, struck_from=None, others=[cue]) == []
    # (From its spot, or the line between its sightings, the 1 was driven into the cushion;
    # going away from it at 0.6 m/s, it cannot have gone in and back out by its first
    # sighting, a frame after the hit.)
    for hitter in ((2420.0, 237.0), cue.at(t_hit)):
        assert cushion_contacts(one, TABLE, t_hit, struck_from=hitter) == []


def test_a_ball_resting_just_off_a_cushion_cut_into_it_touched_it() -> None:
    # The 2 rests 3.6 mm off the right cushion (not frozen to it); the cue ball cuts it at
    # 63 degrees to the cushion's normal, it is lost in the frame it touches and seen next
    # 17 mm off, going away.
    times = 23.0 + np.arange(7) / 60
    gaps = np.array([3.6, 3.6, 3.6, 3.6, 16.9, 37.6, 56.6])
    x = np.array([586.0, 586.0, 586.0, 586.0, 542.0, 499.0, 456.0])
    seen = np.array([True, True, True, False, True, True, True])
    xy = np.stack([x, TABLE.width - BALL_RADIUS_MM - gaps], axis=1)
    path = Path(2, times, xy, seen, (x[0], xy[0, 1]))
    from_behind = (662.7, xy[0, 1] - 39.7)
    assert [e.rail for e in cushion_contacts(path, TABLE, 23.05, struck_from=from_behind)] == [
        "right"
    ]
    # Cut the other way (along the cushion, away from it), it went straight off.
    from_beside = (662.7, xy[0, 1] + 39.7)
    assert cushion_contacts(path, TABLE, 23.05, struck_from=from_beside) == []


def test_a_ball_hit_after_the_first_contact_into_a_cushion_and_seen_going_in_touched_it() -> None:
    # Fresh 10's 283: the 6 rests 8.8 mm off the foot cushion; the cue ball, after its first
    # contact, hits it into it at 120 fps and comes back off it. The 6 is lost in the blob
    # they make, seen once going in (6.6 mm off), lost again, seen back on its spot (it came
    # back), and then 13.2 mm off.
    times = 11.242 + np.arange(13) / 120
    foot_x = TABLE.length - BALL_RADIUS_MM
    gaps = [8.8, 8.8, 8.8, 8.8, 6.6, 6.6, 6.6, 6.6, 6.6, 8.8, 8.8, 13.2, 15.0]
    ys = [1159.2] * 4 + [1164.2] * 5 + [1159.2] * 2 + [1154.6, 1152.0]
    seen = np.array([1, 1, 1, 0, 1, 0, 0, 0, 0, 1, 1, 1, 1], bool)
    xy = np.stack([foot_x - np.array(gaps), ys], axis=1)
    six = Path(6, times, xy, seen, (float(xy[0, 0]), ys[0]))
    # The cue ball comes in from the head side and the right, touches the 6 between the
    # third and fourth frames, and goes back the way it came.
    way = np.array([0.93, -0.37])
    touching = np.array(six.start) - 2 * BALL_RADIUS_MM * way
    cue_xy = touching - 12.5 * np.abs(np.arange(13) - 2.6)[:, None] * way
    cue = Path("cue", times, cue_xy, np.ones(13, bool), (2000.0, 1300.0))
    hitter = struck_by(six, [cue])
    assert hitter is not None
    assert math.dist(hitter, six.start) <= 2 * BALL_RADIUS_MM + 10
    events = cushion_contacts(six, TABLE, 9.9, struck_from=hitter, others=[cue])
    assert [e.rail for e in events] == ["foot"]
    assert times[4] < events[0].t < times[11]
    # A neighbour that never moved, resting beside it, hit nothing.
    neighbour_xy = np.tile(np.array(six.start) - [0.0, 2 * BALL_RADIUS_MM], (13, 1))
    neighbour = Path(5, times, neighbour_xy, np.ones(13, bool), tuple(neighbour_xy[0]))
    assert struck_by(six, [neighbour]) is None


def test_a_ball_struck_towards_a_cushion_seen_farther_only_beside_its_hitter_did_not_touch_it() -> (
    None
):
    # Held-out 038: the cue ball nudges the 10, resting 25 mm off the left cushion, towards
    # it and stops beside it. The two are one blob: the 10's centre is seen pulled off
    # towards the cue ball and jumping about (once 40 mm off the cushion). It never got there.
    times = 37.0 + np.arange(10) / 60
    left_y = np.array([53.8, 53.8, 57.4, 67.2, 60.2, 52.2, 52.0, 51.9, 68.9, 50.4])
    x = np.array([591.7, 591.7, 605.4, 608.9, 602.0, 584.5, 583.5, 581.3, 584.9, 578.3])
    ten = Path(10, times, np.stack([x, left_y], axis=1), np.ones(10, bool), (591.7, 53.8))
    cue_xy = np.tile([648.0, 84.0], (10, 1))
    cue_xy[0] = (700.0, 115.0)
    cue = Path("cue", times, cue_xy, np.ones(10, bool), (1500.0, 600.0))
    assert cushion_contacts(ten, TABLE, 30.0, struck_from=(644.7, 85.2), others=[cue]) == []


def test_a_ball_seen_nearer_a_cushion_then_farther_but_not_straight_in_did_not_touch_it() -> None:
    # Struck into the foot cushion from 40 mm off it, it is seen 30 then 22 then 25 mm off
    # it (turned before the cushion: another ball's touch, not the cushion's), then farther.
    times = 5.0 + np.arange(8) / 120
    foot_x = TABLE.length - BALL_RADIUS_MM
    gaps = np.array([40.0, 40.0, 30.0, 22.0, 25.0, 45.0, 55.0, 65.0])
    xy = np.stack([foot_x - gaps, 600.0 + 6.0 * np.arange(8)], axis=1)
    path = Path(3, times, xy, np.ones(8, bool), (float(xy[0, 0]), 600.0))
    behind = (float(xy[0, 0]) - 2 * BALL_RADIUS_MM, 600.0)
    assert cushion_contacts(path, TABLE, 5.0, struck_from=behind) == []


def test_a_ball_seen_farther_from_a_cushion_only_merged_with_its_hitter_did_not_touch_it() -> None:
    # Fresh 9's 271: the 2 rolls up to the 6, resting 49 mm off the foot cushion, and stops
    # against it, out of sight (one blob with it). The 6's track takes the blob's middle, 24
    # mm towards the 2 and so 72 mm off the cushion, now and then: not where the 6 was.
    times = 19.058 + np.arange(12) / 120
    foot_x = TABLE.length - BALL_RADIUS_MM
    spot = (foot_x - 48.8, 508.2)
    blob = (foot_x - 72.0, 514.6)
    xy = np.array([spot] * 3 + [blob] * 5 + [spot] * 2 + [blob] * 2)
    six = Path(6, times, xy, np.ones(12, bool), spot)
    two_xy = np.array([(2330.0, 545.0), (2360.0, 536.0), (2390.0, 528.0)] + [(2419.0, 520.2)] * 9)
    two_seen = np.array([1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1], bool)
    two = Path(2, times, two_xy, two_seen, (1000.0, 500.0))
    hitter = struck_by(six, [two])
    assert hitter is not None
    assert cushion_contacts(six, TABLE, 11.56, struck_from=hitter, others=[two]) == []


@pytest.mark.parametrize(("back_on_its_spot", "touched"), [(True, False), (False, True)])
def test_a_resting_ball_found_off_its_spot_for_a_moment_touched_nothing(
    back_on_its_spot: bool, touched: bool
) -> None:
    # The 1 rests 20 mm off the right cushion at 120 fps; for four frames it is found up to
    # 15 mm nearer the cushion (a ball passing close merges with it), then on its spot again
    # to stay. Had it stayed 20 mm off elsewhere it would have gone to the cushion and back.
    gaps = [20.0] * 30 + [6.8, 10.8, 5.1, 9.0] + [20.0] * 30
    x = np.full(len(gaps), 2136.0)
    if not back_on_its_spot:
        x[34:] += 40.0
    times = 37.4 + np.arange(len(gaps)) / 120.0
    xy = np.stack([x, TABLE.width - BALL_RADIUS_MM - np.array(gaps)], axis=1)
    path = Path(1, times, xy, np.ones(len(gaps), bool), (2136.0, xy[0, 1]))
    assert [e.rail for e in cushion_contacts(path, TABLE, 37.4)] == (["right"] if touched else [])


def test_a_resting_ball_seen_wandering_under_an_arm_back_to_its_spot_touched_nothing() -> None:
    # The 5 rests 16.5 mm off the foot cushion while the shot is played beside it, under the
    # player's arm: for most of a second it is seen only now and then, its centre off by up
    # to 30 mm (a part of it showing), once 7 mm from the cushion; then on its spot again to
    # stay. (As seen in a held-out recording, frame by frame at 60 fps.)
    offsets: dict[int, tuple[float, float]] = {2: (-7.0, -13.0), 4: (3.5, 5.6), 5: (3.2, 6.3)}
    offsets |= {6: (-11.4, -22.1), **{i: (3.4, 6.6) for i in range(8, 20)}}
    offsets |= {47: (9.4, 28.6), 48: (-3.4, 5.7), 49: (6.1, 14.7)}
    hidden = {1, 3, 7, *range(20, 47), 50}
    spot = np.array([TABLE.length - BALL_RADIUS_MM - 16.5, 1167.7])
    xy, seen = [], []
    for i in range(80):
        if i not in hidden:
            last = spot + np.array(offsets.get(i, (0.0, 0.0)))
        xy.append(last)
        seen.append(i not in hidden)
    times = 34.4 + np.arange(80) / FPS
    path = Path(5, times, np.array(xy), np.array(seen), (float(spot[0]), float(spot[1])))
    assert cushion_contacts(path, TABLE, 34.45) == []


def test_a_ball_rolling_by_a_cushion_seen_once_a_little_nearer_it_touched_nothing() -> None:
    # The cue ball rolls at 0.27 m/s some 20 mm off the left cushion as two balls meet
    # beside it; in two frames its centre is found 5 mm nearer the cushion (their blobs
    # touch its own), then back on its line. Turning off a cushion, a ball comes within a
    # frame's travel of it, and the position's noise: this never came nearer than 15 mm.
    # (As seen in a held-out recording, frame by frame at 60 fps.)
    gaps = [21.6, 22.1, 21.5, 21.8, 21.2, 21.6, 21.7, 25.3, 25.3, 25.3, 25.3, 20.4, 15.0]
    gaps += [15.0, 20.2, 20.1, 20.0, 20.6, 20.1, 20.1, 20.0, 20.3, 19.9, 19.9, 20.8, 20.1]
    seen = np.ones(len(gaps), bool)
    seen[9:11] = False
    x = 1994.3 + 4.5 * np.arange(len(gaps))
    xy = np.stack([x, BALL_RADIUS_MM + np.array(gaps)], axis=1)
    times = 25.4 + np.arange(len(gaps)) / FPS
    path = Path("cue", times, xy, seen, (1000.0, 300.0))
    assert cushion_contacts(path, TABLE, 25.0) == []


def test_a_frozen_ball_seen_pulled_off_its_cushion_by_the_ball_striking_it_never_left_it() -> None:
    # The 4 frozen 1 mm off the head cushion, struck by the cue ball away along it: in the
    # frame they touch, their blobs are one and its centre is found 15 mm out; then it rolls
    # off at an angle, first seen 8 mm off (held-out 020 shot 2, frame by frame at 60 fps).
    four = [(29.6, 406.0)] * 8
    four += [(43.6, 395.1), (36.4, 417.3), (39.6, 423.8), (40.4, 430.3), (43.3, 435.4)]
    four += [(46.7, 440.4), (51.7, 446.7), (54.4, 452.2)]
    cue = [(116.9 + 24 * (8 - i), 389.0) for i in range(8)]
    cue += [(93.4, 380.2), (99.8, 371.0), (109.6, 361.3), (118.1, 350.2), (125.7, 340.4)]
    cue += [(133.4, 330.2), (143.1, 320.5), (152.0, 311.0)]
    times = 12.85 + np.arange(len(four)) / FPS
    seen = np.ones(len(four), bool)
    path = Path(4, times, np.array(four), seen, four[0])
    cue_path = Path("cue", times, np.array(cue), seen, cue[0])
    events = cushion_contacts(path, TABLE, 12.988, struck_from=cue[8], others=[cue_path])
    assert all(e.frozen_no_leave for e in events if e.rail == "head")


def _from_rest_near_the_right_cushion(steps: list[tuple[float, float]]) -> Path:
    """A ball resting 4 mm off the right cushion until 0.5 s, then moved by `steps` (mm
    along x, gap to the cushion) a frame."""
    start = (1000.0, TABLE.width - BALL_RADIUS_MM - 4.0)
    xy = [start] * 30
    x = start[0]
    for dx, gap in steps:
        x += dx
        xy.append((x, TABLE.width - BALL_RADIUS_MM - gap))
    times = np.arange(len(xy)) / FPS
    return Path(2, times, np.array(xy), np.ones(len(xy), bool), start)


def test_a_ball_resting_near_a_cushion_struck_into_it_touched_it() -> None:
    # Its first frame is a millimetre nearer the cushion (the rest of its way in and the
    # bounce fell between frames), then it is sent straight back out.
    path = _from_rest_near_the_right_cushion([(7.0, 3.3), (9.0, 18.3), (9.0, 39.2), (9.0, 61.5)])
    assert [e.rail for e in cushion_contacts(path, TABLE, 0.49)] == ["right"]


def test_a_ball_resting_near_a_cushion_struck_along_it_touched_nothing() -> None:
    steps = [(30.0, 3.4), (30.0, 3.9), (30.0, 4.6), (30.0, 5.5), (30.0, 6.8), (30.0, 8.4)]
    path = _from_rest_near_the_right_cushion(steps + [(30.0, 10.0)] * 5)
    assert cushion_contacts(path, TABLE, 0.49) == []


def test_a_ball_rolling_along_a_cushion_with_jitter_touches_nothing_more() -> None:
    times = np.arange(0, 2, 1 / FPS)
    rng = np.random.default_rng(3)
    x = 300.0 + 400.0 * times
    y = BALL_RADIUS_MM + 6.0 + rng.uniform(-1.5, 1.5, len(times))
    path = Path(6, times, np.stack([x, y], axis=1), np.ones(len(times), bool), (300.0, y[0]))
    assert cushion_contacts(path, TABLE, 0.0) == []


def _drifting_to_the_right_cushion(end_x: float, stops_off_mm: float) -> Path:
    """A ball rolling along the right cushion, closing in on its touching line at a shallow
    angle, slowing to a stop at `end_x`, `stops_off_mm` short of the line."""
    times = np.arange(0, 2, 1 / FPS)
    end_y = TABLE.width - BALL_RADIUS_MM - stops_off_mm
    run = np.clip(times - 0.2, 0.0, 1.2) / 1.2
    ease = 1 - (1 - run) ** 2
    x = end_x - 600.0 + 600.0 * ease
    y = end_y - 40.0 + 40.0 * ease
    return Path(5, times, np.stack([x, y], axis=1), np.ones(len(times), bool), (x[0], y[0]))


@pytest.mark.parametrize(("stops_off_mm", "touched"), [(2.0, False), (0.5, True)])
def test_a_ball_that_drifts_to_a_cushion_and_stops_touched_it_only_against_it(
    stops_off_mm: float, touched: bool
) -> None:
    path = _drifting_to_the_right_cushion(1400.0, stops_off_mm)
    rails = [e.rail for e in cushion_contacts(path, TABLE, 0.2)]
    assert rails == (["right"] if touched else [])


@pytest.mark.parametrize(("end_x", "touched"), [(1300.0, False), (1345.0, True)])
def test_a_ball_that_stops_on_the_cushion_line_in_a_side_pocket_mouth_touched_nothing(
    end_x: float, touched: bool
) -> None:
    # Fresh 19's 520: the cue ball stopped in the right side pocket's mouth, 18 mm off its
    # jaw, seen on the cushion's line; the mouth has no cushion there. A hand's width on,
    # past the jaw's tip, the cushion is there.
    path = _drifting_to_the_right_cushion(end_x, 0.5)
    rails = [e.rail for e in cushion_contacts(path, TABLE, 0.2)]
    assert rails == (["right"] if touched else [])


@pytest.mark.parametrize(("lost", "touched"), [(False, False), (True, True)])
def test_a_ball_past_the_cushion_line_in_a_corner_mouth_met_the_jaw_only_if_lost(
    lost: bool, touched: bool
) -> None:
    # At rest in sight 8 mm past the right cushion's line in the foot-right corner's mouth,
    # 8 mm off the jaw, a ball touches nothing. Lost from sight there, and found on the
    # table after the shot, it came back out off the jaw, which counts as the right cushion
    # (fresh 17's 462: the 10, last seen 6 to 8 mm past the line).
    path = _drifting_to_the_right_cushion(2490.0, -8.0)
    seen = path.t <= 1.3 if lost else np.ones(len(path.t), bool)
    path = Path(path.key, path.t, path.xy, seen, path.start)
    rails = [e.rail for e in cushion_contacts(path, TABLE, 0.2)]
    assert rails == (["right"] if touched else [])


def _into(aim: tuple[float, float], lost_mm: float) -> Path:
    """A ball rolling at 1.5 m/s towards `aim`, lost from sight `lost_mm` before it."""
    times = np.arange(0, 1.5, 1 / FPS)
    target = np.asarray(aim)
    start = target + np.array([-700.0, -500.0]) / np.hypot(700.0, 500.0) * 800.0
    velocity = (target - start) / np.linalg.norm(target - start) * 1500.0
    path = straight(3, (float(start[0]), float(start[1])), tuple(velocity), 0.1, times)
    seen = np.linalg.norm(path.xy - target, axis=1) > lost_mm
    seen &= np.arange(len(times)) < np.argmin(np.linalg.norm(path.xy - target, axis=1))
    return Path(3, times, path.xy, seen, path.start)


def test_a_ball_hit_from_rest_and_seen_once_on_its_way_in_met_the_jaw_its_way_meets() -> None:
    # Fresh 56's 1442: the 7, at rest 190 mm off the head-left corner, hit at 3.4 m/s into
    # it; seen once on its way, 62 mm from the hole, then down. Its way is from its spot
    # through that sighting: carried on, it meets the head jaw 40 mm on.
    times = 26.9833 + np.arange(13) / FPS
    xy = np.array([[172.1, 113.3]] * 6 + [[49.7, 66.4]] * 7)
    seen = np.array([True] * 4 + [False, False, True] + [False] * 6)
    seven = Path(7, times, xy, seen, (172.1, 113.3))
    assert [e.rail for e in jaw_contacts(seven, TABLE, "HL", 27.0473)] == ["head"]


def test_a_ball_resting_by_a_corners_mouth_hit_in_is_headed_by_its_sightings_by_the_cushion() -> (
    None
):
    # Fresh 62's 1590: the 7 resting 55 mm off the left cushion by the foot-left corner, hit
    # at 1.3 m/s into it; clear of the cushions it was seen only on its spot and 9 mm on
    # (2 mm off its way): too short a run to head it. By its sightings nearer the cushion it
    # clipped the left jaw. (Judged from the shot's first contact, the cue ball's on the 6
    # 1.7 s before: its sightings at rest are part of its run.)
    seen = [(2439.8, 54.0), (2447.7, 50.6), (2458.9, 35.5), (2473.7, 18.3), (2492.8, 8.6)]
    xy = np.array([seen[0]] * 10 + seen[1:] + [seen[-1]] * 3)
    times = 32.333 + np.arange(len(xy)) / FPS
    path = Path(7, times, xy, np.arange(len(xy)) < len(xy) - 3, seen[0])
    assert [e.rail for e in jaw_contacts(path, TABLE, "FL", 30.808)] == ["left"]


def test_a_ball_headed_by_two_sightings_clear_of_the_cushions_met_the_jaw_that_way() -> None:
    # Fresh 61's 1567: the 1, 65 mm off the head cushion, hit into the head-left corner;
    # seen clear of the cushions 19 mm apart, then along the head cushion (5 mm off it, its
    # image leaning out) into the mouth. Its way in is headed by the two: it met the head
    # jaw. (All its sightings together head it along the cushion, clear of the jaw.)
    seen = [(65.4, 144.5), (57.1, 127.8), (46.1, 112.0), (38.7, 96.3), (34.7, 81.1)]
    seen += [(35.0, 69.5), (34.8, 49.2), (36.4, 21.7), (32.2, 15.6)]
    xy = np.array(seen + [seen[-1]] * 3)
    times = 23.1833 + np.arange(len(xy)) / 120.0
    path = Path(1, times, xy, np.arange(len(xy)) < len(seen), seen[0])
    assert [e.rail for e in jaw_contacts(path, TABLE, "HL", 23.1833)] == ["head"]


def test_a_ball_dropping_clean_into_a_corner_touched_no_jaw() -> None:
    fr = TABLE.pockets["FR"]
    assert jaw_contacts(_into(fr, 120.0), TABLE, "FR", 0.0) == []


def test_a_ball_clipping_the_foot_jaw_on_its_way_in_touched_the_foot_rail() -> None:
    # Aimed at the foot rail's jaw face shifted in by a radius: the ball's edge meets it.
    jaw = TABLE.jaws("FR")[1]
    assert jaw.rail == "foot"
    tip = jaw.face[0] + np.array([-BALL_RADIUS_MM * 0.9, 0.0])
    events = jaw_contacts(_into((tip[0], tip[1]), 120.0), TABLE, "FR", 0.0)
    assert [(e.balls, e.rail) for e in events] == [((3,), "foot")]


def test_a_ball_whose_last_sighting_by_the_cushion_is_pulled_into_the_mouth_met_the_jaw() -> None:
    # The 4 runs at 2 m/s along the right rail into the foot right corner and clips the foot
    # jaw. Its last sighting, 5 mm off the cushion line, is found 6 mm off its way, out
    # towards the pocket (its image leans over the cushion and is cut there): its way in is
    # the run before that. (As seen in a held-out recording at 60 fps.)
    seen = [(2272.6, 1205.7), (2305.6, 1209.7), (2337.3, 1213.4), (2369.7, 1216.1)]
    seen += [(2400.9, 1220.2), (2435.3, 1222.2), (2467.1, 1227.6), (2494.2, 1236.7)]
    xy = np.array(seen + [seen[-1]] * 3)
    times = 21.45 + np.arange(len(xy)) / FPS
    path = Path(4, times, xy, np.arange(len(xy)) < len(seen), seen[0])
    assert [e.rail for e in jaw_contacts(path, TABLE, "FR", 21.0)] == ["foot"]


def test_a_ball_falling_into_a_side_pocket_past_a_jaw_tip_touched_no_jaw() -> None:
    # Straight in, its edge 5 mm inside the tip: the jaw narrows the throat beyond the
    # hole's edge, where the ball has already fallen.
    times = np.arange(0, 1.0, 1 / FPS)
    jaw, _ = TABLE.jaws("SR")
    x = float(jaw.face[0][0]) + BALL_RADIUS_MM + 5.0
    path = straight(4, (x, 700.0), (0.0, 1500.0), 0.1, times)
    seen = TABLE.rail_gaps(path.xy)[:, 3] > -5.0
    seen &= np.cumsum(~seen) == 0
    assert jaw_contacts(Path(4, times, path.xy, seen, path.start), TABLE, "SR", 0.0) == []


def test_a_ball_whose_way_in_clears_a_jaw_by_a_millimetre_touched_no_jaw() -> None:
    # Rolling into the foot-right corner parallel to the foot rail's jaw, its edge 1 mm off it.
    times = np.arange(0, 1.5, 1 / FPS)
    face = TABLE.jaws("FR")[1].face
    along = (face[1] - face[0]) / np.linalg.norm(face[1] - face[0])
    inward = np.array([-along[1], along[0]])
    if inward @ (np.asarray(TABLE.pockets["FR"]) - face[0]) < 0:
        inward = -inward
    start = face[0] + inward * (BALL_RADIUS_MM + 1.0) - along * 800.0
    path = straight(5, (float(start[0]), float(start[1])), tuple(along * 1500.0), 0.1, times)
    seen = TABLE.rail_gaps(path.xy).min(axis=1) > -5.0
    seen &= np.cumsum(~seen) == 0
    assert jaw_contacts(Path(5, times, path.xy, seen, path.start), TABLE, "FR", 0.0) == []


def test_a_ball_rolling_along_a_rail_past_the_hole_met_the_far_jaw() -> None:
    # Along the right rail, a few mm off it, into the foot-right corner: that way misses
    # the hole, so the foot rail's jaw turned it in (lost from sight before it got there).
    times = np.arange(0, 1.5, 1 / FPS)
    y = TABLE.width - BALL_RADIUS_MM - 7.0
    path = straight(6, (1900.0, y), (1500.0, 0.0), 0.1, times)
    seen = path.xy[:, 0] < TABLE.length - 30.0
    seen &= np.cumsum(~seen) == 0
    events = jaw_contacts(Path(6, times, path.xy, seen, path.start), TABLE, "FR", 0.0)
    assert [(e.balls, e.rail) for e in events] == [((6,), "foot")]


def test_a_jaws_rounded_nose_meets_its_cushion_line_and_its_face() -> None:
    for name in TABLE.pockets:
        for jaw in TABLE.jaws(name):
            # Touching both: as far from the face's line as from the nose line (the rail's).
            a, b = jaw.face
            normal = np.array([b[1] - a[1], a[0] - b[0]]) / np.linalg.norm(b - a)
            assert abs(float((jaw.nose - a) @ normal)) == pytest.approx(jaw.nose_radius)
            to_rail = TABLE.rail_gaps(jaw.nose[None])[0] + BALL_RADIUS_MM
            assert float(np.min(np.abs(to_rail))) == pytest.approx(jaw.nose_radius)


def test_a_cushion_is_touched_on_its_nose_beside_the_mouths_and_on_its_jaws_in_them() -> None:
    line = TABLE.width - BALL_RADIUS_MM  # the right cushion's touching line
    jaws = [jaw for name in TABLE.pockets for jaw in TABLE.jaws(name) if jaw.rail == "right"]
    for x, clear in ((400.0, False), (1270.0, True), (1340.0, False), (2540.0 - 40.0, True)):
        ball = np.array([[x, line]])
        gaps = TABLE.cushion_gaps(ball)[0]
        if clear:  # facing a mouth: only a jaw is there, a ball's width or so away
            assert gaps[3] == pytest.approx(min(float(jaw.gaps(ball)[0]) for jaw in jaws))
            assert gaps[3] > 10.0
        else:
            assert gaps[3] == pytest.approx(0.0)
        # (No rubber is nearer than its cushion's line.)
        assert (gaps >= TABLE.rail_gaps(ball)[0] - 1e-9).all()


def _legs(
    key: int, corners: list[tuple[float, float]], lost_within: float, speed: float = 1500.0
) -> Path:
    """A ball rolling at `speed` (mm/s) along straight legs through `corners` (its turns),
    seen until it comes within `lost_within` mm of the last one."""
    pts = np.asarray(corners, dtype=float)
    lengths = np.linalg.norm(np.diff(pts, axis=0), axis=1)
    along = np.concatenate([[0.0], np.cumsum(lengths)])
    times = np.arange(0.4 / FPS, along[-1] / speed, 1 / FPS)  # no frame at a turn
    xy = np.stack([np.interp(times * speed, along, pts[:, i]) for i in (0, 1)], axis=1)
    seen = np.linalg.norm(xy - pts[-1], axis=1) > lost_within
    seen &= np.cumsum(~seen) == 0
    return Path(key, times, xy, seen, corners[0])


def _touching(jaw_rail: str, pocket: str, way_in: tuple[float, float]) -> F64:
    """Where a ball's centre touches a jaw's face near its nose, coming along `way_in`."""
    jaw = next(j for j in TABLE.jaws(pocket) if j.rail == jaw_rail)
    a, b = jaw.face
    normal = np.array([b[1] - a[1], a[0] - b[0]]) / np.linalg.norm(b - a)
    if normal @ np.asarray(way_in) > 0:
        normal = -normal
    return np.asarray(a + (b - a) * 0.2 + normal * BALL_RADIUS_MM)


def test_a_ball_turned_by_a_jaw_between_frames_touched_it() -> None:
    # Into the head-left corner along the head rail's jaw face, turned by it (a frame cuts
    # the corner, so no seen position touches) and straight down into the hole.
    hit = _touching("head", "HL", (-1.0, -1.0))
    path = _legs(7, [(hit[0] + 300.0, hit[1] + 180.0), (hit[0], hit[1]), (hit[0], -60.0)], 45.0)
    assert (TABLE.jaws("HL")[1].gaps(path.xy[path.seen]) > 0.0).all()
    assert [e.rail for e in jaw_contacts(path, TABLE, "HL", 0.0)] == ["head"]


def test_a_ball_turned_by_a_jaw_just_short_of_the_hole_touched_it() -> None:
    # Held-out 030: the 1 at 1 m/s into the head-right corner's head jaw, seen twice more
    # as it went down off it (17 mm on): too short a run for its heading to be judged, but
    # off the line it came in on, where that line meets the jaw.
    hit = _touching("head", "HR", (-1.0, 0.1))
    corners = [(hit[0] + 400.0, hit[1] - 40.0), (hit[0], hit[1]), (hit[0] + 2.0, hit[1] + 60.0)]
    path = _legs(1, corners, 25.0, speed=1000.0)
    after = path.xy[path.seen & (path.xy[:, 1] > hit[1])]
    assert np.linalg.norm(after[-1] - after[0]) < 30.0
    assert [e.rail for e in jaw_contacts(path, TABLE, "HR", 0.0)] == ["head"]


def test_a_last_sighting_pulled_off_the_way_in_at_no_jaw_is_no_turn() -> None:
    # Fresh 47's 1203 at 120 fps: the cue ball at 4.5 m/s into the head-right corner, its
    # last sighting, half hidden in the mouth, 15 mm off its way in and 11 mm off touching
    # the head jaw. No jaw turned it there: carried on, its way meets the head jaw.
    times = 9.6333 + np.arange(7) / 120.0
    cue = _sightings("cue", times, {0: (129.2, 1016.8), 1: (109.9, 1049.9),
                                    2: (90.6, 1083.0), 3: (71.3, 1116.1),
                                    4: (53.6, 1149.3), 5: (20.7, 1164.3)})  # fmt: skip
    assert [e.rail for e in jaw_contacts(cue, TABLE, "HR", 9.6)] == ["head"]


def test_a_ball_turned_by_one_jaw_that_misses_the_hole_meets_the_other() -> None:
    # Off the left rail's jaw at the foot-left corner and on, past the hole's edge, into
    # the foot rail's jaw: both jaws touched, in that order.
    hit = _touching("left", "FL", (0.0, -1.0))
    corners = [(hit[0], hit[1] + 300.0), (hit[0], hit[1]), (2600.0, 50.0)]
    path = _legs(8, corners, 50.0, speed=750.0)
    centre, radius = TABLE.hole("FL")
    seen = path.xy[path.seen]
    assert (np.linalg.norm(seen - centre, axis=1) > radius).all()  # over the cloth all along
    assert (TABLE.jaws("FL")[1].gaps(seen) > 0.0).all()  # the foot jaw unseen
    assert [e.rail for e in jaw_contacts(path, TABLE, "FL", 0.0)] == ["left", "foot"]


JAW_RAILS = {
    "SL": {"left"},
    "SR": {"right"},
    "HL": {"head", "left"},
    "HR": {"head", "right"},
    "FL": {"foot", "left"},
    "FR": {"foot", "right"},
}


def test_every_pocket_has_two_jaws_on_its_own_rails() -> None:
    for name in TABLE.pockets:
        rails = {jaw.rail.value for jaw in TABLE.jaws(name)}
        assert rails == JAW_RAILS[name]
        for jaw in TABLE.jaws(name):
            assert not TABLE.on_cloth(jaw.face, margin=-1.0).any()


def test_a_ball_lost_in_a_mouth_and_seen_again_was_lost_there_once() -> None:
    times = np.arange(0, 1, 1 / FPS)
    path = straight(5, (2300.0, 150.0), (-600.0, 0.0), 0.1, times)
    xy = path.xy.copy()
    xy[:30] = np.array([2500.0, 30.0])  # in the FL pocket's mouth until it is lost there
    seen = np.ones(len(times), bool)
    seen[30:40] = False  # out of sight, then "seen again" somewhere else
    lost = Path(5, times, xy, seen, (2500.0, 30.0))
    assert lost_at_pocket(lost, TABLE, "FL") == [pytest.approx(times[29])]
    assert lost_at_pocket(lost, TABLE, "FR") == []


def _unseen_between(path: Path, t0: float, t1: float) -> Path:
    seen = path.seen & ~((path.t > t0) & (path.t < t1))
    return Path(path.key, path.t, path.xy, seen, path.start)


def _stun(direction: F64) -> Path:
    """The cue ball 89 mm from the 6, struck at 0.5 s along `direction` and stopped dead by
    the contact 32 mm on."""
    times = np.arange(0, 1.5, 1 / 120)
    velocity = tuple(direction * 6000.0)
    return straight("cue", (978.0, 846.0), velocity, 0.5, times, stop_at=0.5053)


def test_a_contact_hidden_from_sight_is_the_first_ball_to_leave_its_spot() -> None:
    # The cue ball 89 mm from the 6, struck at 0.5 s and never seen until long after: the 6
    # leaves at 6 m/s along the line of centres at 0.51 s; the 2, which the 6 hits, later.
    times = np.arange(0, 1.5, 1 / 120)
    direction = np.array([932.0 - 978.0, 770.0 - 846.0]) / np.hypot(46.0, 76.0)
    cue = _unseen_between(_stun(direction), 0.5, 1.2)
    six = straight(6, (932.0, 770.0), tuple(direction * 6000.0), 0.51, times, stop_at=0.6)
    six = _unseen_between(six, 0.5, 0.55)
    two = straight(2, (380.0, 271.0), (-1500.0, 0.0), 0.6, times)
    two = _unseen_between(two, 0.59, 0.9)
    found = first_mover(cue, [two, six], 0.5)
    assert found is not None
    assert found[1] == 6
    assert found[0] == pytest.approx(0.51, abs=0.01)


def test_balls_that_left_before_the_strike_was_noticed_keep_their_order() -> None:
    # As above, with the strike noticed late (when the cue ball came back in sight): the
    # 6 still left first, though both left before then.
    times = np.arange(0, 1.5, 1 / 120)
    direction = np.array([932.0 - 978.0, 770.0 - 846.0]) / np.hypot(46.0, 76.0)
    cue = _unseen_between(_stun(direction), 0.5, 1.2)
    six = straight(6, (932.0, 770.0), tuple(direction * 2000.0), 0.51, times, stop_at=0.9)
    two = straight(2, (380.0, 271.0), (-1500.0, 0.0), 0.6, times)
    assert first_mover(cue, [two, six], 0.7) == (0.7, 6)


def test_a_strike_out_of_sight_is_placed_after_the_cue_ball_was_last_seen_still() -> None:
    # Hidden by the cue from 0.5 s, struck at 0.55 s and back in sight at 0.8 s.
    times = np.arange(0, 1.5, 1 / 120)
    cue = _unseen_between(straight("cue", (900.0, 600.0), (400.0, 0.0), 0.55, times), 0.5, 0.8)
    assert strike_time(cue) == pytest.approx(0.55, abs=0.01)


def test_a_cue_ball_struck_out_of_sight_and_seen_coming_back_left_when_it_was_hidden() -> None:
    # Hidden on its spot from 0.5 s (under the cue and the arm along its path), struck then,
    # off the foot cushion unseen, and seen at 1.2 s on its way back: a straight way back
    # from there would put the strike at 0.9 s.
    times = np.arange(0, 2.0, 1 / FPS)
    xy = [(1500.0 + 2000.0 * min(t - 0.5, 0.5) - 2000.0 * max(t - 1.0, 0.0), 600.0) for t in times]
    xy = [(1500.0, 600.0) if t < 0.5 else p for t, p in zip(times, xy, strict=True)]
    cue = Path("cue", times, np.array(xy), ~((times > 0.5) & (times < 1.2)), (1500.0, 600.0))
    assert strike_time(cue) == pytest.approx(0.9, abs=0.02)
    assert strike_time(cue, hidden_since=0.5) == 0.5
    # Seen first going away from its spot, it went straight: the straight way back holds.
    away = _unseen_between(straight("cue", (1500.0, 600.0), (2000.0, 0.0), 0.9, times), 0.5, 1.0)
    assert strike_time(away, hidden_since=0.5) == pytest.approx(0.9, abs=0.02)


def test_a_cue_ball_out_of_sight_since_before_the_shots_frames_left_after_it_was_hidden() -> None:
    # Fresh 62's 1592: under the cue from 22.767 s, struck at 22.75 s off its spot on the
    # head cushion, seen first at 23.267 s 1.35 m on; the shot's frames (0.5 s before that
    # sighting) never show it on its spot. Its way back at 2.5 m/s says 22.73 s: no earlier
    # than it went out of sight.
    times = np.arange(22.767, 23.6, 1 / FPS)
    cue = straight("cue", (42.0, 1046.0), (2500.0, -100.0), 22.75, times)
    cue = Path("cue", cue.t, cue.xy, cue.t >= 23.26, cue.start)
    assert strike_time(cue, hidden_since=22.767) == pytest.approx(22.767)
    # Told nothing of when it was hidden, its first sighting is as early as sight says.
    assert strike_time(cue) == pytest.approx(23.267, abs=0.01)


def test_a_ball_leaving_towards_the_cue_ball_was_not_hit_by_it() -> None:
    times = np.arange(0, 1.5, 1 / 120)
    cue = _unseen_between(straight("cue", (978.0, 846.0), (0.0, 0.0), 0.5, times), 0.5, 1.2)
    towards = straight(4, (700.0, 846.0), (2000.0, 0.0), 0.55, times, stop_at=0.6)
    assert first_mover(cue, [towards], 0.5) is None


def test_a_ball_seen_leaving_away_from_the_cue_ball_and_back_off_a_cushion_was_hit() -> None:
    # Fresh 43's 1121: the 1 rests 26 mm off the right cushion's touching line; the cue ball,
    # struck out of sight at 0.16 s, sends it into the cushion at 0.9 m/s. Seen twice going
    # in, it comes back past its spot out of sight, and is seen plainly gone from its spot
    # only on the cue ball's side. Its first clear sighting says which way it left.
    times = np.arange(0, 1, 1 / FPS)
    start, way = np.array([1071.0, 1215.0]), np.array([-0.54, 0.84])
    struck = straight("cue", (1147.0, 1096.0), tuple(way * 1500.0), 0.16, times, stop_at=0.2075)
    cue = _unseen_between(struck, 0.16, 0.5)
    touching = 1270.0 - BALL_RADIUS_MM
    xy = []
    for t in times:
        at = start + way * 900.0 * max(t - 0.2075, 0.0)
        xy.append((at[0], min(at[1], 2 * touching - at[1])))  # back off the cushion
    one = Path(1, times, np.array(xy), ~((times > 0.24) & (times < 0.33)), (1071.0, 1215.0))
    found = first_mover(cue, [one], 0.2167)
    assert found is not None
    assert found[1] == 1
    assert 0.2 <= found[0] < 0.3  # before it was seen back past its spot


def test_a_cushion_met_just_after_the_first_contact_counts() -> None:
    # The ball touches the foot cushion 3 ms after the first contact, which falls between the
    # frame before the bounce and the frame of it: the turn is at the first frame after it.
    times = np.arange(0, 2, 1 / FPS)
    hit = 0.5 + (2540 - BALL_RADIUS_MM - 1500) / 2000
    xy = [
        (1500.0, 400.0)
        if t < 0.5
        else (1500 + 2000 * (t - 0.5), 400.0)
        if t < hit
        else (2540 - BALL_RADIUS_MM - 1500 * (t - hit), 400.0)
        for t in times
    ]
    path = Path("cue", times, np.array(xy), np.ones(len(times), bool), (1500.0, 400.0))
    t_from = hit - 0.003
    assert [(e.balls, e.rail) for e in cushion_contacts(path, TABLE, t_from)] == [
        (("cue",), "foot")
    ]


def test_a_ball_that_left_the_table_went_over_the_cushion_it_was_lost_at() -> None:
    # Rolling at the right cushion at 2 m/s and gone as it reached it (up and over).
    times = np.arange(0, 1, 1 / FPS)
    path = straight("cue", (900.0, 700.0), (0.0, 2000.0), 0.1, times)
    touch = 0.1 + (TABLE.width - BALL_RADIUS_MM - 700.0) / 2000.0
    lost = Path("cue", times, path.xy, path.t < touch, path.start)
    (over,) = cushion_contacts(lost, TABLE, 0.1, Disappearance("cue", touch, None))
    assert over.rail == "right"
    assert over.t == pytest.approx(touch, abs=0.5 / FPS)


def test_a_ball_lost_far_from_any_cushion_went_over_none() -> None:
    times = np.arange(0, 1, 1 / FPS)
    path = straight(4, (900.0, 300.0), (0.0, 2000.0), 0.1, times)
    lost = Path(4, times, path.xy, path.t < 0.3, path.start)  # taken up by hand mid-table
    assert cushion_contacts(lost, TABLE, 0.1, Disappearance(4, 0.3, None)) == []


def test_a_slow_ball_that_touches_a_cushion_and_comes_back_a_little_touched_it() -> None:
    # Drifting at the right cushion, touching it, rebounding 3 mm and stopping there.
    times = np.arange(0, 2, 1 / FPS)
    touch_y = TABLE.width - BALL_RADIUS_MM
    t_hit = 0.8
    y = np.where(
        times < t_hit,
        touch_y - 40.0 * np.clip(t_hit - times, 0.0, 0.6) / 0.6,
        touch_y - 3.0 * np.clip((times - t_hit) / 0.2, 0.0, 1.0),
    )
    xy = np.stack([np.full(len(times), 900.0), y], axis=1)
    path = Path(5, times, xy, np.ones(len(times), bool), (900.0, float(y[0])))
    assert [e.rail for e in cushion_contacts(path, TABLE, 0.1)] == ["right"]


def test_a_ball_come_to_rest_beside_a_cushion_is_not_touching_it_for_its_jitter() -> None:
    # Rolled up to 2 mm off the right cushion and stopped there; measured to a millimetre,
    # its centre jumps between 1.1 and 2.9 mm off it from one frame to the next.
    times = np.arange(0, 2, 1 / FPS)
    touch_y = TABLE.width - BALL_RADIUS_MM
    y = touch_y - 2.0 - 60.0 * np.clip(0.8 - times, 0.0, 0.6)
    jitter = np.where(np.arange(len(times)) % 2 == 0, 0.9, -0.9) * (times > 0.8)
    xy = np.stack([np.full(len(times), 1668.0), y - jitter], axis=1)
    path = Path("cue", times, xy, np.ones(len(times), bool), (1668.0, float(y[0])))
    assert cushion_contacts(path, TABLE, 0.1) == []


def test_a_ball_out_of_sight_long_enough_to_meet_another_and_then_a_cushion_met_both() -> None:
    # Fresh 11's 300 frame by frame: the 10, last seen heading for the 1 at 0.8 m/s, is out
    # of sight for 1.3 s, met by the 8 and the foot cushion meanwhile, and seen again
    # coming off the foot cushion 59 mm from the left one. Closing on the 1 as it went out of
    # sight, it may have met it; but at its pace after it could as well have reached a
    # cushion in that time: the turn is the cushion's to judge.
    times = 11.15 + np.arange(102) / FPS
    seen = {11.15: (791.3, 1186.8), 11.1667: (816.9, 1156.7), 11.1833: (838.0, 1137.5),
            11.2: (866.3, 1110.2), 11.35: (950.9, 1025.4), 12.6333: (2338.5, 87.8),
            12.65: (2326.5, 81.9), 12.6667: (2316.4, 74.0), 12.6833: (2309.2, 66.3),
            12.7: (2300.9, 57.1), 12.7167: (2289.0, 47.9), 12.7333: (2274.9, 47.1),
            12.75: (2264.3, 39.1), 12.7667: (2255.3, 29.8), 12.7833: (2252.6, 26.4),
            12.8: (2236.6, 31.8), 12.8167: (2226.4, 41.5), 12.8333: (2218.2, 47.4)}  # fmt: skip
    ten = _sightings(10, times, {round((t - 11.15) * FPS): xy for t, xy in seen.items()})
    one = Path(1, times, np.tile([1336.0, 627.0], (len(times), 1)), np.ones(len(times), bool),
               (1336.0, 627.0))  # fmt: skip
    assert "foot" in [e.rail for e in cushion_contacts(ten, TABLE, 10.49, others=[one])]


def test_a_ball_at_rest_by_a_cushion_seen_nearer_it_for_a_moment_touched_nothing() -> None:
    # Fresh 12's 336 at 30 fps: the 10 rolled to a stop 4 mm off the foot cushion; most of a
    # second later its centre is found 4 mm nearer for a frame, then 2 mm off its rest for a
    # few, then back (a hand's shadow passing). A ball at rest does not start by itself.
    times = np.arange(0, 3.0, 1 / 30)
    touch_x = TABLE.length - BALL_RADIUS_MM
    gap = 4.1 + 300.0 * np.clip(1.0 - times, 0.0, 1.0) ** 2
    gap += np.where(np.arange(len(times)) % 2 == 0, 0.4, -0.4) * (times > 1.0)
    k = int(np.searchsorted(times, 1.8))
    gap[k:] = [0.2, 2.1, 2.1, 2.1, 2.1, 2.1, 3.0, 3.5] + [3.5] * (len(times) - k - 8)
    xy = np.stack([touch_x - gap, np.full(len(times), 1046.0)], axis=1)
    path = Path(10, times, xy, np.ones(len(times), bool), (float(xy[0, 0]), 1046.0))
    assert cushion_contacts(path, TABLE, 0.0) == []


def test_a_ball_at_rest_by_a_cushion_whose_centre_jumps_off_it_now_and_then_touched_nothing() -> (
    None
):
    # Fresh 13's 350 at 60 fps: the 3 crept to a stop 4.3 mm off the head cushion, in the
    # shade of the corner; every few frames its centre is found 4.2 mm farther off for one
    # frame. Each jump and back is a turn towards the cushion as deep as the prominence asked
    # of a bounce, but a ball creeping is judged on its gap over three frames.
    times = np.arange(0, 2.0, 1 / FPS)
    gap = 4.3 + 60.0 * np.clip(0.9 - times, 0.0, 0.9) ** 2
    gap[(np.arange(len(times)) % 7 == 0) & (times > 1.0)] += 4.2
    xy = np.stack([BALL_RADIUS_MM + gap, np.full(len(times), 126.0)], axis=1)
    path = Path(3, times, xy, np.ones(len(times), bool), (float(xy[0, 0]), 126.0))
    assert cushion_contacts(path, TABLE, 0.0) == []


def test_a_ball_on_the_move_while_the_cue_ball_still_stood_was_not_hit_by_it() -> None:
    # A dark shadow taken for the 8 wanders off at 0.3 s; the cue ball, seen still on its
    # spot until it is struck at 0.6 s, is out of sight behind the cue from then to 0.75 s.
    times = np.arange(0, 1.5, 1 / 120)
    cue = _unseen_between(straight("cue", (1138.0, 746.0), (3000.0, 0.0), 0.6, times), 0.6, 0.75)
    eight = straight(8, (480.0, 570.0), (-1500.0, -500.0), 0.3, times, stop_at=0.7)
    assert first_mover(cue, [eight], 0.62) is None


def test_a_ball_frozen_between_the_cue_ball_and_the_first_to_move_is_the_first_contact() -> None:
    # Cue ball, 9 and 2 in a line, touching: struck into the 9, which barely stirs, while the
    # 2 at the end of the line runs off.
    times = np.arange(0, 1.0, 1 / 60)
    direction = np.array([53.0, 26.0]) / np.hypot(53.0, 26.0)
    cue = straight("cue", (2218.0, 1006.0), tuple(direction * 500.0), 0.5, times, stop_at=0.52)
    cue = _unseen_between(cue, 0.45, 0.55)
    nine = straight(9, tuple(np.array([2218.0, 1006.0]) + direction * 57.5), (0.0, 0.0), 0.5, times)
    two_start = np.array([2218.0, 1006.0]) + direction * 115.0
    two = straight(2, tuple(two_start), tuple(direction * 2500.0), 0.51, times, stop_at=0.7)
    found = first_mover(cue, [two, nine], 0.5)
    assert found is not None and found[1] == 9


def test_a_ball_seen_off_its_spot_once_on_its_way_down_was_the_first_contact() -> None:
    # Fresh 14's 392, frame by frame at 60 fps: the cue ball, under the cue from 2.25 s,
    # cuts the 2 (48 mm apart) into the foot-right corner and is next seen 104 mm off its
    # spot, going for the right cushion; the 2 is seen once, 52 mm off its spot at 3 m/s
    # (under two radii), and then is down. Its pocket's sensor felt it drop: it left then.
    times = 2.15 + np.arange(12) / FPS
    cue = _sightings("cue", times, {**{k: (2330.1, 1112.8) for k in range(6)},
                                    8: (2320.2, 1216.6), 9: (2296.2, 1234.8),
                                    10: (2269.4, 1207.4), 11: (2242.8, 1180.0)})  # fmt: skip
    two = _sightings(2, times, {**{k: (2403.7, 1189.6) for k in range(7)}, 7: (2444.8, 1220.8)})
    assert first_mover(cue, [two], 2.2333) is None  # no drop known: a single sighting
    found = first_mover(cue, [two], 2.2333, dropped={2})
    assert found is not None and found[1] == 2
    assert 2.25 <= found[0] <= times[7]


def test_a_ball_the_cue_ball_was_seen_going_past_was_not_in_its_way() -> None:
    # The cue ball, seen rolling past the 6 60 mm off it, then out of sight, hits the 1,
    # which goes off at once at an angle (a cushion beside it): its way back from the 1, had
    # it gone straight there from its spot, would have taken it through the 6.
    times = np.arange(0, 2.0, 1 / FPS)
    hit = 0.5 + (1500.0 - 300.0 - 2 * BALL_RADIUS_MM) / 2000.0
    cue = straight("cue", (1500.0, 600.0), (-2000.0, 0.0), 0.5, times, stop_at=hit)
    cue = _unseen_between(cue, 0.9, 1.5)
    off = np.array([-np.cos(np.radians(25.0)), np.sin(np.radians(25.0))])
    one = straight(1, (300.0, 600.0), tuple(off * 3000.0), hit, times, stop_at=hit + 0.2)
    six = straight(6, (800.0, 540.0), (0.0, 0.0), 0.5, times)
    found = first_mover(cue, [one, six], 0.5)
    assert found is not None and found[1] == 1


def test_a_cushion_met_just_before_the_first_contact_is_not_met_again_after_it() -> None:
    # As a held-out recording saw the cue ball: into the right cushion at 2.4 m/s, on it
    # (1.4 mm) at the last frame before it met the 2 there, 13 ms later; the two balls one
    # blob for the next two frames. Its turn off the cushion, judged again by its lines in
    # and out of sight, is the same contact, before the first one.
    gaps = [28.3, 23.8, 19.0, 13.5, 7.7, 3.2, 1.4, 1.4, 1.4, 21.3, 29.4, 37.2, 45.3]
    xs = [826.7, 788.3, 748.8, 708.7, 669.6, 630.0, 593.2, 593.2, 593.2, 512.3, 489.0, 463.4, 438.0]
    times = 3.3 + np.arange(len(gaps)) / FPS
    y = TABLE.width - BALL_RADIUS_MM - np.array(gaps)
    seen = np.ones(len(gaps), bool)
    seen[7:9] = False
    path = Path("cue", times, np.stack([xs, y], axis=1), seen, (xs[0], y[0]))
    assert cushion_contacts(path, TABLE, 3.4073) == []
    assert [e.rail for e in cushion_contacts(path, TABLE, 3.35)] == ["right"]


def test_a_turn_where_the_ball_meets_another_is_the_other_balls_doing() -> None:
    # As a held-out recording saw the cue ball meet the 2 resting 22 mm off the right
    # cushion: in the frame they meet, one blob, the cue ball's centre came out 21 mm towards
    # the 2 (and the cushion), 32 mm off it, then it stopped 42 mm off it. Turned by the 2.
    cue_xy = [(468.1, 1176.0), (497.1, 1175.8), (535.6, 1185.3), (564.5, 1194.9), (588.4, 1190.9),
              (588.4, 1190.9), (663.6, 1209.5), (663.6, 1209.5), (643.9, 1198.6), (643.5, 1196.4),
              (642.6, 1195.1), (640.9, 1195.9)]  # fmt: skip
    two_xy = [(694.9, 1219.9)] * 8 + [(745.6, 1233.7), (771.2, 1236.0), (794.3, 1239.3),
                                      (813.0, 1236.2)]  # fmt: skip
    times = 14.417 + np.arange(len(cue_xy)) / FPS
    seen = np.ones(len(cue_xy), bool)
    seen[[5, 7]] = False
    cue = Path("cue", times, np.array(cue_xy), seen, cue_xy[0])
    two_seen = np.ones(len(two_xy), bool)
    two_seen[7] = False
    two = Path(2, times, np.array(two_xy), two_seen, two_xy[0])
    assert cushion_contacts(cue, TABLE, 14.527, others=[two]) == []
    assert [e.rail for e in cushion_contacts(cue, TABLE, 14.527)] == ["right"]


def test_a_turn_where_the_ball_meets_another_between_two_frames_is_the_other_balls_doing() -> None:
    # As a held-out recording saw the cue ball at 4 m/s along the right cushion, 24 mm off
    # it, meet the 1 between two frames, 95 mm apart before and 85 mm after: it turned off
    # the 1, not the cushion.
    xs = [785.1, 785.1, 831.1, 899.8, 967.5, 1034.8, 1073.4, 1075.5, 1078.0, 1081.3, 1084.9]
    gaps = [28.4, 28.4, 26.9, 25.7, 24.9, 23.6, 24.1, 26.2, 27.7, 28.8, 30.1]
    ones = [1129.5] * 6 + [1158.2, 1222.3, 1286.2, 1349.3, 1412.0]
    one_gaps = [21.8] * 6 + [19.9, 17.6, 14.8, 11.9, 9.0]
    times = 30.567 + np.arange(len(xs)) / FPS
    seen = np.ones(len(xs), bool)
    cue = Path("cue", times, np.stack([xs, TABLE.width - BALL_RADIUS_MM - np.array(gaps)], 1),
               seen, (xs[0], TABLE.width - BALL_RADIUS_MM - gaps[0]))  # fmt: skip
    one = Path(1, times, np.stack([ones, TABLE.width - BALL_RADIUS_MM - np.array(one_gaps)], 1),
               seen, (ones[0], TABLE.width - BALL_RADIUS_MM - one_gaps[0]))  # fmt: skip
    assert cushion_contacts(cue, TABLE, 30.642, others=[one]) == []
    assert [e.rail for e in cushion_contacts(cue, TABLE, 30.642)] == ["right"]


def test_a_ball_sent_off_a_cushion_by_the_ball_leaving_it_touched_the_cushion() -> None:
    # As a held-out recording saw it: the cue ball hit the 4, resting 49 mm off the head
    # cushion; the 4 turned off the cushion 11 mm from it a frame later, the cue ball by then
    # 97 mm away and going: the turn is the cushion's, not the cue ball's.
    four = [(77.8, 899.6)] * 4 + [(71.2, 899.5), (39.9, 910.1), (77.2, 917.3), (121.9, 923.3),
                                  (162.4, 926.0)]  # fmt: skip
    cue = [(345.6, 731.3), (292.1, 772.6), (236.9, 813.5), (183.7, 854.4), (136.0, 892.4),
           (136.5, 922.7), (142.2, 951.1), (143.5, 978.9), (146.8, 1005.3)]  # fmt: skip
    times = 20.283 + np.arange(len(four)) / FPS
    seen = np.ones(len(four), bool)
    four_path = Path(4, times, np.array(four), seen, four[0])
    cue_path = Path("cue", times, np.array(cue), seen, cue[0])
    events = cushion_contacts(four_path, TABLE, 20.348, others=[cue_path])
    assert [e.rail for e in events] == ["head"]


def _rolling(start: tuple[float, float], velocity: tuple[float, float], n: int) -> F64:
    return np.asarray(start, dtype=np.float64) + np.outer(np.arange(n) / 60.0, velocity)


def test_two_tracks_that_swapped_balls_passing_are_found_swapped_where_they_jumped() -> None:
    # Fresh 7's 213: the cue ball and the 10 passed 87 mm apart; each track jumped to the
    # other ball (one frame out of sight before) and kept it.
    cue = _rolling((200.0, 1150.0), (-600.0, 0.0), 40)
    ten = _rolling((140.0, 1240.0), (300.0, -400.0), 40)
    track_a = np.vstack([cue[:21], ten[21:]])
    track_b = np.vstack([ten[:21], cue[21:]])
    assert swapped_at(_seen_all("cue", track_a), _seen_all(10, track_b)) == 20


def test_two_tracks_that_swapped_balls_one_out_of_sight_are_found_swapped() -> None:
    # Fresh 54's 1384: the cue ball, lost along the cue as it met the 10, was not seen for
    # 7 frames; its track took the 10 (rolling off slowly) 2 frames before the 10's track
    # took the cue ball, by then 300 mm on. At no one frame did both jump.
    cue = _rolling((230.0, 770.0), (1500.0, -1500.0), 40)
    ten = _rolling((209.0, 682.0), (-200.0, -200.0), 40)
    track_a = np.vstack([cue[:8], ten[8:]])
    track_b = np.vstack([ten[:8], cue[8:]])
    seen_a = np.ones(40, bool)
    seen_a[1:8] = False  # lost along the cue
    seen_b = np.ones(40, bool)
    seen_b[6:10] = False  # hidden under the cue ball's track's ball as it was taken
    track_a[1:8] = track_a[0]
    track_b[6:10] = track_b[5]
    a, b = _seen_all("cue", track_a), _seen_all(10, track_b)
    a = Path(a.key, a.t, a.xy, seen_a, a.start)
    b = Path(b.key, b.t, b.xy, seen_b, b.start)
    assert swapped_at(a, b) in range(5, 8)
    # Each sample carries its last sighting: at no single sample do both jump.
    assert swapped_at(_seen_all("cue", track_a), _seen_all(10, track_b)) is None


def test_two_balls_that_met_and_parted_each_on_its_own_track_were_not_swapped() -> None:
    # A full hit: the cue ball stops dead, the object ball goes on at its speed.
    cue = _rolling((500.0, 600.0), (2000.0, 0.0), 40)
    cue[20:] = cue[19]
    met = (cue[19, 0] + 2 * BALL_RADIUS_MM, 600.0)
    ball = np.vstack([np.full((20, 2), met), _rolling(met, (2000.0, 0.0), 20)])
    assert swapped_at(_seen_all("cue", cue), _seen_all(1, ball)) is None
    assert swapped_at(_seen_all("cue", cue[:1]), _seen_all(1, ball[:1])) is None


def _seen_all(key: int | str, xy: F64) -> Path:
    """A path seen at every sample (60 fps)."""
    times = np.arange(len(xy)) / 60.0
    return Path(key, times, xy, np.ones(len(xy), bool), (float(xy[0, 0]), float(xy[0, 1])))


def test_a_ball_out_of_sight_that_the_cue_balls_way_ran_into_unseen_was_hit_then() -> None:
    # Fresh 8's 245: the cue ball, at 3.2 m/s, goes out of sight under a bystander leaning
    # over the 8; it comes back in sight off the foot cushion. Its way on from its last
    # sighting meets the 8's spot (its centre 50 mm off the line) 0.16 s on.
    times = np.arange(0, 1.5, 1 / FPS)
    cue = straight("cue", (1000.0, 425.0), (3200.0, 0.0), 0.2, times)
    seen = (times < 0.45) | (times > 0.9)
    cue = Path("cue", times, cue.xy, seen, cue.start)
    eight = Path(8, times, np.tile((1850.0, 375.0), (len(times), 1)), np.zeros(len(times), bool),
                 (1850.0, 375.0))  # fmt: skip
    reach = 2 * BALL_RADIUS_MM + 1.5
    hit = hit_out_of_sight(cue, [eight], reach, 0.2)
    assert hit is not None and hit[1] == 8
    meets = 0.2 + (1850.0 - math.sqrt(reach**2 - 50.0**2) - 1000.0) / 3200.0
    assert hit[0] == pytest.approx(meets, abs=1 / FPS)
    # A ball beside its way (100 mm off it), not on it, was not hit.
    aside = Path(8, times, eight.xy + np.array([0.0, 150.0]), eight.seen, (1850.0, 525.0))
    assert hit_out_of_sight(cue, [aside], reach, 0.2) is None


def test_a_ball_struck_into_a_cushion_and_seen_past_its_line_touched_it_after_the_hit() -> None:
    # Fresh 26's 683 at 120 fps: the 1 rests 19 mm off the head cushion; the cue ball hits it
    # (the contact timed 21.1743, 5.6 ms late), the next frame shows it 1 mm past the
    # cushion's touching line, and then coming back off it, touching the cue ball that hit it.
    times = np.array([21.15, 21.1583, 21.1667, 21.175, 21.1833, 21.2, 21.2083, 21.2167, 21.225])
    x = np.array([47.7, 47.7, 47.7, 27.5, 43.4, 49.3, 49.7, 52.0, 53.1])
    y = np.array([1039.2, 1039.2, 1039.2, 1040.7, 1043.7, 1051.3, 1055.2, 1057.8, 1062.4])
    one = Path(1, times, np.stack([x, y], axis=1), np.ones(len(times), bool), (47.7, 1039.2))
    cue_x = np.array([161.1, 135.8, 126.0, 104.4, 105.0, 135.5, 152.1, 167.2, 184.7])
    cue_y = np.array([1034.1, 1034.6, 1032.7, 1034.5, 1033.4, 1026.1, 1023.3, 1019.4, 1016.4])
    cue = Path(
        "cue", times, np.stack([cue_x, cue_y], axis=1), np.ones(len(times), bool), (161.1, 1034.1)
    )
    events = cushion_contacts(one, TABLE, 21.1743, struck_from=(126.0, 1032.7), others=[cue])
    (head,) = [e for e in events if e.rail == "head"]
    assert head.t >= 21.1743  # (the facts keep only what follows the first contact)


def test_a_ball_struck_off_one_it_touched_into_a_cushion_and_back_into_it_touched_it() -> None:
    # Fresh 40's 1029, frame by frame at 60 fps: the 9 rests touching the 5, 46 mm off the
    # right cushion; the cue ball sends it into the cushion and it comes straight back into
    # the 5. Beside the 5 at every sighting but the one at the cushion, its gaps were all
    # taken from that one sighting, held level, and the turn there stood out from nothing.
    times = 30.45 + np.arange(25) / FPS
    nine = _sightings(9, times, {**{k: (2114.1, 1195.8) for k in range(7)}, 7: (2116.9, 1203.0),
                                 9: (2126.2, 1227.1), 10: (2129.8, 1238.0), 11: (2133.1, 1234.3),
                                 13: (2135.1, 1219.8), 14: (2135.6, 1212.6), 15: (2134.3, 1208.0),
                                 16: (2133.2, 1202.8), 17: (2131.9, 1198.0), 18: (2130.6, 1192.8),
                                 19: (2129.5, 1188.6), 20: (2128.8, 1183.5), 21: (2127.9, 1177.6),
                                 22: (2126.5, 1172.3), 23: (2124.2, 1168.2),
                                 24: (2123.3, 1163.4)})  # fmt: skip
    five = _sightings(5, times, {**{k: (2169.4, 1179.9) for k in range(10) if k != 8},
                                 10: (2175.4, 1178.8), 11: (2176.6, 1178.5), 13: (2178.9, 1177.6),
                                 14: (2182.3, 1175.9), 15: (2186.6, 1173.9), 16: (2193.5, 1173.1),
                                 17: (2200.1, 1172.6), 18: (2206.3, 1172.5), 19: (2211.9, 1171.7),
                                 20: (2217.4, 1171.8), 21: (2223.2, 1171.9), 22: (2229.4, 1171.6),
                                 23: (2234.9, 1171.0), 24: (2240.6, 1170.8)})  # fmt: skip
    events = cushion_contacts(nine, TABLE, 30.5, others=[five])
    assert [e.rail for e in events] == ["right"]
    assert events[0].t == pytest.approx(30.62, abs=1 / FPS)


def test_a_thin_cut_in_the_first_frame_after_the_strike_is_found_on_the_way_it_was_struck() -> None:
    # Fresh 59's 1500: the cue ball, struck between frames, cut the 8 thinly before the next
    # frame, which bent its path so that the line between its first two sightings misses
    # the 8. The way it came from its spot since the strike reaches it.
    times = np.arange(0, 1, 1 / FPS)
    rest, t_strike, t_contact, pace = np.array([1158.0, 570.0]), 0.2071, 0.2270, 5400.0
    heading = np.array([0.31, -0.95]) / math.hypot(0.31, -0.95)
    meets = rest + heading * pace * (t_contact - t_strike)
    turn = math.radians(-70.0)  # the line of centres, 70 degrees off the cue ball's way
    centres = np.array(
        [
            heading[0] * math.cos(turn) - heading[1] * math.sin(turn),
            heading[0] * math.sin(turn) + heading[1] * math.cos(turn),
        ]
    )
    spot = meets + 2 * BALL_RADIUS_MM * centres
    after = heading * pace - (heading * pace @ centres) * centres
    xy = np.array(
        [
            rest + heading * pace * max(0.0, t - t_strike)
            if t < t_contact
            else meets + after * (t - t_contact)
            for t in times
        ]
    )
    cue = Path("cue", times, xy, np.ones(len(times), bool), (float(rest[0]), float(rest[1])))
    eight = straight(8, (float(spot[0]), float(spot[1])), tuple(centres * 1500.0), t_contact, times)
    found, _ = first_contacts(cue, [eight], t_strike)
    assert [k for _, k in found] == [8]
    assert found[0][0] == pytest.approx(t_contact, abs=0.3 / FPS)


def test_a_ball_cut_into_a_cushion_by_a_hitter_out_of_sight_touched_it() -> None:
    # Fresh 59's 1508: the 10 out of sight on its spot under the cue from the shot's start,
    # the cue ball, under it too as it cut the 10, seen coming in along a straight line
    # (a sighting 6 mm off it) and going off after. The 10, driven into the foot cushion,
    # is first seen on its way back off it: it touched it.
    times = np.arange(10.9, 12.6, 1 / FPS)
    spot = np.array([2408.0, 1066.0])
    start, way = np.array([1881.6, 1157.8]), np.array([2836.0, -285.0])
    t_in = 11.85
    meet = _ray_time(start, way, spot, 2 * BALL_RADIUS_MM)
    t_hit = t_in + meet
    met = start + way * meet
    centres = (spot - met) / np.hypot(*(spot - met))
    off = way - (way @ centres) * centres
    cue_xy = np.array(
        [start + way * (t - t_in) if t < t_hit else met + off * (t - t_hit) for t in times]
    )
    cue_xy[np.argmin(abs(times - 11.967))] += (5.0, -6.0)
    cue_seen = (times <= 11.99) | (times >= 12.09)
    cue = Path("cue", times, cue_xy, cue_seen, (1000.0, 1200.0))
    driven = centres * float(way @ centres)
    foot = 2540.0 - BALL_RADIUS_MM
    t_foot = t_hit + (foot - spot[0]) / driven[0]
    back = driven * np.array([-0.8, 0.8])
    ten_xy = np.array(
        [
            spot
            if t < t_hit
            else spot + driven * (t - t_hit)
            if t < t_foot
            else spot + driven * (t_foot - t_hit) + back * (t - t_foot)
            for t in times
        ]
    )
    ten = Path(10, times, ten_xy, times > t_foot + 0.01, (float(spot[0]), float(spot[1])))
    hitter = struck_by(ten, [cue])
    assert hitter is not None
    events = cushion_contacts(ten, TABLE, 11.0, None, hitter, [cue])
    assert [e.rail for e in events] == ["foot"]
    assert events[0].t == pytest.approx(t_foot, abs=1 / FPS)


def _ray_time(p0: F64, velocity: F64, centre: F64, radius: float) -> float:
    rel = p0 - centre
    a, b = float(velocity @ velocity), 2 * float(rel @ velocity)
    c = float(rel @ rel) - radius * radius
    return (-b - math.sqrt(b * b - 4 * a * c)) / (2 * a)


def test_a_balls_touches_of_one_rail_within_a_tenth_of_a_second_are_one_contact() -> None:
    # contracts §3; the cushion by a pocket and that pocket's jaw on it are found apart.
    merged = merge_same_contacts(
        [
            Event(1.012, "rail", ("cue",), rail="head"),
            Event(1.000, "rail", ("cue",), rail="head"),
            Event(1.005, "rail", (2,), rail="head"),
            Event(1.006, "rail", ("cue",), rail="left"),
            Event(1.150, "rail", ("cue",), rail="head"),
        ]
    )
    assert [(e.t, e.balls, e.rail) for e in merged] == [
        (1.000, ("cue",), "head"),
        (1.005, (2,), "head"),
        (1.006, ("cue",), "left"),
        (1.150, ("cue",), "head"),
    ]
