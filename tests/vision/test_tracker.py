"""The tracker on drawn frames: a plain table whose balls and intruders are placed exactly."""

from __future__ import annotations

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.calibration import Calibration
from vision.cloth import Planes
from vision.geometry import BALL_RADIUS_MM
from vision.tracker import Tracker

WIDTH, HEIGHT = 640, 360
CORNERS = [[40.0, 330.0], [40.0, 30.0], [600.0, 30.0], [600.0, 330.0]]
CALIBRATION = Calibration.from_json(
    {"size_mm": [2540.0, 1270.0], "corners_px": CORNERS}, (WIDTH, HEIGHT)
)
CLOTH_BGR = (40, 120, 30)


def frame(
    balls: dict[tuple[float, float], tuple[int, int, int]], cue_stick: bool = False
) -> Planes:
    """The table with balls (table mm -> BGR) and, if asked, a player about to shoot the first."""
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
            cv2.circle(image, tuple(np.round(finger).astype(int)), radius, (150, 170, 205), -1)
        near, far = CALIBRATION.to_image(np.array([[x + 150.0, y], [x + 230.0, y]]))
        cv2.line(image, tuple(np.round(near).astype(int)), tuple(np.round(far).astype(int)),
                 (235, 235, 235), 2 * radius, cv2.LINE_AA)  # fmt: skip
    return Planes.from_bgr(image)


def ball_at(tracker: Tracker, key: object) -> NDArray[np.float64]:
    (track,) = [t for t in tracker.tracks.values() if t.key == key]
    assert track.missing_since is None
    return track.xy


def test_a_bridge_hand_and_a_cue_beside_the_resting_cue_ball_neither_hide_nor_move_it() -> None:
    balls = {(1500.0, 640.0): (235, 235, 235), (600.0, 300.0): (20, 30, 200)}  # cue ball, 3
    tracker = Tracker(CALIBRATION, ("cue", 3))
    still = frame(balls)
    for i in range(5):
        tracker.update(i / 60, still)
    rest = ball_at(tracker, "cue").copy()
    assert np.hypot(*(rest - (1500.0, 640.0))) < 8.0
    for i in range(5, 30):
        tracker.update(i / 60, frame(balls, cue_stick=True))
        assert np.hypot(*(ball_at(tracker, "cue") - rest)) < BALL_RADIUS_MM


def test_a_struck_ball_is_followed() -> None:
    tracker = Tracker(CALIBRATION, ("cue", 3))
    for i in range(5):
        tracker.update(
            i / 60, frame({(1500.0, 640.0): (235, 235, 235), (600.0, 300.0): (20, 30, 200)})
        )
    for i in range(5, 20):
        x = 1500.0 - 1500.0 * (i - 4) / 60  # 1.5 m/s towards the head rail
        tracker.update(i / 60, frame({(x, 640.0): (235, 235, 235), (600.0, 300.0): (20, 30, 200)}))
    assert abs(ball_at(tracker, "cue")[0] - x) < 10.0
