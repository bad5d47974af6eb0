"""Balls in a frame: blobs that are not cloth, split into ball-sized discs.

A blob of touching balls (a rack, a cluster, a ball against another) has about k times one
ball's area; its pixels are split among k centres by Lloyd's iterations, which for touching
equal discs converge on the discs' centres. Blobs that are not made of balls (an arm, a cue)
are reported as occluders: a ball under them is hidden, not gone.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import NamedTuple

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.cloth import F32, U8
from vision.geometry import BALL_RADIUS_MM

F64 = NDArray[np.float64]

FOREGROUND = 1.0
# A pixel weighs in a blob's middle by its score up to this: a ball's rim pixel, part cloth,
# counts nearly as much as its middle (a stripe's white and colour alike).
FULL_WEIGHT = 3.0
WHOLE_PIXELS_PERCENTILE = 75.0
# A blob holds whole balls when k discs cover this much of it.
MIN_DISC_COVER = 0.72
# ...or this, round the one ball the tracker has in motion there, blurred by up to a radius
# along its path (fresh 30's 775: the cue ball struck at 6 m/s seen as 0.69 of a disc, and
# so as a cue).
BLURRED_DISC_COVER = 0.6
# ...and each centre lies this deep inside it, in radii (a cue is thinner than a ball).
MIN_DEPTH = 0.6
MAX_CLUSTER = 15
# Touching balls' centres are two radii apart; a split's noise brings them to 1.5.
MIN_GAP_RADII = 1.45
LONE_BALLS_TO_MEASURE = 3  # lone balls' blobs enough to measure a ball's area by
EDGE_PIXELS = 0.5  # how much wider than its disc a ball's blob shows (half-resolution pixels)
MOTION_GAP_RADII = 1.0
# Balls at rest are no nearer than this (radii): touching, less the perspective's spread of
# sizes over the table.
REST_GAP_RADII = 1.85
SPREAD_ITERATIONS = 12
SPREAD_PUSHES = 4
# The least width (in radii) of a ball's first streak after it was struck.
STRUCK_STREAK_WIDTH = 1.5
# A streak's centre is that of its part where a disc of this many radii fits...
STREAK_CORE = 0.6
# ...if it is blurred: it goes at least this far (radii) in the longest exposure (a frame at
# 60 fps). Slower, it is a disc (taken for a streak only as its outline is drawn out).
LONGEST_EXPOSURE_S = 1 / 60
STREAK_MIN_BLUR_RADII = 0.25
MAX_SPEED_MM_S = 12000.0  # faster than the hardest break: no streak is longer than its blur
# A blurred streak's ball-wide pieces farther than this many radii (of thinner blob) from the
# one where the ball was expected are not the ball: two balls merged in a blur come apart
# nearer (1 radius at most, in the whole rack's break), a cue following through is joined by
# its thin shaft (4 radii and more).
NECK_RADII = 2.0
# ...if no bigger than this many balls' areas (where the cue crosses the cushion it widens
# to about one): a bigger one is the ball's own streak, the piece where it was expected a
# scrap.
NECK_END_BALLS = 1.5
# A ball cut by the cloth's edge is placed in a few steps, if enough of it is seen.
UNCLIP_ITERATIONS = 8
UNCLIP_MIN_SEEN = 0.3
# A ball known to be on the table but not found stands out from the cloth ring around it by
# at least this (8-bit, Y, U and V together) and this many times the table's median.
FAINT_FLOOR = 8.0
FAINT_NOISE_FACTOR = 10.0
FAINT_APART_RADII = 2.2  # no ball's centre is nearer another's than two radii
# A faint spot whose ring of cloth has less than this share clear of the balls found (this
# many radii round each: its rim's blur) is not judged by it.
FOUND_BALL_RADII = 1.2
RING_CLEAR_SHARE = 0.75
# A dark region is grown from its clearly dark pixels into those half as dark: a black ball
# in motion is blurred with the cloth (and its number circle is not dark at all). The clearly
# dark part must be a quarter of a ball (a pocket's shaded rim has specks).
DARK_GROW = 0.5
DARK_SEED_BALLS = 0.25
# ...and, more than this many balls (a ball and its shadow), is placed by its clearly dark (or
# coloured) pixels round where one is, where they make this much of one.
DARK_SHADOWED_BALLS = 1.3
DARK_CORE_BALLS = 0.5
DARK_CENTRE_STEPS = 5


@dataclass(frozen=True)
class Disc:
    """One ball seen in the image (full-resolution pixels)."""

    x: float
    y: float
    cluster: int  # how many balls share its blob
    cover: float  # how much of its share of the blob the disc explains
    streak: bool = False  # blurred along its path (its colour is mixed with the cloth's)
    dark: bool = False  # found by its darkness alone: a dark ball (the 8, a dim 7) or a shadow
    # Its blob's foreground score where the ball covers a whole pixel (0: not measured): how
    # much of a rim pixel it takes to count, and how much that counts, in where its middle
    # was found.
    score: float = 0.0
    faint: bool = False  # found only as a spot unlike its ring of cloth (faint_discs)
    # A faint spot's difference from its ring, in multiples of the least one looked at (the
    # cloth's noise): how clearly it stands out.
    contrast: float = 0.0


class Split(NamedTuple):
    """A blob split into balls (half-resolution pixels of its window)."""

    centres: list[tuple[float, float]]
    cover: float  # how much of the blob discs at the centres cover
    thick: list[bool]  # which centres lie deep enough inside it to be a ball's


@dataclass(frozen=True, eq=False)
class Occluder:
    """Something on the table that is not a ball: an arm, a hand, a cue (full-res outline)."""

    outline: NDArray[np.float32]  # (n, 1, 2) contour points

    def distance(self, x: float, y: float) -> float:
        """Distance from a point to the outline: positive inside, negative outside."""
        return float(cv2.pointPolygonTest(self.outline, (x, y), True))


@dataclass(frozen=True)
class Detections:
    discs: tuple[Disc, ...]
    occluders: tuple[Occluder, ...]


def detect(
    colour: F32,
    dark: F32,
    radius_half: float,
    origin: tuple[int, int] = (0, 0),
    dark_balls: int = 0,
    expected: int | None = None,
    moving: tuple[Motion, ...] = (),
    off_cloth: NDArray[np.bool_] | None = None,
) -> Detections:
    """Balls in the foreground scores of ClothModel.foreground (half resolution).

    `radius_half` is a ball's radius in half-resolution pixels; `origin` is the maps' top-left
    corner in the half-resolution frame. `dark_balls` is how many black balls may be here (the
    8, when it is on the table): darkness alone cannot tell a black ball from a deep shadow,
    so at most that many of the darkest ball-sized regions away from other balls are taken.
    `expected`, when known (the table at rest), is how many balls the maps hold at most: a
    cluster whose area undercounts (a ball of the cloth's colour in a rack) gets the missing
    ones, as long as its balls do not overlap. `moving` are where balls in motion are
    expected: a fast ball is a streak, not a row of balls. `off_cloth` marks the pixels over
    the cushions (ClothModel.off_cloth), where nothing is seen: a ball the cloth's edge cuts
    (leaning out over a cushion) is no thinner for it. Positions come back in full-resolution
    pixels.
    """
    mask = (colour > FOREGROUND).astype(np.uint8)
    blobs = _blobs(mask, colour, radius_half, off_cloth)
    ox, oy = origin
    for blob in blobs:
        # Balls the tracker knows are here: two balls meeting are two, however they merge.
        # (One in motion may be a ball further on than last seen; one at rest must still be
        # there, not merely touch the blob of the ball that just struck it away.)
        nearby = [
            (m, depth)
            for m in moving
            if (depth := cv2.pointPolygonTest(blob.contour, (m.x - ox, m.y - oy), True))
            > (-radius_half if m.vx or m.vy else 0.0)
        ]
        # Each ball shows a disc half a pixel wider than its own (its edge pixels, partly
        # covered, stand out too), by much at 640x360.
        by_area = _balls_in(blob.area, math.pi * (radius_half + EDGE_PIXELS) ** 2)
        if len(nearby) > by_area:
            # A ball in motion expected just outside a blob too small to hold it as well is
            # elsewhere (fresh 65's 1650: the 1, rolling under the tip of the cue still over
            # the table, merged with it, while expected a radius off the cue ball's blob:
            # the cue ball, split in two for it, gave it half its disc to follow).
            nearby = [(m, depth) for m, depth in nearby if depth >= 0.0]
        inside = [m for m, _ in nearby]
        known = len(inside)
        if known > 1:
            # Only what its area holds past the balls known in it is another ball (fresh
            # 58's 1490: the cue ball come to rest 5 mm from the 7, the two and their
            # shadows three discs' area, split in three and in two by turns: never at rest,
            # its shot ran on into the next).
            blob.count, blob.known = max(by_area, known), known
            # Blurred no more than its fastest ball's blur, its balls' centres come no
            # closer than at rest by more than that (fresh 8's 235: two rolling slowly
            # together, split in three). One at rest beside one rolling may just have been
            # struck by it, no faster (fresh 8's 231: the cue ball rolling slowly by the
            # 1); one at rest in a cluster, by a push through it from anywhere, at any
            # speed (a rack breaking), and so may one at rest struck by the cue.
            speeds = [math.hypot(m.vx, m.vy) for m in inside]
            if min(speeds) > 0 or (known == 2 and max(speeds) > 0):
                blur = max(speeds) * LONGEST_EXPOSURE_S / radius_half
                blob.gap_radii = max(MOTION_GAP_RADII, MIN_GAP_RADII - blur)
        else:
            if known == 1 and (inside[0].vx or inside[0].vy) and _blurs(inside[0], radius_half):
                blob.min_cover = BLURRED_DISC_COVER
            streaking = (
                [m for m in moving if m.streaks and _is_streak_of(blob, m, radius_half, origin)]
                if _streak_shaped(blob, radius_half)
                else []
            )
            if streaking:
                blob.count, blob.balls, blob.streak = 1, True, True
                blurred = [m for m in streaking if _blurs(m, radius_half)]
                if blurred:
                    bx, by, _, _ = blob.box
                    blob.blurred_near = (blurred[0].x - ox - bx, blurred[0].y - oy - by)
    if expected is not None:
        # A ball's area as this camera shows it at rest is a lone ball's: with its rim's
        # blur and its shadow's edge it is bigger than the disc its radius gives, by much at
        # 640x360 (a ball of radius 2.9 half-resolution pixels shows 31 to 36, not 26); a
        # cluster counted by the disc is a ball too many (fresh 58's 1487: the 3 and the
        # cue ball 28 mm apart joined by their shadows, counted three, the third named).
        lone = [b.area for b in blobs if b.balls and b.count == 1]
        if len(lone) >= LONE_BALLS_TO_MEASURE:
            shown = float(np.median(lone))
            for blob in blobs:
                if blob.balls and blob.count > 1:
                    blob.count = min(blob.count, _balls_in(blob.area, shown))
        for blob in blobs:
            # Shading and shadows make a cluster look bigger than its balls.
            blob.count = min(blob.count, expected)
        missing = expected - dark_balls - sum(b.count for b in blobs if b.balls)
        clusters = sorted((b for b in blobs if b.balls and b.count > 1), key=lambda b: -b.area)
        if missing > 0 and clusters:
            clusters[0].count += missing
    discs: list[Disc] = []
    occluders: list[Occluder] = []
    for blob in blobs:
        x, y, _, _ = blob.box
        split = (
            _split(blob.weights, blob.count, radius_half, blob.blurred_near, blob.edge)
            if blob.balls
            else Split([], 0.0, [])
        )
        if blob.balls and blob.count > blob.known and 0 < sum(split.thick) < len(split.thick):
            # A count from the area alone is too high when a sliver (a cushion's edge, a
            # shadow's rim) joins the blob: split again into as many balls as found room
            # (a lone ball without what is thinner than a ball), and no fewer than are known
            # to be in it (fresh 42's 1082: two balls at rest 70 mm apart, their shading
            # three balls' area, one centre thin: taken for an arm, both were lost).
            balls = max(sum(split.thick), blob.known)
            weights = _without_slivers(blob.weights) if balls == 1 else blob.weights
            split = _split(weights, balls, radius_half)
        if blob.balls and expected is None and not blob.streak:
            # Blurred, two balls' centres come closer than at rest, yet never so close that
            # their discs overlap by half: that is one ball's blur split in two.
            split = _no_overlaps(blob, split, radius_half, blob.gap_radii)
        if blob.balls and expected is not None:
            split = _held_apart(blob, _no_overlaps(blob, split, radius_half), radius_half)
            if not blob.known:
                split = _fewest_fitting(blob, split, radius_half)
            if 0 < len(split.centres) < blob.count:
                split = _with_holes(blob, split, blob.count - len(split.centres), radius_half)
        centres, cover, thick = split
        if blob.streak:
            cover = 1.0  # a streak is one ball spread along its path, not a disc
        # A cluster whose count came out one too many has a thin centre at its edge; a cue or
        # an arm is mostly thin centres.
        balls = blob.balls and cover >= blob.min_cover and sum(thick) >= 0.75 * len(thick)
        if not balls:
            outline = blob.contour.astype(np.float32) + np.array([ox, oy], np.float32)
            occluders.append(Occluder(outline * 2 + 0.5))
            continue
        kept = [c for c, ok in zip(centres, thick, strict=True) if ok]
        whole = 0.0 if blob.streak else _whole_pixel_score(colour, blob)
        for cx, cy in kept:
            discs.append(
                _full_res(ox + x + cx, oy + y + cy, len(kept), cover, blob.streak, score=whole)
            )
    if dark_balls:
        black = _dark_discs(dark, mask, discs, radius_half, origin, dark_balls)
        discs.extend(black)
        # The 8's white number circle is a blob of its own, less than a ball: on the ball.
        occluders = [
            o for o in occluders if not any(_spot_on_ball(o, d, radius_half) for d in black)
        ]
    # Fingers and a cue's ferrule near an arm look like balls; a ball there is hidden anyway.
    near = 1.5 * radius_half
    discs = [d for d in discs if all(o.distance(d.x, d.y) < -near for o in occluders)]
    return Detections(tuple(discs), tuple(occluders))


def _spot_on_ball(occluder: Occluder, disc: Disc, radius_half: float) -> bool:
    """Whether `occluder` is a spot less than a ball lying on the ball of `disc` (a disc
    found by darkness round a white spot is centred off it, by up to a radius)."""
    radius = 2 * radius_half  # full-resolution pixels
    points = occluder.outline.reshape(-1, 2)
    reach = float(np.hypot(points[:, 0] - disc.x, points[:, 1] - disc.y).max())
    return reach <= 2 * radius and cv2.contourArea(occluder.outline) < math.pi * radius**2


def unclipped(disc: Disc, visible: U8, radius_half: float) -> Disc:
    """Where a ball is whose disc the edge of `visible` (half resolution: the cloth) cuts.

    Against a cushion part of a ball's image lies beyond the cloth's outline (the ball
    stands higher than the cloth, so from above it leans out over the cushion), where
    nothing is detected: the middle of what is seen is pulled in, off the cushion. The
    ball is where a disc of its radius, cut the same way, would be found where it was:
    weighed as detection weighs pixels (a rim pixel a fifth covered counts nearly in full
    for a bright ball), or, its score not measured, by the area seen.
    """
    hx, hy = (disc.x - 0.5) / 2, (disc.y - 0.5) / 2
    height, width = visible.shape
    reach = math.ceil(radius_half) + 1
    x0, y0 = max(round(hx) - reach, 0), max(round(hy) - reach, 0)
    around = visible[y0 : round(hy) + reach + 1, x0 : round(hx) + reach + 1]
    if np.count_nonzero(around) == around.size:
        return disc  # the cloth all round it: most balls, most frames
    # The window the ball may span, put back as far as a radius, and which of it is cloth.
    x0, y0 = max(round(hx) - 2 * reach, 0), max(round(hy) - 2 * reach, 0)
    x1, y1 = min(round(hx) + 2 * reach + 1, width), min(round(hy) + 2 * reach + 1, height)
    ys, xs = np.mgrid[y0:y1, x0:x1]
    cloth = visible[y0:y1, x0:x1] > 0
    cx, cy = hx, hy
    for _ in range(UNCLIP_ITERATIONS):
        # How much of each pixel the disc covers (its edge taken as straight across a pixel).
        cover = np.clip(radius_half + 0.5 - np.hypot(xs - cx, ys - cy), 0.0, 1.0)
        seen = np.where(cloth, cover, 0.0)
        share = float(seen.sum() / max(cover.sum(), 1e-9))
        if share > 1.0 - 1e-9 or share < UNCLIP_MIN_SEEN:
            break  # wholly seen (done), or too little seen to say
        if disc.score > 0.0:
            score = seen * disc.score
            seen = np.where(score > FOREGROUND, np.minimum(score, FULL_WEIGHT), 0.0)
        total = float(seen.sum())
        step_x = hx - float((seen * xs).sum()) / total
        step_y = hy - float((seen * ys).sum()) / total
        cx, cy = cx + step_x, cy + step_y
        if math.hypot(cx - hx, cy - hy) > radius_half:
            return disc  # not a ball cut by the edge: leave it as seen
        if math.hypot(step_x, step_y) < 0.02:
            break
    return replace(disc, x=2 * cx + 0.5, y=2 * cy + 0.5)


def _whole_pixel_score(score: F32, blob: _Blob) -> float:
    """The blob's score where a ball covers a whole pixel: the higher of its pixels' (at a
    low resolution most of a ball's pixels are on its rim)."""
    x, y, w, h = blob.box
    values = score[y : y + h, x : x + w][blob.weights > 0]
    k = int(WHOLE_PIXELS_PERCENTILE / 100 * (values.size - 1))
    return float(np.partition(values, k)[k])  # (np.percentile costs 25 times as much)


def _full_res(
    hx: float,
    hy: float,
    cluster: int,
    cover: float,
    streak: bool = False,
    dark: bool = False,
    score: float = 0.0,
) -> Disc:
    # Half-resolution pixel centres sit at (i + 0.5) * 2 - 0.5 in full resolution.
    return Disc(2 * hx + 0.5, 2 * hy + 0.5, cluster, cover, streak, dark, score)


@dataclass(frozen=True)
class Motion:
    """A ball in motion as the tracker predicts it: half-resolution frame pixels and px/s."""

    x: float
    y: float
    vx: float
    vy: float
    # Lost from sight in motion: how far (half-resolution pixels) it may have gone since,
    # in any direction (off a cushion or a ball), at its speed.
    reach: float = 0.0
    streaks: bool = True  # blurred, it shows (a ball of the cloth's colour makes no streak)
    in_play: bool = False  # off the spot it rested on before the shot


def _blurs(motion: Motion, radius: float) -> bool:
    """Whether a ball goes fast enough to be blurred (STREAK_MIN_BLUR_RADII in the longest
    exposure), or was at rest (it may just have been struck: how fast is not known yet)."""
    speed = math.hypot(motion.vx, motion.vy)
    return speed == 0 or speed * LONGEST_EXPOSURE_S >= STREAK_MIN_BLUR_RADII * radius


def _streak_shaped(blob: _Blob, radius: float) -> bool:
    """Whether a blob is shaped as a ball blurred along its path: one ball wide, longer.
    (Judged once a blob: every ball in motion asks _is_streak_of of it.)"""
    _, (w, h), _ = blob.rect
    short, long_ = min(w, h), max(w, h)
    return 1.0 * radius <= short <= 2.8 * radius and long_ >= 1.3 * short


def _is_streak_of(blob: _Blob, motion: Motion, radius: float, origin: tuple[int, int]) -> bool:
    """Whether a blob shaped as a streak (_streak_shaped) is `motion`'s ball blurred along its
    path: longer along its velocity.

    A ball just struck has no velocity yet: its streak is one that starts where it rested.
    """
    ox, oy = origin
    point = (motion.x - ox, motion.y - oy)
    (cx, cy), (w, h), angle = blob.rect
    short, long_ = min(w, h), max(w, h)
    axis = math.radians(angle if w >= h else angle + 90)
    ux, uy = math.cos(axis), math.sin(axis)
    speed = math.hypot(motion.vx, motion.vy)
    if speed > 0:
        if cv2.pointPolygonTest(blob.contour, point, True) < -3 * radius - motion.reach:
            return False
        if motion.reach > 0:
            return True
        return abs(ux * motion.vx + uy * motion.vy) / speed > math.cos(math.radians(30))
    # Struck since the last frame: the streak lies on a line through where the ball rested,
    # and is a ball wide where it sat part of the exposure still (a cue stick following
    # through over that spot is thinner).
    if short < STRUCK_STREAK_WIDTH * radius:
        return False
    # Come to rest in play, only another ball strikes it, and no ball blurs longer than the
    # fastest in an exposure: a longer blob is the ball beside the cue lying along its way
    # (fresh 48's 1240: the cue ball rolling slowly back along the cue, seen still beside
    # it, then merged with it, was taken for struck; its track went 190 mm up the shaft).
    # (Struck from the spot it rested on, the cue ball's streak is joined by the cue
    # following through, however long: fresh 44's 1144, lost so when this held for every
    # ball at rest.)
    if (
        motion.in_play
        and long_ > (2.0 + MAX_SPEED_MM_S * LONGEST_EXPOSURE_S / BALL_RADIUS_MM) * radius
    ):
        return False
    off_axis = abs((point[0] - cx) * uy - (point[1] - cy) * ux)
    along = abs((point[0] - cx) * ux + (point[1] - cy) * uy)
    return off_axis <= 1.2 * radius and along <= 4 * long_


class Edge(NamedTuple):
    """Where the cloth's edge cuts a blob (its box's pixels): how deep inside it each is,
    measured to what is seen beside it on the cloth only, and which are off the cloth."""

    depth: NDArray[np.float32]
    off_cloth: NDArray[np.bool_]


@dataclass
class _Blob:
    contour: NDArray[np.int32]
    box: tuple[int, int, int, int]
    weights: NDArray[np.float32]
    area: float
    count: int
    balls: bool
    streak: bool = False
    # A streak of a ball fast enough to blur, or just struck: where (blob pixels) the ball
    # was expected.
    blurred_near: tuple[float, float] | None = None
    known: int = 0  # how many balls the tracker knows are in it, when more than one
    min_cover: float = MIN_DISC_COVER  # how much of it its discs cover, if it holds balls
    # How near (radii) two of its balls' centres may be found in motion.
    gap_radii: float = MOTION_GAP_RADII
    # When the cloth's edge cuts it: how far inside it each pixel of its box is, measured to
    # what is seen beside it on the cloth only, and which of its box is off the cloth.
    edge: Edge | None = None

    @functools.cached_property
    def rect(self) -> tuple[Sequence[float], Sequence[float], float]:
        """Its least-area rectangle: centre, size, angle (degrees)."""
        return cv2.minAreaRect(self.contour)


def _balls_in(area: float, ball_area: float) -> int:
    return max(1, round(area / ball_area))


def _blobs(
    mask: NDArray[np.uint8],
    score: F32,
    radius_half: float,
    off_cloth: NDArray[np.bool_] | None = None,
) -> list[_Blob]:
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    ball_area = math.pi * radius_half * radius_half
    # Beside the cloth's edge a blob's depth is measured to what is seen beside it only
    # (worked out once a blob there needs it).
    unseen = off_cloth if off_cloth is not None and np.count_nonzero(off_cloth) else None
    beside = (
        None
        if unseen is None
        else cv2.dilate(unseen.astype(np.uint8), np.ones((3, 3), np.uint8)) > 0
    )
    seen_depth: NDArray[np.float32] | None = None
    out = []
    for contour in contours:
        x, y, w, h = cv2.boundingRect(contour)
        box = np.s_[y : y + h, x : x + w]
        patch = mask[box]
        area = float(np.count_nonzero(patch))  # (a 0/1 mask: its sum, at a third of the cost)
        if area < 0.35 * ball_area:
            continue  # noise, a highlight, a sliver of a ball at a window's edge
        capped = np.minimum(score[box], FULL_WEIGHT)
        weights = np.asarray(capped * patch, np.float32)
        count = _balls_in(area, ball_area)
        if count == 2 and cv2.minEnclosingCircle(contour)[1] < 1.7 * radius_half:
            count = 1  # two touching balls span two diameters; this is one, a little blurred
        points = np.asarray(contour, dtype=np.int32)
        # A rack, with the cue ball frozen to it, is the largest cluster of balls there is.
        blob = _Blob(points, (x, y, w, h), weights, area, count, count <= MAX_CLUSTER)
        if (
            unseen is not None
            and beside is not None
            and np.count_nonzero(beside[box] & (patch > 0))
        ):
            if seen_depth is None:
                seen_depth = _depth((mask > 0) | unseen)
            blob.edge = Edge(
                np.asarray(seen_depth[box] * (patch > 0), np.float32), np.asarray(unseen[box])
            )
        out.append(blob)
    return out


def _dark_discs(
    dark: F32,
    colour_mask: NDArray[np.uint8],
    found: list[Disc],
    radius_half: float,
    origin: tuple[int, int],
    wanted: int,
) -> list[Disc]:
    """The most ball-like dark regions that are not the shading or shadow of a found ball.

    A region takes in the foreground beside it that no ball took: a black ball rolling is
    mixed with the cloth at its edges into a grey the cloth has at no brightness (colour, too
    little of it for a ball), and its dark part alone lies behind it or is less than a ball.
    """
    weak = ((dark > DARK_GROW) | (colour_mask > 0)).astype(np.uint8)
    ox, oy = origin
    for disc in found:
        hx, hy = (disc.x - 0.5) / 2 - ox, (disc.y - 0.5) / 2 - oy
        cv2.circle(weak, (round(hx), round(hy)), round(1.6 * radius_half), (0,), -1)
    ball_area = math.pi * radius_half * radius_half
    strong = (dark > 1.0) & (weak > 0)
    if np.count_nonzero(strong) < DARK_SEED_BALLS * ball_area:
        return []  # most windows: nothing clearly dark enough to grow from
    count, components = cv2.connectedComponents(weak)
    labels = np.asarray(components, np.int32)
    seeds = np.bincount(labels[strong], minlength=count)
    grown = seeds >= DARK_SEED_BALLS * ball_area
    grown[0] = False  # the background
    mask = grown[labels].astype(np.uint8)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    scored = []
    for contour in contours:
        area = cv2.contourArea(contour) + 0.5 * cv2.arcLength(contour, True)
        if area < 0.5 * ball_area or area > 3.0 * ball_area:
            continue
        (cx, cy), enclosing = cv2.minEnclosingCircle(contour)
        roundness = area / (math.pi * enclosing * enclosing)
        depth = (
            float(dark[round(cy), round(cx)])
            if 0 <= round(cy) < dark.shape[0] and 0 <= round(cx) < dark.shape[1]
            else 0.0
        )
        cx, cy = _dark_centre(contour, strong | (colour_mask > 0), ball_area, area, (cx, cy))
        scored.append((roundness + 0.2 * min(depth, 3.0) - abs(area / ball_area - 1) * 0.3, cx, cy))
    scored.sort(reverse=True)
    return [_full_res(ox + cx, oy + cy, 1, 1.0, dark=True) for _, cx, cy in scored[:wanted]]


def _dark_centre(
    contour: cv2.typing.MatLike,
    clear: NDArray[np.bool_],
    ball_area: float,
    area: float,
    fallback: tuple[float, float],
) -> tuple[float, float]:
    """The middle of a dark region (`area` in pixels): of what in it is `clear`ly a ball
    (darker than shadows reach, or coloured: a black ball's number circle, its edges mixed
    with the cloth) when the region is more than a ball, round where a ball's radius of it
    is. Grown into the shadow beside the ball, less dark than the ball but not cloth, the
    region's middle is between the two (fresh 32's 825: the 8 found 15 mm into its shadow,
    its first contact timed after the cushion the cue ball met just after it). (No more
    than a ball, a region is the ball, cut by the cloth's edge or not: its rim, mixed with
    the cloth, is not clearly dark, and its middle is the seen area's, as unclipped takes
    it: fresh 24's 644, the 8 frozen to a cushion.)"""
    moments = cv2.moments(contour)
    if moments["m00"] <= 0:
        return fallback
    cx, cy = moments["m10"] / moments["m00"], moments["m01"] / moments["m00"]
    if area <= DARK_SHADOWED_BALLS * ball_area:
        return cx, cy
    inside = np.zeros(clear.shape, np.uint8)
    cv2.drawContours(inside, [contour], 0, (1,), -1)
    ys, xs = np.nonzero(clear & (inside > 0))
    radius = math.sqrt(ball_area / math.pi)
    # (Within a ball's radius of where it is taken to be, step by step: a cushion's shadow
    # along the region's edge is clearly dark too, and no part of this ball.)
    for _ in range(DARK_CENTRE_STEPS):
        near = np.hypot(xs - cx, ys - cy) <= radius
        if np.count_nonzero(near) < DARK_CORE_BALLS * ball_area:
            break
        nx, ny = float(xs[near].mean()), float(ys[near].mean())
        if math.hypot(nx - cx, ny - cy) < 0.05:
            break
        cx, cy = nx, ny
    return cx, cy


def _no_overlaps(blob: _Blob, split: Split, radius: float, gap: float = MIN_GAP_RADII) -> Split:
    """The split again into fewer balls while two of its centres are nearer than `gap`
    radii: balls at rest touch at most, and a cluster counted from its area (swollen by
    shading) or from the balls the rules expect (one may be off the table, the cue ball in
    hand) can have one too many. (Balls in motion blur into each other: there a split's
    centres come closer, and a smaller gap is asked.)"""
    while len(split.centres) > 1 and _least_gap(split.centres) < gap * radius:
        split = _split(blob.weights, len(split.centres) - 1, radius)
    return split


def _held_apart(blob: _Blob, split: Split, radius: float) -> Split:
    """The split with centres of balls at rest nearer than they can be spread (_spread)."""
    if len(split.centres) > 1 and _least_gap(split.centres) < REST_GAP_RADII * radius:
        return split._replace(centres=_spread(blob.weights, split.centres, radius))
    return split


def _fewest_fitting(blob: _Blob, split: Split, radius: float) -> Split:
    """The split of a cluster at rest into one ball fewer while that fits its outline
    better: a count from the area (swollen by shading) can be one too many, whose balls,
    held apart as balls at rest are, stick out of it."""
    fit = _outline_fit(blob.weights, split.centres, radius)
    while len(split.centres) > 1:
        fewer = _held_apart(blob, _split(blob.weights, len(split.centres) - 1, radius), radius)
        fewer_fit = _outline_fit(blob.weights, fewer.centres, radius)
        if fewer_fit <= fit:
            break
        split, fit = fewer, fewer_fit
    return split


def _outline_fit(
    weights: NDArray[np.float32], centres: list[tuple[float, float]], radius: float
) -> float:
    """How well discs of `radius` at `centres` make up the blob: their union's overlap
    with it over the two's union."""
    pad = int(np.ceil(radius)) + 1
    blob = np.pad(weights > 0, pad)
    grid: F64 = np.indices(blob.shape, dtype=np.float64)
    c = np.asarray(centres, np.float64) + pad
    nearest2 = ((grid[1][..., None] - c[:, 0]) ** 2 + (grid[0][..., None] - c[:, 1]) ** 2).min(-1)
    discs = nearest2 <= radius * radius
    both, either = int(np.count_nonzero(discs & blob)), int(np.count_nonzero(discs | blob))
    return both / max(either, 1)


def _with_holes(blob: _Blob, split: Split, wanted: int, radius: float) -> Split:
    """The split of a cluster at rest with up to `wanted` more balls, in its holes.

    A ball barely differing from the cloth adds little to its cluster but a hole (or a
    bay in its outline) a ball wide, that no ball found covers: a point well inside the
    outline as far from every centre as touching balls can be, though its neighbours
    closed in on what of it shows (in a full cluster no point is that far from all). All
    are fitted again with a ball there, the neighbours giving up what of it they had taken.
    """
    # The cluster's outline, filled: its balls touch, but their pixels may leave a chink
    # between two that opens a hole to the cloth outside.
    closed = cv2.morphologyEx(
        (blob.weights > 0).astype(np.uint8), cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8)
    )
    contours, _ = cv2.findContours(closed, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    outline = cv2.drawContours(np.zeros_like(closed), contours, -1, (1,), -1)
    within = _depth(outline.astype(np.float32))
    rows, cols = np.nonzero(within >= MIN_DEPTH * radius)
    points = np.stack([cols, rows], axis=1).astype(np.float64)
    placed = np.asarray(split.centres, np.float64)
    for _ in range(wanted):
        if not len(points):
            break
        room = np.linalg.norm(points[:, None, :] - placed[None, :, :], axis=2).min(axis=1)
        best = int(np.argmax(room))
        if room[best] < MIN_GAP_RADII * radius:
            break  # no hole a ball wide: the count was too high (an area swollen by shading)
        placed = np.vstack([placed, points[best]])
    if len(placed) == len(split.centres):
        return split
    # (What pixels a ball in a hole has are few: the hole holds it, not its neighbours.)
    fitted = _lloyd(blob.weights, placed, fixed=np.arange(len(split.centres), len(placed)))
    # (And it is as thick as the cluster round it, not as its own pixels.)
    deep = [bool(d >= MIN_DEPTH * radius) for d in _depth_at(within, fitted)]
    return Split(fitted, _cover(blob.weights, fitted, radius), deep)


def _spread(
    weights: NDArray[np.float32], centres: list[tuple[float, float]], radius: float
) -> list[tuple[float, float]]:
    """Centres of balls at rest a little nearer than they can be, held apart: Lloyd's
    iterations alternated with pushing each such pair apart to REST_GAP_RADII. (A ball
    barely differing from the cloth shows only a part of itself, which its neighbours'
    split shares out among them as they close in on it.)"""
    pixels = _weighted_pixels(weights)
    c = np.asarray(centres, np.float64)
    gap = REST_GAP_RADII * radius
    for _ in range(SPREAD_ITERATIONS):
        c = _lloyd_step(pixels, c)
        for _ in range(SPREAD_PUSHES):
            apart = c[:, None, :] - c[None, :, :]
            distance = np.linalg.norm(apart, axis=2)
            np.fill_diagonal(distance, np.inf)
            short = np.maximum(gap - distance, 0.0)
            if not short.any():
                break
            unit = apart / np.maximum(distance, 1e-6)[:, :, None]
            c += 0.5 * (short[:, :, None] * unit).sum(axis=1)
    return [(float(x), float(y)) for x, y in c]


def _least_gap(centres: list[tuple[float, float]]) -> float:
    points = np.asarray(centres)
    gaps = np.linalg.norm(points[:, None, :] - points[None, :, :], axis=2)
    np.fill_diagonal(gaps, np.inf)
    return float(gaps.min())


def _without_slivers(weights: NDArray[np.float32]) -> NDArray[np.float32]:
    mask = (weights > 0).astype(np.uint8)
    opened = cv2.morphologyEx(
        mask, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_CROSS, (3, 3))
    )
    if not opened.any():
        return weights  # nothing but slivers: leave it whole to be judged as it is
    return np.asarray(weights * opened, np.float32)


def faint_discs(
    planes: tuple[U8, U8, U8],
    table_mask: U8,
    found: Sequence[Disc],
    radius_half: float,
    wanted: int,
    can_rest: U8 | None = None,
) -> list[Disc]:
    """Balls that barely differ from the cloth (a maroon ball on red cloth, a blue one on blue
    cloth in a dim corner), looked for only when the rules say more balls are on the table
    than were found.

    What marks a ball then is a sharp local difference: its disc against the ring of cloth
    just around it (the cloth's slow changes of light cancel, its cushions and pockets are
    left out), in all three planes (Y, U, V at half resolution). The strongest such spots a
    ball's width from every ball found, each centred on where it differs from its ring; at
    most twice `wanted` of them, strongest first: identification decides which are balls.
    `can_rest` (half resolution, non-zero where a ball can lie) keeps the search off places
    like a corner pocket's throat, whose edge is the strongest spot on a dim table.
    """
    on_cloth = (table_mask > 0).astype(np.float32)
    disc, ring = (
        _disc_kernel(0.0, 0.8 * radius_half),
        _disc_kernel(1.4 * radius_half, 2.0 * radius_half),
    )
    in_disc, in_ring = _cloth_count(on_cloth, disc), _cloth_count(on_cloth, ring)
    # A spot is told from the cloth in the ring around it; one whose ring lies much over
    # balls found is not told by it (fresh 40's 1049: the cloth between a blue 2 and a black
    # 8, its ring a third over them, stood out more than the red 3 on red cloth, and took
    # its name).
    clear = on_cloth.copy()
    for d in found:
        centre = (round((d.x - 0.5) / 2), round((d.y - 0.5) / 2))
        cv2.circle(clear, centre, math.ceil(FOUND_BALL_RADII * radius_half), (0.0,), -1)
    judged = _cloth_count(clear, ring) >= RING_CLEAR_SHARE * in_ring
    contrast2 = np.zeros(table_mask.shape, np.float32)
    deviation2 = np.zeros(table_mask.shape, np.float32)
    for plane in planes:
        around = _cloth_mean(plane, on_cloth, ring, in_ring)
        contrast2 += (_cloth_mean(plane, on_cloth, disc, in_disc) - around) ** 2
        deviation2 += (plane.astype(np.float32) - around) ** 2
    contrast = np.sqrt(contrast2) * on_cloth
    deviation = np.sqrt(deviation2) * on_cloth
    level = max(FAINT_FLOOR, FAINT_NOISE_FACTOR * float(np.median(contrast[on_cloth > 0])))
    contrast *= judged
    peaks = (contrast >= cv2.dilate(contrast, np.ones((3, 3), np.uint8))) & (contrast > level)
    if can_rest is not None:
        peaks &= can_rest > 0
    ys, xs = np.nonzero(peaks)
    taken = [((d.x - 0.5) / 2, (d.y - 0.5) / 2) for d in found]
    out: list[Disc] = []
    for i in np.argsort(-contrast[ys, xs]):
        x, y = _centre_of_difference(deviation, float(xs[i]), float(ys[i]), 1.3 * radius_half)
        # (Centred, it may have moved onto what the search was kept off: a cue's tip by
        # the edge of the cloth it showed against, fresh 14's 384.)
        if can_rest is not None and not _inside(can_rest, x, y):
            continue
        if any(math.hypot(x - tx, y - ty) < FAINT_APART_RADII * radius_half for tx, ty in taken):
            continue
        taken.append((x, y))
        strength = float(contrast[ys[i], xs[i]]) / level
        out.append(replace(_full_res(x, y, 1, 1.0), faint=True, contrast=strength))
        if len(out) >= 2 * wanted:
            break
    return out


def _inside(mask: U8, x: float, y: float) -> bool:
    """Whether the pixel nearest (x, y) is set in `mask` (off it: no)."""
    row, col = round(y), round(x)
    return 0 <= row < mask.shape[0] and 0 <= col < mask.shape[1] and bool(mask[row, col])


def _disc_kernel(inner: float, outer: float) -> NDArray[np.float32]:
    n = math.ceil(outer)
    yy, xx = np.mgrid[-n : n + 1, -n : n + 1]
    distance = np.hypot(xx, yy)
    return np.asarray((distance >= inner) & (distance <= outer), np.float32)


def _cloth_count(on_cloth: NDArray[np.float32], kernel: NDArray[np.float32]) -> F32:
    """How many cloth pixels `kernel` covers around each pixel."""
    count = cv2.filter2D(on_cloth, -1, kernel, borderType=cv2.BORDER_CONSTANT)
    return np.asarray(np.maximum(count, 1e-3), np.float32)


def _cloth_mean(
    plane: U8, on_cloth: NDArray[np.float32], kernel: NDArray[np.float32], count: F32
) -> F32:
    """The mean of `plane` over `kernel` around each pixel, counting only cloth pixels
    (`count` of them, from _cloth_count)."""
    total = cv2.filter2D(
        plane.astype(np.float32) * on_cloth, -1, kernel, borderType=cv2.BORDER_CONSTANT
    )
    return np.asarray(total / count, np.float32)


def _centre_of_difference(
    deviation: F32, x: float, y: float, radius: float, steps: int = 4
) -> tuple[float, float]:
    """Where the difference around (x, y) is centred (a few mean-shift steps)."""
    height, width = deviation.shape
    r = math.ceil(radius)
    for _ in range(steps):
        x0, y0 = max(0, round(x) - r), max(0, round(y) - r)
        x1, y1 = min(width, round(x) + r + 1), min(height, round(y) + r + 1)
        rows, cols = np.mgrid[y0:y1, x0:x1]
        weights = deviation[y0:y1, x0:x1] * (np.hypot(cols - x, rows - y) <= radius)
        total = float(weights.sum())
        if total <= 0:
            break
        x, y = float((weights * cols).sum() / total), float((weights * rows).sum() / total)
    return x, y


def _depth(weights: NDArray[np.float32] | NDArray[np.bool_]) -> NDArray[np.float32]:
    """How far inside the blob each pixel is (distance to the nearest pixel outside)."""
    mask = (weights > 0).astype(np.uint8)
    padded = cv2.copyMakeBorder(mask, 1, 1, 1, 1, cv2.BORDER_CONSTANT, value=(0,))
    return np.asarray(cv2.distanceTransform(padded, cv2.DIST_L2, 3)[1:-1, 1:-1])


def _ball_wide(
    weights: NDArray[np.float32],
    radius: float,
    near: tuple[float, float],
    off_cloth: NDArray[np.bool_] | None = None,
) -> NDArray[np.float32]:
    """The weights where a disc of STREAK_CORE radii fits inside the blob (all of them if
    it fits nowhere), but for pieces of that no bigger than a cue's end joined to the one
    nearest `near` across more than NECK_RADII of thinner blob. (Off the cloth, where
    nothing is seen, the blob may go on: a disc fits where the cloth's edge cuts it.)"""
    size = 2 * round(STREAK_CORE * radius) + 1
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size))
    inside = weights > 0 if off_cloth is None else (weights > 0) | off_cloth
    wide = cv2.morphologyEx(inside.astype(np.uint8), cv2.MORPH_OPEN, kernel) * (weights > 0)
    if not wide.any():
        return weights
    pieces, labels = cv2.connectedComponents(wide)
    if pieces > 2:
        ys, xs = np.nonzero(labels)
        nearest = labels[ys, xs][np.argmin((xs - near[0]) ** 2 + (ys - near[1]) ** 2)]
        away = cv2.distanceTransform((labels != nearest).astype(np.uint8), cv2.DIST_L2, 3)
        ball_area = math.pi * radius * radius
        kept = [
            k
            for k in range(1, pieces)
            if away[labels == k].min() <= NECK_RADII * radius
            or np.count_nonzero(labels == k) > NECK_END_BALLS * ball_area
        ]
        wide = np.isin(labels, kept).astype(np.uint8)
    return np.where(wide > 0, weights, 0.0).astype(np.float32)


