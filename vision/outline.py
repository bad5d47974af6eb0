"""Finding the playing surface in a picture, for `tenball calibrate`.

The cloth (the bed and the cushions, which are covered with it) is the one large region of a
single hue in the middle of the picture. Its outline is bent at the pockets, so each side is a
straight line fitted to the outline between the corners (the pockets' cut-outs left out); the
lines meet at the outer corners of the cushions. The cushion noses, whose corners the
contract wants, lie a cushion's width inside: the outer rectangle is mapped onto the table's
size plus the cushions, and the playing surface's corners are mapped back into the picture.
"""

from __future__ import annotations

import cv2
import numpy as np
from numpy.typing import NDArray

U8 = NDArray[np.uint8]
Points = NDArray[np.float64]

# How far a pixel's hue may be from the cloth's and still be cloth.
CLOTH_HUE_DEG = 14.0
# The share of each side, at both ends, left out of its line fit: the pockets' cut-outs.
CORNER_SHARE = 0.18
# From the cushion's nose to the wooden rail: 2 in on a standard table (WPA).
CUSHION_WIDTH_MM = 50.8
HEADS = ("left", "right", "top", "bottom")
RAILS = ("head", "right", "foot", "left")
# The edge search, along the cushions' outer edges: clear of the pockets' cut-outs (a corner
# pocket's mouth and jaws reach about 200 mm along the rail from the outer corner, a side
# pocket's about 120 mm either side of the middle), across a band around the rough outline
# that stays short of the cushion nose inside and the rail's outer edge outside.
POCKET_CLEAR_MM = 260.0
SIDE_POCKET_CLEAR_MM = 170.0
SEARCH_IN_MM = 60.0
SEARCH_OUT_MM = 90.0
STEP_BOX_MM = 12.0
MIN_STEP_SHARE = 0.5
MIN_EDGE_POINTS = 20


class OutlineError(ValueError):
    """No playing surface could be found in the picture."""


def outer_corners(bgr: U8, head: str = "left") -> Points:
    """The cushions' outer corners (where the cloth meets the wooden rails): HL, HR, FR, FL.

    A rough outline, straight sides through bent ones, to search the edges near. `head` says
    where the head rail (the breaking end) is in the picture; a picture alone cannot tell the
    two ends of a table apart.
    """
    if head not in HEADS:
        raise OutlineError(f"head: expected one of {', '.join(HEADS)}, got {head!r}")
    mask = cloth_mask(bgr)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    if not contours:
        raise OutlineError("no region of one cloth colour in the picture")
    region = max(contours, key=cv2.contourArea)
    height, width = mask.shape
    if cv2.contourArea(region) < 0.15 * width * height:
        raise OutlineError("the cloth covers too little of the picture to be a table")
    rough = _quadrilateral(np.asarray(cv2.convexHull(region), dtype=np.int32))
    return _order(_refine(region.reshape(-1, 2).astype(np.float64), rough), head)


def cushion_edges(
    bgr: U8, outer: Points, size_mm: tuple[float, float], cushion_mm: float = CUSHION_WIDTH_MM
) -> tuple[Points, Points, Points, Points]:
    """Points on the cushions' outer edges to a fraction of a pixel, one array per rail:
    head (HL→HR), right (HR→FR), foot (FR→FL), left (FL→HL).

    Across each side the colour is projected on the difference between the cloth and the
    rail next to it, and the edge is the strongest cloth-to-rail step within a search band;
    the lamp's falloff scales the step but does not move it. Stretches near the pockets and
    steps much weaker than the side's typical one (a ball, a diamond, a shadow) are left out.
    """
    length, wide = size_mm
    perimeter_mm = 2.0 * (length + wide + 4.0 * cushion_mm)
    perimeter_px = sum(float(np.hypot(*(outer[(i + 1) % 4] - outer[i]))) for i in range(4))
    px_per_mm = perimeter_px / perimeter_mm
    picture = cv2.GaussianBlur(bgr, (0, 0), 0.7).astype(np.float32)
    hue = cloth_hue(bgr).astype(np.float32)
    sides = []
    for i in range(4):
        a, b = outer[i], outer[(i + 1) % 4]
        span_mm = (wide if i % 2 == 0 else length) + 2.0 * cushion_mm
        outward = _outward(a, b, outer.mean(axis=0))
        points = _side_edge(picture, hue, a, b, outward, span_mm, px_per_mm, long_side=i % 2 == 1)
        if len(points) < MIN_EDGE_POINTS:
            raise OutlineError(f"too few points found on the {RAILS[i]} cushion's edge")
        sides.append(points)
    return sides[0], sides[1], sides[2], sides[3]


