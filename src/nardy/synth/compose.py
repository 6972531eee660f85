"""``random_scene``: a plausible scene — board, checkers, position, dice, cube, hand, camera."""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from nardy.synth import positions
from nardy.synth.board import Board
from nardy.synth.render import (
    CUBE_MM,
    GLARE_UNUSABLE,
    MOTION_UNUSABLE,
    die_size,
    glare_spot,
    image_view,
    to_image,
)
from nardy.synth.scene import Camera, Cube, Die, Hand, Lighting, Scene, SceneError
from nardy.synth.styles import (
    BOARD_STYLES,
    CHECKER_SETS,
    DICE_STYLES,
    HELD_OUT_BOARD_STYLES,
    HELD_OUT_CHECKER_SETS,
    HELD_OUT_DICE_STYLES,
    SKIN_TONES,
    SLEEVES,
    TABLES,
)

#: What ``random_scene(looks=...)`` draws from: (board styles, checker sets, dice styles).
LOOKS: dict[str, tuple[dict, dict, dict]] = {
    "seen": (BOARD_STYLES, CHECKER_SETS, DICE_STYLES),
    "held_out": (HELD_OUT_BOARD_STYLES, HELD_OUT_CHECKER_SETS, HELD_OUT_DICE_STYLES),
}


def random_scene(
    rng: np.random.Generator,
    *,
    kind: str | None = None,
    n_dice: int | None = None,
    cocked: float = 0.2,
    with_cube: bool | None = None,
    with_hand: bool | None = None,
    whole_board: bool = False,
    fit: str | None = None,
    glare: bool = False,
    motion: bool = False,
    varied_hand: bool = False,
    looks: str = "seen",
    **fields: Any,
) -> Scene:
    """A random scene.

    ``kind`` is one of ``positions.KINDS`` (random if None); ``n_dice`` how many dice (0–2);
    ``cocked`` the chance each die is cocked; ``with_cube``/``with_hand`` force a cube or a hand
    in or out; ``whole_board`` keeps the whole board, markers and trays in view;
    ``fit="fields"`` frames the playing fields only (the trays fall out); ``glare`` puts a
    blinding reflection of the lamp on the board and ``motion`` shakes the camera (both make the
    frame unusable). ``varied_hand`` draws the hand from a wider range (see ``_varied_hand``):
    the fixtures' hands keep the narrower draw they were made with. ``looks="held_out"`` draws
    the board, checkers and dice from the looks no reader is trained on (``LOOKS``). Any other
    keyword sets
    that :class:`Scene` field outright (then it is not drawn at random; ``dice``, ``cube`` and
    ``hand`` given so are kept as given).
    """
    if looks not in LOOKS:
        raise SceneError(f"looks must be one of {', '.join(LOOKS)}, not {looks!r}")
    boards, checkers, dice_styles = LOOKS[looks]
    kind = kind or str(rng.choice(positions.KINDS, p=[0.12, 0.1, 0.3, 0.22, 0.13, 0.13]))
    counts, _ = positions.make(kind, rng)
    k = int(rng.integers(4))
    pts, bar, off = positions.orient(counts, k)
    light_home = positions.ORIENTS[k](1)
    home_right = light_home <= 6 or light_home >= 19
    light_row = "bottom" if positions.ORIENTS[k](1) <= 12 else "top"
    trays = (
        ("right" if home_right else "left")
        if rng.random() < 0.85
        else ("left" if home_right else "right")
    )
    base: dict[str, Any] = {
        "board": str(rng.choice(sorted(boards))),
        "checkers": str(rng.choice(sorted(checkers))),
        "points": pts,
        "bar": bar,
        "off": off,
        "camera": _camera(rng, trays, whole_board, fit),
        "lighting": _lighting(rng),
        "markers": bool(rng.random() < 0.25),
        "trays": trays,
        "checker_mm": float(rng.uniform(29, 40)),
        "shape": float(rng.random()),
        "row": int(rng.choice([5, 5, 5, 6, 6, 7, 8])),
        "sloppy": float(rng.uniform(0.4, 2.5)),
        "table": int(rng.integers(len(TABLES))),
        "jpeg_quality": int(rng.integers(80, 91)),
    }
    base.update({k: v for k, v in fields.items() if k not in ("dice", "cube", "hand")})
    scene = Scene(**base)
    if scene.camera.fit == "fields" and "camera" not in fields:
        scene = _crop_trays(scene)
    if glare:
        scene = dataclasses.replace(scene, lighting=_glaring(rng, scene))
    if motion:
        scene = dataclasses.replace(
            scene,
            lighting=dataclasses.replace(
                scene.lighting, motion=float(rng.uniform(MOTION_UNUSABLE + 2, 20))
            ),
        )
    if "dice" in fields:
        dice = fields["dice"]
    else:
        n = int(rng.choice([0, 1, 2], p=[0.15, 0.1, 0.75])) if n_dice is None else n_dice
        dice = _dice(rng, scene, n, cocked, sorted(dice_styles))
    if "cube" in fields:
        cube = fields["cube"]
    else:
        want = rng.random() < 0.5 if with_cube is None else with_cube
        cube = _cube(rng, scene, light_row) if want else None
    if "hand" in fields:
        hand = fields["hand"]
    else:
        want = rng.random() < 0.1 if with_hand is None else with_hand
        draw = _varied_hand if varied_hand else _hand
        hand = draw(rng, scene, light_row) if want else None
    return dataclasses.replace(scene, dice=tuple(dice), cube=cube, hand=hand)


