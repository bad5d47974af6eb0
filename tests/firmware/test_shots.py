"""The recorded-facts detector: shots come out when the frame clock reaches their end."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from firmware.shots import RecordedFactsDetector, ShotsError
from hw.frames import Frame

GRAY = np.zeros((2, 2), dtype=np.uint8)


def frame(t: float) -> Frame:
    return Frame(0, t, GRAY)


def test_shots_are_released_at_their_end_and_the_strike_is_known_meanwhile() -> None:
    detector = RecordedFactsDetector(
        [{"t_start": 3.0, "t_end": 4.0, "shot": 2}, {"t_start": 1.0, "t_end": 2.0, "shot": 1}]
    )

    assert detector.on_frame(frame(0.5)) == [] and detector.strike is None
    assert detector.on_frame(frame(1.5)) == [] and detector.strike == 1.0
    assert [s["shot"] for s in detector.on_frame(frame(2.0))] == [1]
    assert detector.strike is None
    detector.on_pocket("FR", 3.2)  # the recorded facts already know
    assert detector.on_frame(frame(3.5)) == [] and detector.strike == 3.0
    assert [s["shot"] for s in detector.finish()] == [2]
    assert detector.finish() == []


def test_frames_that_skip_past_several_shots_release_them_in_order() -> None:
    detector = RecordedFactsDetector(
        [{"t_start": 1.0, "t_end": 2.0, "shot": 1}, {"t_start": 3.0, "t_end": 4.0, "shot": 2}]
    )
    assert [s["shot"] for s in detector.on_frame(frame(9.0))] == [1, 2]


@pytest.mark.parametrize(
    ("text", "complaint"),
    [
        ('{"t_start": 1.0, "t_end": 2.0}\nnot json\n', "line 2: invalid JSON"),
        ('{"t_start": 1.0}\n', "line 1: key 't_end' must be a number"),
        ('{"t_start": 3.0, "t_end": 2.0}\n', "line 1: t_end is before t_start"),
        ("[1, 2]\n", "line 1: expected a JSON object"),
    ],
)
def test_bad_expected_facts_are_reported_by_line(tmp_path: Path, text: str, complaint: str) -> None:
    (tmp_path / "expected.jsonl").write_text(text)
    with pytest.raises(ShotsError, match=complaint):
        RecordedFactsDetector.from_recording(tmp_path)


def test_a_recording_without_expected_facts_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ShotsError, match="missing"):
        RecordedFactsDetector.from_recording(tmp_path)
