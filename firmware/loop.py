"""The referee loop: frames → shot detector → shot facts, joined with the declarations, → rulings.

One thread owns the match. Per frame it gathers what arrived — a recording's inputs up to the
frame's time, pocket-sensor pulses, commands from MQTT and the call panel — feeds pulses to the
detector and queues commands by their time; then it asks the detector for the shots that ended
and rules them, each after the commands that came before its strike. Commands that come while a
shot is under way (after its strike, before its facts) wait for that shot's ruling: a call
made while the balls roll is for the next shot.

The same loop runs on a camera and on a recording. A camera's frames, the pocket sensors and
command arrivals share ``time.monotonic()``; on a recording, live arrivals are placed on the
recording's clock by the offset between the two at the latest frame.
"""

from __future__ import annotations

import heapq
import itertools
import logging
import queue
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from firmware.intake import CommandError, decode
from firmware.journal import dumps
from firmware.mqtt_link import Inbound
from firmware.referee import Listener, Origin, Referee
from firmware.sdnotify import Notifier
from firmware.shots import ShotDetector
from firmware.status import Status
from hw.frames import Frame, FrameSource
from hw.panel import CallPanel
from hw.pockets import PocketPulse, PocketSensors
from hw.recorder import Recorder
from hw.recording import InputEvent, PocketInput

log = logging.getLogger(__name__)

Json = dict[str, Any]

MAX_SHOT_SECONDS = 120.0
"""A detector reporting a shot under way for longer has lost track: held commands go through."""
INBOUND_PER_FRAME = 50
"""Commands taken per frame, so a burst cannot stall the camera."""


@dataclass(order=True)
class _Waiting:
    t: float
    order: int
    command: Json = field(compare=False)
    origin: Origin = field(compare=False)


def panel_sink(
    inbound: queue.SimpleQueue[Inbound], clock: Callable[[], float] = time.monotonic
) -> Callable[[Mapping[str, Any]], None]:
    """The call panel's ``on_command``: its commands join MQTT's on the inbound queue."""

    def put(command: Mapping[str, Any]) -> None:
        payload = dumps(command).encode("utf-8")
        inbound.put(Inbound(clock(), "panel", payload, len(payload)))

    return put


def panel_listener(panel: CallPanel) -> Listener:
    """Keeps the call panel's lights on the board: the called pocket, a foul's blink."""

    def show(board: Json, ruling: Json | None) -> None:
        panel.show(board)
        if ruling is not None and ruling.get("foul"):
            panel.foul()

    return show


