"""Judging a played turn: legal, still being played, illegal (and why), or impossible.

``judge`` takes what was played either as steps or as the position the board now shows. The
legal case costs one dictionary look-up once the roll's legal turns are known (they are cached
per position and roll), so the referee may call it on every still board.

Verdicts:

* ``legal`` — the position is the end of a legal turn (``turn`` is that turn);
* ``partial`` — the position lies on the way to a legal turn: some of the roll has been played
  and the rest can still finish a legal turn (the player is still moving; nothing moved yet is
  partial too when the roll can be played);
* ``illegal`` — this side's checkers could have moved forward to here, but no legal turn ends
  here; ``reasons`` says which rule was broken, in the player's words;
* ``impossible`` — the position cannot come from ``pos`` by moving this side's checkers forward:
  a checker appeared or vanished, the opponent's checkers moved (other than a blot hit), or a
  checker went backwards.

``nearest`` are the legal turns closest to what was played: the fewest checkers standing
differently (the distance counts each checker of either colour that is not where the turn puts
it; a checker on the bar or borne off counts like one on a point), ties kept in the order of
``legal_turns``, at most five.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from nardy.rules.errors import IllegalTurnError
from nardy.rules.movegen import MoveRules, Search
from nardy.rules.position import Position, Side
from nardy.rules.turn import Step, Turn
from nardy.rules.variant import Place, Variant, check_dice, fences

NEAREST = 5


@dataclass(frozen=True, slots=True)
class Judgement:
    verdict: str  # "legal" | "partial" | "illegal" | "impossible"
    turn: Turn | None
    reasons: tuple[str, ...]
    nearest: tuple[Turn, ...]
    #: Checkers standing differently from the nearest legal turn (0 when legal).
    distance: int = 0


def judge(
    variant: Variant,
    pos: Position,
    side: Side,
    dice: Sequence[int],
    played: Position | Sequence[Step],
    *,
    first_turn: bool = False,
) -> Judgement:
    """Judge ``played`` (steps, or the position reached) for ``side`` rolling ``dice``."""
    roll = check_dice(dice)
    by_place = _legal(variant, pos, side, roll, first_turn)
    turns = tuple(by_place.values())
    if isinstance(played, Position):
        after = played
    else:
        try:
            after = variant.play(pos, side, tuple(played))
        except IllegalTurnError as e:
            return Judgement("illegal", None, (str(e),), turns[:NEAREST], -1)
    own_b, theirs_b = pos.view(side, variant.numbering)
    own_a, theirs_a = after.view(side, variant.numbering)
    place = (own_a, _hit_mask(theirs_b, theirs_a))
    turn = by_place.get(place)
    if turn is not None and turn.after == after:
        return Judgement("legal", turn, (), (turn,), 0)
    nearest, distance = _nearest(turns, after)
    broken = _impossible(variant, pos, side, after)
    if broken:
        return Judgement("impossible", None, broken, nearest, distance)
    if place in _on_the_way(variant, pos, side, roll, first_turn):
        if after == pos:
            why = "nothing has been played yet"
        else:
            why = f"the turn is not finished: {_roll(roll)} still has moves to play"
        return Judgement("partial", None, (why,), nearest, distance)
    reasons = _why(variant, (own_b, theirs_b), place, side, roll, first_turn, nearest)
    return Judgement("illegal", None, reasons, nearest, distance)


# -- the legal turns, cached ---------------------------------------------------------------------


@lru_cache(maxsize=256)
def _legal(
    variant: Variant, pos: Position, side: Side, roll: tuple[int, int], first_turn: bool
) -> dict[Place, Turn]:
    return variant.turns_by_place(pos, side, roll, first_turn=first_turn)


@lru_cache(maxsize=64)
def _on_the_way(
    variant: Variant, pos: Position, side: Side, roll: tuple[int, int], first_turn: bool
) -> frozenset:
    own, theirs = pos.view(side, variant.numbering)
    rules = variant.turn_rules(own, theirs, roll, first_turn)
    return frozenset(Search(own, theirs, roll, rules, places=True).on_the_way())


def _hit_mask(theirs_b: Sequence[int], theirs_a: Sequence[int]) -> int:
    mask = 0
    for p in range(1, 25):
        if theirs_b[p] == 1 and theirs_a[p] == 0:
            mask |= 1 << p
    return mask


def _nearest(turns: Sequence[Turn], after: Position) -> tuple[tuple[Turn, ...], int]:
    scored = [(distance(t.after, after), i) for i, t in enumerate(turns)]
    if not scored:
        return (), 0
    best = min(d for d, _ in scored)
    return tuple(turns[i] for d, i in scored if d == best)[:NEAREST], best


def distance(a: Position, b: Position) -> int:
    """How many checkers (of either colour) stand differently in ``a`` and ``b``."""
    diff = sum(abs(x - y) for x, y in zip(a.points, b.points, strict=True))
    diff += sum(abs(x - y) for x, y in zip(a.bar, b.bar, strict=True))
    diff += sum(abs(x - y) for x, y in zip(a.off, b.off, strict=True))
    return (diff + 1) // 2


# -- impossible ----------------------------------------------------------------------------------


def _impossible(variant: Variant, pos: Position, side: Side, after: Position) -> tuple[str, ...]:
    reasons = []
    for s in (side, side.other):
        if after.checkers(s) != pos.checkers(s):
            n, m = pos.checkers(s), after.checkers(s)
            what = "appeared" if m > n else "vanished"
            reasons.append(
                f"{abs(m - n)} {s} checker{'s' * (abs(m - n) != 1)} {what} ({n} before, {m} now)"
            )
    if reasons:
        return tuple(reasons)
    own_b, theirs_b = pos.view(side, variant.numbering)
    own_a, theirs_a = after.view(side, variant.numbering)
    other = side.other
    hits = 0
    for p in range(1, 25):
        b, a = theirs_b[p], theirs_a[p]
        if a == b:
            continue
        if variant.closed_at == 2 and b == 1 and a == 0:
            hits += 1
            continue
        reasons.append(f"{other} checkers moved on {side}'s turn (point {p} had {b}, now {a})")
        break
    if not reasons and (theirs_a[25] - theirs_b[25] != hits or theirs_a[0] != theirs_b[0]):
        reasons.append(f"{other}'s bar or borne-off checkers changed on {side}'s turn")
    if reasons:
        return tuple(reasons)
    # Forward only: for every point, no more of this side's checkers at or behind it than before.
    ahead_b = ahead_a = 0
    for p in range(25, 0, -1):
        ahead_b += own_b[p]
        ahead_a += own_a[p]
        if ahead_a > ahead_b:
            where = "the bar" if p == 25 else f"point {p} or farther back"
            return (f"a {side} checker went backwards: more now on {where} than before",)
    return ()


# -- why a turn is illegal -----------------------------------------------------------------------

# Each relaxation turns one rule off; the reasons it finds name the rule.
_RELAX = {
    "maximal": {"maximal": False, "larger_die": False},
    "head": {"head_limit": 0},
    "block": {"end_check": None, "move_check": None},
    "hide": {"no_hit_and_hide": False},
    "bar": {"bar_first": False},
    "home": {"home_first": False},
    "closed": {"closed_at": 99},
}


def _reaches(own, theirs, roll, rules: MoveRules, place) -> bool:
    return place in Search(own, theirs, roll, rules).found


def _why(variant, view, place, side, roll, first_turn, nearest) -> tuple[str, ...]:
    own, theirs = view
    rules = variant.turn_rules(own, theirs, roll, first_turn)
    names = [n for n in _RELAX if _applies(n, rules)]
    alone = [n for n in names if _reaches(own, theirs, roll, _relaxed(rules, [n]), place)]
    if not alone:
        if not _reaches(own, theirs, roll, _relaxed(rules, names), place):
            return (_no_way(own, place[0], roll, side, nearest),)
        # More than one rule broken: keep only those that cannot be restored.
        needed = list(names)
        for n in names:
            trial = [m for m in needed if m != n]
            if _reaches(own, theirs, roll, _relaxed(rules, trial), place):
                needed = trial
        alone = needed
    return tuple(_say(n, variant, side, view, place, roll, rules, nearest) for n in alone)


def _applies(name: str, rules: MoveRules) -> bool:
    return {
        "maximal": True,
        "head": bool(rules.head_limit),
        "block": rules.end_check is not None or rules.move_check is not None,
        "hide": rules.no_hit_and_hide,
        "bar": True,
        "home": True,
        "closed": True,
    }[name]


def _relaxed(rules: MoveRules, names) -> MoveRules:
    changes: dict = {}
    for n in names:
        changes.update(_RELAX[n])
    return dataclasses.replace(rules, **changes)


def _roll(roll: tuple[int, int]) -> str:
    return f"{roll[0]}-{roll[1]}"


def _example(nearest) -> str:
    return nearest[0].notation if nearest and nearest[0].notation else ""


def _say(name, variant, side, view, place, roll, rules, nearest) -> str:
    own, theirs = view
    example = _example(nearest)
    double = roll[0] == roll[1]
    if name == "maximal":
        used = len(nearest[0].steps) if nearest else 0
        if not double and used == 1:
            return (
                f"only one die of {_roll(roll)} can be played, and then it must be the larger"
                + (f": {example}" if example else "")
            )
        if double:
            return (
                f"{_roll(roll)} can be played {used} times: {example}"
                if used < 4
                else (f"{_roll(roll)} can be played in full: {example} uses all four")
            )
        return f"{_roll(roll)} can be played in full: {example} uses both dice"
    if name == "head":
        n = rules.head_limit
        return f"only {'one checker' if n == 1 else f'{n} checkers'} may leave the head this turn"
    if name == "block":
        return _fence_reason(variant, side, place[0], theirs)
    if name == "hide":
        return (
            "a checker that hits in your home may not go on, in the same turn, to a point you "
            "hold (the caucasian rule)"
        )
    if name == "bar":
        return "a checker on the bar must enter before any other checker moves"
    if name == "home":
        return "bearing off starts only when all the checkers are home"
    # closed: a checker passed through a point it could not stop on
    other = side.other
    held = sorted(
        {s - d for s in range(1, 26) if own[s] > place[0][s] for d in set(roll)}
        & {p for p in range(1, 25) if theirs[p] >= rules.closed_at},
        reverse=True,
    )
    if not held:
        return f"a checker passed a point {other} holds"
    words = " and ".join(
        f"point {p} is held by {_count(theirs[p])} {other} checker{'s' * (theirs[p] > 1)}"
        for p in held
    )
    return f"{words}: a checker may not stop there on its way"


def _count(n: int) -> str:
    return ("one", "two", "three", "four", "five")[n - 1] if 1 <= n <= 5 else str(n)


def _fence_reason(variant, side, own_after, theirs) -> str:
    lows = fences(own_after)
    other = side.other
    if not lows:
        return f"the turn passes through six points in a row that block {other}"
    q = lows[0]
    # The opponent's points q..q+5 are the mover's points of the same run.
    mine = sorted(((q + k + 12 - 1) % 24 + 1 for k in range(6)), reverse=True)
    need = (
        f"one {other} checker in its home"
        if variant.options.block_rule == "opponent_in_home"
        else f"a {other} checker ahead of it"
    )
    return f"six points in a row ({mine[0]} to {mine[-1]}) block {other}: a fence needs {need}"


def _no_way(own_b, own_a, roll, side, nearest) -> str:
    pips_b = sum(p * n for p, n in enumerate(own_b))
    pips_a = sum(p * n for p, n in enumerate(own_a))
    moved = pips_b - pips_a
    full = roll[0] * 4 if roll[0] == roll[1] else sum(roll)
    base = f"no way of playing {_roll(roll)} reaches this position"
    if moved > full:
        base += f": the {side} checkers moved {moved} pips, {_roll(roll)} gives {full}"
    if nearest and nearest[0].notation:
        base += f" (nearest legal: {nearest[0].notation})"
    return base
