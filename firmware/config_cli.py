"""`tenball config check F`: validate a configuration file, printing every problem.

Each problem is one line, ``FILE:LINE: KEY: what is wrong``, the way compilers report, so an
editor can jump to it. Exit status 0 when the file is good, 2 when it is not.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from firmware.config import ConfigError, load_config


def add_arguments(parser: argparse.ArgumentParser) -> None:
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    check = actions.add_parser("check", help="validate a configuration file")
    check.add_argument("file", type=Path, help="the TOML file, e.g. /etc/tenball/tenball.toml")


def main(args: argparse.Namespace) -> int:
    path: Path = args.file
    try:
        config = load_config(path)
    except ConfigError as exc:
        for problem in exc.problems:
            print(problem.format(path))
        count = len(exc.problems)
        print(f"{count} problem{'s' if count != 1 else ''} in {path}", file=sys.stderr)
        return 2
    broker = "no broker" if config.mqtt is None else f"broker {config.mqtt.host}"
    print(f"{path}: OK (table {config.table.id}, {broker}, journal {config.journal})")
    return 0
