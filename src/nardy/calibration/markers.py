"""A profile from four ArUco markers (DICT_4X4_50) stuck on the board's frame at its corners.

How to stick them (the one convention reader and renderer share):

- Print ids 0, 1, 2, 3 (``marker_sheet``): each black square on white paper with a white margin
  one cell wide all round (the square is 6 cells, the paper 8). Measure the black square's side.
- As the board lies in the camera's view, id 0 goes at the top-left corner of the playing
  surface, 1 top-right, 2 bottom-right, 3 bottom-left.
- Each lies flat on the frame's top, diagonally outside its corner of the playing surface, edges
  square to the frame, the paper's corner nearest the board's centre on the frame top's inner
  corner (where the frame's two inner edges meet). Which way a marker is turned does not matter.

The playing surface lies below the frame top and, where the frame's inner edge is bevelled or
rounded, a little inside it. ``MarkerLayout`` says by how much: ``step_mm`` (the frame top's
height above the playing surface) and ``inset_mm`` (how far the surface's corner lies inside the
frame top's inner corner, along each edge). Each marker's pose (its four corners, its known size,
the camera's focal length) carries its corner down to the surface: on a frame 9 mm high, seen
from the side, that is several pixels a naive reading would miss.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from nardy.calibration.config import CalibrationConfig
from nardy.calibration.geometry import BoardGeometry
from nardy.calibration.lens import LensCorrection
from nardy.calibration.profile import BoardProfile, ProfileError

DICTIONARY = cv2.aruco.DICT_4X4_50
#: The paper's half side over the black square's half side: a one-cell margin on a 6-cell square.
PAPER = 8 / 6


class MarkerError(ProfileError):
    """The four corner markers are not all in view, or their layout cannot be."""


@dataclass(frozen=True)
class MarkerLayout:
    """How the markers sit on this board (millimetres): the black square's side, the frame top's
    height above the playing surface, and how far inside the frame top's inner corner the
    surface's corner lies along each edge."""

    side_mm: float = 30.0
    step_mm: float = 0.0
    inset_mm: float = 0.0

    def __post_init__(self) -> None:
        if not 3.0 <= self.side_mm <= 300.0:
            raise MarkerError(f"a marker's side must be 3–300 mm, got {self.side_mm}")
        if not (0.0 <= self.step_mm <= 100.0 and 0.0 <= self.inset_mm <= 50.0):
            raise MarkerError("the frame's step must be 0–100 mm and the inset 0–50 mm")


def detect_markers(
    image: np.ndarray, config: CalibrationConfig | None = None
) -> dict[int, np.ndarray]:
    """Every DICT_4X4_50 marker in the image: id → its four corners (4×2, OpenCV's order).

    Markers on a frame a camera sees whole are small (11–30 px, two or three pixels a bit):
    the photo is looked at enlarged, with a wider range of thresholding windows than OpenCV's
    default, and read against a dictionary of only the board's four ids, which are far enough
    apart for a blurred marker's wrong bits to be put right (``marker_wrong_bits``). When an id
    is read twice, the larger marker is kept (a false one is a knot in the wood, smaller than
    the printed square)."""
    config = config or CalibrationConfig()
    gray = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    up = config.marker_upscale
    if up != 1:
        gray = cv2.resize(gray, None, fx=up, fy=up, interpolation=cv2.INTER_CUBIC)
    ids_used = config.marker_ids
    full = cv2.aruco.getPredefinedDictionary(DICTIONARY)
    most = _correctable_bits(full, ids_used)
    dictionary = cv2.aruco.Dictionary(full.bytesList[list(ids_used)], full.markerSize, most)
    params = cv2.aruco.DetectorParameters()
    # OpenCV corrects int(most × rate) bits
    params.errorCorrectionRate = (min(config.marker_wrong_bits, most) + 0.5) / max(most, 1)
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    params.adaptiveThreshWinSizeMin = 3
    params.adaptiveThreshWinSizeMax = 53
    params.adaptiveThreshWinSizeStep = 4
    params.minMarkerPerimeterRate = 0.01
    params.polygonalApproxAccuracyRate = 0.05
    corners, ids, _ = cv2.aruco.ArucoDetector(dictionary, params).detectMarkers(gray)
    if ids is None:
        return {}
    found: dict[int, np.ndarray] = {}
    for i, c in zip(ids.ravel(), corners, strict=True):
        # OpenCV's pixel centres: (x + 0.5) / up - 0.5 maps the enlarged photo's back
        quad = (c.reshape(4, 2).astype(np.float64) + 0.5) / up - 0.5
        marker = ids_used[int(i)]
        if marker not in found or _area(quad) > _area(found[marker]):
            found[marker] = quad
    return found


