"""The call panel on gpiozero mock pins: presses become contracts §4 commands, state lights."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory

from hw.panel import CallPanel, Command, PanelStateError

BUTTONS = {
    "HL": 2,
    "HR": 3,
    "SL": 4,
    "SR": 17,
    "FL": 27,
    "FR": 22,
    "ball": 10,
    "safety": 9,
    "push_out": 11,
    "play": 5,
    "pass": 6,
    "undo": 13,
}
LEDS = {"HL": 14, "HR": 15, "SL": 18, "SR": 23, "FL": 24, "FR": 25}
INDICATOR = 8


def state(**changes: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "seq": 7,
        "shooter": "A",
        "phase": "play",
        "balls_on_table": [9, 3, 5],
        "lowest": 3,
        "call": None,
        "option": None,
        "fouls": {"A": 0, "B": 0},
        "warn": {"A": False, "B": False},
    }
    return base | changes


@pytest.fixture(scope="module")
def panel_pins() -> Iterator[tuple[MockFactory, CallPanel]]:
    # One panel for the module: closing a gpiozero Button waits for its hold thread (up to
    # 0.1 s each), which would make these tests slow.
    factory = MockFactory()
    panel = CallPanel(
        BUTTONS, LEDS, indicator=INDICATOR, blink_time=0.005, blinks=2, pin_factory=factory
    )
    yield factory, panel
    panel.close()
    factory.reset()


@pytest.fixture
def pins(panel_pins: tuple[MockFactory, CallPanel]) -> MockFactory:
    """The panel's pins (this module's own ``pins``, shadowing the conftest one)."""
    return panel_pins[0]


@pytest.fixture
def panel(panel_pins: tuple[MockFactory, CallPanel]) -> CallPanel:
    """The module's panel, as if new: nothing shown, nothing sent, lights off."""
    factory, panel = panel_pins
    panel.show(state(balls_on_table=[], lowest=None, shooter=None))
    panel.warning(False)
    sent(panel)
    factory.pin(INDICATOR).clear_states()
    return panel


@pytest.fixture
def fresh_pins() -> Iterator[MockFactory]:
    """Pins for tests that build panels of their own."""
    factory = MockFactory()
    yield factory
    factory.reset()


def press(pins: MockFactory, name: str) -> None:
    pin = pins.pin(BUTTONS[name])
    pin.drive_low()
    pin.drive_high()


def sent(panel: CallPanel) -> list[Command]:
    commands = []
    while not panel.commands.empty():
        commands.append(panel.commands.get_nowait())
    return commands


def call(ball: int, pocket: str) -> Command:
    return {"cmd": "call", "ball": ball, "pocket": pocket, "source": "explicit", "from": "panel"}


def lit(pins: MockFactory) -> list[str]:
    return [pocket for pocket, pin in LEDS.items() if pins.pin(pin).state]


def test_a_pocket_button_calls_the_lowest_ball(pins: MockFactory, panel: CallPanel) -> None:
    panel.show(state())
    press(pins, "SR")
    assert sent(panel) == [call(3, "SR")]


def test_the_ball_button_steps_through_the_balls_and_recalls(
    pins: MockFactory, panel: CallPanel
) -> None:
    panel.show(state())
    press(pins, "FL")
    for _ in range(4):
        press(pins, "ball")
    assert sent(panel) == [
        call(3, "FL"),
        call(5, "FL"),
        call(9, "FL"),
        call(3, "FL"),
        call(5, "FL"),
    ]


def test_stepping_the_ball_before_the_pocket_sends_nothing_yet(
    pins: MockFactory, panel: CallPanel
) -> None:
    panel.show(state())
    press(pins, "ball")
    assert sent(panel) == []
    assert panel.selected_ball == 5
    press(pins, "HR")
    assert sent(panel) == [call(5, "HR")]


def test_the_called_pocket_is_lit_and_the_selection_follows_the_call(
    pins: MockFactory, panel: CallPanel
) -> None:
    panel.show(state(call={"ball": 5, "pocket": "FL"}))
    assert lit(pins) == ["FL"]
    press(pins, "ball")
    assert sent(panel) == [call(9, "FL")]
    panel.show(state(call={"ball": 9, "pocket": "FL"}))
    assert lit(pins) == ["FL"]
    panel.show(state(call=None, balls_on_table=[5, 9], lowest=5))  # the shot was played
    assert lit(pins) == []
    assert panel.selected_ball == 5
    press(pins, "ball")
    assert sent(panel) == []  # no pocket called in this new position


def test_showing_the_same_state_again_keeps_a_stepped_ball(
    pins: MockFactory, panel: CallPanel
) -> None:
    panel.show(state())
    press(pins, "ball")
    panel.show(state(seq=8))  # e.g. the retained state read again
    assert panel.selected_ball == 5
    panel.show(state(shooter="B"))
    assert panel.selected_ball == 3