def _side_edge(
    picture: NDArray[np.float32],
    hue: NDArray[np.float32],
    a: Points,
    b: Points,
    outward: Points,
    span_mm: float,
    px_per_mm: float,
    long_side: bool,
) -> Points:
    side = b - a
    mm = np.arange(POCKET_CLEAR_MM, span_mm - POCKET_CLEAR_MM, max(1.0 / px_per_mm, 1.0))
    if long_side:
        mm = mm[np.abs(mm - span_mm / 2) > SIDE_POCKET_CLEAR_MM]
    stations = a + np.outer(mm / span_mm, side)
    offsets = np.arange(-SEARCH_IN_MM, SEARCH_OUT_MM, 0.25 / px_per_mm) * px_per_mm
    grid = stations[:, None, :] + offsets[None, :, None] * outward
    map_x = grid[..., 0].astype(np.float32)
    map_y = grid[..., 1].astype(np.float32)
    profiles = cv2.remap(picture, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    clothlike = cv2.remap(hue, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    inside = profiles[clothlike > 0.5]
    outside = profiles[clothlike < 0.5]
    if len(inside) == 0 or len(outside) == 0:
        return np.empty((0, 2))
    direction = np.median(inside, axis=0) - np.median(outside, axis=0)
    signal = profiles.reshape(-1, 3) @ (direction / max(float(np.linalg.norm(direction)), 1e-6))
    signal = signal.reshape(len(stations), len(offsets))
    # A box step: how much brighter (more cloth-like) the band just inside is than the band
    # just outside; a thin bright line (the nose catching the light) answers it weakly.
    box = max(round(STEP_BOX_MM * px_per_mm / 0.25), 2)
    cumulative = np.concatenate([np.zeros((len(stations), 1)), np.cumsum(signal, axis=1)], 1)
    centres = np.arange(box, len(offsets) - box)
    before = (cumulative[:, centres] - cumulative[:, centres - box]) / box
    after = (cumulative[:, centres + box] - cumulative[:, centres]) / box
    step = before - after
    # Only a step from the cloth's hue to another counts: not the nose's line or shading
    # (cloth on both sides), nor the rail's outer edge (no cloth on either).
    hue_sum = np.concatenate([np.zeros((len(stations), 1)), np.cumsum(clothlike, axis=1)], 1)
    hue_before = (hue_sum[:, centres] - hue_sum[:, centres - box]) / box
    hue_after = (hue_sum[:, centres + box] - hue_sum[:, centres]) / box
    step = np.where((hue_before > 0.5) & (hue_after < 0.5), step, -np.inf)
    best = np.argmax(step, axis=1)
    strength = step[np.arange(len(stations)), best]
    interior = (best > 0) & (best < len(centres) - 1)
    rows = np.nonzero(interior)[0]
    left, mid, right = (step[rows, best[rows] + d] for d in (-1, 0, 1))
    curvature = left - 2 * mid + right
    # A parabola through the best step and its neighbours places it between samples.
    fits = np.isfinite(curvature) & (curvature < 0)
    shift = np.zeros(len(stations))
    shift[rows[fits]] = 0.5 * (left[fits] - right[fits]) / curvature[fits]
    where = offsets[centres[best]] + shift * 0.25
    found = np.isfinite(strength) & (strength > 0)
    if not found.any():
        return np.empty((0, 2))
    keep = interior & found & (strength > MIN_STEP_SHARE * np.median(strength[found]))
    return np.asarray(stations[keep] + where[keep, None] * outward, dtype=np.float64)


def cloth_mask(bgr: U8) -> U8:
    """The cloth's region: pixels of its hue, cleaned of specks and holes."""
    mask = cloth_hue(bgr).astype(np.uint8) * 255
    kernel = np.ones((5, 5), np.uint8)
    opened = cv2.morphologyEx(mask, cv2.MORPH_OPEN, kernel)
    return np.asarray(cv2.morphologyEx(opened, cv2.MORPH_CLOSE, kernel, iterations=3), np.uint8)


def cloth_hue(bgr: U8) -> NDArray[np.bool_]:
    """Pixels of the cloth's hue, however the lamp lights them (its light falls off toward
    the rails, its hue does not; only near black does the hue stop meaning anything)."""
    hsv = cv2.cvtColor(bgr, cv2.COLOR_BGR2HSV_FULL).astype(np.float32)
    height, width = hsv.shape[:2]
    middle = hsv[height // 3 : 2 * height // 3, width // 3 : 2 * width // 3].reshape(-1, 3)
    hue, sat, val = (float(np.median(middle[:, i])) for i in range(3))
    turn = np.abs(hsv[:, :, 0] - hue)
    turn = np.minimum(turn, 256.0 - turn) * (360.0 / 256.0)
    return np.asarray(
        (turn < CLOTH_HUE_DEG) & (hsv[:, :, 1] > 0.4 * sat) & (hsv[:, :, 2] > 0.1 * val)
    )


def _outward(a: Points, b: Points, centre: Points) -> Points:
    side = b - a
    normal = np.array([side[1], -side[0]]) / float(np.hypot(*side))
    return normal if (a - centre) @ normal > 0 else -normal


def _quadrilateral(hull: NDArray[np.int32]) -> Points:
    perimeter = cv2.arcLength(hull, True)
    for share in np.linspace(0.01, 0.1, 19):
        approx = cv2.approxPolyDP(hull, share * perimeter, True)
        if len(approx) == 4:
            return np.asarray(approx.reshape(4, 2), dtype=np.float64)
    return np.asarray(cv2.boxPoints(cv2.minAreaRect(hull)), dtype=np.float64)


def _refine(points: Points, rough: Points) -> Points:
    """A line fitted to each side's outline points away from the corners; their crossings."""
    lines = []
    for i in range(4):
        a, b = rough[i], rough[(i + 1) % 4]
        side = b - a
        length = float(np.hypot(*side))
        along = (points - a) @ side / (length * length)
        normal = np.array([-side[1], side[0]]) / length
        off = np.abs((points - a) @ normal)
        near = (along > CORNER_SHARE) & (along < 1 - CORNER_SHARE) & (off < 0.03 * length)
        chosen = points[near] if near.sum() >= 10 else np.vstack([a, b])
        line = cv2.fitLine(chosen.astype(np.float32), cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
        lines.append((np.array([line[2], line[3]]), np.array([line[0], line[1]])))
    corners = []
    for i in range(4):
        (p, u), (q, v) = lines[i - 1], lines[i]
        matrix = np.array([[u[0], -v[0]], [u[1], -v[1]]])
        if abs(np.linalg.det(matrix)) < 1e-9:
            corners.append(rough[i])
            continue
        s, _ = np.linalg.solve(matrix, q - p)
        corners.append(p + s * u)
    return np.array(corners, dtype=np.float64)


def _order(corners: Points, head: str) -> Points:
    """HL, HR, FR, FL: standing at the head looking at the foot, the left rail on the left."""
    toward_foot = {
        "left": np.array([1.0, 0.0]),
        "right": np.array([-1.0, 0.0]),
        "top": np.array([0.0, 1.0]),
        "bottom": np.array([0.0, -1.0]),
    }[head]
    # The left hand of someone facing `toward_foot`, in image coordinates (y down).
    toward_left = np.array([toward_foot[1], -toward_foot[0]])
    rel = corners - corners.mean(axis=0)
    foot = rel @ toward_foot > 0
    left = rel @ toward_left > 0
    order = []
    for want_foot, want_left in ((False, True), (False, False), (True, False), (True, True)):
        match = np.nonzero((foot == want_foot) & (left == want_left))[0]
        if len(match) != 1:
            raise OutlineError("the table's outline is too skewed to tell its corners apart")
        order.append(corners[match[0]])
    return np.array(order)
