"""The learned part of the usability check: a small network that looks at the whole board at
low resolution and says whether it is clear, or a hand or arm is over it, or a lamp's glare
washes part of it out.

The board is cut out with the frame around it (an arm always crosses the frame) and rectified
to ``VIEW`` pixels, so every board looks the same size to the network whatever the camera. The
weights (``usable_model.npz``) are made by ``scripts/train_usable_model.py`` from rendered boards
whose seeds no fixture uses; reading needs NumPy and OpenCV only.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property, lru_cache
from pathlib import Path

import cv2
import numpy as np

from nardy.calibration import BoardProfile

VIEW = (64, 48)  # width, height of the rectified view the network sees
MARGIN = (0.45, 0.45)  # room around the surface in the view: of its width, of its height
CLASSES = ("usable", "hand", "glare")
WEIGHTS = Path(__file__).with_name("usable_model.npz")


def view_coords(margin: tuple[float, float] = MARGIN, size: tuple[int, int] = VIEW) -> np.ndarray:
    """Board coordinates (h × w × 2) of the view's pixel centres."""
    mx, my = margin
    w, h = size
    xs = -mx + (np.arange(w) + 0.5) / w * (1 + 2 * mx)
    ys = -my + (np.arange(h) + 0.5) / h * (1 + 2 * my)
    xx, yy = np.meshgrid(xs, ys)
    return np.stack([xx, yy], -1)


@dataclass(frozen=True)
class BoardView:
    """Cuts the board and its frame out of a frame at ``VIEW`` size. The frame is first shrunk
    (area-averaged) to about twice the view's resolution, so the view is not aliased."""

    profile: BoardProfile

    @cached_property
    def _plan(self) -> tuple[tuple[int, int, int, int], int, np.ndarray]:
        """(crop x0, y0, x1, y1 in the frame), shrink factor, remap coordinates in the crop."""
        grid = view_coords()
        h, w = grid.shape[:2]
        pts = self.profile.board_to_image(grid.reshape(-1, 2)).reshape(h, w, 2)
        iw, ih = self.profile.image_size
        x0 = int(np.clip(np.floor(pts[..., 0].min()) - 2, 0, iw - 1))
        y0 = int(np.clip(np.floor(pts[..., 1].min()) - 2, 0, ih - 1))
        x1 = int(np.clip(np.ceil(pts[..., 0].max()) + 3, x0 + 1, iw))
        y1 = int(np.clip(np.ceil(pts[..., 1].max()) + 3, y0 + 1, ih))
        span = max((x1 - x0) / w, (y1 - y0) / h)  # frame pixels per view pixel
        k = max(1, int(span / 2))
        local = (pts - (x0, y0) + 0.5) / k - 0.5
        return (x0, y0, x1, y1), k, local.astype(np.float32)

    def cut(self, frame: np.ndarray) -> np.ndarray:
        (x0, y0, x1, y1), k, local = self._plan
        crop = frame[y0:y1, x0:x1]
        if k > 1:
            size = (max(1, (x1 - x0) // k), max(1, (y1 - y0) // k))
            crop = cv2.resize(crop, size, interpolation=cv2.INTER_AREA)
        return cv2.remap(crop, local, None, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def prepare(views: np.ndarray) -> np.ndarray:
    """Views (N × h × w × 3 BGR uint8) as the network's input, levels kept: a blown-out patch
    must still look blown out."""
    return views.astype(np.float32) / 127.5 - 1.0


@lru_cache(maxsize=2)
def load(path: Path) -> dict[str, np.ndarray]:
    with np.load(path) as z:
        return {k: z[k].astype(np.float32) for k in z.files}


def _conv_relu_pool(x: np.ndarray, w: np.ndarray, b: np.ndarray) -> np.ndarray:
    """3×3 'same' convolution, ReLU, 2×2 max-pool of channels-last images (N, H, W, C); w is
    PyTorch's (O, C, 3, 3). The nine shifted copies side by side, one matrix product."""
    n, h, wd, c = x.shape
    xp = np.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0)))
    cols = np.concatenate(
        [xp[:, dy : dy + h, dx : dx + wd] for dy in range(3) for dx in range(3)], axis=-1
    )
    out = cols.reshape(-1, 9 * c) @ w.transpose(2, 3, 1, 0).reshape(9 * c, -1) + b
    np.maximum(out, 0, out=out)
    return out.reshape(n, h // 2, 2, wd // 2, 2, -1).max(axis=(2, 4))


def forward(weights: dict[str, np.ndarray], x: np.ndarray) -> np.ndarray:
    """Logits (N × classes): convolutions ``conv1..``, a global average and max of the last,
    one dense layer ``fc`` (the net's layout in ``scripts/train_usable_model.py``)."""
    i = 1
    while f"conv{i}.weight" in weights:
        x = _conv_relu_pool(x, weights[f"conv{i}.weight"], weights[f"conv{i}.bias"])
        i += 1
    pooled = np.concatenate([x.mean(axis=(1, 2)), x.max(axis=(1, 2))], axis=1)
    return pooled @ weights["fc.weight"].T + weights["fc.bias"]


def predict(views: np.ndarray, weights: Path = WEIGHTS) -> np.ndarray:
    """Probabilities (N × len(CLASSES)) for views cut by ``BoardView``."""
    logits = forward(load(weights), prepare(views))
    z = np.exp(logits - logits.max(axis=1, keepdims=True))
    return z / z.sum(axis=1, keepdims=True)
