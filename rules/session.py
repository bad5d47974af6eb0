"""A match being refereed: the engine plus the history that makes `undo` exact.

`Session.handle` speaks JSON objects (contracts.md §4–5): a command in, one reply out. The
state after every accepted input is kept, so `undo` restores the previous one exactly; `seq`
numbers the rulings and keeps counting through an undo, so subscribers can drop repeats.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rules.codec import parse_command, ruling_json, state_json
from rules.commands import Command, Load, NewMatch, QueryState, Undo
from rules.engine import apply
from rules.model import MatchState, Rejection
from rules.reasons import DEFAULT_LANGUAGE, render
from rules.ruling import Accepted, Rejected

Json = dict[str, Any]


@dataclass
class Session:
    state: MatchState = field(default_factory=MatchState)
    lang: str = DEFAULT_LANGUAGE
    seq: int = 0
    history: list[MatchState] = field(default_factory=list)

    def handle_json(self, obj: object) -> Json:
        """Parse and handle one command object; `InputError` if it is malformed."""
        return self.handle(parse_command(obj))

    def handle(self, command: Command) -> Json:
        if isinstance(command, QueryState):
            return state_json(self.state)
        if isinstance(command, Undo):
            return self._undo()
        outcome = apply(self.state, command)
        result = outcome.result
        if isinstance(result, Rejected):
            return {"rejected": result.code.value}
        self.history.append(self.state)
        self.state = outcome.state
        if isinstance(result, Accepted):
            if isinstance(command, NewMatch | Load):
                return {"ok": True, "state": state_json(self.state)}
            return {"ok": True}
        self.seq += 1
        reply = ruling_json(result)
        reply["seq"] = self.seq
        reply["reason"] = render(result.reason_code, result.reason_args, self.lang)
        return reply

    def _undo(self) -> Json:
        if not self.history:
            return {"rejected": Rejection.NOTHING_TO_UNDO.value}
        self.state = self.history.pop()
        self.seq += 1
        return {
            "kind": "undo",
            "seq": self.seq,
            "rack": self.state.rack,
            "reason_code": "undo",
            "reason_args": {},
            "reason": render("undo", {}, self.lang),
            "state": state_json(self.state),
        }
