"""Whether a frame can be trusted: light enough, no glare over the surface, nothing reaching in
over the frame (a hand or an arm always crosses it), no hand over the board as a small network
sees it whole (``usable_model``), no motion blur, the camera still where it was calibrated.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cached_property, lru_cache

import cv2
import numpy as np

from nardy.calibration import BoardProfile
from nardy.vision.config import VisionConfig
from nardy.vision.stats import median_rows, runs
from nardy.vision.usable_model import CLASSES, BoardView, predict


@dataclass(frozen=True)
class Verdict:
    usable: bool
    why: str | None = None
    score: float = 1.0  # 0..1, how far from the nearest threshold (1 = clearly usable)


def board_light(
    strips_gray: np.ndarray, levels: tuple[float, float], config: VisionConfig
) -> Verdict:
    """Too dark to read: the mean grey level of the board itself, as the camera took it.
    ``strips_gray`` are the points' strips in grey (``strips_gray``), their levels stretched as
    ``levels`` (``Tiles.levels``: black level, gain) say. The board, not the frame: a board lit
    on a dark table, the room around it black, reads as well as any (the frame's mean put
    such frames under the limit)."""
    lo, gain = levels
    mean = float(cv2.mean(strips_gray)[0]) / gain + lo
    if mean < config.dark_mean:
        return Verdict(False, f"too dark (mean grey level {mean:.0f} on the board)", 0.0)
    return Verdict(True, None, min(1.0, (mean - config.dark_mean) / config.dark_mean))


def surface_glare(strips_gray: np.ndarray, blown_level: float, config: VisionConfig) -> Verdict:
    """A lamp's reflection that blows out a part of the board: blown-out pixels in a patch
    wider than any checker (a white checker is blown out too, but it is small and round).
    ``strips_gray`` is the 24 point strips side by side in grey (length × 24 strip widths, as
    ``strips_gray`` makes them of ``Tiles.strip_row``): each quarter's six are that part of the
    board. ``blown_level`` is the camera's blown-out grey level as it lies in the strips."""
    width = strips_gray.shape[1] // 24
    level = min(blown_level, 254)
    worst = 0.0
    k = int(config.glare_patch * width)
    if strips_gray.max() >= level:
        blown_all = (strips_gray >= level).view(np.uint8)
        for q in range(4):
            blown = blown_all[:, 6 * q * width : (6 * q + 6) * width]
            # a patch k wide is k × k pixels blown out at least: fewer, and there is none
            if cv2.countNonZero(blown) < k * k:
                continue
            blown = np.ascontiguousarray(blown)
            # beyond the quarter is not blown out (OpenCV's erosion takes it to be: a white
            # stack at a quarter's end would pass for a patch as wide as the kernel)
            patch = cv2.morphologyEx(
                blown,
                cv2.MORPH_OPEN,
                np.ones((k, k), np.uint8),
                borderType=cv2.BORDER_CONSTANT,
                borderValue=0,
            )
            worst = max(worst, cv2.countNonZero(patch) / patch.size)  # its mean: 0 or 1
    if worst > config.glare_share:
        return Verdict(False, f"glare over {worst:.0%} of a quarter of the board", 0.0)
    return Verdict(True, None, 1.0 - worst / config.glare_share)


