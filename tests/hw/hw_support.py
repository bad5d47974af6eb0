"""Helpers shared by the hardware-layer tests."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import cast

import cv2
import numpy as np
from numpy.typing import NDArray


class FakeClock:
    """A monotonic nanosecond clock that moves only when a test says so."""

    def __init__(self, now_ns: int = 0) -> None:
        self.now_ns = now_ns

    def __call__(self) -> int:
        return self.now_ns

    def at_ms(self, ms: float) -> None:
        self.now_ns = round(ms * 1_000_000)


def smooth_bgr(height: int, width: int) -> NDArray[np.uint8]:
    """A colourful image without sharp edges (chroma subsampling keeps it nearly intact)."""
    y, x = np.mgrid[0:height, 0:width]
    image = np.stack(
        [x * 255 // width, y * 255 // height, 255 - (x + y) * 255 // (width + height)], -1
    )
    return cast(NDArray[np.uint8], image.astype(np.uint8))


def full_range_i420(bgr: NDArray[np.uint8], stride: int) -> NDArray[np.uint8]:
    """What libcamera delivers for an sYCC YUV420 stream: JPEG's YCbCr, planar, chroma at half
    resolution, rows ``stride`` bytes long (padding on the right)."""
    height, width = bgr.shape[:2]
    ycrcb = cast(NDArray[np.uint8], cv2.cvtColor(bgr, cv2.COLOR_BGR2YCrCb))
    half = (width // 2, height // 2)
    data = np.zeros((height * 3 // 2, stride), np.uint8)
    data[:height, :width] = ycrcb[:, :, 0]
    chroma = data[height:].reshape(height, stride // 2)  # U rows, then V rows
    area = cv2.INTER_AREA
    chroma[: height // 2, : width // 2] = cv2.resize(ycrcb[:, :, 2], half, interpolation=area)
    chroma[height // 2 :, : width // 2] = cv2.resize(ycrcb[:, :, 1], half, interpolation=area)
    return data


def level(index: int) -> int:
    """The grey level of synthetic frame ``index``: tells frames apart after MJPEG."""
    return 10 + 20 * (index % 12)


def level_image(index: int, height: int = 48, width: int = 64) -> NDArray[np.uint8]:
    return np.full((height, width, 3), level(index), np.uint8)


def write_video(path: Path, count: int, fps: float, fourcc: str = "MJPG") -> None:
    """A video of ``count`` flat frames at ``level(i)``, written by OpenCV."""
    writer = cv2.VideoWriter(
        str(path), cv2.CAP_FFMPEG, cv2.VideoWriter.fourcc(*fourcc), fps, (64, 48), True
    )
    assert writer.isOpened()
    for index in range(count):
        writer.write(level_image(index))
    writer.release()


def make_recording(
    directory: Path,
    *,
    count: int = 5,
    fps: float = 100.0,
    timestamps: Sequence[float] | None = None,
    inputs: Sequence[str] | None = None,
) -> Path:
    """A recording directory of contracts §2 built file by file (not by RecordingWriter)."""
    directory.mkdir(parents=True, exist_ok=True)
    meta = {
        "format": "tenball-recording/1",
        "fps": fps,
        "table": {"size_mm": [2540, 1270], "corners_px": [[2, 2], [62, 2], [62, 46], [2, 46]]},
    }
    (directory / "recording.json").write_text(json.dumps(meta))
    write_video(directory / "video.avi", count, fps)
    if timestamps is not None:
        (directory / "timestamps.txt").write_text("".join(f"{t}\n" for t in timestamps))
    if inputs is not None:
        (directory / "inputs.jsonl").write_text("".join(line + "\n" for line in inputs))
    return directory
