"""The learned second stage of the dice reader: a small convolutional network in plain NumPy.

Each cluster of pips (``pips.cluster_pips``) is cut out as a square patch around it, turned so
that the pips are dark, scaled to ``PATCH`` pixels and normalised. The network says whether the
patch is a die and which value its top face shows, and where that top face lies in the patch.
The weights ship beside this module (``dice_model.npz``) and are made by
``scripts/train_dice_model.py`` (PyTorch, CPU, a few minutes); reading needs NumPy only.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np

from nardy.vision import tinynet
from nardy.vision.pips import Pip

PATCH = 32
WEIGHTS = Path(__file__).with_name("dice_model.npz")


def patch_window(cluster: Sequence[Pip]) -> tuple[float, float, float]:
    """Centre and side of the square cut around a cluster: its pips plus a margin of die size."""
    xs = [p.x for p in cluster]
    ys = [p.y for p in cluster]
    r = float(np.median([p.radius for p in cluster]))
    cx, cy = (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
    side = max(max(xs) - min(xs), max(ys) - min(ys)) + 10.0 * r
    return cx, cy, max(side, 14.0 * r)


def cut_patch(
    gray: np.ndarray,
    window: tuple[float, float, float],
    light: bool,
    angle: float = 0.0,
    flip: bool = False,
) -> np.ndarray:
    """The window as a PATCH×PATCH float32 patch, pips dark, zero median, unit spread."""
    cx, cy, side = window
    s = PATCH / side
    m = cv2.getRotationMatrix2D((cx, cy), angle, s)
    m[0, 2] += PATCH / 2 - cx
    m[1, 2] += PATCH / 2 - cy
    interp = cv2.INTER_AREA if s < 1 else cv2.INTER_LINEAR
    patch = cv2.warpAffine(gray, m, (PATCH, PATCH), flags=interp, borderMode=cv2.BORDER_REPLICATE)
    patch = patch.astype(np.float32)
    if light:
        patch = 255.0 - patch
    if flip:
        patch = patch[:, ::-1]
    lo, mid, hi = np.percentile(patch, (5, 50, 95))
    return ((patch - mid) / max(hi - lo, 8.0)).astype(np.float32)


def predict(patches: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """Class probabilities (N, 7: not a die, then values 1..6), top-face boxes (N, 4) and the
    probability that the die is cocked (N,), or None from a network not taught cocked dice.

    A box is (cx, cy, w, h) of the top face in the patch, as fractions of the patch side, with
    the patch centre at (0, 0).
    """
    out = tinynet.forward(tinynet.load(WEIGHTS), patches)
    cocked = 1.0 / (1.0 + np.exp(-out[:, 11])) if out.shape[1] > 11 else None
    return tinynet.softmax(out[:, :7]), out[:, 7:11], cocked