def frame_intruder(
    band_lab: np.ndarray,
    sides: tuple[tuple[int, int], ...],
    in_view: np.ndarray,
    config: VisionConfig,
) -> Verdict:
    """Something reaching over the frame: an arm always crosses it. Along each side the band
    of frame looks the same from one end to the other (its bevel, its top, its wood, seen
    across); a run of it that looks different, and changes sharply somewhere (``_sharp_run``),
    is something lying over it. The band is taken from the frame's outer part, beyond where a
    tall stack leaning in the picture reaches."""
    names = ("top", "right", "bottom", "left")
    shares: dict[str, float] = {}
    # opposite sides are as long as each other (the sampler cuts the band so): each pair is
    # read as one batch
    for pair in ((0, 2), (1, 3)):
        (a0, b0), (a1, _) = sides[pair[0]], sides[pair[1]]
        along = b0 - a0
        k = max(1, along // config.intruder_segments)
        m = along // k
        cut = np.stack([band_lab[:, a0 : a0 + m * k], band_lab[:, a1 : a1 + m * k]])
        # each segment's mean (2 × across × m × 3), added up in order as np.mean does
        parts = cut.reshape(2, band_lab.shape[0], m, k, 3)
        seg = parts[:, :, :, 0].copy()
        for j in range(1, k):
            seg += parts[:, :, :, j]
        seg /= k
        weights = np.float32([config.intruder_lightness, 1.0, 1.0])
        feat = (seg * weights).transpose(0, 2, 1, 3).reshape(2, m, -1)
        seen = np.stack([in_view[a0 : a0 + m * k], in_view[a1 : a1 + m * k]])
        seg_seen = seen.reshape(2, m, k).all(axis=2)
        for i, side in enumerate(pair):
            if seg_seen[i].sum() < m // 2:
                continue
            ref = median_rows(feat[i][seg_seen[i]])
            dist = np.linalg.norm(feat[i] - ref, axis=1) / np.sqrt(band_lab.shape[0])
            shares[names[side]] = _sharp_run(feat[i], dist, seg_seen[i], config) / m
    worst = max(shares.values(), default=0.0) / config.intruder_share
    for name in names:
        if shares.get(name, 0.0) >= config.intruder_share:
            return Verdict(False, f"something over the {name} of the frame: a hand?", 0.0)
    return Verdict(True, None, float(np.clip(1.0 - worst, 0, 1)))


def _sharp_run(feat: np.ndarray, dist: np.ndarray, seen: np.ndarray, config: VisionConfig) -> int:
    """The longest run of segments in view and off the side's own look (``feat``: one a row;
    ``dist``: each one's distance from that look, off beyond ``intruder_distance``) that changes
    sharply from one segment to the next somewhere in it or at its ends: by ``intruder_edge`` at
    least, and by ``intruder_edge_share`` of the run's farthest distance. A lamp's light or
    shade along the frame comes and goes over many segments; an arm's or a hand's edge changes
    the band at once."""
    off = (dist > config.intruder_distance) & seen
    step = np.linalg.norm(np.diff(feat, axis=0), axis=1) * (seen[1:] & seen[:-1])
    step /= np.sqrt(feat.shape[1] / 3)
    return max(
        (
            int(b - a)
            for a, b in runs(off)
            if step[max(a - 1, 0) : b].max(initial=0)
            >= max(config.intruder_edge, config.intruder_edge_share * dist[a:b].max())
        ),
        default=0,
    )


def hand_over_tiles(probs: np.ndarray, config: VisionConfig) -> Verdict:
    """A hand seen close: ``probs`` are the tile network's (``hand_tiles.hand_probs``) for the
    reader's tiles in the sampler's order (24 points, the bar's halves, the trays). A hand
    lies over several points at once; a die or the cube on a point, which the network takes
    for one now and then, over one. The trays are left out: full ones look too much alike."""
    near = probs[:26]
    order = np.argsort(near)[::-1][: config.hand_tiles]
    sure = float(near[order[-1]])
    if sure >= config.hand_tile:
        where = ", ".join(_tile_name(int(i)) for i in sorted(order))
        return Verdict(False, f"a hand over {where} (seen close)", 0.0)
    return Verdict(True, None, float(np.clip(1.0 - sure / config.hand_tile, 0, 1)))


def _tile_name(i: int) -> str:
    return f"point {i + 1}" if i < 24 else "the bar"


_TURNS = np.radians(np.arange(0.0, 180.0, 22.5))
_COS, _SIN = np.cos(_TURNS), np.sin(_TURNS)


def _directional_energy(image: np.ndarray) -> np.ndarray:
    """The gradient's energy in each of the directions ``_TURNS``."""
    gx = cv2.Sobel(image, cv2.CV_32F, 1, 0, ksize=3).ravel()
    gy = cv2.Sobel(image, cv2.CV_32F, 0, 1, ksize=3).ravel()
    xx, yy, xy = float(gx @ gx), float(gy @ gy), float(gx @ gy)
    c, s = _COS, _SIN
    return c * c * xx + s * s * yy + 2 * c * s * xy + 1e-6


def surface_blur(gray: np.ndarray, config: VisionConfig) -> Verdict:
    """Motion blur, measured on the board near the camera's own resolution: in each direction,
    how much of the gradient's energy survives a further smoothing. A sharp edge keeps much of
    it (whatever its contrast, so the board's own look cancels out); an edge already smeared
    along the motion has little left to lose in that direction, so the ratio falls toward 1.
    The surface is halved first (``pyrDown``): sharper than that no camera's edges are, and it
    costs a quarter."""
    ratio = surface_sharpness(gray, config.blur_sigma)
    if ratio < config.blur_ratio:
        return Verdict(False, f"motion blur (sharpness {ratio:.2f})", 0.0)
    return Verdict(True, None, float(np.clip((ratio - config.blur_ratio) / 0.3, 0, 1)))


def surface_box(
    corners: Sequence[Sequence[float]], size: tuple[int, int]
) -> tuple[int, int, int, int]:
    """The bounding box (x0, y0, x1, y1) of the surface inside the inner frame ``corners``, in
    an image of ``size`` (width, height), clipped to it."""
    c = np.asarray(corners, np.float64).reshape(4, 2)
    x0, y0 = np.clip(np.floor(c.min(axis=0)), 0, None).astype(int)
    x1, y1 = np.ceil(c.max(axis=0)).astype(int)
    return int(x0), int(y0), int(min(x1, size[0])), int(min(y1, size[1]))


def surface_sharpness(gray: np.ndarray, sigma: float) -> float:
    """``surface_blur``'s measure: the least, over the directions, of the halved surface's
    gradient energy before a further smoothing (``sigma``) against after it."""
    fine = cv2.pyrDown(gray).astype(np.float32)
    coarse = cv2.GaussianBlur(fine, (0, 0), sigma)
    return float(np.min(_directional_energy(fine) / _directional_energy(coarse)))


def strips_gray(strip_row: np.ndarray) -> np.ndarray:
    """The points' strips (``Tiles.strip_row``) in grey: what the glare check and the quick
    look for motion blur (``strips_sharpness``) both read."""
    return cv2.cvtColor(strip_row, cv2.COLOR_BGR2GRAY)


def strips_sharpness(gray: np.ndarray, sigma: float) -> float:
    """``surface_blur``'s measure on the points' strips side by side (``strips_gray``),
    sampled at about a third of the camera's resolution: each strip on its own (the columns
    where one strip meets the next are left out), the bottom row's strips turned back the
    way the top's run (they run from the frame up: mirrored, a diagonal smear leans the other
    way). Too coarse to tell a slightly smeared board from a sharp one, but a board that is
    plainly sharp here is sharp (``FrameCheck.motion_blur``): the strips are sampled anyway,
    and this costs a tenth of the surface's measure."""
    image = gray.astype(np.float32)
    weights = _strip_weights(gray.shape[1])
    fine = _weighted_energy(image, weights)
    coarse = _weighted_energy(cv2.GaussianBlur(image, (0, 0), sigma), weights)
    return float(np.min(fine / coarse))


@lru_cache(maxsize=8)  # made once per width of the strips (the arrays are never written)
def _strip_weights(width: int) -> tuple[np.ndarray, np.ndarray]:
    """Per column of the strips: whether it counts (not at a strip's edge), and with which
    sign the cross term counts (the bottom row's twelve strips mirrored)."""
    strip = width // 24
    keep = np.ones(width, np.float32)
    keep[0::strip] = keep[strip - 1 :: strip] = 0.0
    sign = keep.copy()
    sign[: 12 * strip] *= -1.0
    return keep, sign


def _weighted_energy(image: np.ndarray, weights: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
    gx = cv2.Sobel(image, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(image, cv2.CV_32F, 0, 1, ksize=3)
    keep, sign = weights
    # each column's sums, weighted
    xx = float(np.einsum("ij,ij->j", gx, gx) @ keep)
    yy = float(np.einsum("ij,ij->j", gy, gy) @ keep)
    xy = float(np.einsum("ij,ij->j", gx, gy) @ sign)
    c, s = _COS, _SIN
    return c * c * xx + s * s * yy + 2 * c * s * xy + 1e-6


def edge_drift(profiles: np.ndarray, config: VisionConfig) -> Verdict:
    """The camera knocked out of calibration: the surface's edges are no longer where the
    profile puts them. ``profiles`` (4 sides × along × across, grey) are sampled across each
    edge, from outside in, with the edge where the profile says in the middle. Averaged along
    the side, the frame's inner edge is the strongest step across; checkers and grain, which
    differ from place to place, average out. One side may show a stronger step elsewhere (a
    dark frame round a dark surface, a tray's rim); a camera that moved moves two sides or
    more (a slide moves two, a turn or a tilt all four). A bright line narrower than
    ``edge_line`` samples is opened away first: a lamp catches the frame's inner lip or a tray's
    rim in a thin line, which steps up and down again more than a dark frame does onto a dark
    surface, but it is no edge."""
    mean = profiles.astype(np.float32).mean(axis=1)  # 4 × across
    if config.edge_line > 1:
        mean = cv2.morphologyEx(mean, cv2.MORPH_OPEN, np.ones((1, config.edge_line), np.uint8))
    step = np.abs(np.diff(mean, axis=1))
    n = step.shape[1]
    near = slice(n // 2 - config.edge_near, n // 2 + config.edge_near)
    shares = step[:, near].max(axis=1) / np.maximum(step.max(axis=1), 1e-6)
    second = float(np.sort(shares)[1])
    limit = 1.0 - config.edge_drift
    if second < limit:
        names = [
            n for n, s in zip(("top", "right", "bottom", "left"), shares, strict=True) if s < limit
        ]
        return Verdict(False, f"the board has moved: its {' and '.join(names)} edges are off", 0.0)
    return Verdict(True, None, float(np.clip((second - limit) / (1.0 - limit), 0, 1)))


def edge_coords(aspect: float, config: VisionConfig, along: int = 32) -> np.ndarray:
    """Board coordinates (4 × along × across × 2) of lines across the surface's four edges
    (top, right, bottom, left), each from outside the surface in; the profile's edge lies in
    the middle. Distances across are in surface widths on every side."""
    t = np.linspace(0.08, 0.92, along)  # the corners are left out: the frame's joints are there
    d = np.linspace(-config.edge_reach, config.edge_reach, config.edge_samples)
    tt, dd = np.meshgrid(t, d, indexing="ij")
    dy = dd / aspect
    top = np.stack([tt, dy], -1)
    right = np.stack([1 - dd, tt], -1)
    bottom = np.stack([tt, 1 - dy], -1)
    left = np.stack([dd, tt], -1)
    return np.stack([top, right, bottom, left])


@dataclass
class FrameCheck:
    """Every check of whether one frame of one calibrated board can be trusted; what to sample
    where is planned once per profile, so a stream of frames pays for it once."""

    profile: BoardProfile
    config: VisionConfig = field(default_factory=VisionConfig)

    @cached_property
    def view(self) -> BoardView:
        return BoardView(self.profile)

    @cached_property
    def _edge_map(self) -> np.ndarray:
        coords = edge_coords(self.profile.geometry.aspect, self.config)
        pts = self.profile.board_to_image(coords.reshape(-1, 2))
        return pts.reshape(coords.shape[0] * coords.shape[1], -1, 2).astype(np.float32)

    @cached_property
    def _surface_box(self) -> tuple[int, int, int, int]:
        return surface_box(self.profile.corners, self.profile.image_size)

    def edges(self, frame: np.ndarray) -> np.ndarray:
        """Grey samples across the four edges (4 × along × across)."""
        m = self._edge_map
        lines = cv2.remap(frame, m, None, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        gray = cv2.cvtColor(lines, cv2.COLOR_BGR2GRAY)
        return gray.reshape(4, -1, gray.shape[1])

    def surface_gray(self, frame: np.ndarray) -> np.ndarray:
        x0, y0, x1, y1 = self._surface_box
        return cv2.cvtColor(frame[y0:y1, x0:x1], cv2.COLOR_BGR2GRAY)

    def clear(self, frame: np.ndarray) -> np.ndarray:
        """The network's probabilities (``CLASSES``) for the whole board: clear, a hand or arm
        over it, glare."""
        return predict(self.view.cut(frame)[None])[0]

    def learned(self, probs: np.ndarray) -> Verdict:
        """The network's word alone: only when it is quite sure something is over the board."""
        worst = int(np.argmax(probs[1:])) + 1
        cut = self.config.view_alone
        if probs[0] < cut:
            return Verdict(False, f"{CLASSES[worst]} over the board (seen whole)", 0.0)
        return Verdict(True, None, float(np.clip((probs[0] - cut) / (1.0 - cut), 0, 1)))

    def motion_blur(self, frame: np.ndarray, strips: np.ndarray | None = None) -> Verdict:
        """``surface_blur`` on the surface, unless the points' strips in grey (``strips``,
        when the reader has them) are so sharp that the board is (``blur_sure``)."""
        if strips is not None and strips_sharpness(strips, self.config.blur_sigma) >= (
            self.config.blur_sure
        ):
            return Verdict(True, None, 1.0)
        return surface_blur(self.surface_gray(frame), self.config)

    def judge(
        self, frame: np.ndarray, *closer: Callable[[], Verdict], strips: np.ndarray | None = None
    ) -> list[Verdict]:
        """The checks made on the raw frame: the network, motion blur, the board where the
        profile says. ``closer`` make the verdicts of checks on the reader's tiles (the frame
        band, the tiles' hand network): the network and they each see hands the others miss,
        and each is wrong at times (the band changes under a die thrown onto the frame, the
        tiles take a brown checker for a finger now and then; the network has seen only
        rendered boards, at 64×48), so their word stands unless the network is sure the board
        is clear, and the network's alone only when it is sure of a hand or glare. They are
        only looked at when their word can count. ``strips`` (the points' strips in grey)
        spare the surface's blur measure on a plainly sharp board (``motion_blur``)."""
        probs = self.clear(frame)
        out = [
            self.learned(probs),
            self.motion_blur(frame, strips),
            edge_drift(self.edges(frame), self.config),
        ]
        if probs[0] < self.config.band_overruled:
            out.extend(check() for check in closer)
        return out
