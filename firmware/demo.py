"""`tenball demo`: a recorded match through the whole pipeline to a scoreboard, for a newcomer.

The recording (video, pocket-sensor pulses and the players' declarations) runs through
`tenball run` — vision, rules, journal, MQTT — exactly as on a table, into a mosquitto started
for the demo on a free loopback port; the terminal scoreboard and the web page follow it.
Without mosquitto the rulings are shown as the loop prints them, and the demo says so.
"""

from __future__ import annotations

import argparse
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from firmware.scoreboard import term
from firmware.scoreboard.model import Model
from firmware.scoreboard.subscriber import Address, Subscriber
from firmware.scoreboard.web import DEFAULT_PORT, WebServer
from rules import LANGUAGES

DEMO_RECORDING = Path(__file__).resolve().parent.parent / "fixtures" / "tuning" / "whole_rack"
TABLE = "demo"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--recording", type=Path, default=DEMO_RECORDING, help="a recording directory"
    )
    parser.add_argument(
        "--detector",
        choices=("vision", "recorded"),
        default="vision",
        help="shot facts from vision (default) or the recording's truth",
    )
    speed = parser.add_mutually_exclusive_group()
    speed.add_argument("--realtime", action="store_true", help="at the recorded speed")
    speed.add_argument("--fast", action="store_true", help="as fast as it goes")
    parser.add_argument("--lang", choices=LANGUAGES, default="en")
    parser.add_argument("--port", type=int, default=DEFAULT_PORT, help="the web page's port")
    parser.add_argument(
        "--no-broker", action="store_true", help="no MQTT: the loop feeds the terminal board"
    )


def main(args: argparse.Namespace) -> int:
    recording: Path = args.recording
    if not (recording / "recording.json").is_file():
        print(f"tenball demo: {recording}: not a recording directory", file=sys.stderr)
        return 2
    live = sys.stdout.isatty()
    realtime = args.realtime or (live and not args.fast)
    with tempfile.TemporaryDirectory(prefix="tenball-demo-") as scratch:
        work = Path(scratch)
        command = [
            sys.executable, "-m", "firmware.cli", "run", "--source", str(recording),
            "--journal", str(work / "journal.sqlite"), "--table", TABLE,
            "--detector", args.detector, *(["--realtime"] if realtime else []),
        ]  # fmt: skip
        mosquitto = shutil.which("mosquitto") or (
            "/usr/sbin/mosquitto" if Path("/usr/sbin/mosquitto").exists() else None
        )
        if mosquitto is None or args.no_broker:
            why = "asked for no broker" if args.no_broker else "mosquitto is not installed"
            print(
                f"tenball demo: {why}: the referee loop feeds the terminal board itself, "
                "without MQTT (apt install mosquitto for the whole path)",
                flush=True,
            )
            return subprocess.run([*command, "--board"], check=False).returncode
        with _broker(mosquitto, work) as port:
            return _with_broker([*command, "--mqtt", f"127.0.0.1:{port}"], port, args, live)


def _with_broker(command: list[str], port: int, args: argparse.Namespace, live: bool) -> int:
    model = Model()
    subscriber = Subscriber(Address("127.0.0.1", port), model, table=TABLE)
    subscriber.start()
    web = _web(model, args.port)
    stop = threading.Event()
    lang = args.lang

    def draw(snapshot: object) -> str:
        text = term.screen(snapshot, TABLE, colour=live, lang=lang)  # type: ignore[arg-type]
        page = f"\n\n web scoreboard: {web.url}" if web is not None else ""
        return text + page

    board = threading.Thread(target=term.run_live, args=(model, draw, sys.stdout, stop))
    board.start()
    try:
        run = subprocess.run(command, stdout=subprocess.DEVNULL, check=False)
        time.sleep(1.0)  # the last messages reach the board
    finally:
        stop.set()
        board.join()
        subscriber.stop()
        if web is not None:
            web.shutdown()
    rulings = model.snapshot().table(TABLE).state
    seq = rulings["seq"] if rulings else 0
    print(f"\n{seq} rulings from {args.recording.name} ({args.detector} facts).")
    if args.detector == "vision":
        print(
            "How far vision's facts are from the recording's truth: "
            f".venv/bin/tenball evaluate {args.recording}"
        )
    return run.returncode


def _web(model: Model, port: int) -> WebServer | None:
    for candidate in (port, 0):
        try:
            server = WebServer(model, table=TABLE, address=("127.0.0.1", candidate))
        except OSError:
            continue
        threading.Thread(target=server.serve_forever, daemon=True).start()
        return server
    return None


@contextmanager
def _broker(mosquitto: str, work: Path) -> Iterator[int]:
    """mosquitto on a free loopback port, for as long as the demo runs."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = int(probe.getsockname()[1])
    config = work / "mosquitto.conf"
    config.write_text(f"listener {port} 127.0.0.1\nallow_anonymous true\n")
    broker = subprocess.Popen(
        [mosquitto, "-c", str(config)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.05)
        yield port
    finally:
        broker.terminate()
        broker.wait(timeout=10)
