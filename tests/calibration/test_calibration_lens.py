import cv2
import numpy as np
import pytest

from nardy.calibration import (
    CalibrationConfig,
    Charuco,
    Chessboard,
    LensCorrection,
    LensError,
    calibrate_lens,
    parse_pattern,
)

SIZE = (960, 720)
K = np.array([[820.0, 0, 480.0], [0, 820.0, 360.0], [0, 0, 1]])
DIST = np.array([-0.28, 0.09, 0.0, 0.0, 0.0])
PATTERN = Chessboard(9, 6)  # inner corners
CHARUCO = Charuco(7, 5)
SQUARE = 60  # pixels of a square in the flat picture


def _chessboard(square: int = SQUARE) -> np.ndarray:
    cols, rows = PATTERN.cols + 1, PATTERN.rows + 1
    img = np.full(((rows + 2) * square, (cols + 2) * square), 255, np.uint8)
    for r in range(rows):
        for c in range(cols):
            if (r + c) % 2 == 0:
                y, x = (r + 1) * square, (c + 1) * square
                img[y : y + square, x : x + square] = 0
    return img


def _charuco() -> np.ndarray:
    """The ChArUco board as OpenCV prints it, one square's margin around it."""
    size = (CHARUCO.squares_x * SQUARE, CHARUCO.squares_y * SQUARE)
    board = CHARUCO.board().generateImage(size)
    return cv2.copyMakeBorder(board, SQUARE, SQUARE, SQUARE, SQUARE, cv2.BORDER_CONSTANT, 255)


def _photo(rvec, tvec, flat: np.ndarray | None = None) -> np.ndarray:
    """A flat pattern seen through the known lens: a pinhole view, then distorted."""
    flat = _chessboard() if flat is None else flat
    hgt, wid = flat.shape
    obj = np.float64([[0, 0, 0], [wid, 0, 0], [wid, hgt, 0], [0, hgt, 0]]) / SQUARE
    img_pts, _ = cv2.projectPoints(obj, rvec, tvec, K, np.zeros(5))
    src = np.float32([[0, 0], [wid, 0], [wid, hgt], [0, hgt]])
    ideal = cv2.warpPerspective(
        flat,
        cv2.getPerspectiveTransform(src, img_pts.reshape(4, 2).astype(np.float32)),
        SIZE,
        borderValue=200,
    )
    # every raw pixel looks up where an ideal lens would have put it
    xs, ys = np.meshgrid(np.arange(SIZE[0]), np.arange(SIZE[1]))
    raw = np.stack([xs, ys], -1).reshape(-1, 1, 2).astype(np.float64)
    und = cv2.undistortPoints(raw, K, DIST, P=K).reshape(SIZE[1], SIZE[0], 2).astype(np.float32)
    return cv2.remap(ideal, und[..., 0], und[..., 1], cv2.INTER_LINEAR, borderValue=200)


VIEWS = [
    ((0.1, -0.2, 0.05), (-5.5, -3.5, 13.0)),
    ((-0.25, 0.15, -0.1), (-5.0, -4.0, 12.0)),
    ((0.3, 0.3, 0.2), (-6.0, -3.0, 14.0)),
    ((-0.1, -0.35, 0.0), (-4.0, -4.0, 11.5)),
    ((0.0, 0.0, 0.3), (-5.0, -3.0, 12.0)),
]


# Close up, so part of the board falls outside the picture: the corners a ChArUco board's markers
# name still count, and they reach the picture's edges, where the lens bends most.
CLOSE_VIEWS = [
    ((0.1, -0.2, 0.05), (-6.5, -4.0, 8.0)),
    ((-0.25, 0.15, -0.1), (-2.5, -2.0, 7.5)),
    ((0.3, 0.3, 0.2), (-5.0, -1.5, 8.5)),
    ((-0.1, -0.35, 0.0), (-3.0, -4.5, 7.0)),
    ((0.0, 0.0, 0.3), (-4.5, -3.0, 9.0)),
]


@pytest.fixture(scope="module")
def lens() -> LensCorrection:
    photos = [_photo(np.array(r), np.array(t)) for r, t in VIEWS]
    return calibrate_lens(photos, PATTERN)


