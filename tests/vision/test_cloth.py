"""The cloth model, from drawn frames."""

from __future__ import annotations

import numpy as np

from tests.vision.drawn import CALIBRATION, RED, frame
from vision.cloth import ClothModel
from vision.geometry import BALL_RADIUS_MM


def test_the_cloth_under_a_rack_is_the_cloth_around_it() -> None:
    # Fifteen red balls racked cover more than half of the model's window at the rack's
    # middle: the cloth seen there once the rack is broken is still cloth.
    apex, step = np.array([1900.0, 635.0]), 2 * BALL_RADIUS_MM
    rack = {
        (float(apex[0] + row * step * np.sqrt(3) / 2), float(apex[1] + (k - row / 2) * step)): RED
        for row in range(5)
        for k in range(row + 1)
    }
    model = ClothModel.estimate(frame(rack), CALIBRATION)
    bare = frame({})
    colour, dark = model.foreground(bare.y_half(), bare.u, bare.v)
    assert np.max(colour) < 1.0 and np.max(dark) < 1.0
