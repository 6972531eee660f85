"""Where dice lie: the first stage of the dice reader, a small fully convolutional network.

The network (CenterNet's way: "objects as points") looks at the colour image at a reduced
resolution and gives, on a grid four pixels apart, how likely a die's top face is centred there,
the sub-cell offset of that centre and the face's size. It learnt this from rendered boards and
real photographs of dice (``scripts/train_dice_reader.py``), so it finds dice whose pips are too
small or too blurred to segment and passes over checker rims and point patterns. It runs in
OpenCV's DNN module (``dice_centres.onnx``).

A photograph of unknown scale is read at three resolutions (long side ``long_side``, half and a
quarter of it, none under 64 pixels): the network learnt faces from about 7 to 40 pixels across,
so one of them sees any die from 7 pixels to a quarter of the image (a webcam's close-up dice
are 60 to 200 pixels wide at 640; a die filling a quarter of a small picture is best seen at
its quarter, where its pips are too small to pass for dice).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from nardy.vision import tinynet

WEIGHTS = Path(__file__).with_name("dice_centres.onnx")
#: the same network trained on for a known board, whose dice it reads at one level, about 10
#: pixels across (``in_region``): more of its crops at that size, more cocked dice, dice of any
#: hue, motion blur
BOARD_WEIGHTS = Path(__file__).with_name("dice_centres_board.onnx")
STRIDE = 4  # input pixels between two cells of the map
SIZE_UNIT = 16.0  # the map's size output is log(face side / this), in input pixels


@dataclass(frozen=True)
class Proposal:
    """A likely die: its top face's centre and side, in image pixels, and the map's score."""

    x: float
    y: float
    side: float
    score: float


def levels(shape: tuple[int, ...], long_side: int, smallest: int = 64) -> list[float]:
    """Scales at which an image of this shape is read: long side ``long_side``, half, quarter."""
    first = min(1.0, long_side / max(shape[0], shape[1]))
    return [s for s in (first, first / 2, first / 4) if max(shape[0], shape[1]) * s >= smallest]


def read_map(bgr: np.ndarray, weights: Path = WEIGHTS) -> np.ndarray:
    """The raw map (H/4, W/4, 4: heat logit, x offset, y offset, log size) of a BGR image."""
    h, w = bgr.shape[:2]
    pad_h, pad_w = -h % STRIDE, -w % STRIDE
    if pad_h or pad_w:
        bgr = cv2.copyMakeBorder(bgr, 0, pad_h, 0, pad_w, cv2.BORDER_REPLICATE)
    blob = tinynet.map_input(bgr).transpose(2, 0, 1)[None]
    return tinynet.run_onnx(weights, blob)[0].transpose(1, 2, 0)


def peaks(out: np.ndarray, threshold: float) -> list[Proposal]:
    """Local maxima of the heat over ``threshold``, in the map's input pixels."""
    heat = 1.0 / (1.0 + np.exp(-out[..., 0]))
    top = cv2.dilate(heat, np.ones((3, 3), np.uint8))
    ys, xs = np.nonzero((heat >= top) & (heat >= threshold))
    found = []
    for y, x in zip(ys, xs, strict=True):
        cx = STRIDE * (x + float(out[y, x, 1]))
        cy = STRIDE * (y + float(out[y, x, 2]))
        side = SIZE_UNIT * float(np.exp(np.clip(out[y, x, 3], -3, 3)))
        found.append(Proposal(cx, cy, side, float(heat[y, x])))
    return found


def at_scale(
    bgr: np.ndarray, scale: float, threshold: float, weights: Path = WEIGHTS
) -> list[Proposal]:
    """Likely dice in a BGR image read at ``scale`` (≤ 1), in full-image pixels."""
    small = bgr
    if scale < 1.0:
        h, w = bgr.shape[:2]
        size = (max(round(w * scale), 1), max(round(h * scale), 1))
        small = cv2.resize(bgr, size, interpolation=cv2.INTER_AREA)
    sx, sy = bgr.shape[1] / small.shape[1], bgr.shape[0] / small.shape[0]
    return [
        Proposal((p.x + 0.5) * sx - 0.5, (p.y + 0.5) * sy - 0.5, p.side * sx, p.score)
        for p in peaks(read_map(small, weights), threshold)
    ]


def in_region(
    bgr: np.ndarray, scale: float, box: tuple[int, int, int, int], threshold: float
) -> list[Proposal]:
    """Likely dice in the part ``box`` (x0, y0, x1, y1) of a BGR image read at one ``scale``
    (≤ 1) by the board's map, in full-image pixels: when the dice's size is known (a board's),
    one level that fits them does, and only where they can lie."""
    x0, y0, x1, y1 = box
    return [
        Proposal(p.x + x0, p.y + y0, p.side, p.score)
        for p in at_scale(bgr[y0:y1, x0:x1], scale, threshold, BOARD_WEIGHTS)
    ]


def propose(
    bgr: np.ndarray, long_side: int = 640, threshold: float = 0.2, apart: float = 0.5
) -> list[Proposal]:
    """Likely dice in a BGR image at every level, in full-image pixels, best first; of two of
    about one size closer than ``apart`` of the larger face (one die seen at two levels) only
    the better. (A small proposal never hides a large one: a light pip on a dark die looks
    like a die at a level too fine for that die.)"""
    found = [p for s in levels(bgr.shape, long_side) for p in at_scale(bgr, s, threshold)]
    found.sort(key=lambda p: -p.score)
    if not found:
        return []
    xy = np.array([(p.x, p.y) for p in found])
    side = np.array([p.side for p in found])
    gone = np.zeros(len(found), bool)
    for i in range(len(found)):
        if not gone[i]:
            rest = side[i + 1 :]
            near = np.hypot(*(xy[i + 1 :] - xy[i]).T) < apart * np.maximum(rest, side[i])
            gone[i + 1 :] |= near & (np.maximum(rest, side[i]) < 1.5 * np.minimum(rest, side[i]))
    return [p for p, g in zip(found, gone, strict=True) if not g]