def _camera(rng: np.random.Generator, trays: str, whole_board: bool, fit: str | None) -> Camera:
    tilt = float(rng.uniform(0, 8) if rng.random() < 0.4 else rng.uniform(8, 30))
    wide = "board" if whole_board or rng.random() < 0.8 else "fields"
    fit = fit or wide
    aim = (float(rng.normal(0, 20)), float(rng.normal(0, 15)))
    return Camera(
        height=float(rng.uniform(400, 900)),
        tilt=tilt,
        azimuth=float(rng.uniform(0, 360)),
        roll=float(rng.normal(0, 2.5)),
        aim=aim,
        fill=float(
            (rng.uniform(0.8, 0.9) if whole_board else rng.uniform(0.8, 0.97))
            if fit == "board"
            else rng.uniform(0.96, 1.0)
        ),
        fit=fit,
        k1=float(rng.uniform(-0.15, 0.02)),
        k2=float(rng.uniform(-0.01, 0.04)),
    )


def _lighting(rng: np.random.Generator) -> Lighting:
    return Lighting(
        azimuth=float(rng.uniform(0, 360)),
        elevation=float(rng.uniform(35, 85)),
        ambient=float(rng.uniform(0.3, 0.65)),
        gradient=float(rng.uniform(0, 0.4)),
        gradient_angle=float(rng.uniform(0, 360)),
        vignette=float(rng.uniform(0, 0.4)),
        warmth=float(rng.uniform(-0.25, 0.45)),
        glare=float(rng.uniform(0, 0.6) if rng.random() < 0.5 else 0.0),
        shadow=float(rng.uniform(0.25, 0.7)),
        noise=float(rng.uniform(1.0, 4.0)),
        blur=float(rng.uniform(0.3, 1.3)),
        motion=float(rng.uniform(1, 3) if rng.random() < 0.15 else 0.0),
        motion_angle=float(rng.uniform(0, 180)),
        exposure=float(rng.uniform(0.85, 1.15)),
    )


