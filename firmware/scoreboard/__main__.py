"""`python -m firmware.scoreboard`: the scoreboard before (or without) the `tenball` command."""

from __future__ import annotations

import argparse
import sys

from firmware.scoreboard import app


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m firmware.scoreboard", description=__doc__)
    app.add_arguments(parser)
    try:
        return app.main(parser.parse_args())
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
