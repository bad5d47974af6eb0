"""Which ball is which: the cue ball or 1–10, by colour, stripe and the set still on the table.

A ball's look is measured on its disc: how much of it is white, black or coloured, and the
colour's chroma relative to the cloth's brightness (so an exposure change does not move it).
Stripes (9, 10) show much more white than solids (1, 2) over a shot, whatever way they roll.
The set of balls on the table is known from the rules, so ids are assigned all at once
(each id to one ball), which settles what one look alone cannot.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.assignment import assign
from vision.cloth import ClothModel, Planes
from vision.exposure import CLIPPED, encoded, linear_light

BallKey = int | str  # 1..10 or "cue"

# WPA ball colours (sRGB) as players know them; 9 and 10 are the stripes of 1 and 2.
PALETTE_RGB: dict[int, tuple[int, int, int]] = {
    1: (245, 195, 20),
    2: (20, 60, 190),
    3: (210, 25, 30),
    4: (90, 35, 130),
    5: (250, 110, 20),
    6: (20, 120, 60),
    7: (120, 25, 35),
    9: (245, 195, 20),
    10: (20, 60, 190),
}
STRIPES = (9, 10)
# A look is measured against the cloth's brightness above black where the ball lies, plus a
# pedestal of this share of the table's median: a ratio to a dim corner's cloth alone would
# overstate how bright and colourful its balls are.
PEDESTAL = 0.22
# Below this chroma, as a share of the cloth's brightness where the ball lies, a bright pixel
# is white, a dark one black: both grow with the light, so a darker camera, or a dim corner,
# sees the same looks.
GREY_CHROMA = 0.36
# A bright pixel whose chroma is below this share of its own brightness is pale: white in
# any light, though in a dim corner under a warm lamp its chroma is twice the cloth's
# brightness (the cloth is no measure of it there). A coloured ball's least saturated colour
# (the yellow 1) shows half its brightness. Pale counts for the cue ball's white only: a
# coloured ball's pale highlights would shift its hue, and a cue's white ferrule on blue
# cloth would pass for a stripe.
WHITE_SATURATION = 0.2
UNASSIGNED_COST = 40.0
# What a brightly coloured ball's look costs with no coloured pixels at all (scaled down as
# more show); the dark 4 and 7 show dark pixels instead.
COLOURLESS_COST = 2.0
DARK_BALLS = (4, 7)
# How much better another id must fit a ball that has not moved to take its id from it.
KEPT_ID_BONUS = 3.0
# ...and one followed to where it is: a tie-breaker only (tracks can swap in a crowd), for
# looks nothing else tells apart (a 9 with its stripe turned under, and the cue ball).
FOLLOWED_ID_BONUS = 0.5
# A ball's look while it rolls (blurred, turning) is weighed only for what no turn of another
# ball shows: a stripe's white caps (at least ROLL_WHITE of its disc; a solid shows no more
# than its number's circle), colour (never the cue ball's), or plain colour with no white (a
# solid's every turn; a stripe's only while it rolls on its band, and that changes at a hit).
ROLL_WHITE = 0.25
ROLL_PLAIN_WHITE = 0.1
ROLL_PLAIN_COLOUR = 0.75
ROLL_COLOURED = 0.25
ROLL_COLOURLESS = 0.05
ROLL_LOOK_COST = 2.0  # one look in motion that no turn of the ball would show
ROLL_PLAIN_COST = 1.0  # one plain look for a stripe: unlikely, not impossible
ROLL_COST_CAP = 16.0  # looks 0.1 s apart are not independent: a long roll proves no more
# How much better the names the rolls say must fit than those given at rest to replace them.
RENAME_MARGIN = 3.0
# Balls one look at rest may not tell apart: a stripe with its band up or turned under, the
# solid of its colour, the cue ball.
LOOK_ALIKES: tuple[BallKey, ...] = ("cue", 1, 2, 9, 10)
# The red 3 and the blues (2, 10) more colourful than expected (a camera saturating reds, a
# bright lamp) are unlike the paler look of another ball of nearly one hue (fresh 2's 095: a
# 5 as red as the 3 there, and paler), but no more than a plain difference of hue says: fresh
# 14's 380, a 3 twice as colourful as expected beside a 5 47 degrees yellower, was named 5.
VIVID_BALLS = (3, 2, 10)
MORE_COLOURFUL_COST = 2.0
# A colour channel clipped in this share of a ball's coloured pixels says only that the ball
# is that much of its colour or more.
CLIPPED_CHANNEL_SHARE = 0.5
# ...over-exposed as much as the light on it is brighter than the table's typical light (the
# camera is exposed for that), its Y ratio taken back to linear light by a display gamma, up
# to three stops.
DISPLAY_GAMMA = 2.2
MAX_OVER_EXPOSURE = 8.0
TINT_OF_BLACK = 0.2  # an 8's pixels lean this little towards any hue (cloth light, blur)
FEW_COLOURED = 0.05  # a look with fewer coloured pixels is judged by its tint


@dataclass(frozen=True)
class Look:
    """What a ball looked like: fractions of its disc, and its mean chroma over the cloth."""

    white: float
    dark: float
    colour: float
    chroma: tuple[float, float]  # (U, V) of the coloured pixels / cloth brightness
    weight: float  # how many pixels it rests on
    at_rest: bool = True  # taken while the ball stood still (not blurred)
    # (U, V) of all but its white pixels / cloth brightness: in dim light a maroon 7 has no
    # pixel colourful enough to count as coloured, yet its dark pixels lean maroon; an 8's
    # do not.
    tint: tuple[float, float] = (0.0, 0.0)
    pale: float = 0.0  # the share of its disc coloured against the cloth, yet pale
    # The shares of its coloured pixels whose red, green, blue was clipped (a lamp's hot
    # spot): an orange 5 clipped in red is seen as yellow as the 1.
    clipped: tuple[float, float, float] = (0.0, 0.0, 0.0)
    lit: float = 1.0  # how bright the cloth under it is, as a ratio to the table's median

    @staticmethod
    def combine(looks: Iterable[Look]) -> Look | None:
        """The mean look; looks at rest only, when there are any (blur mixes in the cloth)."""
        items = [lk for lk in looks if lk.weight > 0]
        if any(lk.at_rest for lk in items):
            items = [lk for lk in items if lk.at_rest]
        total = sum(lk.weight for lk in items)
        if total == 0:
            return None

        def mean(f: Callable[[Look], float]) -> float:
            return sum(f(lk) * lk.weight for lk in items) / total

        coloured = sum(lk.weight * lk.colour for lk in items)
        chroma_u = sum(lk.chroma[0] * lk.weight * lk.colour for lk in items) / max(coloured, 1e-9)
        chroma_v = sum(lk.chroma[1] * lk.weight * lk.colour for lk in items) / max(coloured, 1e-9)
        return Look(
            white=mean(lambda lk: lk.white),
            dark=mean(lambda lk: lk.dark),
            colour=mean(lambda lk: lk.colour),
            chroma=(chroma_u, chroma_v),
            weight=total,
            tint=(mean(lambda lk: lk.tint[0]), mean(lambda lk: lk.tint[1])),
            pale=mean(lambda lk: lk.pale),
            clipped=(
                mean(lambda lk: lk.clipped[0]),
                mean(lambda lk: lk.clipped[1]),
                mean(lambda lk: lk.clipped[2]),
            ),
            lit=mean(lambda lk: lk.lit),
        )


def look_at(planes: Planes, y_half: NDArray[np.uint8], cloth: ClothModel, x: float, y: float,
            radius_px: float) -> Look:  # fmt: skip
    """Measure a ball's look around its image centre (full-resolution pixels)."""
    hx, hy = (x + 0.5) / 2 - 0.5, (y + 0.5) / 2 - 0.5
    r = max(1.0, 0.8 * radius_px / 2)
    x0, x1 = max(0, int(hx - r)), min(y_half.shape[1], int(hx + r) + 2)
    y0, y1 = max(0, int(hy - r)), min(y_half.shape[0], int(hy + r) + 2)
    if x1 <= x0 or y1 <= y0:
        return Look(0, 0, 0, (0, 0), 0)
    gy, gx = np.mgrid[y0:y1, x0:x1]
    disc = (gx - hx) ** 2 + (gy - hy) ** 2 <= r * r
    black, top = planes.levels()
    lit = max(cloth.median_y - black, 1.0)
    raw = y_half[y0:y1, x0:x1][disc]
    lum = raw.astype(np.float32) + (PEDESTAL * lit - black)
    u = planes.u[y0:y1, x0:x1][disc].astype(np.float32) - 128
    v = planes.v[y0:y1, x0:x1][disc].astype(np.float32) - 128
    row = int(min(max(hy, 0), cloth.y.shape[0] - 1))
    col = int(min(max(hx, 0), cloth.y.shape[1] - 1))
    under = max(float(cloth.y[row, col]) - black, 0.0)
    level = under + PEDESTAL * lit
    chroma = np.hypot(u, v)
    # A ball's colour fades with the light on it: in a dim corner a yellow 1 has half the
    # chroma it has in the middle, and measured against the table's light it was grey, and
    # (brighter than the cloth round it) a stripe's white.
    grey = chroma < GREY_CHROMA * max(under, 1.0)
    # (Clipped, a pixel is bright however bright the cloth under a lamp's hot spot is.)
    bright = (lum > 1.45 * level) | (raw >= top - CLIPPED)
    white = grey & bright
    pale = ~grey & bright & (chroma < WHITE_SATURATION * np.maximum(raw - black, 1.0))
    dark = grey & (lum < 0.75 * level)
    coloured = ~grey
    n = float(len(lum))
    if n == 0:
        return Look(0, 0, 0, (0, 0), 0)
    # (Counted with count_nonzero: a third of .sum()'s and .any()'s cost on a ball's pixels.)
    n_coloured = np.count_nonzero(coloured)
    cu = float(u[coloured].mean()) / level if n_coloured else 0.0
    cv = float(v[coloured].mean()) / level if n_coloured else 0.0
    plain = ~white
    n_plain = np.count_nonzero(plain)
    tu = float(u[plain].mean()) / level if n_plain else 0.0
    tv = float(v[plain].mean()) / level if n_plain else 0.0
    clipped = (
        _clipped(planes, raw[coloured], u[coloured], v[coloured]).mean(axis=0)
        if n_coloured
        else np.zeros(3)
    )
    return Look(
        white=float(np.count_nonzero(white)) / n,
        dark=float(np.count_nonzero(dark)) / n,
        colour=float(n_coloured) / n,
        chroma=(cu, cv),
        weight=n,
        tint=(tu, tv),
        pale=float(np.count_nonzero(pale)) / n,
        clipped=(float(clipped[0]), float(clipped[1]), float(clipped[2])),
        lit=under / max(cloth.median_y - black, 1.0),
    )


