"""Whether a frame can be trusted: light enough, no glare over the surface, nothing reaching in
over the frame (a hand or an arm always crosses it), the camera still where it was calibrated.
"""

from __future__ import annotations

from dataclasses import dataclass

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


def surface_glare(surface_bgr: np.ndarray, config: VisionConfig) -> Verdict:
    """A lamp's reflection that blows out a part of the surface."""
    blown = np.all(surface_bgr >= config.glare_level, axis=-1)
    share = float(blown.mean())
    if share > config.glare_share:
        return Verdict(False, f"glare over {share:.0%} of the board", 0.0)
    return Verdict(True, None, 1.0 - share / config.glare_share)


def frame_intruder(band_lab: np.ndarray, config: VisionConfig) -> Verdict:
    """Something over the frame around the surface: the band of frame should be one colour
    (wood varies, but slowly); a run of it far from that colour is an arm or a hand."""
    along = band_lab.mean(axis=0)  # one colour per step around the frame
    ref = np.median(along, axis=0)
    dist = np.linalg.norm(along - ref, axis=-1)
    off = dist > config.intruder_distance
    share = float(off.mean())
    if share > config.intruder_share:
        return Verdict(False, f"something over the frame ({share:.0%} of it): a hand?", 0.0)
    return Verdict(True, None, 1.0 - share / config.intruder_share)
