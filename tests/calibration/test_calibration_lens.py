import cv2
import numpy as np
import pytest

from nardy.calibration import CalibrationConfig, LensCorrection, LensError, calibrate_lens

SIZE = (960, 720)
K = np.array([[820.0, 0, 480.0], [0, 820.0, 360.0], [0, 0, 1]])
DIST = np.array([-0.28, 0.09, 0.0, 0.0, 0.0])
PATTERN = (9, 6)  # inner corners


def _chessboard(square: int = 60) -> np.ndarray:
    cols, rows = PATTERN[0] + 1, PATTERN[1] + 1
    img = np.full(((rows + 2) * square, (cols + 2) * square), 255, np.uint8)
    for r in range(rows):
        for c in range(cols):
            if (r + c) % 2 == 0:
                y, x = (r + 1) * square, (c + 1) * square
                img[y : y + square, x : x + square] = 0
    return img


def _photo(rvec, tvec) -> np.ndarray:
    """The chessboard seen through the known lens: a pinhole view, then distorted."""
    flat = _chessboard()
    square = 60
    hgt, wid = flat.shape
    obj = np.float64([[0, 0, 0], [wid, 0, 0], [wid, hgt, 0], [0, hgt, 0]]) / square
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


@pytest.fixture(scope="module")
def lens() -> LensCorrection:
    photos = [_photo(np.array(r), np.array(t)) for r, t in VIEWS]
    return calibrate_lens(photos, PATTERN)


def test_calibration_recovers_the_distortion_of_a_known_lens(lens):
    print(f"rms {lens.rms:.3f}, k {np.round(lens.k, 1).tolist()}, d {np.round(lens.d, 3).tolist()}")
    assert lens.rms < 0.5
    assert lens.k[0, 0] == pytest.approx(K[0, 0], rel=0.03)
    # compare what the lenses do, not the coefficients: where raw pixels land once corrected
    # where the pattern was seen (a calibration says nothing of the far corners it never saw)
    xs, ys = np.meshgrid(np.linspace(150, 810, 12), np.linspace(110, 610, 9))
    raw = np.column_stack([xs.ravel(), ys.ravel()])
    truth = cv2.undistortPoints(raw.reshape(-1, 1, 2), K, DIST, P=K).reshape(-1, 2)
    # the two camera matrices differ a little; compare in normalised coordinates scaled by K
    measured = cv2.undistortPoints(raw.reshape(-1, 1, 2), lens.k, lens.d).reshape(-1, 2)
    measured = measured * [K[0, 0], K[1, 1]] + [K[0, 2], K[1, 2]]
    err = np.linalg.norm(measured - truth, axis=1)
    print(f"corrected pixel error: max {err.max():.2f}, mean {err.mean():.2f}")
    assert err.max() < 1.5
    # and the correction is real: without it the error is tens of pixels
    assert np.linalg.norm(raw - truth, axis=1).max() > 30


def test_distort_undoes_undistort(lens):
    pts = np.array([[100.0, 80.0], [480.0, 360.0], [900.0, 650.0]])
    assert np.allclose(lens.distort_points(lens.undistort_points(pts)), pts, atol=0.05)


def test_lens_survives_json(lens):
    assert LensCorrection.from_json(lens.to_json()) == lens


def test_too_few_pattern_photos_is_a_clear_error():
    blank = np.full((SIZE[1], SIZE[0]), 128, np.uint8)
    with pytest.raises(LensError, match="need at least"):
        calibrate_lens([blank, blank], PATTERN, CalibrationConfig(lens_min_views=2))
