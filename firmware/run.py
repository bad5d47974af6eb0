"""`tenball run`: the referee service — camera or recording in, rulings out on MQTT.

Wiring only: the configuration picks the parts (frame source, shot detector, pocket sensors,
call panel, recorder, broker), the journal rebuilds the match, and :class:`RefereeLoop` runs
until the recording ends or systemd stops the service. Exit statuses: 0 done, 1 failed (a
camera or disk failure: systemd restarts the service), 2 bad usage or input, and
:data:`EXIT_REFUSED` when the journal cannot be trusted — restarting would not help, so the unit
lists it in ``RestartPreventExitStatus=``.
"""

from __future__ import annotations

import argparse
import json
import logging
import queue
import signal
import sys
import time
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from types import FrameType
from typing import Any, Final

from firmware.config import DEFAULT_PATH, Config, ConfigError, MqttSettings, load_config
from firmware.journal import Journal, JournalError
from firmware.loop import RefereeLoop, panel_listener, panel_sink
from firmware.mqtt_link import Inbound, MqttLink
from firmware.outbox import Publisher
from firmware.referee import Defaults, Origin, Referee
from firmware.scoreboard.term import render_board
from firmware.sdnotify import Notifier
from firmware.shots import RecordedFactsDetector, ShotDetector, ShotsError
from firmware.status import Status, StatusReporter
from firmware.vision_detector import VisionShotDetector
from hw.frames import CameraError, FrameSource
from hw.panel import CallPanel
from hw.pockets import PocketSensors
from hw.recorder import GiB, Recorder
from hw.recording import META_FILE, InputEvent, RecordingError, RecordingSource

log = logging.getLogger("tenball.run")

EXIT_OK: Final = 0
EXIT_FAILED: Final = 1
EXIT_USAGE: Final = 2
EXIT_REFUSED: Final = 78
"""The journal is damaged or does not replay (sysexits' EX_CONFIG): refuse, do not restart."""

DETECTORS: Final = ("recorded", "vision")
STOP_DRAIN_SECONDS: Final = 2.0


