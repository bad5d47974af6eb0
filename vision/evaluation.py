"""How far a recording's replayed facts are from its truth, fact by fact and in rulings."""

from __future__ import annotations

import contextlib
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from rules import InputError, Session, parse_state
from vision.geometry import Table

Facts = Mapping[str, Any]
# Shots are matched by their strike: a found shot within this of a true one is that shot.
MATCH_WINDOW_S = 0.5
FACT_NAMES = ("first_contact", "pocketed", "off_table", "railed", "rails")
# The parts of a ruling a player cares about.
RULING_KEYS = (
    "foul",
    "break_legal",
    "called_shot_made",
    "ten_spotted",
    "balls_on_table_after",
    "next_shooter",
    "cue_ball_next",
    "option",
    "push_out_available_next",
    "fouls_after",
    "rack_result",
    "score_after",
    "match_winner",
)


def _rails(facts: Facts) -> set[tuple[str, str]]:
    return {
        (str(r["ball"]), str(r["rail"]))
        for r in facts.get("rails_after_contact", [])
        if not r.get("frozen_no_leave")
    }


def fact_values(facts: Facts) -> dict[str, object]:
    """The facts accuracy is judged on, in comparable form."""
    rails = _rails(facts)
    return {
        "first_contact": facts.get("first_contact"),
        "pocketed": frozenset(
            (str(p["ball"]), str(p["pocket"])) for p in facts.get("pocketed", [])
        ),
        "off_table": frozenset(str(b) for b in facts.get("off_table", [])),
        "railed": frozenset(ball for ball, _ in rails),
        "rails": frozenset(rails),
    }


def _shown(value: object) -> str:
    if isinstance(value, frozenset):
        return "{" + ", ".join(sorted(map(str, (_pair(v) for v in value)))) + "}"
    return str(value)


def _pair(value: object) -> object:
    return "@".join(map(str, value)) if isinstance(value, tuple) else value


def differences(score: ShotScore) -> list[str]:
    """Each fact that disagrees, as `name: want X, got Y`, for someone chasing the cause."""
    if score.found is None:
        return ["not found"]
    want, got = fact_values(score.truth), fact_values(score.found)
    return [
        f"{name}: want {_shown(want[name])}, got {_shown(got[name])}"
        for name in FACT_NAMES
        if not score.agree.get(name, False)
    ]


def first_contact_agrees(found: Facts, truth: Facts) -> bool:
    """A split hit in the truth is right with any of its balls first (or the tie reported)."""
    if found.get("first_contact") == truth.get("first_contact"):
        return True
    tie = {truth.get("first_contact"), *truth.get("first_contact_tie", [])}
    return len(tie) > 1 and found.get("first_contact") in tie


@dataclass
class ShotScore:
    truth: Facts
    found: Facts | None
    agree: dict[str, bool] = field(default_factory=dict)
    ruling_changed: bool = False
    ruling_diff: list[str] = field(default_factory=list)

    @property
    def exact(self) -> bool:
        return self.found is not None and all(self.agree.values())

    @property
    def exact_but_pocket_jaws(self) -> bool:
        """Exact, or wrong only in rails that potted balls have at the pocket they went
        into: a jaw touched or missed inside the mouth, by a ball half out of sight, is a
        matter of millimetres (and never changes a ruling: the ball was potted)."""
        if self.exact:
            return True
        if self.found is None or not all(
            ok for name, ok in self.agree.items() if name not in ("railed", "rails")
        ):
            return False
        table = Table()
        jaw_rails = {
            str(p["ball"]): {jaw.rail.value for jaw in table.jaws(str(p["pocket"]))}
            for p in self.truth.get("pocketed", [])
        }
        wrong = _rails(self.truth) ^ _rails(self.found)
        return all(rail in jaw_rails.get(ball, set()) for ball, rail in wrong)

    def position_errors(self) -> dict[str, tuple[float, float]]:
        """Where each ball was found to rest at the shot's end, less where it truly rested
        (mm, x and y), for the balls both name."""
        if self.found is None:
            return {}
        want, got = self.truth.get("positions") or {}, self.found.get("positions") or {}
        return {
            str(ball): (float(got[ball][0]) - float(xy[0]), float(got[ball][1]) - float(xy[1]))
            for ball, xy in want.items()
            if ball in got
        }


@dataclass
class RecordingScore:
    name: str
    shots: list[ShotScore]
    extra: list[Facts]  # shots found that did not happen


