"""`tenball bench`: speed of the pipeline's parts, printed (never asserted in tests).

Vision is measured on one core (the process is pinned to one CPU and OpenCV to one thread),
each configuration in a fresh process so that its peak memory is its own.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import cv2

from firmware.scoreboard.recorded import DEMO_MATCH
from hw.recording import RecordingSource
from rules import MatchState, Ruling, Session, apply, parse_command
from rules.commands import Command, NewMatch
from vision.cloth import Planes
from vision.pipeline import ShotDetector
from vision.replay import calibration_for, run, starting_balls

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "tuning"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--seconds", type=float, default=2.0, help="time on each rules measurement")
    parser.add_argument(
        "--recordings",
        type=Path,
        nargs="*",
        help="recordings to replay for the vision numbers (default: the tuning fixtures)",
    )
    parser.add_argument("--one", type=Path, help=argparse.SUPPRESS)  # internal: one recording


def _rate(run_once: Callable[[], int], seconds: float) -> float:
    """Items per second of `run_once` (which returns how many items it did), best of 3."""
    best = 0.0
    for _ in range(3):
        done, start = 0, time.perf_counter()
        while (elapsed := time.perf_counter() - start) < seconds / 3:
            done += run_once()
        best = max(best, done / elapsed)
    return best


def bench_rules(seconds: float) -> dict[str, float]:
    objects = [json.loads(line) for line in DEMO_MATCH.read_text().splitlines() if line.strip()]
    commands: list[Command] = [parse_command(obj) for obj in objects]
    start = commands[0].state if isinstance(commands[0], NewMatch) else MatchState()

    def engine_only() -> int:
        state, rulings = start, 0
        for command in commands[1:]:
            outcome = apply(state, command)
            state = outcome.state
            rulings += isinstance(outcome.result, Ruling)
        return rulings

    def json_session() -> int:
        session = Session()
        for obj in objects:
            session.handle_json(obj)
        return session.seq

    return {
        "engine (typed inputs)": _rate(engine_only, seconds),
        "session (JSON in; ruling JSON with its reason out)": _rate(json_session, seconds),
    }


def _one_core() -> None:
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    cv2.setNumThreads(1)


def bench_recording(directory: Path) -> dict[str, object]:
    """Frames per second of one recording: as a replay runs it (each frame decoded, then
    through the pipeline), and the pipeline alone (every frame decoded beforehand); and the
    peak memory of the replay."""
    _one_core()
    with RecordingSource(directory) as source:
        start = time.perf_counter()
        streamed = sum(1 for _ in run(source))
        streaming_s = time.perf_counter() - start
    # Taken before every frame is held in memory for the second pass.
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    with RecordingSource(directory) as source:
        frames = []
        for frame in source:
            bgr = frame.bgr()
            assert bgr is not None
            frames.append((frame.t, Planes.from_bgr(bgr)))
        first = next(iter(source))
        calibration = calibration_for(source, first)
        balls = starting_balls(source)
    detector = ShotDetector(calibration, balls)
    start = time.perf_counter()
    for t, planes in frames:
        detector.on_frame(t, planes)
    detector.finish()
    vision_s = time.perf_counter() - start
    height, width = frames[0][1].y.shape
    return {
        "recording": directory.name,
        "size": f"{width}x{height}",
        "frames": len(frames),
        "fps_vision": len(frames) / vision_s,
        "fps_with_decoding": streamed / streaming_s,
        "peak_mb": peak_mb,
        "per_frame_mb": frames[0][1].y.nbytes * 1.5 / 2**20,
    }


def main(args: argparse.Namespace) -> int:
    if args.one is not None:
        print(json.dumps(bench_recording(args.one)))
        return 0
    print("rules engine, one core, the demo match replayed:")
    for name, rate in bench_rules(args.seconds).items():
        print(f"  {name:<52} {rate:>10,.0f} rulings/s")
    recordings = args.recordings or sorted(p.parent for p in FIXTURES.glob("*/recording.json"))
    if not recordings:
        print("vision: no recordings to replay (generate the fixtures first)")
        return 0
    print("\nvision, one core (fresh process per recording):")
    by_size: dict[str, list[dict[str, float]]] = {}
    for directory in recordings:
        done = subprocess.run(
            [sys.executable, "-m", "firmware.cli", "bench", "--one", str(directory)],
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode != 0:
            print(f"  {directory.name}: failed: {done.stderr.strip().splitlines()[-1:]}")
            continue
        row = json.loads(done.stdout)
        by_size.setdefault(row["size"], []).append(row)
        print(
            f"  {row['recording']:<28} {row['size']:>9} {row['frames']:>5} frames"
            f"  {row['fps_vision']:>7,.0f} fps vision  {row['fps_with_decoding']:>6,.0f} fps"
            " with decoding"
        )
    print("\nby resolution (all frames of all recordings):")
    for size, rows in sorted(by_size.items()):
        frames = sum(r["frames"] for r in rows)
        vision = frames / sum(r["frames"] / r["fps_vision"] for r in rows)
        decoded = frames / sum(r["frames"] / r["fps_with_decoding"] for r in rows)
        per_frame = max(r["per_frame_mb"] for r in rows)
        peak = max(r["peak_mb"] for r in rows)
        print(
            f"  {size:>9}: {vision:>7,.0f} frames/s vision only, {decoded:>6,.0f} with decoding;"
            f" {per_frame:.2f} MB a frame, a replay's peak memory {peak:.0f} MB"
        )
    return 0
