"""The doubling cube on a board: where it stands (the middle, on the bar, or on one player's side,
on or beside the frame's long edge) and the face on top (2 … 64; 64 in the middle at the start
means the cube stands at 1), with a confidence.

The board is first turned into a top-down view with the inner frame corners, so a cube always
has about the same size there. Square blobs of that size on the bar and along the two long edges
are the candidates; a small network (``cube_model.npz``, see ``tinynet``) says for each patch
whether it is the cube and which face it shows.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import cv2
import numpy as np

from nardy.vision import tinynet

CubeWhere = Literal["middle", "light", "dark"]
Edge = Literal["middle", "top", "bottom"]
FACES = (2, 4, 8, 16, 32, 64)
WEIGHTS = Path(__file__).with_name("cube_model.npz")
PATCH = 32

# The top-down view: board units (the inner frame is the unit square) to pixels.
VIEW_W = 600  # pixels across the inner frame
ASPECT = 0.82  # inner height over inner width of a usual board
REACH = (-0.1, 1.1, -0.32, 1.32)  # x0, x1, y0, y1 of the view, board units


class CubeInputError(ValueError):
    """An image or corners the cube reader cannot use."""


@dataclass(frozen=True)
class CubeConfig:
    cube: float = 0.045  # the cube's side over the inner frame's width (23 mm on a 50 cm board)
    window: float = 1.7  # patch side over cube side
    min_cube: float = 0.9  # least probability (mean over four quarter turns) that the best
    # patch is the cube: dice and checker rims look much like one at this size
    shortlist: int = 3  # candidates looked at again at the other three quarter turns
    bar: tuple[float, float] = (0.42, 0.58)  # across the board: "middle" lies within this
    edge: float = 0.12  # how far inside the frame a cube on a side may stand (board units)


@dataclass(frozen=True)
class CubeReading:
    value: int
    where: CubeWhere | None  # None when which side is light's was not given
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


def view_to_board(x, y):  # type: ignore[no-untyped-def]  # floats or arrays alike
    x0, _, y0, _ = REACH
    return x / VIEW_W + x0, y / (VIEW_W * ASPECT) + y0


def cube_patch(view: np.ndarray, x: float, y: float, side: float, angle: float = 0.0) -> np.ndarray:
    """A PATCH×PATCH patch of the grey top-down view around (x, y), the body made light."""
    m = cv2.getRotationMatrix2D((x, y), angle, PATCH / side)
    m[0, 2] += PATCH / 2 - x
    m[1, 2] += PATCH / 2 - y
    patch = cv2.warpAffine(
        view, m, (PATCH, PATCH), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )
    patch = patch.astype(np.float32)
    core = patch[PATCH // 4 : -PATCH // 4, PATCH // 4 : -PATCH // 4]
    lo, mid, hi = np.percentile(core, (5, 50, 95))
    if mid - lo < hi - mid:  # the body (most of the cube's face) is the dark side: light ink
        patch = 255.0 - patch
    lo, mid, hi = np.percentile(patch, (5, 50, 95))
    return ((patch - mid) / max(hi - lo, 8.0)).astype(np.float32)


def _reach_mask(size: tuple[int, int], cfg: CubeConfig) -> np.ndarray:
    w, h = size
    xs, ys = view_to_board(np.arange(w, dtype=np.float64), np.arange(h, dtype=np.float64))
    bx, by = np.meshgrid(xs, ys)
    on_bar = (bx >= cfg.bar[0]) & (bx <= cfg.bar[1]) & (by >= 0.0) & (by <= 1.0)
    on_side = (bx >= -0.05) & (bx <= 1.05) & ((by <= cfg.edge) | (by >= 1.0 - cfg.edge))
    return on_bar | on_side


def candidates(
    view: np.ndarray, cfg: CubeConfig = CubeConfig(), most: int = 40
) -> list[tuple[float, float]]:
    """Centres (view pixels) of the busiest cube-sized squares where a cube may stand: the
    cube's edges and numeral make more contrast than wood, felt or an empty point."""
    side = cfg.cube * VIEW_W
    k = max(3, int(side))
    gx = cv2.Sobel(view, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(view, cv2.CV_32F, 0, 1, ksize=3)
    energy = cv2.boxFilter(cv2.magnitude(gx, gy), -1, (k, k))
    energy[~_reach_mask((view.shape[1], view.shape[0]), cfg)] = 0
    peaks = (energy >= cv2.dilate(energy, np.ones((k, k), np.uint8))) & (energy > 0)
    ys, xs = np.nonzero(peaks)
    order = np.argsort(-energy[ys, xs])[:most]
    return [(float(xs[i]), float(ys[i])) for i in order]


def _board(board: Any, light_edge: str | None) -> tuple[Sequence[Sequence[float]], str | None]:
    """Corners and light's edge from a calibration profile (``corners``, ``orientation``) or
    from the corners themselves."""
    corners = getattr(board, "corners", board)
    orientation = getattr(board, "orientation", None)
    if light_edge is None and orientation is not None:
        light_edge = "bottom" if int(orientation.light_ace) <= 12 else "top"
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
    and ``edge`` says which side.
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
    to_view, size = view_transform(corners)
    view = cv2.warpPerspective(gray, to_view, size, flags=cv2.INTER_AREA)
    spots = candidates(view, config)
    if not spots:
        return None
    side = config.cube * VIEW_W * config.window
    weights = tinynet.load(WEIGHTS)
    patches = np.stack([cube_patch(view, x, y, side) for x, y in spots])
    first = tinynet.softmax(tinynet.forward(weights, patches)[:, :7])
    # the likeliest few again at the other three quarter turns: a cube lies any way round
    # and its face reads surest as the mean over the four
    shortlist = np.argsort(first[:, 0])[: config.shortlist]
    turned = np.stack(
        [cube_patch(view, *spots[i], side, angle) for i in shortlist for angle in (90, 180, 270)]
    )
    more = tinynet.softmax(tinynet.forward(weights, turned)[:, :7]).reshape(len(shortlist), 3, 7)
    prob = (first[shortlist] + more.sum(axis=1)) / 4
    pick = int(np.argmin(prob[:, 0]))
    if 1.0 - prob[pick, 0] < config.min_cube:
        return None
    best = int(shortlist[pick])
    value = FACES[int(np.argmax(prob[pick, 1:]))]
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
    return CubeReading(
        value, where, edge, (float(back[0]), float(back[1])), float(prob[pick, 1:].max())
    )
