"""From image pixels to table millimetres, and back.

The four playing-surface corners give a homography between the (undistorted) image and the
cloth. With the camera's intrinsics (or its height) the homography also gives the camera's
position, which corrects the parallax of a ball's centre: it is 28.6 mm above the cloth, so a
camera that is not straight above a ball sees it displaced outward (WPA 8.1 places a ball at
the cloth point under its centre).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.geometry import BALL_RADIUS_MM, Points, Table

_NO_TURN = np.zeros(3)  # a rotation or translation vector that leaves points where they are


class CalibrationError(ValueError):
    """The table object of a recording or config does not describe a usable view."""


def _matrix(value: object, shape: tuple[int, ...], where: str) -> NDArray[np.float64]:
    try:
        array = np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError):
        raise CalibrationError(f"{where}: expected numbers") from None
    if shape and array.shape != shape:
        raise CalibrationError(f"{where}: expected shape {shape}, got {array.shape}")
    return array


@dataclass(frozen=True, eq=False)
class Calibration:
    table: Table
    image_size: tuple[int, int]
    image_to_cloth: NDArray[np.float64]  # homography, undistorted pixels -> cloth mm
    camera_matrix: NDArray[np.float64] | None
    dist_coeffs: NDArray[np.float64] | None
    camera_xy: tuple[float, float] | None  # the cloth point under the camera, mm
    camera_height: float | None  # above the cloth, mm

    @classmethod
    def from_json(cls, table: Mapping[str, Any], image_size: tuple[int, int]) -> Calibration:
        """The `table` object of contracts.md §2 for frames of `image_size` (width, height)."""
        size = _matrix(table.get("size_mm", [2540, 1270]), (2,), "table.size_mm")
        if "corners_px" not in table:
            raise CalibrationError(
                "table.corners_px: missing (run `tenball calibrate` to find the table)"
            )
        corners = _matrix(table["corners_px"], (4, 2), "table.corners_px")
        width, height = image_size
        if (
            np.any(corners < -0.5)
            or np.any(corners[:, 0] > width)
            or np.any(corners[:, 1] > height)
        ):
            raise CalibrationError(
                f"table.corners_px: a corner lies outside the {width}x{height} image"
            )
        camera_matrix = dist = None
        if "camera_matrix" in table:
            camera_matrix = _matrix(table["camera_matrix"], (3, 3), "table.camera_matrix")
            dist = _matrix(table.get("dist_coeffs", [0, 0, 0, 0, 0]), (), "table.dist_coeffs")
        length, wide = float(size[0]), float(size[1])
        cloth = np.array([[0, 0], [0, wide], [length, wide], [length, 0]], dtype=np.float64)
        undistorted = _undistort(corners, camera_matrix, dist)
        homography = cv2.getPerspectiveTransform(
            undistorted.astype(np.float32), cloth.astype(np.float32)
        ).astype(np.float64)
        height_hint = table.get("camera_height_mm")
        pose = _camera_position(
            homography,
            camera_matrix,
            image_size,
            None if height_hint is None else float(height_hint),
        )
        return cls(
            table=Table(length, wide),
            image_size=(width, height),
            image_to_cloth=homography,
            camera_matrix=camera_matrix,
            dist_coeffs=dist,
            camera_xy=None if pose is None else (pose[0], pose[1]),
            camera_height=None if pose is None else pose[2],
        )

    def to_table(self, pixels: Points, height_mm: float = BALL_RADIUS_MM) -> Points:
        """Image points of things `height_mm` above the cloth -> the cloth points under them."""
        pts = _undistort(np.asarray(pixels, dtype=np.float64), self.camera_matrix, self.dist_coeffs)
        cloth = _apply(self.image_to_cloth, pts)
        if self.camera_xy is None or self.camera_height is None or height_mm == 0:
            return cloth
        below = np.asarray(self.camera_xy)
        scale = (self.camera_height - height_mm) / self.camera_height
        return np.asarray(below + (cloth - below) * scale, dtype=np.float64)

    def to_image(self, points_mm: Points, height_mm: float = BALL_RADIUS_MM) -> Points:
        """Cloth points (of things `height_mm` above them) -> image pixels (distorted)."""
        pts = np.asarray(points_mm, dtype=np.float64).reshape(-1, 2)
        if self.camera_xy is not None and self.camera_height is not None and height_mm:
            below = np.asarray(self.camera_xy)
            pts = below + (pts - below) * self.camera_height / (self.camera_height - height_mm)
        undistorted = _apply(self.cloth_to_image, pts)
        return self._distort(undistorted)

    @functools.cached_property
    def cloth_to_image(self) -> NDArray[np.float64]:
        return np.asarray(np.linalg.inv(self.image_to_cloth), dtype=np.float64)

    @functools.cached_property
    def _lens(
        self,
    ) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64]] | None:
        """The inverse camera matrix (pixels -> rays), the camera matrix and the distortion
        coefficients, when there is a lens that bends the picture."""
        matrix, dist = self.camera_matrix, self.dist_coeffs
        if matrix is None or dist is None or not np.any(dist):
            return None
        # OpenCV's 3×3 inverse: numpy's goes through LAPACK, whose threads cost ~100× more.
        return np.asarray(cv2.invert(matrix)[1], dtype=np.float64), matrix, dist

    def _distort(self, pts: Points) -> Points:
        """Undistorted pixels -> the lens's (distorted) pixels."""
        if self._lens is None or not len(pts):
            return pts
        to_rays, matrix, dist = self._lens
        rays = cv2.convertPointsToHomogeneous(
            cv2.perspectiveTransform(pts.reshape(-1, 1, 2), to_rays)
        )
        projected, _ = cv2.projectPoints(rays, _NO_TURN, _NO_TURN, matrix, dist)
        return np.asarray(projected.reshape(-1, 2), dtype=np.float64)

    def mm_per_px(self) -> float:
        """The cloth's scale at the table centre (mm per image pixel)."""
        centre = np.array([[self.table.length / 2, self.table.width / 2]])
        step = np.array([[10.0, 0.0], [0.0, 10.0]])
        image = self.to_image(np.vstack([centre, centre + step]), 0.0)
        px = np.linalg.norm(image[1:] - image[0], axis=1).mean()
        return float(10.0 / px)

    def ball_radius_px(self) -> float:
        return BALL_RADIUS_MM / self.mm_per_px()

    def table_polygon(self, margin_mm: float = 0.0, samples: int = 8) -> NDArray[np.int32]:
        """The playing surface's outline in the image (curved where the lens bends it)."""
        length, width = self.table.length, self.table.width
        m = margin_mm
        edges = [
            ((-m, -m), (-m, width + m)),
            ((-m, width + m), (length + m, width + m)),
            ((length + m, width + m), (length + m, -m)),
            ((length + m, -m), (-m, -m)),
        ]
        points = [np.linspace(a, b, samples, endpoint=False) for a, b in edges]
        outline = self.to_image(np.vstack(points), 0.0)
        return np.round(outline).astype(np.int32)


