"""The camera from the cushions: lens distortion, focal length and pose from their straight edges.

The cushions' outer edges (where the cloth meets the wooden rails) are four straight lines on
the real table, a rectangle of known size at the cushions' height above the cloth. Through a
lens with radial distortion they bow; through a tilted camera they converge. One least-squares
fit of the camera's pose, its focal length and the lens's k1 (principal point at the image
centre) makes the edge points fall on the rectangle's projected sides; the playing surface's
corners are then projected back through the same camera.

A nearly straight-down view cannot tell a long lens far away from a short one close by: the
focal length (and so the height and k1, which are scaled by it) then rests on a prior — a
camera hung `NOMINAL_HEIGHT_MM` above the cloth — unless the caller knows it (a focal length,
a camera matrix from checkerboards, or a measured height). The fit's own covariance says which
case it is in.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.geometry import BALL_RADIUS_MM
from vision.outline import CUSHION_WIDTH_MM, cushion_edges, outer_corners

Array = NDArray[np.float64]

# The cushion's top, level with its nose: 63.5 % of a ball's diameter (WPA, ±1 %).
CUSHION_HEIGHT_MM = 0.635 * 2 * BALL_RADIUS_MM
# A camera hung from the ceiling of a room with a pool table: its height above the cloth is
# not known better than this (±15 %) without a measurement; it is only the prior of the fit.
NOMINAL_HEIGHT_MM = 2800.0
PRIOR_LOG_SPREAD = np.log(1.15)
# The focal length counts as measured by the perspective when the fit pins it this well.
MEASURED_LOG_SPREAD = 0.03
# A measured camera height is good to about this much (a tape from the lens to the cloth).
HEIGHT_SPREAD_MM = 10.0
# Trust a fitted k1 when it is this many standard errors from zero and straightens the edges
# at least this much; the edge points of one picture are not independent, so the standard
# error from the fit is taken as this many times too small.
K1_SIGNIFICANCE = 3.0
STRAIGHTER_SHARE = 0.97
CORRELATION = 2.0
OUTLIER_SPREADS = 3.5


class FocalFrom(StrEnum):
    """Where the focal length came from, best first."""

    GIVEN = "given"  # a camera matrix (checkerboards) or --focal-px
    HEIGHT = "height"  # a measured camera height
    PERSPECTIVE = "perspective"  # the tilt of the view
    ASSUMED = "assumed"  # the prior alone


@dataclass(frozen=True)
class Lens:
    """Known intrinsics: a camera matrix and OpenCV's distortion coefficients."""

    camera_matrix: Array
    dist_coeffs: Array


@dataclass(frozen=True)
class Rails:
    """The table's rectangle the edges lie on, in mm."""

    size_mm: tuple[float, float]
    cushion_mm: float
    height_mm: float = CUSHION_HEIGHT_MM

    def sides(self) -> list[tuple[Array, Array]]:
        """Head, right, foot, left outer edges as 3D end points.

        The frame is the contract's x, y with z pointing down into the cloth (right-handed),
        so the cushions' top is at z = -height.
        """
        length, width = self.size_mm
        c, z = self.cushion_mm, -self.height_mm
        hl, hr = np.array([-c, -c, z]), np.array([-c, width + c, z])
        fr, fl = np.array([length + c, width + c, z]), np.array([length + c, -c, z])
        return [(hl, hr), (hr, fr), (fr, fl), (fl, hl)]


@dataclass(frozen=True)
class ViewFit:
    corners_px: Array  # the playing surface's corners HL, HR, FR, FL, distorted pixels
    camera_matrix: Array
    dist_coeffs: Array  # OpenCV's five; zero when no distortion was trusted or given
    rvec: Array
    tvec: Array
    camera_height_mm: float
    focal_from: FocalFrom
    lens_fitted: bool  # the distortion came from the edges' straightness and was trusted
    straightness_before_px: float  # RMS distance of edge points from each side's line
    straightness_after_px: float  # the same once the lens is undone
    edge_points: int


def fit_picture(
    bgr: NDArray[np.uint8],
    size_mm: tuple[float, float],
    head: str = "left",
    cushion_mm: float = CUSHION_WIDTH_MM,
    lens: Lens | None = None,
    focal_px: float | None = None,
    camera_height_mm: float | None = None,
) -> ViewFit:
    """The table and the camera in one picture: the cushions' edges, then the fit."""
    outer = outer_corners(bgr, head)
    sides = cushion_edges(bgr, outer, size_mm, cushion_mm)
    height, width = bgr.shape[:2]
    rails = Rails(size_mm, cushion_mm)
    return fit_view(sides, rails, (width, height), lens, focal_px, camera_height_mm)


