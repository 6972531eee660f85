"""One remap from the raw frame to every region the reader looks at, laid side by side.

Each point becomes a straight strip running from its base at the frame toward the middle of the
board, in pixels of equal size along and across (so a checker is round in every strip). The
bar, the trays and the band of frame around the surface get their own tiles. Building all of it
in a single ``cv2.remap`` from the raw frame (lens correction and homography folded into the
map) is what keeps a frame's reading within a few milliseconds. The band, looked at only when
the frame is in doubt, is planned with the rest and remapped apart, when asked for (``band``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

import cv2
import numpy as np

from nardy.calibration import BoardProfile
from nardy.vision.config import VisionConfig
from nardy.vision.stats import percentiles

#: The tiles the checker reader sees, in this order: the 24 points, the bar's two halves (top,
#: bottom of the surface as it lies in the image), the two trays (bottom, top) when in view.
BAR_TILES = ("bar_top", "bar_bottom")
TRAY_TILES = ("tray0", "tray1")


def grid(x0: float, x1: float, y0: float, y1: float, size: tuple[int, int]) -> np.ndarray:
    """Board coordinates (length × width × 2, pixel centres) of a tile of ``size`` (length,
    width) pixels running from ``y0`` to ``y1`` along and across ``x0``..``x1``."""
    length, width = size
    u = x0 + (np.arange(width) + 0.5) * (x1 - x0) / width
    t = y0 + (np.arange(length) + 0.5) * (y1 - y0) / length
    uu, tt = np.meshgrid(u, t)
    return np.stack([uu, tt], -1)


@dataclass(frozen=True)
class Layout:
    """Sizes (pixels) of the tiles; ``px`` is the length of one pixel across a point, in board
    x units (the frame's band is sampled at that pitch)."""

    strip_w: int  # across a point, the bar, a tray
    strip_l: int  # along: a point's base to the middle of the board, the bar's middle to its end
    px: float


@dataclass(frozen=True)
class Sampler:
    profile: BoardProfile
    config: VisionConfig = field(default_factory=VisionConfig)

    @cached_property
    def layout(self) -> Layout:
        g = self.profile.geometry
        c = self.config
        return Layout(c.strip_pixels, c.strip_length, g.point_width / c.strip_pixels)

    def _tile(self, x0: float, x1: float, y0: float, y1: float) -> np.ndarray:
        """Board coordinates (strip_l × strip_w × 2) of a tile running from the edge at ``y0``
        to ``y1``, across ``x0``..``x1``: every tile has the same size in pixels, whatever the
        board's proportions, so one network reads them all."""
        return grid(x0, x1, y0, y1, (self.layout.strip_l, self.layout.strip_w))

    def strip_coords(self, number: int) -> np.ndarray:
        """Point ``number``'s strip, from its base at the frame to the middle of the board."""
        shape = self.profile.geometry.point(number)
        x, y = shape.base
        half = shape.width / 2
        return self._tile(x - half, x + half, y, 0.5)

    def bar_coords(self) -> list[np.ndarray]:
        """The bar's two halves (top, bottom), each from the middle of the board outward."""
        left, right = self.profile.geometry.bar
        return [self._tile(left, right, 0.5, 0.0), self._tile(left, right, 0.5, 1.0)]

    def tray_coords(self, which: int) -> np.ndarray | None:
        """Tray ``which`` (0 the bottom one, 1 the top), from its outer end inward (checkers
        stand on edge from there)."""
        trays = self.profile.geometry.trays
        if trays is None:
            return None
        r = trays[which]
        if which == 0:
            return self._tile(r.x0, r.x1, r.y1, r.y0)
        return self._tile(r.x0, r.x1, r.y0, r.y1)

    @cached_property
    def band_sides(self) -> tuple[tuple[int, int], ...]:
        """Where the band's four sides (top, right, bottom, left) start and end along it."""
        n_x = round(1.0 / self.layout.px)
        n_y = round(self.profile.geometry.aspect / self.layout.px)
        edges = np.cumsum([0, n_x, n_y, n_x, n_y])
        return tuple((int(edges[i]), int(edges[i + 1])) for i in range(4))

    @cached_property
    def band_in_view(self) -> np.ndarray:
        """Which columns of the band fall inside the image (a board partly out of the picture
        shows only part of its frame)."""
        band = self.band_coords()
        pts = self.profile.board_to_image(band.reshape(-1, 2)).reshape(band.shape)
        w, h = self.profile.image_size
        inside = (
            (pts[..., 0] >= 0)
            & (pts[..., 0] <= w - 1)
            & (pts[..., 1] >= 0)
            & (pts[..., 1] <= h - 1)
        )
        return inside.all(axis=0)

    def band_coords(self) -> np.ndarray:
        """A thin band of frame all round the surface, as one long row (band × n × 2). On the
        trays' side it runs beyond the trays: between the surface and the trays the frame is
        narrow, and checkers in a tray (a stack borne off leans in the picture) lie over it."""
        lay = self.layout
        g = self.profile.geometry
        a, b = self.config.frame_band
        steps = 6
        depth = np.linspace(a, b, steps)
        n_x = round(1.0 / lay.px)
        n_y = round(g.aspect / lay.px)
        xs = (np.arange(n_x) + 0.5) / n_x
        ys = (np.arange(n_y) + 0.5) / n_y
        dy = depth / g.aspect
        right_x, left_x = 1.0, 0.0
        if g.trays is not None:
            if min(t.x0 for t in g.trays) > 0.5:
                right_x = max(t.x1 for t in g.trays)
            else:
                left_x = min(t.x0 for t in g.trays)
        top = np.stack(np.broadcast_arrays(xs[:, None], -dy[None, :]), -1)
        right = np.stack(np.broadcast_arrays(right_x + depth[None, :], ys[:, None]), -1)
        bottom = np.stack(np.broadcast_arrays(xs[::-1, None], 1 + dy[None, :]), -1)
        left = np.stack(np.broadcast_arrays(left_x - depth[None, :], ys[::-1, None]), -1)
        return np.concatenate([top, right, bottom, left], 0).transpose(1, 0, 2)

    @cached_property
    def _regions(self) -> dict[str, list[tuple[int, int, int, int]]]:
        """Where each tile's pieces sit in the mosaic: name → [(y, x, h, w), ...]."""
        return self._plan()[0]

    def _plan(self) -> tuple[dict[str, list[tuple[int, int, int, int]]], np.ndarray]:
        """A compact mosaic (remapping costs by the pixel): the strips, the bar's two halves and
        the trays side by side on one shelf, the long thin band of frame wrapped below."""
        shelf: list[tuple[str, np.ndarray]] = [
            (f"p{n}", self.strip_coords(n)) for n in range(1, 25)
        ]
        shelf += list(zip(BAR_TILES, self.bar_coords(), strict=True))
        for name, i in zip(TRAY_TILES, (0, 1), strict=True):
            t = self.tray_coords(i)
            if t is not None:
                shelf.append((name, t))
        band = self.band_coords()
        shelf_h = max(t.shape[0] for _, t in shelf)
        width = sum(t.shape[1] for _, t in shelf)
        chunks = [band[:, i : i + width] for i in range(0, band.shape[1], width)]
        height = shelf_h + band.shape[0] * len(chunks)
        mosaic = np.full((height, width, 2), -10.0)
        regions: dict[str, list[tuple[int, int, int, int]]] = {}
        x = 0
        for name, t in shelf:
            h, w = t.shape[:2]
            mosaic[:h, x : x + w] = t
            regions.setdefault(name, []).append((0, x, h, w))
            x += w
        y = shelf_h
        for c in chunks:
            h, w = c.shape[:2]
            mosaic[y : y + h, :w] = c
            regions.setdefault("band", []).append((y, 0, h, w))
            y += h
        return regions, mosaic

    @cached_property
    def _maps(self) -> tuple[tuple[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]:
        """The maps of the shelf (every frame) and of the band below it (only when the band
        is looked at, ``band``)."""
        _, mosaic = self._plan()
        h, w = mosaic.shape[:2]
        src = self.profile.board_to_image(mosaic.reshape(-1, 2)).astype(np.float32)
        m1, m2 = cv2.convertMaps(src.reshape(h, w, 2), None, cv2.CV_16SC2)
        shelf = self._shelf_height
        return (m1[:shelf], m2[:shelf]), (m1[shelf:], m2[shelf:])

    @cached_property
    def _shelf_height(self) -> int:
        return min(y for y, _, _, _ in self._regions["band"])

    @cached_property
    def _shelf_regions(self) -> dict[str, list[tuple[int, int, int, int]]]:
        return {k: v for k, v in self._regions.items() if k != "band"}

    @cached_property
    def _level_mask(self) -> np.ndarray:
        """The bytes of a row of the points' strips the levels are taken from (every colour
        of every third pixel), for each of every third row."""
        _, _, h, w = self._regions["p1"][0]
        mask = np.zeros((len(range(0, h, 3)), 24 * w, 3), np.uint8)
        mask[:, ::3] = 1
        return mask.reshape(len(mask), -1)

    def sample(self, frame: np.ndarray, stretch: bool = True) -> Tiles:
        """The tiles of ``frame`` (but the band, ``band``); with ``stretch``, levels stretched
        so that the board spans the full range (a dim or low-contrast photo reads like a
        bright one)."""
        (m1, m2), _ = self._maps
        mosaic = cv2.remap(frame, m1, m2, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        lo, gain = 0.0, 1.0
        if stretch:
            _, x0, h, w = self._regions["p1"][0]
            # every third row of the points' strips, a byte a column
            shelf = mosaic[:h:3, x0 : x0 + 24 * w].reshape(len(self._level_mask), -1)
            counts = cv2.calcHist([shelf], [0], self._level_mask, [256], [0, 256])
            lo, hi = percentiles(counts, (1.0, 99.5))
            if hi - lo > 8:
                gain = 255.0 / (hi - lo)
                mosaic = cv2.convertScaleAbs(mosaic, alpha=gain, beta=-lo * gain)
            else:
                lo = 0.0
        return Tiles(mosaic, self._shelf_regions, self.layout, (float(lo), float(gain)))

    def band(self, frame: np.ndarray, levels: tuple[float, float] = (0.0, 1.0)) -> np.ndarray:
        """The band of frame round the surface in L*a*b* (``band_coords``, as one long row),
        its levels stretched as the tiles' were (``Tiles.levels``): sampled apart from the
        tiles, only when the band is looked at (``usable.frame_intruder``)."""
        _, (m1, m2) = self._maps
        rows = cv2.remap(frame, m1, m2, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        lo, gain = levels
        if gain != 1.0 or lo:
            rows = cv2.convertScaleAbs(rows, alpha=gain, beta=-lo * gain)
        top = self._shelf_height
        pieces = [rows[y - top : y - top + h, x : x + w] for y, x, h, w in self._regions["band"]]
        return to_lab(np.concatenate(pieces, axis=1))


@dataclass(frozen=True)
class Tiles:
    mosaic: np.ndarray
    regions: dict[str, list[tuple[int, int, int, int]]]
    layout: Layout
    levels: tuple[float, float] = (0.0, 1.0)  # the stretch applied: (black level, gain)

    def raw_level(self, level: float) -> float:
        """Where a grey level of the camera's frame lies in the stretched tiles."""
        lo, gain = self.levels
        return (level - lo) * gain

    def get(self, name: str, lab: bool = False) -> np.ndarray | None:
        """A tile, its pieces joined again (the band's pieces end to end); in L*a*b* with
        ``lab``."""
        if name not in self.regions:
            return None
        pieces = [self.mosaic[y : y + h, x : x + w] for y, x, h, w in self.regions[name]]
        tile = pieces[0] if len(pieces) == 1 else np.concatenate(pieces, axis=1)
        return to_lab(tile) if lab else tile

    def strip_row(self) -> np.ndarray:
        """The 24 point strips side by side as the mosaic holds them (strip_l × 24 strip_w ×
        3, a view: no copy)."""
        return self._row(24)

    def checker_tiles(self) -> np.ndarray:
        """Every tile the checker reader sees, in order: the 24 points, the bar's halves, the
        trays when in view (n × strip_l × strip_w × 3)."""
        count = 26 + sum(t in self.regions for t in TRAY_TILES)
        w = self.regions["p1"][0][3]
        block = self._row(count)
        return block.reshape(len(block), count, w, -1).transpose(1, 0, 2, 3)

    def _row(self, count: int) -> np.ndarray:
        _, x0, h, w = self.regions["p1"][0]
        return self.mosaic[:h, x0 : x0 + count * w]


def to_lab(bgr: np.ndarray) -> np.ndarray:
    """BGR uint8 → L*a*b* float32 with L in 0..100."""
    lab = cv2.cvtColor(np.ascontiguousarray(bgr), cv2.COLOR_BGR2Lab).astype(np.float32)
    lab[..., 0] *= 100.0 / 255.0
    lab[..., 1:] -= 128.0
    return lab
