"""Steps from a play as people write it: which die moved each checker, and which steps hit.

Notation runs a checker's moves together ("24/14" for 6-4) and often leaves hits unmarked; the
record wants one step per die with its hit. Used by the readers of other programs' records.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from nardy.record.model import BAR, OFF, RecordError, Step, apply_steps, step_notation

__all__ = ["step_notation", "steps_of"]
from nardy.rules.position import Numbering, Position, Side


def steps_of(
    before: Position,
    side: Side,
    numbering: Numbering,
    moves: Sequence[tuple[int, int]],
    dice: Sequence[int],
    after: Position | None = None,
) -> tuple[Step, ...]:
    """The steps of a play written as ``moves`` (from, to) in the mover's numbering.

    A move written run together ("24/14" for 6-4) is split into one step per die, in the order
    that leads to ``after`` (or, without ``after``, the first order that can be played); landing
    on a lone opposing checker hits it. A move no die makes gets die 0 (a foul let stand).
    """
    moves = list(moves)
    for a, b in moves:
        if not (1 <= a <= BAR and OFF <= b < BAR):
            raise RecordError(f"no move from {a} to {b}")
    left = [dice[0]] * 4 if len(set(dice)) == 1 else list(dice)
    fallback = None
    for dies in _die_sequences(moves, left):
        steps = _with_hits(before, side, numbering, dies)
        fallback = fallback or steps
        try:
            reached = apply_steps(before, side, steps, numbering)
        except ValueError:
            continue
        if after is None or reached == after:
            return steps
    # A foul let stand or a corrected position: the moves as written, dice where they fit.
    return fallback or tuple(Step(a, b, 0) for a, b in moves)


def _die_sequences(
    moves: list[tuple[int, int]], left: list[int]
) -> Iterator[list[tuple[int, int, int]]]:
    """Every way to play ``moves`` with the dice ``left``: lists of (start, end, die)."""
    if not moves:
        yield []
        return
    (a, b), rest = moves[0], moves[1:]
    for split, remaining in _splits(a, b, left):
        for tail in _die_sequences(rest, remaining):
            yield split + tail


def _splits(
    a: int, b: int, left: list[int], top: bool = True
) -> Iterator[tuple[list[tuple[int, int, int]], list[int]]]:
    """One checker from ``a`` to ``b`` by one die of ``left``, or by several, landing between."""
    direct = [d for d in sorted(set(left)) if a - d == b or (b == OFF and a - d < 0)]
    for die in direct:
        rest = list(left)
        rest.remove(die)
        yield [(a, b, die)], rest
    found = bool(direct)
    for die in sorted(set(left)):
        mid = a - die
        if mid > b and mid > 0:
            rest = list(left)
            rest.remove(die)
            for tail, remaining in _splits(mid, b, rest, top=False):
                found = True
                yield [(a, mid, die), *tail], remaining
    if top and not found:
        # Nothing fits: a step the dice do not make (a foul), die 0.
        yield [(a, b, 0)], list(left)


def _with_hits(
    before: Position, side: Side, numbering: Numbering, dies: list[tuple[int, int, int]]
) -> tuple[Step, ...]:
    own, theirs = (list(v) for v in before.view(side, numbering))
    steps = []
    for a, b, die in dies:
        hit = numbering is Numbering.OPPOSED and b not in (BAR, OFF) and theirs[b] == 1
        if hit:
            theirs[b], theirs[BAR] = 0, theirs[BAR] + 1
        own[a] -= 1
        own[b] += 1
        steps.append(Step(a, b, die, hit))
    return tuple(steps)
