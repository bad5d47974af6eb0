"""Frames: drop detection, luma, and the YUV420 buffers libcamera hands out."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from hw.frames import Frame, Yuv420Image, bgr_to_gray, missed_frames
from tests.hw.hw_support import full_range_i420, smooth_bgr


@pytest.mark.parametrize(
    ("gap", "missed"),
    [
        (8_333_333, 0),  # on time
        (8_333_333 * 1.45, 0),  # late, within jitter
        (8_333_333 * 1.55, 1),
        (16_666_667, 1),
        (8_333_333 * 4, 3),
        (1_000_000, 0),  # early (a USB camera's timestamps bunch up)
    ],
)
def test_missed_frames_rounds_gaps_to_whole_periods(gap: float, missed: int) -> None:
    assert missed_frames(gap, 8_333_333) == missed


def test_luma_is_bt601_as_in_yuv_and_read_only() -> None:
    rng = np.random.default_rng(7)
    bgr = rng.integers(0, 256, (48, 64, 3), dtype=np.uint8)
    gray = bgr_to_gray(bgr)
    y = cv2.cvtColor(bgr, cv2.COLOR_BGR2YUV)[:, :, 0]
    assert gray.shape == (48, 64)
    assert np.abs(gray.astype(int) - y.astype(int)).max() <= 1
    assert not gray.flags.writeable


def test_yuv420_gives_the_y_plane_as_a_view_and_full_range_bgr_without_the_padding() -> None:
    bgr = smooth_bgr(48, 60)
    data = full_range_i420(bgr, 64)
    assert data.shape == (72, 64)
    image = Yuv420Image(data, 60, 48)
    y = image.y
    assert y.shape == (48, 60)
    assert np.shares_memory(y, data)
    assert np.array_equal(y, data[:48, :60])
    converted = image.to_bgr()
    assert converted.shape == (48, 60, 3)
    assert converted.flags.c_contiguous
    error = np.abs(converted.astype(int) - bgr.astype(int))
    # chroma subsampling and rounding only; read as video range it would be off by up to 22
    assert error.max() <= 6
    assert error.mean() < 2.5
    assert image.nbytes == 72 * 64


def test_yuv420_refuses_a_buffer_of_the_wrong_shape() -> None:
    with pytest.raises(ValueError, match=r"shape \(70, 64\) does not hold an even-sized 60x48"):
        Yuv420Image(np.zeros((70, 64), np.uint8), 60, 48)


def test_a_frame_converts_its_yuv_colour_on_demand_and_counts_its_bytes() -> None:
    bgr = smooth_bgr(16, 32)
    yuv = Yuv420Image(full_range_i420(bgr, 32), 32, 16)
    frame = Frame(3, 1.5, yuv.y, dropped=2, color=yuv)
    colour = frame.bgr()
    assert colour is not None
    assert colour.shape == (16, 32, 3)
    assert frame.nbytes == 16 * 32 + 24 * 32
    assert Frame(0, 0.0, yuv.y).bgr() is None
    assert Frame(0, 0.0, yuv.y, color=bgr).bgr() is bgr
