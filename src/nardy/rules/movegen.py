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

#: Judges a position ``(own, theirs)`` on the mover's view: True when the variant allows it.
EndCheck = Callable[[list[int], list[int]], bool]

#: A place in a turn: the mover's checkers and the mask of blots hit so far.
Place = tuple[tuple[int, ...], int]


@dataclass(frozen=True, slots=True)
class MoveRules:
    """What the generator needs to know of a variant, for one turn.

    The switches after ``end_check`` exist for the judge, which relaxes one rule at a time to
    find which one a played turn broke; the variants leave them on.
    """

    #: How many opposing checkers close a point: 2 in short nardy, 1 in long.
    closed_at: int = 2
    #: Most checkers that may leave point 24 this turn; 0 for no limit.
    head_limit: int = 0
    #: The caucasian rule: a checker that hits in the mover's home may not go on, in the same
    #: turn, to a point that holds the mover's checkers at that moment.
    no_hit_and_hide: bool = False
    #: Must the larger die be played when only one of two different dice can be?
    larger_die: bool = True
    #: Rejects a position a single move may not reach (block rule judged after every move).
    move_check: EndCheck | None = None
    #: Rejects a position a turn may not end in (block rule judged at the end of the turn).
    end_check: EndCheck | None = None
    #: Must as many dice as possible be played? (Off: any prefix of a sequence is a turn.)
    maximal: bool = True
    #: Must checkers on the bar enter before any other checker moves?
    bar_first: bool = True
    #: Does bearing off wait until every checker is home?
    home_first: bool = True


