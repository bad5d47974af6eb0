"""The journal on a real SQLite file: entries and outbox survive reopening, the outbox keeps its
order, and anything that is not a whole journal is refused."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from firmware.journal import FORMAT, Entry, Journal, JournalError, Message


def entry(seq: int, **changes: object) -> Entry:
    fields: dict[str, object] = {
        "origin": "mqtt",
        "source": "camera",
        "command": {"cmd": "call", "ball": 3, "pocket": "SR", "from": "tablet-2"},
        "reply": {"ok": True},
        "applied": True,
        "seq": seq,
        **changes,
    }
    return Entry(**fields)  # type: ignore[arg-type]


def test_a_new_journal_is_complete_before_it_has_its_name(tmp_path: Path) -> None:
    path = tmp_path / "state" / "journal.sqlite"
    stale = tmp_path / "state" / "journal.sqlite.new"
    stale.parent.mkdir()
    stale.write_bytes(b"half a journal from a power cut during creation")

    journal = Journal.open(path)
    journal.close()

    assert not stale.exists()
    with closing(sqlite3.connect(path)) as db:
        assert db.execute("SELECT value FROM meta WHERE key = 'format'").fetchone() == (FORMAT,)
        assert db.execute("PRAGMA journal_mode").fetchone() == ("wal",)


def test_entries_and_outbox_survive_reopening(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    journal = Journal.open(path)
    reason = {"seq": 1, "reason": "פאול: כדור הלבן נכנס לכיס"}  # Hebrew stays as is
    journal.record(
        entry(1, reply=reason, t=12.5, input_no=3, origin="recording"),
        [Message("a/ruling", b"r1"), Message("a/state", b"s1", retain=True)],
    )
    journal.record(entry(1, applied=False, reply={"rejected": "ball_not_on_table"}))
    journal.close()

    again = Journal.open(path)
    entries = list(again.entries())
    queued = again.queued()

    assert [(e.seq, e.applied, e.origin, e.t, e.input_no) for e in entries] == [
        (1, True, "recording", 12.5, 3),
        (1, False, "mqtt", None, None),
    ]
    assert entries[0].reply == reason
    assert entries[1].command["from"] == "tablet-2"
    assert [(q.message.topic, q.message.payload, q.message.retain) for q in queued] == [
        ("a/ruling", b"r1", False),
        ("a/state", b"s1", True),
    ]
    again.close()


def test_the_outbox_keeps_its_order_and_never_reuses_an_id(tmp_path: Path) -> None:
    journal = Journal.open(tmp_path / "journal.sqlite")
    journal.record(entry(1), [Message("t", b"1"), Message("t", b"2")])
    first = journal.queued()
    journal.delivered(q.id for q in first)
    assert journal.queued_count() == 0

    # An emptied table must not hand out the same ids again: the publisher continues after
    # the last id it sent and would skip these.
    journal.record(entry(2), [Message("t", b"3")])
    later = journal.queued(after=first[-1].id)

    assert [q.message.payload for q in later] == [b"3"]
    assert journal.size_bytes() > 0
    journal.close()


def test_an_entry_and_its_messages_are_committed_together(tmp_path: Path) -> None:
    journal = Journal.open(tmp_path / "journal.sqlite")
    unserialisable = entry(1, command={"cmd": "x", "bad": object()})

    with pytest.raises(TypeError):
        journal.record(unserialisable, [Message("t", b"lost")])

    assert list(journal.entries()) == []
    assert journal.queued_count() == 0
    journal.close()


@pytest.mark.parametrize(
    ("content", "complaint"),
    [
        (b"", "empty"),
        (b"not SQLite at all" * 100, "unreadable"),
    ],
)
def test_a_file_that_is_not_a_journal_is_refused(
    tmp_path: Path, content: bytes, complaint: str
) -> None:
    path = tmp_path / "journal.sqlite"
    path.write_bytes(content)

    with pytest.raises(JournalError, match=complaint):
        Journal.open(path)
    assert path.read_bytes() == content


def test_another_programs_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    with closing(sqlite3.connect(path)) as db, db:
        db.execute("CREATE TABLE meta (key TEXT, value TEXT)")
        db.execute("CREATE TABLE entries (id INTEGER)")
        db.execute("CREATE TABLE outbox (id INTEGER)")

    with pytest.raises(JournalError, match="journal format none"):
        Journal.open(path)


def test_a_directory_is_refused(tmp_path: Path) -> None:
    with pytest.raises(JournalError, match="directory"):
        Journal.open(tmp_path)
