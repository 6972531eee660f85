"""Which long edge of the image is light's: the row of light's home board, told from where the
checkers stand when no calibration profile carries the orientation.

A cube "on light's side" lies along light's row, so the cube reader needs it. Checkers tell it
by how the game runs: in backgammon light's home and outer board hold its builders, in long
nardy the heads stand at the far end of each player's home row, in a bear-off each side's
checkers sit in its home. A small network (``sides_model.npz``, trained by
``scripts/train_sides_model.py`` on positions drawn as the renderer draws them) weighs it all;
a position with nothing to tell (tall stacks anywhere) comes out near even.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import numpy as np

from nardy.vision import tinynet

Row = Literal["top", "bottom"]
WEIGHTS = Path(__file__).with_name("sides_model.npz")


class SidesInputError(ValueError):
    """Points, bar or trays that are not a reading of a board."""


@dataclass(frozen=True)
class LightRow:
    row: Row | None  # None when the checkers tell nothing
    confidence: float  # probability of ``row``, 0.5 … 1


def features(
    points: Sequence[int], bar: Sequence[int] = (0, 0), off: Sequence[int] | None = None
) -> np.ndarray:
    """Per point light's and dark's counts (scaled, and whether any), then bar and trays."""
    pts = np.asarray(points, dtype=np.float32)
    if pts.shape != (24,):
        raise SidesInputError("expected 24 points")
    light, dark = np.maximum(pts, 0), np.maximum(-pts, 0)
    extra = np.array([*(bar or (0, 0)), *(off or (0, 0))], dtype=np.float32)
    return np.concatenate([light / 5, dark / 5, light > 0, dark > 0, extra / 5]).astype(np.float32)


def p_light_bottom(x: np.ndarray) -> np.ndarray:
    """Probability that light's row is the bottom one, for feature rows ``x`` (N, F)."""
    w = tinynet.load(WEIGHTS)
    h = np.maximum(x @ w["fc1.weight"].T + w["fc1.bias"], 0)
    h = np.maximum(h @ w["fc2.weight"].T + w["fc2.bias"], 0)
    z = (h @ w["fc3.weight"].T + w["fc3.bias"])[:, 0]
    return 1.0 / (1.0 + np.exp(-z))


def light_row(
    points: Sequence[int],
    bar: Sequence[int] = (0, 0),
    off: Sequence[int] | None = None,
    sure: float = 0.5,
) -> LightRow:
    """Light's row as the board lies in the image (points 1–12 along the bottom); the row is
    None when the checkers tell it with less than ``sure`` confidence (the cube reader's
    ``CubeConfig.side_sure``): stacks anywhere say nothing of whose side is whose, and a guess
    there is as often wrong as right."""
    x = features(points, bar, off)
    if not np.abs(np.asarray(points)).any():
        return LightRow(None, 0.5)
    p = float(p_light_bottom(x[None])[0])
    confidence = max(p, 1 - p)
    if confidence < sure:
        return LightRow(None, confidence)
    return LightRow("bottom" if p >= 0.5 else "top", confidence)
