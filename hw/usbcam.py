"""A USB (UVC) camera through OpenCV, as a frame source."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import cast

import cv2

from hw.frames import BgrImage, CameraError, ClosingOnExit, Frame, bgr_to_gray, missed_frames


class OpenCVCaptureSource(ClosingOnExit):
    """A camera opened with ``cv2.VideoCapture``, as a :class:`hw.frames.FrameSource`.

    ``device`` is a V4L2 index (0 for ``/dev/video0``) or anything ``VideoCapture`` opens.
    Frames are stamped with ``time.monotonic_ns()`` as they arrive, the clock pocket sensors
    use (USB adds a few milliseconds of latency that this cannot see). A camera that stops
    delivering frames raises :class:`hw.frames.CameraError`.

    Plug the camera into a USB 3 port and add the user to the ``video`` group::

        from hw.usbcam import OpenCVCaptureSource

        with OpenCVCaptureSource(0, width=1280, height=720, fps=60) as camera:
            for frame in camera:
                track(frame.gray)

    Most UVC cameras reach their high frame rates only in MJPEG, hence ``fourcc="MJPG"``.
    """

    def __init__(
        self,
        device: int | str = 0,
        *,
        width: int | None = None,
        height: int | None = None,
        fps: float | None = None,
        fourcc: str | None = "MJPG",
        clock: Callable[[], int] = time.monotonic_ns,
    ) -> None:
        self._device = device
        self._clock = clock
        self._capture = cv2.VideoCapture(device)
        if not self._capture.isOpened():
            raise CameraError(f"OpenCV cannot open camera {device!r}")
        # The order matters for V4L2: the pixel format first, then size and rate within it.
        if fourcc is not None:
            self._capture.set(cv2.CAP_PROP_FOURCC, cv2.VideoWriter.fourcc(*fourcc))
        if width is not None:
            self._capture.set(cv2.CAP_PROP_FRAME_WIDTH, width)
        if height is not None:
            self._capture.set(cv2.CAP_PROP_FRAME_HEIGHT, height)
        if fps is not None:
            self._capture.set(cv2.CAP_PROP_FPS, fps)
        # What the driver granted, not what was asked for.
        self._fps = float(self._capture.get(cv2.CAP_PROP_FPS)) or float(fps or 30.0)

    @property
    def fps(self) -> float:
        return self._fps

    def __iter__(self) -> Iterator[Frame]:
        period_ns = 1e9 / self._fps
        previous_ns: int | None = None
        dropped = 0
        index = 0
        while True:
            ok, image = self._capture.read()
            t_ns = self._clock()
            if not ok:
                if not self._capture.isOpened():  # closed by close(): a normal end
                    return
                raise CameraError(
                    f"camera {self._device!r} stopped delivering frames after {index} frames"
                )
            if previous_ns is not None:
                dropped += missed_frames(t_ns - previous_ns, period_ns)
            previous_ns = t_ns
            bgr = cast(BgrImage, image)  # OpenCV's stubs do not know it decodes 8-bit BGR
            bgr.flags.writeable = False
            yield Frame(index, t_ns / 1e9, bgr_to_gray(bgr), dropped, bgr)
            index += 1

    def close(self) -> None:
        self._capture.release()
