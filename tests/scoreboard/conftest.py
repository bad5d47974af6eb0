"""Fixtures for the scoreboard tests: the demo match's real traffic, a publisher, a browser."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from firmware.scoreboard.model import Model
from firmware.scoreboard.recorded import Publication, load_commands, referee_traffic
from firmware.scoreboard.subscriber import Address, Subscriber
from tests.broker import Broker
from tests.scoreboard.browser import CHROMIUM, Browser
from tests.scoreboard.support import Publisher, wait_until

Json = dict[str, Any]


@pytest.fixture(scope="session")
def traffic() -> list[Publication]:
    """What table t1's referee publishes during the demo match, ruled by the real engine."""
    return referee_traffic(load_commands(), table="t1")


@pytest.fixture(scope="session")
def states(traffic: list[Publication]) -> list[Json]:
    return [p.payload for p in traffic if p.topic.endswith("/state")]


@pytest.fixture
def publisher(broker: Broker) -> Iterator[Publisher]:
    p = Publisher(broker)
    yield p
    p.close()


@pytest.fixture
def subscribe(broker: Broker) -> Iterator[Callable[[str | None], Model]]:
    """Start a subscriber for a table (None: the venue); its model, once connected."""
    started: list[Subscriber] = []

    def start(table: str | None) -> Model:
        model = Model()
        subscriber = Subscriber(Address(broker.host, broker.port), model, table=table)
        subscriber.start()
        started.append(subscriber)
        wait_until(lambda: model.snapshot().connected)
        return model

    yield start
    for subscriber in started:
        subscriber.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    if not Path(CHROMIUM).exists():
        pytest.fail("chromium is not installed: ./dev.sh test installs it")
    b = Browser()
    yield b
    b.close()
