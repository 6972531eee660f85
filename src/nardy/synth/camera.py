"""A pinhole camera with radial distortion, posed above the board.

The renderer draws an undistorted picture on a canvas a little larger than the image, then bends
it with the lens (``Lens.remap``); truth points go through ``Lens.distort``. Both use OpenCV's
radial model, so ``cv2.undistortPoints`` with ``Lens.matrix`` and ``Lens.coeffs`` undoes it.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from nardy.synth.scene import Camera

#: Fixed-point rounds that invert the lens (OpenCV's undistortPoints takes as many).
UNDISTORT_ROUNDS = 12


def _look_at(eye: np.ndarray, target: np.ndarray, roll_deg: float) -> np.ndarray:
    """Rotation from board to camera coordinates (OpenCV: x right, y down, z forward)."""
    z = target - eye
    z /= np.linalg.norm(z)
    down = np.array([0.0, -1.0, 0.0])  # the board's bottom edge is the image's bottom
    y = down - (down @ z) * z
    y /= np.linalg.norm(y)
    x = np.cross(y, z)
    r = np.radians(roll_deg)
    c, s = np.cos(r), np.sin(r)
    x, y = c * x + s * y, -s * x + c * y
    return np.stack([x, y, z])


@dataclass
class View:
    """The posed pinhole camera on the (undistorted, supersampled) canvas."""

    rot: np.ndarray
    eye: np.ndarray
    f: float
    cx: float
    cy: float

    def project(self, pts: np.ndarray) -> np.ndarray:
        """N × 3 board points → N × 2 canvas pixels."""
        c = (np.asarray(pts, float) - self.eye) @ self.rot.T
        z = np.maximum(c[:, 2], 1e-6)
        return np.stack([self.f * c[:, 0] / z + self.cx, self.f * c[:, 1] / z + self.cy], 1)

    def depth(self, pts: np.ndarray) -> np.ndarray:
        return (np.asarray(pts, float) - self.eye) @ self.rot[2]

    def facing(self, point: np.ndarray, normal: np.ndarray) -> bool:
        """Whether a face through ``point`` with outward ``normal`` faces the camera."""
        return float((self.eye - point) @ normal) > 1e-9

    def scaled(self, k: float, dx: float = 0.0, dy: float = 0.0) -> View:
        return View(self.rot, self.eye, self.f * k, self.cx * k + dx, self.cy * k + dy)


def eye_of(cam: Camera) -> np.ndarray:
    """Where the lens stands (board mm, x, y, height): ``height`` over the board, moved by its
    ``tilt`` from over the ``aim`` toward ``azimuth``. Its x, y are the point of the board's
    plane under the camera."""
    t = np.radians(cam.tilt)
    a = np.radians(cam.azimuth)
    aim = np.array([cam.aim[0], cam.aim[1], 0.0])
    dist = cam.height / max(np.cos(t), 1e-3)
    # azimuth 0 moves the camera toward the bottom edge (−y), 90 toward the right (+x)
    return aim + dist * np.array([np.sin(t) * np.sin(a), -np.sin(t) * np.cos(a), np.cos(t)])


def pose(cam: Camera, outline_pts: np.ndarray, fields_pts: np.ndarray, size: tuple[int, int]):
    """The camera's view on the image (before distortion), fitted so the board fills ``fill``."""
    w, h = size
    eye, aim = eye_of(cam), np.array([cam.aim[0], cam.aim[1], 0.0])
    rot = _look_at(eye, aim, cam.roll)
    unit = View(rot, eye, 1.0, 0.0, 0.0)
    pts = outline_pts if cam.fit == "board" else fields_pts
    uv = unit.project(pts)
    # the board's outline, centred on the image axis through the aim point, spans `fill`
    span_x = 2 * np.abs(uv[:, 0]).max()
    span_y = 2 * np.abs(uv[:, 1]).max()
    # the playing fields are fitted by their height: the trays beside them may fall out
    f = cam.fill * (h / span_y if cam.fit == "fields" else min(w / span_x, h / span_y))
    return View(rot, eye, f, w / 2, h / 2)


