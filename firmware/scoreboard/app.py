"""`tenball scoreboard`: a scoreboard subscribed to one table, or to a whole venue.

    tenball scoreboard --mqtt HOST[:PORT] --table ID --view led|web|term
    tenball scoreboard --mqtt HOST[:PORT] --venue --view web|term

It needs nothing but the broker: the table's retained state and status show at once, and the
view follows every change until stopped (Ctrl-C, or SIGTERM under systemd).
"""

from __future__ import annotations

import argparse
import logging
import signal
import sys
import threading
from pathlib import Path
from types import FrameType

from firmware.scoreboard import led, term, venue
from firmware.scoreboard.model import Model, Snapshot
from firmware.scoreboard.panel import (
    HARDWARE,
    Output,
    PanelConfig,
    PanelError,
    PngOutput,
    open_panel,
    parse_pixels,
)
from firmware.scoreboard.subscriber import Address, Subscriber, check_table_id
from firmware.scoreboard.web import DEFAULT_PORT, WebServer
from rules import LANGUAGES


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--mqtt", metavar="HOST[:PORT]", help="the broker (port 1883 if not given)")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--table", default="table1", help="the table's id in topics (table1)")
    where.add_argument(
        "--venue", action="store_true", help="every table of the broker (tenball/v1/+/…)"
    )
    parser.add_argument(
        "--view", choices=("led", "web", "term"), default="term", help="which scoreboard (term)"
    )
    parser.add_argument(
        "--lang", choices=LANGUAGES, help="term: the reason in this language (default: the table's)"
    )
    web = parser.add_argument_group("web view")
    web.add_argument("--port", type=int, default=DEFAULT_PORT, help="0 picks a free port")
    web.add_argument("--bind", default="0.0.0.0", help="address to serve on (all by default)")
    panel = parser.add_argument_group("LED view")
    panel.add_argument("--size", default="64x32", choices=led.SIZES, help="the frame in pixels")
    panel.add_argument("--png", type=Path, metavar="DIR", help="write PNG frames, not a panel")
    panel.add_argument(
        "--led-hardware",
        default="adafruit-hat",
        choices=tuple(HARDWARE),
        help="the HUB75 adapter's wiring",
    )
    panel.add_argument(
        "--led-panel", metavar="WxH", help="one physical panel (default 64 wide, frame-high)"
    )
    panel.add_argument("--led-brightness", type=int, default=80, metavar="PERCENT")
    panel.add_argument("--led-slowdown", type=int, metavar="N", help="gpio_slowdown (Pi 4: 4)")
    parser.add_argument("-v", "--verbose", action="store_true", help="log every connection")


def main(args: argparse.Namespace) -> int:
    try:
        address = _address(args.mqtt)
        table = None if args.venue else check_table_id(args.table)
        if table is None and args.view == "led":
            raise ValueError("the LED panel shows one table: give --table, not --venue")
        output = _led_output(args) if args.view == "led" else None
    except (ValueError, PanelError, OSError) as exc:
        print(f"tenball scoreboard: {exc}", file=sys.stderr)
        return 2
    logging.basicConfig(
        level=logging.INFO if args.verbose else logging.WARNING,
        format="tenball scoreboard: %(message)s",
        stream=sys.stderr,
    )
    stop = threading.Event()
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, _raise_interrupt)
    model = Model()
    subscriber = Subscriber(address, model, table=table)
    subscriber.start()
    try:
        if output is not None and table is not None:
            run_led(model, table, led.parse_size(args.size), output, stop)
        elif args.view == "web":
            run_web(model, table, (args.bind, args.port), stop)
        elif table is None:
            term.run_live(model, venue.render_venue, sys.stdout, stop)
        else:
            colour = sys.stdout.isatty()

            def draw(snapshot: Snapshot) -> str:
                return term.screen(snapshot, table, colour=colour, lang=args.lang)

            term.run_live(model, draw, sys.stdout, stop)
    finally:
        stop.set()
        subscriber.stop()
    return 0


def run_led(
    model: Model, table: str, size: tuple[int, int], output: Output, stop: threading.Event
) -> None:
    """Draw the table on `output` now and whenever what it shows changes."""
    version, shown = -1, None
    while not stop.is_set():
        snapshot = model.wait(version, timeout=1.0)
        if snapshot.version == version:
            continue
        version = snapshot.version
        frame = led.render(snapshot.table(table), size, connected=snapshot.connected)
        # Other tables' news and repeated states change nothing on this panel.
        if shown is None or not (frame == shown).all():
            output.show(frame)
            shown = frame


def run_web(
    model: Model, table: str | None, address: tuple[str, int], stop: threading.Event
) -> None:
    server = WebServer(model, table=table, address=address)
    server.start()
    print(f"tenball scoreboard: serving {server.url}", file=sys.stderr, flush=True)
    try:
        stop.wait()
    finally:
        server.stop()


def _address(text: str | None) -> Address:
    if not text:
        raise ValueError("no broker: give --mqtt HOST[:PORT]")
    return Address.parse(text)


def _led_output(args: argparse.Namespace) -> Output:
    size = led.parse_size(args.size)
    if args.png is not None:
        return PngOutput(args.png)
    panel = parse_pixels(args.led_panel) if args.led_panel else None
    config = PanelConfig(args.led_hardware, panel, args.led_brightness, args.led_slowdown)
    return open_panel(size, config)


def _raise_interrupt(signum: int, frame: FrameType | None) -> None:
    # systemd stops with SIGTERM: leave the way Ctrl-C does, through the finally blocks.
    raise KeyboardInterrupt
