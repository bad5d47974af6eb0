"""Image ↔ table mapping, the camera's position, and the parallax of a ball's centre."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from numpy.typing import NDArray

from vision.calibration import Calibration, CalibrationError
from vision.geometry import BALL_RADIUS_MM

SIZE = (1280, 720)
K = np.array([[1000.0, 0, 640], [0, 1000.0, 360], [0, 0, 1]])
DIST = np.array([-0.05, 0.01, 0.0, 0.0, 0.0])


Array = NDArray[np.float64]


def camera(tilt_deg: float = 4.0) -> tuple[Array, Array, Array]:
    """A camera 3 m above the table centre, looking down with a small tilt.

    World frame: x along the table, y across, z up from the cloth; the camera looks down -z.
    """
    centre = np.array([1270.0, 635.0, 3000.0])
    down = cv2.Rodrigues(np.array([np.pi, 0.0, 0.0]))[0]  # camera z axis points down
    tilt = cv2.Rodrigues(np.array([np.radians(tilt_deg), np.radians(1.5), 0.0]))[0]
    rotation = tilt @ down
    tvec = -rotation @ centre
    return (
        np.asarray(rotation, np.float64),
        np.asarray(tvec, np.float64),
        np.asarray(centre, np.float64),
    )


def project(points: Array, rotation: Array, tvec: Array, dist: Array = DIST) -> Array:
    rvec = cv2.Rodrigues(rotation)[0]
    image, _ = cv2.projectPoints(points.reshape(-1, 1, 3), rvec, tvec, K, dist)
    return np.asarray(image, dtype=np.float64).reshape(-1, 2)


def table_json(rotation: Array, tvec: Array, **extra: object) -> dict[str, object]:
    corners = np.array([[0, 0, 0], [0, 1270, 0], [2540, 1270, 0], [2540, 0, 0]], float)
    return {
        "size_mm": [2540, 1270],
        "corners_px": project(corners, rotation, tvec).tolist(),
        **extra,
    }


def test_camera_position_is_recovered_from_corners_and_intrinsics() -> None:
    rotation, tvec, centre = camera()
    cal = Calibration.from_json(
        table_json(rotation, tvec, camera_matrix=K.tolist(), dist_coeffs=DIST.tolist()), SIZE
    )
    assert cal.camera_xy is not None and cal.camera_height is not None
    assert cal.camera_xy == pytest.approx((centre[0], centre[1]), abs=1.0)
    assert cal.camera_height == pytest.approx(centre[2], abs=2.0)


@pytest.mark.parametrize("x,y", [(100, 100), (1270, 635), (2440, 1170), (2500, 40)])
def test_a_ball_centre_maps_to_the_cloth_point_under_it(x: float, y: float) -> None:
    rotation, tvec, _ = camera()
    cal = Calibration.from_json(
        table_json(rotation, tvec, camera_matrix=K.tolist(), dist_coeffs=DIST.tolist()), SIZE
    )
    seen = project(np.array([[x, y, BALL_RADIUS_MM]]), rotation, tvec)
    assert cal.to_table(seen)[0] == pytest.approx((x, y), abs=0.5)
    # Without the parallax correction the error near the rails is many millimetres.
    flat = cal.to_table(seen, height_mm=0.0)[0]
    if abs(x - 1270) > 1000:
        assert np.hypot(flat[0] - x, flat[1] - y) > 8.0


def test_to_image_inverts_to_table() -> None:
    rotation, tvec, _ = camera()
    cal = Calibration.from_json(
        table_json(rotation, tvec, camera_matrix=K.tolist(), dist_coeffs=DIST.tolist()), SIZE
    )
    points = np.array([[10.0, 10.0], [1200.0, 600.0], [2530.0, 1260.0]])
    assert cal.to_table(cal.to_image(points)) == pytest.approx(points, abs=0.05)


def test_height_alone_gives_the_parallax_correction_for_a_straight_down_view() -> None:
    rotation, tvec, _ = camera(tilt_deg=0.0)
    cal = Calibration.from_json(
        table_json(rotation, tvec, camera_height_mm=3000.0) | {
            "corners_px": project(
                np.array([[0, 0, 0], [0, 1270, 0], [2540, 1270, 0], [2540, 0, 0]], float),
                rotation, tvec, dist=np.zeros(5),
            ).tolist()
        },
        SIZE,
    )  # fmt: skip
    seen = project(np.array([[2400.0, 1200.0, BALL_RADIUS_MM]]), rotation, tvec, np.zeros(5))
    assert cal.to_table(seen)[0] == pytest.approx((2400.0, 1200.0), abs=3.0)


@pytest.mark.parametrize(
    "table,message",
    [
        ({"size_mm": [2540, 1270]}, "table.corners_px: missing"),
        ({"corners_px": [[0, 0], [1, 1]]}, "table.corners_px: expected shape (4, 2)"),
        ({"corners_px": [[0, 0], [0, 800], [2000, 800], [2000, 0]]}, "outside the 1280x720"),
    ],
)
def test_bad_tables_are_named(table: dict[str, object], message: str) -> None:
    with pytest.raises(CalibrationError, match=message.replace("(", r"\(").replace(")", r"\)")):
        Calibration.from_json(table, SIZE)