def _clipped(
    planes: Planes, y: NDArray[np.uint8], u: NDArray[np.float32], v: NDArray[np.float32]
) -> NDArray[np.bool_]:
    """Which of red, green, blue (columns) each pixel (Y, and U and V less 128) clipped, its
    RGB worked back from its YUV (BT.601). (A frame Exposure scaled down shows none: its
    looks are judged by the palette's hues, as they were.)"""
    black, top = planes.levels()
    to_full = 255.0 / (top - black)
    chroma_to_full = to_full * (219.0 / 224.0 if planes.video_range else 1.0)
    luma = (y.astype(np.float32) - black) * to_full
    cb, cr = u * chroma_to_full, v * chroma_to_full
    rgb = np.stack([luma + 1.402 * cr, luma - 0.344 * cb - 0.714 * cr, luma + 1.772 * cb], axis=1)
    return np.asarray(rgb >= 255.0 - CLIPPED * to_full)


@dataclass(frozen=True)
class Roll:
    """What a ball showed in its looks while it rolled: how many showed a stripe's white,
    plain colour, any colour, no colour."""

    white: int = 0
    plain: int = 0
    coloured: int = 0
    colourless: int = 0

    def add(self, look: Look) -> Roll:
        return Roll(
            self.white + (look.white >= ROLL_WHITE),
            self.plain + (look.white < ROLL_PLAIN_WHITE and look.colour >= ROLL_PLAIN_COLOUR),
            self.coloured + (look.colour >= ROLL_COLOURED),
            self.colourless + (look.colour < ROLL_COLOURLESS),
        )


