"""Pips and the clusters of pips that are dice: the classical first stage of the dice reader.

A pip is a small round spot that stands out from a plain, even surround (the die's face): dark on
light for white dice, light on dark for coloured and dark dice. Pips are sought at several scales
(an image pyramid with one fixed morphological kernel), so a die 20 px or 200 px wide is found the
same way. Pips that lie on one die are joined into a cluster when they are of like size and the
straight path between them stays on the face (it does not cross the darker gap around a die).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np


@dataclass(frozen=True)
class PipConfig:
    """Thresholds of the pip finder; sizes are pixels at the pyramid level where a pip is seen."""

    kernel: int = 11  # black-hat / top-hat kernel: spots narrower than this stand out
    contrast: float = 25.0  # least black-hat response (grey levels) of a pip pixel
    min_area: int = 5
    max_area: int = 60
    max_side: int = 9
    min_fill: float = 0.6  # pixel area over the area of its moment ellipse: round, not ragged
    min_face: float = 80.0  # least brightness of the surround (after polarity flip)
    min_depth: float = 0.3  # the pip's centre at most (1 - this) of the surround's brightness
    smallest_level: int = 120  # stop the pyramid when the image side falls under this
    levels: int = 3
    join_distance: float = 9.0  # most centre distance of two pips of one die, in mean radii
    join_size: float = 1.8  # most ratio of two joined pips' radii
    join_path: float = 0.72  # the path between joined pips stays this bright (of the surround)
    face_roundness: float = 0.6  # pips of a face seen from above are about round
    face_reach: float = 6.5  # and lie within this many radii of the face's centre
    face_symmetry: float = 0.7  # tolerance of the point symmetry, in pip radii
    die_span: float = 15.0  # a cluster wider than this (in median pip radii) holds several dice


@dataclass(frozen=True)
class Pip:
    x: float
    y: float
    radius: float
    roundness: float  # minor over major axis of the pip's ellipse, 1 for a circle
    angle: float  # of the major axis, radians
    strength: float  # mean black-hat response
    face: float  # median brightness of the surround
    light: bool  # a light pip on a dark die


def _gray(image: np.ndarray) -> np.ndarray:
    if image.ndim == 2:
        return image
    return cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)


def _per_component(
    labels: np.ndarray, weights: np.ndarray | None, n: int, keep: np.ndarray
) -> np.ndarray:
    return np.bincount(labels, weights=weights, minlength=n)[keep]


def _spots(gray: np.ndarray, cfg: PipConfig) -> np.ndarray:
    """Dark round spots at every pyramid level, one row each: x, y, radius, roundness, angle,
    strength (all in full-image pixels)."""
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (cfg.kernel, cfg.kernel))
    found = []
    level, scale = gray, 1.0
    for _ in range(cfg.levels):
        if min(level.shape) < cfg.smallest_level:
            break
        hat = cv2.morphologyEx(level, cv2.MORPH_BLACKHAT, kernel)
        mask = (hat > cfg.contrast).astype(np.uint8)
        n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
        area = stats[:, cv2.CC_STAT_AREA]
        ok = (
            (area >= cfg.min_area)
            & (area <= cfg.max_area)
            & (stats[:, cv2.CC_STAT_WIDTH] <= cfg.max_side)
            & (stats[:, cv2.CC_STAT_HEIGHT] <= cfg.max_side)
        )
        ok[0] = False
        if ok.any():
            # moments of every component at once: sums of 1, x, y, x², y², xy, response
            ys, xs = np.nonzero(mask)
            lab = labels[ys, xs]
            sel = ok[lab]
            lab, xs, ys = lab[sel], xs[sel].astype(np.float64), ys[sel].astype(np.float64)
            resp = hat[ys.astype(int), xs.astype(int)].astype(np.float64)

            m0 = _per_component(lab, None, n, ok)
            mx, my = _per_component(lab, xs, n, ok) / m0, _per_component(lab, ys, n, ok) / m0
            cxx = (
                _per_component(lab, xs * xs, n, ok) / m0 - mx * mx + 1 / 12
            )  # a pixel's own spread keeps tiny
            cyy = _per_component(lab, ys * ys, n, ok) / m0 - my * my + 1 / 12  # spots sane
            cxy = _per_component(lab, xs * ys, n, ok) / m0 - mx * my
            half_tr, det = (cxx + cyy) / 2, cxx * cyy - cxy * cxy
            disc = np.sqrt(np.maximum(half_tr * half_tr - det, 0))
            big, small = half_tr + disc, np.maximum(half_tr - disc, 1e-9)
            fill = m0 / (4 * np.pi * np.sqrt(big * small))
            keep = fill >= cfg.min_fill
            rows = np.stack(
                [
                    (mx + 0.5) / scale - 0.5,
                    (my + 0.5) / scale - 0.5,
                    np.sqrt(m0 / np.pi) / scale,
                    np.sqrt(small / big),
                    0.5 * np.arctan2(2 * cxy, cxx - cyy),
                    _per_component(lab, resp, n, ok) / m0,
                ],
                axis=1,
            )[keep]
            found.append(rows)
        level = cv2.pyrDown(level)
        scale /= 2.0
    return np.concatenate(found) if found else np.zeros((0, 6))


_RING = np.stack(
    [
        np.cos(np.linspace(0, 2 * np.pi, 24, endpoint=False)),
        np.sin(np.linspace(0, 2 * np.pi, 24, endpoint=False)),
    ],
    axis=1,
)


def _sample(gray: np.ndarray, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
    h, w = gray.shape
    xi = np.clip(np.round(xs).astype(int), 0, w - 1)
    yi = np.clip(np.round(ys).astype(int), 0, h - 1)
    return gray[yi, xi].astype(np.float64)


def _surround(gray: np.ndarray, spots: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For each spot: median brightness on rings at 1.8 r and 2.3 r, and its centre's."""
    x, y, r = spots[:, 0:1], spots[:, 1:2], spots[:, 2:3]
    rings = [_sample(gray, x + k * r * _RING[:, 0], y + k * r * _RING[:, 1]) for k in (1.8, 2.3)]
    face = np.median(np.concatenate(rings, axis=1), axis=1)
    core = _sample(gray, spots[:, 0], spots[:, 1])
    return face, core


