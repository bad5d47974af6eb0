"""The Pi camera source: its pure logic here; the class itself against a stand-in picamera2.

picamera2 cannot be imported off a Raspberry Pi, so the class is checked for how it drives the
picamera2 API (one request per frame, released; timestamps; drops) with a small fake module.
"""

from __future__ import annotations

import sys
import types
from collections.abc import Iterator
from typing import Any, ClassVar

import numpy as np
import pytest
from numpy.typing import NDArray

from hw.frames import CameraError, FrameSource, Yuv420Image
from hw.picamera import PiCamera2Source, choose_sensor_mode, scaled_size, video_config_args

# Picamera2.sensor_modes of a Camera Module 3 (IMX708), as picamera2 reports them.
IMX708 = [
    {"bit_depth": 10, "size": (1536, 864), "fps": 120.13, "crop_limits": (768, 432, 3072, 1728)},
    {"bit_depth": 10, "size": (2304, 1296), "fps": 56.03, "crop_limits": (0, 0, 4608, 2592)},
    {"bit_depth": 10, "size": (4608, 2592), "fps": 14.35, "crop_limits": (0, 0, 4608, 2592)},
]
# A v2 camera (IMX219): 640x480 is a small centre crop, but the only mode fast enough.
IMX219 = [
    {"bit_depth": 10, "size": (640, 480), "fps": 206.65, "crop_limits": (1000, 752, 1280, 960)},
    {"bit_depth": 10, "size": (1640, 1232), "fps": 41.85, "crop_limits": (0, 0, 3280, 2464)},
    {"bit_depth": 10, "size": (1920, 1080), "fps": 47.57, "crop_limits": (680, 692, 1920, 1080)},
    {"bit_depth": 8, "size": (1640, 1232), "fps": 41.85, "crop_limits": (0, 0, 3280, 2464)},
]


@pytest.mark.parametrize(
    ("modes", "fps", "size", "bit_depth"),
    [
        (IMX708, 120, (1536, 864), 10),
        (IMX708, 50, (2304, 1296), 10),  # full field of view beats the faster crop
        (IMX708, 10, (4608, 2592), 10),  # same field of view: the larger output
        (IMX219, 120, (640, 480), 10),
        (IMX219, 30, (1640, 1232), 8),  # same mode: the lower bit depth
    ],
)
def test_the_mode_with_the_widest_view_at_the_rate_is_chosen(
    modes: list[dict[str, Any]], fps: float, size: tuple[int, int], bit_depth: int
) -> None:
    mode = choose_sensor_mode(modes, fps)
    assert (mode["size"], mode["bit_depth"]) == (size, bit_depth)


def test_no_fast_enough_mode_names_the_fastest() -> None:
    with pytest.raises(CameraError) as error:
        choose_sensor_mode(IMX708, 200)
    assert str(error.value) == (
        "no sensor mode reaches 200 fps; the fastest is 120.1 fps at 1536x864"
    )


def test_sizes_keep_the_aspect_ratio_and_stay_even() -> None:
    assert scaled_size((1536, 864), 640) == (640, 360)
    assert scaled_size((1332, 990), 640) == (640, 476)
    assert scaled_size((1456, 1088), 321) == (320, 240)


def test_the_configuration_forces_the_mode_and_both_yuv_streams() -> None:
    args = video_config_args(
        IMX708[0],
        120,
        main_size=(768, 432),
        lores_size=(640, 360),
        buffer_count=12,
        controls={"ExposureTime": 2000},
    )
    assert args == {
        "main": {"size": (768, 432), "format": "YUV420"},
        "lores": {"size": (640, 360), "format": "YUV420"},
        "sensor": {"output_size": (1536, 864), "bit_depth": 10},
        "controls": {"FrameRate": 120.0, "ExposureTime": 2000},
        "buffer_count": 12,
    }


def test_without_picamera2_the_error_says_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "picamera2", None)  # makes the import fail
    with pytest.raises(CameraError, match=r"apt install python3-picamera2"):
        PiCamera2Source()


def test_importing_the_module_does_not_import_picamera2() -> None:
    assert "picamera2" not in sys.modules or sys.modules["picamera2"] is None


