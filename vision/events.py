"""A shot's events from the balls' tracks: pure functions over positions in mm and seconds.

Positions are sampled once a frame, and at break speed the cue ball crosses more than a ball
between two frames, so times come from the trajectories, not from the frames: a contact is
where the incoming path meets the other ball (or the cushion), extrapolated to a fraction of a
frame.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field
from itertools import pairwise

import numpy as np
from numpy.typing import NDArray

from vision.geometry import (
    BALL_RADIUS_MM,
    RAILS,
    Rail,
    Table,
    nearest_on_segment,
    point_segment_distance,
)

BallKey = int | str
F64 = NDArray[np.float64]

# A ball has left its spot once it is this far from it.
MOVED_MM = 5.0
# No ball goes over a cushion slower than this: it has to leave the cloth to clear a nose
# that stands above its centre.
LEAVES_TABLE_SPEED_MM_S = 1000.0
# How far a seen position may be from the true one (blur, shading, compression).
POSITION_NOISE_MM = 8.0
# Two balls' centres this near may be one blob: touching, but for the position noise.
TOUCHING_MM = 2 * BALL_RADIUS_MM + POSITION_NOISE_MM
# How far wide of its path a fast cue ball's streak may put its centre.
STREAK_NOISE_MM = 4.0
# A ball the cue ball struck leaves its spot within this, however thin the hit (a feathered
# cut moves it a few millimetres in a few frames).
STILL_AFTER_HIT_S = 0.15
# ...and one seen off its spot later went the way the cue ball sent it, to within this (its
# first step off, a few millimetres, measured to a millimetre or so).
SENT_OFF_DEG = 15.0
# A cue ball's line from a sighting is carried on this many spans to the next sighting for
# when it reached a ball (its pace measured on a blurred start lags it).
LINE_CARRIED_SPANS = 1.5
# Contacts closer than this to each other (in time) cannot be ordered: a split hit.
SPLIT_HIT_S = 0.002
# A cushion met this soon after the first contact may have been met before it (a few mm of
# position error near a cushion is a few ms): it does not count as after the contact.
ORDER_UNCERTAIN_S = 0.003
# A cushion gap under this at the start of a shot is a ball frozen to it (WPA 8.4).
FROZEN_MM = 3.0
# A ball that ran at a cushion and stopped this near it came to rest against it (one that
# stops short, rolling along it, stops a millimetre or two off: as far as positions tell).
STOPPED_AT_MM = 1.5
# A ball that came that near a cushion and went this far away again touched it.
TOUCH_PROMINENCE_MM = 1.5
# A ball slower than this (over this long either side) creeps: its centre's jitter is as
# much as its travel.
CREEP_SPEED_MM_S = 100.0
CREEP_BASE_S = 0.1
# A frozen ball has left its cushion once the gap exceeds this.
LEFT_CUSHION_MM = 8.0
# A ball last seen running into a cushion this near it (beyond a frame's travel) reached it.
CUSHION_REACH_MM = 14.0
# A turn off a cushion comes nearer it than the position's noise and half a frame's travel,
# and comes towards it and goes away again by this much (more than the position noise of a
# ball at rest).
CUSHION_PROMINENCE_MM = 4.0
# A turn whose lines in and out meet this close to a cushion met it, however far from it
# the frames either side were; and a share of a frame's travel closer (a fast ball is a
# streak, and the middle of one that turned within its exposure lies off the turn).
APEX_REACH_MM = 4.0
APEX_REACH_PER_TRAVEL = 0.1
# A ball resting this near a cushion, struck this squarely into it (the cosine: a few degrees
# of the hit's line measured wrong still take it into the cushion), reaches it.
STRUCK_INTO_REACH_MM = 2 * BALL_RADIUS_MM
STRUCK_INTO = 0.25
# ...and back off it, went in no faster than this many times the pace it goes on at (a
# cushion takes pace off, and the cloth some more by the time its pace after is measured,
# over PACE_SPAN_S).
PACE_LOST_AT_CUSHION = 2.0
PACE_SPAN_S = 0.05
# A ball that hit another came this near its spot, on the line between two of its sightings
# (touching is two radii; each sighting is off by the position noise, and the line cuts the
# corner of a bounce off it).
HIT_REACH_MM = 2 * BALL_RADIUS_MM + 2 * POSITION_NOISE_MM
# ...and came within this of it where its way carried on (from its sightings) meets it: two
# balls touching, their centres each off by a little.
CONTACT_REACH_MM = 2 * BALL_RADIUS_MM + 1.5
# A ball seen within this of one place for this long was at rest there.
STILL_MM = 2.0
STILL_S = 0.2
# A ball at rest found off its spot and back on it (to stay this long) within this time
# did not move.
SPOT_RETURN_S = 0.15
SPOT_STAY_S = 0.1
# A ball out of sight longer than this (under an arm) may have met a cushion unseen: it did
# when its ways in and out, each at least this fast towards and away from the cushion, reach
# the cushion together, within this time (or this share of the time out of sight).
UNSEEN_S = 0.05
BOUNCE_BASE_S = 0.05  # its speeds measured over this long either side
# A way seen on through a while out of sight is measured over this long either side (just
# out of sight, under an arm's edge, a ball's centre is pulled about), or over this many
# samples where it was seen fewer times in that.
STRAIGHT_ON_BASE_S = 0.1
LINE_SAMPLES = 3
BOUNCE_RATE_MM_S = 100.0
BOUNCE_SLACK_S = 0.05
BOUNCE_SLACK_SHARE = 0.25
SAME_CONTACT_S = 0.1  # contracts §3: one contact of a ball with a rail within 0.1 s
# A dropping ball whose way in (carried on from where it was last seen) comes this close to a
# jaw, beyond touching, touched it: a slack of a few mm called clean drops glancing contacts.
JAW_SLACK_MM = 0.0
# The run into a pocket judged for jaw contacts: this far back from where it was lost.
JAW_APPROACH_MM = 150.0
# ...but only as far back as it ran straight: its last this many mm give its heading, and a
# way back that strays from that line by more than the measuring's scatter and this angle
# is not part of the run in.
JAW_HEADING_MM = 30.0
JAW_LINE_MM = 3.0
JAW_TURN_DEG = 10.0
# A run this long is headed within JAW_TURN_DEG by sightings JAW_LINE_MM off its line.
JAW_RUN_MM = JAW_LINE_MM / math.sin(math.radians(JAW_TURN_DEG))
# Its way in is carried on from where it was this clear of the cushion lines: nearer, its
# image leans out over the cushion (the more the farther it is from under the camera) and is
# cut by the cloth's edge, and the pocket's mouth pulls its seen centre about.
JAW_CLEAR_MM = BALL_RADIUS_MM / 2
# A turn in a pocket's mouth was made by a jaw whose touching line it is this near.
JAW_TURN_SLACK_MM = 10.0


@dataclass(frozen=True)
class Path:
    """One ball's track during a shot: sample times, positions, and where it was seen."""

    key: BallKey
    t: F64
    xy: F64  # (n, 2); rows where not seen repeat the last seen position
    seen: NDArray[np.bool_]
    start: tuple[float, float]  # where it rested before the strike

    def first_moved(self) -> int | None:
        """Index of the first sample seen away from its starting spot, if any.

        A ball lost from sight for good (pocketed at once) moved when it was lost; one hidden
        for a moment (merged with the ball that hit it) is judged where it is seen again.
        """
        hits = np.nonzero(self._seen_away())[0]
        if len(hits):
            return int(hits[0])
        last = self.last_seen()
        if last is not None and last + 1 < len(self.t):
            return last + 1
        return None

    def first_going(self) -> int | None:
        """Index of the first sample seen off its spot from which it was next seen farther
        off still (None: never): a centre pulled off its spot as another ball merges with
        it comes back towards the spot at the next sighting; a ball going away does not."""
        away = np.nonzero(self._seen_away())[0]
        off = np.linalg.norm(self.xy - np.asarray(self.start), axis=1)
        for i, j in pairwise(away.tolist()):
            if off[j] > off[i]:
                return int(i)
        return None

    def at(self, t: float) -> tuple[float, float]:
        """Where it was at `t`, between the samples it was seen at."""
        x, y = self.at_times(np.array([t]))[0]
        return float(x), float(y)

    def at_times(self, times: F64) -> F64:
        """Where it was at each of `times` (n, 2), between the samples it was seen at."""
        if not self.seen.any():
            return np.tile(np.asarray(self.start, dtype=np.float64), (len(times), 1))
        seen_t, xy = self.t[self.seen], self.xy[self.seen]
        return np.stack([np.interp(times, seen_t, xy[:, 0]), np.interp(times, seen_t, xy[:, 1])], 1)

    def left_its_spot(self) -> bool:
        """Whether it was ever seen away from where it rested before the strike."""
        return bool(self._seen_away().any())

    def _seen_away(self) -> NDArray[np.bool_]:
        """Where it was seen off its spot, but for a moment and back on it to stay (its
        centre pulled by a ball passing close, or by a hand or a shadow over it): a ball
        that was hit does not come back to stop on the spot it left. Nor was one seen only in
        pieces, never a ball's width off its spot, however long that lasted (fresh 25's 667:
        the 7 under the cue for a second after the strike, its pieces beside the shaft seen
        up to 41 mm off, then its spot as it was)."""
        off = np.linalg.norm(self.xy - np.asarray(self.start), axis=1)
        away = off > MOVED_MM
        seen_away, resting = self.seen & away, self.seen & ~away
        # (Only gaps between sightings on the spot short enough to be a moment, or never a
        # ball's width off it, are judged.)
        on_spot = np.nonzero(resting)[0]
        for left, back in pairwise(on_spot.tolist()):
            if back - left < 2:
                continue
            near = bool(
                (off[left + 1 : back][self.seen[left + 1 : back]] < 2 * BALL_RADIUS_MM).all()
            )
            longest = math.inf if near else SPOT_RETURN_S
            if _off_its_spot_for_a_moment(left + 1, resting, self.t, longest, self.seen):
                seen_away[left + 1 : back] = False
        return np.asarray(seen_away)

    def frame_interval(self) -> float:
        """The usual time between its samples (0.0 with fewer than two)."""
        return float(np.median(np.diff(self.t))) if len(self.t) > 1 else 0.0

    def last_seen(self) -> int | None:
        hits = np.nonzero(self.seen)[0]
        return int(hits[-1]) if len(hits) else None

    def seen_before(self, i: int) -> int:
        """Index of the last sample seen before sample `i` (-1: none)."""
        hits = np.nonzero(self.seen[:i])[0]
        return int(hits[-1]) if len(hits) else -1

    def still_until(self) -> float | None:
        """When it was last seen still on its starting spot (None: never seen there)."""
        moved = self.first_moved()
        i = self.seen_before(moved if moved is not None else len(self.t))
        return float(self.t[i]) if i >= 0 else None


@dataclass(frozen=True)
class Event:
    t: float
    type: str
    balls: tuple[BallKey, ...] = ()
    rail: str | None = None
    pocket: str | None = None
    frozen_no_leave: bool = False

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"t": round(self.t, 4), "type": self.type}
        if self.type == "contact":
            out["balls"] = list(self.balls)
        else:
            out["ball"] = self.balls[0]
        if self.rail is not None:
            out["rail"] = self.rail
        if self.pocket is not None:
            out["pocket"] = self.pocket
        return out


