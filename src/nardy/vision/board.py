"""Read one frame of a calibrated board: every point, the bar, the trays, and whether the frame
can be trusted. ``BoardReader`` keeps the sampling maps of its profile, so a stream of frames
pays for them once."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from nardy.calibration import BoardProfile
from nardy.vision.bar import read_bar, read_tray
from nardy.vision.config import VisionConfig
from nardy.vision.points import read_points
from nardy.vision.reading import BoardReading
from nardy.vision.sampler import Sampler
from nardy.vision.usable import frame_intruder, frame_light, surface_glare


@dataclass
class BoardReader:
    profile: BoardProfile
    config: VisionConfig = field(default_factory=VisionConfig)

    @cached_property
    def sampler(self) -> Sampler:
        return Sampler(self.profile, self.config)

    def for_frame(self, frame: np.ndarray) -> BoardReader:
        size = (frame.shape[1], frame.shape[0])
        if size == self.profile.image_size:
            return self
        return BoardReader(self.profile.for_size(size), self.config)

    def read(self, frame: np.ndarray) -> BoardReading:
        if frame.ndim != 3 or frame.shape[2] != 3:
            raise ValueError("a frame is a BGR colour image")
        reader = self.for_frame(frame)
        return reader._read(frame)

    def _read(self, frame: np.ndarray) -> BoardReading:
        light = frame_light(frame, self.config)
        if not light.usable:
            return BoardReading.unusable(light.why or "too dark")
        tiles = self.sampler.sample(frame)
        g = self.profile.geometry
        strips = tiles.strips()
        pts = read_points(
            tiles.strips(lab=True), tiles.layout, g.point_length, g.aspect, self.config
        )
        verdicts = [
            surface_glare(strips, tiles.raw_level(self.config.glare_level), self.config),
            frame_intruder(
                tiles.get("band", lab=True),
                self.sampler.band_sides,
                self.sampler.band_in_view,
                self.config,
            ),
        ]
        bad = [v for v in verdicts if not v.usable]
        checker = tiles.layout.checker
        bar = read_bar(
            tiles.get("bar", lab=True), checker, pts.light_lab, pts.dark_lab, self.config
        )
        off, off_conf = None, 0.0
        if self._trays_in_view:
            trays = [
                read_tray(
                    tiles.get(f"tray{i}", lab=True),
                    checker,
                    pts.light_lab,
                    pts.dark_lab,
                    self.config,
                )
                for i in (0, 1)
            ]
            off = (sum(t.light for t in trays), sum(t.dark for t in trays))
            off_conf = min(t.confidence for t in trays)
        return BoardReading(
            usable=not bad,
            why="; ".join(v.why for v in bad if v.why) or None,
            points=pts.counts,
            bar=(bar.light, bar.dark),
            off=off,
            point_confidence=pts.confidence,
            bar_confidence=bar.confidence,
            off_confidence=off_conf,
        )

    @cached_property
    def _trays_in_view(self) -> bool:
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


def read_board(
    frame: np.ndarray, profile: BoardProfile, config: VisionConfig | None = None
) -> BoardReading:
    return BoardReader(profile, config or VisionConfig()).read(frame)
