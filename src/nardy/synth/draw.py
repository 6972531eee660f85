"""Drawing 3-D things on the canvas: textured planar quads, flat-shaded polygons, cylinders, boxes.

The canvas is the undistorted, supersampled picture (float32 BGR, 0..1). Planar faces are mapped
by the exact homography of the pinhole camera; curved sides are faceted. Shading is Lambert plus
Blinn–Phong highlights from one lamp, over ambient light.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from nardy.synth.camera import View

_SHIFT = 4  # sub-pixel bits for cv2 polygon drawing
_ONE = 1 << _SHIFT


@dataclass
class Light:
    lamp: np.ndarray  # lamp position (board mm)
    ambient: float

    def shade(self, point: np.ndarray, normal: np.ndarray) -> float:
        to_lamp = self.lamp - point
        to_lamp /= np.linalg.norm(to_lamp)
        return self.ambient + (1 - self.ambient) * max(0.0, float(normal @ to_lamp))

    def spec(self, point: np.ndarray, normal: np.ndarray, eye: np.ndarray, power: float):
        lv = self.lamp - point
        ev = eye - point
        h = lv / np.linalg.norm(lv) + ev / np.linalg.norm(ev)
        h /= np.linalg.norm(h)
        return max(0.0, float(normal @ h)) ** power


class Canvas:
    def __init__(self, view: View, w: int, h: int, light: Light):
        self.view = view
        self.img = np.zeros((h, w, 3), np.float32)
        self.shadow = np.zeros((h, w), np.float32)
        self.light = light
        self.w, self.h = w, h

    # -- primitives --------------------------------------------------------------------------------

    def quad(
        self,
        corners: np.ndarray,
        tex: np.ndarray,
        alpha: np.ndarray | None = None,
        shade: float | np.ndarray = 1.0,
        add: float = 0.0,
    ) -> None:
        """Map ``tex`` onto the planar 3-D quad ``corners`` (its TL, TR, BR, BL)."""
        uv = self.view.project(corners)
        if not np.isfinite(uv).all() or np.abs(uv).max() > 1e6:
            return
        x0, y0 = np.floor(uv.min(0)).astype(int)
        x1, y1 = np.ceil(uv.max(0)).astype(int) + 1
        x0, y0 = max(x0, 0), max(y0, 0)
        x1, y1 = min(x1, self.w), min(y1, self.h)
        if x1 <= x0 or y1 <= y0:
            return
        th, tw = tex.shape[:2]
        src = np.float32([[0, 0], [tw, 0], [tw, th], [0, th]]) - 0.5
        m = cv2.getPerspectiveTransform(src, (uv - [x0, y0]).astype(np.float32))
        size = (x1 - x0, y1 - y0)
        if np.ndim(shade) or shade != 1.0 or add:
            tex = tex * np.asarray(shade, np.float32) + np.float32(add)
        col = cv2.warpPerspective(
            tex, m, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
        )
        roi = self.img[y0:y1, x0:x1]
        if alpha is None:  # a plain quad: a clean edge, no blending
            mask = np.zeros(size[::-1], np.uint8)
            pts = np.round((uv - [x0, y0]) * _ONE).astype(np.int32)
            cv2.fillConvexPoly(mask, pts, 1, cv2.LINE_8, _SHIFT)
            cv2.copyTo(col, mask, roi)
            return
        a = cv2.warpPerspective(
            alpha, m, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=0
        )
        col -= roi
        col *= a[..., None]
        roi += col

    def poly(self, pts3d: np.ndarray, colour, img: np.ndarray | None = None) -> None:
        uv = self.view.project(pts3d)
        pts = np.round(uv * _ONE).astype(np.int32)
        target = self.img if img is None else img
        cv2.fillConvexPoly(
            target, pts, tuple(float(c) for c in np.atleast_1d(colour)), cv2.LINE_8, _SHIFT
        )

    def shadow_poly(self, pts2d: np.ndarray, value: float = 1.0) -> None:
        """Add a convex shadow, given as canvas pixels, to the shadow layer."""
        hull = cv2.convexHull(np.round(pts2d * _ONE).astype(np.int32))
        cv2.fillConvexPoly(self.shadow, hull, value, cv2.LINE_8, _SHIFT)

    def cast(self, pts3d: np.ndarray, base_z: float, value: float = 1.0) -> None:
        """The shadow of a convex solid (its vertices) on the plane z = ``base_z``."""
        lamp = self.light.lamp
        p = np.asarray(pts3d, float)
        d = p - lamp
        s = (base_z - lamp[2]) / np.where(np.abs(d[:, 2]) < 1e-6, -1e-6, d[:, 2])
        on = lamp + d * s[:, None]
        self.shadow_poly(self.view.project(np.vstack([on, p[p[:, 2] <= base_z + 0.5]])), value)

    def apply_shadow(self, strength: float, blur_px: float) -> None:
        s = soft(self.shadow, blur_px)
        np.clip(s, 0, 1, out=s)
        s *= -strength
        s += 1
        self.img *= s[..., None]
        self.shadow[:] = 0

    # -- solids ---------------------------------------------------------------------------------

    def cylinder(
        self,
        base: np.ndarray,
        axis: np.ndarray,
        radius: float,
        height: float,
        side: np.ndarray,
        face: np.ndarray,
        gloss: float,
        facets: int = 36,
    ) -> None:
        """A short cylinder (a checker): ``base`` is the centre of one face, ``axis`` points
        through it to the other; ``face`` is the texture of both faces (a square, disc-masked)."""
        axis = axis / np.linalg.norm(axis)
        u = np.cross(axis, [0.0, 0.0, 1.0] if abs(axis[2]) < 0.9 else [1.0, 0.0, 0.0])
        u /= np.linalg.norm(u)
        v = np.cross(axis, u)
        ang = np.linspace(0, 2 * np.pi, facets, endpoint=False)
        ring = np.cos(ang)[:, None] * u + np.sin(ang)[:, None] * v
        bottom = base + radius * ring
        top = bottom + height * axis
        eye, lamp = self.view.eye, self.light.lamp
        normals = ring + np.roll(ring, -1, 0)
        normals /= np.linalg.norm(normals, axis=1)[:, None]
        mids = base + axis * height / 2 + radius * normals
        seen = np.einsum("ij,ij->i", eye - mids, normals) > 1e-9
        to_lamp = lamp - mids
        to_lamp /= np.linalg.norm(to_lamp, axis=1)[:, None]
        to_eye = eye - mids
        to_eye /= np.linalg.norm(to_eye, axis=1)[:, None]
        half = to_lamp + to_eye
        half /= np.linalg.norm(half, axis=1)[:, None]
        amb = self.light.ambient
        diffuse = amb + (1 - amb) * np.clip(np.einsum("ij,ij->i", normals, to_lamp), 0, None)
        spec = np.clip(np.einsum("ij,ij->i", normals, half), 0, None) ** 30
        uv_b = np.round(self.view.project(bottom) * _ONE).astype(np.int32)
        uv_t = np.round(self.view.project(top) * _ONE).astype(np.int32)
        for i in np.nonzero(seen)[0]:
            j = (i + 1) % facets
            c = side * diffuse[i] + gloss * 0.8 * spec[i]
            pts = np.array([uv_b[i], uv_b[j], uv_t[j], uv_t[i]])
            cv2.fillConvexPoly(self.img, pts, tuple(float(x) for x in c), cv2.LINE_8, _SHIFT)
        light = self.light
        alpha = _disc(face.shape[0])
        for centre, normal in ((base + height * axis, axis), (base, -axis)):
            if not self.view.facing(centre, normal):
                continue
            a, b = u * radius, np.cross(normal, u) * radius
            corners = np.array([centre - a + b, centre + a + b, centre + a - b, centre - a - b])
            sh = light.shade(centre, normal)
            sp = gloss * 0.35 * light.spec(centre, normal, eye, 12)
            self.quad(corners, face, alpha, sh, sp)

    def box(
        self,
        centre: np.ndarray,
        rot: np.ndarray,
        size: float,
        faces: list[np.ndarray],
        body: np.ndarray,
        alpha: np.ndarray,
        gloss: float,
    ) -> None:
        """A cube of edge ``size``; ``rot`` columns are its axes; ``faces`` textures for +x, −x,
        +y, −y, +z, −z. The body colour fills behind the rounded face corners."""
        h = size / 2
        light, eye = self.light, self.view.eye
        for k, (ax, sgn) in enumerate(((0, 1), (0, -1), (1, 1), (1, -1), (2, 1), (2, -1))):
            n = rot[:, ax] * sgn
            c = centre + n * h
            if not self.view.facing(c, n):
                continue
            a = rot[:, (ax + 1) % 3] * h
            b = rot[:, (ax + 2) % 3] * h
            corners = np.array([c - a + b, c + a + b, c + a - b, c - a - b])
            sh = light.shade(c, n)
            sp = gloss * 0.5 * light.spec(c, n, eye, 20)
            self.poly(corners, body * sh * 0.8)
            self.quad(corners, faces[k], alpha, sh, sp)


def soft(img: np.ndarray, sigma: float) -> np.ndarray:
    """Gaussian blur; wide ones are done at a lower resolution (shadows have no detail)."""
    if sigma < 4:
        return cv2.GaussianBlur(img, (0, 0), max(sigma, 0.5))
    k = int(min(sigma / 2, 16))
    h, w = img.shape[:2]
    small = cv2.resize(img, ((w + k - 1) // k, (h + k - 1) // k), interpolation=cv2.INTER_AREA)
    small = cv2.GaussianBlur(small, (0, 0), sigma / k)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)


_DISCS: dict[int, np.ndarray] = {}


def _disc(size: int) -> np.ndarray:
    if size not in _DISCS:
        from nardy.synth.textures import disc_alpha

        _DISCS[size] = disc_alpha(size)
    return _DISCS[size]
