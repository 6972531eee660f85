"""eXtreme Gammon's XGID: read and write (backgammon family).

``XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10`` has ten fields separated by colons:

1. the position, 26 characters: the top player's bar, then points 1 to 24 counted from the
   bottom player's side, then the bottom player's bar; ``-`` is empty, ``A``–``P`` are 1–16 of
   the bottom player's checkers, ``a``–``p`` the top player's;
2. log2 of the cube value;  3. the cube's owner: 1 bottom, −1 top, 0 centred;
4. the player on roll (or who doubled): 1 bottom, −1 top;
5. the dice: ``00`` before the roll, two digits once rolled, ``D`` a double offered, ``B`` a
   double beavered (``R``, a raccoon, is refused: the cube here has no raccoons);
6. the bottom player's score;  7. the top player's score;
8. in a match 1 for the Crawford game; in money play Jacoby (1) plus beavers (2);
9. the match length (0: money);  10. log2 of the largest cube allowed.

The bottom player is light: the position reads directly in light's numbering (the project's JSON
form), and is what GNU Backgammon's ``set xgid`` calls player 1.
"""

from __future__ import annotations

from dataclasses import dataclass

from nardy.rules.errors import InvalidIdError, InvalidPositionError
from nardy.rules.matchid import GameState, MatchState
from nardy.rules.position import Position, Side

_CUBE_POS = {1: Side.LIGHT, -1: Side.DARK, 0: None}
_SIGN = {Side.LIGHT: 1, Side.DARK: -1}


@dataclass(frozen=True, slots=True)
class Xgid:
    """Everything an XGID says. ``score`` is ``(light, dark)``; ``dice`` larger first or None."""

    position: Position
    on_roll: Side = Side.LIGHT
    cube_value: int = 1
    cube_owner: Side | None = None
    dice: tuple[int, int] | None = None
    double_offered: bool = False
    beavered: bool = False
    score: tuple[int, int] = (0, 0)
    length: int = 0
    crawford: bool = False
    jacoby: bool = False
    beavers: bool = False
    max_cube: int = 1 << 10

    def __post_init__(self) -> None:
        for name in ("cube_value", "max_cube"):
            v = getattr(self, name)
            if v < 1 or v & (v - 1):
                raise InvalidIdError(f"an XGID's {name.replace('_', ' ')} is a power of 2, not {v}")
        if self.dice is not None:
            if len(self.dice) != 2 or not all(1 <= d <= 6 for d in self.dice):
                raise InvalidIdError(f"dice are two numbers from 1 to 6, not {self.dice}")
            object.__setattr__(self, "dice", tuple(sorted(self.dice, reverse=True)))
            if self.double_offered or self.beavered:
                raise InvalidIdError("an XGID cannot hold both a roll and a pending double")
        if self.beavered and not self.double_offered:
            raise InvalidIdError("a beaver answers a double: double_offered must be set")
        if self.length and (self.jacoby or self.beavers):
            raise InvalidIdError("Jacoby and beavers are money-play rules, not match rules")
        if not self.length and self.crawford:
            raise InvalidIdError("money play has no Crawford game")
        if min(self.score) < 0 or self.length < 0:
            raise InvalidIdError("scores and the match length cannot be negative")

    def match_state(self) -> MatchState:
        """The same facts as a GNU Backgammon Match ID's fields (a beaver shows as a double)."""
        decider = self.on_roll.other if self.double_offered else self.on_roll
        return MatchState(
            cube_value=self.cube_value,
            cube_owner=self.cube_owner,
            on_roll=self.on_roll,
            crawford=self.crawford,
            state=GameState.PLAYING,
            turn=decider,
            double_offered=self.double_offered,
            dice=self.dice,
            length=self.length,
            score=self.score,
            jacoby=self.jacoby,
        )


# -- the position field -------------------------------------------------------------------------


def encode_position(position: Position) -> str:
    """The 26 letters of the XGID's position field."""
    cells = [-position.bar[Side.DARK], *position.points, position.bar[Side.LIGHT]]
    out = []
    for n in cells:
        if abs(n) > 16:
            raise InvalidIdError(f"an XGID holds at most 16 checkers on a point, not {abs(n)}")
        out.append("-" if n == 0 else chr((ord("A") if n > 0 else ord("a")) + abs(n) - 1))
    return "".join(out)


