"""Flat or cocked, for a die found on a board whose inner frame corners are known.

Seen in the photograph, a flat die's top face is foreshortened by the camera's slant just as a
cocked die's is by its lean, so the patch reader (``dice_patches``) confuses the two. The
board's homography undoes the camera's slant: cut through it, in the board's own plane (its
width 1, its height ``aspect``), a flat die's top face is a square of the die's size (the top
face lies in a plane parallel to the board, which the homography maps to a scaled copy), and
only a cocked die's is foreshortened, with a side face beside it. ``cut_flat`` cuts that
board-plane patch around a found top face; a network of the patch reader's kind, wider
(``dice_tilt.onnx``: the patch reader trained further by ``scripts/train_dice_tilt.py`` on such
patches of renders) says from it how likely the die is cocked, and reads its value too.

A flat die shows side faces too, between its top face and the camera's foot (the point of the
board's plane under the camera): its top face stands above the board, so the plane's view
shifts it away from the foot. ``camera_foot`` finds that point from the corners (the camera's
pose, its focal length the one that makes the board a rectangle of the given proportions), and
each patch is cut turned so that away from the foot is up: side faces of a flat die then show
only below its top face, and one showing elsewhere is a lean.

A cocked die's top face is often found off its centre, toward the side face it shows (on
held-out renders a fifth of a face at the median, against a twentieth for a flat die), and
a patch cut there reads that face's pips. The network also says where in its patch the top
face's centre lies (the patch reader's box output, trained on such patches), and
``read_flat`` cuts each die again around it (``recentre``, ``DiceConfig.board_recentre``)
before the read that counts: on held-out renders 73 of 618 values misread against 82 read
where the die was found. Since session 14 ``dice_place``'s network of its own places the face
instead, nearer (``DiceConfig.board_place``; ``board_recentre`` 0). The network learnt
plainly drawn dice seen from straight above too, which show no side face (session 9's, which
had not, misread a drawn 3 once re-centred).

Session 12's network is wider and learnt from about three times the renders: on 459 held-out
renders of session 12 it misreads 27 of 761 found dice against session 11's 58, and at
``DiceConfig.board_cocked`` catches more cocked dice with fewer flat ones called cocked.
Session 13's went on from it with session 13's renders, frames of a shaken camera among them,
and patches smeared, out of focus and recoloured: held out, 30 misread against 31 (of 772), 205
cocked dice caught against 202, and in shaken frames half as many flat dice called cocked (18 of
80), though their values stay mostly unread (64 of 88 wrong against 66). Session 15's went on
from it with the p14 renders too and cuts round where the placer puts each face: on 1,595
held-out dice 1,516 values right against 1,511, flat dice called cocked 175 against 192.
Session 16's went on from it with session 15's renders too: on 2,664 held-out dice 2,497 right
against 2,483 (shaken frames 218 against 210), flat dice called cocked 237 against 263 of the
still sets'.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from nardy.vision import tinynet
from nardy.vision.camera import camera_eye
from nardy.vision.dice_patches import CONTEXT, PATCH, normalise_patch

WEIGHTS = Path(__file__).with_name("dice_tilt.onnx")


def to_plane(corners: Sequence[Sequence[float]], aspect: float) -> np.ndarray:
    """Image → board-plane map for inner frame corners TL, TR, BR, BL: the board's width is 1
    and its height ``aspect``, so a square on the board is a square there."""
    src = np.asarray(corners, np.float32).reshape(4, 2)
    dst = np.array([[0, 0], [1, 0], [1, aspect], [0, aspect]], np.float32)
    return cv2.getPerspectiveTransform(src, dst)


def board_plane(
    corners: Sequence[Sequence[float]], aspect: float, image_size: tuple[int, int]
) -> tuple[np.ndarray, np.ndarray, float]:
    """``to_plane``, the ``camera_foot`` under it and the camera's height over the board's plane
    (in its units), made once for a board's corners and an image size: a camera that stays put
    gives the same corners every frame, and the foot's search over focal lengths costs about a
    millisecond. The arrays are read-only."""
    key = tuple(float(v) for v in np.asarray(corners, np.float64).ravel())
    return _board_plane(key, float(aspect), (int(image_size[0]), int(image_size[1])))


@lru_cache(maxsize=8)
def _board_plane(
    corners: tuple[float, ...], aspect: float, image_size: tuple[int, int]
) -> tuple[np.ndarray, np.ndarray, float]:
    to_board = to_plane(np.reshape(corners, (4, 2)), aspect)
    eye = camera_eye(to_board, image_size)
    foot = np.array(eye[:2])
    to_board.setflags(write=False)
    foot.setflags(write=False)
    return to_board, foot, float(abs(eye[2]))


def slant(to_board: np.ndarray, foot: np.ndarray, height: float, centres: np.ndarray) -> np.ndarray:
    """At each image point, how far a flat die's near side face shows beyond its top face in
    the board's plane, in top faces: the point's distance from the camera's ``foot`` over the
    camera's ``height`` (the cotangent of the camera's elevation there). A die leaning toward
    the camera hides that side face and looks like a flat one seen from higher up; the reader
    is not told it (told it, as tried in session 11, it read no better), and calls flat dice
    cocked more often where it is large (``scripts/evaluate_dice.py --by`` groups by it)."""
    pts = np.asarray(centres, np.float64).reshape(-1, 1, 2)
    at = cv2.perspectiveTransform(pts, np.asarray(to_board, np.float64)).reshape(-1, 2)
    return np.hypot(*(at - np.asarray(foot, np.float64)[:2]).T) / max(float(height), 1e-6)


def plane_scale(to_board: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Board-plane units per image pixel at each image point (the square root of the map's
    local area ratio)."""
    h = np.asarray(to_board, np.float64)
    pts = np.asarray(points, np.float64).reshape(-1, 2)
    xyw = np.c_[pts, np.ones(len(pts))] @ h.T
    w = xyw[:, 2]
    # the Jacobian of a homography: (H[:2, :2] - p ⊗ H[2, :2]) / w, p the mapped point
    p = xyw[:, :2] / w[:, None]
    j = (h[None, :2, :2] - p[:, :, None] * h[None, 2:3, :2]) / w[:, None, None]
    return np.sqrt(np.abs(np.linalg.det(j)))


