"""Whether a frame can be trusted: light enough, no glare over the surface, nothing reaching in
over the frame (a hand or an arm always crosses it), the camera still where it was calibrated.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from nardy.vision.config import VisionConfig


@dataclass(frozen=True)
class Verdict:
    usable: bool
    why: str | None = None
    score: float = 1.0  # 0..1, how far from the nearest threshold (1 = clearly usable)


def frame_light(frame: np.ndarray, config: VisionConfig) -> Verdict:
    """Too dark to read at all."""
    small = frame[::8, ::8]
    mean = float(small.mean())
    if mean < config.dark_mean:
        return Verdict(False, f"too dark (mean grey level {mean:.0f})", 0.0)
    return Verdict(True, None, min(1.0, (mean - config.dark_mean) / config.dark_mean))


def surface_glare(strips_bgr: np.ndarray, blown_level: float, config: VisionConfig) -> Verdict:
    """A lamp's reflection that blows out a part of the board: blown-out pixels in a patch
    wider than any checker (a white checker is blown out too, but it is small and round).
    ``blown_level`` is the camera's blown-out grey level as it lies in the strips."""
    _, length, width, _ = strips_bgr.shape
    worst = 0.0
    k = int(config.glare_patch * width)
    for q in range(4):  # each quarter's six strips side by side are that part of the board
        block = strips_bgr[6 * q : 6 * q + 6].transpose(1, 0, 2, 3).reshape(length, 6 * width, 3)
        gray = cv2.cvtColor(np.ascontiguousarray(block), cv2.COLOR_BGR2GRAY)
        blown = (gray >= min(blown_level, 254)).astype(np.uint8)
        patch = cv2.morphologyEx(blown, cv2.MORPH_OPEN, np.ones((k, k), np.uint8))
        worst = max(worst, float(patch.mean()))
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
    across); a run of it that looks different is something lying over it. The band is taken
    from the frame's outer part, beyond where a tall stack leaning in the picture reaches."""
    worst = 0.0
    for name, (a, b) in zip(("top", "right", "bottom", "left"), sides, strict=True):
        side = band_lab[:, a:b].transpose(1, 0, 2)  # along × across × 3
        seen = in_view[a:b]
        k = max(1, side.shape[0] // config.intruder_segments)
        m = side.shape[0] // k
        seg = side[: m * k].reshape(m, k, side.shape[1], 3).mean(axis=1)
        seg_seen = seen[: m * k].reshape(m, k).all(axis=1)
        if seg_seen.sum() < m // 2:
            continue
        feat = (seg * np.float32([0.5, 1.0, 1.0])).reshape(m, -1)
        ref = np.median(feat[seg_seen], axis=0)
        dist = np.linalg.norm(feat - ref, axis=1) / np.sqrt(side.shape[1])
        off = (dist > config.intruder_distance) & seg_seen
        run = best = 0
        for o in off:
            run = run + 1 if o else 0
            best = max(best, run)
        share = best / m
        worst = max(worst, share / config.intruder_share)
        if share >= config.intruder_share:
            return Verdict(False, f"something over the {name} of the frame: a hand?", 0.0)
    return Verdict(True, None, float(np.clip(1.0 - worst, 0, 1)))
