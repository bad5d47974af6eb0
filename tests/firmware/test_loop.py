"""The referee loop in-process, as on a Pi: gpiozero's MockFactory pins for the pocket sensors
and the call panel, a camera on a fake monotonic clock, and the systemd watchdog on a real
datagram socket."""

from __future__ import annotations

import itertools
import json
import queue
import socket
import struct
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
from gpiozero.pins.mock import MockFactory

from firmware.journal import Journal
from firmware.loop import RefereeLoop, panel_listener, panel_sink
from firmware.mqtt_link import Inbound
from firmware.referee import Origin, Referee
from firmware.sdnotify import Notifier
from firmware.shots import RecordedFactsDetector
from firmware.status import Status
from hw.frames import Frame
from hw.panel import CallPanel
from hw.pockets import PocketSensors
from hw.recorder import Recorder
from hw.recording import PocketInput, RecordingSource
from tests.firmware.support import PLAYERS, SHOTS, make_recording

GRAY = np.zeros((4, 4), dtype=np.uint8)
SO_TIMESTAMP = 29  # Linux's <asm-generic/socket.h>; Python's socket module does not name it


class Clock:
    """The Pi's monotonic clock, moved by the camera: the loop, the sensors and the panel all
    read it, as they all read CLOCK_MONOTONIC on the device."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now

    def ns(self) -> int:
        return round(self.now * 1e9)


class Camera:
    """Frames at ``fps`` on ``clock``; ``actions[i]`` runs just before frame ``i`` is delivered
    (a button press, a beam broken): gpiozero's mock pins fire their callbacks at once."""

    def __init__(
        self,
        clock: Clock,
        frames: int,
        actions: dict[int, Callable[[], None]] | None = None,
        *,
        fps: float = 100.0,
        pace: float = 0.0,
    ) -> None:
        self.clock = clock
        self.frames = frames
        self.actions = actions or {}
        self._fps = fps
        self._pace = pace
        self.closed = False

    @property
    def fps(self) -> float:
        return self._fps

    def __iter__(self) -> Iterator[Frame]:
        for index in range(self.frames):
            if self.closed:
                return
            self.clock.now = index / self._fps
            if index in self.actions:
                self.actions[index]()
            if self._pace:
                time.sleep(self._pace)
            yield Frame(index, self.clock.now, GRAY)

    def close(self) -> None:
        self.closed = True


def new_referee(tmp_path: Path) -> Referee:
    referee = Referee.open(
        Journal.open(tmp_path / "journal.sqlite"), table="t1", source="camera", publish=False
    )
    referee.handle({"cmd": "new_match", "players": PLAYERS, "race_to": 2}, Origin("setup"))
    return referee


def journaled(referee: Referee) -> list[tuple[str, str, float | None]]:
    return [(e.origin, e.command["cmd"], e.t) for e in referee.journal.entries()]


def test_a_call_made_while_the_balls_roll_is_for_the_next_shot(tmp_path: Path) -> None:
    clock = Clock()
    referee = new_referee(tmp_path)
    inbound: queue.SimpleQueue[Inbound] = queue.SimpleQueue()
    sink = panel_sink(inbound, clock)
    early = {"cmd": "call", "ball": 1, "pocket": "SR", "from": "panel"}
    camera = Camera(clock, 80, {20: lambda: sink(early)})
    detector = RecordedFactsDetector(
        [
            {"t_start": 0.10, "t_end": 0.30, **SHOTS[0]},
            {"t_start": 0.50, "t_end": 0.60, **SHOTS[1]},
        ]
    )
    loop = RefereeLoop(referee, camera, detector, live_clock=True, inbound=inbound, clock=clock)

    loop.run()

    assert journaled(referee) == [
        ("setup", "new_match", None),
        ("detector", "shot", 0.30),
        ("panel", "call", 0.20),  # held back until the break was ruled
        ("detector", "shot", 0.60),
    ]
    assert referee.last_ruling is not None
    assert referee.last_ruling["called_shot_made"] is True


class PulseDetector:
    """A stand-in for vision: one shot struck at ``strike`` and at rest at ``rest``; what
    dropped is what the pocket sensors reported meanwhile."""

    def __init__(self, strike: float, rest: float, balls: dict[str, int | str]) -> None:
        self.pulses: list[tuple[str, float]] = []
        self._strike = strike
        self._rest = rest
        self._balls = balls
        self._now = 0.0
        self._done = False

    def on_pocket(self, pocket: str, t: float) -> None:
        self.pulses.append((pocket, round(t, 6)))

    def on_frame(self, frame: Frame) -> list[dict[str, Any]]:
        self._now = frame.t
        if self._done or frame.t < self._rest:
            return []
        self._done = True
        dropped = [p for p, t in self.pulses if self._strike <= t <= self._rest]
        return [
            {
                "t_start": self._strike,
                "t_end": self._rest,
                "first_contact": 1,
                "pocketed": [{"ball": self._balls[p], "pocket": p} for p in dropped],
            }
        ]

    def finish(self) -> list[dict[str, Any]]:
        return []

    @property
    def strike(self) -> float | None:
        return self._strike if not self._done and self._now >= self._strike else None


