"""A hand and forearm over the board, with its sleeve and the soft shadow it casts.

The hand is painted once, flat, in its own texture (fingers, palm, wrist, forearm, cuff), and
laid on a plane in the scene: level at the fingertips ``height`` mm above the board, rising
toward the player. Its shadow is the same silhouette thrown onto the board from the lamp.
"""

from __future__ import annotations

import cv2
import numpy as np

from nardy.synth.board import Board
from nardy.synth.draw import Canvas, soft
from nardy.synth.scene import Hand
from nardy.synth.styles import BGR, SKIN_TONES, SLEEVES

_ENTRY = {"bottom": (0.0, -1.0), "top": (0.0, 1.0), "left": (-1.0, 0.0), "right": (1.0, 0.0)}
PX = 2.0  # texture pixels per mm
WIDTH, LENGTH = 150.0, 520.0  # mm


def hand_texture(hand: Hand, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """(colour, alpha) of the hand seen from above: fingertips at the top row, the arm running
    down to the bottom edge; x across, with the thumb on the right."""
    w, h = int(WIDTH * PX), int(LENGTH * PX)
    skin = np.zeros((h, w), np.uint8)
    cx = w / 2

    def mm(x: float, y: float) -> tuple[int, int]:  # mm from the top middle → 1/16 px
        return int((cx + x * PX) * 16), int((y * PX) * 16)

    grip = 1 - hand.spread  # curled fingers look shorter from above
    palm_top, palm_len, palm_w = 75 - 25 * grip, 95.0, 84.0
    cv2.ellipse(
        skin,
        mm(0, palm_top + palm_len / 2),
        (int(palm_w / 2 * PX * 16), int(palm_len / 2 * PX * 16)),
        0,
        0,
        360,
        255,
        -1,
        cv2.LINE_AA,
        4,
    )
    fingers = []
    for i, (off, length) in enumerate(((-30, 62), (-10, 74), (10, 70), (29, 56))):
        splay = np.radians((i - 1.5) * (3 + 7 * hand.spread))
        length *= 1 - 0.45 * grip
        base = np.array([off * 0.95, palm_top + 14])
        tip = base + length * np.array([np.sin(splay), -np.cos(splay)])
        r = 8.5 - abs(i - 1.5) * 0.6
        cv2.line(skin, mm(*base), mm(*tip), 255, int(2 * r * PX), cv2.LINE_AA, 4)
        fingers.append((tip, r))
    thumb_base = np.array([palm_w / 2 - 8, palm_top + palm_len * 0.7])
    thumb_tip = thumb_base + (55 - 15 * grip) * np.array([0.55, -0.83])
    cv2.line(skin, mm(*thumb_base), mm(*thumb_tip), 255, int(20 * PX), cv2.LINE_AA, 4)
    fingers.append((thumb_tip, 10.0))
    # wrist and forearm
    wrist_y = palm_top + palm_len - 8
    arm = np.array([[-32, wrist_y], [32, wrist_y], [40, LENGTH], [-40, LENGTH]])
    cv2.fillConvexPoly(skin, np.array([mm(*p) for p in arm]), 255, cv2.LINE_AA, 4)
    # joins look organic when the silhouette is smoothed a little
    skin = cv2.GaussianBlur(skin, (0, 0), 2.5 * PX)
    skin = np.clip((skin.astype(np.float32) - 110) * 3, 0, 255).astype(np.uint8)
    alpha = skin.astype(np.float32) / 255
    # shading: round across the fingers and the arm, creases between the fingers
    dist = cv2.distanceTransform((skin > 127).astype(np.uint8), cv2.DIST_L2, 5) / PX
    round_ = np.sqrt(np.clip(dist / 14.0, 0, 1))
    tone = np.float32(
        hand.tone if hand.tone is not None else SKIN_TONES[hand.skin % len(SKIN_TONES)]
    )
    mottle = cv2.resize(
        rng.random((h // 24, w // 24)).astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC
    )
    shade = (0.62 + 0.4 * round_) * (1 + 0.08 * (mottle - 0.5))
    col = tone * shade[..., None]
    for tip, r in fingers:  # nails: paler, a little glossy
        nail = tip + np.array([0, r * 0.55 if tip[1] < palm_top else 0])
        cv2.ellipse(
            col,
            mm(*nail),
            (int(r * 0.6 * PX * 16), int(r * 0.75 * PX * 16)),
            0,
            0,
            360,
            tuple(float(v) for v in np.minimum(tone * 1.04 + 0.03, 1)),
            -1,
            cv2.LINE_AA,
            4,
        )
    # the sleeve: from a cuff some way up the forearm to the end, wider than the arm
    cuff = wrist_y + 70 + 60 * rng.random()
    if hand.cuff is not None:
        cuff = hand.cuff
    cloth = np.zeros((h, w), np.uint8)
    sleeve = np.array([[-44, cuff], [44, cuff], [58, LENGTH], [-58, LENGTH]])
    cv2.fillConvexPoly(cloth, np.array([mm(*p) for p in sleeve]), 255, cv2.LINE_AA, 4)
    cloth_a = cv2.GaussianBlur(cloth, (0, 0), 1.5).astype(np.float32) / 255
    fabric = np.float32(
        hand.fabric if hand.fabric is not None else SLEEVES[hand.sleeve % len(SLEEVES)]
    )
    yy = np.arange(h, dtype=np.float32)[:, None] / PX
    folds = 0.88 + 0.12 * np.sin(yy / rng.uniform(9, 16) + 1.2 * mottle)
    cd = cv2.distanceTransform((cloth > 127).astype(np.uint8), cv2.DIST_L2, 5) / PX
    cshade = (0.55 + 0.45 * np.sqrt(np.clip(cd / 18.0, 0, 1))) * folds
    col = col * (1 - cloth_a[..., None]) + (fabric * cshade[..., None]) * cloth_a[..., None]
    alpha = np.maximum(alpha, cloth_a)
    if rng.random() < 0.5:  # a left hand
        col, alpha = col[:, ::-1].copy(), alpha[:, ::-1].copy()
    return col.astype(np.float32), alpha


def hand_plane(hand: Hand, eye_z: float) -> np.ndarray:
    """The hand texture's corners in the scene (TL, TR, BR, BL): fingertips at ``reach``."""
    ex, ey = _ENTRY[hand.enters]
    back = np.array([ex, ey, 0.0])  # from the fingertips toward the player
    side = np.array([ey, -ex, 0.0])  # the texture's +x
    tip = np.array([hand.reach[0], hand.reach[1], hand.height]) - back * 8
    # the forearm rises toward the player, but stays well below the camera
    rise = min(0.45, max(0.05, (0.55 * eye_z - hand.height) / LENGTH))
    far = tip + back * LENGTH * np.sqrt(1 - rise**2) + np.array([0, 0, LENGTH * rise])
    half = side * WIDTH / 2
    return np.array([tip - half, tip + half, far + half, far - half])


def draw_hand(
    canvas: Canvas,
    hand: Hand,
    board: Board,
    rng: np.random.Generator,
    shadow: float,
    holding: tuple[BGR, BGR] | None = None,
) -> np.ndarray:
    """Draw the hand (and the checker it holds, in ``holding``'s light or dark colour).

    Returns what it covers: the canvas pixels (bool, h × w) that the hand, its arm and sleeve
    and what it holds were drawn over (its shadow is not a cover: what lies under it is seen)."""
    col, alpha = hand_texture(hand, rng)
    corners = hand_plane(hand, float(canvas.view.eye[2]))
    # the shadow: the silhouette thrown from the lamp onto the board, blurred by the height
    lamp = canvas.light.lamp
    d = corners - lamp
    on = lamp + d * ((0.0 - lamp[2]) / d[:, 2])[:, None]
    uv = canvas.view.project(on)
    if np.isfinite(uv).all() and np.abs(uv).max() < 1e6:
        th, tw = alpha.shape
        src = np.float32([[0, 0], [tw, 0], [tw, th], [0, th]])
        m = cv2.getPerspectiveTransform(src, uv.astype(np.float32))
        sh = cv2.warpPerspective(alpha, m, (canvas.w, canvas.h), flags=cv2.INTER_LINEAR)
        ppm = canvas.view.f / float(np.linalg.norm(canvas.view.eye))
        sh = soft(sh, max(2.0, 0.06 * hand.height * ppm))
        canvas.img *= (1 - (0.35 + 0.4 * shadow) * np.clip(sh, 0, 1))[..., None]
    under = canvas.img.copy()
    if hand.holding == "cup":
        _draw_cup(canvas, hand)
    elif hand.holding and holding is not None:
        colour = np.float32(holding[0] if hand.holding == "light" else holding[1])
        ex, ey = _ENTRY[hand.enters]
        at = np.array([hand.reach[0] + ex * 18, hand.reach[1] + ey * 18, hand.height - 14])
        face = np.empty((64, 64, 3), np.float32)
        face[:] = colour
        t = board.thickness
        canvas.cylinder(
            at, np.array([0.0, 0.0, 1.0]), board.checker / 2, t, colour * 0.9, face, 0.5
        )
    canvas.quad(corners, col, alpha)
    return (canvas.img != under).any(axis=2)


CUP = (82.0, 105.0)  # the dice cup's diameter and height, mm
_LEATHER = np.float32([0.10, 0.13, 0.22])


def _draw_cup(canvas: Canvas, hand: Hand) -> None:
    """The dice cup in the hand: a leather cylinder the fingers wrap round, beyond the
    fingertips, leaning toward the player."""
    ex, ey = _ENTRY[hand.enters]
    at = np.array([hand.reach[0] - ex * 30, hand.reach[1] - ey * 30, max(0.0, hand.height - 95)])
    axis = np.array([0.25 * ex, 0.25 * ey, 1.0])
    face = np.empty((64, 64, 3), np.float32)
    face[:] = _LEATHER * 0.6
    canvas.cylinder(at, axis, CUP[0] / 2, CUP[1] * 0.9, _LEATHER, face, 0.2)
