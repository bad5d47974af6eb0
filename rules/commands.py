"""The inputs the engine accepts (contracts.md §4), as plain values."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from rules.model import Call, Choice, Declarations, Foul, MatchState, Player, ShotFacts


@dataclass(frozen=True)
class NewMatch:
    state: MatchState


@dataclass(frozen=True)
class Load:
    state: MatchState


@dataclass(frozen=True)
class Declare:
    """A declaration for the coming shot: exactly one of a call, a safety or a push-out."""

    call: Call | None = None
    safety: bool = False
    push_out: bool = False

    def applied_to(self, declared: Declarations) -> Declarations:
        if self.call is not None:
            return Declarations(call=self.call, safety=False, push_out=declared.push_out)
        if self.safety:
            return Declarations(call=None, safety=True, push_out=declared.push_out)
        return Declarations(call=declared.call, safety=declared.safety, push_out=True)

    @property
    def as_declarations(self) -> Declarations:
        return Declarations(call=self.call, safety=self.safety, push_out=self.push_out)


@dataclass(frozen=True)
class Shot:
    facts: ShotFacts


@dataclass(frozen=True)
class OptionChoice:
    chooser: Player
    choice: Choice


@dataclass(frozen=True)
class FoulBetweenShots:
    player: Player
    foul: Foul


class RefereeAction(StrEnum):
    ANNOUNCE_STALEMATE = "announce_stalemate"
    DECLARE_STALEMATE = "declare_stalemate"
    CONCEDE = "concede"


@dataclass(frozen=True)
class Referee:
    action: RefereeAction
    player: Player | None = None
    both_players_agree: bool = False


@dataclass(frozen=True)
class Undo:
    pass


@dataclass(frozen=True)
class QueryState:
    pass


Command = (
    NewMatch | Load | Declare | Shot | OptionChoice | FoulBetweenShots | Referee | Undo | QueryState
)