def test_pocket_pulses_and_panel_buttons_drive_the_loop(tmp_path: Path, pins: MockFactory) -> None:
    clock = Clock()
    referee = new_referee(tmp_path)
    referee.handle({"cmd": "shot", **SHOTS[0]}, Origin("detector"))  # the break: Ann continues
    inbound: queue.SimpleQueue[Inbound] = queue.SimpleQueue()
    panel = CallPanel(
        {"SR": 22, "ball": 11, "undo": 20},
        {"SR": 23, "FR": 24},
        indicator=8,
        on_command=panel_sink(inbound, clock),
        bounce_time=None,
        blink_time=0.01,
    )
    panel.show(referee.board())
    referee.add_listener(panel_listener(panel))
    sensors = PocketSensors({"SR": 5, "FR": 6}, clock=clock.ns)
    status = Status(
        table="t1",
        source="camera",
        detector="pulses",
        journal_bytes=lambda: 0,
        outbox=lambda: 0,
        seq=lambda: referee.seq,
        clock=clock,
    )

    def press(pin: int) -> Callable[[], None]:
        def act() -> None:
            pins.pin(pin).drive_low()
            pins.pin(pin).drive_high()

        return act

    beam_sr, beam_fr = pins.pin(5), pins.pin(6)
    actions = {
        5: press(22),  # call the lowest ball (the 1) in the right side pocket
        20: beam_sr.drive_low,  # the 1 drops through the SR beam …
        22: beam_sr.drive_high,
        60: press(20),  # … made; then the referee takes the shot back
        70: beam_fr.drive_low,  # a ball stuck in the FR beam: a fault, not a pocketing
    }
    detector = PulseDetector(strike=0.10, rest=0.40, balls={"SR": 1, "FR": "cue"})
    loop = RefereeLoop(
        referee,
        Camera(clock, 400, actions),
        detector,
        live_clock=True,
        inbound=inbound,
        sensors=sensors,
        status=status,
        clock=clock,
    )
    led = pins.pin(23)
    lit_after_call: list[bool] = []
    referee.add_listener(lambda board, ruling: lit_after_call.append(bool(led.state)))

    loop.run()
    panel.close()
    sensors.close()

    assert detector.pulses == [("SR", 0.20)]  # stamped when the beam broke, on the frame clock
    commands = [(e.origin, e.command["cmd"]) for e in referee.journal.entries()]
    assert commands[2:] == [("panel", "call"), ("detector", "shot"), ("panel", "undo")]
    rulings = [e.reply for e in referee.journal.entries() if "seq" in e.reply]
    assert rulings[1]["called_shot_made"] is True
    assert rulings[2]["kind"] == "undo"
    assert lit_after_call == [True, False, True]  # the call lit SR; the shot cleared it; undo
    assert 1 in referee.state.balls_on_table  # the undo put the 1 back
    assert status.snapshot()["sensors"] == "fault: FR"


def test_a_foul_blinks_the_panels_indicator(tmp_path: Path, pins: MockFactory) -> None:
    clock = Clock()
    referee = new_referee(tmp_path)
    panel = CallPanel({}, {}, indicator=8, bounce_time=None, blink_time=0.01, blinks=2)
    referee.add_listener(panel_listener(panel))
    detector = RecordedFactsDetector(
        [
            {
                "t_start": 0.1,
                "t_end": 0.2,
                "first_contact": 1,
                "pocketed": [{"ball": "cue", "pocket": "FR"}],
            }
        ]
    )

    RefereeLoop(referee, Camera(clock, 30), detector, live_clock=True, clock=clock).run()
    indicator = pins.pin(8)
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and len(indicator.states) < 5:
        time.sleep(0.01)
    panel.close()

    assert referee.last_ruling is not None and referee.last_ruling["foul"] is True
    assert [bool(s.state) for s in indicator.states[:5]] == [False, True, False, True, False]