def roll_cost(roll: Roll, ball: BallKey) -> float:
    """How unlike `ball` its looks while rolling were (0: nothing against it)."""
    if ball == "cue":
        against = ROLL_LOOK_COST * roll.coloured
    elif ball in STRIPES:
        against = ROLL_LOOK_COST * roll.colourless + ROLL_PLAIN_COST * roll.plain
    elif ball in LOOK_ALIKES:  # the solids that have a stripe of their colour
        against = ROLL_LOOK_COST * roll.white
    else:
        against = 0.0
    return min(against, ROLL_COST_CAP)


def renamed_by_roll(balls: Sequence[tuple[BallKey, Look, Roll]]) -> list[BallKey]:
    """The names of look-alike balls (each: its name, its look at the rest before it rolled,
    how it rolled) once their rolls are weighed with their looks at rest: the same names
    shared anew where that fits clearly better. A 9 resting with its band up looks like
    the 1; rolling, it shows its white."""
    keys = [key for key, _, _ in balls]
    if len(keys) < 2:
        return keys
    rolled = np.array([[roll_cost(roll, key) for key in keys] for _, _, roll in balls])
    cost = rolled + np.array([[id_cost(look, key) for key in keys] for _, look, _ in balls])
    pairs = assign(cost, max_cost=math.inf)
    if len(pairs) < len(keys):
        return keys
    best = sum(float(cost[row, col]) for row, col in pairs)
    # Only the rolls are new since the names were given: looks at rest alone (two balls that
    # did not move, one in a dim corner) are no reason to share the names anew.
    best_rolled = sum(float(rolled[row, col]) for row, col in pairs)
    if best > float(np.trace(cost)) - RENAME_MARGIN or best_rolled >= float(np.trace(rolled)):
        return keys
    return [keys[col] for _, col in sorted(pairs)]


