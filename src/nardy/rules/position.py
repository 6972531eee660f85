"""Sides and positions.

A :class:`Position` is what stands on the board, nothing more: no side to move, no dice, no cube.
It is stored the way the project's JSON form is written — 24 points counted in light's numbering
(index 0 is light's point 1), positive for light checkers and negative for dark ones — so that it
reads the same in every variant. In short nardy dark's point ``p`` is light's ``25 - p``; in long
nardy both sides run the same way round and dark's point ``p`` is light's ``p ± 12`` (dark's head,
its point 24, is light's point 12).

The move generator works on a view from the mover's side; :meth:`Position.view` and
:meth:`Position.from_view` convert, given the variant family's numbering.
"""

from __future__ import annotations

import enum
import json
import operator
from dataclasses import dataclass
from typing import Any

from nardy.rules.errors import InvalidPositionError


class Side(enum.IntEnum):
    """The two sides. Light is the lighter set of checkers."""

    LIGHT = 0
    DARK = 1

    @property
    def other(self) -> Side:
        return Side(1 - self)

    @property
    def sign(self) -> int:
        """+1 for light, -1 for dark: the sign of this side's checkers in ``Position.points``."""
        return 1 if self is Side.LIGHT else -1

    @classmethod
    def parse(cls, text: str) -> Side:
        try:
            return cls[text.strip().upper()]
        except KeyError:
            raise ValueError(f"unknown side {text!r}: say light or dark") from None

    def __str__(self) -> str:
        return self.name.lower()


class Numbering(enum.Enum):
    """How a side's own point numbers map onto light's numbering."""

    #: Short nardy: the sides move in opposite directions; dark's p is light's 25 - p.
    OPPOSED = "opposed"
    #: Long nardy: both sides move the same way round; dark's p is light's p ± 12.
    SAME_WAY = "same_way"

    def to_light(self, side: Side, point: int) -> int:
        """Light's number of ``side``'s point ``point`` (1..24)."""
        if side is Side.LIGHT:
            return point
        if self is Numbering.OPPOSED:
            return 25 - point
        return point - 12 if point > 12 else point + 12

    def from_light(self, side: Side, point: int) -> int:
        """``side``'s own number of light's point ``point`` (1..24)."""
        # Both mappings are involutions.
        return self.to_light(side, point)


