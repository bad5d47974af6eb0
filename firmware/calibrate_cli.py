"""`tenball calibrate`: find the table and the camera in a picture, write its `table` object
and a check image.

The `table` object (contracts §2) goes to a recording's recording.json or the device's
configuration: the corners, and the lens and the camera's height when they are known or found.
The PNG shows the outline, the pockets and a 250 mm grid drawn back through the whole
calibration (distortion included), for the installer to check by eye; a summary goes to stderr.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.calibration import Calibration
from vision.checkerboard import CheckerboardError, calibrate_checkerboards, pictures_in
from vision.cloth import Planes
from vision.exposure import AS_IS, CLOTH_SHARE, TINT_AS_IS, Exposure, Light
from vision.lens import NOMINAL_HEIGHT_MM, FocalFrom, Lens, ViewFit, fit_picture
from vision.outline import CUSHION_WIDTH_MM, HEADS, OutlineError

Image = NDArray[np.uint8]
SIZES = {"9ft": (2540.0, 1270.0), "8ft": (2235.0, 1118.0), "7ft": (1981.0, 991.0)}
GRID_MM = 250.0


class BadInputError(ValueError):
    """Something the user gave cannot be used; the message names it."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--image", type=Path, help="a picture from the table's camera")
    source.add_argument("--video", type=Path, help="a video from it (its first frame is used)")
    parser.add_argument("--size", choices=tuple(SIZES), default="9ft", help="the table (9ft)")
    parser.add_argument(
        "--head", choices=HEADS, default="left", help="where the head rail is in the picture"
    )
    parser.add_argument(
        "--cushion-mm", type=float, default=CUSHION_WIDTH_MM, help="cushion nose to rail (50.8)"
    )
    parser.add_argument("--out", type=Path, help="write the table object here (default stdout)")
    parser.add_argument("--png", type=Path, help="write the check image here")
    lens = parser.add_mutually_exclusive_group()
    lens.add_argument(
        "--checkerboard", type=Path, metavar="DIR",
        help="a folder of checkerboard pictures from the same camera at the same resolution",
    )  # fmt: skip
    lens.add_argument(
        "--camera-matrix", type=Path, metavar="FILE",
        help="JSON with camera_matrix (and dist_coeffs), e.g. an earlier table object",
    )  # fmt: skip
    lens.add_argument("--focal-px", type=float, help="the lens's focal length in pixels")
    parser.add_argument(
        "--pattern", type=_pattern, default=(9, 6),
        help="the checkerboard's inner corners, COLSxROWS (9x6)",
    )  # fmt: skip
    parser.add_argument(
        "--square-mm", type=float, default=25.0, help="the checkerboard's square (25)"
    )
    parser.add_argument(
        "--camera-height-mm", type=float,
        help=f"the lens's height above the cloth, if measured (else the fit's prior, "
        f"{NOMINAL_HEIGHT_MM:.0f} mm, unless the view's tilt measures it)",
    )  # fmt: skip


def main(args: argparse.Namespace) -> int:
    frame = _picture(args)
    if frame is None:
        return 2
    height, width = frame.shape[:2]
    size = SIZES[args.size]
    try:
        lens, lens_note = _known_lens(args, (width, height))
        if args.focal_px is not None and args.focal_px <= 0:
            raise BadInputError(f"--focal-px: expected a positive number, got {args.focal_px}")
        if args.camera_height_mm is not None and args.camera_height_mm <= 0:
            raise BadInputError(
                f"--camera-height-mm: expected a positive length, got {args.camera_height_mm}"
            )
    except (BadInputError, CheckerboardError) as exc:
        print(f"tenball calibrate: {exc}", file=sys.stderr)
        return 2
    try:
        fit = fit_picture(
            frame, size, args.head, args.cushion_mm, lens, args.focal_px, args.camera_height_mm
        )
    except OutlineError as exc:
        print(f"tenball calibrate: {exc}", file=sys.stderr)
        return 1
    table = table_object(fit, size)
    # One key a line, each value on one line: short enough to read and to diff.
    text = "{\n" + ",\n".join(f" {json.dumps(k)}: {json.dumps(v)}" for k, v in table.items())
    text += "\n}"
    if args.out is not None:
        args.out.write_text(text + "\n")
    else:
        print(text)
    calibration = Calibration.from_json(table, (width, height))
    if args.png is not None:
        cv2.imwrite(str(args.png), draw_check(frame, calibration))
    light = Light.measure(Planes.from_bgr(frame), calibration)
    print(summary(fit, lens_note), file=sys.stderr)
    print(f"  {light_summary(light)}", file=sys.stderr)
    return 0


