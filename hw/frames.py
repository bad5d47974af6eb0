"""Frames, and the one small interface every frame source offers.

A frame source is anything you can iterate for :class:`Frame` objects and close: a Pi camera
(:class:`hw.picamera.PiCamera2Source`), a USB camera (:class:`hw.usbcam.OpenCVCaptureSource`)
or a recording directory (:class:`hw.recording.RecordingSource`). The referee loop only knows
:class:`FrameSource`, so the same loop runs live or on a recording::

    from hw.recording import RecordingSource

    with RecordingSource("fixtures/break1") as source:
        for frame in source:
            print(frame.index, frame.t, frame.gray.shape, frame.dropped)
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from types import TracebackType
from typing import Protocol, Self, TypeAlias, cast

import cv2
import numpy as np
from numpy.typing import NDArray

GrayImage: TypeAlias = NDArray[np.uint8]
"""A grey (luma) image, shape (H, W)."""

BgrImage: TypeAlias = NDArray[np.uint8]
"""A colour image in OpenCV's channel order, shape (H, W, 3)."""


class CameraError(RuntimeError):
    """A camera cannot be opened, configured, or stopped delivering frames."""


# OpenCV's YUV 4:2:0 conversions assume video range (Y 16–235, chroma 16–240), while the
# camera is configured for full range (sYCC, as JPEG). Squeezing full-range values into video
# range first makes OpenCV's conversion exactly the full-range one (1.164·219/255 = 1.000,
# 1.596·224/255 = 1.402, …): two table look-ups instead of a hand-written conversion.
_Y_TO_VIDEO_RANGE = np.round(16 + np.arange(256) * 219 / 255).astype(np.uint8)
_C_TO_VIDEO_RANGE = np.round(128 + (np.arange(256) - 128) * 224 / 255).astype(np.uint8)


@dataclass(frozen=True, slots=True)
class Yuv420Image:
    """A full-range planar YUV420 (I420) buffer as libcamera delivers it; BGR on demand.

    ``data`` has shape ``(height * 3 // 2, stride)``: ``height`` rows of Y, then the U and V
    planes at half resolution, packed two half-width rows per ``stride`` row. ``stride`` may be
    wider than ``width`` (row padding), which is why the width is kept beside the buffer.
    Values are full range (sYCC, JPEG's YCbCr), as :class:`hw.picamera.PiCamera2Source`
    configures the camera.

    Keeping colour as YUV420 halves the memory of a buffered frame compared with BGR, and the
    conversion runs only where colour is needed (the recorder's writer thread)::

        image = Yuv420Image(request.make_array("main"), width=768, height=432)
        grey = image.y          # a view, no copy
        bgr = image.to_bgr()    # converts now
    """

    data: NDArray[np.uint8]
    width: int
    height: int

    def __post_init__(self) -> None:
        rows, stride = self.data.shape
        if rows != self.height * 3 // 2 or stride < self.width or self.width % 2 or self.height % 2:
            raise ValueError(
                f"YUV420 buffer of shape {self.data.shape} does not hold an even-sized "
                f"{self.width}x{self.height} image"
            )

    @property
    def y(self) -> GrayImage:
        """The luma plane: a view into the buffer, no copy."""
        return self.data[: self.height, : self.width]

    def to_bgr(self) -> BgrImage:
        """Convert to BGR (allocates)."""
        video = np.empty_like(self.data)
        cv2.LUT(self.data[: self.height], _Y_TO_VIDEO_RANGE, dst=video[: self.height])
        cv2.LUT(self.data[self.height :], _C_TO_VIDEO_RANGE, dst=video[self.height :])
        # OpenCV sees a buffer `stride` pixels wide, which matches libcamera's plane layout
        # (chroma stride = stride / 2); the padding columns are cut off afterwards.
        bgr = cast(BgrImage, cv2.cvtColor(video, cv2.COLOR_YUV2BGR_I420))
        if bgr.shape[1] == self.width:
            return bgr
        return np.ascontiguousarray(bgr[:, : self.width])

    @property
    def nbytes(self) -> int:
        return int(self.data.nbytes)


@dataclass(frozen=True, slots=True)
class Frame:
    """One camera frame.

    - ``index``: 0, 1, 2, … in delivery order (frames the source dropped are not counted).
    - ``t``: seconds on the source's clock. For cameras that is ``CLOCK_MONOTONIC`` (the Pi's
      ``SensorTimestamp``, or ``time.monotonic_ns()`` at capture), the clock pocket sensors
      stamp their events with; for a recording it is the recording clock.
    - ``gray``: the luma plane, uint8 (H, W). Vision tracks on this.
    - ``dropped``: frames the source lost so far, judged from gaps in the timestamps.
    - ``color``: BGR (H', W', 3), or a :class:`Yuv420Image` converted on demand, or ``None``.
      It may be larger than ``gray``: a Pi camera tracks on the small ``lores`` stream and
      records the ``main`` one.

    Arrays are shared between the loop, vision and the recorder: never modify them (sources
    hand them out read-only).
    """

    index: int
    t: float
    gray: GrayImage
    dropped: int = 0
    color: BgrImage | Yuv420Image | None = None

    def bgr(self) -> BgrImage | None:
        """The colour image in BGR, converting now if the source keeps it as YUV420."""
        color = self.color
        if isinstance(color, Yuv420Image):
            return color.to_bgr()
        return color

    @property
    def nbytes(self) -> int:
        """Memory held by the frame's images (for the recorder's memory bound)."""
        color = self.color
        return int(self.gray.nbytes) + (0 if color is None else int(color.nbytes))


class ClosingOnExit:
    """`with thing:` closes it at the end of the block, however the block ends."""

    def close(self) -> None:
        raise NotImplementedError

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


class FrameSource(Protocol):
    """What the referee loop needs from a camera or a recording."""

    @property
    def fps(self) -> float:
        """Nominal frame rate."""
        ...

    def __iter__(self) -> Iterator[Frame]:
        """Frames in time order. A camera never ends; a recording ends after its last frame."""
        ...

    def close(self) -> None:
        """Release the device or file; an iteration in progress ends."""
        ...


def missed_frames(gap: float, period: float) -> int:
    """How many frames are missing between two consecutive frames ``gap`` apart.

    ``period`` is the nominal frame interval, in the same unit as ``gap``. A gap is rounded to
    whole periods, so timestamp jitter under half a period never counts as a drop:

    >>> missed_frames(8.4, 8.33), missed_frames(17.0, 8.33), missed_frames(25.1, 8.33)
    (0, 1, 2)
    """
    return max(0, round(gap / period) - 1)


def bgr_to_gray(bgr: BgrImage) -> GrayImage:
    """The luma plane of a BGR image, read-only.

    ``COLOR_BGR2GRAY`` computes the same BT.601 luma as channel 0 of ``COLOR_BGR2YUV`` (the
    two differ by at most one level, from rounding), which is also the Y that JPEG/MJPEG and a
    full-range (sYCC) camera stream carry, so live and replayed frames see the same grey
    levels. It writes one plane instead of three (≈1.5× faster, a third of the memory).
    """
    gray = cast(GrayImage, cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY))
    gray.flags.writeable = False
    return gray
