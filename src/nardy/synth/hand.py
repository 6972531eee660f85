"""A hand and forearm over the board, with its sleeve and the shadow it casts."""

from __future__ import annotations

import cv2
import numpy as np

from nardy.synth.board import Board
from nardy.synth.draw import Canvas
from nardy.synth.scene import Hand
from nardy.synth.styles import CHECKER_SETS, SKIN_TONES, SLEEVES

_ENTRY = {"bottom": (0.0, -1.0), "top": (0.0, 1.0), "left": (-1.0, 0.0), "right": (1.0, 0.0)}


def _capsule(a: np.ndarray, b: np.ndarray, r: float, n: int = 10) -> np.ndarray:
    """Outline (2-D) of a rounded stroke from ``a`` to ``b``."""
    d = b - a
    ang0 = np.arctan2(d[1], d[0])
    t1 = ang0 + np.linspace(-np.pi / 2, np.pi / 2, n)
    t2 = ang0 + np.linspace(np.pi / 2, 3 * np.pi / 2, n)
    return np.vstack(
        [
            b + r * np.stack([np.cos(t1), np.sin(t1)], 1),
            a + r * np.stack([np.cos(t2), np.sin(t2)], 1),
        ]
    )


def hand_parts(hand: Hand, board: Board) -> list[tuple[str, np.ndarray]]:
    """The hand as convex-ish 3-D outlines: ("sleeve"|"skin", N × 3), back to front."""
    ex, ey = _ENTRY[hand.enters]
    back = np.array([ex, ey])  # from the fingertips back toward the player
    side = np.array([-ey, ex])
    reach = np.array(hand.reach, float)
    z = hand.height
    far = max(board.inner_w, board.inner_h) * 1.3
    wrist = reach + back * 150
    elbow = reach + back * (150 + far)
    parts: list[tuple[str, np.ndarray]] = []

    def lift(pts2: np.ndarray, z0: float, z1: float | None = None) -> np.ndarray:
        if z1 is None:
            return np.column_stack([pts2, np.full(len(pts2), z0)])
        # height rises along the arm toward the player
        s = np.clip(((pts2 - reach) @ back - 150) / far, 0, 1)
        return np.column_stack([pts2, z0 + (z1 - z0) * s])

    arm = np.array([wrist + side * 33, wrist - side * 33, elbow - side * 50, elbow + side * 50])
    parts.append(("skin", lift(arm, z, z + 260)))
    cuff = wrist + back * (60 + 40 * hand.spread)
    sleeve = np.array([cuff + side * 46, cuff - side * 46, elbow - side * 70, elbow + side * 70])
    parts.append(("sleeve", lift(sleeve, z + 10, z + 280)))
    palm_c = reach + back * 95
    ang = np.linspace(0, 2 * np.pi, 24, endpoint=False)
    palm = palm_c + np.stack([np.cos(ang), np.sin(ang)], 1) @ np.array([side * 44, back * 52])
    parts.append(("skin", lift(palm, z + 6)))
    spread = 0.12 + 0.25 * hand.spread
    for i, (length, off) in enumerate(((62, -1.5), (72, -0.5), (70, 0.5), (56, 1.5))):
        base = palm_c - back * 40 + side * off * 18
        direction = -back * np.cos(spread * off) + side * np.sin(spread * off)
        tip = base + direction * length * (0.85 + 0.1 * i % 2)
        parts.append(("skin", lift(_capsule(base, tip, 9.0 - abs(off)), z - 4)))
    thumb_base = palm_c + side * 38 + back * 10
    thumb_tip = thumb_base + (-back * 0.6 + side * 0.8) * 58
    parts.append(("skin", lift(_capsule(thumb_base, thumb_tip, 10.0), z)))
    return parts


def draw_hand(
    canvas: Canvas, hand: Hand, board: Board, rng: np.random.Generator, shadow: float
) -> None:
    parts = hand_parts(hand, board)
    v = canvas.view
    # the shadow first, soft because the hand is high above the board
    for _, pts in parts:
        canvas.cast(pts, 0.0)
    canvas.apply_shadow(0.35 + 0.4 * shadow, 0.08 * hand.height * v.f / np.linalg.norm(v.eye))
    h, w = canvas.h, canvas.w
    skin = np.zeros((h, w), np.uint8)
    cloth = np.zeros((h, w), np.uint8)
    for kind, pts in parts:
        uv = np.round(v.project(pts) * 16).astype(np.int32)
        target = cloth if kind == "sleeve" else skin
        cv2.fillPoly(target, [uv], 255, cv2.LINE_AA, 4)
        if kind == "sleeve":
            cv2.fillPoly(skin, [uv], 0, cv2.LINE_AA, 4)
    if hand.holding:
        chk = CHECKER_SETS["white_black"]
        colour = chk.light if hand.holding == "light" else chk.dark
        tip = np.array([*hand.reach, hand.height - 12.0])
        uv = v.project(tip[None])[0]
        r = board.checker / 2 * v.f / np.linalg.norm(v.eye - tip)
        cv2.circle(
            canvas.img,
            (int(uv[0] * 16), int(uv[1] * 16)),
            int(r * 16),
            tuple(float(c) for c in colour),
            -1,
            cv2.LINE_AA,
            4,
        )
    _paint(canvas, skin, SKIN_TONES[hand.skin % len(SKIN_TONES)], rng, 0.35)
    _paint(canvas, cloth, SLEEVES[hand.sleeve % len(SLEEVES)], rng, 0.6)


def _paint(canvas: Canvas, mask: np.ndarray, colour, rng, texture: float) -> None:
    ys, xs = np.nonzero(mask)
    if len(xs) == 0:
        return
    y0, y1, x0, x1 = ys.min(), ys.max() + 1, xs.min(), xs.max() + 1
    m = mask[y0:y1, x0:x1]
    # round shapes: brighter along the middle, darker at the edges
    dist = cv2.distanceTransform((m > 127).astype(np.uint8), cv2.DIST_L2, 5)
    depth = np.clip(dist / max(float(dist.max()) * 0.6, 1.0), 0, 1)
    shade = 0.55 + 0.5 * np.sqrt(depth)
    hh, ww = m.shape
    small = rng.random((max(2, hh // 12), max(2, ww // 12))).astype(np.float32)
    mottled = cv2.resize(small, (ww, hh), interpolation=cv2.INTER_CUBIC)
    shade *= 1 + texture * 0.25 * (mottled - 0.5)
    col = np.float32(colour) * shade[..., None]
    a = (m.astype(np.float32) / 255)[..., None]
    roi = canvas.img[y0:y1, x0:x1]
    roi[:] = roi * (1 - a) + col * a
