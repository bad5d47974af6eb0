"""The referee: the rules session, kept in the journal, with the messages each ruling causes.

Every command — a declaration from the panel, a tablet's command from MQTT, a recording's
input, a shot's facts from the detector — goes through :meth:`Referee.handle`: the session
rules on it, then the command, the reply and the messages to publish (``facts``, ``ruling``,
the retained ``state``, ``cmd/result``) are committed to the journal in one transaction, and
only then do listeners (stdout, the panel) and the publisher hear of it.

:meth:`Referee.open` rebuilds the match from the journal by replaying its commands through a
fresh session, checking each reply against the journaled one: a journal that does not replay to
what was published (damage, or a rules engine changed mid-match) is refused.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from firmware.board import board_state
from firmware.intake import CommandError, refusal, result
from firmware.journal import Entry, Journal, JournalError, Message, dumps
from firmware.topics import Topics
from rules import InputError, MatchState, Session, state_json

log = logging.getLogger(__name__)

Json = dict[str, Any]
Listener = Callable[[Json, Json | None], None]
"""Called after every change of the match with the board (contracts §6 ``state``) and the
ruling that made it, or None (a declaration, a new match)."""

# Commands whose "ok" reply means the match changed, besides rulings (which carry `seq`).
_SETUP = ("new_match", "load")


@dataclass(frozen=True)
class Origin:
    """Where a command came from: ``recording``, ``mqtt``, ``panel``, ``detector`` or
    ``setup``; ``t`` on the frame source's clock; ``input_no`` its place in a recording."""

    kind: str
    t: float | None = None
    input_no: int | None = None


@dataclass(frozen=True)
class ResumePoint:
    """How far the journal got with one frame source (a recording, or the camera)."""

    started: bool = False
    last_input_no: int = -1
    last_shot_t_end: float | None = None


@dataclass(frozen=True)
class Defaults:
    """The table's own settings, filled into a ``new_match`` that does not give them."""

    ruleset: str = "wpa"
    options: Mapping[str, Any] | None = None
    table_mm: tuple[float, float] = (2540.0, 1270.0)

    def fill(self, command: Mapping[str, Any]) -> Json:
        filled = dict(command)
        if filled.get("cmd") == "new_match":
            filled.setdefault("ruleset", self.ruleset)
            if self.options:
                filled.setdefault("options", dict(self.options))
            filled.setdefault("table_mm", list(self.table_mm))
        return filled


