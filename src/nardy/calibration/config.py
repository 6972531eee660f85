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
    marker_upscale: float = 2.0  # markers are looked for in the photo enlarged this much
    # focal length / the image's longer side when the markers are seen too square-on to tell
    # it (a webcam's or a phone's 60–70° field of view)
    marker_focal_guess: float = 0.8
    marker_focal_spread: float = 1.3  # the rectangle's focal length, trusted when this steady
    # automatic board finding
    auto_work_width: int = 640  # the photo is searched at this width
    auto_min_area: float = 0.08  # the surface covers at least this share of the photo
    auto_max_area: float = 0.97
    auto_min_aspect: float = 0.45  # surface height / width after rectification
    auto_max_aspect: float = 1.4
    auto_min_score: float = 0.25  # the points' pattern a candidate must show to be a board
    # surfaces guessed in the middle of the photo: (width, height) as shares of the photo's
    auto_centred_guesses: tuple[tuple[float, float], ...] = ((0.55, 0.75), (0.45, 0.6), (0.65, 0.9))
    auto_min_strength: float = 40.0  # neighbouring points' contrast (Lab) a board shows at least
    auto_refine_candidates: int = 4  # the likeliest surfaces brought onto the edges and compared
    refine_rounds: int = 4  # rectify-and-measure rounds that bring a guess onto the edges
    refine_reach: float = 0.1  # how far (share of the surface) an edge is looked for each round
