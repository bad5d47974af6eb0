"""Every ball from frame to frame, in table millimetres.

Work follows change: each frame is compared with a reference taken while the table was at
rest, and balls are looked for only where something changed, so a frame where nothing moves
costs a few cheap whole-frame operations. Balls at rest are re-found and re-identified all at
once whenever the table comes to rest again.
"""

from __future__ import annotations

import dataclasses
import math
from collections import Counter, deque
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple, TypeVar

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.assignment import assign
from vision.calibration import Calibration
from vision.cloth import ClothModel, Planes
from vision.detect import (
    FOREGROUND,
    MAX_SPEED_MM_S,
    Detections,
    Disc,
    Motion,
    Occluder,
    detect,
    faint_discs,
    unclipped,
)
from vision.fusion import POCKET_RATTLE_S, PULSE_MATCH_S
from vision.geometry import BALL_RADIUS_MM, point_segment_distance
from vision.identify import (
    LOOK_ALIKES,
    RENAME_MARGIN,
    STRIPES,
    BallKey,
    Look,
    Roll,
    id_cost,
    identify,
    look_at,
    renamed_by_roll,
)

U8 = NDArray[np.uint8]

Key = TypeVar("Key")
Value = TypeVar("Value")
# A ball's motion as the tracker knows it: x, y (mm), vx, vy (mm/s), how far it may have gone
# out of sight (half-resolution pixels), whether it streaks, whether it is in play.
MotionKey = tuple[float, float, float, float, float, bool, bool]
KEPT_AT_MOST = 4096  # points or discs whose projections are kept at once (a few frames' worth)

# A change (summed |ΔY|+|ΔU|+|ΔV|, 8-bit) at least this, and this many times the camera's
# own frame-to-frame noise (its 99th percentile over the cloth): a ball of the cloth's colour
# changes a frame by little more than a noisy camera does.
CHANGE_FLOOR = 12.0
CHANGE_NOISE_FACTOR = 2.5
# How far (degrees) a ball's line, from its last step, may be off its way.
HEADING_DOUBT_DEG = 15.0
REST_SPEED_MM_S = 30.0
# A rolling ball loses speed at this at the least, over its whole roll, cushions included: a
# ball struck at 4 m/s is still within 8 s.
LONGEST_ROLL_DECELERATION_MM_S2 = 500.0
# A ball rolling this fast turns back only off something ahead of it, within reach at its own
# speed or this one (a just-struck ball's first step is short of its speed).
TURN_BACK_SPEED_MM_S = 300.0
TURN_BACK_REACH_SPEED_MM_S = 8000.0
# For this long after the cue ball went out of sight, what it hit it hit straight (it has had
# no time to come round off a cushion).
DIRECT_HIT_S = 0.1
MOVED_MM = 4.0  # a ball this far from where it rested has moved
# Balls' motions this near alike (mm, and REST_SPEED_MM_S) bear alike on what is found.
MOTION_ALIKE_MM = 0.1 * BALL_RADIUS_MM
# A resting ball half under the edge of an arm is found this far off its spot at most (the
# middle of half a disc is 0.42 radii off the disc's).
HALF_HIDDEN_OFF_MM = BALL_RADIUS_MM / 2
# A ball resting on the cloth measured this far past a cushion's touching line at most.
INTO_CUSHION_MM = BALL_RADIUS_MM / 2
LOOK_HISTORY = 24
LOOK_EVERY_S = 0.1
MOTION_LOOKBACK_S = 0.1  # a moving ball's look is taken this often (a rack ball is only seen then)
# How far off its measured path a ball in motion may have passed, and how far its blurred
# centre lags where it is (half the longest exposure: a frame at 60 fps).
REACH_SLACK_MM = 10.0
HALF_EXPOSURE_S = 1 / 120
# A ball lost from sight for longer than this comes back where it was lost (from under an
# arm); one lost for a moment (behind the cue at the strike) may be anywhere its speed took it,
# and so may an object ball lost rolling, however long (its speed bounds where it can be).
MISSING_REACH_S = 0.35
# A ball lost in motion is looked for as a faint disc as far as this speed (or its own) takes
# it: one faster than this is a streak, not a disc.
FAINT_SEARCH_SPEED_MM_S = 1500.0
FAINT_CANDIDATES = 1  # faint_discs gives twice as many spots
FAINT_MARGIN_RADII = 4.0
# A ball whose colour is this near the cloth's (at some brightness) is nearly the cloth's.
CLOTH_LIKE_GAP = 22.0
COLOURED_LOOK = 0.5  # a look with this much of its disc coloured is a coloured ball's
# A ball whose looks are mostly dark pixels may be found by its darkness alone.
DARK_LOOK = 0.5
# A resting ball's spot this much covered (of the square a ball wide about it) is under
# something; if the square this many radii out is covered too, that is a hand or an arm.
COVERED_SPOT = 0.6
COVERED_REACH_RADII = 1.75
# ...and one this little covered is bare cloth.
BARE_SPOT = 0.1
# The cue ball at rest is gone from its spot, whatever its middle looks like, when this much of
# its disc differs from the table at rest.
LEFT_DISC_SHARE = 0.5
# A ball against a cue or an arm is a bump on its blob this deep (in ball radii) at its
# middle: a cue is thinner, an arm thicker.
BUMP_DEPTH_RADII = (0.8, 1.3)
BUMP_ALONE_MM = 4 * BALL_RADIUS_MM  # ...and no other ball within this
BUMP_COLOUR_GAP = 10.0  # ...and its colour plainly the ball's (a hand is no colour)
# How far off a rolling ball's measured speed (from two noisy positions) may be.
SPEED_NOISE_MM_S = 500.0
# How much faster than it went in a ball may come back out of a pocket's mouth (its speed is
# measured from positions a frame or two apart; the speed it went in at is its top speed over
# the last look back, as a jaw cuts its last step short).
JAW_REBOUND = 1.5
# A rolling ball's last step at least this share of its pace is along its line (rolling, it
# slows by a few per cent in a tenth of a second; off a cushion or across a bounce, by more).
LINE_KEPT_SHARE = 0.5
# How much a difference in mean chroma (8-bit units) weighs against distance in matching.
MM_PER_COLOUR_UNIT = 2.0
STRUCK_DISTANCE_WEIGHT = 0.1  # a struck cue ball's distance from its spot says little
JUST_HIT_S = 0.05  # ...nor does a ball's hit this long ago
FIRST_STEPS_S = 0.05  # a struck cue ball's first moments off its spot
# The cue ball lost under the cue and seen again within this of the cue last over its spot
# was struck: it is ahead of the cue's tip, not back along the cue (a skin-coloured bridge
# hand is a ball-sized blob there). A ball taken up by hand is held longer than this.
STRUCK_AHEAD_S = 0.25
# The cue's way back from the spot is taken from what covers it between these many ball
# radii of its middle (the tip, the shaft, the bridge hand), not from the ball's own edge.
CUE_SIDE_RADII = (1.5, 8.0)
CUE_REACH_MM = (CUE_SIDE_RADII[1] + 1) * BALL_RADIUS_MM  # from the spot to the bridge hand
# Seen at rest, the cue ball has the cue aimed at it when a cue's outline comes this many
# radii from its middle (the tip nearer still merges with the ball's own blob).
AIMED_REACH_RADII = 3.0
MAX_COLOUR_GAP = 22.0
# A ball rolling on its own looking this much like itself at rest is taken to look as it does
# then (Track.rolling_colour); nearer its limit, it may be something else of a like colour
# (fresh 25's 651: the red 3 on red cloth, lost in a pocket, taken on the pale cue withdrawn
# there, at 19–20: followed on that look, it went on across the table).
ROLLING_COLOUR_GAP = MAX_COLOUR_GAP / 2
# A ball's chroma grows and fades with the light on it, as it rolls from a dim corner into
# a lamp's hot spot: its colour is matched as seen in these lights relative to its rest.
LIGHT_CHANGES = np.array([0.7, 0.85, 1.0, 1.2, 1.45])
# A stripe's middle shows more or less of its white as it rolls than it did at rest: white
# has no chroma, so its colour fades or grows, though it does not fade so far that the cue
# ball (no chroma at all) would pass for it.
STRIPE_LIGHTS = np.concatenate([[0.35, 0.5], LIGHT_CHANGES, [2.0, 3.0]])
# (A solid's lights as many as a stripe's, its last repeated: a light twice is no nearer.)
SOLID_LIGHTS_AS_STRIPES = np.pad(
    LIGHT_CHANGES, (0, len(STRIPE_LIGHTS) - len(LIGHT_CHANGES)), mode="edge"
)
# How much of a moving ball's measured colour may be the cloth's (its blur).
MOTION_BLUR_MIX = 0.6
# The dimmest the cue ball's middle shows, against the cloth's light where it is.
CUE_BALL_DIMMEST = 0.85
# A new blob is taken for a ball only if it looks like one of the balls in play this well.
NEW_BALL_COST = 25.0
# ...and this at most for a ball lost in play and found again at rest by its colour (the cue
# ball is then at least a third white, the 8 nearly half black).
FOUND_AGAIN_COST = 12.0
# A look this near the cue ball's (id_cost) is as white as a cue ball.
WHITE_AS_CUE_COST = 1.0
# A new blob only just out of the cloth (its whole pixels scoring under twice the foreground
# threshold: a lamp's hot spot the cloth model does not follow) looks up to this much worse,
# should a clearer one look like the same ball.
WEAK_DISC_COST = 4.0
WEAK_DISC_SCORE = 2.0 * FOREGROUND
# A faint disc (a sharp local difference, not out of the cloth at all) looks this much worse:
# less likely a ball than a clear blob (fresh 15's 406: a patch of mottled cloth took the 7's
# name by 0.02 from the vivid 3, and left it out), likelier than the weakest blob (under a hard
# tone curve a faint green 6 at the dim end of blue cloth beat a lump of cloth by 0.03 without
# doubts; doubted as the lump was, it lost).
FAINT_DISC_COST = 1.0
# ...and, as a blob only just out of the cloth, up to WEAK_DISC_COST more when it stands out of
# its ring less than this many times the least difference looked at (fresh 42's 1075: the
# cloth between the 5 and the 8, 1.25 times that, looked more the 2 than the vivid 2 with its
# number up, doubted by 1 only: the 2 was left out, and the shot that potted it lost).
FAINT_CLEAR_CONTRAST = 2.0
# A resting ball is still there while nothing changed within this many radii of its centre.
STILL_CORE_RADII = 0.5
# A ball this many radii from anything an arm or a hand was split into is no part of it.
ARM_CLEARANCE_RADII = 3.0
# An arm or a cue reaches this many ball radii at least; a shorter occluder may be a ball.
OCCLUDER_REACH_RADII = 8.0
# A ball off a cushion leaves within this of its line mirrored there (spin bends it).
REBOUND_CONE_DEG = 45.0
# Within this of a corner pocket's point a blob no ball went to is the hole (see _can_rest).
CORNER_THROAT_MM = 45.0
# The cue ball put down with an arm over the table: the table at rest is taken anew this many
# radii round it (its shadow too), and nowhere else.
PLACED_SPOT_RADII = 2.0
# A cue ball gone down a pocket is put back on the cloth by hand no sooner than this after
# it went out of sight in the mouth: it has to be taken out first.
PLACED_AFTER_DROP_S = 1.0
# A disc this dark and this colourless in a pocket's mouth is the hole seen through it.
OPENING_DARK = 0.6
OPENING_COLOUR = 0.15


@dataclass(eq=False)
class Track:
    """One ball: where it is, how fast it goes, what it looks like, what happened to it.
    (Compared by identity: two tracks are two balls, however alike.)"""

    key: BallKey | None
    xy: NDArray[np.float64]
    t: float
    velocity: NDArray[np.float64] = field(default_factory=lambda: np.zeros(2))
    # Its top speed over the sightings of the last look back (`paces`: when, and how fast,
    # oldest first; the top worked out once a sighting, as it is asked many times a frame):
    # the pace it went into a pocket's mouth or a cushion at, when its last step there was
    # cut short (fresh 69's 1756: the 4, its last step squeezed against a cushion and lost
    # coming back off it, was held to a tenth of its pace, and not taken up where found).
    top_speed: float = 0.0
    paces: deque[tuple[float, float]] = field(default_factory=deque)
    rest_xy: NDArray[np.float64] | None = None
    seen: bool = True
    missing_since: float | None = None
    looks: list[Look] = field(default_factory=list)
    rest_look: Look | None = None  # its look when last found at rest
    roll: Roll = field(default_factory=Roll)  # what its looks showed in motion since
    colour: NDArray[np.float64] | None = None  # mean (U, V) of its disc at rest
    colour_light: float = 1.0  # the cloth's Y where it rested then (the light it was seen in)
    # ...and as last seen rolling on its own since, looking like itself at rest: its hue
    # drifts with the light beyond what a change of brightness explains (a yellow 1 rolling
    # into a lamp's hot spot turns from orange to lemon), so it is matched against that too.
    rolling_colour: NDArray[np.float64] | None = None
    rolling_light: float = 1.0
    look_t: float = -1e9  # when its look was last taken
    # Hard to see once it moves: found at rest only by its darkness or as a faint disc, or
    # of the cloth's colour (looked for where it should be when it is not found there).
    faint: bool = False
    cloth_coloured: bool = False  # its colour, at some brightness, is nearly the cloth's
    reached_at: float | None = None  # when a ball in motion came within reach of it at rest
    reached_from: NDArray[np.float64] | None = None  # ...where that ball was then
    reached_speed: float = 0.0  # ...and how fast it went (0: pushed through a frozen ball)
    reached_way: NDArray[np.float64] | None = None  # ...and which way (None: not known)
    # The cue ball at rest with the cue over it (lost under it) or aimed at it: a point back
    # along the cue, and when it was last seen there.
    cue_from: NDArray[np.float64] | None = None
    cue_from_t: float = -1e9
    hidden_at_rest: float | None = None  # went out of sight on its spot then, found moving
    left_at: float | None = None  # first found off its spot since it rested then
    strayed: bool = False  # found more than two radii off its spot since it rested
    # Found at the last rest: the reference frame shows it on its spot.
    in_reference: bool = True
    disc: Disc | None = None  # what it was last found as (None: not found in the last frame)
    # `speed` of the velocity array it was worked out for (asked many times a frame; the
    # array is replaced, never changed in place, when the ball's velocity changes).
    _speed_of: NDArray[np.float64] | None = field(default=None, init=False, repr=False)
    _speed: float = field(default=0.0, init=False, repr=False)

    def predicted(self, t: float) -> NDArray[np.float64]:
        return self.xy + self.velocity * (t - self.t)

    def note_pace(self, t: float) -> None:
        """Note its speed as it is seen at `t` (before its position and time are: the look
        back runs from its last sighting, its time out of sight not counted, for a step back
        into sight from the jaws is no measure of its pace)."""
        while self.paces and self.paces[0][0] < self.t - MOTION_LOOKBACK_S:
            self.paces.popleft()
        self.paces.append((t, self.speed))
        self.top_speed = max(pace for _, pace in self.paces)

    @property
    def speed(self) -> float:
        if self._speed_of is not self.velocity:
            self._speed_of = self.velocity
            self._speed = math.hypot(float(self.velocity[0]), float(self.velocity[1]))
        return self._speed

    @property
    def pace_in(self) -> float:
        """The speed it had as it was last seen going: its top speed over the last look back."""
        return max(self.speed, self.top_speed)

    @property
    def moving(self) -> bool:
        return self.speed > REST_SPEED_MM_S

    @property
    def fastest_unseen(self) -> float:
        """The fastest it can be going, rolling on out of sight with no ball hitting it: its
        pace, half again (a step across a bounce off a cushion or a jaw understates it), and
        the speed's noise."""
        return JAW_REBOUND * self.pace_in + SPEED_NOISE_MM_S


@dataclass(frozen=True)
class _Window:
    """What was found in one changed window of a frame, and what it was found from: while the
    window's pixels stay as they were (within the camera's noise) and so does what detect()
    was told about it, what it holds is the same."""

    planes: tuple[U8, U8, U8]  # its Y, U and V then
    dark_balls: int
    motions: tuple[Motion, ...]  # the balls in motion that could bear on it
    found: Detections


@dataclass(frozen=True)
class Observation:
    """A frame's view of the table: where each track was seen (None: not seen)."""

    t: float
    positions: dict[int, tuple[float, float] | None]
    occluders: tuple[Occluder, ...]
    changed: bool  # anything differs from the table at its last rest
    moving: bool  # anything differs from the frame before
    # ...away from the arms and cues over the table (a player down on the shot strokes the
    # cue while the cue ball he placed lies still beside its tip). Told apart only while the
    # cue ball is wanted (Tracker.cue_ball_wanted); otherwise it is `moving`.
    moving_in_the_open: bool = False


