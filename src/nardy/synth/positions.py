"""Plausible positions to draw: starting positions, games in progress, bear-offs, tall stacks.

Positions are built in light's own numbering (light moves from its 24 to its 1 and bears off
from 1–6) and then laid on the board one of four ways round (``orient``); the result is numbered
as the board lies in the image. Plain tuples: the renderer needs no rules engine.
"""

from __future__ import annotations

import numpy as np

Counts = tuple[tuple[int, ...], tuple[int, int], tuple[int, int]]  # points, bar, off

KINDS = ("backgammon_start", "nardy_start", "backgammon", "nardy", "bearoff", "stacks")
#: Kinds ``make`` knows that a random scene never draws (so the seeds of every set drawn before
#: them still draw the same scenes): hypergammon's three checkers a side.
RARE_KINDS = ("hypergammon_start", "hypergammon")


def _own_to_light(side: int, p: int, same_way: bool) -> int:
    if side == 0:
        return p
    if same_way:
        return p - 12 if p > 12 else p + 12
    return 25 - p


def start(same_way: bool) -> Counts:
    pts = [0] * 24
    if same_way:  # long nardy: fifteen on each head
        pts[23], pts[11] = 15, -15
    else:
        for p, n in ((24, 2), (13, 5), (8, 3), (6, 5)):
            pts[p - 1] += n
            pts[_own_to_light(1, p, False) - 1] -= n
    return tuple(pts), (0, 0), (0, 0)


def hyper_start() -> Counts:
    """Hypergammon's start: each side's three checkers on its own 24, 23 and 22."""
    pts = [0] * 24
    for p in (24, 23, 22):
        pts[p - 1] += 1
        pts[_own_to_light(1, p, False) - 1] -= 1
    return tuple(pts), (0, 0), (0, 0)


def play(
    rng: np.random.Generator, same_way: bool, moves: int, begin: Counts | None = None
) -> Counts:
    """A game in progress: ``moves`` random single-die moves from the start (``begin``, else the
    variant's fifteen a side), loosely legal (no landing on a blocked point; hits in backgammon;
    bearing off once all are home)."""
    pts, bar, off = begin or start(same_way)
    board = list(pts)
    bar_, off_ = list(bar), list(off)
    for m in range(moves):
        side = m % 2
        sign = 1 if side == 0 else -1
        die = int(rng.integers(1, 7))
        own = [board[_own_to_light(side, p, same_way) - 1] * sign for p in range(1, 25)]
        sources = [25] if bar_[side] else [p for p in range(1, 25) if own[p - 1] > 0]
        rng.shuffle(sources)
        home = bar_[side] == 0 and all(own[p - 1] <= 0 for p in range(7, 25))
        for src in sources:
            dst = src - die
            if dst < 1:
                if not home:
                    continue
                board[_own_to_light(side, src, same_way) - 1] -= sign
                off_[side] += 1
                break
            li = _own_to_light(side, dst, same_way) - 1
            there = board[li] * sign
            if there < 0 and (same_way or there < -1):
                continue
            if src == 25:
                bar_[side] -= 1
            else:
                board[_own_to_light(side, src, same_way) - 1] -= sign
            if there == -1:  # a hit
                board[li] = 0
                bar_[1 - side] += 1
            board[li] += sign
            break
    return tuple(board), (bar_[0], bar_[1]), (off_[0], off_[1])


def bearoff(rng: np.random.Generator, same_way: bool) -> Counts:
    pts = [0] * 24
    off = [0, 0]
    for side, sign in ((0, 1), (1, -1)):
        on = int(rng.integers(1, 16))
        off[side] = 15 - on
        weights = rng.dirichlet(np.full(6, 0.8))
        counts = rng.multinomial(on, weights)
        for i, n in enumerate(counts):
            pts[_own_to_light(side, i + 1, same_way) - 1] += sign * int(n)
    return tuple(pts), (0, 0), (off[0], off[1])


def stacks(rng: np.random.Generator, same_way: bool) -> Counts:
    """Long stacks: each side's fifteen on two to four points, one of them very tall."""
    pts = [0] * 24
    free = list(range(24))
    rng.shuffle(free)
    for sign in (1, -1):
        k = int(rng.integers(1, 4))
        tall = int(rng.integers(8, 16)) if k > 1 else 15
        rest = rng.multinomial(15 - tall, np.full(k - 1, 1 / (k - 1))) if k > 1 else []
        for n in [tall, *[int(v) for v in rest]]:
            if n:
                pts[free.pop()] = sign * n
    return tuple(pts), (0, 0), (0, 0)


#: The four ways a board can lie: light's point p is the image's point ORIENT[k](p).
ORIENTS = (
    lambda p: p,  # light's home bottom-right
    lambda p: (p + 11) % 24 + 1,  # turned half round: home top-left
    lambda p: 25 - p,  # mirrored top to bottom: home top-right
    lambda p: 13 - p if p <= 12 else 37 - p,  # mirrored left to right: home bottom-left
)


def orient(counts: Counts, k: int) -> Counts:
    pts, bar, off = counts
    out = [0] * 24
    for p in range(1, 25):
        out[ORIENTS[k](p) - 1] = pts[p - 1]
    return tuple(out), bar, off


def make(kind: str, rng: np.random.Generator) -> tuple[Counts, bool]:
    """A position of ``kind`` in light's numbering, and whether it is of the nardy kind."""
    if kind == "hypergammon_start":
        return hyper_start(), False
    if kind == "hypergammon":
        return play(rng, False, int(rng.integers(2, 40)), hyper_start()), False
    same_way = kind.startswith("nardy") or (kind in ("bearoff", "stacks") and rng.random() < 0.4)
    if kind.endswith("_start"):
        return start(same_way), same_way
    if kind in ("backgammon", "nardy"):
        return play(rng, same_way, int(rng.integers(6, 90))), same_way
    if kind == "bearoff":
        return bearoff(rng, same_way), same_way
    if kind == "stacks":
        return stacks(rng, same_way), same_way
    raise ValueError(f"unknown kind of position {kind!r}: one of {', '.join(KINDS + RARE_KINDS)}")
