"""Count the checkers on every point, on the bar and in the trays with one small network.

The sampler rectifies each place checkers stand into a tile of the same size: a point from its
base at the frame to the middle of the board, each half of the bar from the middle outward, each
tray from its outer end inward. A small convolutional network (``tinynet``, told which kind of
tile it is looking at) says for every tile how many checkers stand there (0–15) and whether they
are light or dark, with a probability for each, as chesscog reads a chessboard square by square.
It is trained on the renderer's photos by ``scripts/train_point_model.py``; the weights ship
beside this module (``checker_model.npz``).

A tile alone cannot always tell light from dark (a red checker in shadow, a cream one on a cream
point), but the board holds only two sets: ``settle_colours`` takes the colours of the sets from
the points the network is sure of, and gives every other point the set its first checker looks
like.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

import cv2
import numpy as np

from nardy.vision import tinynet
from nardy.vision.config import VisionConfig

WEIGHTS = Path(__file__).with_name("checker_model.npz")
MOST = 15  # checkers one tile can hold: a whole side
POINT, BAR, TRAY = 0, 1, 2  # kinds of tile


def tile_kinds(count: int) -> np.ndarray:
    """The kind of each of ``count`` tiles in the sampler's order (24 points, 2 bar halves,
    the trays when in view)."""
    kinds = np.full(count, TRAY)
    kinds[:24] = POINT
    kinds[24:26] = BAR
    return kinds


def network_input(tiles: np.ndarray) -> np.ndarray:
    """Tiles (n × l × w × 3, uint8 BGR, levels stretched) as the network takes them: averaged
    over 2 × 2 pixels (sampled fine and averaged, the grain of wood and sensor noise cancel;
    the network then costs a quarter of what it would at the sampled size)."""
    n, length, width, _ = tiles.shape
    x = tiles.reshape(n, length // 2, 2, width // 2, 2, 3).astype(np.float32).mean(axis=(2, 4))
    return (x - 128.0) / 64.0


def kind_features(kinds: np.ndarray) -> np.ndarray:
    return np.eye(3, dtype=np.float32)[kinds]


@dataclass(frozen=True)
class TilesRead:
    counts: np.ndarray  # checkers on each tile
    light: np.ndarray  # bool: the light set's (meaningless on an empty tile)
    confidence: np.ndarray  # 0..1: probability of the count, times that of the colour


def read_tiles(tiles: np.ndarray, weights: Path = WEIGHTS) -> TilesRead:
    """All tiles in one forward pass."""
    kinds = tile_kinds(len(tiles))
    out = tinynet.forward(tinynet.load(weights), network_input(tiles), kind_features(kinds))
    count_p = tinynet.softmax(out[:, : MOST + 1])
    colour_p = tinynet.softmax(out[:, MOST + 1 : MOST + 3])
    counts = count_p.argmax(axis=1)
    light = colour_p[:, 0] >= colour_p[:, 1]
    conf = count_p.max(axis=1) * np.where(counts > 0, colour_p.max(axis=1), 1.0)
    return TilesRead(counts, light, conf)


def first_checker_colour(tiles: np.ndarray) -> np.ndarray:
    """Mean L*a*b* (OpenCV's 8-bit scale) of where a point's first checker stands (n × 3)."""
    length, width = tiles.shape[1:3]
    spot = np.ascontiguousarray(tiles[:, : int(0.15 * length), width // 4 : 3 * width // 4])
    lab = cv2.cvtColor(spot.reshape(-1, spot.shape[2], 3), cv2.COLOR_BGR2Lab)
    return lab.reshape(spot.shape).astype(np.float32).mean(axis=(1, 2))


def settle_colours(tiles: np.ndarray, read: TilesRead, config: VisionConfig) -> TilesRead:
    """The points' colours made consistent over the board (see the module's docstring). The
    bar and the trays keep the network's word: their first checker is not at the tile's start."""
    points = slice(0, min(24, len(tiles)))
    occupied = read.counts[points] > 0
    light = read.light[points]
    sure = read.confidence[points] >= config.colour_sure
    seeds_light, seeds_dark = occupied & light & sure, occupied & ~light & sure
    if not (seeds_light.any() and seeds_dark.any()):
        return read
    colour = first_checker_colour(tiles[points])
    ref_light = np.median(colour[seeds_light], axis=0)
    ref_dark = np.median(colour[seeds_dark], axis=0)
    if np.linalg.norm(ref_light - ref_dark) < config.sets_apart:
        return read  # the two sets look too alike here to overrule the network
    nearer_light = np.linalg.norm(colour - ref_light, axis=1) < np.linalg.norm(
        colour - ref_dark, axis=1
    )
    settled = read.light.copy()
    settled[points] = np.where(occupied, nearer_light, light)
    return replace(read, light=settled)
