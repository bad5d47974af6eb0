"""`tenball rules`: the rules engine as a JSON-lines session (contracts.md §4).

One command per line on stdin, one JSON line per command on stdout. A malformed line is
answered with `{"error": …, "line": N}` and the session goes on with its state unchanged.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, TextIO

from rules import LANGUAGES, InputError, MatchState, Session, resolve_options


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--ruleset",
        default="wpa",
        help="wpa (default), ispa, wpa2016 or wpa2025: the rules of the opening match",
    )
    parser.add_argument(
        "--options",
        default=None,
        help='rules.md §3 overrides as JSON, e.g. \'{"break_order": "winner"}\'',
    )
    parser.add_argument("--lang", default="en", choices=LANGUAGES, help="language of the reasons")


def run_session(session: Session, lines: TextIO, out: TextIO) -> None:
    for number, raw in enumerate(lines, start=1):
        text = raw.strip()
        if not text:
            continue
        reply: dict[str, Any]
        try:
            reply = session.handle_json(json.loads(text))
        except json.JSONDecodeError as exc:
            reply = {"error": f"not JSON: {exc.msg} at column {exc.colno}"}
        except InputError as exc:
            reply = {"error": str(exc)}
        if "error" in reply or "rejected" in reply:
            reply["line"] = number
        out.write(json.dumps(reply, ensure_ascii=False) + "\n")
        out.flush()


def main(args: argparse.Namespace) -> int:
    try:
        overrides = None if args.options is None else json.loads(args.options)
        options = resolve_options(args.ruleset, overrides)
    except json.JSONDecodeError as exc:
        print(f"tenball rules: --options is not JSON: {exc.msg}", file=sys.stderr)
        return 2
    except InputError as exc:
        print(f"tenball rules: {exc}", file=sys.stderr)
        return 2
    run_session(Session(MatchState(options=options), lang=args.lang), sys.stdin, sys.stdout)
    return 0
