"""The board drawn as SVG from a position, as the players see it from light's seat.

Light's point 1 is bottom right, 1–12 run right to left along the bottom edge and 13–24 left to
right along the top (the numbering of ``nardy detect``); the bar is the middle strip and the
bear-off trays stand at the right. Everything is derived from the JSON position form, so the same
drawing serves every variant.
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape

from nardy.rules.position import Numbering, Position, Side

# Board geometry in SVG units. A point is one column; the bar is one column wide.
COL = 50
MARGIN = 20
BAR = 50
TRAY = 60
HALF = 6 * COL
WIDTH = MARGIN + HALF + BAR + HALF + MARGIN + TRAY
HEIGHT = 440
POINT_LEN = 170
R = 21  # checker radius
STACK_SHOWN = 5  # checkers drawn on a point before a count takes over

COLOURS = {
    "frame": "#6b3f1d",
    "field": "#d9b98c",
    "point_a": "#8c1c13",
    "point_b": "#2b2b2b",
    "bar": "#5a3418",
    "light": "#f4efe6",
    "dark": "#2a1d17",
    "light_rim": "#9b8f7f",
    "dark_rim": "#000000",
    "text_on_light": "#2a1d17",
    "text_on_dark": "#f4efe6",
}


@dataclass(frozen=True, slots=True)
class Dice:
    """The dice to draw: their values and which of them the player has used."""

    values: tuple[int, ...]
    used: tuple[bool, ...] = ()
    side: Side = Side.LIGHT


@dataclass(frozen=True, slots=True)
class Cube:
    """The doubling cube: its face and who owns it (None: in the middle)."""

    value: int = 1
    owner: Side | None = None


def pip_count(position: Position, side: Side, numbering: Numbering) -> int:
    """Pips ``side`` has still to travel: a checker counts its own point number, 25 on the bar."""
    own, _ = position.view(side, numbering)
    return sum(p * n for p, n in enumerate(own) if p > 0)


def _column_x(point: int) -> float:
    """Centre x of light's point 1..24."""
    # Column 0 is the leftmost: point 12 along the bottom, point 13 along the top.
    i = 12 - point if point <= 12 else point - 13
    x = MARGIN + i * COL + COL / 2
    return x + BAR if i >= 6 else x


def _point_triangle(point: int) -> str:
    x = _column_x(point)
    top = point > 12
    base_y = MARGIN if top else HEIGHT - MARGIN
    tip_y = base_y + POINT_LEN if top else base_y - POINT_LEN
    colour = COLOURS["point_a"] if point % 2 else COLOURS["point_b"]
    pts = f"{x - COL / 2},{base_y} {x + COL / 2},{base_y} {x},{tip_y}"
    return f'<polygon class="point" data-point="{point}" points="{pts}" fill="{colour}"/>'


def _checker(x: float, y: float, side: Side, label: str = "") -> str:
    fill = COLOURS["light"] if side is Side.LIGHT else COLOURS["dark"]
    rim = COLOURS["light_rim"] if side is Side.LIGHT else COLOURS["dark_rim"]
    text_colour = COLOURS["text_on_light"] if side is Side.LIGHT else COLOURS["text_on_dark"]
    out = (
        f'<circle class="checker {side}" cx="{x:.1f}" cy="{y:.1f}" r="{R}" '
        f'fill="{fill}" stroke="{rim}" stroke-width="2"/>'
    )
    if label:
        out += (
            f'<text x="{x:.1f}" y="{y + 6:.1f}" text-anchor="middle" font-size="17" '
            f'font-weight="bold" fill="{text_colour}">{escape(label)}</text>'
        )
    return out


def _stack(x: float, base_y: float, direction: int, side: Side, count: int) -> list[str]:
    """A column of ``count`` checkers from ``base_y`` growing in ``direction`` (+1 down)."""
    shown = min(count, STACK_SHOWN)
    room = (HEIGHT - 2 * MARGIN) / 2 - 12  # half the field, less a gap to the other half
    step = 2 * R if shown < 2 else min(2 * R, (room - 2 * R) / (shown - 1))
    out = []
    for k in range(shown):
        y = base_y + direction * (R + k * step)
        last = k == shown - 1
        out.append(_checker(x, y, side, str(count) if last and count > STACK_SHOWN else ""))
    return out


def _die(x: float, y: float, value: int, used: bool, side: Side) -> str:
    size = 36
    face = "#fbfbf8" if side is Side.LIGHT else "#3a2a22"
    pip = "#111" if side is Side.LIGHT else "#f4efe6"
    opacity = "0.35" if used else "1"
    pips = {
        1: [(0, 0)],
        2: [(-1, -1), (1, 1)],
        3: [(-1, -1), (0, 0), (1, 1)],
        4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
        5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
        6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)],
    }.get(value, [])
    parts = [
        f'<g class="die{" used" if used else ""}" data-value="{value}" opacity="{opacity}">',
        f'<rect x="{x - size / 2}" y="{y - size / 2}" width="{size}" height="{size}" rx="6" '
        f'fill="{face}" stroke="#000" stroke-width="1.5"/>',
    ]
    parts += [
        f'<circle cx="{x + dx * 10}" cy="{y + dy * 10}" r="3.6" fill="{pip}"/>' for dx, dy in pips
    ]
    parts.append("</g>")
    return "".join(parts)