@dataclass(frozen=True)
class ShotEvents:
    t_start: float
    t_end: float
    first_contact: int | None
    first_contact_tie: tuple[int, ...]
    events: tuple[Event, ...] = field(default_factory=tuple)


# ----- the strike and the first contact -----------------------------------------------------


def strike_time(cue: Path, hidden_since: float | None = None) -> float | None:
    """When the tip struck: the cue ball's first motion extrapolated back to its spot.

    `hidden_since`: when the cue ball went out of sight on its spot, if it was out of sight
    until seen moving. Seen first coming back towards its spot, it met a cushion or a ball
    out of sight: it left far earlier than a straight way back says, so when it was hidden.
    """
    first = cue.first_moved()
    if first is None or not cue.seen[first]:
        return None if first is None else float(cue.t[first])
    start = np.asarray(cue.start)
    if hidden_since is not None and _coming_back(cue, first):
        return hidden_since
    end = min(first + 2, len(cue.t) - 1)
    if end > first and cue.seen[end]:
        speed = np.linalg.norm(cue.xy[end] - cue.xy[first]) / (cue.t[end] - cue.t[first])
    else:
        prev = max(first - 1, 0)
        speed = np.linalg.norm(cue.xy[first] - start) / max(cue.t[first] - cue.t[prev], 1e-6)
    travelled = float(np.linalg.norm(cue.xy[first] - start))
    back = travelled / speed if speed > 1e-6 else 0.0
    # Not before it was last seen on its spot (out of sight since, behind the cue, it may
    # have left any time after); out of sight there since before the shot's first frame, not
    # before it went out of sight (fresh 62's 1592: hidden under the cue 0.5 s, seen first
    # 1.35 m off: the strike had been put at that sighting, half a second late).
    still = cue.still_until()
    if still is not None:
        earliest = still
    else:
        earliest = hidden_since if hidden_since is not None else float(cue.t[first])
    return float(max(cue.t[first] - back, earliest))


def swapped_at(a: Path, b: Path) -> int | None:
    """The last sample before two tracks (paths at the same times) swapped balls: where
    carrying each on as the other makes both paths smoother by more than a ball's radius
    (each jumped onto the other's line); None if nowhere. Each goes on from a sample to its
    next sighting: one track out of sight across the swap (fresh 54's 1384: the cue ball
    lost along the cue as it met the 10) jumps a few frames later than the other."""
    later = _next_sighting(a), _next_sighting(b)
    kept = np.hypot(*(later[0] - a.xy[:-1]).T) + np.hypot(*(later[1] - b.xy[:-1]).T)
    crossed = np.hypot(*(later[0] - b.xy[:-1]).T) + np.hypot(*(later[1] - a.xy[:-1]).T)
    gain = kept - crossed
    if not len(gain):
        return None
    best = int(np.argmax(gain))
    return best if gain[best] > BALL_RADIUS_MM else None


def _next_sighting(path: Path) -> F64:
    """For each sample but the last, where the ball was next seen after it (where it was
    last known, if it was not seen again)."""
    n = len(path.t)
    sighted = np.where(path.seen, np.arange(n), n - 1)
    # The first sighting at or after each sample, taken from the end back.
    first_from = np.minimum.accumulate(sighted[::-1])[::-1]
    return np.asarray(path.xy[first_from[1:]])


def put_down_by_hand(cue: Path) -> bool:
    """Whether the cue ball was put down rather than struck: seen again off its spot after
    it was out of sight there (in a hand), and from then on never a ball's radius from where
    it reappeared (settled by the hand, not rolling)."""
    moved = cue.first_moved()
    if moved is None or moved == 0 or cue.seen[moved - 1] or not cue.seen[moved]:
        return False
    after = cue.seen & (np.arange(len(cue.t)) >= moved)
    return bool(np.all(np.linalg.norm(cue.xy[after] - cue.xy[moved], axis=1) < BALL_RADIUS_MM))


def _coming_back(path: Path, first: int) -> bool:
    """Whether the ball, first seen away from its spot, was heading back towards it."""
    later = [i for i in range(first + 1, min(first + 4, len(path.t))) if path.seen[i]]
    if not later:
        return False
    heading = path.xy[later[0]] - path.xy[first]
    away = path.xy[first] - np.asarray(path.start)
    return bool(heading @ away < 0.0)


def _reach_time(
    cue: Path, target: F64, reach: float, t_from: float, t_until: float = math.inf
) -> float | None:
    """First time after `t_from` (and before its first sighting after `t_until`) the cue
    ball's centre comes within `reach` of `target`.

    From each seen position the ball is taken to go on at the velocity it came with (a
    contact bends the path only after it happens), which places the moment to a fraction of
    a frame, also when no frame shows the two balls touching (merged into one blob, or the
    cue ball already bounced off). Seen first after `t_from`, it came from the frame before
    in the time since then (`t_from` the strike: it stood still until then): fresh 59's
    1500, a thin cut on the 8 in the first frame after the strike, that bent the path so
    that the line to the next frame missed it.
    """
    seen = np.nonzero(cue.seen & (cue.t >= t_from - 1e-9))[0]
    seen = seen[: int(np.searchsorted(cue.t[seen], t_until, side="right")) + 1]
    d = np.linalg.norm(cue.xy - target, axis=1)
    pending: float | None = None  # reached a little beyond the next frame, still nearing
    for n, j in enumerate(seen):
        if d[j] <= reach:
            return pending if pending is not None else float(max(cue.t[j], t_from))
        if n + 1 >= len(seen):
            break
        i = seen[n + 1]
        span = float(cue.t[i] - cue.t[j])
        before = seen[n - 1] if n > 0 else (j - 1 if j > 0 and cue.seen[j - 1] else None)
        came_from = float(cue.t[before]) if n > 0 else t_from
        if before is not None and cue.t[j] > came_from:
            velocity = (cue.xy[j] - cue.xy[before]) / (cue.t[j] - came_from)
        else:
            velocity = (cue.xy[i] - cue.xy[j]) / span
        hit = _ray_circle(cue.xy[j], velocity, target, reach)
        if hit is not None and hit <= span:
            return float(cue.t[j] + hit)
        if d[i] <= reach:
            if hit is not None and hit <= LINE_CARRIED_SPANS * span:
                return float(cue.t[j] + hit)
            # The straight line misses; the path bent earlier: interpolate the distances.
            frac = (d[j] - reach) / max(d[j] - d[i], 1e-9)
            return float(cue.t[j] + frac * span)
        if hit is not None and hit <= LINE_CARRIED_SPANS * span:
            # Reached just after the next frame, which (nearer, its speed measured later) may
            # place it sooner: a speed measured on a blurred start lags the ball.
            reached = float(cue.t[j] + hit)
            pending = reached if pending is None else min(pending, reached)
        elif pending is not None:
            return pending  # its path turned away by the next frame
    return pending


def _hit_time(cue: Path, ball: Path, reach: float, t_strike: float) -> float | None:
    """When the cue ball came within `reach` of where `ball` stood, and it did not stay on
    its spot well after: a ball that did only had the cue ball's path come near it (merged
    with it in passing, or a few millimetres wide of it), which may come back to hit it.
    (Unless it went off its spot along the line of centres from there: a feathered cut
    sends a ball off so slowly that it is seen off its spot only late.)

    Nor was it hit then if it left another way, and the cue ball, out of reach again, came
    back within reach of it while it still stood and sent it off that way: its path only
    came near it on its way to a cushion beside it (fresh 14's 382: a millimetre inside
    reach on the way to the foot cushion 21 mm off, and back off it 70 ms later), or sent
    it off nearer that way than the first time did (fresh 23's 600: 6 mm wide of the 7 on
    the way to the foot cushion, and back into it 80 ms later; the 7's spot, measured 4 mm
    off, put the way it left 16 degrees off the second line of centres, 58 off the first)."""
    start = np.asarray(ball.start)
    still = ball.still_until()
    when = _reach_time(cue, start, reach, t_strike)
    while when is not None and still is not None:
        off_line = _sent_off_the_line_of_centres_deg(cue, ball, when)
        if off_line <= SENT_OFF_DEG:
            break
        again = _reach_time(cue, start, reach, _out_of_reach_after(cue, start, reach, when))
        if still > when + STILL_AFTER_HIT_S:
            when = again
            continue
        # (Hit any time until it was seen off its spot.)
        moved = ball.first_moved()
        left = float(ball.t[moved]) if moved is not None else math.inf
        if (
            again is not None
            and again <= left + _timing_slack(cue, ball, again)
            and _sent_off_the_line_of_centres_deg(cue, ball, again) < off_line
        ):
            when = again
        break
    return when


def _timing_slack(cue: Path, ball: Path, when: float) -> float:
    """How late a time the cue ball's path gives for its reaching `ball` may be: half a
    frame, or what the position noise is worth at the cue ball's speed then."""
    frame = float(ball.t[1] - ball.t[0]) if len(ball.t) > 1 else 0.0
    return max(0.5 * frame, POSITION_NOISE_MM / max(_speed_at(cue, when), 1.0))


def _sent_off_the_line_of_centres_deg(cue: Path, ball: Path, t: float) -> float:
    """How far (degrees) the way `ball` left its spot is from the way the cue ball, coming
    within reach of it at `t`, could have sent it: along the line of centres at some point
    of the cue ball's way from there to where it came nearest (a thin hit meets the ball
    there). Infinite when it could not have (it went off too late for the pace it went on
    at), or its way off is not seen."""
    moved = ball.first_moved()
    if moved is None or not ball.seen[moved]:
        return math.inf
    start = np.asarray(ball.start)
    gone = float(np.linalg.norm(ball.xy[moved] - start))
    # Nothing speeds it up after the hit: it goes on no faster than it went off its spot.
    later = np.nonzero(ball.seen & (ball.t >= ball.t[moved] + SPOT_STAY_S))[0]
    if len(later):
        span = float(ball.t[later[0]] - ball.t[moved])
        pace = float(np.linalg.norm(ball.xy[later[0]] - ball.xy[moved])) / span
        if pace * float(ball.t[moved] - t) > gone + MOVED_MM:
            return math.inf
    away = (ball.xy[moved] - start) / max(gone, 1e-9)
    frame = cue.frame_interval()
    nearest, best = math.inf, -1.0
    for when in t + frame * np.arange(0.0, 2.0, 0.1):
        line = start - np.asarray(cue.at(float(when)))
        gap = float(np.linalg.norm(line))
        if gap > nearest:
            break  # past its nearest: it would have met the ball by now
        nearest = gap
        best = max(best, float(away @ line) / max(gap, 1e-9))
    return math.degrees(math.acos(min(max(best, -1.0), 1.0)))


def _out_of_reach_after(cue: Path, target: F64, reach: float, t: float) -> float:
    """When the cue ball, within `reach` of `target` at `t`, was first seen beyond it again
    (the end of the recording if never)."""
    d = np.linalg.norm(cue.xy - target, axis=1)
    beyond = np.nonzero(cue.seen & (cue.t > t) & (d > reach))[0]
    return float(cue.t[beyond[0]]) if len(beyond) else math.inf


