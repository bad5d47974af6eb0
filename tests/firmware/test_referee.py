"""The referee over a real journal: what each command journals and publishes, and the match
rebuilt from the journal alone."""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

from firmware.intake import CommandError
from firmware.journal import Journal, JournalError
from firmware.referee import Defaults, Origin, Referee
from tests.firmware.support import PLAYERS, SHOTS, TABLE

ROOT = f"tenball/v1/{TABLE}"
SOURCE = "recording:/somewhere"


def open_referee(path: Path, **kwargs: Any) -> Referee:
    return Referee.open(Journal.open(path), table=TABLE, source=SOURCE, **kwargs)


def outbox(referee: Referee) -> list[tuple[str, Any]]:
    rows = referee.journal.queued(limit=1000)
    return [(q.message.topic.removeprefix(ROOT + "/"), json.loads(q.message.payload)) for q in rows]


def play(referee: Referee) -> list[dict[str, Any]]:
    """The recorded match's commands, as the loop would feed them; the answers."""
    answers = [
        referee.handle({"cmd": "new_match", "players": PLAYERS, "race_to": 2}, Origin("setup")),
        referee.handle({"cmd": "shot", **SHOTS[0]}, Origin("detector", 1.1)),
        referee.handle({"cmd": "call", "ball": 1, "pocket": "SR"}, Origin("recording", 1.3, 0)),
        referee.handle({"cmd": "shot", **SHOTS[1]}, Origin("detector", 2.1)),
        referee.handle({"cmd": "call", "ball": 2, "pocket": "FR"}, Origin("mqtt", 2.3)),
    ]
    return answers


def test_a_shot_journals_its_facts_ruling_and_state_before_publishing(tmp_path: Path) -> None:
    referee = open_referee(tmp_path / "j.sqlite")
    referee.handle({"cmd": "new_match", "players": PLAYERS, "race_to": 2}, Origin("setup"))
    referee.journal.delivered(q.id for q in referee.journal.queued())

    answer = referee.handle({"cmd": "shot", "shot": 1, **SHOTS[0]}, Origin("mqtt", 1.0))

    assert answer["ok"] is True and answer["seq"] == 1 and answer["cmd"] == "shot"
    messages = outbox(referee)
    assert [topic for topic, _ in messages] == ["facts", "ruling", "state", "cmd/result"]
    facts, ruling, state, result = (payload for _, payload in messages)
    assert facts == {"shot": 1, **SHOTS[0]}
    assert ruling["seq"] == 1 and ruling["break_legal"] is True
    assert state["seq"] == 1 and state["last_ruling"]["seq"] == 1
    assert state["balls_on_table"] == [1, 2, 3, 5, 6, 7, 8, 9, 10]
    assert result == answer
    retained = [q.message.retain for q in referee.journal.queued()]
    assert retained == [False, False, True, False]


def test_a_refused_command_changes_nothing_and_is_answered(tmp_path: Path) -> None:
    referee = open_referee(tmp_path / "j.sqlite")
    play(referee)
    referee.journal.delivered(q.id for q in referee.journal.queued())
    board = referee.board()

    rejected = referee.handle(
        {"cmd": "option", "chooser": "B", "choice": "play", "id": "t-7"}, Origin("mqtt", 3.0)
    )
    malformed = referee.handle({"cmd": "call", "ball": "seven", "id": 8}, Origin("mqtt", 3.1))
    not_a_command = referee.refuse(CommandError("not_json", "not JSON: Expecting value"))

    assert rejected == {"ok": False, "error": "no_option_pending", "cmd": "option", "id": "t-7"}
    assert malformed["error"] == "bad_command" and malformed["id"] == 8
    assert "ball" in malformed["message"]
    assert not_a_command == {
        "ok": False,
        "error": "not_json",
        "message": "not JSON: Expecting value",
    }
    assert [topic for topic, _ in outbox(referee)] == ["cmd/result"] * 3
    assert referee.board() == board


