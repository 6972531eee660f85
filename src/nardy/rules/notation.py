"""GNU Backgammon-style notation of a turn, and reading a player's notation back.

Writing follows GNU Backgammon's ``FormatMove`` exactly: moves sorted by start point (highest
first), the moves of one checker joined into a chain (``24/18/13`` becomes ``24/13`` unless it hit
on the way: ``24/18*/13``), repeated chains counted (``8/5(2)``), ``*`` after a point where a blot
was hit, ``bar`` and ``off`` for 25 and 0. Points are in the mover's own numbering (in long nardy
too, where nothing is ever hit).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable

from nardy.rules.errors import RulesError
from nardy.rules.turn import Step


def _point(n: int) -> str:
    return "bar" if n == 25 else "off" if n == 0 else str(n)


def format_turn(steps: Iterable[Step]) -> str:
    """The notation of a turn; ``""`` for a turn that plays nothing."""
    steps = list(steps)
    hit_points = {s.end for s in steps if s.hit}
    moves = sorted(((s.start, s.end) for s in steps), key=lambda m: (-m[0], -m[1]))
    chains: list[list[int] | None] = [[a, b] for a, b in moves]
    # Join the moves of one checker; keep an intermediate point only where it hit.
    for i in range(len(chains)):
        for j in range(i, len(chains)):
            ci, cj = chains[i], chains[j]
            if ci is None or cj is None or i == j:
                continue
            if ci[-1] == cj[0]:
                if ci[-1] in hit_points:
                    ci.append(cj[1])
                else:
                    ci[-1] = cj[1]
                chains[j] = None
    joined = [c for c in chains if c is not None]
    counted: list[tuple[list[int], int]] = []
    for c in joined:
        for k, (d, n) in enumerate(counted):
            if d == c:
                counted[k] = (d, n + 1)
                break
        else:
            counted.append((c, 1))
    flagged: set[int] = set()
    parts = []
    for chain, n in counted:
        text = _point(chain[0])
        for p in chain[1:-1]:
            text += f"/{_point(p)}*"
            flagged.add(p)
        dest = chain[-1]
        text += f"/{_point(dest)}"
        if dest and dest in hit_points and dest not in flagged:
            text += "*"
            flagged.add(dest)
        if n > 1:
            text += f"({n})"
        parts.append(text)
    return " ".join(parts)


_TOKEN = re.compile(r"^(?P<path>[^()]+?)(?:\((?P<n>[1-4])\))?$")


def _parse_point(text: str) -> int:
    t = text.strip().rstrip("*").lower()
    if t in ("bar", "b", "25"):
        return 25
    if t in ("off", "o", "0"):
        return 0
    if t.isdigit() and 1 <= int(t) <= 24:
        return int(t)
    raise RulesError(f"not a point: {text!r} (say 1 to 24, bar or off)")


def parse_moves(text: str) -> tuple[tuple[int, int], ...]:
    """Read ``24/18* 13/11`` or ``8/5(2)`` into ``(from, to)`` moves, one per checker and leg.

    A chain ``24/18/13`` gives two moves, ``24/18`` and ``18/13``; ``(n)`` repeats a token n times.
    A move may still cover more than one die (``13/3`` with 6-4): see :func:`split_moves`.
    """
    moves: list[tuple[int, int]] = []
    for token in text.replace(",", " ").split():
        m = _TOKEN.match(token)
        if not m:
            raise RulesError(f"cannot read the move {token!r}")
        points = [_parse_point(p) for p in m["path"].split("/")]
        if len(points) < 2:
            raise RulesError(f"a move names two points at least: {token!r}")
        legs = list(itertools.pairwise(points))
        for a, b in legs:
            if a == 0 or b == 25 or a <= b:
                raise RulesError(f"checkers move from higher to lower points: {token!r}")
        moves.extend(legs * int(m["n"] or 1))
    return tuple(moves)


def split_moves(moves: Iterable[tuple[int, int]], dice: tuple[int, int]) -> tuple[Step, ...]:
    """Cut each move into single-die steps for this roll, as geometry allows (no legality).

    A move of exactly one die's length uses that die; a longer one is cut into dice that add up
    to it; bearing off may overshoot with the last die (the smallest die that does is tried
    first). Raises ``RulesError`` when the dice cannot cover the moves. Hits are not known here
    (``hit=False``).
    """
    pool = [dice[0]] * 4 if dice[0] == dice[1] else sorted(dice)
    moves = list(moves)
    found = _assign(moves, pool)
    if found is None:
        text = " ".join(f"{_point(a)}/{_point(b)}" for a, b in moves)
        raise RulesError(f"{text} cannot be played with {dice[0]}-{dice[1]}")
    out: list[Step] = []
    for (a, _b), chosen in zip(moves, found, strict=True):
        at = a
        for d in chosen:
            nxt = max(at - d, 0)
            out.append(Step(at, nxt, d))
            at = nxt
    return tuple(out)


def _assign(moves: list[tuple[int, int]], pool: list[int]) -> list[tuple[int, ...]] | None:
    """Dice for each move, from ``pool``: the first assignment that covers every move."""
    if not moves:
        return []
    (a, b), rest = moves[0], moves[1:]
    dist = a - b
    n = len(pool)
    options = set()
    for mask in range(1, 1 << n):
        pick = tuple(sorted((pool[i] for i in range(n) if mask >> i & 1), reverse=True))
        total = sum(pick)
        if total == dist or (b == 0 and total > dist and total - pick[-1] < dist):
            options.add(pick)
    for pick in sorted(options, key=lambda p: (len(p), sum(p))):
        left = list(pool)
        for d in pick:
            left.remove(d)
        tail = _assign(rest, left)
        if tail is not None:
            return [pick, *tail]
    return None