class Search:
    """One search: the legal turns, and on request every place on the way to one."""

    def __init__(
        self,
        own0: tuple[int, ...],
        theirs0: tuple[int, ...],
        dice: tuple[int, int],
        rules: MoveRules,
        *,
        places: bool = False,
    ) -> None:
        self.own0 = own0
        self.theirs0 = theirs0
        self.dice = dice
        self.rules = rules
        self.want_places = places
        self.found: dict[Place, Found] = {}
        self.best: tuple[int, int] = (0, 0)
        #: Every place met, with the best (dice, pips) reachable from it.
        self.places: dict[Place, tuple[int, int]] = {}
        self._run()

    def turns(self) -> list[Found]:
        if not self.found:  # nothing playable that the variant accepts: the turn passes
            return [(tuple(self.own0), 0, ())]
        return list(self.found.values())

    def on_the_way(self) -> set[Place]:
        """Places from which a legal turn can still be finished (the start included)."""
        return {p for p, b in self.places.items() if b == self.best}

    def _run(self) -> None:
        r = self.rules
        d1, d2 = self.dice
        plain = (
            d1 != d2
            and not self.want_places
            and not r.no_hit_and_hide
            and r.move_check is None
            and r.maximal
            and r.bar_first
            and r.home_first
        )
        if plain:
            _two_dice(self, max(d1, d2), min(d1, d2))
        else:
            self._search()

    def _search(self) -> None:
        own = list(self.own0)
        theirs = list(self.theirs0)
        d1, d2 = self.dice
        double = d1 == d2
        if double:
            seqs: list[tuple[int, ...]] = [(d1, d1, d1, d1)]
        else:
            hi, lo = (d1, d2) if d1 > d2 else (d2, d1)
            seqs = [(hi, lo), (lo, hi)]
        r = self.rules
        closed_at = r.closed_at
        head_limit = r.head_limit
        move_check = r.move_check
        end_check = r.end_check
        larger = r.larger_die
        maximal = r.maximal
        bar_first = r.bar_first
        home_first = r.home_first
        want_places = self.want_places
        hitter = [0] * 26 if r.no_hit_and_hide else None
        ordered = double and hitter is None and move_check is None and not want_places
        memo: dict[tuple, tuple[int, int] | None] | None = (
            {} if want_places or (double and not ordered) else None
        )
        found = self.found
        places = self.places
        best = [0, 0]
        seen: set[int] = set()  # the found places, each coded as one integer
        # The shortcut for repeated last moves needs plain rules: no state beyond the board.
        shortcut = hitter is None and move_check is None and end_check is None and maximal
        path: list[tuple[int, int, int, bool]] = []

        def record(n: int, pips: int, mask: int, code: int) -> tuple[int, int] | None:
            if end_check is not None and n and not end_check(own, theirs):
                return None
            if not larger:
                pips = 0
            if not maximal:
                n = pips = 0
            if n < best[0] or (n == best[0] and pips < best[1]):
                return (n, pips)
            if n > best[0] or pips > best[1]:
                found.clear()
                seen.clear()
                best[0], best[1] = n, pips
            key = code | mask << 135
            if key not in seen:
                seen.add(key)
                key_own = tuple(own)
                found[(key_own, mask)] = (key_own, mask, tuple(path))
            return (n, pips)

        def rec(
            seq, depth: int, top: int, outside: int, head: int, mask: int, pips: int, code: int
        ):
            if memo is not None:
                state = (code, mask, depth, head, tuple(hitter) if hitter else None)
                if state in memo:
                    return memo[state]
            d = seq[depth]
            nxt = depth + 1
            last = nxt == len(seq)
            got_best = None
            if own[25] and bar_first:
                sources: tuple[int, ...] | range = (25,)
            else:
                sources = range(top, 0, -1)
            for s in sources:
                if not own[s]:
                    continue
                if s == 24 and head_limit and head >= head_limit:
                    continue
                t = s - d
                if t > 0:
                    if theirs[t] >= closed_at:
                        continue
                    hit = theirs[t] == 1  # only reached where single checkers are hit
                else:
                    if outside and home_first:
                        continue
                    if t < 0:
                        for q in range(6, s, -1):
                            if own[q]:
                                break
                        else:
                            q = 0
                        if q:
                            continue  # a checker stands higher: it must be moved first
                    t = 0
                    hit = False
                if last and shortcut:
                    # A last move to a place already found: nothing new (saves apply/undo).
                    mk = mask | (1 << t) if hit else mask
                    if (code + (1 << 5 * t) - (1 << 5 * s) | mk << 135) in seen:
                        here_n = (nxt, pips + d if larger else 0)
                        if got_best is None or here_n > got_best:
                            got_best = here_n
                        continue
                movers: tuple[bool, ...] = (False,)
                if hitter is not None and hitter[s]:
                    # Which checker leaves s: one that hit this turn, or another?
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
                    if move_check is None or move_check(own, theirs):
                        path.append((s, t, d, hit))
                        mk = mask | (1 << t) if hit else mask
                        cd = code + (1 << 5 * t) - (1 << 5 * s)
                        if last:
                            got = record(nxt, pips + d, mk, cd)
                            if want_places:
                                places[(tuple(own), mk)] = got if got else (-1, -1)
                        else:
                            got = rec(
                                seq,
                                nxt,
                                s if ordered else 25,
                                outside - (1 if s > 6 >= t else 0),
                                head + (1 if s == 24 else 0),
                                mk,
                                pips + d,
                                cd,
                            )
                        if got is not None and (got_best is None or got > got_best):
                            got_best = got
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
            here = record(depth, pips, mask, code) if (got_best is None or not maximal) else None
            if here is not None and (got_best is None or here > got_best):
                got_best = here
            if want_places:
                places[(tuple(own), mask)] = max(
                    places.get((tuple(own), mask), (-1, -1)), got_best or (-1, -1)
                )
            if memo is not None:
                memo[state] = got_best
            return got_best

        outside0 = sum(own[7:26])
        # The mover's checkers as one integer, five bits a point, kept up to date move by move.
        code0 = sum(n << 5 * p for p, n in enumerate(own))
        for seq in seqs:
            if memo is not None:
                memo.clear()
            rec(seq, 0, 25, outside0, 0, 0, 0, code0)
        self.best = (best[0], best[1])