def find_pips(image: np.ndarray, cfg: PipConfig = PipConfig()) -> list[Pip]:
    """Every pip in the image, dark ones on light faces and light ones on dark faces."""
    gray = _gray(image)
    pips: list[Pip] = []
    for light in (False, True):
        g = 255 - gray if light else gray
        spots = _spots(g, cfg)
        if not len(spots):
            continue
        face, core = _surround(g, spots)
        good = (face >= cfg.min_face) & (face - core >= cfg.min_depth * face)
        spots, face = spots[good], face[good]
        kept: list[Pip] = []
        for i in np.argsort(-spots[:, 5]):
            x, y, r, roundness, angle, strength = spots[i]
            if any(np.hypot(x - p.x, y - p.y) <= max(r, p.radius) for p in kept):
                continue  # the same pip seen at another pyramid level
            kept.append(Pip(x, y, r, roundness, angle, strength, float(face[i]), light))
        pips.extend(kept)
    return pips


def _path_bright(gray: np.ndarray, p: Pip, q: Pip, floor: float) -> bool:
    d = float(np.hypot(q.x - p.x, q.y - p.y))
    t = np.linspace(0.0, 1.0, max(int(d), 2))
    keep = (t * d > p.radius * 1.5) & ((1 - t) * d > q.radius * 1.5)
    if not keep.any():
        return True
    h, w = gray.shape
    xs = np.clip(np.round(p.x + (q.x - p.x) * t[keep]).astype(int), 0, w - 1)
    ys = np.clip(np.round(p.y + (q.y - p.y) * t[keep]).astype(int), 0, h - 1)
    return bool(gray[ys, xs].min() >= floor)


def cluster_pips(
    image: np.ndarray, pips: list[Pip], cfg: PipConfig = PipConfig()
) -> list[list[Pip]]:
    """Pips grouped by die: like size, close, same polarity, joined over the face."""
    gray = _gray(image)
    n = len(pips)
    parent = list(range(n))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i in range(n):
        p = pips[i]
        for j in range(i + 1, n):
            q = pips[j]
            if p.light != q.light:
                continue
            mean_r = (p.radius + q.radius) / 2
            if np.hypot(p.x - q.x, p.y - q.y) > cfg.join_distance * mean_r:
                continue
            if max(p.radius, q.radius) > cfg.join_size * min(p.radius, q.radius):
                continue
            g = 255 - gray if p.light else gray
            if _path_bright(g, p, q, cfg.join_path * min(p.face, q.face)):
                parent[root(i)] = root(j)
    groups: dict[int, list[Pip]] = {}
    for i in range(n):
        groups.setdefault(root(i), []).append(pips[i])
    out: list[list[Pip]] = []
    for group in groups.values():
        out.extend(_split(group, cfg.die_span))
    return out


def _split(group: list[Pip], span: float) -> list[list[Pip]]:
    """Cut a cluster too wide for one die at the widest gap along its long axis, until each
    piece could be one die (dice that touch are often joined over their faces)."""
    if len(group) < 2:
        return [group]
    pts = np.array([(p.x, p.y) for p in group])
    r = float(np.median([p.radius for p in group]))
    centred = pts - pts.mean(axis=0)
    _, _, vt = np.linalg.svd(centred, full_matrices=False)
    along = centred @ vt[0]
    if along.max() - along.min() <= span * r:
        return [group]
    order = np.argsort(along)
    gaps = np.diff(along[order])
    cut = int(np.argmax(gaps)) + 1
    first = [group[i] for i in order[:cut]]
    second = [group[i] for i in order[cut:]]
    return _split(first, span) + _split(second, span)


def face_value(cluster: list[Pip], cfg: PipConfig = PipConfig()) -> int | None:
    """The value a cluster shows when it is plainly one die face seen from above, else None.

    Every face of a die is symmetric about its centre, the odd ones with a pip there; its pips
    are alike, round, and within a few radii of the centre. Pips of a side face, a second die
    or a pip not found break this, and then the network reads the patch instead.
    """
    k = len(cluster)
    if not 1 <= k <= 6:
        return None
    r = np.array([p.radius for p in cluster])
    if r.max() > 1.35 * r.min() or min(p.roundness for p in cluster) < cfg.face_roundness:
        return None
    if k == 1:
        return None  # a lone spot: the network tells a one from a stray mark
    pts = np.array([(p.x, p.y) for p in cluster])
    centre = pts.mean(axis=0)
    mean_r = float(r.mean())
    far = np.hypot(*(pts - centre).T)
    if far.max() > cfg.face_reach * mean_r or far.max() < 1.5 * mean_r:
        return None
    tol = cfg.face_symmetry * mean_r
    for p in pts:  # every pip has its mirror image through the centre
        if np.hypot(*(pts - (2 * centre - p)).T).min() > tol:
            return None
    if (k % 2 == 1) != bool(far.min() <= tol):
        return None
    if k == 3 and abs(np.linalg.det(np.cov(pts.T))) > (0.3 * mean_r) ** 4 * 4:
        return None  # a three lies on one line
    return k
