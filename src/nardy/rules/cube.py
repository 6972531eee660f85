"""The doubling cube ("dave") as a frozen value with transitions.

At the start of a game the cube is centred and either player may offer. An offer says "resign,
or the stake goes up": the opponent drops (the game ends, the doubler wins the current value),
takes (the value rises to the next step and the taker owns the cube: only they may offer next)
or, where beavers are played, beavers (takes and at once redoubles, keeping the cube).

The cube does not know whose turn it is: the referee offers only before the offerer's roll.
Every refused transition raises :class:`CubeError` with a reason a person understands.

:meth:`Cube.points` turns a :class:`~nardy.rules.result.GameResult` into points:

- Russian practice (``mars_with_cube`` off): in a game played with the cube there is no mars
  and no oin, a win is worth the cube value. This follows the source ("Марса не существует" in
  short nardy with the dave), so it holds whether or not the cube was turned.
- International practice (``mars_with_cube`` on): the table's multiplier times the cube value.
- Jacoby (money play only): marses and backgammons count as single games until the cube has
  been turned.
- A game without the cube (the Crawford game, or a cube turned off) scores the table alone.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from nardy.rules.errors import CubeError
from nardy.rules.position import Side
from nardy.rules.result import Ending, GameResult, dropped

GEOMETRIC = "geometric"
ARITHMETIC = "arithmetic"


@dataclass(frozen=True, slots=True)
class CubeRules:
    """The options the cube is played under (the variant's options plus the kind of play)."""

    progression: str = GEOMETRIC  # 1, 2, 4, 8 … or 1, 2, 3, 4 …
    limit: int | None = None  # the highest value the cube may reach; None: no limit
    beavers: bool = False  # money play only
    jacoby: bool = False  # money play only
    mars_with_cube: bool = True  # international: the table's multiplier counts with the cube

    def __post_init__(self) -> None:
        if self.progression not in (GEOMETRIC, ARITHMETIC):
            raise CubeError(f"the cube progresses geometric or arithmetic, not {self.progression}")
        if self.limit is not None and self.limit < 1:
            raise CubeError(f"a cube limit is at least 1, not {self.limit}")

    @classmethod
    def from_options(cls, options: Any, *, money: bool, limit: int | None = None) -> CubeRules:
        """The rules for a variant's options; Jacoby and beavers count only in ``money`` play."""
        return cls(
            progression=str(getattr(options, "cube_progression", GEOMETRIC)),
            limit=limit,
            beavers=money and bool(getattr(options, "beavers", False)),
            jacoby=money and bool(getattr(options, "jacoby", False)),
            mars_with_cube=bool(getattr(options, "mars_with_cube", True)),
        )

    def next_value(self, value: int) -> int:
        return value * 2 if self.progression == GEOMETRIC else value + 1

    def values(self) -> tuple[int, ...]:
        """Every value the cube can show under these rules, up to the limit (or 64 without)."""
        top = self.limit if self.limit is not None else 64
        out = [1]
        while self.next_value(out[-1]) <= top:
            out.append(self.next_value(out[-1]))
        return tuple(out)


@dataclass(frozen=True, slots=True)
class Cube:
    """Where the cube stands in one game.

    ``owner`` is ``None`` while the cube is centred. ``offered_by`` is the side whose offer
    awaits an answer. ``enabled`` is False in a game played without the cube; ``crawford``
    says that this is because it is the Crawford game.
    """

    rules: CubeRules = CubeRules()
    value: int = 1
    owner: Side | None = None
    offered_by: Side | None = None
    enabled: bool = True
    crawford: bool = False

    @classmethod
    def disabled(cls, rules: CubeRules = CubeRules(), *, crawford: bool = False) -> Cube:
        return cls(rules, enabled=False, crawford=crawford)

    @property
    def turned(self) -> bool:
        """Whether a double was taken in this game (the value rose above 1)."""
        return self.value > 1

    @property
    def centred(self) -> bool:
        return self.owner is None

    def why_not_offer(self, side: Side) -> str | None:
        """The reason ``side`` may not offer now, or ``None`` when they may."""
        if self.crawford:
            return "no doubling in the Crawford game"
        if not self.enabled:
            return "the cube is not in play in this game"
        if self.offered_by is not None:
            return f"{self.offered_by} has offered the cube: {self.offered_by.other} must answer"
        if self.owner is not None and self.owner is not side:
            return f"{self.owner} owns the cube"
        nxt = self.rules.next_value(self.value)
        if self.rules.limit is not None and nxt > self.rules.limit:
            return f"the cube is at its limit of {self.rules.limit}"
        return None

    def may_offer(self, side: Side) -> bool:
        return self.why_not_offer(side) is None

    def offer(self, side: Side) -> Cube:
        """``side`` offers the cube: "resign, or the stake goes up"."""
        why = self.why_not_offer(side)
        if why is not None:
            raise CubeError(why)
        return replace(self, offered_by=side)

    def take(self) -> Cube:
        """The offer is accepted: the value rises and the taker owns the cube."""
        doubler = self._pending("take")
        return replace(
            self, value=self.rules.next_value(self.value), owner=doubler.other, offered_by=None
        )

    def beaver(self) -> Cube:
        """The taker takes and at once redoubles, keeping the cube (money play, beavers on)."""
        doubler = self._pending("beaver")
        if not self.rules.beavers:
            raise CubeError("beavers are not played here")
        value = self.rules.next_value(self.rules.next_value(self.value))
        if self.rules.limit is not None and value > self.rules.limit:
            raise CubeError(f"a beaver would pass the cube's limit of {self.rules.limit}")
        return replace(self, value=value, owner=doubler.other, offered_by=None)

    def drop(self) -> GameResult:
        """The offer is refused: the game ends, the doubler wins the cube's current value.

        The cube itself stays as it was (its value is still the one before the offer); score the
        result with ``cube.points(result)``.
        """
        return dropped(self._pending("drop"))

    def points(self, result: GameResult) -> int | Fraction:
        """The points ``result.winner`` wins with this cube; for a draw, what each side gets."""
        multiplier = result.multiplier
        if self.enabled and result.ending is not Ending.DROPPED:
            if not self.rules.mars_with_cube:
                multiplier = 1
            if self.rules.jacoby and not self.turned:
                multiplier = 1
        if result.winner is None:
            return Fraction(self.value * multiplier, 2)
        return self.value * multiplier

    def _pending(self, action: str) -> Side:
        if self.offered_by is None:
            raise CubeError(f"no offer of the cube to {action}")
        return self.offered_by

    def __str__(self) -> str:
        if not self.enabled:
            return "no cube (Crawford game)" if self.crawford else "no cube"
        where = "centred" if self.owner is None else f"owned by {self.owner}"
        offer = f", offered by {self.offered_by}" if self.offered_by is not None else ""
        return f"cube {self.value}, {where}{offer}"
