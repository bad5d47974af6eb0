"""Frames in, shot facts out: the tracker, the shot's start and end, and its facts.

`ShotDetector` is the seam the referee loop uses: `on_frame` for every frame, `on_pocket`
for every pocket-sensor pulse, `finish` at the end of a recording; each returns the facts
(contracts.md §3) of the shots that ended.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from itertools import pairwise, takewhile
from typing import Any

import numpy as np

from vision.calibration import Calibration
from vision.cloth import ClothModel, Planes
from vision.events import (
    MOVED_MM,
    SPLIT_HIT_S,
    SPOT_RETURN_S,
    Disappearance,
    Event,
    Path,
    cushion_contacts,
    disappearance,
    first_contacts,
    first_mover,
    hit_out_of_sight,
    jaw_contacts,
    merge_same_contacts,
    put_down_by_hand,
    stayed_on_the_table,
    strike_time,
    struck_at,
    struck_by,
    swapped_at,
)
from vision.exposure import Exposure, Light
from vision.fusion import FELT_AFTER_LOST_S, fuse_pulses
from vision.geometry import BALL_RADIUS_MM
from vision.identify import BallKey
from vision.tracker import Observation, Track, Tracker

ALL_BALLS: tuple[BallKey, ...] = ("cue", 1, 2, 3, 4, 5, 6, 7, 8, 9, 10)
REST_S = 0.3  # every ball still this long: the shot is over
PRE_ROLL_S = 0.5  # frames kept from before a strike is noticed
STRIKE_MM = 6.0  # the cue ball this far from its spot, and moving: a strike
MAX_SHOT_S = 60.0
STRUCK_PACE_MM_S = 500.0  # a ball rolling slower is seen on its way (no streak)
CREEP_MM = 2.0  # a ball whose mean position moves this much in REST_S / 3 is still rolling
# How much later than the first ball to leave its spot the cue ball's path may show its first
# contact (beyond a frame): the two times are estimated differently.
ORDER_SLACK_S = 0.01


@dataclass(frozen=True)
class TrackedBall:
    key: BallKey | None
    x: float
    y: float


class ShotDetector:
    """One table's shots, from frames and pocket pulses."""

    def __init__(self, calibration: Calibration, on_table: Iterable[BallKey] = ALL_BALLS) -> None:
        self.calibration = calibration
        self.tracker = Tracker(calibration, on_table)
        self._history: deque[Observation] = deque()
        self._shot: list[Observation] | None = None
        self._shot_keys: dict[int, BallKey | None] = {}
        self._shot_start: dict[int, tuple[float, float]] = {}
        self._pulses: list[tuple[float, str]] = []
        self._shots = 0
        # When a ball lost rolling out of sight was last thought to be rolling on under an
        # arm: the balls have been still only since then.
        self._rolling_unseen_at = -math.inf
        self._last_t = -math.inf
        self._strike: float | None = None
        self._begun_at = -math.inf  # when the shot in progress was begun
        self._cue_hidden: float | None = None  # the cue ball went out of sight on its spot
        self._exposure: Exposure | None = None  # measured on the first frame

    # -- the seam ------------------------------------------------------------------------------

    @property
    def strike(self) -> float | None:
        """When the shot in progress was struck (as first noticed), or None at rest."""
        return self._strike

    def set_on_table(self, balls: Iterable[BallKey]) -> None:
        """The balls the rules say are on the table (the cue ball included)."""
        self.tracker.on_table = set(balls) | {"cue"}

    def on_pocket(self, pocket: str, t: float) -> None:
        self._pulses.append((t, pocket))
        self.tracker.on_pocket(pocket, t)

    def on_frame(self, t: float, planes: Planes) -> list[dict[str, Any]]:
        self._last_t = t
        if self._exposure is None:
            cloth = ClothModel.estimate(planes, self.calibration)
            self._exposure = Exposure.for_light(Light.measure(planes, self.calibration, cloth))
            if self._exposure == Exposure():
                self.tracker.cloth = cloth  # the frames are used as they are: made once
        planes = self._exposure.apply(planes)
        observation = self.tracker.update(t, planes)
        if self._shot is None:
            self._history.append(observation)
            while self._history and self._history[0].t < t - PRE_ROLL_S:
                self._history.popleft()
            if self._struck():
                self._begin()
            elif (
                observation.changed
                and self._at_rest(self._history, t)
                and (self.tracker.cue_ball_wanted() or not any(o.occluders for o in self._history))
            ):
                # Something changed and settled (a hand placed the cue ball): re-find balls.
                # The cue ball, when it is still to be found, is looked for with an arm or a
                # cue in the picture too (a player down on the shot right after placing it).
                self.tracker.settle(t, planes)
                self._history.clear()
            elif (
                observation.changed
                and self.tracker.cue_ball_wanted()
                and self._at_rest(self._history, t, in_the_open=True)
            ):
                # ...and with the arm or the cue still moving (stroking): the cue ball alone.
                self.tracker.take_placed_cue_ball(t, planes)
                self._history.clear()
            return []
        self._shot.append(observation)
        if self._struck_in_vain():
            # Back to waiting for the strike, the shot's frames so far the pre-roll.
            self._history = deque(o for o in self._shot if o.t >= t - PRE_ROLL_S)
            self._shot = None
            self._strike = None
            return []
        # A ball lost rolling under an arm still over the table is not at rest for being
        # out of sight; nor just as it should have come out from under it: its way out was
        # worked out from its last step, without the speed a cushion took off it (fresh 4's
        # 135: the cue ball, two cushions under the player, out 0.08 s after it was looked
        # for, rolling).
        if self.tracker.rolling_out_of_sight(t):
            self._rolling_unseen_at = t
        over = (
            self._at_rest(self._shot, t)
            and t - self._rolling_unseen_at >= REST_S
            and not self._drop_awaited(t)
        ) or t - self._shot[0].t > MAX_SHOT_S
        if not over:
            return []
        return self._end_shot(t, planes)

    def finish(self, planes: Planes | None = None) -> list[dict[str, Any]]:
        """The facts of a shot still going on when the frames end (from the last frame)."""
        if self._shot is None:
            return []
        exposed = None if planes is None or self._exposure is None else self._exposure.apply(planes)
        return self._end_shot(self._last_t, exposed)

    def _end_shot(self, t: float, planes: Planes | None) -> list[dict[str, Any]]:
        """The shot's facts, the table looked at again at rest (in `planes`, when there is a
        frame) and the tracker told the shot is over."""
        self._rename(self.tracker.rename_by_roll())
        if planes is not None:
            self.tracker.settle(t, planes, after_shot=True)
            self._undo_swaps_named_at_rest()
        facts = self._facts()
        self.tracker.forget_gone()
        self.tracker.end_shot(t)
        self._shot = None
        self._strike = None
        self._history.clear()
        return [facts] if facts is not None else []

    def tracked(self) -> list[TrackedBall]:
        return [
            TrackedBall(track.key, float(track.xy[0]), float(track.xy[1]))
            for track in self.tracker.tracks.values()
            if track.missing_since is None
        ]

    # -- shot boundaries -----------------------------------------------------------------------

    def _struck(self) -> bool:
        """The cue ball has left its spot on its own (not in a hand, which hides it)."""
        cue = [t for t in self.tracker.tracks.values() if t.key == "cue"]
        if cue:
            # A ball that looks just like it (a 9 with its stripe turned under) may be it:
            # nothing but the cue ball leaves its spot on its own. (Unless the one named so
            # went out of sight on its spot, under the cue: it was struck there, into the
            # look-alike that left its spot (fresh 23's 620, a 10 as white as the cue ball).)
            hidden = cue[0].missing_since is not None
            alike = () if hidden else self.tracker.cue_look_alikes()
            for track in (cue[0], *alike):
                if self._left_its_spot(track, STRIKE_MM):
                    striker = track if track is not cue[0] else self._struck_into(track)
                    if striker is not None:
                        self.tracker.swap_with_the_cue_ball(striker)
                    return True
            if not hidden:
                return False
            if self.tracker.felt_dropping(cue[0]) and not self.tracker.lost_in_an_ended_shot(
                cue[0]
            ):
                # Struck straight in from the jaws under the cue, never seen moving: the
                # pocket's sensor felt it (fresh 7's 205, in the side pocket in 30 ms). (Lost
                # in the mouth before the last shot ended, it was that shot's scratch, its
                # pulse late: fresh 32's 838, the shot over by sight 0.23 s before it came.)
                self._strike = cue[0].missing_since
                return True
            # Out of sight (under the cue, struck into a ball beside it): the first ball to
            # leave its spot shows the strike.
            return any(
                self._left_its_spot(track, 2 * STRIKE_MM)
                for track in self.tracker.tracks.values()
                if track is not cue[0]
            )
        # The cue ball not yet identified: any ball leaving its spot starts a shot.
        return any(
            self._left_its_spot(track, 2 * STRIKE_MM) for track in self.tracker.tracks.values()
        )

    def _struck_in_vain(self) -> bool:
        """Whether the shot just begun was no strike: the cue ball seen back on its spot
        within SPOT_RETURN_S, no ball having left its own. Struck, it goes on away from its
        spot; a centre pulled off it, the cue's tip merging with it in one blob as the player
        strokes, comes back (a bright camera clips the ferrule as white as the cue ball:
        held-out 005 taken so, the cue ball seen 16 mm off its spot every other frame for
        0.2 s, began its first shot a second before the strike)."""
        assert self._shot is not None
        if self._shot[-1].t - self._begun_at > SPOT_RETURN_S:
            return False
        cue = [tid for tid, track in self.tracker.tracks.items() if track.key == "cue"]
        if not cue or cue[0] not in self._shot_start:
            return False
        here = self._shot[-1].positions.get(cue[0])
        if here is None or math.dist(here, self._shot_start[cue[0]]) > MOVED_MM:
            return False
        return not any(
            math.dist(xy, self._shot_start[tid]) > STRIKE_MM
            for observation in self._shot
            for tid, xy in observation.positions.items()
            if tid != cue[0] and xy is not None and tid in self._shot_start
        )

    def _struck_into(self, cue: Track) -> Track | None:
        """The look-alike of the ball named the cue ball (a 9 with its stripe turned under) that
        was the cue ball, struck into the one named so: it went out of sight on its spot while
        the one named so still lay on its, and that one went off its spot on a way a ball
        from there could have sent it, a ball seen now where such a ball would have met it
        (fresh 69's 1760: the two named each for the other at rest, the shot was begun by the
        9, knocked off its spot, and the cue ball's first contact lost)."""
        assert cue.rest_xy is not None
        tid = next(i for i, track in self.tracker.tracks.items() if track is cue)
        for alike in self.tracker.cue_look_alikes():
            # (Found again already, it went out of sight when it was hidden at rest.)
            seen = alike.missing_since is None
            lost = alike.hidden_at_rest if seen else alike.missing_since
            if lost is None or alike.rest_xy is None:
                continue
            apart = cue.rest_xy - alike.rest_xy
            gap = float(np.hypot(*apart))
            # (Struck hard enough to streak out of sight, it soon met the other.)
            if self._last_t - lost > max(gap - 2 * BALL_RADIUS_MM, 0.0) / STRUCK_PACE_MM_S:
                continue
            if not any(
                o.t >= lost
                and (xy := o.positions.get(tid)) is not None
                and math.dist(xy, cue.rest_xy) <= STRIKE_MM
                for o in self._history
            ):
                continue
            gone = cue.xy - cue.rest_xy
            # (A ball from the look-alike's spot sends it off along the line of their centres
            # as they meet, the hitter behind it on that line: its way off leads away from
            # that spot by more than a ball's width.)
            if float(gone @ apart) / float(np.hypot(*gone)) <= 2 * BALL_RADIUS_MM:
                continue
            # Where it is seen now, or a ball no track took.
            there = [alike.xy] if seen else self.tracker.found_untaken()
            if any(
                math.dist(xy, cue.rest_xy) <= 3 * BALL_RADIUS_MM
                and math.dist(xy, alike.rest_xy) < gap
                for xy in there
            ):
                return alike
        return None

    @staticmethod
    def _left_its_spot(track: Track, mm: float) -> bool:
        return (
            track.rest_xy is not None
            and track.missing_since is None
            and bool(np.hypot(*(track.xy - track.rest_xy)) > mm)
        )

    def _begin(self) -> None:
        if self._strike is None:
            self._strike = self._history[-1].t if self._history else self._last_t
        self._shot = list(self._history)
        self._begun_at = self._shot[-1].t if self._shot else self._last_t
        self._history.clear()
        self._shot_keys = {tid: track.key for tid, track in self.tracker.tracks.items()}
        cue = [t for t in self.tracker.tracks.values() if t.key == "cue"]
        self._cue_hidden = cue[0].hidden_at_rest if cue else None
        self._shot_start = {
            tid: (float(track.rest_xy[0]), float(track.rest_xy[1]))
            for tid, track in self.tracker.tracks.items()
            if track.rest_xy is not None
        }

    def _drop_awaited(self, t: float) -> bool:
        """A ball lost in a pocket's mouth that may drop yet, or come back out. On a table
        with pocket sensors, until its pulse comes: a slow ball rolls on to the drop in the
        mouth's shadow, and the beam lies below it (fresh 6's 197: the 2 lost creeping into
        the corner 0.43 s before its pulse), and one may rattle in the jaws as long as a ball
        does before it drops (fresh 23's 620: the 7, lost in the mouth at 0.3 m/s, felt 1.04
        s later). Without sensors, while it may be rattling in the jaws
        (Tracker.rattling_in_the_jaws)."""
        if not self.tracker.has_sensors:
            return self.tracker.rattling_in_the_jaws(t)
        return any(
            self.tracker.at_a_pocket(track)
            and track.missing_since is not None
            and t - track.missing_since < FELT_AFTER_LOST_S
            and not self.tracker.felt_dropping(track)
            for track in self.tracker.tracks.values()
        )

    @staticmethod
    def _at_rest(observations: Sequence[Observation], t: float, in_the_open: bool = False) -> bool:
        """Nothing in the picture (`in_the_open`: but arms and cues) has moved for REST_S,
        and no ball has crept on.

        A slow ball changes a frame too little to see from one frame to the next, so the
        balls' mean positions over the three thirds of the window are compared as well (over
        two halves, one that crept into a cushion and as far back out of it in the window was
        where it was: fresh 33's 860, the maroon 7, its shot ended 0.6 s early and the ball
        held 14 mm from where it stopped).
        """
        # From the end back: a shot's list grows long, and this runs every frame.
        recent = list(takewhile(lambda o: o.t >= t - REST_S, reversed(observations)))[::-1]
        if not recent or recent[0].t > t - REST_S + 0.05:
            return False  # not watched long enough yet
        if any(o.moving_in_the_open if in_the_open else o.moving for o in recent[1:]):
            return False
        # (Plain numbers: this runs every frame, for every ball, on a handful of points.)
        n = len(recent)
        bounds = (0, n // 3, 2 * n // 3, n)
        for tid in recent[-1].positions:
            at = [o.positions.get(tid) for o in recent]
            means = []
            for start, end in pairwise(bounds):
                seen = [p for p in at[start:end] if p is not None]
                if seen:
                    means.append(
                        (sum(p[0] for p in seen) / len(seen), sum(p[1] for p in seen) / len(seen))
                    )
            if any(
                math.hypot(ax - bx, ay - by) > CREEP_MM
                for i, (ax, ay) in enumerate(means)
                for bx, by in means[i + 1 :]
            ):
                return False
        return True

    # -- facts ---------------------------------------------------------------------------------

    def _rename(self, renamed: dict[int, BallKey]) -> None:
        """Name the shot's tracks as the tracker renamed them by their rolls at its end.

        Two look-alikes renamed each as the other swapped balls somewhere: where they passed
        or met, a track jumping to the other's ball. Before that each was the ball it was
        named (fresh 7's 213: the cue ball and the 10 swapped after they met, 0.6 s after
        the cue ball's first contact, seen on the cue ball's track only if the swap is put
        there). Found in the shot, the swap is undone; else the whole track is renamed.
        """
        self._undo_swaps(renamed)
        self._shot_keys.update(renamed)

    def _undo_swaps_named_at_rest(self) -> None:
        """Undo the swaps of balls between tracks that the table identified again at rest
        names each as the other was named (fresh 54's 1384: the cue ball lost along the cue
        as it met the 10, its track took the 10 and the 10's the cue ball). Where no swap is
        found in the shot, the names given before it stand (they name its start, where the
        first contact is)."""
        renamed = {
            tid: track.key
            for tid, track in self.tracker.tracks.items()
            if track.key is not None and self._shot_keys.get(tid) not in (None, track.key)
        }
        undone = self._undo_swaps(renamed)
        self._shot_keys.update({tid: renamed[tid] for tid in undone})

    def _undo_swaps(self, renamed: dict[int, BallKey]) -> set[int]:
        """Undo, in the shot, each swap of balls between two tracks `renamed` each as the
        other was named; the tracks whose swap was found and undone."""
        shot, keys, starts = self._shot, self._shot_keys, self._shot_start
        assert shot is not None
        undone: set[int] = set()
        for a, name in renamed.items():
            b = next((tid for tid, key in keys.items() if key == name and tid != a), None)
            if b is None or a > b or renamed.get(b) != keys.get(a):
                continue
            paths = self._paths(shot)
            if a not in paths or b not in paths:
                continue
            swap = swapped_at(paths[a], paths[b])
            if swap is None:
                continue
            for i in range(swap + 1):
                seen = shot[i].positions
                shot[i] = replace(shot[i], positions={**seen, a: seen.get(b), b: seen.get(a)})
            starts[a], starts[b] = starts[b], starts[a]
            undone |= {a, b}
        return undone

    def _paths(self, shot: list[Observation]) -> dict[int, Path]:
        times = np.array([o.t for o in shot])
        paths = {}
        for tid, start in self._shot_start.items():
            xy = np.zeros((len(shot), 2))
            seen = np.zeros(len(shot), bool)
            last = np.asarray(start, dtype=np.float64)
            for i, obs in enumerate(shot):
                pos = obs.positions.get(tid)
                if pos is not None:
                    last = np.asarray(pos)
                    seen[i] = True
                xy[i] = last
            # A ball lost from sight in the shot and found at rest at its end (the table looked
            # at again) was there at its end: where it went out of sight and where it stopped
            # say what it met meanwhile (fresh 42's 1083: the maroon 7, lost 9 mm off the left
            # cushion heading into it, found 31 mm off it, had met it).
            track = self.tracker.tracks.get(tid)
            if seen.any() and not seen[-1] and track is not None and track.missing_since is None:
                xy[-1], seen[-1] = track.xy, True
            key = self._key_of(tid)
            if key is not None:
                paths[tid] = Path(key, times, xy, seen, start)
        return paths

    def _key_of(self, tid: int) -> BallKey | None:
        """Who the track was when the shot began (seen at rest then), else who it is now.

        Tracks can swap balls in a crowd; the early part of a shot, where the first
        contact is, is best named by the identification made before anything moved.
        """
        before = self._shot_keys.get(tid)
        if before is not None:
            return before
        track = self.tracker.tracks.get(tid)
        return None if track is None else track.key

    def _facts(self) -> dict[str, Any] | None:
        """The shot's facts; None when it was no shot (a ball jumped in the tracking, a hand
        moved the cue ball): nothing rolled, touched or dropped."""
        assert self._shot is not None
        shot = self._shot
        self._shots += 1
        table = self.calibration.table
        paths = self._paths(shot)
        dt = float(np.median(np.diff([o.t for o in shot]))) if len(shot) > 1 else 1 / 60
        cue = next((p for p in paths.values() if p.key == "cue"), None)
        others = [p for p in paths.values() if p.key != "cue"]
        seen_start = strike_time(cue) if cue is not None else None
        if seen_start is None:
            seen_start = shot[0].t
        # Struck out of sight (seen first coming back from a cushion): earlier than seen.
        hidden_start = strike_time(cue, self._cue_hidden) if cue is not None else None
        t_start = min(seen_start, hidden_start) if hidden_start is not None else seen_start
        # No later than the strike was noticed (by the first ball it sent off its spot, the
        # cue ball itself out of sight, seen again only later).
        if self._strike is not None:
            t_start = min(t_start, self._strike)
        seen_dropping, missing, hidden = self._drops(paths, dt)
        drops = self._confirm_with_sensors(seen_dropping, paths, t_start, missing, hidden)
        events: list[Event] = []
        warnings: list[str] = []
        first: int | None = None
        tie: list[int] = []
        t_first = math.inf
        if cue is not None:
            contacts, reach = first_contacts(cue, others, t_start)
            mover = first_mover(cue, others, t_start, {d.key for d in drops})
            # Nothing but the cue ball moves before its first contact: a contact the cue
            # ball's path shows after another ball had already left its spot is a later one.
            if contacts and (mover is None or contacts[0][0] <= mover[0] + dt + ORDER_SLACK_S):
                t_first, first = contacts[0]
                tie = [k for t, k in contacts[1:] if t - t_first <= SPLIT_HIT_S]
            elif mover is not None:
                t_first, first = mover
            elif felt_hidden := {d.key for d in drops} & set(hidden):
                # A ball out of sight the whole shot that a sensor felt drop moved unseen: the
                # cue ball hit it if its way, out of sight, ran into it.
                hit = hit_out_of_sight(
                    cue, [p for p in others if p.key in felt_hidden], reach, t_start
                )
                if hit is not None:
                    t_first, first = hit
                    warnings.append(
                        f"first contact with ball {first} out of sight: its pocket's sensor "
                        "felt it drop, and the cue ball's way ran into its spot"
                    )
            if first is not None:
                events.append(Event(t_first, "contact", ("cue", first)))
        # A drop no sensor felt did not happen: the ball is on the table, out of sight.
        felt = {d.key for d in drops}
        unseen = [key for key in missing if key not in felt]
        unseen += [d.key for d in seen_dropping if d.key not in felt and d.key not in unseen]
        warnings += [f"ball {key} lost from sight on the table" for key in unseen]
        departures = {d.key: d for d in drops}
        if first is not None:
            first_ball = next(p for p in others if p.key == first)
            struck_from = struck_at(cue, t_first, first_ball.start) if cue is not None else None
            for path in paths.values():
                departure = departures.get(path.key)
                rest = [p for p in paths.values() if p is not path]
                hitter = struck_from if path.key == first else struck_by(path, rest)
                for event in cushion_contacts(path, table, t_first, departure, hitter, rest):
                    if event.t >= t_first:
                        events.append(event)
        by_key = {path.key: path for path in paths.values()}
        for drop in drops:
            if drop.pocket is not None:
                events.append(Event(drop.t, "pocket", (drop.key,), pocket=drop.pocket))
                if first is not None and drop.key in by_key:
                    jaws = jaw_contacts(by_key[drop.key], table, drop.pocket, t_first)
                    events.extend(e for e in jaws if e.t >= t_first)
            else:
                events.append(Event(drop.t, "off_table", (drop.key,)))
        # (A cushion touched by a pocket and that pocket's jaw on it, each found in its
        # way, within SAME_CONTACT_S are one contact.)
        touches = merge_same_contacts([e for e in events if e.type == "rail"])
        events = sorted([e for e in events if e.type != "rail"] + touches, key=lambda e: e.t)
        if not events and cue is not None and put_down_by_hand(cue):
            self._shots -= 1
            return None
        # A ball that went down or out of sight last moved until then.
        lost = [
            p.t[i] for p in paths.values() if (i := p.last_seen()) is not None and i < len(shot) - 1
        ]
        t_end = max([self._end_time(shot), *(e.t for e in events), *lost])
        # Nothing touched or dropped, and nothing off its spot but for a moment (a ball's
        # centre pulled by a hand or a shadow going over it): no shot.
        if not events and (
            t_end <= seen_start or not any(p.left_its_spot() for p in paths.values())
        ):
            self._shots -= 1
            return None
        pocketed = [{"ball": e.balls[0], "pocket": e.pocket} for e in events if e.type == "pocket"]
        ten_in_play = 10 in self.tracker.on_table
        for e in events:
            if e.type in ("pocket", "off_table") and isinstance(e.balls[0], int):
                self.tracker.on_table.discard(e.balls[0])
        if ten_in_play:
            self.tracker.on_table.add(10)  # a 10 that went down comes back on its spot
        rails = [
            {
                "ball": e.balls[0],
                "rail": e.rail,
                **({"frozen_no_leave": True} if e.frozen_no_leave else {}),
            }
            for e in events
            if e.type == "rail"
        ]
        return {
            "shot": self._shots,
            "t_start": round(t_start, 4),
            "t_end": round(t_end, 4),
            "first_contact": first,
            **({"first_contact_tie": tie} if tie else {}),
            "rails_after_contact": rails,
            "pocketed": pocketed,
            "off_table": [e.balls[0] for e in events if e.type == "off_table"],
            "events": [e.to_json() for e in events],
            **({"warnings": warnings} if warnings else {}),
            "positions": {
                str(track.key): [round(float(track.xy[0]), 1), round(float(track.xy[1]), 1)]
                for track in self.tracker.tracks.values()
                if track.key is not None and track.missing_since is None
            },
        }

    def _drops(
        self, paths: dict[int, Path], dt: float
    ) -> tuple[list[Disappearance], list[BallKey], list[BallKey]]:
        """How the balls the shot took off the table left it, the balls lost from sight
        that are still on it, and those out of sight the whole shot and not found at its end.

        A ball lost in a pocket's mouth dropped. One lost elsewhere left the table only if
        it is not found at rest after the shot, where every ball is seen apart and
        identified (the tracker also loses balls in a crowd), and it could have gone over a
        cushion (stayed_on_the_table).
        """
        table = self.calibration.table
        seen = {
            tr.key for tr in self.tracker.tracks.values() if tr.missing_since is None and tr.key
        }
        drops: dict[BallKey, Disappearance] = {}
        unseen: list[BallKey] = []
        hidden: list[BallKey] = []
        for tid, path in paths.items():
            track = self.tracker.tracks.get(tid)
            if track is not None and track.missing_since is None:
                continue
            if not path.seen.any():
                # Lost before this shot began: only a sensor can say this shot moved it.
                if path.key is not None and path.key not in seen:
                    hidden.append(path.key)
                continue
            if track is not None and not path.left_its_spot() and self.tracker.by_an_arm(track):
                continue  # still where it stood, out of sight beside an arm over the table
            drop = disappearance(path, table, dt)
            if drop is None or path.key in drops or path.key in unseen:
                continue
            if drop.pocket is None and path.key in seen:
                continue
            others = [p for p in paths.values() if p is not path]
            if stayed_on_the_table(path, others, drop):
                unseen.append(path.key)
            else:
                drops[path.key] = drop
        return list(drops.values()), unseen, hidden

    def _confirm_with_sensors(
        self,
        drops: list[Disappearance],
        paths: dict[int, Path],
        t_start: float,
        missing: list[BallKey],
        hidden: list[BallKey],
    ) -> list[Disappearance]:
        """The shot's drops with its pocket pulses fused in, once the table has shown it has
        sensors (a pulse has come); vision alone decides without them. `missing`: the balls
        lost from sight and not found at the shot's end; `hidden`: those out of sight the
        whole shot and not found at its end."""
        pulses = [(t, p) for t, p in self._pulses if t >= t_start - 0.05]
        self._pulses = [(t, p) for t, p in self._pulses if t < t_start - 0.05]
        if not self.tracker.has_sensors:
            return drops
        return fuse_pulses(
            drops, pulses, list(paths.values()), self.calibration.table, missing, hidden
        )

    @staticmethod
    def _end_time(shot: list[Observation]) -> float:
        """The last moment any ball moved."""
        last = shot[-1]
        for obs in reversed(shot):
            for tid, pos in obs.positions.items():
                now = last.positions.get(tid)
                if pos is None or now is None:
                    continue
                if math.hypot(pos[0] - now[0], pos[1] - now[1]) > 3.0:
                    return obs.t
        return shot[0].t
