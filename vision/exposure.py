"""A camera's exposure and white balance, brought to what the pipeline works at.

Most of the pipeline's brightness and colour thresholds are relative to the cloth, but not
all can be: the colour distance between two looks of one ball and the floors under the
noise-adaptive levels are 8-bit amounts, set with the cloth at about a third of full scale
(where an auto-exposed camera over a lit table puts it).
A camera set brighter is scaled down to it once measured: Y by the gain, U and V about their
middle by the same gain, as a shorter exposure would. A darker one is used as it is: gained
up, its noise and its video's compression blocks grow past those floors, which in the dark
keep them out (on darkened recordings, gaining them up changed as many rulings as it saved).

White is white only under a white-balanced camera: under a warm lamp the cue ball's pixels are
orange enough to count as coloured. The brightest pixels on the cloth are the white of the
balls (the cue ball, the stripes, the highlights), so their colour is the light's tint; it is
taken out of U and V in proportion to Y, as a channel gain puts it in.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.calibration import Calibration
from vision.cloth import ClothModel, Planes

# The cloth's median brightness the pipeline's thresholds were set at: this share of the way
# from black to white (84 of 255 in full range, 88 in video range).
CLOTH_SHARE = 0.33
# Within this fraction above it a frame is used as it is: the recordings the pipeline was
# developed on spread this much, and scaling costs a few percent of the frame rate.
AS_IS = 0.1
# Beyond this a bright frame's clipping leaves nothing to scale.
MIN_GAIN = 0.25
# A ball's white is this much brighter than the cloth around it at least (above black), and
# is not clipped (clipped, a pixel is white in any light). Under lamps that light the cloth
# brightly a white ball's shaded side is not much brighter than it: at 1.8 times, held-out
# 004 showed too few white pixels to judge the light by, and in a warm camera's colours its
# cue ball was named the 10 and no shot was found after the first.
WHITE_OVER_CLOTH = 1.4
CLIPPED = 5  # within this of the white level (235 in video range, 255 in full) is clipped
# The tint (U/Y, V/Y) a lamp can give white; a yellow ball's is twice as much.
MAX_TINT = 0.3
# This much tint is left in: white stays white up to about twice as much (identify's grey
# chroma, at a white ball's brightness), and the recordings the pipeline was developed on have
# as much.
TINT_AS_IS = 0.06
# The white seen must add up to this many balls' discs, or it is too little to judge the light.
MIN_WHITE_BALLS = 0.5


@dataclass(frozen=True)
class Light:
    """How a camera sees the table: the cloth's brightness and the tint of white."""

    cloth_share: float  # the cloth's median brightness, as a share of the way black to white
    tint: tuple[float, float] | None  # (U/Y, V/Y) of the balls' white; None: too little seen

    @classmethod
    def measure(
        cls, planes: Planes, calibration: Calibration, cloth: ClothModel | None = None
    ) -> Light:
        """The light in a frame (`cloth`: its cloth model, when it has been made already)."""
        cloth = ClothModel.estimate(planes, calibration) if cloth is None else cloth
        inside = cloth.table_mask > 0
        black, top = planes.levels()
        if not inside.any():
            return cls(CLOTH_SHARE, None)
        level = max(cloth.median_y - black, 1.0)
        # Brighter than the cloth where it lies: a lamp's hot spot on the cloth is not white.
        y_half = planes.y_half()
        above = y_half.astype(np.float32) - black
        white = inside & (above >= WHITE_OVER_CLOTH * (cloth.y - black)) & (y_half < top - CLIPPED)
        lum = y_half[white].astype(np.float64) - black
        ratio_u = (planes.u[white].astype(np.float64) - 128.0) / lum
        ratio_v = (planes.v[white].astype(np.float64) - 128.0) / lum
        lamp_like = np.hypot(ratio_u, ratio_v) <= MAX_TINT
        disc = np.pi * (calibration.ball_radius_px() / 2.0) ** 2
        share = level / (top - black)
        if lamp_like.sum() < MIN_WHITE_BALLS * disc:
            return cls(share, None)
        tint = (float(np.median(ratio_u[lamp_like])), float(np.median(ratio_v[lamp_like])))
        return cls(share, tint)


@dataclass(frozen=True)
class Exposure:
    """How much darker frames are made, and the tint taken out of them, before they are
    looked at."""

    gain: float = 1.0
    tint: tuple[float, float] = (0.0, 0.0)  # (U/Y, V/Y) taken out

    @classmethod
    def for_light(cls, light: Light) -> Exposure:
        """The gain that brings a brighter cloth down to CLOTH_SHARE, and the tint beyond
        what is left in."""
        gain = CLOTH_SHARE / max(light.cloth_share, 1e-3)
        gain = 1.0 if gain >= 1.0 - AS_IS else max(gain, MIN_GAIN)
        if light.tint is None:
            return cls(gain)
        u, v = light.tint
        size = math.hypot(u, v)
        if size <= TINT_AS_IS:
            return cls(gain)
        # Only what is beyond the tint left in is taken out: a tint just over it is not
        # corrected all at once (which made a frame from one encoding differ from the next).
        keep = TINT_AS_IS / size
        return cls(gain, (u * (1 - keep), v * (1 - keep)))

    def apply(self, planes: Planes) -> Planes:
        if self.gain == 1.0 and self.tint == (0.0, 0.0):
            return planes
        g = self.gain
        black, top = planes.levels()
        y = planes.y
        if g != 1.0:
            # A clipped pixel was at least that bright: it stays clipped (a clipped cue ball
            # scaled down to grey would not look white beside a lamp's hot spot).
            clipped = y >= top - CLIPPED
            y = np.asarray(cv2.convertScaleAbs(y, alpha=g, beta=black * (1.0 - g)), np.uint8)
            y[clipped] = planes.y[clipped]
        # The tint is proportional to the light (Y above black); the offsets keep black black.
        y_half = planes.y_half()
        u_tint, v_tint = self.tint
        u_offset = 128.0 * (1.0 - g) + g * u_tint * black
        v_offset = 128.0 * (1.0 - g) + g * v_tint * black
        return Planes(
            y=y,
            u=np.asarray(cv2.addWeighted(planes.u, g, y_half, -g * u_tint, u_offset), np.uint8),
            v=np.asarray(cv2.addWeighted(planes.v, g, y_half, -g * v_tint, v_offset), np.uint8),
            video_range=planes.video_range,
        )


def linear_light(values: NDArray[np.float64]) -> NDArray[np.float64]:
    """Light in proportion to its power, from values (0 to 1) as a camera's tone curve
    encodes them (sRGB's, as cameras and renderers near enough use)."""
    return np.where(values <= 0.04045, values / 12.92, ((values + 0.055) / 1.055) ** 2.4)


def encoded(light: NDArray[np.float64]) -> NDArray[np.float64]:
    """Values (0 to 1) as the tone curve encodes `light`, clipped at full scale."""
    light = np.minimum(light, 1.0)
    return np.where(light <= 0.0031308, 12.92 * light, 1.055 * light ** (1 / 2.4) - 0.055)