def _over_exposed(
    brighter: NDArray[np.float64],
) -> dict[int, tuple[NDArray[np.bool_], NDArray[np.float64]]]:
    """Each ball's palette colour lit `brighter` times as brightly (each factor, in linear
    light), its channels clipped at full scale: which of red, green, blue clip, and its hue
    (the angle of its chroma, U and V as Look.chroma's), at each factor."""
    linear = linear_light(np.array([PALETTE_RGB[k] for k in PALETTE_RGB], np.float64) / 255.0)
    lit = linear[:, None, :] * brighter[None, :, None]
    bgr = np.round(encoded(lit)[..., ::-1] * 255.0).astype(np.uint8)
    yuv = cv2.cvtColor(bgr, cv2.COLOR_BGR2YUV).astype(np.float64)
    hues = np.arctan2(yuv[..., 2] - 128.0, yuv[..., 1] - 128.0)
    return {key: (lit[i] >= 1.0, hues[i]) for i, key in enumerate(PALETTE_RGB)}


_EXPOSURES = np.geomspace(1.0, MAX_OVER_EXPOSURE, 64)
_OVER_EXPOSED = _over_exposed(_EXPOSURES)
# The palette's chroma directions (unit length), as lit for (factor 1).
_DIRECTIONS = {
    key: (math.cos(float(hues[0])), math.sin(float(hues[0])))
    for key, (_, hues) in _OVER_EXPOSED.items()
}


def _hue_off(
    ball: int,
    chroma: tuple[float, float],
    clipped: tuple[float, float, float] = (0.0, 0.0, 0.0),
    lit: float = 1.0,
) -> float:
    """How far (radians) a look's hue (`chroma`) is from `ball`'s: from its palette hue, or,
    when the look `clipped` some of red, green and blue, from the hue the ball shows
    over-exposed so that it clips those it mostly clipped and no others than it partly
    clipped (if it can, in the light on it, `lit` as Look.lit), at whichever exposure fits
    best, or not over-exposed at all where it only partly clipped (a shaded ball clips on
    its lit side first: fresh 54's 1375, an orange 5 under a hot spot a quarter clipped in
    red, as yellow as the 9)."""
    flags = np.array([share >= CLIPPED_CHANNEL_SHARE for share in clipped])
    partly = np.array([share > 0.0 for share in clipped])
    if partly.any():
        clips, hues = _OVER_EXPOSED[ball]
        most = max(lit, 1.0) ** DISPLAY_GAMMA
        fits = (clips >= flags).all(axis=1) & (clips <= partly).all(axis=1) & (most >= _EXPOSURES)
        if fits.any():
            seen = math.atan2(chroma[1], chroma[0])
            return float(np.abs((hues[fits] - seen + math.pi) % (2 * math.pi) - math.pi).min())
    du, dv = _DIRECTIONS[ball]
    cosine = (chroma[0] * du + chroma[1] * dv) / math.hypot(*chroma)
    return math.acos(max(-1.0, min(1.0, cosine)))


