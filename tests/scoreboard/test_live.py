"""Against a real mosquitto: retained state on connect, live updates, offline, bad payloads,
reconnection, and a venue's tables kept apart — through the LED and terminal views."""

from __future__ import annotations

import io
import json
import logging
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from firmware import topics
from firmware.scoreboard import app, recorded, term, venue
from firmware.scoreboard.font import SMALL
from firmware.scoreboard.led import LAYOUTS
from firmware.scoreboard.model import Model
from firmware.scoreboard.panel import PngOutput
from firmware.scoreboard.recorded import Publication, load_commands, referee_traffic, with_players
from tests.broker import Broker
from tests.scoreboard.ledtext import read_text
from tests.scoreboard.support import Publisher, wait_until

Json = dict[str, Any]
Subscribe = Callable[[str | None], Model]
T1 = topics.Topics("t1")


class Views:
    """Table t1's LED view (PNG frames) and live terminal, on threads until the test ends."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.out = io.StringIO()
        self.stop = threading.Event()

    def start(self, model: Model) -> None:
        output = PngOutput(self.directory)
        runs: list[tuple[Callable[..., None], tuple[Any, ...]]] = [
            (app.run_led, (model, "t1", (64, 32), output, self.stop)),
            (term.run_live, (model, lambda s: term.screen(s, "t1"), self.out, self.stop)),
        ]
        for target, args in runs:
            threading.Thread(target=target, args=args, daemon=True).start()
        wait_until((self.directory / "latest.png").exists)

    def led_message(self) -> str:
        """The LED panel's message line, read back from the latest PNG."""
        image = cv2.imread(str(self.directory / "latest.png"))
        assert image is not None
        frame = np.asarray(image[:, :, ::-1], np.uint8)
        return read_text(frame, (0, LAYOUTS[(64, 32)].messages[0]), SMALL, 16).rstrip()

    def terminal(self) -> str:
        return self.out.getvalue()


@pytest.fixture
def views(tmp_path: Path) -> Iterator[Views]:
    v = Views(tmp_path / "led")
    yield v
    v.stop.set()


def test_the_retained_state_shows_at_once(
    traffic: list[Publication],
    states: list[Json],
    publisher: Publisher,
    subscribe: Subscribe,
    views: Views,
) -> None:
    called = next(i for i, p in enumerate(traffic) if p.payload is states[11])
    publisher.send(*traffic[: called + 1])  # all before the scoreboard started
    model = subscribe("t1")
    wait_until(lambda: model.snapshot().table("t1").state == states[11])
    views.start(model)
    assert views.led_message() == "BALL IN HAND"
    wait_until(lambda: "cue ball IN HAND (anywhere) · called: 2 in SL" in views.terminal())
    assert model.snapshot().table("t1").rulings == ()  # rulings are not retained


def test_every_change_reaches_the_views_and_repeats_are_dropped(
    traffic: list[Publication], publisher: Publisher, subscribe: Subscribe, views: Views
) -> None:
    model = subscribe("t1")
    views.start(model)
    assert views.led_message() == "WAITING"
    publisher.send(*traffic)
    final = traffic[-1].payload
    wait_until(lambda: model.snapshot().table("t1").state == final)
    rulings = [p for p in traffic if p.topic == T1.ruling]
    publisher.send(rulings[-1], rulings[-2])  # QoS 1 repeats after a reconnect
    publisher.send(traffic[-1])
    kept = model.snapshot().table("t1").rulings
    assert [r["seq"] for r in kept] == [31, 30, 29, 28, 27]
    wait_until(lambda: "Ann wins the match" in views.terminal())
    wait_until(lambda: views.led_message() == "ANN WINS MATCH")


