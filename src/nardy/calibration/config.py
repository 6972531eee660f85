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
    # wrong bits a marker may have and still be read: the four ids alone differ in 7 bits or
    # more (under any turn), so up to 3 could be put right; 2 leave a margin against a wood
    # grain read as a marker
    marker_wrong_bits: int = 2
    # focal length / the image's longer side when the markers are seen too square-on to tell
    # it (a webcam's or a phone's 60–70° field of view)
    marker_focal_guess: float = 0.8
    marker_focal_spread: float = 1.3  # the rectangle's focal length, trusted when this steady
    # automatic board finding (calibration.auto)
    auto_min_confidence: float = 0.3  # the corner map's belief near each corner it puts, at least
    auto_looks: int = 2  # times the corner patch reader looks round each corner
