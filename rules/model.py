"""The vocabulary of the rules engine: players, balls, pockets, facts, state.

Everything here is an immutable value. Derived facts (the lowest ball, whose turn it is)
are computed from the state, never stored beside it, so they cannot disagree with it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Generic, Literal, TypeVar

from rules.options import Options

T = TypeVar("T")

CUE: Literal["cue"] = "cue"
BallId = int | Literal["cue"]
OBJECT_BALLS: frozenset[int] = frozenset(range(1, 11))
TEN = 10


class Player(StrEnum):
    A = "A"
    B = "B"

    @property
    def other(self) -> Player:
        return Player.B if self is Player.A else Player.A


class Pocket(StrEnum):
    HL = "HL"
    HR = "HR"
    SL = "SL"
    SR = "SR"
    FL = "FL"
    FR = "FR"


class Rail(StrEnum):
    HEAD = "head"
    FOOT = "foot"
    LEFT = "left"
    RIGHT = "right"


class CueBall(StrEnum):
    IN_PLACE = "in_place"
    IN_HAND_ANYWHERE = "in_hand_anywhere"
    IN_HAND_KITCHEN = "in_hand_kitchen"


class Phase(StrEnum):
    BREAK = "break"
    PLAY = "play"
    MATCH_OVER = "match_over"


class CallSource(StrEnum):
    EXPLICIT = "explicit"
    OBVIOUS = "obvious"


class OptionReason(StrEnum):
    PUSH_OUT = "push_out"
    WRONGLY_POCKETED = "wrongly_pocketed"
    SAFETY_BALL_POCKETED = "safety_ball_pocketed"


class Choice(StrEnum):
    PLAY = "play"
    PASS = "pass"


class Foul(StrEnum):
    """Foul codes of rules.md §10, in the order a ruling lists them."""

    CUE_BALL_SCRATCH = "cue_ball_scratch"
    CUE_BALL_OFF_TABLE = "cue_ball_off_table"
    OBJECT_BALL_OFF_TABLE = "object_ball_off_table"
    NO_CONTACT = "no_contact"
    WRONG_BALL_FIRST = "wrong_ball_first"
    NO_RAIL_AFTER_CONTACT = "no_rail_after_contact"
    BREAK_REQUIREMENT_NOT_MET = "break_requirement_not_met"
    BAD_CUE_BALL_PLACEMENT = "bad_cue_ball_placement"
    TOUCHED_OBJECT_BALL = "touched_object_ball"
    TOUCHED_CUE_BALL = "touched_cue_ball"
    JUMP_MASSE_BLOCKER_MOVED = "jump_masse_blocker_moved"
    DOUBLE_HIT = "double_hit"
    MISCUE_JUMP = "miscue_jump"
    PUSH_SHOT = "push_shot"
    BALLS_MOVING = "balls_moving"
    NO_FOOT_ON_FLOOR = "no_foot_on_floor"
    CUE_ON_TABLE = "cue_on_table"
    OUT_OF_TURN = "out_of_turn"
    SLOW_PLAY = "slow_play"
    UNSPORTSMANLIKE = "unsportsmanlike"


# Fouls a referee (or the panel) reports in `other_fouls`; the rest are computed from facts.
REPORTED_FOULS: frozenset[Foul] = frozenset(
    {
        Foul.DOUBLE_HIT,
        Foul.MISCUE_JUMP,
        Foul.PUSH_SHOT,
        Foul.BALLS_MOVING,
        Foul.NO_FOOT_ON_FLOOR,
        Foul.TOUCHED_OBJECT_BALL,
        Foul.TOUCHED_CUE_BALL,
        Foul.JUMP_MASSE_BLOCKER_MOVED,
        Foul.BAD_CUE_BALL_PLACEMENT,
        Foul.CUE_ON_TABLE,
        Foul.OUT_OF_TURN,
        Foul.SLOW_PLAY,
        Foul.UNSPORTSMANLIKE,
    }
)


class Rejection(StrEnum):
    """Why an input was refused; a refused input changes nothing."""

    MATCH_OVER = "match_over"
    OPTION_PENDING = "option_pending"
    PUSH_OUT_NOT_AVAILABLE = "push_out_not_available"
    SAFETY_CALL_NOT_ALLOWED = "safety_call_not_allowed"
    NO_DECLARATION_ON_BREAK = "no_declaration_on_break"
    BALL_NOT_ON_TABLE = "ball_not_on_table"
    NO_OPTION_PENDING = "no_option_pending"
    WRONG_CHOOSER = "wrong_chooser"
    STALEMATE_NOT_YET_ALLOWED = "stalemate_not_yet_allowed"
    RACK_OVER = "rack_over"
    NOTHING_TO_UNDO = "nothing_to_undo"


class RackEnd(StrEnum):
    TEN_POCKETED = "ten_pocketed"
    THREE_CONSECUTIVE_FOULS = "three_consecutive_fouls"
    CONCESSION = "concession"
    STALEMATE = "stalemate"


@dataclass(frozen=True)
class PerPlayer(Generic[T]):
    """One value for each player (score, foul count, name)."""

    a: T
    b: T

    def __getitem__(self, player: Player) -> T:
        return self.a if player is Player.A else self.b

    def set(self, player: Player, value: T) -> PerPlayer[T]:
        return replace(self, a=value) if player is Player.A else replace(self, b=value)

    def update(self, player: Player, change: Callable[[T], T]) -> PerPlayer[T]:
        return self.set(player, change(self[player]))


# ----- shot facts and declarations ----------------------------------------------------------


@dataclass(frozen=True)
class Call:
    ball: int
    pocket: Pocket
    source: CallSource = CallSource.EXPLICIT


@dataclass(frozen=True)
class Declarations:
    """What the shooter declared for the coming shot."""

    call: Call | None = None
    safety: bool = False
    push_out: bool = False

    @property
    def any(self) -> bool:
        return self.call is not None or self.safety or self.push_out


NO_DECLARATIONS = Declarations()


@dataclass(frozen=True)
class RailContact:
    ball: BallId
    rail: Rail
    frozen_no_leave: bool = False


@dataclass(frozen=True)
class Pocketing:
    ball: BallId
    pocket: Pocket


Position = tuple[float, float]
Positions = tuple[tuple[BallId, Position], ...]


@dataclass(frozen=True)
class ShotFacts:
    """What happened on one shot (contracts.md §3), as the rules need it."""

    first_contact: int | None = None
    first_contact_tie: tuple[int, ...] = ()
    rails_after_contact: tuple[RailContact, ...] = ()
    break_rail_balls: int | None = None
    pocketed: tuple[Pocketing, ...] = ()
    off_table: tuple[BallId, ...] = ()
    other_fouls: tuple[Foul, ...] = ()
    cue_ball_placed_touching: tuple[int, ...] = ()
    positions: Positions | None = None
    declared: Declarations | None = None

    @property
    def pocketed_object_balls(self) -> tuple[int, ...]:
        return tuple(p.ball for p in self.pocketed if isinstance(p.ball, int))

    @property
    def off_table_object_balls(self) -> tuple[int, ...]:
        return tuple(b for b in self.off_table if isinstance(b, int))

    @property
    def cue_ball_pocketed(self) -> bool:
        return any(p.ball == CUE for p in self.pocketed)


# ----- match state --------------------------------------------------------------------------


@dataclass(frozen=True)
class PendingOption:
    chooser: Player
    offered_by: Player
    reason: OptionReason


@dataclass(frozen=True)
class Stalemate:
    announced: bool
    turns_left: PerPlayer[int]


@dataclass(frozen=True)
class RackResult:
    winner: Player | None
    reason: RackEnd


TABLE_9FT: tuple[float, float] = (2540.0, 1270.0)
# Playing-surface sizes accepted, in mm: wider than any real table either way, narrow enough
# that a board or a spot position never divides by almost nothing.
TABLE_MM_RANGE: tuple[float, float] = (100.0, 10_000.0)


@dataclass(frozen=True)
class MatchState:
    """The whole match: everything a referee needs to rule the next input."""

    options: Options = field(default_factory=Options)
    names: PerPlayer[str] = PerPlayer("A", "B")
    race_to: int = 7
    score: PerPlayer[int] = PerPlayer(0, 0)
    table_mm: tuple[float, float] = TABLE_9FT
    rack: int = 1
    breaker: Player = Player.A
    first_breaker: Player = Player.A
    last_rack_winner: Player | None = None
    rack_result: RackResult | None = None
    match_winner: Player | None = None
    phase: Phase = Phase.BREAK
    shooter: Player = Player.A
    balls_on_table: frozenset[int] = OBJECT_BALLS
    cue_ball: CueBall = CueBall.IN_HAND_KITCHEN
    push_out_available: bool = False
    pending_option: PendingOption | None = None
    fouls: PerPlayer[int] = PerPlayer(0, 0)
    warned: bool = False
    stalemate: Stalemate | None = None
    declared: Declarations = NO_DECLARATIONS
    positions: Positions | None = None
    shots_in_rack: int = 0

    @property
    def lowest(self) -> int | None:
        return min(self.balls_on_table) if self.balls_on_table else None

    @property
    def to_shoot(self) -> Player | None:
        """The player who must shoot next; None while an option is pending or the match is over."""
        if self.pending_option is not None or self.phase is Phase.MATCH_OVER:
            return None
        return self.shooter
