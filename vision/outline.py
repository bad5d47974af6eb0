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


class OutlineError(ValueError):
    """No playing surface could be found in the picture."""


def find_corners(
    bgr: U8,
    size_mm: tuple[float, float],
    head: str = "left",
    cushion_mm: float = CUSHION_WIDTH_MM,
) -> Points:
    """The playing surface's corners (cushion noses) in the picture: HL, HR, FR, FL.

    `head` says where the head rail (the breaking end) is in the picture; a picture alone
    cannot tell the two ends of a table apart.
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
    outer = _order(_refine(region.reshape(-1, 2).astype(np.float64), rough), head)
    length, wide = size_mm
    c = cushion_mm
    rails = np.array([[-c, -c], [-c, wide + c], [length + c, wide + c], [length + c, -c]])
    to_image = cv2.getPerspectiveTransform(rails.astype(np.float32), outer.astype(np.float32))
    noses = np.array([[[0, 0], [0, wide], [length, wide], [length, 0]]], dtype=np.float32)
    return np.asarray(cv2.perspectiveTransform(noses, to_image)[0], dtype=np.float64)


def cloth_mask(bgr: U8) -> U8:
    """Pixels of the cloth's hue, however the lamp lights them (its light falls off toward
    the rails, its hue does not)."""
    hsv = cv2.cvtColor(bgr, cv2.COLOR_BGR2HSV_FULL).astype(np.float32)
    height, width = hsv.shape[:2]
    middle = hsv[height // 3 : 2 * height // 3, width // 3 : 2 * width // 3].reshape(-1, 3)
    hue, sat, val = (float(np.median(middle[:, i])) for i in range(3))
    turn = np.abs(hsv[:, :, 0] - hue)
    turn = np.minimum(turn, 256.0 - turn) * (360.0 / 256.0)
    mask = (turn < CLOTH_HUE_DEG) & (hsv[:, :, 1] > 0.4 * sat) & (hsv[:, :, 2] > 0.25 * val)
    kernel = np.ones((5, 5), np.uint8)
    opened = cv2.morphologyEx(mask.astype(np.uint8) * 255, cv2.MORPH_OPEN, kernel)
    return np.asarray(cv2.morphologyEx(opened, cv2.MORPH_CLOSE, kernel, iterations=3), np.uint8)


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
