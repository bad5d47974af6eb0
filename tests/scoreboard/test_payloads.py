"""The payload checks: every engine state passes; anything else fails naming the key."""

from __future__ import annotations

import copy
import json
import re
from typing import Any

import pytest

from firmware.scoreboard import payloads
from firmware.scoreboard.payloads import PayloadError
from firmware.scoreboard.recorded import Publication

Json = dict[str, Any]


def test_every_payload_of_a_real_match_passes(traffic: list[Publication]) -> None:
    kinds = {"state": 0, "ruling": 0, "status": 0}
    for p in traffic:
        kind = p.topic.rsplit("/", 1)[1]
        obj = payloads.decode(p.encoded())
        if kind == "state":
            assert payloads.state(obj, table="t1") == p.payload
        elif kind == "ruling":
            assert payloads.ruling(obj) == p.payload
        else:
            assert payloads.status(obj) == p.payload
        kinds[kind] += 1
    assert kinds == {"state": 58, "ruling": 31, "status": 1}


def _changed(state: Json, path: str, value: object) -> Json:
    changed = copy.deepcopy(state)
    *parents, key = path.split(".")
    target = changed
    for parent in parents:
        target = target[parent]
    if value is DELETE:
        del target[key]
    else:
        target[key] = value
    return changed


DELETE = object()


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        ("seq", DELETE, "state.seq: missing"),
        ("seq", True, "state.seq: expected an integer, got True"),
        ("seq", -1, "state.seq: -1 is below 0"),
        ("players", ["Ann", "Bob"], "state.players: expected a JSON object"),
        ("players.B", None, "state.players.B: expected a string"),
        ("score.A", "3", "state.score.A: expected an integer"),
        ("fouls.B", DELETE, "state.fouls.B: missing"),
        ("warn.A", 0, "state.warn.A: expected true or false"),
        ("shooter", "C", 'state.shooter: expected "A" or "B"'),
        ("balls_on_table", [3, 11], "state.balls_on_table: 11 is not an object ball"),
        ("balls_on_table", [3, 3], "listed twice"),
        ("balls_on_table", "3 4", "state.balls_on_table: expected a list"),
        ("cue_ball", None, "state.cue_ball: expected a string"),
        ("option", {"chooser": "C"}, 'state.option.chooser: expected "A" or "B"'),
        ("call", {"ball": 0, "pocket": "SL"}, "state.call.ball: 0 is not an object ball"),
        ("call", {"ball": 2, "pocket": "XX"}, "state.call.pocket: 'XX' is not a pocket code"),
        ("match_winner", DELETE, "state.match_winner: missing"),
        ("positions", {"cue": [1.0]}, "state.positions.cue: expected [x, y]"),
        ("positions", {"11": [1.0, 2.0]}, "state.positions: '11' is not a ball id"),
        ("positions", {"3": [float("nan"), 2.0]}, "state.positions.3: expected a number"),
        ("table_mm", [2540, 0], "state.table_mm: sizes must be 100–10000 mm"),
        ("table_mm", [1e-308, 1270], "state.table_mm: sizes must be 100–10000 mm"),
        ("table_mm", [2540, 1e300], "state.table_mm: sizes must be 100–10000 mm"),
        ("last_ruling", {"seq": 3}, "state.last_ruling.reason_code: missing"),
        ("last_ruling", {"seq": 3, "reason_code": "x", "reason_args": []}, "reason_args"),
        ("rack_result", {"winner": "Z"}, 'state.rack_result.winner: expected "A" or "B"'),
    ],
)
def test_a_wrong_state_names_the_key(
    states: list[Json], path: str, value: object, message: str
) -> None:
    with pytest.raises(PayloadError, match=re.escape(message)):
        payloads.state(_changed(states[11], path, value), table="t1")


def test_unknown_keys_and_absent_optional_keys_are_fine(states: list[Json]) -> None:
    state = {**states[11], "brand_new_key": {"anything": [1, 2]}}
    for key in ("preset", "phase", "positions", "last_ruling", "rack_result", "lang"):
        del state[key]
    assert payloads.state(state, table="t1") is state


def test_a_state_for_another_table_is_refused(states: list[Json]) -> None:
    with pytest.raises(
        PayloadError, match=re.escape("state.table: 't1' arrived on the topic of table 't2'")
    ):
        payloads.state(states[0], table="t2")


@pytest.mark.parametrize(
    ("raw", "message"),
    [(b"\xff\xfe", "not UTF-8"), (b"{nope", "not JSON"), (b"", "not JSON")],
)
def test_undecodable_payloads(raw: bytes, message: str) -> None:
    with pytest.raises(PayloadError, match=message):
        payloads.decode(raw)


def test_rulings_and_status() -> None:
    with pytest.raises(PayloadError, match=re.escape("ruling: expected a JSON object, got list")):
        payloads.ruling([1])
    with pytest.raises(PayloadError, match=re.escape("ruling.seq: missing")):
        payloads.ruling({"reason_code": "foul"})
    with pytest.raises(PayloadError, match=re.escape("ruling.foul: expected true or false")):
        payloads.ruling({"seq": 1, "reason_code": "foul", "foul": "yes"})
    with pytest.raises(PayloadError, match=re.escape("status.online: expected true or false")):
        payloads.status(json.loads('{"online": "false"}'))
    assert payloads.status({"online": False, "fps": 0}) == {"online": False, "fps": 0}


def test_table_size_is_nine_foot_unless_the_state_says(states: list[Json]) -> None:
    board = payloads.state(states[3], table="t1")
    assert payloads.table_size(board) == (2540.0, 1270.0)
    eight_foot = payloads.state({**states[3], "table_mm": [2235, 1118]}, table="t1")
    assert payloads.table_size(eight_foot) == (2235.0, 1118.0)
