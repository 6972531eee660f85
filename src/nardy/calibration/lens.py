"""Lens correction measured from a few photos of a chessboard pattern (cv2.calibrateCamera)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from nardy.calibration.config import CalibrationConfig


class LensError(ValueError):
    """Too few usable pattern photos, or a malformed lens description."""


@dataclass(frozen=True)
class LensCorrection:
    """A pinhole camera with radial/tangential distortion, as OpenCV models it."""

    camera_matrix: tuple[tuple[float, float, float], ...]
    distortion: tuple[float, ...]
    image_size: tuple[int, int]
    rms: float = 0.0

    @property
    def k(self) -> np.ndarray:
        return np.array(self.camera_matrix, dtype=np.float64)

    @property
    def d(self) -> np.ndarray:
        return np.array(self.distortion, dtype=np.float64)

    def undistort_points(self, pts: np.ndarray) -> np.ndarray:
        """Raw image pixels → where they would be through an ideal lens (same camera matrix)."""
        pts = np.asarray(pts, dtype=np.float64).reshape(-1, 1, 2)
        return cv2.undistortPoints(pts, self.k, self.d, P=self.k).reshape(-1, 2)

    def distort_points(self, pts: np.ndarray) -> np.ndarray:
        """Ideal pixels → raw image pixels (the inverse of ``undistort_points``)."""
        pts = np.asarray(pts, dtype=np.float64).reshape(-1, 2)
        k = self.k
        norm = np.column_stack([(pts[:, 0] - k[0, 2]) / k[0, 0], (pts[:, 1] - k[1, 2]) / k[1, 1]])
        obj = np.column_stack([norm, np.ones(len(norm))]).reshape(-1, 1, 3)
        out, _ = cv2.projectPoints(obj, np.zeros(3), np.zeros(3), k, self.d)
        return out.reshape(-1, 2)

    def to_json(self) -> dict[str, Any]:
        return {
            "camera_matrix": [list(r) for r in self.camera_matrix],
            "distortion": list(self.distortion),
            "image_size": list(self.image_size),
            "rms": self.rms,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> LensCorrection:
        try:
            return cls(
                camera_matrix=tuple(tuple(float(v) for v in row) for row in data["camera_matrix"]),
                distortion=tuple(float(v) for v in data["distortion"]),
                image_size=(int(data["image_size"][0]), int(data["image_size"][1])),
                rms=float(data.get("rms", 0.0)),
            )
        except (KeyError, TypeError, IndexError, ValueError) as e:
            raise LensError(f"malformed lens correction: {e}") from e


def find_chessboard(gray: np.ndarray, pattern: tuple[int, int]) -> np.ndarray | None:
    """The inner corners of a chessboard pattern (``pattern`` = inner corners per row, per
    column), refined to sub-pixel, or ``None`` when the whole pattern is not in view."""
    flags = cv2.CALIB_CB_ADAPTIVE_THRESH | cv2.CALIB_CB_NORMALIZE_IMAGE
    found, corners = cv2.findChessboardCorners(gray, pattern, flags=flags)
    if not found:
        return None
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 40, 1e-3)
    return cv2.cornerSubPix(gray, corners, (5, 5), (-1, -1), criteria)


def calibrate_lens(
    images: Sequence[np.ndarray],
    pattern: tuple[int, int],
    config: CalibrationConfig | None = None,
) -> LensCorrection:
    """Measure the lens from photos of a flat chessboard (a square's size does not matter here:
    only the intrinsics and the distortion are kept)."""
    config = config or CalibrationConfig()
    cols, rows = pattern
    grid = np.zeros((cols * rows, 3), np.float32)
    grid[:, :2] = np.mgrid[0:cols, 0:rows].T.reshape(-1, 2)
    obj_pts, img_pts = [], []
    size: tuple[int, int] | None = None
    for image in images:
        gray = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
        if size is None:
            size = (gray.shape[1], gray.shape[0])
        elif size != (gray.shape[1], gray.shape[0]):
            raise LensError("the pattern photos must all be the same size")
        corners = find_chessboard(gray, pattern)
        if corners is not None:
            obj_pts.append(grid)
            img_pts.append(corners)
    if size is None or len(obj_pts) < config.lens_min_views:
        raise LensError(
            f"found the {cols}×{rows} pattern in {len(obj_pts)} photo(s); "
            f"need at least {config.lens_min_views}"
        )
    flags = cv2.CALIB_FIX_K3 | cv2.CALIB_ZERO_TANGENT_DIST if config.lens_simple_model else 0
    rms, k, d, _, _ = cv2.calibrateCamera(obj_pts, img_pts, size, None, None, flags=flags)
    return LensCorrection(
        camera_matrix=tuple(tuple(float(v) for v in row) for row in k),
        distortion=tuple(float(v) for v in d.ravel()),
        image_size=size,
        rms=float(rms),
    )
