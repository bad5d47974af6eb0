"""The journal: an SQLite file holding every command, shot and ruling, and the outbox.

Everything the referee decides is committed here before anything is published, so a crash or
a power cut loses nothing: on start the match is rebuilt by replaying the journaled commands
(:mod:`firmware.referee`), and the outbox still holds every message not yet acknowledged by the
broker (:mod:`firmware.outbox`).

- WAL with ``synchronous=FULL``: a commit is on disk when it returns, and a reader (the
  publisher thread) never blocks the writer (the referee loop).
- A new journal is built under a temporary name and renamed into place, so a file at the
  journal's path is always a complete journal: a missing schema, a file that is not SQLite, a
  failed integrity check or a missing format marker mean damage, and opening it raises
  :class:`JournalError` — never a silent new match.

One :class:`Journal` per thread (SQLite connections are not shared between threads)::

    journal = Journal.open(path)                 # checked; created if absent
    entry_id = journal.record(entry, [Message(topic, payload, retain=True)])
    other_thread_journal = Journal.attach(path)  # the publisher's own connection
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

FORMAT: Final = "tenball-journal/1"

_SCHEMA: Final = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
-- One row per command handled, in the order handled. `applied` rows changed the match and are
-- replayed on start; the others (rejected, malformed, queries) are kept as the record of what
-- was received. `seq` is the session's ruling counter after the command.
CREATE TABLE entries (
    id INTEGER PRIMARY KEY,
    at REAL NOT NULL,
    origin TEXT NOT NULL,
    source TEXT NOT NULL,
    t REAL,
    input_no INTEGER,
    command TEXT NOT NULL,
    reply TEXT NOT NULL,
    applied INTEGER NOT NULL,
    seq INTEGER NOT NULL
);
CREATE INDEX entries_source ON entries (source);
-- Messages still owed to the broker, in publishing order; a row goes when its PUBACK comes.
-- AUTOINCREMENT: ids must never be reused once the table has been emptied, or the publisher,
-- which remembers the last id it sent, would skip the new rows.
CREATE TABLE outbox (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    entry INTEGER REFERENCES entries (id),
    topic TEXT NOT NULL,
    payload BLOB NOT NULL,
    qos INTEGER NOT NULL,
    retain INTEGER NOT NULL
);
"""


class JournalError(Exception):
    """The journal is damaged or does not match what replaying it gives: refuse to start."""


@dataclass(frozen=True)
class Entry:
    """One handled command. ``t`` is the time on the frame source's clock (a shot's: its
    ``t_end``); ``input_no`` the command's position in a recording's ``inputs.jsonl``."""

    origin: str
    source: str
    command: Mapping[str, Any]
    reply: Mapping[str, Any]
    applied: bool
    seq: int
    t: float | None = None
    input_no: int | None = None
    id: int = 0
    at: float = 0.0


@dataclass(frozen=True)
class Message:
    topic: str
    payload: bytes
    qos: int = 1
    retain: bool = False


@dataclass(frozen=True)
class Queued:
    """An outbox row: a message and its place in the publishing order."""

    id: int
    message: Message = field(repr=False)


def dumps(obj: object) -> str:
    """The journal's and the wire's JSON: compact, UTF-8 as is (Hebrew reasons stay readable)."""
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