def fit_view(
    sides: Sequence[Array],
    rails: Rails,
    image_size: tuple[int, int],
    lens: Lens | None = None,
    focal_px: float | None = None,
    camera_height_mm: float | None = None,
) -> ViewFit:
    """The camera that makes the edge points (head, right, foot, left sides) straight."""
    width, height = image_size
    centre = ((width - 1) / 2.0, (height - 1) / 2.0)
    points = [np.asarray(s, dtype=np.float64).reshape(-1, 2) for s in sides]
    before = _straightness(points)
    if lens is not None:
        undone = [_undo(p, lens.camera_matrix, lens.dist_coeffs) for p in points]
        fixed_k = lens.camera_matrix
    else:
        undone, fixed_k = points, None
    focal0 = _focal_guess(undone, rails, focal_px, camera_height_mm, fixed_k)
    k0 = fixed_k if fixed_k is not None else _matrix(focal0, centre)
    rvec, tvec = _initial_pose(undone, rails, k0)
    if lens is not None:
        model = _Model(undone, rails, k0, fit_focal=False, fit_k1=False, height_mm=None)
        params = model.solve(np.concatenate([rvec, tvec]))
        dist = np.asarray(lens.dist_coeffs, dtype=np.float64).ravel()
        after = _straightness(undone)
        return _result(model, params, rails, dist, FocalFrom.GIVEN, False, before, after)
    focal_from = FocalFrom.GIVEN
    if focal_px is None:
        focal_from = FocalFrom.ASSUMED if camera_height_mm is None else FocalFrom.HEIGHT
    model = _Model(points, rails, k0, focal_px is None, True, camera_height_mm)
    params = model.solve(np.concatenate([rvec, tvec, [0.0], [] if focal_px else [focal0]]))
    if focal_from is FocalFrom.ASSUMED:
        if model.spreads(params)[2] < MEASURED_LOG_SPREAD:
            focal_from = FocalFrom.PERSPECTIVE
        else:
            # The view does not measure the focal length: keep the prior's, not a drift.
            model = _Model(points, rails, k0, False, True, None)
            params = model.solve(params[:7])
    k1, k1_spread, _ = model.spreads(params)
    camera_matrix = model.camera_matrix(params)
    dist = np.array([k1, 0.0, 0.0, 0.0, 0.0])
    after = _straightness([_undo(p, camera_matrix, dist) for p in points])
    if abs(k1) > K1_SIGNIFICANCE * k1_spread and after < STRAIGHTER_SHARE * before:
        return _result(model, params, rails, dist, focal_from, True, before, after)
    # Not distortion enough to trust: straight lines, with the focal length just found.
    plain = _Model(points, rails, camera_matrix, False, False, None)
    params = plain.solve(params[:6])
    return _result(plain, params, rails, np.zeros(5), focal_from, False, before, before)


