"""The scoreboard `state` payload of contracts.md §6, built from the engine's state.

Everything a scoreboard shows, so that none needs the rules: derived values (the lowest
ball, who is on two fouls) are computed here once.
"""

from __future__ import annotations

from typing import Any

from rules import MatchState
from rules.codec import declarations_json, pending_option_json, positions_json, rack_result_json

Json = dict[str, Any]


def board_state(
    state: MatchState,
    *,
    seq: int,
    table: str,
    last_ruling: Json | None = None,
    lang: str = "en",
) -> Json:
    declared = declarations_json(state.declared)
    return {
        "seq": seq,
        "table": table,
        "players": {"A": state.names.a, "B": state.names.b},
        "race_to": state.race_to,
        "score": {"A": state.score.a, "B": state.score.b},
        "ruleset": state.options.ruleset.value,
        "preset": state.options.preset.value,
        "rack": state.rack,
        "breaker": state.breaker.value,
        "break_order": state.options.break_order.value,
        "shooter": state.shooter.value,
        "phase": state.phase.value,
        "balls_on_table": sorted(state.balls_on_table),
        "lowest": state.lowest,
        "cue_ball": state.cue_ball.value,
        "push_out_available": state.push_out_available,
        "option": pending_option_json(state.pending_option),
        "call": None
        if declared["call"] is None
        else {k: declared["call"][k] for k in ("ball", "pocket")},
        "safety": declared["safety"],
        "push_out": declared["push_out"],
        "fouls": {"A": state.fouls.a, "B": state.fouls.b},
        "warn": {"A": state.fouls.a == 2, "B": state.fouls.b == 2},
        "positions": positions_json(state.positions),
        "last_ruling": None
        if last_ruling is None
        else {k: last_ruling.get(k) for k in ("seq", "reason_code", "reason_args", "reason")},
        "table_mm": list(state.table_mm),
        "rack_result": rack_result_json(state.rack_result),
        "match_winner": None if state.match_winner is None else state.match_winner.value,
        "lang": lang,
    }
