"""`tenball replay` and `tenball evaluate`: recordings through the vision pipeline."""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import ExitStack
from pathlib import Path
from typing import IO, Any

from hw.recording import CommandInput, RecordingError, RecordingSource
from vision.calibration import CalibrationError
from vision.evaluation import (
    FACT_NAMES,
    RecordingScore,
    differences,
    score_recording,
    totals,
)
from vision.overlay import OverlayWriter
from vision.replay import calibration_for, run


class Progress:
    """A one-line progress bar on stderr, only when someone is watching it."""

    def __init__(self, label: str, total: int | None) -> None:
        self.label = label
        self.total = total
        self.live = sys.stderr.isatty()
        self.started = time.perf_counter()
        self.last = 0.0

    def update(self, done: int) -> None:
        now = time.perf_counter()
        if not self.live or now - self.last < 0.1:
            return
        self.last = now
        rate = done / max(now - self.started, 1e-9)
        if self.total:
            width = 30
            filled = round(width * done / self.total)
            bar = "#" * filled + "." * (width - filled)
            text = f"\r{self.label} [{bar}] {done}/{self.total} frames {rate:5.0f}/s"
        else:
            text = f"\r{self.label} {done} frames {rate:5.0f}/s"
        sys.stderr.write(text)
        sys.stderr.flush()

    def close(self) -> None:
        if self.live:
            sys.stderr.write("\r" + " " * 78 + "\r")
            sys.stderr.flush()


def add_replay_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("recording", type=Path, help="a recording directory (contracts §2)")
    parser.add_argument("--facts-out", type=Path, help="shot facts as JSON lines (default stdout)")
    parser.add_argument("--tracks-out", type=Path, help="what the tracker saw, a line per frame")
    parser.add_argument("--overlay", type=Path, help="an MP4 with ids, trails and events drawn")


def add_evaluate_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "recordings",
        type=Path,
        nargs="+",
        help="recordings with expected.jsonl, or folders of them",
    )
    parser.add_argument("--json", type=Path, help="also write the scores as JSON")
    parser.add_argument(
        "--show", action="store_true", help="print each wrong fact: what was true, what was found"
    )
    parser.add_argument(
        "--jobs", type=int, default=1, help="recordings replayed at once (one core each)"
    )


def replay_main(args: argparse.Namespace) -> int:
    try:
        with ExitStack() as stack:
            source = stack.enter_context(RecordingSource(args.recording))
            facts_out: IO[str] = (
                stack.enter_context(args.facts_out.open("w", encoding="utf-8"))
                if args.facts_out
                else sys.stdout
            )
            tracks_out = (
                stack.enter_context(args.tracks_out.open("w", encoding="utf-8"))
                if args.tracks_out
                else None
            )
            overlay: OverlayWriter | None = None
            progress = Progress(args.recording.name, source.frame_count)
            shots = 0
            for result in run(source):
                progress.update(result.frame.index + 1)
                for facts in result.facts:
                    facts_out.write(json.dumps(facts) + "\n")
                    shots += 1
                if tracks_out is not None:
                    line = {"t": round(result.frame.t, 4), "balls": result.balls}
                    tracks_out.write(json.dumps(line) + "\n")
                if args.overlay is not None:
                    if overlay is None:
                        height, width = result.frame.gray.shape
                        overlay = OverlayWriter(
                            args.overlay,
                            source.fps,
                            (width, height),
                            calibration_for(source, result.frame),
                        )
                        stack.callback(overlay.close)
                    overlay.add_facts(result.facts)
                    overlay.write(result.frame.t, result.planes.to_bgr(), result.balls)
            progress.close()
    except (RecordingError, CalibrationError, OSError) as exc:
        print(f"tenball replay: {exc}", file=sys.stderr)
        return 2
    print(f"{args.recording}: {shots} shots", file=sys.stderr)
    return 0


def find_recordings(paths: list[Path]) -> Iterator[Path]:
    for path in paths:
        if (path / "recording.json").exists():
            yield path
        elif path.is_dir():
            yield from sorted(p.parent for p in path.rglob("recording.json"))
        else:
            raise RecordingError(f"{path}: not a recording directory or a folder of them")


