"""The three payloads a scoreboard reads (contracts.md §5–6), checked before any view sees them.

A scoreboard lives on a network it does not control: anything may arrive on a topic. Each
payload is checked for the keys and types the views use and returned unchanged (unknown keys
stay, for forward compatibility); anything else raises `PayloadError` naming the key, so the
subscriber can log it and carry on. After these checks no view needs to defend itself.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from typing import Any, Literal, NotRequired, TypedDict, cast

from rules.model import TABLE_MM_RANGE
from rules.reasons import render

Side = Literal["A", "B"]

PLAYERS: tuple[Side, Side] = ("A", "B")
POCKETS = ("HL", "HR", "SL", "SR", "FL", "FR")
OBJECT_BALLS = range(1, 11)
TABLE_MM = (2540.0, 1270.0)


class PayloadError(ValueError):
    """A payload that is not JSON, or lacks a key a view needs, or has a wrong type."""


class Names(TypedDict):
    A: str
    B: str


class Counts(TypedDict):
    A: int
    B: int


class Flags(TypedDict):
    A: bool
    B: bool


class Call(TypedDict):
    ball: int
    pocket: str


class OptionPending(TypedDict):
    chooser: Side


class LastRuling(TypedDict):
    seq: int
    reason_code: str
    reason_args: NotRequired[dict[str, Any] | None]
    reason: NotRequired[str | None]


class StatePayload(TypedDict):
    seq: int
    table: str
    players: Names
    race_to: int
    score: Counts
    ruleset: str
    rack: int
    breaker: Side
    shooter: Side
    balls_on_table: list[int]
    cue_ball: str
    push_out_available: bool
    option: OptionPending | None
    call: Call | None
    safety: bool
    push_out: bool
    fouls: Counts
    warn: Flags
    match_winner: Side | None
    preset: NotRequired[str | None]
    phase: NotRequired[str | None]
    positions: NotRequired[dict[str, list[float]] | None]
    last_ruling: NotRequired[LastRuling | None]
    rack_result: NotRequired[dict[str, Any] | None]
    lang: NotRequired[str | None]
    table_mm: NotRequired[list[float] | None]


class RulingPayload(TypedDict):
    seq: int
    reason_code: str
    reason_args: NotRequired[dict[str, Any] | None]
    reason: NotRequired[str | None]
    foul: NotRequired[bool | None]


class StatusPayload(TypedDict):
    online: bool


def decode(payload: bytes) -> object:
    try:
        return json.loads(payload.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise PayloadError(f"not UTF-8: {exc.reason}") from None
    except json.JSONDecodeError as exc:
        raise PayloadError(f"not JSON: {exc.msg} at character {exc.pos}") from None


def state(obj: object, *, table: str | None = None) -> StatePayload:
    """A `state` payload; `table` is the table of the topic it came on, which it must name."""
    s = _object(obj, "state")
    _integer(s, "seq", "state", minimum=0)
    name = _string(s, "table", "state")
    if table is not None and name != table:
        raise PayloadError(f"state.table: {name!r} arrived on the topic of table {table!r}")
    for key in ("players", "score", "fouls", "warn"):
        _pair(s, key)
    for side in PLAYERS:
        _string(s["players"], side, "state.players")
        _integer(s["score"], side, "state.score", minimum=0)
        _integer(s["fouls"], side, "state.fouls", minimum=0)
        _boolean(s["warn"], side, "state.warn")
    _integer(s, "race_to", "state", minimum=1)
    _integer(s, "rack", "state", minimum=0)
    _string(s, "ruleset", "state")
    _side(s, "breaker", "state")
    _side(s, "shooter", "state")
    _balls(s)
    _string(s, "cue_ball", "state")
    for key in ("push_out_available", "safety", "push_out"):
        _boolean(s, key, "state")
    option = _optional_object(s, "option", "state", required=True)
    if option is not None:
        _side(option, "chooser", "state.option")
    call = _optional_object(s, "call", "state", required=True)
    if call is not None:
        ball = _integer(call, "ball", "state.call")
        if ball not in OBJECT_BALLS:
            raise PayloadError(f"state.call.ball: {ball} is not an object ball (1–10)")
        if _string(call, "pocket", "state.call") not in POCKETS:
            raise PayloadError(f"state.call.pocket: {call['pocket']!r} is not a pocket code")
    if _get(s, "match_winner", "state") is not None:
        _side(s, "match_winner", "state")
    for key in ("preset", "phase", "lang"):
        if s.get(key) is not None:
            _string(s, key, "state")
    _table_mm(s)
    _positions(s)
    last = _optional_object(s, "last_ruling", "state", required=False)
    if last is not None:
        _reason(last, "state.last_ruling")
    result = _optional_object(s, "rack_result", "state", required=False)
    if result is not None and result.get("winner") is not None:
        _side(result, "winner", "state.rack_result")
    return cast(StatePayload, s)


def ruling(obj: object) -> RulingPayload:
    r = _object(obj, "ruling")
    _reason(r, "ruling")
    if r.get("foul") is not None:
        _boolean(r, "foul", "ruling")
    return cast(RulingPayload, r)


def status(obj: object) -> StatusPayload:
    s = _object(obj, "status")
    _boolean(s, "online", "status")
    return cast(StatusPayload, s)


def reason(ruling: LastRuling | RulingPayload, lang: str) -> str:
    """A ruling's reason in `lang`, rendered from its code and arguments.

    rules.reasons.render fills templates with what the arguments hold, and a crafted foul code
    is itself taken as a template: rather than let one odd ruling break a view for every
    viewer, fall back to the sentence as published, or to the bare code.
    """
    try:
        return render(ruling["reason_code"], ruling.get("reason_args") or {}, lang)
    except (ValueError, TypeError, KeyError, IndexError, AttributeError):
        return ruling.get("reason") or ruling["reason_code"]


def table_size(board: StatePayload) -> tuple[float, float]:
    """The playing surface in mm: the state's own `table_mm` when it says, else 9 ft."""
    size = board.get("table_mm")
    return (float(size[0]), float(size[1])) if size else TABLE_MM