def _correctable_bits(dictionary: cv2.aruco.Dictionary, ids: tuple[int, ...]) -> int:
    """How many wrong bits a dictionary of only ``ids`` can put right: half the least distance,
    under any of the four turns, between two of them (or between one and itself turned)."""
    n = dictionary.markerSize
    bits = [
        cv2.aruco.Dictionary.getBitsFromByteList(dictionary.bytesList[i : i + 1], n).reshape(n, n)
        for i in ids
    ]
    least = min(
        int((np.rot90(a, k) != b).sum())
        for i, a in enumerate(bits)
        for j, b in enumerate(bits)
        for k in range(4)
        if not (i == j and k == 0)
    )
    return (least - 1) // 2


def _area(quad: np.ndarray) -> float:
    return float(abs(cv2.contourArea(quad.astype(np.float32))))


def _steady_focal(
    paper: np.ndarray, size: tuple[int, int], config: CalibrationConfig
) -> float | None:
    """Zhang and He's focal length from the rectangle, when it holds steady with the corners
    moved by a pixel's fraction (it swings wildly on a view tilted about one edge only)."""
    from nardy.calibration.measure import whiteboard_focal

    shake = np.random.default_rng(0).uniform(-0.7, 0.7, (8, 4, 2))
    fs = [whiteboard_focal(paper + d, size) for d in [np.zeros((4, 2)), *shake]]
    if any(f is None for f in fs):
        return None
    spread = max(fs) / min(fs)
    return float(fs[0]) if spread < config.marker_focal_spread else None


def _camera(
    paper: np.ndarray, size: tuple[int, int], lens: LensCorrection | None, config: CalibrationConfig
) -> tuple[np.ndarray, np.ndarray]:
    """The camera matrix and the frame top's axes in camera coordinates: across the board,
    down it (as it lies in the image), and its normal toward the camera.

    Without a measured lens the focal length comes from the rectangle when it can (a view
    tilted about both edges), else the config's guess stands in; a lens measured from
    chessboard photos gives the best corners."""
    if lens is not None:
        k = lens.k
    else:
        f = _steady_focal(paper, size, config) or config.marker_focal_guess * max(size)
        k = np.array([[f, 0, size[0] / 2], [0, f, size[1] / 2], [0, 0, 1.0]])
    # the unit square → the corners: K⁻¹H's first two columns lie along the rectangle's sides
    square = np.float32([[0, 0], [1, 0], [1, 1], [0, 1]])
    h = np.linalg.inv(k) @ cv2.getPerspectiveTransform(square, paper.astype(np.float32))
    across = h[:, 0] / np.linalg.norm(h[:, 0])  # along the top edge, left to right
    down = h[:, 1] / np.linalg.norm(h[:, 1])  # along the left edge, top to bottom
    normal = np.cross(across, down)
    normal /= np.linalg.norm(normal)
    return k, np.stack([across, down, -normal if normal[2] > 0 else normal])


