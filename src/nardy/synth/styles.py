"""The looks the renderer knows: board styles, checker sets, dice and cube colours.

Colours are BGR in 0..1 (OpenCV's channel order). Each registry maps a name, which is what a
:class:`~nardy.synth.scene.Scene` stores, to a frozen description.
"""

from __future__ import annotations

from dataclasses import dataclass

BGR = tuple[float, float, float]


def _hex(code: str) -> BGR:
    """``"#rrggbb"`` as BGR in 0..1."""
    r, g, b = (int(code[i : i + 2], 16) / 255.0 for i in (1, 3, 5))
    return (b, g, r)


@dataclass(frozen=True)
class BoardStyle:
    name: str
    #: "wood", "felt" or "leather": how the playing field is textured.
    field: str
    field_colours: tuple[BGR, BGR]
    #: Colours of the two kinds of point; point 1 has the first.
    point_colours: tuple[BGR, BGR]
    #: "paint" (flat colour over the field, grain showing through), "felt", "inlay" (wood).
    point_finish: str
    frame_colours: tuple[BGR, BGR]
    #: Thin line around each point (inlay or printed border), or None.
    point_edge: BGR | None
    #: 0..1, how glossy the varnish is (lamp reflections on the board).
    gloss: float


BOARD_STYLES: dict[str, BoardStyle] = {
    s.name: s
    for s in (
        BoardStyle(
            "classic",
            "wood",
            (_hex("#d9b47e"), _hex("#b98a52")),
            (_hex("#a8231e"), _hex("#1c1a1a")),
            "paint",
            (_hex("#6b3418"), _hex("#3e1c0c")),
            _hex("#e8d3a8"),
            0.5,
        ),
        BoardStyle(
            "dark",
            "wood",
            (_hex("#4a2e1c"), _hex("#2c1a10")),
            (_hex("#121010"), _hex("#5a1e14")),
            "paint",
            (_hex("#2a1810"), _hex("#150c08")),
            None,
            0.6,
        ),
        BoardStyle(
            "felt",
            "felt",
            (_hex("#1f6b34"), _hex("#175a2a")),
            (_hex("#e6dcc0"), _hex("#7a1414")),
            "felt",
            (_hex("#5a3319"), _hex("#2e170a")),
            None,
            0.15,
        ),
        BoardStyle(
            "leather",
            "leather",
            (_hex("#c9a472"), _hex("#ad8453")),
            (_hex("#f1e7cf"), _hex("#1d3557")),
            "paint",
            (_hex("#3b2414"), _hex("#201208")),
            _hex("#8c6a3c"),
            0.3,
        ),
        BoardStyle(
            "nardy",
            "wood",
            (_hex("#e3c48f"), _hex("#c9a064")),
            (_hex("#7a4520"), _hex("#efd9ac")),
            "inlay",
            (_hex("#8a5326"), _hex("#5c3414")),
            _hex("#3a200c"),
            0.45,
        ),
    )
}


@dataclass(frozen=True)
class CheckerSet:
    name: str
    #: Colour names as the truth reports them ("white", "beige", ...).
    light_name: str
    dark_name: str
    light: BGR
    dark: BGR
    #: 0..1: plastic and lacquered wood shine, old wood does not.
    gloss: float
    #: Wooden checkers show grain on their faces.
    grain: bool = False


CHECKER_SETS: dict[str, CheckerSet] = {
    s.name: s
    for s in (
        CheckerSet("white_black", "white", "black", _hex("#ecebe6"), _hex("#1e1d1d"), 0.8),
        CheckerSet("white_red", "white", "red", _hex("#f0eee4"), _hex("#a3161b"), 0.8),
        CheckerSet("beige_brown", "beige", "brown", _hex("#dcc59b"), _hex("#5b3518"), 0.6),
        CheckerSet("cream_blue", "cream", "blue", _hex("#efe3c2"), _hex("#1b2a4e"), 0.7),
        CheckerSet("wood", "natural", "dark", _hex("#d2a56c"), _hex("#3d2312"), 0.35, True),
    )
}


@dataclass(frozen=True)
class DiceStyle:
    name: str
    body: BGR
    pips: BGR
    #: Edge length.
    size_mm: float


