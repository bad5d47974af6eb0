"""The Raspberry Pi camera (picamera2) as a frame source.

picamera2 exists only on Raspberry Pi OS (``apt install python3-picamera2``; a venv made with
``--system-site-packages``), so it is imported inside :class:`PiCamera2Source`, never when this
module is imported. What can be checked off the Pi lives in pure functions:
:func:`choose_sensor_mode` and :func:`video_config_args`; the frame conversion is
:class:`hw.frames.Yuv420Image` and drop detection :func:`hw.frames.missed_frames`.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from hw.frames import CameraError, ClosingOnExit, Frame, Yuv420Image, missed_frames

# A mode advertising 119.9 fps still serves a request for 120: libcamera clamps the rate.
_FPS_TOLERANCE = 0.99


def choose_sensor_mode(modes: Sequence[Mapping[str, Any]], fps: float) -> Mapping[str, Any]:
    """Pick the sensor mode for ``fps`` from ``Picamera2.sensor_modes``.

    Among the modes fast enough, the one seeing the most of the sensor (largest
    ``crop_limits`` area) wins, then the largest output size, then the lower bit depth (less
    data over CSI-2). The fast modes of the Camera Module 3 and the HQ camera are centre crops:
    check the whole table is in view.

    Raises :class:`CameraError` naming the fastest mode when none is fast enough.
    """
    if not modes:
        raise CameraError("the camera reports no sensor modes")
    fast = [m for m in modes if float(m["fps"]) >= fps * _FPS_TOLERANCE]
    if not fast:
        best = max(modes, key=lambda m: float(m["fps"]))
        w, h = best["size"]
        raise CameraError(
            f"no sensor mode reaches {fps:g} fps; the fastest is {float(best['fps']):.1f} fps "
            f"at {w}x{h}"
        )

    def rank(mode: Mapping[str, Any]) -> tuple[int, int, int]:
        _, _, crop_w, crop_h = mode["crop_limits"]
        w, h = mode["size"]
        return (crop_w * crop_h, w * h, -int(mode["bit_depth"]))

    return max(fast, key=rank)


def scaled_size(size: tuple[int, int], width: int) -> tuple[int, int]:
    """``size`` scaled to ``width`` with its aspect ratio, both sides even (YUV420 needs it)."""
    w, h = size
    height = round(h * width / w / 2) * 2
    return (width - width % 2, max(2, height))


def video_config_args(
    mode: Mapping[str, Any],
    fps: float,
    *,
    main_size: tuple[int, int],
    lores_size: tuple[int, int],
    buffer_count: int,
    controls: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """Keyword arguments for ``Picamera2.create_video_configuration``.

    - ``sensor``: forces the chosen mode; without it libcamera may pick a slower, larger mode.
    - ``lores`` YUV420: its Y plane is the grey image vision tracks on, free of any conversion.
    - ``main`` YUV420 (not RGB888): half the bytes per buffered frame; the recorder converts to
      BGR on its own thread.
    - ``buffer_count``: more buffers than picamera2's default so a late frame-loop iteration
      does not starve the camera at 120 fps (picamera2 #1150).
    """
    return {
        "main": {"size": main_size, "format": "YUV420"},
        "lores": {"size": lores_size, "format": "YUV420"},
        "sensor": {"output_size": tuple(mode["size"]), "bit_depth": int(mode["bit_depth"])},
        "controls": {"FrameRate": float(fps), **(controls or {})},
        "buffer_count": buffer_count,
    }


def _size(value: Sequence[int]) -> tuple[int, int]:
    width, height = value
    return (int(width), int(height))


class PiCamera2Source(ClosingOnExit):
    """A Raspberry Pi camera at a high frame rate, as a :class:`hw.frames.FrameSource`.

    Frames carry ``t`` from the sensor's ``SensorTimestamp`` (``CLOCK_MONOTONIC``, the clock of
    ``time.monotonic_ns()`` that pocket sensors stamp with), ``gray`` = the ``lores`` Y plane,
    and ``color`` = the ``main`` stream as a :class:`hw.frames.Yuv420Image`.

    Wire the camera to the CSI port; the user needs the ``video`` group::

        from hw.picamera import PiCamera2Source

        with PiCamera2Source(fps=120, lores_width=640, main_width=768) as camera:
            for frame in camera:
                track(frame.gray)

    ``controls`` adds libcamera controls, e.g. ``{"ExposureTime": 2000, "AnalogueGain": 4.0}``
    for a short exposure against motion blur.
    """

    def __init__(
        self,
        *,
        fps: float = 120.0,
        lores_width: int = 640,
        main_width: int | None = None,
        buffer_count: int = 12,
        controls: Mapping[str, Any] | None = None,
        camera_num: int = 0,
    ) -> None:
        try:
            from libcamera import ColorSpace
            from picamera2 import Picamera2
        except ImportError as exc:
            raise CameraError(
                "picamera2 is not available: on Raspberry Pi OS run `apt install "
                "python3-picamera2` and create the venv with --system-site-packages"
            ) from exc
        self._fps = float(fps)
        self._camera = Picamera2(camera_num)
        try:
            mode = choose_sensor_mode(self._camera.sensor_modes, fps)
            sensor_w, sensor_h = mode["size"]
            sensor_size = (int(sensor_w), int(sensor_h))
            args = video_config_args(
                mode,
                fps,
                main_size=scaled_size(sensor_size, main_width or sensor_size[0] // 2),
                lores_size=scaled_size(sensor_size, lores_width),
                buffer_count=buffer_count,
                controls=controls,
            )
            # Full-range BT.601 (sYCC) is JPEG's YCbCr: the Y vision sees live is the Y it
            # sees again when a recording (MJPEG) is replayed.
            config = self._camera.create_video_configuration(colour_space=ColorSpace.Sycc(), **args)
            self._camera.configure(config)
            # picamera2 may align the sizes: use the ones it settled on.
            actual = self._camera.camera_configuration()
            self.lores_size = _size(actual["lores"]["size"])
            self.main_size = _size(actual["main"]["size"])
            self._camera.start()
        except Exception:
            self._camera.close()
            raise

    @property
    def fps(self) -> float:
        return self._fps

    def __iter__(self) -> Iterator[Frame]:
        lores_w, lores_h = self.lores_size
        main_w, main_h = self.main_size
        nominal_ns = 1e9 / self._fps
        previous_ns: int | None = None
        dropped = 0
        index = 0
        while True:
            # One request per frame: metadata and both images come from the same capture
            # (capture_metadata + capture_array would consume two frames, picamera2 #950).
            request = self._camera.capture_request()
            try:
                metadata = request.get_metadata()
                # make_array copies out of the camera buffer, so the frame outlives release().
                lores = request.make_array("lores")
                main = request.make_array("main")
            finally:
                request.release()
            t_ns = int(metadata["SensorTimestamp"])
            if previous_ns is not None:
                # FrameDuration (µs) is the sensor's actual interval; FrameRate is a request.
                period_ns = metadata.get("FrameDuration", 0) * 1000 or nominal_ns
                dropped += missed_frames(t_ns - previous_ns, period_ns)
            previous_ns = t_ns
            lores.flags.writeable = False
            main.flags.writeable = False
            gray = lores[:lores_h, :lores_w]
            yield Frame(index, t_ns / 1e9, gray, dropped, Yuv420Image(main, main_w, main_h))
            index += 1

    def close(self) -> None:
        self._camera.stop()
        self._camera.close()
