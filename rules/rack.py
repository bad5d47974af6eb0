"""Rack and match transitions: a rack won (R32), the next breaker (R3), a new rack (R33)."""

from __future__ import annotations

from dataclasses import replace

from rules.model import (
    NO_DECLARATIONS,
    OBJECT_BALLS,
    CueBall,
    MatchState,
    Phase,
    Player,
    RackEnd,
    RackResult,
)
from rules.options import BreakOrder, FoulCountScope


def next_breaker(
    state: MatchState, winner: Player, score_after_a: int, score_after_b: int
) -> Player:
    """R3: who breaks the rack after one that `winner` won."""
    order = state.options.break_order
    if order is BreakOrder.ALTERNATE:
        return state.breaker.other
    if order is BreakOrder.WINNER:
        return winner
    if order is BreakOrder.LOSER:
        return winner.other
    if score_after_a == score_after_b:
        return winner.other  # trailing_tie: loser_of_last_rack (rules.md §9.6)
    return Player.A if score_after_a < score_after_b else Player.B


def start_rack(state: MatchState, breaker: Player, result: RackResult) -> MatchState:
    """R33: rack all ten balls; the breaker has the cue ball in hand behind the head string."""
    fouls = state.fouls
    if state.options.foul_count_scope is FoulCountScope.RACK:
        fouls = replace(fouls, a=0, b=0)
    return replace(
        state,
        rack=state.rack + 1,
        breaker=breaker,
        rack_result=result,
        phase=Phase.BREAK,
        shooter=breaker,
        balls_on_table=OBJECT_BALLS,
        cue_ball=CueBall.IN_HAND_KITCHEN,
        push_out_available=False,
        pending_option=None,
        fouls=fouls,
        warned=fouls[breaker] == 2,
        stalemate=None,
        declared=NO_DECLARATIONS,
        positions=None,
        shots_in_rack=0,
    )


def win_rack(state: MatchState, winner: Player, reason: RackEnd) -> MatchState:
    """R32: the winner scores; the match ends at `race_to` (or on a concession)."""
    score = state.score.update(winner, lambda n: n + 1)
    # The rack's loser by three fouls starts the next rack clean whatever the count scope.
    fouls = (
        state.fouls.set(winner.other, 0)
        if reason is RackEnd.THREE_CONSECUTIVE_FOULS
        else state.fouls
    )
    result = RackResult(winner=winner, reason=reason)
    state = replace(state, score=score, fouls=fouls, last_rack_winner=winner)
    if score[winner] >= state.race_to or reason is RackEnd.CONCESSION:
        return replace(
            state,
            phase=Phase.MATCH_OVER,
            rack_result=result,
            match_winner=winner,
            pending_option=None,
            declared=NO_DECLARATIONS,
            stalemate=None,
        )
    return start_rack(state, next_breaker(state, winner, score.a, score.b), result)


def replay_rack(state: MatchState) -> MatchState:
    """R34: a declared stalemate; the same player breaks again and the score stands."""
    return start_rack(state, state.breaker, RackResult(winner=None, reason=RackEnd.STALEMATE))
