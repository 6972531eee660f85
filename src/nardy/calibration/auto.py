"""Find the board in a photo with no help: guess the corners from the whole photo, then bring
each onto the frame's inner corner at full resolution.

Two small networks, both learnt from rendered boards of every style, camera angle and light:
``corner_map`` reads the photo shrunk to 256 pixels across and says where each of the four
inner corners of the frame (TL, TR, BR, BL of the image) lies, to within a few shrunk pixels;
``corner_patch`` reads a patch round each guess at the photo's own resolution and moves it onto
the corner. A photo in which the map cannot make out all four corners holds no board.
"""

from __future__ import annotations

import numpy as np

from nardy.calibration import corner_map, corner_patch
from nardy.calibration.config import CalibrationConfig
from nardy.calibration.geometry import BoardGeometry
from nardy.calibration.profile import BoardProfile, ProfileError, check_corners


class BoardNotFound(ProfileError):
    """No board could be found in the photo."""


def find_corners(image: np.ndarray, config: CalibrationConfig | None = None) -> np.ndarray:
    """The inner corners of the frame (TL, TR, BR, BL) in image pixels."""
    config = config or CalibrationConfig()
    guess = corner_map.guess_corners(image)
    if min(guess.confidence) < config.auto_min_confidence:
        raise BoardNotFound("no board found in the photo (give --corners or a profile)")
    corners = corner_patch.refine(image, guess.corners, config.auto_looks)
    try:
        return check_corners(corners)
    except ProfileError as e:
        raise BoardNotFound(f"no board found in the photo ({e})") from e


def find_board(image: np.ndarray, config: CalibrationConfig | None = None) -> BoardProfile:
    """A profile for the board in ``image``, found with no help, its layout measured."""
    from nardy.calibration.measure import measure_geometry

    corners = find_corners(image, config)
    geometry = measure_geometry(image, corners)
    size = (image.shape[1], image.shape[0])
    return BoardProfile.from_corners(corners, size, geometry, source="auto")


__all__ = ["BoardGeometry", "BoardNotFound", "find_board", "find_corners"]