def patch_frame(
    to_board: np.ndarray,
    center: tuple[float, float],
    face: float,
    angle: float = 0.0,
    flip: bool = False,
    context: float = CONTEXT,
) -> np.ndarray:
    """The 3×3 map from the pixels of ``cut_flat``'s patch to the image's (same arguments;
    ``context`` faces across, ``dice_place`` cuts wider)."""
    h = np.asarray(to_board, np.float64)
    c = np.asarray(center, np.float64)
    m = h @ np.array([c[0], c[1], 1.0])
    m = m[:2] / m[2]
    side = context * face * float(plane_scale(h, c[None])[0])
    a = np.radians(angle)
    k = side / PATCH
    sx = -k if flip else k
    # patch pixel (u, v) → board plane: centred, scaled, turned
    frame = np.array(
        [
            [sx * np.cos(a), -k * np.sin(a), 0.0],
            [sx * np.sin(a), k * np.cos(a), 0.0],
            [0.0, 0.0, 1.0],
        ]
    )
    centre_px = (PATCH - 1) / 2
    frame[:2, 2] = m - frame[:2, :2] @ [centre_px, centre_px]
    return np.linalg.inv(h) @ frame


def cut_flat(
    bgr: np.ndarray,
    to_board: np.ndarray,
    center: tuple[float, float],
    face: float,
    angle: float = 0.0,
    flip: bool = False,
) -> np.ndarray:
    """The (PATCH, PATCH, 3) uint8 square of the board's plane around the image point
    ``center``, ``CONTEXT`` times a top face of ``face`` image pixels across, turned by
    ``angle`` degrees (mirrored when ``flip``)."""
    return cut_by(bgr, patch_frame(to_board, center, face, angle, flip))