def _split(
    weights: NDArray[np.float32],
    count: int,
    radius: float,
    blurred_near: tuple[float, float] | None = None,
    edge: Edge | None = None,
) -> Split:
    """The weighted blob split into k balls of `radius`.

    A blurred streak's centre is that of what is a ball wide in it (`blurred_near`, where
    the ball was expected): blurred along its path a ball still is, and what joins its blob
    is thinner (the cue following through behind a ball just struck, which with its shadow
    may be nearly a ball wide at a low resolution, and is wider again where it crosses the
    cushion, a long neck away). (Opened with a disc, not cut to its deepest pixels: a ball
    clipped by the cloth's edge beside a cushion is shallow there, not thin.) `edge`, for a
    blob the cloth's edge cuts, is how deep it is and what of its box is off the cloth,
    where nothing is seen (_Blob.edge): as deep and as wide as it may be there."""
    depth = _depth(weights)
    if count == 1:
        if blurred_near is not None:
            unseen = None if edge is None else edge.off_cloth
            weights = _ball_wide(weights, radius, blurred_near, unseen)
        ys, xs = np.nonzero(weights)
        w = weights[ys, xs].astype(np.float64)
        total = w.sum()
        centres = [(float((w * xs).sum() / total), float((w * ys).sum() / total))]
    else:
        centres = _lloyd(weights, _seeds(depth, count, radius))
    # A ball is as thick as itself; a cue or a finger only crosses where a ball would be.
    # (Where the cloth's edge cuts it, as thick as it may be over the cushion; its balls are
    # seeded in what is seen of it.)
    thick_as = depth if edge is None else edge.depth
    thick = [bool(d >= MIN_DEPTH * radius) for d in _depth_at(thick_as, centres)]
    return Split(centres, _cover(weights, centres, radius), thick)


