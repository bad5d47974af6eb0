"""Shared fixtures for the hardware-layer tests: a settable clock (mock pins: tests/conftest.py)."""

from __future__ import annotations

import pytest

from tests.hw.hw_support import FakeClock


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()
