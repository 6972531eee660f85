"""GNU Backgammon Position ID (backgammon family).

The ID is written from the side of the player on roll, as GNU Backgammon does: 80 bits, first
the opponent's checkers, then the roller's, each set counted from its own point 1 to 24 and then
its bar (a run of ones for the checkers on a point, a zero after each point), packed low bit
first into 10 bytes and written in base64 without padding (14 characters). The start of a
backgammon game is ``4HPwATDgc/ABMA``. Borne-off checkers are not in the ID: they are what is
missing from the variant's count.
"""

from __future__ import annotations

import base64
import binascii

from nardy.rules.errors import InvalidIdError
from nardy.rules.position import Numbering, Position, Side

_ALPHABET = set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")


def encode_board(board: tuple[tuple[int, ...], tuple[int, ...]]) -> str:
    """The ID of ``(opponent, roller)``, each 25 counts: points 1..24 at index 0..23, bar at 24."""
    bits = 0
    n = 0
    for half in board:
        for count in half:
            bits |= ((1 << count) - 1) << n
            n += count + 1
    if n > 80:
        raise InvalidIdError("too many checkers for a Position ID (at most 15 a side)")
    return base64.b64encode(bits.to_bytes(10, "little")).decode("ascii")[:14]


def decode_board(pid: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The ``(opponent, roller)`` counts of an ID (the inverse of :func:`encode_board`)."""
    text = pid.strip()
    if len(text) != 14 or not set(text) <= _ALPHABET:
        raise InvalidIdError(f"not a Position ID: {pid!r} (14 base64 characters)")
    try:
        bits = int.from_bytes(base64.b64decode(text + "=="), "little")
    except (binascii.Error, ValueError):
        raise InvalidIdError(f"not a Position ID: {pid!r}") from None
    halves: list[list[int]] = [[], []]
    side = 0
    count = 0
    for i in range(80):
        if bits >> i & 1:
            count += 1
            continue
        halves[side].append(count)
        count = 0
        if len(halves[side]) == 25:
            side += 1
            if side == 2:
                break
    if side < 2 or bits >> 80:
        raise InvalidIdError(f"not a Position ID: {pid!r} (its bits do not make two boards)")
    for half in halves:
        if sum(half) > 15:
            raise InvalidIdError(f"Position ID {pid!r} gives a side more than 15 checkers")
    return tuple(halves[0]), tuple(halves[1])


def position_id(pos: Position, on_roll: Side) -> str:
    """The Position ID of ``pos`` with ``on_roll`` the player on roll (short nardy only)."""
    own, theirs = pos.view(on_roll, Numbering.OPPOSED)
    roller = (*own[1:25], own[25])
    # The opponent counts from its own point 1, which is the roller's point 24.
    opponent = (*theirs[24:0:-1], theirs[25])
    return encode_board((opponent, roller))


def from_position_id(pid: str, on_roll: Side, checkers: int = 15) -> Position:
    """The position an ID describes, ``on_roll`` being the player on roll.

    Checkers missing from ``checkers`` a side are taken to be borne off.
    """
    opponent, roller = decode_board(pid)
    for name, half in (("roller", roller), ("opponent", opponent)):
        if sum(half) > checkers:
            raise InvalidIdError(f"Position ID {pid!r} gives the {name} {sum(half)} checkers")
    own = [0] * 26
    theirs = [0] * 26
    for p in range(1, 25):
        own[p] = roller[p - 1]
        theirs[25 - p] = opponent[p - 1]
    own[25], theirs[25] = roller[24], opponent[24]
    own[0] = checkers - sum(roller)
    theirs[0] = checkers - sum(opponent)
    try:
        return Position.from_view(on_roll, Numbering.OPPOSED, own, theirs)
    except ValueError as e:
        raise InvalidIdError(f"Position ID {pid!r}: {e}") from None
