"""The table in millimetres (contracts.md §1): size, cushions, pockets, balls."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

import numpy as np
from numpy.typing import NDArray

BALL_RADIUS_MM = 57.15 / 2
# The pocket mouths, measured along the cushion noses (WPA: corner 4.5–4.625 in, side 5–5.125 in).
CORNER_MOUTH_MM = 117.0
SIDE_MOUTH_MM = 130.0
# How deep a pocket's jaws run from their tips on the cushion line to the hole, and the
# angle they are cut at to the cushion line (WPA equipment specifications).
JAW_DEPTH_MM = 70.0
CORNER_JAW_DEG = 142.0
SIDE_JAW_DEG = 104.0
# The shelf: from the mouth's line (through the jaw tips) to the edge of the hole, where a
# ball's centre passes and it falls (WPA: corner 1–2.25 in, side 0–0.375 in; the middles).
CORNER_SHELF_MM = 41.0
SIDE_SHELF_MM = 5.0

Points = NDArray[np.float64]


class Rail(StrEnum):
    HEAD = "head"
    FOOT = "foot"
    LEFT = "left"
    RIGHT = "right"


@dataclass(frozen=True)
class Table:
    """Playing-surface geometry: x along the long axis from the head rail, y across."""

    length: float = 2540.0
    width: float = 1270.0

    @property
    def pockets(self) -> dict[str, tuple[float, float]]:
        length, width = self.length, self.width
        return {
            "HL": (0.0, 0.0),
            "HR": (0.0, width),
            "SL": (length / 2, 0.0),
            "SR": (length / 2, width),
            "FL": (length, 0.0),
            "FR": (length, width),
        }

    def rail_gaps(self, xy: Points) -> NDArray[np.float64]:
        """Distance from each ball centre's cloth point to each cushion nose, minus a radius.

        Columns head, foot, left, right; 0 means touching, negative means the centre is past
        the touching line (a ball in a pocket mouth or leaving the table).
        """
        x, y = xy[:, 0], xy[:, 1]
        gaps = np.stack([x, self.length - x, y, self.width - y], axis=1) - BALL_RADIUS_MM
        return np.asarray(gaps, dtype=np.float64)

    def nearest_pocket(self, xy: Points) -> tuple[list[str], NDArray[np.float64]]:
        names = list(self.pockets)
        centres = np.array([self.pockets[n] for n in names])
        dist = np.linalg.norm(xy[:, None, :] - centres[None, :, :], axis=2)
        best = np.argmin(dist, axis=1)
        return [names[i] for i in best], dist[np.arange(len(xy)), best]

    def pocket_mouth(self, name: str) -> float:
        return SIDE_MOUTH_MM if name in ("SL", "SR") else CORNER_MOUTH_MM

    def mouth_reach(self, name: str) -> float:
        """How far from a pocket's point a ball is in (or a ball's width from) its mouth:
        lost from sight there, it went down or comes back out right there."""
        return self.pocket_mouth(name) / 2 + 2 * BALL_RADIUS_MM

    def jaws(self, name: str) -> tuple[tuple[Rail, Points], ...]:
        """A pocket's two jaws as segments (2×2: tip on the cushion line, end at the hole),
        each with the rail it belongs to (a jaw counts as its rail, contracts.md §3).

        The tips are half a mouth either side of the pocket's middle line; the jaws are cut
        at the WPA angles to the cushion line (142° at a corner, 104° at a side pocket).
        """
        px, py = self.pockets[name]
        out_y = -1.0 if py == 0 else 1.0
        side_rail = Rail.LEFT if py == 0 else Rail.RIGHT
        half = self.pocket_mouth(name) / 2
        if name in ("SL", "SR"):
            turn = np.radians(180.0 - SIDE_JAW_DEG)
            return tuple(
                (side_rail, _jaw((tip_x, py), (toward * np.cos(turn), out_y * np.sin(turn))))
                for tip_x, toward in ((px - half, 1.0), (px + half, -1.0))
            )
        out_x = -1.0 if px == 0 else 1.0
        end_rail = Rail.HEAD if px == 0 else Rail.FOOT
        along = half * np.sqrt(2.0)  # from the corner to a tip, along the cushion line
        turn = np.radians(180.0 - CORNER_JAW_DEG)
        ahead, aside = np.cos(turn), np.sin(turn)
        return (
            (side_rail, _jaw((px - out_x * along, py), (out_x * ahead, out_y * aside))),
            (end_rail, _jaw((px, py - out_y * along), (out_x * aside, out_y * ahead))),
        )

    def drop_line(self, name: str) -> tuple[Points, Points]:
        """Where a ball falls into a pocket: a point of the hole's edge and the outward
        normal there (the mouth's line moved out by the shelf)."""
        px, py = self.pockets[name]
        out_y = -1.0 if py == 0 else 1.0
        if name in ("SL", "SR"):
            return np.array([px, py + out_y * SIDE_SHELF_MM]), np.array([0.0, out_y])
        out_x = -1.0 if px == 0 else 1.0
        normal = np.array([out_x, out_y]) / np.sqrt(2.0)
        half_diagonal = self.pocket_mouth(name) / 2 / np.sqrt(2.0)  # corner to mouth line
        mouth = np.array([px, py]) - normal * half_diagonal
        return mouth + normal * CORNER_SHELF_MM, normal

    def on_cloth(self, xy: Points, margin: float = 0.0) -> NDArray[np.bool_]:
        x, y = xy[:, 0], xy[:, 1]
        return (
            (x > -margin) & (x < self.length + margin) & (y > -margin) & (y < self.width + margin)
        )


def point_segment_distance(points: Points, a: Points, b: Points) -> NDArray[np.float64]:
    """Each point's (n×2) distance to the segment from a to b."""
    ab = b - a
    f = np.clip(((points - a) @ ab) / max(float(ab @ ab), 1e-12), 0.0, 1.0)
    return np.asarray(np.linalg.norm(points - (a + f[:, None] * ab), axis=1))


def _jaw(tip: tuple[float, float], direction: tuple[float, float]) -> Points:
    start = np.array(tip)
    return np.stack([start, start + JAW_DEPTH_MM * np.array(direction)])


RAILS: tuple[Rail, ...] = (Rail.HEAD, Rail.FOOT, Rail.LEFT, Rail.RIGHT)
