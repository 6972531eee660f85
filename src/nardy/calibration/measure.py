"""Measure a board's layout from a photo once its four corners are known.

Given only the corners, a profile would have to assume a board's proportions; boards differ
(the bar's width, the points' length, the real height / width, trays on either side or none).
These are measured here from the photo itself:

- the aspect (height / width of the surface) from the corners' perspective, by Zhang and He's
  whiteboard rectification (square pixels, principal point at the image centre);
- the bar as the band near the middle whose columns do not change down the board;
- the points' length from where the triangles give way to the field;
- the trays as a pair of walls in the band beside the frame, left or right, with the
  board's outer edge beyond them.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from nardy.calibration.geometry import BoardGeometry, Rect
from nardy.calibration.profile import BoardProfile, check_corners

WORK = 400  # pixels across the surface when measuring


def whiteboard(
    corners: Sequence[Sequence[float]], image_size: tuple[int, int]
) -> tuple[float, np.ndarray, np.ndarray] | None:
    """Zhang and He's whiteboard rectification: the focal length (square pixels, principal
    point at the image centre) and the rectangle's two sides as the camera sees them, or
    ``None`` when the view is too nearly square-on to tell the focal length."""
    tl, tr, br, bl = (np.array([x, y, 1.0]) for x, y in corners)
    # Zhang & He's numbering: m1 (0,0), m2 (w,0), m3 (0,h), m4 (w,h)
    m1, m2, m3, m4 = tl, tr, bl, br
    k2 = np.dot(np.cross(m1, m4), m3) / np.dot(np.cross(m2, m4), m3)
    k3 = np.dot(np.cross(m1, m4), m2) / np.dot(np.cross(m3, m4), m2)
    n2 = k2 * m2 - m1
    n3 = k3 * m3 - m1
    u0, v0 = image_size[0] / 2, image_size[1] / 2
    if abs(n2[2] * n3[2]) < 1e-9:
        return None
    f2 = -(
        (n2[0] * n3[0] - (n2[0] * n3[2] + n2[2] * n3[0]) * u0 + n2[2] * n3[2] * u0 * u0)
        + (n2[1] * n3[1] - (n2[1] * n3[2] + n2[2] * n3[1]) * v0 + n2[2] * n3[2] * v0 * v0)
    ) / (n2[2] * n3[2])
    if f2 <= 0:
        return None
    f = float(np.sqrt(f2))
    if not 0.3 * image_size[0] < f < 10 * image_size[0]:
        return None
    a_inv = np.linalg.inv(np.array([[f, 0, u0], [0, f, v0], [0, 0, 1.0]]))
    return f, a_inv @ n2, a_inv @ n3


def whiteboard_focal(
    corners: Sequence[Sequence[float]], image_size: tuple[int, int]
) -> float | None:
    """The camera's focal length (pixels) from the image ``corners`` (TL, TR, BR, BL) of a
    rectangle, or ``None`` when the view is too nearly square-on to tell."""
    found = whiteboard(corners, image_size)
    return None if found is None else found[0]


def whiteboard_aspect(
    corners: Sequence[Sequence[float]], image_size: tuple[int, int]
) -> float | None:
    """The real height / width of the rectangle whose image is ``corners`` (TL, TR, BR, BL),
    or ``None`` when the view is too nearly square-on to tell the focal length (then the
    quadrilateral's own proportions are close to the truth anyway)."""
    found = whiteboard(corners, image_size)
    if found is None:
        return None
    _, w, h = found
    return float(np.linalg.norm(h) / np.linalg.norm(w))


def quad_aspect(corners: Sequence[Sequence[float]]) -> float:
    c = np.asarray(corners, float)
    width = (np.linalg.norm(c[1] - c[0]) + np.linalg.norm(c[2] - c[3])) / 2
    height = (np.linalg.norm(c[3] - c[0]) + np.linalg.norm(c[2] - c[1])) / 2
    return float(height / width)


def measure_geometry(image: np.ndarray, corners: Sequence[Sequence[float]]) -> BoardGeometry:
    """The board's layout, measured from ``image`` whose surface has ``corners``."""
    check_corners(corners)
    size = (image.shape[1], image.shape[0])
    seen = quad_aspect(corners)
    aspect = whiteboard_aspect(corners, size) or seen
    if not 0.67 < aspect / seen < 1.5:  # no real camera sees a board that way: trust the quad
        aspect = seen
    aspect = float(np.clip(aspect, 0.45, 1.4))
    base = BoardGeometry(aspect=aspect)
    profile = BoardProfile.from_corners(corners, size, base)
    margin = 0.25
    w = WORK
    h = round(WORK * aspect)
    scale = np.array([[w, 0, margin * w], [0, h, margin * h], [0, 0, 1.0]])
    full = (int(w * (1 + 2 * margin)), int(h * (1 + 2 * margin)))
    rect = cv2.warpPerspective(image, scale @ profile.h, full, flags=cv2.INTER_AREA)
    lab = cv2.cvtColor(rect, cv2.COLOR_BGR2Lab).astype(np.float32)
    x0, y0 = int(margin * w), int(margin * h)
    surface = lab[y0 : y0 + h, x0 : x0 + w]
    bar = _bar(surface)
    point_length = _point_length(surface, bar)
    trays = _trays(lab, surface, margin, w, h)
    return BoardGeometry(bar=bar, point_length=point_length, aspect=aspect, trays=trays)


def _column_edges(block: np.ndarray) -> np.ndarray:
    """How strongly each column of ``block`` (Lab) is a vertical edge, all rows together."""
    light = cv2.GaussianBlur(block[..., 0], (5, 5), 1.2)
    gx = np.abs(cv2.Sobel(light, cv2.CV_32F, 1, 0))
    return np.median(gx, axis=0)


def _bar(surface: np.ndarray) -> tuple[float, float]:
    """The bar's two walls: the strongest vertical edges either side of the middle."""
    h, w = surface.shape[:2]
    edges = _column_edges(surface[int(0.05 * h) : int(0.95 * h)])
    mid = w // 2
    lo, hi = int(0.4 * w), int(0.6 * w)
    left = lo + int(np.argmax(edges[lo : mid - 2]))
    right = mid + 2 + int(np.argmax(edges[mid + 2 : hi]))
    if not 0.03 < (right - left) / w < 0.2:
        return BoardGeometry().bar
    return (float(left / w), float(right / w))


def _point_length(surface: np.ndarray, bar: tuple[float, float]) -> float:
    """Where, down each point's axis, the triangle's colour gives way to the field's."""
    h, w = surface.shape[:2]
    geometry = BoardGeometry(bar=bar)
    middle = surface[int(0.46 * h) : int(0.54 * h)]
    cols = [c for c in range(w) if not (bar[0] * w - 2 <= c <= bar[1] * w + 2)]
    field = np.median(middle[:, cols].reshape(-1, 3), axis=0)
    ends = []
    for shape in geometry.points():
        x = int(shape.base[0] * w)
        column = surface[:, max(0, x - 1) : x + 2].mean(axis=1)
        if shape.down < 0:
            column = column[::-1]
        dist = np.linalg.norm(column[: h // 2] - field, axis=-1)
        near_frame = float(np.median(dist[int(0.02 * h) : int(0.1 * h)]))
        if near_frame < 15:
            continue
        far = dist > 0.4 * near_frame
        last = int(np.flatnonzero(far)[-1]) if far.any() else 0
        ends.append(last / h)
    if len(ends) < 6:
        return BoardGeometry().point_length
    # checkers standing past a point's end make some columns long: take the shorter half
    ends = sorted(ends)[: max(3, len(ends) // 2)]
    # the tip itself is too thin to see: what shows ends a little short of it
    length = float(np.median(ends) / 0.92)
    if not 0.34 <= length <= 0.48:  # the points could not be made out: a usual board's
        return BoardGeometry().point_length
    return length


#: Shares of the surface's width a tray's layout keeps to beside the frame: the least frame
#: between the surface and the tray's inner wall (the surface's own bevelled edge lies
#: nearer), the farthest out that wall may stand, the tray's narrowest and widest span.
TRAY_GAP = (0.03, 0.12)
TRAY_SPAN = (0.04, 0.15)
#: The frame beyond the tray (to the board's outer edge) against the frame before it.
OUTER_FRAME = (0.5, 2.5)
#: The least ``_divider`` of a pair of trays: walls with no divider between them are the frame's
#: edges and the table beyond it, the trays out of the picture. On 1,207 usable renders of the
#: training set (never the fixtures), trays read where none are in view 71 → 7 (131 such
#: renders), trays in view not read 3 → 5 (1,076); at 2: 16 and 4, at 3: 4 and 16.
TRAY_DIVIDER = 2.5


def _trays(
    lab: np.ndarray, surface: np.ndarray, margin: float, w: int, h: int
) -> tuple[Rect, Rect] | None:
    """A tray beside the frame shows as three long vertical edges out from the surface's edge:
    its two walls, then the board's outer edge, about as far beyond the tray as its inner
    wall is from the surface. The side without a tray shows one (the outer edge), so a pair
    of walls alone is not enough: a full tray's checkers, the bevel and the outer edge make
    strong pairs too, on either side. When both sides show such walls, the trays are where a
    divider crosses between the walls at the middle (``_divider``); walls with no divider are
    none (``TRAY_DIVIDER``: the frame's edges and the table when the trays are out of view)."""
    x0, y0 = int(margin * w), int(margin * h)
    rows = np.concatenate(
        [lab[y0 + int(0.1 * h) : y0 + int(0.4 * h)], lab[y0 + int(0.6 * h) : y0 + int(0.9 * h)]]
    )
    inner_level = float(np.median(_column_edges(surface)))
    reach = int(margin * w)
    best = None
    for side in (1, -1):
        if side > 0:
            block = rows[:, x0 + w : x0 + w + reach]
        else:
            block = rows[:, max(0, x0 - reach) : x0][:, ::-1]
        edges = _column_edges(block)
        if len(edges) < int(0.2 * w):
            continue
        found = _walls(edges, w)
        if found is None:
            continue
        score, a, b = found
        if score < 9 * inner_level + 15:
            continue
        xs = (1 + a / w, 1 + b / w) if side > 0 else (-b / w, -a / w)
        cols = (x0 + round(xs[0] * w) + 2, x0 + round(xs[1] * w) - 1)
        divider = _divider(lab[y0 : y0 + h, cols[0] : cols[1], 0])
        if best is None or divider > best[0]:
            best = (divider, xs)
    if best is None or best[0] < TRAY_DIVIDER:
        return None
    xa, xb = best[1]
    return (Rect(xa, 0.53, xb, 1.0), Rect(xa, 0.0, xb, 0.47))


def _divider(lightness: np.ndarray) -> float:
    """How much stronger the strongest edge across ``lightness`` (the columns between two
    walls, the surface's height) is near the middle than elsewhere: the divider between a
    pair of trays, which the frame beside a board without trays lacks. On 222 renders
    beside the frame it is 5 or more on the trays' side in 19 of 20, 2.5 or less on the
    other side in 19 of 20."""
    h = len(lightness)
    if lightness.shape[1] < 1:
        return 0.0
    light = cv2.GaussianBlur(lightness, (5, 5), 1.2)
    across = np.median(np.abs(cv2.Sobel(light, cv2.CV_32F, 0, 1)), axis=1)
    middle = across[int(0.44 * h) : int(0.56 * h)].max()
    elsewhere = np.median(
        np.r_[across[int(0.1 * h) : int(0.4 * h)], across[int(0.6 * h) : int(0.9 * h)]]
    )
    return float(middle / (elsewhere + 1.0))


def _walls(edges: np.ndarray, w: int) -> tuple[float, int, int] | None:
    """The strongest inner wall ``a``, outer wall ``b`` and outer edge beyond them (columns
    out from the surface's edge, on a surface ``w`` wide), with their edges' sum."""
    best = None
    for a in range(int(TRAY_GAP[0] * w), int(TRAY_GAP[1] * w)):
        for b in range(a + int(TRAY_SPAN[0] * w), min(len(edges) - 2, a + int(TRAY_SPAN[1] * w))):
            lo = b + max(2, int(OUTER_FRAME[0] * a))
            hi = min(len(edges), b + int(OUTER_FRAME[1] * a) + 3)
            if lo >= hi:
                continue
            score = float(edges[a] + edges[b] + edges[lo:hi].max())
            if best is None or score > best[0]:
                best = (score, a, b)
    return best
