"""Measure the checkers' size from the stacks themselves (and so correct a wrong aspect).

The corners fix the board's width in the image but its real height / width only through the
camera's geometry, which may be guessed wrong (an unusual lens, a cropped frame). Checkers are
round: along a stack they repeat every diameter, and the diameter is known across the point.
Where the repeat along the stacks disagrees with the diameter, the aspect was wrong by as much.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from nardy.calibration import BoardProfile
from nardy.vision.config import VisionConfig
from nardy.vision.points import _boundary_profile, evidence
from nardy.vision.sampler import Sampler

CHECKER_RANGE = (0.84, 0.96)  # a checker's diameter over a point's width, real sets


def stack_period(
    frame: np.ndarray, profile: BoardProfile, config: VisionConfig | None = None
) -> float | None:
    """How many expected checker pitches one repeat along the stacks measures (1.0 = the
    profile is right), or ``None`` when too few stacks show it."""
    config = config or VisionConfig()
    sampler = Sampler(profile, config)
    tiles = sampler.sample(frame)
    lay = tiles.layout
    g = profile.geometry
    ev = evidence(tiles.strips(lab=True), lay, g.point_length, g.aspect, config)
    boundary = _boundary_profile(ev.lab, lay.checker)
    pitch = lay.checker * config.checker_pitch
    ratios = []
    for i in range(24):
        occupied = (
            np.maximum(
                ev.colour[i] / config.colour_evidence, ev.outline[i] / config.outline_evidence
            )
            > 1.0
        )
        if not occupied[: int(pitch)].any():
            continue
        start = int(np.argmax(occupied))
        rest = occupied[start:]
        run = int(np.argmin(rest)) if not rest.all() else len(rest)
        if run < 3 * pitch:
            continue
        p = boundary[i, start : start + run] - boundary[i, start : start + run].mean()
        ac = np.correlate(p, p, mode="full")[run - 1 :]
        lo, hi = int(0.7 * pitch), min(int(1.45 * pitch) + 1, run // 2)
        if hi <= lo or ac[0] <= 0:
            continue
        lag = lo + int(np.argmax(ac[lo:hi]))
        if ac[lag] > 0.25 * ac[0] and 0 < lag < len(ac) - 1:
            # sub-pixel peak
            a, b, c = ac[lag - 1], ac[lag], ac[lag + 1]
            shift = 0.5 * (a - c) / (a - 2 * b + c) if (a - 2 * b + c) != 0 else 0.0
            ratios.append((lag + shift) / pitch)
    if len(ratios) < 2:
        return None
    return float(np.median(ratios))


def refine_checker(
    frame: np.ndarray, profile: BoardProfile, config: VisionConfig | None = None
) -> BoardProfile:
    """The profile with the checkers' size set by the stacks in ``frame`` (unchanged when the
    stacks agree with it within 2 %, or too few show). The repeat along the stacks is what
    counting needs, whether the guess it corrects was the checkers' size or the board's
    aspect."""
    for _ in range(3):
        ratio = stack_period(frame, profile, config)
        if ratio is None or abs(ratio - 1.0) < 0.02:
            return profile
        g = profile.geometry
        # checker sets run 0.84–0.96 of a point's width; beyond that the aspect was wrong
        checker = float(np.clip(g.checker * ratio, CHECKER_RANGE[0], CHECKER_RANGE[1]))
        rest = g.checker * ratio / checker
        aspect = float(np.clip(g.aspect / rest, 0.45, 1.4))
        profile = profile.with_geometry(replace(g, checker=checker, aspect=aspect))
    return profile
