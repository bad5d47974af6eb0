"""`tenball bench`: speed of the pipeline's parts, printed (never asserted in tests)."""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable

from firmware.demo import DEMO_MATCH
from rules import MatchState, Ruling, Session, apply, parse_command
from rules.commands import Command, NewMatch


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--seconds", type=float, default=2.0, help="time spent on each measurement")


def _rate(run_once: Callable[[], int], seconds: float) -> float:
    """Items per second of `run_once` (which returns how many items it did), best of 3."""
    best = 0.0
    for _ in range(3):
        done, start = 0, time.perf_counter()
        while (elapsed := time.perf_counter() - start) < seconds / 3:
            done += run_once()
        best = max(best, done / elapsed)
    return best


def bench_rules(seconds: float) -> dict[str, float]:
    objects = [json.loads(line) for line in DEMO_MATCH.read_text().splitlines() if line.strip()]
    commands: list[Command] = [parse_command(obj) for obj in objects]
    start = commands[0].state if isinstance(commands[0], NewMatch) else MatchState()

    def engine_only() -> int:
        state, rulings = start, 0
        for command in commands[1:]:
            outcome = apply(state, command)
            state = outcome.state
            rulings += isinstance(outcome.result, Ruling)
        return rulings

    def json_session() -> int:
        session = Session()
        for obj in objects:
            session.handle_json(obj)
        return session.seq

    return {
        "engine (typed inputs)": _rate(engine_only, seconds),
        "session (JSON in; ruling JSON with its reason out)": _rate(json_session, seconds),
    }


def main(args: argparse.Namespace) -> int:
    print("rules engine, one core, the demo match replayed:")
    for name, rate in bench_rules(args.seconds).items():
        print(f"  {name:<48} {rate:>10,.0f} rulings/s")
    return 0