class Journal:
    def __init__(self, path: Path, connection: sqlite3.Connection) -> None:
        self.path = path
        self._db = connection

    @classmethod
    def open(cls, path: Path | str) -> Journal:
        """Open and check the journal at ``path``, creating an empty one if there is none."""
        path = Path(path)
        if not path.exists():
            _create(path)
        elif path.is_dir():
            raise JournalError(f"{path}: is a directory, not a journal")
        elif path.stat().st_size == 0:
            # A journal is never empty (it is created whole and renamed): this one was cut.
            raise JournalError(f"{path}: the file is empty (truncated)")
        # Checked before anything is set on the connection: switching a foreign or damaged file
        # to WAL would write to it, and a refused file must be left exactly as found.
        try:
            db = sqlite3.connect(path, isolation_level=None, timeout=10.0)
        except sqlite3.DatabaseError as exc:
            raise JournalError(f"{path}: unreadable: {exc}") from None
        try:
            problems = [row[0] for row in db.execute("PRAGMA integrity_check")]
            if problems != ["ok"]:
                raise JournalError(f"{path}: integrity check failed: {'; '.join(problems[:5])}")
            tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master")}
            if not {"meta", "entries", "outbox"} <= tables:
                raise JournalError(f"{path}: not a tenball journal (tables missing)")
            row = db.execute("SELECT value FROM meta WHERE key = 'format'").fetchone()
            if row is None or row[0] != FORMAT:
                found = "none" if row is None else repr(row[0])
                raise JournalError(f"{path}: journal format {found}, expected {FORMAT!r}")
        except sqlite3.DatabaseError as exc:
            db.close()
            raise JournalError(f"{path}: unreadable: {exc}") from None
        except JournalError:
            db.close()
            raise
        db.close()
        return cls(path, _connect(path))

    @classmethod
    def attach(cls, path: Path | str) -> Journal:
        """Another connection to a journal already opened with :meth:`open`, for another
        thread."""
        return cls(Path(path), _connect(Path(path)))

    def close(self) -> None:
        self._db.close()

    # ----- entries

    def entries(self) -> Iterator[Entry]:
        """Every entry, oldest first."""
        rows = self._db.execute(
            "SELECT id, at, origin, source, t, input_no, command, reply, applied, seq "
            "FROM entries ORDER BY id"
        )
        for row in rows:
            try:
                command = json.loads(row[6])
                reply = json.loads(row[7])
            except json.JSONDecodeError as exc:
                raise JournalError(f"{self.path}: entry {row[0]}: bad JSON: {exc}") from None
            yield Entry(
                id=row[0],
                at=row[1],
                origin=row[2],
                source=row[3],
                t=row[4],
                input_no=row[5],
                command=command,
                reply=reply,
                applied=bool(row[8]),
                seq=row[9],
            )

    def record(self, entry: Entry | None, messages: Sequence[Message] = ()) -> None:
        """Commit an entry and the messages it causes, together: both or neither."""
        with self._transaction() as db:
            entry_id = None
            if entry is not None:
                cursor = db.execute(
                    "INSERT INTO entries (at, origin, source, t, input_no, command, reply, "
                    "applied, seq) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        time.time(),
                        entry.origin,
                        entry.source,
                        entry.t,
                        entry.input_no,
                        dumps(entry.command),
                        dumps(entry.reply),
                        int(entry.applied),
                        entry.seq,
                    ),
                )
                entry_id = cursor.lastrowid
            db.executemany(
                "INSERT INTO outbox (entry, topic, payload, qos, retain) VALUES (?, ?, ?, ?, ?)",
                [(entry_id, m.topic, m.payload, m.qos, int(m.retain)) for m in messages],
            )

    # ----- outbox

    def queued(self, after: int = 0, limit: int = 100) -> list[Queued]:
        """Outbox rows after row ``after``, in publishing order."""
        rows = self._db.execute(
            "SELECT id, topic, payload, qos, retain FROM outbox WHERE id > ? ORDER BY id LIMIT ?",
            (after, limit),
        )
        return [Queued(r[0], Message(r[1], bytes(r[2]), r[3], bool(r[4]))) for r in rows]

    def delivered(self, ids: Iterable[int]) -> None:
        with self._transaction() as db:
            db.executemany("DELETE FROM outbox WHERE id = ?", [(i,) for i in ids])

    def queued_count(self) -> int:
        return int(self._db.execute("SELECT COUNT(*) FROM outbox").fetchone()[0])

    def size_bytes(self) -> int:
        """The journal's size on disk, its write-ahead log included."""
        total = 0
        for name in (self.path, Path(f"{self.path}-wal")):
            with contextlib.suppress(FileNotFoundError):
                total += name.stat().st_size
        return total

    def _transaction(self) -> _Transaction:
        return _Transaction(self._db)


class _Transaction:
    """BEGIN IMMEDIATE … COMMIT, or ROLLBACK on an exception (autocommit connections)."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db

    def __enter__(self) -> sqlite3.Connection:
        self._db.execute("BEGIN IMMEDIATE")
        return self._db

    def __exit__(self, exc_type: object, exc: object, tb: object) -> None:
        self._db.execute("COMMIT" if exc_type is None else "ROLLBACK")


def _connect(path: Path) -> sqlite3.Connection:
    try:
        # isolation_level=None: transactions are explicit (see _Transaction), not implicit.
        db = sqlite3.connect(path, isolation_level=None, timeout=10.0)
        db.execute("PRAGMA journal_mode = WAL")
        db.execute("PRAGMA synchronous = FULL")
    except sqlite3.DatabaseError as exc:
        raise JournalError(f"{path}: unreadable: {exc}") from None
    return db


def _create(path: Path) -> None:
    """Build an empty journal beside ``path`` and rename it into place, durably."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(path.name + ".new")
    for stale in (temporary, Path(f"{temporary}-journal")):
        stale.unlink(missing_ok=True)
    db = sqlite3.connect(temporary, isolation_level=None)
    try:
        # No transaction needed: the file is renamed into place only once it is complete.
        db.executescript(_SCHEMA)
        db.execute("INSERT INTO meta VALUES ('format', ?), ('created', ?)", (FORMAT, _now()))
    finally:
        db.close()
    _fsync(temporary)
    os.replace(temporary, path)
    _fsync(path.parent)


def _fsync(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S%z")
