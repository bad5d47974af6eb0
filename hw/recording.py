"""The recording directory of contracts §2: read it as a frame source, and write it.

A recording is a directory holding ``recording.json`` (format, fps, table), one ``video.*``
that OpenCV reads, an optional ``timestamps.txt`` (one time per frame, seconds) and an optional
``inputs.jsonl`` (pocket-sensor pulses and commands, with their times). Anything wrong with one
raises :class:`RecordingError`, whose message names the file, the line and the key.
"""

from __future__ import annotations

import bisect
import itertools
import json
import math
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any, Final, TextIO, TypeAlias, cast

import cv2

from hw.frames import BgrImage, ClosingOnExit, Frame, GrayImage, bgr_to_gray, missed_frames
from hw.pockets import POCKETS, PocketPulse

FORMAT: Final = "tenball-recording/1"
META_FILE: Final = "recording.json"
TIMESTAMPS_FILE: Final = "timestamps.txt"
INPUTS_FILE: Final = "inputs.jsonl"
VIDEO_FILE: Final = "video.avi"


class RecordingError(Exception):
    """A recording directory is missing a file, or a file is unreadable or malformed."""


@dataclass(frozen=True, slots=True)
class PocketInput:
    """``inputs.jsonl`` kind ``"pocket"``: a pocket sensor's beam broke at ``t`` (seconds)."""

    t: float
    pocket: str

    @classmethod
    def from_pulse(cls, pulse: PocketPulse) -> PocketInput:
        """The input for a live sensor pulse, in seconds on the same clock as camera frames."""
        return cls(pulse.t_ns / 1e9, pulse.pocket)


@dataclass(frozen=True, slots=True)
class CommandInput:
    """``inputs.jsonl`` kind ``"cmd"``: a command object (contracts §4) received at ``t``."""

    t: float
    cmd: Mapping[str, Any]


InputEvent: TypeAlias = PocketInput | CommandInput


def input_to_json(event: InputEvent) -> dict[str, Any]:
    """The ``inputs.jsonl`` object for ``event``."""
    t = round(event.t, 6)
    if isinstance(event, PocketInput):
        return {"t": t, "kind": "pocket", "pocket": event.pocket}
    return {"t": t, "kind": "cmd", "cmd": dict(event.cmd)}


@dataclass(frozen=True, slots=True)
class RecordingInfo:
    """What ``recording.json`` says: ``fps``, ``table`` and the whole object as ``meta``."""

    fps: float
    table: Mapping[str, Any]
    meta: Mapping[str, Any]


def read_info(directory: Path) -> RecordingInfo:
    """Read and check ``recording.json``."""
    path = directory / META_FILE
    meta = _read_json_object(path)
    where = str(path)
    fmt = _require(meta, "format", str, where)
    if fmt != FORMAT:
        raise RecordingError(f"{where}: key 'format' is {fmt!r}, expected {FORMAT!r}")
    fps = _require_number(meta, "fps", where)
    if not fps > 0:
        raise RecordingError(f"{where}: key 'fps' must be positive, not {fps!r}")
    table = _require(meta, "table", dict, where)
    return RecordingInfo(fps, table, meta)


def read_timestamps(path: Path) -> tuple[float, ...]:
    """Read ``timestamps.txt``: one finite time per line, strictly increasing."""
    text = _read_text(path)
    if not text.strip():
        raise RecordingError(f"{path}: empty; it needs one time per frame")
    times: list[float] = []
    for number, line in enumerate(text.rstrip().split("\n"), start=1):
        try:
            t = float(line)
        except ValueError:
            raise RecordingError(
                f"{path}: line {number}: not a time in seconds: {line!r}"
            ) from None
        if not math.isfinite(t):
            raise RecordingError(f"{path}: line {number}: not a finite time: {line!r}")
        if times and t <= times[-1]:
            raise RecordingError(
                f"{path}: line {number}: time {t} is not after the previous line's {times[-1]}"
            )
        times.append(t)
    return tuple(times)


