"""A recording through the vision pipeline: shot facts and what the tracker saw."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hw.frames import Frame
from hw.recording import PocketInput, RecordingError, RecordingSource
from rules import InputError, parse_state
from vision.calibration import Calibration
from vision.cloth import Planes
from vision.pipeline import ALL_BALLS, ShotDetector

Progress = Callable[[int, int | None], None]


@dataclass(frozen=True)
class FrameResult:
    frame: Frame
    planes: Planes
    balls: list[dict[str, Any]]
    facts: list[dict[str, Any]]


def calibration_for(source: RecordingSource, frame: Frame) -> Calibration:
    height, width = frame.gray.shape
    return Calibration.from_json(source.info.table, (width, height))


def starting_balls(source: RecordingSource) -> tuple[Any, ...]:
    """The balls on the table when the recording starts, from its rules state."""
    state = source.info.meta.get("state")
    if state is None:
        return ALL_BALLS
    try:
        parsed = parse_state(state)
    except InputError as exc:
        raise RecordingError(f"{source.directory / 'recording.json'}: state: {exc}") from None
    return ("cue", *sorted(parsed.balls_on_table))


def run(source: RecordingSource) -> Iterator[FrameResult]:
    """Every frame of the recording with the tracker's view and the facts of ended shots."""
    detector: ShotDetector | None = None
    previous = float("-inf")
    for frame in source:
        bgr = frame.bgr()
        if bgr is None:
            raise RecordingError(f"{source.video_path}: frame {frame.index} has no colour")
        planes = Planes.from_bgr(bgr)
        if detector is None:
            detector = ShotDetector(calibration_for(source, frame), starting_balls(source))
        for event in source.inputs_between(previous, frame.t):
            if isinstance(event, PocketInput):
                detector.on_pocket(event.pocket, event.t)
        previous = frame.t
        facts = detector.on_frame(frame.t, planes)
        balls = [
            {"ball": b.key, "x": round(b.x, 1), "y": round(b.y, 1)} for b in detector.tracked()
        ]
        yield FrameResult(frame, planes, balls, facts)
    if detector is not None:
        for event in source.inputs_between(previous, float("inf")):
            if isinstance(event, PocketInput):
                detector.on_pocket(event.pocket, event.t)
        final = detector.finish(planes)
        if final:
            yield FrameResult(frame, planes, [], final)


def replay_facts(directory: Path) -> list[dict[str, Any]]:
    with RecordingSource(directory) as source:
        return [facts for result in run(source) for facts in result.facts]
