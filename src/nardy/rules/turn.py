"""Steps and turns: what a player does with one roll.

Both are counted in the mover's own numbering: points 24 (farthest) down to 1, with 25 standing
for the bar and 0 for borne off. A turn that plays nothing (the roll cannot be used) has no steps
and the notation ``""``.
"""

from __future__ import annotations

from dataclasses import dataclass

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


@dataclass(frozen=True, slots=True)
class Turn:
    """A whole legal turn: its steps in playing order, the position it reaches, its notation."""

    steps: tuple[Step, ...]
    after: Position
    notation: str

    @property
    def dice_used(self) -> tuple[int, ...]:
        return tuple(s.die for s in self.steps)
