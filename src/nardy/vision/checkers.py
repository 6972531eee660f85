"""Count the checkers on every point and on the bar with one small network (the bar has a
reader of its own as well, and the trays are read only by theirs: ``bar_trays``).

The sampler rectifies each place checkers stand into a tile of the same size: a point from its
base at the frame to the middle of the board, each half of the bar from the middle outward, each
tray from its outer end inward. A small convolutional network (``tinynet``, told which kind of
tile it is looking at) says for every tile how many checkers stand there (0–15) and whether they
are light or dark, with a probability for each, as chesscog reads a chessboard square by square.
It is trained on the renderer's photos by ``scripts/train_point_model.py``; the weights ship
beside this module (``checker_model.npz``).

The fast network sees each tile averaged over 2 × 2 pixels, too coarse to count the layers of a
tall stack. A second, finer network (``checker_fine_model.npz``, same shape, wider) reads the
tiles at full size, but only those the fast one calls tall or is unsure of, so a frame costs
little more than the fast pass. A tile the fine one doubts is read again in its mirror image
and by a second fine network (``checker_fine_second_model.npz``, taught on tiles in other
colours as well), and the three readings agreed. Even the fine tiles sample a point two to
three times below the photo's resolution: the points then read tall are sampled again at
twice that each way and counted by a third network (``tall``), agreed with the fine reading.

A tile alone cannot always tell light from dark (a red checker in shadow, a cream one on a cream
point, a set it never saw), but the board holds only two sets: ``settle_colours`` splits the
points' first checkers into two groups by colour (2-means in L*a*b*, from the network's split)
and calls the lighter group light, as the rules name the sets. Where the network sees one set
the groups must stand apart with a gap between them, or it is one set in uneven light.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

import cv2
import numpy as np

from nardy.vision import tinynet
from nardy.vision.config import VisionConfig
from nardy.vision.tall import TALL_WEIGHTS, tall_probs

WEIGHTS = Path(__file__).with_name("checker_model.npz")
FINE_WEIGHTS = Path(__file__).with_name("checker_fine_model.npz")
SECOND_WEIGHTS = Path(__file__).with_name("checker_fine_second_model.npz")
MOST = 15  # checkers one tile can hold: a whole side
POINT, BAR, TRAY = 0, 1, 2  # kinds of tile


def tile_kinds(count: int) -> np.ndarray:
    """The kind of each of ``count`` tiles in the sampler's order (24 points, 2 bar halves,
    the trays when in view)."""
    kinds = np.full(count, TRAY)
    kinds[:24] = POINT
    kinds[24:26] = BAR
    return kinds


def network_input(tiles: np.ndarray, fine: bool = False) -> np.ndarray:
    """Tiles (n × l × w × 3, uint8 BGR, levels stretched) as a network takes them: the fine
    one at full size, the fast one averaged over 2 × 2 pixels (sampled fine and averaged, the
    grain of wood and sensor noise cancel; the network then costs a quarter)."""
    n, length, width, _ = tiles.shape
    if fine:
        x = tiles.astype(np.float32)
    else:
        # the tiles side by side as one picture (as the sampler lays them out: no copy then):
        # one area resize averages every 2 × 2 block
        row = tiles.transpose(1, 0, 2, 3).reshape(length, n * width, 3).astype(np.float32)
        x = cv2.resize(row, (n * width // 2, length // 2), interpolation=cv2.INTER_AREA)
    x -= 128.0
    x /= 64.0
    if fine:
        return x
    return x.reshape(length // 2, n, width // 2, 3).transpose(1, 0, 2, 3)


def kind_features(kinds: np.ndarray) -> np.ndarray:
    return np.eye(3, dtype=np.float32)[kinds]


@dataclass(frozen=True)
class TilesRead:
    counts: np.ndarray  # checkers on each tile
    light: np.ndarray  # bool: the light set's (meaningless on an empty tile)
    confidence: np.ndarray  # 0..1: probability of the count, times that of the colour
    count_p: np.ndarray  # n × (MOST + 1): the probability of every count
    light_p: np.ndarray | None = None  # the probability each tile's checkers are light


def read_with(tiles: np.ndarray, kinds: np.ndarray, weights: Path, fine: bool) -> TilesRead:
    """Tiles of the given kinds through one network (``fine`` takes them at full size, and so
    does a network with a ``stem``: its first layer reads them blocks at a time)."""
    net = tinynet.load(weights)
    x = network_input(tiles, fine or "stem.weight" in net)
    out = tinynet.forward(net, x, kind_features(kinds))
    count_p = tinynet.softmax(out[:, : MOST + 1])
    return as_read(count_p, tinynet.softmax(out[:, MOST + 1 : MOST + 3])[:, 0])


def as_read(count_p: np.ndarray, light_p: np.ndarray) -> TilesRead:
    counts = count_p.argmax(axis=1)
    light = light_p >= 0.5
    colour_sure = np.maximum(light_p, 1.0 - light_p)
    conf = count_p.max(axis=1) * np.where(counts > 0, colour_sure, 1.0)
    return TilesRead(counts, light, conf, count_p, light_p)


def agreed(*probs: np.ndarray, weights: tuple[float, ...] | None = None) -> np.ndarray:
    """The normalised geometric mean of readings' probabilities (rows), each reading counted
    ``weights`` times (once each when not given)."""
    w = np.ones(len(probs)) if weights is None else np.asarray(weights, float)
    logs = [wi * np.log(np.maximum(q, 1e-30)) for wi, q in zip(w, probs, strict=True)]
    s = np.sum(logs, axis=0) / w.sum()
    p = np.exp(s - s.max(axis=1, keepdims=True))
    return p / p.sum(axis=1, keepdims=True)


def light_and_dark(light_p: np.ndarray) -> np.ndarray:
    return np.stack([light_p, 1.0 - light_p], axis=1)


def read_fine(
    tiles: np.ndarray,
    kinds: np.ndarray,
    weights: Path,
    again: float,
    second: Path | None = SECOND_WEIGHTS,
) -> TilesRead:
    """Tiles through the fine network; those it reads less surely than ``again`` once more in
    their mirror image and through the ``second`` fine network, the readings' probabilities
    agreed (their geometric mean). A tall stack's layers, blurred at this size, read unsurely
    one way may read plainly the other; the second network, taught on tiles in colours no set
    is rendered in, errs elsewhere than the first."""
    read = read_with(tiles, kinds, weights, fine=True)
    doubt = np.flatnonzero(read.count_p.max(axis=1) < again)
    if not len(doubt):
        return read
    others = [read_with(tiles[doubt, :, ::-1], kinds[doubt], weights, fine=True)]
    if second is not None:
        others.append(read_with(tiles[doubt], kinds[doubt], second, fine=True))
    count_p, light_p = read.count_p.copy(), read.light_p.copy()
    count_p[doubt] = agreed(read.count_p[doubt], *(o.count_p for o in others))
    lights = (light_and_dark(o.light_p) for o in others)
    light_p[doubt] = agreed(light_and_dark(read.light_p[doubt]), *lights)[:, 0]
    return as_read(count_p, light_p)


def needs_fine(read: TilesRead, kinds: np.ndarray, config: VisionConfig) -> np.ndarray:
    """Which tiles the fine network reads again: those the fast one calls tall (but a point
    under ``config.tall_from`` that it reads at least ``config.fine_skip`` sure), the points
    it is unsure of, and every tray it sees checkers in (at half size a tray's checker,
    standing on edge, is under two pixels long: the fast network tells one from two badly).
    An unsure bar or tray is most often an empty one, which the fast network reads as well as
    the fine (and a die on the bar misleads the fine one more)."""
    unsure = (read.confidence < config.fine_sure) & (kinds == POINT)
    trays = (kinds == TRAY) & (read.counts > 0)
    plain = (
        (kinds == POINT) & (read.counts < config.tall_from) & (read.confidence >= config.fine_skip)
    )
    return ((read.counts >= config.fine_from) & ~plain) | unsure | trays


def read_tiles(
    tiles: np.ndarray,
    weights: Path = WEIGHTS,
    fine_weights: Path | None = FINE_WEIGHTS,
    config: VisionConfig | None = None,
    closer: Callable[[np.ndarray], np.ndarray] | None = None,
    tall_weights: Path = TALL_WEIGHTS,
    also: np.ndarray | None = None,
) -> TilesRead:
    """All tiles in one pass of the fast network; then, when ``fine_weights`` is given, the
    tiles it calls tall (``config.fine_from`` checkers or more) and the points it reads less
    surely than ``config.fine_sure`` once more, through the fine network, whose word stands
    (and, when there are such tiles, the points it reads less surely than
    ``config.fine_along`` with them).
    Given ``closer`` (the close tiles of the points asked for, ``tall.TallSampler``), the
    points then read ``config.tall_from`` high or more are counted once more there
    (``read_tall``), and so are the tiles ``also`` marks (a die found over them) unless read
    as empty at least ``config.tall_die_empty`` surely."""
    config = config or VisionConfig()
    kinds = tile_kinds(len(tiles))
    read = read_with(tiles, kinds, weights, fine=False)
    if fine_weights is None:
        return read
    sent = needs_fine(read, kinds, config)
    if sent.any():  # the fine network runs: the points read not quite surely ride along
        sent |= (read.confidence < config.fine_along) & (kinds == POINT)
    again = np.flatnonzero(sent)
    if len(again):
        read = _merged(
            read, again, read_fine(tiles[again], kinds[again], fine_weights, config.fine_doubt)
        )
    if closer is None:
        return read
    asked = needs_tall(read, kinds, config)
    if also is not None:  # but not a point the networks are sure is empty (a die alone)
        empty = (read.counts == 0) & (read.count_p.max(axis=1) >= config.tall_die_empty)
        asked |= also & (kinds == POINT) & ~empty
    tall = np.flatnonzero(asked)
    if not len(tall):
        return read
    close = read_tall(closer(tall), read, tall, tall_weights, config)
    return _merged(read, tall, close)


def needs_tall(read: TilesRead, kinds: np.ndarray, config: VisionConfig) -> np.ndarray:
    """Which points the tall network counts again: those read ``config.tall_from`` high or
    more, those read ``config.fine_from`` or more less surely than ``config.tall_doubt``, and
    any read less surely than ``config.tall_unsure`` (``config.tall_unsure_empty`` when read
    as empty: a head dark on dark the others take for an empty point)."""
    sure = read.count_p.max(axis=1)
    doubt = (read.counts >= config.fine_from) & (sure < config.tall_doubt)
    unsure = sure < np.where(read.counts > 0, config.tall_unsure, config.tall_unsure_empty)
    return ((read.counts >= config.tall_from) | doubt | unsure) & (kinds == POINT)


def read_tall(
    close: np.ndarray, read: TilesRead, tall: np.ndarray, weights: Path, config: VisionConfig
) -> TilesRead:
    """The counts of tiles ``tall`` of ``read`` from their close tiles ``close``: the tall
    network's reading agreed with ``read``'s (their geometric mean, ``read``'s counted
    ``config.tall_read_weight`` times to the tall network's once), and where that is less sure
    than ``config.tall_mirror``, with the tall network's reading of the mirror image as well
    (on held-out training tiles it errs elsewhere, as the fine network's does). The colour
    stays ``read``'s."""
    count_p, _ = tall_probs(close, weights)
    w = config.tall_read_weight
    agreed_p = agreed(count_p, read.count_p[tall], weights=(1.0, w))
    doubt = np.flatnonzero(agreed_p.max(axis=1) < config.tall_mirror)
    if len(doubt):
        mirror, _ = tall_probs(np.ascontiguousarray(close[doubt, :, ::-1]), weights)
        agreed_p[doubt] = agreed(
            count_p[doubt], mirror, read.count_p[tall[doubt]], weights=(1.0, 1.0, w)
        )
    light_p = read.light_p[tall] if read.light_p is not None else read.light[tall] * 1.0
    return as_read(agreed_p, light_p)


def _merged(read: TilesRead, idx: np.ndarray, closer: TilesRead) -> TilesRead:
    """``read`` with tiles ``idx`` read as ``closer`` reads them."""
    fields = ("counts", "light", "confidence", "count_p", "light_p")
    merged = [getattr(read, f).copy() for f in fields]
    for mine, theirs in zip(merged, (getattr(closer, f) for f in fields), strict=True):
        mine[idx] = theirs
    return TilesRead(*merged)


def _side_ways(logp: np.ndarray, tiles: np.ndarray, most: int) -> tuple[np.ndarray, np.ndarray]:
    """The most probable way for one set's ``tiles`` to hold k checkers in all, for every k up
    to ``most``: ``best[k]`` its log-probability (the tiles' ``logp`` rows summed; -inf where
    none), ``took[i, k]`` how many tile i holds in it when k stand on tiles 0..i."""
    # ways[k, c]: k so far with c of them on this tile, k - c before it (where c can be)
    k_, c_ = np.indices((most + 1, most + 1))
    before, can = np.maximum(k_ - c_, 0), (c_ <= k_) & (c_ <= MOST)
    on_tile = np.minimum(c_, MOST)
    best = np.full(most + 1, -np.inf)
    best[0] = 0.0
    took = np.zeros((len(tiles), most + 1), int)
    for i, t in enumerate(tiles):
        ways = np.where(can, best[before] + logp[t][on_tile], -np.inf)
        took[i] = ways.argmax(axis=1)
        best = ways.max(axis=1)
    return best, took


def _take(read: TilesRead, tiles: np.ndarray, took: np.ndarray, total: int) -> TilesRead:
    """``read`` with ``tiles`` holding the way ``_side_ways`` found to ``total``."""
    counts, conf = read.counts.copy(), read.confidence.copy()
    k = total
    for i in range(len(tiles) - 1, -1, -1):
        c = took[i, k]
        if c != counts[tiles[i]]:
            counts[tiles[i]] = c
            conf[tiles[i]] = read.count_p[tiles[i], c]
        k -= c
    return replace(read, counts=counts, confidence=conf)


def fit_sides(read: TilesRead, per_side: int, most_doubt: float = float("inf")) -> TilesRead:
    """The most probable counts (the product of the tiles' probabilities) under which each
    set has exactly ``per_side`` checkers over all tiles, every tile counted for the set its
    colour says. For a reading that sees the whole board, the bar and both trays: a side
    that can reach ``per_side`` no way, or only by giving up more than ``most_doubt`` of
    log-probability (nats) against the network's own counts, keeps them (its missing
    checkers stand where the tiles do not look: a tray out of view taken for one in view,
    a checker in a hand)."""
    logp = np.log(np.maximum(read.count_p, 1e-12))
    for side in (read.light, ~read.light):
        tiles = np.flatnonzero(side)
        best, took = _side_ways(logp, tiles, per_side)
        as_read = logp[tiles, read.counts[tiles]].sum()
        if not np.isfinite(best[per_side]) or as_read - best[per_side] > most_doubt:
            continue
        read = _take(read, tiles, took, per_side)
    return read


def lean_to_totals(
    read: TilesRead, totals: tuple[int, ...], lean: float, most: int = MOST
) -> TilesRead:
    """Each set's counts as the most probable under a prior that favours the totals a game
    has (``totals``: 15 a side, 3 in hypergammon) by ``lean`` nats over any other total up to
    ``most``: the tiles' probabilities times that prior, never forcing it. Told nothing of
    the game, a reading of the whole board (the bar and both trays in view, the frame
    usable: every checker on a point, the bar or in a tray) that makes a side 14 where 15
    is a little less likely (a tray's stack read a checker short: ``bar_trays``) is read as
    15; one that only a costlier change makes 15 keeps its own counts. A side read over
    ``most`` is left as it is (``bar_trays.cap_trays`` takes it down)."""
    logp = np.log(np.maximum(read.count_p, 1e-12))
    bonus = np.array([lean if k in totals else 0.0 for k in range(most + 1)])
    for side in (read.light, ~read.light):
        tiles = np.flatnonzero(side)
        total = int(read.counts[tiles].sum())
        # the network's own counts are the most probable way to their total: one of the
        # game's totals already has the prior's best (most frames), one over ``most`` is not
        # this fit's to mend
        if total > most or total in totals:
            continue
        best, took = _side_ways(logp, tiles, most)
        k = int(np.argmax(best + bonus))
        if best[k] + bonus[k] > best[total] + bonus[total]:
            read = _take(read, tiles, took, k)
    return read


def first_checker_colour(tiles: np.ndarray, which: np.ndarray | None = None) -> np.ndarray:
    """The median L*a*b* (OpenCV's 8-bit scale, each channel's median) of where a point's first
    checker stands (n × 3), on each tile or on those ``which`` picks (only their spots copied,
    not the whole tiles). The median, not the mean: a lamp's highlight on a dark checker's
    face (or the point showing beside a small one) pulls the mean toward the other set, and
    the split then turns the checker over. On held-out renders (120 with checkers on the bar,
    60 of looks no network was trained on; never the fixtures) the split on the means left 9
    of 1,711 points' colours wrong, on the medians 1 (the networks alone 165)."""
    length, width = tiles.shape[1:3]
    spot = tiles[:, : int(0.15 * length), width // 4 : 3 * width // 4]
    spot = np.ascontiguousarray(spot if which is None else spot[which])
    lab = cv2.cvtColor(spot.reshape(-1, spot.shape[2], 3), cv2.COLOR_BGR2Lab)
    return np.median(lab.reshape(len(spot), -1, 3), axis=1).astype(np.float32)


def settle_colours(tiles: np.ndarray, read: TilesRead, config: VisionConfig) -> TilesRead:
    """The points' colours made consistent over the board (see the module's docstring), and
    the trays' (``settle_trays``). The bar keeps the network's word: its first checker is not
    at the tile's start."""
    return _settle_points(tiles, settle_trays(read), config)


def settle_trays(read: TilesRead) -> TilesRead:
    """Each player bears off into a tray of their own: when both trays hold checkers and the
    network calls them one colour, the tray it is less sure of takes the other. (A tray's
    checkers stand on edge, showing only their rims: the network tells the sets apart there
    less well than on the points.)"""
    trays = np.flatnonzero(tile_kinds(len(read.counts)) == TRAY)
    if len(trays) != 2 or read.light_p is None:
        return read
    if not (read.counts[trays] > 0).all() or read.light[trays[0]] != read.light[trays[1]]:
        return read
    doubt = np.abs(read.light_p[trays] - 0.5)
    light = read.light.copy()
    weaker = trays[int(np.argmin(doubt))]
    light[weaker] = not light[weaker]
    return replace(read, light=light)


def _settle_points(tiles: np.ndarray, read: TilesRead, config: VisionConfig) -> TilesRead:
    occupied = np.flatnonzero(read.counts[: min(24, len(tiles))] > 0)
    if len(occupied) < 2:
        return read
    colour = first_checker_colour(tiles, occupied)
    light = read.light[occupied]
    one_set = bool(light.all() or not light.any())
    if one_set:  # start the two groups from the lightest checker and the rest
        light = np.arange(len(occupied)) == colour[:, 0].argmax()
    for _ in range(config.colour_rounds):
        mean_light, mean_dark = colour[light].mean(axis=0), colour[~light].mean(axis=0)
        nearer_light = np.linalg.norm(colour - mean_light, axis=1) < np.linalg.norm(
            colour - mean_dark, axis=1
        )
        if nearer_light.all() or not nearer_light.any():
            return read
        if (nearer_light == light).all():
            break
        light = nearer_light
    # the groups' means as they stand (the last round may have moved a checker)
    mean_light, mean_dark = colour[light].mean(axis=0), colour[~light].mean(axis=0)
    apart = float(np.linalg.norm(mean_light - mean_dark))
    # the two groups' nearest checkers: one set in uneven light spreads without a gap
    gap = float(np.linalg.norm(colour[light][:, None] - colour[~light][None], axis=2).min())
    if apart < config.sets_apart or (one_set and gap < config.sets_gap):
        return read  # the sets look too alike here, or it is one set in uneven light
    if mean_light[0] < mean_dark[0]:  # L*: light is the lighter set, whatever the network said
        light = ~light
    settled = read.light.copy()
    settled[occupied] = light
    return replace(read, light=settled)