class Tracker:
    def __init__(self, calibration: Calibration, on_table: Iterable[BallKey]) -> None:
        self.calibration = calibration
        self.radius_px = calibration.ball_radius_px()
        self.on_table: set[BallKey] = set(on_table)
        self.tracks: dict[int, Track] = {}
        self.cloth: ClothModel | None = None
        self._reference: tuple[U8, U8, U8] | None = None
        # Recent frames, and the arms and cues over the table in each.
        self._recent: deque[tuple[float, tuple[U8, U8, U8], tuple[Occluder, ...]]] = deque()
        # What was worked out for points and discs asked about again and again (_kept): balls
        # at rest, and the discs of windows unchanged from the last frame (_found_in).
        self._pixel_cache: dict[tuple[float, float], NDArray[np.float64]] = {}
        self._table_points: dict[Disc, NDArray[np.float64]] = {}
        self._placed: dict[Disc, Disc] = {}  # the discs, unclipped
        self._motion_cache: dict[MotionKey, Motion] = {}
        self._next_id = 0
        self._change_level: float | None = None
        self._limits: tuple[int, U8] | None = None  # _change_limits, and the level they hold
        self._rest_mask: U8 | None = None
        table = calibration.table
        # Each pocket's middle and how far from it its mouth reaches (plain numbers: every
        # ball asks, many times a frame).
        self._mouths = [
            (float(x), float(y), float(table.mouth_reach(name)))
            for name, (x, y) in table.pockets.items()
        ]
        self._holes = _holes_seen(calibration)
        self._corners = np.array([table.pockets[name] for name in ("HL", "HR", "FL", "FR")])
        self._occluders: tuple[Occluder, ...] = ()  # over the table in the latest frame
        # What was detected (table points) in the latest frame that changed, and the one
        # before it.
        self._latest_found: NDArray[np.float64] = np.zeros((0, 2))
        self._previous_found: NDArray[np.float64] = np.zeros((0, 2))
        self._kernel = np.ones((3, 3), np.uint8)
        # Balls whose look at rest would fit the cue ball as well, and the cue ball's theirs
        # (a 9 with its stripe turned under): any of them may be the one struck.
        self._cue_look_alikes: set[Track] = set()
        self._felt: dict[str, float] = {}  # when each pocket's sensor last felt a ball drop
        # When the last shot ended: the pulses up to then, and the balls lost before then,
        # were that shot's.
        self._last_shot_end = -math.inf
        # The last changed frame's windows (half-resolution boxes) and what they held: a ball
        # come to rest, or a spot a ball left, stays changed from the reference, frame after
        # frame, as it is.
        self._windows: dict[tuple[int, int, int, int], _Window] = {}
        # The frame last asked about, and for each ball lost heading into a pocket's mouth
        # then, whether a ball lay in its way there (_mouth_gone_into).
        self._ways_in: tuple[float, dict[Track, bool]] = (-math.inf, {})

    # -- per frame ---------------------------------------------------------------------------

    def update(self, t: float, planes: Planes) -> Observation:
        y_half = planes.y_half()
        if self._reference is None:
            if self.cloth is None:
                self.cloth = ClothModel.estimate(planes, self.calibration)
            self.settle(t, planes, y_half)
            self._recent.append((t, (y_half, planes.u, planes.v), ()))
            return self._observe(t, (), changed=False, moving=False)
        if self._change_level is None:
            self._change_level = self._noise_level(y_half, planes)
        changed_mask = self._changes(y_half, planes)
        # Motion is judged against a frame a little while back: a slow ball changes too few
        # pixels from one frame to the next at 120 fps.
        self._recent.append((t, (y_half, planes.u, planes.v), ()))
        while len(self._recent) > 2 and self._recent[1][0] <= t - MOTION_LOOKBACK_S:
            self._recent.popleft()
        previous = self._recent[0][1] if self._recent[0][0] < t else None
        was_over = self._recent[0][2]
        if changed_mask is None:
            self._occluders = ()
            self._reveal_unchanged(t, None)
            for track in self.tracks.values():
                if track.missing_since is None:
                    track.velocity = np.zeros(2)
                    track.t = t
            return self._observe(t, (), changed=False, moving=False)
        motion = None if previous is None else self._changes(y_half, planes, previous)
        detections, found = self._detect_in(t, changed_mask, planes, y_half)
        detections, found = self._look_for_the_lost(
            t, detections, found, changed_mask, planes, y_half
        )
        detections, found = self._look_beside_occluders(t, detections, found, planes, y_half)
        self._associate(
            t,
            detections,
            found,
            changed_mask,
            self._colours(detections.discs, planes),
            (planes, y_half),
        )
        self._reveal_unchanged(t, changed_mask)
        self._note_the_cue_at_the_cue_ball(t, detections.occluders)
        self._recent[-1] = (t, (y_half, planes.u, planes.v), detections.occluders)
        observation = self._observe(
            t, detections.occluders, changed=True, moving=motion is not None
        )
        if motion is None or not self.cue_ball_wanted():
            return dataclasses.replace(observation, moving_in_the_open=motion is not None)
        # What moved where an arm or a cue is now or was then is the arm's own move.
        arms = self._reaching(detections.occluders + was_over)
        in_the_open = not arms or bool(
            cv2.countNonZero(cv2.bitwise_and(motion, cv2.bitwise_not(self._around(arms))))
        )
        return dataclasses.replace(observation, moving_in_the_open=in_the_open)

    def _reveal_unchanged(self, t: float, mask: U8 | None) -> None:
        """A ball hidden at rest is back in sight once its spot looks as it did at rest; so is
        one lost a hair off it (found there under the edge of an arm sweeping over it): it
        never left. With nothing anywhere looking other than at the last rest, every ball
        found then is on its spot, wherever its track went (fresh 59's 1511: the cue ball's
        track, pulled off its spot by a sleeve sweeping over it, took a piece of the hand
        190 mm off and was held there while the table looked as at rest; the cue ball never
        found again on its spot, a scratch was found)."""
        for track in self.tracks.values():
            if track.rest_xy is None:
                continue
            if mask is None and track.in_reference and not track.faint:
                self._back_on_its_spot(track, t)
                continue
            if track.missing_since is None:
                continue
            if np.hypot(*(track.xy - track.rest_xy)) > HALF_HIDDEN_OFF_MM or (
                track.moving and track.strayed
            ):
                # It was lost in motion: its spot now shows the cloth (or, rolling back over
                # the spot it went away from, itself; one only nudged, its centre pulled by a
                # ball passing, is back on it).
                continue
            if (
                track.faint
                and track.in_reference
                and track.reached_at is not None
                and track.missing_since >= track.reached_at
            ):
                # A ball of nearly the cloth's colour lost as a ball reached it (hit) leaves
                # its spot looking much as it did with it there: only finding it tells. (One
                # not found at the last rest was not there to leave as far as sight goes.)
                continue
            if mask is None or not self._in_mask(track.rest_xy, mask):
                self._back_on_its_spot(track, t)

    @staticmethod
    def _back_on_its_spot(track: Track, t: float) -> None:
        """Seen on the spot it rested on, never having left it."""
        assert track.rest_xy is not None
        if Tracker._in_play(track):
            track.left_at, track.strayed = None, False
        track.xy = track.rest_xy
        track.missing_since = None
        track.velocity = np.zeros(2)
        track.t = t

    def _noise_level(self, y_half: U8, planes: Planes) -> float:
        """The change level that is more than this camera's noise, from the first two frames
        (balls cover too little of the cloth to move its 99th percentile)."""
        assert self._reference is not None and self.cloth is not None
        diff = _difference((y_half, planes.u, planes.v), self._reference)
        noise = float(np.percentile(diff[self.cloth.table_mask > 0], 99))
        return max(CHANGE_FLOOR, CHANGE_NOISE_FACTOR * noise)

    @property
    def _change_threshold(self) -> float:
        """What of |ΔY| + |ΔU| + |ΔV| is a change (more is)."""
        return CHANGE_FLOOR if self._change_level is None else self._change_level

    def _change_limits(self) -> U8:
        """Over the table's window, the |ΔY| + |ΔU| + |ΔV| each pixel changes by past:
        the threshold (in whole levels, as cv2.threshold takes it for 8-bit pixels) on the
        playing surface, and off it 255, past which nothing changes. (One comparison both
        thresholds the changes and keeps them to the surface.)"""
        assert self.cloth is not None
        level = min(math.floor(self._change_threshold), 255)
        if self._limits is None or self._limits[0] != level:
            surface = self.cloth.table_mask[self.cloth.table_window] > 0
            self._limits = (level, np.where(surface, level, 255).astype(np.uint8))
        return self._limits[1]

    def _changes(
        self, y_half: U8, planes: Planes, against: tuple[U8, U8, U8] | None = None
    ) -> U8 | None:
        """Where this frame differs from the reference (or from `against`), or None."""
        assert self._reference is not None and self.cloth is not None
        window = self.cloth.table_window  # (nothing off the table counts)
        then = self._reference if against is None else against
        diff = _difference(
            (y_half[window], planes.u[window], planes.v[window]),
            (then[0][window], then[1][window], then[2][window]),
        )
        mask = cv2.compare(diff, self._change_limits(), cv2.CMP_GT)
        if cv2.countNonZero(mask) == 0:
            return None  # (most frames at rest: no need to open it)
        mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, self._kernel)
        if cv2.countNonZero(mask) == 0:
            return None
        whole = np.zeros_like(y_half)
        whole[window] = mask
        return whole

    def _cue_ball_resting_in(self, box: tuple[int, int, int, int], grow: int) -> bool:
        """Whether the cue ball rests (seen or hidden) in a half-resolution box."""
        return any(
            track.key == "cue" and not (track.moving or self._in_play(track))
            for track in self._tracks_in(box, grow)
        )

    def _ball_going_in(self, box: tuple[int, int, int, int], grow: int) -> bool:
        """Whether a ball in play, going or lost going, was last in a half-resolution box."""
        return any(
            self._in_play(track) and (track.moving or track.missing_since is not None)
            for track in self._tracks_in(box, grow)
        )

    def _tracks_in(self, box: tuple[int, int, int, int], grow: int) -> list[Track]:
        """The tracks last in a half-resolution box grown by `grow` each way."""
        x0, y0, x1, y1 = box
        inside = []
        for track in self.tracks.values():
            hx, hy = self._half_pixel(track.xy)
            if x0 - grow <= hx <= x1 + grow and y0 - grow <= hy <= y1 + grow:
                inside.append(track)
        return inside

    def _clear_of_clusters(self, found: tuple[Disc, ...]) -> list[Disc]:
        """The lone discs (a blob to themselves) at least ARM_CLEARANCE_RADII from every
        disc of a cluster (what an arm or a hand splits into)."""
        clustered = np.array([(d.x, d.y) for d in found if d.cluster > 1]).reshape(-1, 2)
        clear = ARM_CLEARANCE_RADII * self.radius_px
        return [
            d
            for d in found
            if d.cluster == 1
            and (not len(clustered) or np.hypot(*(clustered - (d.x, d.y)).T).min() >= clear)
        ]

    def _detect_in(
        self, t: float, mask: U8, planes: Planes, y_half: U8
    ) -> tuple[Detections, NDArray[np.float64]]:
        """The balls and occluders where `mask` shows a change, and the balls' table points."""
        assert self.cloth is not None
        grow = int(np.ceil(self.radius_px))  # half-resolution pixels: a ball's diameter
        # (Grown within the changes' bounding box and a margin: all a frame's changes are
        # usually a small part of it.)
        x, y, w, h = cv2.boundingRect(mask)
        x0, y0 = max(x - grow - 1, 0), max(y - grow - 1, 0)
        x1, y1 = min(x + w + grow + 1, mask.shape[1]), min(y + h + grow + 1, mask.shape[0])
        dilated = cv2.dilate(mask[y0:y1, x0:x1], np.ones((2 * grow + 1, 2 * grow + 1), np.uint8))
        contours, _ = cv2.findContours(
            dilated, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE, offset=(x0, y0)
        )
        discs: list[Disc] = []
        boxes: list[tuple[int, int, int, int]] = []  # each disc's window
        occluders: list[Occluder] = []
        self._project_the_tracks()
        moving = self._motions(t)
        known = self._half_res_positions()
        windows: dict[tuple[int, int, int, int], _Window] = {}
        for contour in contours:
            x, y, w, h = cv2.boundingRect(contour)
            box = (x, y, x + w, y + h)
            found = self._found_in(box, planes, y_half, moving, windows)
            # More "balls" than could be here is a hand or an arm over the cloth.
            inside = np.count_nonzero(
                (known[:, 0] >= x - grow)
                & (known[:, 0] <= x + w + grow)
                & (known[:, 1] >= y - grow)
                & (known[:, 1] <= y + h + grow)
            )
            if len(found.discs) > inside + 1:
                outline = contour.astype(np.float32) * 2 + 0.5
                occluders.append(Occluder(outline))
                occluders.extend(found.occluders)
                # A ball on its own clear of the arm is still a ball where the cue ball stood
                # in it: struck, it leaves the cue's tip in the same patch of change. So is
                # one where a ball in play went: rolling past the cue and the arm after the
                # strike (fresh 14's 396: the cue ball and the 2 lost for 0.15 s).
                if self._cue_ball_resting_in(box, grow) or self._ball_going_in(box, grow):
                    clear = self._clear_of_clusters(found.discs)
                    discs.extend(clear)
                    boxes.extend([box] * len(clear))
                continue
            discs.extend(found.discs)
            boxes.extend([box] * len(found.discs))
            occluders.extend(found.occluders)
        discs = self._once_each(discs, boxes)
        self._windows = windows
        kept, table_xy = self._not_openings(list(self._unclipped(discs)), planes, y_half, t)
        return Detections(tuple(kept), tuple(occluders)), table_xy

    def _once_each(self, discs: list[Disc], boxes: list[tuple[int, int, int, int]]) -> list[Disc]:
        """The discs, a ball found in two windows once. A region's box may hold another
        region's ball too (beside an arm reaching in on a slant): found in both, it is one
        ball, not two for two tracks to take; it is measured in the window that holds the
        most of it, the one whose edge is farthest from its middle (fresh 39's 1020: the cue
        ball creeping into a cushion, cut through its middle by the box of a change beside
        it, was found 13 mm off the cushion as it touched it, and the touch went unseen).
        (Each box is searched whole: a ball whose change is at one side of it lies partly
        outside its region, and its middle is measured on the whole of it.)"""

        def clearance(index: int) -> float:
            x0, y0, x1, y1 = boxes[index]
            hx, hy = (discs[index].x + 0.5) / 2 - 0.5, (discs[index].y + 0.5) / 2 - 0.5
            return min(hx - x0, x1 - 1 - hx, hy - y0, y1 - 1 - hy)

        kept: list[int] = []
        for i in sorted(range(len(discs)), key=clearance, reverse=True):
            d = discs[i]
            if all(math.hypot(d.x - discs[k].x, d.y - discs[k].y) >= self.radius_px for k in kept):
                kept.append(i)
        return [discs[i] for i in sorted(kept)]

    def _found_in(
        self,
        box: tuple[int, int, int, int],
        planes: Planes,
        y_half: U8,
        moving: tuple[Motion, ...],
        windows: dict[tuple[int, int, int, int], _Window],
    ) -> Detections:
        """detect() in a half-resolution window (kept in `windows`), or what it found there in
        an earlier frame if nothing it was found from has changed since."""
        assert self.cloth is not None
        x0, y0, x1, y1 = box
        now = (y_half[y0:y1, x0:x1], planes.u[y0:y1, x0:x1], planes.v[y0:y1, x0:x1])
        dark_balls = self._dark_wanted()
        # A ball's motion bears on a blob it may streak through (as detect() tells), or, at
        # rest (just struck), on a streak along the line through it up to four of the blob's
        # lengths away.
        radius = self.radius_px / 2
        along = 4 * math.hypot(x1 - x0, y1 - y0)
        motions = tuple(
            m
            for m in moving
            if math.hypot(max(x0 - m.x, 0.0, m.x - x1), max(y0 - m.y, 0.0, m.y - y1))
            <= 3 * radius + m.reach + (0.0 if m.vx or m.vy else along)
        )
        was = self._windows.get(box)
        if (
            was is not None
            and was.dark_balls == dark_balls
            and self._alike(was.motions, motions)
            and float(_difference(now, was.planes).max()) <= self._change_threshold
        ):
            windows[box] = was
            return was.found
        colour, dark = self.cloth.foreground(y_half, planes.u, planes.v, box)
        found = detect(
            colour,
            dark,
            radius,
            origin=(x0, y0),
            dark_balls=dark_balls,
            moving=moving,
            off_cloth=self.cloth.off_cloth(box),
        )
        kept = (now[0].copy(), now[1].copy(), now[2].copy())
        windows[box] = _Window(kept, dark_balls, motions, found)
        return found

    def _alike(self, these: tuple[Motion, ...], those: tuple[Motion, ...]) -> bool:
        """Whether two frames' motions are the same balls' within what a ball at rest
        jitters by (found afresh each frame, a ball at rest off its spot is a hair off where
        it was, so at a crawl)."""
        if len(these) != len(those):
            return False
        scale = self.radius_px / 2 / BALL_RADIUS_MM  # half-resolution pixels per mm
        near, slow = MOTION_ALIKE_MM * scale, REST_SPEED_MM_S * scale
        return all(
            a.streaks == b.streaks
            and a.in_play == b.in_play
            and abs(a.x - b.x) <= near
            and abs(a.y - b.y) <= near
            and abs(a.reach - b.reach) <= near
            and math.hypot(a.vx - b.vx, a.vy - b.vy) <= slow
            for a, b in zip(these, those, strict=True)
        )

    def _look_for_the_lost(
        self,
        t: float,
        detections: Detections,
        found: NDArray[np.float64],
        mask: U8,
        planes: Planes,
        y_half: U8,
    ) -> tuple[Detections, NDArray[np.float64]]:
        """The detections, and faint discs near where balls lost in motion should be.

        A ball of nearly the cloth's colour (a maroon 7 on red cloth) is too like the cloth
        to stand out of the whole frame once it rolls off its spot; near where its track says
        it is, its disc still stands out of the cloth ring around it (faint_discs). So may any
        ball lost in a pocket's mouth, rattling back out of it into the shade of the corner
        (fresh 25's 650: the purple 4 on dark red cloth, lost until the shot's end); what is
        faint in the mouth itself is no ball to go by.
        """
        assert self.cloth is not None
        height, width = y_half.shape
        extra: list[Disc] = []
        for track in self.tracks.values():
            unseen = t - track.t
            # (Lost rolling in the open for longer, it is on its line, short of where its
            # speed takes it: fresh 35's 914, the maroon 7 on red cloth, lost for 2.5 s.)
            along = unseen > MISSING_REACH_S
            if (
                not (track.faint or self.at_a_pocket(track))
                or (along and not self._rolling_on_unseen(track, t))
                or not (track.moving or self._in_play(track) or track.reached_at is not None)
            ):
                continue
            if (
                track.rest_xy is not None
                and not (track.moving or self._in_play(track))
                and not self._in_mask(track.xy, mask, STILL_CORE_RADII)
            ):
                continue  # passed close by, not hit: its spot looks as it did
            predicted = track.predicted(t)
            if len(found) and np.min(np.hypot(*(found - predicted).T)) < BALL_RADIUS_MM:
                continue  # found where it should be (as itself or in plain sight)
            centre = self._pixel(predicted)
            if self._covered(centre, detections.occluders):
                continue
            # (Hit, and not seen going since, it goes no faster than its hitter came: fresh
            # 28's 740, the maroon 7 on red cloth struck at 3 m/s, was out of a search at
            # walking pace by a frame. Once seen going, its own pace tells: fresh 22's 584,
            # the 4 a second after it was hit, took a spot of cloth 600 mm off.)
            hit = track.reached_speed if track.reached_at is not None and not track.moving else 0.0
            pace = max(track.speed, FAINT_SEARCH_SPEED_MM_S, hit)
            reach_mm = 2 * BALL_RADIUS_MM + (0.0 if along else pace * unseen)
            reach = reach_mm * self.radius_px / BALL_RADIUS_MM / 2  # half-resolution pixels
            hx, hy = _half_res(centre)
            ends = [(hx, hy)]
            if along:
                to_cushion, _, _ = self._cushion_ahead(track)
                ends = [
                    self._half_pixel(track.xy),
                    self._half_pixel(track.predicted(track.t + min(unseen, to_cushion))),
                ]
            # The window holds the cloth around the farthest place it may be, too: a spot
            # is judged against its ring, and the window's cloth sets the noise level.
            margin = reach + FAINT_MARGIN_RADII * self.radius_px / 2
            xs, ys = zip(*ends, strict=True)
            x0, y0 = max(int(min(xs) - margin), 0), max(int(min(ys) - margin), 0)
            x1, y1 = min(int(max(xs) + margin) + 2, width), min(int(max(ys) + margin) + 2, height)
            if x1 - x0 < 4 or y1 - y0 < 4:
                continue
            window = np.s_[y0:y1, x0:x1]
            in_reach = np.zeros((y1 - y0, x1 - x0), np.uint8)
            if along:
                (ax, ay), (bx, by) = ends
                cv2.line(
                    in_reach,
                    (round(ax) - x0, round(ay) - y0),
                    (round(bx) - x0, round(by) - y0),
                    (1,),
                    2 * math.ceil(reach) + 1,
                )
            else:
                cv2.circle(in_reach, (round(hx) - x0, round(hy) - y0), math.ceil(reach), (1,), -1)
            # Not where another ball is: found, or known to rest where nothing changed.
            others = [self._pixel(o.xy) for o in self.tracks.values() if o is not track]
            near = [
                dataclasses.replace(d, x=d.x - 2 * x0, y=d.y - 2 * y0)
                for d in (*detections.discs, *extra)
            ] + [Disc(px - 2 * x0, py - 2 * y0, 1, 1.0) for px, py in others]
            faint = faint_discs(
                (y_half[window], planes.u[window], planes.v[window]),
                self.cloth.table_mask[window],
                near,
                self.radius_px / 2,
                wanted=FAINT_CANDIDATES,
                can_rest=in_reach,
            )
            # The strongest spots may be a cushion's corner or a shadow's edge: the
            # association takes the one that is the ball by where it is and its colour.
            extra += [dataclasses.replace(d, x=d.x + 2 * x0, y=d.y + 2 * y0) for d in faint]
        if not extra:
            return detections, found
        kept, kept_xy = self._not_openings(list(self._unclipped(extra)), planes, y_half, t)
        # A pocket's mouth is all edges and shade: what is faint there is no ball to go by.
        clear = [not self._in_a_mouth(xy) for xy in kept_xy]
        kept, kept_xy = [d for d, ok in zip(kept, clear, strict=True) if ok], kept_xy[clear]
        return (
            Detections((*detections.discs, *kept), detections.occluders),
            np.vstack([found.reshape(-1, 2), kept_xy.reshape(-1, 2)]),
        )

    def _look_beside_occluders(
        self,
        t: float,
        detections: Detections,
        found: NDArray[np.float64],
        planes: Planes,
        y_half: U8,
    ) -> tuple[Detections, NDArray[np.float64]]:
        """The detections, and the cue ball in motion beside the cue or an arm.

        Rolling against the cue stick (drawn back, or following through, along its path),
        the cue ball's blob joins the stick's and the whole is taken for an occluder; yet the
        ball still stands out of it as a round bump as thick as a ball, where a cue is
        thinner and an arm thicker. (Object balls seldom roll there; in a break's crowd, by
        a cue following through, each is such a bump, and which is which is not told.)
        """
        if not detections.occluders:
            return detections, found
        for track in self.tracks.values():
            # (Moving as last seen going: two bumps on one coarse pixel are no stop.)
            if (
                track.key != "cue"
                or track.pace_in <= REST_SPEED_MM_S
                or track.colour is None
                or t - track.t > MISSING_REACH_S
                or self.at_a_pocket(track)
            ):
                continue
            predicted = track.predicted(t)
            if not self._covered(self._pixel(predicted), detections.occluders):
                continue
            if len(found) and np.min(np.hypot(*(found - predicted).T)) < 2 * BALL_RADIUS_MM:
                continue  # something is found where it should be
            others = [o.predicted(t) for o in self.tracks.values() if o is not track]
            if others and min(np.hypot(*(xy - predicted)) for xy in others) < BUMP_ALONE_MM:
                continue  # in a crowd, each ball is such a bump: which is which is not told
            bump = self._bump_of(track, predicted, planes, y_half)
            if bump is not None:
                disc, xy = bump
                detections = Detections((*detections.discs, disc), detections.occluders)
                found = np.vstack([found.reshape(-1, 2), xy[None, :]])
        return detections, found

    def _bump_of(
        self, track: Track, predicted: NDArray[np.float64], planes: Planes, y_half: U8
    ) -> tuple[Disc, NDArray[np.float64]] | None:
        """The nearest ball-thick bump of the track's colour (as plainly of it as the
        plainest) on what is over the table, within a ball's width of where its roll takes
        it (a ball turned off its way, by a cushion or another ball, is not told from a
        hand's knuckle by its shape), and its table point."""
        assert self.cloth is not None
        height, width = y_half.shape
        radius = self.radius_px / 2  # half-resolution pixels
        reach = 2 * radius
        hx, hy = self._half_pixel(predicted)
        x0, y0 = max(int(hx - reach - radius), 0), max(int(hy - reach - radius), 0)
        x1 = min(int(hx + reach + radius) + 2, width)
        y1 = min(int(hy + reach + radius) + 2, height)
        if x1 - x0 < 4 or y1 - y0 < 4:
            return None
        colour, dark = self.cloth.foreground(y_half, planes.u, planes.v, (x0, y0, x1, y1))
        mask = ((colour > 1.0) | (dark > 1.0)).astype(np.uint8)
        depth = cv2.distanceTransform(mask, cv2.DIST_L2, 3)
        peaks = (
            (depth >= cv2.dilate(depth, self._kernel))
            & (depth >= BUMP_DEPTH_RADII[0] * radius)
            & (depth <= BUMP_DEPTH_RADII[1] * radius)
        )
        rows, cols = np.nonzero(peaks)
        near = np.hypot(cols + x0 - hx, rows + y0 - hy) <= reach
        if not near.any():
            return None
        discs = [
            Disc(2 * (col + x0) + 0.5, 2 * (row + y0) + 0.5, 1, 1.0)
            for row, col in zip(rows[near], cols[near], strict=True)
        ]
        found = self._to_table(discs)
        unlike = self._colour_gap(track, self._colours(discs, planes), self._cloth_under(found))
        # The nearest of those as plainly of its colour as the plainest: where a pale shaft
        # joins the cue ball is thick enough too, and nearly as white (fresh 52's 1338);
        # along a shaft as white as the ball, their colours say nothing (fresh 41's 1050).
        plain = (unlike <= float(unlike.min()) + BUMP_COLOUR_GAP / 2) & (unlike <= BUMP_COLOUR_GAP)
        if not plain.any():
            return None
        off = np.hypot(*(found - predicted).T)
        best = int(np.argmin(np.where(plain, off, np.inf)))
        return discs[best], found[best]

    def _unclipped(self, discs: Iterable[Disc]) -> tuple[Disc, ...]:
        """The discs, those the cloth's edge cuts (against a cushion) put where they are."""
        assert self.cloth is not None
        visible, radius = self.cloth.table_mask, self.radius_px / 2
        return tuple(
            _kept(
                self._placed, list(discs), lambda new: [unclipped(d, visible, radius) for d in new]
            )
        )

    def _project_the_tracks(self) -> None:
        """Every track's point, and where it is headed a moment on (as _motions_of and
        _half_res_positions ask), projected together and kept: one projection of many points
        costs about what one of a single point does."""
        if self.tracks:
            xy = np.array([tr.xy for tr in self.tracks.values()])
            velocity = np.array([tr.velocity for tr in self.tracks.values()])
            self._pixels(np.vstack([xy, xy + velocity * 0.01, xy + velocity * 0.05]))

    def _half_res_positions(self) -> NDArray[np.float64]:
        """Where every known ball is or is headed, in half-resolution pixels."""
        if not self.tracks:
            return np.zeros((0, 2))
        points = [tr.xy for tr in self.tracks.values()] + [
            tr.xy + tr.velocity * 0.05 for tr in self.tracks.values() if tr.moving
        ]
        return _half_res(self._pixels(np.array(points)))

    def _associate(
        self,
        t: float,
        detections: Detections,
        found: NDArray[np.float64],
        mask: U8,
        colours: NDArray[np.float64],
        looks_from: tuple[Planes, U8] | None = None,
    ) -> None:
        # A resting ball whose middle still looks as it did at rest has not gone anywhere:
        # what changed is beside it (a cue being aimed, a hand, a shadow), so it is neither
        # hidden nor free to jump to some other blob; it may only creep. (Unless it is the
        # cue ball struck from under the cue: see _struck_from_under_the_cue.) So with one
        # lost at rest whose middle looks so again with nothing over its spot or beside it,
        # the arm gone (fresh 49's 1259: the cue ball, lost under a sleeve sweeping over it
        # between shots, took a piece of the hand 74 mm off, and a shot was found); not a
        # faint one, whose spot looks much the same without it, nor one under a cue lying
        # over its spot (fresh 48's 1232: the cue ball struck from under the ferrule).
        struck_away = {
            tid
            for tid, track in self.tracks.items()
            if self._struck_from_under_the_cue(track, looks_from)
        }
        still = {
            tid
            for tid, track in self.tracks.items()
            if track.rest_xy is not None
            and not track.moving
            and not self._in_play(track)
            and not self._in_mask(track.xy, mask, STILL_CORE_RADII)
            and tid not in struck_away
            and (
                track.missing_since is None
                or not (
                    track.faint or self._covered(self._pixel(track.rest_xy), detections.occluders)
                )
            )
        }
        self._hide_occluded(t, detections.occluders, keep=still)
        self._occluders = detections.occluders
        self._previous_found, self._latest_found = self._latest_found, found.reshape(-1, 2)
        # Tracks that may have changed: every moving or missing one, and resting ones
        # whose spot changed.
        # (A ball off its resting spot is in play: it is seen only where it is detected, not
        # kept where it was last found, which a pocket's mouth would hide it creeping from.)
        candidates = [
            tid
            for tid, track in self.tracks.items()
            if track.moving
            or track.missing_since is not None
            or self._in_play(track)
            or self._in_mask(track.xy, mask)
            or tid in struck_away
        ]
        for tid, track in self.tracks.items():
            track.seen = tid not in candidates
            if track.seen:  # still where it rested: seen there now
                track.t = t
        # A detection on a ball that stayed put is that ball, not one that moved there.
        resting = [track.xy for track in self.tracks.values() if track.seen]
        taken = (
            np.linalg.norm(found[:, None, :] - np.array(resting)[None, :, :], axis=2).min(axis=1)
            < BALL_RADIUS_MM
            if resting and len(found)
            else np.zeros(len(found), bool)
        )
        for tid in candidates:
            track = self.tracks[tid]
            if self._left_unseen(track, t, mask, looks_from):
                hit = track.missing_since if self._hit_as_it_went(track, t) else t
                track.reached_at, track.reached_from, track.reached_speed = hit, None, 0.0
                track.reached_way = None
        # What a struck cue ball's track followed off its spot, if it was the cue.
        followed = {tid: self._followed_the_cue(self.tracks[tid], found, t) for tid in candidates}
        # A ball come to rest off its spot, found as the very disc it was found as last (its
        # window as it was, and no ball in motion near it: _found_in), is that disc again.
        again = self._found_as_before(candidates, detections.discs, t)
        rows = [tid for tid in candidates if tid not in again]
        pairs = list(again.items())
        anchored: set[int] = set()  # object balls at rest that no ball in motion could reach
        # Each row's colour gaps from its colour at rest, and the cloth under each detection.
        as_at_rest: NDArray[np.float64] | None = None
        cloth_under = np.zeros((len(found), 3))
        if rows and len(found):
            # (Where each was found in the image: no need to take its table point back there.)
            cloth_under = self._cloth_at(np.array([(d.x, d.y) for d in detections.discs]))
            dark = np.array([d.dark for d in detections.discs], bool)
            faint = np.array([d.faint for d in detections.discs], bool)
            dim: NDArray[np.bool_] | None = None  # worked out only for the cue ball's track
            cost = np.full((len(rows), len(found)), np.inf)
            # Two balls meeting swap places along their paths; their colours do not.
            row_tracks = [self.tracks[tid] for tid in rows]
            as_at_rest, unlikes = self._colour_gaps_or_as_rolling(
                row_tracks, colours, cloth_under, MOTION_BLUR_MIX
            )
            for row, tid in enumerate(rows):
                track = self.tracks[tid]
                dt = max(t - track.t, 1e-3)
                at_a_pocket = self._went_into_a_mouth(track, t) or self._lost_going_in(track, t)
                if self._dropped(track, t):
                    continue  # what comes there now is another ball
                # A ball out of sight comes back where it went out of sight (from under an
                # arm); one in play can be anywhere its speed takes it, and one that went
                # into a pocket's mouth and bounced off the jaws comes out no faster than
                # it went in.
                may_have_moved = self._may_have_moved(track, t)
                if not may_have_moved:
                    anchored.add(tid)
                # The cue ball lost at rest may be struck while out of sight, however long:
                # hidden under the cue and the arm along its path, it is seen again anywhere.
                struck_unseen = track.key == "cue" and not (track.moving or self._in_play(track))
                # So may an object ball hit while out of sight (under the cue, beside the
                # arm), from the moment it was hit.
                hit_unseen_at = (
                    track.reached_at
                    if track.reached_at is not None
                    and track.missing_since is not None
                    and track.missing_since < track.reached_at
                    else None
                )
                # Rolling, a ball goes no faster, off a cushion too, unless a ball hits it:
                # lost in motion (under an arm, the cue ball under the cue it came back to),
                # it is as far on as that takes it, however long it was out of sight. (Only
                # once it has been out of sight a while, for the cue ball: lost as it meets a
                # ball, its last step is the two balls' blob's, no measure of its way on.)
                # (Lost going into a cushion at its touching line, it may have jumped it: it
                # is looked for only back off the cushion; the shot's end tells whether it
                # left the table.)
                to_cushion, meet, rail = self._cushion_ahead(track)
                into_cushion = track.speed > 0 and to_cushion * track.speed < BALL_RADIUS_MM
                paced = (
                    track.speed > 0
                    and track.key is not None
                    and not at_a_pocket
                    and not self._may_be_hit(track, t)
                )
                rolling = paced and (track.key != "cue" or dt > MISSING_REACH_S)
                # The cue ball in play, however long lost in its shot, may be anywhere its
                # colour says, even seen still a moment before: its spin sets it going again
                # (drawn back off a ball it met full, fresh 39's 1015). Not from a pocket's
                # mouth (fresh 36's 926), nor after its shot: lost then, it is in the
                # player's hand (fresh 35's 912, carried in over a cushion after a scratch).
                far = may_have_moved and (
                    dt <= MISSING_REACH_S
                    or struck_unseen
                    or hit_unseen_at is not None
                    or (rolling and track.moving)
                    or (
                        self._cue_ball_going(track)
                        and not at_a_pocket
                        and not self.lost_in_an_ended_shot(track)
                    )
                )
                speed, unseen = MAX_SPEED_MM_S, dt if hit_unseen_at is None else t - hit_unseen_at
                # Rolling, until it can have reached a cushion it is on its line (if its line
                # is known: a step measured across a bounce is short for its pace).
                on_its_line = (
                    rolling and dt < to_cushion and track.speed >= LINE_KEPT_SHARE * track.pace_in
                )
                if at_a_pocket:
                    # Out of the mouth it is in sight again: only its way out went unseen.
                    speed, unseen = JAW_REBOUND * track.pace_in, min(dt, MOTION_LOOKBACK_S)
                elif on_its_line:
                    speed = SPEED_NOISE_MM_S
                elif rolling or (
                    # Struck a while ago, the cue ball goes no faster than it went either, though
                    # its line may not be kept (fresh 35's 913: lost as it met the 3, its track
                    # jumped 190 mm back to the cue's tip, left lying on the cloth).
                    paced
                    and track.key == "cue"
                    and track.left_at is not None
                    and track.t - track.left_at > FIRST_STEPS_S
                    and may_have_moved
                ):
                    # (At its pace: a step measured across a bounce understates it.)
                    speed = track.fastest_unseen
                gate = 2 * BALL_RADIUS_MM + speed * (unseen if far else 0.0)
                # (An object ball rolling into one at rest nearly full on goes no farther
                # along its line than where it meets it: fresh 8's 237.)
                met = self._met_full_on(track, t) if rolling and track.key != "cue" else None
                ahead = track.predicted(t) if met is None else met
                if on_its_line:
                    # (Slowing down, it is short of where its speed was taking it.)
                    dist = point_segment_distance(found, track.xy, ahead)
                else:
                    # A ball that met another or a cushion is no longer where its speed was
                    # taking it, but near where it met it.
                    dist = np.minimum(
                        np.linalg.norm(found - ahead, axis=1),
                        np.linalg.norm(found - track.xy, axis=1),
                    )
                if self._off_its_spot_once(track):
                    # Its one step off its spot runs from where it was last seen at rest,
                    # maybe before it was hit: its way is known, not its pace (fresh 23's
                    # 620: the 10, struck off at 4 m/s, measured at 2 over two frames, was
                    # taken a frame on by the cue ball's track, struck out of sight).
                    far_on = track.xy + track.velocity / track.speed * MAX_SPEED_MM_S * dt
                    dist = np.minimum(dist, point_segment_distance(found, track.xy, far_on))
                unlike = unlikes[row]
                if tid in still or tid in anchored:
                    gate = BALL_RADIUS_MM
                beyond = (dist > BALL_RADIUS_MM) & (dist <= gate) & (unlike <= MAX_COLOUR_GAP)
                coming = np.zeros(len(found), bool)
                if np.count_nonzero(beyond) and self._spot_covered(track, looks_from):
                    if track.key == "cue" and not self._spot_covered(
                        track, looks_from, COVERED_REACH_RADII
                    ):
                        # Only its own square covered, not as by a hand: the cue following
                        # through over it (blurred by a soft lens), or a fingertip with the
                        # cue's ferrule coming at it. Struck away, the cue ball shows where
                        # nothing was a frame ago. (Balls passing over an object ball's
                        # spot in a break cover it so too: it is not struck by the cue.)
                        coming = self._seen_coming(found, track)
                    else:
                        gate = BALL_RADIUS_MM  # under a hand
                allowed = (
                    (dist <= gate)
                    & (unlike <= MAX_COLOUR_GAP)
                    & ~taken
                    & ~coming
                    & ~self._back_towards_its_hitter(track, found, hit_unseen_at, t)
                    & ~self._back_along_the_cue(track, found, t)
                    & ~self._behind(track, found, t)
                    & ~self._towards_the_unseen_cue_ball(track, found, t)
                )
                if into_cushion and not at_a_pocket and not self._lost_meeting_a_ball(track):
                    allowed &= self._off_the_cushion(track, found, meet, rail)
                if np.count_nonzero(dark) and not self._may_look_dark(track):
                    allowed &= ~dark  # a black ball's darkness, or a shadow's: not this ball
                if np.count_nonzero(faint) and not (track.faint or self.at_a_pocket(track)):
                    # A ball that stands out of the cloth is found as a change: a faint spot
                    # is none of it (fresh 34's 894: the cue ball, rolling clear of a corner,
                    # jumped back to the shaft of the cue beside the mouth the 2 was lost in).
                    allowed &= ~faint
                if track.key == "cue" and looks_from is not None:
                    if dim is None:
                        dim = self._dimmer_than_the_cue_ball(
                            detections.discs, looks_from[1], cloth_under
                        )
                    allowed &= ~dim
                tip = followed[tid]
                if tip is not None:
                    allowed &= ~tip
                # Struck, the cue ball may be anywhere along its way by the next frame: there
                # its colour tells it from the cue's tip following through over its spot
                # (fresh 6's 177), not its nearness to the spot. So may the cue ball lost in
                # play a while (meeting a ball out of sight), anywhere its pace takes it.
                lost_going = self._cue_ball_going(track) and dt > MOTION_LOOKBACK_S
                # So may a ball just hit hard (its way not yet measured, it may be a radius
                # on and more): its colour tells it from the pieces of its hitter's blur
                # beside it (fresh 8's 244), and from the cue ball struck into it
                # point-blank (fresh 18's 478). (Hit softly, it is where it was.)
                just_hit = (
                    track.reached_at is not None
                    and t - track.reached_at <= JUST_HIT_S
                    and track.reached_speed * dt > BALL_RADIUS_MM
                ) or self._by_the_vanished_cue_ball(track, t)
                # (Lost in a pocket's mouth, it comes back out where it went in, if at all: how
                # far from there does say (fresh 30's 796: the 6, hit hard into a corner, took
                # the cue ball back off the cushion 118 mm away, rather than its own track 27.)
                anywhere = (struck_unseen or lost_going or just_hit) and not at_a_pocket
                weight = STRUCK_DISTANCE_WEIGHT if anywhere else 1.0
                cost[row] = np.where(allowed, weight * dist + unlike * MM_PER_COLOUR_UNIT, np.inf)
            cost[:, list(again.values())] = np.inf
            pairs += [(rows[row], col) for row, col in assign(cost, max_cost=1e12)]
        matched_tracks = set()
        matched_found = set()
        for tid, col in pairs:
            track = self.tracks[tid]
            xy = found[col]
            dt = max(t - track.t, 1e-3)
            if self._in_play(track):
                self._reached_out_of_sight(track, xy, t)
            track.velocity = (xy - track.xy) / dt
            # Jitter around its spot is not motion, nor is a ball that nothing could have
            # moved found a little off it (half under a hand, its disc is cut short), nor one
            # lost at rest found again a hair off a spot that looks as it did at rest (the
            # cue's tip beside it pulls its disc: fresh 15's 408); one that went away from
            # its spot and rolls back over it is going.
            off = np.hypot(*(xy - track.rest_xy)) if track.rest_xy is not None else np.inf
            if track.rest_xy is not None and (
                tid in anchored
                or (not track.strayed and off < MOVED_MM)
                or (
                    track.missing_since is not None
                    and track.in_reference
                    and not self._in_play(track)
                    and off < HALF_HIDDEN_OFF_MM
                    and not self._in_mask(track.rest_xy, mask)
                )
                or self._on_its_hitters_side(track, xy, t)
            ):
                track.velocity = np.zeros(2)
                xy = track.rest_xy
            if track.rest_xy is not None and np.hypot(*(xy - track.rest_xy)) > 2 * BALL_RADIUS_MM:
                track.strayed = True
            if not self._in_play(track):  # seen on its spot, or again after lost there
                track.hidden_at_rest = track.missing_since
                if track.rest_xy is not None and np.hypot(*(xy - track.rest_xy)) > MOVED_MM:
                    track.left_at = t
            track.note_pace(t)
            track.xy = xy
            track.t = t
            track.seen = True
            track.missing_since = None
            matched_tracks.add(tid)
            matched_found.add(col)
            disc = track.disc = detections.discs[col]
            if (
                as_at_rest is not None
                and tid in rows
                and track.moving
                and not track.faint
                and disc.cluster == 1
                and not (disc.streak or disc.dark)
                and as_at_rest[rows.index(tid), col] <= ROLLING_COLOUR_GAP
            ):
                track.rolling_colour, track.rolling_light = colours[col], float(cloth_under[col, 2])
            if (
                looks_from is not None
                and self.cloth is not None
                and disc.cluster == 1
                and not disc.streak
                and t - track.look_t >= LOOK_EVERY_S
            ):
                planes, y_half = looks_from
                look = look_at(planes, y_half, self.cloth, disc.x, disc.y, self.radius_px)
                look = dataclasses.replace(look, at_rest=not track.moving)
                track.looks = [*track.looks, look][-LOOK_HISTORY:]
                if not look.at_rest:
                    track.roll = track.roll.add(look)
                track.look_t = t
        for tid in candidates:
            if tid not in matched_tracks:
                track = self.tracks[tid]
                track.disc = None
                if tid in still:
                    track.seen, track.t = True, t
                elif track.missing_since is None:
                    track.missing_since = t
        # Unmatched detections are not new balls: a cue, an arm, a ball's shadow. Balls
        # appear (placed by hand, spotted) while the table is at rest, where settle() finds
        # them.

    def _found_as_before(
        self, candidates: list[int], discs: tuple[Disc, ...], t: float
    ) -> dict[int, int]:
        """The tracks at rest off their spots (in play) whose disc of the last frame is among
        `discs` as it was, with the index of each's."""
        index = {disc: col for col, disc in enumerate(discs)}
        again: dict[int, int] = {}
        for tid in candidates:
            track = self.tracks[tid]
            col = index.get(track.disc) if track.disc is not None else None
            if (
                col is not None
                and track.missing_since is None
                and not track.moving
                and self._in_play(track)
                and not self._dropped(track, t)
            ):
                again[tid] = col
        # (Two tracks last found as one disc are not told apart by it.)
        found_as = Counter(again.values())
        return {tid: col for tid, col in again.items() if found_as[col] == 1}

    def _hide_occluded(
        self,
        t: float,
        occluders: tuple[Occluder, ...],
        keep: set[int] | frozenset[int] = frozenset(),
    ) -> None:
        """Balls under an arm or a hand are out of sight, not somewhere else (except those in
        `keep`, seen just beside one)."""
        if not occluders or not self.tracks:
            return
        for tid in [tid for tid in self.tracks if tid not in keep]:
            track = self.tracks[tid]
            if self._covered(self._pixel(track.xy), occluders) and track.missing_since is None:
                track.missing_since = t

    def _covered(self, pixel: NDArray[np.float64], occluders: tuple[Occluder, ...]) -> bool:
        """Whether a ball at `pixel` would be under or against one of `occluders`."""
        x, y = float(pixel[0]), float(pixel[1])
        return any(o.distance(x, y) > -self.radius_px for o in occluders)

    # -- at rest -----------------------------------------------------------------------------

    def settle(
        self, t: float, planes: Planes, y_half: U8 | None = None, after_shot: bool = False
    ) -> None:
        """Re-find every ball at rest, re-identify them, and take this frame as the reference.

        Balls not found stay known but out of sight (under an arm, in a hand, in a pocket):
        only the shot's analysis, or a ball of the same id appearing elsewhere, ends them.
        """
        assert self.cloth is not None
        y_half = planes.y_half() if y_half is None else y_half
        colour, dark = self.cloth.foreground(y_half, planes.u, planes.v)
        detections = detect(
            colour,
            dark,
            self.radius_px / 2,
            dark_balls=self._dark_wanted(),
            expected=len(self.on_table),
        )
        discs, found = self._not_openings(
            list(self._unclipped(detections.discs)), planes, y_half, t
        )
        # One more than the rules' count is looked for: a shadow found as a ball must not
        # crowd out a faint one (identification keeps the likelier).
        faint: list[Disc] = []
        if len(discs) <= len(self.on_table):
            faint = faint_discs(
                (y_half, planes.u, planes.v),
                self.cloth.table_mask,
                discs,
                self.radius_px / 2,
                len(self.on_table) + 1 - len(discs),
                self._where_balls_show(detections.occluders),
            )
            faint, faint_found = self._not_openings(faint, planes, y_half, t)
            discs += faint
            found = np.vstack([found, faint_found])
        # A ball cannot rest over a pocket's hole: a blob there is the hole.
        restable = self._can_rest(found)
        discs = [d for d, ok in zip(discs, restable, strict=True) if ok]
        found = found[restable]
        # The cue ball put down by hand, between shots: a new ball while it was wanted (known,
        # and out of sight: asked before anything is re-found), or the cue ball followed away
        # from its spot.
        in_hand = (
            not after_shot
            and any(track.key == "cue" for track in self.tracks.values())
            and self.cue_ball_wanted()
        )
        # A ball at rest where nothing changed since the last rest has not moved: measured
        # again in a crowd it would only move by the split's noise, a disc farther off is not
        # it, and it is in sight whatever lies beside it (fresh 60's 1526: the green 6 on
        # green cloth, held under a blob by it and not found on its spot, took its own
        # shadow 47 mm off, and was lost when hit from there).
        since = self._changes(y_half, planes) if self._reference is not None else None

        def unmoved(track: Track) -> bool:
            """Whether a ball in sight at rest shows on its spot as at the last rest, and no
            ball came within reach of it (one of nearly the cloth's colour, hit, may leave
            its spot looking much the same)."""
            return (
                track.rest_xy is not None
                and track.missing_since is None
                and track.reached_at is None
                and not self._in_play(track)
                and (since is None or not self._in_mask(track.xy, since))
            )

        self._hide_occluded(
            t, detections.occluders, keep={tid for tid, tr in self.tracks.items() if unmoved(tr)}
        )
        self._occluders = detections.occluders
        tids = list(self.tracks)
        # The object balls felt dropping (asked before the lost are stopped below: a ball's
        # way into a pocket's mouth is its velocity).
        felt = {
            tid
            for tid in tids
            if self.tracks[tid].key != "cue" and self.felt_dropping(self.tracks[tid])
        }
        pairs = []
        looks = [look_at(planes, y_half, self.cloth, d.x, d.y, self.radius_px) for d in discs]
        if tids and len(found):
            colours = self._colours(discs, planes)
            cloth_under = self._cloth_under(found)
            cost = np.full((len(tids), len(found)), np.inf)
            for row, tid in enumerate(tids):
                track = self.tracks[tid]
                dist = np.linalg.norm(found - track.xy, axis=1)
                unlike = self._colour_gap(track, colours, cloth_under)
                reach = BALL_RADIUS_MM if unmoved(track) else 2 * BALL_RADIUS_MM
                cost[row] = np.where((unlike <= MAX_COLOUR_GAP) & (dist <= reach), dist, np.inf)
            pairs = assign(cost, max_cost=2 * BALL_RADIUS_MM)
            if after_shot:
                pairs += self._found_again(t, tids, pairs, found, colours, cloth_under, looks, felt)
        matched = {col: tids[row] for row, col in pairs}

        def kept(track: Track, xy: NDArray[np.float64]) -> bool:
            """Whether a ball in sight at rest, found again beside its spot, stays put."""
            return unmoved(track) and bool(np.hypot(*(xy - track.xy)) < BALL_RADIUS_MM)

        for tid in tids:
            if tid not in matched.values() and not unmoved(self.tracks[tid]):
                track = self.tracks[tid]
                track.missing_since = track.missing_since if track.missing_since is not None else t
                track.velocity, track.in_reference = np.zeros(2), False
                # At rest, its spot in plain sight and changed: a hand took it, and the cloth
                # seen there now is no sign of it coming back.
                if (
                    not after_shot
                    and since is not None
                    and self._in_mask(track.xy, since)
                    and not self.by_an_arm(track)
                ):
                    track.rest_xy = None
        # New balls only for the ids no ball in sight holds, chosen all at once by how well
        # they look like those balls: a hand, a cue, a shadow or a pocket's hole is not one
        # of the balls still in play.
        # (So does a ball out of sight that nothing can have moved: still under what hides
        # it, fresh 33's 865; and an object ball felt dropping: in the pocket, as in
        # _found_again.)
        held = {
            track.key
            for tid, track in self.tracks.items()
            if track.key is not None
            and (
                tid in matched.values()
                or unmoved(track)
                or not self._may_have_moved(track, t)
                or tid in felt
                or self._not_out_of_its_pocket_yet(track, t)
            )
        }
        newcomers = [col for col in range(len(found)) if col not in matched]
        free = [key for key in sorted(self.on_table, key=str) if key not in held]
        doubts = [_doubt(discs[col]) for col in newcomers]
        chosen = identify(
            [looks[col] for col in newcomers], free, max_cost=NEW_BALL_COST, doubts=doubts
        )
        accepted = {newcomers[row] for row in chosen}
        stayed = set()
        put_down = []
        # How each rolled since the last rest (taken before it is found at rest anew).
        rolls = {tid: track.roll for tid, track in self.tracks.items()}
        for col, xy in enumerate(found):
            known = matched.get(col)
            if known is None:
                if col not in accepted:
                    continue
                tid = self._next_id
                self._next_id += 1
                self.tracks[tid] = Track(None, xy, t)
                if in_hand:
                    put_down.append(tid)
            else:
                tid = known
            track = self.tracks[tid]
            # (Followed there from where it was taken up, between shots.)
            if (
                not after_shot
                and track.key == "cue"
                and track.rest_xy is not None
                and np.hypot(*(xy - track.rest_xy)) > BALL_RADIUS_MM
            ):
                put_down.append(tid)
            if known is not None and kept(track, xy):
                stayed.add(tid)
            else:
                track.xy = xy
            self._found_at_rest(track, t, discs[col], looks[col], planes)
        self._identify(stayed, rolls, after_shot, put_down[0] if len(put_down) == 1 else None, felt)
        self._find_cue_look_alikes()
        self._take_reference((y_half, planes.u, planes.v), detections.occluders)

    def _found_at_rest(
        self, track: Track, t: float, disc: Disc, look: Look, planes: Planes
    ) -> None:
        """A ball found at rest where `track.xy` is, as `disc` and looking like `look`."""
        track.t, track.rest_xy = t, track.xy.copy()
        track.velocity, track.reached_at, track.hidden_at_rest = np.zeros(2), None, None
        track.reached_from, track.reached_way, track.cue_from = None, None, None
        track.left_at, track.strayed, track.in_reference = None, False, True
        track.seen, track.missing_since = True, None
        # Only what it looks like now: tracks can swap in a crowd, so a look from before this
        # rest may belong to another ball. A ball in a cluster is looked at too (its middle
        # is its own), which is how a rack gets its ids.
        track.looks = [look]
        track.rest_look, track.roll = look, Roll()
        track.colour = self._colours([disc], planes)[0]
        cloth_here = self._cloth_under(track.xy[None, :])
        track.colour_light = float(cloth_here[0, 2])
        track.rolling_colour = None
        # (By its chroma only when it is mostly coloured: white and black have none, yet stand
        # out of any cloth by their brightness.)
        track.cloth_coloured = look.colour >= COLOURED_LOOK and bool(
            self._colour_gap(track, cloth_here[:, :2], cloth_here, blur=0.0)[0] < CLOTH_LIKE_GAP
        )
        track.faint = disc.faint or disc.dark or track.cloth_coloured

    def take_placed_cue_ball(self, t: float, planes: Planes) -> None:
        """Look for the cue ball put down by hand while an arm or a cue is still over the
        table, moving (a player down on the shot at once, stroking): in the open only, away
        from the object balls known and from the arms, and plainly the cue ball; the rest of
        the table is left as it was (re-found once it is clear, or the shot is over)."""
        assert self.cloth is not None and self._reference is not None
        if any(self._not_out_of_its_pocket_yet(track, t) for track in self.tracks.values()):
            return
        y_half = planes.y_half()
        colour, dark = self.cloth.foreground(y_half, planes.u, planes.v)
        detections = detect(colour, dark, self.radius_px / 2, expected=len(self.on_table))
        discs, found = self._not_openings(
            list(self._unclipped(detections.discs)), planes, y_half, t
        )
        # (The cue ball's own last spot does not count: it may be put back near where it was
        # taken up.)
        known = np.array([tr.xy for tr in self.tracks.values() if tr.key != "cue"]).reshape(-1, 2)
        open_cloth = self._where_balls_show(detections.occluders)
        best: tuple[float, int, Look] | None = None
        for i, (disc, xy) in enumerate(zip(discs, found, strict=True)):
            if len(known) and np.hypot(*(known - xy).T).min() < 2 * BALL_RADIUS_MM:
                continue
            if not self._in_mask(xy, open_cloth, radii=0.0) or not self._can_rest(xy[None])[0]:
                continue
            look = look_at(planes, y_half, self.cloth, disc.x, disc.y, self.radius_px)
            cost = id_cost(look, "cue")
            if cost <= FOUND_AGAIN_COST and (best is None or cost < best[0]):
                best = (cost, i, look)
        if best is None:
            return
        _, i, look = best
        for tid in [tid for tid, track in self.tracks.items() if track.key == "cue"]:
            del self.tracks[tid]
        track = Track("cue", found[i], t)
        self._found_at_rest(track, t, discs[i], look, planes)
        self.tracks[self._next_id] = track
        self._next_id += 1
        self._find_cue_look_alikes()
        # Its spot is part of the table at rest now: struck away, it leaves a change there.
        spot = np.zeros_like(y_half)
        centre = _half_res(np.array([discs[i].x, discs[i].y]))
        cv2.circle(
            spot,
            (round(float(centre[0])), round(float(centre[1]))),
            round(self.radius_px * PLACED_SPOT_RADII / 2),
            (255,),
            -1,
        )
        spot[self._around(detections.occluders) > 0] = 0
        now = (y_half, planes.u, planes.v)
        y, u, v = (
            np.where(spot > 0, new, was) for was, new in zip(self._reference, now, strict=True)
        )
        self._reference = (y, u, v)

    def _not_out_of_its_pocket_yet(self, track: Track, t: float) -> bool:
        """Whether the cue ball went down a pocket too short a while ago to be back on the
        cloth: it has to be taken out and put down by hand first (PLACED_AFTER_DROP_S), and
        what looks like it till then is something else (fresh 40's 1035: the cue's white
        ferrule and tip, the stick held still over the cushion after the cue ball went
        straight into the side pocket, were taken for it put down 0.66 s later; drawn back,
        they were a shot of their own, the cue ball off the table)."""
        return (
            track.key == "cue"
            and track.missing_since is not None
            and self.at_a_pocket(track)
            and t - track.missing_since < PLACED_AFTER_DROP_S
        )

    def _take_reference(self, now: tuple[U8, U8, U8], occluders: tuple[Occluder, ...]) -> None:
        """This frame becomes the table at rest, except under an arm or a cue over it, where
        the cloth last seen stays: what leaves is not a change, what it uncovers is."""
        if not self._reaching(occluders) or self._reference is None:
            self._reference = (now[0].copy(), now[1].copy(), now[2].copy())
            return
        covered = self._around(occluders) > 0
        y, u, v = (
            np.where(covered, was, new) for was, new in zip(self._reference, now, strict=True)
        )
        self._reference = (y, u, v)

    def _found_again(
        self,
        t: float,
        tids: list[int],
        pairs: list[tuple[int, int]],
        found: NDArray[np.float64],
        colours: NDArray[np.float64],
        cloth: NDArray[np.float64],
        looks: list[Look],
        felt: Collection[int],
    ) -> list[tuple[int, int]]:
        """Balls lost in play that came to rest somewhere unexplained: matched by colour
        (`looks`: each detection's, from look_at), an object ball lost rolling no farther than
        its pace took it (_within_its_pace); not an object ball a pocket felt dropping
        (`felt`).

        No ball appears on its own during a shot, so a ball at rest that no track explains
        is one the tracker lost on the way (behind an arm, in a crowd). An object ball lost in
        a pocket's mouth that the pocket's sensor felt drop since is in the pocket (fresh 30's
        796: the 6, potted, found again as a pale patch of cloth, later taken for the 1); the
        cue ball comes back, in hand. One lost at rest that nothing reached is still where it
        was, under what hides it (fresh 33's 865: the green 6 under the player, the cue ball
        scratched without a contact, found again as a green patch of cloth by the cue).
        """
        rows = [r for r in range(len(tids)) if r not in {p[0] for p in pairs}]
        lost = [(r, self.tracks[tids[r]]) for r in rows]
        rows = [
            r
            for r, track in lost
            if track.missing_since is not None
            and tids[r] not in felt
            and self._may_have_moved(track, t)
        ]
        cols = [c for c in range(len(colours)) if c not in {p[1] for p in pairs}]
        if not rows or not cols:
            return []
        cost = self._colour_gaps([self.tracks[tids[r]] for r in rows], colours[cols], cloth[cols])
        # Chroma alone does not tell the white cue ball or the black 8 from grey cloth in the
        # shade: what it is found as must look like it too.
        for i, r in enumerate(rows):
            key = self.tracks[tids[r]].key
            if key is not None:
                ids = np.array([id_cost(looks[c], key) for c in cols])
                if key in STRIPES:
                    # A stripe's colour turns with it (mostly white, or mostly its colour,
                    # whichever way up it stops): its look, stripe and all, tells it.
                    cost[i] = ids * (MAX_COLOUR_GAP / FOUND_AGAIN_COST)
                cost[i, ids > FOUND_AGAIN_COST] = np.inf
            cost[i, ~self._within_its_pace(self.tracks[tids[r]], t, found[cols])] = np.inf
        return [(rows[i], cols[j]) for i, j in assign(cost, max_cost=MAX_COLOUR_GAP)]

    def _within_its_pace(
        self, track: Track, t: float, found: NDArray[np.float64]
    ) -> NDArray[np.bool_]:
        """Which of `found` an object ball lost rolling may have come to rest at by `t`: it
        goes no faster than it went, off a cushion or a pocket's jaws too (JAW_REBOUND), unless
        a ball reached it since (fresh 37's 964: the 1, lost rolling at 0.13 m/s, was named at
        the shot's end at a faint patch of cloth 1.9 m on, 1.7 s later). The cue ball may
        come back in hand anywhere, and a ball lost at rest that a ball reached may be
        anywhere its hit sent it."""
        lost = track.missing_since
        if (
            lost is None
            or track.key in (None, "cue")
            or not track.moving
            or (track.reached_at is not None and track.reached_at >= lost)
        ):
            return np.ones(len(found), bool)
        reach = 2 * BALL_RADIUS_MM + track.fastest_unseen * (t - track.t)
        return np.asarray(np.hypot(*(found - track.xy).T) <= reach)

    def found_untaken(self) -> list[NDArray[np.float64]]:
        """What the latest frame found (table points) that no ball in sight is at."""
        seen = [track.xy for track in self.tracks.values() if track.missing_since is None]
        return [
            xy
            for xy in self._latest_found
            if all(math.dist(xy, other) > BALL_RADIUS_MM for other in seen)
        ]

    def cue_look_alikes(self) -> list[Track]:
        """The balls that may be the cue ball as well as the one named so (see
        _find_cue_look_alikes)."""
        return list(self._cue_look_alikes)

    def swap_with_the_cue_ball(self, track: Track) -> None:
        """`track`'s ball is the cue ball (struck), and the one named so is the ball it was
        named."""
        for other in self.tracks.values():
            if other.key == "cue":
                other.key = track.key
        track.key = "cue"
        self._find_cue_look_alikes()

    def _find_cue_look_alikes(self) -> None:
        """Note the balls whose looks at rest would fit the cue ball's name about as well as
        their own, the ball named the cue ball theirs (within RENAME_MARGIN), and those that
        look as white as a cue ball whatever the names: a 9 with its band turned under, as
        white as the cue ball beside it, is named the 9 only because the cue ball looked a
        little whiter (fresh 15's 405: the two named each for the other by 5 and the strike
        unnoticed)."""
        self._cue_look_alikes = set()
        cue = next((tr for tr in self.tracks.values() if tr.key == "cue"), None)
        if cue is None or cue.rest_look is None:
            return
        for track in self.tracks.values():
            if track is cue or track.key is None or track.rest_look is None:
                continue
            named = id_cost(track.rest_look, track.key) + id_cost(cue.rest_look, "cue")
            swapped = id_cost(track.rest_look, "cue") + id_cost(cue.rest_look, track.key)
            if (
                swapped < named + RENAME_MARGIN
                or id_cost(track.rest_look, "cue") <= WHITE_AS_CUE_COST
            ):
                self._cue_look_alikes.add(track)

    def rename_by_roll(self) -> dict[int, BallKey]:
        """Look-alike balls named anew by how they looked rolling since their last rest
        (renamed_by_roll), before the table at rest is identified again: the tracks renamed,
        with their new names."""
        alike = [
            (tid, track.key, track.rest_look)
            for tid, track in self.tracks.items()
            if track.key in LOOK_ALIKES and track.rest_look is not None
        ]
        names = renamed_by_roll(
            [
                (key, look, self.tracks[tid].roll)
                for tid, key, look in alike
                if key is not None and look is not None
            ]
        )
        renamed = {
            tid: name for (tid, key, _), name in zip(alike, names, strict=True) if name != key
        }
        for tid, name in renamed.items():
            self.tracks[tid].key = name
        if renamed:
            self._find_cue_look_alikes()
        return renamed

    def _identify(
        self,
        stayed: set[int],
        rolls: dict[int, Roll],
        after_shot: bool = False,
        put_down: int | None = None,
        felt: Collection[int] = (),
    ) -> None:
        """Ids for the balls in sight (and, after a shot, for those it took off the table),
        by their looks at rest and how they looked rolling there (`rolls`); `felt`, the
        balls out of sight that a pocket felt dropping.

        A ball that stayed on its spot since the last rest is the ball it was, unless its look
        plainly says otherwise: a 9 with its stripe turned under looks all white, like the
        cue ball placed by hand meanwhile. The one ball that appeared while the cue ball was
        in hand (`put_down`) is the cue ball, whatever the others look like: no other ball
        comes onto the table by hand but the 10, spotted, and a 9 resting with its stripe
        under looks whiter than a cue ball with its red dot up."""
        visible = [tid for tid, tr in self.tracks.items() if tr.missing_since is None]
        if put_down is not None:
            visible.remove(put_down)
        combined = [Look.combine(self.tracks[tid].looks) for tid in visible]
        usable = [i for i, look in enumerate(combined) if look is not None]
        looks = [look for look in combined if look is not None]
        # A ball followed into a pocket's mouth and lost there went down: after a scratch,
        # the 9 at rest is not the cue ball (its white half showing) for want of one, nor
        # the 3 in dim light the 1 just potted. So did one a pocket felt dropping (fresh 39's
        # 1006: the 8, lost 133 mm from a corner going in along the cushion and felt there,
        # gave its name to the 10 resting with its dark band up).
        dropped = (
            {tr.key for tid, tr in self.tracks.items() if self.at_a_pocket(tr) or tid in felt}
            if after_shot
            else set()
        )
        candidates = sorted(
            self.on_table - dropped - ({"cue"} if put_down is not None else set()), key=str
        )
        was = [self.tracks[visible[i]].key if visible[i] in stayed else None for i in usable]
        followed = [
            self.tracks[visible[i]].key if visible[i] not in stayed else None for i in usable
        ]
        rolled = [rolls.get(visible[i], Roll()) for i in usable]
        assigned = identify(looks, candidates, was, followed=followed, rolls=rolled)
        for tid in visible:
            self.tracks[tid].key = None
        for index, key in assigned.items():
            self.tracks[visible[usable[index]]].key = key
        if put_down is not None:
            self.tracks[put_down].key = "cue"
        if not after_shot:
            self.forget_gone()

    def rolling_out_of_sight(self, t: float) -> bool:
        """Whether a ball lost in motion may be rolling yet, out of sight under an arm, a
        hand or the cue over the table now: lost in the open, short of any cushion it could
        have gone over and of the pockets, no longer ago than a ball at its speed takes to
        stop. (With nothing over the table, nothing hides it: a ball in a hand that swept
        it up, followed for a frame, is not rolling anywhere.)"""
        return bool(self._occluders) and any(
            track.missing_since is not None
            and track.moving
            and not self._in_a_mouth(track.xy)
            and self._cushion_ahead(track)[0] > track.missing_since - track.t
            and t - track.missing_since < self._hidden_rolling_for(track)
            for track in self.tracks.values()
        )

    def _hidden_rolling_for(self, track: Track) -> float:
        """How long a ball lost in motion may roll on out of sight: until it comes out from
        under what is over the table on its line, or stops under it (0: its line runs under
        nothing). (A ball is never so fast that it stays hidden under a hand-wide patch for
        long: one thought to be that fast has had its step measured across two balls.)
        Its line is known to HEADING_DOUBT_DEG either way: its last step, a blurred ball's
        a few centimetres long, may be off by that much, and an arm lying along its way
        hides it all along while a line that far off comes out from under it (fresh 20's
        531: the cue ball, 12 degrees off, hidden 0.85 s under the arm it rolled along)."""
        speed = track.speed
        x, y = track.velocity / max(speed, 1e-9)
        turns = (math.radians(d) for d in (0.0, HEADING_DOUBT_DEG, -HEADING_DOUBT_DEG))
        return max(
            self._hidden_along(
                track.xy,
                np.array([x * math.cos(a) - y * math.sin(a), x * math.sin(a) + y * math.cos(a)]),
                speed,
            )
            for a in turns
        )

    def _hidden_along(
        self, xy: NDArray[np.float64], heading: NDArray[np.float64], speed: float
    ) -> float:
        """How long a ball at `xy` rolling along `heading` at `speed` stays under what is
        over the table (_hidden_rolling_for)."""
        a = LONGEST_ROLL_DECELERATION_MM_S2
        roll_mm = speed * speed / (2 * a)
        table = self.calibration.table
        low = np.array([BALL_RADIUS_MM, BALL_RADIUS_MM])
        span = np.array([table.length, table.width]) - 2 * BALL_RADIUS_MM
        # Along its line a radius at a time, and back off the cushions it meets.
        steps = np.arange(0.0, roll_mm + BALL_RADIUS_MM, BALL_RADIUS_MM)
        run = np.mod(xy + heading * steps[:, None] - low, 2 * span)
        pixels = self.calibration.to_image(low + np.where(run > span, 2 * span - run, run))
        entered = False
        for s, pixel in zip(steps, pixels, strict=True):
            if self._covered(pixel, self._occluders):
                entered = True
            elif entered:
                # Out from under it after rolling s: s = v·t − a·t²/2.
                return float((speed - math.sqrt(max(speed * speed - 2 * a * s, 0.0))) / a)
        return speed / a if entered else 0.0

    def by_an_arm(self, track: Track) -> bool:
        """Whether a ball where `track` is would be under or against an arm, a hand or a cue
        over the table in the latest frame."""
        return self._covered(self._pixel(track.xy), self._occluders)

    def cue_ball_wanted(self) -> bool:
        """The cue ball is out of sight, and not just under the arm or hand still over its
        spot: it dropped, or a hand took it (ball in hand) and may have put it down anywhere."""
        cue = [tr for tr in self.tracks.values() if tr.key == "cue"]
        if any(tr.missing_since is None for tr in cue):
            return False
        return not any(self.by_an_arm(tr) for tr in cue)

    def forget_gone(self) -> None:
        """A ball out of sight whose id is seen elsewhere was moved there (ball in hand, the
        10 spotted); one with no id, or no longer on the table, is forgotten."""
        seen_keys = {tr.key for tr in self.tracks.values() if tr.missing_since is None}
        for tid in [tid for tid, tr in self.tracks.items() if tr.missing_since is not None]:
            key = self.tracks[tid].key
            if key is None or key in seen_keys or key not in self.on_table:
                del self.tracks[tid]

    # -- helpers -----------------------------------------------------------------------------

    def _cloth_under(self, found: NDArray[np.float64]) -> NDArray[np.float64]:
        """The cloth model's (U, V, Y) under each table point: its colour, and the light."""
        return self._cloth_at(self._pixels(found))

    def _cloth_at(self, pixels: NDArray[np.float64]) -> NDArray[np.float64]:
        """The cloth model's (U, V, Y) at each (full-resolution) pixel."""
        if self.cloth is None or not len(pixels):
            return np.tile(np.array([0.0, 0.0, 1.0]), (len(pixels), 1))
        pixels = _half_res(pixels)
        rows = np.clip(np.round(pixels[:, 1]).astype(int), 0, self.cloth.u.shape[0] - 1)
        cols = np.clip(np.round(pixels[:, 0]).astype(int), 0, self.cloth.u.shape[1] - 1)
        light = np.maximum(self.cloth.y[rows, cols], 1.0)
        return np.stack([self.cloth.u[rows, cols], self.cloth.v[rows, cols], light], axis=1)

    def _colour_gap(
        self,
        track: Track,
        colours: NDArray[np.float64],
        cloth: NDArray[np.float64],
        blur: float = 0.3,
    ) -> NDArray[np.float64]:
        """How far each detection's colour is from the track's (_colour_gaps)."""
        return np.asarray(self._colour_gaps([track], colours, cloth, blur)[0])

    def _colour_gaps(
        self,
        tracks: Sequence[Track],
        colours: NDArray[np.float64],
        cloth: NDArray[np.float64],
        blur: float = 0.3,
    ) -> NDArray[np.float64]:
        """How far each detection's colour is from each track's (tracks, detections), blur
        allowed for and the light it is in (`cloth`: the cloth's colour and light under each,
        from _cloth_under); 0 for a track whose colour is not known.

        Motion blur mixes a ball's colour with the cloth's, so the distance is taken to the
        part of the line between the two that `blur` allows: a blurred cue ball is pale
        cloth, a hand is neither, and a ball of the cloth's colour is not a blurred other.
        """
        return self._colour_gaps_or_as_rolling(tracks, colours, cloth, blur, rolling=False)[0]

    @staticmethod
    def _colour_gaps_or_as_rolling(
        tracks: Sequence[Track],
        colours: NDArray[np.float64],
        cloth: NDArray[np.float64],
        blur: float,
        rolling: bool = True,
    ) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        """The colour gaps from each track's colour at rest (_colour_gaps), and the same or,
        where nearer, from its colour as last seen rolling (Track.rolling_colour), if asked."""
        at_rest = np.zeros((len(tracks), len(colours)))
        known = [i for i, track in enumerate(tracks) if track.colour is not None]
        if not known or not len(colours):
            return at_rest, at_rest
        seen = [i for i in known if rolling and tracks[i].rolling_colour is not None]
        looks = [_at_rest(tracks[i]) for i in known] + [_as_rolling(tracks[i]) for i in seen]
        gaps = _colour_gaps_from(looks, colours, cloth, blur)  # (one call: numpy's overhead)
        at_rest[known] = gaps[: len(known)]
        if not seen:
            return at_rest, at_rest
        nearer = at_rest.copy()
        nearer[seen] = np.minimum(at_rest[seen], gaps[len(known) :])
        return at_rest, nearer

    def _middle(self, disc: Disc, shape: tuple[int, ...]) -> tuple[slice, slice]:
        """The middle of a disc in a half-resolution plane of `shape`: its own colour and
        light, blur or not, without the cloth round its rim."""
        r = max(1, int(0.6 * self.radius_px / 2))
        hx, hy = round((disc.x - 0.5) / 2), round((disc.y - 0.5) / 2)
        return np.s_[
            max(0, hy - r) : min(shape[0], hy + r + 1), max(0, hx - r) : min(shape[1], hx + r + 1)
        ]

    def _colours(self, discs: Iterable[Disc], planes: Planes) -> NDArray[np.float64]:
        """Mean (U-128, V-128) over the middle of each disc: a ball's colour, blur or not."""
        out = []
        for disc in discs:
            window = self._middle(disc, planes.u.shape)
            u, v = planes.u[window], planes.v[window]
            out.append((_mean(u) - 128, _mean(v) - 128) if u.size else (0.0, 0.0))
        return np.array(out, dtype=np.float64).reshape(-1, 2)

    def _dimmer_than_the_cue_ball(
        self, discs: Sequence[Disc], y_half: U8, cloth: NDArray[np.float64]
    ) -> NDArray[np.bool_]:
        """Which discs are too dim in their middle to be the cue ball: white, it is brighter
        than the cloth it is on, and blur only mixes it with the cloth (the tuning's break,
        a streak at 12 m/s: 1.03 of the cloth's light); the black 8, which no colour tells
        from it, rolling at 2.6 m/s showed 0.58 (fresh 14's 392). (`cloth`: _cloth_under.)"""
        light = [y_half[self._middle(disc, y_half.shape)] for disc in discs]
        middle = np.array([_mean(y) if y.size else 0.0 for y in light])
        return middle < CUE_BALL_DIMMEST * cloth[:, 2]

    def _motions(self, t: float) -> tuple[Motion, ...]:
        """Where balls may be streaking, in half-resolution pixels: every moving ball where it
        is expected (_streaking_unseen: anywhere its speed has taken it since), and every ball
        at rest (it may just have been struck). A ball of the cloth's colour makes no streak,
        and out of sight it may be where a blob holds nothing of it: it is where it is only
        while it is seen (fresh 25's 667: the maroon 7 on red cloth, against a cushion, the
        cue ball creeping into it: one blob, two balls). Not one that rolled into a pocket's
        mouth and was lost there: it dropped, or comes back out as a ball seen afresh; the
        ball that follows it in is one ball, not two. (One lost at rest by a pocket is under
        an arm, and may be struck as any ball at rest.)"""
        moving = [
            tr
            for tr in self.tracks.values()
            if not (
                (tr.cloth_coloured and tr.missing_since is not None)
                or (self.at_a_pocket(tr) and self._in_play(tr))
            )
        ]
        if not moving:
            return ()
        scale = self.radius_px / 2 / BALL_RADIUS_MM  # half-resolution pixels per mm
        keys = [
            (
                *tr.xy.tolist(),
                *tr.velocity.tolist(),
                tr.speed * (t - tr.t) * scale if self._streaking_unseen(tr, t) else 0.0,
                not tr.cloth_coloured,
                self._in_play(tr),
            )
            for tr in moving
        ]
        # (Kept: a ball at rest is the same motion frame after frame.)
        return tuple(_kept(self._motion_cache, keys, self._motions_of))

    def _motions_of(self, keys: list[MotionKey]) -> list[Motion]:
        """Motions of (x, y, vx, vy, reach, streaks, in_play) in table millimetres (reach in
        half-resolution pixels)."""
        now = np.array([key[:2] for key in keys])
        later = now + np.array([key[2:4] for key in keys]) * 0.01
        both = _half_res(self._pixels(np.vstack([now, later])))
        here, there = both[: len(keys)], both[len(keys) :]
        return [
            Motion(
                float(a[0]),
                float(a[1]),
                float(b[0] - a[0]) * 100,
                float(b[1] - a[1]) * 100,
                reach,
                streaks=streaks,
                in_play=in_play,
            )
            for (*_, reach, streaks, in_play), a, b in zip(keys, here, there, strict=True)
        ]

    def _rolling_on_unseen(self, track: Track, t: float) -> bool:
        """Whether a ball lost in motion rolls on along its line out of sight: going, in the
        open (not in a pocket's mouth), with no ball in motion to hit it."""
        return (
            track.moving
            and track.key is not None
            and not self.at_a_pocket(track)
            and not self._may_be_hit(track, t)
        )

    @staticmethod
    def _streaking_unseen(track: Track, t: float) -> bool:
        """Lost a moment ago going fast enough to streak: off a cushion or a ball meanwhile,
        it may be streaking anywhere its speed took it. (Lost for longer, or slower, it is
        looked for as a disc.)"""
        return (
            track.missing_since is not None
            and track.speed >= FAINT_SEARCH_SPEED_MM_S
            and t - track.t <= MOTION_LOOKBACK_S
        )

    def _spot_covered(
        self, track: Track, planes: tuple[Planes, U8] | None, reach_radii: float = 1.0
    ) -> bool:
        """Whether a ball at rest has something over most of its spot (the square `reach_radii`
        out from its middle): it is under it (a hand about to take it up), not gone. A ball
        that left shows the cloth where it was, but for the thin cue following through."""
        share = self._spot_share(track, planes, reach_radii)
        return share is not None and share > COVERED_SPOT

    def _spot_share(
        self, track: Track, planes: tuple[Planes, U8] | None, reach_radii: float = 1.0
    ) -> float | None:
        """How much of a resting ball's spot (the square `reach_radii` out from its middle)
        is not the cloth now; None for a ball in play or no cloth model."""
        if planes is None or self.cloth is None or track.rest_xy is None:
            return None
        if track.moving or self._in_play(track):
            return None
        hx, hy = (round(v) for v in self._half_pixel(track.rest_xy))
        r = max(1, round(reach_radii * self.radius_px / 2))
        height, width = planes[1].shape
        box = (max(0, hx - r), max(0, hy - r), min(width, hx + r + 1), min(height, hy + r + 1))
        colour, dark = self.cloth.foreground(planes[1], planes[0].u, planes[0].v, box)
        return float(np.mean((colour > 1.0) | (dark > 1.0)))

    def _struck_from_under_the_cue(self, track: Track, planes: tuple[Planes, U8] | None) -> bool:
        """Whether the cue ball at rest has gone from its spot though the changes show none of
        it there: most of its disc differs from the table at rest. Struck away from under the
        cue, which follows through over its spot (its ferrule as white as the ball), it leaves
        a middle that looks as it did and a crescent of cloth either side of the cue, each
        thinner than the changes' noise filter lets through at 640x360 (fresh 37's 972: the
        cue ball looked still on its spot for 0.9 s while it rolled 600 mm away in plain
        sight, and its shot was found that late)."""
        if (
            planes is None
            or self._reference is None
            or track.key != "cue"
            or track.missing_since is not None
            or track.moving
            or self._in_play(track)
        ):
            return False
        now, y_half = planes
        hx, hy = (round(v) for v in self._half_pixel(track.xy))
        radius = self.radius_px / 2
        reach = math.ceil(radius)
        height, width = y_half.shape
        x0, y0 = max(hx - reach, 0), max(hy - reach, 0)
        window = np.s_[y0 : min(hy + reach + 1, height), x0 : min(hx + reach + 1, width)]
        diff = _difference(
            (y_half[window], now.u[window], now.v[window]),
            (self._reference[0][window], self._reference[1][window], self._reference[2][window]),
        )
        ys, xs = np.ogrid[y0 - hy : y0 - hy + diff.shape[0], x0 - hx : x0 - hx + diff.shape[1]]
        disc = xs * xs + ys * ys <= radius * radius
        return float(np.mean(diff[disc] > self._change_threshold)) >= LEFT_DISC_SHARE

    def _left_unseen(
        self, track: Track, t: float, mask: U8, planes: tuple[Planes, U8] | None
    ) -> bool:
        """Whether an object ball lost at rest left its spot: where it showed the ball it now
        shows bare cloth, nothing over it. A ball out of sight hit it away (fresh 19's 513:
        the 6 rolling fast past a side pocket, too faint to be seen, hit the 1); a ball under
        a hand or an arm is covered, and a faint ball still there shows as it did."""
        if (
            track.key in (None, "cue")
            or track.missing_since is None
            or track.reached_at is not None
            or track.cloth_coloured
            or not self._in_mask(track.xy, mask, STILL_CORE_RADII)
            or not self._a_hitter_may_have_come(track, t)
        ):
            return False
        share = self._spot_share(track, planes)
        return share is not None and share < BARE_SPOT

    def _hit_as_it_went(self, track: Track, t: float) -> bool:
        """Whether an object ball lost at rest, its spot now bare, was hit as it went out of
        sight (just now, with a ball in motion able to reach it by then: its hitter's blur
        over it hid it), not since. Fresh 59's 1518: the 6 cut away at 4.5 m/s by the cue ball,
        both lost in the frame of the hit; held hit a frame later, it was looked for no
        farther than two radii off, and its streak 107 mm on went to the cue ball's track,
        which took a cushion on the 6's way. (Lost under the cue with every ball in motion
        far off, it is hit no sooner than its spot shows bare: fresh 59's 1505.)"""
        since = track.missing_since
        if since is None or t - since > JUST_HIT_S:
            return False
        return any(
            other is not track
            and (other.moving or self._in_play(other))
            and np.hypot(*(other.xy - track.xy))
            <= 2 * BALL_RADIUS_MM + REACH_SLACK_MM + other.speed * abs(since - other.t)
            for other in self.tracks.values()
        )

    def _a_hitter_may_have_come(self, track: Track, t: float) -> bool:
        """Whether a ball may have hit `track`'s out of sight (or it was going itself): one
        in motion or in play, seen or lost, or the cue ball out of sight with the cue at it,
        within reach (a hand laid all over it strikes nothing). Else a spot gone bare is
        under something the cloth's colour (fresh 57's 1453: between shots a sleeve the
        cloth's blue swept over the 2, then the 4, the cue ball under the player's hand
        across the table; each, held hit, took what it was found as next, and a shot was
        found 2 s early)."""
        return any(
            other.moving or self._in_play(other) for other in self.tracks.values()
        ) or self._in_reach_of_the_unseen_cue_ball(track, t)

    def _seen_coming(self, found: NDArray[np.float64], track: Track) -> NDArray[np.bool_]:
        """Which detections continue one of the changed frame before that was not on the
        ball's spot: something already on its way, not the ball just struck off it."""
        before = self._previous_found
        if track.rest_xy is None or not len(before) or not len(found):
            return np.zeros(len(found), bool)
        before = before[np.hypot(*(before - track.rest_xy).T) >= BALL_RADIUS_MM]
        if not len(before):
            return np.zeros(len(found), bool)
        apart = np.linalg.norm(found[:, None, :] - before[None, :, :], axis=2)
        return np.asarray((apart < BALL_RADIUS_MM).any(axis=1))

    def _may_have_moved(self, track: Track, t: float) -> bool:
        """Whether a ball may be away from where it rested: one seen moving, the cue ball
        (struck under the cue, out of sight), or one a ball in motion may have reached. An
        object ball at rest moves only when a ball hits it (one that looks like the cue ball
        may be it, struck): under an arm it is still there, and what looks like a ball
        elsewhere meanwhile (the dark butt of a cue, a knuckle, a piece of the bridge hand
        over it) is not it."""
        if (
            track.key in (None, "cue")
            or track in self._cue_look_alikes
            or track.reached_at is not None
            or track.moving
            or track.rest_xy is None
            or self._in_play(track)
        ):
            return True
        # A push goes through balls frozen together at once, and moves those it reaches too
        # fast to be seen leaving: a rack's back row is gone as its apex is struck.
        frozen = self._frozen_with(track)
        hitters = {ball: self._ball_reaching(ball, t) for ball in frozen}
        if any(ball.reached_at is not None or hitters[ball] for ball in frozen):
            # Hit, they may be anywhere until they rest again, seen or not.
            for ball in frozen:
                if ball.reached_at is None:
                    hitter = hitters[ball]
                    ball.reached_at = t
                    ball.reached_from = None if hitter is None else hitter.xy.copy()
                    ball.reached_speed = 0.0 if hitter is None else hitter.speed
                    ball.reached_way = None if hitter is None else _heading(hitter)
            return True
        return any(self._in_reach_of_the_unseen_cue_ball(ball, t) for ball in frozen)

    def _frozen_with(self, track: Track) -> list[Track]:
        """`track` and the balls at rest frozen to it, one to the next: touching as far as
        positions at rest are measured (within REACH_SLACK_MM)."""
        chain, todo = [track], [track]
        while todo:
            ball = todo.pop()
            for other in self.tracks.values():
                if (
                    other not in chain
                    and other.rest_xy is not None
                    and not other.moving
                    and not self._in_play(other)
                    and math.hypot(*(other.xy - ball.xy)) <= 2 * BALL_RADIUS_MM + REACH_SLACK_MM
                ):
                    chain.append(other)
                    todo.append(other)
        return chain

    def _followed_the_cue(
        self, track: Track, found: NDArray[np.float64], t: float
    ) -> NDArray[np.bool_] | None:
        """Which detections carry on what the cue ball's track followed off its spot, when
        that was the cue, not the ball; None when it was the ball.

        Struck, the cue ball goes on away from its spot until it meets something; the cue's
        tip, following through over the spot, stops and draws back. A track that turns back
        towards the spot in its first moments, with no cushion or ball ahead to turn it,
        followed the tip (fresh 7's 218: the cue ball, struck along a cushion, unseen in its
        first frame, the tip seen 300 mm behind it): it is put back on its spot, struck and
        out of sight, to be found anywhere it can have gone but on the tip. So did one whose
        step off its spot went back along the cue aimed at it, with nothing ahead it could
        have come back off (fresh 30's 775: the cue's pale tip, 19 mm back, taken for the
        ball struck 49 mm ahead, then pieces of the shaft drawn back)."""
        rest = track.rest_xy
        if (
            track.key != "cue"
            or rest is None
            or track.left_at is None
            or t - track.left_at > FIRST_STEPS_S
            # (Out of sight long before it was seen off its spot, it came from anywhere.)
            or (
                track.hidden_at_rest is not None
                and track.left_at - track.hidden_at_rest > FIRST_STEPS_S
            )
            or not len(found)
        ):
            return None
        on_it = np.hypot(*(found - track.xy).T) < BALL_RADIUS_MM
        if (
            track.cue_from is not None
            and _back_towards(rest, track.cue_from, track.xy[None, :], MOVED_MM).any()
        ):
            # (Under the cue now or not: where it was last found is no way a struck ball goes.)
            if not self._struck_clear(track, t):
                return None
            track.xy, track.velocity = rest.copy(), np.zeros(2)
            return np.asarray(on_it | self._along_the_cue(track, found))
        gone = float(np.hypot(*(track.xy - rest)))
        if track.missing_since is not None or gone <= MOVED_MM:
            return None
        heading = (track.xy - rest) / gone
        back = (found - rest) @ heading < gone - MOVED_MM
        if not (on_it & back).any() or (on_it & ~back).any():
            return None
        # (On its way as fast as a ball goes: a cushion there, or a ball it would meet and
        # come back off to where the tip is as soon: fresh 44's 1128, the tip 18 mm behind
        # the cue ball a frame after the strike, the 2 it was to hit 190 mm ahead.)
        reach = TURN_BACK_REACH_SPEED_MM_S * (t - track.t) + BALL_RADIUS_MM
        if self._turned_back(track, heading, reach, found[on_it & back]).any():
            return None
        track.xy, track.velocity = rest.copy(), np.zeros(2)
        return np.asarray(on_it)

    def _turned_back(
        self, track: Track, heading: NDArray[np.float64], reach: float, to: NDArray[np.float64]
    ) -> NDArray[np.bool_]:
        """Which of the points `to` a ball going along `heading` from where it was last seen
        can have come back to, off a cushion or a ball it met, within `reach` in all (a ball
        touching it, met already, may have sent it anywhere in reach)."""
        ahead = track.xy + heading * reach
        if self._past_a_cushion(ahead):
            return np.ones(len(to), bool)
        back = np.zeros(len(to), bool)
        for other in self._balls_in_way(track, track.xy, ahead):
            there = max(float(np.hypot(*(other - track.xy))) - 2 * BALL_RADIUS_MM, 0.0)
            met = track.xy + heading * there
            back |= there + np.hypot(*(to - met).T) <= reach + REACH_SLACK_MM
        return back

    def _behind(self, track: Track, found: NDArray[np.float64], t: float) -> NDArray[np.bool_]:
        """Which detections lie behind a ball rolling on in plain sight that nothing could
        have turned back to them by now (a cushion, a ball: _turned_back): the cue following
        through over the spot it was struck from, not the ball. (A ball just struck rolls
        faster than its first, half-frame step showed, so its reach is taken generously.)"""
        speed = track.speed
        behind = np.zeros(len(found), bool)
        if track.missing_since is not None or speed < TURN_BACK_SPEED_MM_S:
            return behind
        heading = track.velocity / speed
        behind = (found - track.xy) @ heading < -BALL_RADIUS_MM
        if not np.count_nonzero(behind):
            return behind
        reach = max(speed, TURN_BACK_REACH_SPEED_MM_S) * max(t - track.t, 1e-3)
        return behind & ~self._turned_back(track, heading, reach + 2 * BALL_RADIUS_MM, found)

    def _towards_the_unseen_cue_ball(
        self, track: Track, found: NDArray[np.float64], t: float
    ) -> NDArray[np.bool_]:
        """Which detections an object ball at rest cannot have been sent to by the cue ball
        struck out of sight a moment ago: back towards where the cue ball was (a ball is
        driven away from what hits it; a piece of it beside the cue lying over it is not
        it). After longer the cue ball may have come round off a cushion."""
        towards = np.zeros(len(found), bool)
        if (
            track.key in (None, "cue")
            or track.rest_xy is None
            or track.moving
            or track.reached_at is not None
            or self._in_play(track)
        ):
            return towards
        for cue in self.tracks.values():
            if (
                cue.key != "cue"
                or cue.missing_since is None
                or t - cue.missing_since > DIRECT_HIT_S
            ):
                continue
            towards |= _back_towards(track.rest_xy, cue.xy, found, MOVED_MM)
        return towards

    def _back_towards_its_hitter(
        self, track: Track, found: NDArray[np.float64], hit_unseen_at: float | None, t: float
    ) -> NDArray[np.bool_]:
        """Which detections lie back on the side the ball that hit it came from: a ball hit
        goes off along the line of centres, never back past its spot towards where the
        hitter was as it reached it. Hit out of sight, however long since; hit in sight,
        for JUST_HIT_S (or while it is lost on its spot, never seen going: _lost_on_its_spot),
        and no farther back than it could have come off the cushion behind
        it at the hitter's pace (fresh 24's 649: the 10, 31 mm off the head cushion, hit
        full by the cue ball at 5 m/s, took the cue ball coming back off it, 58 mm on the
        cue ball's side 10 ms later and 150 mm 33 ms later), unless it rested against other
        balls, which may send it back (a rack's apex, broken)."""
        if track.reached_from is None:
            return np.zeros(len(found), bool)
        margin = BALL_RADIUS_MM
        if hit_unseen_at is None:
            if (
                track.reached_at is None
                or (t - track.reached_at > JUST_HIT_S and not self._lost_on_its_spot(track))
                or self._rested_against_others(track)
            ):
                return np.zeros(len(found), bool)
            margin = max(margin, self._back_off_the_cushion_behind(track, t - track.reached_at))
        back = _back_towards(track.xy, track.reached_from, found, margin)
        if track.rest_xy is not None:
            # (Nor back past the spot it was hit from: its track may have taken the two balls'
            # blob as they met, on the hitter's side of it (fresh 64's 1644: the 1, its track
            # 26 mm towards the cue ball in the frame of the hit, then took the cue ball itself,
            # 56 mm back past the 1's spot, over the 1's own streak).)
            back |= _back_towards(track.rest_xy, track.reached_from, found, margin)
            if hit_unseen_at is None:
                back |= self._across_its_hitters_way(track, found, t)
        return back

    def _across_its_hitters_way(
        self, track: Track, found: NDArray[np.float64], t: float
    ) -> NDArray[np.bool_]:
        """Which detections lie across the way its hitter came, from the side its spot was
        on: a ball hit goes off along the line of centres, to the side of the hitter's way
        that its centre lay on (unless it can have come back across off the cushion that
        side), as the hitter goes off to the other (fresh 66's 1690: the maroon 7 on red
        cloth, cut at 2.8 m/s beside the shooter's arm, merged with the arm's blob; its track
        took a piece of the hand 158 mm off, across the cue ball's way, and lost it)."""
        across = np.zeros(len(found), bool)
        if track.reached_way is None or track.reached_from is None or track.rest_xy is None:
            return across
        side = np.array([-track.reached_way[1], track.reached_way[0]])
        offset = float((track.rest_xy - track.reached_from) @ side)
        if abs(offset) < MOVED_MM:
            return across  # hit full on: it goes on along the hitter's way
        if offset < 0:
            side = -side
        assert track.reached_at is not None
        back = self._back_off_the_cushion_behind(track, t - track.reached_at, side)
        return np.asarray((found - track.rest_xy) @ side < -max(BALL_RADIUS_MM, back))

    def _back_off_the_cushion_behind(
        self, track: Track, since_s: float, sent: NDArray[np.float64] | None = None
    ) -> float:
        """How far back past where it was hit a ball hit `since_s` ago can have come, off the
        cushion it was sent towards (`sent`; by default away from where its hitter was) at
        its hitter's pace (negative: not back yet)."""
        assert track.reached_from is not None
        away = track.xy - track.reached_from if sent is None else sent
        behind, _ = self._to_a_cushion(track.xy, away)
        return track.reached_speed * since_s - 2 * behind

    def _on_its_hitters_side(self, track: Track, xy: NDArray[np.float64], t: float) -> bool:
        """Whether a ball just hit off its spot is found back of it towards its hitter
        (farther than it can have come off the cushion behind it): that is the two balls'
        blob as they meet, not a step of its own, which would give it a way back at its
        hitter (fresh 65's 1664: the 2, hit at 5 m/s, found 11 mm towards the cue ball in
        the frame of the hit, was given a way back along the cue ball's, and its own disc,
        120 mm on the other way, lay behind it: lost for 7 s)."""
        if (
            track.reached_from is None
            or track.reached_at is None
            or track.rest_xy is None
            or track.strayed
            or t - track.reached_at > JUST_HIT_S
            or self._rested_against_others(track)
        ):
            return False
        # (Hit at any time since it was last seen at rest.)
        since = t - min(track.reached_at, track.t)
        margin = max(MOVED_MM, self._back_off_the_cushion_behind(track, since))
        return bool(_back_towards(track.rest_xy, track.reached_from, xy[None, :], margin)[0])

    @staticmethod
    def _lost_on_its_spot(track: Track) -> bool:
        """Whether a ball is out of sight, never seen going since it left its spot: where a
        ball in sight hit it, it went off along the line of centres however long it is lost
        (fresh 42's 1082: the dim 4 on dark cloth, struck towards a corner, was lost 50 ms
        on; its track took a piece of the cue's tip 330 mm behind it 0.17 s later, whence,
        as it went back over the far cushion, the 4 was taken to have left the table)."""
        return track.missing_since is not None and not track.moving and not Tracker._in_play(track)

    def _rested_against_others(self, track: Track) -> bool:
        """Whether a ball rested frozen to another (as far as positions at rest tell)."""
        rest = track.rest_xy
        return rest is not None and any(
            other is not track
            and other.rest_xy is not None
            and math.hypot(*(other.rest_xy - rest)) <= 2 * BALL_RADIUS_MM + REACH_SLACK_MM
            for other in self.tracks.values()
        )

    def _to_a_cushion(
        self, xy: NDArray[np.float64], heading: NDArray[np.float64]
    ) -> tuple[float, int]:
        """How far a ball at `xy` goes along `heading` to a cushion's touching line, and
        which (0-3: head, foot, left, right); with no heading, never: (inf, -1)."""
        # (Plain numbers: every ball in motion asks this, many times a frame.)
        hx, hy = float(heading[0]), float(heading[1])
        length = math.hypot(hx, hy)
        if length < 1e-9:
            return math.inf, -1
        x, y = hx / length, hy / length
        px, py = float(xy[0]), float(xy[1])
        table = self.calibration.table
        gaps = (px, table.length - px, py, table.width - py)
        best, rail = math.inf, -1
        for r, (gap, closing) in enumerate(zip(gaps, (-x, x, -y, y), strict=True)):
            if closing > 0:
                way = max(gap - BALL_RADIUS_MM, 0.0) / closing
                if way < best:
                    best, rail = way, r
        return best, rail

    def _back_along_the_cue(
        self, track: Track, found: NDArray[np.float64], t: float
    ) -> NDArray[np.bool_]:
        """Which detections lie back along the cue from the spot of the cue ball lost under
        it, as far as the bridge hand: struck, it went off ahead of the tip. (Farther back
        is no part of the cue near the table; there the cover was the player's body over
        the ball's way, not the cue: fresh 18's 497.) Unless a cushion or a ball lies as
        near ahead: off it the ball comes straight back along the cue (fresh 21's 571, the
        cue ball struck into the cushion 50 mm ahead; fresh 17's 472, into the 7 59 mm
        ahead), while the cue lingers over its spot."""
        if track.moving or self._in_play(track) or not self._struck_clear(track, t):
            return np.zeros(len(found), bool)
        return self._along_the_cue(track, found)

    def _along_the_cue(self, track: Track, found: NDArray[np.float64]) -> NDArray[np.bool_]:
        """Which detections lie back along the cue from the cue ball's spot, as far as the
        bridge hand."""
        assert track.rest_xy is not None and track.cue_from is not None
        near = np.hypot(*(found - track.rest_xy).T) <= CUE_REACH_MM
        return np.asarray(near & _back_towards(track.rest_xy, track.cue_from, found))

    def _struck_clear(self, track: Track, t: float) -> bool:
        """Whether the cue was at the cue ball's spot just now and nothing (a cushion, a
        ball) lies as near ahead of it, off which it could come straight back."""
        if track.cue_from is None or track.rest_xy is None or t - track.cue_from_t > STRUCK_AHEAD_S:
            return False
        rest = track.rest_xy
        way = rest - track.cue_from
        ahead = rest + way / max(float(np.hypot(*way)), 1e-9) * CUE_REACH_MM
        return not self._way_blocked(track, rest, ahead, where_they_rested=True)

    def _way_blocked(
        self,
        track: Track,
        start: NDArray[np.float64],
        end: NDArray[np.float64],
        where_they_rested: bool = False,
    ) -> bool:
        """Whether `track`'s ball going from `start` to `end` meets a cushion or a ball
        (_balls_in_way)."""
        return self._past_a_cushion(end) or bool(
            len(self._balls_in_way(track, start, end, where_they_rested))
        )

    def _past_a_cushion(self, xy: NDArray[np.float64]) -> bool:
        """Whether a ball's centre there would be past a cushion's touching line."""
        return bool(np.any(self.calibration.table.rail_gaps(xy[None, :])[0] < 0.0))

    def _balls_in_way(
        self,
        track: Track,
        start: NDArray[np.float64],
        end: NDArray[np.float64],
        where_they_rested: bool = False,
    ) -> NDArray[np.float64]:
        """Where the other balls are that `track`'s ball going from `start` to `end` meets
        (where each is, or `where_they_rested`: one it hit is gone from there since)."""
        others = np.array(
            [
                o.rest_xy if where_they_rested and o.rest_xy is not None else o.xy
                for o in self.tracks.values()
                if o is not track
            ]
        ).reshape(-1, 2)
        return others[
            point_segment_distance(others, start, end) <= 2 * BALL_RADIUS_MM + REACH_SLACK_MM
        ]

    def _note_the_cue_at_the_cue_ball(self, t: float, occluders: tuple[Occluder, ...]) -> None:
        """Where the cue over the spot of the cue ball, lost there at rest, or aimed at it
        seen there, comes from: the middle of what covers it round the spot (the shaft and
        the bridge hand lie back along the cue from the tip)."""
        track = next((tr for tr in self.tracks.values() if tr.key == "cue"), None)
        if (
            not occluders
            or track is None
            or track.rest_xy is None
            or track.moving
            or self._in_play(track)
        ):
            return
        spot = self._pixel(track.rest_xy)
        within = (1.0 if track.missing_since is not None else AIMED_REACH_RADII) * self.radius_px
        over = [o.outline for o in occluders if o.distance(*map(float, spot)) > -within]
        # (A shorter blob may be the ball itself, struck, merged with the tip behind it; not
        # one the cloth's edge cuts: the cue goes on over the cushion, where nothing is seen
        # to change (fresh 56's 1446: the cue ball 28 mm off a cushion, the cue over it from
        # beyond, 60 mm of it on the cloth; its tip, following through, taken for the ball).)
        reach = max((float(np.hypot(*(o - spot).reshape(-1, 2).T).max()) for o in over), default=0)
        if reach < OCCLUDER_REACH_RADII * self.radius_px and not any(
            self._off_the_cloth(o) for o in over
        ):
            return
        # (Its area, not its outline: a straight side's outline is two points.)
        near, far = (radii * self.radius_px for radii in CUE_SIDE_RADII)
        x0, y0 = (int(v - far) for v in spot)
        size = 2 * int(far) + 2
        area = np.zeros((size, size), np.uint8)
        cv2.fillPoly(area, [np.round(o - (x0, y0)).astype(np.int32) for o in over], (1,))
        rows, cols = np.nonzero(area)
        off = np.hypot(cols + x0 - spot[0], rows + y0 - spot[1])
        ring = (off >= near) & (off <= far)
        if not ring.any():
            return
        middle = np.array([[cols[ring].mean() + x0, rows[ring].mean() + y0]])
        back = self.calibration.to_table(middle)[0]
        if np.hypot(*(back - track.rest_xy)) < 2 * BALL_RADIUS_MM:
            return  # all round it (a hand over it): no way back told
        track.cue_from, track.cue_from_t = back, t

    def _may_be_hit(self, track: Track, t: float) -> bool:
        """Whether a ball in motion, or the cue ball out of sight, may just have hit it."""
        return self._on_a_path(track, t) or self._in_reach_of_the_unseen_cue_ball(track, t)

    def _on_a_path(self, track: Track, t: float) -> bool:
        """Whether a ball in motion may just have reached `track`'s ball (_on_path_of)."""
        return self._ball_reaching(track, t) is not None

    def _ball_reaching(self, track: Track, t: float) -> Track | None:
        """A ball in motion that may just have reached `track`'s ball (_on_path_of). Not the
        cue ball out of sight (_in_reach_of_the_unseen_cue_ball), unless it went out of
        sight in its first moments off its spot, a moment ago, under the cue following
        through: then what lay on its way straight on (fresh 66's 1692: the cue ball, struck
        8 mm from the 1, was seen 19 mm on and hidden the next frame; the 1, found 10 mm off
        its spot then 36 mm, was held unhit at rest and lost for 0.9 s), not anywhere it may
        have turned since (fresh 62's 1596: the cue ball at 4.8 m/s, out of sight as it met
        the 1, would have reached the 3 under the player's arm 230 mm back beside its way).
        (Lost later on its way, it met what it was lost by: the whole rack's break, its cue
        ball lost in the rack's blob, held to have hit the 4 there, which lost three
        cushions.)"""
        for other in self.tracks.values():
            if other is track or not (other.moving or self._in_play(other)):
                continue
            cue_ball_lost_at = other.missing_since if other.key == "cue" else None
            if cue_ball_lost_at is not None and (
                not other.moving
                or t - cue_ball_lost_at > JUST_HIT_S
                or other.left_at is None
                or cue_ball_lost_at - other.left_at > FIRST_STEPS_S
            ):
                continue
            if not self._dropped(other, t) and self._on_path_of(
                other, track, t, turned=cue_ball_lost_at is None
            ):
                return other
        return None

    def _by_the_vanished_cue_ball(self, track: Track, t: float) -> bool:
        """Whether an object ball at rest is within reach (as far as positions tell) of the
        cue ball that went out of sight a moment ago: it may have been struck into it
        point-blank, and gone off at the cue ball's speed (fresh 18's 478, the 9 7 mm from
        the cue ball, out of sight under the cue and the blob of the two; fresh 20's 536,
        the 4 11 mm from it, seen streaking off as the cue ball went on unseen)."""
        if track.key in (None, "cue") or track.moving or track.rest_xy is None:
            return False
        return self._in_reach_of_the_unseen_cue_ball(track, t, JUST_HIT_S, REACH_SLACK_MM)

    def _in_reach_of_the_unseen_cue_ball(
        self, track: Track, t: float, within_s: float = math.inf, slack_mm: float = 0.0
    ) -> bool:
        """Out of sight with the cue at it (not under a hand laid all over it) the cue ball
        may have been struck, as fast as any ball goes (until it is seen again, and where it
        went with it); `within_s` of going out of sight, and `slack_mm` allowed for where the
        two were seen. Not out of sight down a pocket: it strikes nothing until it is put
        back on the table (fresh 33's 865: after a scratch the 8, at rest across the table,
        took a speck of a cue's shadow 316 mm away, and started a shot). Nor, just struck,
        a ball behind it: it went away from the cue (fresh 58's 1494: the 8 5 mm from the
        cue ball, beside the cue, seen 7 mm off its spot past the cue in the frame the cue
        ball went out of sight going the other way, was held hit by it)."""
        return any(
            other is not track
            and other.key == "cue"
            and other.missing_since is not None
            and other.cue_from_t >= other.missing_since - STRUCK_AHEAD_S
            and t - other.missing_since <= within_s
            and np.hypot(*(other.xy - track.xy))
            <= 2 * BALL_RADIUS_MM + slack_mm + MAX_SPEED_MM_S * (t - other.missing_since)
            and not self._down_a_pocket(other)
            and not (t - other.missing_since <= JUST_HIT_S and _behind_the_cue_ball(other, track))
            for other in self.tracks.values()
        )

    def _reached_out_of_sight(self, mover: Track, found: NDArray[np.float64], t: float) -> None:
        """Note the balls at rest, out of sight, that `mover` may have hit on its way out of
        sight, now that it is `found` again: it may have turned off one anywhere its pace
        took it, not only on the line between where it was lost and found (the balls within
        two radii of a way from one to the other no longer than its pace allows)."""
        lost = mover.missing_since
        if lost is None:
            return
        budget = mover.pace_in * (t - mover.t) + REACH_SLACK_MM
        for other in self.tracks.values():
            if (
                other is mover
                or other.missing_since is None
                or other.reached_at is not None
                or other.rest_xy is None
                or other.moving
                or self._in_play(other)
            ):
                continue
            way = float(np.hypot(*(other.xy - mover.xy)) + np.hypot(*(other.xy - found)))
            if way - 4 * BALL_RADIUS_MM <= budget:
                other.reached_at = max(other.missing_since, lost)
                other.reached_from = mover.xy.copy()
                other.reached_speed = mover.pace_in
                other.reached_way = _heading(mover)

    def _met_full_on(self, track: Track, t: float) -> NDArray[np.float64] | None:
        """Where a ball rolling on meets a ball at rest on its way by now, nearly full on (its
        line within a radius of that ball's centre), if it does. Rolling, it goes on no
        farther along its line than about there: it stops, or follows on at a fraction of
        its speed, or goes off to a side, slower; the ball it met goes on along the line.
        (A thinner cut lets it go on nearly as it was.)"""
        speed = track.speed
        heading = track.velocity / speed
        reach = speed * (t - track.t)
        first = math.inf
        for other in self.tracks.values():
            if other is track or other.moving or other.rest_xy is None or self._in_play(other):
                continue
            between = other.xy - track.xy
            along = float(between @ heading)
            off = abs(float(between[0] * heading[1] - between[1] * heading[0]))
            if along <= 0.0 or off > BALL_RADIUS_MM:
                continue
            meets = along - math.sqrt((2 * BALL_RADIUS_MM) ** 2 - off * off)
            if 0.0 <= meets <= reach:
                first = min(first, meets)
        return None if math.isinf(first) else np.asarray(track.xy + heading * first)

    def _on_path_of(self, other: Track, track: Track, t: float, turned: bool = True) -> bool:
        """Whether a ball in motion may have hit `track`'s ball: its path over the last look
        back (from its spot if it left that since) on to where it is by now comes within two
        radii, measurement allowed for. A ball struck away from one beside it has not hit it:
        seen going, a ball does not hit one behind where it started (fresh 58's 1494: the 8 5
        mm from the cue ball's side, the cue ball struck away from it, the 8 seen 7 mm off
        its spot past the cue over it was held hit, and the first contact was the 8's). A
        ball lost in motion may have turned anywhere within its pace's reach since, unless
        not `turned`: then it went straight on.

        A ball lost in a pocket's mouth is in the mouth until it is seen coming out: it can
        have met only a ball beside where it was lost (rolling on unseen from there, it let
        a hidden ball across the table move).

        (Plain floats: during a break every moving ball asks this of every other, each frame.)
        """
        if self.at_a_pocket(other):
            gap = math.hypot(float(track.xy[0] - other.xy[0]), float(track.xy[1] - other.xy[1]))
            return gap <= 2 * BALL_RADIUS_MM + REACH_SLACK_MM
        ox, oy = float(other.xy[0]), float(other.xy[1])
        vx, vy = float(other.velocity[0]), float(other.velocity[1])
        speed = math.hypot(vx, vy)
        sx, sy = ox - vx * MOTION_LOOKBACK_S, oy - vy * MOTION_LOOKBACK_S
        if other.rest_xy is not None:
            rx, ry = float(other.rest_xy[0]), float(other.rest_xy[1])
            if math.hypot(ox - rx, oy - ry) < speed * MOTION_LOOKBACK_S:
                sx, sy = rx, ry
        ahead_s = t - other.t
        dx, dy = ox + vx * ahead_s - sx, oy + vy * ahead_s - sy
        px, py = float(track.xy[0]) - sx, float(track.xy[1]) - sy
        slack = REACH_SLACK_MM
        lost = other.missing_since is not None
        if lost and turned:  # lost in motion: it may have turned anywhere
            slack += speed * ahead_s
        along = px * dx + py * dy
        length2 = dx * dx + dy * dy
        if not (lost and turned) and along < -REACH_SLACK_MM * math.sqrt(length2):
            return False
        if along > 0:
            # Ahead of where it started: its blurred centre lags where it was.
            slack += speed * HALF_EXPOSURE_S
        f = min(max(along / length2, 0.0), 1.0) if length2 > 1e-12 else 0.0
        return math.hypot(px - f * dx, py - f * dy) <= 2 * BALL_RADIUS_MM + slack

    @staticmethod
    def _in_play(track: Track) -> bool:
        rest = track.rest_xy
        if rest is None:
            return False
        return math.hypot(float(track.xy[0] - rest[0]), float(track.xy[1] - rest[1])) > MOVED_MM

    @staticmethod
    def _off_its_spot_once(track: Track) -> bool:
        """Whether an object ball was seen going once since it left its spot (and not since).
        (Struck, the cue ball is looked for anywhere: see STRUCK_DISTANCE_WEIGHT.)"""
        return (
            track.key != "cue"
            and track.moving
            and track.left_at is not None
            and track.t == track.left_at
        )

    @staticmethod
    def _struck_step_only(track: Track) -> bool:
        """Whether the cue ball in motion is not yet seen going twice since it left its spot
        (_cue_ball_going): its one step is its blob's with the cue's tip in it, pulled back
        towards the cue, and tells not which way it went (fresh 40's 1036: struck beside a
        side pocket away from it, its one step went 22 mm towards it, and, lost in the
        mouth, it was held to coming back out there, and never found again as it crossed
        the table)."""
        return track.key == "cue" and track.moving and not Tracker._cue_ball_going(track)

    @staticmethod
    def _cue_ball_going(track: Track) -> bool:
        """Whether the cue ball was seen going twice since it left its spot: in play, not only
        found a step off it (under the cue's tip, or jittering as the player settles)."""
        return (
            track.key == "cue"
            and track.left_at is not None
            and track.t > track.left_at
            and Tracker._in_play(track)
        )

    def at_a_pocket(self, track: Track) -> bool:
        """Lost in a pocket's mouth: it dropped, or it comes back out right there."""
        return track.missing_since is not None and self._in_a_mouth(track.xy)

    def _cushion_ahead(self, track: Track) -> tuple[float, NDArray[np.float64], int]:
        """When (seconds after it was last seen) and where its line, at its speed, meets a
        cushion's touching line (never, where it is at rest), and which (0-3: head, foot,
        left, right)."""
        way, rail = self._to_a_cushion(track.xy, track.velocity)
        if rail < 0:
            return math.inf, track.xy, -1
        reach_t = way / track.speed
        return reach_t, track.xy + track.velocity * reach_t, rail

    def _off_the_cushion(
        self, track: Track, found: NDArray[np.float64], meet: NDArray[np.float64], rail: int
    ) -> NDArray[np.bool_]:
        """Which detections may be a ball lost going into a cushion (`rail`, met at `meet`:
        see _cushion_ahead): by where it was lost, or back off the cushion within
        REBOUND_CONE_DEG of its line mirrored there (spin bends a rebound), or, where that
        line meets the other cushion of a corner within a ball's width, back off both (a
        fast ball in a corner meets both between two frames: fresh 52's 1334, the 1 at
        6 m/s); not elsewhere, where one that jumped the cushion is not."""
        near = np.linalg.norm(found - track.xy, axis=1) <= 2 * BALL_RADIUS_MM
        if rail < 0:
            return np.asarray(near)
        out = track.velocity * (np.array([-1.0, 1.0]) if rail < 2 else np.array([1.0, -1.0]))
        off = near | _within_cone(found - meet, out, REBOUND_CONE_DEG)
        way, second = self._to_a_cushion(meet, out)
        if second >= 0 and second // 2 != rail // 2 and way <= 2 * BALL_RADIUS_MM:
            # (Back off both: each way reversed.)
            off |= _within_cone(
                found - (meet + out / np.hypot(*out) * way), -track.velocity, REBOUND_CONE_DEG
            )
        return np.asarray(off)

    def _lost_meeting_a_ball(self, track: Track) -> bool:
        """Whether a ball lost in motion was last seen touching a ball's resting spot: its
        last step was the two balls' blob's, no measure of its way on, and off a cushion
        there the two together may send it anywhere (fresh 43's 1108: the cue ball, lost as
        it met the 1 by the head cushion, seen again 130 mm off it 50 degrees off its line
        mirrored, was not taken up for six seconds)."""
        return track.missing_since is not None and any(
            other is not track
            and other.rest_xy is not None
            and float(np.hypot(*(other.rest_xy - track.xy))) <= 2 * BALL_RADIUS_MM + REACH_SLACK_MM
            for other in self.tracks.values()
        )

    def _lost_going_in(self, track: Track, t: float) -> bool:
        """Lost in motion before a pocket's mouth, headed into it, and since out of sight
        long enough to have reached it: it went down or comes back out there (a ball found
        across the table is another)."""
        return self._mouth_gone_into(track, t) is not None

    def _mouth_gone_into(self, track: Track, t: float) -> NDArray[np.float64] | None:
        """Where a ball lost before a pocket's mouth went into it (see _lost_going_in), if it
        did. So did a ball at rest clear of the others lost as it was hit, never seen going,
        whose way from its hitter, at its hitter's pace, takes it into a mouth (fresh 36's
        949: the faint 7, struck from 129 mm off a side pocket into it at 4 m/s, took a faint
        spot 1.1 m back across the table, and left it). (As it was hit: out of sight within
        JUST_HIT_S of the hitter reaching it, seen on its spot in the frame it was hit in:
        fresh 56's 1441, the 1 at rest in a corner's jaws, hit in, then lost; it took a
        speck 600 mm away and was given the two cushions its way met.)"""
        if track.missing_since is None:
            return None
        if track.moving:
            if self._struck_step_only(track):
                return None
            reach_t, at, _ = self._cushion_ahead(track)
            if reach_t > t - track.t or not self._in_a_mouth(at):
                return None
            # (Not with a ball in its way there, unless that pocket was felt to drop a ball
            # since: it met that ball first, and went off it anywhere (fresh 66's 1697: the 3,
            # lost under the player's arm heading for a side pocket, cut the 8 on its way;
            # held to come back out of that mouth if at all, it was not followed through its
            # two cushions in the open after). Its way is known to a few degrees only: fresh
            # 35's 912's cue ball, headed 61 mm past the 5's centre, went in, and was felt.)
            # (Asked for every pair of balls while it is lost: worked out once a frame.)
            if self._ways_in[0] != t:
                self._ways_in = (t, {})
            blocked = self._ways_in[1].get(track)
            if blocked is None:
                blocked = bool(len(self._balls_in_way(track, track.xy, at)))
                self._ways_in[1][track] = blocked
            return None if blocked and not self._pulsed_since(at, track.missing_since) else at
        if (
            track.reached_at is None
            or track.reached_from is None
            or track.reached_speed <= 0.0
            or track.missing_since > track.reached_at + JUST_HIT_S
            or self._rested_against_others(track)
        ):
            return None
        heading = track.xy - track.reached_from
        way, rail = self._to_a_cushion(track.xy, heading)
        if rail < 0:
            return None
        at = track.xy + heading / float(np.hypot(*heading)) * way
        # (Cut, it goes off slower than its hitter came: by the cosine of the cut, the angle
        # between its hitter's way and its own (fresh 69's 1761: the 1, cut by the cue ball
        # at 3.6 m/s towards the left cushion beside a corner's mouth, seen going there a
        # frame after it was lost, was held to have gone into the mouth at its hitter's
        # pace, and lost with its two cushions).)
        pace = track.reached_speed
        if track.reached_way is not None:
            pace *= abs(float(heading @ track.reached_way)) / float(np.hypot(*heading))
        return at if way <= pace * (t - track.reached_at) and self._in_a_mouth(at) else None

    def rattling_in_the_jaws(self, t: float) -> bool:
        """Whether a ball lost going into a pocket's mouth may be rattling in its jaws yet,
        as far as sight tells (a pocket's pulse would say it dropped): out of sight no
        longer than a ball rattles there before it drops or comes back out (fresh 36's 926:
        the cue ball, lost on a side pocket's lip at 0.5 m/s, rolled back out 0.4 s later,
        after the shot had been ended, and its coming out was taken for a shot of its own)."""
        return any(
            (track.moving or self._in_play(track))
            and self.at_a_pocket(track)
            and t - track.t <= POCKET_RATTLE_S
            for track in self.tracks.values()
        )

    def _went_into_a_mouth(self, track: Track, t: float) -> bool:
        """Lost in a pocket's mouth on its way: it dropped, or comes back out right there,
        no faster than it went in. (One lost resting there, under the cue, may have been
        struck out from under it to anywhere; not seen again soon, it went in.)"""
        if not self.at_a_pocket(track):
            return False
        assert track.missing_since is not None
        if track.moving and (not self._headed_into_a_mouth(track) or self._struck_step_only(track)):
            # Going away from every pocket whose mouth it is in (fresh 29's 761: the cue ball,
            # resting 87 mm from a corner, struck out of it, its first step a few millimetres,
            # hidden by the cue following through: held to coming back out of the mouth at
            # that pace, it was lost across the table for 2.7 s), or its way not known.
            return False
        return track.moving or self._in_play(track) or t - track.missing_since > MISSING_REACH_S

    def _headed_into_a_mouth(self, track: Track) -> bool:
        """Whether a ball's velocity takes it towards a pocket whose mouth it is in."""
        x, y = float(track.xy[0]), float(track.xy[1])
        vx, vy = float(track.velocity[0]), float(track.velocity[1])
        return any((px - x) * vx + (py - y) * vy > 0 for px, py in self._mouths_around(track.xy))

    def _dropped(self, track: Track, t: float) -> bool:
        """Lost in a pocket's mouth on its way, and felt by the pocket's sensor or out of
        sight longer than a ball rattles there: it went down."""
        return self._went_into_a_mouth(track, t) and (
            t - track.t > POCKET_RATTLE_S or self.felt_dropping(track)
        )

    def on_pocket(self, pocket: str, t: float) -> None:
        """A pocket's sensor felt a ball drop."""
        self._felt[pocket] = t

    def end_shot(self, t: float) -> None:
        """A shot ended at `t`: the pulses felt so far were its balls dropping (its facts hold
        them), not a ball still lost in a mouth dropping since."""
        self._last_shot_end = t

    def _down_a_pocket(self, track: Track) -> bool:
        """Lost in a pocket's mouth and felt dropping, or lost there in a shot that has ended
        (whose facts hold it potted)."""
        return self.at_a_pocket(track) and (
            self.lost_in_an_ended_shot(track) or self.felt_dropping(track)
        )

    def lost_in_an_ended_shot(self, track: Track) -> bool:
        """Whether a ball out of sight went out of sight before the last shot ended: what
        became of it was that shot's (its facts hold it), whenever its pulse comes."""
        return track.missing_since is not None and track.missing_since < self._last_shot_end

    @property
    def has_sensors(self) -> bool:
        """Whether the table has pocket sensors: a pulse has come from one."""
        return bool(self._felt)

    def _pulsed_since(self, at: NDArray[np.float64], lost: float) -> bool:
        """Whether the pocket nearest `at` has had a pulse that a ball lost at `lost` may
        have made."""
        (pocket,), _ = self.calibration.table.nearest_pocket(at.reshape(1, 2))
        felt = self._felt.get(pocket)
        return felt is not None and self._may_have_made(felt, lost)

    def _may_have_made(self, felt: float, lost: float) -> bool:
        """Whether a pocket's pulse at `felt` may be a ball's lost at `lost` (in this shot)."""
        return felt > self._last_shot_end and felt >= lost + PULSE_MATCH_S[0]

    def felt_dropping(self, track: Track) -> bool:
        """Whether a ball lost in a pocket's mouth has had a pulse from that pocket since; or
        one lost going into a mouth (_mouth_gone_into), from that mouth's pocket once it
        could have reached it (fresh 37's 964: the maroon 7 on dark red cloth, lost 123 mm
        from a corner headed in at 1.9 m/s and felt dropping there, was found again at the
        shot's end on a faint patch of the cloth far off, and its pot was lost)."""
        lost = track.missing_since
        if lost is None:
            return False
        table = self.calibration.table
        for pocket, felt in self._felt.items():
            if not self._may_have_made(felt, lost):
                continue
            at = track.xy if self.at_a_pocket(track) else self._mouth_gone_into(track, felt)
            if at is not None and table.nearest_pocket(at.reshape(1, 2))[0] == [pocket]:
                return True
        return False

    def _in_a_mouth(self, xy: NDArray[np.float64]) -> bool:
        """Whether a table point is in (or a ball's width from) a pocket's mouth."""
        return any(True for _ in self._mouths_around(xy))

    def _mouths_around(self, xy: NDArray[np.float64]) -> Iterator[tuple[float, float]]:
        """The points of the pockets in (or a ball's width from) whose mouth a table point is."""
        x, y = float(xy[0]), float(xy[1])
        return ((px, py) for px, py, reach in self._mouths if math.hypot(px - x, py - y) <= reach)

    def _not_openings(
        self, discs: list[Disc], planes: Planes, y_half: U8, t: float
    ) -> tuple[list[Disc], NDArray[np.float64]]:
        """The discs, and their table points, but those that are a pocket's dark opening, not
        a ball: dark and colourless in a pocket's mouth where no ball is, or is headed (a dim
        corner shows its hole through the mouth as a dark disc, which would take the 8's id
        from the 8, or the cue ball's track from it as it is struck away beside the pocket)."""
        assert self.cloth is not None
        table_xy = self._to_table(discs)
        in_mouths = [i for i, xy in enumerate(table_xy) if self._in_a_mouth(xy)]
        if not in_mouths:
            return discs, table_xy
        known = np.array(
            [track.xy for track in self.tracks.values()]
            + [track.predicted(t) for track in self.tracks.values() if track.moving]
        ).reshape(-1, 2)

        def opening(disc: Disc, xy: NDArray[np.float64]) -> bool:
            if (np.hypot(*(known - xy).T) < 2 * BALL_RADIUS_MM).any():
                return False
            # The hole shows past the cushions' line, where no ball rests: a disc a radius
            # clear of every line is a ball on the cloth (fresh 28's 737: the 8, 49 mm off
            # the right cushion beside the side pocket, dropped at the first rest, was never
            # tracked).
            if float(self.calibration.table.rail_gaps(xy[None, :]).min()) >= BALL_RADIUS_MM:
                return False
            assert self.cloth is not None
            look = look_at(planes, y_half, self.cloth, disc.x, disc.y, self.radius_px)
            return look.dark >= OPENING_DARK and look.colour <= OPENING_COLOUR

        holes = {i for i in in_mouths if opening(discs[i], table_xy[i])}
        kept = [i for i in range(len(discs)) if i not in holes]
        return [discs[i] for i in kept], table_xy[kept].reshape(-1, 2)

    def _pixel(self, xy: NDArray[np.float64]) -> NDArray[np.float64]:
        """A table point's pixel; balls at rest ask every frame, so the answer is kept."""
        cached = self._pixel_cache.get((float(xy[0]), float(xy[1])))
        return self._pixels(xy[None, :])[0] if cached is None else cached

    def _half_pixel(self, xy: NDArray[np.float64]) -> tuple[float, float]:
        """A table point's half-resolution pixel (as _half_res), as plain numbers."""
        x, y = self._pixel(xy).tolist()
        return (x + 0.5) / 2 - 0.5, (y + 0.5) / 2 - 0.5

    def _pixels(self, points: NDArray[np.float64]) -> NDArray[np.float64]:
        """Table points' pixels (n, 2), those not kept yet projected together and kept: the
        balls' positions are asked for many times a frame, and one projection of many points
        costs about what one of a single point does."""
        keys = [(x, y) for x, y in np.asarray(points, np.float64).reshape(-1, 2).tolist()]
        pixels = _kept(
            self._pixel_cache, keys, lambda new: self.calibration.to_image(np.array(new))
        )
        return np.array(pixels).reshape(-1, 2)

    def _can_rest(self, xy: NDArray[np.float64]) -> NDArray[np.bool_]:
        """Whether a ball's centre can be at each point: not over a pocket's hole, where it
        would drop; and within CORNER_THROAT_MM of a corner's point, only where a ball was
        followed to (fresh 51's 1313: the 3 come to rest in the jaws 40 mm from the point,
        short of the hole, was called potted). A blob there no ball went to is the hole,
        which shows past its rim (the pocket's shade, and a compressed frame smears it:
        blocky's held-out 007, a blob on the hole's rim taken for the 8 at the first look).
        Nor over a cushion's rubber: a ball there is in the air (fresh 57's 1458: the cue
        ball carried in by hand after a scratch, seen over the cushion, was put down there,
        followed on in the hand and a shot found)."""
        ok: NDArray[np.bool_] = (
            self.calibration.table.cushion_gaps(xy).min(axis=1) >= -INTO_CUSHION_MM
        )
        for middle, radius, _ in self._holes:
            ok &= np.linalg.norm(xy - middle, axis=1) >= radius
        throat = np.linalg.norm(xy[:, None, :] - self._corners[None, :, :], axis=2).min(axis=1)
        followed = [track.xy for track in self.tracks.values()]
        for i in np.nonzero(ok & (throat < CORNER_THROAT_MM))[0]:
            ok[i] = any(np.hypot(*(at - xy[i])) <= 2 * BALL_RADIUS_MM for at in followed)
        return ok

    def _where_balls_rest(self) -> U8:
        """The cloth without the pockets' holes, at half resolution (kept)."""
        assert self.cloth is not None
        if self._rest_mask is None:
            mask = self.cloth.table_mask.copy()
            for _, _, rim in self._holes:
                outline = _half_res(self.calibration.to_image(rim))
                cv2.fillPoly(mask, [np.round(outline).astype(np.int32)], (0,))
            self._rest_mask = mask
        return self._rest_mask

    def _off_the_cloth(self, outline: NDArray[np.float32]) -> bool:
        """Whether an occluder's outline (full-resolution) runs along the cloth's edge: it
        goes on beyond, over the cushions (or a pocket), where no change is looked for."""
        assert self.cloth is not None
        edge = self.cloth.edge
        height, width = edge.shape
        points = np.round(_half_res(outline.reshape(-1, 2).astype(np.float64))).astype(int)
        cols, rows = np.clip(points[:, 0], 0, width - 1), np.clip(points[:, 1], 0, height - 1)
        return np.count_nonzero(edge[rows, cols]) > 0

    def _where_balls_show(self, occluders: tuple[Occluder, ...]) -> U8:
        """Where a ball can lie in sight: not in a throat, nor under or against an arm or a
        cue (whose edges and tip, against the cloth, look like faint balls)."""
        mask = self._where_balls_rest()
        if not self._reaching(occluders):
            return mask
        return np.asarray(cv2.bitwise_and(mask, cv2.bitwise_not(self._around(occluders))))

    def _reaching(self, occluders: tuple[Occluder, ...]) -> tuple[Occluder, ...]:
        """The arms and cues among `occluders` (a small one may be a ball with its shadow)."""
        reach = OCCLUDER_REACH_RADII * self.radius_px
        return tuple(o for o in occluders if max(cv2.minAreaRect(o.outline)[1]) >= reach)

    def _around(self, occluders: tuple[Occluder, ...]) -> U8:
        """Half-resolution mask of what the arms and cues among `occluders` cover, and a
        ball's radius around them."""
        assert self.cloth is not None
        mask = np.zeros_like(self.cloth.table_mask)
        outlines = [np.round(o.outline / 2).astype(np.int32) for o in self._reaching(occluders)]
        cv2.drawContours(mask, outlines, -1, (255,), -1)
        cv2.drawContours(mask, outlines, -1, (255,), max(1, round(self.radius_px)))
        return mask

    @staticmethod
    def _may_look_dark(track: Track) -> bool:
        """Whether darkness alone may show the ball: the 8, one not known yet, one that
        looked mostly dark (a maroon 7 in dim light), or one of the cloth's colour, told from
        it by its brightness only (fresh 57's 1459: the maroon 7 on pink cloth, hit, found
        as a dark disc every frame but held not to look dark, was lost rolling 4 s in the
        open, and given a cushion it never met)."""
        if track.key in (None, 8) or not track.looks or track.cloth_coloured:
            return True
        return float(np.median([look.dark for look in track.looks])) >= DARK_LOOK

    def _dark_wanted(self) -> int:
        return 1 if 8 in self.on_table else 0

    def _to_table(self, discs: tuple[Disc, ...] | list[Disc]) -> NDArray[np.float64]:
        """The discs' table points (those found as they were in the last frame were kept)."""
        points = _kept(
            self._table_points,
            list(discs),
            lambda new: self.calibration.to_table(np.array([[d.x, d.y] for d in new])),
        )
        return np.array(points).reshape(-1, 2)

    def _in_mask(self, xy: NDArray[np.float64], mask: U8, radii: float = 1.0) -> bool:
        """Whether anything in `mask` lies within `radii` ball radii of a table point."""
        hx, hy = (round(v) for v in self._half_pixel(xy))
        r = max(1, int(radii * self.radius_px / 2))
        window = mask[max(0, hy - r) : hy + r + 1, max(0, hx - r) : hx + r + 1]
        return np.count_nonzero(window) > 0  # (a third of .any()'s cost on a few pixels)

    def _observe(
        self, t: float, occluders: tuple[Occluder, ...], changed: bool, moving: bool
    ) -> Observation:
        positions: dict[int, tuple[float, float] | None] = {}
        for tid, track in self.tracks.items():
            visible = track.missing_since is None
            positions[tid] = (float(track.xy[0]), float(track.xy[1])) if visible else None
        return Observation(t, positions, occluders, changed, moving)