LORES, MAIN = (64, 36), (128, 72)
PERIOD_NS = 8_333_333


class FakeRequest:
    def __init__(self, camera: FakeCamera, t_ns: int) -> None:
        self.camera, self.t_ns = camera, t_ns

    def get_metadata(self) -> dict[str, Any]:
        return {"SensorTimestamp": self.t_ns, "FrameDuration": PERIOD_NS // 1000}

    def make_array(self, name: str) -> NDArray[np.uint8]:
        w, h = LORES if name == "lores" else MAIN
        value = (self.t_ns - 10**9) // PERIOD_NS  # the frame number, as a grey level
        return np.full((h * 3 // 2, w), value, np.uint8)

    def release(self) -> None:
        self.camera.released += 1


class FakeCamera:
    """The parts of picamera2.Picamera2 the source uses."""

    instances: ClassVar[list[FakeCamera]] = []
    sensor_modes = IMX708

    def __init__(self, camera_num: int) -> None:
        self.camera_num = camera_num
        self.config: dict[str, Any] = {}
        self.requests = 0
        self.released = 0
        self.calls: list[str] = []
        # the sensor's timestamps: the third frame comes one period late (one frame dropped)
        self.times: Iterator[int] = iter(10**9 + n * PERIOD_NS for n in (0, 1, 3, 4, 8))
        FakeCamera.instances.append(self)

    def create_video_configuration(self, **kwargs: Any) -> dict[str, Any]:
        return kwargs

    def configure(self, config: dict[str, Any]) -> None:
        self.config = config
        self.calls.append("configure")

    def camera_configuration(self) -> dict[str, Any]:
        return {"lores": {"size": LORES}, "main": {"size": MAIN}}

    def start(self) -> None:
        self.calls.append("start")

    def capture_request(self) -> FakeRequest:
        self.requests += 1
        return FakeRequest(self, next(self.times))

    def stop(self) -> None:
        self.calls.append("stop")

    def close(self) -> None:
        self.calls.append("close")


@pytest.fixture
def fake_picamera2(monkeypatch: pytest.MonkeyPatch) -> type[FakeCamera]:
    picamera2 = types.ModuleType("picamera2")
    picamera2.Picamera2 = FakeCamera  # type: ignore[attr-defined]
    libcamera = types.ModuleType("libcamera")
    libcamera.ColorSpace = types.SimpleNamespace(Sycc=lambda: "sYCC")  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "picamera2", picamera2)
    monkeypatch.setitem(sys.modules, "libcamera", libcamera)
    FakeCamera.instances.clear()
    return FakeCamera


def test_the_source_reads_one_request_per_frame_and_counts_drops(
    fake_picamera2: type[FakeCamera],
) -> None:
    source: FrameSource = PiCamera2Source(fps=120, lores_width=64, main_width=128)
    camera = fake_picamera2.instances[0]
    assert camera.calls == ["configure", "start"]
    assert camera.config["colour_space"] == "sYCC"
    assert camera.config["sensor"] == {"output_size": (1536, 864), "bit_depth": 10}
    assert camera.config["lores"] == {"size": (64, 36), "format": "YUV420"}
    assert camera.config["main"] == {"size": (128, 72), "format": "YUV420"}
    frames = []
    for frame in source:
        assert camera.released == camera.requests  # released before the frame is handed out
        frames.append(frame)
        if len(frames) == 5:
            break
    source.close()
    assert camera.calls[-2:] == ["stop", "close"]
    assert [f.index for f in frames] == [0, 1, 2, 3, 4]
    assert [f.dropped for f in frames] == [0, 0, 1, 1, 4]
    assert frames[2].t == pytest.approx(1.0 + 3 * PERIOD_NS / 1e9, abs=1e-9)
    assert frames[2].gray.shape == (36, 64)
    assert int(frames[2].gray[0, 0]) == 3  # the lores Y plane of that capture
    assert not frames[2].gray.flags.writeable
    assert isinstance(frames[2].color, Yuv420Image)
    colour = frames[2].bgr()
    assert colour is not None and colour.shape == (72, 128, 3)