def table_object(fit: ViewFit, size: tuple[float, float]) -> dict[str, Any]:
    """The `table` object of contracts §2, with the lens only where it means something: a
    focal length that is merely assumed is written only to carry a fitted distortion."""
    table: dict[str, Any] = {
        "size_mm": list(size),
        "corners_px": np.round(fit.corners_px, 2).tolist(),
    }
    if fit.focal_from is not FocalFrom.ASSUMED or fit.lens_fitted:
        table["camera_matrix"] = np.round(fit.camera_matrix, 3).tolist()
        if np.any(fit.dist_coeffs):
            table["dist_coeffs"] = np.round(fit.dist_coeffs, 6).tolist()
    table["camera_height_mm"] = round(fit.camera_height_mm, 1)
    table["focal_from"] = fit.focal_from.value
    return table


def summary(fit: ViewFit, lens_note: str | None) -> str:
    straight = f"edges' straightness {fit.straightness_before_px:.2f} px"
    undone = f"{straight} -> {fit.straightness_after_px:.2f} px"
    if lens_note is not None:
        lens = f"lens {lens_note}: k1 {fit.dist_coeffs[0]:+.4f}; {undone}"
    elif fit.lens_fitted:
        lens = f"lens k1 {fit.dist_coeffs[0]:+.4f} from the cushions' bow; {undone}"
    else:
        lens = f"lens: no distortion found ({straight}, no clear bow)"
    focal = {
        FocalFrom.GIVEN: "given",
        FocalFrom.HEIGHT: "from the measured height",
        FocalFrom.PERSPECTIVE: "measured from the view's tilt",
        FocalFrom.ASSUMED: (
            f"assumed: a camera about {NOMINAL_HEIGHT_MM:.0f} mm up (the view is too straight"
            " to measure it; give --camera-height-mm, --focal-px or --checkerboard)"
        ),
    }[fit.focal_from]
    corners = " ".join(f"({x:.1f}, {y:.1f})" for x, y in fit.corners_px)
    return "\n".join(
        [
            f"tenball calibrate: corners HL HR FR FL {corners} from {fit.edge_points} points "
            "on the cushions' edges",
            f"  {lens}",
            f"  focal length {fit.camera_matrix[0, 0]:.0f} px, {focal}",
            f"  camera {fit.camera_height_mm:.0f} mm above the cloth",
        ]
    )


def light_summary(light: Light) -> str:
    """How the camera sees the table, and what vision will do about it."""
    exposure = Exposure.for_light(light)
    works_at = f"vision works at {100 * CLOTH_SHARE:.0f} %"
    share = f"the cloth at {100 * light.cloth_share:.0f} % of black to white"
    if exposure.gain != 1.0:
        share += f" ({works_at}: frames are scaled by {exposure.gain:.2f})"
    elif light.cloth_share < CLOTH_SHARE * (1 - AS_IS):
        share += f" ({works_at}: a longer exposure is better)"
    if light.tint is None:
        return f"light: {share}; too little white on the table to judge its tint"
    u, v = light.tint
    white = f"the balls' white tinted U/Y {u:+.3f}, V/Y {v:+.3f}"
    if exposure.tint != (0.0, 0.0):
        white += f" (vision takes out all but {TINT_AS_IS}; set the camera's colour gains)"
    return f"light: {share}; {white}"


def _pattern(text: str) -> tuple[int, int]:
    match = re.fullmatch(r"(\d+)x(\d+)", text.strip().lower())
    if match is None or min(int(match[1]), int(match[2])) < 2:
        raise argparse.ArgumentTypeError(f"expected COLSxROWS of inner corners, like 9x6: {text!r}")
    return int(match[1]), int(match[2])