def test_the_match_is_rebuilt_from_the_journal(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite"
    referee = open_referee(path)
    play(referee)
    board, seq, state = referee.board(), referee.seq, referee.state
    referee.journal.close()

    again = open_referee(path)

    assert again.seq == seq == 2
    assert again.state == state
    assert again.board() == board  # the last ruling shown too
    assert again.resume.started
    assert again.resume.last_input_no == 0
    assert again.resume.last_shot_t_end == 2.1
    other = Referee.open(Journal.open(path), table=TABLE, source="camera")
    assert not other.resume.started and other.seq == 2


def test_undo_is_a_ruling_with_the_restored_state(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite"
    referee = open_referee(path)
    play(referee)
    referee.journal.delivered(q.id for q in referee.journal.queued())

    answer = referee.handle({"cmd": "undo", "from": "tablet-2"}, Origin("mqtt", 4.0))
    answer = referee.handle({"cmd": "undo", "from": "tablet-2"}, Origin("mqtt", 4.1))

    assert answer["ok"] is True and answer["seq"] == 4
    messages = outbox(referee)
    rulings = [payload for topic, payload in messages if topic == "ruling"]
    states = [payload for topic, payload in messages if topic == "state"]
    assert [r["kind"] for r in rulings] == ["undo", "undo"]
    assert rulings[-1]["state"]["balls_on_table"] == [1, 2, 3, 5, 6, 7, 8, 9, 10]
    assert states[-1]["seq"] == 4
    assert states[-1]["balls_on_table"] == [1, 2, 3, 5, 6, 7, 8, 9, 10]
    assert states[-1]["call"] == {"ball": 1, "pocket": "SR"}  # the call before shot 2 is back
    referee.journal.close()
    assert open_referee(path).board() == referee.board()


def test_a_new_match_gets_the_tables_rules_unless_it_names_its_own(tmp_path: Path) -> None:
    referee = open_referee(
        tmp_path / "j.sqlite",
        defaults=Defaults("ispa", {"break_order": "winner"}, (2235.0, 1118.0)),
        lang="nl",
    )

    referee.handle({"cmd": "new_match", "players": PLAYERS}, Origin("mqtt"))
    state = referee.state_json()
    assert state["ruleset"] == "ispa"
    assert state["options"]["break_order"] == "winner"
    assert state["table_mm"] == [2235.0, 1118.0]
    assert referee.board()["lang"] == "nl"

    referee.handle({"cmd": "new_match", "ruleset": "wpa", "options": {}}, Origin("mqtt"))
    assert referee.state_json()["ruleset"] == "wpa"


def test_without_a_broker_nothing_is_queued(tmp_path: Path) -> None:
    referee = open_referee(tmp_path / "j.sqlite", publish=False)
    play(referee)
    assert referee.journal.queued_count() == 0
    assert len(list(referee.journal.entries())) == 5


def test_listeners_hear_of_each_change_after_it_is_journaled(tmp_path: Path) -> None:
    referee = open_referee(tmp_path / "j.sqlite")
    heard: list[tuple[int, int | None, int]] = []

    def listener(board: dict[str, Any], ruling: dict[str, Any] | None) -> None:
        journaled = len(list(referee.journal.entries()))
        heard.append((board["seq"], None if ruling is None else ruling["seq"], journaled))

    referee.add_listener(listener)
    play(referee)

    assert heard == [(0, None, 1), (1, 1, 2), (1, None, 3), (2, 2, 4), (2, None, 5)]


def test_a_journal_that_does_not_replay_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite"
    referee = open_referee(path)
    play(referee)
    referee.journal.close()
    with closing(sqlite3.connect(path)) as db, db:
        db.execute('UPDATE entries SET reply = \'{"rejected": "foul"}\' WHERE id = 2')

    with pytest.raises(JournalError, match="entry 2 replays to seq 1"):
        open_referee(path)