def _object(obj: object, where: str) -> dict[str, Any]:
    if not isinstance(obj, dict):
        raise PayloadError(f"{where}: expected a JSON object, got {type(obj).__name__}")
    return obj


def _get(obj: Mapping[str, Any], key: str, where: str) -> Any:
    if key not in obj:
        raise PayloadError(f"{where}.{key}: missing")
    return obj[key]


def _integer(obj: Mapping[str, Any], key: str, where: str, *, minimum: int | None = None) -> int:
    value = _get(obj, key, where)
    # bool is an int in Python, but `true` is not a number in JSON.
    if not isinstance(value, int) or isinstance(value, bool):
        raise PayloadError(f"{where}.{key}: expected an integer, got {value!r}")
    if minimum is not None and value < minimum:
        raise PayloadError(f"{where}.{key}: {value} is below {minimum}")
    return value


def _number(value: object, where: str) -> float:
    # Python's json reads NaN and Infinity, which are no positions.
    if not isinstance(value, int | float) or isinstance(value, bool) or not math.isfinite(value):
        raise PayloadError(f"{where}: expected a number, got {value!r}")
    return float(value)


def _string(obj: Mapping[str, Any], key: str, where: str) -> str:
    value = _get(obj, key, where)
    if not isinstance(value, str):
        raise PayloadError(f"{where}.{key}: expected a string, got {value!r}")
    return value


def _boolean(obj: Mapping[str, Any], key: str, where: str) -> bool:
    value = _get(obj, key, where)
    if not isinstance(value, bool):
        raise PayloadError(f"{where}.{key}: expected true or false, got {value!r}")
    return value


def _side(obj: Mapping[str, Any], key: str, where: str) -> str:
    value = _get(obj, key, where)
    if value not in PLAYERS:
        raise PayloadError(f'{where}.{key}: expected "A" or "B", got {value!r}')
    return cast(str, value)


def _pair(obj: Mapping[str, Any], key: str) -> None:
    _object(_get(obj, key, "state"), f"state.{key}")


def _optional_object(
    obj: Mapping[str, Any], key: str, where: str, *, required: bool
) -> dict[str, Any] | None:
    value = _get(obj, key, where) if required else obj.get(key)
    return None if value is None else _object(value, f"{where}.{key}")


def _balls(s: Mapping[str, Any]) -> None:
    balls = _get(s, "balls_on_table", "state")
    if not isinstance(balls, list):
        raise PayloadError(f"state.balls_on_table: expected a list, got {balls!r}")
    for ball in balls:
        if not isinstance(ball, int) or isinstance(ball, bool) or ball not in OBJECT_BALLS:
            raise PayloadError(f"state.balls_on_table: {ball!r} is not an object ball (1–10)")
    if len(set(balls)) != len(balls):
        raise PayloadError(f"state.balls_on_table: a ball is listed twice in {balls}")


def _table_mm(s: Mapping[str, Any]) -> None:
    size = s.get("table_mm")
    if size is None:
        return
    if not isinstance(size, list) or len(size) != 2:
        raise PayloadError(f"state.table_mm: expected [length, width] in mm, got {size!r}")
    if not all(
        TABLE_MM_RANGE[0] <= _number(v, "state.table_mm") <= TABLE_MM_RANGE[1] for v in size
    ):
        raise PayloadError(
            f"state.table_mm: sizes must be {TABLE_MM_RANGE[0]:g}–{TABLE_MM_RANGE[1]:g} mm,"
            f" got {size!r}"
        )


def _positions(s: Mapping[str, Any]) -> None:
    positions = s.get("positions")
    if positions is None:
        return
    _object(positions, "state.positions")
    balls = {"cue", *(str(n) for n in OBJECT_BALLS)}
    for ball, xy in positions.items():
        if ball not in balls:
            raise PayloadError(f"state.positions: {ball!r} is not a ball id")
        if not isinstance(xy, list) or len(xy) != 2:
            raise PayloadError(f"state.positions.{ball}: expected [x, y] in mm, got {xy!r}")
        for value in xy:
            _number(value, f"state.positions.{ball}")


def _reason(obj: Mapping[str, Any], where: str) -> None:
    _integer(obj, "seq", where, minimum=0)
    _string(obj, "reason_code", where)
    if obj.get("reason_args") is not None:
        _object(obj["reason_args"], f"{where}.reason_args")
    if obj.get("reason") is not None:
        _string(obj, "reason", where)
