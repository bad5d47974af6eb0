"""Malformed payloads never crash a view: each is refused by the checks, or every view draws it."""

from __future__ import annotations

import contextlib
import copy
import json
from types import MappingProxyType
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from firmware.scoreboard import led, payloads, term, venue, web
from firmware.scoreboard.model import Snapshot, TableView
from firmware.scoreboard.payloads import PayloadError
from firmware.scoreboard.recorded import load_commands, referee_traffic, states

STATES = states(referee_traffic(load_commands(), table="t1"))
JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 12)
    | st.floats(allow_nan=True)
    | st.text(max_size=4),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3)
    ),
    max_leaves=6,
)


def _paths(obj: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every key and index path into a JSON value."""
    if isinstance(obj, dict):
        items = list(obj.items())
    elif isinstance(obj, list):
        items = list(enumerate(obj))
    else:
        return []
    out = []
    for key, value in items:
        out.append((*prefix, key))
        out += _paths(value, (*prefix, key))
    return out


@st.composite
def mutated_states(draw: st.DrawFn) -> Any:
    state = copy.deepcopy(draw(st.sampled_from(STATES)))
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(_paths(state)))
        parent = state
        for key in path[:-1]:
            parent = parent[key]
        if draw(st.booleans()) and isinstance(parent, dict):
            del parent[path[-1]]
        else:
            parent[path[-1]] = draw(JSON_VALUES)
    return state


def _draw_everywhere(board: payloads.StatePayload) -> None:
    view = TableView("t1", board, {"online": False}, (), 1)
    for size in led.LAYOUTS:
        led.render(view, size)
    term.render_board(board, colour=True, lang="he")
    snapshot = Snapshot(1, True, MappingProxyType({"t1": view}))
    term.screen(snapshot, "t1")
    venue.render_venue(snapshot)
    json.dumps(web.table_message(view))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_states())
def test_a_mutated_state_is_refused_or_drawn_by_every_view(state: Any) -> None:
    try:
        board = payloads.state(payloads.decode(json.dumps(state).encode()), table="t1")
    except PayloadError:
        return
    _draw_everywhere(board)


@settings(max_examples=100, deadline=None)
@given(JSON_VALUES)
def test_any_json_is_refused_or_accepted_never_crashes(value: Any) -> None:
    for check in (payloads.ruling, payloads.status, lambda v: payloads.state(v, table="t1")):
        with contextlib.suppress(PayloadError):
            check(value)


@pytest.mark.parametrize("fouls", [[{"a": 1}], ["{x:+d}"], ["{0}"], ["{"], ["{a.b}"], ["{a[9]}"]])
def test_a_crafted_foul_code_is_shown_as_it_is(fouls: list[Any]) -> None:
    # A foul code the catalogue lacks (a newer referee, or a crafted payload) is shown as
    # text, never used as a template.
    board = copy.deepcopy(STATES[11])
    board["last_ruling"]["reason_code"] = "foul"
    board["last_ruling"]["reason_args"]["fouls"] = fouls
    board["last_ruling"]["reason"] = "Foul."
    _draw_everywhere(payloads.state(board, table="t1"))
    for sentence in web.reasons(board["last_ruling"]).values():
        assert str(fouls[0]) in sentence


def test_every_state_of_the_match_is_drawn() -> None:
    for state in STATES:
        _draw_everywhere(payloads.state(state, table="t1"))
