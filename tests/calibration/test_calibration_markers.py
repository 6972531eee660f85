import cv2
import numpy as np
import pytest

from nardy.calibration.markers import MarkerError, marker_image, profile_from_markers


def _board_with_markers(view: np.ndarray, size=(1280, 720), drop: int | None = None):
    """A flat board (surface 800×640 with a 120 px frame) with markers at the surface's corners,
    seen through the homography ``view``; returns the photo and the true surface corners."""
    frame, w, h, m = 130, 800, 640, 100
    flat = np.full((h + 2 * frame, w + 2 * frame, 3), (40, 90, 140), np.uint8)
    flat[frame : frame + h, frame : frame + w] = (60, 140, 190)
    surface = np.array(
        [[frame, frame], [frame + w, frame], [frame + w, frame + h], [frame, frame + h]]
    )
    for i, (x, y) in enumerate(surface):
        if i == drop:
            continue
        # the marker's black square touches the corner; a white quiet zone lies outside it
        x0 = x - m if i in (0, 3) else x
        y0 = y - m if i in (0, 1) else y
        flat[y0 - 12 : y0 + m + 12, x0 - 12 : x0 + m + 12] = 255
        flat[y0 : y0 + m, x0 : x0 + m] = marker_image(i, m)[..., None]
    photo = cv2.warpPerspective(flat, view, size, borderValue=(30, 30, 30))
    photo = cv2.GaussianBlur(photo, (3, 3), 0.8)
    noise = np.random.default_rng(1).normal(0, 3, photo.shape)
    photo = np.clip(photo + noise, 0, 255).astype(np.uint8)
    truth = cv2.perspectiveTransform(surface.reshape(-1, 1, 2).astype(np.float64), view)
    return photo, truth.reshape(4, 2)


def _view(tilt: float) -> np.ndarray:
    src = np.float32([[0, 0], [1060, 0], [1060, 900], [0, 900]])
    dst = np.float32([[330 + tilt, 40], [950 - tilt, 40], [1010, 690], [270, 690]])
    return cv2.getPerspectiveTransform(src, dst)


@pytest.mark.parametrize("tilt", [0.0, 40.0, 80.0])
def test_markers_give_the_surface_corners_within_two_pixels(tilt):
    photo, truth = _board_with_markers(_view(tilt))
    profile = profile_from_markers(photo)
    err = np.linalg.norm(np.array(profile.corners) - truth, axis=1)
    print(f"tilt {tilt}: corner errors {np.round(err, 2)}")
    assert err.max() < 2.0
    assert profile.source == "markers"


def test_a_missing_marker_is_named():
    photo, _ = _board_with_markers(_view(20.0), drop=2)
    with pytest.raises(MarkerError, match=r"\[2\]"):
        profile_from_markers(photo)
