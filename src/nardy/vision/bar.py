"""Checkers on the bar and in the bear-off trays.

On the bar each side's checkers stand in a line from the middle outward (dark toward the top
of the image, light toward the bottom, the usual way), in layers once a line is full. In a tray
checkers stand on edge, side by side from one end, so a tray holds a run of thin stripes whose
length over their pitch is the count. Colours are told apart with the two checker colours the
points were read with.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from nardy.vision.config import VisionConfig
from nardy.vision.layers import count_layers
from nardy.vision.points import disc_evidence


@dataclass(frozen=True)
class SideCount:
    light: int
    dark: int
    confidence: float


def _nearest_set(colour: np.ndarray, light: np.ndarray | None, dark: np.ndarray | None) -> bool:
    """Whether ``colour`` is light's (True) or dark's."""
    if light is None or dark is None:
        return bool(colour[0] > 50)
    return bool(np.linalg.norm(colour - light) <= np.linalg.norm(colour - dark))


def read_bar(
    tile_lab: np.ndarray,
    checker_px: float,
    light: np.ndarray | None,
    dark: np.ndarray | None,
    config: VisionConfig,
) -> SideCount:
    lab = np.ascontiguousarray(tile_lab)
    h, w = lab.shape[:2]
    ends = np.concatenate([lab[: int(0.08 * h)], lab[int(0.92 * h) :]]).reshape(-1, 3)
    bg = np.median(ends, axis=0)
    mid_col = w // 2
    unlike = np.linalg.norm(lab - bg, axis=-1)
    score = disc_evidence(lab[None], unlike[None], 0.4 * checker_px)[0] / config.colour_evidence
    counts = {True: 0, False: 0}
    confs = []
    pitch = checker_px * config.checker_pitch
    light_row = lab[:, mid_col - 2 : mid_col + 3].mean(axis=1)
    halves = (
        (score[: h // 2][::-1], light_row[: h // 2][::-1]),  # from the middle up
        (score[h // 2 :], light_row[h // 2 :]),  # from the middle down
    )
    skip = int(config.bar_skip * checker_px)  # the cube may stand in the middle of the bar
    for half, rows in halves:
        half = half.copy()
        half[:skip] = 0.0
        occupied = np.flatnonzero(half > 1.0)
        if not len(occupied):
            confs.append(float(np.clip(1 - half.max(), 0, 1)))
            continue
        start, end = int(occupied[0]), int(occupied[-1]) + 1
        first = max(1, round((end - start) / pitch))
        first = min(first, config.bar_row)
        total, conf = first, 1.0
        if first >= 2 and end - start > 2:
            boundary = np.abs(np.gradient(rows[start:end, 0]))
            total, conf = count_layers(boundary, first, pitch)
        colour = rows[start:end].mean(axis=0)
        counts[_nearest_set(colour, light, dark)] += total
        confs.append(conf)
    return SideCount(counts[True], counts[False], float(min(confs)))


def read_tray(
    tile_lab: np.ndarray,
    checker_px: float,
    light: np.ndarray | None,
    dark: np.ndarray | None,
    config: VisionConfig,
) -> SideCount:
    """Checkers standing on edge in one tray, counted from whichever end they start at."""
    lab = np.ascontiguousarray(tile_lab)
    w = lab.shape[1]
    core = lab[:, w // 4 : w - w // 4]
    rows = core.mean(axis=1)
    refs = [c for c in (light, dark) if c is not None]
    if refs:
        far = np.min([np.linalg.norm(core - c, axis=-1) for c in refs], axis=0)
        floor_px = core[far > np.percentile(far, 60)]
        bg = np.median(floor_px.reshape(-1, 3), axis=0)
    else:
        bg = np.median(core.reshape(-1, 3), axis=0)
    dist = np.linalg.norm(core - bg, axis=-1).mean(axis=1)
    occupied = dist > config.tray_evidence
    pitch = config.tray_pitch * checker_px
    best = (0, 0, 0)
    for forward in (True, False):
        occ = occupied if forward else occupied[::-1]
        run = 0
        gap = 0
        for o in occ:
            if o:
                run += 1 + gap
                gap = 0
            else:
                gap += 1
                if gap > pitch:
                    break
        if run > best[0]:
            best = (run, forward, 0)
    run, forward, _ = best
    if run < 0.5 * pitch:
        return SideCount(0, 0, 0.8)
    seg = rows[:run] if forward else rows[::-1][:run]
    period = _period(seg[:, 0], pitch)
    count = round(run / period)
    exact = run / period
    colour = seg.mean(axis=0)
    is_light = _nearest_set(colour, light, dark)
    conf = float(np.clip(1 - 2 * abs(exact - count), 0, 1))
    return SideCount(count if is_light else 0, 0 if is_light else count, conf)


def _period(profile: np.ndarray, guess: float) -> float:
    """The stripes' pitch: the autocorrelation's peak near the expected pitch."""
    p = profile - profile.mean()
    if len(p) < 3 * guess:
        return guess
    ac = np.correlate(p, p, mode="full")[len(p) - 1 :]
    lo, hi = int(0.6 * guess), int(1.5 * guess) + 1
    if hi >= len(ac) or ac[0] <= 0:
        return guess
    lag = lo + int(np.argmax(ac[lo:hi]))
    if ac[lag] < 0.2 * ac[0]:
        return guess
    return float(lag)