def _ray_circle(p0: F64, velocity: F64, centre: F64, radius: float) -> float | None:
    """Time when p0 + v·t first enters the circle, or None."""
    rel = p0 - centre
    a = float(velocity @ velocity)
    if a < 1e-12:
        return None
    b = 2 * float(rel @ velocity)
    c = float(rel @ rel) - radius * radius
    disc = b * b - 4 * a * c
    if disc < 0:
        return None
    t = (-b - math.sqrt(disc)) / (2 * a)
    return t if t >= 0 else None


def _speed_at(path: Path, t: float) -> float:
    """The ball's speed over the two seen samples before `t` (mm/s)."""
    before = [i for i in range(len(path.t)) if path.seen[i] and path.t[i] <= t]
    if len(before) < 2:
        return 0.0
    i, j = before[-2], before[-1]
    return float(np.linalg.norm(path.xy[j] - path.xy[i]) / max(path.t[j] - path.t[i], 1e-6))


def _left_by(path: Path, i: int) -> float:
    """The latest the ball can have left its spot, first seen off it going at sample `i`:
    seen off it by less than the position noise, it may yet have been on it (its centre
    pushed off by the split of a blob it shares with the ball reaching it) until the pace
    it went on at would have taken it that far."""
    t = float(path.t[i])
    off = float(np.linalg.norm(path.xy[i] - np.asarray(path.start)))
    later = np.nonzero(path.seen[i + 1 :])[0]
    if off >= POSITION_NOISE_MM or not len(later):
        return t
    j = i + 1 + int(later[0])
    speed = float(np.linalg.norm(path.xy[j] - path.xy[i])) / max(float(path.t[j]) - t, 1e-6)
    return min(t + (POSITION_NOISE_MM - off) / max(speed, 1e-6), float(path.t[j]))


def first_contacts(
    cue: Path, others: list[Path], t_strike: float
) -> tuple[list[tuple[float, int]], float]:
    """Object balls the cue ball reached before anything else moved them, earliest first."""
    reach = CONTACT_REACH_MM
    unseen_from, unseen_until = _struck_out_of_sight(cue)
    found: list[tuple[float, int]] = []
    for path in others:
        moved = path.first_moved()
        if moved is None or not isinstance(path.key, int):
            continue
        when = _hit_time(cue, path, reach, t_strike)
        if when is None:
            # A fast cue ball is a streak, its centre measured to a few millimetres: one that
            # came that near a ball which left its spot just then hit it.
            when = _hit_time(cue, path, reach + STREAK_NOISE_MM, t_strike)
        if when is None:
            continue
        # The ball cannot have been struck by the cue ball after it was already going.
        slack = _timing_slack(cue, path, when)
        going = path.first_going()
        # (Struck out of sight, it may have met the ball any time it was out of sight.)
        earliest = unseen_from if unseen_from < when <= unseen_until else when
        if earliest > _left_by(path, moved if going is None else going) + slack:
            continue
        found.append((when, path.key))
    found.sort()
    return found, reach


def _struck_out_of_sight(cue: Path) -> tuple[float, float]:
    """When the cue ball was last seen still, and when its line from there to where it was
    next seen may have reached a ball (_reach_time carries it on: LINE_CARRIED_SPANS), if it was
    out of sight for more than a frame between them (behind the cue, merged with a ball it
    hit); (inf, inf) if it was not. Its pace over that span is not known: the line says
    nothing of when it was where."""
    still = cue.still_until()
    if still is None:
        return math.inf, math.inf
    later = cue.t[cue.seen & (cue.t > still)]
    if not len(later) or later[0] - still <= 1.5 * cue.frame_interval():
        return math.inf, math.inf
    return still, still + LINE_CARRIED_SPANS * (float(later[0]) - still)


def hit_out_of_sight(
    cue: Path, hidden: Sequence[Path], reach: float, t_strike: float
) -> tuple[float, int] | None:
    """The ball out of sight at rest (`hidden`, known to have moved: a sensor felt it drop)
    that the cue ball ran into between two of its sightings, and when: its way on from a
    sighting, at the speed it came there, meets the ball's spot before it is seen again."""
    seen = [i for i in np.nonzero(cue.seen)[0].tolist() if cue.t[i] >= t_strike]
    found: list[tuple[float, int]] = []
    for k in range(1, len(seen)):
        before, at = seen[k - 1], seen[k]
        # (Until it is seen again; lost for good, until the shot's end.)
        again = seen[k + 1] if k + 1 < len(seen) else len(cue.t) - 1
        span = float(cue.t[again] - cue.t[at])
        velocity = (cue.xy[at] - cue.xy[before]) / max(float(cue.t[at] - cue.t[before]), 1e-6)
        for path in hidden:
            if not isinstance(path.key, int):
                continue
            when = _ray_circle(cue.xy[at], velocity, np.asarray(path.start), reach)
            if when is not None and when <= span:
                found.append((float(cue.t[at]) + when, path.key))
    return min(found) if found else None


def struck_by(path: Path, others: Sequence[Path]) -> tuple[float, float] | None:
    """Where the ball that hit `path`'s ball was as it hit it: of the `others` that had left
    their spots before it and came within HIT_REACH_MM of its spot between its last sighting
    there (the shot's start, if it was out of sight there) and its first off it, the one
    that came nearest, where it did (between sightings, on the line joining them; or, seen
    touching it on none, where its way in carried on meets it)."""
    moved, still = path.first_moved(), path.still_until()
    if moved is None:
        return None
    if still is None:  # out of sight on its spot from the start
        still = float(path.t[0])
    t_moved = float(path.t[moved])
    spot = np.asarray(path.start, np.float64)
    best: tuple[float, tuple[float, float]] | None = None

    def consider(near: F64) -> None:
        nonlocal best
        gap = float(np.hypot(*(near - spot)))
        if gap <= HIT_REACH_MM and (best is None or gap < best[0]):
            best = (gap, (float(near[0]), float(near[1])))

    # (A neighbour resting beside it, or one set off by the same hit, did not hit it.)
    movers = [
        other
        for other in others
        if (left := other.first_moved()) is not None and other.t[left] < t_moved
    ]
    for other in movers:
        inside = other.seen & (other.t > still) & (other.t < t_moved)
        pts = other.at_times(np.array([still, *other.t[inside].tolist(), t_moved]))
        for a, b in pairwise(pts):
            consider(nearest_on_segment(spot[None], a, b)[0])
    if best is not None and best[0] <= 2 * BALL_RADIUS_MM:
        return best[1]  # seen touching it, or all but
    # Out of sight as it hit it, it was where its way in carried on meets it: the line
    # between its sightings either side cuts the corner of its turn off it (fresh 59's 1508:
    # the cue ball under the cue as it cut the 10 into the foot cushion, that line 99 mm off
    # the 10's spot; the 10, seen only on its way back, met no cushion).
    for other in movers:
        before = np.nonzero(other.seen & (other.t <= still))[0]
        if not len(before):
            continue
        when = _reach_time(other, spot, CONTACT_REACH_MM, float(other.t[before[-1]]), t_moved)
        if when is not None and still <= when < t_moved:
            at = _met_on_its_way_in(other, when, spot)
            if at is not None:
                consider(at)
    return best[1] if best is not None else None


def _met_on_its_way_in(hitter: Path, t_hit: float, spot: F64) -> F64 | None:
    """Where `hitter`, touching a ball resting on `spot` at about `t_hit`, was then: on its
    line over its sightings in the STRAIGHT_ON_BASE_S up to then, carried on to touching
    (each sighting is off by the position noise: the step between two may be 20 degrees
    off its way)."""
    recent = hitter.seen & (hitter.t <= t_hit) & (hitter.t >= t_hit - STRAIGHT_ON_BASE_S)
    seen = np.nonzero(recent)[0]
    if len(seen) < LINE_SAMPLES:
        return None
    t_last = float(hitter.t[seen[-1]])
    velocity, at_last = np.polyfit(hitter.t[seen] - t_last, hitter.xy[seen], 1)
    when = _ray_circle(at_last, velocity, spot, CONTACT_REACH_MM)
    return None if when is None else np.asarray(at_last + velocity * when, np.float64)


def struck_at(hitter: Path, t_hit: float, spot: tuple[float, float]) -> tuple[float, float] | None:
    """Where `hitter` was as it hit the ball resting on `spot` at `t_hit`: carried on along
    its way in (its last two sightings before), for the line between its sightings either
    side cuts the corner of its turn (fresh 49's 1258: the cue ball, seen a frame before the
    1 and two after, went on into a cushion; that line put it 84 mm off as it hit, driving
    the 1 into the cushion). None where that is beyond touching the spot (HIT_REACH_MM):
    out of sight a while before, it went no known way (fresh 50's 1284: the cue ball under
    the cue for a second, off the foot cushion into the 1, last seen on its spot)."""
    before = np.nonzero(hitter.seen & (hitter.t <= t_hit))[0]
    if len(before) < 2:
        return None
    a, b = before[-2:]
    velocity = (hitter.xy[b] - hitter.xy[a]) / max(float(hitter.t[b] - hitter.t[a]), 1e-6)
    x, y = hitter.xy[b] + velocity * (t_hit - float(hitter.t[b]))
    if math.hypot(x - spot[0], y - spot[1]) > HIT_REACH_MM:
        return None
    return float(x), float(y)