def generate(
    own0: tuple[int, ...], theirs0: tuple[int, ...], dice: tuple[int, int], rules: MoveRules
) -> list[Found]:
    """Every distinct legal turn, in a deterministic order (the order of discovery)."""
    return Search(own0, theirs0, dice, rules).turns()


def _two_dice(search: Search, hi: int, lo: int) -> None:
    """Two different dice under the plain rules: the same search as ``Search._run``, unrolled.

    Five rolls in six are not doubles; without recursion or closures this path is several times
    faster. It finds the same turns in the same order (each position with its first path). The
    checks of the first and the second move are written out twice on purpose: a helper function
    would cost a call per candidate move, the very thing this path saves.
    """
    r = search.rules
    own = list(search.own0)
    theirs = list(search.theirs0)
    closed_at = r.closed_at
    head_limit = r.head_limit
    end_check = r.end_check
    found = search.found
    seen: set[int] = set()
    singles: list[tuple[int, tuple[int, ...], int, tuple]] = []  # (die, own, mask, path)
    outside0 = sum(own[7:26])
    code0 = 0
    for p in range(26):
        if own[p]:
            code0 += own[p] << 5 * p
    for a, b in ((hi, lo), (lo, hi)):
        sources1 = (25,) if own[25] else range(24, 0, -1)
        for s1 in sources1:
            if not own[s1]:
                continue
            t1 = s1 - a
            if t1 > 0:
                if theirs[t1] >= closed_at:
                    continue
                hit1 = theirs[t1] == 1
            else:
                if outside0:
                    continue
                if t1 < 0:
                    q = 6
                    while q > s1 and not own[q]:
                        q -= 1
                    if q > s1:
                        continue
                t1 = 0
                hit1 = False
            own[s1] -= 1
            own[t1] += 1
            if hit1:
                theirs[t1] -= 1
                theirs[25] += 1
            outside = outside0 - (1 if s1 > 6 >= t1 else 0)
            code1 = code0 + (1 << 5 * t1) - (1 << 5 * s1)
            mask1 = 1 << t1 if hit1 else 0
            head_full = head_limit and s1 == 24 and head_limit <= 1
            valid2 = False
            sources2 = (25,) if own[25] else range(24, 0, -1)
            for s2 in sources2:
                if not own[s2] or (s2 == 24 and head_full):
                    continue
                t2 = s2 - b
                if t2 > 0:
                    if theirs[t2] >= closed_at:
                        continue
                    hit2 = theirs[t2] == 1
                else:
                    if outside:
                        continue
                    if t2 < 0:
                        q = 6
                        while q > s2 and not own[q]:
                            q -= 1
                        if q > s2:
                            continue
                    t2 = 0
                    hit2 = False
                own[s2] -= 1
                own[t2] += 1
                if hit2:
                    theirs[t2] -= 1
                    theirs[25] += 1
                if end_check is None or end_check(own, theirs):
                    valid2 = True
                    mask = mask1 | (1 << t2) if hit2 else mask1
                    key = code1 + (1 << 5 * t2) - (1 << 5 * s2) | mask << 135
                    if key not in seen:
                        seen.add(key)
                        after = tuple(own)
                        found[(after, mask)] = (after, mask, ((s1, t1, a, hit1), (s2, t2, b, hit2)))
                if hit2:
                    theirs[t2] += 1
                    theirs[25] -= 1
                own[t2] -= 1
                own[s2] += 1
            if not valid2 and not found and (end_check is None or end_check(own, theirs)):
                singles.append((a, tuple(own), mask1, ((s1, t1, a, hit1),)))
            if hit1:
                theirs[t1] += 1
                theirs[25] -= 1
            own[t1] -= 1
            own[s1] += 1
    if found:
        search.best = (2, hi + lo if r.larger_die else 0)
        return
    if not singles:
        return
    if r.larger_die and any(die == hi for die, *_ in singles):
        singles = [s for s in singles if s[0] == hi]
    for _die, after, mask, path in singles:
        found.setdefault((after, mask), (after, mask, path))
    search.best = (1, max(die for die, *_ in singles) if r.larger_die else 0)