class _BallLook(NamedTuple):
    """A ball's colour (mean U, V) as seen in the cloth's light there, and whether a stripe."""

    colour: NDArray[np.float64]
    light: float
    stripe: bool


def _at_rest(track: Track) -> _BallLook:
    assert track.colour is not None
    return _BallLook(track.colour, track.colour_light, track.key in STRIPES)


def _as_rolling(track: Track) -> _BallLook:
    assert track.rolling_colour is not None
    return _BallLook(track.rolling_colour, track.rolling_light, track.key in STRIPES)


def _colour_gaps_from(
    looks: Sequence[_BallLook],
    colours: NDArray[np.float64],
    cloth: NDArray[np.float64],
    blur: float,
) -> NDArray[np.float64]:
    """Tracker._colour_gaps from balls that look so (looks, detections)."""
    colour = np.array([look.colour for look in looks])
    light = np.array([look.light for look in looks])
    stripes = np.array([look.stripe for look in looks])
    # Around the light each was seen in, and around the change of light the cloth shows from
    # there to where each is (which a pocket's dark mouth or a cushion's shade, taken into
    # the cloth's light nearby, overstates). (All balls at once.)
    base = (
        np.where(stripes[:, None], STRIPE_LIGHTS, SOLID_LIGHTS_AS_STRIPES)
        if stripes.any()
        else np.tile(LIGHT_CHANGES, (len(looks), 1))
    )
    ratio = cloth[None, :, 2] / light[:, None]  # (balls, detections)
    lights = np.concatenate(
        [
            np.repeat(base[:, :, None], len(cloth), axis=2),
            base[:, :, None] * ratio[:, None, :],
        ],
        axis=1,
    )  # (balls, lights, detections)
    ball = lights[..., None] * colour[:, None, None, :]  # (balls, lights, detections, 2)
    span = cloth[None, None, :, :2] - ball
    length2 = np.maximum((span * span).sum(axis=3), 1e-9)
    along = np.clip(((colours[None, None] - ball) * span).sum(axis=3) / length2, 0.0, blur)
    miss = colours[None, None] - ball - along[..., None] * span
    return np.asarray(np.sqrt((miss * miss).sum(axis=3).min(axis=1)))


