#!/usr/bin/env python3
"""Make the corpus of positions and rolls the rules engine is compared on with GNU Backgammon.

Deterministic for a seed. Each case is ``(own, theirs, dice)``: the mover's view as in
``nardy.rules.position.Position.view`` (26 counts each: 1..24 points in the mover's numbering,
25 the bar, 0 borne off). The mix:

* positions met in random legal play (GNU Backgammon's own move generator chooses among the
  legal moves at random), every turn of every game, with a fresh roll;
* constructed edge cases: checkers on the bar against closed or nearly closed boards, bear-offs
  (with and without a straggler, with gaps, with checkers hit during the bear-off), scattered
  random boards, and every one of the 21 rolls on each.

``python scripts/make_positions.py --variant backgammon --count 10000 --seed 1`` prints the cases
as JSON lines (the project's JSON position, the dice, the side on roll: light).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Iterator

View = tuple[int, ...]
Case = tuple[View, View, tuple[int, int]]

LAYOUTS = {
    "backgammon": {24: 2, 13: 5, 8: 3, 6: 5},
    "nackgammon": {24: 2, 23: 2, 13: 4, 8: 3, 6: 4},
    "hypergammon": {24: 1, 23: 1, 22: 1},
}
ROLLS = [(a, b) for a in range(1, 7) for b in range(1, a + 1)]


def to_gnubg(own: View, theirs: View) -> list[list[int]]:
    """GNU Backgammon's board ``[opponent, mover]``, each from its own side, index 24 the bar."""
    mover = [own[p] for p in range(1, 25)] + [own[25]]
    opponent = [theirs[25 - q] for q in range(1, 25)] + [theirs[25]]
    return [opponent, mover]


def from_gnubg(board, checkers: int) -> tuple[View, View]:
    """The mover's view of a ``[opponent, mover]`` board."""
    opponent, mover = board
    own = [0] * 26
    theirs = [0] * 26
    for p in range(1, 25):
        own[p] = mover[p - 1]
        theirs[p] = opponent[24 - p]
    own[25], theirs[25] = mover[24], opponent[24]
    own[0] = checkers - sum(own[1:])
    theirs[0] = checkers - sum(theirs[1:])
    return tuple(own), tuple(theirs)


def _roll(rng: random.Random) -> tuple[int, int]:
    return (rng.randint(1, 6), rng.randint(1, 6))


def played(variant: str, rng: random.Random, games: int) -> Iterator[Case]:
    """Every position of ``games`` random games, the side on roll's view, with its roll."""
    import gnubg_nn

    layout = LAYOUTS[variant]
    checkers = sum(layout.values())
    for _ in range(games):
        own = [0] * 26
        for p, n in layout.items():
            own[p] = n
        theirs = [0] * 26
        for p, n in layout.items():
            theirs[25 - p] = n
        view = (tuple(own), tuple(theirs))
        for _turn in range(400):
            dice = _roll(rng)
            yield view[0], view[1], dice
            moves = gnubg_nn.moves(to_gnubg(*view), dice[0], dice[1], 0)
            if moves:
                key = rng.choice(moves)
                board = gnubg_nn.board_from_position_key(key)
                own2, theirs2 = from_gnubg(board, checkers)
            else:
                own2, theirs2 = view
            if own2[0] == checkers:
                break
            # The other side is on roll: swap seats (the mover's point p is the opponent's 25 - p).
            view = (_flip(theirs2), _flip(own2))


def _flip(v: View) -> View:
    return (v[0], *v[24:0:-1], v[25])


def constructed(variant: str, rng: random.Random, count: int) -> Iterator[Case]:
    """Edge cases: bar against closed boards, bear-offs, scattered boards; all 21 rolls each."""
    checkers = sum(LAYOUTS[variant].values())
    made = 0
    kinds = ("bar", "bearoff", "scatter", "hit_in_bearoff")
    while made < count:
        kind = kinds[made // 21 % len(kinds)]
        own = [0] * 26
        theirs = [0] * 26
        if kind == "bar":
            # The opponent holds k of the mover's entry points (19..24) with 2+ checkers.
            k = rng.randint(3, 6) if checkers >= 12 else rng.randint(0, 1)
            held = rng.sample(range(19, 25), k)
            left = checkers
            for p in held:
                n = min(left, rng.randint(2, 3))
                theirs[p] += n
                left -= n
            for _ in range(left):
                theirs[rng.choice([p for p in range(1, 19)])] += 1
            own[25] = rng.randint(1, min(3, checkers))
            for _ in range(checkers - own[25]):
                own[rng.choice([p for p in range(1, 19) if not theirs[p]])] += 1
        elif kind in ("bearoff", "hit_in_bearoff"):
            n_on = rng.randint(1, checkers)
            for _ in range(n_on):
                own[rng.randint(1, 6)] += 1
            if kind == "hit_in_bearoff":
                p = rng.choice([p for p in range(1, 7) if own[p]])
                own[p] -= 1
                own[25] += 1
            own[0] = checkers - sum(own[1:])
            for _ in range(checkers):
                options = [p for p in range(7, 25) if not own[p]]
                theirs[rng.choice(options)] += 1
        else:
            n_bar = rng.choice((0, 0, 0, 1, 2))
            own[25] = min(n_bar, checkers)
            for _ in range(checkers - own[25]):
                own[rng.randint(1, 24)] += 1
            theirs[25] = rng.choice((0, 0, 1))
            free = [p for p in range(1, 25) if not own[p]] or [0]
            for _ in range(checkers - theirs[25]):
                p = rng.choice(free)
                theirs[p] += 1
        own[0] = checkers - sum(own[1:])
        theirs[0] = checkers - sum(theirs[1:])
        if own[0] < 0 or theirs[0] < 0 or any(own[p] and theirs[p] for p in range(1, 25)):
            continue
        for dice in ROLLS:
            yield tuple(own), tuple(theirs), dice
            made += 1


def corpus(variant: str, count: int, seed: int) -> list[Case]:
    """``count`` cases: about two thirds from random play, a third constructed."""
    rng = random.Random(f"{variant}:{seed}")
    cases: list[Case] = []
    games = played(variant, rng, 10**6)
    n_played = count * 2 // 3
    for case in games:
        cases.append(case)
        if len(cases) == n_played:
            break
    for case in constructed(variant, rng, count - n_played):
        cases.append(case)
        if len(cases) == count:
            break
    return cases


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="backgammon", choices=sorted(LAYOUTS))
    parser.add_argument("--count", type=int, default=10000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for own, theirs, dice in corpus(args.variant, args.count, args.seed):
        points = [own[p] - theirs[p] for p in range(1, 25)]
        pos = {"points": points, "bar": [own[25], theirs[25]], "off": [own[0], theirs[0]]}
        print(json.dumps({"variant": args.variant, "position": pos, "dice": list(dice)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
