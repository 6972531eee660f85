"""Dice in any photograph: each die's top-face value, flat or cocked, where it lies, how sure.

Two learned stages, both small networks run in NumPy. ``dice_centres`` looks at the whole
colour image at reduced resolution and proposes where dice lie (a heat map of top-face centres,
with each face's size); ``dice_model`` reads a patch cut around each proposal: die or not, the
top face's value, where exactly that face lies, and whether the die is cocked (its top face
tilted: leaning on the rim, a checker or the other die). Neither needs the pips to segment, so
small, blurred, coloured and dark dice are read the same way.

``place_dice`` says, for a board whose inner frame corners are known, whether each die lies in
the left or right half, on the bar, or off the board.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

import cv2
import numpy as np

from nardy.vision.dice_centres import propose
from nardy.vision.dice_model import CONTEXT, cut_patch, predict

Where = Literal["left", "right", "bar", "off"]


class DiceInputError(ValueError):
    """An image the dice reader cannot read (empty, wrong shape or type)."""


@dataclass(frozen=True)
class DiceConfig:
    long_side: int = 640  # the centre map reads the image at this long side, then at half
    proposal: float = 0.1  # least heat of a proposed die centre (as the patch reader learnt)
    max_proposals: int = 60  # the most proposals read by the patch network
    min_die: float = 0.5  # least probability that a patch is a die at all
    same_die: float = 0.6  # two readings closer than this (of the larger top face) are one die
    cocked: float = 0.5  # least probability that a die is cocked to call it so


@dataclass(frozen=True)
class DieReading:
    """One die: ``center`` and ``box`` (x, y, w, h) are of its top face, in image pixels."""

    value: int
    flat: bool
    center: tuple[float, float]
    box: tuple[int, int, int, int]
    confidence: float

    def to_json(self) -> dict[str, object]:
        return {
            "value": self.value,
            "flat": self.flat,
            "center": [round(self.center[0], 1), round(self.center[1], 1)],
            "box": list(self.box),
        }


def _check(image: np.ndarray) -> np.ndarray:
    """The image as 8-bit BGR."""
    if not isinstance(image, np.ndarray) or image.size == 0:
        raise DiceInputError("expected a non-empty image array")
    if image.dtype != np.uint8:
        raise DiceInputError(f"expected 8-bit pixels, got {image.dtype}")
    if image.ndim == 2:
        return cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    if image.ndim == 3 and image.shape[2] == 3:
        return image
    if image.ndim == 3 and image.shape[2] == 4:
        return cv2.cvtColor(image, cv2.COLOR_BGRA2BGR)
    raise DiceInputError(f"expected a grey or BGR image, got shape {image.shape}")


def find_dice(image: np.ndarray, config: DiceConfig = DiceConfig()) -> list[DieReading]:
    """Every die in a BGR (or grey) image, most confident first."""
    bgr = _check(image)
    proposals = propose(bgr, config.long_side, config.proposal)[: config.max_proposals]
    if not proposals:
        return []
    sides = [p.side * CONTEXT for p in proposals]
    patches = np.stack(
        [cut_patch(bgr, (p.x, p.y), s) for p, s in zip(proposals, sides, strict=True)]
    )
    prob, boxes, tilt = predict(patches)
    found: list[DieReading] = []
    for p, side, pr, b, t in zip(proposals, sides, prob, boxes, tilt, strict=True):
        if 1.0 - pr[0] < config.min_die:
            continue
        value = int(np.argmax(pr[1:])) + 1
        cx, cy = p.x + float(b[0]) * side, p.y + float(b[1]) * side
        w, h = max(float(b[2]) * side, 1.0), max(float(b[3]) * side, 1.0)
        box = (round(cx - w / 2), round(cy - h / 2), round(w), round(h))
        flat = bool(t < config.cocked)
        found.append(DieReading(value, flat, (cx, cy), box, float(pr[value])))
    found.sort(key=lambda r: -r.confidence)
    kept: list[DieReading] = []
    for reading in found:
        size = max(reading.box[2], reading.box[3])
        if any(
            np.hypot(reading.center[0] - k.center[0], reading.center[1] - k.center[1])
            < config.same_die * max(size, k.box[2], k.box[3])
            for k in kept
        ):
            continue
        kept.append(reading)
    return kept


# -- where a die lies on the board ------------------------------------------------------------

BAR = (0.4625, 0.5375)  # the bar's extent across the board, as a fraction of the inner width


def board_homography(corners: Sequence[Sequence[float]]) -> np.ndarray:
    """Image → board map for the four inner frame corners TL, TR, BR, BL (board: unit square)."""
    src = np.asarray(corners, dtype=np.float64).reshape(4, 2)
    dst = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], dtype=np.float64)
    return cv2.getPerspectiveTransform(src.astype(np.float32), dst.astype(np.float32))


def where_on_board(
    center: tuple[float, float],
    to_board: np.ndarray | Callable[[np.ndarray], np.ndarray],
    bar: tuple[float, float] = BAR,
) -> Where:
    """left / right half, bar or off, for an image point; ``to_board`` a 3×3 map or a function."""
    pt = np.array([[center[0], center[1]]], dtype=np.float64)
    if callable(to_board):
        bx, by = np.asarray(to_board(pt), dtype=np.float64).reshape(2)
    else:
        bx, by = cv2.perspectiveTransform(pt[None], np.asarray(to_board, np.float64))[0, 0]
    if not (0.0 <= bx <= 1.0 and 0.0 <= by <= 1.0):
        return "off"
    if bar[0] <= bx <= bar[1]:
        return "bar"
    return "left" if bx < bar[0] else "right"


def place_dice(
    readings: Sequence[DieReading],
    corners: Sequence[Sequence[float]] | None = None,
    to_board: np.ndarray | Callable[[np.ndarray], np.ndarray] | None = None,
    bar: tuple[float, float] = BAR,
) -> list[Where]:
    """Where each die lies, from the inner frame corners or a calibration's image → board map."""
    if to_board is None:
        if corners is None:
            raise ValueError("place_dice needs the board's corners or its image → board map")
        to_board = board_homography(corners)
    return [where_on_board(r.center, to_board, bar) for r in readings]
