"""IR break-beam sensors in the six pockets.

Three layers, each one idea:

- :class:`BeamDebouncer` — pure logic: raw beam edges (with their times) in, ball pulses and
  sensor faults out. No pins, no clock of its own: tests feed it times directly.
- :class:`PocketSensor` — one pocket: a gpiozero ``DigitalInputDevice`` whose callbacks only
  stamp ``time.monotonic_ns()`` and enqueue the edge, plus a debouncer run by :meth:`poll`.
- :class:`PocketSensors` — the six pockets, with one thread-safe queue of events.

Events are plain frozen data: :class:`PocketPulse` (a ball went through the beam) and
:class:`SensorFault` (a beam stayed blocked too long: a stuck ball, a hand, a dead emitter —
and its recovery). Times are ``time.monotonic_ns()``, the clock of the camera's
``SensorTimestamp``, so pulses line up with frames.
"""

from __future__ import annotations

import queue
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Final, TypeAlias

from gpiozero import DigitalInputDevice

POCKETS: Final = ("HL", "HR", "SL", "SR", "FL", "FR")
"""Pocket codes (contracts §1): head/side/foot, left/right."""

# A ball crosses a beam in ~10–40 ms. Chatter while a ball enters or leaves the beam is far
# shorter; two balls dropping back to back leave a gap of about their own crossing time.
DEFAULT_DEAD_TIME = 0.005
DEFAULT_FAULT_AFTER = 2.0


@dataclass(frozen=True, slots=True)
class PocketPulse:
    """A ball went through ``pocket``'s beam: broken at ``t_ns``, for ``duration_ns``."""

    pocket: str
    t_ns: int
    duration_ns: int


@dataclass(frozen=True, slots=True)
class SensorFault:
    """``pocket``'s beam is stuck blocked (``blocked=True``, ``t_ns`` = when it broke) or has
    recovered (``blocked=False``, ``t_ns`` = when it cleared).

    A blocked beam produces no pulses: it may be a ball resting in the beam of a full pocket,
    a hand, or a dead emitter. The loop should fall back on vision for that pocket.
    """

    pocket: str
    t_ns: int
    blocked: bool


SensorEvent: TypeAlias = PocketPulse | SensorFault


class BeamDebouncer:
    """Turns one beam's raw edges into :class:`PocketPulse` and :class:`SensorFault` events.

    - A pulse is emitted once the beam has been clear for ``dead_time_ns``: a new break within
      that time is the same ball (chatter) and extends the pulse. Nothing else filters pulses,
      so a fast ball's short pulse is never lost.
    - A beam blocked for ``fault_after_ns`` becomes a fault, not a ball; the recovery is
      emitted once the beam has been clear for the dead time (a stuck ball that rattles free
      is not a new ball).

    Feed it edges in time order with :meth:`edge` and let time pass with :meth:`tick`; events
    are appended to the ``out`` list (no allocation when nothing happens)::

        debouncer = BeamDebouncer("FR", dead_time_ns=5_000_000, fault_after_ns=2_000_000_000)
        out = []
        debouncer.edge(0, True, out)            # beam broken
        debouncer.edge(20_000_000, False, out)  # clear after 20 ms
        debouncer.tick(30_000_000, out)         # out == [PocketPulse("FR", 0, 20_000_000)]
    """

    def __init__(self, pocket: str, *, dead_time_ns: int, fault_after_ns: int) -> None:
        if dead_time_ns < 0 or fault_after_ns <= dead_time_ns:
            raise ValueError("need 0 <= dead_time < fault_after")
        self.pocket = pocket
        self._dead_time_ns = dead_time_ns
        self._fault_after_ns = fault_after_ns
        self._blocked = False
        self._faulted = False
        self._pending = False  # the beam cleared; waiting for the dead time to confirm it
        self._start_ns = 0  # when the current (or pending) pulse's beam broke
        self._clear_ns = 0  # when the beam last cleared

    @property
    def faulted(self) -> bool:
        return self._faulted

    def edge(self, t_ns: int, blocked: bool, out: list[SensorEvent]) -> None:
        """The beam was broken (``blocked``) or cleared at ``t_ns``."""
        self.tick(t_ns, out)
        if blocked == self._blocked:  # a repeated level, e.g. the initial state re-reported
            return
        self._blocked = blocked
        if blocked:
            if self._pending:
                # tick() above has already settled anything older than the dead time, so a
                # pending pulse (or recovery) here is within it: the same ball (or fault).
                self._pending = False
            else:
                self._start_ns = t_ns
            return
        self._clear_ns = t_ns
        self._pending = True

    def tick(self, now_ns: int, out: list[SensorEvent]) -> None:
        """Let time pass up to ``now_ns``: confirm a pending pulse, or declare a fault."""
        if self._pending:
            if now_ns - self._clear_ns >= self._dead_time_ns:
                self._pending = False
                if self._faulted:
                    self._faulted = False
                    out.append(SensorFault(self.pocket, self._clear_ns, blocked=False))
                else:
                    duration_ns = self._clear_ns - self._start_ns
                    out.append(PocketPulse(self.pocket, self._start_ns, duration_ns))
        elif (
            self._blocked and not self._faulted and now_ns - self._start_ns >= self._fault_after_ns
        ):
            self._faulted = True
            out.append(SensorFault(self.pocket, self._start_ns, blocked=True))


