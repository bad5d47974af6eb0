"""Shot recordings: a ring buffer of recent frames, written per shot off the frame thread."""

from __future__ import annotations

import logging
import math
import os
import queue
import re
import shutil
import threading
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path
from typing import Any, TypeAlias

from hw.frames import Frame
from hw.recording import InputEvent, RecordingError, RecordingWriter

log = logging.getLogger(__name__)

MiB = 1 << 20
GiB = 1 << 30
_PARTIAL = ".partial-"
_NAME = re.compile(r"^(\d{6,})-\d{8}-\d{6}$")  # what start_shot names recordings


@dataclass(slots=True)
class _Take:
    """A shot being recorded, as the frame thread sees it."""

    id: int
    name: str
    t_strike: float
    window_start: float
    notes: Mapping[str, Any]
    t_end: float | None = None
    until: float | None = None  # the last frame time to record (t_end + post-roll)
    seen: int = 0
    skipped: int = 0


@dataclass(frozen=True, slots=True)
class _Open:
    take: int
    directory: Path
    meta: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class _Write:
    take: int
    frame: Frame


@dataclass(frozen=True, slots=True)
class _Close:
    take: int
    name: str
    inputs: tuple[InputEvent, ...]
    t_strike: float
    t_end: float | None
    skipped: int


_Message: TypeAlias = _Open | _Write | _Close | None  # None stops the worker


@dataclass(slots=True)
class _Job:
    """A shot being written, as the worker thread sees it."""

    writer: RecordingWriter
    origin: float | None = None  # the first frame's time: the recording clock's zero