def corners_from_markers(
    image: np.ndarray,
    layout: MarkerLayout | None = None,
    lens: LensCorrection | None = None,
    config: CalibrationConfig | None = None,
) -> np.ndarray:
    """The playing surface's four corners (TL, TR, BR, BL, raw image pixels) from the markers
    stuck at them."""
    config = config or CalibrationConfig()
    layout = layout or MarkerLayout()
    found = detect_markers(image, config)
    missing = [i for i in config.marker_ids if i not in found]
    if missing:
        raise MarkerError(f"corner marker(s) {missing} not found (DICT_4X4_50, ids 0–3)")
    quads = [found[i] for i in config.marker_ids]
    if lens is not None:
        quads = [lens.undistort_points(q) for q in quads]
    size = (image.shape[1], image.shape[0])
    centre = np.mean([q.mean(axis=0) for q in quads], axis=0)
    # each marker's corner nearest the board's centre, and the paper's corner beyond it
    near = [int(np.argmin(np.linalg.norm(q - centre, axis=1))) for q in quads]
    paper = np.array(
        [q.mean(axis=0) + PAPER * (q[j] - q.mean(axis=0)) for q, j in zip(quads, near, strict=True)]
    )
    k, axes = _camera(paper, size, lens, config)
    inward = ((1, 1), (-1, 1), (-1, -1), (1, -1))  # TL, TR, BR, BL: toward the centre
    half = layout.side_mm / 2
    # IPPE_SQUARE's model: corners (-s,+s), (+s,+s), (+s,-s), (-s,-s); z points to the camera
    model = np.array([[-half, half, 0], [half, half, 0], [half, -half, 0], [-half, -half, 0]])
    out = []
    margin = (PAPER - 1) * half  # the paper's white beyond the black square
    for q, j, (si, sj) in zip(quads, near, inward, strict=True):
        # a small square seen from afar has two poses that fit it nearly as well, tilted
        # either way: keep the one lying in the plane the four markers make together
        n, rvecs, tvecs, _ = cv2.solvePnPGeneric(
            model, q.reshape(-1, 1, 2), k, None, flags=cv2.SOLVEPNP_IPPE_SQUARE
        )
        if not n:
            raise MarkerError("a corner marker's pose could not be found")
        tilt = [float(cv2.Rodrigues(r)[0][:, 2] @ axes[2]) for r in rvecs]
        best = int(np.argmax(tilt))
        black = cv2.Rodrigues(rvecs[best])[0] @ model[j] + tvecs[best].reshape(3)
        # on toward the centre to the paper's corner and the surface's, along the board's own
        # edges (better known from all four markers than from this one), then down the step
        reach = margin + layout.inset_mm
        corner = black + reach * (si * axes[0] + sj * axes[1]) - layout.step_mm * axes[2]
        uv = k @ corner
        out.append(uv[:2] / uv[2])
    corners = np.array(out)
    if lens is not None:
        corners = lens.distort_points(corners)
    return corners


def profile_from_markers(
    image: np.ndarray,
    geometry: BoardGeometry | None = None,
    layout: MarkerLayout | None = None,
    lens: LensCorrection | None = None,
    config: CalibrationConfig | None = None,
) -> BoardProfile:
    corners = corners_from_markers(image, layout, lens, config)
    size = (image.shape[1], image.shape[0])
    return BoardProfile.from_corners(corners, size, geometry, lens, source="markers")


def marker_sheet(marker_id: int, pixels: int) -> np.ndarray:
    """A printable marker as the layout asks: the black square on white paper with a one-cell
    margin (``pixels`` across the paper, a multiple of 8 prints sharpest)."""
    cell = max(1, pixels // 8)
    dictionary = cv2.aruco.getPredefinedDictionary(DICTIONARY)
    square = cv2.aruco.generateImageMarker(dictionary, marker_id, 6 * cell)
    return cv2.copyMakeBorder(square, cell, cell, cell, cell, cv2.BORDER_CONSTANT, value=255)
