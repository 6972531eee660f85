"""Small convolutional networks run in plain NumPy: the learned stages of the dice, cube and
checker readers. Trained with PyTorch by ``scripts/train_*.py``; weights ship as ``.npz`` beside
the reader, so reading needs NumPy only.

Two shapes of network:
- a patch classifier (``forward``): 3×3 convolutions ``conv1..convK`` (ReLU, 2×2 max-pool
  each), two dense layers ``fc1``, ``fc2``; the first dense layer may also take a few plain
  numbers beside the picture (what kind of tile it is);
- a fully convolutional map (``fcn``): 3×3 convolutions ``body.I`` with the stride and dilation
  of each in ``arch`` (rows ``stride, dilation``), ReLU between, and a 1×1 ``head``. It runs on
  one image held channels-last, so each convolution is one matrix product.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import numpy as np


def conv_relu_pool(x: np.ndarray, w: np.ndarray, b: np.ndarray) -> np.ndarray:
    """3×3 'same' convolution, ReLU, 2×2 max-pool; x is (N, H, W, C), w is (O, C, 3, 3).
    The nine shifted copies side by side, then one matrix product for the whole batch."""
    n, h, wd, c = x.shape
    xp = np.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0)))
    cols = np.concatenate(
        [xp[:, dy : dy + h, dx : dx + wd] for dy in range(3) for dx in range(3)], axis=-1
    )
    out = cols.reshape(-1, 9 * c) @ w.transpose(2, 3, 1, 0).reshape(9 * c, -1)
    # pooled before the bias and ReLU (both commute with the max): a quarter of the work
    pooled = out.reshape(n, h // 2, 2, wd // 2, 2, -1).max(axis=(2, 4)) + b
    return np.maximum(pooled, 0, out=pooled)


@lru_cache(maxsize=32)  # every network the readers ship, loaded once
def load(path: Path) -> dict[str, np.ndarray]:
    with np.load(path) as z:
        return {k: z[k].astype(np.float32) for k in z.files}


def forward(
    weights: dict[str, np.ndarray], images: np.ndarray, extra: np.ndarray | None = None
) -> np.ndarray:
    """Raw outputs (N, outputs) for images (N, H, W) grey or (N, H, W, C), H and W multiples
    of 2 to the number of convolutions; ``extra`` (N, k) joins the flattened features before
    the dense layers."""
    x = images.astype(np.float32)
    if x.ndim == 3:
        x = x[..., None]
    i = 1
    while f"conv{i}.weight" in weights:
        x = conv_relu_pool(x, weights[f"conv{i}.weight"], weights[f"conv{i}.bias"])
        i += 1
    # flattened channel first, as PyTorch does
    x = x.transpose(0, 3, 1, 2).reshape(len(x), -1)
    if extra is not None:
        x = np.concatenate([x, extra.astype(np.float32)], axis=1)
    x = np.maximum(x @ weights["fc1.weight"].T + weights["fc1.bias"], 0)
    return x @ weights["fc2.weight"].T + weights["fc2.bias"]


def conv_hwc(x: np.ndarray, w: np.ndarray, b: np.ndarray, stride: int, dilation: int) -> np.ndarray:
    """3×3 convolution of a channels-last image (H, W, C), zero padding as PyTorch's
    ``padding=dilation``; w is (O, C, 3, 3). Output (ceil(H/stride), ceil(W/stride), O)."""
    h, wd, c = x.shape
    d = dilation
    xp = np.pad(x, ((d, d), (d, d), (0, 0)))
    shifted = [
        xp[ky * d : ky * d + h : stride, kx * d : kx * d + wd : stride]
        for ky in range(3)
        for kx in range(3)
    ]
    cols = np.concatenate(shifted, axis=2)
    oh, ow = cols.shape[:2]
    kernel = w.transpose(2, 3, 1, 0).reshape(9 * c, len(w))  # rows in (ky, kx, c) order
    return (cols.reshape(oh * ow, 9 * c) @ kernel + b).reshape(oh, ow, len(w))


def map_input(bgr: np.ndarray) -> np.ndarray:
    """A BGR image as the fully convolutional maps take it (and were trained on): float, about
    zero mean and unit spread."""
    return (bgr.astype(np.float32) * (1 / 255.0) - 0.5) * 4.0


def fcn(weights: dict[str, np.ndarray], image: np.ndarray) -> np.ndarray:
    """The map (H / total stride, W / total stride, outputs) of a channels-last float image."""
    x = image.astype(np.float32)
    for i, (stride, dilation) in enumerate(weights["arch"].astype(int)):
        x = conv_hwc(x, weights[f"body.{i}.weight"], weights[f"body.{i}.bias"], stride, dilation)
        np.maximum(x, 0, out=x)
    w = weights["head.weight"].reshape(len(weights["head.weight"]), -1)
    return x @ w.T + weights["head.bias"]


def softmax(logits: np.ndarray) -> np.ndarray:
    z = np.exp(logits - logits.max(axis=1, keepdims=True))
    return z / z.sum(axis=1, keepdims=True)
