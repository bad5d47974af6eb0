"""Drawn frames for the tracker and the shot detector: a plain table whose balls and
intruders are placed exactly."""

from __future__ import annotations

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.calibration import Calibration
from vision.cloth import Planes

WIDTH, HEIGHT = 640, 360
CORNERS = [[40.0, 330.0], [40.0, 30.0], [600.0, 30.0], [600.0, 330.0]]
CALIBRATION = Calibration.from_json(
    {"size_mm": [2540.0, 1270.0], "corners_px": CORNERS}, (WIDTH, HEIGHT)
)
CLOTH_BGR = (40, 120, 30)
WHITE = (235, 235, 235)
RED = (20, 30, 200)  # the 3
SKIN = (150, 170, 205)

Balls = dict[tuple[float, float], tuple[int, int, int]]


def into_the_head_left_corner(i: int, struck_at: int) -> tuple[float, float] | None:
    """Where a ball is at frame `i`, struck at frame `struck_at` from (400, 200) into the
    head-left corner at 0.36 m/s (60 fps); None once it is down."""
    k = max(i - struck_at, 0)
    x, y = 400.0 - 6.0 * k, 200.0 - 3.0 * k
    return (x, y) if x > 60.0 else None


def frame(
    balls: Balls,
    cue_stick: bool = False,
    arm: tuple[float, float] | None = None,
    noise: int | None = None,
) -> Planes:
    """The table with balls (table mm -> BGR) and, if asked: a player about to shoot the
    first ball; an arm reaching in from the side cushion to a table point; camera noise
    (the seed)."""
    return Planes.from_bgr(picture(balls, cue_stick, arm, noise))


def picture(
    balls: Balls,
    cue_stick: bool = False,
    arm: tuple[float, float] | None = None,
    noise: int | None = None,
) -> NDArray[np.uint8]:
    """The BGR image `frame` is made of."""
    image = np.zeros((HEIGHT, WIDTH, 3), np.uint8)
    image[:] = (20, 40, 60)
    cv2.fillPoly(image, [np.array(CORNERS, np.int32)], CLOTH_BGR)
    radius = round(CALIBRATION.ball_radius_px())
    for (x, y), colour in balls.items():
        px, py = CALIBRATION.to_image(np.array([[x, y]]))[0]
        cv2.circle(image, (round(px), round(py)), radius, colour, -1, cv2.LINE_AA)
    if cue_stick:
        # A player about to shoot the first ball: the bridge hand's fingertips spread on the
        # cloth beside it, and the cue's white ferrule pointing at it a little way off.
        (x, y), _ = next(iter(balls.items()))
        for dx, dy in ((-75.0, -45.0), (-50.0, -50.0), (-25.0, -55.0), (-90.0, -20.0)):
            finger = CALIBRATION.to_image(np.array([[x + dx, y + dy]]))[0]
            cv2.circle(image, tuple(np.round(finger).astype(int)), radius, SKIN, -1)
        near, far = CALIBRATION.to_image(np.array([[x + 150.0, y], [x + 230.0, y]]))
        cv2.line(image, tuple(np.round(near).astype(int)), tuple(np.round(far).astype(int)),
                 WHITE, 2 * radius, cv2.LINE_AA)  # fmt: skip
    if arm is not None:
        hand, shoulder = CALIBRATION.to_image(np.array([arm, [arm[0], -200.0]]))
        cv2.line(image, tuple(np.round(hand).astype(int)), tuple(np.round(shoulder).astype(int)),
                 SKIN, 4 * radius, cv2.LINE_AA)  # fmt: skip
    if noise is not None:
        grain = np.random.default_rng(noise).normal(0.0, 2.0, image.shape)
        image = np.clip(image + grain, 0, 255).astype(np.uint8)
    return image
