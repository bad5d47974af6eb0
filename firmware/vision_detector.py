"""The vision pipeline behind the referee loop's ShotDetector seam (firmware/shots.py)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import cv2
import numpy as np

from hw.frames import Frame, Yuv420Image
from vision.calibration import Calibration, CalibrationError
from vision.cloth import Planes
from vision.identify import BallKey
from vision.pipeline import ALL_BALLS, ShotDetector

Json = dict[str, Any]


class VisionShotDetector:
    """Shot facts from frames: `vision.pipeline.ShotDetector` fed with camera frames.

    The calibration is made on the first frame, for its size, from the table object of the
    recording or the configuration (contracts §2). The referee tells it which balls are on
    the table after every ruling (`set_on_table`), which is how vision knows whom to look for::

        detector = VisionShotDetector(config.table.recording_table())
        referee.add_listener(lambda board, ruling: detector.set_on_table(board["balls_on_table"]))
    """

    def __init__(self, table: Mapping[str, Any], on_table: Iterable[BallKey] = ALL_BALLS) -> None:
        self._table = dict(table)
        self._on_table: tuple[BallKey, ...] = tuple(on_table)
        self._pipeline: ShotDetector | None = None

    def set_on_table(self, object_balls: Iterable[int]) -> None:
        self._on_table = ("cue", *object_balls)
        if self._pipeline is not None:
            self._pipeline.set_on_table(self._on_table)

    def on_frame(self, frame: Frame) -> list[Json]:
        planes = planes_of(frame)
        if self._pipeline is None:
            height, width = planes.y.shape
            try:
                calibration = Calibration.from_json(self._table, (width, height))
            except CalibrationError as exc:
                raise ValueError(f"table: {exc}") from None
            self._pipeline = ShotDetector(calibration, self._on_table)
        return self._pipeline.on_frame(frame.t, planes)

    def on_pocket(self, pocket: str, t: float) -> None:
        if self._pipeline is not None:
            self._pipeline.on_pocket(pocket, t)

    def finish(self) -> list[Json]:
        return [] if self._pipeline is None else self._pipeline.finish()

    @property
    def strike(self) -> float | None:
        return None if self._pipeline is None else self._pipeline.strike


def planes_of(frame: Frame) -> Planes:
    """A frame's YUV420 planes at the tracking size, without converting colour when the
    camera already gives YUV420 at that size."""
    height, width = frame.gray.shape
    color = frame.color
    if (
        isinstance(color, Yuv420Image)
        and (color.width, color.height) == (width, height)
        and color.data.shape[1] == width  # no row padding
    ):
        quarter = (height // 2) * (width // 2)
        chroma = color.data[height:].reshape(-1)
        return Planes(
            y=frame.gray,
            u=chroma[:quarter].reshape(height // 2, width // 2),
            v=chroma[quarter : 2 * quarter].reshape(height // 2, width // 2),
        )
    bgr = frame.bgr()
    if bgr is None:
        raise ValueError("vision needs colour frames; this source gives grey only")
    if bgr.shape[:2] != (height, width):
        resized = cv2.resize(bgr, (width, height), interpolation=cv2.INTER_AREA)
        return Planes.from_bgr(np.asarray(resized, np.uint8))
    return Planes.from_bgr(bgr)