def read_inputs(path: Path) -> tuple[InputEvent, ...]:
    """Read ``inputs.jsonl``; the events come back in time order (stable for equal times)."""
    events: list[InputEvent] = []
    for number, line in enumerate(_read_text(path).splitlines(), start=1):
        if not line.strip():
            continue
        where = f"{path}: line {number}"
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            raise RecordingError(f"{where}: invalid JSON ({exc.msg}, column {exc.colno})") from None
        if not isinstance(obj, dict):
            raise RecordingError(f"{where}: expected a JSON object, got {type(obj).__name__}")
        t = _require_number(obj, "t", where)
        kind = _require(obj, "kind", str, where)
        if kind == "pocket":
            pocket = _require(obj, "pocket", str, where)
            if pocket not in POCKETS:
                raise RecordingError(
                    f"{where}: key 'pocket' is {pocket!r}, not one of {', '.join(POCKETS)}"
                )
            events.append(PocketInput(t, pocket))
        elif kind == "cmd":
            cmd = _require(obj, "cmd", dict, where)
            if not isinstance(cmd.get("cmd"), str):
                raise RecordingError(
                    f"{where}: key 'cmd' must be a command object with a \"cmd\" name, not {cmd!r}"
                )
            events.append(CommandInput(t, cmd))
        else:
            raise RecordingError(f"{where}: key 'kind' is {kind!r}, expected 'pocket' or 'cmd'")
    events.sort(key=_input_time)
    return tuple(events)


def find_video(directory: Path) -> Path:
    """The one ``video.*`` file of a recording."""
    videos = sorted(p for p in directory.glob("video.*") if p.is_file())
    if not videos:
        raise RecordingError(f"{directory}: no video.* file")
    if len(videos) > 1:
        names = ", ".join(p.name for p in videos)
        raise RecordingError(f"{directory}: more than one video file ({names})")
    return videos[0]


