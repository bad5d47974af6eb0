"""The terminal board: for installers, and for the README's demo.

`render_board` draws one `state` payload as text; `screen` adds what the live view knows
besides (broker link, table offline, ignored messages) and `run_live` redraws it as the model
changes — on a terminal in place, otherwise one board after another (for logs and pipes).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from typing import Any, TextIO, cast

from firmware.scoreboard.model import Model, Snapshot
from firmware.scoreboard.payloads import LastRuling, StatePayload, reason, table_size

Json = Mapping[str, Any]

# WPA ball colours as xterm-256 backgrounds; 9 and 10 are the stripes of 1 and 2.
BALL_COLOURS = {1: 220, 2: 21, 3: 196, 4: 91, 5: 208, 6: 28, 7: 88, 8: 16, 9: 220, 10: 21}
DARK_BALLS = (2, 4, 7, 8, 10)
CUE_BALL_TEXT = {
    "in_place": "in place",
    "in_hand_anywhere": "IN HAND (anywhere)",
    "in_hand_kitchen": "in hand behind the head string",
}
CLEAR = "\x1b[H\x1b[2J"
# Bursts of messages (a venue's tables all at once) are drawn once, not once per message.
REDRAW_INTERVAL = 0.2
# The table diagram: terminal cells are about twice as tall as wide, the table twice as long
# as wide, so four columns per row keep it in proportion (plus one: the side pockets sit in
# the middle).
DIAGRAM_ROWS = 9
DIAGRAM_COLUMNS = 4 * DIAGRAM_ROWS + 1


def _ball(n: int, colour: bool) -> str:
    label = f"{n:>2}"
    if not colour:
        return f"({label})"
    fg = 231 if n in DARK_BALLS else 16
    stripe = "\x1b[4m" if n >= 9 else ""
    return f"\x1b[48;5;{BALL_COLOURS[n]}m\x1b[38;5;{fg}m{stripe} {label} \x1b[0m"


def reason_text(last: Json, lang: str | None) -> str:
    """The ruling's reason: as published, or rendered in `lang` from its code and arguments."""
    if lang is None and last.get("reason"):
        return str(last["reason"])
    return reason(cast(LastRuling, last), lang or "en")


def render_board(board: Json, *, colour: bool = False, lang: str | None = None) -> str:
    """The board as lines of text (ANSI colours when `colour`; the reason in `lang` if given)."""
    names, score, fouls = board["players"], board["score"], board["fouls"]
    to_shoot = board["shooter"] if board["option"] is None else None
    ruleset = board.get("preset") or board["ruleset"]
    lines = [
        f"Ten-Ball · {str(ruleset).upper()} · race to {board['race_to']} · rack {board['rack']}"
        f" · table {board['table']}",
        "",
    ]
    width = max(len(names["A"]), len(names["B"]))
    for player in ("A", "B"):
        marker = "▶" if to_shoot == player and board["match_winner"] is None else " "
        foul_marks = "●" * min(fouls[player], 2) + "·" * max(0, 2 - fouls[player])
        warn = "  WARNING: on two fouls" if board["warn"][player] else ""
        breaks = "  (broke)" if board["breaker"] == player else ""
        name = f"{names[player]:<{width}}"
        lines.append(f" {marker} {name}  {score[player]:>2}   fouls {foul_marks}{warn}{breaks}")
    lines.append("")
    if board["match_winner"] is not None:
        lines.append(f" {names[board['match_winner']]} wins the match.")
    else:
        balls = " ".join(_ball(n, colour) for n in board["balls_on_table"])
        lines.append(f" Balls: {balls}")
        cue = board["cue_ball"]
        status = [f"cue ball {CUE_BALL_TEXT.get(cue, cue)}"]
        if board["push_out_available"]:
            status.append("push-out available")
        if board["option"] is not None:
            status.append(f"{names[board['option']['chooser']]} to play or pass")
        if board["call"] is not None:
            status.append(f"called: {board['call']['ball']} in {board['call']['pocket']}")
        if board["safety"]:
            status.append("safety declared")
        if board["push_out"]:
            status.append("push-out declared")
        lines.append(" " + " · ".join(status))
    if board.get("positions"):
        size = table_size(cast(StatePayload, board))
        lines += ["", *diagram(board["positions"], size, colour=colour)]
    last = board.get("last_ruling")
    if last is not None:
        lines += ["", f" #{last['seq']}: {reason_text(last, lang)}"]
    return "\n".join(lines)


def diagram(
    positions: Mapping[str, list[float]], table_mm: tuple[float, float], *, colour: bool
) -> list[str]:
    """The balls where they rest, seen from above with the head rail on the left."""
    length, width = table_mm
    cells = [[" "] * DIAGRAM_COLUMNS for _ in range(DIAGRAM_ROWS)]
    for ball, (x, y) in sorted(positions.items(), key=lambda item: item[0] != "cue"):
        row = cells[min(DIAGRAM_ROWS - 1, max(0, int(y / width * DIAGRAM_ROWS)))]
        wanted = min(DIAGRAM_COLUMNS - 2, max(0, int(x / length * DIAGRAM_COLUMNS) - 1))
        # A ball is two cells wide (the second folded into the first): balls closer than a
        # cell are drawn side by side, nearest to where they are.
        free = [c for c in range(DIAGRAM_COLUMNS - 1) if row[c] == row[c + 1] == " "]
        if free:
            column = min(free, key=lambda c: abs(c - wanted))
            row[column], row[column + 1] = _diagram_ball(ball, colour), ""
    rail = "─" * (DIAGRAM_COLUMNS // 2)
    top = f" O{rail}O{rail}O"
    return [top, *(f" │{''.join(row)}│" for row in cells), top]


def _diagram_ball(ball: str, colour: bool) -> str:
    if ball == "cue":
        return "\x1b[48;5;255m\x1b[38;5;16m()\x1b[0m" if colour else "()"
    n = int(ball)
    if not colour:
        return f"{n:>2}"
    fg = 231 if n in DARK_BALLS else 16
    return f"\x1b[48;5;{BALL_COLOURS[n]}m\x1b[38;5;{fg}m{n:>2}\x1b[0m"


def status_line(snapshot: Snapshot) -> str | None:
    if not snapshot.connected:
        return "No connection to the broker: reconnecting…"
    return None


def screen(snapshot: Snapshot, table: str, *, colour: bool = False, lang: str | None = None) -> str:
    """Everything the live terminal shows for one table."""
    view = snapshot.table(table)
    lines = [line for line in (status_line(snapshot),) if line]
    if view.online is False:
        lines.append(f"TABLE {table} IS OFFLINE (its referee is not connected)")
    if lines:
        lines.append("")
    if view.state is None:
        lines.append(f"Waiting for table {table}'s state…")
    else:
        lines.append(render_board(view.state, colour=colour, lang=lang))
    if snapshot.ignored:
        lines += ["", f"{snapshot.ignored} malformed message(s) ignored; last: {snapshot.problem}"]
    return "\n".join(lines)


def run_live(
    model: Model, draw: Callable[[Snapshot], str], out: TextIO, stop: threading.Event
) -> None:
    """Draw `draw(snapshot)` now and after every change until `stop` is set."""
    live = out.isatty()
    version = -1
    while not stop.is_set():
        snapshot = model.wait(version, timeout=1.0)
        if snapshot.version == version:
            continue
        version = snapshot.version
        out.write((CLEAR if live else "\n") + draw(snapshot) + "\n")
        out.flush()
        stop.wait(REDRAW_INTERVAL)
