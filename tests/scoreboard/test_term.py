"""The terminal board and the venue table, on real engine states."""

from __future__ import annotations

import io
import re
import threading
from types import MappingProxyType
from typing import Any, cast

from firmware.scoreboard import term, venue
from firmware.scoreboard.model import Model, Snapshot, TableView
from firmware.scoreboard.payloads import StatePayload
from rules.reasons import render
from tests.scoreboard.support import wait_until

Json = dict[str, Any]
ANSI = re.compile(r"\x1b\[[0-9;]*m")


def _snapshot(*views: TableView, connected: bool = True, ignored: int = 0) -> Snapshot:
    numbered = {
        v.table: TableView(v.table, v.state, v.status, v.rulings, i + 1)
        for i, v in enumerate(views)
    }
    return Snapshot(len(views), connected, MappingProxyType(numbered), ignored, "x: not JSON")


def _view(table: str, state: Json | None, online: bool | None = None) -> TableView:
    status = None if online is None else {"online": online}
    return TableView(table, cast(StatePayload, state), cast(Any, status))


def test_the_board_shows_what_the_players_need(states: list[Json]) -> None:
    text = term.render_board(states[11])
    assert "▶ Ann   0   fouls ··  (broke)" in text
    assert "  Bob   0   fouls ●·" in text
    assert "Balls: ( 2) ( 3) ( 5) ( 6) ( 7) ( 8) ( 9) (10)" in text
    assert "cue ball IN HAND (anywhere) · called: 2 in SL" in text
    assert "#6: Foul by Bob: the cue ball hit the 3 before the 2." in text


def test_the_diagram_puts_the_balls_where_they_rest(states: list[Json]) -> None:
    state = states[11]
    lines = term.render_board(state).splitlines()
    top = next(i for i, line in enumerate(lines) if line.startswith(" O──"))
    body = lines[top + 1 : top + 1 + term.DIAGRAM_ROWS]
    assert lines[top + 1 + term.DIAGRAM_ROWS] == lines[top]
    assert all(len(row) == len(lines[top]) for row in body)
    for ball, (x, y) in state["positions"].items():
        label = "()" if ball == "cue" else f"{int(ball):>2}"
        row = body[int(y / 1270 * term.DIAGRAM_ROWS)]
        column = row.index(label) - 2  # after " │"
        assert abs(column - x / 2540 * term.DIAGRAM_COLUMNS) <= 3, ball


def test_colour_and_the_viewers_language(states: list[Json]) -> None:
    state = states[11]
    coloured = term.render_board(state, colour=True, lang="he")
    assert "\x1b[48;5;21m" in coloured  # the 2 on its blue
    last = state["last_ruling"]
    hebrew = render(last["reason_code"], last["reason_args"], "he")
    assert ANSI.sub("", coloured).endswith(f"#6: {hebrew}")


def test_a_value_this_version_does_not_know_is_shown_as_it_is(states: list[Json]) -> None:
    text = term.render_board({**states[5], "cue_ball": "on_the_moon", "positions": None})
    assert "cue ball on_the_moon" in text


def test_the_live_screen_says_offline_waiting_and_ignored(states: list[Json]) -> None:
    offline = _snapshot(_view("t1", states[5], online=False), ignored=2)
    text = term.screen(offline, "t1")
    assert text.startswith("TABLE t1 IS OFFLINE")
    assert text.endswith("2 malformed message(s) ignored; last: x: not JSON")
    waiting = term.screen(_snapshot(connected=False), "t9")
    assert waiting.splitlines() == [
        "No connection to the broker: reconnecting…",
        "",
        "Waiting for table t9's state…",
    ]


def test_run_live_draws_each_change_once(states: list[Json]) -> None:
    model, out, stop = Model(), io.StringIO(), threading.Event()
    model.set_connected(True)
    thread = threading.Thread(
        target=term.run_live, args=(model, lambda s: term.screen(s, "t1"), out, stop)
    )
    thread.start()
    model.put_state("t1", cast(StatePayload, states[1]), retained=True)
    model.put_state("t1", cast(StatePayload, states[3]), retained=False)
    try:
        wait_until(lambda: "#2: Ann pushed out." in out.getvalue())
    finally:
        stop.set()
        thread.join()
    boards = out.getvalue().split("\nTen-Ball")
    assert out.getvalue().startswith("\nWaiting for table t1's state…")
    assert 1 <= len(boards) - 1 <= 2  # the two states, or both at once


def test_the_venue_lists_every_table_in_order(states: list[Json]) -> None:
    snapshot = _snapshot(
        _view("t10", states[-1]),
        _view("t2", states[11], online=True),
        _view("t3", states[3], online=False),
        _view("t4", None, online=True),
    )
    lines = venue.render_venue(snapshot).splitlines()
    assert lines[0].split() == [
        "table",
        "players",
        "score",
        "race",
        "rack",
        "at",
        "the",
        "table",
        "balls",
        "fouls",
    ]
    rows = {line.split()[0]: line for line in lines[2:6]}
    assert list(rows) == ["t10", "t2", "t3", "t4"]
    assert "Ann won" in rows["t10"]
    assert "Ann (ball in hand)" in rows["t2"] and "2 3 5 6 7 8 9 10" in rows["t2"]
    assert "Bob: play or pass?" in rows["t3"] and rows["t3"].endswith("OFFLINE")
    assert "(no state yet)" in rows["t4"]
    assert lines[-1] == "4 tables"