class RecordingSource(ClosingOnExit):
    """A recording directory as a :class:`hw.frames.FrameSource`.

    Everything is checked when it is opened (files present, JSON valid, timestamps monotonic
    and as many as the video's frames, first frame decodable), so a bad recording fails at
    once with a :class:`RecordingError`, not half-way through a replay.

    Frames carry the recorded ``t`` (``timestamps.txt``, else ``index / fps``), the BGR image as
    ``color`` and its luma as ``gray``. With ``realtime=True`` they are paced at the recorded
    times, as a camera would deliver them; otherwise they come as fast as they decode.
    ``inputs`` holds the recorded pocket pulses and commands in time order::

        from hw.recording import RecordingSource

        with RecordingSource("fixtures/break1", realtime=True) as source:
            previous = float("-inf")
            for frame in source:
                for event in source.inputs_between(previous, frame.t):
                    ...
                previous = frame.t
    """

    def __init__(
        self,
        directory: str | Path,
        *,
        realtime: bool = False,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.directory = Path(directory)
        if not self.directory.is_dir():
            raise RecordingError(f"{self.directory}: not a recording directory")
        self.realtime = realtime
        self._clock = clock
        self._sleep = sleep
        self.info = read_info(self.directory)
        self.video_path = find_video(self.directory)
        ts_path = self.directory / TIMESTAMPS_FILE
        self.timestamps = read_timestamps(ts_path) if ts_path.exists() else None
        inputs_path = self.directory / INPUTS_FILE
        self.inputs = read_inputs(inputs_path) if inputs_path.exists() else ()
        self._input_times = [event.t for event in self.inputs]
        self.frame_count = self._check_video()
        self._closed = False

    @property
    def fps(self) -> float:
        return self.info.fps

    def inputs_between(self, t0: float, t1: float) -> tuple[InputEvent, ...]:
        """The inputs with ``t0 < t <= t1``: consecutive frame times give each input once."""
        lo = bisect.bisect_right(self._input_times, t0)
        hi = bisect.bisect_right(self._input_times, t1)
        return self.inputs[lo:hi]

    def _open(self) -> cv2.VideoCapture:
        capture = cv2.VideoCapture(str(self.video_path))
        if not capture.isOpened():
            raise RecordingError(f"{self.video_path}: OpenCV cannot read this video")
        return capture

    def _check_video(self) -> int | None:
        capture = self._open()
        try:
            count = int(capture.get(cv2.CAP_PROP_FRAME_COUNT))
            ok, _ = capture.read()
        finally:
            capture.release()
        if not ok:
            raise RecordingError(f"{self.video_path}: no frame can be decoded")
        if count <= 0:  # the container does not say; checked while reading instead
            return None
        if self.timestamps is not None and len(self.timestamps) != count:
            raise RecordingError(
                f"{self.directory / TIMESTAMPS_FILE}: {len(self.timestamps)} lines, but "
                f"{self.video_path.name} has {count} frames"
            )
        return count

    def __iter__(self) -> Iterator[Frame]:
        timestamps = self.timestamps
        expected = len(timestamps) if timestamps is not None else self.frame_count
        period = 1.0 / self.info.fps
        capture = self._open()
        self._closed = False
        try:
            previous: float | None = None
            dropped = 0
            start_wall = 0.0
            for index in itertools.count():
                ok, image = capture.read()
                if self._closed:
                    return
                if not ok:
                    if expected is not None and index < expected:
                        raise RecordingError(
                            f"{self.video_path}: ends after {index} frames, expected {expected}"
                        )
                    return
                if expected is not None and index >= expected:
                    raise RecordingError(
                        f"{self.video_path}: has more frames than the {expected} expected"
                    )
                t = timestamps[index] if timestamps is not None else index * period
                if previous is None:
                    start_wall = self._clock() - t
                else:
                    dropped += missed_frames(t - previous, period)
                previous = t
                if self.realtime:
                    delay = start_wall + t - self._clock()
                    if delay > 0:
                        self._sleep(delay)
                bgr = cast(BgrImage, image)  # OpenCV's stubs do not know it decodes 8-bit BGR
                bgr.flags.writeable = False
                yield Frame(index, t, bgr_to_gray(bgr), dropped, bgr)
        finally:
            capture.release()

    def close(self) -> None:
        """End an iteration in progress (at its next frame)."""
        self._closed = True


class RecordingWriter:
    """Writes one recording directory: MJPEG ``video.avi``, ``timestamps.txt``,
    ``inputs.jsonl`` and, last, ``recording.json``.

    MJPEG because a Pi 5 has no H.264 encoder and no CPU to spare for software H.264 at
    120 fps; every frame's time goes to ``timestamps.txt`` because cameras drop frames. Frames
    may be BGR or grey (the size and kind of the first frame fix the video's)::

        from hw.recording import RecordingWriter

        with RecordingWriter(path, fps=120.0, table={"size_mm": [2540, 1270]}) as writer:
            for frame in frames:
                writer.write_frame(frame.t - t0, frame.bgr())
            writer.write_inputs(events)
    """

    def __init__(
        self,
        directory: str | Path,
        *,
        fps: float,
        table: Mapping[str, Any],
        meta: Mapping[str, Any] | None = None,
    ) -> None:
        self.directory = Path(directory)
        self.directory.mkdir(parents=True)
        self._info: dict[str, Any] = {"format": FORMAT, "fps": float(fps), "table": dict(table)}
        # The caller's notes (players, state, camera…) never override the format's own keys.
        self._info.update((k, v) for k, v in (meta or {}).items() if k not in self._info)
        self._video: cv2.VideoWriter | None = None
        self._size: tuple[int, int, int] = (0, 0, 0)
        self._timestamps: TextIO = (self.directory / TIMESTAMPS_FILE).open("w", encoding="utf-8")
        self._inputs: list[InputEvent] = []
        self._last_t = -math.inf
        self.frames = 0

    def write_frame(self, t: float, image: BgrImage | GrayImage) -> None:
        """Append a frame at ``t`` seconds on the recording clock (strictly increasing)."""
        t = round(t, 6)  # the precision timestamps.txt keeps
        if t <= self._last_t:
            raise ValueError(f"frame time {t} is not after the previous frame's {self._last_t}")
        height, width = image.shape[:2]
        channels = image.shape[2] if image.ndim == 3 else 1
        if self._video is None:
            path = self.directory / VIDEO_FILE
            # The FFmpeg backend writes grey frames too, and its MJPEG is a quarter of the size
            # of OpenCV's built-in encoder at the same PSNR.
            self._video = cv2.VideoWriter(
                str(path),
                cv2.CAP_FFMPEG,
                cv2.VideoWriter.fourcc(*"MJPG"),
                float(self._info["fps"]),
                (width, height),
                channels == 3,
            )
            if not self._video.isOpened():
                raise RecordingError(f"{path}: OpenCV cannot write MJPEG video here")
            self._size = (height, width, channels)
        elif (height, width, channels) != self._size:
            raise ValueError(f"frame of shape {image.shape} in a {self._size} video")
        self._video.write(image)
        self._timestamps.write(f"{t:.6f}\n")
        self._last_t = t
        self.frames += 1

    def set_meta(self, key: str, value: Any) -> None:
        """Add a key to ``recording.json`` (not one of the format's own: format, fps, table)."""
        if key in ("format", "fps", "table"):
            raise ValueError(f"{key!r} is set by the writer")
        self._info[key] = value

    def write_inputs(self, events: Iterable[InputEvent]) -> None:
        """Add pocket pulses and commands (any order; they are written sorted by time)."""
        self._inputs.extend(events)

    def close(self) -> None:
        """Finish the files; ``recording.json`` is written last, once everything else is."""
        self._release()
        if self._video is None:
            raise RecordingError(f"{self.directory}: no frames were written")
        self._inputs.sort(key=_input_time)
        with (self.directory / INPUTS_FILE).open("w", encoding="utf-8") as f:
            for event in self._inputs:
                f.write(json.dumps(input_to_json(event)) + "\n")
        with (self.directory / META_FILE).open("w", encoding="utf-8") as f:
            json.dump(self._info, f, indent=1)
            f.write("\n")

    def __enter__(self) -> RecordingWriter:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if exc_type is None:
            self.close()
        else:  # leave no recording.json: the directory is not a valid recording
            self._release()

    def _release(self) -> None:
        self._timestamps.close()
        if self._video is not None:
            self._video.release()


def _input_time(event: InputEvent) -> float:
    return event.t


def _read_text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise RecordingError(f"{path}: missing") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise RecordingError(f"{path}: unreadable ({exc})") from None


def _read_json_object(path: Path) -> dict[str, Any]:
    try:
        obj = json.loads(_read_text(path))
    except json.JSONDecodeError as exc:
        raise RecordingError(
            f"{path}: line {exc.lineno}: invalid JSON ({exc.msg}, column {exc.colno})"
        ) from None
    if not isinstance(obj, dict):
        raise RecordingError(f"{path}: expected a JSON object, got {type(obj).__name__}")
    return obj


_TYPE_NAMES: Final[dict[type, str]] = {str: "a string", dict: "an object"}


def _require(obj: Mapping[str, Any], key: str, kind: type, where: str) -> Any:
    if key not in obj:
        raise RecordingError(f"{where}: missing key {key!r}")
    value = obj[key]
    if not isinstance(value, kind):
        raise RecordingError(f"{where}: key {key!r} must be {_TYPE_NAMES[kind]}, not {value!r}")
    return value


def _require_number(obj: Mapping[str, Any], key: str, where: str) -> float:
    if key not in obj:
        raise RecordingError(f"{where}: missing key {key!r}")
    value = obj[key]
    # bool is an int in Python but never a time or a rate.
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise RecordingError(f"{where}: key {key!r} must be a number, not {value!r}")
    return float(value)