def _doubt(disc: Disc) -> float:
    """How much less likely a disc new at a rest is a ball than a clear blob (identify's
    doubts): a faint spot more, and a blob or a spot the less it stands out of the cloth; one
    found by its darkness has no score to doubt it by."""

    def only_just(strength: float, clear: float) -> float:
        return WEAK_DISC_COST * min(max(clear - strength, 0.0), 1.0)

    if disc.faint:
        return FAINT_DISC_COST + only_just(disc.contrast, FAINT_CLEAR_CONTRAST)
    return only_just(disc.score, WEAK_DISC_SCORE) if disc.score > 0.0 else 0.0


def _behind_the_cue_ball(cue: Track, track: Track) -> bool:
    """Whether `track`'s ball lies behind the cue ball's spot as the cue aimed at it: back
    of the line across the spot square to the cue, by more than REACH_SLACK_MM."""
    if cue.cue_from is None or cue.rest_xy is None:
        return False
    return bool(_back_towards(cue.rest_xy, cue.cue_from, track.xy[None, :], REACH_SLACK_MM)[0])


def _back_towards(
    origin: NDArray[np.float64],
    source: NDArray[np.float64],
    found: NDArray[np.float64],
    margin: float = BALL_RADIUS_MM,
) -> NDArray[np.bool_]:
    """Which of `found` lie more than `margin` from `origin` towards `source`."""
    away = origin - source
    length = float(np.hypot(*away))
    if length < 1e-6 or not len(found):
        return np.zeros(len(found), bool)
    return np.asarray((found - origin) @ (away / length) < -margin)


