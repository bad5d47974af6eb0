"""What the empty cloth looks like, and how far each pixel is from it.

The cloth is one colour under uneven lamp light; its model is a smooth per-pixel estimate of
Y, U and V, made from the frame itself (balls cover a small part of it). A pixel belongs to
something on the cloth when its colour is not the cloth's at some brightness: a shadow only
darkens the cloth (Y, U-128 and V-128 scale together), so it is not foreground unless it is
darker than any shadow a ball casts.

Everything here works at half resolution, where the U and V planes of a YUV420 frame already
are, so a frame's colour costs no conversion.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.calibration import Calibration
from vision.geometry import BALL_RADIUS_MM, CORNER_MOUTH_MM

F32 = NDArray[np.float32]
U8 = NDArray[np.uint8]

# Darker than this fraction of the cloth's brightness is not a shadow (a black ball is).
SHADOW_FLOOR = 0.5
# Brighter than the cloth by at least this fraction: a ball (even one of the cloth's colour),
# its highlight, a number circle. Lamps are smooth, so the model follows their hot spots.
MIN_BRIGHTER = 0.08
# Chroma that a change of brightness cannot explain, at least this much (8-bit units).
MIN_CHROMA = 7.0
# ...and this many times the cloth's own median variation.
NOISE_FACTOR = 4.0
MEDIAN_MM = 230.0  # cloth-model window: four balls wide, much less than a lamp's falloff
CLOTH_PASSES = 2  # models made again with what the one before found on the cloth painted out
# ...what it found this many times as clearly as a ball must be: a ball (its rim is painted out
# with it, a ball's radius around). Where the lamp's hot spot peaks more sharply than the
# median follows (a camera with darker mid-tones), the cloth itself is found faintly; painted
# out, it is filled in from the dimmer cloth around, and the next model misses the peak more.
PAINT_OUT_COLOUR = 2.0


@dataclass(frozen=True)
class Planes:
    """A frame as YUV420 planes: Y at full resolution, U and V at half."""

    y: U8
    u: U8
    v: U8
    # Y from 16 (black) to 235, as OpenCV converts colour; the Pi camera gives 0 to 255.
    video_range: bool = False

    @classmethod
    def from_bgr(cls, bgr: U8) -> Planes:
        height, width = bgr.shape[:2]
        i420 = np.asarray(cv2.cvtColor(bgr, cv2.COLOR_BGR2YUV_I420), dtype=np.uint8)
        quarter = (height // 2) * (width // 2)
        chroma = i420[height:].reshape(-1)
        return cls(
            y=i420[:height],
            u=chroma[:quarter].reshape(height // 2, width // 2),
            v=chroma[quarter : 2 * quarter].reshape(height // 2, width // 2),
            video_range=True,
        )

    def to_bgr(self) -> U8:
        height, width = self.y.shape
        i420 = np.concatenate([self.y.reshape(-1), self.u.reshape(-1), self.v.reshape(-1)])
        frame = i420.reshape(height * 3 // 2, width)
        return np.asarray(cv2.cvtColor(frame, cv2.COLOR_YUV2BGR_I420), np.uint8)

    def levels(self) -> tuple[float, float]:
        """Y of black and of white."""
        return (16.0, 235.0) if self.video_range else (0.0, 255.0)

    def y_half(self) -> U8:
        """Y at the chroma planes' resolution: each 2x2 block's mean. (Halving exactly,
        linear interpolation samples each block's middle: the mean, in half INTER_AREA's
        time at 1280x720.)"""
        height, width = self.u.shape
        return np.asarray(cv2.resize(self.y, (width, height), interpolation=cv2.INTER_LINEAR))


@dataclass(frozen=True, eq=False)
class ClothModel:
    """The cloth's expected Y, U-128, V-128 at half resolution, and the table's mask."""

    y: F32
    u: F32
    v: F32
    inv_y: F32  # 1 / y, precomputed: every frame divides by it
    table_mask: U8  # 255 on the playing surface
    cushion_mask: U8  # 255 over the cushions' faces: off the outline, clear of the mouths
    median_y: float  # the cloth's median Y over the playing surface
    chroma_step: float = 12.0  # chroma difference (8-bit units) that is clearly not cloth
    light_step: float = 0.12  # relative brightening that is clearly not cloth

    @functools.cached_property
    def table_window(self) -> tuple[slice, slice]:
        """The half-resolution window the playing surface lies in, and two pixels round it
        (enough for a 3×3 opening of a mask cut to the surface to come out as on the whole
        frame): often half the frame or less."""
        x, y, w, h = cv2.boundingRect(self.table_mask)
        height, width = self.table_mask.shape
        return np.s_[max(y - 2, 0) : min(y + h + 2, height), max(x - 2, 0) : min(x + w + 2, width)]

    @functools.cached_property
    def edge(self) -> NDArray[np.bool_]:
        """The playing surface's half-resolution pixels beside what is not the surface (the
        cushions, the pockets): a change that reaches them may go on beyond, unseen."""
        off = np.asarray(self.table_mask == 0, np.uint8)
        return np.asarray((cv2.dilate(off, np.ones((3, 3), np.uint8)) > 0) & (off == 0))

    @classmethod
    def estimate(cls, planes: Planes, calibration: Calibration) -> ClothModel:
        """The cloth seen in this frame, whatever is on it.

        A median over a window of a few balls' width passes over balls and follows the
        lamp's hot spots; outside the playing surface the nearest cloth stands in, so the
        rails do not bleed in. A rack covers about half of the window at its middle,
        enough to tint the median there: what that first model finds on the cloth is filled
        in from the cloth around it (inpainted) before the median is taken again.
        """
        height, width = planes.u.shape
        mask = np.zeros((height, width), np.uint8)
        outline = calibration.table_polygon().astype(np.float64) / 2.0
        cv2.fillPoly(mask, [np.round(outline).astype(np.int32)], (255,))
        # The cushions' faces lean over the cloth's edge: a pixel's breadth in from the
        # outline, so a ball against a cushion is not joined to the cushion.
        mask = np.asarray(cv2.erode(mask, np.ones((3, 3), np.uint8)), np.uint8)
        cushion_mask = _cushion_faces(mask, calibration)
        _cut_pockets(mask, calibration)
        window = min(2 * max(2, round(MEDIAN_MM / (4 * calibration.mm_per_px()))) + 1, 255)
        plain = (planes.y_half(), planes.u, planes.v)
        nearest = _nearest_on_table(mask)
        model = cls._from_planes(plain, (mask, cushion_mask), nearest, window)
        # A ball's rim and shadow are no cloth either: a ball's radius around what was found.
        reach = max(1, round(BALL_RADIUS_MM / (2 * calibration.mm_per_px())))
        grow = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * reach + 1, 2 * reach + 1))
        for _ in range(CLOTH_PASSES):
            colour, dark = model.foreground(*plain)
            seen = ((colour > PAINT_OUT_COLOUR) | (dark > 1.0)).astype(np.uint8)
            found = cv2.bitwise_and(np.asarray(cv2.dilate(seen, grow), np.uint8), mask)
            if not found.any():
                break
            painted = np.asarray(
                cv2.inpaint(np.dstack(plain), found, 3, cv2.INPAINT_TELEA), np.uint8
            )
            filled = (painted[..., 0], painted[..., 1], painted[..., 2])
            model = cls._from_planes(
                filled, (mask, cushion_mask), nearest, window, noise_from=plain
            )
        return model

    @classmethod
    def _from_planes(
        cls,
        planes: tuple[U8, U8, U8],
        masks: tuple[U8, U8],
        nearest: NDArray[np.intp],
        window: int,
        noise_from: tuple[U8, U8, U8] | None = None,
    ) -> ClothModel:
        """The median model of Y, U, V half-resolution planes over the playing surface's
        mask, the first of `masks` (off it, each pixel is the `nearest` one on it; the
        second is the cushions'); its noise steps from `noise_from` (the frame as seen)
        when the planes were filled in."""
        mask, cushion_mask = masks
        on_table = mask > 0
        smooth = []
        for plane in planes:
            filled = plane.reshape(-1)[nearest]
            median = cv2.medianBlur(filled, window)
            # A little blur takes out the median's steps.
            smooth.append(np.asarray(cv2.blur(median.astype(np.float32), (5, 5)), np.float32))
        y, u, v = smooth
        seen_y, seen_u, seen_v = noise_from if noise_from is not None else planes
        inv_y = (1.0 / np.maximum(y, 1.0)).astype(np.float32)
        # How much the cloth itself varies (noise, compression, weave) sets how different a
        # pixel must be to count: the median deviation is that of the cloth, balls being few.
        k = seen_y.astype(np.float32) * inv_y
        du = seen_u.astype(np.float32) - u - (k - 1) * (u - 128.0)
        dv = seen_v.astype(np.float32) - v - (k - 1) * (v - 128.0)
        chroma_noise = float(np.median(np.hypot(du, dv)[on_table]))
        light_noise = float(np.median(np.abs(k - 1)[on_table]))
        return cls(
            y=y,
            u=u - 128.0,
            v=v - 128.0,
            inv_y=inv_y,
            table_mask=mask,
            cushion_mask=cushion_mask,
            median_y=float(np.median(y[on_table])) if on_table.any() else float(np.median(y)),
            chroma_step=max(MIN_CHROMA, NOISE_FACTOR * chroma_noise),
            light_step=max(MIN_BRIGHTER, NOISE_FACTOR * light_noise),
        )

    def foreground(
        self, y_half: U8, u: U8, v: U8, box: tuple[int, int, int, int] | None = None
    ) -> tuple[F32, F32]:
        """How much each pixel differs from the cloth: (colour, dark) scores, >1 meaning clearly.

        `colour` is what no shadow can explain: chroma the cloth does not have at any
        brightness, or more light than the lamp gives the cloth. `dark` is darkness beyond
        what shadows usually reach; a black ball is dark, but so is a deep shadow, so the
        detector treats it with care. `box` (x0, y0, x1, y1) restricts the work to a window,
        in half-resolution pixels.
        """
        x0, y0, x1, y1 = box if box is not None else (0, 0, u.shape[1], u.shape[0])
        window = np.s_[y0:y1, x0:x1]
        k = y_half[window].astype(np.float32) * self.inv_y[window]
        du = u[window].astype(np.float32) - 128.0 - k * self.u[window]
        dv = v[window].astype(np.float32) - 128.0 - k * self.v[window]
        chroma = np.sqrt(du * du + dv * dv) * (1.0 / self.chroma_step)
        bright = (k - 1.0) * (1.0 / self.light_step)
        on_table = self.table_mask[window] > 0
        colour = np.where(on_table, np.maximum(chroma, bright), 0.0).astype(np.float32)
        dark = np.where(on_table, (1.0 - k) * (1.0 / (1.0 - SHADOW_FLOOR)), 0.0)
        return colour, dark.astype(np.float32)

    def off_cloth(self, box: tuple[int, int, int, int]) -> NDArray[np.bool_]:
        """Which pixels of the window `box` (as `foreground`'s) lie over the cushions, where
        `foreground` sees nothing and a ball by them leans out (not a pocket's mouth: a ball
        there is over the drop)."""
        x0, y0, x1, y1 = box
        return np.asarray(self.cushion_mask[y0:y1, x0:x1] > 0)


def _nearest_on_table(mask: U8) -> NDArray[np.intp]:
    """For every pixel, the flat index of the nearest pixel on the playing surface.

    The cloth's model is a median over a window, and near the table's edge part of the window
    lies off it: filled with the nearest cloth, it follows the lamp's fall-off into a dim
    corner (filled with the cloth's overall colour, a dim corner's model came out too bright,
    and a ball's shadow there was found as a second ball).
    """
    off = (mask == 0).astype(np.uint8)
    if not off.any() or off.all():
        return np.arange(mask.size).reshape(mask.shape)
    _, labels = cv2.distanceTransformWithLabels(off, cv2.DIST_L2, 3, labelType=cv2.DIST_LABEL_PIXEL)
    on = np.flatnonzero(off.reshape(-1) == 0)
    return np.asarray(on[labels - 1], np.intp)


def _cushion_faces(outline: U8, calibration: Calibration) -> U8:
    """Where the cushions' faces are (255), off the playing surface's `outline`: all round
    it but for the pockets' mouths."""
    faces = np.asarray(cv2.bitwise_not(outline), np.uint8)
    table = calibration.table
    for name, point in table.pockets.items():
        _clear_disc(faces, calibration, point, table.mouth_reach(name))
    return faces


def _clear_disc(
    mask: U8, calibration: Calibration, centre_mm: tuple[float, float], radius_mm: float
) -> None:
    """Zero a half-resolution mask over a disc on the cloth (its radius as the lens shows
    it at the centre)."""
    x, y = centre_mm
    centre, rim = calibration.to_image(np.array([[x, y], [x + radius_mm, y]]), 0.0) / 2.0
    radius = float(np.linalg.norm(rim - centre))
    cv2.circle(mask, (round(centre[0]), round(centre[1])), round(radius), (0,), -1)


def _cut_pockets(mask: U8, calibration: Calibration) -> None:
    """Take the pocket holes out of the playing surface: dark, round, and never a ball.

    A corner hole lies beyond where the cushion noses meet, along the diagonal; a side hole
    beyond the rail. The cut stops short of where a ball can rest in the jaws.
    """
    table = calibration.table
    radius_mm = 0.5 * CORNER_MOUTH_MM
    for name, (x, y) in table.pockets.items():
        out_x = 0.0 if name in ("SL", "SR") else (-1.0 if x == 0 else 1.0)
        out_y = -1.0 if y == 0 else 1.0
        depth = radius_mm + (0.35 if name in ("SL", "SR") else 0.6) * BALL_RADIUS_MM
        centre = (x + out_x * depth * 0.7071, y + out_y * depth * (0.7071 if out_x else 1.0))
        _clear_disc(mask, calibration, centre, radius_mm)
