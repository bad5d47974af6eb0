"""Shared fixtures: a real mosquitto broker per test that asks for one, gpiozero's mock pins."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory

from tests.broker import MOSQUITTO, Broker, running_broker


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Broker]:
    if not Path(MOSQUITTO).exists():
        pytest.fail("mosquitto is not installed: ./dev.sh test installs it")
    with running_broker(tmp_path / "broker") as running:
        yield running


@pytest.fixture
def pins() -> Iterator[MockFactory]:
    """gpiozero's own mock pin factory: drive_low()/drive_high() fire callbacks at once."""
    factory = MockFactory()
    previous = Device.pin_factory
    Device.pin_factory = factory
    try:
        yield factory
    finally:
        factory.reset()
        Device.pin_factory = previous
