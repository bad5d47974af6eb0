"""The Ten-Ball rules engine: WPA rules with the ISPA variant and later WPA editions.

Pure Python with no I/O. A match is an immutable `MatchState`; `apply(state, command)`
returns the new state and the ruling. `Session` adds undo and sequence numbers and speaks
the JSON of contracts.md §4–5.

    >>> from rules import Session
    >>> s = Session()
    >>> shot = {"cmd": "shot", "first_contact": 1, "pocketed": [{"ball": 3, "pocket": "FL"}]}
    >>> s.handle_json(shot)["reason"]
    'Legal break: A pocketed the 3 and continues, and may push out.'
"""

from rules.codec import parse_command, parse_facts, parse_state, ruling_json, state_json
from rules.commands import Command
from rules.engine import Outcome, apply
from rules.errors import InputError
from rules.model import MatchState, Player
from rules.options import Options, resolve_options
from rules.reasons import LANGUAGES, render
from rules.ruling import Accepted, Rejected, Ruling
from rules.session import Session

__all__ = [
    "LANGUAGES",
    "Accepted",
    "Command",
    "InputError",
    "MatchState",
    "Options",
    "Outcome",
    "Player",
    "Rejected",
    "Ruling",
    "Session",
    "apply",
    "parse_command",
    "parse_facts",
    "parse_state",
    "render",
    "resolve_options",
    "ruling_json",
    "state_json",
]
