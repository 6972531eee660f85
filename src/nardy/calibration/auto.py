"""Find the board in a photo with no help: propose, then verify.

Long straight edges (Hough) give candidate lines for the four inner edges of the frame; every
choice of a top, a bottom, a left and a right line is a candidate surface. Each candidate is
rectified to a small image and scored by what makes a backgammon board a backgammon board: the
points alternate in colour along the top and the bottom edges, six to a field, with the two rows
out of step (the top-left point and the bottom-left point are of different colours). The best
candidate's edges are then refitted to the edge pixels along them.
"""

from __future__ import annotations

import itertools

import cv2
import numpy as np

from nardy.calibration.config import CalibrationConfig
from nardy.calibration.geometry import BoardGeometry
from nardy.calibration.profile import BoardProfile, ProfileError, check_corners
from nardy.calibration.refine import pattern_strength, refine_corners


class BoardNotFound(ProfileError):
    """No board could be found in the photo."""


def _lines(gray: np.ndarray, min_len: float) -> list[tuple[np.ndarray, float]]:
    """Long straight edges as (homogeneous line, length)."""
    med = float(np.median(gray))
    edges = cv2.Canny(gray, max(10, 0.5 * med), max(30, 1.2 * med))
    segs = cv2.HoughLinesP(
        edges, 1, np.pi / 360, threshold=40, minLineLength=int(min_len), maxLineGap=8
    )
    out = []
    if segs is None:
        return out
    for x1, y1, x2, y2 in segs.reshape(-1, 4).astype(np.float64):
        line = np.cross([x1, y1, 1.0], [x2, y2, 1.0])
        line /= np.hypot(line[0], line[1])
        out.append((line, float(np.hypot(x2 - x1, y2 - y1))))
    return out


def _merge(lines: list[tuple[np.ndarray, float]], tol: float) -> list[tuple[np.ndarray, float]]:
    """Collinear segments become one line, weighted by their total length."""
    merged: list[tuple[np.ndarray, float]] = []
    for line, length in sorted(lines, key=lambda t: -t[1]):
        if line[2] > 0:
            line = -line
        for i, (m, total) in enumerate(merged):
            if abs(m[0] * line[0] + m[1] * line[1]) > 0.995 and abs(m[2] - line[2]) < tol:
                merged[i] = (m, total + length)
                break
        else:
            merged.append((line, length))
    return merged


def _pattern_score(rect: np.ndarray, bar: float = 0.1) -> float:
    """How much the rectified candidate looks like the points of a board."""
    lab = cv2.cvtColor(rect, cv2.COLOR_BGR2Lab).astype(np.float32)
    h, w = lab.shape[:2]
    field = (1 - bar) / 2
    pw = field / 6
    xs = (np.arange(w) + 0.5) / w
    template = np.zeros(w, np.float32)
    for k in range(12):
        left = k * pw if k < 6 else 1 - field + (k - 6) * pw
        inner = (xs > left + 0.2 * pw) & (xs < left + 0.8 * pw)
        template[inner] = 1.0 if k % 2 == 0 else -1.0
    template -= template[template != 0].mean() * (template != 0)
    scores = []
    for lo, hi in ((0.03, 0.2), (0.8, 0.97)):
        band = lab[int(lo * h) : int(hi * h)].mean(axis=0)  # w × 3
        band = band - band.mean(axis=0)
        norm = np.linalg.norm(band, axis=1).mean() + 1e-3
        scores.append((band * template[:, None]).sum(axis=0) / (np.abs(template).sum() * norm))
    top, bottom = scores
    # the two rows are out of step: the top row's pattern is the bottom row's negative
    return float(np.linalg.norm(top - bottom) / 2)


def _corners(top, right, bottom, left) -> np.ndarray | None:
    pts = []
    for a, b in ((top, left), (top, right), (bottom, right), (bottom, left)):
        p = np.cross(a, b)
        if abs(p[2]) < 1e-9:
            return None
        pts.append(p[:2] / p[2])
    return np.array(pts)