def test_play_and_pass_need_a_pending_option(pins: MockFactory, panel: CallPanel) -> None:
    panel.show(state())
    press(pins, "play")
    assert sent(panel) == []
    option = {"chooser": "B", "offered_by": "A", "reason": "push_out", "choices": ["play", "pass"]}
    panel.show(state(option=option))
    press(pins, "play")
    press(pins, "pass")
    assert sent(panel) == [
        {"cmd": "option", "chooser": "B", "choice": "play", "from": "panel"},
        {"cmd": "option", "chooser": "B", "choice": "pass", "from": "panel"},
    ]


def test_declarations_and_undo(pins: MockFactory, panel: CallPanel) -> None:
    for name in ("safety", "push_out", "undo"):
        press(pins, name)
    assert sent(panel) == [
        {"cmd": "safety", "from": "panel"},
        {"cmd": "push_out", "from": "panel"},
        {"cmd": "undo", "from": "panel"},
    ]


def test_a_pocket_press_before_any_state_sends_nothing(pins: MockFactory, panel: CallPanel) -> None:
    press(pins, "HL")
    press(pins, "ball")
    assert sent(panel) == []


def test_commands_can_go_to_a_callback_with_the_device_name(fresh_pins: MockFactory) -> None:
    received: list[Command] = []
    panel = CallPanel(
        {"undo": 19}, {}, on_command=received.append, device="panel-2", pin_factory=fresh_pins
    )
    fresh_pins.pin(19).drive_low()
    assert received == [{"cmd": "undo", "from": "panel-2"}]
    assert panel.commands.empty()
    panel.close()


def test_unknown_buttons_are_refused(fresh_pins: MockFactory) -> None:
    with pytest.raises(ValueError, match="unknown panel buttons: rerack"):
        CallPanel({"rerack": 2}, {}, pin_factory=fresh_pins)
    with pytest.raises(ValueError, match="unknown pocket LEDs: ball"):
        CallPanel({}, {"ball": 2}, pin_factory=fresh_pins)


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        ({"warn": None}, "state: key 'warn' has the wrong type: None"),
        ({"call": {"ball": 3}}, "state: missing key 'call.pocket'"),
        ({"call": {"ball": 3, "pocket": "XX"}}, "state: key 'call.pocket' is 'XX', not a pocket"),
        (
            {"call": {"ball": True, "pocket": "HL"}},
            "state: key 'call.ball' has the wrong type: True",
        ),
        ({"option": {"choices": []}}, "state: missing key 'option.chooser'"),
        ({"balls_on_table": "3,5"}, "state: key 'balls_on_table' has the wrong type: '3,5'"),
        (
            {"balls_on_table": [3, "5"]},
            "state: key 'balls_on_table' must list ball numbers: [3, '5']",
        ),
    ],
)
def test_a_bad_state_names_the_key(panel: CallPanel, bad: dict[str, Any], message: str) -> None:
    with pytest.raises(PanelStateError) as error:
        panel.show(state(**bad))
    assert str(error.value) == message


def test_a_missing_key_is_named(panel: CallPanel) -> None:
    broken = state()
    del broken["shooter"]
    with pytest.raises(PanelStateError, match="state: missing key 'shooter'"):
        panel.show(broken)


def indicator_states(pins: MockFactory) -> list[bool]:
    return [bool(s.state) for s in pins.pin(INDICATOR).states]


def wait_until(condition: Callable[[], bool]) -> None:
    deadline = time.monotonic() + 2.0
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.002)


def test_the_warning_light_follows_the_player_at_the_table(
    pins: MockFactory, panel: CallPanel
) -> None:
    panel.show(state(warn={"A": False, "B": True}))
    assert indicator_states(pins) == [False]
    panel.show(state(shooter="B", warn={"A": False, "B": True}))
    assert indicator_states(pins) == [False, True]
    option = {"chooser": "A", "offered_by": "B", "reason": "push_out", "choices": ["play", "pass"]}
    panel.show(state(shooter="B", option=option, warn={"A": False, "B": True}))
    assert indicator_states(pins) == [False, True, False]  # A is the one to choose and play


def test_a_foul_blinks_then_returns_to_the_warning(pins: MockFactory, panel: CallPanel) -> None:
    panel.foul()
    wait_until(lambda: not panel.blinking and len(indicator_states(pins)) == 5)
    assert indicator_states(pins) == [False, True, False, True, False]
    pins.pin(INDICATOR).clear_states()
    panel.warning(True)
    panel.foul()
    wait_until(lambda: not panel.blinking and len(indicator_states(pins)) == 6)
    assert indicator_states(pins) == [False, True, False, True, False, True]


def test_a_warning_during_a_blink_is_applied_when_it_ends(fresh_pins: MockFactory) -> None:
    panel = CallPanel(
        {}, {}, indicator=INDICATOR, blink_time=0.02, blinks=2, pin_factory=fresh_pins
    )
    panel.foul()
    wait_until(lambda: indicator_states(fresh_pins)[-1])  # the pattern is running
    panel.warning(True)
    wait_until(lambda: not panel.blinking)
    assert indicator_states(fresh_pins) == [False, True, False, True, False, True]
    panel.close()
