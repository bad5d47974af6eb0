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

    def on_cloth(self, xy: Points, margin: float = 0.0) -> NDArray[np.bool_]:
        x, y = xy[:, 0], xy[:, 1]
        return (
            (x > -margin) & (x < self.length + margin) & (y > -margin) & (y < self.width + margin)
        )


RAILS: tuple[Rail, ...] = (Rail.HEAD, Rail.FOOT, Rail.LEFT, Rail.RIGHT)