class _Model:
    """Residuals of the edge points from the projected sides, in pixels, with priors.

    Parameters: rvec (3), tvec (3), then k1 when fitted, then f when fitted (so the
    shape of a view whose focal length is not fitted is the one it would have if it were).
    """

    def __init__(
        self,
        points: list[Array],
        rails: Rails,
        camera_matrix: Array,
        fit_focal: bool,
        fit_k1: bool,
        height_mm: float | None,
    ) -> None:
        self.prior_focal = float(camera_matrix[0, 0])
        self.base = camera_matrix
        self.fit_focal = fit_focal
        self.fit_k1 = fit_k1
        self.height_mm = height_mm
        self.sides = rails.sides()
        self.points = points
        self.keep = [np.ones(len(p), dtype=bool) for p in points]
        self.noise_px = 1.0

    def unpack(self, params: Array) -> tuple[Array, Array, float, float]:
        k1 = float(params[6]) if self.fit_k1 else 0.0
        focal = float(params[-1]) if self.fit_focal else float(self.base[0, 0])
        return params[:3], params[3:6], k1, focal

    def camera_matrix(self, params: Array) -> Array:
        focal = self.unpack(params)[3]
        k = self.base.copy()
        k[0, 0] = k[1, 1] = focal
        return k

    def edge_residuals(self, params: Array) -> list[Array]:
        rvec, tvec, k1, focal = self.unpack(params)
        rotation = cv2.Rodrigues(rvec)[0]
        cx, cy = self.base[0, 2], self.base[1, 2]
        out = []
        for (a, b), pts in zip(self.sides, self.points, strict=True):
            line = np.cross(rotation @ a + tvec, rotation @ b + tvec)
            line = line / np.hypot(line[0], line[1])
            normal = (pts - (cx, cy)) / focal
            undistorted = _undistort_k1(normal, k1)
            out.append((undistorted @ line[:2] + line[2]) * focal)
        return out

    def residuals(self, params: Array) -> Array:
        edges = self.edge_residuals(params)
        parts = [r[k] / self.noise_px for r, k in zip(edges, self.keep, strict=True)]
        if self.fit_focal:
            rvec, tvec, _, focal = self.unpack(params)
            if self.height_mm is not None:
                height = _camera_height(rvec, tvec)
                parts.append(np.array([(height - self.height_mm) / HEIGHT_SPREAD_MM]))
            else:
                off = np.log(focal / self.prior_focal)
                parts.append(np.array([off / PRIOR_LOG_SPREAD]))
        return np.concatenate(parts)

    def solve(self, start: Array) -> Array:
        params = _levenberg_marquardt(self.residuals, start)
        # Balls, chalk and shadows on the edge: drop what lies far off the fitted sides, with
        # the noise measured on the rest, and fit again.
        for _ in range(2):
            edges = np.concatenate(self.edge_residuals(params))
            spread = 1.4826 * float(np.median(np.abs(edges))) + 1e-3
            self.keep = [np.abs(r) < OUTLIER_SPREADS * spread for r in self.edge_residuals(params)]
            kept = np.concatenate(self.edge_residuals(params))[np.concatenate(self.keep)]
            self.noise_px = max(float(np.sqrt(np.mean(kept**2))), 0.05)
            params = _levenberg_marquardt(self.residuals, params)
        return params

    def spreads(self, params: Array) -> tuple[float, float, float]:
        """k1, its standard error, and the standard error of ln f (inf when not fitted)."""
        jac = _jacobian(self.residuals, params)
        cov = np.linalg.pinv(jac.T @ jac) * CORRELATION**2
        k1 = self.unpack(params)[2]
        k1_spread = float(np.sqrt(cov[6, 6])) if self.fit_k1 else np.inf
        focal = self.unpack(params)[3]
        log_spread = float(np.sqrt(cov[-1, -1])) / focal if self.fit_focal else 0.0
        return k1, k1_spread, log_spread


def _levenberg_marquardt(
    residuals: Callable[[Array], Array], start: Array, iterations: int = 40
) -> Array:
    params = np.asarray(start, dtype=np.float64).copy()
    current = residuals(params)
    cost = float(current @ current)
    damping = 1e-3
    for _ in range(iterations):
        jac = _jacobian(residuals, params)
        normal = jac.T @ jac
        gradient = jac.T @ current
        improved = False
        while damping < 1e8:
            step = np.linalg.solve(normal + damping * np.diag(np.diag(normal) + 1e-12), -gradient)
            trial = params + step
            trial_res = residuals(trial)
            trial_cost = float(trial_res @ trial_res)
            if trial_cost < cost:
                params, current = trial, trial_res
                improved = cost - trial_cost > 1e-10 * cost
                cost = trial_cost
                damping = max(damping / 10.0, 1e-9)
                break
            damping *= 10.0
        if not improved:
            break
    return params


def _jacobian(residuals: Callable[[Array], Array], params: Array) -> Array:
    columns = []
    for i in range(len(params)):
        h = 1e-6 * max(1.0, abs(float(params[i])))
        up, down = params.copy(), params.copy()
        up[i] += h
        down[i] -= h
        columns.append((residuals(up) - residuals(down)) / (2 * h))
    return np.stack(columns, axis=1)


def _undistort_k1(normal: Array, k1: float) -> Array:
    """Invert x_d = x_u (1 + k1 r_u²) by fixed-point steps (a mild lens converges in a few)."""
    undone = normal
    for _ in range(8):
        r2 = np.sum(undone * undone, axis=1, keepdims=True)
        undone = normal / (1.0 + k1 * r2)
    return undone


def _camera_height(rvec: Array, tvec: Array) -> float:
    rotation = cv2.Rodrigues(rvec)[0]
    return float(-(-rotation.T @ tvec)[2])