def _lloyd(
    weights: NDArray[np.float32],
    seeds: NDArray[np.float64],
    fixed: NDArray[np.int64] | None = None,
) -> list[tuple[float, float]]:
    """Lloyd's iterations from `seeds`: each centre (but those indexed by `fixed`) moves to
    the weighted middle of the pixels nearer it than any other."""
    pixels = _weighted_pixels(weights)
    c = np.asarray(seeds, np.float64)
    for _ in range(12):
        moved = _lloyd_step(pixels, c, fixed)
        done = float(np.abs(moved - c).max()) < 0.05
        c = moved
        if done:
            break
    return [(float(x), float(y)) for x, y in c]


class _Pixels(NamedTuple):
    """A blob's pixels for Lloyd's iterations: their (x, y) rows, weights, and the two
    multiplied."""

    points: F64
    weights: F64
    weighted: F64


def _weighted_pixels(weights: NDArray[np.float32]) -> _Pixels:
    """The blob's pixels and their weights."""
    ys, xs = np.nonzero(weights)
    points = np.stack([xs, ys], axis=1).astype(np.float64)
    w = weights[ys, xs].astype(np.float64)
    return _Pixels(points, w, points * w[:, None])


def _lloyd_step(pixels: _Pixels, centres: F64, fixed: NDArray[np.int64] | None = None) -> F64:
    """Each centre (but those indexed by `fixed`) moved to the weighted middle of the pixels
    nearer it than any other."""
    # Nearest by |c|^2 - 2 p.c (|p|^2 is the same for every centre): one matrix product, not
    # a (pixels, centres) array per term (a hot path: a rack's break at 1280x720).
    nearest = np.argmin((centres * centres).sum(axis=1) - 2.0 * (pixels.points @ centres.T), axis=1)
    count = len(centres)
    mass = np.bincount(nearest, weights=pixels.weights, minlength=count)
    held = mass > 0
    if fixed is not None:
        held[fixed] = False
    moved = centres.copy()
    for axis in (0, 1):
        along = np.bincount(nearest, weights=pixels.weighted[:, axis], minlength=count)
        moved[held, axis] = along[held] / mass[held]
    return moved


