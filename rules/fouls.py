"""Step 1 of rules.md §6: every foul a shot committed (the penalty is applied once)."""

from __future__ import annotations

from rules.model import (
    CUE,
    BallId,
    CueBall,
    Declarations,
    Foul,
    MatchState,
    Phase,
    ShotFacts,
)
from rules.options import (
    FoulScope,
    NoRailExempt,
    NoRailScope,
    Options,
    ScoopPolicy,
    SplitHitBenefit,
)

BREAK_RAIL_BALLS_REQUIRED = 4


def first_contact_legal(lowest: int, facts: ShotFacts, benefit: SplitHitBenefit) -> bool:
    """R22: the lowest ball must be hit first; a split hit is judged by `split_hit_benefit`."""
    if facts.first_contact is None:
        return False
    contacted = {facts.first_contact, *facts.first_contact_tie}
    if benefit is SplitHitBenefit.SHOOTER:
        return lowest in contacted
    return contacted == {lowest}


def driven_to_rail(facts: ShotFacts) -> set[BallId]:
    """Balls driven to a rail after the first contact (D5): pocketed and off-table count."""
    railed: set[BallId] = {c.ball for c in facts.rails_after_contact if not c.frozen_no_leave}
    railed.update(p.ball for p in facts.pocketed)
    railed.update(facts.off_table)
    return railed


def break_rail_balls(facts: ShotFacts) -> int:
    if facts.break_rail_balls is not None:
        return facts.break_rail_balls
    return len({b for b in driven_to_rail(facts) if isinstance(b, int)})


def rail_requirement_met(facts: ShotFacts, options: Options) -> bool:
    """R23 after a contact: some ball in scope reached a rail, unless a pocketed ball exempts."""
    pocketed = facts.pocketed_object_balls
    if options.no_rail_exempt is NoRailExempt.ANY_OBJECT_BALL_POCKETED:
        exempt = bool(pocketed)
    else:
        exempt = facts.first_contact in pocketed
    if exempt:
        return True
    railed = driven_to_rail(facts)
    if options.no_rail_scope is NoRailScope.CUE_OR_FIRST_CONTACTED:
        railed &= {CUE, facts.first_contact} if facts.first_contact is not None else {CUE}
    return bool(railed)


def _reported_fouls(facts: ShotFacts, options: Options) -> set[Foul]:
    found = set(facts.other_fouls)
    if options.foul_scope is FoulScope.CUE_BALL_ONLY:
        # BCA practice: an accidentally moved object ball is no foul; the ISPA-JM blocker is.
        found.discard(Foul.TOUCHED_OBJECT_BALL)
    if options.scoop_policy is ScoopPolicy.MISCUE_NO_FOUL:
        found.discard(Foul.MISCUE_JUMP)
    return found


def collect_fouls(state: MatchState, facts: ShotFacts, declared: Declarations) -> tuple[Foul, ...]:
    options = state.options
    found = _reported_fouls(facts, options)
    if facts.cue_ball_pocketed:
        found.add(Foul.CUE_BALL_SCRATCH)
    if CUE in facts.off_table:
        found.add(Foul.CUE_BALL_OFF_TABLE)
    if facts.off_table_object_balls:
        found.add(Foul.OBJECT_BALL_OFF_TABLE)
    if (
        facts.cue_ball_placed_touching
        and state.cue_ball is not CueBall.IN_PLACE
        and not options.bih_may_touch_object_ball
    ):
        found.add(Foul.BAD_CUE_BALL_PLACEMENT)
    lowest = state.lowest
    if not declared.push_out and lowest is not None:
        if facts.first_contact is None:
            found.add(Foul.NO_CONTACT)
        elif not first_contact_legal(lowest, facts, options.split_hit_benefit):
            found.add(Foul.WRONG_BALL_FIRST)
        if state.phase is Phase.BREAK:
            if (
                not facts.pocketed_object_balls
                and break_rail_balls(facts) < BREAK_RAIL_BALLS_REQUIRED
            ):
                found.add(Foul.BREAK_REQUIREMENT_NOT_MET)
        elif facts.first_contact is not None and not rail_requirement_met(facts, options):
            found.add(Foul.NO_RAIL_AFTER_CONTACT)
    return tuple(f for f in Foul if f in found)
