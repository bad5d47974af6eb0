"""The device configuration: the shipped example is valid, and every problem of a bad file is
reported with its key and line — by `tenball config check` and by `tenball run`."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from firmware.config import ConfigError, Problem, load_config, parse_config
from tests.firmware.support import REPO, finish, service

EXAMPLE = REPO / "deploy" / "tenball.toml"


def example_text(tmp_path: Path) -> str:
    password = tmp_path / "mqtt.password"
    password.write_text("secret\n")
    return EXAMPLE.read_text().replace("/etc/tenball/mqtt.password", str(password))


def test_the_shipped_example_is_valid(tmp_path: Path) -> None:
    config, problems = parse_config(example_text(tmp_path))

    assert problems == []
    assert config is not None
    assert config.table.id == "table1"
    assert config.mqtt is not None and config.mqtt.password() == "secret"
    assert config.camera.kind == "picamera2" and config.camera.fps == 120.0
    assert set(config.pins.pockets) == {"HL", "HR", "SL", "SR", "FL", "FR"}
    assert config.pins.indicator == 8
    assert config.journal == Path("/var/lib/tenball/journal.sqlite")


BAD = """\
[table]
id = "table/1"
size = "10ft"

[camera]
kind = "gopro"
fps = "fast"

[mqtt]
host = "broker"
port = 70000
password_file = "missing.txt"

[pins.pockets]
HL = 5
XX = 6

[pins.buttons]
HL = 5
undo = 40

[rules]
ruleset = "snooker"
lang = "fr"

[journl]
path = "x"
"""


def test_every_problem_is_reported_with_its_key_and_line(tmp_path: Path) -> None:
    _, problems = parse_config(BAD, base=tmp_path)

    found = {(p.key, p.line) for p in problems}
    assert found == {
        ("journl", 26),
        ("table.id", 2),
        ("table.size", 3),
        ("camera.kind", 6),
        ("camera.fps", 7),
        ("mqtt.port", 11),
        ("mqtt.password_file", 12),
        ("pins.pockets.XX", 16),
        ("pins.buttons.HL", 19),
        ("pins.buttons.undo", 20),
        ("rules.ruleset", 23),
        ("rules.lang", 24),
    }
    messages: dict[str, list[str]] = {}
    for problem in problems:
        messages.setdefault(problem.key, []).append(problem.message)
    assert "already used by pins.pockets.HL" in messages["pins.buttons.HL"][0]
    assert "'9ft'" in messages["table.size"][0]
    assert messages["mqtt.password_file"] == [
        f"no such file: {tmp_path / 'missing.txt'}",
        "a password needs mqtt.username",
    ]


def test_a_toml_syntax_error_names_its_line() -> None:
    _, problems = parse_config('[table]\nid = "t1"\nsize = 9ft\n')

    assert len(problems) == 1
    assert problems[0].line == 3
    assert problems[0].message.startswith("not valid TOML")


def test_wrong_types_are_problems_not_crashes() -> None:
    text = (
        "mqtt = 5\n[table]\nsize_mm = [1270, 2540]\n[recorder]\nenabled = 1\n[rules]\noptions = 3\n"
    )
    _, problems = parse_config(text)

    assert {p.key for p in problems} == {
        "mqtt",
        "table.size_mm",
        "recorder.enabled",
        "rules.options",
    }


def test_rule_options_are_checked_by_the_engine() -> None:
    _, problems = parse_config('[rules.options]\nbreak_order = "sometimes"\n')

    assert [(p.key, p.line) for p in problems] == [("rules.options.break_order", 2)]


def test_load_config_raises_with_every_problem(tmp_path: Path) -> None:
    path = tmp_path / "tenball.toml"
    path.write_text(BAD)
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    assert len(caught.value.problems) == 13
    assert Problem("rules.lang", "x", 24).format(path) == f"{path}:24: rules.lang: x"


def check(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "firmware.cli", "config", "check", str(path)],
        cwd=REPO,
        check=False,
        capture_output=True,
        text=True,
        timeout=30,
    )


def test_config_check_prints_each_problem_and_exits_2(tmp_path: Path) -> None:
    path = tmp_path / "tenball.toml"
    path.write_text(BAD)

    done = check(path)

    assert done.returncode == 2
    lines = done.stdout.splitlines()
    assert len(lines) == 13
    assert f"{path}:11: mqtt.port: must be at most 65535, got 70000" in lines
    assert "13 problems" in done.stderr


def test_config_check_passes_a_good_file(tmp_path: Path) -> None:
    path = tmp_path / "tenball.toml"
    path.write_text(example_text(tmp_path))

    done = check(path)

    assert done.returncode == 0, done.stdout
    assert "OK" in done.stdout


def test_run_refuses_a_bad_config_with_status_2(tmp_path: Path) -> None:
    path = tmp_path / "tenball.toml"
    path.write_text(BAD)

    code, _, err = finish(service(["--config", str(path), "--source", str(tmp_path)]))

    assert code == 2
    assert f"{path}:23: rules.ruleset" in err