def board_svg(
    position: Position,
    *,
    numbering: Numbering = Numbering.OPPOSED,
    dice: Dice | None = None,
    cube: Cube | None = None,
    show_pips: bool = True,
) -> str:
    """An ``<svg>`` element showing ``position``, with dice, cube and pip counts."""
    bar_x = MARGIN + HALF + BAR / 2
    tray_x = WIDTH - TRAY / 2
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="board" viewBox="0 0 {WIDTH} '
        f'{HEIGHT + (30 if show_pips else 0)}" role="img" aria-label="board">',
        f'<rect width="{WIDTH}" height="{HEIGHT}" fill="{COLOURS["frame"]}" rx="8"/>',
        f'<rect x="{MARGIN}" y="{MARGIN}" width="{2 * HALF + BAR}" height="{HEIGHT - 2 * MARGIN}" '
        f'fill="{COLOURS["field"]}"/>',
        f'<rect x="{MARGIN + HALF}" y="{MARGIN}" width="{BAR}" height="{HEIGHT - 2 * MARGIN}" '
        f'fill="{COLOURS["bar"]}"/>',
        f'<rect x="{WIDTH - TRAY + 5}" y="{MARGIN}" width="{TRAY - 15}" '
        f'height="{HEIGHT - 2 * MARGIN}" fill="{COLOURS["bar"]}" rx="4"/>',
    ]
    for point in range(1, 25):
        parts.append(_point_triangle(point))
        n = position.points[point - 1]
        if n:
            side = Side.LIGHT if n > 0 else Side.DARK
            top = point > 12
            base = MARGIN if top else HEIGHT - MARGIN
            parts += _stack(_column_x(point), base, 1 if top else -1, side, abs(n))
    # Light enters from the top (dark's home is light's 19-24 in short nardy), so its bar
    # checkers wait on the upper half of the bar, dark's on the lower.
    for side, base, direction in (
        (Side.LIGHT, HEIGHT / 2 - 10, -1),
        (Side.DARK, HEIGHT / 2 + 10, 1),
    ):
        if position.bar[side]:
            parts += _stack(bar_x, base, direction, side, position.bar[side])
    for side, base, direction in ((Side.LIGHT, HEIGHT - MARGIN, -1), (Side.DARK, MARGIN, 1)):
        n = position.off[side]
        if n:
            parts.append(
                f'<rect class="off {side}" x="{tray_x - 20}" '
                f'y="{base - n * 10 if direction < 0 else base}" width="30" height="{n * 10}" '
                f'fill="{COLOURS[str(side)]}" stroke="#000"/>'
            )
            parts.append(
                f'<text x="{tray_x - 5}" y="{HEIGHT / 2 + (40 if direction < 0 else -30)}" '
                f'text-anchor="middle" font-size="16" fill="#fff">{n}</text>'
            )
    if dice and dice.values:
        # The thrower's dice lie on their right-hand half, as in a valid throw.
        cx = MARGIN + HALF + BAR + HALF / 2
        used = dice.used or (False,) * len(dice.values)
        for k, (value, is_used) in enumerate(zip(dice.values, used, strict=False)):
            parts.append(
                _die(
                    cx + (k - (len(dice.values) - 1) / 2) * 46,
                    HEIGHT / 2,
                    value,
                    is_used,
                    dice.side,
                )
            )
    if cube is not None:
        y = {None: HEIGHT / 2, Side.LIGHT: HEIGHT - MARGIN - 22, Side.DARK: MARGIN + 22}[cube.owner]
        x = bar_x
        face = 64 if cube.value == 1 else cube.value
        parts.append(
            f'<g class="cube" data-value="{cube.value}"><rect x="{x - 20}" y="{y - 20}" '
            f'width="40" height="40" rx="5" fill="#fff" stroke="#000" stroke-width="2"/>'
            f'<text x="{x}" y="{y + 7}" text-anchor="middle" font-size="19" font-weight="bold">'
            f"{face}</text></g>"
        )
    if show_pips:
        light = pip_count(position, Side.LIGHT, numbering)
        dark = pip_count(position, Side.DARK, numbering)
        parts.append(
            f'<text class="pips" x="{MARGIN}" y="{HEIGHT + 22}" font-size="18" fill="currentColor">'
            f"pips: light {light} · dark {dark}</text>"
        )
    parts.append("</svg>")
    return "".join(parts)
