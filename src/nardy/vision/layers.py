"""Checkers stacked in layers: players who run out of room on a point start a second layer over
the gaps of the first, then a third. From above, each layer shows as checkers centred half a
checker further out, so the places where one visible checker meets the next (a rim, a shadow)
fall on a grid of half diameters. Each way of filling the layers predicts which of those places
show a boundary; the reading is the filling whose prediction the strip agrees with best.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np


@lru_cache(maxsize=64)
def layouts(first: int, most: int = 15) -> tuple[tuple[int, frozenset[int], frozenset[int]], ...]:
    """For a first layer of ``first`` checkers: every total that fills the layers above it in
    order (layer l holds at most ``first - l``, each layer full before the next starts), with
    the boundaries it shows, as half-diameter grid positions 1 .. 2·first − 1, and the waists
    (where two checkers of the first layer touch with nothing over them, so the board shows at
    the sides), as whole-diameter positions 1 .. first − 1."""
    out = []
    layers = [first]
    total = first
    out.append((total, _boundaries(layers, first), _waists(layers, first)))
    level = 1
    while total < most and first - level > 0:
        for k in range(1, first - level + 1):
            if total + k > most:
                break
            shape = [*layers, k]
            out.append((total + k, _boundaries(shape, first), _waists(shape, first)))
        layers.append(first - level)
        total += first - level
        level += 1
    return tuple(out)


def _waists(layers: list[int], first: int) -> frozenset[int]:
    covered = set()
    if len(layers) > 1:
        covered = {x for x in range(1, first) if 0.5 < x < 0.5 + layers[1]}
    return frozenset(x for x in range(1, first) if x not in covered)


def _boundaries(layers: list[int], first: int) -> frozenset[int]:
    def top(x: float) -> tuple[int, int]:
        best = (-1, -1)
        for level, count in enumerate(layers):
            start = level / 2
            if start <= x < start + count:
                best = (level, int(x - start))
        return best

    found = set()
    for j in range(1, 2 * first):
        x = j / 2
        if top(x - 0.01) != top(x + 0.01):
            found.add(j)
    return frozenset(found)


def _at(profile: np.ndarray, positions: list[float], pitch_px: float) -> np.ndarray:
    tol = max(1, round(0.12 * pitch_px))
    out = []
    for x in positions:
        c = round(x * pitch_px)
        lo, hi = max(0, c - tol), min(len(profile), c + tol + 1)
        out.append(float(profile[lo:hi].max()) if hi > lo else 0.0)
    return np.array(out)


def count_layers(
    boundary: np.ndarray, first: int, pitch_px: float, sides: np.ndarray | None = None
) -> tuple[int, float]:
    """The total on a point whose first layer holds ``first`` checkers, from ``boundary`` (how
    strongly the strip's axis shows a rim or shadow at each pixel from the frame) and ``sides``
    (0..1, how much of the board shows either side of the axis). Returns the total and a 0..1
    margin between the best and the second-best filling."""
    if first < 2:
        return first, 1.0
    values = _at(boundary, [j / 2 for j in range(1, 2 * first)], pitch_px)
    v = np.sort(values)
    # the level between "a boundary" and "no boundary": midway between the weaker and the
    # stronger half of the grid positions
    half = len(v) // 2
    level = (v[:half].mean() + v[half:].mean()) / 2
    scale = max(float(v[half:].mean() - v[:half].mean()), 1e-3)
    v = (values - level) / scale
    w = None
    if sides is not None:
        w = (_at(sides, list(range(1, first)), pitch_px) - 0.5) * 2.0
    scored = []
    for total, shown, waists in layouts(first):
        mask = np.array([(j in shown) for j in range(1, 2 * first)])
        score = float(v[mask].sum() - v[~mask].sum())
        if w is not None:
            wmask = np.array([(x in waists) for x in range(1, first)])
            score += 0.3 * float(w[wmask].sum() - w[~wmask].sum())
        scored.append((score, -total, total))
    scored.sort(reverse=True)
    best = scored[0]
    margin = best[0] - scored[1][0] if len(scored) > 1 else 1.0
    return best[2], float(np.clip(margin / 2.0, 0, 1))