def _kept(
    cache: dict[Key, Value], keys: list[Key], work_out: Callable[[list[Key]], Iterable[Value]]
) -> list[Value]:
    """Each key's value from `cache`, those not there yet worked out together and kept (the
    cache emptied when it grows past KEPT_AT_MOST)."""
    new = list(dict.fromkeys(k for k in keys if k not in cache))
    if len(cache) + len(new) > KEPT_AT_MOST:
        cache.clear()
        new = list(dict.fromkeys(keys))
    if new:
        cache.update(zip(new, work_out(new), strict=True))
    return [cache[k] for k in keys]


def _holes_seen(
    calibration: Calibration,
) -> list[tuple[NDArray[np.float64], float, NDArray[np.float64]]]:
    """Each pocket's hole (where a ball drops) as a ball's centre would be measured over its
    rim, a ball's radius above the cloth where the hole is seen (the view's slant shifts one
    against the other, towards the camera, by up to ~15 mm): its middle, its radius and its
    rim's points."""
    around = np.linspace(0.0, 2 * np.pi, 32, endpoint=False)
    rim = np.stack([np.cos(around), np.sin(around)], axis=1)
    holes = []
    for name in calibration.table.pockets:
        centre, radius = calibration.table.hole(name)
        seen = calibration.to_table(calibration.to_image(centre + radius * rim, height_mm=0.0))
        middle = seen.mean(axis=0)
        holes.append((middle, float(np.linalg.norm(seen - middle, axis=1).mean()), seen))
    return holes


