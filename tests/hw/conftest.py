"""Shared fixtures for the hardware-layer tests: gpiozero's mock pins and a settable clock."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory

from tests.hw.hw_support import FakeClock


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


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()