def first_mover(
    cue: Path, others: list[Path], t_strike: float, dropped: Collection[BallKey] = ()
) -> tuple[float, int] | None:
    """The object ball that left its spot first after the strike, and when.

    For when the cue ball's own path does not show its contact (it was out of sight then:
    behind the cue at a short strike, merged with the ball it hit). Until the first contact
    only the cue ball moves, so the first ball to leave its spot is the one it hit, if it
    left away from the cue ball's side (along the line of centres). A ball that went down
    (`dropped`) surely left: seen off its spot beyond the position noise only as it went, and
    never again, it left by when it was seen so.
    """
    cue_start = np.asarray(cue.start)
    # Nothing the cue ball hit left before the cue ball was last seen still on its spot.
    still = cue.still_until()
    frame = cue.frame_interval()
    not_before = still - frame if still is not None else -math.inf
    movers = []
    for path in others:
        if not isinstance(path.key, int):
            continue
        start = np.asarray(path.start)
        # Judged where it is plainly gone from its spot (a ball's width), which a merged
        # blob or a jittering centre is not.
        away = np.linalg.norm(path.xy - start, axis=1)
        gone = np.nonzero(path.seen & (away >= 2 * BALL_RADIUS_MM) & (path.t >= t_strike))[0]
        down = path.key in dropped
        if not len(gone) and down:
            gone = np.nonzero(path.seen & (away >= POSITION_NOISE_MM) & (path.t >= t_strike))[0]
        if not len(gone):
            continue
        k = int(gone[0])
        later = [i for i in range(k + 1, len(path.t)) if path.seen[i]][:1]
        if not later and not down:
            continue
        speed = (
            float(np.linalg.norm(path.xy[later[0]] - path.xy[k]))
            / max(float(path.t[later[0]] - path.t[k]), 1e-6)
            if later
            else 0.0
        )
        left = float(path.t[k]) - (float(away[k]) / speed if speed > 1.0 else 0.0)
        # Not before it was last seen still on its spot (it may have been out of sight long).
        resting = np.nonzero(path.seen[:k] & (away[:k] < MOVED_MM))[0]
        if len(resting):
            left = max(left, float(path.t[resting[-1]]))
        # Which way it left: where it is plainly gone from its spot, or where it was first
        # clearly off it (gone plainly, it may have come back off a cushion itself: fresh 43's
        # 1121: the 1, 26 mm off the right cushion, in and out of it and back past its spot
        # while out of sight). (The cue ball's side is where it started, or where it was as
        # the ball left: it may have come round to it off a cushion.)
        sides = (cue_start, np.asarray(cue.at(left)))
        clear = np.nonzero(
            path.seen[:k] & (away[:k] >= 2 * POSITION_NOISE_MM) & (path.t[:k] >= t_strike)
        )[0]
        touches = [
            start - (path.xy[i] - start) / away[i] * 2 * BALL_RADIUS_MM  # the cue ball's centre
            for i in (*clear[:1].tolist(), k)
        ]
        touch = next(
            (
                at
                for at in touches
                if any(np.linalg.norm(at - side) < np.linalg.norm(start - side) for side in sides)
            ),
            None,
        )
        if touch is None:
            continue  # it left towards the cue ball's side: something else moved it
        if left < not_before:
            continue  # it was on the move while the cue ball still stood: not hit by it
        movers.append((left, path.key, touch))
    if not movers:
        return None
    # By when each really left: two that left before the strike was noticed are not a tie.
    left, key, touch = min(movers, key=lambda mover: mover[:2])
    # A ball in the cue ball's way to it (frozen to it, in a line of touching balls that
    # barely stirs) is the one the cue ball met: in its way from where it was last seen
    # (not from its spot: seen going past a ball, it did not meet it).
    going = np.nonzero(cue.seen & (cue.t < left))[0]
    last_seen = cue.xy[going[-1]] if len(going) else cue_start
    in_the_way = [
        (float(np.linalg.norm(np.asarray(path.start) - last_seen)), path.key)
        for path in others
        if isinstance(path.key, int)
        and path.key != key
        and point_segment_distance(np.asarray(path.start)[None], last_seen, touch)[0]
        < 2 * BALL_RADIUS_MM - POSITION_NOISE_MM
    ]
    if in_the_way:
        key = min(in_the_way)[1]
    return max(left, t_strike), key


# ----- cushions -------------------------------------------------------------------------------


def _rail_for_point(table: Table, xy: F64) -> Rail:
    """The cushion (or the jaw belonging to it) nearest to a point."""
    gaps = table.rail_gaps(xy[None, :])[0]
    return RAILS[int(np.argmin(gaps))]


def cushion_contacts(
    path: Path,
    table: Table,
    t_from: float,
    departure: Disappearance | None = None,
    struck_from: tuple[float, float] | None = None,
    others: Sequence[Path] = (),
) -> list[Event]:
    """Every cushion the ball turned off after `t_from` (and the one it ran into and stopped,
    or went over as it left the table: `departure`, how it left, if it did).

    A contact is a turn of the path within reach of a cushion that no other ball explains;
    its time is where the incoming line meets the cushion's touching line. `struck_from`,
    for the ball the cue ball hit first, is where the cue ball was as it hit it; `others`
    are the other balls' paths, sampled at the same times.
    """
    seen = [i for i in range(len(path.t)) if path.seen[i]]
    # From SAME_CONTACT_S (and two samples at least) before `t_from` on: a cushion met just
    # after it (a ball struck a frame before it reaches the cushion) has its turn at a
    # sample before it, and one met just before it must be seen coming in to be told from
    # one met after it.
    seen_t = path.t[seen]
    at = int(np.searchsorted(seen_t, t_from - 1e-9))
    early = int(np.searchsorted(seen_t, t_from - SAME_CONTACT_S - 1e-9))
    idx = seen[max(min(early, at - 2), 0) :] if at < len(seen) else []
    if len(idx) < 2:
        return []
    start_gaps = table.rail_gaps(np.asarray(path.start)[None, :])[0]
    frozen = [r for r in range(4) if start_gaps[r] < FROZEN_MM]
    pts = path.xy[idx]
    times = path.t[idx]
    gaps = table.rail_gaps(pts)
    # Where it touches another ball (or meets it before the next frame) the two may be one
    # blob, its centre pulled towards the other's: how far it is from a cushion there is
    # taken from its sightings either side.
    pulled, meeting = _touching(path, idx, others)
    steady = gaps.copy()
    if pulled.any() and not pulled.all():
        # (Between sightings clear of the others only: before the first or after the last,
        # the nearest one's gap is no better a guess than its own, and held level it hides
        # any way it went: fresh 40's 1029, the 9, resting against the 5 and struck off it
        # into a cushion, back into the 5 at once, clear of it for one sighting, the one at
        # the cushion.)
        clear_t = times[~pulled]
        between = pulled & (times > clear_t[0]) & (times < clear_t[-1])
        for r in range(4):
            steady[between, r] = np.interp(times[between], clear_t, gaps[~pulled, r])
    # A contact with the cushion it is frozen to counts once it has left it (WPA 8.4): not
    # the one as it is struck into it and comes off it, nor one less than SAME_CONTACT_S
    # after it was struck, which is that same contact (contracts §3; fresh 54's 1384: the 3,
    # frozen by the head-right corner, struck along the head cushion into the right jaw,
    # back off it into the head jaw 65 ms after it was struck).
    moved = path.first_moved()
    struck = float(path.t[max(moved - 1, 0)]) if moved is not None else math.inf
    frozen_until: dict[Rail, float] = {}
    for r in frozen:
        away = np.nonzero(steady[:, r] > LEFT_CUSHION_MM)[0]
        left = float(times[away[0]]) if len(away) else math.inf
        frozen_until[RAILS[r]] = max(left, struck + SAME_CONTACT_S)
    # Between two frames a fast ball may turn off the cushion unseen: its nearest sample is
    # then up to half a frame's travel away, or, judged by its lines in and out, at the
    # cushion.
    # (A frame's travel is the longer of its steps in and out: the chord across the turn
    # itself is short.)
    steps = np.linalg.norm(np.diff(pts, axis=0, prepend=pts[:1]), axis=1)
    step_out = np.append(steps[1:], 0.0)
    travel = np.maximum(steps, step_out)
    ceiling = POSITION_NOISE_MM + 0.5 * travel
    off_spot = np.linalg.norm(pts - np.asarray(path.start), axis=1)
    resting = off_spot <= MOVED_MM
    if departure is None and resting[-1] and off_spot.max() <= 2 * BALL_RADIUS_MM:
        # Back on its spot at the end, never seen a ball's width from it: it did not move
        # (its seen centre wandered, part of it showing under an arm or beside a passing
        # ball); a ball sent into a cushion does not come back to stop where it stood.
        return []
    # A turn where it touches another ball, or just after it met one on its way (out of
    # sight, between the sample before and this one), is the other ball's doing: only one at
    # the cushion counts. (Met on its spot, it was started, not turned: it may have reached a
    # cushion since.)
    # (Only where it could not have met a cushion since, either: it is farther from every
    # cushion than its pace after, over the time between the two sightings, takes it.)
    pace_out = step_out / np.maximum(np.append(np.diff(times), 1.0), 1e-6)
    reachable = pace_out * np.diff(times, prepend=times[0]) + POSITION_NOISE_MM
    met_since_before = np.zeros(len(idx), bool)
    met_since_before[1:] = meeting[:-1] & ~resting[:-1]
    met_since_before &= gaps.min(axis=1) > reachable
    ceiling[pulled | met_since_before] = POSITION_NOISE_MM
    # (Its speed over a while either side: from one frame to the next, its jitter is as fast.)
    before = np.searchsorted(times, times - CREEP_BASE_S)
    after = np.searchsorted(times, times + CREEP_BASE_S, side="right") - 1
    span = np.maximum(times[after] - times[before], 1e-6)
    creeping = np.linalg.norm(pts[after] - pts[before], axis=1) / span < CREEP_SPEED_MM_S
    turns: list[Event] = []
    for r, rail in enumerate(RAILS):
        apex = _apexes(gaps[:, r], times)
        reach = np.where(apex <= APEX_REACH_MM + APEX_REACH_PER_TRAVEL * travel, np.inf, ceiling)
        for k in _valleys(
            gaps[:, r], steady[:, r], CUSHION_PROMINENCE_MM, reach, resting, creeping
        ):
            if _off_its_spot_for_a_moment(k, resting, times) or _off_its_rest_for_a_moment(
                k, pts, times
            ):
                continue
            if _in_a_mouth_clear_of_its_jaw(table, rail, pts[k]) or _deeper_at_once(
                table, pts[k], gaps[:, r], k
            ):
                continue
            if _rolled_straight_on_unseen(pts, times, k):
                continue
            # Extrapolate the incoming line to the touching line (gap 0), from two samples
            # before the turn when there are (the valley's own may be after the bounce).
            j = k - 1 if k >= 2 and gaps[k - 2, r] > gaps[k - 1, r] else k
            rate = float(gaps[j - 1, r] - gaps[j, r]) / max(float(times[j] - times[j - 1]), 1e-6)
            g_prev = max(float(gaps[k - 1, r]), 0.0)
            t_hit = float(times[k - 1]) + (g_prev / rate if rate > 1.0 else 0.0)
            t_hit = min(max(t_hit, float(times[k - 1])), float(times[k + 1]))
            turns.append(_cushion_event(path.key, rail, t_hit, frozen_until))
        for t_hit in _bounces_out_of_sight(gaps[:, r], pts, times):
            turns.append(_cushion_event(path.key, rail, t_hit, frozen_until))
    # One contact seen both ways (a turn, then a turn out of sight) is one, timed by the
    # first: a cushion met just before the first contact is not met again after it.
    events = [e for e in merge_same_contacts(turns) if e.t >= t_from + ORDER_UNCERTAIN_S]
    # A ball that rolls into a cushion and stops there has touched it (one that went on
    # into a pocket was last seen in the pocket's mouth, past the cushion lines). One that
    # stops facing a pocket's mouth, in sight, touches only a jaw there, if any (fresh 19's
    # 520: the cue ball at rest in a side pocket's mouth, 5 mm short of the cushion's line,
    # 18 mm off its jaw, was seen 1 mm from the line). One lost from sight past the line
    # in a mouth, and not down, came back out off a jaw (fresh 17's 462).
    # (Where it rests is its mean over its last samples: its centre jitters.)
    rest = pts[times >= times[-1] - CREEP_BASE_S].mean(axis=0)
    in_sight = path.last_seen() == len(path.t) - 1
    gaps_to = table.cushion_gaps if in_sight else table.rail_gaps
    resting_gaps = gaps_to(rest[None, :])[0]
    for r, rail in enumerate(RAILS if departure is None else ()):
        if (
            resting_gaps[r] < STOPPED_AT_MM
            and gaps[0, r] > FROZEN_MM
            and not any(e.rail == rail.value for e in events)
        ):
            near = (table.cushion_gaps(pts) if in_sight else gaps)[:, r] < FROZEN_MM
            came = float(times[int(np.argmax(near))]) if near.any() else float(times[-1])
            events.append(_cushion_event(path.key, rail, came, frozen_until))
    if struck_from is not None:
        events += _struck_into_unseen(path, table, t_from, struck_from, frozen_until, others)
    if departure is not None and departure.pocket is not None:
        pocket = table.pockets[departure.pocket]
        events += _turned_out_of_sight(path, table, idx, pocket, departure.t, frozen_until)
    over = _went_over(path, table) if departure is not None and departure.pocket is None else None
    if over is not None and over[1] >= t_from:
        events.append(_cushion_event(path.key, over[0], over[1], frozen_until))
    if departure is not None and departure.pocket is not None:
        # Down in the pocket it touches nothing more: a turn seen after that is its track
        # on something else (the cue ball following it into the mouth).
        events = [e for e in events if e.t <= departure.t]
    return merge_same_contacts(events)