def evaluate_one(directory: Path) -> RecordingScore:
    expected_path = directory / "expected.jsonl"
    if not expected_path.exists():
        raise RecordingError(f"{expected_path}: missing (evaluate needs the truth)")
    truth = []
    for number, line in enumerate(expected_path.read_text().splitlines(), start=1):
        if line.strip():
            try:
                truth.append(json.loads(line))
            except json.JSONDecodeError as exc:
                raise RecordingError(f"{expected_path}: line {number}: {exc.msg}") from None
    with RecordingSource(directory) as source:
        progress = Progress(directory.name, source.frame_count)
        found: list[dict[str, Any]] = []
        for result in run(source):
            progress.update(result.frame.index + 1)
            found.extend(result.facts)
        progress.close()
        commands = [(e.t, e.cmd) for e in source.inputs if isinstance(e, CommandInput)]
        state = source.info.meta.get("state")
    return score_recording(directory.name, found, truth, commands, state)


def _evaluated(directories: list[Path], jobs: int) -> Iterator[RecordingScore]:
    if jobs <= 1 or len(directories) <= 1:
        yield from map(evaluate_one, directories)
        return
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        yield from pool.map(evaluate_one, directories)


def evaluate_main(args: argparse.Namespace) -> int:
    scores: list[RecordingScore] = []
    if args.jobs < 1:
        print("tenball evaluate: --jobs must be at least 1", file=sys.stderr)
        return 2
    try:
        for score in _evaluated(list(find_recordings(args.recordings)), args.jobs):
            scores.append(score)
            wrong = [
                f"shot {i + 1}: "
                + ",".join(k for k, ok in s.agree.items() if not ok)
                + (" (at a potted ball's pocket jaws only)" if s.exact_but_pocket_jaws else "")
                for i, s in enumerate(score.shots)
                if not s.exact
            ]
            changed = sum(s.ruling_changed for s in score.shots)
            status = "exact" if not wrong and not score.extra else "; ".join(wrong)
            extra = f"; {len(score.extra)} extra shot(s)" if score.extra else ""
            rulings = f"; {changed} ruling(s) changed" if changed else ""
            print(f"{score.name:<32} {len(score.shots):>3} shots  {status}{extra}{rulings}")
            if args.show:
                for number, shot in enumerate(score.shots, start=1):
                    for line in differences(shot):
                        print(f"    shot {number} {line}")
                for found in score.extra:
                    print(f"    extra shot at {found['t_start']} s")
    except (RecordingError, CalibrationError) as exc:
        print(f"tenball evaluate: {exc}", file=sys.stderr)
        return 2
    if not scores:
        print("tenball evaluate: no recordings found", file=sys.stderr)
        return 2
    total = totals(scores)
    n = max(total.shots, 1)
    print()
    print(f"recordings {total.recordings}, shots {total.shots}")
    print(f"  shots found        {total.found:>5}/{total.shots}  ({100 * total.found / n:5.1f} %)"
          f"   extra shots {total.extra}")  # fmt: skip
    for name in FACT_NAMES:
        right = total.fact_right[name]
        print(f"  {name:<18} {right:>5}/{total.shots}  ({100 * right / n:5.1f} %)")
    print(f"  all facts exact    {total.exact:>5}/{total.shots}  ({100 * total.exact / n:5.1f} %)")
    jaws = total.exact_but_pocket_jaws
    print(f"  exact but pot jaws {jaws:>5}/{total.shots}  ({100 * jaws / n:5.1f} %)")
    print(f"  rulings changed    {total.rulings_changed:>5}/{total.shots}")
    if total.rest_positions:
        print(f"  rest positions     {total.rest_positions:>5} balls: median "
              f"{total.rest_error_median_mm:.1f} mm, 95 % within {total.rest_error_95_mm:.1f} mm, "
              f"worst {total.rest_error_max_mm:.1f} mm")  # fmt: skip
    if args.json is not None:
        args.json.write_text(
            json.dumps(
                {
                    "totals": total.__dict__,
                    "recordings": [
                        {
                            "name": s.name,
                            "shots": [
                                {"agree": sh.agree, "ruling_changed": sh.ruling_changed,
                                 "ruling_diff": sh.ruling_diff,
                                 "position_errors": sh.position_errors()}
                                for sh in s.shots
                            ],
                            "extra": len(s.extra),
                        }
                        for s in scores
                    ],
                },
                indent=1,
            )
        )  # fmt: skip
    return 0
