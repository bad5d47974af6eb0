"""The OpenCV camera source, fed by a real video file (VideoCapture opens both the same way)."""

from __future__ import annotations

from pathlib import Path

import pytest

from hw.frames import CameraError, FrameSource
from hw.usbcam import OpenCVCaptureSource
from tests.hw.hw_support import level, write_video


class SteppingClock:
    """A nanosecond clock returning the next of the given times at each reading."""

    def __init__(self, times_ms: list[int]) -> None:
        self._times = iter(times_ms)

    def __call__(self) -> int:
        return next(self._times) * 1_000_000


def test_frames_are_stamped_on_arrival_and_gaps_count_as_drops(tmp_path: Path) -> None:
    video = tmp_path / "cam.avi"
    write_video(video, 4, 100.0)
    clock = SteppingClock([1000, 1010, 1040, 1050, 1060])  # 20 ms missing after the 2nd frame
    source: FrameSource = OpenCVCaptureSource(str(video), clock=clock)
    assert source.fps == 100.0
    frames = []
    with pytest.raises(CameraError) as error:
        for frame in source:
            frames.append(frame)
    assert str(error.value) == f"camera {str(video)!r} stopped delivering frames after 4 frames"
    assert [f.t for f in frames] == [1.0, 1.01, 1.04, 1.05]
    assert [f.dropped for f in frames] == [0, 0, 2, 2]
    assert [abs(round(float(f.gray.mean())) - level(f.index)) <= 1 for f in frames] == [True] * 4
    assert frames[0].gray.shape == (48, 64)
    colour = frames[0].bgr()
    assert colour is not None and colour.shape == (48, 64, 3)
    source.close()


def test_iteration_after_close_ends_quietly(tmp_path: Path) -> None:
    video = tmp_path / "cam.avi"
    write_video(video, 3, 30.0)
    with OpenCVCaptureSource(str(video)) as source:
        source.close()
        assert list(source) == []


def test_a_camera_that_cannot_be_opened(tmp_path: Path) -> None:
    missing = str(tmp_path / "no-such-camera")
    with pytest.raises(CameraError) as error:
        OpenCVCaptureSource(missing)
    assert str(error.value) == f"OpenCV cannot open camera {missing!r}"