class RefereeLoop:
    def __init__(
        self,
        referee: Referee,
        source: FrameSource,
        detector: ShotDetector,
        *,
        live_clock: bool,
        inputs: Sequence[InputEvent] = (),
        inbound: queue.SimpleQueue[Inbound] | None = None,
        sensors: PocketSensors | None = None,
        recorder: Recorder | None = None,
        status: Status | None = None,
        notifier: Notifier | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.referee = referee
        self._source = source
        self._detector = detector
        self._live_clock = live_clock
        self._inputs = inputs
        self._next_input = 0
        self._inbound = inbound if inbound is not None else queue.SimpleQueue()
        self._sensors = sensors
        self._sensor_faults: tuple[str, ...] = ()
        self._recorder = recorder
        self._recording_strike: float | None = None
        self._status = status
        self._notifier = notifier or Notifier(None)
        self._clock = clock
        self._offset: float | None = 0.0 if live_clock else None
        self._waiting: list[_Waiting] = []
        self._order = itertools.count()
        self._stopped = False
        self.failure: BaseException | None = None
        resume = referee.resume
        self._skip_inputs_to = resume.last_input_no
        # Only a recording's clock can be resumed: a camera's monotonic clock starts again at
        # every boot, so an old shot's time says nothing about the frames to come.
        self._skip_shots_to = None if live_clock else resume.last_shot_t_end
        if self._sensors is not None and self._status is not None:
            self._status.sensors("ok")

    def stop(self) -> None:
        """End the loop at the next frame (safe from a signal handler)."""
        self._stopped = True
        self._source.close()

    def fail(self, error: BaseException) -> None:
        """Another part of the service broke: stop, and have :meth:`run` raise ``error``."""
        self.failure = error
        self.stop()

    @property
    def stopped(self) -> bool:
        return self._stopped

    def run(self) -> None:
        """Referee until the source ends (a recording) or :meth:`stop`; a camera failure
        raises :class:`hw.frames.CameraError`."""
        try:
            for frame in self._source:
                if self._stopped:
                    break
                self._frame(frame)
        except Exception as exc:
            if self._status is not None:
                self._status.camera(f"error: {exc}")
            raise
        if self.failure is not None:
            raise self.failure
        if self._stopped:
            return
        for facts in self._detector.finish():
            self._shot(facts)
        self._release(None)
        if self._status is not None:
            self._status.camera("ended")

    def serve(self) -> None:
        """Answer commands without frames (after a recording has ended)."""
        self._take_inbound()
        self._release(None)

    # ----- one frame

    def _frame(self, frame: Frame) -> None:
        if not self._live_clock:
            self._offset = frame.t - self._clock()
        skipping = self._skip_shots_to is not None and frame.t <= self._skip_shots_to
        self._take_recorded(frame.t, skipping)
        self._take_sensors()
        self._take_inbound()
        if self._recorder is not None:
            self._recorder.add_frame(frame)
        if not skipping:
            for facts in self._detector.on_frame(frame):
                self._shot(facts)
            strike = self._detector.strike
            if strike is not None and frame.t - strike > MAX_SHOT_SECONDS:
                strike = None
            self._record_strike(strike)
            self._release(strike)
        else:
            # Refereed before a restart: only the commands the journal does not have go on.
            self._release(None)
        if self._status is not None:
            self._status.frame(frame)
        self._notifier.watchdog()

    def _take_recorded(self, now: float, skipping: bool) -> None:
        inputs = self._inputs
        while self._next_input < len(inputs) and inputs[self._next_input].t <= now:
            number = self._next_input
            event = inputs[number]
            self._next_input += 1
            if isinstance(event, PocketInput):
                if not skipping:
                    self._detector.on_pocket(event.pocket, event.t)
            elif number > self._skip_inputs_to:
                self._wait(event.t, dict(event.cmd), Origin("recording", event.t, number))
            if self._recorder is not None:
                self._recorder.add_input(event)

    def _take_sensors(self) -> None:
        sensors = self._sensors
        if sensors is None:
            return
        sensors.poll()
        while True:
            try:
                event = sensors.events.get_nowait()
            except queue.Empty:
                break
            if isinstance(event, PocketPulse):
                pulse = PocketInput.from_pulse(event)
                self._detector.on_pocket(pulse.pocket, pulse.t)
                if self._recorder is not None:
                    self._recorder.add_input(pulse)
            else:
                log.warning(
                    "pocket %s: beam %s", event.pocket, "blocked" if event.blocked else "clear"
                )
        faults = sensors.faulted
        if faults != self._sensor_faults:
            self._sensor_faults = faults
            if self._status is not None:
                self._status.sensors("fault: " + " ".join(faults) if faults else "ok")

    def _take_inbound(self) -> None:
        for _ in range(INBOUND_PER_FRAME):
            try:
                item = self._inbound.get_nowait()
            except queue.Empty:
                return
            try:
                command = decode(item.payload, item.size)
            except CommandError as exc:
                if item.origin == "mqtt":
                    self.referee.refuse(exc)
                log.info("%s: refused %s: %s", item.origin, exc.code, exc)
                continue
            t = self._on_source_clock(item.t)
            self._wait(t, command, Origin(item.origin, None if t == -float("inf") else t))

    def _on_source_clock(self, monotonic_t: float) -> float:
        # Before the first frame of a recording there is no offset yet: such a command simply
        # comes before everything the recording holds.
        return -float("inf") if self._offset is None else monotonic_t + self._offset

    def _wait(self, t: float, command: Json, origin: Origin) -> None:
        heapq.heappush(self._waiting, _Waiting(t, next(self._order), command, origin))

    def _release(self, before: float | None) -> None:
        """Rule on the waiting commands that came before ``before`` (all if None)."""
        waiting = self._waiting
        while waiting and (before is None or waiting[0].t < before):
            item = heapq.heappop(waiting)
            answer = self.referee.handle(item.command, item.origin)
            if not answer.get("ok"):
                log.info("%s command %s: %s", item.origin.kind, dumps(item.command), dumps(answer))

    def _shot(self, facts: Json) -> None:
        t_start = float(facts["t_start"])
        t_end = float(facts["t_end"])
        self._release(t_start)
        if self._recorder is not None and self._recording_strike is not None:
            self._recorder.end_shot(t_end)
            self._recording_strike = None
        if self._skip_shots_to is not None and t_end <= self._skip_shots_to:
            return  # ruled before a restart
        answer = self.referee.handle({**facts, "cmd": "shot"}, Origin("detector", t_end))
        if not answer.get("ok"):
            log.warning("shot at %.2f s not ruled: %s", t_start, dumps(answer))

    def _record_strike(self, strike: float | None) -> None:
        if self._recorder is None or strike is None or strike == self._recording_strike:
            return
        self._recording_strike = strike
        # The state before the shot goes with it, so a replay of the recording can rule it.
        notes = {"state": self.referee.state_json(), "table_id": self.referee.topics.table}
        self._recorder.start_shot(strike, notes=notes)