def _refine_line(edges: np.ndarray, p: np.ndarray, q: np.ndarray, reach: float) -> np.ndarray:
    """Refit the line through p, q to the edge pixels within ``reach`` of it."""
    ys, xs = np.nonzero(edges)
    pts = np.column_stack([xs, ys]).astype(np.float64)
    d = q - p
    length = np.linalg.norm(d)
    n = np.array([-d[1], d[0]]) / length
    rel = pts - p
    along = rel @ (d / length)
    off = rel @ n
    keep = (np.abs(off) < reach) & (along > 0.05 * length) & (along < 0.95 * length)
    if keep.sum() < 20:
        return np.cross([*p, 1.0], [*q, 1.0])
    sel = pts[keep]
    vx, vy, x0, y0 = cv2.fitLine(sel.astype(np.float32), cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
    return np.cross([x0, y0, 1.0], [x0 + vx, y0 + vy, 1.0])


def find_corners(image: np.ndarray, config: CalibrationConfig | None = None) -> np.ndarray:
    """The inner corners of the frame (TL, TR, BR, BL) in image pixels."""
    config = config or CalibrationConfig()
    h0, w0 = image.shape[:2]
    scale = config.auto_work_width / w0
    small = cv2.resize(
        image, (config.auto_work_width, round(h0 * scale)), interpolation=cv2.INTER_AREA
    )
    gray = cv2.GaussianBlur(cv2.cvtColor(small, cv2.COLOR_BGR2GRAY), (3, 3), 0)
    h, w = gray.shape
    lines = _merge(_lines(gray, 0.12 * w), tol=3.0)
    horiz = [(line, n) for line, n in lines if abs(line[1]) > abs(line[0]) * 1.4]
    vert = [(line, n) for line, n in lines if abs(line[0]) > abs(line[1]) * 1.4]

    def y_at_centre(line):
        return -(line[0] * w / 2 + line[2]) / line[1]

    def x_at_centre(line):
        return -(line[1] * h / 2 + line[2]) / line[0]

    top = sorted([t for t in horiz if y_at_centre(t[0]) < 0.55 * h], key=lambda t: -t[1])[:7]
    bottom = sorted([t for t in horiz if y_at_centre(t[0]) > 0.45 * h], key=lambda t: -t[1])[:7]
    left = sorted([t for t in vert if x_at_centre(t[0]) < 0.5 * w], key=lambda t: -t[1])[:7]
    right = sorted([t for t in vert if x_at_centre(t[0]) > 0.5 * w], key=lambda t: -t[1])[:7]
    scored: list[tuple[float, np.ndarray]] = []
    area_img = float(w * h)
    for (t, _), (b, _), (lf, _), (r, _) in itertools.product(top, bottom, left, right):
        quad = _corners(t, r, b, lf)
        if quad is None:
            continue
        try:
            check_corners(quad)
        except ProfileError:
            continue
        area = cv2.contourArea(quad.astype(np.float32))
        if not config.auto_min_area * area_img < area < config.auto_max_area * area_img:
            continue
        width = (np.linalg.norm(quad[1] - quad[0]) + np.linalg.norm(quad[2] - quad[3])) / 2
        height = (np.linalg.norm(quad[3] - quad[0]) + np.linalg.norm(quad[2] - quad[1])) / 2
        if not config.auto_min_aspect < height / width < config.auto_max_aspect:
            continue
        dst = np.float32([[0, 0], [143, 0], [143, 111], [0, 111]])
        m = cv2.getPerspectiveTransform(quad.astype(np.float32), dst)
        rect = cv2.warpPerspective(small, m, (144, 112), flags=cv2.INTER_AREA)
        scored.append((_pattern_score(rect), quad))
    scored = [c for c in scored if c[0] >= config.auto_min_score]
    scored.sort(key=lambda c: -c[0])
    starts = [_refit(image, q / scale, scale) for _, q in scored[: config.auto_refine_candidates]]
    # a camera set up over a board mostly has it in the middle: guesses for when the frame's
    # edges gave no candidate, or only wrong ones
    for fw, fh in config.auto_centred_guesses:
        x0, x1 = w0 * (1 - fw) / 2, w0 * (1 + fw) / 2
        y0, y1 = h0 * (1 - fh) / 2, h0 * (1 + fh) / 2
        starts.append(np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]]))
    # each brought onto the edges where the points begin; the one whose points then show
    # most plainly wins (a guess the refinement spoils keeps its own place)
    best = (-1.0, starts[0])
    for start in starts:
        for corners in (start, refine_corners(image, start, config)[0]):
            strength = pattern_strength(image, corners)
            if strength > best[0]:
                best = (strength, corners)
    if best[0] < config.auto_min_strength:
        raise BoardNotFound("no board found in the photo (give --corners or a profile)")
    return best[1]


def _refit(image: np.ndarray, full: np.ndarray, scale: float) -> np.ndarray:
    """Each edge of ``full`` refitted to the edge pixels along it, at full resolution."""
    gray_full = cv2.GaussianBlur(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), (5, 5), 0)
    med = float(np.median(gray_full))
    edges = cv2.Canny(gray_full, max(10, 0.5 * med), max(30, 1.2 * med))
    reach = 2.5 / scale
    sides = [_refine_line(edges, full[i], full[(i + 1) % 4], reach) for i in range(4)]
    refined = _corners(sides[0], sides[1], sides[2], sides[3])
    if refined is None or np.abs(refined - full).max() > 4 * reach:
        return full
    return refined


def find_board(image: np.ndarray, config: CalibrationConfig | None = None) -> BoardProfile:
    """A profile for the board in ``image``, found with no help, its layout measured."""
    from nardy.calibration.measure import measure_geometry

    corners = find_corners(image, config)
    geometry = measure_geometry(image, corners)
    size = (image.shape[1], image.shape[0])
    return BoardProfile.from_corners(corners, size, geometry, source="auto")


__all__ = ["BoardGeometry", "BoardNotFound", "find_board", "find_corners"]