class Recorder:
    """Records each shot into a recording directory (contracts §2) under ``root``.

    Every frame goes through :meth:`add_frame`; the recorder keeps the last
    ``buffer_seconds`` of them (fewer if they exceed ``buffer_bytes``). When the loop sees a
    strike it calls :meth:`start_shot` with the strike's time: buffered frames from
    ``pre_roll`` seconds before it, and every frame after, go to a writer thread, until
    ``post_roll`` seconds after the time given to :meth:`end_shot`. Pocket pulses and commands
    given to :meth:`add_input` in that window go to ``inputs.jsonl``. A shot never ended is cut
    after ``max_shot`` seconds.

    The writer encodes MJPEG (``video.avi``) on its own thread. If it falls behind by more than
    ``backlog_bytes`` of frames, frames are skipped, counted in ``recording.json`` (the
    timestamps stay exact). ``every_nth`` records every n-th frame only (the CPU a Pi 5 has
    for MJPEG at 120 fps is about 768×432). A recording is written as ``.partial-NAME`` and
    renamed when complete; then the oldest recordings are deleted until all fit
    ``disk_budget`` bytes (the newest is always kept), and ``on_saved(path)`` is called from
    the writer thread::

        from hw.recorder import Recorder

        recorder = Recorder("/var/lib/tenball/shots", fps=120.0, table=config["table"])
        for frame in camera:
            recorder.add_frame(frame)
            if strike_seen:
                recorder.start_shot(strike_t, notes={"state": rules_state})
            if balls_at_rest:
                recorder.end_shot(rest_t)
        recorder.close()

    Times are seconds on the frames' clock; the recording's clock starts at its first frame.
    ``table`` must describe the recorded image (``main`` stream size on a Pi camera).
    """

    def __init__(
        self,
        root: str | Path,
        *,
        fps: float,
        table: Mapping[str, Any],
        meta: Mapping[str, Any] | None = None,
        pre_roll: float = 1.0,
        post_roll: float = 1.0,
        buffer_seconds: float = 3.0,
        buffer_bytes: int = 512 * MiB,
        backlog_bytes: int = 256 * MiB,
        max_shot: float = 120.0,
        every_nth: int = 1,
        disk_budget: int = 8 * GiB,
        on_saved: Callable[[Path], None] | None = None,
    ) -> None:
        if buffer_seconds < pre_roll:
            raise ValueError("buffer_seconds must hold at least the pre-roll")
        if every_nth < 1:
            raise ValueError("every_nth must be 1 or more")
        self.root = Path(root)
        self.root.mkdir(parents=True, exist_ok=True)
        self._fps = fps / every_nth
        self._table = dict(table)
        self._meta = dict(meta or {})
        self._pre_roll = pre_roll
        self._post_roll = post_roll
        self._buffer_seconds = buffer_seconds
        self._buffer_bytes = buffer_bytes
        self._backlog_limit = backlog_bytes
        self._max_shot = max_shot
        self._every_nth = every_nth
        self._disk_budget = disk_budget
        self._on_saved = on_saved

        self._lock = threading.Lock()
        self._ring: deque[Frame] = deque()
        self._ring_bytes = 0
        self._inputs: deque[InputEvent] = deque()
        self._takes: list[_Take] = []
        self._next_id = 0
        self._seq = self._clean_root()
        self._backlog = 0
        self._backlog_lock = threading.Lock()
        self._queue: queue.SimpleQueue[_Message] = queue.SimpleQueue()
        self._closed = False
        self._worker = threading.Thread(target=self._run, name="tenball-recorder", daemon=True)
        self._worker.start()

    # --- the frame thread's side -------------------------------------------------------------

    def add_frame(self, frame: Frame) -> None:
        """Buffer a frame and pass it to the shots being recorded (cheap: call every frame)."""
        with self._lock:
            ring = self._ring
            ring.append(frame)
            self._ring_bytes += frame.nbytes
            while len(ring) > 1 and (
                frame.t - ring[0].t > self._buffer_seconds or self._ring_bytes > self._buffer_bytes
            ):
                self._ring_bytes -= ring.popleft().nbytes
            horizon = ring[0].t
            for take in self._takes:
                horizon = min(horizon, take.window_start)
            while self._inputs and self._inputs[0].t < horizon:
                self._inputs.popleft()
            if not self._takes:
                return
            for take in tuple(self._takes):
                if take.until is None and frame.t - take.t_strike > self._max_shot:
                    log.warning("shot %s not ended after %gs: cut", take.name, self._max_shot)
                    take.until = frame.t
                if take.until is not None and frame.t > take.until:
                    self._finish(take)
                else:
                    self._send(take, frame)

    def add_input(self, event: InputEvent) -> None:
        """A pocket pulse or a command, timed on the frames' clock, for ``inputs.jsonl``.

        For a live pulse: ``recorder.add_input(PocketInput.from_pulse(pulse))``.
        """
        with self._lock:
            self._inputs.append(event)

    def start_shot(self, t_strike: float, notes: Mapping[str, Any] | None = None) -> str:
        """Start recording a shot struck at ``t_strike``; returns the recording's name.

        ``notes`` go into ``recording.json`` (e.g. ``"state"``: the rules state before the
        shot, so a replay can rule it). A shot still open without an end ends here.
        """
        with self._lock:
            if self._closed:
                raise RuntimeError("the recorder is closed")
            for take in self._takes:
                if take.until is None:
                    take.until = t_strike
            name = f"{self._seq:06d}-{datetime.now():%Y%m%d-%H%M%S}"
            self._seq += 1
            take = _Take(self._next_id, name, t_strike, t_strike - self._pre_roll, notes or {})
            self._next_id += 1
            meta = {**self._meta, **take.notes}
            self._queue.put(_Open(take.id, self.root / (_PARTIAL + name), meta))
            for frame in self._ring:
                if frame.t >= take.window_start:
                    self._send(take, frame)
            self._takes.append(take)
            return name

    def end_shot(self, t_end: float) -> None:
        """The shot started last came to rest at ``t_end``; record ``post_roll`` more.

        Call it within ``post_roll`` of ``t_end``: frames later than that have already gone
        to the writer and stay in the recording.
        """
        with self._lock:
            for take in reversed(self._takes):
                if take.t_end is None:
                    take.t_end = t_end
                    take.until = t_end + self._post_roll
                    if self._ring and self._ring[-1].t > take.until:
                        self._finish(take)
                    return
            log.warning("end_shot(%s) without an open shot", t_end)

    def close(self) -> None:
        """Finish the shots being recorded with the frames so far, and wait for the writer."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            for take in tuple(self._takes):
                self._finish(take)
            self._queue.put(None)
        self._worker.join()

    @property
    def buffered_frames(self) -> int:
        with self._lock:
            return len(self._ring)

    @property
    def buffered_bytes(self) -> int:
        with self._lock:
            return self._ring_bytes

    def _send(self, take: _Take, frame: Frame) -> None:
        take.seen += 1
        if (take.seen - 1) % self._every_nth:
            return
        size = frame.nbytes
        with self._backlog_lock:
            if self._backlog + size > self._backlog_limit:
                take.skipped += 1
                return
            self._backlog += size
        self._queue.put(_Write(take.id, frame))

    def _finish(self, take: _Take) -> None:
        self._takes.remove(take)
        end = take.until if take.until is not None else math.inf
        inputs = tuple(e for e in self._inputs if take.window_start <= e.t <= end)
        self._queue.put(_Close(take.id, take.name, inputs, take.t_strike, take.t_end, take.skipped))

    # --- the writer thread's side ------------------------------------------------------------

    def _run(self) -> None:
        jobs: dict[int, _Job] = {}
        while (message := self._queue.get()) is not None:
            try:
                if isinstance(message, _Open):
                    jobs[message.take] = _Job(
                        RecordingWriter(
                            message.directory, fps=self._fps, table=self._table, meta=message.meta
                        )
                    )
                elif isinstance(message, _Write):
                    try:
                        job = jobs.get(message.take)
                        if job is not None:
                            self._write(job, message.frame)
                    finally:
                        with self._backlog_lock:
                            self._backlog -= message.frame.nbytes
                else:
                    job = jobs.pop(message.take, None)
                    if job is not None:
                        self._save(job, message)
            except Exception:
                # A failed shot (disk full, encoder error) must not stop the recording of the
                # next ones.
                job = jobs.pop(message.take, None)
                log.exception("recording shot failed")
                if job is not None:
                    shutil.rmtree(job.writer.directory, ignore_errors=True)

    @staticmethod
    def _write(job: _Job, frame: Frame) -> None:
        if job.origin is None:
            job.origin = frame.t
        image = frame.bgr()
        job.writer.write_frame(frame.t - job.origin, frame.gray if image is None else image)

    def _save(self, job: _Job, message: _Close) -> None:
        writer = job.writer
        origin = job.origin if job.origin is not None else message.t_strike
        writer.write_inputs(
            replace(event, t=event.t - origin) for event in message.inputs if event.t >= origin
        )
        writer.set_meta(
            "recorder",
            {
                "shot_t_start": round(message.t_strike - origin, 6),
                "shot_t_end": None if message.t_end is None else round(message.t_end - origin, 6),
                "clock_origin_s": origin,
                "frames_skipped": message.skipped,
            },
        )
        try:
            writer.close()
        except RecordingError:
            shutil.rmtree(writer.directory, ignore_errors=True)
            raise
        final = self.root / message.name
        writer.directory.rename(final)
        self._enforce_budget()
        if self._on_saved is not None:
            self._on_saved(final)

    # --- the disk ----------------------------------------------------------------------------

    def _recordings(self) -> list[tuple[int, Path]]:
        found = []
        for path in self.root.iterdir():
            match = _NAME.match(path.name)
            if match and path.is_dir():
                found.append((int(match.group(1)), path))
        return sorted(found)

    def _clean_root(self) -> int:
        """Delete what a crash left half-written; return the next sequence number."""
        for path in self.root.glob(_PARTIAL + "*"):
            shutil.rmtree(path, ignore_errors=True)
        recordings = self._recordings()
        return recordings[-1][0] + 1 if recordings else 1

    def _enforce_budget(self) -> None:
        recordings = [(path, _tree_size(path)) for _, path in self._recordings()]
        total = sum(size for _, size in recordings)
        for path, size in recordings[:-1]:
            if total <= self._disk_budget:
                break
            shutil.rmtree(path, ignore_errors=True)
            total -= size
            log.info("deleted %s to stay within the disk budget", path.name)


def _tree_size(path: Path) -> int:
    total = 0
    for directory, _, files in os.walk(path):
        for name in files:
            total += os.path.getsize(os.path.join(directory, name))
    return total