def cut_by(bgr: np.ndarray, frame: np.ndarray) -> np.ndarray:
    """The patch whose pixels ``frame`` (``patch_frame``) maps to the image's."""
    return cv2.warpPerspective(
        bgr,
        frame,
        (PATCH, PATCH),
        flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
        borderMode=cv2.BORDER_REPLICATE,
    )


def predict(patches: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For (N, PATCH, PATCH, 3) uint8 patches: the probability each die is cocked (N,), of its
    value (N, 6: 1..6), and where its top face's centre lies (N, 2: as fractions of the patch's
    side from its centre, as the patch reader's boxes)."""
    blob = np.stack([normalise_patch(p) for p in patches])
    out = tinynet.run_onnx(WEIGHTS, blob)  # the patch reader's outputs (``dice_patches.predict``)
    return 1.0 / (1.0 + np.exp(-out[:, 11])), tinynet.softmax(out[:, 1:7]), out[:, 7:9]


def away_from(to_board: np.ndarray, foot: np.ndarray, centres: np.ndarray) -> np.ndarray:
    """The turn (degrees, for ``cut_flat``) that puts "away from the camera's foot" up in the
    patch of each image point."""
    pts = np.asarray(centres, np.float64).reshape(-1, 1, 2)
    at = cv2.perspectiveTransform(pts, np.asarray(to_board, np.float64)).reshape(-1, 2)
    d = at - np.asarray(foot, np.float64)
    return np.degrees(np.arctan2(d[:, 0], -d[:, 1]))


def face_frames(
    to_board: np.ndarray,
    centres: np.ndarray,
    faces: Sequence[float] | np.ndarray,
    turns: np.ndarray,
    scale: float = 1.0,
    context: float = CONTEXT,
) -> list[np.ndarray]:
    """``patch_frame`` of each top face (its side times ``scale``, the patch ``context`` faces
    across), then of each mirrored."""
    return [
        patch_frame(to_board, (float(c[0]), float(c[1])), float(f) * scale, a, flip, context)
        for flip in (False, True)
        for c, f, a in zip(centres, faces, turns, strict=True)
    ]


def read_flat(
    bgr: np.ndarray,
    to_board: np.ndarray,
    centres: Sequence[tuple[float, float]] | np.ndarray,
    faces: Sequence[float] | np.ndarray,
    foot: np.ndarray,
    recentre: int = 0,
    value_face: float = 1.0,
) -> tuple[np.ndarray, np.ndarray]:
    """``predict`` on the board-plane patches of found top faces (``centres``, ``faces`` in
    image pixels), each cut with away from the camera's ``foot`` up, and mirrored (which keeps
    it up); the two reads averaged. With ``recentre`` the patches are first cut and read that
    many times more, each around the top face's centre the read before found (a cocked die's
    face is often found off its centre, toward the side face it shows). With ``value_face``
    other than 1 the value is read from patches cut at the last read's place for faces that
    share of ``faces`` (``DiceConfig.board_value_cut``), read in the last read's batch; flat or
    cocked stays the looser cut's."""
    n = len(centres)
    if not n:
        return np.zeros(0), np.zeros((0, 6))
    xy = np.asarray(centres, np.float64).reshape(n, 2)
    for k in range(recentre + 1):
        turns = away_from(to_board, foot, xy)
        frames = face_frames(to_board, xy, faces, turns)
        # the last read's places and turns, cut tighter for the value, read in the same batch
        last = k == recentre and value_face != 1.0
        tight = face_frames(to_board, xy, faces, turns, value_face) if last else []
        cocked, values, at = predict(np.stack([cut_by(bgr, m) for m in frames + tight]))
        if k == recentre:
            cocked, values = cocked[: 2 * n], values[-2 * n :]
            break
        # each read's face centre, patch pixels → image, the two reads averaged
        uv = (at * PATCH + (PATCH - 1) / 2).reshape(-1, 1, 2)
        pairs = zip(uv, frames, strict=True)
        seen = np.stack([cv2.perspectiveTransform(p[None], m)[0, 0] for p, m in pairs])
        xy = seen.reshape(2, n, 2).mean(axis=0)
    return cocked.reshape(2, n).mean(axis=0), values.reshape(2, n, 6).mean(axis=0)