def _touching(
    path: Path, idx: list[int], others: Sequence[Path]
) -> tuple[NDArray[np.bool_], NDArray[np.bool_]]:
    """At which of the samples `idx` the ball was seen touching another seen ball, or
    closing on it fast enough (as it closed since the sample before) to meet it before the
    sample after; and at which of those it was closing on one still plainly apart from it
    (farther than touching and the position noise again): it met it between the two."""
    touching = np.zeros(len(idx), bool)
    meeting = np.zeros(len(idx), bool)
    times = path.t[idx]
    dt_in = np.maximum(np.diff(times)[:-1], 1e-6)[:, None]
    dt_out = np.diff(times)[1:]
    for other in others:
        between = path.xy[idx] - other.xy[idx]
        apart = np.linalg.norm(between, axis=1)
        meets = np.zeros(len(idx), bool)
        if len(idx) > 2:
            # (_ray_circle for every inner sample at once: where p + v t first meets reach.)
            p, v = between[1:-1], (between[1:-1] - between[:-2]) / dt_in
            a, b = np.sum(v * v, axis=1), 2 * np.sum(p * v, axis=1)
            disc = b * b - 4 * a * (np.sum(p * p, axis=1) - TOUCHING_MM * TOUCHING_MM)
            with np.errstate(divide="ignore", invalid="ignore"):
                hit = (-b - np.sqrt(disc)) / (2 * a)
            meets[1:-1] = (a > 1e-12) & (disc >= 0) & (hit >= 0) & (hit <= dt_out)
        touching |= other.seen[idx] & ((apart <= TOUCHING_MM) | meets)
        meeting |= other.seen[idx] & meets & (apart > TOUCHING_MM + POSITION_NOISE_MM)
    return touching, meeting


def _beside(path: Path, idx: list[int], others: Sequence[Path]) -> NDArray[np.bool_]:
    """At which of the samples `idx` the ball was within touching another ball (and the
    position noise), where that one was seen or, out of sight, between its sightings: a ball
    merged with the one beside it is often the one of the two out of sight."""
    beside = np.zeros(len(idx), bool)
    for other in others:
        if other.seen.any():
            where = other.at_times(path.t[idx])
            beside |= np.linalg.norm(path.xy[idx] - where, axis=1) <= TOUCHING_MM
    return beside


def _in_a_mouth_clear_of_its_jaw(table: Table, rail: Rail, xy: F64) -> bool:
    """Whether a turn at `xy` near `rail` was deep in a corner pocket's mouth, its centre
    past the touching line of the corner's other cushion too (where `rail` has no nose, only
    its jaw), and clear of that jaw: the mouth pulls a ball's seen centre about as it goes
    down (fresh 14's 382: a 1 going into the foot-left corner, seen 4 mm past the foot
    cushion's line and back, 13 mm past the left one's, 33 mm off the foot jaw). (Short of
    the other line a ball may meet the jaw's rounding, which tables shape differently.)"""
    gaps = table.rail_gaps(xy[None, :])[0]
    ends = (Rail.HEAD, Rail.FOOT)
    across = (Rail.LEFT, Rail.RIGHT) if rail in ends else ends
    if min(float(gaps[RAILS.index(other)]) for other in across) >= 0.0:
        return False
    (pocket,), _ = table.nearest_pocket(xy[None, :])
    if pocket in ("SL", "SR"):
        return False
    jaw_gaps = [float(jaw.gaps(xy[None, :])[0]) for jaw in table.jaws(pocket) if jaw.rail is rail]
    return min(jaw_gaps) > JAW_TURN_SLACK_MM


def _deeper_at_once(table: Table, xy: F64, gap: F64, k: int) -> bool:
    """Whether a ball seen turning at sample `k` (at `xy`) past a cushion's touching line in
    a side pocket's mouth (`gap`, its gaps to that line, below 0) was seen deeper still two
    sightings on: the mouth pulls a ball's seen centre about a sighting at a time (fresh 67's
    1711: the 6 rolling slowly into the left side pocket at 120 fps, seen 4 mm deeper for one
    frame and back, then deeper again, and down; fresh 57's 1453, the 8). A side pocket's
    jaws face along the cushion: one turns a ball back out of the mouth, or along it. (In a
    corner's mouth a ball falls in off the jaw it turns at: fresh 61's 1570, the 10.)"""
    if not (gap[k] < 0.0 and k + 2 < len(gap) and gap[k + 2] < gap[k]):
        return False
    (pocket,), _ = table.nearest_pocket(xy[None, :])
    return pocket in ("SL", "SR")


def _off_its_spot_for_a_moment(
    k: int,
    resting: NDArray[np.bool_],
    times: F64,
    longest: float = SPOT_RETURN_S,
    seen: NDArray[np.bool_] | None = None,
) -> bool:
    """Whether the ball was on its spot just before sample `k` and back on it, to stay,
    within `longest`: found off it for a moment (a ball passing close, a hand over it),
    not sent into a cushion. A ball that meets a cushion does not come back to stop on the
    spot it left. (Staying is judged on the samples it was `seen` in, when given: a frame
    it was out of sight in, under the arm that pulled it, says nothing...)"""
    before, after = np.nonzero(resting[:k])[0], np.nonzero(resting[k + 1 :])[0]
    if not len(before) or not len(after):
        return False
    left, back = int(before[-1]), k + 1 + int(after[0])
    if times[back] - times[left] > longest:
        return False
    stay = (times > times[back]) & (times <= times[back] + SPOT_STAY_S)
    if seen is not None:
        # ...but where it is seen next, if that is after the while (fresh 41's 1050: the 7,
        # frozen to the foot cushion and struck into it, was held on its spot a few frames,
        # lost, and seen next away from it).
        last = int(np.nonzero(stay)[0][-1]) if stay.any() else back
        if not seen[last]:
            later = np.nonzero(seen[last + 1 :])[0]
            if len(later):
                stay[last + 1 + int(later[0])] = True
        stay &= seen
    return int(stay.sum()) >= 2 and bool(resting[stay].all())


def _off_its_rest_for_a_moment(k: int, pts: F64, times: F64) -> bool:
    """Whether the ball was at rest just before sample `k` (seen within STILL_MM of one
    place for STILL_S) and back there, to stay, within SPOT_RETURN_S: a ball at rest does
    not start by itself, and one sent into a cushion does not come back to stop where it
    rested; its centre was pulled for a moment (a shadow, a hand passing over it)."""
    if k < 1:
        return False
    # (Times to a microsecond: a frame time minus STILL_S may miss a frame time by a hair.)
    since = float(times[k - 1]) - STILL_S - 1e-6
    if times[0] > since:
        return False
    rest = pts[k - 1]
    window = (times >= since) & (times <= times[k - 1])
    if np.linalg.norm(pts[window] - rest, axis=1).max() > STILL_MM:
        return False
    return _off_its_spot_for_a_moment(k, np.linalg.norm(pts - rest, axis=1) <= MOVED_MM, times)


def _bounces_out_of_sight(gaps: F64, pts: F64, times: F64) -> list[float]:
    """When the ball met a cushion while out of sight (under an arm): it went out of sight
    heading for the cushion, its way in reaching it while unseen, and came back in sight
    heading away, and both ways meet along the cushion. Its way out, carried back at the
    speed it is seen going away, reaches the cushion when its way in does; or (a slow ball,
    slowing as it rolls off) no sooner than that and no later than at the speed it went in,
    when it was seen going in to the last and going away from the first.

    `gaps` are the seen samples' gaps to that cushion's touching line, `pts` and `times`
    the samples.
    """
    out = []
    for k in (np.nonzero(np.diff(times) > UNSEEN_S)[0] + 1).tolist():
        # Going out of sight and coming back, a ball is seen off its centre (part of it under
        # an arm's edge, or merged with the cue beside it): a sighting off the line of those
        # before (after) it is left out (fresh 48's 1248: the cue ball's last, merged with
        # the shaft 40 mm off its way, made it seem to go in at 1.0 m/s, not 1.6, too slow
        # to have met the cushion while hidden).
        last = k - 1 if _on_its_way(pts, times, k - 1, -1) else k - 2
        first = k if _on_its_way(pts, times, k, 1) else k + 1
        if last < 1 or first >= len(times) - 1:
            continue  # (its last step in and first step out are measured below)
        before = np.nonzero((times >= times[last] - BOUNCE_BASE_S) & (times <= times[last]))[0]
        after = np.nonzero((times >= times[first]) & (times <= times[first] + BOUNCE_BASE_S))[0]
        if len(before) < 2 or len(after) < 2:
            continue  # its speeds either side are not seen
        # Speeds over a few frames: one frame's step is as much the centre's noise.
        t_b, t_a = times[before] - times[last], times[after] - times[first]
        rate_in = float(np.polyfit(t_b, gaps[before], 1)[0])
        (rate_out,), rate_spread = _line(t_a, gaps[after][:, None])
        if rate_in > -BOUNCE_RATE_MM_S or rate_out <= 0.0:
            continue
        t_in = float(times[last]) + max(float(gaps[last]), 0.0) / -rate_in
        if not times[last] <= t_in <= times[first]:
            continue
        gap_back = max(float(gaps[first]), 0.0)
        slack_t = max(BOUNCE_SLACK_S, BOUNCE_SLACK_SHARE * float(times[first] - times[last]))
        t_out = float(times[first]) - gap_back / rate_out
        if rate_out >= BOUNCE_RATE_MM_S and times[last] <= t_out and abs(t_in - t_out) <= slack_t:
            t_met = 0.5 * (t_in + t_out)
        elif (
            rate_out > rate_spread
            and gaps[last] < gaps[last - 1]
            and gaps[first + 1] > gaps[first]
            and t_out - slack_t
            <= t_in
            <= times[first] - gap_back / max(-rate_in, rate_out) + slack_t
        ):
            t_met = t_in
        else:
            continue
        (v_in, spread_in), (v_out, spread_out) = _line(t_b, pts[before]), _line(t_a, pts[after])
        at_in = pts[last] + v_in * (t_in - times[last])
        at_out = pts[first] - v_out * (times[first] - t_met)
        # Along the cushion (carried back at the speed seen, a way out that slowed falls short
        # of it): within what its ways, as seen, can tell; going under an arm a ball is seen
        # off its centre for a few frames, and its way in is the less sure.
        short = gap_back - rate_out * (float(times[first]) - t_met)
        along = math.sqrt(max(float(np.sum((at_in - at_out) ** 2)) - short * short, 0.0))
        slack = spread_in * (t_in - times[last]) + spread_out * (times[first] - t_met)
        if along <= 2 * BALL_RADIUS_MM + slack:
            out.append(t_met)
    return out