class UsageError(Exception):
    """Bad arguments or input: exit status 2."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--config",
        type=Path,
        default=None,
        help=f"configuration file (default: {DEFAULT_PATH}, if it exists)",
    )
    parser.add_argument(
        "--source",
        default="camera",
        help="'camera' (the default), a recording directory, or a file in one",
    )
    parser.add_argument("--mqtt", metavar="HOST[:PORT]", help="broker (default: the config's)")
    parser.add_argument("--table", help="the table's id in topics (default: the config's)")
    parser.add_argument("--journal", type=Path, help="journal file (default: the config's)")
    parser.add_argument(
        "--realtime", action="store_true", help="play a recording at its recorded speed"
    )
    parser.add_argument(
        "--detector",
        choices=DETECTORS,
        help="where shot facts come from: 'vision' (the default), or 'recorded' (a "
        "recording's expected.jsonl: the truth a disputed call is reviewed against)",
    )
    parser.add_argument(
        "--board",
        action="store_true",
        help="print the terminal scoreboard after every ruling instead of the rulings' JSON",
    )
    parser.add_argument(
        "--drain-timeout",
        type=float,
        default=30.0,
        metavar="S",
        help="after a recording, wait up to S seconds for the broker to take every message",
    )


def main(args: argparse.Namespace) -> int:
    logging.basicConfig(
        level=logging.INFO, stream=sys.stderr, format="%(levelname)s %(name)s: %(message)s"
    )
    try:
        config = _configure(args)
    except ConfigError as exc:
        for problem in exc.problems:
            print(f"tenball run: {problem.format(exc.path)}", file=sys.stderr)
        return EXIT_USAGE
    except UsageError as exc:
        print(f"tenball run: {exc}", file=sys.stderr)
        return EXIT_USAGE
    try:
        journal = Journal.open(config.journal)
    except (JournalError, OSError) as exc:
        return _refuse(exc)
    try:
        return _run(args, config, journal)
    except JournalError as exc:
        return _refuse(exc)
    except UsageError as exc:
        print(f"tenball run: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except CameraError as exc:
        print(f"tenball run: camera: {exc}", file=sys.stderr)
        return EXIT_FAILED
    except Exception:
        log.exception("the referee failed")
        return EXIT_FAILED
    finally:
        journal.close()


def _refuse(exc: Exception) -> int:
    print(
        f"tenball run: refusing to start: {exc}\n"
        "The match cannot be rebuilt from this journal, and starting a new one would hide "
        "that. Move the file aside (keep it for review) to start afresh.",
        file=sys.stderr,
    )
    return EXIT_REFUSED


def _configure(args: argparse.Namespace) -> Config:
    if args.config is not None:
        config = load_config(args.config)
    elif DEFAULT_PATH.exists():
        config = load_config(DEFAULT_PATH)
    else:
        config = Config()
    if args.table:
        config = replace(config, table=replace(config.table, id=args.table))
    if args.journal:
        config = replace(config, journal=args.journal)
    if args.mqtt:
        host, _, port_text = args.mqtt.rpartition(":") if ":" in args.mqtt else (args.mqtt, "", "")
        try:
            port = int(port_text) if port_text else 1883
        except ValueError:
            raise UsageError(f"--mqtt {args.mqtt}: the port must be a number") from None
        base = config.mqtt or MqttSettings(host=host)
        config = replace(config, mqtt=replace(base, host=host, port=port))
    return config


def _recording_dir(source: str) -> Path | None:
    """The recording a --source names, or None for the camera."""
    if source == "camera":
        return None
    path = Path(source)
    if path.is_dir():
        return path
    if path.is_file() and (path.parent / META_FILE).is_file():
        return path.parent
    if path.exists():
        raise UsageError(f"--source {source}: not a recording directory nor a file in one")
    raise UsageError(f"--source {source}: no such file or directory")


def _camera(config: Config) -> FrameSource:
    camera = config.camera
    if camera.kind == "usb":
        from hw.usbcam import OpenCVCaptureSource

        return OpenCVCaptureSource(
            camera.device, width=camera.width, height=camera.height, fps=camera.fps
        )
    from hw.picamera import PiCamera2Source

    return PiCamera2Source(
        fps=camera.fps,
        lores_width=camera.lores_width,
        main_width=camera.main_width,
        buffer_count=camera.buffer_count,
        controls=camera.controls,
    )


def _detector(
    kind: str, recording: Path | None, table: Mapping[str, Any], referee: Referee
) -> ShotDetector:
    if kind == "recorded":
        if recording is None:
            raise UsageError("--detector recorded needs a recording as --source")
        try:
            return RecordedFactsDetector.from_recording(recording)
        except ShotsError as exc:
            raise UsageError(str(exc)) from None
    if "corners_px" not in table:
        raise UsageError(
            "table.corners_px: missing (the table is not calibrated: see deploy/tenball.toml)"
        )
    vision = VisionShotDetector(table)
    vision.set_on_table(referee.board()["balls_on_table"])
    referee.add_listener(lambda board, _ruling: vision.set_on_table(board["balls_on_table"]))
    return vision


def setup_command(meta: Mapping[str, Any]) -> dict[str, Any]:
    """The command that starts a recording's match (contracts §2): ``load`` its ``state``,
    or else a ``new_match`` with its players, race and rules."""
    command: dict[str, Any]
    if "state" in meta:
        # The players' names sit beside the state in a recording (contracts §2).
        named = {"players": meta["players"]} if "players" in meta else {}
        state = meta["state"] if not isinstance(meta["state"], dict) else named | meta["state"]
        command = {"cmd": "load", "state": state}
        keys: tuple[str, ...] = ("ruleset", "options")
    else:
        command = {"cmd": "new_match"}
        keys = ("players", "race_to", "ruleset", "options", "breaker")
    command.update((key, meta[key]) for key in keys if key in meta)
    size = meta.get("table", {}).get("size_mm") if isinstance(meta.get("table"), dict) else None
    if size is not None:
        command["table_mm"] = size
    command["from"] = "recording"
    return command


def _print_ruling(board: dict[str, Any], ruling: dict[str, Any] | None) -> None:
    if ruling is not None:
        print(json.dumps(ruling, ensure_ascii=False), flush=True)


def _print_board(board: dict[str, Any], ruling: dict[str, Any] | None) -> None:
    if ruling is not None:
        print("\n" + render_board(board, colour=sys.stdout.isatty()), flush=True)


def _run(args: argparse.Namespace, config: Config, journal: Journal) -> int:
    recording_dir = _recording_dir(args.source)
    detector_kind = args.detector or "vision"
    source_id = "camera" if recording_dir is None else f"recording:{recording_dir.resolve()}"
    table = config.table.id
    referee = Referee.open(
        journal,
        table=table,
        source=source_id,
        lang=config.rules.lang,
        defaults=Defaults(config.rules.ruleset, config.rules.options, config.table.size_mm),
        publish=config.mqtt is not None,
    )
    referee.add_listener(_print_board if args.board else _print_ruling)

    source: FrameSource
    inputs: tuple[InputEvent, ...] = ()
    if recording_dir is not None:
        try:
            recording = RecordingSource(recording_dir, realtime=args.realtime)
        except RecordingError as exc:
            raise UsageError(str(exc)) from None
        source, inputs = recording, recording.inputs
        if not referee.resume.started:
            answer = referee.handle(setup_command(recording.info.meta), Origin("setup"))
            if not answer.get("ok"):
                raise UsageError(f"{recording_dir / META_FILE}: cannot start its match: {answer}")
        else:
            log.info(
                "resuming %s after input %d and the shot that ended at %s s",
                recording_dir,
                referee.resume.last_input_no,
                referee.resume.last_shot_t_end,
            )
    table_json = (
        recording.info.table if recording_dir is not None else config.table.recording_table()
    )
    detector = _detector(detector_kind, recording_dir, table_json, referee)
    if recording_dir is None:
        source = _camera(config)

    inbound: queue.SimpleQueue[Inbound] = queue.SimpleQueue()
    link: MqttLink | None = None
    publisher: Publisher | None = None
    loop: RefereeLoop | None = None
    reporter: StatusReporter | None = None
    status = Status(
        table=table,
        source="camera" if recording_dir is None else str(recording_dir),
        detector=detector_kind,
        journal_bytes=journal.size_bytes,
        outbox=lambda: publisher.pending if publisher is not None else 0,
        seq=lambda: referee.seq,
    )
    if config.mqtt is not None:
        link = MqttLink(config.mqtt, referee.topics, inbound=inbound, status=status.snapshot)
        publisher = Publisher(journal.path, link, on_failure=lambda exc: _fail(loop, exc))
        referee.on_journaled(publisher.wake)
        status.broker = lambda: "connected" if link is not None and link.connected else "away"
        publisher.start()
        link.start()
        reporter = StatusReporter(status, link.publish_status, config.status_interval)
        reporter.start()

    sensors: PocketSensors | None = None
    panel: CallPanel | None = None
    recorder: Recorder | None = None
    notifier = Notifier.from_environment()
    try:
        if recording_dir is None:
            pins = config.pins
            if pins.pockets:
                sensors = PocketSensors(pins.pockets)
            if pins.buttons or pins.leds:
                panel = CallPanel(
                    pins.buttons,
                    pins.leds,
                    indicator=pins.indicator,
                    on_command=panel_sink(inbound),
                )
                panel.show(referee.board())
                referee.add_listener(panel_listener(panel))
        if config.recorder.enabled:
            settings = config.recorder
            recorder = Recorder(
                settings.path,
                fps=source.fps,
                table=config.table.recording_table(),
                pre_roll=settings.pre_roll,
                post_roll=settings.post_roll,
                every_nth=settings.every_nth,
                disk_budget=int(settings.disk_budget_gb * GiB),
            )
        loop = RefereeLoop(
            referee,
            source,
            detector,
            live_clock=recording_dir is None,
            inputs=inputs,
            inbound=inbound,
            sensors=sensors,
            recorder=recorder,
            status=status,
            notifier=notifier,
        )
        if publisher is not None and publisher.failed is not None:
            raise publisher.failed  # before the loop was there to be told
        _on_signals(loop)
        notifier.ready(f"refereeing {table} from {status.snapshot()['source']}, seq {referee.seq}")
        log.info("refereeing table %s, seq %d, journal %s", table, referee.seq, journal.path)
        loop.run()
        notifier.stopping()
        if publisher is not None:
            timeout = STOP_DRAIN_SECONDS if loop.stopped else args.drain_timeout
            _drain(loop, publisher, timeout)
    finally:
        if reporter is not None:
            reporter.stop()
        if link is not None:
            link.stop(status.snapshot(online=False))
        if publisher is not None:
            publisher.stop()
        for part in (recorder, sensors, panel, source):
            if part is not None:
                part.close()
    return EXIT_OK


def _drain(loop: RefereeLoop, publisher: Publisher, timeout: float) -> None:
    """Wait for the broker to take the outbox, answering commands meanwhile."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if loop.stopped:  # a stop signal cuts a long wait short
            deadline = min(deadline, time.monotonic() + STOP_DRAIN_SECONDS)
        loop.serve()
        if publisher.drain(min(0.05, max(0.0, deadline - time.monotonic()))):
            return
    log.warning(
        "%d messages not yet taken by the broker; the journal keeps them for the next start",
        publisher.pending,
    )


def _fail(loop: RefereeLoop | None, error: BaseException) -> None:
    if loop is not None:
        loop.fail(error)


def _on_signals(loop: RefereeLoop) -> None:
    def stop(signum: int, frame: FrameType | None) -> None:
        log.info("signal %d: stopping", signum)
        loop.stop()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
