"""Recording directories (contracts §2): read back real OpenCV videos; reject bad ones."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from hw.frames import Frame, FrameSource
from hw.pockets import PocketPulse
from hw.recording import (
    CommandInput,
    PocketInput,
    RecordingError,
    RecordingSource,
    RecordingWriter,
    read_info,
)
from tests.hw.hw_support import level, level_image, make_recording, write_video


def grey_level(frame: Frame) -> int:
    return round(float(frame.gray.mean()))


def test_frames_carry_the_recorded_times_and_count_drops(tmp_path: Path) -> None:
    times = [10.0, 10.01, 10.02, 10.05, 10.06]  # two frames lost before 10.05
    recording = make_recording(tmp_path / "r", count=5, fps=100.0, timestamps=times)
    source: FrameSource = RecordingSource(recording)
    frames = list(source)
    assert [f.index for f in frames] == [0, 1, 2, 3, 4]
    assert [f.t for f in frames] == times
    assert [f.dropped for f in frames] == [0, 0, 0, 2, 2]
    assert [abs(grey_level(f) - level(f.index)) <= 1 for f in frames] == [True] * 5
    assert frames[0].gray.shape == (48, 64)
    assert frames[0].gray.dtype == np.uint8
    colour = frames[0].bgr()
    assert colour is not None and colour.shape == (48, 64, 3)
    assert not frames[0].gray.flags.writeable and not colour.flags.writeable
    assert source.fps == 100.0


def test_without_timestamps_frame_i_is_at_i_over_fps(tmp_path: Path) -> None:
    recording = make_recording(tmp_path / "r", count=4, fps=120.0)
    assert [f.t for f in RecordingSource(recording)] == [0.0, 1 / 120, 2 / 120, 3 / 120]


def test_an_mp4_recording_reads_too(tmp_path: Path) -> None:
    recording = make_recording(tmp_path / "r", count=6, timestamps=[0, 1, 2, 3, 4, 5])
    (recording / "video.avi").unlink()
    write_video(recording / "video.mp4", 6, 100.0, fourcc="mp4v")
    frames = list(RecordingSource(recording))
    assert [f.t for f in frames] == [0, 1, 2, 3, 4, 5]
    # mp4v goes through video-range YUV: a few grey levels off, frames still told apart
    assert [abs(grey_level(f) - level(f.index)) <= 3 for f in frames] == [True] * 6


def test_iterating_twice_replays_the_recording(tmp_path: Path) -> None:
    source = RecordingSource(make_recording(tmp_path / "r", count=3))
    assert len(list(source)) == 3
    assert len(list(source)) == 3


class PacingClock:
    """time.monotonic/time.sleep stand-ins: time moves when the code sleeps or a test says."""

    def __init__(self) -> None:
        self.now = 100.0
        self.sleeps: list[float] = []

    def clock(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(round(seconds, 9))
        self.now += seconds


def test_realtime_replay_waits_for_each_frame_time(tmp_path: Path) -> None:
    recording = make_recording(tmp_path / "r", count=4, timestamps=[5.0, 5.1, 5.25, 5.3])
    pacing = PacingClock()
    source = RecordingSource(recording, realtime=True, clock=pacing.clock, sleep=pacing.sleep)
    for frame in source:
        if frame.index == 1:
            pacing.now += 0.2  # a slow consumer: the next frame is already late
    # frame 0 at once; frame 1 0.1 s later; frame 2 (due 0.15 s after frame 1) is late;
    # frame 3 due at 100.3, the clock is at 100.3: no wait
    assert pacing.sleeps == [0.1]
    pacing.sleeps.clear()
    pacing.now = 200.0
    list(source)
    assert pacing.sleeps == [0.1, 0.15, 0.05]


def test_fast_replay_never_sleeps(tmp_path: Path) -> None:
    recording = make_recording(tmp_path / "r", count=3, timestamps=[0.0, 1.0, 2.0])
    pacing = PacingClock()
    list(RecordingSource(recording, clock=pacing.clock, sleep=pacing.sleep))
    assert pacing.sleeps == []


def test_inputs_come_in_time_order(tmp_path: Path) -> None:
    inputs = [
        '{"t": 0.5, "kind": "pocket", "pocket": "FR"}',
        "",
        '{"t": 0.1, "kind": "cmd", "cmd": {"cmd": "call", "ball": 3, "pocket": "FR"}, "x": 1}',
        '{"t": 0.5, "kind": "pocket", "pocket": "HL"}',
    ]
    source = RecordingSource(make_recording(tmp_path / "r", inputs=inputs))
    call = CommandInput(0.1, {"cmd": "call", "ball": 3, "pocket": "FR"})
    assert source.inputs == (call, PocketInput(0.5, "FR"), PocketInput(0.5, "HL"))
    assert source.inputs_between(0.0, 0.1) == (call,)
    assert source.inputs_between(0.1, 0.49) == ()
    assert source.inputs_between(0.1, 0.5) == (PocketInput(0.5, "FR"), PocketInput(0.5, "HL"))


def test_a_live_pulse_becomes_an_input_on_the_frames_clock() -> None:
    assert PocketInput.from_pulse(PocketPulse("SL", 12_500_000_000, 20_000_000)) == PocketInput(
        12.5, "SL"
    )


# --- bad recordings ------------------------------------------------------------------------


def error_of(directory: Path) -> str:
    with pytest.raises(RecordingError) as error:
        RecordingSource(directory)
    return str(error.value)


@pytest.fixture
def rec(tmp_path: Path) -> Path:
    return make_recording(tmp_path / "rec", count=5, timestamps=[0, 0.01, 0.02, 0.03, 0.04])


def test_a_missing_directory(tmp_path: Path) -> None:
    assert error_of(tmp_path / "nope") == f"{tmp_path / 'nope'}: not a recording directory"


def test_a_missing_recording_json(rec: Path) -> None:
    (rec / "recording.json").unlink()
    assert error_of(rec) == f"{rec / 'recording.json'}: missing"


def test_invalid_json_names_the_line(rec: Path) -> None:
    (rec / "recording.json").write_text('{"format": "tenball-recording/1",\n "fps": 120,,\n}')
    assert error_of(rec) == (
        f"{rec / 'recording.json'}: line 2: invalid JSON (Expecting property name enclosed in "
        "double quotes, column 13)"
    )


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"fps": None}, "missing key 'fps'"),
        ({"fps": "120"}, "key 'fps' must be a number, not '120'"),
        ({"fps": True}, "key 'fps' must be a number, not True"),
        ({"fps": 0}, "key 'fps' must be positive, not 0.0"),
        ({"table": None}, "missing key 'table'"),
        ({"table": [1, 2]}, "key 'table' must be an object, not [1, 2]"),
        ({"format": None}, "missing key 'format'"),
        (
            {"format": "tenball-recording/2"},
            "key 'format' is 'tenball-recording/2', expected 'tenball-recording/1'",
        ),
    ],
)
def test_bad_keys_in_recording_json(rec: Path, change: dict[str, object], message: str) -> None:
    meta = json.loads((rec / "recording.json").read_text())
    for key, value in change.items():
        if value is None:
            del meta[key]
        else:
            meta[key] = value
    (rec / "recording.json").write_text(json.dumps(meta))
    assert error_of(rec) == f"{rec / 'recording.json'}: {message}"


def test_unknown_keys_are_ignored(rec: Path) -> None:
    meta = json.loads((rec / "recording.json").read_text())
    meta["players"] = {"A": "Ann", "B": "Bob"}
    (rec / "recording.json").write_text(json.dumps(meta))
    assert read_info(rec).meta["players"] == {"A": "Ann", "B": "Bob"}


def test_no_video(rec: Path) -> None:
    (rec / "video.avi").unlink()
    assert error_of(rec) == f"{rec}: no video.* file"


def test_two_videos(rec: Path) -> None:
    shutil.copy(rec / "video.avi", rec / "video.mp4")
    assert error_of(rec) == f"{rec}: more than one video file (video.avi, video.mp4)"


def test_an_unreadable_video(rec: Path) -> None:
    (rec / "video.avi").write_bytes(b"RIFF garbage" * 20)
    assert error_of(rec) == f"{rec / 'video.avi'}: OpenCV cannot read this video"


def test_fewer_timestamps_than_frames(rec: Path) -> None:
    (rec / "timestamps.txt").write_text("0\n0.01\n0.02\n0.03\n")
    assert error_of(rec) == f"{rec / 'timestamps.txt'}: 4 lines, but video.avi has 5 frames"


def test_more_timestamps_than_frames(rec: Path) -> None:
    write_video(rec / "video.avi", 3, 100.0)
    assert error_of(rec) == f"{rec / 'timestamps.txt'}: 5 lines, but video.avi has 3 frames"


def truncate(path: Path, fraction: float) -> None:
    data = path.read_bytes()
    path.write_bytes(data[: int(len(data) * fraction)])


def test_a_video_cut_short_fails_where_it_ends(tmp_path: Path) -> None:
    recording = make_recording(tmp_path / "r", count=10)
    truncate(recording / "video.avi", 0.9)  # the AVI header still says 10 frames
    source = RecordingSource(recording)
    frames: list[Frame] = []
    with pytest.raises(RecordingError) as error:
        frames.extend(source)
    assert 0 < len(frames) < 10
    assert str(error.value) == (
        f"{recording / 'video.avi'}: ends after {len(frames)} frames, expected 10"
    )


def test_a_video_without_a_decodable_frame(tmp_path: Path) -> None:
    recording = make_recording(tmp_path / "r", count=10)
    truncate(recording / "video.avi", 0.7)
    assert error_of(recording) == f"{recording / 'video.avi'}: no frame can be decoded"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("0\n0.01\n0.01\n0.03\n0.04\n", "line 3: time 0.01 is not after the previous line's 0.01"),
        ("0\n0.02\n0.01\n0.03\n0.04\n", "line 3: time 0.01 is not after the previous line's 0.02"),
        ("0\nabc\n0.02\n0.03\n0.04\n", "line 2: not a time in seconds: 'abc'"),
        ("0\n\n0.02\n0.03\n0.04\n", "line 2: not a time in seconds: ''"),
        ("0\nnan\n0.02\n0.03\n0.04\n", "line 2: not a finite time: 'nan'"),
        ("\n", "empty; it needs one time per frame"),
    ],
)
def test_bad_timestamps(rec: Path, text: str, message: str) -> None:
    (rec / "timestamps.txt").write_text(text)
    assert error_of(rec) == f"{rec / 'timestamps.txt'}: {message}"


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (
            '{"t": 1.0, "kind": "pocket", "pocket": "FR"',
            "invalid JSON (Expecting ',' delimiter, column 44)",
        ),
        ("[1, 2]", "expected a JSON object, got list"),
        ('{"kind": "pocket", "pocket": "FR"}', "missing key 't'"),
        ('{"t": "1", "kind": "pocket", "pocket": "FR"}', "key 't' must be a number, not '1'"),
        ('{"t": 1.0, "pocket": "FR"}', "missing key 'kind'"),
        ('{"t": 1.0, "kind": "led"}', "key 'kind' is 'led', expected 'pocket' or 'cmd'"),
        ('{"t": 1.0, "kind": "pocket"}', "missing key 'pocket'"),
        (
            '{"t": 1.0, "kind": "pocket", "pocket": "XX"}',
            "key 'pocket' is 'XX', not one of HL, HR, SL, SR, FL, FR",
        ),
        ('{"t": 1.0, "kind": "cmd", "cmd": "undo"}', "key 'cmd' must be an object, not 'undo'"),
        (
            '{"t": 1.0, "kind": "cmd", "cmd": {"from": "panel"}}',
            "key 'cmd' must be a command object with a \"cmd\" name, not {'from': 'panel'}",
        ),
    ],
)
def test_bad_inputs_name_the_line(rec: Path, line: str, message: str) -> None:
    good = '{"t": 0.5, "kind": "pocket", "pocket": "SR"}'
    (rec / "inputs.jsonl").write_text(f"{good}\n{good}\n{line}\n")
    assert error_of(rec) == f"{rec / 'inputs.jsonl'}: line 3: {message}"


# --- RecordingWriter -----------------------------------------------------------------------

TABLE = {"size_mm": [2540, 1270], "corners_px": [[2, 2], [62, 2], [62, 46], [2, 46]]}


def test_a_written_recording_reads_back(tmp_path: Path) -> None:
    times = [0.0, 0.008333, 0.016667, 0.033333]
    with RecordingWriter(
        tmp_path / "w", fps=120.0, table=TABLE, meta={"players": {"A": "Ann"}, "fps": 1}
    ) as writer:
        for index, t in enumerate(times):
            writer.write_frame(t, level_image(index))
        writer.write_inputs([PocketInput(0.02, "SL"), CommandInput(0.001, {"cmd": "undo"})])
    source = RecordingSource(tmp_path / "w")
    assert source.info.fps == 120.0  # the caller's meta does not override the format's keys
    assert source.info.table == TABLE
    assert source.info.meta["players"] == {"A": "Ann"}
    frames = list(source)
    assert [f.t for f in frames] == times
    assert [f.dropped for f in frames] == [0, 0, 0, 1]
    assert [abs(grey_level(f) - level(f.index)) <= 1 for f in frames] == [True] * 4
    assert source.inputs == (CommandInput(0.001, {"cmd": "undo"}), PocketInput(0.02, "SL"))
    assert (tmp_path / "w" / "timestamps.txt").read_text().splitlines() == [
        "0.000000",
        "0.008333",
        "0.016667",
        "0.033333",
    ]


def test_grey_frames_make_a_grey_video(tmp_path: Path) -> None:
    with RecordingWriter(tmp_path / "g", fps=60.0, table=TABLE) as writer:
        for index in range(3):
            writer.write_frame(index / 60, np.full((48, 64), level(index), np.uint8))
    frames = list(RecordingSource(tmp_path / "g"))
    assert [abs(grey_level(f) - level(f.index)) <= 1 for f in frames] == [True] * 3


def test_the_writer_refuses_what_the_reader_would(tmp_path: Path) -> None:
    writer = RecordingWriter(tmp_path / "x", fps=60.0, table=TABLE)
    writer.write_frame(0.5, level_image(0))
    with pytest.raises(ValueError, match=r"frame time 0\.5 is not after the previous frame's 0\.5"):
        writer.write_frame(0.5000001, level_image(1))  # equal at the 1 µs kept in the file
    with pytest.raises(ValueError, match=r"frame of shape \(10, 64, 3\) in a \(48, 64, 3\) video"):
        writer.write_frame(0.6, np.zeros((10, 64, 3), np.uint8))
    with pytest.raises(ValueError, match="'fps' is set by the writer"):
        writer.set_meta("fps", 1)
    writer.close()


def test_a_recording_without_frames_is_not_written(tmp_path: Path) -> None:
    writer = RecordingWriter(tmp_path / "empty", fps=60.0, table=TABLE)
    with pytest.raises(RecordingError, match="no frames were written"):
        writer.close()
    assert not (tmp_path / "empty" / "recording.json").exists()
