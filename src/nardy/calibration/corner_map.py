"""Where the playing surface's four corners are: a small fully convolutional network.

The network looks at the whole photo shrunk to ``WIDTH`` pixels across and gives, on a grid
``STRIDE`` pixels apart, for each inner corner of the frame (TL, TR, BR, BL of the image) how
likely it lies in each cell (a softmax over the grid) and where in and around the cell it lies.
Its reach (about the whole shrunk photo) lets it tell the frame's inner corners from the bar's,
the trays' and the frame's outer ones by what lies round them. It learnt from rendered boards of
every style, camera angle and light (``scripts/train_corner_map.py``); ``refine`` then brings
its guess onto the edges at full resolution.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from nardy.vision import tinynet

WEIGHTS = Path(__file__).with_name("corner_map.npz")
WIDTH = 256  # the photo is read this wide
STRIDE = 8  # input pixels between two cells of the map


@dataclass(frozen=True)
class CornerGuess:
    """The four corners (TL, TR, BR, BL) in image pixels and, for each, the share of the
    map's belief within a cell of where it was put (0–1)."""

    corners: np.ndarray
    confidence: tuple[float, float, float, float]


def shrink(image: np.ndarray) -> np.ndarray:
    """The photo ``WIDTH`` wide, its height padded (repeating the last row) to the grid."""
    h, w = image.shape[:2]
    height = max(round(h * WIDTH / w), STRIDE)
    small = cv2.resize(image, (WIDTH, height), interpolation=cv2.INTER_AREA)
    pad = -height % STRIDE
    if pad:
        small = cv2.copyMakeBorder(small, 0, pad, 0, 0, cv2.BORDER_REPLICATE)
    return small


def decode(out: np.ndarray, stride: int = STRIDE) -> tuple[np.ndarray, tuple[float, ...]]:
    """Corners (in the input's pixels) and confidences from a raw map (H, W, 3n: n logits,
    then an x, y offset per corner, in cells, from the cell it lies in or beside)."""
    n = out.shape[2] // 3
    corners = np.zeros((n, 2))
    confidence = []
    for k in range(n):
        logits = out[..., k].astype(np.float64)
        p = np.exp(logits - logits.max())
        p /= p.sum()
        i, j = np.unravel_index(int(np.argmax(p)), p.shape)
        confidence.append(float(p[max(i - 1, 0) : i + 2, max(j - 1, 0) : j + 2].sum()))
        u = j + float(out[i, j, n + 2 * k])
        v = i + float(out[i, j, n + 2 * k + 1])
        corners[k] = ((u + 0.5) * stride - 0.5, (v + 0.5) * stride - 0.5)
    return corners, tuple(confidence)


def guess_corners(image: np.ndarray) -> CornerGuess:
    """The network's guess of the surface's corners in a BGR photo, in its pixels."""
    small = shrink(image)
    out = tinynet.fcn(tinynet.load(WEIGHTS), tinynet.map_input(small))
    corners, confidence = decode(out)
    h, w = image.shape[:2]
    scale = np.array([w / WIDTH, h / max(round(h * WIDTH / w), STRIDE)])
    return CornerGuess((corners + 0.5) * scale - 0.5, confidence)  # type: ignore[arg-type]
