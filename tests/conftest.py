"""Shared fixtures: a real mosquitto broker per test that asks for one."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.broker import MOSQUITTO, Broker, running_broker


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Broker]:
    if not Path(MOSQUITTO).exists():
        pytest.fail("mosquitto is not installed: ./dev.sh test installs it")
    with running_broker(tmp_path / "broker") as running:
        yield running
