"""Which ball is which, on drawn balls in good and poor light."""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np
import pytest

from tests.vision.drawn import CALIBRATION, CLOTH_BGR, CORNERS, HEIGHT, WIDTH
from vision.cloth import ClothModel, Planes
from vision.exposure import encoded, linear_light
from vision.identify import (
    PALETTE_RGB,
    STRIPES,
    BallKey,
    Look,
    Roll,
    id_cost,
    identify,
    look_at,
    renamed_by_roll,
)

ALL: tuple[BallKey, ...] = ("cue", 1, 2, 3, 4, 5, 6, 7, 8, 9, 10)
SPOTS = {key: (300.0 + 200.0 * i, 400.0 + 300.0 * (i % 2)) for i, key in enumerate(ALL)}


def bgr(key: BallKey) -> tuple[int, int, int]:
    if key == "cue":
        return (235, 235, 235)
    if key == 8:
        return (18, 18, 18)
    assert isinstance(key, int)
    r, g, b = PALETTE_RGB[key]
    return (b, g, r)


def looks_on_a_table(
    light: float, hot_spot: tuple[BallKey, float] | None = None
) -> dict[BallKey, Look]:
    """Every ball drawn (stripes as a band on white, each with the lights' highlight), the
    whole picture dimmed to `light`, and each ball's look where it lies; `hot_spot`: a ball
    and how many times brighter a lamp lights it and the cloth round it (clipped)."""
    image = np.zeros((HEIGHT, WIDTH, 3), np.uint8)
    image[:] = (20, 40, 60)
    cv2.fillPoly(image, [np.array(CORNERS, np.int32)], CLOTH_BGR)
    radius = round(CALIBRATION.ball_radius_px())
    centres = {}
    for key, xy in SPOTS.items():
        px, py = np.round(CALIBRATION.to_image(np.array([xy]))[0]).astype(int)
        centres[key] = (float(px), float(py))
        if key in STRIPES:
            cv2.circle(image, (px, py), radius, (235, 235, 235), -1, cv2.LINE_AA)
            band = np.zeros(image.shape[:2], np.uint8)
            cv2.circle(band, (px, py), radius, (255,), -1)
            band[: py - radius // 2] = 0
            band[py + radius // 2 + 1 :] = 0
            image[band > 0] = bgr(key)
        else:
            cv2.circle(image, (px, py), radius, bgr(key), -1, cv2.LINE_AA)
        cv2.circle(image, (px - 2, py - 2), 1, (255, 255, 255), -1)
    image = np.clip(image.astype(np.float32) * light, 0, 255).astype(np.uint8)
    if hot_spot is not None:
        # (Light adds up linearly: the spot is brighter by `brighter` before the tone curve.)
        key, brighter = hot_spot
        spot = np.zeros(image.shape[:2], np.uint8)
        cv2.circle(spot, (round(centres[key][0]), round(centres[key][1])), 6 * radius, (1,), -1)
        lit = linear_light(image[spot > 0].astype(np.float64) / 255.0) * brighter
        image[spot > 0] = np.round(encoded(lit) * 255.0).astype(np.uint8)
    planes = Planes.from_bgr(image)
    cloth = ClothModel.estimate(planes, CALIBRATION)
    y_half = planes.y_half()
    radius_px = CALIBRATION.ball_radius_px()
    return {key: look_at(planes, y_half, cloth, x, y, radius_px) for key, (x, y) in centres.items()}


@pytest.mark.parametrize("light", [1.0, 0.6])
def test_every_ball_is_told_from_the_others_all_at_once(light: float) -> None:
    looks = looks_on_a_table(light)
    keys = list(looks)
    assigned = identify([looks[k] for k in keys], ALL)
    assert {keys[row]: key for row, key in assigned.items()} == {k: k for k in keys}


@pytest.mark.parametrize("light", [1.0, 0.6, 0.35])
def test_the_maroon_7_and_the_black_8_are_told_apart_even_in_poor_light(light: float) -> None:
    # Dimmed, the 7 has no pixel colourful enough to count as coloured: its dark pixels
    # still lean maroon, and the 8's do not.
    looks = looks_on_a_table(light)
    seven, eight = looks[7], looks[8]
    assert id_cost(seven, 7) < id_cost(seven, 8)
    assert id_cost(eight, 8) < id_cost(eight, 7)


@pytest.mark.parametrize("light", [0.55, 0.35])
def test_a_darker_camera_sees_the_same_looks(light: float) -> None:
    # A ball's colour and the cloth's brightness fall together with the light: measured
    # against the cloth (above black), every look stays what it was.
    bright, dim = looks_on_a_table(1.0), looks_on_a_table(light)
    for key in ALL:
        a, b = bright[key], dim[key]
        assert abs(a.white - b.white) <= 0.15, key
        assert abs(a.dark - b.dark) <= 0.15, key
        assert abs(a.colour - b.colour) <= 0.15, key
        assert np.hypot(a.chroma[0] - b.chroma[0], a.chroma[1] - b.chroma[1]) <= 0.1, key


@pytest.mark.parametrize("light", [1.0, 0.8])
@pytest.mark.parametrize("brighter", [2.5, 4.0])
@pytest.mark.parametrize("ball", [5, 1, 3, 7, 6, 2])
def test_a_ball_clipped_under_a_lamp_s_hot_spot_is_told_from_the_others(
    ball: BallKey, brighter: float, light: float
) -> None:
    # Under a lamp's hot spot four times the table's light the orange 5 clips in red and is
    # seen nearly as yellow as the 1 (fresh 43's 1112: named the 1, the 1 named the 5, and two
    # rulings went wrong). Each ball is judged by the hue it shows over-exposed so that it
    # clips the channels the look clipped, as far as the light on it could over-expose it,
    # at whichever exposure fits best (a red 3 clipped in red stays red; an orange 5, as it
    # brightens, turns yellow). The other balls under such a hot spot keep their names too.
    looks = looks_on_a_table(light, hot_spot=(ball, brighter))
    if ball == 5:
        assert looks[5].clipped[0] > 0.5  # the case in point: the 5 clipped in red
    keys = list(looks)
    assigned = identify([looks[k] for k in keys], ALL)
    assert {keys[row]: key for row, key in assigned.items()} == {k: k for k in keys}


def test_the_1_and_a_5_clipped_under_a_hot_spot_as_measured() -> None:
    # Fresh 43's 1112, its first frame: the 1 in the table's light, the 5 under a hot spot (the
    # cloth there 1.6 times the table's median; half its coloured pixels clipped in red), both
    # as yellow (10 and 11 degrees off the 1's hue).
    one = Look(white=0.0, dark=0.0, colour=1.0, chroma=(-1.113, 0.409), weight=16.0)
    five = Look(white=0.0, dark=0.0, colour=1.0, chroma=(-0.672, 0.234), weight=16.0,
                clipped=(0.5, 0.0, 0.0), lit=1.61)  # fmt: skip
    assert identify([one, five], [1, 5]) == {0: 1, 1: 5}
    unclipped = dataclasses.replace(five, clipped=(0.0, 0.0, 0.0))
    assert identify([one, unclipped], [1, 5]) == {0: 5, 1: 1}  # by its hue alone
    # Held-out 001: the 3, more colourful than expected, and a 5 clipped in red. Clipping
    # red turns an orange yellower, never redder: the 5 is no more like the 3 for it.
    three = Look(white=0.059, dark=0.0, colour=0.941, chroma=(-0.245, 0.769), weight=17.0)
    five = Look(white=0.0625, dark=0.0, colour=0.75, chroma=(-0.456, 0.365), weight=16.0,
                clipped=(0.75, 0.0, 0.0), lit=1.95)  # fmt: skip
    assert identify([three, five], [3, 5]) == {0: 3, 1: 5}


def test_a_5_partly_clipped_under_a_hot_spot_and_a_9_in_a_dim_corner_as_measured() -> None:
    # Fresh 54's 1375, its first frame: the 5 under a hot spot (the cloth there 1.7 times the
    # table's median; a quarter of its coloured pixels clipped in red), as yellow as the 9 at
    # the dim far end, which rests with its band up (6 % white). A ball partly clipped shows
    # a hue between its own and its hue over-exposed so that it clips just those channels.
    nine = Look(white=0.06, dark=0.0, colour=0.94, chroma=(-0.76, 0.33), weight=17.0,
                lit=0.47)  # fmt: skip
    five = Look(white=0.12, dark=0.0, colour=0.88, chroma=(-0.47, 0.31), weight=17.0,
                clipped=(0.27, 0.0, 0.0), lit=1.68)  # fmt: skip
    assert identify([nine, five], [5, 9]) == {0: 9, 1: 5}
    # In the table's light, not over-exposed, it would be taken for the 9 it is as yellow as.
    dim = dataclasses.replace(five, lit=1.0)
    assert identify([nine, dim], [5, 9]) == {0: 5, 1: 9}


def test_a_clipped_cue_ball_is_white_under_a_hot_spot_however_bright_the_cloth() -> None:
    image = np.zeros((HEIGHT, WIDTH, 3), np.uint8)
    image[:] = (20, 40, 60)
    cloth_bgr = (230, 200, 130)  # a lamp's hot spot: two thirds of full scale
    cv2.fillPoly(image, [np.array(CORNERS, np.int32)], cloth_bgr)
    px, py = np.round(CALIBRATION.to_image(np.array([SPOTS["cue"]]))[0]).astype(int)
    radius_px = CALIBRATION.ball_radius_px()
    cv2.circle(image, (px, py), round(radius_px), (255, 255, 255), -1, cv2.LINE_AA)
    planes = Planes.from_bgr(image)
    cloth = ClothModel.estimate(planes, CALIBRATION)
    look = look_at(planes, planes.y_half(), cloth, float(px), float(py), radius_px)
    assert look.white > 0.9
    assert identify([look], ALL) == {0: "cue"}


def test_a_solid_in_a_dim_corner_is_not_taken_for_a_stripe() -> None:
    # Fresh 3's 118: the lamp's light falls to a fifth at the foot; the 1 there (a camera
    # washing its yellow out) has a fifth of the chroma it has in the middle, yet is still
    # brighter than the cloth round it. Its colour is measured against the light where it
    # lies, not the table's.
    pale = {1: (120, 200, 215), 9: (120, 200, 215), 5: bgr(5)}
    image = np.zeros((HEIGHT, WIDTH, 3), np.uint8)
    image[:] = (20, 40, 60)
    cv2.fillPoly(image, [np.array(CORNERS, np.int32)], CLOTH_BGR)
    radius = round(CALIBRATION.ball_radius_px())
    spots = {1: (2350.0, 400.0), 9: (2350.0, 900.0), 5: (600.0, 400.0)}
    centres = []
    for key, xy in spots.items():
        px, py = np.round(CALIBRATION.to_image(np.array([xy]))[0]).astype(int)
        centres.append((float(px), float(py)))
        cv2.circle(image, (px, py), radius, (235, 235, 235) if key == 9 else pale[key], -1)
        if key == 9:
            band = np.zeros(image.shape[:2], np.uint8)
            cv2.circle(band, (px, py), radius, (255,), -1)
            band[: py - radius // 2] = 0
            band[py + radius // 2 + 1 :] = 0
            image[band > 0] = pale[9]
    light = np.linspace(1.0, 0.2, WIDTH, dtype=np.float32)[None, :, None]
    image = np.clip(image.astype(np.float32) * light, 0, 255).astype(np.uint8)
    planes = Planes.from_bgr(image)
    cloth = ClothModel.estimate(planes, CALIBRATION)
    radius_px = CALIBRATION.ball_radius_px()
    looks = [look_at(planes, planes.y_half(), cloth, x, y, radius_px) for x, y in centres]
    assert looks[0].white < 0.1 < looks[1].white
    assert identify(looks, [1, 9, 5]) == {0: 1, 1: 9, 2: 5}


def test_a_patch_of_the_cloth_does_not_take_a_coloured_ball_s_id_from_it() -> None:
    # On blue cloth with washed-out colours: the blue 2, and a patch of the cloth in a lamp's
    # shade found as a disc, with no coloured pixel but the cloth's faint blue tint.
    two = Look(white=0.0, dark=0.0, colour=1.0, chroma=(0.18, -0.18), weight=18.0)
    patch = Look(white=0.0, dark=0.0, colour=0.0, chroma=(0.0, 0.0), weight=18.0,
                 tint=(0.21, -0.17))  # fmt: skip
    assert identify([patch, two], [2]) == {1: 2}


def test_a_patch_only_just_out_of_the_cloth_does_not_take_a_clear_balls_id() -> None:
    # Red cloth, a camera saturating reds (fresh 5's 173): the lamp's hot spot, a patch of the
    # cloth's own red barely out of it, looks more like the 3 than the 3 does (which looks
    # nearly orange). The patch is the one that is doubtful as a ball at all.
    patch = Look(white=0.0, dark=0.0, colour=1.0, chroma=(-0.072, 0.457), weight=18.0)
    three = Look(white=0.0, dark=0.0, colour=1.0, chroma=(-0.261, 0.802), weight=18.0)
    five = Look(white=0.0, dark=0.0, colour=1.0, chroma=(-0.630, 0.665), weight=18.0)
    looks = [patch, three, five]
    assert identify(looks, [3, 5]) == {0: 3, 2: 5}  # by their looks alone
    assert identify(looks, [3, 5], doubts=[3.7, 0.0, 0.0]) == {1: 3, 2: 5}


def test_a_red_more_colourful_than_expected_is_the_3_beside_a_much_yellower_5() -> None:
    # Fresh 14's 380, on purple cloth: the 3 twice as colourful as expected, the 5 47
    # degrees yellower than it (nearly the 1's hue), the 7 and the 1 beside them.
    three = Look(white=0.0, dark=0.0, colour=1.0, chroma=(-0.363, 1.093), weight=16.0)
    five = Look(white=0.0, dark=0.0, colour=1.0, chroma=(-0.698, 0.322), weight=16.0)
    seven = Look(white=0.0, dark=0.0, colour=1.0, chroma=(-0.145, 0.485), weight=16.0)
    one = Look(white=0.0, dark=0.0, colour=1.0, chroma=(-1.022, 0.195), weight=16.0)
    assert identify([three, five, seven, one], [1, 3, 5, 7]) == {0: 3, 1: 5, 2: 7, 3: 1}


def test_a_look_with_no_pixels_matches_nothing_well() -> None:
    empty = Look(0, 0, 0, (0, 0), 0)
    assert Look.combine([empty]) is None
    assert min(id_cost(empty, key) for key in ALL) > 5.0


def test_looks_nothing_tells_apart_keep_the_ids_their_balls_were_followed_with() -> None:
    # A 9 at rest with its stripe turned under looks as white as the cue ball.
    white = Look(white=1.0, dark=0.0, colour=0.0, chroma=(0.0, 0.0), weight=16.0)
    assert identify([white, white], ["cue", 9], followed=[9, "cue"]) == {0: 9, 1: "cue"}
    assert identify([white, white], ["cue", 9], followed=["cue", 9]) == {0: "cue", 1: 9}


def test_a_ball_followed_there_is_named_by_its_look_when_that_tells() -> None:
    red = Look(white=0.0, dark=0.0, colour=1.0, chroma=_unit(3), weight=16.0)
    orange = Look(white=0.0, dark=0.0, colour=1.0, chroma=_unit(5), weight=16.0)
    assert identify([red, orange], [3, 5], followed=[5, 3]) == {0: 3, 1: 5}


def _rolled(*looks: Look) -> Roll:
    roll = Roll()
    for look in looks:
        roll = roll.add(look)
    return roll


def test_a_9_at_rest_with_its_band_up_named_the_1_is_renamed_by_how_the_two_rolled() -> None:
    # Both show their yellow only at rest; the one named the 9 rolled without ever showing
    # white (as the 1 does), and the one named the 1 did not move.
    yellow = Look(white=0.06, dark=0.0, colour=0.94, chroma=_unit(1), weight=16.0)
    plain = dataclasses.replace(yellow, white=0.0, colour=1.0, at_rest=False)
    rolled = _rolled(*[plain] * 12)
    assert renamed_by_roll([(9, yellow, rolled), (1, yellow, Roll())]) == [1, 9]
    # Rolling with its white showing, the one named the 9 is the 9.
    striped = dataclasses.replace(plain, white=0.45, colour=0.55)
    assert renamed_by_roll([(9, yellow, _rolled(*[striped] * 6)), (1, yellow, Roll())]) == [9, 1]


def test_a_few_looks_in_motion_do_not_outweigh_a_plain_look_at_rest() -> None:
    # The 9 seen with its white at rest, the 1 all yellow: two plain looks while the 9 rolled
    # on its band are no reason to swap them.
    nine = Look(white=0.45, dark=0.0, colour=0.55, chroma=_unit(9), weight=16.0)
    one = Look(white=0.05, dark=0.0, colour=0.95, chroma=_unit(1), weight=16.0)
    plain = dataclasses.replace(one, white=0.0, colour=1.0, at_rest=False)
    assert renamed_by_roll([(9, nine, _rolled(plain, plain)), (1, one, Roll())]) == [9, 1]
    # ...nor any number of them: a stripe rolling on its band shows no white, and a long roll
    # proves no more than a short one.
    assert renamed_by_roll([(9, nine, _rolled(*[plain] * 100)), (1, one, Roll())]) == [9, 1]


def test_the_cue_ball_and_an_all_white_9_are_told_apart_by_the_colour_one_shows_rolling() -> None:
    white = Look(white=1.0, dark=0.0, colour=0.0, chroma=(0.0, 0.0), weight=16.0)
    colourless = dataclasses.replace(white, at_rest=False)
    banded = Look(0.4, 0.0, 0.6, _unit(9), 16.0, at_rest=False)
    assert renamed_by_roll([("cue", white, _rolled(*[banded] * 5)), (9, white, Roll())]) == [
        9,
        "cue",
    ]
    assert renamed_by_roll([("cue", white, _rolled(*[colourless] * 20)), (9, white, Roll())]) == [
        "cue",
        9,
    ]


def test_at_rest_the_ball_that_rolled_colourless_is_named_the_cue_ball_over_an_all_white_9() -> (
    None
):
    # As after a shot on pink cloth: the 9 rested all through it with its stripe under (all
    # white: the likeliest cue ball by its look), the cue ball rolled across the table and
    # stopped with its red dot up (a tenth coloured: a 9's stripe edge, by its look alone).
    nine = Look(white=1.0, dark=0.0, colour=0.0, chroma=(0.0, 0.0), weight=16.0)
    cue = Look(white=0.9, dark=0.0, colour=0.1, chroma=(-0.27, 0.8), weight=16.0)
    rolled = _rolled(*[dataclasses.replace(nine, at_rest=False)] * 20)
    assert identify([nine, cue], ["cue", 9], was=[9, None], followed=[None, "cue"]) == {
        0: "cue",
        1: 9,
    }
    assert identify(
        [nine, cue], ["cue", 9], was=[9, None], followed=[None, "cue"], rolls=[Roll(), rolled]
    ) == {0: 9, 1: "cue"}


def test_a_ball_that_stood_still_keeps_its_id_whatever_another_showed_rolling() -> None:
    # The 1 stood still through the shot; the 9 was struck, rolled on its band (no white) and
    # stopped with its band up: both look like the 1 at rest.
    one = Look(white=0.07, dark=0.0, colour=0.93, chroma=_unit(1), weight=16.0)
    nine = dataclasses.replace(one, white=0.12, colour=0.88)
    plain = _rolled(*[dataclasses.replace(one, white=0.0, colour=1.0, at_rest=False)] * 8)
    assert identify(
        [one, nine], [1, 9], was=[1, None], followed=[None, 9], rolls=[Roll(), plain]
    ) == {0: 1, 1: 9}
    # A blue 10 in dim light shows no colour rolling, nor the 2 beside it at rest.
    dim = Look(white=0.15, dark=0.54, colour=0.0, chroma=(0.0, 0.0), weight=16.0)
    colourless = _rolled(*[dataclasses.replace(dim, at_rest=False)] * 10)
    assert identify(
        [dim, dim], [2, 10], was=[2, None], followed=[None, 10], rolls=[Roll(), colourless]
    ) == {0: 2, 1: 10}
    # Its own look still says when it is not what it was named.
    red = Look(white=0.0, dark=0.0, colour=1.0, chroma=_unit(3), weight=16.0)
    assert identify([red, one], [1, 3], was=[1, None]) == {0: 3, 1: 1}


def test_a_roll_counts_what_no_turn_of_another_ball_shows() -> None:
    roll = _rolled(
        Look(0.5, 0.0, 0.5, (0.1, 0.1), 16.0),  # a stripe's white, and colour
        Look(0.0, 0.0, 1.0, (0.1, 0.1), 16.0),  # plain colour
        Look(1.0, 0.0, 0.0, (0.0, 0.0), 16.0),  # no colour: white (or black)
    )
    assert roll == Roll(white=2, plain=1, coloured=2, colourless=1)


def _unit(key: int) -> tuple[float, float]:
    """A strongly coloured look's chroma for ball `key` (cloth-relative, as look_at gives)."""
    rgb = np.array([[PALETTE_RGB[key][::-1]]], np.uint8)
    _, u, v = cv2.cvtColor(rgb, cv2.COLOR_BGR2YUV)[0, 0].astype(float) - [0, 128, 128]
    norm = float(np.hypot(u, v))
    return (0.8 * u / norm, 0.8 * v / norm)


def test_look_alikes_that_did_not_roll_keep_their_names_whatever_their_looks_at_rest() -> None:
    # Fresh 3's 118: neither the 9 nor the 1 moved in the shot; the 1, in a dim corner,
    # looks like the 9 at rest, and the 9 a little more like the 1. Named when each was
    # followed to its spot, they are not renamed by how they look standing still.
    nine = Look(white=0.22, dark=0.0, colour=0.72, chroma=_unit(9), weight=16.0)
    one = Look(white=0.45, dark=0.0, colour=0.55, chroma=_unit(1), weight=16.0)
    assert renamed_by_roll([(9, nine, Roll()), (1, one, Roll())]) == [9, 1]


def test_the_cue_ball_in_a_dim_corner_under_a_warm_lamp_is_white() -> None:
    # Held-out 005 under a warm camera: the cue ball in a dim corner, where the cloth is a
    # quarter as bright as in the middle, is pale yellow (chroma a seventh of its brightness)
    # -- twice the cloth's brightness there, so against the cloth it looked coloured, and it
    # and the orange 5 swapped names. For the cue ball, a bright pixel is judged by its own
    # brightness too.
    warm = np.array([0.8, 1.0, 1.15], np.float32)  # B, G, R
    image = np.zeros((HEIGHT, WIDTH, 3), np.uint8)
    image[:] = (20, 40, 60)
    cv2.fillPoly(image, [np.array(CORNERS, np.int32)], CLOTH_BGR)
    light = np.linspace(1.0, 0.25, WIDTH, dtype=np.float32)[None, :, None]
    image = np.clip(image.astype(np.float32) * light * warm, 0, 255).astype(np.uint8)
    radius = round(CALIBRATION.ball_radius_px())
    spots: dict[BallKey, tuple[float, float]] = {
        "cue": (2350.0, 400.0),
        5: (1200.0, 700.0),
        1: (600.0, 400.0),
    }
    centres = []
    for key, xy in spots.items():
        px, py = np.round(CALIBRATION.to_image(np.array([xy]))[0]).astype(int)
        centres.append((float(px), float(py)))
        plain = (200, 200, 200) if key == "cue" else bgr(key)
        colour = np.clip(np.array(plain, np.float32) * warm, 0, 255)
        cv2.circle(image, (px, py), radius, tuple(int(c) for c in colour), -1)
    planes = Planes.from_bgr(image)
    cloth = ClothModel.estimate(planes, CALIBRATION)
    radius_px = CALIBRATION.ball_radius_px()
    looks = [look_at(planes, planes.y_half(), cloth, x, y, radius_px) for x, y in centres]
    assert looks[0].white + looks[0].pale > 0.8
    assert looks[1].pale < 0.2 and looks[2].pale < 0.2
    assert identify(looks, ["cue", 1, 5]) == {0: "cue", 1: 5, 2: 1}
