"""A board profile: how one camera sees one board, stored as a small JSON file.

The profile maps image pixels to board coordinates (see ``geometry``): the frame's four inner
corners, the homography they define, the board's layout, the lens correction when one was
measured, and the orientation (which corner is light's home) when it is known.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from nardy.calibration.geometry import BoardGeometry, GeometryError
from nardy.calibration.lens import LensCorrection, LensError
from nardy.calibration.orientation import Orientation

FORMAT = "nardy-board-profile/1"
UNIT_SQUARE = np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]])


class ProfileError(ValueError):
    """A profile that cannot be used: malformed file, degenerate corners."""


Corners = tuple[tuple[float, float], tuple[float, float], tuple[float, float], tuple[float, float]]


def parse_corners(text: str) -> Corners:
    """``"x1,y1,x2,y2,x3,y3,x4,y4"`` (top-left, top-right, bottom-right, bottom-left) → corners."""
    try:
        values = [float(v) for v in text.replace(";", ",").split(",") if v.strip()]
    except ValueError as e:
        raise ProfileError(f"corners must be 8 numbers x1,y1,...,x4,y4: {text!r}") from e
    if len(values) != 8:
        raise ProfileError(f"corners must be 8 numbers x1,y1,...,x4,y4, got {len(values)}")
    it = iter(values)
    return tuple(zip(it, it, strict=True))  # type: ignore[return-value]


def check_corners(corners: Sequence[Sequence[float]]) -> np.ndarray:
    """The corners as a 4×2 array; raises when they do not form a convex quadrilateral in
    clockwise (TL, TR, BR, BL) order."""
    pts = np.asarray(corners, dtype=np.float64)
    if pts.shape != (4, 2) or not np.all(np.isfinite(pts)):
        raise ProfileError("need four corners, each x, y")
    crosses = []
    for i in range(4):
        a, b, c = pts[i], pts[(i + 1) % 4], pts[(i + 2) % 4]
        crosses.append((b[0] - a[0]) * (c[1] - b[1]) - (b[1] - a[1]) * (c[0] - b[0]))
    # image y points down, so TL→TR→BR→BL turns clockwise on screen = positive cross products
    if not all(c > 0 for c in crosses):
        raise ProfileError("corners must be a convex quadrilateral in order TL, TR, BR, BL")
    return pts


@dataclass(frozen=True)
class BoardProfile:
    """How one camera sees one board. ``homography`` maps (lens-corrected) image pixels to
    board coordinates; ``corners`` are the frame's inner corners in the raw image."""

    image_size: tuple[int, int]
    corners: Corners
    homography: tuple[tuple[float, ...], ...]
    geometry: BoardGeometry = field(default_factory=BoardGeometry)
    lens: LensCorrection | None = None
    orientation: Orientation | None = None
    source: str = "corners"

    @classmethod
    def from_corners(
        cls,
        corners: Sequence[Sequence[float]],
        image_size: tuple[int, int],
        geometry: BoardGeometry | None = None,
        lens: LensCorrection | None = None,
        orientation: Orientation | None = None,
        source: str = "corners",
    ) -> BoardProfile:
        pts = check_corners(corners)
        ideal = lens.undistort_points(pts) if lens is not None else pts
        h = cv2.getPerspectiveTransform(ideal.astype(np.float32), UNIT_SQUARE.astype(np.float32))
        return cls(
            image_size=(int(image_size[0]), int(image_size[1])),
            corners=tuple((float(x), float(y)) for x, y in pts),  # type: ignore[arg-type]
            homography=tuple(tuple(float(v) for v in row) for row in h),
            geometry=geometry or BoardGeometry(),
            lens=lens,
            orientation=orientation,
            source=source,
        )

    @property
    def h(self) -> np.ndarray:
        return np.array(self.homography, dtype=np.float64)

    def image_to_board(self, pts: Sequence[Sequence[float]] | np.ndarray) -> np.ndarray:
        pts = np.asarray(pts, dtype=np.float64).reshape(-1, 2)
        if self.lens is not None:
            pts = self.lens.undistort_points(pts)
        return cv2.perspectiveTransform(pts.reshape(-1, 1, 2), self.h).reshape(-1, 2)

    def board_to_image(self, pts: Sequence[Sequence[float]] | np.ndarray) -> np.ndarray:
        pts = np.asarray(pts, dtype=np.float64).reshape(-1, 1, 2)
        out = cv2.perspectiveTransform(pts, np.linalg.inv(self.h)).reshape(-1, 2)
        if self.lens is not None:
            out = self.lens.distort_points(out)
        return out

    def for_size(self, image_size: tuple[int, int]) -> BoardProfile:
        """The same profile for frames of another resolution (same camera, scaled)."""
        if tuple(image_size) == self.image_size:
            return self
        if self.lens is not None:
            raise ProfileError(
                f"profile measured at {self.image_size[0]}×{self.image_size[1]} with a lens "
                f"correction; frame is {image_size[0]}×{image_size[1]}"
            )
        sx = image_size[0] / self.image_size[0]
        sy = image_size[1] / self.image_size[1]
        corners = [(x * sx, y * sy) for x, y in self.corners]
        return BoardProfile.from_corners(
            corners, image_size, self.geometry, None, self.orientation, self.source
        )

    def with_orientation(self, orientation: Orientation | None) -> BoardProfile:
        return replace(self, orientation=orientation)

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "source": self.source,
            "image_size": list(self.image_size),
            "corners": [list(c) for c in self.corners],
            "homography": [list(r) for r in self.homography],
            "geometry": self.geometry.to_json(),
            "lens": None if self.lens is None else self.lens.to_json(),
            "orientation": None if self.orientation is None else self.orientation.to_json(),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> BoardProfile:
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ProfileError(f"not a board profile (expected format {FORMAT!r})")
        try:
            lens = None if data.get("lens") is None else LensCorrection.from_json(data["lens"])
            orient = data.get("orientation")
            profile = cls.from_corners(
                data["corners"],
                (int(data["image_size"][0]), int(data["image_size"][1])),
                BoardGeometry.from_json(data["geometry"]),
                lens,
                None if orient is None else Orientation.from_json(orient),
                str(data.get("source", "corners")),
            )
        except (KeyError, TypeError, IndexError, GeometryError, LensError) as e:
            raise ProfileError(f"malformed board profile: {e}") from e
        return profile

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_json(), indent=1) + "\n")

    @classmethod
    def load(cls, path: str | Path) -> BoardProfile:
        try:
            data = json.loads(Path(path).read_text())
        except OSError as e:
            raise ProfileError(f"cannot read profile {path}: {e.strerror or e}") from e
        except (json.JSONDecodeError, UnicodeDecodeError) as e:
            raise ProfileError(f"profile {path} is not JSON: {e}") from e
        return cls.from_json(data)
