"""Lens, focal length and pose from the cushions' straightness, and from checkerboards, on
pictures rendered through known cameras."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest
from numpy.typing import NDArray

from vision.checkerboard import calibrate_checkerboards
from vision.lens import CUSHION_HEIGHT_MM, FocalFrom, Lens, fit_picture
from vision.outline import CUSHION_WIDTH_MM

Array = NDArray[np.float64]
Picture = NDArray[np.uint8]
SIZE_MM = (2540.0, 1270.0)
WIDTH, HEIGHT = 640, 360
RAIL_MM = 130.0  # the wooden rail outside the cushion
POCKET_MM = 65.0
CLOTH, RAIL, FLOOR, POCKET = (60, 140, 40), (40, 70, 130), (20, 20, 20), (5, 5, 5)


def camera_matrix(focal: float) -> Array:
    return np.array([[focal, 0, (WIDTH - 1) / 2], [0, focal, (HEIGHT - 1) / 2], [0, 0, 1.0]])


def pose(height_mm: float, offset_mm: tuple[float, float], head_left: bool) -> tuple[Array, Array]:
    """A camera `height_mm` above the cloth, `offset_mm` off the centre, aimed at the centre.

    Frame: the contract's x, y and z down into the cloth (right-handed).
    """
    length, width = SIZE_MM
    target = np.array([length / 2, width / 2, 0.0])
    centre = target + np.array([offset_mm[0], offset_mm[1], -height_mm])
    forward = (target - centre) / np.linalg.norm(target - centre)
    right_hint = np.array([1.0, 0.0, 0.0]) if head_left else np.array([-1.0, 0.0, 0.0])
    right = right_hint - (right_hint @ forward) * forward
    right /= np.linalg.norm(right)
    down = np.cross(forward, right)
    rotation = np.stack([right, down, forward])
    return np.asarray(cv2.Rodrigues(rotation)[0].ravel(), np.float64), -rotation @ centre


def render_table(matrix: Array, dist: Array, rvec: Array, tvec: Array, seed: int = 0) -> Picture:
    """The cushions' top and the rails (one plane at the cushions' height), pockets and floor,
    seen through the camera; rendered at twice the size and averaged down for soft edges."""
    scale = 2
    big = matrix.copy()
    big[:2] *= scale  # pixel centres: (u + 0.5) * scale - 0.5
    big[:2, 2] = (matrix[:2, 2] + 0.5) * scale - 0.5
    ys, xs = np.mgrid[0 : HEIGHT * scale, 0 : WIDTH * scale].astype(np.float64)
    pixels = np.stack([xs.ravel(), ys.ravel()], axis=1).reshape(-1, 1, 2)
    rays = cv2.undistortPoints(pixels, big, dist).reshape(-1, 2)
    rotation = cv2.Rodrigues(rvec)[0]
    centre = -rotation.T @ tvec
    directions = np.hstack([rays, np.ones((len(rays), 1))]) @ rotation  # camera -> world
    depth = (-CUSHION_HEIGHT_MM - centre[2]) / directions[:, 2]
    x, y = (centre[:2, None] + depth * directions[:, :2].T).reshape(2, -1)
    length, width = SIZE_MM
    c = CUSHION_WIDTH_MM
    image = np.empty((len(x), 3), np.float64)
    image[:] = FLOOR
    on_rail = (x > -c - RAIL_MM) & (x < length + c + RAIL_MM)
    on_rail &= (y > -c - RAIL_MM) & (y < width + c + RAIL_MM)
    image[on_rail] = RAIL
    image[(x > -c) & (x < length + c) & (y > -c) & (y < width + c)] = CLOTH
    for px, py in [(0, 0), (0, width), (length / 2, -25), (length / 2, width + 25),
                   (length, 0), (length, width)]:  # fmt: skip
        image[np.hypot(x - px, y - py) < POCKET_MM] = POCKET
    picture = image.reshape(HEIGHT * scale, WIDTH * scale, 3).astype(np.float32)
    small = cv2.resize(picture, (WIDTH, HEIGHT), interpolation=cv2.INTER_AREA)
    noise = np.random.default_rng(seed).normal(0.0, 2.0, small.shape)
    return np.asarray(np.clip(small + noise, 0, 255), np.uint8)


def true_corners(matrix: Array, dist: Array, rvec: Array, tvec: Array) -> Array:
    length, width = SIZE_MM
    noses = np.array([[0, 0, 0], [0, width, 0], [length, width, 0], [length, 0, 0]], float)
    return np.asarray(cv2.projectPoints(noses, rvec, tvec, matrix, dist)[0].reshape(4, 2))


def test_a_bent_lens_is_straightened_and_the_camera_placed_with_a_known_focal_length() -> None:
    matrix, dist = camera_matrix(560.0), np.array([-0.08, 0.0, 0.0, 0.0, 0.0])
    rvec, tvec = pose(2900.0, (60.0, -90.0), head_left=True)
    fit = fit_picture(render_table(matrix, dist, rvec, tvec), SIZE_MM, "left", focal_px=560.0)
    assert fit.lens_fitted and fit.focal_from is FocalFrom.GIVEN
    assert fit.dist_coeffs[0] == pytest.approx(-0.08, abs=0.01)
    assert fit.camera_height_mm == pytest.approx(2900.0, rel=0.02)
    assert fit.straightness_after_px < 0.6 * fit.straightness_before_px
    corners = true_corners(matrix, dist, rvec, tvec)
    assert np.abs(fit.corners_px - corners).max() < 0.5


def test_a_tilted_view_measures_its_focal_length() -> None:
    matrix, dist = camera_matrix(420.0), np.array([-0.05, 0.0, 0.0, 0.0, 0.0])
    rvec, tvec = pose(2200.0, (-1100.0, 150.0), head_left=False)
    fit = fit_picture(render_table(matrix, dist, rvec, tvec, seed=1), SIZE_MM, "right")
    assert fit.focal_from is FocalFrom.PERSPECTIVE
    assert fit.camera_matrix[0, 0] == pytest.approx(420.0, rel=0.05)
    assert fit.camera_height_mm == pytest.approx(2200.0, rel=0.05)
    assert fit.dist_coeffs[0] == pytest.approx(-0.05, abs=0.015)
    corners = true_corners(matrix, dist, rvec, tvec)
    assert np.abs(fit.corners_px - corners).max() < 0.7


def test_a_straight_lens_gets_no_distortion_and_a_measured_height_gives_the_focal() -> None:
    matrix, dist = camera_matrix(600.0), np.zeros(5)
    rvec, tvec = pose(3100.0, (40.0, 50.0), head_left=True)
    picture = render_table(matrix, dist, rvec, tvec, seed=2)
    fit = fit_picture(picture, SIZE_MM, "left", camera_height_mm=3100.0)
    assert not fit.lens_fitted and not np.any(fit.dist_coeffs)
    assert fit.focal_from is FocalFrom.HEIGHT
    assert fit.camera_matrix[0, 0] == pytest.approx(600.0, rel=0.02)
    assert np.abs(fit.corners_px - true_corners(matrix, dist, rvec, tvec)).max() < 0.5


def test_a_given_lens_is_used_as_it_is() -> None:
    matrix, dist = camera_matrix(560.0), np.array([-0.06, 0.02, 0.0, 0.0, 0.0])
    rvec, tvec = pose(2800.0, (-50.0, 80.0), head_left=True)
    picture = render_table(matrix, dist, rvec, tvec, seed=3)
    fit = fit_picture(picture, SIZE_MM, "left", lens=Lens(matrix, dist))
    assert fit.focal_from is FocalFrom.GIVEN and not fit.lens_fitted
    assert fit.dist_coeffs == pytest.approx(dist)
    assert fit.camera_height_mm == pytest.approx(2800.0, rel=0.01)
    assert np.abs(fit.corners_px - true_corners(matrix, dist, rvec, tvec)).max() < 0.5


def render_board(matrix: Array, dist: Array, rvec: Array, tvec: Array, square_mm: float) -> Picture:
    """A 10x7-square board (9x6 inner corners) with a white margin, through the camera."""
    cols, rows, margin = 10, 7, 1
    ys, xs = np.mgrid[0:HEIGHT, 0:WIDTH].astype(np.float64)
    pixels = np.stack([xs.ravel(), ys.ravel()], axis=1).reshape(-1, 1, 2)
    rays = cv2.undistortPoints(pixels, matrix, dist).reshape(-1, 2)
    rotation = cv2.Rodrigues(rvec)[0]
    centre = -rotation.T @ tvec
    directions = np.hstack([rays, np.ones((len(rays), 1))]) @ rotation
    depth = -centre[2] / directions[:, 2]
    # Board coordinates in squares, its first inner corner at (0, 0).
    u, v = (centre[:2, None] + depth * directions[:, :2].T).reshape(2, -1) / square_mm + 1
    inside = (u > -margin) & (u < cols + margin) & (v > -margin) & (v < rows + margin)
    on_squares = (u > 0) & (u < cols) & (v > 0) & (v < rows)
    dark = on_squares & ((np.floor(u) + np.floor(v)) % 2 == 0)
    image = np.full(len(u), 60.0)
    image[inside] = 230.0
    image[dark] = 25.0
    return np.asarray(cv2.GaussianBlur(image.reshape(HEIGHT, WIDTH), (0, 0), 0.8), np.uint8)


def board_pictures(folder: Path, matrix: Array, dist: Array) -> list[Path]:
    square = 30.0
    paths = []
    # Tilted every way and moved about the frame, as a careful installer would hold it, so
    # the corners of the picture (where k1 and k2 part) are covered too.
    for i, (tilt_x, tilt_y, spin, dx, dy) in enumerate(
        [(0, 0, 0, 0, 0), (30, 0, 5, -160, -70), (-30, 0, -5, 160, 70), (0, 30, 10, 160, -70),
         (0, -30, -10, -160, 70), (20, 20, 0, 0, 80), (-25, 20, 15, 150, 0),
         (20, -25, -15, -150, -80)]
    ):  # fmt: skip
        rotation = cv2.Rodrigues(np.radians([tilt_x, tilt_y, spin]).astype(np.float64))[0]
        board_centre = np.array([4.5 * square, 3.0 * square, 0.0])
        tvec = np.array([dx, dy, 560.0]) - rotation @ board_centre
        rvec = np.asarray(cv2.Rodrigues(rotation)[0].ravel(), np.float64)
        picture = render_board(matrix, dist, rvec, tvec, square)
        path = folder / f"board{i}.png"
        cv2.imwrite(str(path), picture)
        paths.append(path)
    return paths


def test_checkerboards_give_the_lens(tmp_path: Path) -> None:
    matrix, dist = camera_matrix(560.0), np.array([-0.09, 0.03, 0.0, 0.0, 0.0])
    board = calibrate_checkerboards(board_pictures(tmp_path, matrix, dist), (9, 6), 30.0)
    assert board.views >= 6
    assert board.lens.camera_matrix[0, 0] == pytest.approx(560.0, rel=0.01)
    assert board.lens.dist_coeffs[0] == pytest.approx(-0.09, abs=0.01)


def test_calibrate_uses_checkerboards_and_names_bad_input(tmp_path: Path) -> None:
    matrix, dist = camera_matrix(560.0), np.array([-0.07, 0.0, 0.0, 0.0, 0.0])
    boards = tmp_path / "boards"
    boards.mkdir()
    board_pictures(boards, matrix, dist)
    rvec, tvec = pose(2900.0, (30.0, 60.0), head_left=True)
    table_png = tmp_path / "table.png"
    cv2.imwrite(str(table_png), render_table(matrix, dist, rvec, tvec))
    command = [sys.executable, "-m", "firmware.cli", "calibrate", "--image", str(table_png)]
    done = subprocess.run(
        [*command, "--checkerboard", str(boards), "--pattern", "9x6", "--square-mm", "30"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    table = json.loads(done.stdout)
    assert table["focal_from"] == "given"
    assert table["camera_height_mm"] == pytest.approx(2900.0, rel=0.02)
    assert table["dist_coeffs"][0] == pytest.approx(-0.07, abs=0.01)
    bad = tmp_path / "lens.json"
    bad.write_text('{"camera_matrix": [[1, 0], [0, 1]]}')
    for extra, named in [
        (["--camera-matrix", str(bad)], "camera_matrix: expected a 3x3"),
        (["--camera-matrix", str(tmp_path / "none.json")], "none.json: cannot read it"),
        (["--checkerboard", str(tmp_path / "empty")], "empty: not a folder"),
        (["--checkerboard", str(boards), "--pattern", "7x5"], "found in 0 of 8 pictures"),
    ]:
        done = subprocess.run([*command, *extra], capture_output=True, text=True, check=False)
        assert done.returncode == 2, done.stderr
        assert named in done.stderr and "Traceback" not in done.stderr