def test_the_watchdog_is_pinged_only_while_frames_flow(tmp_path: Path) -> None:
    address = tmp_path / "notify"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(address))
    # The kernel stamps each datagram as it arrives (the moment it is sent, on a local socket),
    # so a busy machine cannot blur the times by running this test's reader late.
    sock.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMP, 1)
    pings: list[float] = []

    def listen() -> None:
        while True:
            message, ancillary, _, _ = sock.recvmsg(64, socket.CMSG_SPACE(16))
            if message == b"done":
                return
            assert message == b"WATCHDOG=1"
            seconds, micros = struct.unpack("ll", ancillary[0][2][:16])
            pings.append(seconds + micros / 1e6)

    listener = threading.Thread(target=listen)
    listener.start()
    notifier = Notifier(str(address), watchdog_interval=0.1)
    clock = Clock()
    stall: list[float] = []

    def camera_hangs() -> None:
        stall.append(time.time())
        time.sleep(0.6)
        stall.append(time.time())

    camera = Camera(clock, 80, {40: camera_hangs}, pace=0.005)
    loop = RefereeLoop(
        new_referee(tmp_path),
        camera,
        RecordedFactsDetector([]),
        live_clock=True,
        notifier=notifier,
        clock=clock,
    )

    loop.run()
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as done:
        done.sendto(b"done", str(address))
    listener.join(10)
    sock.close()

    hung, resumed = stall
    assert len([t for t in pings if t <= hung]) >= 2  # pinged while frames flowed …
    assert len([t for t in pings if t >= resumed]) >= 2
    assert [t for t in pings if hung < t < resumed] == []  # … and never while the camera hung
    gaps = [b - a for a, b in itertools.pairwise(pings)]
    assert min(gaps) >= 0.049  # never more often than twice per interval


def test_a_notify_socket_nobody_reads_never_blocks_the_loop(tmp_path: Path) -> None:
    address = tmp_path / "notify"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind(str(address))
        ticks = iter(range(1000))
        notifier = Notifier(str(address), watchdog_interval=1.0, clock=lambda: next(ticks))
        started = time.monotonic()
        for _ in range(100):  # Linux queues 10 datagrams on a socket
            notifier.watchdog()
        assert time.monotonic() - started < 1.0
        notifier.close()


def test_notifier_reads_systemds_environment() -> None:
    on = Notifier.from_environment({"NOTIFY_SOCKET": "@/org/x", "WATCHDOG_USEC": "10000000"})
    assert on.enabled and on.watchdog_interval == 10.0
    other = Notifier.from_environment(
        {"NOTIFY_SOCKET": "/run/x", "WATCHDOG_USEC": "10000000", "WATCHDOG_PID": "1"}
    )
    assert other.watchdog_interval is None  # the watchdog is some other process's
    off = Notifier.from_environment({})
    assert not off.enabled
    off.ready("nothing to tell")  # and does nothing


def test_each_shot_is_recorded_with_the_state_before_it(tmp_path: Path) -> None:
    recording = make_recording(tmp_path / "match")
    referee = Referee.open(
        Journal.open(tmp_path / "journal.sqlite"), table="t1", source="rec", publish=False
    )
    referee.handle({"cmd": "new_match", "players": PLAYERS, "race_to": 2}, Origin("setup"))
    source = RecordingSource(recording.path)
    recorder = Recorder(
        tmp_path / "shots",
        fps=source.fps,
        table={"size_mm": [2540, 1270]},
        pre_roll=0.2,
        post_roll=0.1,
        buffer_seconds=1.0,
    )
    loop = RefereeLoop(
        referee,
        source,
        RecordedFactsDetector.from_recording(recording.path),
        live_clock=False,
        inputs=source.inputs,
        recorder=recorder,
    )

    loop.run()
    recorder.close()

    shots = sorted((tmp_path / "shots").iterdir())
    assert len(shots) == 5
    metas = [json.loads((shot / "recording.json").read_text()) for shot in shots]
    assert [m["state"]["phase"] for m in metas[:2]] == ["break", "play"]
    assert metas[1]["state"]["declared"]["call"]["ball"] == 1  # the call made before shot 2
    assert all(m["table_id"] == "t1" for m in metas)
    replayed = RecordingSource(shots[0])
    assert [e.pocket for e in replayed.inputs if isinstance(e, PocketInput)] == ["FL"]


def test_a_camera_after_a_reboot_is_not_skipped_like_a_resumed_recording(tmp_path: Path) -> None:
    clock = Clock()
    first = new_referee(tmp_path)
    first.handle({"cmd": "shot", **SHOTS[0]}, Origin("detector", 5000.0))  # before the reboot
    first.journal.close()
    referee = Referee.open(
        Journal.open(tmp_path / "journal.sqlite"), table="t1", source="camera", publish=False
    )
    assert referee.resume.last_shot_t_end == 5000.0
    detector = RecordedFactsDetector([{"t_start": 0.1, "t_end": 0.3, **SHOTS[1]}])

    RefereeLoop(referee, Camera(clock, 50), detector, live_clock=True, clock=clock).run()

    assert referee.seq == 2  # the monotonic clock restarted at boot: the new shot is ruled