class Referee:
    def __init__(
        self,
        journal: Journal,
        *,
        table: str,
        source: str,
        lang: str = "en",
        defaults: Defaults | None = None,
        publish: bool = True,
    ) -> None:
        self.journal = journal
        self.topics = Topics(table)
        self.source = source
        self.lang = lang
        self.defaults = defaults or Defaults()
        self.session = Session(lang=lang)
        self.last_ruling: Json | None = None
        self.resume = ResumePoint()
        self._publish = publish
        self._listeners: list[Listener] = []
        self._wake: Callable[[], None] = _nothing

    @classmethod
    def open(
        cls,
        journal: Journal,
        *,
        table: str,
        source: str,
        lang: str = "en",
        defaults: Defaults | None = None,
        publish: bool = True,
    ) -> Referee:
        """The referee with the match rebuilt from ``journal``; :class:`JournalError` if the
        journal does not replay to what it recorded."""
        referee = cls(
            journal, table=table, source=source, lang=lang, defaults=defaults, publish=publish
        )
        referee._replay()
        return referee

    # ----- wiring

    def add_listener(self, listener: Listener) -> None:
        self._listeners.append(listener)

    def on_journaled(self, wake: Callable[[], None]) -> None:
        """``wake`` is called after each commit that queued messages (the publisher's cue)."""
        self._wake = wake

    # ----- what the loop asks

    @property
    def state(self) -> MatchState:
        return self.session.state

    @property
    def seq(self) -> int:
        return self.session.seq

    def board(self) -> Json:
        return board_state(
            self.session.state,
            seq=self.session.seq,
            table=self.topics.table,
            last_ruling=self.last_ruling,
            lang=self.lang,
        )

    def handle(self, command: Mapping[str, Any], origin: Origin) -> Json:
        """Rule on a command (a shot is ``{"cmd": "shot", **facts}``); returns the
        ``cmd/result``-shaped answer. Journaled before anything is published."""
        filled = self.defaults.fill(command)
        before = self.session.seq
        try:
            reply = self.session.handle_json(filled)
        except InputError as exc:
            reply = {"error": str(exc)}
        name = filled.get("cmd")
        applied = _applied(name, reply)
        answer = result(filled, reply)
        messages: list[Message] = []
        if self._publish:
            if name == "shot" and "error" not in reply:
                facts = {k: v for k, v in filled.items() if k != "cmd"}
                messages.append(self._message(self.topics.facts, facts))
            if "seq" in reply:
                messages.append(self._message(self.topics.ruling, reply))
        ruling = reply if "seq" in reply else None
        self._follow(name, reply)
        if self._publish:
            if applied:
                messages.append(self._message(self.topics.state, self.board(), retain=True))
            if origin.kind == "mqtt":
                messages.append(self._message(self.topics.cmd_result, answer))
        entry = Entry(
            origin=origin.kind,
            source=self.source,
            command=filled,
            reply=reply,
            applied=applied,
            seq=self.session.seq,
            t=origin.t,
            input_no=origin.input_no,
        )
        try:
            self.journal.record(entry, messages)
        except Exception:
            # The session has moved on but the journal has not: the two disagree, and only a
            # restart (which replays the journal) makes them agree again. Never go on.
            log.critical("cannot write the journal after seq %d; stopping", before)
            raise
        if messages:
            self._wake()
        if applied:
            board = self.board()
            for listener in self._listeners:
                listener(board, ruling)
        return answer

    def refuse(self, error: CommandError) -> Json:
        """Answer an MQTT payload that is not a command at all (not journaled as an entry:
        there is no command to keep, only the reply owed)."""
        answer = refusal(error)
        if self._publish:
            self.journal.record(None, [self._message(self.topics.cmd_result, answer)])
            self._wake()
        return answer

    # ----- internals

    def _message(self, topic: str, payload: Json, *, retain: bool = False) -> Message:
        return Message(topic, dumps(payload).encode("utf-8"), qos=1, retain=retain)

    def _follow(self, name: object, reply: Mapping[str, Any]) -> None:
        """Track what the board shows besides the engine's state: the last ruling."""
        if "seq" in reply:
            self.last_ruling = dict(reply)
        elif name in _SETUP and reply.get("ok"):
            self.last_ruling = None

    def _replay(self) -> None:
        started = False
        last_input_no = -1
        last_t_end: float | None = None
        count = 0
        for entry in self.journal.entries():
            if entry.source == self.source:
                started = True
                if entry.input_no is not None:
                    last_input_no = max(last_input_no, entry.input_no)
                if entry.origin == "detector" and entry.t is not None:
                    last_t_end = entry.t if last_t_end is None else max(last_t_end, entry.t)
            if not entry.applied:
                continue
            try:
                reply = self.session.handle_json(entry.command)
            except InputError as exc:
                raise JournalError(
                    f"{self.journal.path}: entry {entry.id} no longer parses: {exc}"
                ) from None
            if _verdict(reply) != _verdict(entry.reply) or self.session.seq != entry.seq:
                raise JournalError(
                    f"{self.journal.path}: entry {entry.id} replays to seq {self.session.seq} "
                    f"{_verdict(reply)}, but the journal has seq {entry.seq} "
                    f"{_verdict(entry.reply)} (was the journal altered, or the rules engine "
                    "changed mid-match?)"
                )
            self._follow(entry.command.get("cmd"), reply)
            count += 1
        self.resume = ResumePoint(started, last_input_no, last_t_end)
        log.info("journal %s: %d commands replayed, seq %d", self.journal.path, count, self.seq)

    def state_json(self) -> Json:
        return state_json(self.session.state)


def _applied(name: object, reply: Mapping[str, Any]) -> bool:
    """Whether the command changed the match (and so is replayed on start)."""
    if "seq" in reply:
        return True
    return name != "state" and reply.get("ok") is True


def _verdict(reply: Mapping[str, Any]) -> tuple[Any, ...]:
    """What a replayed reply must agree on with the journaled one. The reason's wording is
    left out: it follows the configured language, which may have changed since."""
    return (
        reply.get("seq"),
        reply.get("kind"),
        reply.get("reason_code"),
        reply.get("rejected"),
        "error" in reply,
        reply.get("ok"),
    )


def _nothing() -> None:
    return None
