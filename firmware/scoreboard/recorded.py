"""A match's MQTT traffic as the referee publishes it, for tests, demos and the load benchmark.

The commands of a match (contracts.md §4, such as fixtures/matches/demo_match.jsonl) are ruled
by the real engine (`rules.Session`) and each result becomes what the referee publishes: a
`ruling` for every ruling, and the `state` (built by `firmware.board`) after every accepted
command — declarations change the board too. So the views are tested on the engine's own
output, not on hand-made dictionaries.

Shots without `positions` get random resting positions for the balls (the engine keeps those
of the balls still on the table), so the table diagram has something to show; and each
command gets a time on a plausible match clock, so traffic can be replayed at any speed.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from firmware.board import board_state
from firmware.topics import Topics
from rules import Session

Json = dict[str, Any]

MATCHES = Path(__file__).resolve().parents[2] / "fixtures" / "matches"
DEMO_MATCH = MATCHES / "demo_match.jsonl"
DECLARATIONS = ("call", "safety", "push_out", "option", "referee", "foul")
BALL_MM = 57.15


@dataclass(frozen=True)
class Pace:
    """Seconds of real play: between shots, and from a declaration to the shot it is for."""

    shot: tuple[float, float] = (20.0, 45.0)
    declaration: tuple[float, float] = (3.0, 8.0)


@dataclass(frozen=True)
class Publication:
    t: float  # seconds since the start of the match
    topic: str
    payload: Json
    retain: bool

    def encoded(self) -> bytes:
        return json.dumps(self.payload, ensure_ascii=False).encode("utf-8")


def load_commands(path: Path = DEMO_MATCH) -> list[Json]:
    return [json.loads(line) for line in path.read_text("utf-8").splitlines() if line.strip()]


def with_players(commands: Iterable[Json], a: str, b: str) -> list[Json]:
    """The same match played by other players (the venue benchmark's 64 tables)."""
    return [
        {**c, "players": {"A": a, "B": b}} if c.get("cmd") == "new_match" else c for c in commands
    ]


def referee_traffic(
    commands: Iterable[Json],
    *,
    table: str,
    lang: str = "en",
    seed: int | str = 0,
    positions: bool = True,
    table_mm: tuple[float, float] = (2540.0, 1270.0),
    pace: Pace = Pace(),
) -> list[Publication]:
    """What the referee of `table` publishes while `commands` are played, in order."""
    rng = random.Random(f"{table}/{seed}")
    names = Topics(table)
    session = Session(lang=lang)
    t = 0.0
    out = [Publication(t, names.status, {"online": True, "fps": 120.0, "camera": "ok"}, True)]
    last_ruling: Json | None = None
    for given in commands:
        command, kind = given, given.get("cmd")
        if kind == "shot":
            t += rng.uniform(*pace.shot)
            if positions and "positions" not in command:
                command = {**command, "positions": resting_positions(rng, table_mm)}
        elif kind in DECLARATIONS:
            t += rng.uniform(*pace.declaration)
        reply = session.handle_json(command)
        if "rejected" in reply:
            raise ValueError(f"{table}: the engine rejected {command}: {reply['rejected']}")
        if "seq" in reply:
            last_ruling = reply
            out.append(Publication(t, names.ruling, reply, False))
        state = board_state(
            session.state, seq=session.seq, table=table, last_ruling=last_ruling, lang=lang
        )
        out.append(Publication(t, names.state, state, True))
    return out


def states(traffic: Iterable[Publication]) -> list[Json]:
    return [p.payload for p in traffic if p.topic.endswith("/state")]


def resting_positions(rng: random.Random, table_mm: tuple[float, float]) -> Json:
    """Every ball somewhere on the cloth, none overlapping another."""
    length, width = table_mm
    margin = BALL_MM
    placed: dict[str, list[float]] = {}
    for ball in ["cue", *(str(n) for n in range(1, 11))]:
        while True:
            x = rng.uniform(margin, length - margin)
            y = rng.uniform(margin, width - margin)
            if all(
                (x - px) ** 2 + (y - py) ** 2 > (2 * BALL_MM) ** 2 for px, py in placed.values()
            ):
                placed[ball] = [round(x, 1), round(y, 1)]
                break
    return placed
