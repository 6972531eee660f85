"""GNU Backgammon Match ID: read and write every field.

A Match ID is 12 base64 characters holding a 72-bit key, each field written low bit first from
bit 0 (GNU Backgammon manual, "A technical description of the Match ID"):

====  ====  ===============================================================
bits  size  field
====  ====  ===============================================================
0     4     log2 of the cube value
4     2     cube owner: 0 player 0, 1 player 1, 3 centred
6     1     dice owner: the player on roll (or who rolled)
7     1     Crawford game
8     3     game state: none, playing, over, resigned, dropped
11    1     turn: the player to make the next decision
12    1     a double is offered
13    2     resignation offered: 0 none, 1 single, 2 gammon, 3 backgammon
15    3     die 1 (0: not rolled); GNU Backgammon writes the larger first
18    3     die 2
21    15    match length (0: money)
36    15    player 0's score
51    15    player 1's score
66    1     Jacoby off (set when the Jacoby rule is not in use)
====  ====  ===============================================================

Sides: light is GNU Backgammon's player 1 (the bottom player, XG's bottom player too), dark is
player 0. Scores are ``(light, dark)`` here, as everywhere in the project.
"""

from __future__ import annotations

import base64
import binascii
import enum
from dataclasses import dataclass
from fractions import Fraction

from nardy.rules.cube import Cube
from nardy.rules.errors import InvalidIdError
from nardy.rules.match import Match
from nardy.rules.position import Side

#: GNU Backgammon's player number of each side.
PLAYER = {Side.DARK: 0, Side.LIGHT: 1}
_SIDE = {0: Side.DARK, 1: Side.LIGHT}
_B64 = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
_MAX = 0x7FFF  # 15-bit fields


class GameState(enum.IntEnum):
    NO_GAME = 0
    PLAYING = 1
    OVER = 2
    RESIGNED = 3
    DROPPED = 4


@dataclass(frozen=True, slots=True)
class MatchState:
    """Everything a Match ID says. ``dice`` is ``None`` before the roll, else larger first."""

    cube_value: int = 1
    cube_owner: Side | None = None  # None: centred
    on_roll: Side = Side.LIGHT  # who rolls (or rolled) this turn
    crawford: bool = False
    state: GameState = GameState.PLAYING
    turn: Side = Side.LIGHT  # who decides next: the opponent while a double or resignation waits
    double_offered: bool = False
    resignation: int = 0  # points offered by the side not on turn: 0, 1, 2 or 3
    dice: tuple[int, int] | None = None
    length: int = 0  # 0: money play
    score: tuple[int, int] = (0, 0)  # (light, dark)
    jacoby: bool = False

    def __post_init__(self) -> None:
        v = self.cube_value
        if v < 1 or v & (v - 1) or v > 1 << 15:
            raise InvalidIdError(f"a Match ID's cube is a power of 2 up to 32768, not {v}")
        if self.resignation not in (0, 1, 2, 3):
            raise InvalidIdError(f"a resignation is of 1, 2 or 3 points, not {self.resignation}")
        if self.dice is not None:
            if len(self.dice) != 2 or not all(1 <= d <= 6 for d in self.dice):
                raise InvalidIdError(f"dice are two numbers from 1 to 6, not {self.dice}")
            object.__setattr__(self, "dice", tuple(sorted(self.dice, reverse=True)))
        if not 0 <= self.length <= _MAX:
            raise InvalidIdError(f"a match length runs from 0 (money) to {_MAX}")
        if any(not 0 <= s <= _MAX for s in self.score):
            raise InvalidIdError(f"scores run from 0 to {_MAX}, not {self.score}")
        if self.length and max(self.score) > self.length:
            top = max(self.score)
            raise InvalidIdError(f"a score of {top} is past the {self.length}-point match")
        if not self.length and self.crawford:
            raise InvalidIdError("money play has no Crawford game")

    @property
    def money(self) -> bool:
        return self.length == 0


