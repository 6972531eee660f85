"""The second stage of the dice reader: a small convolutional network that reads one likely die.

Each proposal of the first stage (``dice_centres``) is read twice. The first read cuts a square
colour patch ``FIRST_CONTEXT`` times the proposed face's side (the map's guess of the size is
rough, on real photographs often half the face) and says whether a die is there and where its
top face lies; the second cuts ``CONTEXT`` times that face's side around that face and reads it:
die or not, the value, the face's box, and whether the die is cocked (its top face tilted:
foreshortened, with two side faces showing). Patches are scaled to ``PATCH`` pixels and
normalised. The network ships beside this module as ONNX (``dice_patches.onnx``), made by
``scripts/train_dice_reader.py`` (PyTorch, CPU) and run by OpenCV's DNN module.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from nardy.vision import tinynet

PATCH = 48
FIRST_CONTEXT = 3.0  # the first read's patch side over the proposed face's side
CONTEXT = 2.0  # the second read's patch side over the face's side the first read found
WEIGHTS = Path(__file__).with_name("dice_patches.onnx")
#: the same network trained on for a known board (``scripts/train_dice_board.py``), whose every
#: patch is cut at twice a die's size there: only those cuts, the board map's false proposals,
#: the doubling cube and the finder's own false dice as "not a die", a third of the renders
#: motion-blurred and a fifth out of focus. It says whether a die is there
#: (``dice._learned_dice``); its faces are not the ones the board-plane reader learnt behind
BOARD_WEIGHTS = Path(__file__).with_name("dice_patches_board.onnx")


def cut_patch(
    bgr: np.ndarray,
    center: tuple[float, float],
    side: float,
    angle: float = 0.0,
    flip: bool = False,
) -> np.ndarray:
    """The square of ``side`` pixels around ``center`` (turned by ``angle`` degrees, mirrored
    when ``flip``) as a (3, PATCH, PATCH) float32 patch of zero mean and unit spread."""
    n = max(round(side), 4)
    m = cv2.getRotationMatrix2D(center, angle, 1.0)
    m[0, 2] += n / 2 - center[0]
    m[1, 2] += n / 2 - center[1]
    crop = cv2.warpAffine(bgr, m, (n, n), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    interp = cv2.INTER_AREA if n > PATCH else cv2.INTER_LINEAR
    patch = cv2.resize(crop, (PATCH, PATCH), interpolation=interp)
    if flip:
        patch = patch[:, ::-1]
    return normalise_patch(patch)


def normalise_patch(patch: np.ndarray) -> np.ndarray:
    """(PATCH, PATCH, 3) uint8 or float → (3, PATCH, PATCH) float32, zero mean, unit spread."""
    x = patch.astype(np.float32)
    x = (x - x.mean()) / max(float(x.std()), 8.0)
    return np.ascontiguousarray(x.transpose(2, 0, 1))


def predict(
    patches: np.ndarray, weights: Path = WEIGHTS
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Class probabilities (N, 7: not a die, then values 1..6), top-face boxes (N, 4) and the
    probability that the die is cocked (N,).

    A box is (cx, cy, w, h) of the top face in the patch, as fractions of the patch side, with
    the patch centre at (0, 0).
    """
    out = tinynet.run_onnx(weights, patches)
    cocked = 1.0 / (1.0 + np.exp(-out[:, 11]))
    return tinynet.softmax(out[:, :7]), out[:, 7:11], cocked
