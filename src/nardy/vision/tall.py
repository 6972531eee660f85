"""A closer look at the points the checker networks call tall.

The sampler's tiles sample a point two to three times below the photo's own resolution: the
layers of a fifteen-checker head (a second and third layer over the first, rows past the
point's end) blur together there. For the few points read as tall (and those read unsurely,
whatever their count: a head dark on dark taken for an empty point), ``TallSampler`` samples the
point again at ``VisionConfig.tall_scale`` times the tile's size each way, from the same
profile (its maps built once, one small map a point, remapped only for the points asked for),
and the tall network (``checker_tall_model.npz``, trained by ``scripts/train_tall_model.py``)
counts them there.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path

import cv2
import numpy as np

from nardy.calibration import BoardProfile
from nardy.vision import tinynet
from nardy.vision.config import VisionConfig
from nardy.vision.sampler import Sampler

TALL_WEIGHTS = Path(__file__).with_name("checker_tall_model.npz")


@dataclass(frozen=True)
class TallSampler:
    profile: BoardProfile
    config: VisionConfig = field(default_factory=VisionConfig)

    @cached_property
    def closer(self) -> Sampler:
        """The sampler of tiles ``tall_scale`` times the size each way, over the same strips."""
        c, k = self.config, self.config.tall_scale
        return Sampler(
            self.profile,
            replace(c, strip_pixels=k * c.strip_pixels, strip_length=k * c.strip_length),
        )

    def coords(self, point: int) -> np.ndarray:
        """Board coordinates of point ``point``'s (1–24) close tile (length × width × 2)."""
        return self.closer.strip_coords(point)

    @cached_property
    def _maps(self) -> list[tuple[np.ndarray, np.ndarray]]:
        maps = []
        for n in range(1, 25):
            c = self.coords(n)
            src = self.profile.board_to_image(c.reshape(-1, 2)).astype(np.float32)
            maps.append(cv2.convertMaps(src.reshape(*c.shape[:2], 2), None, cv2.CV_16SC2))
        return maps

    def sample(
        self, frame: np.ndarray, points: np.ndarray, levels: tuple[float, float] = (0.0, 1.0)
    ) -> np.ndarray:
        """The close tiles (n × length × width × 3, uint8) of ``points`` (indices 0–23), their
        levels stretched as the sampler stretched the frame's (``Tiles.levels``)."""
        lo, gain = levels
        out = []
        for p in points:
            m1, m2 = self._maps[int(p)]
            tile = cv2.remap(frame, m1, m2, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
            if gain != 1.0 or lo:
                tile = cv2.convertScaleAbs(tile, alpha=gain, beta=-lo * gain)
            out.append(tile)
        return np.stack(out)


def tall_input(tiles: np.ndarray) -> np.ndarray:
    """Close tiles as the tall network takes them (as the fine one takes its tiles)."""
    x = tiles.astype(np.float32)
    x -= 128.0
    x /= 64.0
    return x


def tall_probs(tiles: np.ndarray, weights: Path = TALL_WEIGHTS) -> tuple[np.ndarray, np.ndarray]:
    """The tall network's probability of every count (n × 16) and that the checkers are
    light (n) for close tiles."""
    out = tinynet.forward(tinynet.load(weights), tall_input(tiles))
    most = out.shape[1] - 3
    return tinynet.softmax(out[:, : most + 1]), tinynet.softmax(out[:, most + 1 :])[:, 0]
