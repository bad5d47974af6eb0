"""Every rules case file, through the Python API and through the `tenball rules` CLI."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest

from rules import Session
from tests.rules.cases import Case, event_command, load_cases, load_command, mismatches

CASES = load_cases()
IDS = [c["id"] for c in CASES]


def test_case_files_exist_and_ids_are_unique() -> None:
    assert len(CASES) >= 100
    assert len(set(IDS)) == len(IDS), "duplicate case ids"


def _ruled_by_api(case: Case) -> dict[str, Any]:
    session = Session()
    loaded = session.handle_json(load_command(case))
    assert loaded.get("ok") is True, loaded
    return session.handle_json(event_command(case))


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_case_through_api(case: Case) -> None:
    problems = mismatches(case["expect"], _ruled_by_api(case))
    assert not problems, f"{case['_file']} {case['id']} {case['title']}: " + "; ".join(problems)


@pytest.fixture(scope="module")
def cli_replies() -> dict[str, dict[str, Any]]:
    """All cases through one `tenball rules` process: a load and the event per case."""
    lines = []
    for case in CASES:
        lines.append(json.dumps(load_command(case)))
        lines.append(json.dumps(event_command(case)))
    done = subprocess.run(
        [sys.executable, "-m", "firmware.cli", "rules"],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        check=True,
    )
    replies = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(replies) == 2 * len(CASES), done.stderr
    return {case["id"]: replies[2 * i + 1] for i, case in enumerate(CASES)}


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_case_through_cli(case: Case, cli_replies: dict[str, dict[str, Any]]) -> None:
    reply = cli_replies[case["id"]]
    reply.pop("line", None)
    problems = mismatches(case["expect"], reply)
    assert not problems, f"{case['_file']} {case['id']}: " + "; ".join(problems)
