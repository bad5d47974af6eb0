"""Pocket sensors: the debounce and fault logic on injected times, then on gpiozero mock pins."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from gpiozero.pins.mock import MockFactory, MockPin
from hypothesis import given
from hypothesis import strategies as st

from hw.pockets import (
    POCKETS,
    BeamDebouncer,
    PocketPulse,
    PocketSensor,
    PocketSensors,
    SensorEvent,
    SensorFault,
)
from tests.hw.hw_support import FakeClock

MS = 1_000_000
DEAD = 5 * MS
FAULT = 2000 * MS


def debouncer() -> BeamDebouncer:
    return BeamDebouncer("FR", dead_time_ns=DEAD, fault_after_ns=FAULT)


def run(edges: Sequence[tuple[float, bool]], until_ms: float) -> list[SensorEvent]:
    """Feed (ms, blocked) edges, then let time run to ``until_ms``."""
    beam = debouncer()
    out: list[SensorEvent] = []
    for ms, blocked in edges:
        beam.edge(round(ms * MS), blocked, out)
    beam.tick(round(until_ms * MS), out)
    return out


# --- BeamDebouncer -------------------------------------------------------------------------


def test_a_ball_is_one_pulse_confirmed_after_the_dead_time() -> None:
    beam = debouncer()
    out: list[SensorEvent] = []
    beam.edge(100 * MS, True, out)
    beam.edge(120 * MS, False, out)
    beam.tick(124 * MS, out)
    assert out == []  # still within the dead time: the beam may break again
    beam.tick(125 * MS, out)
    assert out == [PocketPulse("FR", 100 * MS, 20 * MS)]
    beam.tick(500 * MS, out)
    assert len(out) == 1


def test_chatter_within_the_dead_time_is_the_same_ball() -> None:
    edges = [(0, True), (10, False), (12, True), (13, False), (14.9, True), (30, False)]
    assert run(edges, until_ms=100) == [PocketPulse("FR", 0, 30 * MS)]


def test_two_balls_back_to_back_are_two_pulses() -> None:
    edges = [(0, True), (20, False), (26, True), (41, False)]
    assert run(edges, until_ms=100) == [
        PocketPulse("FR", 0, 20 * MS),
        PocketPulse("FR", 26 * MS, 15 * MS),
    ]


def test_a_gap_of_exactly_the_dead_time_separates_balls() -> None:
    edges = [(0, True), (20, False), (25, True), (40, False)]
    assert [p.t_ns for p in run(edges, until_ms=100)] == [0, 25 * MS]


def test_a_very_fast_ball_is_never_dropped() -> None:
    edges = [(0, True), (0.2, False)]
    assert run(edges, until_ms=10) == [PocketPulse("FR", 0, 200_000)]


def test_a_beam_blocked_too_long_is_a_fault_not_a_ball() -> None:
    beam = debouncer()
    out: list[SensorEvent] = []
    beam.edge(1000 * MS, True, out)
    beam.tick(2999 * MS, out)
    assert out == []
    beam.tick(3000 * MS, out)
    assert out == [SensorFault("FR", 1000 * MS, blocked=True)]
    assert beam.faulted
    beam.edge(7000 * MS, False, out)
    beam.tick(7004 * MS, out)
    assert len(out) == 1  # recovery waits for the dead time too
    beam.tick(7005 * MS, out)
    assert out[1:] == [SensorFault("FR", 7000 * MS, blocked=False)]
    assert not beam.faulted
    # and it counts balls again
    beam.edge(8000 * MS, True, out)
    beam.edge(8020 * MS, False, out)
    beam.tick(8100 * MS, out)
    assert out[2:] == [PocketPulse("FR", 8000 * MS, 20 * MS)]


def test_a_fault_missed_by_ticks_is_reported_when_the_beam_clears() -> None:
    edges = [(0, True), (3000, False)]
    assert run(edges, until_ms=3010) == [
        SensorFault("FR", 0, blocked=True),
        SensorFault("FR", 3000 * MS, blocked=False),
    ]


def test_a_stuck_ball_rattling_free_is_not_a_new_ball() -> None:
    edges = [(0, True), (2500, False), (2502, True), (2510, False)]
    assert run(edges, until_ms=2600) == [
        SensorFault("FR", 0, blocked=True),
        SensorFault("FR", 2510 * MS, blocked=False),
    ]


def test_a_repeated_level_is_ignored() -> None:
    edges = [(0, True), (5, True), (20, False), (22, False)]
    assert run(edges, until_ms=100) == [PocketPulse("FR", 0, 20 * MS)]


def test_the_dead_time_must_be_shorter_than_the_fault_time() -> None:
    with pytest.raises(ValueError, match="dead_time < fault_after"):
        BeamDebouncer("FR", dead_time_ns=FAULT, fault_after_ns=FAULT)


balls = st.lists(
    st.tuples(
        st.integers(DEAD, 500 * MS),  # clear time before the ball (at least the dead time)
        st.lists(st.integers(MS // 10, 40 * MS), min_size=1, max_size=4),  # beam-broken pieces
        st.lists(st.integers(1, DEAD - 1), min_size=3, max_size=3),  # chatter gaps between
    ),
    max_size=12,
)


@given(balls)
def test_every_ball_is_one_pulse_whatever_the_chatter(
    train: list[tuple[int, list[int], list[int]]],
) -> None:
    beam = debouncer()
    out: list[SensorEvent] = []
    expected = []
    t = 0
    for gap, pieces, chatter in train:
        t += gap
        start = t
        for i, piece in enumerate(pieces):
            if i:
                t += chatter[i - 1]
            beam.edge(t, True, out)
            t += piece
            beam.edge(t, False, out)
            beam.tick(t, out)
        expected.append(PocketPulse("FR", start, t - start))
    beam.tick(t + DEAD, out)
    assert out == expected


# --- PocketSensor / PocketSensors on gpiozero mock pins -----------------------------------


def test_a_pocket_sensor_reads_a_low_pin_as_a_broken_beam(
    pins: MockFactory, clock: FakeClock
) -> None:
    sensor = PocketSensor("SL", 17, clock=clock)
    pin = pins.pin(17)
    assert pin.state  # pulled up: beam intact
    out: list[SensorEvent] = []
    clock.at_ms(1000)
    pin.drive_low()
    clock.at_ms(1018)
    pin.drive_high()
    clock.at_ms(1020)
    sensor.poll(out)
    assert out == []
    clock.at_ms(1023)
    sensor.poll(out)
    assert out == [PocketPulse("SL", 1000 * MS, 18 * MS)]
    assert pin.bounce is None  # a bounce time would swallow fast balls on lgpio
    sensor.close()


def test_a_pocket_sensor_reports_a_blocked_beam_as_a_fault(
    pins: MockFactory, clock: FakeClock
) -> None:
    sensor = PocketSensor("HL", 5, clock=clock, fault_after=1.5)
    out: list[SensorEvent] = []
    clock.at_ms(10)
    pins.pin(5).drive_low()
    clock.at_ms(1509)
    sensor.poll(out)
    assert not sensor.faulted
    clock.at_ms(1510)
    sensor.poll(out)
    assert out == [SensorFault("HL", 10 * MS, blocked=True)]
    assert sensor.faulted


class ShortedPin(MockPin):  # type: ignore[misc]
    """A line held low whatever the pull-up: a beam blocked before the software starts."""

    def _set_pull(self, value: str) -> None:
        super()._set_pull(value)
        self._change_state(False)


def test_a_beam_blocked_at_start_becomes_a_fault(clock: FakeClock) -> None:
    factory = MockFactory(pin_class=ShortedPin)
    try:
        clock.at_ms(50)
        sensor = PocketSensor("FL", 6, clock=clock, pin_factory=factory)
        out: list[SensorEvent] = []
        clock.at_ms(2050)
        sensor.poll(out)
        assert out == [SensorFault("FL", 50 * MS, blocked=True)]
    finally:
        factory.reset()


def test_an_unknown_pocket_is_refused(pins: MockFactory) -> None:
    with pytest.raises(ValueError, match="unknown pocket 'XX'; pockets are HL, HR, SL, SR, FL, FR"):
        PocketSensor("XX", 4)


PIN_MAP = {"HL": 5, "HR": 6, "SL": 13, "SR": 19, "FL": 26, "FR": 21}


def drain(sensors: PocketSensors) -> list[SensorEvent]:
    events = []
    while not sensors.events.empty():
        events.append(sensors.events.get_nowait())
    return events


def test_six_sensors_share_one_queue_in_time_order(pins: MockFactory, clock: FakeClock) -> None:
    sensors = PocketSensors(PIN_MAP, clock=clock)
    assert sensors.pockets == POCKETS
    clock.at_ms(100)
    pins.pin(21).drive_low()  # FR
    clock.at_ms(103)
    pins.pin(5).drive_low()  # HL
    clock.at_ms(110)
    pins.pin(5).drive_high()
    clock.at_ms(125)
    pins.pin(21).drive_high()
    clock.at_ms(200)
    sensors.poll()
    # HL's pulse is listed after FR's: FR broke first, although it cleared last.
    assert drain(sensors) == [
        PocketPulse("FR", 100 * MS, 25 * MS),
        PocketPulse("HL", 103 * MS, 7 * MS),
    ]
    sensors.poll()
    assert drain(sensors) == []
    sensors.close()


def test_the_group_lists_faulted_pockets(pins: MockFactory, clock: FakeClock) -> None:
    sensors = PocketSensors(PIN_MAP, clock=clock, fault_after=1.0)
    pins.pin(13).drive_low()  # SL
    clock.at_ms(1000)
    sensors.poll()
    assert sensors.faulted == ("SL",)
    assert drain(sensors) == [SensorFault("SL", 0, blocked=True)]
    clock.at_ms(1500)
    pins.pin(13).drive_high()
    clock.at_ms(1510)
    sensors.poll()
    assert not sensors.faulted
    assert drain(sensors) == [SensorFault("SL", 1500 * MS, blocked=False)]


def test_a_bad_mapping_releases_the_pins_it_took(pins: MockFactory) -> None:
    with pytest.raises(ValueError, match="unknown pocket 'XL'"):
        PocketSensors({"HL": 5, "XL": 6})
    PocketSensor("HL", 5).close()  # pin 5 is free again
