"""The referee: `apply(state, command)` returns the new state and what was ruled.

Pure functions over immutable values; rules.md §6 gives the order they follow.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from rules.commands import (
    Command,
    Declare,
    FoulBetweenShots,
    Load,
    NewMatch,
    OptionChoice,
    Referee,
    RefereeAction,
    Shot,
)
from rules.errors import InputError
from rules.fouls import collect_fouls
from rules.model import (
    CUE,
    NO_DECLARATIONS,
    TEN,
    BallId,
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
    Position,
    Positions,
    RackEnd,
    RackResult,
    Rejection,
    ShotFacts,
    Stalemate,
)
from rules.options import CallMode, TenLastMoment, UnwarnedThirdFoul
from rules.rack import replay_rack, win_rack
from rules.ruling import Accepted, Rejected, Ruling, RulingKind
from rules.spotting import foot_spot, spot_ten

STALEMATE_INNINGS = 3


@dataclass(frozen=True)
class Outcome:
    state: MatchState
    result: Ruling | Accepted | Rejected


def apply(state: MatchState, command: Command) -> Outcome:
    """Rule one input. A rejected input returns the state unchanged."""
    if isinstance(command, NewMatch | Load):
        return Outcome(command.state, Accepted())
    if isinstance(command, Declare):
        return _declare(state, command)
    if isinstance(command, Shot):
        return _shot(state, command.facts)
    if isinstance(command, OptionChoice):
        return _option(state, command)
    if isinstance(command, FoulBetweenShots):
        return _foul_between_shots(state, command)
    if isinstance(command, Referee):
        return _referee(state, command)
    raise InputError(f"the engine does not rule {type(command).__name__} (a session command)")


def _rejected(state: MatchState, code: Rejection) -> Outcome:
    return Outcome(state, Rejected(code))


# ----- declarations (§6 step 0) -------------------------------------------------------------


def _table_closed(state: MatchState) -> Rejection | None:
    if state.phase is Phase.MATCH_OVER:
        return Rejection.MATCH_OVER
    if state.pending_option is not None:
        return Rejection.OPTION_PENDING
    return None


def _declaration_rejection(state: MatchState, declared: Declarations) -> Rejection | None:
    if declared.push_out and not state.push_out_available:
        return Rejection.PUSH_OUT_NOT_AVAILABLE
    if declared.safety and (state.phase is Phase.BREAK or not state.options.safety_call_allowed):
        return Rejection.SAFETY_CALL_NOT_ALLOWED
    if declared.any and state.phase is Phase.BREAK:
        return Rejection.NO_DECLARATION_ON_BREAK
    if declared.call is not None and declared.call.ball not in state.balls_on_table:
        return Rejection.BALL_NOT_ON_TABLE
    return None


def _declare(state: MatchState, command: Declare) -> Outcome:
    code = _table_closed(state) or _declaration_rejection(state, command.as_declarations)
    if code is not None:
        return _rejected(state, code)
    return Outcome(replace(state, declared=command.applied_to(state.declared)), Accepted())


# ----- shots --------------------------------------------------------------------------------


def _check_facts(state: MatchState, facts: ShotFacts) -> None:
    """Facts that name a ball no longer on the table cannot belong to this state."""

    def check(ball: BallId, key: str) -> None:
        if ball != CUE and ball not in state.balls_on_table:
            raise InputError(f"{key}: ball {ball} is not on the table")

    if facts.first_contact is not None:
        check(facts.first_contact, "first_contact")
    for ball in facts.first_contact_tie:
        check(ball, "first_contact_tie")
    for p in facts.pocketed:
        check(p.ball, "pocketed")
    for gone_ball in facts.off_table:
        check(gone_ball, "off_table")
    gone = [p.ball for p in facts.pocketed] + list(facts.off_table)
    if len(set(gone)) != len(gone):
        raise InputError("pocketed/off_table: a ball is listed twice")


@dataclass(frozen=True)
class _Play:
    """One shot being ruled: the state before, its facts and the declarations in force."""

    state: MatchState
    facts: ShotFacts
    declared: Declarations

    @property
    def shooter(self) -> Player:
        return self.state.shooter

    @property
    def is_break(self) -> bool:
        return self.state.phase is Phase.BREAK

    @property
    def ten_dropped(self) -> bool:
        return TEN in self.facts.pocketed_object_balls or TEN in self.facts.off_table

    def balls_left(self, *, ten_stays_down: bool = False) -> frozenset[int]:
        gone = set(self.facts.pocketed_object_balls) | set(self.facts.off_table_object_balls)
        left = self.state.balls_on_table - gone
        return left if ten_stays_down or not self.ten_dropped else left | {TEN}

    def ten_spot(self) -> Position:
        table = self.state.table_mm
        if self.facts.positions is None:
            return foot_spot(table)
        left = self.balls_left()
        return spot_ten(table, {b: p for b, p in self.facts.positions if b == CUE or b in left})

    def positions_after(self, spotted: bool) -> Positions | None:
        if self.facts.positions is None:
            return None
        left = self.balls_left(ten_stays_down=not spotted)
        kept = tuple(
            (b, p) for b, p in self.facts.positions if (b == CUE or b in left) and b != TEN
        )
        if TEN in left:
            ten = self.ten_spot() if spotted else dict(self.facts.positions).get(TEN)
            if ten is not None:
                kept += ((TEN, ten),)
        if CUE in self.facts.off_table or self.facts.cue_ball_pocketed:
            kept = tuple((b, p) for b, p in kept if b != CUE)
        return kept

    def valid_call(self) -> bool:
        call = self.declared.call
        if call is None or self.declared.safety:
            return False
        return not (
            self.state.options.call_mode is CallMode.EXPLICIT_ONLY
            and call.source is CallSource.OBVIOUS
        )

    def call_made(self) -> bool:
        call = self.declared.call
        return (
            self.valid_call()
            and call is not None
            and any(p.ball == call.ball and p.pocket is call.pocket for p in self.facts.pocketed)
        )

    def ten_was_last(self) -> bool:
        others = self.state.balls_on_table - {TEN}
        if self.state.options.ten_last_moment is TenLastMoment.SHOT_START:
            return not others
        before_ten: set[BallId] = set()
        for p in self.facts.pocketed:
            if p.ball == TEN:
                break
            before_ten.add(p.ball)
        return others <= before_ten


def _shot(state: MatchState, facts: ShotFacts) -> Outcome:
    declared = facts.declared if facts.declared is not None else state.declared
    code = _table_closed(state) or _declaration_rejection(state, declared)
    if code is not None:
        return _rejected(state, code)
    _check_facts(state, facts)
    play = _Play(state, facts, declared)
    fouls = collect_fouls(state, facts, declared)
    if fouls:
        return _foul_on_shot(play, fouls)
    # §6 step 3: a legal shot resets the shooter's count.
    legal = replace(state, fouls=state.fouls.set(play.shooter, 0))
    play = replace(play, state=legal)
    if play.is_break:
        return _legal_break(play)
    if declared.push_out:
        return _offer_option(play, OptionReason.PUSH_OUT, "push_out")
    return _called_shot(play)


def _after_shot(
    play: _Play,
    *,
    shooter: Player,
    cue_ball: CueBall,
    spotted: bool,
    push_out_available: bool = False,
    pending_option: PendingOption | None = None,
) -> MatchState:
    """The state after a shot that does not end the rack."""
    state = play.state
    inning_over = shooter is not play.shooter or pending_option is not None
    stalemate = state.stalemate
    if stalemate is not None and inning_over:
        turns = stalemate.turns_left.update(play.shooter, lambda n: max(0, n - 1))
        stalemate = replace(stalemate, turns_left=turns)
    return replace(
        state,
        phase=Phase.PLAY,
        shooter=shooter,
        balls_on_table=play.balls_left(ten_stays_down=not spotted),
        cue_ball=cue_ball,
        push_out_available=push_out_available,
        pending_option=pending_option,
        warned=pending_option is None and state.fouls[shooter] == 2,
        stalemate=stalemate,
        declared=NO_DECLARATIONS,
        positions=play.positions_after(spotted),
        shots_in_rack=state.shots_in_rack + 1,
        rack_result=None,
    )


def _shot_ruling(
    play: _Play,
    after: MatchState,
    code: str,
    *,
    rack_over: RackResult | None = None,
    fouls: tuple[Foul, ...] = (),
    serious: bool = False,
    ten_spotted: bool = False,
    called_shot_made: bool | None = None,
) -> Ruling:
    return _ruling(
        RulingKind.SHOT,
        play.state,
        after,
        code,
        rack_over=rack_over,
        shot=play.state.shots_in_rack + 1,
        fouls=fouls,
        serious=serious,
        break_legal=not fouls if play.is_break else None,
        called_shot_made=called_shot_made,
        ten_spotted=ten_spotted,
        ten_spot=play.ten_spot() if ten_spotted else None,
        args=_shot_args(play),
    )


def _third_foul_is_serious(state: MatchState, offender: Player) -> bool:
    """R31: a third foul loses the rack only after the warning (or where unwarned counts)."""
    warned = state.warned and state.shooter is offender
    return warned or state.options.unwarned_third_foul is UnwarnedThirdFoul.COUNTS_AS_THIRD


def _foul_on_shot(play: _Play, fouls: tuple[Foul, ...]) -> Outcome:
    state = play.state
    called = None if play.is_break or play.declared.push_out else False
    previous = state.fouls[play.shooter]
    if previous >= 2 and _third_foul_is_serious(state, play.shooter):
        winner = play.shooter.other
        result = RackResult(winner, RackEnd.THREE_CONSECUTIVE_FOULS)
        after = win_rack(
            replace(state, shots_in_rack=state.shots_in_rack + 1), winner, result.reason
        )
        ruling = _shot_ruling(
            play,
            after,
            "serious_foul",
            rack_over=result,
            fouls=fouls,
            serious=True,
            called_shot_made=called,
        )
        return Outcome(after, ruling)
    spotted = play.ten_dropped
    play = replace(
        play, state=replace(state, fouls=state.fouls.set(play.shooter, min(previous + 1, 2)))
    )
    after = _after_shot(
        play, shooter=play.shooter.other, cue_ball=CueBall.IN_HAND_ANYWHERE, spotted=spotted
    )
    code = "foul_unwarned_third" if previous >= 2 else "foul"
    ruling = _shot_ruling(
        play, after, code, fouls=fouls, ten_spotted=spotted, called_shot_made=called
    )
    return Outcome(after, ruling)


def _legal_break(play: _Play) -> Outcome:
    made = bool(play.facts.pocketed_object_balls)
    shooter = play.shooter if made else play.shooter.other
    after = _after_shot(
        play,
        shooter=shooter,
        cue_ball=CueBall.IN_PLACE,
        spotted=play.ten_dropped,
        push_out_available=True,
    )
    code = "break_legal_continue" if made else "break_legal_dry"
    return Outcome(after, _shot_ruling(play, after, code, ten_spotted=play.ten_dropped))


def _offer_option(play: _Play, reason: OptionReason, code: str) -> Outcome:
    pending = PendingOption(chooser=play.shooter.other, offered_by=play.shooter, reason=reason)
    after = _after_shot(
        play,
        shooter=play.shooter,
        cue_ball=CueBall.IN_PLACE,
        spotted=play.ten_dropped,
        pending_option=pending,
    )
    called = None if reason is OptionReason.PUSH_OUT else False
    ruling = _shot_ruling(play, after, code, ten_spotted=play.ten_dropped, called_shot_made=called)
    return Outcome(after, ruling)


def _called_shot(play: _Play) -> Outcome:
    """§6 steps 6–8: the call decides whether the shooter continues."""
    made = play.call_made()
    call = play.declared.call
    if made and call is not None and call.ball == TEN:
        if not play.state.options.ten_win_requires_last or play.ten_was_last():
            finished = replace(
                play.state,
                shots_in_rack=play.state.shots_in_rack + 1,
                balls_on_table=play.balls_left(ten_stays_down=True),
            )
            after = win_rack(finished, play.shooter, RackEnd.TEN_POCKETED)
            ruling = _shot_ruling(
                play,
                after,
                "ten_win",
                rack_over=RackResult(play.shooter, RackEnd.TEN_POCKETED),
                called_shot_made=True,
            )
            return Outcome(after, ruling)
        after = _after_shot(play, shooter=play.shooter, cue_ball=CueBall.IN_PLACE, spotted=True)
        ruling = _shot_ruling(
            play, after, "ten_early_spotted", ten_spotted=True, called_shot_made=True
        )
        return Outcome(after, ruling)
    spotted = play.ten_dropped
    if made:
        after = _after_shot(play, shooter=play.shooter, cue_ball=CueBall.IN_PLACE, spotted=spotted)
        return Outcome(
            after,
            _shot_ruling(
                play, after, "called_ball_made", ten_spotted=spotted, called_shot_made=True
            ),
        )
    pocketed = play.facts.pocketed_object_balls
    only_ten = set(pocketed) == {TEN}
    if pocketed and (play.state.options.option_if_only_ten_pocketed or not only_ten):
        if play.declared.safety:
            return _offer_option(play, OptionReason.SAFETY_BALL_POCKETED, "safety_ball_pocketed")
        return _offer_option(play, OptionReason.WRONGLY_POCKETED, "wrongly_pocketed")
    after = _after_shot(
        play, shooter=play.shooter.other, cue_ball=CueBall.IN_PLACE, spotted=spotted
    )
    code = "safety" if play.declared.safety else ("ten_spotted_turn_over" if spotted else "miss")
    return Outcome(
        after, _shot_ruling(play, after, code, ten_spotted=spotted, called_shot_made=False)
    )


# ----- options, fouls between shots, referee ------------------------------------------------


def _option(state: MatchState, command: OptionChoice) -> Outcome:
    if state.phase is Phase.MATCH_OVER:
        return _rejected(state, Rejection.MATCH_OVER)
    pending = state.pending_option
    if pending is None:
        return _rejected(state, Rejection.NO_OPTION_PENDING)
    if command.chooser is not pending.chooser:
        return _rejected(state, Rejection.WRONG_CHOOSER)
    shooter = pending.chooser if command.choice is Choice.PLAY else pending.offered_by
    after = replace(
        state,
        shooter=shooter,
        pending_option=None,
        cue_ball=CueBall.IN_PLACE,
        warned=state.fouls[shooter] == 2,
        declared=NO_DECLARATIONS,
    )
    code = "option_play" if command.choice is Choice.PLAY else "option_pass"
    args = {"chooser": state.names[pending.chooser]}
    return Outcome(after, _ruling(RulingKind.OPTION, state, after, code, args=args))


def _foul_between_shots(state: MatchState, command: FoulBetweenShots) -> Outcome:
    """R29: a foul between shots counts toward three fouls; the opponent gets ball in hand."""
    if state.phase is Phase.MATCH_OVER:
        return _rejected(state, Rejection.MATCH_OVER)
    offender = command.player
    args = {"player": state.names[offender]}
    previous = state.fouls[offender]
    if previous >= 2 and _third_foul_is_serious(state, offender):
        result = RackResult(offender.other, RackEnd.THREE_CONSECUTIVE_FOULS)
        after = win_rack(state, offender.other, result.reason)
        ruling = _ruling(
            RulingKind.FOUL,
            state,
            after,
            "serious_foul_between_shots",
            rack_over=result,
            fouls=(command.foul,),
            serious=True,
            args=args,
        )
        return Outcome(after, ruling)
    stalemate = state.stalemate
    if stalemate is not None and state.shooter is offender:
        turns = stalemate.turns_left.update(offender, lambda n: max(0, n - 1))
        stalemate = replace(stalemate, turns_left=turns)
    fouls = state.fouls.set(offender, min(previous + 1, 2))
    after = replace(
        state,
        shooter=offender.other,
        fouls=fouls,
        # A break is still played from behind the head string.
        cue_ball=CueBall.IN_HAND_KITCHEN
        if state.phase is Phase.BREAK
        else CueBall.IN_HAND_ANYWHERE,
        push_out_available=False,
        pending_option=None,
        warned=fouls[offender.other] == 2,
        stalemate=stalemate,
        declared=NO_DECLARATIONS,
        rack_result=None,
    )
    code = "foul_between_shots_unwarned_third" if previous >= 2 else "foul_between_shots"
    ruling = _ruling(RulingKind.FOUL, state, after, code, fouls=(command.foul,), args=args)
    return Outcome(after, ruling)


def _referee(state: MatchState, command: Referee) -> Outcome:
    if state.phase is Phase.MATCH_OVER:
        return _rejected(state, Rejection.MATCH_OVER)
    if command.action is RefereeAction.CONCEDE:
        if command.player is None:
            raise InputError("player: required for concede")
        result = RackResult(command.player.other, RackEnd.CONCESSION)
        after = win_rack(state, command.player.other, result.reason)
        return Outcome(
            after,
            _ruling(
                RulingKind.REFEREE,
                state,
                after,
                "concession",
                rack_over=result,
                args={"player": state.names[command.player]},
            ),
        )
    if command.action is RefereeAction.ANNOUNCE_STALEMATE:
        innings = PerPlayer(STALEMATE_INNINGS, STALEMATE_INNINGS)
        after = replace(state, stalemate=Stalemate(announced=True, turns_left=innings))
        announced = _ruling(
            RulingKind.REFEREE,
            state,
            after,
            "stalemate_announced",
            args={"innings": STALEMATE_INNINGS},
        )
        return Outcome(after, announced)
    stalemate = state.stalemate
    innings_done = (
        stalemate is not None
        and stalemate.announced
        and stalemate.turns_left.a == 0
        and stalemate.turns_left.b == 0
    )
    agreed = command.both_players_agree and state.options.stalemate_skip_by_agreement
    if not (innings_done or agreed):
        return _rejected(state, Rejection.STALEMATE_NOT_YET_ALLOWED)
    result = RackResult(None, RackEnd.STALEMATE)
    after = replay_rack(state)
    return Outcome(
        after,
        _ruling(RulingKind.REFEREE, state, after, "stalemate_declared", rack_over=result),
    )


# ----- ruling assembly ----------------------------------------------------------------------


def _ruling(
    kind: RulingKind,
    before: MatchState,
    after: MatchState,
    code: str,
    *,
    rack_over: RackResult | None = None,
    shot: int | None = None,
    fouls: tuple[Foul, ...] = (),
    serious: bool = False,
    break_legal: bool | None = None,
    called_shot_made: bool | None = None,
    ten_spotted: bool = False,
    ten_spot: Position | None = None,
    args: dict[str, Any] | None = None,
) -> Ruling:
    over = rack_over is not None
    next_shooter = None if over else after.to_shoot
    next_breaker = after.breaker if over and after.phase is not Phase.MATCH_OVER else None
    warn = next_shooter is not None and after.fouls[next_shooter] == 2
    names = after.names

    def name(player: Player | None) -> str | None:
        return None if player is None else names[player]

    option = None if over else after.pending_option
    # Everything a sentence may need, so a scoreboard can render it in any language.
    reason_args: dict[str, Any] = {
        "names": [names.a, names.b],
        "next": name(next_shooter),
        "chooser": name(option.chooser) if option else None,
        "fouls": [f.value for f in fouls],
        "ten_spotted": ten_spotted,
        "warn": warn,
        "rack_winner": name(rack_over.winner) if rack_over else None,
        "score": [after.score.a, after.score.b],
        "next_breaker": name(next_breaker),
        "match_winner": name(after.match_winner),
        **(args or {}),
    }
    return Ruling(
        kind=kind,
        rack=before.rack,
        shot=shot,
        shooter=before.shooter if kind is RulingKind.SHOT else None,
        foul=bool(fouls),
        fouls=fouls,
        serious_foul=serious,
        break_legal=break_legal,
        called_shot_made=called_shot_made,
        ten_spotted=ten_spotted,
        ten_spot=ten_spot,
        balls_on_table_after=None if over else tuple(sorted(after.balls_on_table)),
        next_shooter=next_shooter,
        cue_ball_next=None if over else after.cue_ball,
        option=option,
        push_out_available_next=not over and after.push_out_available,
        fouls_after=after.fouls,
        warn_next_shooter=warn,
        rack_result=rack_over,
        score_after=after.score,
        next_breaker=next_breaker,
        match_winner=after.match_winner,
        reason_code=code,
        reason_args=reason_args,
    )


def _shot_args(play: _Play) -> dict[str, Any]:
    state, facts = play.state, play.facts
    call = play.declared.call
    return {
        "shooter": state.names[play.shooter],
        "first_contact": facts.first_contact,
        "lowest": state.lowest,
        "pocketed": list(facts.pocketed_object_balls),
        "call": {"ball": call.ball, "pocket": call.pocket.value} if call is not None else None,
    }
