"""A stand-in rules engine for the referee's own tests: legality from a script, not a generator.

The real engine (``nardy.rules``) is tested on its own; here the referee's state machine is
tested against plays a test declares legal, so every verdict below is one the test chose.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

from nardy.referee.notation import apply_play, parse_play
from nardy.rules.position import Numbering, Position, Side

START = Position(
    tuple({1: -2, 6: 5, 8: 3, 12: -5, 13: 5, 17: -3, 19: -5, 24: 2}.get(p, 0) for p in range(1, 25))
)


@dataclass(frozen=True)
class FakeTurn:
    steps: tuple[Any, ...]
    after: Position
    notation: str


@dataclass(frozen=True)
class FakeJudgement:
    verdict: str
    turn: FakeTurn | None
    reasons: tuple[str, ...]
    nearest: tuple[FakeTurn, ...]


@dataclass
class FakeVariant:
    """``legal[(side, dice)]`` lists the legal plays (GNU notation) from whatever position."""

    legal: dict[tuple[Side, tuple[int, int]], list[str]] = field(default_factory=dict)
    name: str = "backgammon"
    family: str = "short"
    numbering: Numbering = Numbering.OPPOSED
    checkers: int = 15
    options: Any = field(default_factory=lambda: options())

    def start(self) -> Position:
        return START

    def plays(self, side: Side, dice: Sequence[int]) -> list[str]:
        return self.legal.get((side, (max(dice), min(dice))), [])

    def legal_turns(
        self, pos: Position, side: Side, dice: Sequence[int], *, first_turn: bool = False
    ) -> tuple[FakeTurn, ...]:
        out = []
        for play in self.plays(side, dice):
            moves = parse_play(play)
            after = apply_play(pos, side, self.numbering, moves)
            out.append(FakeTurn(tuple(moves), after, play))
        return tuple(out) or (FakeTurn((), pos, ""),)

    def winner(self, pos: Position) -> Side | None:
        for side in Side:
            if pos.off[side] >= self.checkers:
                return side
        return None


def fake_judge(
    variant: FakeVariant,
    pos: Position,
    side: Side,
    dice: Sequence[int],
    played: Position,
    *,
    first_turn: bool = False,
) -> FakeJudgement:
    turns = [t for t in variant.legal_turns(pos, side, dice) if t.steps]
    for t in turns:
        if t.after == played:
            return FakeJudgement("legal", t, (), ())
    for t in turns:
        moves = list(t.steps)
        for k in range(1, len(moves)):
            if apply_play(pos, side, variant.numbering, moves[:k]) == played:
                return FakeJudgement("partial", None, (), ())
    if any(played.checkers(s) != variant.checkers for s in Side):
        return FakeJudgement("impossible", None, ("a checker appeared",), tuple(turns))
    return FakeJudgement("illegal", None, ("no legal turn leads there",), tuple(turns))


def options(**kw: Any) -> SimpleNamespace:
    """The variant options the referee reads, with the rules engine's defaults."""
    base = dict(
        opening_uses_both_dice=True,
        winner_starts_next=False,
        crawford=False,
        jacoby=False,
        beavers=False,
        cube_progression="geometric",
        mars_with_cube=True,
        draw_rule=False,
        home_mars=2,
        koks=False,
    )
    return SimpleNamespace(**{**base, **kw})


def rules(legal: dict[tuple[Side, tuple[int, int]], list[str]], **kw: Any) -> tuple[Any, Any]:
    return FakeVariant(legal, **kw), fake_judge


def after(pos: Position, side: Side, play: str) -> Position:
    return apply_play(pos, side, Numbering.OPPOSED, parse_play(play))
