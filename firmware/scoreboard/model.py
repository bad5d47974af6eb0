"""What a scoreboard knows: per table, the latest state, status and rulings; and the broker link.

The MQTT thread writes, the views read. Views never see the model change under them: they
take a `Snapshot` (immutable) and wait for the next one. Every change bumps a version number,
and each table remembers the version that last changed it, so a view that serves many tables
(the venue page) sends only the tables that changed since the version it last sent.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType

from firmware.scoreboard.payloads import RulingPayload, StatePayload, StatusPayload

# How many rulings a table keeps for the "earlier rulings" list of the web page.
RECENT_RULINGS = 5


@dataclass(frozen=True)
class TableView:
    """One table as a scoreboard shows it. `state` is None until the table has published one."""

    table: str
    state: StatePayload | None = None
    status: StatusPayload | None = None
    rulings: tuple[RulingPayload, ...] = ()  # newest first
    version: int = 0

    @property
    def online(self) -> bool | None:
        """What the table's status says; None when it has not said (yet)."""
        return None if self.status is None else self.status["online"]


@dataclass(frozen=True)
class Snapshot:
    version: int = 0
    connected: bool = False
    tables: Mapping[str, TableView] = field(default_factory=lambda: MappingProxyType({}))
    ignored: int = 0  # malformed payloads ignored since start
    problem: str | None = None  # the last of them, for the installer

    def table(self, table: str) -> TableView:
        return self.tables.get(table) or TableView(table)

    def changed_since(self, version: int) -> list[TableView]:
        return sorted(
            (view for view in self.tables.values() if view.version > version),
            key=lambda view: view.table,
        )


class Model:
    def __init__(self) -> None:
        self._changed = threading.Condition()
        self._snapshot = Snapshot()
        self._tables: dict[str, TableView] = {}

    def put_state(self, table: str, state: StatePayload | None, *, retained: bool) -> bool:
        """Take a table's state; False when it is older than the one shown.

        Declarations (a call, a safety) change the state without a new ruling, so the same
        `seq` comes again with new content: only a lower `seq` is stale. A retained message is
        what the broker holds now, so it is taken whatever its `seq` (a table whose referee was
        reset starts counting again). `None` is the retained state being cleared.
        """
        with self._changed:
            view = self._tables.get(table, TableView(table))
            old = view.state
            if state is not None and old is not None and state["seq"] < old["seq"]:
                if not retained:
                    return False
                view = replace(view, rulings=())  # the table started over
            self._update(replace(view, state=state))
            return True

    def put_ruling(self, table: str, ruling: RulingPayload) -> bool:
        """Take a ruling; False for one already seen (delivery is at least once)."""
        with self._changed:
            view = self._tables.get(table, TableView(table))
            if view.rulings and ruling["seq"] <= view.rulings[0]["seq"]:
                return False
            self._update(replace(view, rulings=(ruling, *view.rulings)[:RECENT_RULINGS]))
            return True

    def put_status(self, table: str, status: StatusPayload | None) -> None:
        with self._changed:
            self._update(replace(self._tables.get(table, TableView(table)), status=status))

    def set_connected(self, connected: bool) -> None:
        with self._changed:
            if connected != self._snapshot.connected:
                self._publish(replace(self._snapshot, connected=connected))

    def ignore(self, problem: str) -> None:
        """Count a malformed payload, and keep its description for the views to show."""
        with self._changed:
            snapshot = self._snapshot
            self._publish(replace(snapshot, ignored=snapshot.ignored + 1, problem=problem))

    def snapshot(self) -> Snapshot:
        with self._changed:
            return self._snapshot

    def wait(self, after: int, timeout: float) -> Snapshot:
        """The first snapshot newer than version `after`, or the current one after `timeout`."""
        with self._changed:
            self._changed.wait_for(lambda: self._snapshot.version > after, timeout)
            return self._snapshot

    def _update(self, view: TableView) -> None:
        version = self._snapshot.version + 1
        self._tables[view.table] = replace(view, version=version)
        tables = MappingProxyType(dict(self._tables))
        self._publish(replace(self._snapshot, tables=tables), version)

    def _publish(self, snapshot: Snapshot, version: int | None = None) -> None:
        version = snapshot.version + 1 if version is None else version
        self._snapshot = replace(snapshot, version=version)
        self._changed.notify_all()