def _on_its_way(pts: F64, times: F64, i: int, side: int) -> bool:
    """Whether sample `i` lies on the line of the samples just before it (`side` -1) or
    after it (1), within two samples' position noise; where too few are seen to tell, it
    does."""
    near = times >= times[i] - BOUNCE_BASE_S if side < 0 else times <= times[i] + BOUNCE_BASE_S
    around = np.nonzero(near & (np.arange(len(times)) * side > i * side))[0]
    if len(around) < 2:
        return True
    on_the_line = np.polyfit(times[around] - times[i], pts[around], 1)[1]  # at times[i]
    return float(np.hypot(*(pts[i] - on_the_line))) <= 2 * POSITION_NOISE_MM


def _rolled_straight_on_unseen(pts: F64, times: F64, k: int) -> bool:
    """Whether sample `k`, the first seen after a while out of sight, only continues the
    ball's way: rolling as it went out of sight and as it came back, both ways and the
    step between them along one line (within SENT_OFF_DEG). Then it met no cushion
    meanwhile, however near one it came back (fresh 17's 466, rolling on along a cushion:
    half its step across the while is no frame's travel within which it turned unseen)."""
    if k < 1 or times[k] - times[k - 1] <= UNSEEN_S:
        return False
    before = np.nonzero(times[:k] >= times[k - 1] - STRAIGHT_ON_BASE_S)[0]
    if len(before) < LINE_SAMPLES:
        before = np.arange(max(k - LINE_SAMPLES, 0), k)
    after = np.nonzero((times >= times[k]) & (times <= times[k] + STRAIGHT_ON_BASE_S))[0]
    if len(after) < LINE_SAMPLES:
        after = np.arange(k, min(k + LINE_SAMPLES, len(times)))
    if len(before) < 2 or len(after) < 2:
        return False
    ways = [
        _line(times[before], pts[before])[0],
        (pts[k] - pts[k - 1]) / (times[k] - times[k - 1]),
        _line(times[after], pts[after])[0],
    ]
    speeds = [float(np.hypot(*way)) for way in ways]
    if min(speeds) < CREEP_SPEED_MM_S:
        return False
    first = ways[0] / speeds[0]
    least = math.cos(math.radians(SENT_OFF_DEG))
    return all(float(way @ first) / speed >= least for way, speed in zip(ways, speeds, strict=True))


def _line(times: F64, pts: F64) -> tuple[F64, float]:
    """The velocity of the straight line through the samples, and how unsure that is: twice
    the standard error of its speed (both axes together), from the samples' scatter about it."""
    coefficients, residual = np.polyfit(times, pts, 1, full=True)[:2]
    velocity = coefficients[0]
    n, t_spread = len(times), float(np.sum((times - times.mean()) ** 2))
    if n <= 2 or t_spread <= 0.0:
        return velocity, 0.0
    return velocity, 2.0 * math.sqrt(float(np.sum(residual)) / (n - 2) / t_spread)


def _struck_into_unseen(
    path: Path,
    table: Table,
    t_hit: float,
    struck_from: tuple[float, float],
    frozen_until: dict[Rail, float],
    others: Sequence[Path],
) -> list[Event]:
    """The cushion a ball resting near it (not frozen to it) was struck into, when it went
    into it and came back out unseen (the ball that hit it beside it, or its blur on dark
    cloth): _in_and_out_unseen, _sent_back_off, and for one resting farther off,
    _driven_in_and_back_unseen. A ball hit is driven along the line from the hitter's
    centre through its own. (Its sightings touching another ball, `others`, are
    not where it was: the two are one blob, its centre pulled towards the other's.)"""
    start = np.asarray(path.start, np.float64)
    drive = start - np.asarray(struck_from, np.float64)
    length = float(np.hypot(*drive))
    later = [
        i
        for i in range(len(path.t))
        if path.seen[i] and path.t[i] > t_hit and float(np.hypot(*(path.xy[i] - start))) > MOVED_MM
    ]
    if length < 1e-6:
        return []
    later = [i for i, beside in zip(later, _beside(path, later, others), strict=True) if not beside]
    if not later:
        return []
    drive /= length
    # (Not before it was last seen still on its spot: a ball other than the first was hit
    # after the first contact.)
    if (still := path.still_until()) is not None:
        t_hit = max(t_hit, still)
    rested = table.rail_gaps(start[None])[0]
    gaps = table.rail_gaps(path.xy[later])
    out = []
    for r, rail in enumerate(RAILS):
        into = -float(drive @ _inward_normal(rail))
        if into < STRUCK_INTO:
            continue
        if rested[r] > STRUCK_INTO_REACH_MM:
            met = _driven_in_and_back_unseen(path, later, t_hit, drive, into, rested[r], gaps[:, r])
            if met is not None:
                out.append(_cushion_event(path.key, rail, met, frozen_until))
            continue
        # (One resting nearer than FROZEN_MM is frozen to it: its own look.)
        if rested[r] < FROZEN_MM:
            continue
        met = _in_and_out_unseen(path, later, t_hit, into, rested[r], gaps[:, r])
        if met is None:
            met = _sent_back_off(path, table, r, later, gaps[:, r], rested[r], t_hit, others)
        if met is not None:
            out.append(_cushion_event(path.key, rail, met, frozen_until))
    return out


def _in_and_out_unseen(
    path: Path, later: list[int], t_hit: float, into: float, rested: float, gaps: F64
) -> float | None:
    """When a ball struck from rest (`into` of its drive towards a cushion it `rested` within
    reach of) met that cushion, if it went in and came back out unseen: first seen (`later`,
    its sightings off its spot, and `gaps`, theirs to the cushion) farther off than it
    rested, seen only nearer before (and nearer each time), fast enough to have been in and
    out by then."""
    farther = np.nonzero(gaps > rested)[0]
    if not len(farther) or np.any(np.diff(gaps[: farther[0]]) > 0):
        return None
    first = farther[0]
    # From where it was last seen going in (or its spot) to where it was seen coming out.
    t_in, gap_in = (
        (float(path.t[later[first - 1]]), float(gaps[first - 1])) if first else (t_hit, rested)
    )
    # (Seen past the touching line going in, it was at the cushion then: fresh 26's 683,
    # the 1 seen 1 mm past it, timed before the hit that sent it there.)
    gap_in = max(gap_in, 0.0)
    # In along its drive and back out by then, it went at least as fast as that way asks
    # (fresh 55's 1416: the 5, 8 mm off the left cushion, hit thin by the cue ball come
    # back off that cushion, went along it at 0.3 m/s, first seen 1 mm farther from it
    # 16 ms after: the cue ball's place before its bounce drove it in on paper). (A
    # frame's time is the middle of its exposure, the hit's placed to a fraction of one:
    # half a frame more; held-out 010 under the soft-focus look, the 2 seen 6 mm on in
    # the frame of the hit, at 2.6 m/s.)
    t_out = float(path.t[later[first]]) + 0.5 * path.frame_interval()
    way_in = gap_in / into
    way = way_in + float(gaps[first])
    pace = _pace_after(path, later[first:])
    if pace is not None and way > PACE_LOST_AT_CUSHION * pace * (t_out - t_in) + POSITION_NOISE_MM:
        return None
    return t_in + way_in / way * float(path.t[later[first]] - t_in)


def _sent_back_off(
    path: Path,
    table: Table,
    r: int,
    later: list[int],
    gaps: F64,
    rested: float,
    t_hit: float,
    others: Sequence[Path],
) -> float | None:
    """When a ball struck into cushion `r` from within reach of it met it, judged by where it
    went rather than by how fast: seen going in (nearer it than it `rested` by more than a
    ball at rest jitters), then (`later`, its sightings clear of other balls, `gaps` theirs
    to the cushion) a ball's width farther off than it rested, without stopping on the way
    and with no ball meeting it from the cushion's side to send it back. Going towards the
    cushion, nothing else turns it (fresh 67's 1724: the 2, 21 mm off the head cushion,
    struck full into it by the cue ball, came back into the stunned cue ball at once and
    went on slowly, at less than half the pace it went in at, seen going in and on its way
    back only beside the cue ball). It met it when it was seen nearest it."""
    back = np.nonzero(gaps > rested + 2 * BALL_RADIUS_MM)[0]
    if not len(back):
        return None
    until = float(path.t[later[int(back[0])]])
    between = np.nonzero(path.seen & (path.t > t_hit) & (path.t <= until))[0]
    times, pts = path.t[between], path.xy[between]
    for k in range(len(between)):
        window = (times >= times[k]) & (times <= times[k] + STILL_S + 1e-6)
        if times[window][-1] - times[k] >= STILL_S - 1e-6 and (
            np.linalg.norm(pts[window] - pts[k], axis=1).max() <= STILL_MM
        ):
            return None  # it stopped: what sent it on was another hit
    own = table.rail_gaps(pts)[:, r]
    if not len(own) or own.min() >= rested - CUSHION_PROMINENCE_MM:
        return None
    for other in others:
        if not other.seen.any():
            continue
        where = other.at_times(times)
        near = np.linalg.norm(pts - where, axis=1) <= TOUCHING_MM
        if np.any(near & (table.rail_gaps(where)[:, r] < own)):
            return None
    return float(times[int(np.argmin(own))])


def _pace_after(path: Path, seen: list[int]) -> float | None:
    """A ball's pace from its first sighting of `seen` to the first PACE_SPAN_S or more
    after it (None: none is)."""
    start = float(path.t[seen[0]])
    later = next((i for i in seen[1:] if float(path.t[i]) - start >= PACE_SPAN_S), None)
    if later is None:
        return None
    moved = float(np.hypot(*(path.xy[later] - path.xy[seen[0]])))
    return moved / (float(path.t[later]) - start)


def _driven_in_and_back_unseen(
    path: Path,
    later: list[int],
    t_hit: float,
    drive: F64,
    into: float,
    rested: float,
    gaps: F64,
) -> float | None:
    """When a ball struck from rest along `drive` (`into` of it towards a cushion `rested`
    off it) met that cushion out of sight, if it did: first seen (`later`, its sightings off
    its spot, and `gaps`, theirs to the cushion) going away from it, faster than the
    straight way from its spot there would take it, on a way out that, carried back, meets
    the cushion where its drive does (fresh 23's 612: the 4 struck at 5.7 m/s towards the
    foot cushion 260 mm off, its streak too faint to see until it was 170 mm back off it)."""
    if len(later) < 2:
        return None
    a, b = later[0], later[1]
    t_a, t_b = float(path.t[a]), float(path.t[b])
    if t_b - t_a > BOUNCE_BASE_S or t_a <= t_hit:
        return None
    rate_out = float(gaps[1] - gaps[0]) / (t_b - t_a)
    v_out = (path.xy[b] - path.xy[a]) / (t_b - t_a)
    speed_out = float(np.hypot(*v_out))
    start = np.asarray(path.start, np.float64)
    straight = float(np.hypot(*(path.xy[a] - start))) / (t_a - t_hit)
    if rate_out < BOUNCE_RATE_MM_S or straight >= speed_out:
        return None
    back = float(gaps[0]) / rate_out
    met_out = path.xy[a] - v_out * back
    met_in = start + drive * (rested / into)
    if float(np.hypot(*(met_out - met_in))) > 2 * BALL_RADIUS_MM:
        return None
    met = t_a - back
    return met if t_hit < met < t_a else None