@pytest.fixture(scope="module")
def charuco_photos() -> list[np.ndarray]:
    return [_photo(np.array(r), np.array(t), _charuco()) for r, t in CLOSE_VIEWS]


def test_a_charuco_board_partly_out_of_view_still_counts(charuco_photos):
    everywhere = (CHARUCO.squares_x - 1) * (CHARUCO.squares_y - 1)
    seen = [CHARUCO.find(photo) for photo in charuco_photos]
    assert all(s is not None for s in seen)
    counts = [len(s[0]) for s in seen]
    print(f"corners seen of {everywhere}: {counts}")
    assert sum(n < everywhere for n in counts) >= 3, "the close views should not show it all"


@pytest.mark.parametrize("which", ["chessboard", "charuco"])
def test_calibration_recovers_the_distortion_of_a_known_lens(which, lens, charuco_photos):
    if which == "charuco":
        lens = calibrate_lens(charuco_photos, CHARUCO)
    print(f"rms {lens.rms:.3f}, k {np.round(lens.k, 1).tolist()}, d {np.round(lens.d, 3).tolist()}")
    assert lens.rms < 0.5
    assert lens.k[0, 0] == pytest.approx(K[0, 0], rel=0.03)
    # compare what the lenses do, not the coefficients: where raw pixels land once corrected
    # where the pattern was seen (a calibration says nothing of the far corners it never saw).
    # Two right corrections may differ by a homography (a slightly different camera matrix:
    # the board's four corners absorb it); what is left after the best one is the lens error.
    xs, ys = np.meshgrid(np.linspace(150, 810, 12), np.linspace(110, 610, 9))
    raw = np.column_stack([xs.ravel(), ys.ravel()])
    truth = cv2.undistortPoints(raw.reshape(-1, 1, 2), K, DIST, P=K).reshape(-1, 2)
    measured = lens.undistort_points(raw)
    h, _ = cv2.findHomography(measured, truth, 0)
    moved = cv2.perspectiveTransform(measured.reshape(-1, 1, 2), h).reshape(-1, 2)
    err = np.linalg.norm(moved - truth, axis=1)
    print(f"corrected pixel error: max {err.max():.2f}, mean {err.mean():.2f}")
    assert err.max() < 1.5
    # and the correction is real: without it no homography comes near
    h, _ = cv2.findHomography(raw, truth, 0)
    uncorrected = cv2.perspectiveTransform(raw.reshape(-1, 1, 2), h).reshape(-1, 2)
    print(f"uncorrected: max {np.linalg.norm(uncorrected - truth, axis=1).max():.1f}")
    assert np.linalg.norm(uncorrected - truth, axis=1).max() > 10 * max(err.max(), 0.5)


def test_distort_undoes_undistort(lens):
    pts = np.array([[100.0, 80.0], [480.0, 360.0], [900.0, 650.0]])
    assert np.allclose(lens.distort_points(lens.undistort_points(pts)), pts, atol=0.05)


def test_lens_survives_json(lens):
    assert LensCorrection.from_json(lens.to_json()) == lens


def test_too_few_pattern_photos_is_a_clear_error():
    blank = np.full((SIZE[1], SIZE[0]), 128, np.uint8)
    with pytest.raises(LensError, match="need at least"):
        calibrate_lens([blank, blank], PATTERN, CalibrationConfig(lens_min_views=2))
    with pytest.raises(LensError, match="ChArUco"):
        calibrate_lens([blank, blank], CHARUCO, CalibrationConfig(lens_min_views=2))


def test_patterns_are_read_from_text():
    assert parse_pattern("9x6") == Chessboard(9, 6)
    assert parse_pattern("chessboard:7X7") == Chessboard(7, 7)
    assert parse_pattern("charuco:7x5") == Charuco(7, 5)
    assert parse_pattern("ChArUco:5x7:dict_4x4_50") == Charuco(5, 7, dictionary="DICT_4X4_50")
    for bad in ("9", "9x6x2", "charuco:2x5", "charuco:7x5:DICT_NONE", "circles:4x11", "1x6"):
        with pytest.raises(LensError):
            parse_pattern(bad)
