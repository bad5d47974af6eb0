"""The README's scoreboard screenshots, made from the demo match through a real broker.

    .venv/bin/python -m tests.scoreboard.screenshots [DIR]      # default: docs/images

Every picture is a real view: the web pages in headless Chromium (a TV, a phone in Hebrew, the
venue), the LED panel's PNG frames magnified with a dark pitch between the LEDs, and the
terminal board (its ANSI colours drawn as HTML, then photographed by the same Chromium).
"""

from __future__ import annotations

import html
import re
import sys
import tempfile
import time
from pathlib import Path

import cv2
import numpy as np

from firmware.scoreboard import led, term
from firmware.scoreboard.model import Model, TableView
from firmware.scoreboard.recorded import Publication, load_commands, referee_traffic, with_players
from firmware.scoreboard.subscriber import Address, Subscriber
from firmware.scoreboard.web import WebServer
from tests.broker import running_broker
from tests.scoreboard.browser import Browser, Image
from tests.scoreboard.support import Publisher, wait_until

ROOT = Path(__file__).resolve().parents[2]
# The demo match at rack 2: Bob fouled (no rail), Ann has ball in hand and has called the 4.
SHOWN_STATE = 39
FIRST = [
    "Ann",
    "Bob",
    "Chen",
    "Dana",
    "Eli",
    "Femke",
    "Gal",
    "Hugo",
    "Iris",
    "Jaap",
    "Karin",
    "Lior",
    "Maya",
    "Noa",
    "Omer",
    "Pim",
]
# Fifteen tables, each at another moment of the match (the index of its last state).
VENUE = {f"t{i + 1}": SHOWN_STATE if i == 0 else (7 * i + 3) % 58 for i in range(15)}


def xterm_colour(n: int) -> str:
    """An xterm-256 colour number as CSS."""
    if n < 16:
        basic = [
            "000",
            "800",
            "080",
            "880",
            "008",
            "808",
            "088",
            "ccc",
            "888",
            "f00",
            "0f0",
            "ff0",
            "00f",
            "f0f",
            "0ff",
            "fff",
        ]
        return "#" + basic[n]
    if n < 232:
        r, g, b = ((n - 16) // 36, (n - 16) // 6 % 6, (n - 16) % 6)
        return "#" + "".join(f"{(0 if c == 0 else 55 + 40 * c):02x}" for c in (r, g, b))
    grey = 8 + 10 * (n - 232)
    return f"#{grey:02x}{grey:02x}{grey:02x}"


def ansi_to_html(text: str) -> str:
    out: list[str] = []
    style: dict[str, str] = {}
    for part in re.split(r"(\x1b\[[0-9;]*m)", text):
        codes = re.fullmatch(r"\x1b\[([0-9;]*)m", part)
        if codes is None:
            css = ";".join(f"{k}:{v}" for k, v in style.items())
            out.append(
                f'<span style="{css}">{html.escape(part)}</span>' if css else html.escape(part)
            )
            continue
        values = codes.group(1).split(";")
        if values == ["0"]:
            style = {}
        elif values == ["4"]:
            style["text-decoration"] = "underline"
        elif values[:2] == ["48", "5"]:
            style["background"] = xterm_colour(int(values[2]))
        elif values[:2] == ["38", "5"]:
            style["color"] = xterm_colour(int(values[2]))
    return "".join(out)


def leds(frame: led.Frame, pitch: int = 6) -> Image:
    """The frame as a panel looks: each pixel a lit square, a dark gap between them."""
    big = np.kron(frame, np.ones((pitch, pitch, 1), dtype=np.uint8))
    big[::pitch, :] = big[:, ::pitch] = 12
    return big


def save(path: Path, image: Image, width: int | None = None) -> None:
    if width is not None and image.shape[1] > width:
        height = round(image.shape[0] * width / image.shape[1])
        image = np.asarray(cv2.resize(image, (width, height), interpolation=cv2.INTER_AREA))
    cv2.imwrite(
        str(path), np.ascontiguousarray(image[:, :, ::-1]), [cv2.IMWRITE_PNG_COMPRESSION, 9]
    )
    print(f"{path} {image.shape[1]}x{image.shape[0]}", file=sys.stderr)


def until(traffic: list[Publication], count: int) -> list[Publication]:
    """The traffic up to and including the `count`-th state."""
    states = [i for i, p in enumerate(traffic) if p.topic.endswith("/state")]
    return traffic[: states[count] + 1]


def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp, running_broker(Path(tmp)) as broker:
        publisher = Publisher(broker)
        for i, (table, shown) in enumerate(VENUE.items()):
            names = FIRST[i % len(FIRST)], FIRST[(i + 7) % len(FIRST)]
            traffic = referee_traffic(with_players(load_commands(), *names), table=table, seed=i)
            publisher.send(*until(traffic, shown))
        model = Model()
        subscriber = Subscriber(Address(broker.host, broker.port), model, table=None)
        subscriber.start()
        wait_until(lambda: len(model.snapshot().tables) == len(VENUE))
        wait_until(lambda: all(v.state for v in model.snapshot().tables.values()))
        server = WebServer(model, table=None, address=("127.0.0.1", 0))
        server.start()
        browser = Browser()
        try:
            shots = [
                ("scoreboard-web-tv.png", "table/t1?lang=en", (1920, 1080), False, 960),
                ("scoreboard-web-phone-he.png", "table/t1?lang=he", (390, 844), True, None),
                ("scoreboard-venue.png", "?lang=en", (1920, 1080), False, 960),
            ]
            for name, path, (width, height), mobile, shrink in shots:
                browser.open(server.url + path, width=width, height=height, mobile=mobile)
                browser.wait_for("document.body.dataset.rendered > 1")
                time.sleep(0.3)
                save(out / name, browser.screenshot(), shrink)
            view: TableView = model.snapshot().table("t1")
            for size in [(64, 32), (128, 64)]:
                save(out / f"scoreboard-led-{size[0]}x{size[1]}.png", leds(led.render(view, size)))
            assert view.state is not None
            board = term.render_board(view.state, colour=True)
            page = Path(tmp) / "term.html"
            page.write_text(
                "<body style='margin:0;background:#101010'><pre style='margin:0;padding:12px;"
                'color:#ddd;font:15px/1.25 "DejaVu Sans Mono",monospace\'>'
                f"{ansi_to_html(board)}</pre></body>",
                encoding="utf-8",
            )
            longest = max(len(re.sub(r"\x1b\[[0-9;]*m", "", line)) for line in board.splitlines())
            lines = board.count("\n") + 1
            browser.open(page.as_uri(), width=9 * longest + 40, height=19 * lines + 30)
            browser.wait_for("document.readyState === 'complete'")
            save(out / "scoreboard-term.png", browser.screenshot())
        finally:
            browser.close()
            server.stop()
            subscriber.stop()
            publisher.close()


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "images")