def _turned_out_of_sight(
    path: Path,
    table: Table,
    idx: list[int],
    pocket: tuple[float, float],
    t_down: float,
    frozen_until: dict[Rail, float],
) -> list[Event]:
    """The cushion a ball was last seen running into, within a frame's travel, when it went
    down later (at `t_down`) in a pocket (centred at `pocket`) off that cushion: it can only
    have turned off it, out of sight."""
    if len(idx) < 2:
        return []
    gaps = table.rail_gaps(path.xy[idx[-2:]])
    pocket_gaps = table.rail_gaps(np.array([pocket]))[0]
    step_t = float(path.t[idx[-1]] - path.t[idx[-2]])
    out = []
    for r, rail in enumerate(RAILS):
        closing = float(gaps[0, r] - gaps[1, r])
        if closing <= 0.0 or gaps[1, r] > closing + CUSHION_REACH_MM or pocket_gaps[r] <= 0.0:
            continue
        t_hit = float(path.t[idx[-1]]) + max(float(gaps[1, r]), 0.0) / closing * step_t
        if t_hit < t_down:
            out.append(_cushion_event(path.key, rail, t_hit, frozen_until))
    return out


def _apexes(gap: F64, times: F64) -> F64:
    """For each sample, the least gap the lines in and out around it reach: where a ball
    that turned between two frames met the cushion (the sample's own gap where the lines
    do not make a V)."""
    apex = gap.copy()
    n = len(gap)
    if n < 5:
        return apex
    slope = np.diff(gap) / np.maximum(np.diff(times), 1e-6)
    # A turn between samples b and b + 1: in along b - 1 -> b, out along b + 1 -> b + 2.
    b = np.arange(1, n - 2)
    s_in, s_out = slope[b - 1], slope[b + 1]
    v = (s_in < 0.0) & (s_out > 0.0)
    t_b, t_c = times[b], times[b + 1]
    # Where the lines are parallel they never meet (inf, nan): those are no V anyway.
    with np.errstate(divide="ignore", invalid="ignore"):
        t_meet = (gap[b + 1] - gap[b] + s_in * t_b - s_out * t_c) / (s_in - s_out)
        v &= (t_meet >= t_b) & (t_meet <= t_c)
        met = np.where(v, gap[b] + s_in * (t_meet - t_b), np.inf)
    # Both samples either side of the turn are near it (samples 2 to n - 3 are judged).
    for k, value in ((b, met), (b + 1, met)):
        inner = (k >= 2) & (k <= n - 3)
        np.minimum.at(apex, k[inner], value[inner])
    return apex


def _valleys(
    gap: F64,
    steady: F64,
    prominence: float,
    ceiling: F64,
    resting: NDArray[np.bool_],
    creeping: NDArray[np.bool_],
) -> list[int]:
    """Inner samples where the gap to a cushion has a minimum no higher than `ceiling` (per
    sample) standing out by `prominence` on both sides: the ball came towards the cushion
    and went away from it (or, `resting` on its spot just before, was sent into it and
    straight back out). Where it is `creeping` a turn is judged on the gap averaged over
    three samples (its centre's jitter from one frame to the next is as much as its travel:
    at rest in a shade, a few millimetres). How far it came from and went away is measured
    on `steady`, the gap where its centre is not pulled by another ball's.

    A minimum's side is measured up to the first lower sample, so the jitter of a ball
    rolling slowly along or off a cushion makes one valley, not many.
    """
    inner = np.arange(1, len(gap) - 1)
    low = (gap[1:-1] <= gap[:-2]) & (gap[1:-1] < gap[2:]) & (gap[1:-1] <= ceiling[1:-1])
    # (Creeping, its centre's jitter beside a cushion, a millimetre or two from frame to
    # frame, is as much as its travel.)
    level = np.convolve(np.pad(gap, 1, mode="edge"), np.ones(3) / 3, mode="valid")
    out = []
    for k in inner[low]:
        series = steady.copy()
        series[k] = gap[k]
        rise = _rises(series, int(k))
        needed = prominence
        if creeping[k]:
            rise = _rises(level, int(k) - 1 + int(np.argmin(level[k - 1 : k + 2])))
        if gap[k] <= STOPPED_AT_MM:
            # One that reached the cushion (within what positions tell) and went away needs
            # less: a slow ball touches and comes back a few millimetres.
            needed = TOUCH_PROMINENCE_MM
        # One that rested near it and was struck into it comes from its spot, no farther,
        # and is sent straight back out.
        from_rest = k >= 1 and bool(resting[k - 1]) and gap[k - 1] > gap[k]
        bounced = k + 2 < len(gap) and gap[k + 2] - gap[k] >= prominence
        if min(rise) >= needed or (from_rest and bounced and rise[1] >= needed):
            out.append(int(k))
    return out


def _rises(series: F64, k: int) -> tuple[float, float]:
    """How far `series` rises from sample `k` before and after it, each side measured up to
    its first sample lower than `k`'s."""
    rise = []
    for side in (series[k - 1 :: -1] if k > 0 else series[:0], series[k + 1 :]):
        lower = np.nonzero(side < series[k])[0]
        reach = side[: lower[0]] if len(lower) else side
        rise.append(float(np.max(reach)) - float(series[k]) if len(reach) else 0.0)
    return rise[0], rise[1]


def _cushion_event(key: BallKey, rail: Rail, t: float, frozen_until: dict[Rail, float]) -> Event:
    """A cushion contact; one with the cushion it was frozen to before it left it does not
    count (`frozen_until`: when it left each cushion it was frozen to, inf: never)."""
    return Event(
        t, "rail", (key,), rail=rail.value, frozen_no_leave=t < frozen_until.get(rail, -math.inf)
    )


def _inward_normal(rail: Rail) -> F64:
    return {
        Rail.HEAD: np.array([1.0, 0.0]),
        Rail.FOOT: np.array([-1.0, 0.0]),
        Rail.LEFT: np.array([0.0, 1.0]),
        Rail.RIGHT: np.array([0.0, -1.0]),
    }[rail]


def merge_same_contacts(events: list[Event]) -> list[Event]:
    """Rail events, one for each ball's contact with a rail (contracts §3: its touches
    within SAME_CONTACT_S are one)."""
    events.sort(key=lambda e: e.t)
    kept: list[Event] = []
    for event in events:
        if any(
            e.rail == event.rail and e.balls == event.balls and event.t - e.t < SAME_CONTACT_S
            for e in kept
        ):
            continue
        kept.append(event)
    return kept


def jaw_contacts(path: Path, table: Table, pocket: str, t_from: float) -> list[Event]:
    """The jaws a ball that dropped in `pocket` touched on its way in.

    The ball is lost from sight in the pocket's mouth, mostly before it reaches a jaw, so
    its way in is its last straight run (up to JAW_APPROACH_MM) carried on to where it
    falls; a jaw that way passes within a ball's radius (and JAW_SLACK_MM) of was touched,
    and so was a jaw the way turned at on its way into that run.
    """
    idx = [i for i in range(len(path.t)) if path.seen[i] and path.t[i] >= t_from - 1e-9]
    if len(idx) == 1:
        # A ball hit from rest and seen once on its way went there straight from its spot
        # (fresh 56's 1442: the 7, hit at 3.4 m/s into a corner from 190 mm off it).
        before = path.seen_before(idx[0])
        if before >= 0 and float(np.hypot(*(path.xy[before] - path.start))) <= MOVED_MM:
            idx = [before, *idx]
    if len(idx) < 2:
        return []
    pts, times = path.xy[idx], path.t[idx]
    first = _late_turn(pts)
    turned = (
        None if first is None else _jaw_turned_at(table, pocket, _late_corner(pts, times, first))
    )
    if first is None or turned is None:
        # (A late turn at no jaw is a last sighting pulled off its way: a ball partly hidden
        # in the mouth.)
        first = _straight_in_from(pts)
        corner = _turn(pts, times, first)
        turned = None if corner is None else _jaw_turned_at(table, pocket, corner)
    # (A single sighting after a late turn is no way in.)
    met = _met_on_way_in(pts[first:], times[first:], table, pocket) if first < len(pts) - 1 else []
    if turned is not None:
        met.append(turned)
    events = [Event(t, "rail", (path.key,), rail=rail.value) for t, rail in met]
    return sorted(events, key=lambda e: e.t)


def _jaw_turned_at(table: Table, pocket: str, corner: tuple[F64, F64]) -> tuple[float, Rail] | None:
    """When and which jaw a way that turned in `pocket`'s mouth (where it may have turned:
    points and their times) turned at: the one whose touching line the turn is nearest, if
    within JAW_TURN_SLACK_MM (seen between frames, the turn's corner is cut)."""
    at, t_at = corner
    gaps, jaw = min(((j.gaps(at), j) for j in table.jaws(pocket)), key=lambda g: float(g[0].min()))
    if float(gaps.min()) > JAW_TURN_SLACK_MM:
        return None
    return float(t_at[int(np.argmin(gaps))]), jaw.rail


def _met_on_way_in(run: F64, run_t: F64, table: Table, pocket: str) -> list[tuple[float, Rail]]:
    """When and which jaws a straight run into `pocket`, carried on at its mean velocity to
    the hole, meets."""
    # By the cushion lines and past them a ball is partly hidden, which pulls its seen
    # centre about: its way in is judged from where it was still wholly seen on the cloth.
    # (Unless what it ran there is too short to head it: fresh 62's 1590, the 7 resting
    # by a corner's mouth, seen clear of the cushions only on its spot and 9 mm on, 2 mm
    # off its way.)
    on_cloth = table.rail_gaps(run).min(axis=1) >= JAW_CLEAR_MM
    clear = run[on_cloth]
    if len(clear) >= 2 and float(np.linalg.norm(clear[-1] - clear[0])) >= JAW_RUN_MM:
        run, run_t = clear, run_t[on_cloth]
    velocity = (run[-1] - run[0]) / max(float(run_t[-1] - run_t[0]), 1e-6)
    speed = float(np.linalg.norm(velocity))
    turned_in = False
    if speed > 1.0:
        way = velocity / speed
        centre, radius = table.hole(pocket)
        inside = float(np.linalg.norm(run[-1] - centre)) <= radius
        onward = 0.0 if inside else _ray_circle(run[-1], way, centre, radius)
        if onward is None:
            # A way that misses the hole met a jaw, which turned it in: carried on past the
            # hole, the first jaw it meets is that one.
            turned_in = True
            onward = max(float((centre - run[-1]) @ way), 0.0) + radius
        run = np.vstack([run, run[-1] + way * onward])
        run_t = np.append(run_t, run_t[-1] + onward / speed)
    samples, sample_t = _densify(run, run_t, step_mm=2.0)
    met = []
    for jaw in table.jaws(pocket):
        touching = np.nonzero(jaw.gaps(samples) <= JAW_SLACK_MM)[0]
        if len(touching):
            met.append((float(sample_t[touching[0]]), jaw.rail))
    met.sort(key=lambda m: m[0])
    return met[:1] if turned_in else met


