"""Balls from foreground scores: synthetic maps whose balls are known."""

from __future__ import annotations

import numpy as np
import pytest
from numpy.typing import NDArray

from vision.detect import detect

RADIUS = 2.9  # half-resolution pixels: a ball at 640×360


def disc_map(
    centres: list[tuple[float, float]], shape: tuple[int, int] = (40, 40)
) -> NDArray[np.float32]:
    ys, xs = np.mgrid[: shape[0], : shape[1]]
    score = np.zeros(shape, np.float32)
    for cx, cy in centres:
        score[(xs - cx) ** 2 + (ys - cy) ** 2 <= RADIUS**2] = 5.0
    return score


def full_res(x: float) -> float:
    return 2 * x + 0.5


def test_a_ball_joined_by_a_cushion_edge_sliver_is_one_ball_where_it_is() -> None:
    score = disc_map([(20.0, 20.0)])
    score[5:18, 24] = 1.5  # a one-pixel line of a cushion's edge touching the ball
    score[17:20, 23] = 1.5
    found = detect(score, np.zeros_like(score), RADIUS)
    assert len(found.discs) == 1 and not found.occluders
    disc = found.discs[0]
    assert disc.x == pytest.approx(full_res(20.0), abs=2.0)
    assert disc.y == pytest.approx(full_res(20.0), abs=2.0)


def test_two_touching_balls_are_two() -> None:
    score = disc_map([(15.0, 20.0), (15.0 + 2 * RADIUS, 20.0)])
    found = detect(score, np.zeros_like(score), RADIUS)
    xs = sorted(d.x for d in found.discs)
    assert xs == pytest.approx([full_res(15.0), full_res(15.0 + 2 * RADIUS)], abs=1.5)
