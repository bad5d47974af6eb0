"""The camera's exposure and white balance, measured on the first frame and taken out."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from numpy.typing import NDArray

from tests.vision.drawn import CALIBRATION, RED, WHITE, Balls, picture
from vision.cloth import ClothModel, Planes
from vision.exposure import CLOTH_SHARE, Exposure, Light, encoded, linear_light
from vision.identify import Look, look_at

YELLOW = (20, 195, 245)  # the 1
# A rack's worth of balls about the table, the cue ball and a stripe among them.
BALLS: Balls = {
    (600.0, 400.0): WHITE,
    (1500.0, 700.0): RED,
    (1900.0, 300.0): YELLOW,
    (1200.0, 1000.0): WHITE,
}
CUE_BALL = (600.0, 400.0)


def lit(image: NDArray[np.uint8], bgr_gains: tuple[float, float, float]) -> NDArray[np.uint8]:
    """The picture as a camera with other channel gains (exposure, white balance) takes it."""
    return np.asarray(np.clip(image * np.array(bgr_gains), 0, 255), np.uint8)


def measured(planes: Planes) -> Exposure:
    return Exposure.for_light(Light.measure(planes, CALIBRATION))


def cloth_y(planes: Planes) -> float:
    model = ClothModel.estimate(planes, CALIBRATION)
    return float(np.median(model.y[model.table_mask > 0]))


def look(planes: Planes, at: tuple[float, float]) -> Look:
    x, y = CALIBRATION.to_image(np.array([at]))[0]
    cloth = ClothModel.estimate(planes, CALIBRATION)
    return look_at(planes, planes.y_half(), cloth, x, y, CALIBRATION.ball_radius_px())


def test_a_frame_exposed_as_the_pipeline_expects_is_used_as_it_is() -> None:
    planes = Planes.from_bgr(picture(BALLS, noise=1))
    exposure = measured(planes)
    assert exposure == Exposure()
    assert exposure.apply(planes) is planes


@pytest.mark.parametrize("light", [1.25, 1.5, 2.0])
def test_a_brighter_camera_is_brought_down_to_the_cloth_brightness(light: float) -> None:
    planes = Planes.from_bgr(lit(picture(BALLS, noise=1), (light, light, light)))
    exposure = measured(planes)
    assert exposure.gain == pytest.approx(1 / light, rel=0.06)
    black, white = planes.levels()
    assert cloth_y(exposure.apply(planes)) == pytest.approx(
        black + CLOTH_SHARE * (white - black), abs=3
    )


@pytest.mark.parametrize("light", [0.5, 0.7])
def test_a_darker_camera_is_used_as_it_is(light: float) -> None:
    planes = Planes.from_bgr(lit(picture(BALLS, noise=1), (light, light, light)))
    assert measured(planes) == Exposure()


def test_a_warm_lamp_s_tint_is_taken_out_of_the_white() -> None:
    planes = Planes.from_bgr(lit(picture(BALLS, noise=1), (0.75, 1.0, 1.1)))
    assert look(planes, CUE_BALL).white < 0.5  # orange enough to count as coloured
    exposure = measured(planes)
    u, v = exposure.tint
    assert u < -0.05 and v > 0.03  # less blue, more red
    assert look(exposure.apply(planes), CUE_BALL).white > 0.8


def test_a_warm_tint_is_measured_on_white_balls_only_a_little_brighter_than_the_cloth() -> None:
    # Under lamps that light the cloth brightly, the white balls (here in shade) are only
    # about half again as bright as the cloth round them.
    shaded = (130, 130, 130)
    balls: Balls = {**BALLS, CUE_BALL: shaded, (1200.0, 1000.0): shaded}
    planes = Planes.from_bgr(lit(picture(balls, noise=1), (0.75, 1.0, 1.1)))
    u, v = measured(planes).tint
    assert u < -0.05 and v > 0.03


def test_a_small_tint_is_left_in() -> None:
    planes = Planes.from_bgr(lit(picture(BALLS, noise=1), (0.96, 1.0, 1.02)))
    assert measured(planes) == Exposure()


def test_without_white_on_the_table_a_coloured_ball_is_not_taken_for_the_light() -> None:
    colours_only: Balls = {(600.0, 400.0): YELLOW, (1500.0, 700.0): RED, (1900.0, 300.0): YELLOW}
    planes = Planes.from_bgr(lit(picture(colours_only, noise=1), (0.75, 1.0, 1.1)))
    assert measured(planes).tint == (0.0, 0.0)


def test_a_lamp_s_hot_spot_on_the_cloth_is_not_taken_for_white() -> None:
    image: NDArray[np.float64] = picture({}, noise=1).astype(np.float64)
    spot = np.zeros(image.shape[:2], np.float64)
    cv2.circle(spot, (320, 180), 90, (1.0,), -1)
    spot = np.asarray(cv2.GaussianBlur(spot, (0, 0), 30), np.float64)
    image *= 1 + 1.6 * spot[..., None]  # the cloth under the lamp 2.6 times as bright
    planes = Planes.from_bgr(np.clip(image, 0, 255).astype(np.uint8))
    assert measured(planes).tint == (0.0, 0.0)


def test_only_the_tint_beyond_what_is_left_in_is_taken_out() -> None:
    # Taken out all at once, a tint just over the line made two encodings of one recording
    # differ (one lost a first contact): the correction grows from nothing at the line.
    assert Exposure.for_light(Light(CLOTH_SHARE, (0.05, 0.0))).tint == (0.0, 0.0)
    u, v = Exposure.for_light(Light(CLOTH_SHARE, (0.08, 0.0))).tint
    assert u == pytest.approx(0.02) and v == 0.0
    u, v = Exposure.for_light(Light(CLOTH_SHARE, (-0.12, 0.16))).tint
    assert (u, v) == pytest.approx((-0.12 * 0.7, 0.16 * 0.7))


def test_a_frame_is_scaled_down_only_when_its_cloth_is_clearly_brighter() -> None:
    assert Exposure.for_light(Light(0.5, None)).gain == pytest.approx(CLOTH_SHARE / 0.5)
    assert Exposure.for_light(Light(0.35, None)).gain == 1.0  # within the recordings' spread
    assert Exposure.for_light(Light(0.15, None)).gain == 1.0  # darker: used as it is


def test_a_clipped_cue_ball_under_a_lamp_stays_white_when_the_frame_is_scaled_down() -> None:
    # A camera set bright: the cue ball runs into the top, and it lies in a lamp's hot spot,
    # where the cloth is bright too. Scaled down, it must still be clipped white (not a grey
    # disc no brighter than that cloth, which took no name and lost the cue ball in hand).
    image: NDArray[np.float64] = picture(BALLS, noise=1).astype(np.float64)
    spot = np.zeros(image.shape[:2], np.float64)
    centre = np.round(CALIBRATION.to_image(np.array([CUE_BALL]))[0]).astype(int)
    cv2.circle(spot, (int(centre[0]), int(centre[1])), 40, (1.0,), -1)
    spot = np.asarray(cv2.GaussianBlur(spot, (0, 0), 15), np.float64)
    image *= 1.5 * (1 + 0.8 * spot[..., None])
    planes = Planes.from_bgr(np.clip(image, 0, 255).astype(np.uint8))
    exposure = measured(planes)
    assert exposure.gain < 0.8
    assert look(exposure.apply(planes), CUE_BALL).white > 0.8


def test_the_tone_curve_round_trips_and_clips_light_beyond_full_scale() -> None:
    values = np.linspace(0.0, 1.0, 256)
    assert np.allclose(encoded(linear_light(values)), values)
    assert linear_light(np.array([0.5]))[0] == pytest.approx(0.214, abs=0.001)  # mid-grey
    brighter, full = encoded(np.array([2.0, 1.0]))
    assert brighter == full == pytest.approx(1.0)
