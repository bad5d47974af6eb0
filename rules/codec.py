"""JSON in and out: commands, facts and state from plain objects, rulings and state to them.

Input is checked strictly: a missing required key or a wrong type raises `InputError` naming
the key; unknown keys are ignored (contracts.md: forward compatibility).
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import Any, TypeVar

from rules.commands import (
    Command,
    Declare,
    FoulBetweenShots,
    Load,
    NewMatch,
    OptionChoice,
    QueryState,
    Referee,
    RefereeAction,
    Shot,
    Undo,
)
from rules.errors import InputError
from rules.model import (
    CUE,
    NO_DECLARATIONS,
    OBJECT_BALLS,
    TABLE_9FT,
    TABLE_MM_RANGE,
    BallId,
    Call,
    CallSource,
    Choice,
    CueBall,
    Declarations,
    Foul,
    MatchState,
    OptionReason,
    PendingOption,
    PerPlayer,
    Phase,
    Player,
    Pocket,
    Pocketing,
    Positions,
    RackEnd,
    RackResult,
    Rail,
    RailContact,
    ShotFacts,
    Stalemate,
)
from rules.options import Options, resolve_options
from rules.ruling import Ruling

E = TypeVar("E", bound=StrEnum)
Json = dict[str, Any]
_MISSING = object()


# ----- small typed readers ------------------------------------------------------------------


def _obj(value: object, where: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise InputError(f"{where}: expected an object, got {_kind(value)}")
    return value


def _kind(value: object) -> str:
    if value is None:
        return "null"
    return {bool: "a boolean", int: "a number", float: "a number", str: "a string"}.get(
        type(value), "a list" if isinstance(value, list) else "an object"
    )


def _field(obj: Mapping[str, Any], key: str, where: str, default: object = _MISSING) -> Any:
    if key in obj:
        return obj[key]
    if default is _MISSING:
        raise InputError(f"{where}{key}: required")
    return default


def _bool(value: object, where: str) -> bool:
    if not isinstance(value, bool):
        raise InputError(f"{where}: expected true or false, got {value!r}")
    return value


def _int(value: object, where: str, lo: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < lo:
        raise InputError(f"{where}: expected a whole number ≥ {lo}, got {value!r}")
    return value


def _num(value: object, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise InputError(f"{where}: expected a number, got {value!r}")
    return float(value)


def _enum(kind: type[E], value: object, where: str) -> E:
    allowed = [m.value for m in kind]
    if not isinstance(value, str) or value not in allowed:
        raise InputError(f"{where}: expected one of {', '.join(allowed)}, got {value!r}")
    return kind(value)


def _list(value: object, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise InputError(f"{where}: expected a list, got {_kind(value)}")
    return value


def object_ball(value: object, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value not in OBJECT_BALLS:
        raise InputError(f"{where}: expected an object ball 1–10, got {value!r}")
    return value


def ball_id(value: object, where: str) -> BallId:
    if value == CUE:
        return CUE
    if isinstance(value, bool) or not isinstance(value, int) or value not in OBJECT_BALLS:
        raise InputError(f'{where}: expected a ball 1–10 or "cue", got {value!r}')
    return value


def _player(value: object, where: str) -> Player:
    return _enum(Player, value, where)


def _per_player_int(value: object, where: str) -> PerPlayer[int]:
    obj = _obj(value, where)
    return PerPlayer(
        _int(_field(obj, "A", f"{where}."), f"{where}.A"),
        _int(_field(obj, "B", f"{where}."), f"{where}.B"),
    )


# ----- facts and declarations ---------------------------------------------------------------


def parse_call(obj: Mapping[str, Any], where: str = "") -> Call:
    return Call(
        ball=object_ball(_field(obj, "ball", where), f"{where}ball"),
        pocket=_enum(Pocket, _field(obj, "pocket", where), f"{where}pocket"),
        source=_enum(CallSource, obj.get("source", "explicit"), f"{where}source"),
    )


def parse_declarations(value: object, where: str = "declared") -> Declarations:
    obj = _obj(value, where)
    call = obj.get("call")
    return Declarations(
        call=None if call is None else parse_call(_obj(call, f"{where}.call"), f"{where}.call."),
        safety=_bool(obj.get("safety", False), f"{where}.safety"),
        push_out=_bool(obj.get("push_out", False), f"{where}.push_out"),
    )


def parse_positions(value: object, where: str = "positions") -> Positions:
    obj = _obj(value, where)
    out: list[tuple[BallId, tuple[float, float]]] = []
    for key, pos in obj.items():
        ball = ball_id(key if key == CUE else _int_key(key, f"{where}.{key}"), f"{where}.{key}")
        xy = _list(pos, f"{where}.{key}")
        if len(xy) != 2:
            raise InputError(f"{where}.{key}: expected [x, y] in mm")
        out.append((ball, (_num(xy[0], f"{where}.{key}[0]"), _num(xy[1], f"{where}.{key}[1]"))))
    return tuple(out)


def _int_key(key: str, where: str) -> int:
    try:
        return int(key)
    except ValueError:
        raise InputError(f'{where}: expected a ball number or "cue" as key') from None


def parse_facts(obj: Mapping[str, Any], where: str = "") -> ShotFacts:
    """Shot facts (contracts.md §3); `declared` and `other_fouls` may be inline."""
    first = obj.get("first_contact")
    rails = []
    for i, item in enumerate(
        _list(obj.get("rails_after_contact", []), f"{where}rails_after_contact")
    ):
        at = f"{where}rails_after_contact[{i}]"
        contact = _obj(item, at)
        rails.append(
            RailContact(
                ball=ball_id(_field(contact, "ball", f"{at}."), f"{at}.ball"),
                rail=_enum(Rail, _field(contact, "rail", f"{at}."), f"{at}.rail"),
                frozen_no_leave=_bool(
                    contact.get("frozen_no_leave", False), f"{at}.frozen_no_leave"
                ),
            )
        )
    pocketed = []
    for i, item in enumerate(_list(obj.get("pocketed", []), f"{where}pocketed")):
        at = f"{where}pocketed[{i}]"
        drop = _obj(item, at)
        pocketed.append(
            Pocketing(
                ball=ball_id(_field(drop, "ball", f"{at}."), f"{at}.ball"),
                pocket=_enum(Pocket, _field(drop, "pocket", f"{at}."), f"{at}.pocket"),
            )
        )
    rail_balls = obj.get("break_rail_balls")
    declared = obj.get("declared")
    positions = obj.get("positions")
    return ShotFacts(
        first_contact=None if first is None else object_ball(first, f"{where}first_contact"),
        first_contact_tie=tuple(
            object_ball(b, f"{where}first_contact_tie[{i}]")
            for i, b in enumerate(
                _list(obj.get("first_contact_tie", []), f"{where}first_contact_tie")
            )
        ),
        rails_after_contact=tuple(rails),
        break_rail_balls=None
        if rail_balls is None
        else _int(rail_balls, f"{where}break_rail_balls"),
        pocketed=tuple(pocketed),
        off_table=tuple(
            ball_id(b, f"{where}off_table[{i}]")
            for i, b in enumerate(_list(obj.get("off_table", []), f"{where}off_table"))
        ),
        other_fouls=tuple(
            _enum(Foul, f, f"{where}other_fouls[{i}]")
            for i, f in enumerate(_list(obj.get("other_fouls", []), f"{where}other_fouls"))
        ),
        cue_ball_placed_touching=tuple(
            object_ball(b, f"{where}cue_ball_placed_touching[{i}]")
            for i, b in enumerate(
                _list(obj.get("cue_ball_placed_touching", []), f"{where}cue_ball_placed_touching")
            )
        ),
        positions=None if positions is None else parse_positions(positions, f"{where}positions"),
        declared=None if declared is None else parse_declarations(declared, f"{where}declared"),
    )


# ----- state --------------------------------------------------------------------------------


def _names(value: object) -> PerPlayer[str]:
    if isinstance(value, list):
        if len(value) != 2 or not all(isinstance(n, str) for n in value):
            raise InputError("players: expected two names")
        return PerPlayer(value[0], value[1])
    obj = _obj(value, "players")
    a, b = _field(obj, "A", "players."), _field(obj, "B", "players.")
    if not isinstance(a, str) or not isinstance(b, str):
        raise InputError("players: names must be strings")
    return PerPlayer(a, b)


def _table_mm(value: object) -> tuple[float, float]:
    items = _list(value, "table_mm")
    if len(items) != 2:
        raise InputError("table_mm: expected [length, width] in mm")
    length, width = _num(items[0], "table_mm[0]"), _num(items[1], "table_mm[1]")
    low, high = TABLE_MM_RANGE
    if not low <= width < length <= high:
        raise InputError(f"table_mm: expected {low:g} <= width < length <= {high:g} (mm)")
    return (length, width)


def _pending_option(value: object) -> PendingOption | None:
    if value is None:
        return None
    obj = _obj(value, "pending_option")
    return PendingOption(
        chooser=_player(_field(obj, "chooser", "pending_option."), "pending_option.chooser"),
        offered_by=_player(
            _field(obj, "offered_by", "pending_option."), "pending_option.offered_by"
        ),
        reason=_enum(
            OptionReason, _field(obj, "reason", "pending_option."), "pending_option.reason"
        ),
    )


def _stalemate(value: object) -> Stalemate | None:
    if value is None:
        return None
    obj = _obj(value, "stalemate")
    return Stalemate(
        announced=_bool(obj.get("announced", True), "stalemate.announced"),
        turns_left=_per_player_int(obj.get("turns_left", {"A": 3, "B": 3}), "stalemate.turns_left"),
    )


def _rack_result(value: object) -> RackResult | None:
    if value is None:
        return None
    obj = _obj(value, "rack_result")
    if obj.get("stalemate") is True:
        return RackResult(None, RackEnd.STALEMATE)
    return RackResult(
        winner=_player(_field(obj, "winner", "rack_result."), "rack_result.winner"),
        reason=_enum(RackEnd, _field(obj, "reason", "rack_result."), "rack_result.reason"),
    )


def _optional_player(obj: Mapping[str, Any], key: str) -> Player | None:
    value = obj.get(key)
    return None if value is None else _player(value, key)


def parse_state(value: object, ruleset: object = None, options: object = None) -> MatchState:
    """A state in the `given` shape of rules.md §10, or the engine's full state.

    Absent keys take the value of a new match; `ruleset`/`options` given beside the state
    override those stored in it.
    """
    obj = _obj(value, "state")
    options_obj = options if options is not None else obj.get("options")
    resolved: Options = resolve_options(
        ruleset if ruleset is not None else obj.get("ruleset"), options_obj
    )
    balls = frozenset(
        object_ball(b, f"balls_on_table[{i}]")
        for i, b in enumerate(
            _list(obj.get("balls_on_table", sorted(OBJECT_BALLS)), "balls_on_table")
        )
    )
    phase = _enum(Phase, obj.get("phase", "break"), "phase")
    shooter = _player(obj.get("shooter", "A"), "shooter")
    breaker = _player(obj.get("breaker", shooter.value), "breaker")
    if phase is not Phase.MATCH_OVER and not balls:
        raise InputError("balls_on_table: empty while the rack goes on")
    positions = obj.get("positions")
    race_to = _int(obj.get("race_to", 7), "race_to", lo=1)
    score = _per_player_int(obj.get("score", {"A": 0, "B": 0}), "score")
    match_winner = _optional_player(obj, "match_winner")
    if match_winner is None and max(score.a, score.b) >= race_to:
        match_winner = Player.A if score.a >= race_to else Player.B
    if match_winner is not None:
        # A match with a winner is over, whatever phase the given state names.
        phase = Phase.MATCH_OVER
    return MatchState(
        options=resolved,
        names=_names(obj.get("players", {"A": "A", "B": "B"})),
        race_to=race_to,
        score=score,
        table_mm=_table_mm(obj.get("table_mm", list(TABLE_9FT))),
        rack=_int(obj.get("rack", 1), "rack", lo=1),
        breaker=breaker,
        first_breaker=_player(obj.get("first_breaker", breaker.value), "first_breaker"),
        last_rack_winner=_optional_player(obj, "last_rack_winner"),
        rack_result=_rack_result(obj.get("rack_result")),
        match_winner=match_winner,
        phase=phase,
        shooter=shooter,
        balls_on_table=balls,
        cue_ball=_enum(
            CueBall,
            obj.get("cue_ball", "in_hand_kitchen" if phase is Phase.BREAK else "in_place"),
            "cue_ball",
        ),
        push_out_available=_bool(obj.get("push_out_available", False), "push_out_available"),
        pending_option=_pending_option(obj.get("pending_option")),
        fouls=_per_player_int(obj.get("fouls", {"A": 0, "B": 0}), "fouls"),
        warned=_bool(obj.get("warned", False), "warned"),
        stalemate=_stalemate(obj.get("stalemate")),
        declared=parse_declarations(obj["declared"]) if "declared" in obj else NO_DECLARATIONS,
        positions=None if positions is None else parse_positions(positions),
        shots_in_rack=_int(obj.get("shots_in_rack", 0), "shots_in_rack"),
    )


def new_match_state(obj: Mapping[str, Any]) -> MatchState:
    breaker = _player(obj.get("breaker", "A"), "breaker")
    return MatchState(
        options=resolve_options(obj.get("ruleset"), obj.get("options")),
        names=_names(obj.get("players", {"A": "A", "B": "B"})),
        race_to=_int(obj.get("race_to", 7), "race_to", lo=1),
        table_mm=_table_mm(obj.get("table_mm", list(TABLE_9FT))),
        breaker=breaker,
        first_breaker=breaker,
        shooter=breaker,
    )


# ----- commands -----------------------------------------------------------------------------


def parse_command(value: object) -> Command:
    """A command object of contracts.md §4."""
    obj = _obj(value, "command")
    name = _field(obj, "cmd", "")
    if not isinstance(name, str):
        raise InputError(f"cmd: expected a string, got {_kind(name)}")
    if name == "new_match":
        return NewMatch(new_match_state(obj))
    if name == "load":
        return Load(parse_state(_field(obj, "state", ""), obj.get("ruleset"), obj.get("options")))
    if name == "call":
        return Declare(call=parse_call(obj))
    if name == "safety":
        return Declare(safety=True)
    if name == "push_out":
        return Declare(push_out=True)
    if name == "shot":
        return Shot(parse_facts(obj))
    if name == "option":
        return OptionChoice(
            chooser=_player(_field(obj, "chooser", ""), "chooser"),
            choice=_enum(Choice, _field(obj, "choice", ""), "choice"),
        )
    if name == "foul":
        return FoulBetweenShots(
            player=_player(_field(obj, "player", ""), "player"),
            foul=_enum(Foul, _field(obj, "foul", ""), "foul"),
        )
    if name == "referee":
        action = _enum(RefereeAction, _field(obj, "action", ""), "action")
        player = obj.get("player")
        if action is RefereeAction.CONCEDE and player is None:
            raise InputError("player: required for concede")
        return Referee(
            action=action,
            player=None if player is None else _player(player, "player"),
            both_players_agree=_bool(obj.get("both_players_agree", False), "both_players_agree"),
        )
    if name == "undo":
        return Undo()
    if name == "state":
        return QueryState()
    raise InputError(f"cmd: unknown command {name!r}")


# ----- output -------------------------------------------------------------------------------


def _pair(value: PerPlayer[Any]) -> Json:
    return {"A": value.a, "B": value.b}


def _player_or_none(player: Player | None) -> str | None:
    return None if player is None else player.value


def pending_option_json(option: PendingOption | None) -> Json | None:
    if option is None:
        return None
    return {
        "chooser": option.chooser.value,
        "offered_by": option.offered_by.value,
        "reason": option.reason.value,
        "choices": [c.value for c in Choice],
    }


def rack_result_json(result: RackResult | None) -> Json | None:
    if result is None:
        return None
    if result.reason is RackEnd.STALEMATE:
        return {"stalemate": True}
    return {"winner": _player_or_none(result.winner), "reason": result.reason.value}


def positions_json(positions: Positions | None) -> Json | None:
    if positions is None:
        return None
    return {str(ball): [round(x, 1), round(y, 1)] for ball, (x, y) in positions}


def declarations_json(declared: Declarations) -> Json:
    call = declared.call
    return {
        "call": None
        if call is None
        else {"ball": call.ball, "pocket": call.pocket.value, "source": call.source.value},
        "safety": declared.safety,
        "push_out": declared.push_out,
    }


def state_json(state: MatchState) -> Json:
    """The full state: the `given` shape of rules.md §10 plus what makes the match complete."""
    stalemate = state.stalemate
    return {
        "players": _pair(state.names),
        "race_to": state.race_to,
        "score": _pair(state.score),
        "ruleset": state.options.ruleset.value,
        "options": state.options.to_json(),
        "table_mm": list(state.table_mm),
        "rack": state.rack,
        "breaker": state.breaker.value,
        "first_breaker": state.first_breaker.value,
        "last_rack_winner": _player_or_none(state.last_rack_winner),
        "rack_result": rack_result_json(state.rack_result),
        "match_winner": _player_or_none(state.match_winner),
        "phase": state.phase.value,
        "shooter": state.shooter.value,
        "balls_on_table": sorted(state.balls_on_table),
        "lowest": state.lowest,
        "cue_ball": state.cue_ball.value,
        "push_out_available": state.push_out_available,
        "pending_option": pending_option_json(state.pending_option),
        "fouls": _pair(state.fouls),
        "warned": state.warned,
        "stalemate": None
        if stalemate is None
        else {"announced": stalemate.announced, "turns_left": _pair(stalemate.turns_left)},
        "declared": declarations_json(state.declared),
        "positions": positions_json(state.positions),
        "shots_in_rack": state.shots_in_rack,
    }


def ruling_json(ruling: Ruling) -> Json:
    """The ruling of contracts.md §5, without `seq` and `reason` (the session adds them)."""
    return {
        "kind": ruling.kind.value,
        "rack": ruling.rack,
        "shot": ruling.shot,
        "shooter": _player_or_none(ruling.shooter),
        "foul": ruling.foul,
        "fouls": [f.value for f in ruling.fouls],
        "serious_foul": ruling.serious_foul,
        "break_legal": ruling.break_legal,
        "called_shot_made": ruling.called_shot_made,
        "ten_spotted": ruling.ten_spotted,
        "ten_spot": None if ruling.ten_spot is None else [round(v, 1) for v in ruling.ten_spot],
        "balls_on_table_after": None
        if ruling.balls_on_table_after is None
        else list(ruling.balls_on_table_after),
        "next_shooter": _player_or_none(ruling.next_shooter),
        "cue_ball_next": None if ruling.cue_ball_next is None else ruling.cue_ball_next.value,
        "option": pending_option_json(ruling.option),
        "push_out_available_next": ruling.push_out_available_next,
        "fouls_after": _pair(ruling.fouls_after),
        "warn_next_shooter": ruling.warn_next_shooter,
        "rack_result": rack_result_json(ruling.rack_result),
        "score_after": _pair(ruling.score_after),
        "next_breaker": _player_or_none(ruling.next_breaker),
        "match_winner": _player_or_none(ruling.match_winner),
        "reason_code": ruling.reason_code,
        "reason_args": ruling.reason_args,
    }
