"""A hand over the board as the checker reader's tiles show it.

The usability network sees the whole board at 64×48, where a hand reaching over the middle of
a point is a few pixels wide; the checker reader's tiles see every point at the camera's own
resolution. Two small networks (``tinynet``) say how likely a hand, an arm or a sleeve lies
over each tile: fingers, skin and cloth, neither checker nor board. As the checker reader does,
a fast one (``hand_tiles_model.npz``) reads every tile averaged over 2 × 2 pixels, and a fine
one (``hand_tiles_fine_model.npz``) reads again, at full size, the few it does not rule out
(a brown checker and a finger are told apart by their shape). Both are trained by
``scripts/train_hand_tiles.py`` on renders whose seeds no fixture uses, each tile labelled by
how much of it the hand covers (the board rendered again without the hand shows where it is).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from nardy.vision import tinynet
from nardy.vision.checkers import kind_features, network_input, tile_kinds

WEIGHTS = Path(__file__).with_name("hand_tiles_model.npz")
FINE_WEIGHTS = Path(__file__).with_name("hand_tiles_fine_model.npz")


def tile_probs(tiles: np.ndarray, weights: Path, fine: bool) -> np.ndarray:
    """One network's probability that a hand lies over each tile (the sampler's checker
    tiles, in its order: 24 points, the bar's halves, the trays when in view); ``fine`` reads
    them at full size."""
    kinds = kind_features(tile_kinds(len(tiles)))
    logit = tinynet.forward(tinynet.load(weights), network_input(tiles, fine), kinds)[:, 0]
    return 1.0 / (1.0 + np.exp(-logit))


def hand_probs(tiles: np.ndarray, fine_from: float) -> np.ndarray:
    """The probability that a hand lies over each tile: the fast network's, and the fine
    one's for the tiles the fast one gives ``fine_from`` or more
    (``VisionConfig.hand_fine_from``)."""
    probs = tile_probs(tiles, WEIGHTS, fine=False)
    again = np.flatnonzero(probs >= fine_from)
    if len(again):
        probs[again] = tile_probs(tiles[again], FINE_WEIGHTS, fine=True)
    return probs