DICE_STYLES: dict[str, DiceStyle] = {
    s.name: s
    for s in (
        DiceStyle("white", _hex("#f4f2ea"), _hex("#141414"), 16.0),
        DiceStyle("ivory", _hex("#e9dcc0"), _hex("#231a12"), 15.0),
        DiceStyle("red", _hex("#b5141c"), _hex("#f7f3ea"), 16.0),
        DiceStyle("black", _hex("#1a1a1c"), _hex("#f2f0e8"), 15.0),
        DiceStyle("green", _hex("#1d6b3a"), _hex("#f4f1e6"), 16.0),
        DiceStyle("blue", _hex("#1c3f8c"), _hex("#f4f1e6"), 14.0),
    )
}

#: Looks no reader is trained on: ``random_scene`` draws them only when asked
#: (``looks="held_out"``), so that the readers can be measured on boards, checkers and dice they
#: have never seen. Every trainer draws from the registries above, which stay as they are.
HELD_OUT_BOARD_STYLES: dict[str, BoardStyle] = {
    s.name: s
    for s in (
        BoardStyle(
            "walnut",
            "wood",
            (_hex("#7b5337"), _hex("#664329")),
            (_hex("#efe2c4"), _hex("#1f5f5b")),
            "inlay",
            (_hex("#3b2516"), _hex("#24160c")),
            _hex("#c9a46a"),
            0.55,
        ),
        BoardStyle(
            "blue_felt",
            "felt",
            (_hex("#1d3d6b"), _hex("#173360")),
            (_hex("#e8e0c8"), _hex("#b8862b")),
            "felt",
            (_hex("#2a2a2a"), _hex("#141414")),
            None,
            0.1,
        ),
    )
}
HELD_OUT_CHECKER_SETS: dict[str, CheckerSet] = {
    s.name: s
    for s in (
        CheckerSet("ivory_green", "ivory", "green", _hex("#f2e8cc"), _hex("#1e4a2c"), 0.7),
        CheckerSet("red_black", "red", "black", _hex("#c0282a"), _hex("#161616"), 0.75),
    )
}
HELD_OUT_DICE_STYLES: dict[str, DiceStyle] = {
    s.name: s
    for s in (
        DiceStyle("yellow", _hex("#e8c21e"), _hex("#161616"), 16.0),
        DiceStyle("grey", _hex("#5a5a5e"), _hex("#f2f0e8"), 15.0),
    )
}


def board_style(name: str) -> BoardStyle:
    """A board style by name, held out or not (``KeyError`` when unknown)."""
    return {**BOARD_STYLES, **HELD_OUT_BOARD_STYLES}[name]


def checker_set(name: str) -> CheckerSet:
    """A checker set by name, held out or not (``KeyError`` when unknown)."""
    return {**CHECKER_SETS, **HELD_OUT_CHECKER_SETS}[name]


def dice_style(name: str) -> DiceStyle:
    """A dice style by name, held out or not (``KeyError`` when unknown)."""
    return {**DICE_STYLES, **HELD_OUT_DICE_STYLES}[name]


#: The doubling cube: body and numeral colours.
CUBE_STYLES: dict[str, tuple[BGR, BGR]] = {
    "ivory": (_hex("#efe8d6"), _hex("#141414")),
    "black": (_hex("#1b1b1d"), _hex("#d8b45a")),
    "green": (_hex("#1f5132"), _hex("#efe6cc")),
}

#: Skin tones and sleeve colours for hands over the board.
SKIN_TONES: tuple[BGR, ...] = (
    _hex("#f1c7a5"),
    _hex("#e0ac8a"),
    _hex("#c68863"),
    _hex("#8d5a3b"),
    _hex("#5c3a26"),
)
SLEEVES: tuple[BGR, ...] = (
    _hex("#1f2a44"),
    _hex("#7a1f1f"),
    _hex("#d9d9d4"),
    _hex("#2f4f2f"),
    _hex("#3a3a3a"),
    _hex("#b08850"),
)
#: What the board stands on.
TABLES: tuple[tuple[str, BGR, BGR], ...] = (
    ("wood", _hex("#8a5a32"), _hex("#6a4224")),
    ("wood", _hex("#b89368"), _hex("#9a744a")),
    ("cloth", _hex("#d8d4cc"), _hex("#c4beb4")),
    ("cloth", _hex("#2b3a52"), _hex("#24314a")),
    ("stone", _hex("#777777"), _hex("#5e5e5e")),
)
#: Walls of the room beyond the table (BGR): plaster, paint, panelling.
WALLS: tuple[BGR, ...] = (
    _hex("#d8d2c4"),
    _hex("#b9b4a8"),
    _hex("#8e9a9c"),
    _hex("#a89a80"),
    _hex("#6e5a44"),
    _hex("#5a6450"),
)
