"""The referee's boundary with the rules engine: the few calls it makes, as Protocols.

``nardy.rules.variant.get_variant`` and ``nardy.rules.judge.judge`` satisfy them; tests may pass a
stand-in. Everything here is pure.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from nardy.rules.position import Numbering, Position, Side


class TurnLike(Protocol):
    steps: Sequence[Any]
    after: Position
    notation: str


class JudgementLike(Protocol):
    verdict: str  # "legal" | "partial" | "illegal" | "impossible"
    turn: TurnLike | None
    reasons: tuple[str, ...]
    nearest: tuple[TurnLike, ...]


class VariantLike(Protocol):
    name: str
    family: str  # "short" | "long"
    numbering: Numbering
    checkers: int
    options: Any

    def start(self) -> Position: ...

    def legal_turns(
        self, pos: Position, side: Side, dice: Sequence[int], *, first_turn: bool = False
    ) -> tuple[TurnLike, ...]: ...

    def winner(self, pos: Position) -> Side | None: ...


class Judge(Protocol):
    def __call__(
        self,
        variant: Any,
        pos: Position,
        side: Side,
        dice: Sequence[int],
        played: Position,
        *,
        first_turn: bool = False,
    ) -> JudgementLike: ...


def load_rules(name: str, options: Mapping[str, Any]) -> tuple[VariantLike, Judge]:
    """The variant and the judge from the rules engine (a judge of our own until it has one)."""
    from nardy.rules.variant import get_variant

    try:
        from nardy.rules.judge import judge
    except ImportError:
        judge = judge_by_turns
    return get_variant(name, **dict(options)), judge


@dataclass(frozen=True)
class Judgement:
    verdict: str
    turn: Any = None
    reasons: tuple[str, ...] = ()
    nearest: tuple[Any, ...] = ()


def judge_by_turns(
    variant: Any,
    pos: Position,
    side: Side,
    dice: Sequence[int],
    played: Position,
    *,
    first_turn: bool = False,
) -> Judgement:
    """Which legal turn leads from ``pos`` to ``played``, from the variant's legal turns alone.

    Legal: one turn reaches it. Partial: the first steps of a legal turn reach it. Impossible: a
    side's checkers do not add up. Illegal otherwise, with the three nearest legal turns.
    """
    turns = variant.legal_turns(pos, side, dice, first_turn=first_turn)
    for t in turns:
        if t.after == played:
            return Judgement("legal", t)
    for side_ in Side:
        n = played.checkers(side_)
        if n != variant.checkers:
            return Judgement(
                "impossible",
                reasons=(f"{side_} has {n} checkers on the board seen, not {variant.checkers}",),
                nearest=_nearest(turns, played),
            )
    for t in turns:
        for k in range(1, len(t.steps)):
            try:
                if variant.play(pos, side, t.steps[:k]) == played:
                    return Judgement("partial")
            except ValueError:
                break
    roll = "-".join(map(str, dice))
    if all(not t.steps for t in turns):
        why = f"{roll} cannot be played: nothing may move"
    else:
        why = f"no legal turn of {roll} leads to the board seen"
    return Judgement("illegal", reasons=(why,), nearest=_nearest(turns, played))


def _nearest(turns: Sequence[Any], played: Position) -> tuple[Any, ...]:
    def distance(t: Any) -> int:
        a = t.after
        return (
            sum(abs(x - y) for x, y in zip(a.points, played.points, strict=True))
            + sum(abs(x - y) for x, y in zip(a.bar, played.bar, strict=True))
            + sum(abs(x - y) for x, y in zip(a.off, played.off, strict=True))
        )

    return tuple(sorted((t for t in turns if t.steps), key=distance)[:3])


def option(variant: VariantLike, name: str, default: Any) -> Any:
    """One of the variant's options, whether ``options`` is a mapping or an object."""
    opts = variant.options
    if isinstance(opts, Mapping):
        return opts.get(name, default)
    return getattr(opts, name, default)