def _heading(track: Track) -> NDArray[np.float64] | None:
    """Which way a ball is going (a unit vector), if it is going fast enough to tell."""
    speed = track.speed
    return None if speed < TURN_BACK_SPEED_MM_S else track.velocity / speed


def _within_cone(
    ways: NDArray[np.float64], axis: NDArray[np.float64], deg: float
) -> NDArray[np.bool_]:
    """Which of the ways (n×2) lie within `deg` of the direction `axis`."""
    lengths = np.linalg.norm(ways, axis=1) * float(np.hypot(*axis))
    return np.asarray((ways @ axis) / np.maximum(lengths, 1e-9) >= math.cos(math.radians(deg)))


def _half_res(pixels: NDArray[np.float64]) -> NDArray[np.float64]:
    """Full-resolution pixel positions in half resolution (its pixel i is full 2i and
    2i + 1, centred at 2i + 0.5)."""
    return np.asarray((pixels + 0.5) / 2 - 0.5)


def _mean(pixels: U8) -> float:
    """The mean of a few 8-bit pixels, as ndarray.mean() gives it (their sum is exact) at a
    fifth of its cost: balls' middles are measured many times a frame."""
    return float(cv2.sumElems(pixels)[0]) / pixels.size


def _difference(now: tuple[U8, U8, U8], against: tuple[U8, U8, U8]) -> U8:
    """|ΔY| + |ΔU| + |ΔV| (saturating) of half-resolution planes against others."""
    (y, u, v), (ref_y, ref_u, ref_v) = now, against
    diff = cv2.add(cv2.absdiff(y, ref_y), cv2.absdiff(u, ref_u))
    return np.asarray(cv2.add(diff, cv2.absdiff(v, ref_v)))
