"""What the engine answers: a ruling, a plain acceptance, or a rejection."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from rules.model import (
    CueBall,
    Foul,
    PendingOption,
    PerPlayer,
    Player,
    Position,
    RackResult,
    Rejection,
)


class RulingKind(StrEnum):
    SHOT = "shot"
    OPTION = "option"
    FOUL = "foul"
    REFEREE = "referee"
    UNDO = "undo"


@dataclass(frozen=True)
class Ruling:
    """The complete ruling of rules.md §10 `expect`, plus the reason and where it belongs.

    `reason_args` hold everything a translation needs (names, balls, pockets, codes), so any
    scoreboard can render the sentence in its own language from `reason_code` alone.
    """

    kind: RulingKind
    rack: int
    shot: int | None
    shooter: Player | None
    foul: bool
    fouls: tuple[Foul, ...]
    serious_foul: bool
    break_legal: bool | None
    called_shot_made: bool | None
    ten_spotted: bool
    ten_spot: Position | None
    balls_on_table_after: tuple[int, ...] | None
    next_shooter: Player | None
    cue_ball_next: CueBall | None
    option: PendingOption | None
    push_out_available_next: bool
    fouls_after: PerPlayer[int]
    warn_next_shooter: bool
    rack_result: RackResult | None
    score_after: PerPlayer[int]
    next_breaker: Player | None
    match_winner: Player | None
    reason_code: str
    reason_args: dict[str, Any] = field(default_factory=dict, hash=False, compare=True)


@dataclass(frozen=True)
class Accepted:
    """A declaration (or match set-up) taken without a ruling."""


@dataclass(frozen=True)
class Rejected:
    code: Rejection
