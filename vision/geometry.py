"""The table in millimetres (contracts.md §1): size, cushions, pockets, balls."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

import numpy as np
from numpy.typing import NDArray

BALL_RADIUS_MM = 57.15 / 2
# The pockets as the simulator our ground truth comes from builds a 9-ft table (pooltool's
# PocketTableSpecs): mouths measured between the jaw tips on the cushion lines (WPA: corner
# 4.5–4.625 in, side 5–5.125 in); each jaw's face cut at an angle to its cushion's nose
# (WPA: corner 142°, side 104°, each ±1°; the simulator's side jaws are cut straighter) and
# run back a cushion's width; where face and nose meet, the rubber is rounded.
CORNER_MOUTH_MM = 117.0
SIDE_MOUTH_MM = 130.0
CORNER_JAW_DEG = 140.3
SIDE_JAW_DEG = 97.1
JAW_DEPTH_MM = 50.8
CORNER_NOSE_MM = 20.95
SIDE_NOSE_MM = 7.95
# The hole: a ball falls as its centre crosses this circle, whose centre lies beyond the
# pocket's point (diagonally out at a corner, straight out at a side).
CORNER_HOLE_MM = 62.0
SIDE_HOLE_MM = 64.5
CORNER_HOLE_OUT_MM = 41.7
SIDE_HOLE_OUT_MM = 68.5

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

    def cushion_gaps(self, xy: Points) -> NDArray[np.float64]:
        """As rail_gaps, but to each cushion's rubber as it is: its nose only between the
        pockets' mouths, and its jaws (a jaw counts as its rail). A ball facing a mouth,
        clear of its jaws, touches no cushion however near the nose's line it is."""
        gaps = self.rail_gaps(xy)
        corner = CORNER_MOUTH_MM / 2 * np.sqrt(2.0)  # from a corner to a jaw's tip
        side = SIDE_MOUTH_MM / 2
        for r, rail in enumerate(RAILS):
            ends = rail in (Rail.HEAD, Rail.FOOT)
            along, length = (xy[:, 1], self.width) if ends else (xy[:, 0], self.length)
            mouths = [(0.0, corner), (length, corner)]
            if not ends:
                mouths.append((length / 2, side))
            facing = np.zeros(len(xy), bool)
            for centre, half in mouths:
                facing |= np.abs(along - centre) < half
            gaps[facing, r] = np.inf
        for name in self.pockets:
            for jaw in self.jaws(name):
                r = RAILS.index(jaw.rail)
                gaps[:, r] = np.minimum(gaps[:, r], jaw.gaps(xy))
        return gaps

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

    def jaws(self, name: str) -> tuple[Jaw, Jaw]:
        """A pocket's two jaws, each belonging to its rail (a jaw counts as its rail,
        contracts.md §3): tips half a mouth either side of the pocket's middle line."""
        px, py = self.pockets[name]
        out_y = -1.0 if py == 0 else 1.0
        side_rail = Rail.LEFT if py == 0 else Rail.RIGHT
        half = self.pocket_mouth(name) / 2
        if name in ("SL", "SR"):
            return (
                _jaw(side_rail, (px - half, py), (-1.0, 0.0), (0.0, out_y), side=True),
                _jaw(side_rail, (px + half, py), (1.0, 0.0), (0.0, out_y), side=True),
            )
        out_x = -1.0 if px == 0 else 1.0
        end_rail = Rail.HEAD if px == 0 else Rail.FOOT
        along = half * np.sqrt(2.0)  # from the corner to a tip, along the cushion line
        return (
            _jaw(side_rail, (px - out_x * along, py), (-out_x, 0.0), (0.0, out_y), side=False),
            _jaw(end_rail, (px, py - out_y * along), (0.0, -out_y), (out_x, 0.0), side=False),
        )

    def hole(self, name: str) -> tuple[Points, float]:
        """Where a ball falls into a pocket: the circle its centre crosses (centre, radius)."""
        px, py = self.pockets[name]
        out_y = -1.0 if py == 0 else 1.0
        if name in ("SL", "SR"):
            return np.array([px, py + out_y * SIDE_HOLE_OUT_MM]), SIDE_HOLE_MM
        out_x = -1.0 if px == 0 else 1.0
        diagonal = CORNER_HOLE_OUT_MM / np.sqrt(2.0)
        return np.array([px + out_x * diagonal, py + out_y * diagonal]), CORNER_HOLE_MM

    def on_cloth(self, xy: Points, margin: float = 0.0) -> NDArray[np.bool_]:
        x, y = xy[:, 0], xy[:, 1]
        return (
            (x > -margin) & (x < self.length + margin) & (y > -margin) & (y < self.width + margin)
        )


def nearest_on_segment(points: Points, a: Points, b: Points) -> Points:
    """The point of the segment from a to b nearest each point (n×2)."""
    ab = b - a
    f = np.clip(((points - a) @ ab) / max(float(ab @ ab), 1e-12), 0.0, 1.0)
    return np.asarray(a + f[:, None] * ab)


def point_segment_distance(points: Points, a: Points, b: Points) -> NDArray[np.float64]:
    """Each point's (n×2) distance to the segment from a to b."""
    return np.asarray(np.linalg.norm(points - nearest_on_segment(points, a, b), axis=1))


@dataclass(frozen=True)
class Jaw:
    """One jaw of a pocket: its flat face (a segment from where the rounded nose ends to
    the back of the cushion) and the nose's circle, which meets the rail's nose line."""

    rail: Rail
    face: Points  # 2×2
    nose: Points  # the rounding's centre
    nose_radius: float

    def gaps(self, centres: Points) -> NDArray[np.float64]:
        """Each ball centre's (n×2) distance from touching this jaw (0: touching)."""
        to_face = point_segment_distance(centres, self.face[0], self.face[1])
        to_nose = np.linalg.norm(centres - self.nose, axis=1) - self.nose_radius
        return np.asarray(np.minimum(to_face, to_nose) - BALL_RADIUS_MM)


def _jaw(
    rail: Rail,
    tip: tuple[float, float],
    away: tuple[float, float],
    out: tuple[float, float],
    side: bool,
) -> Jaw:
    """The jaw whose sharp tip (where face and nose lines meet) is `tip`; `away` runs along
    the nose line away from the pocket, `out` from the cloth into the cushion."""
    cut = np.radians(180.0 - (SIDE_JAW_DEG if side else CORNER_JAW_DEG))  # face to nose line
    radius = SIDE_NOSE_MM if side else CORNER_NOSE_MM
    t, a, o = np.array(tip), np.array(away), np.array(out)
    face_way = -a * np.cos(cut) + o * np.sin(cut)
    # The nose's circle touches both lines this far from the tip (half the jaw's angle).
    touch = radius / np.tan((np.pi - cut) / 2)
    face = np.stack([t + face_way * touch, t + face_way * JAW_DEPTH_MM / np.sin(cut)])
    return Jaw(rail, face, t + a * touch + o * radius, radius)


RAILS: tuple[Rail, ...] = (Rail.HEAD, Rail.FOOT, Rail.LEFT, Rail.RIGHT)
