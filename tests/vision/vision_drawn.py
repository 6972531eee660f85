"""A plain board drawn flat with OpenCV, seen through a homography: a fixture whose truth is
exact by construction, for tests that must not depend on the renderer's realism."""

from __future__ import annotations

import cv2
import numpy as np

from nardy.calibration import BoardGeometry

SURFACE = (700, 560)  # pixels of the flat surface (aspect 0.8, as the default geometry)
FRAME = 50


def draw_board(points, geometry: BoardGeometry | None = None, seed: int = 0):
    """The flat board (frame included) and the surface's corners in it."""
    g = geometry or BoardGeometry()
    w, h = SURFACE
    rng = np.random.default_rng(seed)
    img = np.zeros((h + 2 * FRAME, w + 2 * FRAME, 3), np.uint8)
    img[:] = (30, 60, 110)  # the frame
    surface = np.zeros((h, w, 3), np.uint8)
    surface[:] = (120, 170, 215)
    colours = [(40, 40, 170), (35, 35, 35)]
    for shape in g.points():
        tri = np.array([(x * w, y * h) for x, y in shape.triangle()], np.int32)
        cv2.fillConvexPoly(surface, tri, colours[(shape.number - 1) % 2], cv2.LINE_AA)
    x0, x1 = int(g.bar[0] * w), int(g.bar[1] * w)
    surface[:, x0:x1] = (30, 60, 110)
    d = g.point_width * w * 0.9
    for shape, n in zip(g.points(), points, strict=True):
        colour = (235, 235, 230) if n > 0 else (25, 25, 28)
        rim = (150, 150, 150) if n > 0 else (90, 90, 90)
        for k in range(abs(n)):
            cx = shape.base[0] * w + rng.normal(0, 0.5)
            cy = shape.base[1] * h - shape.down * 0 + shape.down * (k + 0.5) * d * 1.005
            cv2.circle(surface, (int(cx), int(cy)), int(d / 2), colour, -1, cv2.LINE_AA)
            cv2.circle(surface, (int(cx), int(cy)), int(d / 2), rim, 2, cv2.LINE_AA)
    img[FRAME : FRAME + h, FRAME : FRAME + w] = surface
    corners = np.array(
        [[FRAME, FRAME], [FRAME + w, FRAME], [FRAME + w, FRAME + h], [FRAME, FRAME + h]], np.float64
    )
    return img, corners


def photograph(
    flat: np.ndarray, corners: np.ndarray, size=(1280, 720), tilt: float = 25.0, noise: float = 2.0
):
    """The flat board seen by a pinhole camera tilted ``tilt`` degrees from overhead: the photo
    and where the corners landed."""
    fh, fw = flat.shape[:2]
    f = 1.1 * size[0]
    k = np.array([[f, 0, size[0] / 2], [0, f, size[1] / 2], [0, 0, 1.0]])
    a = np.radians(tilt)
    rot = np.array([[1, 0, 0], [0, np.cos(a), -np.sin(a)], [0, np.sin(a), np.cos(a)]])
    # board pixels are millimetres-ish: centre the board and stand it far enough to fit
    shift = np.array([[1, 0, -fw / 2], [0, 1, -fh / 2], [0, 0, 1.0]])
    distance = 1.6 * f * fw / size[0]
    pose = np.column_stack([rot[:, 0], rot[:, 1], [0, 0, distance]])
    m = k @ pose @ shift
    m /= m[2, 2]
    photo = cv2.warpPerspective(flat, m, size, flags=cv2.INTER_AREA, borderValue=(60, 70, 80))
    photo = cv2.GaussianBlur(photo, (3, 3), 0.7)
    rng = np.random.default_rng(3)
    photo = np.clip(photo + rng.normal(0, noise, photo.shape), 0, 255).astype(np.uint8)
    seen = cv2.perspectiveTransform(corners.reshape(-1, 1, 2), m)
    return photo, seen.reshape(4, 2)


START = [-2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 2]