def _cover(
    weights: NDArray[np.float32], centres: list[tuple[float, float]], radius: float
) -> float:
    """How much of the blob discs of `radius` at `centres` cover."""
    ys, xs = np.nonzero(weights)
    c = np.asarray(centres, np.float64)
    nearest2 = ((xs[:, None] - c[None, :, 0]) ** 2 + (ys[:, None] - c[None, :, 1]) ** 2).min(axis=1)
    return float(np.count_nonzero(nearest2 <= (radius + 0.75) ** 2)) / len(xs)


def _depth_at(depth: NDArray[np.float32], centres: list[tuple[float, float]]) -> list[float]:
    """The depth at each centre's nearest pixel (a blob holds a ball or a few: plain numbers)."""
    bottom, right = depth.shape[0] - 1, depth.shape[1] - 1
    return [
        float(depth[min(max(round(y), 0), bottom), min(max(round(x), 0), right)])
        for x, y in centres
    ]


def _seeds(depth: NDArray[np.float32], count: int, radius: float) -> NDArray[np.float64]:
    """Starting centres: the blob's most interior points, at least a ball apart."""
    rows, cols = np.indices(depth.shape)
    remaining = depth.astype(np.float64)
    chosen: list[tuple[float, float]] = []
    min_gap2 = (1.4 * radius) ** 2
    for _ in range(count):
        y, x = np.unravel_index(int(np.argmax(remaining)), depth.shape)
        if remaining[y, x] <= 0:
            break
        chosen.append((float(x), float(y)))
        remaining[(cols - x) ** 2 + (rows - y) ** 2 < min_gap2] = 0.0
    if len(chosen) < count:  # a blob too thin for k interior points: spread along it
        ys, xs = np.unravel_index(np.argsort(depth, axis=None)[::-1], depth.shape)
        chosen += [(float(xs[i]), float(ys[i])) for i in range(len(chosen), count)]
    return np.array(chosen)
