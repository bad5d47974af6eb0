"""The command itself (`python -m firmware.scoreboard`, which `tenball scoreboard` wraps):
bad usage, and each view started against a real broker as an installer would."""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import threading
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, Any

import cv2
import pytest

from firmware.scoreboard import app, led
from firmware.scoreboard.model import Model
from firmware.scoreboard.recorded import Publication
from tests.broker import Broker
from tests.scoreboard.support import Publisher, wait_until

ROOT = Path(__file__).resolve().parents[2]
Json = dict[str, Any]
# How long a fresh interpreter may take to import OpenCV, connect and show the first state
# while the rest of the suite runs (10 s once ran out in a fresh chroot's full run, 2 cores).
STARTED_S = 30.0


def _command(*args: str) -> list[str]:
    return [sys.executable, "-m", "firmware.scoreboard", *args]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((), "no broker: give --mqtt HOST[:PORT]"),
        (("--mqtt", "host:port"), "'host:port' is not HOST[:PORT]"),
        (("--mqtt", "host:70000"), "port 70000 is out of range"),
        (("--mqtt", "h", "--table", "a/b"), "'a/b' is not a table id"),
        (("--mqtt", "h", "--venue", "--view", "led"), "the LED panel shows one table"),
        (("--mqtt", "h", "--view", "led"), "no LED panel driver here"),
        (("--mqtt", "h", "--view", "led", "--led-panel", "big"), "'big' is not WIDTHxHEIGHT"),
    ],
)
def test_bad_usage_exits_2_naming_the_problem(
    args: tuple[str, ...], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    parser = argparse.ArgumentParser()
    app.add_arguments(parser)
    assert app.main(parser.parse_args(args)) == 2
    assert capsys.readouterr().err.startswith(f"tenball scoreboard: {message}")


@pytest.fixture
def running(broker: Broker, tmp_path: Path) -> Iterator[list[subprocess.Popen[str]]]:
    started: list[subprocess.Popen[str]] = []
    yield started
    for process in started:
        process.terminate()  # SIGTERM, as systemd stops it
        assert process.wait(timeout=10) == 130


def _start(running: list[subprocess.Popen[str]], *args: str) -> subprocess.Popen[str]:
    process = subprocess.Popen(
        _command(*args),
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    running.append(process)
    return process


def _lines(stream: IO[str] | None) -> list[str]:
    """The lines `stream` gives, collected as they come (a test waits on the list)."""
    lines: list[str] = []
    assert stream is not None
    threading.Thread(target=lambda: lines.extend(iter(stream.readline, "")), daemon=True).start()
    return lines


def test_the_terminal_view(
    broker: Broker,
    publisher: Publisher,
    traffic: list[Publication],
    states: list[Json],
    running: list[subprocess.Popen[str]],
) -> None:
    called = next(i for i, p in enumerate(traffic) if p.payload is states[11])
    publisher.send(*traffic[: called + 1])
    output = _lines(_start(running, "--mqtt", broker.address, "--table", "t1").stdout)
    wait_until(lambda: any("#6: Foul by Bob" in line for line in output), timeout=STARTED_S)
    assert any("cue ball IN HAND (anywhere) · called: 2 in SL" in line for line in output)


def test_the_led_view_writes_png_frames(
    broker: Broker,
    publisher: Publisher,
    subscribe: Callable[[str | None], Model],
    traffic: list[Publication],
    running: list[subprocess.Popen[str]],
    tmp_path: Path,
) -> None:
    # What the panel must show is drawn here from an in-process model of the same traffic:
    # whether the app draws a "waiting" frame before the retained state arrives is a race,
    # so the frames are judged by what they show, not by how many there are.
    size = (128, 64)
    frames = tmp_path / "frames"

    def shows(model: Model) -> Callable[[], bool]:
        want = led.render(model.snapshot().table("t1"), size, connected=True)

        def latest_is_it() -> bool:
            latest = cv2.imread(str(frames / "latest.png"))
            return latest is not None and bool((latest[:, :, ::-1] == want).all())

        return latest_is_it

    publisher.send(*traffic[:4])
    model = subscribe("t1")
    wait_until(lambda: model.snapshot().table("t1").state == traffic[3].payload)
    _start(
        running,
        "--mqtt",
        broker.address,
        "--table",
        "t1",
        "--view",
        "led",
        "--size",
        "x".join(map(str, size)),
        "--png",
        str(frames),
    )
    wait_until(shows(model), timeout=STARTED_S)
    before = len(list(frames.glob("frame-*.png")))
    publisher.send(*traffic[4:6])  # the same state again, and a ruling
    wait_until(lambda: traffic[5].payload in model.snapshot().table("t1").rulings)
    wait_until(shows(model), timeout=10)
    assert len(list(frames.glob("frame-*.png"))) > before


def test_the_web_view_serves_the_venue(
    broker: Broker,
    publisher: Publisher,
    traffic: list[Publication],
    running: list[subprocess.Popen[str]],
) -> None:
    publisher.send(*traffic[:4])
    process = _start(
        running,
        "--mqtt",
        broker.address,
        "--venue",
        "--view",
        "web",
        "--bind",
        "127.0.0.1",
        "--port",
        "0",
    )
    assert process.stderr is not None
    served = re.search(r"serving (http://\S+)", process.stderr.readline())
    assert served is not None
    url = served.group(1)
    wait_until(lambda: json.load(urllib.request.urlopen(url + "tables.json")), timeout=STARTED_S)
    (table,) = json.load(urllib.request.urlopen(url + "tables.json"))
    assert table["state"] == traffic[3].payload
    page = urllib.request.urlopen(url).read().decode()
    assert '"mode": "venue"' in page
