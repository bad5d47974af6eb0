"""The shot recorder: ring buffer, shot windows, the writer thread, the disk budget — and the
recordings it writes read back through RecordingSource."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from hw.frames import Frame, Yuv420Image, bgr_to_gray
from hw.recorder import Recorder
from hw.recording import CommandInput, PocketInput, RecordingSource
from tests.hw.hw_support import full_range_i420, level, level_image, smooth_bgr

FPS = 128.0  # frame times i/128 are exact in binary: window edges are not rounding accidents
T0 = 1000.0
TABLE = {"size_mm": [2540, 1270], "corners_px": [[2, 2], [62, 2], [62, 46], [2, 46]]}


def frame(index: int) -> Frame:
    bgr = level_image(index)
    bgr.flags.writeable = False
    return Frame(index, T0 + index / FPS, bgr_to_gray(bgr), 0, bgr)


def t(index: int) -> float:
    return T0 + index / FPS


def recorder(root: Path, **options: Any) -> Recorder:
    settings: dict[str, Any] = {
        "fps": FPS,
        "table": TABLE,
        "pre_roll": 0.125,
        "post_roll": 0.125,
        "buffer_seconds": 0.5,
    }
    return Recorder(root, **(settings | options))


def read_back(path: Path) -> tuple[RecordingSource, list[Frame]]:
    source = RecordingSource(path)
    return source, list(source)


def test_a_shot_is_recorded_from_the_pre_roll_to_the_post_roll(tmp_path: Path) -> None:
    saved: list[Path] = []
    rec = recorder(tmp_path, meta={"players": {"A": "Ann", "B": "Bob"}}, on_saved=saved.append)
    rec.add_input(CommandInput(t(5), {"cmd": "call", "ball": 1, "pocket": "FR"}))  # too early
    for i in range(100):
        rec.add_frame(frame(i))
        if i == 40:  # the loop sees the strike of frame 32 a few frames late
            name = rec.start_shot(t(32), notes={"state": {"shooter": "A"}})
        if i == 50:
            rec.add_input(PocketInput(t(45), "FR"))
            rec.add_input(CommandInput(t(10), {"cmd": "safety"}))  # before the window: left out
        if i == 70:
            rec.end_shot(t(64))
        if i == 75:
            rec.add_input(CommandInput(t(75), {"cmd": "undo", "from": "panel"}))
    rec.close()
    assert saved == [tmp_path / name]
    assert name.startswith("000001-")
    source, frames = read_back(saved[0])
    # frames 16 (32 - 0.125 s) through 80 (64 + 0.125 s)
    assert len(frames) == 65
    assert [f.t for f in frames] == [round(i / FPS, 6) for i in range(65)]  # µs kept
    assert [abs(round(float(f.gray.mean())) - level(f.index + 16)) <= 1 for f in frames] == (
        [True] * 65
    )
    assert source.inputs == (
        PocketInput(round(29 / FPS, 6), "FR"),
        CommandInput(round(59 / FPS, 6), {"cmd": "undo", "from": "panel"}),
    )
    meta = source.info.meta
    assert source.info.fps == FPS
    assert source.info.table == TABLE
    assert meta["players"] == {"A": "Ann", "B": "Bob"}
    assert meta["state"] == {"shooter": "A"}
    assert meta["recorder"] == {
        "shot_t_start": 0.125,
        "shot_t_end": 0.375,
        "clock_origin_s": t(16),
        "frames_skipped": 0,
    }


def test_the_ring_buffer_is_bounded_by_time(tmp_path: Path) -> None:
    rec = recorder(tmp_path, buffer_seconds=0.25)
    for i in range(100):
        rec.add_frame(frame(i))
    assert rec.buffered_frames == 33  # frames 67..99: 0.25 s at 128 fps, both ends included
    assert rec.buffered_bytes == 33 * frame(0).nbytes
    rec.close()


def test_the_ring_buffer_is_bounded_by_memory(tmp_path: Path) -> None:
    rec = recorder(tmp_path, buffer_bytes=10 * frame(0).nbytes)
    for i in range(100):
        rec.add_frame(frame(i))
    assert rec.buffered_frames == 10
    rec.close()


def test_the_pre_roll_is_what_the_buffer_still_holds(tmp_path: Path) -> None:
    rec = recorder(tmp_path, buffer_bytes=4 * frame(0).nbytes)
    for i in range(40):
        rec.add_frame(frame(i))
    rec.start_shot(t(38))
    rec.add_frame(frame(40))
    rec.end_shot(t(40))
    rec.close()
    [path] = [p for p in tmp_path.iterdir()]
    _, frames = read_back(path)
    assert [round(f.t * FPS) for f in frames] == [0, 1, 2, 3, 4]  # frames 36..40


def test_writing_happens_on_another_thread(tmp_path: Path) -> None:
    threads: list[int] = []
    rec = recorder(tmp_path, on_saved=lambda _: threads.append(threading.get_ident()))
    for i in range(10):
        rec.add_frame(frame(i))
    rec.start_shot(t(5))
    rec.end_shot(t(6))
    rec.close()
    assert len(threads) == 1
    assert threads[0] != threading.get_ident()


def test_every_nth_frame(tmp_path: Path) -> None:
    rec = recorder(tmp_path, every_nth=2)
    for i in range(60):
        rec.add_frame(frame(i))
        if i == 20:
            rec.start_shot(t(20))
        if i == 24:
            rec.end_shot(t(24))
    rec.close()
    [path] = list(tmp_path.iterdir())
    source, frames = read_back(path)
    assert source.info.fps == FPS / 2
    assert [round(f.t * FPS) for f in frames] == list(range(0, 37, 2))  # frames 4, 6, …, 40
    assert [f.dropped for f in frames] == [0] * 19


def test_a_shot_never_ended_is_cut(tmp_path: Path) -> None:
    rec = recorder(tmp_path, max_shot=0.25)
    for i in range(80):
        rec.add_frame(frame(i))
        if i == 10:
            rec.start_shot(t(10))
    rec.close()
    [path] = list(tmp_path.iterdir())
    source, frames = read_back(path)
    # frames 0..43: the pre-roll (all there is), then up to the first frame past 0.25 s
    assert len(frames) == 44
    assert source.info.meta["recorder"]["shot_t_end"] is None


def test_a_new_strike_ends_a_shot_left_open(tmp_path: Path) -> None:
    saved: list[Path] = []
    rec = recorder(tmp_path, on_saved=saved.append)
    for i in range(100):
        rec.add_frame(frame(i))
        if i == 20:
            rec.start_shot(t(20))
        if i == 60:
            rec.start_shot(t(60))
        if i == 80:
            rec.end_shot(t(80))
    rec.close()
    first = [round(f.t * FPS) for f in read_back(saved[0])[1]]
    second = [round(f.t * FPS) for f in read_back(saved[1])[1]]
    assert first == list(range(57))  # frames 4..60: cut at the second strike
    assert second == list(range(53))  # frames 44..96: from its pre-roll to its post-roll


def test_close_saves_the_shot_in_progress(tmp_path: Path) -> None:
    saved: list[Path] = []
    rec = recorder(tmp_path, on_saved=saved.append)
    for i in range(30):
        rec.add_frame(frame(i))
    rec.start_shot(t(25))
    rec.close()
    assert len(read_back(saved[0])[1]) == 21  # frames 9..29


def test_yuv_colour_frames_are_converted_on_the_writer_thread(tmp_path: Path) -> None:
    bgr = smooth_bgr(48, 64)
    yuv = Yuv420Image(full_range_i420(bgr, 64), 64, 48)
    rec = recorder(tmp_path)
    for i in range(10):
        rec.add_frame(Frame(i, t(i), yuv.y, 0, yuv))
    rec.start_shot(t(5))
    rec.end_shot(t(5))
    rec.close()
    [path] = list(tmp_path.iterdir())
    colour = read_back(path)[1][0].bgr()
    assert colour is not None
    assert float(np.abs(colour.astype(int) - bgr.astype(int)).mean()) < 4


def test_grey_only_frames_make_a_grey_recording(tmp_path: Path) -> None:
    rec = recorder(tmp_path)
    for i in range(10):
        rec.add_frame(Frame(i, t(i), np.full((48, 64), level(i), np.uint8)))
    rec.start_shot(t(5))
    rec.end_shot(t(5))
    rec.close()
    [path] = list(tmp_path.iterdir())
    frames = read_back(path)[1]
    assert [round(float(f.gray.mean())) for f in frames] == [level(i) for i in range(10)]


def make_shots(rec: Recorder, shots: int) -> None:
    for shot in range(shots):
        base = shot * 100
        for i in range(base, base + 60):
            rec.add_frame(Frame(i, t(i), frame(i % 50).gray, 0, frame(i % 50).color))
            if i == base + 20:
                rec.start_shot(t(i))
            if i == base + 30:
                rec.end_shot(t(i))


def sizes(root: Path) -> dict[str, int]:
    return {p.name[:6]: sum(f.stat().st_size for f in p.iterdir()) for p in root.iterdir()}


def test_the_disk_budget_deletes_the_oldest_recordings(tmp_path: Path) -> None:
    reference = recorder(tmp_path / "reference")
    make_shots(reference, 1)
    reference.close()
    one = next(iter(sizes(tmp_path / "reference").values()))
    root = tmp_path / "shots"
    rec = recorder(root, disk_budget=int(2.5 * one))
    make_shots(rec, 4)
    rec.close()
    assert sorted(sizes(root)) == ["000003", "000004"]


def test_the_newest_recording_is_kept_even_over_budget(tmp_path: Path) -> None:
    rec = recorder(tmp_path, disk_budget=1)
    make_shots(rec, 2)
    rec.close()
    assert sorted(sizes(tmp_path)) == ["000002"]


def test_a_restart_cleans_up_and_numbers_on(tmp_path: Path) -> None:
    rec = recorder(tmp_path)
    make_shots(rec, 2)
    rec.close()
    (tmp_path / ".partial-000003-20250101-000000").mkdir()  # a crash mid-write
    (tmp_path / "notes.txt").write_text("not ours")
    rec = recorder(tmp_path)
    make_shots(rec, 1)
    rec.close()
    assert sorted(p.name[:6] for p in tmp_path.iterdir()) == [
        "000001",
        "000002",
        "000003",
        "notes.",
    ]


def test_a_writer_that_falls_behind_skips_frames_and_saves_nothing_empty(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    rec = recorder(tmp_path, backlog_bytes=0)  # no frame fits: all are skipped
    make_shots(rec, 1)
    rec.close()
    assert list(tmp_path.iterdir()) == []
    assert "recording shot failed" in caplog.text


@pytest.fixture(autouse=True)
def no_stray_threads() -> Iterator[None]:
    before = threading.active_count()
    yield
    assert threading.active_count() == before


def test_recording_json_is_valid_json_for_other_tools(tmp_path: Path) -> None:
    rec = recorder(tmp_path)
    make_shots(rec, 1)
    rec.close()
    [path] = list(tmp_path.iterdir())
    meta = json.loads((path / "recording.json").read_text())
    assert list(meta)[:3] == ["format", "fps", "table"]