def test_an_offline_table_says_so(
    traffic: list[Publication], publisher: Publisher, subscribe: Subscribe, views: Views
) -> None:
    publisher.send(*traffic[:4])
    # What the referee's last will publishes when it drops off the network.
    publisher.raw(T1.status, json.dumps({"online": False}), retain=True)
    model = subscribe("t1")
    wait_until(lambda: model.snapshot().table("t1").online is False)
    views.start(model)
    assert views.led_message() == "TABLE OFFLINE"
    wait_until(lambda: "TABLE t1 IS OFFLINE" in views.terminal())
    publisher.raw(T1.status, json.dumps({"online": True, "fps": 120}), retain=True)
    wait_until(lambda: views.led_message() == "PUSH OUT OK")


def test_malformed_payloads_are_logged_and_ignored(
    traffic: list[Publication],
    publisher: Publisher,
    subscribe: Subscribe,
    caplog: pytest.LogCaptureFixture,
) -> None:
    model = subscribe("t1")
    good = [p.payload for p in traffic if p.topic == T1.state]
    bad = [
        (T1.state, b"\xff not utf-8"),
        (T1.state, b"{truncated"),
        (T1.state, b"[1, 2, 3]"),
        (T1.state, json.dumps({**good[5], "score": {"A": "three"}}).encode()),
        (T1.state, json.dumps({**good[5], "table": "t2"}).encode()),
        (T1.ruling, b'{"reason_code": "foul"}'),
        (T1.status, b'{"online": "yes"}'),
    ]
    with caplog.at_level(logging.WARNING, logger="firmware.scoreboard.subscriber"):
        for topic, payload in bad:
            publisher.raw(topic, payload)
        publisher.send(next(p for p in traffic if p.payload is good[7]))
        wait_until(lambda: model.snapshot().table("t1").state == good[7])
    snapshot = model.snapshot()
    assert snapshot.ignored == len(bad)
    assert (
        snapshot.problem == "tenball/v1/t1/status: status.online: expected true or false, got 'yes'"
    )
    logged = [r.getMessage() for r in caplog.records]
    assert len(logged) == len(bad)
    assert (
        "ignored a message on tenball/v1/t1/state: state.score.A: expected an integer" in logged[3]
    )
    assert "state.table: 't2' arrived on the topic of table 't1'" in logged[4]


def test_the_scoreboard_reconnects_by_itself(
    broker: Broker, traffic: list[Publication], publisher: Publisher, subscribe: Subscribe
) -> None:
    publisher.send(*traffic[:5])
    model = subscribe("t1")
    wait_until(lambda: model.snapshot().table("t1").state == traffic[4].payload)
    publisher.close()
    broker.stop()
    wait_until(lambda: not model.snapshot().connected)
    broker.start()  # same port; the retained state survived (persistence)
    wait_until(lambda: model.snapshot().connected, timeout=10)
    again = Publisher(broker)
    try:
        again.send(*traffic[5:9])
        wait_until(lambda: model.snapshot().table("t1").state == traffic[8].payload)
    finally:
        again.close()


def test_a_venue_keeps_every_table_apart(publisher: Publisher, subscribe: Subscribe) -> None:
    model = subscribe(None)
    tables = {
        f"t{i}": referee_traffic(
            with_players(load_commands(), f"A{i}", f"B{i}"), table=f"t{i}", seed=i
        )
        for i in range(1, 5)
    }
    cut = {"t1": 10, "t2": 30, "t3": 50, "t4": 90}
    merged = sorted(
        (p for table, traffic in tables.items() for p in traffic[: cut[table]]),
        key=lambda p: p.t,
    )
    publisher.send(*merged)
    expected = {t: recorded.states(traffic[: cut[t]])[-1] for t, traffic in tables.items()}
    wait_until(lambda: {t: v.state for t, v in model.snapshot().tables.items()} == expected)
    lines = venue.render_venue(model.snapshot()).splitlines()
    for i in range(1, 5):
        row = next(line for line in lines if line.startswith(f"t{i} "))
        assert f"A{i} – B{i}" in row
    assert "A4 won" in next(line for line in lines if line.startswith("t4 "))
