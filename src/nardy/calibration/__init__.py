"""Board profiles: where the playing surface, the points, the bar and the trays are in the image.

Made from four corners given by hand (``BoardProfile.from_corners``), from four ArUco markers
(``markers.profile_from_markers``) or found in a photo with no help (``auto.find_board``);
lens correction from photos of a chessboard or a ChArUco board (``lens.calibrate_lens``).
"""

from nardy.calibration.config import CalibrationConfig
from nardy.calibration.geometry import BoardGeometry, GeometryError, PointShape, Rect
from nardy.calibration.lens import (
    Charuco,
    Chessboard,
    LensCorrection,
    LensError,
    calibrate_lens,
    parse_pattern,
)
from nardy.calibration.orientation import (
    Orientation,
    OrientationError,
    orientation_from_start,
    orientation_of,
)
from nardy.calibration.profile import BoardProfile, ProfileError, parse_corners

__all__ = [
    "BoardGeometry",
    "BoardProfile",
    "CalibrationConfig",
    "Charuco",
    "Chessboard",
    "GeometryError",
    "LensCorrection",
    "LensError",
    "Orientation",
    "OrientationError",
    "PointShape",
    "ProfileError",
    "Rect",
    "calibrate_lens",
    "orientation_from_start",
    "orientation_of",
    "parse_corners",
    "parse_pattern",
]