def _turn(pts: F64, times: F64, first: int) -> tuple[F64, F64] | None:
    """Where a ball's way turned into its last straight run from `first` on (the meeting
    of its two runs' lines) and when, if it ran straight before that too (as one point and
    its time, in arrays)."""
    if first < 2:
        return None
    before = _straight_in_from(pts[:first])
    a, b = pts[first - 1], pts[first]
    into, out = a - pts[before], pts[-1] - b
    if min(np.linalg.norm(into), np.linalg.norm(out)) < JAW_HEADING_MM:
        return None
    u, v = into / np.linalg.norm(into), out / np.linalg.norm(out)
    if abs(float(u[0] * v[1] - u[1] * v[0])) < np.sin(np.radians(JAW_TURN_DEG)):
        return None
    s, _ = np.linalg.solve(np.column_stack([u, -v]), b - a)
    step = float(np.linalg.norm(b - a))
    if not 0.0 <= s <= step + JAW_HEADING_MM:
        return None
    at = a + u * s
    share = s / max(s + float(np.linalg.norm(b - at)), 1e-9)
    return at[None, :], np.array([times[first - 1] + share * (times[first] - times[first - 1])])


def _late_turn(pts: F64) -> int | None:
    """Where a ball's way left the line of a straight run within its last JAW_HEADING_MM
    (its first point off that line for good), when its last point is a position's noise
    off it or more: too short a run after the turn for its heading to be judged (held-out
    030: the 1 met the head-right corner's head jaw and went down 14 mm on)."""
    dist = np.linalg.norm(pts - pts[-1], axis=1)
    based = np.nonzero(dist >= JAW_HEADING_MM)[0]
    if not len(based):
        return None
    base = int(based[-1])
    before = _straight_in_from(pts[: base + 1])
    into = pts[base] - pts[before]
    if np.linalg.norm(into) < JAW_HEADING_MM:
        return None
    heading = into / np.linalg.norm(into)
    # (No straight run up to its last JAW_HEADING_MM: it turned before them.)
    back = pts[before:base] - pts[base]
    if (_off_the_line(back, heading) > _line_allowance(back)).any():
        return None
    after = pts[base + 1 :] - pts[base]
    off_line = _off_the_line(after, heading)
    leaving = off_line > _line_allowance(after)
    if not leaving[-1] or off_line[-1] < POSITION_NOISE_MM:
        return None
    on_line = np.nonzero(~leaving)[0]
    return base + 1 + (int(on_line[-1]) + 1 if len(on_line) else 0)


def _late_corner(pts: F64, times: F64, late: int) -> tuple[F64, F64]:
    """Where on its line a ball whose way turned late (at `late`: _late_turn) can have
    turned (points every millimetre, and when): from its last point on the line on, as far
    as its way there and on to its first point off it can be as long as it rolled at its
    speed along the line between the two sightings."""
    before = _straight_in_from(pts[:late])
    a, b = pts[late - 1], pts[late]
    into = a - pts[before]
    heading = into / np.linalg.norm(into)
    speed = float(np.linalg.norm(into)) / max(float(times[late - 1] - times[before]), 1e-6)
    rolled = speed * float(times[late] - times[late - 1])
    step = b - a
    along = float(step @ heading)
    # The corner c = a + heading * s, with s + |b - c| = rolled.
    s = (rolled**2 - float(step @ step)) / (2 * (rolled - along)) if rolled > along else along
    s = min(max(s, along, 0.0), rolled)
    ends = np.array([a, a + heading * s])
    return _densify(ends, np.array([times[late - 1], times[late]]), step_mm=1.0)


def _straight_in_from(pts: F64) -> int:
    """Where a ball's last straight run starts: back from its last point as far as
    JAW_APPROACH_MM, but not past a turn (a cushion or jaw it met, a swerve), where its way
    leaves the line of its last JAW_HEADING_MM by more than JAW_LINE_MM and JAW_TURN_DEG."""
    dist = np.linalg.norm(pts - pts[-1], axis=1)
    based = np.nonzero(dist >= JAW_HEADING_MM)[0]
    if not len(based):
        return 0
    base = int(based[-1])
    heading = (pts[-1] - pts[base]) / dist[base]
    back = pts[:base] - pts[base]
    off_line, allowed = _off_the_line(back, heading), _line_allowance(back)
    first = base
    for i in range(base - 1, -1, -1):
        if dist[i] > JAW_APPROACH_MM or off_line[i] > allowed[i]:
            break
        first = i
    return first


def _off_the_line(offsets: F64, heading: F64) -> F64:
    """How far points (offsets from a point of a line) lie off the line along `heading`."""
    return np.asarray(np.abs(offsets[:, 0] * heading[1] - offsets[:, 1] * heading[0]))


def _line_allowance(offsets: F64) -> F64:
    """How far off a straight run's line its points (offsets from its point there) may
    lie: JAW_LINE_MM, and JAW_TURN_DEG of their distance (a slow swerve)."""
    return np.asarray(
        JAW_LINE_MM + np.linalg.norm(offsets, axis=1) * np.sin(np.radians(JAW_TURN_DEG))
    )


def _densify(pts: F64, times: F64, step_mm: float) -> tuple[F64, F64]:
    """Points every `step_mm` along a polyline, with their interpolated times."""
    out, out_t = [pts[:1]], [times[:1]]
    for a, b, ta, tb in zip(pts[:-1], pts[1:], times[:-1], times[1:], strict=True):
        n = max(1, int(np.linalg.norm(b - a) / step_mm))
        f = np.arange(1, n + 1)[:, None] / n
        out.append(a + (b - a) * f)
        out_t.append(ta + (tb - ta) * f[:, 0])
    return np.vstack(out), np.concatenate(out_t)


# ----- pockets and leaving the table --------------------------------------------------------


@dataclass(frozen=True)
class Disappearance:
    key: BallKey
    t: float  # when it reached the pocket (or the table's edge)
    pocket: str | None  # None: off the table
    speed: float = 0.0  # how fast it went when last seen (mm/s)


def lost_at_pocket(path: Path, table: Table, pocket: str) -> list[float]:
    """When the ball went out of sight in `pocket`'s mouth (each time, if it was seen again)."""
    reach = table.mouth_reach(pocket)
    centre = np.asarray(table.pockets[pocket])
    ends = np.nonzero(path.seen[:-1] & ~path.seen[1:])[0]
    return [float(path.t[i]) for i in ends if np.linalg.norm(path.xy[i] - centre) <= reach]


def _went_over(path: Path, table: Table) -> tuple[Rail, float] | None:
    """The cushion a ball that left the table (not into a pocket) went over, and when: off
    the bed it can only go by way of a cushion, which it meets as it reaches it. None when
    it was last seen nowhere near one (it flew off, or was taken by hand)."""
    last = path.last_seen()
    if last is None:
        return None
    gaps = table.rail_gaps(path.xy[last][None, :])[0]
    r = int(np.argmin(gaps))
    prev = path.seen_before(last)
    step = float(np.linalg.norm(path.xy[last] - path.xy[prev])) if prev >= 0 else 0.0
    if gaps[r] > CUSHION_REACH_MM + step:
        return None
    t = float(path.t[last])
    if prev >= 0:
        rate = float(table.rail_gaps(path.xy[prev][None, :])[0][r] - gaps[r]) / max(
            t - float(path.t[prev]), 1e-6
        )
        if rate > 1.0:
            t += max(float(gaps[r]), 0.0) / rate
    return RAILS[r], t


def stayed_on_the_table(path: Path, others: Iterable[Path], drop: Disappearance) -> bool:
    """Whether an object ball lost from sight away from the pockets is still on the table:
    last seen too slow to go over a cushion, and no ball fast enough to send it over one
    came within reach of where it was lost after that (an object ball moves only when a
    ball hits it, and no faster than that ball came). Not the cue ball: the cue may strike
    it out of sight."""
    last = path.last_seen()
    if path.key == "cue" or drop.pocket is not None or last is None:
        return False
    if drop.speed >= LEAVES_TABLE_SPEED_MM_S:
        return False
    where, since = path.xy[last], float(path.t[last])
    for other in others:
        seen = np.nonzero(other.seen)[0]
        # From its sighting before then on: it may have passed between two frames.
        seen = seen[max(int(np.searchsorted(other.t[seen], since)) - 1, 0) :]
        points = other.xy[seen]
        if len(points) == 1 and np.linalg.norm(points[0] - where) <= TOUCHING_MM:
            return False
        # Its speed along each step, or the one before (a step across its hit is short).
        steps = np.linalg.norm(np.diff(points, axis=0), axis=1)
        speeds = steps / np.maximum(np.diff(other.t[seen]), 1e-6)
        speeds = np.maximum(speeds, np.concatenate([[0.0], speeds[:-1]]))
        for (a, b), speed in zip(pairwise(points), speeds, strict=True):
            if (
                speed >= LEAVES_TABLE_SPEED_MM_S
                and point_segment_distance(where[None, :], a, b)[0] <= TOUCHING_MM
            ):
                return False
    return True


def disappearance(path: Path, table: Table, t_step: float) -> Disappearance | None:
    """How a ball that is gone at the end of the shot left: into which pocket, or off."""
    last = path.last_seen()
    if last is None:
        return Disappearance(path.key, float(path.t[0]), None)
    xy = path.xy[last]
    prev = path.seen_before(last)
    velocity = (
        (xy - path.xy[prev]) / max(path.t[last] - path.t[prev], 1e-6) if prev >= 0 else np.zeros(2)
    )
    # Where it was heading: a frame or two on (a fast ball is past the jaws by then).
    ahead = xy + velocity * t_step
    names = list(table.pockets)
    centres = np.array([table.pockets[n] for n in names])
    best = None
    for point in (xy, ahead):
        dist = np.linalg.norm(centres - point, axis=1)
        i = int(np.argmin(dist))
        reach = table.mouth_reach(names[i])
        if dist[i] <= reach and (best is None or dist[i] < best[1]):
            best = (names[i], float(dist[i]))
    speed = float(np.linalg.norm(velocity))
    if best is not None:
        pocket = best[0]
        to_go = max(
            float(np.linalg.norm(np.asarray(table.pockets[pocket]) - xy)) - 2 * BALL_RADIUS_MM, 0.0
        )
        t = float(path.t[last]) + (min(to_go / speed, t_step) if speed > 1 else 0.0)
        return Disappearance(path.key, t, pocket, speed)
    return Disappearance(path.key, float(path.t[last]) + t_step / 2, None, speed)
