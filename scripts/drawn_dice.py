"""Plainly drawn dice for the dice reader's training: flat-shaded faces on plain or busy ground,
in styles the board renderer never draws.

``drawn_scene(rng, ground)`` gives one image and its dice as ``train_dice_reader`` takes them
(rows of centre x, y, top-face box side, value, cocked). Dice are white or ivory with dark pips,
or any colour (dark included) with light pips; 8 to 120 pixels across; turned any way, seen a
little in perspective; some cocked (the top face foreshortened, one or two side faces showing);
then light, blur, noise and JPEG changed at random. Some scenes hold no die at all, only things
a die is not (blank tiles, discs, rings).
"""

from __future__ import annotations

import cv2
import numpy as np

from nardy.synth.textures import PIPS

SS = 4  # drawn this many times larger, then shrunk: smooth edges


def _colours(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """A die's body and pip colours (BGR, 0..255)."""
    kind = rng.random()
    if kind < 0.45:  # white, ivory, cream: dark pips
        body = 255 - rng.uniform(0, 60, 3) * rng.uniform(0.2, 1.0)
        ink = rng.uniform(0, 60, 3)
        if rng.random() < 0.15:  # red or blue pips
            ink[rng.integers(3)] += rng.uniform(80, 160)
    else:  # coloured or dark: light pips (now and then dark pips on a light colour)
        hue = rng.uniform(0, 180)
        sat = rng.uniform(0.3, 1.0) * 255
        val = rng.uniform(20, 230)
        hsv = np.uint8([[[hue, sat, val]]])
        body = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0].astype(np.float64)
        ink = 255 - rng.uniform(0, 50, 3)
        if val > 170 and rng.random() < 0.5:
            ink = rng.uniform(0, 50, 3)
    return body, ink


def _face(value: int, side: int, body, ink, rng: np.random.Generator) -> np.ndarray:
    """A top face drawn at SS× size on black, and its mask (4 channels: BGR, alpha)."""
    n = side * SS
    face = np.zeros((n, n, 4), np.float32)
    r = int(n * rng.uniform(0.02, 0.25))
    colour = (*[float(c) for c in body], 255.0)
    cv2.rectangle(face, (r, 0), (n - 1 - r, n - 1), colour, -1)
    cv2.rectangle(face, (0, r), (n - 1, n - 1 - r), colour, -1)
    for cx, cy in ((r, r), (n - 1 - r, r), (r, n - 1 - r), (n - 1 - r, n - 1 - r)):
        cv2.circle(face, (cx, cy), r, colour, -1)
    step = n * rng.uniform(0.24, 0.31)
    rad = n * rng.uniform(0.06, 0.11)
    pip = (*[float(c) for c in ink], 255.0)
    for dx, dy in PIPS[value]:
        cv2.circle(face, (int(n / 2 + dx * step), int(n / 2 + dy * step)), int(rad), pip, -1)
    if rng.random() < 0.5:  # shading across the face
        g = np.linspace(rng.uniform(0.8, 1.0), rng.uniform(1.0, 1.15), n, dtype=np.float32)
        face[..., :3] *= (g[:, None] if rng.random() < 0.5 else g[None, :])[..., None]
    return face


def _paste(canvas: np.ndarray, art: np.ndarray, m: np.ndarray) -> None:
    """Warp the SS× art (BGRA) onto the canvas by ``m`` (2×3: the art's own square, in units
    of SS art pixels, → canvas pixels), drawn SS× larger and shrunk over the art's bounds."""
    h, w = canvas.shape[:2]
    n = art.shape[0] / SS
    ends = np.array([[0, 0, 1], [n, 0, 1], [n, n, 1], [0, n, 1]]) @ m.T
    x0, y0 = np.maximum(np.floor(ends.min(axis=0)).astype(int) - 1, 0)
    x1, y1 = np.minimum(np.ceil(ends.max(axis=0)).astype(int) + 1, [w, h])
    if x1 <= x0 or y1 <= y0:
        return
    shift = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]], np.float64)
    m3 = shift @ np.vstack([m, [0, 0, 1]])
    up, down = np.diag([SS, SS, 1.0]), np.diag([1.0 / SS, 1.0 / SS, 1.0])
    size = ((x1 - x0) * SS, (y1 - y0) * SS)
    warped = cv2.warpPerspective(art, up @ m3 @ down, size, flags=cv2.INTER_LINEAR)
    warped = cv2.resize(warped, (x1 - x0, y1 - y0), interpolation=cv2.INTER_AREA)
    a = warped[..., 3:4] / 255.0
    region = canvas[y0:y1, x0:x1]
    region[:] = region * (1 - a) + warped[..., :3] * a


