"""Procedural textures: wood grain, felt, leather, checker faces, dice and cube faces, markers.

Every texture is float32 BGR in 0..1 and comes from the generator it is given, so a picture is
the same for the same seed.
"""

from __future__ import annotations

import itertools

import cv2
import numpy as np

from nardy.synth.styles import BGR


def smooth_noise(rng: np.random.Generator, h: int, w: int, cells_y: int, cells_x: int):
    """Noise in 0..1 varying over about ``cells`` blobs each way (bicubic)."""
    small = rng.random((max(2, cells_y), max(2, cells_x))).astype(np.float32)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)


def _ramp(g: np.ndarray, a: BGR, b: BGR) -> np.ndarray:
    """Blend from colour ``b`` (g = 0) to ``a`` (g = 1)."""
    a_, b_ = np.float32(a), np.float32(b)
    return b_ + (a_ - b_) * g[..., None]


def wood(
    rng: np.random.Generator,
    h: int,
    w: int,
    light: BGR,
    dark: BGR,
    scale: float = 1.0,
    planks: int = 1,
) -> np.ndarray:
    """Wood with its grain along x; ``scale`` is pixels per millimetre (grain keeps its size)."""
    out = np.empty((h, w, 3), np.float32)
    edges = np.linspace(0, h, planks + 1).astype(int)
    for y0, y1 in itertools.pairwise(edges):
        out[y0:y1] = _plank(rng, y1 - y0, w, light, dark, scale)
        if planks > 1 and y0 > 0:
            out[y0 : y0 + max(1, int(scale * 0.6))] *= 0.55  # the joint between planks
    return out


def _plank(rng, h, w, light, dark, scale):
    s = max(scale, 0.2)
    # wavy growth rings: a coordinate across the grain, bent by slow noise
    bend = smooth_noise(rng, h, w, 3, int(2 + w / (220 * s))) * 40 * s
    yy = np.arange(h, dtype=np.float32)[:, None] + bend
    period = rng.uniform(5, 11) * s
    rings = 0.5 + 0.5 * np.sin(2 * np.pi * yy / period + rng.uniform(0, 6.3))
    rings = rings ** rng.uniform(1.5, 3.0)
    # streaks: noise stretched along the grain
    st = smooth_noise(rng, h, w, int(h / (1.2 * s)) + 2, int(w / (60 * s)) + 2)
    st2 = smooth_noise(rng, h, w, int(h / (4 * s)) + 2, int(w / (25 * s)) + 2)
    g = 0.45 * rings + 0.35 * st + 0.2 * st2
    # figure: broad light and dark patches
    g = g * 0.8 + 0.3 * smooth_noise(rng, h, w, 3, 5) - 0.1
    g = np.clip(g, 0, 1)
    tex = _ramp(g, light, dark)
    # pores: short dark dashes along the grain
    pores = rng.random((h, max(2, int(w / (3 * s)))), dtype=np.float32) > 0.985
    pores = cv2.resize(pores.astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR)
    tex *= (1 - 0.25 * pores)[..., None]
    return tex


def felt(rng: np.random.Generator, h: int, w: int, light: BGR, dark: BGR, scale=1.0):
    fine = cv2.GaussianBlur(rng.random((h, w), dtype=np.float32), (0, 0), max(0.5, 0.4 * scale))
    fine = (fine - 0.5) * 3 + 0.5
    g = np.clip(0.55 * smooth_noise(rng, h, w, 6, 8) + 0.45 * fine, 0, 1)
    return _ramp(g, light, dark)


def leather(rng: np.random.Generator, h: int, w: int, light: BGR, dark: BGR, scale=1.0):
    cells = cv2.GaussianBlur(rng.random((h, w), dtype=np.float32), (0, 0), 1.2 * scale)
    cells = np.clip((cells - 0.5) * 6 + 0.5, 0, 1)
    g = np.clip(0.5 * smooth_noise(rng, h, w, 4, 6) + 0.35 * cells + 0.15, 0, 1)
    return _ramp(g, light, dark)


def surface(kind: str, rng, h, w, light, dark, scale=1.0) -> np.ndarray:
    if kind == "felt":
        return felt(rng, h, w, light, dark, scale)
    if kind == "leather":
        return leather(rng, h, w, light, dark, scale)
    if kind == "stone":
        return leather(rng, h, w, light, dark, scale * 0.5)
    if kind == "cloth":
        return felt(rng, h, w, light, dark, scale * 0.6)
    return wood(rng, h, w, light, dark, scale)


def disc_alpha(size: int, inset: float = 0.0) -> np.ndarray:
    """An anti-aliased disc filling a ``size`` square."""
    r = (size / 2 - 0.5) * (1 - inset)
    yy, xx = np.mgrid[0:size, 0:size].astype(np.float32) - (size - 1) / 2
    return np.clip(r - np.hypot(xx, yy) + 0.5, 0, 1)


