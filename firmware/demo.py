"""`tenball demo`: a recorded match replayed to a scoreboard, for a newcomer.

The match is a JSON-lines file of commands (contracts.md §4) — what the referee loop feeds the
engine from vision, pocket sensors and the call panel — ruled one by one and shown on the
terminal board after every ruling.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from firmware.board import board_state
from firmware.scoreboard.term import render_board
from rules import LANGUAGES, InputError, Session

DEMO_MATCH = Path(__file__).resolve().parent.parent / "fixtures" / "matches" / "demo_match.jsonl"
CLEAR = "\x1b[H\x1b[2J"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--match", type=Path, default=DEMO_MATCH, help="commands, JSON lines")
    parser.add_argument("--lang", default="en", choices=LANGUAGES)
    parser.add_argument(
        "--delay",
        type=float,
        default=None,
        help="seconds between rulings (default: 0.8 on a terminal, 0 otherwise)",
    )
    parser.add_argument("--table", default="table1")


def main(args: argparse.Namespace) -> int:
    path: Path = args.match
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        print(f"tenball demo: cannot read {path}: {exc.strerror}", file=sys.stderr)
        return 2
    live = sys.stdout.isatty()
    delay = args.delay if args.delay is not None else (0.8 if live else 0.0)
    session = Session(lang=args.lang)
    rulings = 0
    for number, text in enumerate(lines, start=1):
        if not text.strip():
            continue
        try:
            reply = session.handle_json(json.loads(text))
        except (json.JSONDecodeError, InputError) as exc:
            print(f"tenball demo: {path}:{number}: {exc}", file=sys.stderr)
            return 2
        if "rejected" in reply:
            print(f"{path}:{number}: rejected: {reply['rejected']}")
            continue
        if "seq" not in reply:
            continue
        rulings += 1
        board = board_state(
            session.state, seq=session.seq, table=args.table, last_ruling=reply, lang=args.lang
        )
        print((CLEAR if live else "\n") + render_board(board, colour=live), flush=True)
        time.sleep(delay)
    print(f"\n{rulings} rulings from {path.name}.")
    return 0
