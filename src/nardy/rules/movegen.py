"""Legal-turn generation on the mover's view.

The search works on two mutable lists of 26 counts, ``own`` and ``theirs``, in the mover's own
numbering (index 1..24 a point, 25 the bar, 0 borne off; ``theirs[p]`` is the opponent's checkers
standing on the mover's point ``p``), moving and undoing in place. Every end of a sequence is
keyed by the checkers it leaves (``own``) and the blots it hit (a bit mask), so turns that reach
the same position are found once.

On a double in a variant where the order of the moves changes nothing but the path (every
variant except the caucasian rule and the block rule judged after every move), sequences are
generated with non-increasing start points only, as GNU Backgammon does: any legal set of moves
of one number can be played highest checker first. Elsewhere a memo of visited states prunes
the repeated orders instead.

Which sequences are turns: the most dice used, and with two different dice of which only one can
be used, the larger one (unless ``larger_die`` is off). A sequence whose end the variant rejects
(the block rule judged at the end of the turn) does not count; its prefixes may.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

#: A found turn: the mover's checkers after it, the mask of points whose blot it hit, its steps
#: as ``(start, end, die, hit)`` tuples.
Found = tuple[tuple[int, ...], int, tuple[tuple[int, int, int, bool], ...]]

#: Judges a finished or partial position ``(own, theirs)``: True when the variant allows it.
EndCheck = Callable[[list[int], list[int]], bool]


@dataclass(frozen=True, slots=True)
class MoveRules:
    """What the generator needs to know of a variant, for one turn."""

    #: How many opposing checkers close a point: 2 in short nardy, 1 in long.
    closed_at: int = 2
    #: Most checkers that may leave point 24 this turn; 0 for no limit.
    head_limit: int = 0
    #: The caucasian rule: a checker that hits in the mover's home may not go on to a point
    #: that holds the mover's checkers.
    no_hit_and_hide: bool = False
    #: Must the larger die be played when only one of two different dice can be?
    larger_die: bool = True
    #: Rejects a position a single move may not reach (block rule judged after every move).
    move_check: EndCheck | None = None
    #: Rejects a position a turn may not end in (block rule judged at the end of the turn).
    end_check: EndCheck | None = None


def generate(
    own0: tuple[int, ...], theirs0: tuple[int, ...], dice: tuple[int, int], rules: MoveRules
) -> list[Found]:
    """Every distinct legal turn, in a deterministic order (the order of discovery)."""
    own = list(own0)
    theirs = list(theirs0)
    d1, d2 = dice
    double = d1 == d2
    if double:
        seqs: list[tuple[int, ...]] = [(d1, d1, d1, d1)]
    else:
        hi, lo = (d1, d2) if d1 > d2 else (d2, d1)
        seqs = [(hi, lo), (lo, hi)]
    closed_at = rules.closed_at
    head_limit = rules.head_limit
    hide = rules.no_hit_and_hide
    move_check = rules.move_check
    end_check = rules.end_check
    larger = rules.larger_die
    ordered = double and not hide and move_check is None
    memo: dict[tuple, bool] | None = {} if (double and not ordered) else None
    hitter = [0] * 26 if hide else None

    found: dict[tuple, tuple[tuple[int, ...], int, tuple]] = {}
    best = [0, 0]  # dice used, pips used (pips only count when the larger die must be played)
    path: list[tuple[int, int, int, bool]] = []

    def record(n: int, pips: int, mask: int) -> bool:
        if end_check is not None and n and not end_check(own, theirs):
            return False
        if not larger:
            pips = 0
        if n < best[0] or (n == best[0] and pips < best[1]):
            return True
        if n > best[0] or pips > best[1]:
            found.clear()
            best[0], best[1] = n, pips
        key_own = tuple(own)
        key = (key_own, mask)
        if key not in found:
            found[key] = (key_own, mask, tuple(path))
        return True

    def rec(seq: tuple[int, ...], depth: int, top: int, outside: int, head: int, mask: int) -> bool:
        if memo is not None:
            state = (tuple(own), mask, depth, head, tuple(hitter) if hitter else None)
            if state in memo:
                return memo[state]
        d = seq[depth]
        nxt = depth + 1
        last = nxt == len(seq)
        recorded = False
        sources = (25,) if own[25] else range(top if top < 25 else 24, 0, -1)
        for s in sources:
            if not own[s]:
                continue
            if s == 24 and head_limit and head >= head_limit:
                continue
            t = s - d
            if t > 0:
                if theirs[t] >= closed_at:
                    continue
                hit = theirs[t] == 1  # only reached when single checkers are hit
            else:
                if outside:
                    continue
                if t < 0 and any(own[q] for q in range(s + 1, 7)):
                    continue
                t = 0
                hit = False
            # The caucasian rule: which checker leaves s, a hitter or not?
            movers = (False,)
            if hitter is not None and hitter[s]:
                if own[s] > hitter[s]:
                    movers = (False, True) if (t == 0 or not own[t]) else (False,)
                elif t and own[t]:
                    continue  # the hitter may not hide on its own point
                else:
                    movers = (True,)
            for moving_hitter in movers:
                own[s] -= 1
                own[t] += 1
                if hit:
                    theirs[t] -= 1
                    theirs[25] += 1
                if hitter is not None:
                    if moving_hitter:
                        hitter[s] -= 1
                    if t and (moving_hitter or (hit and t <= 6)):
                        hitter[t] += 1
                ok = move_check is None or move_check(own, theirs)
                if ok:
                    path.append((s, t, d, hit))
                    out = outside - (1 if s > 6 >= t else 0)
                    hd = head + (1 if s == 24 else 0)
                    mk = mask | (1 << t) if hit else mask
                    if last:
                        got = record(nxt, sum(seq[:nxt]), mk)
                    else:
                        got = rec(seq, nxt, s if ordered else 25, out, hd, mk)
                    recorded = recorded or got
                    path.pop()
                if hitter is not None:
                    if t and (moving_hitter or (hit and t <= 6)):
                        hitter[t] -= 1
                    if moving_hitter:
                        hitter[s] += 1
                if hit:
                    theirs[t] += 1
                    theirs[25] -= 1
                own[t] -= 1
                own[s] += 1
        if not recorded:
            recorded = record(depth, sum(seq[:depth]), mask)
        if memo is not None:
            memo[state] = recorded
        return recorded

    outside0 = sum(own[7:26])
    for seq in seqs:
        if memo is not None:
            memo.clear()
        rec(seq, 0, 25, outside0, 0, 0)
    if not found:  # nothing playable that the variant accepts: the turn passes
        found[((), 0)] = (tuple(own0), 0, ())
    return list(found.values())
