"""The `tenball` console script: one entry point, a subcommand per job (contracts.md §0)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence

from firmware import bench, calibrate_cli, config_cli, demo, replay_cli, rules_cli, run
from firmware.scoreboard import app as scoreboard

Handler = Callable[[argparse.Namespace], int]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tenball", description="Automatic referee and scorer for Ten-Ball pool."
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    run_parser = commands.add_parser(
        "run", help="the live referee loop (or the same loop on a recording)"
    )
    run.add_arguments(run_parser)
    run_parser.set_defaults(handler=run.main)
    config_parser = commands.add_parser("config", help="validate a configuration file")
    config_cli.add_arguments(config_parser)
    config_parser.set_defaults(handler=config_cli.main)
    rules = commands.add_parser(
        "rules", help="the rules engine as a JSON-lines session on stdin/stdout"
    )
    rules_cli.add_arguments(rules)
    rules.set_defaults(handler=rules_cli.main)
    demo_parser = commands.add_parser(
        "demo", help="a recorded match through the whole pipeline to a scoreboard"
    )
    demo.add_arguments(demo_parser)
    demo_parser.set_defaults(handler=demo.main)
    replay = commands.add_parser("replay", help="a recording through vision to shot facts")
    replay_cli.add_replay_arguments(replay)
    replay.set_defaults(handler=replay_cli.replay_main)
    evaluate = commands.add_parser("evaluate", help="accuracy of vision on recordings with truth")
    replay_cli.add_evaluate_arguments(evaluate)
    evaluate.set_defaults(handler=replay_cli.evaluate_main)
    board = commands.add_parser(
        "scoreboard", help="a scoreboard fed by MQTT: LED panel, web page or terminal"
    )
    scoreboard.add_arguments(board)
    board.set_defaults(handler=scoreboard.main)
    calibrate = commands.add_parser("calibrate", help="find the table in a camera picture")
    calibrate_cli.add_arguments(calibrate)
    calibrate.set_defaults(handler=calibrate_cli.main)
    bench_parser = commands.add_parser("bench", help="measure the speed of the pipeline's parts")
    bench.add_arguments(bench_parser)
    bench_parser.set_defaults(handler=bench.main)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    handler: Handler = args.handler
    try:
        return handler(args)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