def _ground(rng: np.random.Generator, ground: np.ndarray | None) -> np.ndarray:
    h, w = int(rng.integers(200, 480)), int(rng.integers(240, 640))
    if ground is not None and rng.random() < 0.5:
        gh, gw = ground.shape[:2]
        y, x = int(rng.integers(0, max(gh - h, 1))), int(rng.integers(0, max(gw - w, 1)))
        crop = ground[y : y + h, x : x + w]
        return cv2.resize(crop, (w, h)).astype(np.float32)
    base = rng.uniform(20, 235) + rng.normal(0, 25, 3)  # mostly greyish: tables, cloth, wood
    canvas = np.empty((h, w, 3), np.float32)
    canvas[:] = base
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    tilt = rng.normal(0, 0.25, 2)
    canvas += ((xx / w - 0.5) * tilt[0] + (yy / h - 0.5) * tilt[1])[..., None] * base
    if rng.random() < 0.4:  # grain
        grain = cv2.resize(rng.normal(0, 1, (h // 8 + 1, w // 2 + 1)), (w, h))
        canvas += grain[..., None].astype(np.float32) * rng.uniform(3, 15)
    return canvas


def _distractor(canvas: np.ndarray, rng: np.random.Generator) -> None:
    """Something a die is not: a blank tile, a disc (a checker), a ring."""
    h, w = canvas.shape[:2]
    c = (int(rng.integers(0, w)), int(rng.integers(0, h)))
    s = int(rng.integers(8, 80))
    colour = tuple(float(v) for v in rng.uniform(0, 255, 3))
    kind = rng.integers(3)
    if kind == 0:
        box = cv2.boxPoints((c, (s, s), float(rng.uniform(0, 90)))).astype(np.int32)
        cv2.fillConvexPoly(canvas, box, colour, cv2.LINE_AA)
    elif kind == 1:
        cv2.circle(canvas, c, s, colour, -1, cv2.LINE_AA)
    else:
        cv2.circle(canvas, c, s, colour, max(1, s // 6), cv2.LINE_AA)


def _affine(lin: np.ndarray, centre, side: int) -> np.ndarray:
    """The 2×3 map of a face's own square (0..side) onto the canvas: ``lin`` about ``centre``."""
    return np.hstack([lin, (np.asarray(centre) - lin @ [side / 2, side / 2])[:, None]])


def _die(canvas, rng, value: int, side: int, centre, cocked: bool) -> float:
    """Draw one die; returns its top face's box side in the image."""
    body, ink = _colours(rng)
    turn = np.radians(rng.uniform(0, 360))
    rot = np.array([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]])
    axis, across = rot[:, 0], rot[:, 1]
    # foreshortening: a little for a flat die seen at an angle, much for a cocked one
    squash = rng.uniform(0.6, 0.88) if cocked else rng.uniform(0.9, 1.0)
    lin = rot @ np.diag([squash, 1.0]) @ (np.eye(2) + rng.normal(0, 0.03, (2, 2)))
    centre = np.asarray(centre, np.float64)
    if cocked:  # a side face beside the squashed direction (now and then two), shaded darker
        depth = float(np.sqrt(1 - squash**2))
        shade = rng.uniform(0.45, 0.8)
        face = _face(int(rng.integers(1, 7)), side, body * shade, ink * shade, rng)
        sign = 1 if rng.random() < 0.5 else -1
        shift = sign * axis * side * (squash + depth) / 2
        _paste(canvas, face, _affine(rot @ np.diag([depth, 1.0]), centre + shift, side))
        if rng.random() < 0.4:
            thin = depth * rng.uniform(0.2, 0.6)
            face = _face(int(rng.integers(1, 7)), side, body * shade * 0.8, ink * shade, rng)
            shift = rng.choice([-1, 1]) * across * side * (1 + thin) / 2
            _paste(canvas, face, _affine(rot @ np.diag([squash, thin]), centre + shift, side))
    _paste(canvas, _face(value, side, body, ink, rng), _affine(lin, centre, side))
    corners = (lin @ (np.array([[0, 0], [side, 0], [side, side], [0, side]]) - side / 2).T).T
    return float(max(np.ptp(corners[:, 0]), np.ptp(corners[:, 1])))


def drawn_scene(
    rng: np.random.Generator, ground: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """One image (uint8 BGR) and its dice (n, 5): cx, cy, top-face box side, value, cocked."""
    canvas = _ground(rng, ground)
    h, w = canvas.shape[:2]
    for _ in range(int(rng.integers(0, 4))):
        _distractor(canvas, rng)
    rows: list[list[float]] = []
    count = 0 if rng.random() < 0.08 else int(rng.integers(1, 4))
    limit = max(9, min(h, w) // 3)
    for _ in range(count):
        side = int(np.exp(rng.uniform(np.log(8), np.log(min(120, limit)))))
        for _try in range(20):
            c = rng.uniform([side, side], [w - side, h - side])
            if all(np.hypot(c[0] - r[0], c[1] - r[1]) > 1.3 * (side + r[2]) for r in rows):
                break
        else:
            continue
        cocked = bool(rng.random() < 0.35)
        value = int(rng.integers(1, 7))
        box = _die(canvas, rng, value, side, c, cocked)
        rows.append([float(c[0]), float(c[1]), box, value, float(cocked)])
    # light across the picture, blur, noise, JPEG
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    light = 1 + rng.normal(0, 0.15) * (xx / w - 0.5) + rng.normal(0, 0.15) * (yy / h - 0.5)
    canvas = canvas * light[..., None] * rng.uniform(0.6, 1.3)
    if rng.random() < 0.6:
        canvas = cv2.GaussianBlur(canvas, (0, 0), rng.uniform(0.3, 1.6))
    canvas += rng.normal(0, rng.uniform(0, 6), canvas.shape).astype(np.float32)
    image = np.clip(canvas, 0, 255).astype(np.uint8)
    ok, jpg = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(50, 95))])
    assert ok
    image = cv2.imdecode(jpg, cv2.IMREAD_COLOR)
    return image, np.array(rows, np.float64).reshape(-1, 5)
