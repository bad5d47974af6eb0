"""The README's main job, and the referee loop with vision on a recording."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.firmware.support import expected_rulings

REPO = Path(__file__).resolve().parents[2]
FIXTURES = REPO / "fixtures" / "tuning"


def test_the_demo_plays_the_whole_rack_to_the_scoreboard() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "firmware.cli", "demo", "--fast", "--detector", "recorded",
         "--port", "0"],
        capture_output=True, text=True, timeout=300, check=False, cwd=REPO,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    rulings = len(expected_rulings(FIXTURES / "whole_rack"))
    assert f"{rulings} rulings from whole_rack (recorded facts)." in done.stdout
    # The board the scoreboard last showed: the rack won by the 10.
    last_board = done.stdout.rsplit("Ten-Ball", 1)[1]
    assert "wins the rack" in last_board


def test_run_with_vision_rules_a_recording_as_its_truth(tmp_path: Path) -> None:
    recording = FIXTURES / "pot_straight"
    done = subprocess.run(
        [sys.executable, "-m", "firmware.cli", "run", "--source", str(recording),
         "--journal", str(tmp_path / "journal.sqlite")],
        capture_output=True, text=True, timeout=120, check=False, cwd=REPO,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    rulings = [json.loads(line) for line in done.stdout.splitlines()]
    keys = ("foul", "balls_on_table_after", "next_shooter", "cue_ball_next", "score_after")
    want = [{k: r[k] for k in keys} for r in expected_rulings(recording)]
    assert [{k: r[k] for k in keys} for r in rulings] == want


def test_without_a_broker_the_loop_feeds_the_terminal_board_and_says_so() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "firmware.cli", "demo", "--fast", "--detector", "recorded",
         "--no-broker", "--recording", str(FIXTURES / "pot_straight")],
        capture_output=True, text=True, timeout=120, check=False, cwd=REPO,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "without MQTT" in done.stdout
    assert "#1: Ann made the 1 in the foot-right corner and continues." in done.stdout