def _known_lens(
    args: argparse.Namespace, image_size: tuple[int, int]
) -> tuple[Lens | None, str | None]:
    if args.checkerboard is not None:
        board = calibrate_checkerboards(
            pictures_in(args.checkerboard), args.pattern, args.square_mm
        )
        if board.image_size != image_size:
            raise BadInputError(
                f"{args.checkerboard}: the checkerboard pictures are "
                f"{board.image_size[0]}x{board.image_size[1]}, the table's picture is "
                f"{image_size[0]}x{image_size[1]}; take both at the table's resolution"
            )
        note = (
            f"from {board.views} of {board.pictures} checkerboard pictures"
            f" (RMS {board.rms_px:.2f} px)"
        )
        return board.lens, note
    if args.camera_matrix is not None:
        return _lens_file(args.camera_matrix), f"from {args.camera_matrix}"
    return None, None


def _lens_file(path: Path) -> Lens:
    try:
        data = json.loads(path.read_text())
    except OSError as exc:
        raise BadInputError(f"{path}: cannot read it ({exc.strerror})") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise BadInputError(f"{path}: not JSON ({exc})") from None
    if isinstance(data, dict) and isinstance(data.get("table"), dict):
        data = data["table"]  # a whole recording.json
    if not isinstance(data, dict) or "camera_matrix" not in data:
        raise BadInputError(f"{path}: camera_matrix: missing")
    try:
        matrix = np.asarray(data["camera_matrix"], dtype=np.float64)
        dist = np.asarray(data.get("dist_coeffs", [0.0] * 5), dtype=np.float64).ravel()
    except (TypeError, ValueError):
        raise BadInputError(f"{path}: camera_matrix and dist_coeffs: expected numbers") from None
    if matrix.shape != (3, 3) or matrix[0, 0] <= 0 or matrix[1, 1] <= 0:
        raise BadInputError(
            f"{path}: camera_matrix: expected a 3x3 camera matrix, got {matrix.tolist()}"
        )
    if len(dist) not in (4, 5, 8, 12, 14):
        raise BadInputError(
            f"{path}: dist_coeffs: expected 4, 5, 8, 12 or 14 numbers, got {len(dist)}"
        )
    return Lens(matrix, dist)


def _picture(args: argparse.Namespace) -> Image | None:
    path: Path = args.image or args.video
    frame: Image | None = None
    if args.image is not None:
        read = cv2.imread(str(path))
        frame = None if read is None else np.asarray(read, np.uint8)
    else:
        capture = cv2.VideoCapture(str(path))
        ok, read = capture.read()
        capture.release()
        frame = np.asarray(read, np.uint8) if ok else None
    if frame is None:
        print(f"tenball calibrate: {path}: OpenCV cannot read a picture from it", file=sys.stderr)
    return frame


def draw_check(frame: Image, calibration: Calibration) -> Image:
    """The outline, the pockets and a grid on the cloth, drawn through the calibration."""
    out = frame.copy()
    length, width = calibration.table.length, calibration.table.width
    outline = calibration.table_polygon(samples=24)
    cv2.polylines(out, [outline], True, (0, 255, 255), 1, cv2.LINE_AA)
    lines = [((x, 0.0), (x, width)) for x in np.arange(GRID_MM, length, GRID_MM)]
    lines += [((0.0, y), (length, y)) for y in np.arange(GRID_MM, width, GRID_MM)]
    for a, b in lines:
        # Sampled along its length: through a bent lens a straight cloth line is a curve.
        along = np.linspace(np.asarray(a), np.asarray(b), 24)
        curve = np.round(calibration.to_image(along, 0.0)).astype(np.int32)
        cv2.polylines(out, [curve], False, (255, 255, 255), 1, cv2.LINE_AA)
    pockets = calibration.table.pockets
    spots = calibration.to_image(np.array(list(pockets.values())), 0.0)
    for name, (px, py) in zip(pockets, spots, strict=True):
        cv2.circle(out, (round(px), round(py)), 6, (0, 0, 255), 2, cv2.LINE_AA)
        cv2.putText(out, name, (round(px) + 8, round(py) - 8), cv2.FONT_HERSHEY_SIMPLEX, 0.4,
                    (0, 0, 255), 1, cv2.LINE_AA)  # fmt: skip
    return out
