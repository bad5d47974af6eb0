"""The benchmark's other cameras: each look changes the picture as it says, and a re-taken
recording is the same recording but for its look."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest
from numpy.typing import NDArray

from benchmarks.camera_looks import LOOKS, REPO, retake
from firmware.replay_cli import evaluate_one

RECORDING = REPO / "fixtures" / "tuning" / "pot_straight"


def first_frame(directory: Path) -> NDArray[np.uint8]:
    capture = cv2.VideoCapture(str(next(directory.glob("video.*"))))
    ok, frame = capture.read()
    capture.release()
    assert ok
    return np.asarray(frame)


def frame_count(directory: Path) -> int:
    capture = cv2.VideoCapture(str(next(directory.glob("video.*"))))
    count = 0
    while capture.grab():
        count += 1
    capture.release()
    return count


@pytest.mark.parametrize("name", list(LOOKS))
def test_every_look_keeps_the_picture_s_size_and_type(name: str) -> None:
    image = np.random.default_rng(1).integers(0, 256, (36, 64, 3), dtype=np.uint8)
    _, look = LOOKS[name]
    out = look(image)
    assert out.shape == image.shape and out.dtype == np.uint8
    assert (out == image).all() == (name == "as_recorded")


def test_a_dark_look_darkens_and_a_warm_one_warms() -> None:
    grey = np.full((8, 8, 3), 100, np.uint8)
    assert LOOKS["dark"][1](grey).mean() == pytest.approx(55, abs=1)
    b, g, r = LOOKS["warm"][1](grey)[0, 0]
    assert r > g > b


def test_a_retaken_recording_is_the_same_recording_in_another_look(tmp_path: Path) -> None:
    out = tmp_path / RECORDING.name
    retake(RECORDING, out, LOOKS["dark"][1])
    assert sorted(p.name for p in out.iterdir()) == sorted(p.name for p in RECORDING.iterdir())
    assert (out / "expected.jsonl").read_text() == (RECORDING / "expected.jsonl").read_text()
    assert frame_count(out) == frame_count(RECORDING)
    ratio = first_frame(out).mean() / first_frame(RECORDING).mean()
    assert 0.45 < ratio < 0.6  # x0.55, but the darkest shades are crushed to black encoded


def test_an_unknown_look_is_named_and_nothing_is_run(tmp_path: Path) -> None:
    script = REPO / "benchmarks" / "camera_looks.py"
    run = subprocess.run(
        [sys.executable, str(script), str(tmp_path), "--looks", "dark,sepia"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 2
    assert "unknown look(s) sepia" in run.stderr
    assert "Traceback" not in run.stderr


@pytest.mark.parametrize("name", ["split_hit", "cue_off_table"])
def test_a_camera_with_darker_mid_tones_finds_the_same_facts(name: str, tmp_path: Path) -> None:
    # Its tone curve sharpens the lamp's hot spot: the cloth model must not take its own
    # misfit there for balls (the cue ball in the hot spot, three balls wide).
    out = tmp_path / name
    retake(REPO / "fixtures" / "tuning" / name, out, LOOKS["hard_gamma"][1])
    score = evaluate_one(out)
    assert not score.extra
    assert all(shot.exact for shot in score.shots), name