def checker_face(
    rng: np.random.Generator, size: int, colour: BGR, design: int, grain: bool
) -> np.ndarray:
    """The top of a checker: a raised rim, a groove, and a design in the middle."""
    yy, xx = np.mgrid[0:size, 0:size].astype(np.float32) - (size - 1) / 2
    r = np.hypot(xx, yy) / (size / 2)
    if grain:
        base = wood(rng, size, size, colour, tuple(c * 0.72 for c in colour), size / 40)
    else:
        base = np.empty((size, size, 3), np.float32)
        base[:] = colour
        base *= (1 + 0.04 * (smooth_noise(rng, size, size, 4, 4) - 0.5))[..., None]
    shade = np.ones_like(r)
    if design == 0:  # plain with a rim
        shade += 0.10 * ((r > 0.84) & (r < 0.95)) - 0.12 * ((r > 0.80) & (r < 0.84))
    elif design == 1:  # concentric grooves
        for ring in (0.35, 0.6, 0.85):
            shade -= 0.13 * np.exp(-(((r - ring) / 0.025) ** 2))
    elif design == 2:  # dished: a raised rim and a lower, darker middle
        shade += 0.08 * (r > 0.78) - 0.06 * (1 - r) * (r <= 0.78)
    else:  # a rosette pressed in the middle
        ang = np.arctan2(yy, xx)
        shade -= 0.08 * (r < 0.45) * (0.5 + 0.5 * np.cos(8 * ang)) * (1 - r / 0.45)
        shade -= 0.12 * np.exp(-(((r - 0.88) / 0.03) ** 2))
    shade -= 0.15 * np.clip((r - 0.95) / 0.05, 0, 1)  # the rounded edge turns away
    return base * shade[..., None]


#: where the pips of each face lie, on a 3×3 grid from (-1, -1) to (1, 1)
PIPS = {
    1: [(0, 0)],
    2: [(-1, -1), (1, 1)],
    3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
    5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
    6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)],
}


def rounded_square_alpha(size: int, radius: float) -> np.ndarray:
    yy, xx = np.mgrid[0:size, 0:size].astype(np.float32) - (size - 1) / 2
    half = size / 2 - 0.5 - radius
    dx = np.maximum(np.abs(xx) - half, 0)
    dy = np.maximum(np.abs(yy) - half, 0)
    return np.clip(radius - np.hypot(dx, dy) + 0.5, 0, 1)


def _face_base(size: int, body: BGR) -> np.ndarray:
    yy, xx = np.mgrid[0:size, 0:size].astype(np.float32) - (size - 1) / 2
    edge = np.maximum(np.abs(xx), np.abs(yy)) / (size / 2)
    tex = np.empty((size, size, 3), np.float32)
    tex[:] = body
    return tex * (1 - 0.22 * np.clip((edge - 0.82) / 0.18, 0, 1) ** 2)[..., None]


def die_face(size: int, value: int, body: BGR, pips: BGR) -> np.ndarray:
    tex = _face_base(size, body)
    step, rad = size * 0.27, size * 0.095
    for px, py in PIPS[value]:
        c = (size / 2 - 0.5 + px * step, size / 2 - 0.5 + py * step)
        cv2.circle(tex, (int(c[0] * 16), int(c[1] * 16)), int(rad * 16), pips, -1, cv2.LINE_AA, 4)
        # a drilled pip: darker toward its upper-left wall
        cv2.circle(
            tex,
            (int((c[0] - rad * 0.2) * 16), int((c[1] - rad * 0.2) * 16)),
            int(rad * 0.55 * 16),
            tuple(v * 0.7 for v in pips),
            -1,
            cv2.LINE_AA,
            4,
        )
    return tex


def cube_face(size: int, value: int, body: BGR, ink: BGR) -> np.ndarray:
    tex = _face_base(size, body)
    text = str(value)
    font = cv2.FONT_HERSHEY_DUPLEX
    thick = max(1, size // 22)
    (tw, th), _ = cv2.getTextSize(text, font, 1.0, thick)
    k = size * (0.62 if len(text) == 1 else 0.8) / max(tw, th * 1.3)
    (tw, th), _ = cv2.getTextSize(text, font, k, thick)
    org = (int((size - tw) / 2), int((size + th) / 2))
    mask = np.zeros((size, size), np.uint8)
    cv2.putText(mask, text, org, font, k, 255, thick, cv2.LINE_AA)
    a = (mask.astype(np.float32) / 255)[..., None]
    return tex * (1 - a) + np.float32(ink) * a


def marker(marker_id: int, size: int) -> np.ndarray:
    """An ArUco DICT_4X4_50 marker on white paper (a one-cell white margin)."""
    d = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    cell = max(1, size // 8)
    m = cv2.aruco.generateImageMarker(d, marker_id, cell * 6)
    m = cv2.copyMakeBorder(m, cell, cell, cell, cell, cv2.BORDER_CONSTANT, value=255)
    m = cv2.resize(m, (size, size), interpolation=cv2.INTER_NEAREST)
    return np.repeat((m.astype(np.float32) / 255 * 0.9 + 0.04)[..., None], 3, 2)
