"""Reading a position as a person or a program writes it: ``start``, a GNU Backgammon Position
ID, an XGID, or the project's JSON form."""

from __future__ import annotations

from typing import Any

from nardy.rules.errors import InvalidIdError, InvalidPositionError
from nardy.rules.posid import from_position_id
from nardy.rules.position import Position, Side
from nardy.rules.variant import Variant


def read_position(variant: Variant, given: Any, side: Side) -> tuple[Position, Side]:
    """The position ``given`` describes, and the side on roll (``side``, unless an XGID says).

    A Position ID is read from the side of ``side``, the player on roll.
    """
    if isinstance(given, dict):
        return Position.from_json(given), side
    if not isinstance(given, str):
        raise InvalidPositionError(f"not a position: {given!r}")
    text = given.strip()
    if text.lower() == "start":
        return variant.start(), side
    if text.startswith("{"):
        return Position.from_json(text), side
    if text.upper().startswith("XGID="):
        return _read_xgid(variant, text, side)
    if variant.family != "short":
        raise InvalidIdError(
            f"{text!r}: Position IDs describe backgammon-family positions; give long nardy "
            "positions in the JSON form"
        )
    return from_position_id(text, side, variant.checkers), side


def _read_xgid(variant: Variant, text: str, side: Side) -> tuple[Position, Side]:
    if variant.family != "short":
        raise InvalidIdError("an XGID describes a backgammon-family position, not long nardy")
    from nardy.rules.xgid import decode_xgid

    x = decode_xgid(text, variant.checkers)
    return x.position, x.on_roll