def _crop_trays(scene: Scene) -> Scene:
    """Aim away from the trays until they leave the picture while the fields stay in it."""
    side = 1 if scene.trays == "right" else -1
    w, h = scene.size
    for shift in range(0, 260, 10):
        cam = dataclasses.replace(
            scene.camera, aim=(scene.camera.aim[0] - side * shift, scene.camera.aim[1])
        )
        cand = dataclasses.replace(scene, camera=cam)
        view, lens, board = image_view(cand)
        corners = to_image(view, lens, board.corners())
        inside = ((corners > 4) & (corners < [w - 4, h - 4])).all()
        if not inside:
            break
        tray = to_image(
            view,
            lens,
            np.array([[sum(t[0::2]) / 2, (t[1] + t[3]) / 2, 0.0] for t in board.trays()]),
        )
        if ((tray[:, 0] < 0) | (tray[:, 0] > w)).all():
            return cand
    cam = dataclasses.replace(scene.camera, fit="board", fill=min(scene.camera.fill, 0.95))
    return dataclasses.replace(scene, camera=cam)


def _glaring(rng: np.random.Generator, scene: Scene) -> Lighting:
    """A lamp placed so that its reflection lands on the playing field."""
    view, _, board = image_view(scene)
    li = scene.lighting
    best = li
    for _ in range(400):
        cand = dataclasses.replace(
            li,
            azimuth=float(rng.uniform(0, 360)),
            elevation=float(rng.uniform(40, 89)),
            glare=float(rng.uniform(GLARE_UNUSABLE + 0.1, 1.8)),
        )
        spot = glare_spot(dataclasses.replace(scene, lighting=cand), view.eye)
        if abs(spot[0]) < board.inner_w * 0.4 and abs(spot[1]) < board.inner_h * 0.35:
            return cand
        best = cand
    return best


def _checker_xy(scene: Scene, board: Board) -> np.ndarray:
    out = [(0.0, 0.0)]
    for p, n in enumerate(scene.points, start=1):
        out += [(x, y) for x, y, _ in board.stack(p, abs(n), scene.row, 0, 0.0)]
    return np.array(out[1:] or [(1e6, 1e6)])


def _in_view(scene: Scene, pts: np.ndarray, margin: float = 30) -> bool:
    view, lens, _ = image_view(scene)
    uv = to_image(view, lens, pts)
    w, h = scene.size
    return bool(((uv > margin) & (uv < [w - margin, h - margin])).all())


def _dice(
    rng: np.random.Generator, scene: Scene, n: int, cocked: float, styles: list[str]
) -> list[Die]:
    board = Board.of(scene)
    taken = _checker_xy(scene, board)
    r = board.checker / 2
    style = str(rng.choice(styles))
    size = die_size(style, board.checker)
    where = str(rng.choice(["left", "right", "bar", "off"], p=[0.3, 0.5, 0.1, 0.1]))
    dice: list[Die] = []
    for _ in range(n):
        die = None
        for _try in range(300):
            die = _try_die(rng, scene, board, taken, r, size, style, where, dice, cocked)
            if die is not None:
                break
        if die is None:  # nowhere free on that half: throw it on the other
            where = "right" if where != "right" else "left"
            for _try in range(300):
                die = _try_die(rng, scene, board, taken, r, size, style, where, dice, 0.0)
                if die is not None:
                    break
        if die is not None:
            dice.append(die)
        if rng.random() < 0.2:  # sometimes the dice land apart
            where = str(rng.choice(["left", "right"]))
    return dice


