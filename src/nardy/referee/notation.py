"""A play written in GNU Backgammon notation, read into moves and applied by hand.

The referee needs this for turns entered on the dashboard (tables with no camera) and for
naming an illegal play it saw, which no legal turn describes. Points are the mover's own numbers;
``bar`` is 25 and ``off`` is 0.
"""

from __future__ import annotations

import itertools
import re

from nardy.rules.position import Numbering, Position, Side


class NotationError(ValueError):
    """A play that cannot be read as GNU notation."""


_TOKEN = re.compile(r"^((?:bar|off|\d{1,2})\*?(?:/(?:bar|off|\d{1,2})\*?)+)(?:\((\d)\))?$")


def _point(text: str) -> int:
    text = text.rstrip("*")
    if text == "bar":
        return 25
    if text == "off":
        return 0
    n = int(text)
    if not 1 <= n <= 24:
        raise NotationError(f"no point {n}")
    return n


def parse_play(text: str) -> list[tuple[int, int]]:
    """``"24/18/13 8/5*(2)"`` → ``[(24, 18), (18, 13), (8, 5), (8, 5)]``."""
    moves: list[tuple[int, int]] = []
    for token in text.lower().replace(",", " ").split():
        if token in ("-", "pass", "cannot", "move"):
            continue
        m = _TOKEN.match(token)
        if not m:
            raise NotationError(f"not a move in GNU notation: {token!r}")
        hops = [_point(p) for p in m.group(1).split("/")]
        times = int(m.group(2) or 1)
        for _ in range(times):
            moves.extend(itertools.pairwise(hops))
    return moves


def apply_play(
    position: Position, side: Side, numbering: Numbering, moves: list[tuple[int, int]]
) -> Position:
    """Move the checkers as written, legal or not (a lone opposing checker is hit in short nardy).

    Raises :class:`NotationError` only when a move starts where ``side`` has no checker.
    """
    own, theirs = (list(x) for x in position.view(side, numbering))
    hits = numbering is Numbering.OPPOSED
    for a, b in moves:
        if own[a] <= 0:
            where = "the bar" if a == 25 else f"point {a}"
            raise NotationError(f"no checker of {side} on {where}")
        own[a] -= 1
        if b != 0 and hits and theirs[b] == 1:
            theirs[b] = 0
            theirs[25] += 1
        own[b] += 1
    return Position.from_view(side, numbering, own, theirs)


Steps = tuple[tuple[int, int, int, bool], ...]


def diff_play(
    before: Position, after: Position, side: Side, numbering: Numbering
) -> tuple[str, Steps]:
    """A notation and steps for what changed between two positions, for a play no legal turn
    names (a condoned foul). Checkers that left points are paired with the points that gained,
    highest with highest; a step's die is the distance moved, as played.
    """
    own0, theirs0 = before.view(side, numbering)
    own1, _ = after.view(side, numbering)
    sources: list[int] = []
    targets: list[int] = []
    for p in range(26):
        d = own1[p] - own0[p]
        if d < 0:
            sources += [p] * -d
        elif d > 0:
            targets += [p] * d
    sources.sort(reverse=True)
    targets.sort(reverse=True)
    hits = numbering is Numbering.OPPOSED
    steps = tuple(
        (a, b, a - b, hits and b != 0 and theirs0[b] == 1)
        for a, b in zip(sources, targets, strict=False)
    )
    text = " ".join(f"{_name(a)}/{_name(b)}{'*' if hit else ''}" for a, b, _, hit in steps)
    return text, steps


def _name(p: int) -> str:
    return "bar" if p == 25 else "off" if p == 0 else str(p)