@dataclass(frozen=True, slots=True)
class Position:
    """Checkers on the board, on the bar and borne off.

    ``points[i]`` is light's point ``i + 1``: ``+n`` for n light checkers, ``-n`` for n dark.
    ``bar`` and ``off`` are ``(light, dark)`` counts. Immutable and hashable.
    """

    points: tuple[int, ...]
    bar: tuple[int, int] = (0, 0)
    off: tuple[int, int] = (0, 0)

    def __post_init__(self) -> None:
        if len(self.points) != 24:
            raise InvalidPositionError(f"a board has 24 points, not {len(self.points)}")
        if min(self.bar) < 0 or min(self.off) < 0:
            raise InvalidPositionError("a count on the bar or borne off cannot be negative")

    # -- counting -------------------------------------------------------------------------------

    def checkers(self, side: Side) -> int:
        """All of ``side``'s checkers: on the points, on the bar and borne off."""
        s = side.sign
        on_board = sum(n * s for n in self.points if n * s > 0)
        return on_board + self.bar[side] + self.off[side]

    def at(self, side: Side, point: int, numbering: Numbering = Numbering.OPPOSED) -> int:
        """How many of ``side``'s checkers stand on ``side``'s own point ``point``."""
        n = self.points[numbering.to_light(side, point) - 1] * side.sign
        return n if n > 0 else 0

    # -- the mover's view -----------------------------------------------------------------------

    def view(self, side: Side, numbering: Numbering) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The board from ``side``'s seat: ``(own, theirs)``, each 26 counts.

        Index 1..24 is a point in ``side``'s own numbering; index 25 is the bar of that set of
        checkers, index 0 what it has borne off. ``theirs`` counts the opponent's checkers on the
        same points (so ``theirs[p]`` stands on ``side``'s point ``p``) with the opponent's bar at
        25 and borne-off at 0.
        """
        pts = self.points
        mine = [pts[i] for i in _INDEX[numbering][side]]
        if side is Side.DARK:
            mine = [-n for n in mine]
        own = [0, *(n if n > 0 else 0 for n in mine), 0]
        theirs = [0, *(-n if n < 0 else 0 for n in mine), 0]
        own[25], theirs[25] = self.bar[side], self.bar[side.other]
        own[0], theirs[0] = self.off[side], self.off[side.other]
        return tuple(own), tuple(theirs)

    @classmethod
    def from_view(
        cls,
        side: Side,
        numbering: Numbering,
        own: tuple[int, ...] | list[int],
        theirs: tuple[int, ...] | list[int],
        *,
        trusted: bool = False,
    ) -> Position:
        """The inverse of :meth:`view`.

        ``trusted`` skips the checks, for views the move generator made from a checked one.
        """
        pick = _PICK[numbering][side]
        if not trusted:
            for p in range(1, 25):
                if own[p] and theirs[p]:
                    raise InvalidPositionError(
                        f"point {numbering.to_light(side, p)} holds checkers of both colours"
                    )
        if side is Side.LIGHT:
            points = tuple(map(operator.sub, pick(own), pick(theirs)))
            bar = (own[25], theirs[25])
            off = (own[0], theirs[0])
        else:
            points = tuple(map(operator.sub, pick(theirs), pick(own)))
            bar = (theirs[25], own[25])
            off = (theirs[0], own[0])
        if not trusted:
            return cls(points, bar, off)
        made = object.__new__(cls)
        object.__setattr__(made, "points", points)
        object.__setattr__(made, "bar", bar)
        object.__setattr__(made, "off", off)
        return made

    # -- the project's JSON form ----------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        return {"points": list(self.points), "bar": list(self.bar), "off": list(self.off)}

    @classmethod
    def from_json(cls, data: dict[str, Any] | str) -> Position:
        """Read ``{"points": [24 ints], "bar": [l, d], "off": [l, d]}`` (a dict or its text)."""
        if isinstance(data, str):
            try:
                data = json.loads(data)
            except json.JSONDecodeError as e:
                raise InvalidPositionError(f"not a JSON position: {e.msg}") from None
        if not isinstance(data, dict) or "points" not in data:
            raise InvalidPositionError('a JSON position needs "points" (24 integers)')
        try:
            points = tuple(_as_int(v) for v in data["points"])
            bar = _pair(data.get("bar", [0, 0]), "bar")
            off = _pair(data.get("off", [0, 0]), "off")
        except TypeError as e:
            raise InvalidPositionError(str(e)) from None
        return cls(points, bar, off)

    def __str__(self) -> str:
        return json.dumps(self.to_json(), separators=(",", ":"))


def _as_int(v: object) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise TypeError(f"checker counts are integers, not {v!r}")
    return v


def _pair(v: object, name: str) -> tuple[int, int]:
    if not isinstance(v, list | tuple) or len(v) != 2:
        raise TypeError(f'"{name}" is a pair [light, dark]')
    return (_as_int(v[0]), _as_int(v[1]))


#: For each numbering and side: what picks, from a view, the counts at light's points 1..24 in
#: order (_PICK), and light's index of each of the side's own points 1..24 (_INDEX).
_PICK = {
    num: {
        side: operator.itemgetter(*(num.from_light(side, i + 1) for i in range(24)))
        for side in Side
    }
    for num in Numbering
}
_INDEX = {
    num: {side: tuple(num.to_light(side, p) - 1 for p in range(1, 25)) for side in Side}
    for num in Numbering
}