def _try_die(rng, scene, board: Board, taken, r, size, style, where, dice, cocked):
    fl, fr = board.fields()
    diag = size * 0.75
    lean, toward, rests = 0.0, 0.0, ""
    if where in ("left", "right"):
        x0, y0, x1, y1 = fl if where == "left" else fr
        xy = np.array([rng.uniform(x0 + diag, x1 - diag), rng.uniform(y0 + diag, y1 - diag)])
        if rng.random() < cocked:
            rests = str(rng.choice(["rim", "checker", "die"] if dice else ["rim", "checker"]))
            lean = float(rng.uniform(12, 35))
            if rests == "rim":
                side = int(rng.integers(4))
                xy = [
                    np.array([xy[0], y1 - size * 0.55]),
                    np.array([xy[0], y0 + size * 0.55]),
                    np.array([x0 + size * 0.55, xy[1]]),
                    np.array([x1 - size * 0.55, xy[1]]),
                ][side]
                toward = (90.0, 270.0, 180.0, 0.0)[side]
            elif rests == "checker":
                c = taken[rng.integers(len(taken))]
                ang = rng.uniform(0, 2 * np.pi)
                xy = c + (r + size * 0.45) * np.array([np.cos(ang), np.sin(ang)])
                toward = float(np.degrees(ang) + 180)
            else:
                o = dice[-1].at
                ang = rng.uniform(0, 2 * np.pi)
                xy = np.array(o) + size * 1.1 * np.array([np.cos(ang), np.sin(ang)])
                toward = float(np.degrees(ang) + 180)
            if not (
                x0 + size * 0.4 < xy[0] < x1 - size * 0.4
                and y0 + size * 0.4 < xy[1] < y1 - size * 0.4
            ):
                return None
        clear = np.hypot(*(taken - xy).T).min() if len(taken) else 1e9
        need = r + diag * (0.5 if rests == "checker" else 1.0) + 1
        if clear < need:
            return None
    elif where == "bar":
        lim = board.inner_h / 2 - size
        xy = np.array([rng.normal(0, 1.5), rng.uniform(-lim, lim)])
        if abs(xy[1]) < CUBE_MM / 2 + size and scene.cube is not None:
            return None
    else:  # off the board, on the table beside it
        ox0, oy0, ox1, oy1 = board.outline()
        side = int(rng.integers(4))
        gap = rng.uniform(size, 60)
        xy = [
            np.array([rng.uniform(ox0, ox1), oy0 - gap]),
            np.array([rng.uniform(ox0, ox1), oy1 + gap]),
            np.array([ox0 - gap, rng.uniform(oy0, oy1)]),
            np.array([ox1 + gap, rng.uniform(oy0, oy1)]),
        ][side]
        if not _in_view(scene, np.array([[xy[0], xy[1], 0.0]])):
            return None
    for d in dice:
        if np.hypot(d.at[0] - xy[0], d.at[1] - xy[1]) < size * (1.05 if rests == "die" else 1.6):
            return None
    return Die(
        value=int(rng.integers(1, 7)),
        where=where,
        at=(float(xy[0]), float(xy[1])),
        turn=float(rng.uniform(0, 90)),
        style=style,
        flat=lean == 0,
        lean=lean,
        lean_toward=toward,
        rests_on=rests,
    )


def _cube(rng: np.random.Generator, scene: Scene, light_row: str) -> Cube:
    board = Board.of(scene)
    style = str(rng.choice(["ivory", "ivory", "black", "green"]))
    turn = float(rng.uniform(-20, 20))
    if rng.random() < 0.6:
        return Cube(
            value=64 if rng.random() < 0.7 else int(rng.choice([2, 4, 8])),
            where="middle",
            at=(float(rng.normal(0, 1)), float(rng.normal(0, 3))),
            turn=turn,
            style=style,
        )
    who = str(rng.choice(["light", "dark"]))
    bottom = (who == "light") == (light_row == "bottom")
    _, oy0, _, oy1 = board.outline()
    x = float(rng.uniform(-board.inner_w / 2 + 30, board.inner_w / 2 - 30))
    on_frame = (oy0 + board.frame_w / 2) if bottom else (oy1 - board.frame_w / 2)
    beside = (oy0 - CUBE_MM) if bottom else (oy1 + CUBE_MM)
    y = on_frame
    if board.frame_w < CUBE_MM * 1.05 or rng.random() < 0.3:
        y = beside if _in_view(scene, np.array([[x, beside, 0.0]])) else on_frame
    return Cube(
        value=int(rng.choice([2, 4, 8, 16])), where=who, at=(x, float(y)), turn=turn, style=style
    )


