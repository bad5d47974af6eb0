"""`tenball calibrate`: find the table in a picture, write its `table` object and a check image.

The `table` object (contracts §2) goes to a recording's recording.json or the device's
configuration; the PNG shows the outline, the pockets and a 250 mm grid drawn back through
the calibration, for the installer to check by eye.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.calibration import Calibration
from vision.outline import CUSHION_WIDTH_MM, HEADS, OutlineError, find_corners

Image = NDArray[np.uint8]
SIZES = {"9ft": (2540.0, 1270.0), "8ft": (2235.0, 1118.0), "7ft": (1981.0, 991.0)}
GRID_MM = 250.0


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


def main(args: argparse.Namespace) -> int:
    frame = _picture(args)
    if frame is None:
        return 2
    size = SIZES[args.size]
    try:
        corners = find_corners(frame, size, args.head, args.cushion_mm)
    except OutlineError as exc:
        print(f"tenball calibrate: {exc}", file=sys.stderr)
        return 1
    table = {"size_mm": list(size), "corners_px": np.round(corners, 2).tolist()}
    text = json.dumps(table, indent=1)
    if args.out is not None:
        args.out.write_text(text + "\n")
    else:
        print(text)
    if args.png is not None:
        height, width = frame.shape[:2]
        cv2.imwrite(str(args.png), draw_check(frame, Calibration.from_json(table, (width, height))))
    return 0


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
        ends = np.round(calibration.to_image(np.array([a, b]), 0.0)).astype(int)
        start, end = (int(ends[0][0]), int(ends[0][1])), (int(ends[1][0]), int(ends[1][1]))
        cv2.line(out, start, end, (255, 255, 255), 1)
    pockets = calibration.table.pockets
    spots = calibration.to_image(np.array(list(pockets.values())), 0.0)
    for name, (px, py) in zip(pockets, spots, strict=True):
        cv2.circle(out, (round(px), round(py)), 6, (0, 0, 255), 2, cv2.LINE_AA)
        cv2.putText(out, name, (round(px) + 8, round(py) - 8), cv2.FONT_HERSHEY_SIMPLEX, 0.4,
                    (0, 0, 255), 1, cv2.LINE_AA)  # fmt: skip
    return out
