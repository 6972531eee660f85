"""Where a found die's top face lies, on a board whose inner frame corners are known.

A cocked die's top face is often found off its centre, toward the side face it shows, and the
board-plane reader (``dice_tilt``) reads a face cut off its centre worse. Its own re-centring
(``DiceConfig.board_recentre``) sees a patch two faces wide and gets about halfway. A network
of its own (``dice_place.onnx``, made by ``scripts/train_dice_place.py``) sees the board-plane
patch ``CONTEXT`` faces wide around the found face, turned and mirrored as ``dice_tilt`` cuts
it, so that the whole die lies in view wherever it was found, and says where in the patch the
top face's centre lies; ``place`` moves each die there before the reader reads it.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np

from nardy.vision import tinynet
from nardy.vision.dice_patches import PATCH, normalise_patch
from nardy.vision.dice_tilt import away_from, cut_by, face_frames

WEIGHTS = Path(__file__).with_name("dice_place.onnx")
CONTEXT = 2.0  # the patch's side over the found top face's (as the reader's: ``dice_tilt``)
REACH = 0.45  # the grid's cells' centres span this far either way of the patch's (of its side)


def grid_centre(logits: np.ndarray) -> np.ndarray:
    """(N, 2) top-face centres (of the patch's side, from its centre) from (N, G*G) logits over
    a G×G grid of places: the mean over the likeliest place and its neighbours, each weighed
    by its probability (one likeliest place, not the mean of a face and its side face)."""
    n = len(logits)
    g = round(np.sqrt(logits.shape[1]))
    p = tinynet.softmax(logits).reshape(n, g, g)
    cells = np.linspace(-REACH, REACH, g)
    out = np.zeros((n, 2))
    for i in range(n):
        r, c = divmod(int(p[i].argmax()), g)
        rows, cols = slice(max(r - 1, 0), r + 2), slice(max(c - 1, 0), c + 2)
        w = p[i, rows, cols]
        out[i, 0] = (w.sum(axis=0) * cells[cols]).sum() / w.sum()
        out[i, 1] = (w.sum(axis=1) * cells[rows]).sum() / w.sum()
    return out


def place(
    bgr: np.ndarray,
    to_board: np.ndarray,
    centres: Sequence[tuple[float, float]] | np.ndarray,
    faces: Sequence[float] | np.ndarray,
    foot: np.ndarray,
) -> np.ndarray:
    """(N, 2) image points: each top face's centre as the network sees it around ``centres``
    (dice found with top faces of ``faces`` image pixels), the read of the patch and of its
    mirror averaged."""
    n = len(centres)
    xy = np.asarray(centres, np.float64).reshape(n, 2)
    if not n:
        return xy
    cuts = face_frames(to_board, xy, faces, away_from(to_board, foot, xy), context=CONTEXT)
    blob = np.stack([normalise_patch(cut_by(bgr, m)) for m in cuts])
    out = tinynet.run_onnx(WEIGHTS, blob)
    at = grid_centre(out)  # of the patch's side, from its centre
    uv = (at * PATCH + (PATCH - 1) / 2).reshape(-1, 1, 2)
    seen = np.stack(
        [cv2.perspectiveTransform(p[None], m)[0, 0] for p, m in zip(uv, cuts, strict=True)]
    )
    return seen.reshape(2, n, 2).mean(axis=0)