@dataclass
class Lens:
    """Radial distortion of a camera with focal ``f`` and centre (cx, cy) on the image."""

    f: float
    cx: float
    cy: float
    k1: float
    k2: float

    @property
    def matrix(self) -> np.ndarray:
        return np.array([[self.f, 0, self.cx], [0, self.f, self.cy], [0, 0, 1]], float)

    @property
    def coeffs(self) -> np.ndarray:
        return np.array([self.k1, self.k2, 0.0, 0.0, 0.0])

    def distort(self, uv: np.ndarray) -> np.ndarray:
        """Ideal pixels → pixels as the lens shows them."""
        uv = np.asarray(uv, float).reshape(-1, 2)
        x = (uv[:, 0] - self.cx) / self.f
        y = (uv[:, 1] - self.cy) / self.f
        r2 = x * x + y * y
        k = 1 + self.k1 * r2 + self.k2 * r2 * r2
        return np.stack([x * k * self.f + self.cx, y * k * self.f + self.cy], 1)

    def undistort(self, uv: np.ndarray, rounds: int = UNDISTORT_ROUNDS) -> np.ndarray:
        """Pixels as the lens shows them → ideal pixels (OpenCV's fixed-point inversion)."""
        uv = np.asarray(uv, float).reshape(-1, 2)
        xd = (uv[:, 0] - self.cx) / self.f
        yd = (uv[:, 1] - self.cy) / self.f
        x, y = xd.copy(), yd.copy()
        for _ in range(rounds):
            r2 = x * x + y * y
            k = 1 + self.k1 * r2 + self.k2 * r2 * r2
            x, y = xd / k, yd / k
        return np.stack([x * self.f + self.cx, y * self.f + self.cy], 1)

    def maps(self, size: tuple[int, int], step: int = 4) -> tuple[np.ndarray, np.ndarray]:
        """Remap tables: for each image pixel, where to read the ideal picture.

        Computed at cell centres of a ``step`` grid and stretched bilinearly (the lens bends
        slowly; cv2.resize puts cell centre j exactly on pixel step*j + (step-1)/2)."""
        w, h = size
        gw, gh = -(-w // step), -(-h // step)
        gx = np.arange(gw) * step + (step - 1) / 2
        gy = np.arange(gh) * step + (step - 1) / 2
        xx, yy = np.meshgrid(gx, gy)
        src = self.undistort(np.stack([xx.ravel(), yy.ravel()], 1)).reshape(gh, gw, 2)
        big = cv2.resize(
            src.astype(np.float32), (gw * step, gh * step), interpolation=cv2.INTER_LINEAR
        )
        return big[:h, :w, 0].copy(), big[:h, :w, 1].copy()


def tame(k1: float, k2: float, corner_r2: float, max_bend: float = 0.12) -> tuple[float, float]:
    """``k1``, ``k2`` scaled down until the lens bends the image's far corner (``corner_r2``:
    its squared radius, normalised by the focal length) by at most ``max_bend`` (a real lens
    stays near that), bends monotonically all the way out to it, and ``Lens.undistort`` finds
    where it came from.

    Past the radius where ``r·(1 + k1·r² + k2·r⁴)`` stops growing, no ideal point maps onto
    the image: the inversion behind ``Lens.maps`` then runs away (a wide view with both terms
    negative asked for a 46.6 GiB canvas). A lens that passes is returned unchanged."""
    bend = abs(k1 * corner_r2 + k2 * corner_r2**2)
    if bend > max_bend:
        k1, k2 = k1 * max_bend / bend, k2 * max_bend / bend
    target = float(np.sqrt(corner_r2))
    for _ in range(60):
        r = target
        for _ in range(UNDISTORT_ROUNDS):  # the same fixed point as Lens.undistort
            r = target / (1 + k1 * r**2 + k2 * r**4)
        on_curve = np.linspace(0.0, abs(r), 200)
        slope = 1 + 3 * k1 * on_curve**2 + 5 * k2 * on_curve**4
        back = r * (1 + k1 * r**2 + k2 * r**4)
        if r > 0 and slope.min() > 0 and abs(back - target) < 1e-3 * target:
            return k1, k2
        k1, k2 = k1 * 0.8, k2 * 0.8
    return 0.0, 0.0
