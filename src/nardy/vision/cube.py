"""The doubling cube on a board: where it stands (the middle, on the bar, or on one player's side,
on or beside the frame's long edge) and the face on top (2 … 64; 64 in the middle at the start
means the cube stands at 1), with a confidence.

The board is first turned into a top-down view with the inner frame corners, so a cube always
has about the same size there. Square blobs of that size on the bar and along the two long edges
are the candidates. Small networks (see ``tinynet``) look at them: a quick one
(``cube_quick_model.npz``, a quarter of the screen's widths) ranks every candidate, the screen
(``cube_model.npz``, ``PATCH`` pixels, the face about 19 across) ranks again the quick one's
best few, and a finer one (``cube_read_model.npz``, ``READ_PATCH`` pixels, the face about 27
across, as sharp as the view holds it) reads the likeliest few of those: whether each is the
cube, then the face of the best at four quarter turns. The finer patch is wider, so a
candidate half a cube off still holds it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

import cv2
import numpy as np

from nardy.vision import tinynet
from nardy.vision.stats import row_percentiles

CubeWhere = Literal["middle", "light", "dark"]
Edge = Literal["middle", "top", "bottom"]
FACES = (2, 4, 8, 16, 32, 64)
WEIGHTS = Path(__file__).with_name("cube_model.npz")
QUICK_WEIGHTS = Path(__file__).with_name("cube_quick_model.npz")
READ_WEIGHTS = Path(__file__).with_name("cube_read_model.npz")
PATCH = 32
READ_PATCH = 64

# The top-down view: board units (the inner frame is the unit square) to pixels.
VIEW_W = 600  # pixels across the inner frame
ASPECT = 0.82  # inner height over inner width of a usual board
REACH = (-0.1, 1.1, -0.32, 1.32)  # x0, x1, y0, y1 of the view, board units
Box = tuple[int, int, int, int]  # y0, y1, x0, x1 of a piece of the view


class CubeInputError(ValueError):
    """An image or corners the cube reader cannot use."""


@dataclass(frozen=True)
class CubeConfig:
    cube: float = 0.045  # the cube's side over the inner frame's width (23 mm on a 50 cm board)
    window: float = 1.7  # quick patch's side over cube side
    read_window: float = 2.4  # fine patch's side over cube side: room for a candidate off centre
    # candidates the quick network ranks in each region of ``_regions``: the bar, then the
    # surface by the top frame, on or beyond it, the same two along the bottom
    most: tuple[int, ...] = (15, 8, 8, 8, 8)
    spacing: float = 0.75  # least distance of two candidates (of the cube's side): a cube
    # beside a die keeps its own candidate
    min_cube: float = 0.7  # least probability (mean over four quarter turns, fine network)
    # that the best patch is the cube (chosen on the 135 usable renders of cube/val, which no
    # network learnt from: from 0.6 to 0.8 the same 75 of 77 cubes right, none missed and no
    # false cube of 58; from 0.9 one missed; the middle of that span)
    # candidates the screen ranks again, the quick network's best (chosen on 135 renders no
    # network was trained on: from 8 to 16 the same cubes right, 70 of 77)
    screened: int = 12
    shortlist: int = 4  # candidates the fine network reads once
    # least confidence of light's row told from the checkers (``sides.light_row``) for a cube
    # on a side to be called light's or dark's; below it ``where`` is None, whose side it is
    # unknown (chosen on 387 training renders with a cube on a side: from 0.6 to 0.8 the
    # same 2 said wrong and 38–44 left unknown, mostly random stacks; at 0.5, 18 said wrong)
    side_sure: float = 0.75
    bar: tuple[float, float] = (0.42, 0.58)  # across the board: "middle" lies within this
    edge: float = 0.12  # how far inside the frame a cube on a side may stand (board units)


@dataclass(frozen=True)
class CubeReading:
    value: int
    where: CubeWhere | None  # None on a side when whose side it is was not given or told
    edge: Edge
    center: tuple[float, float]  # image pixels
    confidence: float

    def to_json(self) -> dict[str, object]:
        return {"value": self.value, "where": self.where}


def view_transform(corners: Sequence[Sequence[float]]) -> tuple[np.ndarray, tuple[int, int]]:
    """Image → top-down view homography for the inner frame corners TL, TR, BR, BL, and the
    view's size."""
    src = np.asarray(corners, dtype=np.float32).reshape(4, 2)
    if not np.isfinite(src).all() or abs(cv2.contourArea(src)) < 100:
        raise CubeInputError("the board's corners do not enclose an area")
    x0, x1, y0, y1 = REACH
    sx, sy = VIEW_W, VIEW_W * ASPECT
    dst = np.array(
        [
            [-x0 * sx, -y0 * sy],
            [(1 - x0) * sx, -y0 * sy],
            [(1 - x0) * sx, (1 - y0) * sy],
            [-x0 * sx, (1 - y0) * sy],
        ],
        dtype=np.float32,
    )
    size = (round((x1 - x0) * sx), round((y1 - y0) * sy))
    return cv2.getPerspectiveTransform(src, dst), size


