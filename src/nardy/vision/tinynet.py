"""A small convolutional network run in plain NumPy: the learned stage of the dice, cube and
checker readers. Three 3×3 convolutions (ReLU, 2×2 max-pool each), two dense layers; the first
dense layer may also take a few plain numbers beside the picture (what kind of tile it is).
Trained with PyTorch by ``scripts/train_*.py`` (names ``conv1..3``, ``fc1..2``); weights ship
as ``.npz`` beside the reader, so reading needs NumPy only.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import numpy as np


def _conv_relu_pool(x: np.ndarray, w: np.ndarray, b: np.ndarray) -> np.ndarray:
    """3×3 'same' convolution, ReLU, 2×2 max-pool; x is (N, H, W, C), w is (O, C, 3, 3).
    The nine shifted copies side by side, then one matrix product for the whole batch."""
    n, h, wd, c = x.shape
    xp = np.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0)))
    cols = np.concatenate(
        [xp[:, dy : dy + h, dx : dx + wd] for dy in range(3) for dx in range(3)], axis=-1
    )
    out = cols.reshape(-1, 9 * c) @ w.transpose(2, 3, 1, 0).reshape(9 * c, -1) + b
    np.maximum(out, 0, out=out)
    return out.reshape(n, h // 2, 2, wd // 2, 2, -1).max(axis=(2, 4))


@lru_cache(maxsize=4)
def load(path: Path) -> dict[str, np.ndarray]:
    with np.load(path) as z:
        return {k: z[k].astype(np.float32) for k in z.files}


def forward(
    weights: dict[str, np.ndarray], images: np.ndarray, extra: np.ndarray | None = None
) -> np.ndarray:
    """Raw outputs (N, outputs) for images (N, H, W) grey or (N, H, W, C), H and W multiples
    of 8; ``extra`` (N, k) joins the flattened features before the dense layers."""
    x = images.astype(np.float32)
    if x.ndim == 3:
        x = x[..., None]
    for i in (1, 2, 3):
        x = _conv_relu_pool(x, weights[f"conv{i}.weight"], weights[f"conv{i}.bias"])
    # flattened channel first, as PyTorch does
    x = x.transpose(0, 3, 1, 2).reshape(len(x), -1)
    if extra is not None:
        x = np.concatenate([x, extra.astype(np.float32)], axis=1)
    x = np.maximum(x @ weights["fc1.weight"].T + weights["fc1.bias"], 0)
    return x @ weights["fc2.weight"].T + weights["fc2.bias"]


def softmax(logits: np.ndarray) -> np.ndarray:
    z = np.exp(logits - logits.max(axis=1, keepdims=True))
    return z / z.sum(axis=1, keepdims=True)
