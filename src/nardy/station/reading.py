"""Live frames read by ``nardy.vision``: what the board shows and whether it has stayed still."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

import numpy as np

from nardy.calibration import BoardProfile
from nardy.referee.events import Observation, observation_from_json
from nardy.vision.config import VisionConfig
from nardy.vision.detect import DetectResult, detect_image, profile_from_corners
from nardy.vision.still import StillnessTracker


class LiveReader:
    """Reads each frame with a board profile (or corners, or by finding the board).

    ``frame_ms`` is the time between frames: the stillness tracker's quiet spell is set in
    frames at 30 a second, and a camera that sends fewer needs fewer of them.
    """

    def __init__(
        self,
        profile: BoardProfile | None = None,
        corners: Sequence[Sequence[float]] | None = None,
        frame_ms: float = 33.0,
        config: VisionConfig | None = None,
    ) -> None:
        config = config or VisionConfig()
        quiet_frames = max(1, round(config.still_frames * 33 / max(frame_ms, 1.0)))
        self.profile = profile
        self.corners = corners
        self.tracker = StillnessTracker(dataclasses.replace(config, still_frames=quiet_frames))
        #: The last frame's full result, for drawing over the camera view.
        self.last: DetectResult | None = None

    def read(self, t_ms: int, frame: Any) -> tuple[Observation, bool]:
        image = np.asarray(frame)
        if self.profile is None and self.corners is not None:
            self.profile = profile_from_corners(image, self.corners)
        result = detect_image(image, profile=self.profile)
        if self.profile is None and result.profile is not None:
            self.profile = result.profile  # found once and kept: the camera stays put
        self.last = result
        obs = observation_from_json(result.to_json())
        still = self.tracker.update(image, usable=obs.usable).still
        return obs, still and obs.usable
