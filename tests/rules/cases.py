"""Reading the rules case files (rules.md §10 shape) and turning them into commands."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

CASES_DIR = Path(__file__).resolve().parent.parent / "rules_cases"

Case = dict[str, Any]


def load_cases() -> list[Case]:
    cases: list[Case] = []
    for path in sorted(CASES_DIR.glob("*.json")):
        for case in json.loads(path.read_text(encoding="utf-8"))["cases"]:
            cases.append(case | {"_file": path.name})
    return cases


def load_command(case: Case) -> dict[str, Any]:
    return {
        "cmd": "load",
        "state": case["given"],
        "ruleset": case.get("ruleset"),
        "options": case.get("options"),
    }


def event_command(case: Case) -> dict[str, Any]:
    event = case["event"]
    if event == "shot":
        return {"cmd": "shot", **case["shot"]}
    if event == "option":
        return {"cmd": "option", **case["option"]}
    if event == "referee":
        return {"cmd": "referee", **case["referee"]}
    if event == "foul_between_shots":
        return {"cmd": "foul", **case["foul_between_shots"]}
    if event == "declare":
        body = case["declare"]
        if "call" in body:
            return {"cmd": "call", **body["call"]}
        if body.get("safety"):
            return {"cmd": "safety"}
        if body.get("push_out"):
            return {"cmd": "push_out"}
    raise ValueError(f"case {case['id']}: unknown event {event!r}")


def mismatches(expect: dict[str, Any], actual: dict[str, Any]) -> list[str]:
    """Every expected key whose value differs from the reply (fouls compared as a set)."""
    problems = []
    for key, want in expect.items():
        got = actual.get(key, "<missing>")
        if key == "fouls" and isinstance(got, list):
            same = sorted(got) == sorted(want)
        elif key == "ten_spot" and want is not None and isinstance(got, list):
            same = all(abs(g - w) <= 0.1 for g, w in zip(got, want, strict=True))
        else:
            same = got == want
        if not same:
            problems.append(f"{key}: expected {want!r}, got {got!r}")
    return problems
