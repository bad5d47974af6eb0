"""The model: which states and rulings win, versions, and waiting for a change."""

from __future__ import annotations

import threading
import time
from typing import Any, cast

from firmware.scoreboard.model import RECENT_RULINGS, Model
from firmware.scoreboard.payloads import RulingPayload, StatePayload

Json = dict[str, Any]


def _state(states: list[Json], i: int) -> StatePayload:
    return cast(StatePayload, states[i])


def _ruling(seq: int) -> RulingPayload:
    return {"seq": seq, "reason_code": "safety", "reason_args": {"next": "Ann"}}


def test_an_older_state_is_dropped_unless_retained(states: list[Json]) -> None:
    model = Model()
    newer, older = _state(states, 20), _state(states, 10)
    assert newer["seq"] > older["seq"]
    assert model.put_state("t1", newer, retained=False)
    assert not model.put_state("t1", older, retained=False)
    assert model.snapshot().table("t1").state is newer
    # What the broker holds now wins: the table's referee started over.
    model.put_ruling("t1", _ruling(30))
    assert model.put_state("t1", older, retained=True)
    view = model.snapshot().table("t1")
    assert view.state is older
    assert view.rulings == ()


def test_a_declaration_keeps_the_seq_and_is_shown(states: list[Json]) -> None:
    ruled, called = _state(states, 10), _state(states, 11)
    assert ruled["seq"] == called["seq"] and called["call"] is not None
    model = Model()
    model.put_state("t1", ruled, retained=False)
    assert model.put_state("t1", called, retained=False)
    assert model.snapshot().table("t1").state is called


def test_rulings_seen_before_are_dropped_and_few_are_kept() -> None:
    model = Model()
    assert model.put_ruling("t1", _ruling(1))
    assert not model.put_ruling("t1", _ruling(1))  # QoS 1 delivers at least once
    for seq in range(2, 10):
        model.put_ruling("t1", _ruling(seq))
    assert not model.put_ruling("t1", _ruling(4))
    seqs = [r["seq"] for r in model.snapshot().table("t1").rulings]
    assert seqs == list(range(9, 9 - RECENT_RULINGS, -1))
    assert model.put_ruling("t2", _ruling(1))  # each table counts its own


def test_tables_remember_the_version_that_changed_them(states: list[Json]) -> None:
    model = Model()
    model.put_state("t1", _state(states, 1), retained=True)
    model.put_state("t2", _state(states, 2), retained=True)
    seen = model.snapshot().version
    model.put_status("t2", {"online": False})
    snapshot = model.snapshot()
    assert [v.table for v in snapshot.changed_since(0)] == ["t1", "t2"]
    assert [v.table for v in snapshot.changed_since(seen)] == ["t2"]
    assert snapshot.table("t2").online is False
    assert snapshot.table("t1").online is None
    assert snapshot.table("t9").state is None


def test_a_cleared_state_leaves_the_table_without_one(states: list[Json]) -> None:
    model = Model()
    model.put_state("t1", _state(states, 1), retained=True)
    model.put_state("t1", None, retained=True)
    assert model.snapshot().table("t1").state is None


def test_broker_link_and_ignored_messages() -> None:
    model = Model()
    assert not model.snapshot().connected
    model.set_connected(True)
    version = model.snapshot().version
    model.set_connected(True)  # no change, no new version
    assert model.snapshot().version == version
    model.ignore("tenball/v1/t1/state: not JSON")
    snapshot = model.snapshot()
    assert (snapshot.ignored, snapshot.problem) == (1, "tenball/v1/t1/state: not JSON")


def test_wait_returns_at_the_next_change_or_after_the_timeout() -> None:
    model = Model()
    start = time.monotonic()
    assert model.wait(0, timeout=0.05).version == 0
    assert time.monotonic() - start >= 0.05
    timer = threading.Timer(0.05, model.set_connected, (True,))
    timer.start()
    snapshot = model.wait(0, timeout=5)
    timer.join()
    assert snapshot.connected and snapshot.version == 1