class PocketSensor:
    """The break-beam sensor of one pocket.

    Wire the receiver's open-collector output to a GPIO pin (the internal pull-up is used) and
    its ground to the Pi's; the output goes low when the beam is broken. ``bounce_time`` is
    off: with lgpio a bounce time swallows pulses shorter than itself — a fast ball; chatter
    is merged in software instead (see :class:`BeamDebouncer`).

    The GPIO callback only stamps the time and queues the edge (lgpio runs every pin's callback
    on one thread); :meth:`poll`, called from the referee loop (every frame is fine), turns
    edges into events::

        from hw.pockets import PocketSensor

        sensor = PocketSensor("FR", 17)
        events = []
        while True:
            sensor.poll(events)
            ...

    ``clock`` (nanoseconds) is injectable for tests; keep ``time.monotonic_ns`` in use, the
    camera's clock.
    """

    def __init__(
        self,
        pocket: str,
        pin: int | str,
        *,
        dead_time: float = DEFAULT_DEAD_TIME,
        fault_after: float = DEFAULT_FAULT_AFTER,
        clock: Callable[[], int] = time.monotonic_ns,
        pin_factory: Any = None,
    ) -> None:
        if pocket not in POCKETS:
            raise ValueError(f"unknown pocket {pocket!r}; pockets are {', '.join(POCKETS)}")
        self.pocket = pocket
        self._clock = clock
        self._debouncer = BeamDebouncer(
            pocket,
            dead_time_ns=round(dead_time * 1e9),
            fault_after_ns=round(fault_after * 1e9),
        )
        # Stamping and draining share a lock so that every edge stamped before poll() reads
        # the clock is already queued when poll() looks: otherwise a pending pulse could be
        # confirmed while the break that extends it was still on its way.
        self._lock = threading.Lock()
        self._edges: deque[tuple[int, bool]] = deque()
        self._device = DigitalInputDevice(
            pin, pull_up=True, bounce_time=None, pin_factory=pin_factory
        )
        self._device.when_activated = self._on_break
        self._device.when_deactivated = self._on_clear
        if self._device.is_active:
            # Blocked already at start: no edge will come, but it must still become a fault.
            self._on_break()

    def _on_break(self) -> None:
        with self._lock:
            self._edges.append((self._clock(), True))

    def _on_clear(self) -> None:
        with self._lock:
            self._edges.append((self._clock(), False))

    @property
    def faulted(self) -> bool:
        """The beam is currently reported as a fault."""
        return self._debouncer.faulted

    def poll(self, out: list[SensorEvent]) -> None:
        """Process queued edges and the passing of time; append new events to ``out``."""
        with self._lock:
            now_ns = self._clock()
            edges = self._edges
            while edges:
                t_ns, blocked = edges.popleft()
                self._debouncer.edge(t_ns, blocked, out)
        self._debouncer.tick(now_ns, out)

    def close(self) -> None:
        self._device.close()


class PocketSensors:
    """The six pocket sensors, with one thread-safe queue of events.

    ``pins`` maps pocket codes to GPIO pins (from the table's configuration; a pocket left out
    has no sensor). Call :meth:`poll` from the referee loop; read :attr:`events` there or from
    any other thread::

        from hw.pockets import PocketPulse, PocketSensors

        sensors = PocketSensors({"HL": 5, "HR": 6, "SL": 13, "SR": 19, "FL": 26, "FR": 21})
        for frame in camera:
            sensors.poll()
            while not sensors.events.empty():
                event = sensors.events.get_nowait()
                if isinstance(event, PocketPulse):
                    ...
    """

    def __init__(
        self,
        pins: Mapping[str, int | str],
        *,
        dead_time: float = DEFAULT_DEAD_TIME,
        fault_after: float = DEFAULT_FAULT_AFTER,
        clock: Callable[[], int] = time.monotonic_ns,
        pin_factory: Any = None,
    ) -> None:
        self.events: queue.SimpleQueue[SensorEvent] = queue.SimpleQueue()
        self._sensors: list[PocketSensor] = []
        try:
            for pocket, pin in pins.items():
                self._sensors.append(
                    PocketSensor(
                        pocket,
                        pin,
                        dead_time=dead_time,
                        fault_after=fault_after,
                        clock=clock,
                        pin_factory=pin_factory,
                    )
                )
        except Exception:
            self.close()
            raise
        self._batch: list[SensorEvent] = []

    @property
    def pockets(self) -> tuple[str, ...]:
        """The pockets that have a sensor."""
        return tuple(sensor.pocket for sensor in self._sensors)

    @property
    def faulted(self) -> tuple[str, ...]:
        """The pockets whose beam is currently reported as a fault."""
        return tuple(sensor.pocket for sensor in self._sensors if sensor.faulted)

    def poll(self) -> None:
        """Process every sensor; queue the new events on :attr:`events` in time order."""
        batch = self._batch
        for sensor in self._sensors:
            sensor.poll(batch)
        if not batch:
            return
        batch.sort(key=_event_time)
        for event in batch:
            self.events.put(event)
        batch.clear()

    def close(self) -> None:
        for sensor in self._sensors:
            sensor.close()


def _event_time(event: SensorEvent) -> int:
    return event.t_ns
