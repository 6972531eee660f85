"""Bring a rough guess of the playing surface's corners onto the surface's true edges.

What marks the edges of the playing surface on every board is not a line (checkers stand on
the edges, the points' bases alternate in colour along them) but where the points begin: the 24
triangles alternate in colour along each edge, six to a field, and the frame beyond the edge
does not. So, over a few rounds, the photo is rectified by the current guess (with a margin
round it) and

- in a band of rows along the top and one along the bottom, each field's two ends are where a
  six-point square wave fits the band's colours best (a half-field per point, alternating);
- in each field, the top and the bottom edges are where that alternation begins, row by row.

Two readings per edge (one per field, or one per band) make a line in the rectified photo; the
four lines meet in the new corners, mapped back to the photo.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import cv2
import numpy as np

from nardy.calibration.config import CalibrationConfig
from nardy.calibration.measure import quad_aspect
from nardy.calibration.profile import ProfileError, check_corners

WIDTH = 480  # the surface's width when rectified
MARGIN = 0.12  # the margin round it, as a share of its width / height
#: Rows (share of the height) near the points' bases, where the triangles are nearly full width.
BANDS = ((0.015, 0.12), (0.88, 0.985))


def _rectify(image: np.ndarray, corners: np.ndarray, aspect: float):
    """The photo warped so ``corners`` land on a WIDTH × height rectangle with a margin round
    it; returns (Lab float image, homography photo → rectified, width, height, margin x, y)."""
    w, h = WIDTH, round(WIDTH * aspect)
    mx, my = round(MARGIN * w), round(MARGIN * h)
    dst = np.float32([[mx, my], [mx + w, my], [mx + w, my + h], [mx, my + h]])
    m = cv2.getPerspectiveTransform(corners.astype(np.float32), dst)
    rect = cv2.warpPerspective(image, m, (w + 2 * mx, h + 2 * my), flags=cv2.INTER_AREA)
    lab = cv2.cvtColor(rect, cv2.COLOR_BGR2Lab).astype(np.float32)
    lab[..., 1:] *= 2.0  # colour tells points apart where lightness alone may not
    return lab, m, w, h, mx, my


def _field_fit(band: np.ndarray, a: int, b: int) -> float:
    """How plainly six points alternate between columns ``a`` and ``b`` of ``band``: the median
    colour contrast between neighbouring points (a stack of checkers on one does not count)."""
    edges = np.round(a + (b - a) * np.arange(7) / 6.0).astype(int)
    means = np.stack(
        [
            band[:, x + 1 : max(y - 1, x + 2)].reshape(-1, 3).mean(axis=0)
            for x, y in itertools.pairwise(edges)
        ]
    )
    return float(np.median(np.linalg.norm(np.diff(means, axis=0), axis=1)))


def _row_start(lab: np.ndarray, x0: int, x1: int, rows: np.ndarray, step: int) -> float:
    """Where, among ``rows`` (searched in order ``step`` = +1 downward / -1 upward), the six
    points between columns ``x0`` and ``x1`` begin: the row where the contrast between
    neighbouring points (the median of the five, so a stack of checkers on one point does not
    count) steps up."""
    edges = np.round(x0 + (x1 - x0) * np.arange(7) / 6.0).astype(int)
    block = lab[rows]
    means = np.stack(
        [block[:, a + 1 : max(b - 1, a + 2)].mean(axis=1) for a, b in itertools.pairwise(edges)],
        axis=1,
    )
    contrast = np.median(np.linalg.norm(np.diff(means, axis=1), axis=2), axis=1)
    span = max(3, len(rows) // 6)
    best, at = -np.inf, float(rows[0])
    for i in range(span, len(rows) - span):
        jump = contrast[i : i + span].mean() - contrast[i - span : i].mean()
        if jump > best:
            best, at = jump, float(rows[i]) - (0.5 if step > 0 else -0.5)
    return at


def _middle_ends(
    lab: np.ndarray, rows: tuple[int, int], lo: tuple[int, int], hi: tuple[int, int]
) -> tuple[int, int]:
    """A field's two ends (columns) in the plain middle of the board, between the points' tips:
    the split of the columns into frame | field | bar that leaves the least unexplained."""
    n = lab.shape[1]
    w0, w1 = max(lo[0], 0), min(hi[1], n)
    col = np.median(lab[rows[0] : rows[1], w0:w1], axis=0).astype(np.float64)
    cum = np.vstack([np.zeros((1, 3)), np.cumsum(col, axis=0)])
    m = len(col)
    best = (-np.inf, lo[0], hi[0])
    a = np.arange(max(lo[0], 0), min(lo[1], hi[0])) - w0
    for b in range(max(hi[0], 1) - w0, min(hi[1], n) - w0):
        ok = a[a < b - 12]
        if not len(ok):
            continue
        field = cum[b] - cum[ok]
        left = cum[ok]
        right = cum[m] - cum[b]
        explained = (field**2).sum(axis=1) / (b - ok)
        explained += (left**2).sum(axis=1) / np.maximum(ok, 1)
        explained += float((right**2).sum()) / max(m - b, 1)
        k = int(np.argmax(explained))
        if explained[k] > best[0]:
            best = (float(explained[k]), int(ok[k]) + w0, b + w0)
    return best[1], best[2]


def _track(gx: np.ndarray, x: int, my: int, h: int, reach: int = 5) -> np.ndarray:
    """The vertical edge near column ``x``: in each row the strongest step within ``reach``,
    a line fitted through them (Huber: a checker or a die here and there does not pull it)."""
    rows = np.arange(my + round(0.03 * h), my + round(0.97 * h))
    lo = max(x - reach, 1)
    window = gx[rows, lo : x + reach + 1]
    xs = lo + np.argmax(window, axis=1) - 0.5  # the step lies between two columns
    pts = np.column_stack([xs, rows]).astype(np.float32)
    vx, vy, x0, y0 = cv2.fitLine(pts, cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
    return _line((x0, y0), (x0 + vx, y0 + vy))


def _line(p: Sequence[float], q: Sequence[float]) -> np.ndarray:
    return np.cross([p[0], p[1], 1.0], [q[0], q[1], 1.0])


def _meet(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    p = np.cross(a, b)
    return p[:2] / p[2]


def refine_corners(
    image: np.ndarray,
    corners: Sequence[Sequence[float]],
    config: CalibrationConfig | None = None,
) -> tuple[np.ndarray, float]:
    """The corners (TL, TR, BR, BL) moved onto the surface's edges, and how strongly the
    points' pattern shows within them (comparable between guesses on the same photo)."""
    config = config or CalibrationConfig()
    quad = check_corners(corners).astype(np.float64)
    for _ in range(config.refine_rounds):
        aspect = float(np.clip(quad_aspect(quad), 0.45, 1.4))
        lab, m, w, h, mx, my = _rectify(image, quad, aspect)
        win_x, win_y = round(config.refine_reach * w), round(config.refine_reach * h)
        bar_lo, bar_hi = mx + round(0.42 * w), mx + round(0.58 * w)
        middle = (my + round(0.44 * h), my + round(0.56 * h))
        left_x, bar_l = _middle_ends(lab, middle, (mx - win_x, mx + win_x), (bar_lo, mx + w // 2))
        bar_r, right_x = _middle_ends(
            lab, middle, (mx + w // 2, bar_hi), (mx + w - win_x, mx + w + win_x)
        )
        # the vertical edges, found in the middle, followed up and down the board
        gx = np.abs(cv2.Sobel(lab, cv2.CV_32F, 1, 0, ksize=3)).sum(axis=2)
        left_edge = _track(gx, left_x, my, h)
        right_edge = _track(gx, right_x, my, h)
        lt, rt = (left_x, bar_l), (bar_r, right_x)
        lb, rb = lt, rt
        tops, bottoms = [], []
        for (a_t, b_t), (a_b, b_b) in ((lt, lb), (rt, rb)):
            x0 = round((a_t + a_b) / 2)
            x1 = round((b_t + b_b) / 2)
            xc = (x0 + x1) / 2
            down = np.arange(max(my - win_y, 0), my + win_y)
            up = np.arange(min(my + h + win_y, lab.shape[0] - 1), my + h - win_y, -1)
            tops.append((xc, _row_start(lab, x0, x1, down, 1)))
            bottoms.append((xc, _row_start(lab, x0, x1, up, -1)))
        top_edge, bottom_edge = _line(*tops), _line(*bottoms)
        rect_corners = np.array(
            [
                _meet(top_edge, left_edge),
                _meet(top_edge, right_edge),
                _meet(bottom_edge, right_edge),
                _meet(bottom_edge, left_edge),
            ]
        )
        back = cv2.perspectiveTransform(rect_corners.reshape(-1, 1, 2), np.linalg.inv(m)).reshape(
            4, 2
        )
        try:
            check_corners(back)
        except ProfileError:
            break
        moved = float(np.abs(back - quad).max())
        quad = back
        if moved < 0.5:
            break
    return quad, pattern_strength(image, quad)


def pattern_strength(image: np.ndarray, corners: np.ndarray) -> float:
    """How plainly the 24 points show inside ``corners``: the neighbouring points' contrast
    along the bases of the four fields (comparable between guesses on the same photo)."""
    quad = np.asarray(corners, np.float64)
    lab, _, w, h, mx, my = _rectify(image, quad, float(np.clip(quad_aspect(quad), 0.45, 1.4)))
    score = 0.0
    for y0, y1 in BANDS:
        band = lab[my + round(y0 * h) : my + round(y1 * h)]
        bar = (mx + round(0.4625 * w), mx + round(0.5375 * w))
        for a, b in ((mx, bar[0]), (bar[1], mx + w)):
            score += _field_fit(band, a, b)
    return score