def match_shots(found: Sequence[Facts], truth: Sequence[Facts]) -> list[Facts | None]:
    """For each true shot, the found shot that started closest to it (within the window)."""
    out: list[Facts | None] = []
    used: set[int] = set()
    for shot in truth:
        best = None
        for i, candidate in enumerate(found):
            if i in used:
                continue
            gap = abs(float(candidate["t_start"]) - float(shot["t_start"]))
            if gap <= MATCH_WINDOW_S and (best is None or gap < best[0]):
                best = (gap, i)
        if best is None:
            out.append(None)
        else:
            used.add(best[1])
            out.append(found[best[1]])
    return out


def score_recording(
    name: str,
    found: Sequence[Facts],
    truth: Sequence[Facts],
    commands: Sequence[tuple[float, Mapping[str, Any]]] = (),
    start_state: Mapping[str, Any] | None = None,
) -> RecordingScore:
    matched = match_shots(found, truth)
    shots = []
    for true_shot, found_shot in zip(truth, matched, strict=True):
        score = ShotScore(true_shot, found_shot)
        if found_shot is not None:
            want, got = fact_values(true_shot), fact_values(found_shot)
            score.agree = {k: want[k] == got[k] for k in FACT_NAMES}
            score.agree["first_contact"] = first_contact_agrees(found_shot, true_shot)
        else:
            score.agree = dict.fromkeys(FACT_NAMES, False)
        shots.append(score)
    _score_rulings(shots, commands, start_state)
    used = {id(f) for f in matched if f is not None}
    extra = [f for f in found if id(f) not in used]
    return RecordingScore(name, shots, extra)


def _score_rulings(
    shots: list[ShotScore],
    commands: Sequence[tuple[float, Mapping[str, Any]]],
    start_state: Mapping[str, Any] | None,
) -> None:
    """Rule every shot twice from the same state, on the truth and on what was found.

    The match goes on from the truth's ruling, so one wrong fact changes one ruling, not every
    ruling after it.
    """
    session = Session()
    if start_state is not None:
        try:
            session = Session(parse_state(start_state))
        except InputError:
            session = Session()
    pending = sorted(commands, key=lambda c: c[0])
    for score in shots:
        t_start = float(score.truth["t_start"])
        while pending and pending[0][0] < t_start:
            _, command = pending.pop(0)
            with contextlib.suppress(InputError):  # a bad recorded command changes nothing
                session.handle_json(dict(command))
        before = session.state
        truth_ruling = _rule(Session(before), score.truth)
        found_ruling = _rule(Session(before), score.found)
        _rule(session, score.truth)  # the match goes on from the truth
        if found_ruling is None or truth_ruling is None:
            score.ruling_changed = found_ruling != truth_ruling
            continue
        diff = [k for k in RULING_KEYS if truth_ruling.get(k) != found_ruling.get(k)]
        if sorted(truth_ruling.get("fouls", [])) != sorted(found_ruling.get("fouls", [])):
            diff.append("fouls")
        score.ruling_changed = bool(diff)
        score.ruling_diff = diff


def _rule(session: Session, facts: Facts | None) -> dict[str, Any] | None:
    if facts is None:
        return None
    shot = {"cmd": "shot", **{k: v for k, v in facts.items() if k != "events"}}
    try:
        reply = session.handle_json(shot)
    except InputError as exc:
        return {"error": str(exc)}
    return reply


@dataclass(frozen=True)
class Totals:
    recordings: int
    shots: int
    found: int
    extra: int
    fact_right: dict[str, int]
    exact: int
    exact_but_pocket_jaws: int
    rulings_changed: int
    # How far off the balls' rest positions at the shots' ends were (mm): how many, the
    # median, the 95th percentile and the worst.
    rest_positions: int
    rest_error_median_mm: float
    rest_error_95_mm: float
    rest_error_max_mm: float


def totals(scores: Iterable[RecordingScore]) -> Totals:
    scores = list(scores)
    shots = [s for r in scores for s in r.shots]
    errors = [math.hypot(*e) for s in shots for e in s.position_errors().values()]
    return Totals(
        recordings=len(scores),
        shots=len(shots),
        found=sum(s.found is not None for s in shots),
        extra=sum(len(r.extra) for r in scores),
        fact_right={k: sum(s.agree.get(k, False) for s in shots) for k in FACT_NAMES},
        exact=sum(s.exact for s in shots),
        exact_but_pocket_jaws=sum(s.exact_but_pocket_jaws for s in shots),
        rulings_changed=sum(s.ruling_changed for s in shots),
        rest_positions=len(errors),
        rest_error_median_mm=_nearest_rank(errors, 50),
        rest_error_95_mm=_nearest_rank(errors, 95),
        rest_error_max_mm=max(errors, default=0.0),
    )


def _nearest_rank(values: Sequence[float], share: float) -> float:
    """The percentile that is one of the values (0 for none)."""
    return float(np.percentile(values, share, method="inverted_cdf")) if values else 0.0
