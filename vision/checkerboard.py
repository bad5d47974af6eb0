"""The camera's intrinsics and lens distortion from pictures of a printed checkerboard.

The classic way (Zhang's method, OpenCV's `calibrateCamera`): a flat board of known squares
held at several angles in front of the table's camera, at the resolution it films at.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.lens import Lens

PICTURE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff")
# Fewer views than this leave the focal length and the distortion poorly separated.
MIN_VIEWS = 3


class CheckerboardError(ValueError):
    """The checkerboard pictures cannot give a calibration."""


@dataclass(frozen=True)
class BoardCalibration:
    lens: Lens
    image_size: tuple[int, int]
    views: int  # pictures in which the board was found
    pictures: int
    rms_px: float  # reprojection error of the corners


def calibrate_checkerboards(
    paths: Sequence[Path], inner_corners: tuple[int, int], square_mm: float
) -> BoardCalibration:
    """The lens from pictures of a board with `inner_corners` (columns, rows) of inner corners.

    Distortion is k1, k2 and the tangential p1, p2 (k3 left at zero: a few views of a board
    do not pin it, and a mild lens does not need it).
    """
    if square_mm <= 0:
        raise CheckerboardError(f"square size: expected a positive length, got {square_mm}")
    cols, rows = inner_corners
    board = np.zeros((rows * cols, 3), np.float32)
    board[:, :2] = np.mgrid[0:cols, 0:rows].T.reshape(-1, 2) * square_mm
    object_points, image_points = [], []
    size: tuple[int, int] | None = None
    for path in paths:
        gray = cv2.imread(str(path), cv2.IMREAD_GRAYSCALE)
        if gray is None:
            raise CheckerboardError(f"{path}: OpenCV cannot read a picture from it")
        here = (int(gray.shape[1]), int(gray.shape[0]))
        if size is not None and here != size:
            raise CheckerboardError(
                f"{path}: {here[0]}x{here[1]}, the others are {size[0]}x{size[1]}"
            )
        size = here
        flags = cv2.CALIB_CB_ADAPTIVE_THRESH | cv2.CALIB_CB_NORMALIZE_IMAGE
        found, corners = cv2.findChessboardCorners(gray, (cols, rows), flags=flags)
        if not found:
            continue
        criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 30, 0.01)
        corners = cv2.cornerSubPix(gray, corners, (5, 5), (-1, -1), criteria)
        object_points.append(board)
        image_points.append(corners)
    if size is None:
        raise CheckerboardError("no checkerboard pictures given")
    if len(object_points) < MIN_VIEWS:
        raise CheckerboardError(
            f"a {cols}x{rows} board was found in {len(object_points)} of {len(paths)} pictures;"
            f" at least {MIN_VIEWS} are needed (is --pattern the count of inner corners?)"
        )
    rms, matrix, dist, _, _ = cv2.calibrateCamera(
        object_points, image_points, size, np.eye(3), np.zeros(5), flags=cv2.CALIB_FIX_K3
    )
    lens = Lens(np.asarray(matrix, np.float64), np.asarray(dist, np.float64).ravel()[:5])
    return BoardCalibration(lens, size, len(object_points), len(paths), float(rms))


def pictures_in(folder: Path) -> list[Path]:
    if not folder.is_dir():
        raise CheckerboardError(f"{folder}: not a folder")
    found = sorted(p for p in folder.iterdir() if p.suffix.lower() in PICTURE_SUFFIXES)
    if not found:
        raise CheckerboardError(f"{folder}: no pictures ({', '.join(PICTURE_SUFFIXES)}) in it")
    return found
