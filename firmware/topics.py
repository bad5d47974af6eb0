"""MQTT topic names of contracts.md §6: one root per table."""

from __future__ import annotations

from dataclasses import dataclass

ROOT = "tenball/v1"


@dataclass(frozen=True)
class Topics:
    table: str

    @property
    def root(self) -> str:
        return f"{ROOT}/{self.table}"

    @property
    def state(self) -> str:
        return f"{self.root}/state"

    @property
    def ruling(self) -> str:
        return f"{self.root}/ruling"

    @property
    def facts(self) -> str:
        return f"{self.root}/facts"

    @property
    def status(self) -> str:
        return f"{self.root}/status"

    @property
    def cmd(self) -> str:
        return f"{self.root}/cmd"

    @property
    def cmd_result(self) -> str:
        return f"{self.root}/cmd/result"


def venue_states() -> str:
    """Every table's retained state, for a venue view."""
    return f"{ROOT}/+/state"


def table_of(topic: str) -> str | None:
    """The table id in a topic under the root, or None."""
    parts = topic.split("/")
    if len(parts) < 4 or "/".join(parts[:2]) != ROOT:
        return None
    return parts[2]