def top_down(
    gray: np.ndarray, corners: Sequence[Sequence[float]], config: CubeConfig | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """The grey top-down view of the board and the image → view homography. Where the view
    reaches past the photo its edge pixels are drawn out (not black), so the photo's own border
    makes no edge that outshines a cube beside the board. Given ``config``, only the view
    within reach of where a cube may stand is drawn (``_drawn``; the rest of the board's
    middle stays black): a quarter less to warp, and drawing the border out costs more."""
    to_view, size = view_transform(corners)
    if config is None:
        view = cv2.warpPerspective(
            gray, to_view, size, flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE
        )
        return view, to_view
    view = np.zeros((size[1], size[0]), gray.dtype)
    for y0, y1, x0, x1 in _drawn(size, config):
        shift = np.array([[1.0, 0.0, -x0], [0.0, 1.0, -y0], [0.0, 0.0, 1.0]])
        view[y0:y1, x0:x1] = cv2.warpPerspective(
            gray,
            shift @ to_view,
            (x1 - x0, y1 - y0),
            flags=cv2.INTER_AREA,
            borderMode=cv2.BORDER_REPLICATE,
        )
    return view, to_view


@lru_cache(maxsize=4)
def _drawn(size: tuple[int, int], cfg: CubeConfig) -> tuple[Box, ...]:
    """The boxes of the view (y0, y1, x0, x1) that the reader looks at: every place a cube may
    stand (``_regions``) with room around it for the candidates' filters and the fine
    network's patch at any turn (its half-diagonal): the bands along the two long sides full
    width, and between them only the columns of the bar."""
    regions, _ = _regions(size, cfg)
    w, h = size
    side = cfg.cube * VIEW_W
    reach = int(np.ceil(side * cfg.read_window / 2 * np.sqrt(2))) + 4
    rows = np.where((regions > 1).any(axis=1))[0]
    top = int(rows[rows < h // 2].max()) + 1 + reach
    bottom = int(rows[rows >= h // 2].min()) - reach
    bar = np.where((regions == 1).any(axis=0))[0]
    if bottom <= top:
        return ((0, h, 0, w),)
    return (
        (0, top, 0, w),
        (top, bottom, max(0, int(bar.min()) - reach), min(w, int(bar.max()) + 1 + reach)),
        (bottom, h, 0, w),
    )


def view_to_board(x, y):  # type: ignore[no-untyped-def]  # floats or arrays alike
    x0, _, y0, _ = REACH
    return x / VIEW_W + x0, y / (VIEW_W * ASPECT) + y0


def cube_patch(
    view: np.ndarray, x: float, y: float, side: float, angle: float = 0.0, size: int = PATCH
) -> np.ndarray:
    """A size×size patch of the grey top-down view around (x, y), ``side`` view pixels across,
    turned by ``angle`` degrees, the body made light (see ``normalise``)."""
    return normalise(raw_patches(view, [(x, y, side, angle)], size))[0]


def raw_patches(
    view: np.ndarray, where: Sequence[tuple[float, float, float, float]], size: int
) -> np.ndarray:
    """Grey patches (N × size × size, 8-bit as the view) of the view at (x, y, side, angle)
    each."""
    out = np.empty((len(where), size, size), view.dtype)
    for i, (x, y, side, angle) in enumerate(where):
        m = cv2.getRotationMatrix2D((x, y), angle, size / side)
        m[0, 2] += size / 2 - x
        m[1, 2] += size / 2 - y
        cv2.warpAffine(
            view,
            m,
            (size, size),
            dst=out[i],
            flags=cv2.INTER_LINEAR,
            borderMode=cv2.BORDER_REPLICATE,
        )
    return out


def normalise(patches: np.ndarray) -> np.ndarray:
    """8-bit patches (N × s × s) levelled as the networks take them: inverted where the body
    (most of the middle) is the dark side, so the ink is always dark on light; then the median
    at 0 and the 5–95 % spread at 1 (``np.percentile``'s numbers, taken from each patch's
    histogram: 256 levels, no sorting)."""
    n, s, _ = patches.shape
    q = (5.0, 50.0, 95.0)
    core = patches[:, s // 4 : -(s // 4), s // 4 : -(s // 4)]
    lo, mid, hi = row_percentiles(_histograms(core), q)
    dark = mid - lo < hi - mid
    counts = _histograms(patches)
    counts[dark] = counts[dark, ::-1]  # the inverted patch's levels: 255 - v for v
    lo, mid, hi = row_percentiles(counts, q)
    flat = patches.reshape(n, -1)
    p = np.where(dark[:, None], 255 - flat, flat).astype(np.float32)
    out = (p - mid[:, None]) / np.maximum(hi - lo, 8.0)[:, None]
    return out.reshape(n, s, s).astype(np.float32)


def _histograms(patches: np.ndarray) -> np.ndarray:
    """Each 8-bit patch's count of every grey level (N × 256)."""
    n = len(patches)
    levels = patches.reshape(n, -1) + (256 * np.arange(n))[:, None]
    return np.bincount(levels.ravel(), minlength=256 * n).reshape(n, 256)


@lru_cache(maxsize=4)
def _regions(size: tuple[int, int], cfg: CubeConfig) -> tuple[np.ndarray, np.ndarray]:
    """Where a cube may stand, per view pixel: 0 nowhere, 1 the bar; along the top side 2 on
    the surface by the frame, 3 on or beyond the frame; along the bottom 4 and 5 so. And the
    same as a mask (1.0 where a cube may stand, else 0.0)."""
    w, h = size
    xs, ys = view_to_board(np.arange(w, dtype=np.float64), np.arange(h, dtype=np.float64))
    bx, by = np.meshgrid(xs, ys)
    on_bar = (bx >= cfg.bar[0]) & (bx <= cfg.bar[1]) & (by >= 0.0) & (by <= 1.0)
    along = (bx >= -0.05) & (bx <= 1.05)
    out = np.zeros((h, w), np.uint8)
    out[along & (by <= cfg.edge)] = 2
    out[along & (by < 0.0)] = 3
    out[along & (by >= 1.0 - cfg.edge)] = 4
    out[along & (by > 1.0)] = 5
    out[on_bar] = 1
    return out, (out > 0).astype(np.float32)


@lru_cache(maxsize=4)
def _pieces(size: tuple[int, int], cfg: CubeConfig, margin: int) -> tuple[tuple[Box, Box], ...]:
    """The view cut into the few boxes that hold every place a cube may stand (a band along
    each long side, the bar between), each with the box around it ``margin`` pixels wider
    that its filters need (clipped to the view): most of the middle of the board is left
    out."""
    regions, _ = _regions(size, cfg)
    w, h = size
    rows = regions.any(axis=1)
    first = np.where(rows, regions.argmax(axis=1), -1)
    last = np.where(rows, w - 1 - regions[:, ::-1].argmax(axis=1), -1)
    out: list[tuple[Box, Box]] = []
    y = 0
    while y < h:
        end = y + 1
        while end < h and (first[end], last[end]) == (first[y], last[y]):
            end += 1
        if rows[y]:
            x0, x1 = int(first[y]), int(last[y]) + 1
            core = (y, end, x0, x1)
            wide = (
                max(0, y - margin),
                min(h, end + margin),
                max(0, x0 - margin),
                min(w, x1 + margin),
            )
            out.append((core, wide))
        y = end
    return tuple(out)


def candidates(view: np.ndarray, cfg: CubeConfig = CubeConfig()) -> list[tuple[float, float]]:
    """Centres (view pixels) of the busiest cube-sized squares where a cube may stand: the
    cube's edges and numeral make more contrast than wood, felt or an empty point. The bar and
    each side (on the surface, and on or beyond the frame) get their own share: checker stacks
    along an edge must not crowd out a dark cube on a dark bar or one beside the board.

    Each piece of the view that holds such places is filtered on its own with a margin as
    wide as the filters reach, so its every number is the whole view's: the gradients are
    whole numbers, the box sums of their lengths exact in double precision, and the peaks a
    maximum."""
    side = cfg.cube * VIEW_W
    k = max(3, int(side))
    near = max(3, int(side * cfg.spacing)) | 1
    size = (view.shape[1], view.shape[0])
    regions, inside = _regions(size, cfg)
    ys_in, xs_in, energy_in = [], [], []  # each piece's peaks
    for (y0, y1, x0, x1), (u0, u1, v0, v1) in _pieces(size, cfg, 1 + k // 2 + near // 2 + 2):
        part = view[u0:u1, v0:v1]
        gx = cv2.Sobel(part, cv2.CV_32F, 1, 0, ksize=3)
        gy = cv2.Sobel(part, cv2.CV_32F, 0, 1, ksize=3)
        energy = cv2.boxFilter(cv2.magnitude(gx, gy), -1, (k, k))
        energy *= inside[u0:u1, v0:v1]  # nothing where no cube may stand (never negative)
        peaks = (energy >= cv2.dilate(energy, np.ones((near, near), np.uint8))) & (energy > 0)
        core = (slice(y0 - u0, y1 - u0), slice(x0 - v0, x1 - v0))
        at = cv2.findNonZero(peaks[core].view(np.uint8))
        if at is not None:
            at = at.reshape(-1, 2)
            ys_in.append(at[:, 1] + y0)
            xs_in.append(at[:, 0] + x0)
            energy_in.append(energy[core][at[:, 1], at[:, 0]])
    if not ys_in:
        return []
    ys, xs, energy_at = (np.concatenate(a) for a in (ys_in, xs_in, energy_in))
    # row by row, as the whole view's peaks would be found: ties in energy keep that order
    row_order = np.lexsort((xs, ys))
    ys, xs, energy_at = ys[row_order], xs[row_order], energy_at[row_order]
    order = np.argsort(-energy_at)
    out: list[tuple[float, float]] = []
    for region, share in enumerate(cfg.most, start=1):
        mine = order[regions[ys[order], xs[order]] == region][:share]
        out += [(float(xs[i]), float(ys[i])) for i in mine]
    return out


def screen(
    view: np.ndarray, spots: Sequence[tuple[float, float]], config: CubeConfig
) -> np.ndarray:
    """The probability that each candidate is not the cube: the screen's for the quick
    network's best ``config.screened``, 1 for the rest. (The screen costs five times the quick
    network a patch, and more than that on a whole frame's candidates at once, whose
    convolutions' matrices no longer fit the cache.)"""
    side = config.cube * VIEW_W * config.window
    patches = normalise(raw_patches(view, [(x, y, side, 0.0) for x, y in spots], PATCH))
    out = np.ones(len(spots))
    best = np.argsort(_not_cube(QUICK_WEIGHTS, patches), kind="stable")[: config.screened]
    out[best] = _not_cube(WEIGHTS, patches[best])
    return out


def _not_cube(weights: Path, patches: np.ndarray) -> np.ndarray:
    return tinynet.softmax(tinynet.forward(tinynet.load(weights), patches)[:, :7])[:, 0]


def square_turn(view: np.ndarray, x: float, y: float, side: float) -> float:
    """How far (degrees, −45 … 45) the square around (x, y), ``side`` view pixels across, is
    turned from the view's axes: the gradients' directions taken four times round, weighed by
    their strength and nearness. Turned back so, a cube's face stands upright at one of the
    four quarter turns, whichever way it lies on the board."""
    r = int(side)
    piece = cv2.getRectSubPix(view, (2 * r + 1, 2 * r + 1), (float(x), float(y)))
    piece = piece.astype(np.float32)
    gx = cv2.Sobel(piece, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(piece, cv2.CV_32F, 0, 1, ksize=3)
    z = (_nearness(r, side) * np.hypot(gx, gy) * np.exp(4j * np.arctan2(gy, gx))).sum()
    return float(np.degrees(np.angle(z) / 4))


@lru_cache(maxsize=4)
def _nearness(r: int, side: float) -> np.ndarray:
    """``square_turn``'s weights over a (2 r + 1)² piece: a Gaussian of the distance from the
    middle, 0.4 ``side`` wide."""
    d = np.arange(-r, r + 1, dtype=np.float32) ** 2
    return np.exp(-(d[:, None] + d[None, :]) / (2 * (0.4 * side) ** 2))


def read(
    view: np.ndarray,
    spots: Sequence[tuple[float, float]],
    config: CubeConfig,
    turns: Sequence[int] = (0, 90, 180, 270),
    square: Sequence[float] | None = None,
) -> np.ndarray:
    """The fine network's probabilities (N × 7: not the cube, then each of ``FACES``) for each
    spot, turned square with the view (by ``square``, each spot's ``square_turn`` when given),
    the mean over ``turns`` (degrees)."""
    side = config.cube * VIEW_W * config.read_window
    if square is None:
        square = [square_turn(view, x, y, config.cube * VIEW_W) for x, y in spots]
    where = [
        (x, y, side, turn + angle)
        for (x, y), turn in zip(spots, square, strict=True)
        for angle in turns
    ]
    patches = normalise(raw_patches(view, where, READ_PATCH))
    probs = tinynet.softmax(tinynet.forward(tinynet.load(READ_WEIGHTS), patches)[:, :7])
    return probs.reshape(len(spots), len(turns), 7).mean(axis=1)


def rank(
    view: np.ndarray, spots: Sequence[tuple[float, float]], config: CubeConfig
) -> tuple[int, np.ndarray]:
    """The likeliest spot (an index into ``spots``) and the fine network's reading of it:
    the quick network's shortlist read once, the best of it three more times, turned."""
    shortlist = np.argsort(screen(view, spots, config))[: config.shortlist]
    near = [spots[i] for i in shortlist]
    square = [square_turn(view, x, y, config.cube * VIEW_W) for x, y in near]
    first = read(view, near, config, (0,), square)
    pick = int(np.argmin(first[:, 0]))
    more = read(view, [near[pick]], config, (90, 180, 270), [square[pick]])[0]
    return int(shortlist[pick]), (first[pick] + 3 * more) / 4


def _board(board: Any, light_edge: str | None) -> tuple[Sequence[Sequence[float]], str | None]:
    """Corners and light's edge from a calibration profile (``corners``, ``orientation``) or
    from the corners themselves."""
    corners = getattr(board, "corners", board)
    orientation = getattr(board, "orientation", None)
    if light_edge is None and orientation is not None:
        light_edge = orientation.light_row
    return corners, light_edge


def find_cube(
    image: np.ndarray,
    board: Any,
    light_edge: Literal["top", "bottom"] | None = None,
    config: CubeConfig = CubeConfig(),
) -> CubeReading | None:
    """The cube on the board, or None. ``board`` is the inner frame corners (TL, TR, BR, BL) or
    a calibration profile (its ``corners``, and its ``orientation`` for light's edge).

    ``light_edge`` says along which long edge of the image light sits (points 1–12 run along
    the bottom); without it, and without an orientation, ``where`` is None for a cube on a side
    and ``edge`` says which side. (``nardy detect`` passes light's row from the checkers only
    where they tell it surely, ``side_sure``: a guess would be wrong as often as right.)
    """
    corners, light_edge = _board(board, light_edge)
    if (
        not isinstance(image, np.ndarray)
        or image.dtype != np.uint8
        or image.ndim not in (2, 3)
        or image.size == 0
    ):
        raise CubeInputError("expected an 8-bit grey or BGR image")
    gray = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    view, to_view = top_down(gray, corners, config)
    spots = candidates(view, config)
    if not spots:
        return None
    best, prob = rank(view, spots, config)
    if 1.0 - prob[0] < config.min_cube:
        return None
    value = FACES[int(np.argmax(prob[1:]))]
    vx, vy = spots[best]
    bx, by = view_to_board(vx, vy)
    edge: Edge = (
        "middle"
        if config.bar[0] <= bx <= config.bar[1] and 0.0 <= by <= 1.0
        else ("top" if by < 0.5 else "bottom")
    )
    where: CubeWhere | None = "middle" if edge == "middle" else None
    if edge != "middle" and light_edge is not None:
        where = "light" if edge == light_edge else "dark"
    back = cv2.perspectiveTransform(np.array([[[vx, vy]]], np.float64), np.linalg.inv(to_view))[
        0, 0
    ]
    return CubeReading(value, where, edge, (float(back[0]), float(back[1])), float(prob[1:].max()))
