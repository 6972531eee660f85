"""Motion between frames and a "still" signal with hysteresis: the referee acts only on a board
that has stayed still.

Stillness starts only after several quiet frames in a row and ends at once on one frame with
real motion (or one that is not usable), so a hand that pauses over the board for a frame does
not make a still board, and sensor noise does not break one. Nor does it start while the
picture's edge differs from the last still board's: an arm always reaches in from beyond the
picture, so a hand paused in view, however little of it shows, changes the edge it crossed,
while a checker moved or a die thrown on the board leaves the edges as they were.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from nardy.vision.config import VisionConfig

SMALL = (160, 96)  # motion is measured on a small grey copy: noise averages out, and it is fast


def motion_image(frame: np.ndarray) -> np.ndarray:
    """The small, smoothed grey copy of a frame that motion is measured on."""
    gray = frame if frame.ndim == 2 else cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    small = cv2.resize(gray, SMALL, interpolation=cv2.INTER_AREA)
    return cv2.GaussianBlur(small, (3, 3), 0).astype(np.int16)


def motion_between(a: np.ndarray, b: np.ndarray, config: VisionConfig) -> float:
    """The share of pixels that changed between two motion images, in the part of the picture
    where most changed (a grid of ``motion_cells``): a hand's fingertips coming into view at
    an edge are a small share of the whole picture but a clear one of its corner, while sensor
    noise is spread evenly."""
    moved = (np.abs(a - b) > config.motion_pixel).astype(np.float32)
    rows, cols = config.motion_cells
    h, w = moved.shape
    cells = moved[: h - h % rows, : w - w % cols].reshape(rows, h // rows, cols, w // cols)
    return float(cells.mean(axis=(1, 3)).max())


def border_change(a: np.ndarray, b: np.ndarray, config: VisionConfig) -> float:
    """The share of the picture's outer ring (``border_ring`` pixels of the motion image deep)
    that changed between two motion images, on the side where most changed."""
    k = config.border_ring
    moved = np.abs(a - b) > config.motion_pixel
    sides = (moved[:k], moved[-k:], moved[:, :k], moved[:, -k:])
    return float(max(side.mean() for side in sides))


@dataclass(frozen=True)
class StillState:
    """What the tracker says after a frame: the motion measured and whether the board is still."""

    motion: float
    still: bool
    quiet: int  # quiet frames in a row so far
    changed: bool  # the still signal flipped on this frame


@dataclass
class StillnessTracker:
    """Feed it frames in order; it says after each whether the board is still.

    Besides motion between frames it keeps the last still view: a board that has gone quiet
    but whose picture's edge looks different from it (an arm reaching in, or a hand resting
    over the board at the end of one) is not still yet; after a long quiet (``settle_frames``)
    the new view is accepted all the same (the light changed). Inside the edge any change is
    accepted as soon as it is quiet: checkers moved, dice thrown, a board set up afresh for the
    next game all change much of the picture and nothing of its edge.
    """

    config: VisionConfig = field(default_factory=VisionConfig)
    _last: np.ndarray | None = None
    _reference: np.ndarray | None = None
    _quiet: int = 0
    _still: bool = False

    def update(self, frame: np.ndarray, usable: bool = True) -> StillState:
        cfg = self.config
        small = motion_image(frame)
        motion = 1.0 if self._last is None else motion_between(small, self._last, cfg)
        self._last = small
        was = self._still
        ref = self._reference
        # an arm reaching in over the picture's edge ends stillness even before it moves much
        reaching = (
            self._still and ref is not None and border_change(small, ref, cfg) > cfg.border_max
        )
        if not usable or motion > cfg.motion_high or reaching:
            self._quiet = 0
            self._still = False
        elif motion < cfg.motion_low:
            self._quiet += 1
            if not self._still and self._quiet >= cfg.still_frames:
                changed = ref is not None and border_change(small, ref, cfg) > cfg.border_max
                if not changed or self._quiet >= cfg.settle_frames:
                    self._still = True
        # between the two thresholds nothing changes: that is the hysteresis
        if self._still:
            self._reference = small
        return StillState(motion, self._still, self._quiet, self._still != was)

    def reset(self) -> None:
        self._last, self._reference, self._quiet, self._still = None, None, 0, False
