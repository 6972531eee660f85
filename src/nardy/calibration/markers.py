"""A profile from four ArUco markers (DICT_4X4_50) stuck at the board's corners.

The convention: marker ids 0, 1, 2, 3 sit at the top-left, top-right, bottom-right and
bottom-left corners of the playing surface, each on the frame just outside its corner, with the
marker's corner nearest the board's centre on the surface's corner. Which way a marker is turned
does not matter: the corner nearest the centre of all four markers is the one used.
"""

from __future__ import annotations

import cv2
import numpy as np

from nardy.calibration.config import CalibrationConfig
from nardy.calibration.geometry import BoardGeometry
from nardy.calibration.profile import BoardProfile, ProfileError

DICTIONARY = cv2.aruco.DICT_4X4_50


class MarkerError(ProfileError):
    """The four corner markers are not all in view."""


def detect_markers(image: np.ndarray) -> dict[int, np.ndarray]:
    """Every DICT_4X4_50 marker in the image: id → its four corners (4×2, OpenCV's order)."""
    gray = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    dictionary = cv2.aruco.getPredefinedDictionary(DICTIONARY)
    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    corners, ids, _ = cv2.aruco.ArucoDetector(dictionary, params).detectMarkers(gray)
    if ids is None:
        return {}
    return {
        int(i): c.reshape(4, 2).astype(np.float64)
        for i, c in zip(ids.ravel(), corners, strict=True)
    }


def corners_from_markers(image: np.ndarray, config: CalibrationConfig | None = None) -> np.ndarray:
    """The playing surface's four corners (TL, TR, BR, BL) from the markers at them."""
    config = config or CalibrationConfig()
    found = detect_markers(image)
    missing = [i for i in config.marker_ids if i not in found]
    if missing:
        raise MarkerError(f"corner marker(s) {missing} not found (DICT_4X4_50, ids 0–3)")
    quads = [found[i] for i in config.marker_ids]
    centre = np.mean([q.mean(axis=0) for q in quads], axis=0)
    return np.array([q[np.argmin(np.linalg.norm(q - centre, axis=1))] for q in quads])


def profile_from_markers(
    image: np.ndarray,
    geometry: BoardGeometry | None = None,
    config: CalibrationConfig | None = None,
) -> BoardProfile:
    corners = corners_from_markers(image, config)
    size = (image.shape[1], image.shape[0])
    return BoardProfile.from_corners(corners, size, geometry, source="markers")


def marker_image(marker_id: int, pixels: int) -> np.ndarray:
    """A printable marker (with its one-cell white quiet zone drawn by the caller's background)."""
    dictionary = cv2.aruco.getPredefinedDictionary(DICTIONARY)
    return cv2.aruco.generateImageMarker(dictionary, marker_id, pixels)
