"""The bar and the bear-off trays, each sampled finer than the points and read by a network of
its own, trained from scratch on the renderer's photos (``scripts/train_bar_trays.py``).

A tray holds up to fifteen checkers standing on edge side by side: along the tray each is only
a fifth of a checker's width, a few pixels in the photo. The points' tiles (96 pixels from a
point's base to the middle of the board) sample a tray at a quarter of the photo's resolution
or less, so one checker more or less is a pixel or two of stack. Here each tray is sampled
along its length at about the photo's own resolution (``VisionConfig.tray_tile``, its outer
end first, where the checkers stand from), and ``tray_model.npz`` says how many stand there
(0–15) and whether they are light or dark. The bar's halves (from the middle of the board
outward) are sampled a little wider than the bar (``bar_context``): a die or the cube lying on
the bar, half on it or against its edge, is seen whole, and ``bar_model.npz`` learnt them as
no checker.

How the board reader uses them (``BoardReader._checkers``), chosen on held-out training renders
(320 boards of the training folders whose names fall in group 0, never trained on):
- the bar's halves are read by the checker networks and, unless those are sure the bar is
  empty (``bar_quiet``, ``VisionConfig.bar_quiet``), by the bar's network too, the two
  readings' probabilities multiplied (``read_bar``): 6 bars misread (checker networks alone
  9, the bar's alone 10; told 15 a side 4, 10 and 24, and 2 with the bar's always asked).
  Session 14: the bar's network trained again with scenes made for it (a checker beside the
  cube standing on the bar, dark checkers on dark bars, dice lying over the bar's checkers;
  ``train_bar_trays.py``'s docstring), the checker networks' probabilities taken at half
  weight (``bar_shared_weight``: their square root; they are surest where they miss a checker
  beside the cube) and ``bar_quiet`` 0.999;
- the trays by their own network, told the checkers a side or not: 38 trays misread where
  the checker networks misread 55 (on the fixtures it reads three trays fewer right than they
  did, 248 of 263 against 251; on the unseen looks as many, 51 of 59; held-out renders, not
  the fixtures, choose), and the fit to fifteen a side mends more with its probabilities;
- not told the checkers a side, a set read with more than fifteen has a tray read again
  within them (``cap_trays``, ``VisionConfig.most_a_side``); then, the frame usable, each
  side leans to fifteen (``checkers.lean_to_totals``, below).

Why a tray is misread by one or two: most stacks show no seam between their checkers, so what
the tile shows is the stack's length, a count times a thickness, and sets differ in thickness
(the renderer's from a fifth of the diameter to a quarter and more, with the board's shape):
13 thin checkers are as long as 12 thick ones. On held-out renders the network counted the
thin sets short and the thick ones long (of the misread stacks of 6 or more, 20 of 22 short
on the thinnest fifth of the shapes, 22 of 23 long on the thickest). Where the checkers are
told apart, their spacing is the thickness: ``rhythm`` measures how alike the stack is to
itself moved by a few pixels, and the trays' network takes it beside the tile. On 1,156
held-out tray tiles (group 0 of the training caches and of 132 renders made for the trays)
it misreads 88, the same training without it 97, the network before (fewer renders) 102.
Read by the whole board reader, held-out boards of real games (174), not told: 5 trays
misread (without the rhythm 8, before 6), 2 with ``cap_trays`` (4, 5); all 289 held-out
boards, 36 (before 39). Told the checkers a side, the fit to fifteen settles the rest; not
told, no set has more than fifteen all the same. What is left is sets read short.

The same network trained on 769 more of those renders (``trays9``, 2,728 tiles): of 1,428
held-out tiles (the 1,156 and group 0 of the new) it misreads 134 where the one before did
149 (mean log-loss 0.26 against 0.31), and it reads an empty tray as one checker less
readily (at most 0.19 against 0.47). On 179 held-out boards of real games both misread 2
trays not told. Tried and not kept: each tray read with the other tray's rhythm beside its
own (the two sets are one thickness, and one tray's seams may show where the other's do
not): 153 tiles misread.

Each tray is also read from a second view (``trays10``): the tray seen at the height of the
tops of the checkers standing in it (a checker's diameter above its floor, ``tray_lift``),
where the camera's pose, recovered from the corners (``camera.camera_pose``), puts them
(``lifted_to_image``). At the floor a stack is seen displaced by its height, away from the
point under the camera, by up to a few checkers' thickness: cut off at the tray's outer end or
drawn out beyond its inner end as the camera stands. At its checkers' height a stack starts at
the tray's end whatever the view. A network of the same shape trained on those tiles
(``tray_lift_model.npz``) and the floor's, their probabilities' geometric mean: of the 1,428
held-out tiles 102 misread (the floor's alone 134, the lifted alone 136; mean log-loss 0.207,
0.265, 0.246). The lifted view alone halves the misread stacks of sets of middling thickness
(23 → 12 of 82) and of 1–3 checkers (23 → 14), and reads the thinnest and thickest fifths
worse (38 → 46, 28 → 35): with the length read more surely, what is left is the thickness.
Measuring it from the checkers on the points does not help: they show their diameter, and the
renderer's thickness ranges from a fifth of the diameter to 0.26 of it, a wider spread than
against the tray's length (0.036-0.040 of it), which the tile already measures by.

What the tile cannot tell, the game can (``checkers.lean_to_totals``, session 11): every game
the companion plays has fifteen checkers a side (hypergammon three), and a usable frame with the
trays in view sees all of them, on the points, the bar or in a tray. Not told the game, each
side's counts are read as the most probable under a prior that favours those totals by
``VisionConfig.total_lean`` nats (2.5) over any other: a stack read a checker short, where one
more is a little less likely, makes its side fifteen; a reading that only a costlier change
makes fifteen is kept (a checker out of view, a position off the rules). On 440 held-out renders
of real games (401 with the trays in view) it mends 14 trays and 17 boards and makes none wrong
(told fifteen: 16 trays mended and one made wrong, 23 boards); of 60 renders off the rules none
changes (told fifteen, 9 boards made wrong).

Both networks are ``tinynet`` patch classifiers whose first layer (a ``stem``) reads the tile
in 4 × 4 blocks, so they cost a fraction of a millisecond a frame. The tiles come from one
small remap of their own, with the levels the points' tiles were stretched by.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path

import cv2
import numpy as np

from nardy.calibration import BoardProfile
from nardy.vision import tinynet
from nardy.vision.camera import camera_centre, camera_pose
from nardy.vision.checkers import MOST, TilesRead, agreed, as_read, light_and_dark
from nardy.vision.config import VisionConfig
from nardy.vision.sampler import grid

TRAY_WEIGHTS = Path(__file__).with_name("tray_model.npz")
TRAY_LIFT_WEIGHTS = Path(__file__).with_name("tray_lift_model.npz")
BAR_WEIGHTS = Path(__file__).with_name("bar_model.npz")


@dataclass(frozen=True)
class BarTrayTiles:
    bar: np.ndarray  # 2 × length × width × 3 (top half, bottom half), uint8 BGR
    trays: np.ndarray | None  # 2 × length × width × 3 (bottom tray, top tray); None: no trays
    # the same trays seen at the height of their checkers' tops (``tray_lift``), or None
    lifted: np.ndarray | None = None


@dataclass(frozen=True)
class BarTraySampler:
    """The bar's halves and the trays of ``profile``, sampled finer than the points."""

    profile: BoardProfile
    config: VisionConfig = field(default_factory=VisionConfig)

    def bar_coords(self) -> list[np.ndarray]:
        """The bar's two halves (top, bottom), each from the middle of the board outward,
        ``bar_context`` of the bar's width wider on each side."""
        left, right = self.profile.geometry.bar
        wide = (right - left) * self.config.bar_context
        x0, x1 = left - wide, right + wide
        size = self.config.bar_tile
        return [grid(x0, x1, 0.5, 0.0, size), grid(x0, x1, 0.5, 1.0, size)]

    def tray_coords(self) -> list[np.ndarray] | None:
        """The trays (bottom, top), each from its outer end inward, ``tray_margin`` of its
        length beyond each end (a measured tray's ends are not exact)."""
        trays = self.profile.geometry.trays
        if trays is None:
            return None
        size = self.config.tray_tile
        m = self.config.tray_margin
        out = []
        for which, r in enumerate(trays):
            dy, dx = r.height * m, r.width * m
            ends = (r.y1 + dy, r.y0 - dy) if which == 0 else (r.y0 - dy, r.y1 + dy)
            out.append(grid(r.x0 - dx, r.x1 + dx, *ends, size))
        return out

    @cached_property
    def _maps(self) -> tuple[np.ndarray, np.ndarray, int]:
        """One map for all four tiles, laid one under the other (each rotated so that it
        runs along the map's rows: the tiles' widths differ from their lengths), and where
        the bar's part ends. The trays twice: at their floor, then ``tray_lift`` checkers
        above it, where the tops of the checkers standing in them are (``lifted_to_image``)."""
        bar = [t.transpose(1, 0, 2) for t in self.bar_coords()]
        trays = [t.transpose(1, 0, 2) for t in (self.tray_coords() or [])]
        width = max(t.shape[1] for t in bar + trays)

        def laid(tiles: list[np.ndarray]) -> np.ndarray:
            pad = [np.pad(t, ((0, 0), (0, width - t.shape[1]), (0, 0)), mode="edge") for t in tiles]
            return np.concatenate(pad).reshape(-1, 2)

        parts = [self.profile.board_to_image(laid(bar))]
        if trays:
            parts.append(self.profile.board_to_image(laid(trays)))
            geometry = self.profile.geometry
            height = self.config.tray_lift * geometry.checker * geometry.point_width
            parts.append(lifted_to_image(self.profile, laid(trays), height))
        src = np.concatenate(parts).astype(np.float32).reshape(-1, width, 2)
        m1, m2 = cv2.convertMaps(src, None, cv2.CV_16SC2)
        return m1, m2, sum(len(t) for t in bar)

    @cached_property
    def has_trays(self) -> bool:
        return self.profile.geometry.trays is not None

    def sample(
        self, frame: np.ndarray, levels: tuple[float, float] = (0.0, 1.0), trays: bool = True
    ) -> BarTrayTiles:
        """The tiles of ``frame``, levels stretched as ``levels`` (black level, gain) say:
        those the points' tiles were stretched by (``Tiles.levels``); the trays only with
        ``trays`` (the caller knows whether they are in view)."""
        m1, m2, split = self._maps
        trays = trays and self.has_trays
        if not trays:
            m1, m2 = m1[:split], m2[:split]
        mosaic = cv2.remap(frame, m1, m2, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        lo, gain = levels
        if gain != 1.0 or lo:
            mosaic = cv2.convertScaleAbs(mosaic, alpha=gain, beta=-lo * gain)
        bar_w, bar_l = self.config.bar_tile[1], self.config.bar_tile[0]
        bar = mosaic[:split, :bar_l].reshape(2, bar_w, bar_l, 3).transpose(0, 2, 1, 3)
        if not trays:
            return BarTrayTiles(bar, None)
        tray_l, tray_w = self.config.tray_tile
        four = mosaic[split:, :tray_l].reshape(4, tray_w, tray_l, 3).transpose(0, 2, 1, 3)
        return BarTrayTiles(bar, four[:2], four[2:])


def lifted_to_image(profile: BoardProfile, points: np.ndarray, height: float) -> np.ndarray:
    """Where board points (x, y: the surface's coordinates) seen ``height`` above the surface
    (a share of its width) lie in the image: the camera's pose recovered from the profile's
    homography (``camera.camera_pose``). At height 0 it is ``profile.board_to_image``."""
    aspect = profile.geometry.aspect
    to_plane = np.diag([1.0, aspect, 1.0]) @ profile.h  # the plane's units: the width is 1
    size = profile.image_size
    f, pose = camera_pose(to_plane, size)
    r3 = np.cross(pose[:, 0], pose[:, 1])
    centre = camera_centre(pose)
    up = np.sign(centre[2]) or 1.0  # towards the camera
    k = np.array([[f, 0, size[0] / 2], [0, f, size[1] / 2], [0, 0, 1.0]])
    lift = k @ np.stack([pose[:, 0], pose[:, 1] * aspect, pose[:, 2] + up * height * r3], axis=1)
    pts = np.asarray(points, np.float64).reshape(-1, 1, 2)
    out = cv2.perspectiveTransform(pts, lift).reshape(-1, 2)
    if profile.lens is not None:
        out = profile.lens.distort_points(out)
    return out


def network_input(tiles: np.ndarray, across: int = 1) -> np.ndarray:
    """Tiles (n × length × width × 3, uint8) as the networks take them: every ``across``
    pixels across averaged into one (a tray's checkers are told apart along it, not across)."""
    n, length, width, _ = tiles.shape
    x = tiles.astype(np.float32)
    if across > 1:
        x = x.reshape(n, length, width // across, across, 3).mean(axis=3)
    x -= 128.0
    x /= 64.0
    return x


#: the shifts along a tray (tile pixels) at which ``rhythm`` compares its profile with itself:
#: a checker on edge is 6-8 of them (more the thicker the set), two of them twice that
RHYTHM_LAGS = range(4, 25)


def rhythm(x: np.ndarray) -> np.ndarray:
    """How alike each tile's profile along (its middle half across, light bands between
    checkers kept by a difference of a 3- and an 11-pixel mean) is to itself moved by each
    of ``RHYTHM_LAGS`` pixels (autocorrelation, 1 unmoved). A stack whose checkers are told
    apart has a peak at its thickness: what sets 13 thin checkers apart from 12 thick ones,
    the same length. x: n × length × width × 3, any levels."""
    n, length, width = x.shape[:3]
    middle = slice(width // 4, 3 * width // 4)
    # the mean across, one column per tile and colour (cv2 is many times numpy's speed here)
    profile = np.concatenate(
        [
            cv2.resize(t[:, middle].astype(np.float32), (1, length), interpolation=cv2.INTER_AREA)
            for t in x
        ],
        axis=1,
    ).reshape(length, -1)
    band = cv2.blur(profile, (1, 3), borderType=cv2.BORDER_REPLICATE)
    band -= cv2.blur(profile, (1, 11), borderType=cv2.BORDER_REPLICATE)
    f = np.fft.rfft(band, 2 * length, axis=0)  # zero-padded: no wrapping round
    acf = np.fft.irfft(f.real**2 + f.imag**2, 2 * length, axis=0)[: max(RHYTHM_LAGS) + 1]
    acf = acf.reshape(-1, n, 3).sum(axis=2)
    return (acf[list(RHYTHM_LAGS)] / np.maximum(acf[:1], 1e-6)).T.astype(np.float32)


def read_with(tiles: np.ndarray, weights: Path) -> TilesRead:
    """Counts (0–15) and colours of tiles through one of the two networks."""
    net = tinynet.load(weights)
    across = int(net["across"]) if "across" in net else 1
    extra = rhythm(tiles) if "rhythm" in net else None
    out = tinynet.forward(net, network_input(tiles, across), extra)
    count_p = tinynet.softmax(out[:, : MOST + 1])
    return as_read(count_p, tinynet.softmax(out[:, MOST + 1 : MOST + 3])[:, 0])


def bar_quiet(shared: TilesRead, sure: float) -> bool:
    """Whether the checker networks are at least ``sure`` that both halves of the bar are
    empty: then the bar's own network is not asked (``VisionConfig.bar_quiet``)."""
    return bool((shared.counts == 0).all() and (shared.count_p[:, 0] >= sure).all())


def read_bar(
    tiles: np.ndarray,
    shared: TilesRead | None = None,
    weights: Path = BAR_WEIGHTS,
    shared_weight: float = 1.0,
) -> TilesRead:
    """The bar's halves (top, bottom) through the bar's network, and when given ``shared``
    (the checker networks' reading of the same halves in the points' tiles), both: the
    product of their probabilities, each taken as a witness of its own, the checker
    networks' raised to ``shared_weight`` (``VisionConfig.bar_shared_weight``). On 320
    held-out training renders the two together misread 6 bars, the bar's network alone 10,
    the checker networks alone 9 (they err on different boards: a die, the cube, a checker
    half hidden); told 15 a side, 2, 24 and 10 (the product keeps each one's certainty: a
    mean of the two halves it, and the fit then puts missing checkers on the bar too
    cheaply). The checker networks are the surer of the two where they are wrong (a checker
    beside the cube, a dark checker on a dark bar, read empty at 0.99 and more): taken at a
    lesser weight, the bar's network, trained on such bars, outvotes them."""
    own = read_with(tiles, weights)
    if shared is None:
        return own
    return witnessed(own, shared, shared_weight)


def witnessed(own: TilesRead, shared: TilesRead, shared_weight: float = 1.0) -> TilesRead:
    """Two readings of the same tiles as one: their count probabilities multiplied, the
    second's raised to ``shared_weight`` first (below 1 it counts for less: its certainty is
    taken down), their colours' multiplied."""
    if shared.light_p is None or own.light_p is None:
        return own
    count_p = own.count_p * shared.count_p**shared_weight
    count_p /= count_p.sum(axis=1, keepdims=True)
    light = light_and_dark(own.light_p) * light_and_dark(shared.light_p)
    return as_read(count_p, light[:, 0] / light.sum(axis=1))


def read_trays(
    tiles: np.ndarray,
    lifted: np.ndarray | None = None,
    weights: Path = TRAY_WEIGHTS,
    lifted_weights: Path = TRAY_LIFT_WEIGHTS,
) -> TilesRead:
    """The trays (bottom, top) through the trays' network, and when given ``lifted`` (the same
    trays seen at their checkers' height, ``BarTrayTiles.lifted``) through that view's network
    too: the geometric mean of the two readings' probabilities."""
    floor = read_with(tiles, weights)
    if lifted is None:
        return floor
    top = read_with(lifted, lifted_weights)
    if floor.light_p is None or top.light_p is None:
        return floor
    light = agreed(light_and_dark(floor.light_p), light_and_dark(top.light_p))
    return as_read(agreed(floor.count_p, top.count_p), light[:, 0])


def rows(read: TilesRead, which: slice) -> TilesRead:
    """The reading of some of the tiles."""
    light_p = None if read.light_p is None else read.light_p[which]
    return TilesRead(
        read.counts[which],
        read.light[which],
        read.confidence[which],
        read.count_p[which],
        light_p,
    )


def join(*reads: TilesRead) -> TilesRead:
    """Readings of tiles one after the other, as one."""
    light_p = None
    if all(r.light_p is not None for r in reads):
        light_p = np.concatenate([r.light_p for r in reads])
    return TilesRead(
        np.concatenate([r.counts for r in reads]),
        np.concatenate([r.light for r in reads]),
        np.concatenate([r.confidence for r in reads]),
        np.concatenate([r.count_p for r in reads]),
        light_p,
    )


def cap_trays(read: TilesRead, most: int, most_doubt: float = float("inf")) -> TilesRead:
    """A whole board's reading (points, the bar's halves, the trays last) in which no set has
    more than ``most`` checkers: a set read with more (a tray's stack read a checker long) has
    its tray read again as the likeliest count that brings it down to ``most``, unless that
    gives up more than ``most_doubt`` of log-probability (nats) against the tray's reading.
    No game has more than fifteen a side, so this holds whatever is played; a set read short
    is left as it is (its missing checkers may stand out of view, and how many a game has is
    not told)."""
    trays = len(read.counts) - 2, len(read.counts) - 1
    counts, conf = read.counts.copy(), read.confidence.copy()
    for side in (read.light, ~read.light):
        over = int(counts[side].sum()) - most
        held = [t for t in trays if side[t] and counts[t] > 0]
        if over <= 0 or not held:
            continue
        # the tray whose reading gives up least to come down (of both when they are one colour)
        best = None
        for t in held:
            fewer = counts[t] - over
            if fewer < 0:
                continue
            c = int(read.count_p[t, : fewer + 1].argmax())
            lost = np.log(read.count_p[t, counts[t]] / max(read.count_p[t, c], 1e-12))
            if lost <= most_doubt and (best is None or lost < best[0]):
                best = (lost, t, c)
        if best is not None:
            _, t, c = best
            counts[t], conf[t] = c, read.count_p[t, c]
    return replace(read, counts=counts, confidence=conf)
