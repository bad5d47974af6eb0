"""The call panel at the table: buttons that send commands, lights that show the state."""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable, Iterator, Mapping
from typing import Any, Final, TypeAlias

from gpiozero import LED, Button

from hw.pockets import POCKETS

COMMAND_BUTTONS: Final = ("ball", "safety", "push_out", "play", "pass", "undo")
"""Buttons besides the six pocket buttons (named by pocket code)."""

Command: TypeAlias = dict[str, Any]
"""A command object of contracts §4."""


class PanelStateError(ValueError):
    """The state given to :meth:`CallPanel.show` lacks a key or has a wrong type."""


class CallPanel:
    """Buttons and lights for the shooter's declarations (contracts §4 commands).

    - A pocket button calls that pocket for the selected ball: ``{"cmd": "call", "ball": 4,
      "pocket": "SR", "source": "explicit", "from": "panel"}``. The selected ball is the
      called ball if there is a call, else the lowest ball on the table.
    - ``ball`` steps the selected ball to the next ball on the table (wrapping round); after a
      pocket has been called it re-sends the call with that ball, so the scoreboard shows the
      choice as it is made.
    - ``safety``, ``push_out``, ``undo`` send those commands; ``play`` and ``pass`` send
      ``{"cmd": "option", "chooser": …, "choice": …}`` while an option is pending (the
      chooser comes from the state) and do nothing otherwise.
    - A pocket LED lights the called pocket. The ``indicator`` (an LED, or an active buzzer on
      a transistor) blinks on :meth:`foul` and stays on under :meth:`warning`.

    Wire each button between its GPIO pin and ground (internal pull-ups), each LED through a
    resistor from its pin to ground. Commands go to ``on_command`` (called on gpiozero's
    thread: keep it quick) or, without one, to the :attr:`commands` queue. Feed every new
    scoreboard state (contracts §6) to :meth:`show`::

        from hw.panel import CallPanel

        panel = CallPanel(
            buttons={"HL": 4, "HR": 17, "SL": 27, "SR": 22, "FL": 10, "FR": 9, "ball": 11,
                     "safety": 0, "push_out": 5, "play": 6, "pass": 13, "undo": 19},
            leds={"HL": 14, "HR": 15, "SL": 18, "SR": 23, "FL": 24, "FR": 25},
            indicator=8,
        )
        panel.show(state)
        command = panel.commands.get()
    """

    def __init__(
        self,
        buttons: Mapping[str, int | str],
        leds: Mapping[str, int | str],
        *,
        indicator: int | str | None = None,
        on_command: Callable[[Command], None] | None = None,
        device: str = "panel",
        bounce_time: float | None = 0.05,
        blink_time: float = 0.15,
        blinks: int = 3,
        pin_factory: Any = None,
    ) -> None:
        unknown = set(buttons) - set(POCKETS) - set(COMMAND_BUTTONS)
        if unknown:
            raise ValueError(f"unknown panel buttons: {', '.join(sorted(unknown))}")
        unknown = set(leds) - set(POCKETS)
        if unknown:
            raise ValueError(f"unknown pocket LEDs: {', '.join(sorted(unknown))}")
        self.commands: queue.SimpleQueue[Command] = queue.SimpleQueue()
        self._emit = on_command or self.commands.put
        self._device = device
        self._blinks = blinks
        # Button callbacks (gpiozero's thread) and show() (the loop's) share this state.
        self._lock = threading.Lock()
        self._balls: tuple[int, ...] = ()
        self._selected: int | None = None
        self._called: str | None = None
        self._chooser: str | None = None
        self._shown: tuple[Any, ...] | None = None
        self._warning = False
        self._blinking = False
        self._buttons: dict[str, Button] = {}
        self._leds: dict[str, LED] = {}
        self._indicator: LED | None = None
        try:
            for name, pin in buttons.items():
                button = Button(pin, bounce_time=bounce_time, pin_factory=pin_factory)
                button.when_pressed = self._handler(name)
                self._buttons[name] = button
            for pocket, pin in leds.items():
                self._leds[pocket] = LED(pin, pin_factory=pin_factory)
            if indicator is not None:
                self._indicator = LED(indicator, pin_factory=pin_factory)
                self._indicator.source_delay = blink_time
        except Exception:
            self.close()
            raise

    def _handler(self, name: str) -> Callable[[], None]:
        if name in POCKETS:
            return lambda: self._call_pocket(name)
        if name == "ball":
            return self._next_ball
        if name in ("play", "pass"):
            return lambda: self._option(name)
        return lambda: self._emit({"cmd": name, "from": self._device})

    def _call_pocket(self, pocket: str) -> None:
        with self._lock:
            if self._selected is None:  # no state shown yet: nothing to call
                return
            self._called = pocket
            command = self._call_command(self._selected, pocket)
        self._emit(command)

    def _next_ball(self) -> None:
        with self._lock:
            if not self._balls:
                return
            current = self._selected
            later = [ball for ball in self._balls if current is None or ball > current]
            self._selected = later[0] if later else self._balls[0]
            if self._called is None:
                return
            command = self._call_command(self._selected, self._called)
        self._emit(command)

    def _option(self, choice: str) -> None:
        with self._lock:
            chooser = self._chooser
        if chooser is not None:
            self._emit(
                {"cmd": "option", "chooser": chooser, "choice": choice, "from": self._device}
            )

    def _call_command(self, ball: int, pocket: str) -> Command:
        return {
            "cmd": "call",
            "ball": ball,
            "pocket": pocket,
            "source": "explicit",
            "from": self._device,
        }

    @property
    def selected_ball(self) -> int | None:
        """The ball a pocket button would call now."""
        with self._lock:
            return self._selected

    def show(self, state: Mapping[str, Any]) -> None:
        """Take a scoreboard state (contracts §6) and set the lights and the selection.

        Uses ``call``, ``balls_on_table``, ``lowest``, ``option``, ``warn`` and ``shooter``;
        raises :class:`PanelStateError` naming a missing or mistyped key. Showing the same
        state again (a retained message re-read) keeps a ball stepped with ``ball``.
        """
        call = _key(state, "call", (dict, type(None)))
        balls = _key(state, "balls_on_table", (list, type(None)))
        lowest = _key(state, "lowest", (int, type(None)))
        option = _key(state, "option", (dict, type(None)))
        warn = _key(state, "warn", (dict,))
        shooter = _key(state, "shooter", (str, type(None)))
        called: str | None = None
        selected = lowest
        if call is not None:
            called = _key(call, "pocket", (str,), "call")
            if called not in POCKETS:
                raise PanelStateError(f"state: key 'call.pocket' is {called!r}, not a pocket")
            selected = _key(call, "ball", (int,), "call")
        chooser = None if option is None else _key(option, "chooser", (str,), "option")
        balls = balls or []
        if not all(isinstance(ball, int) and not isinstance(ball, bool) for ball in balls):
            raise PanelStateError(f"state: key 'balls_on_table' must list ball numbers: {balls!r}")
        on_table = tuple(sorted(balls))
        with self._lock:
            self._balls = on_table
            self._chooser = chooser
            shown = (on_table, selected, called, shooter)
            if shown != self._shown:
                self._shown = shown
                self._selected = selected
                self._called = called
        for pocket, led in self._leds.items():
            led.value = pocket == called
        # Whoever comes to the table next: the chooser while an option is pending.
        player = chooser or shooter
        self.warning(bool(warn.get(player, False)) if player is not None else False)

    def foul(self) -> None:
        """Blink the indicator, then return to the warning state."""
        if self._indicator is not None:
            with self._lock:
                self._blinking = True
            # Setting a new source stops a pattern still running (gpiozero joins its thread).
            self._indicator.source = self._foul_pattern()

    def _foul_pattern(self) -> Iterator[bool]:
        with self._lock:
            self._blinking = True
        for _ in range(self._blinks):
            yield True
            yield False
        # The last value is written under the lock, so a warning() that arrived while the
        # pattern ran is neither lost nor overwritten by a stale one.
        with self._lock:
            self._blinking = False
            if self._indicator is not None:
                self._indicator.value = self._warning

    @property
    def blinking(self) -> bool:
        """The foul pattern is running."""
        with self._lock:
            return self._blinking

    def warning(self, on: bool) -> None:
        """Light the indicator steadily (the player at the table is on two fouls) or not."""
        with self._lock:
            self._warning = on
            if self._indicator is not None and not self._blinking:
                self._indicator.value = on

    def close(self) -> None:
        for device in (*self._buttons.values(), *self._leds.values(), self._indicator):
            if device is not None:
                device.close()


def _key(obj: Mapping[str, Any], key: str, kinds: tuple[type, ...], parent: str = "") -> Any:
    name = f"{parent}.{key}" if parent else key
    if key not in obj:
        raise PanelStateError(f"state: missing key {name!r}")
    value = obj[key]
    # bool is an int in Python but never a ball number.
    if isinstance(value, bool) or not isinstance(value, kinds):
        raise PanelStateError(f"state: key {name!r} has the wrong type: {value!r}")
    return value
