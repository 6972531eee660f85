"""A hand over the board as the checker reader's tiles show it.

The usability network sees the whole board at 64×48, where a hand reaching over the middle of
a point is a few pixels wide; the checker reader's tiles see every point at full resolution. A
small network (``tinynet``, ``hand_tiles_model.npz``) reads each tile as the fast checker
network does (averaged over 2 × 2 pixels) and says how likely a hand, an arm or a sleeve lies
over it: fingers, skin and cloth, neither checker nor board. It is trained by
``scripts/train_hand_tiles.py`` on renders whose seeds no fixture uses, each tile labelled by
how much of it the hand covers (the board rendered again without the hand shows where it is).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from nardy.vision import tinynet
from nardy.vision.checkers import kind_features, network_input, tile_kinds

WEIGHTS = Path(__file__).with_name("hand_tiles_model.npz")
FINE = True  # the tiles at full size (as the fine checker network reads them), not halved


def hand_probs(tiles: np.ndarray, weights: Path = WEIGHTS) -> np.ndarray:
    """The probability that a hand lies over each tile (the sampler's checker tiles, in its
    order: 24 points, the bar's halves, the trays when in view)."""
    kinds = kind_features(tile_kinds(len(tiles)))
    logit = tinynet.forward(tinynet.load(weights), network_input(tiles, FINE), kinds)[:, 0]
    return 1.0 / (1.0 + np.exp(-logit))
