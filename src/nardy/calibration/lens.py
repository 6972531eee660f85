"""Lens correction measured from a few photos of a printed pattern (cv2.calibrateCamera): a
plain chessboard, which must be wholly in view, or a ChArUco board (a chessboard with ArUco
markers in its white squares), whose corners are known by their markers' ids, so a photo that
shows only part of it still counts — and the edges of the picture, where the lens bends most,
are what a calibration most needs to see."""

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


Views = tuple[np.ndarray, np.ndarray]  # the pattern's points on its plane (n×3), in the photo (n×2)


def _subpixel(gray: np.ndarray, corners: np.ndarray) -> np.ndarray:
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 40, 1e-3)
    return cv2.cornerSubPix(gray, corners.astype(np.float32), (5, 5), (-1, -1), criteria)


@dataclass(frozen=True)
class Chessboard:
    """A plain chessboard, counted by its inner corners along a row and down a column."""

    cols: int = 9
    rows: int = 6

    def __post_init__(self) -> None:
        if min(self.cols, self.rows) < 2:
            raise LensError(f"a chessboard has at least 2×2 inner corners, not {self}")

    def find(self, gray: np.ndarray) -> Views | None:
        """The inner corners, sub-pixel, or ``None`` unless the whole pattern is in view."""
        flags = cv2.CALIB_CB_ADAPTIVE_THRESH | cv2.CALIB_CB_NORMALIZE_IMAGE
        found, corners = cv2.findChessboardCorners(gray, (self.cols, self.rows), flags=flags)
        if not found:
            return None
        grid = np.zeros((self.cols * self.rows, 3), np.float32)
        grid[:, :2] = np.mgrid[0 : self.cols, 0 : self.rows].T.reshape(-1, 2)
        return grid, _subpixel(gray, corners).reshape(-1, 2)

    def __str__(self) -> str:
        return f"{self.cols}×{self.rows} chessboard"


@dataclass(frozen=True)
class Charuco:
    """A ChArUco board as OpenCV prints it (``cv2.aruco.CharucoBoard.generateImage``): squares
    across and down, a marker's side as a share of a square's, and the markers' dictionary."""

    squares_x: int = 7
    squares_y: int = 5
    marker_share: float = 0.75
    dictionary: str = "DICT_6X6_250"

    def __post_init__(self) -> None:
        if min(self.squares_x, self.squares_y) < 3:
            raise LensError(f"a ChArUco board has at least 3×3 squares, not {self}")
        if not 0.2 <= self.marker_share <= 0.95:
            raise LensError(f"a marker fills 20–95 % of its square, not {self.marker_share:.0%}")
        if not self.dictionary.startswith("DICT_") or not hasattr(cv2.aruco, self.dictionary):
            raise LensError(f"no ArUco dictionary {self.dictionary!r} (e.g. DICT_6X6_250)")

    def board(self) -> cv2.aruco.CharucoBoard:
        words = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, self.dictionary))
        return cv2.aruco.CharucoBoard(
            (self.squares_x, self.squares_y), 1.0, self.marker_share, words
        )

    def find(self, gray: np.ndarray, least: int = 8) -> Views | None:
        """The chessboard corners the markers name (at least ``least`` of them), sub-pixel."""
        board = self.board()
        corners, ids, _, _ = cv2.aruco.CharucoDetector(board).detectBoard(gray)
        if ids is None or len(ids) < least:
            return None
        obj, img = board.matchImagePoints(corners, ids)
        return obj.reshape(-1, 3).astype(np.float32), img.reshape(-1, 2).astype(np.float32)

    def __str__(self) -> str:
        return f"{self.squares_x}×{self.squares_y} ChArUco board ({self.dictionary})"


Pattern = Chessboard | Charuco


def parse_pattern(text: str) -> Pattern:
    """``9x6`` (a chessboard's inner corners), ``charuco:7x5`` (a ChArUco board's squares, the
    rest OpenCV's defaults) or ``charuco:7x5:DICT_4X4_50`` (and its markers' dictionary)."""
    parts = text.strip().split(":")
    if len(parts) == 1:
        parts.insert(0, "chessboard")
    kind, size, *rest = parts
    try:
        across, down = (int(v) for v in size.lower().split("x"))
    except ValueError:
        raise LensError(f"a pattern is like 9x6 or charuco:7x5, not {text!r}") from None
    if kind.lower() == "chessboard" and not rest:
        return Chessboard(across, down)
    if kind.lower() == "charuco" and len(rest) <= 1:
        return Charuco(across, down, dictionary=rest[0].upper()) if rest else Charuco(across, down)
    raise LensError(f"a pattern is like 9x6 or charuco:7x5[:DICT_6X6_250], not {text!r}")


def calibrate_lens(
    images: Sequence[np.ndarray],
    pattern: Pattern,
    config: CalibrationConfig | None = None,
) -> LensCorrection:
    """Measure the lens from photos of a flat pattern (a square's size does not matter here:
    only the intrinsics and the distortion are kept)."""
    config = config or CalibrationConfig()
    obj_pts, img_pts = [], []
    size: tuple[int, int] | None = None
    for image in images:
        gray = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
        if size is None:
            size = (gray.shape[1], gray.shape[0])
        elif size != (gray.shape[1], gray.shape[0]):
            raise LensError("the pattern photos must all be the same size")
        seen = pattern.find(gray)
        if seen is not None:
            obj_pts.append(seen[0])
            img_pts.append(seen[1])
    if size is None or len(obj_pts) < config.lens_min_views:
        raise LensError(
            f"found the {pattern} in {len(obj_pts)} photo(s); need at least {config.lens_min_views}"
        )
    flags = cv2.CALIB_FIX_K3 | cv2.CALIB_ZERO_TANGENT_DIST if config.lens_simple_model else 0
    rms, k, d, _, _ = cv2.calibrateCamera(obj_pts, img_pts, size, None, None, flags=flags)
    return LensCorrection(
        camera_matrix=tuple(tuple(float(v) for v in row) for row in k),
        distortion=tuple(float(v) for v in d.ravel()),
        image_size=size,
        rms=float(rms),
    )