def encode_match_id(state: MatchState) -> str:
    """The 12-character Match ID of ``state``."""
    fields = [
        (state.cube_value.bit_length() - 1, 4),
        (3 if state.cube_owner is None else PLAYER[state.cube_owner], 2),
        (PLAYER[state.on_roll], 1),
        (int(state.crawford), 1),
        (int(state.state), 3),
        (PLAYER[state.turn], 1),
        (int(state.double_offered), 1),
        (state.resignation, 2),
        (state.dice[0] if state.dice else 0, 3),
        (state.dice[1] if state.dice else 0, 3),
        (state.length, 15),
        (state.score[Side.DARK], 15),
        (state.score[Side.LIGHT], 15),
        (int(not state.jacoby), 1),
    ]
    key = 0
    at = 0
    for value, width in fields:
        key |= value << at
        at += width
    return base64.b64encode(key.to_bytes(9, "little")).decode("ascii")


def decode_match_id(text: str) -> MatchState:
    """Read a Match ID; a malformed one raises :class:`InvalidIdError` saying what is wrong."""
    mid = text.strip()
    if len(mid) != 12 or not set(mid) <= _B64:
        raise InvalidIdError(f"not a Match ID: {text!r} (12 base64 characters)")
    try:
        key = int.from_bytes(base64.b64decode(mid), "little")
    except (binascii.Error, ValueError):
        raise InvalidIdError(f"not a Match ID: {text!r}") from None
    at = 0

    def take(width: int) -> int:
        nonlocal at
        value = key >> at & ((1 << width) - 1)
        at += width
        return value

    log_cube, owner, roll, crawford = take(4), take(2), take(1), take(1)
    state, turn, doubled, resigned, d1, d2 = take(3), take(1), take(1), take(2), take(3), take(3)
    length, score0, score1, no_jacoby = take(15), take(15), take(15), take(1)
    if owner == 2:
        raise InvalidIdError(f"Match ID {mid}: cube owner bits 10 mean nothing")
    if state > GameState.DROPPED:
        raise InvalidIdError(f"Match ID {mid}: game state {state} is not one of 0..4")
    if (d1 == 0) != (d2 == 0) or d1 > 6 or d2 > 6:
        raise InvalidIdError(f"Match ID {mid}: dice {d1} and {d2} are not a roll")
    try:
        return MatchState(
            cube_value=1 << log_cube,
            cube_owner=None if owner == 3 else _SIDE[owner],
            on_roll=_SIDE[roll],
            crawford=bool(crawford),
            state=GameState(state),
            turn=_SIDE[turn],
            double_offered=bool(doubled),
            resignation=resigned,
            dice=(d1, d2) if d1 else None,
            length=length,
            score=(score1, score0),
            jacoby=not no_jacoby,
        )
    except InvalidIdError as e:
        raise InvalidIdError(f"Match ID {mid}: {e}") from None


def match_state(
    cube: Cube,
    *,
    on_roll: Side,
    dice: tuple[int, int] | None = None,
    match: Match | None = None,
    state: GameState = GameState.PLAYING,
    resignation: int = 0,
) -> MatchState:
    """The Match ID fields of a game in play: its cube, the side on roll, the match if any.

    While an offer of the cube waits, the doubler is on roll and the opponent decides; a
    ``resignation`` (points) is offered by the side on roll, so the opponent decides then too.
    """
    if cube.offered_by is not None:
        on_roll = cube.offered_by
    deciding = on_roll.other if cube.offered_by is not None or resignation else on_roll
    if match is not None and any(isinstance(s, Fraction) for s in match.score):
        raise InvalidIdError(f"a Match ID holds whole points, not a score of {match}")
    return MatchState(
        cube_value=cube.value,
        cube_owner=cube.owner,
        on_roll=on_roll,
        crawford=match is not None and match.crawford_game,
        state=state,
        turn=deciding,
        double_offered=cube.offered_by is not None,
        resignation=resignation,
        dice=dice,
        length=0 if match is None else match.length,
        score=(0, 0) if match is None else (int(match.score[0]), int(match.score[1])),
        jacoby=match is None and cube.rules.jacoby,
    )
