"""Bring each guessed corner of the playing surface onto the frame's inner corner at full
resolution: a small fully convolutional network reads a patch round the guess and maps where in
it the corner is (a softmax over a grid ``STRIDE`` patch pixels apart, and the offset within).

A patch is a quarter of the board's width across (whatever the photo's resolution), mirrored
so that every corner lies as the top-left one does (frame above and to the left, surface below
and to the right): one network serves all four. It learnt from rendered boards
(``scripts/train_corner_patch.py``) with the corner anywhere within an eighth of the board's
width of the patch's middle; a second look, centred on the first answer, settles it.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from nardy.calibration.corner_map import decode
from nardy.vision import tinynet

WEIGHTS = Path(__file__).with_name("corner_patch.npz")
PATCH = 64  # pixels across a patch
STRIDE = 4  # patch pixels between two cells of the map
SPAN = 0.25  # a patch's side as a share of the board's width
#: which way each corner (TL, TR, BR, BL) is mirrored to lie as TL does: (flip x, flip y)
MIRROR = ((False, False), (True, False), (True, True), (False, True))


def board_width(quad: np.ndarray) -> float:
    """The surface's width in the photo: the mean of its top and bottom edges."""
    q = np.asarray(quad, float)
    return float((np.linalg.norm(q[1] - q[0]) + np.linalg.norm(q[2] - q[3])) / 2)


def cut(image: np.ndarray, centre: np.ndarray, corner: int, side: float, size: int) -> np.ndarray:
    """The square ``side`` photo pixels across round ``centre``, ``size`` pixels across,
    mirrored as ``corner`` (0–3: TL, TR, BR, BL) asks."""
    n = max(round(side), 2)
    patch = cv2.getRectSubPix(image, (n, n), (float(centre[0]), float(centre[1])))
    patch = cv2.resize(
        patch, (size, size), interpolation=cv2.INTER_AREA if n > size else cv2.INTER_LINEAR
    )
    fx, fy = MIRROR[corner]
    if fx:
        patch = patch[:, ::-1]
    if fy:
        patch = patch[::-1]
    return np.ascontiguousarray(patch)


def refine(image: np.ndarray, corners: np.ndarray, looks: int = 2) -> np.ndarray:
    """The corners (TL, TR, BR, BL, photo pixels) each moved to where the network sees the
    frame's inner corner, looking ``looks`` times (each round the last answer)."""
    weights = tinynet.load(WEIGHTS)
    quad = np.asarray(corners, float).copy()
    side = max(round(SPAN * board_width(quad)), 2)
    for _ in range(looks):
        for k in range(4):
            patch = tinynet.map_input(cut(image, quad[k], k, side, PATCH))
            (at,), _ = decode(tinynet.fcn(weights, patch), STRIDE)
            d = at - (PATCH - 1) / 2  # from the patch's middle
            fx, fy = MIRROR[k]
            d *= [-1 if fx else 1, -1 if fy else 1]
            quad[k] += d * side / PATCH
    return quad
