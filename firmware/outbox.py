"""The publisher: the journal's outbox to the broker, in order, each row until its PUBACK.

A thread of its own with its own journal connection. It hands paho at most ``window`` rows at a
time, oldest first, and deletes a row when the broker acknowledges it. Paho resends what it was
handed after a reconnection, in order; the rest waits on disk for as long as the broker is
away — so a broker outage costs no memory and loses nothing, and a crash or power cut loses
nothing either: on the next start every row still in the outbox is published again. That can
repeat the few messages that were in flight at the crash (delivery is at least once; ``seq``
lets subscribers drop repeats).
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable
from pathlib import Path

from firmware.journal import Journal
from firmware.mqtt_link import MqttLink

log = logging.getLogger(__name__)


class Publisher:
    def __init__(
        self,
        journal_path: Path,
        link: MqttLink,
        *,
        window: int = 20,
        on_failure: Callable[[BaseException], None] | None = None,
    ) -> None:
        self._path = journal_path
        self._on_failure = on_failure
        self.failed: BaseException | None = None
        self._link = link
        self._window = window
        self._wake = threading.Event()
        self._stopping = False
        # Passes are numbered so drain() can wait for a pass that began after its own call:
        # an older pass may have counted the outbox before the last rows were journaled.
        self._progress = threading.Condition()
        self._requested = 0
        self._finished = 0
        self._pending = 0
        self._thread = threading.Thread(target=self._run, name="tenball-publisher", daemon=True)
        link.notify(self.wake)

    def start(self) -> None:
        self._thread.start()

    def wake(self) -> None:
        """Something changed: rows journaled, a PUBACK, the connection. Cheap and thread-safe."""
        with self._progress:
            self._requested += 1
        self._wake.set()

    @property
    def pending(self) -> int:
        """Messages not yet acknowledged by the broker, as of the last pass."""
        with self._progress:
            return self._pending

    def drain(self, timeout: float) -> bool:
        """Wait until the outbox is empty; False if ``timeout`` seconds pass first."""
        self.wake()
        deadline = time.monotonic() + timeout
        with self._progress:
            target = self._requested
            while self._finished < target or self._pending > 0:
                left = deadline - time.monotonic()
                if left <= 0 or not self._thread.is_alive():
                    return False
                self._progress.wait(left)
            return True

    def stop(self) -> None:
        self._stopping = True
        self._wake.set()
        if self._thread.is_alive():
            self._thread.join(timeout=5)

    def _run(self) -> None:
        journal = Journal.attach(self._path)
        in_flight: dict[int, int] = {}  # paho message id → outbox row
        last = 0  # the last row handed to paho in this process's life
        try:
            while not self._stopping:
                self._wake.wait(timeout=1.0)
                self._wake.clear()
                with self._progress:
                    started = self._requested
                acked = []
                while True:
                    try:
                        mid = self._link.acks.get_nowait()
                    except queue.Empty:
                        break
                    row = in_flight.pop(mid, None)
                    if row is not None:  # others are status messages, not outbox rows
                        acked.append(row)
                if acked:
                    journal.delivered(acked)
                room = self._window - len(in_flight)
                if self._link.connected and room > 0:
                    for queued in journal.queued(after=last, limit=room):
                        message = queued.message
                        mid = self._link.publish(
                            message.topic, message.payload, message.qos, message.retain
                        )
                        in_flight[mid] = queued.id
                        last = queued.id
                count = journal.queued_count()
                with self._progress:
                    self._pending = count
                    self._finished = max(self._finished, started)
                    self._progress.notify_all()
        except Exception as exc:
            # Rulings would pile up unpublished behind a dead publisher: the service must stop
            # (and systemd restart it) rather than go on looking healthy.
            log.exception("the publisher stopped")
            self.failed = exc
            if self._on_failure is not None:
                self._on_failure(exc)
        finally:
            journal.close()
            with self._progress:
                self._progress.notify_all()