def _apply(homography: NDArray[np.float64], pts: Points) -> Points:
    if not len(pts):
        return np.zeros((0, 2))
    mapped = cv2.perspectiveTransform(np.asarray(pts, np.float64).reshape(-1, 1, 2), homography)
    return np.asarray(mapped.reshape(-1, 2))


def _undistort(
    pts: Points, camera_matrix: NDArray[np.float64] | None, dist: NDArray[np.float64] | None
) -> Points:
    if camera_matrix is None or dist is None or not np.any(dist) or not len(pts):
        return pts
    out = cv2.undistortPoints(pts.reshape(-1, 1, 2), camera_matrix, dist, P=camera_matrix)
    return np.asarray(out.reshape(-1, 2), dtype=np.float64)


def _camera_position(
    image_to_cloth: NDArray[np.float64],
    camera_matrix: NDArray[np.float64] | None,
    image_size: tuple[int, int],
    height_hint: float | None,
) -> tuple[float, float, float] | None:
    """The camera's cloth point and height, from the homography and the intrinsics.

    Without intrinsics a known height gives the focal length (a nearly straight-down view
    cannot give it by itself); with neither there is no parallax correction.
    """
    cloth_to_image = np.linalg.inv(image_to_cloth)
    if camera_matrix is None:
        if height_hint is None:
            return None
        width, height = image_size
        centre = np.array([[width / 2, height / 2]])
        scale_px_per_mm = 1.0 / _local_scale(image_to_cloth, centre)
        focal = height_hint * scale_px_per_mm
        camera_matrix = np.array([[focal, 0, width / 2], [0, focal, height / 2], [0, 0, 1.0]])
    m = np.linalg.inv(camera_matrix) @ cloth_to_image
    lam = 2.0 / (np.linalg.norm(m[:, 0]) + np.linalg.norm(m[:, 1]))
    if m[2, 2] * lam < 0:
        lam = -lam
    r1, r2, t = m[:, 0] * lam, m[:, 1] * lam, m[:, 2] * lam
    rotation = np.stack([r1, r2, np.cross(r1, r2)], axis=1)
    u, _, vt = np.linalg.svd(rotation)
    rotation = u @ vt
    centre_3d = -rotation.T @ t
    return float(centre_3d[0]), float(centre_3d[1]), float(abs(centre_3d[2]))


def _local_scale(image_to_cloth: NDArray[np.float64], pixel: Points) -> float:
    """mm per pixel of the homography around one image point."""
    step = np.array([[1.0, 0.0], [0.0, 1.0]])
    mapped = _apply(image_to_cloth, np.vstack([pixel, pixel + step]))
    return float(np.linalg.norm(mapped[1:] - mapped[0], axis=1).mean())


def corners_from_sequence(corners: Sequence[Sequence[float]]) -> NDArray[np.float64]:
    return _matrix(corners, (4, 2), "corners_px")
