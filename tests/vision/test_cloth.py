"""The cloth model, from drawn frames."""

from __future__ import annotations

import numpy as np

from tests.vision.drawn import CALIBRATION, CORNERS, RED, frame, picture
from vision.cloth import ClothModel, Planes
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


def test_a_dim_corner_is_cloth_to_its_edge() -> None:
    # The lamp's light falls off into a corner, steeply: the model's window there reaches
    # past the cloth's edge, where the nearest cloth, not the table's overall cloth (much
    # brighter), stands in; else the corner's own cloth looks dark, as a shadow or the 8.
    image = picture({})
    ys, xs = np.mgrid[: image.shape[0], : image.shape[1]]
    corner = np.array(CORNERS[3])  # the foot's right corner, at the image's bottom right
    light = np.clip(np.hypot(xs - corner[0], ys - corner[1]) / 200.0, 0.3, 1.0)
    dim = Planes.from_bgr((image * light[..., None]).astype(np.uint8))
    model = ClothModel.estimate(dim, CALIBRATION)
    colour, dark = model.foreground(dim.y_half(), dim.u, dim.v)
    assert np.max(colour) < 1.0 and np.max(dark) < 1.0


def half_res_window(x: float, y: float) -> tuple[int, int, int, int]:
    """A ball's window (half resolution) around a table point."""
    px, py = CALIBRATION.to_image(np.array([[x, y]]))[0] / 2.0
    reach = round(2 * CALIBRATION.ball_radius_px() / 2.0)
    return round(px) - reach, round(py) - reach, round(px) + reach + 1, round(py) + reach + 1


def test_a_ball_leans_out_over_the_cushions_but_not_over_a_pocket_s_mouth() -> None:
    # A ball against a cushion leans out over its face, where the cloth ends and nothing
    # is seen; one in a pocket's mouth is over the drop, not over a cushion (fresh 21's
    # 563: the 8 going into the side pocket, taken to lean out there, was put 15 mm deeper
    # in than it was, and seemed to turn off the jaw).
    model = ClothModel.estimate(frame({}), CALIBRATION)
    assert model.off_cloth(half_res_window(800.0, BALL_RADIUS_MM)).any()
    assert model.off_cloth(half_res_window(BALL_RADIUS_MM, 600.0)).any()
    side = CALIBRATION.table.pockets["SL"]
    assert not model.off_cloth(half_res_window(side[0], BALL_RADIUS_MM)).any()
    corner = CALIBRATION.table.pockets["FR"]
    at_corner = half_res_window(corner[0] - BALL_RADIUS_MM, corner[1] - BALL_RADIUS_MM)
    assert not model.off_cloth(at_corner).any()


def test_y_at_half_resolution_is_each_2x2_blocks_mean() -> None:
    bgr = np.random.default_rng(2).integers(0, 256, (360, 640, 3), dtype=np.uint8)
    y = Planes.from_bgr(bgr).y.astype(np.int32)
    blocks = y[0::2, 0::2] + y[1::2, 0::2] + y[0::2, 1::2] + y[1::2, 1::2]
    assert np.array_equal(Planes.from_bgr(bgr).y_half(), (blocks + 2) // 4)
