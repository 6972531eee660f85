"""Building positions for the rules tests from a few readable lines."""

from __future__ import annotations

from nardy.rules.position import Position, Side
from nardy.rules.variant import Variant

LIGHT, DARK = Side.LIGHT, Side.DARK


def board(
    variant: Variant,
    mine: dict[int, int],
    theirs: dict[int, int],
    *,
    side: Side = LIGHT,
    bar: tuple[int, int] = (0, 0),
    complete: bool = True,
) -> Position:
    """``mine`` in ``side``'s own numbering, ``theirs`` in the opponent's own numbering.

    ``bar`` is (mover, opponent). With ``complete`` the checkers not placed are borne off, so the
    position passes ``check_position``.
    """
    points = [0] * 24
    num = variant.numbering
    for p, n in mine.items():
        points[num.to_light(side, p) - 1] += n * side.sign
    for p, n in theirs.items():
        i = num.to_light(side.other, p) - 1
        assert points[i] == 0, f"both colours on point {i + 1}"
        points[i] += n * side.other.sign
    bars = [0, 0]
    bars[side], bars[side.other] = bar
    offs = [0, 0]
    if complete:
        offs[side] = variant.checkers - sum(mine.values()) - bar[0]
        offs[side.other] = variant.checkers - sum(theirs.values()) - bar[1]
    return Position(tuple(points), (bars[0], bars[1]), (offs[0], offs[1]))


def notations(variant: Variant, pos: Position, dice, side: Side = LIGHT, **kw) -> set[str]:
    return {t.notation for t in variant.legal_turns(pos, side, dice, **kw)}