def _hand(rng: np.random.Generator, scene: Scene, light_row: str) -> Hand:
    board = Board.of(scene)
    enters = (
        light_row if rng.random() < 0.5 else str(rng.choice(["bottom", "top", "left", "right"]))
    )
    reach = (
        float(rng.uniform(-board.inner_w / 2, board.inner_w / 2)),
        float(rng.uniform(-board.inner_h / 2, board.inner_h / 2) * 0.8),
    )
    return Hand(
        enters=enters,
        reach=reach,
        height=float(rng.uniform(40, 160)),
        skin=int(rng.integers(len(SKIN_TONES))),
        sleeve=int(rng.integers(len(SLEEVES))),
        spread=float(rng.random()),
        holding="",
    )


#: Skin from pale to very dark, interpolated between (BGR 0..1), and sleeves of any colour.
_SKIN_RANGE = np.float32(
    [
        [0.80, 0.86, 0.96],
        [0.55, 0.67, 0.88],
        [0.39, 0.53, 0.78],
        [0.23, 0.35, 0.55],
        [0.15, 0.23, 0.36],
        [0.09, 0.14, 0.23],
    ]
)
_ENDS = ("bottom", "top", "left", "right")


def _varied_hand(rng: np.random.Generator, scene: Scene, light_row: str) -> Hand:
    """A hand from a wider range than the fixtures': any skin from pale to very dark, dark and
    light sleeves or a bare arm, reaching in over any edge or end of the board, fingertips
    anywhere from just over the frame to the far side, holding a checker, the cup or nothing."""
    board = Board.of(scene)
    enters = str(rng.choice(_ENDS))
    half_w, half_h = board.inner_w / 2, board.inner_h / 2
    over_w, over_h = half_w + board.frame_w, half_h + board.frame_w
    # where the fingertips are: anywhere over the surface, or near the edge the arm crosses
    # (only the fingers over the frame or just inside it)
    if rng.random() < 0.4:
        reach = (float(rng.uniform(-half_w, half_w)), float(rng.uniform(-half_h, half_h)))
        height = float(rng.uniform(20, 200))
    else:
        depth = float(rng.uniform(0.3, 2.0)) * board.frame_w  # in from the frame's outer edge
        along = float(rng.uniform(-1.0, 1.0))
        x, y = {
            "bottom": (along * over_w, -half_h + depth - board.frame_w),
            "top": (along * over_w, half_h - depth + board.frame_w),
            "left": (-half_w + depth - board.frame_w, along * over_h),
            "right": (half_w - depth + board.frame_w, along * over_h),
        }[enters]
        reach = (float(x), float(y))
        # low: a hand high over the edge is seen off the board (the camera looks at it aslant)
        height = float(rng.uniform(8, 60))
    k = rng.uniform(0, len(_SKIN_RANGE) - 1)
    i = int(k)
    skin = _SKIN_RANGE[i] + (k - i) * (
        _SKIN_RANGE[min(i + 1, len(_SKIN_RANGE) - 1)] - _SKIN_RANGE[i]
    )
    skin = np.clip(skin * rng.uniform(0.92, 1.08, 3), 0, 1)
    dark_cloth = rng.random() < 0.5
    fabric = rng.uniform(0.02, 0.25, 3) if dark_cloth else rng.uniform(0.2, 0.95, 3)
    cuff = float(rng.uniform(170, 320)) if rng.random() < 0.75 else 600.0
    holding = str(rng.choice(["", "", "light", "dark", "cup"]))
    return Hand(
        enters=enters,
        reach=reach,
        height=height,
        skin=0,
        sleeve=0,
        spread=float(rng.random()),
        holding=holding,
        tone=tuple(float(v) for v in skin),
        fabric=tuple(float(v) for v in fabric),
        cuff=cuff,
    )