def id_cost(look: Look, ball: BallKey) -> float:
    """How unlike `ball` this look is (0: a perfect match)."""
    if ball == "cue":
        white, colour = look.white + look.pale, look.colour - look.pale
        return 6 * (1 - white) ** 2 / 0.25 + 4 * colour**2 / 0.2 + 8 * look.dark
    if ball == 8:
        black = 6 * (1 - look.dark - 0.1) ** 2 / 0.3 + 4 * look.colour**2 / 0.2 + 4 * look.white
        return black + (math.hypot(*look.tint) / TINT_OF_BLACK) ** 2
    assert isinstance(ball, int)
    coloured = look.colour >= FEW_COLOURED
    cu, cv = look.chroma if coloured else look.tint
    size = math.hypot(cu, cv)
    if size <= 1e-6:
        angle = math.pi
    elif coloured:
        angle = _hue_off(ball, (cu, cv), look.clipped, look.lit)
    else:  # (by its tint: no coloured pixel, none clipped)
        angle = _hue_off(ball, (cu, cv))
    hue = (angle / 0.45) ** 2
    stripe = ball in STRIPES
    white_expected = 0.45 if stripe else 0.06
    white = (look.white - white_expected) ** 2 / (0.2 if stripe else 0.1) ** 2
    # Maroon (7) is the darker red and purple (4) the darker blue: their chroma is smaller.
    strength = {3: 0.5, 7: 0.3, 4: 0.3, 2: 0.45, 10: 0.45}.get(ball)
    weak = 0.0
    if strength is not None:
        weak = ((size - strength) / 0.2) ** 2 * 0.5
        if ball in VIVID_BALLS and size > strength:  # a camera saturating it, or its light
            weak = min(weak, MORE_COLOURFUL_COST)
    # A coloured ball shows its colour (in dim light the 4 and 7 show dark pixels instead):
    # a disc with none (a patch of the cloth, a shade) is a poor one, whatever its tint.
    shown = look.colour + (look.dark if ball in DARK_BALLS else 0.0)
    colourless = COLOURLESS_COST * max(0.0, 1.0 - shown / (0.4 if stripe else 0.8)) ** 2
    # A stripe resting with a white cap up shows little of its band, or none (fresh 25's
    # 666: the 10 all white at 640x360, as white as the cue ball): its hue and strength are
    # judged on what is not white of it.
    judged = 1.0 - look.white if stripe else 1.0
    return (hue * (0.3 + look.colour) + weak) * judged + white + 3 * look.dark + colourless


def identify(
    looks: Sequence[Look],
    candidates: Iterable[BallKey],
    was: Sequence[BallKey | None] = (),
    max_cost: float = UNASSIGNED_COST,
    followed: Sequence[BallKey | None] = (),
    rolls: Sequence[Roll] = (),
    doubts: Sequence[float] = (),
) -> dict[int, BallKey]:
    """The best assignment of the candidate ids to the looks (index -> id); `was`, where
    given, is an id each look's ball is known to have had (it has not moved since);
    `followed`, the id its track carried there; `rolls`, how each ball looked rolling
    there, which tells the cue ball from a stripe showing no colour (not a solid from any
    ball but its stripe: that is renamed_by_roll's, among look-alikes only); `doubts`, how
    much less likely each look is a ball at all (added to its every cost)."""
    ids = list(candidates)
    if not looks or not ids:
        return {}
    cost = np.array([[id_cost(look, ball) for ball in ids] for look in looks])
    if len(doubts):
        cost += np.asarray(doubts, np.float64)[:, None]
    for row, roll in enumerate(rolls):
        cost[row] += [roll_cost(roll, b) if b == "cue" or b in STRIPES else 0.0 for b in ids]
    for prior, bonus in ((was, KEPT_ID_BONUS), (followed, FOLLOWED_ID_BONUS)):
        for row, key in enumerate(prior):
            if key in ids:
                cost[row, ids.index(key)] -= bonus
    # A ball that has not moved keeps its id unless its own look says otherwise: how another
    # ball rolled is no reason to take it (a 9 rolling on its band shows no white, like the
    # 1 that stood still; a blue 10 in dim light no colour).
    for row, key in enumerate(was):
        if key in ids:
            col = ids.index(key)
            kept = float(cost[row, col])
            if kept <= np.delete(cost[row], col).min(initial=np.inf):
                cost[:, col] = np.inf
                cost[row] = np.inf
                cost[row, col] = kept
    return {row: ids[col] for row, col in assign(cost, max_cost=max_cost)}
