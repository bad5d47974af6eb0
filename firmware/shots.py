"""The seam between frames and rulings: a shot detector turns frames into shot facts.

The referee loop knows only :class:`ShotDetector`. The vision pipeline implements it; so does
:class:`RecordedFactsDetector`, which replays a recording's ``expected.jsonl`` — the recorded
truth a disputed call is reviewed against, and what runs the loop end to end on a recording
without vision.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol

from hw.frames import Frame

Json = dict[str, Any]
EXPECTED_FILE = "expected.jsonl"


class ShotDetector(Protocol):
    """What the loop needs from vision. Times are seconds on the frames' clock."""

    def on_frame(self, frame: Frame) -> list[Json]:
        """Shot facts (contracts §3, with ``t_start`` and ``t_end``) of the shots that ended
        at this frame, in order."""
        ...

    def on_pocket(self, pocket: str, t: float) -> None:
        """A pocket sensor's beam broke at ``t``."""
        ...

    def finish(self) -> list[Json]:
        """The source has ended: the facts of any shot still open."""
        ...

    @property
    def strike(self) -> float | None:
        """The cue strike of the shot in progress, or None while the balls are at rest. The
        loop holds back commands received after it until the shot is ruled: a call made while
        the balls roll is for the next shot."""
        ...


class ShotsError(Exception):
    """An ``expected.jsonl`` that cannot be replayed; the message names the line and key."""


class RecordedFactsDetector:
    """Replays recorded shot facts: each shot is released when the frame clock reaches its
    ``t_end``; pocket pulses are not needed (the facts already say what dropped)::

        detector = RecordedFactsDetector.from_recording(Path("fixtures/match1"))
        for frame in source:
            for facts in detector.on_frame(frame):
                ...
    """

    def __init__(self, shots: Sequence[Mapping[str, Any]]) -> None:
        self._shots = sorted((dict(s) for s in shots), key=lambda s: float(s["t_end"]))
        self._next = 0
        self._now = -math.inf

    @classmethod
    def from_recording(cls, directory: Path) -> RecordedFactsDetector:
        path = directory / EXPECTED_FILE
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            raise ShotsError(
                f"{path}: missing; replaying recorded facts needs the recording's ground truth"
            ) from None
        except (OSError, UnicodeDecodeError) as exc:
            raise ShotsError(f"{path}: unreadable ({exc})") from None
        shots = []
        for number, line in enumerate(text.splitlines(), start=1):
            if not line.strip():
                continue
            where = f"{path}: line {number}"
            try:
                facts = json.loads(line)
            except json.JSONDecodeError as exc:
                raise ShotsError(f"{where}: invalid JSON ({exc.msg})") from None
            if not isinstance(facts, dict):
                raise ShotsError(f"{where}: expected a JSON object")
            for key in ("t_start", "t_end"):
                value = facts.get(key)
                if (
                    isinstance(value, bool)
                    or not isinstance(value, int | float)
                    or not math.isfinite(value)
                ):
                    raise ShotsError(f"{where}: key {key!r} must be a number, not {value!r}")
            if facts["t_end"] < facts["t_start"]:
                raise ShotsError(f"{where}: t_end is before t_start")
            shots.append(facts)
        return cls(shots)

    def on_frame(self, frame: Frame) -> list[Json]:
        self._now = frame.t
        released = []
        while self._next < len(self._shots) and self._shots[self._next]["t_end"] <= frame.t:
            released.append(self._shots[self._next])
            self._next += 1
        return released

    def on_pocket(self, pocket: str, t: float) -> None:
        return None

    def finish(self) -> list[Json]:
        rest = self._shots[self._next :]
        self._next = len(self._shots)
        return rest

    @property
    def strike(self) -> float | None:
        if self._next < len(self._shots):
            t_start = float(self._shots[self._next]["t_start"])
            if t_start <= self._now:
                return t_start
        return None
