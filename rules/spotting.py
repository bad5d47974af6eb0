"""Where the 10 goes when it is spotted (R19, WPA 1.4).

On the long string as close to the foot spot as possible, between the spot and the foot rail,
frozen to an object ball in the way but not touching the cue ball; if the whole line behind the
spot is blocked, in front of the spot toward the head.
"""

from __future__ import annotations

import math

from rules.model import CUE, BallId, Position

BALL_DIAMETER_MM = 57.15
# "Close to the cue ball but not touching": a gap a referee's hand leaves, and that vision can
# still see as a gap.
CUE_BALL_GAP_MM = 1.0


def foot_spot(table_mm: tuple[float, float]) -> Position:
    length, width = table_mm
    return (0.75 * length, width / 2)


def _blocked_intervals(others: dict[BallId, Position], line_y: float) -> list[tuple[float, float]]:
    """Open x-intervals on the long string where the 10's centre would overlap a ball."""
    intervals = []
    for ball, (x, y) in others.items():
        clearance = BALL_DIAMETER_MM + (CUE_BALL_GAP_MM if ball == CUE else 0.0)
        dy = abs(y - line_y)
        if dy >= clearance:
            continue
        half = math.sqrt(clearance * clearance - dy * dy)
        intervals.append((x - half, x + half))
    return intervals


def _is_free(x: float, intervals: list[tuple[float, float]]) -> bool:
    # Touching at exactly the clearance is allowed (frozen to an object ball); a hair of
    # tolerance keeps the interval ends themselves free despite rounding.
    return all(not (lo + 1e-6 < x < hi - 1e-6) for lo, hi in intervals)


def spot_ten(table_mm: tuple[float, float], positions: dict[BallId, Position]) -> Position:
    """The 10's spot given where every other ball on the table rests (table mm)."""
    length, _ = table_mm
    spot_x, line_y = foot_spot(table_mm)
    radius = BALL_DIAMETER_MM / 2
    others = {ball: pos for ball, pos in positions.items() if ball != 10}
    intervals = _blocked_intervals(others, line_y)
    # The nearest free point is the spot itself or the end of a blocking interval.
    candidates = [spot_x] + [end for interval in intervals for end in interval]
    behind = sorted(x for x in candidates if spot_x <= x <= length - radius)
    for x in behind:
        if _is_free(x, intervals):
            return (x, line_y)
    in_front = sorted((x for x in candidates if radius <= x <= spot_x), reverse=True)
    for x in in_front:
        if _is_free(x, intervals):
            return (x, line_y)
    return (spot_x, line_y)
