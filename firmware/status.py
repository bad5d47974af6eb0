"""The table's health, for the retained ``status`` topic (contracts §6).

The loop counts frames into :class:`Status`; a :class:`StatusReporter` thread publishes a
snapshot every few seconds. The reporter runs apart from the loop on purpose: when the camera
stops delivering, the loop is stuck waiting for a frame, and the status must still say so
(``"camera": "stalled"``) before the watchdog restarts the service.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable
from typing import Any

from hw.frames import Frame

Json = dict[str, Any]

STALL_AFTER = 2.0
"""Seconds without a frame after which a running camera counts as stalled."""


class Status:
    def __init__(
        self,
        *,
        table: str,
        source: str,
        detector: str,
        journal_bytes: Callable[[], int],
        outbox: Callable[[], int],
        seq: Callable[[], int],
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._table = table
        self._source = source
        self._detector = detector
        self._journal_bytes = journal_bytes
        self._outbox = outbox
        self._seq = seq
        self._clock = clock
        self._lock = threading.Lock()
        self._started = clock()
        self._arrivals: deque[float] = deque()
        self._frames = 0
        self._dropped = 0
        self._camera = "starting"
        self._sensors = "none"
        self.broker: Callable[[], str] = lambda: "none"

    def frame(self, frame: Frame) -> None:
        """A frame was processed (the loop calls this for every frame)."""
        now = self._clock()
        with self._lock:
            self._frames += 1
            self._dropped = frame.dropped
            self._camera = "ok"
            arrivals = self._arrivals
            arrivals.append(now)
            while now - arrivals[0] > 1.0:
                arrivals.popleft()

    def camera(self, state: str) -> None:
        """``ended`` (a recording is over) or ``error: …``."""
        with self._lock:
            self._camera = state

    def sensors(self, state: str) -> None:
        """``ok``, ``fault: FR SL`` (beams stuck blocked) or ``none`` (no sensors wired)."""
        with self._lock:
            self._sensors = state

    def snapshot(self, *, online: bool = True) -> Json:
        now = self._clock()
        with self._lock:
            arrivals = self._arrivals
            fps = 0.0
            if len(arrivals) > 1 and now - arrivals[-1] < 1.0:
                fps = (len(arrivals) - 1) / max(arrivals[-1] - arrivals[0], 1e-9)
            camera = self._camera
            if camera == "ok" and arrivals and now - arrivals[-1] > STALL_AFTER:
                camera = "stalled"
            out: Json = {
                "online": online,
                "table": self._table,
                "fps": round(fps, 1),
                "frames": self._frames,
                "dropped_frames": self._dropped,
                "camera": camera,
                "sensors": self._sensors,
            }
        out.update(
            broker=self.broker(),
            journal_bytes=self._journal_bytes(),
            outbox=self._outbox(),
            seq=self._seq(),
            source=self._source,
            detector=self._detector,
            uptime_s=round(now - self._started, 1),
        )
        return out


class StatusReporter:
    """Publishes ``status.snapshot()`` every ``interval`` seconds on its own thread."""

    def __init__(self, status: Status, publish: Callable[[Json], None], interval: float) -> None:
        self._status = status
        self._publish = publish
        self._interval = interval
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="tenball-status", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout=5)

    def _run(self) -> None:
        while not self._stop.wait(self._interval):
            self._publish(self._status.snapshot())
