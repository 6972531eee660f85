"""Read one frame of a calibrated board: every point, the bar, the trays, and whether the frame
can be trusted. ``BoardReader`` keeps the sampling maps of its profile, so a stream of frames
pays for them once; ``board_reader`` keeps the readers of the last few profiles, so callers
that are handed a profile with every frame (``detect_image``, a live table, a replay) do too."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cached_property, lru_cache

import numpy as np

from nardy.calibration import BoardProfile
from nardy.vision.bar_trays import (
    BarTraySampler,
    BarTrayTiles,
    bar_quiet,
    cap_trays,
    join,
    read_bar,
    read_trays,
    rows,
)
from nardy.vision.checkers import (
    MOST,
    TilesRead,
    fit_sides,
    lean_to_totals,
    read_tiles,
    settle_colours,
)
from nardy.vision.config import VisionConfig
from nardy.vision.hand_tiles import hand_probs
from nardy.vision.reading import BoardReading
from nardy.vision.sampler import Sampler
from nardy.vision.tall import TallSampler
from nardy.vision.usable import (
    FrameCheck,
    board_light,
    frame_intruder,
    hand_over_tiles,
    strips_gray,
    surface_glare,
)


@dataclass
class BoardReader:
    profile: BoardProfile
    config: VisionConfig = field(default_factory=VisionConfig)

    @cached_property
    def sampler(self) -> Sampler:
        return Sampler(self.profile, self.config)

    @cached_property
    def tall(self) -> TallSampler:
        return TallSampler(self.profile, self.config)

    @cached_property
    def bar_trays(self) -> BarTraySampler:
        return BarTraySampler(self.profile, self.config)

    @cached_property
    def check(self) -> FrameCheck:
        return FrameCheck(self.profile, self.config)

    def for_frame(self, frame: np.ndarray) -> BoardReader:
        size = (frame.shape[1], frame.shape[0])
        if size == self.profile.image_size:
            return self
        return board_reader(self.profile.for_size(size), self.config)

    def read(self, frame: np.ndarray, dice: Sequence[tuple[float, float]] = ()) -> BoardReading:
        """The board in ``frame``; ``dice`` are the image centres of dice found in it: the
        points they lie over are counted again closely (``points_under``)."""
        if frame.ndim != 3 or frame.shape[2] != 3:
            raise ValueError("a frame is a BGR colour image")
        reader = self.for_frame(frame)
        return reader._read(frame, reader.points_under(dice) if len(dice) else None)

    def points_under(self, centres: Sequence[tuple[float, float]]) -> np.ndarray:
        """Which of the 24 points (a mask) have one of ``centres`` (image pixels) on their
        strip: from the point's base to the middle of the board, within
        ``config.die_point_reach`` of half its width of its middle line."""
        under = np.zeros(24, bool)
        geometry = self.profile.geometry
        for x, y in self.profile.image_to_board(np.asarray(centres, float).reshape(-1, 2)):
            for n in range(1, 25):
                shape = geometry.point(n)
                bx, by = shape.base
                near = abs(x - bx) < self.config.die_point_reach * shape.width / 2
                under[n - 1] |= near and abs(y - by) < 0.5 and 0.0 <= y <= 1.0
        return under

    def _read(self, frame: np.ndarray, dice_over: np.ndarray | None = None) -> BoardReading:
        # everything that reads the frame itself first, one after the other, while its pixels
        # are still in the cache; then what works on the tiles
        tiles = self.sampler.sample(frame)
        whole = self.trays_in_view
        # the trays, when in view, with the bar's halves in the same remap; else the bar's
        # halves only when its network is asked (most frames the checker networks are sure
        # the bar is empty), a small remap of their own
        early = self.bar_trays.sample(frame, tiles.levels) if whole else None

        def own_tiles() -> BarTrayTiles:
            if early is not None:
                return early
            return self.bar_trays.sample(frame, tiles.levels, trays=False)

        checker_tiles = tiles.checker_tiles()
        strips = strips_gray(tiles.strip_row())
        # too dark to trust, but what can be read is read (the levels are stretched)
        light = board_light(strips, tiles.levels, self.config)
        judged = self.check.judge(
            frame,
            lambda: frame_intruder(
                self.sampler.band(frame, tiles.levels),
                self.sampler.band_sides,
                self.sampler.band_in_view,
                self.config,
            ),
            lambda: hand_over_tiles(
                hand_probs(checker_tiles[:26], self.config.hand_fine_from), self.config
            ),
            strips=strips,
        )
        glare = surface_glare(strips, tiles.raw_level(self.config.glare_level), self.config)
        verdicts = [light, glare, *judged]
        bad = [v for v in verdicts if not v.usable]
        read = self._checkers(
            checker_tiles,
            own_tiles,
            closer=lambda points: self.tall.sample(frame, points, tiles.levels),
            also=dice_over,
        )
        read = settle_colours(checker_tiles, read, self.config)
        if whole and self.config.checkers_per_side is not None:
            read = fit_sides(read, self.config.checkers_per_side, self.config.fit_doubt)
        elif whole:
            most = self.config.most_a_side
            if most is not None:
                read = cap_trays(read, most, self.config.fit_doubt)
            # a usable frame with the trays in view sees every checker: lean to a game's totals
            if not bad and self.config.total_lean > 0:
                read = lean_to_totals(
                    read, self.config.side_totals, self.config.total_lean, most or MOST
                )
        signed = np.where(read.light, read.counts, -read.counts)
        bar, bar_conf = _sides(read, slice(24, 26))
        off, off_conf = None, 0.0
        if whole:
            off, off_conf = _sides(read, slice(26, 28))
        return BoardReading(
            usable=not bad,
            why="; ".join(v.why for v in bad if v.why) or None,
            points=tuple(int(v) for v in signed[:24]),
            bar=bar,
            off=off,
            point_confidence=tuple(float(c) for c in read.confidence[:24]),
            bar_confidence=bar_conf,
            off_confidence=off_conf,
        )

    def _checkers(
        self,
        tiles: np.ndarray,
        own_tiles: Callable[[], BarTrayTiles],
        closer: Callable[[np.ndarray], np.ndarray],
        also: np.ndarray | None = None,
    ) -> TilesRead:
        """The points through the checker networks; the bar's halves through them and, unless
        those are sure the bar is empty (``bar_quiet``), the bar's own network, the two
        readings combined (``read_bar``); the trays, when in view, through their own network
        (``read_trays``). ``own_tiles`` samples the bar's and the trays' own tiles, asked
        only when they are read. The points ``also`` marks are counted closely too."""
        if also is not None:
            also = np.concatenate([also, np.zeros(2, bool)])
        shared = read_tiles(tiles[:26], config=self.config, closer=closer, also=also)
        bar = rows(shared, slice(24, 26))
        if not bar_quiet(bar, self.config.bar_quiet):
            bar = read_bar(own_tiles().bar, bar, shared_weight=self.config.bar_shared_weight)
        parts = [rows(shared, slice(0, 24)), bar]
        if self.trays_in_view:
            tiles_own = own_tiles()
            if tiles_own.trays is not None:
                parts.append(read_trays(tiles_own.trays, tiles_own.lifted))
        return join(*parts)

    @cached_property
    def trays_in_view(self) -> bool:
        trays = self.profile.geometry.trays
        if trays is None:
            return False
        w, h = self.profile.image_size
        for r in trays:
            pts = self.profile.board_to_image(
                [(r.x0, r.y0), (r.x1, r.y0), (r.x1, r.y1), (r.x0, r.y1)]
            )
            if (pts < 0).any() or (pts[:, 0] > w - 1).any() or (pts[:, 1] > h - 1).any():
                return False
        return True


def _sides(read: TilesRead, tiles: slice) -> tuple[tuple[int, int], float]:
    """Light's and dark's checkers over a pair of tiles (the bar's halves, the two trays),
    whichever tile each stands on, and the least confidence of the pair."""
    light = dark = 0
    for count, is_light in zip(read.counts[tiles], read.light[tiles], strict=True):
        if is_light:
            light += int(count)
        else:
            dark += int(count)
    return (light, dark), float(read.confidence[tiles].min())


@lru_cache(maxsize=4)  # a few tables' profiles; a new profile (the board found again) evicts
def board_reader(profile: BoardProfile, config: VisionConfig) -> BoardReader:
    """The reader of ``profile``, the same one while the profile stays the same: its maps
    (16–20 ms to build at 1280×720, `benchmarks/vision.py`) are made on the first frame only."""
    return BoardReader(profile, config)


def read_board(
    frame: np.ndarray, profile: BoardProfile, config: VisionConfig | None = None
) -> BoardReading:
    return board_reader(profile, config or VisionConfig()).read(frame)
