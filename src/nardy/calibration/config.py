"""Every threshold calibration uses, in one place (chesscog keeps its constants this way)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class CalibrationConfig:
    # lens correction
    lens_min_views: int = 3  # photos of the pattern needed before calibrateCamera is trusted
    lens_simple_model: bool = True  # k1, k2 only: a few photos cannot pin down k3 and tangential
    # ArUco markers at the board's corners: ids 0..3 = TL, TR, BR, BL
    marker_ids: tuple[int, int, int, int] = (0, 1, 2, 3)
    # automatic board finding
    auto_work_width: int = 640  # the photo is searched at this width
    auto_min_area: float = 0.08  # the surface covers at least this share of the photo
    auto_max_area: float = 0.97
    auto_min_aspect: float = 0.45  # surface height / width after rectification
    auto_max_aspect: float = 1.4
    auto_min_score: float = 0.25  # the points' pattern a candidate must show to be a board
    rectified_width: int = 480  # pixels across the playing surface when rectified