def decode_position(text: str, checkers: int = 15) -> Position:
    """The position in an XGID's position field; ``checkers`` a side decides what is borne off."""
    if len(text) != 26:
        raise InvalidIdError(f"an XGID position has 26 characters, not {len(text)}: {text!r}")
    cells = []
    for ch in text:
        if ch == "-":
            cells.append(0)
        elif "A" <= ch <= "P":
            cells.append(ord(ch) - ord("A") + 1)
        elif "a" <= ch <= "p":
            cells.append(-(ord(ch) - ord("a") + 1))
        else:
            raise InvalidIdError(f"{ch!r} is not a checker count in an XGID position")
    if cells[0] > 0 or cells[25] < 0:
        raise InvalidIdError("an XGID's first bar is the top player's, its last the bottom's")
    points = tuple(cells[1:25])
    bar = (cells[25], -cells[0])
    on_board = [bar[0] + sum(n for n in points if n > 0), bar[1] - sum(n for n in points if n < 0)]
    for side in Side:
        if on_board[side] > checkers:
            raise InvalidIdError(
                f"the XGID has {on_board[side]} {side} checkers; the game has {checkers} a side"
            )
    try:
        return Position(points, bar, (checkers - on_board[0], checkers - on_board[1]))
    except InvalidPositionError as e:
        raise InvalidIdError(str(e)) from None


# -- the whole id -------------------------------------------------------------------------------


def encode_xgid(x: Xgid) -> str:
    if x.beavered:
        dice = "B"
    elif x.double_offered:
        dice = "D"
    elif x.dice:
        dice = f"{max(x.dice)}{min(x.dice)}"
    else:
        dice = "00"
    cube_pos = 0 if x.cube_owner is None else _SIGN[x.cube_owner]
    rules = int(x.crawford) if x.length else int(x.jacoby) + 2 * int(x.beavers)
    fields = [
        encode_position(x.position),
        x.cube_value.bit_length() - 1,
        cube_pos,
        _SIGN[x.on_roll],
        dice,
        x.score[Side.LIGHT],
        x.score[Side.DARK],
        rules,
        x.length,
        x.max_cube.bit_length() - 1,
    ]
    return "XGID=" + ":".join(str(f) for f in fields)


def decode_xgid(text: str, checkers: int = 15) -> Xgid:
    """Read an XGID (with or without ``XGID=``); bad input raises :class:`InvalidIdError`."""
    body = text.strip()
    if body.upper().startswith("XGID="):
        body = body[5:]
    parts = body.split(":")
    if len(parts) != 10:
        raise InvalidIdError(f"an XGID has 10 fields separated by ':', not {len(parts)}: {text!r}")
    position = decode_position(parts[0], checkers)
    try:
        log_cube, cube_pos, turn, light, dark, rules, length, log_max = (
            int(p) for p in (*parts[1:4], *parts[5:10])
        )
    except ValueError:
        raise InvalidIdError(f"an XGID's fields after the position are numbers: {text!r}") from None
    if cube_pos not in _CUBE_POS or turn not in (1, -1):
        raise InvalidIdError("an XGID's cube owner is 1, 0 or -1 and its turn 1 or -1")
    if not 0 <= log_cube <= 15 or not 0 <= log_max <= 15:
        raise InvalidIdError("an XGID's cube fields are powers of 2 from 0 to 15")
    if not 0 <= rules <= (1 if length else 3):
        raise InvalidIdError(f"an XGID's rules field {rules} is out of range")
    dice_field = parts[4]
    dice: tuple[int, int] | None = None
    if dice_field == "R":
        raise InvalidIdError("the XGID shows a raccoon: raccoons are not played here")
    if dice_field not in ("D", "B", "00"):
        if len(dice_field) != 2 or not all(c in "123456" for c in dice_field):
            raise InvalidIdError(
                f"an XGID's dice are 00, D, B or two digits 1-6, not {dice_field!r}"
            )
        dice = (int(dice_field[0]), int(dice_field[1]))
    return Xgid(
        position=position,
        on_roll=Side.LIGHT if turn == 1 else Side.DARK,
        cube_value=1 << log_cube,
        cube_owner=_CUBE_POS[cube_pos],
        dice=dice,
        double_offered=dice_field in ("D", "B"),
        beavered=dice_field == "B",
        score=(light, dark),
        length=length,
        crawford=bool(length) and rules == 1,
        jacoby=not length and bool(rules & 1),
        beavers=not length and bool(rules & 2),
        max_cube=1 << log_max,
    )
