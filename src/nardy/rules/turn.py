"""Steps and turns: what a player does with one roll.

Both are counted in the mover's own numbering: points 24 (farthest) down to 1, with 25 standing
for the bar and 0 for borne off. A turn that plays nothing (the roll cannot be used) has no steps
and the notation ``""``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from nardy.rules.position import Position

BAR = 25
OFF = 0


@dataclass(frozen=True, slots=True)
class Step:
    """One checker moved by one die: ``start`` to ``end`` (25 = bar, 0 = off)."""

    start: int
    end: int
    die: int
    hit: bool = False


class Turn:
    """A whole legal turn: its steps in playing order, the position it reaches, its notation.

    A value like a frozen dataclass (equal when steps and position are equal, hashable,
    immutable). The move generator makes thousands of turns a roll and most are never printed,
    so ``steps`` and ``notation`` are built on first use from the generator's raw tuples.
    """

    __slots__ = ("_after", "_make", "_notation", "_raw", "_steps")

    def __init__(
        self, steps: tuple[Step, ...], after: Position, notation: str | None = None
    ) -> None:
        object.__setattr__(self, "_steps", tuple(steps))
        object.__setattr__(self, "_raw", None)
        object.__setattr__(self, "_after", after)
        object.__setattr__(self, "_make", None)
        object.__setattr__(self, "_notation", notation)

    @classmethod
    def lazy(
        cls, raw: tuple[tuple[int, int, int, bool], ...], make: Callable[[], Position]
    ) -> Turn:
        """A turn from ``(start, end, die, hit)`` tuples and a maker of the position it reaches;
        the objects are made when first asked for."""
        made = object.__new__(cls)
        object.__setattr__(made, "_steps", None)
        object.__setattr__(made, "_raw", raw)
        object.__setattr__(made, "_after", None)
        object.__setattr__(made, "_make", make)
        object.__setattr__(made, "_notation", None if raw else "")
        return made

    @property
    def after(self) -> Position:
        after = self._after
        if after is None:
            after = self._make()
            object.__setattr__(self, "_after", after)
            object.__setattr__(self, "_make", None)
        return after

    @property
    def steps(self) -> tuple[Step, ...]:
        steps = self._steps
        if steps is None:
            steps = tuple([Step(*r) for r in self._raw])
            object.__setattr__(self, "_steps", steps)
        return steps

    @property
    def notation(self) -> str:
        text = self._notation
        if text is None:
            from nardy.rules.notation import format_turn

            text = format_turn(self.steps)
            object.__setattr__(self, "_notation", text)
        return text

    @property
    def dice_used(self) -> tuple[int, ...]:
        return tuple(s.die for s in self.steps)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"a Turn is immutable: cannot set {name}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"a Turn is immutable: cannot delete {name}")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Turn):
            return NotImplemented
        return self.after == other.after and self.steps == other.steps

    def __hash__(self) -> int:
        return hash((self.after, self.steps))

    def __repr__(self) -> str:
        return f"Turn(steps={self.steps!r}, after={self.after!r}, notation={self.notation!r})"
