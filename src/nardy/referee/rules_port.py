"""The referee's boundary with the rules engine: the few calls it makes, as Protocols.

``nardy.rules.variant.get_variant`` and ``nardy.rules.judge.judge`` satisfy them; tests may pass a
stand-in. Everything here is pure.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
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
    """The variant and the judge from the rules engine."""
    from nardy.rules.judge import judge
    from nardy.rules.variant import get_variant

    return get_variant(name, **dict(options)), judge


def option(variant: VariantLike, name: str, default: Any) -> Any:
    """One of the variant's options, whether ``options`` is a mapping or an object."""
    opts = variant.options
    if isinstance(opts, Mapping):
        return opts.get(name, default)
    return getattr(opts, name, default)
