"""A small convolutional network run in plain NumPy: the learned stage of the dice and cube
readers. Three 3×3 convolutions (ReLU, 2×2 max-pool each), two dense layers. Trained with
PyTorch by ``scripts/train_dice_model.py`` (names ``conv1..3``, ``fc1..2``); weights ship as
``.npz`` beside the reader, so reading needs NumPy only.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import numpy as np


def _conv_relu_pool(x: np.ndarray, w: np.ndarray, b: np.ndarray) -> np.ndarray:
    """3×3 'same' convolution, ReLU, 2×2 max-pool; x is (N, C, H, W), w is (O, C, 3, 3)."""
    n, c, h, wd = x.shape
    xp = np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)))
    cols = np.lib.stride_tricks.sliding_window_view(xp, (3, 3), axis=(2, 3))  # N C H W 3 3
    cols = cols.transpose(0, 2, 3, 1, 4, 5).reshape(n * h * wd, c * 9)
    out = cols @ w.reshape(len(w), -1).T + b
    np.maximum(out, 0, out=out)
    out = out.reshape(n, h // 2, 2, wd // 2, 2, -1).max(axis=(2, 4))
    return out.transpose(0, 3, 1, 2)


@lru_cache(maxsize=4)
def load(path: Path) -> dict[str, np.ndarray]:
    with np.load(path) as z:
        return {k: z[k].astype(np.float32) for k in z.files}


def forward(weights: dict[str, np.ndarray], patches: np.ndarray) -> np.ndarray:
    """Raw outputs (N, outputs) for square patches (N, S, S), S a multiple of 8."""
    n, s = len(patches), patches.shape[-1]
    x = patches.reshape(n, 1, s, s).astype(np.float32)
    for i in (1, 2, 3):
        x = _conv_relu_pool(x, weights[f"conv{i}.weight"], weights[f"conv{i}.bias"])
    x = x.reshape(n, -1)
    x = np.maximum(x @ weights["fc1.weight"].T + weights["fc1.bias"], 0)
    return x @ weights["fc2.weight"].T + weights["fc2.bias"]


def softmax(logits: np.ndarray) -> np.ndarray:
    z = np.exp(logits - logits.max(axis=1, keepdims=True))
    return z / z.sum(axis=1, keepdims=True)