def _matrix(focal: float, centre: tuple[float, float]) -> Array:
    return np.array([[focal, 0.0, centre[0]], [0.0, focal, centre[1]], [0.0, 0.0, 1.0]])


def _undo(points: Array, camera_matrix: Array, dist: Array) -> Array:
    if not np.any(dist):
        return points
    out = cv2.undistortPoints(points.reshape(-1, 1, 2), camera_matrix, dist, P=camera_matrix)
    return np.asarray(out.reshape(-1, 2), dtype=np.float64)


def _fit_line(points: Array) -> tuple[Array, Array]:
    """A point on the line and its unit normal (total least squares)."""
    mean = points.mean(axis=0)
    _, _, vt = np.linalg.svd(points - mean, full_matrices=False)
    return mean, vt[1]


def _straightness(sides: list[Array]) -> float:
    """RMS distance of the points from a straight line fitted to each side, robust to strays."""
    squares = []
    for pts in sides:
        mean, normal = _fit_line(pts)
        off = (pts - mean) @ normal
        spread = 1.4826 * float(np.median(np.abs(off))) + 1e-3
        keep = np.abs(off) < OUTLIER_SPREADS * spread
        mean, normal = _fit_line(pts[keep])
        squares.append(((pts[keep] - mean) @ normal) ** 2)
    return float(np.sqrt(np.mean(np.concatenate(squares))))


def _outer_corners(sides: list[Array]) -> Array:
    """Where the straight lines through the sides meet: HL, HR, FR, FL of the outer edges."""
    lines = []
    for pts in sides:
        mean, normal = _fit_line(pts)
        lines.append(np.array([normal[0], normal[1], -normal @ mean]))
    corners = []
    for i in range(4):
        point = np.cross(lines[i - 1], lines[i])
        corners.append(point[:2] / point[2])
    return np.array(corners)


def _focal_guess(
    sides: list[Array],
    rails: Rails,
    focal_px: float | None,
    camera_height_mm: float | None,
    camera_matrix: Array | None,
) -> float:
    if camera_matrix is not None:
        return float(camera_matrix[0, 0])
    if focal_px is not None:
        return focal_px
    corners = _outer_corners(sides)
    length, width = rails.size_mm
    span_mm = 2.0 * (length + width + 4.0 * rails.cushion_mm)
    span_px = sum(float(np.hypot(*(corners[(i + 1) % 4] - corners[i]))) for i in range(4))
    # Seen from straight above, a length s at distance d is f·s/d pixels long.
    distance = (camera_height_mm or NOMINAL_HEIGHT_MM) - rails.height_mm
    return span_px / span_mm * distance


def _initial_pose(sides: list[Array], rails: Rails, camera_matrix: Array) -> tuple[Array, Array]:
    corners = _outer_corners(sides)
    world = np.array([a for a, _ in rails.sides()])
    ok, rvec, tvec = cv2.solvePnP(
        world, corners.reshape(-1, 1, 2), camera_matrix, np.zeros(5), flags=cv2.SOLVEPNP_SQPNP
    )
    if not ok:
        raise ValueError("the cushions' outline does not fit a rectangle seen by a camera")
    return rvec.ravel().astype(np.float64), tvec.ravel().astype(np.float64)


def _result(
    model: _Model,
    params: Array,
    rails: Rails,
    dist: Array,
    focal_from: FocalFrom,
    lens_fitted: bool,
    before: float,
    after: float,
) -> ViewFit:
    rvec, tvec, _, _ = model.unpack(params)
    camera_matrix = model.camera_matrix(params)
    length, width = rails.size_mm
    noses = np.array([[0, 0, 0], [0, width, 0], [length, width, 0], [length, 0, 0]], float)
    corners, _ = cv2.projectPoints(noses, rvec, tvec, camera_matrix, dist)
    return ViewFit(
        corners_px=np.asarray(corners.reshape(4, 2), dtype=np.float64),
        camera_matrix=camera_matrix,
        dist_coeffs=np.asarray(dist, dtype=np.float64),
        rvec=np.asarray(rvec, dtype=np.float64),
        tvec=np.asarray(tvec, dtype=np.float64),
        camera_height_mm=_camera_height(rvec, tvec),
        focal_from=focal_from,
        lens_fitted=lens_fitted,
        straightness_before_px=before,
        straightness_after_px=after,
        edge_points=int(sum(int(k.sum()) for k in model.keep)),
    )
