#!/usr/bin/env python3
"""Legal-turn generation per position, beside GNU Backgammon's C generator (``gnubg_nn.moves``).

The corpus is fixed (``scripts/make_positions.py``, seed 1): positions from random play and
constructed edge cases, split into non-doubles and doubles, plus the worst cases — the 200 cases
of a larger pool with the most legal turns. For each case both generators run in this process,
timed one position at a time in CPU time (best of ``--repeat`` runs, to keep other load on the
machine out of the figures); printed: median and 99th percentile in microseconds and our ratio
to gnubg.

``ours`` is the core generator on the mover's view (``Variant.generate``); ``ours+turns`` is
``Variant.legal_turns``, which also builds each position, its steps and notation.

    python benchmarks/movegen.py [--count 3000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import gnubg_nn

from nardy.rules.position import Position, Side
from nardy.rules.variant import get_variant

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))
import make_positions


def _time(fn, args, repeat: int) -> float:
    # CPU time of this process: the other work on a shared machine does not count.
    best = float("inf")
    for _ in range(repeat):
        t = time.process_time()
        fn(*args)
        best = min(best, time.process_time() - t)
    return best


def _pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=3000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    mp = make_positions
    bg = get_variant("backgammon")
    cases = mp.corpus("backgammon", args.count, seed=1)
    pool = mp.corpus("backgammon", args.count * 3, seed=2)
    worst = sorted(pool, key=lambda c: -len(gnubg_nn.moves(mp.to_gnubg(c[0], c[1]), *c[2], 0)))[
        :200
    ]
    groups = {
        "non-doubles": [c for c in cases if c[2][0] != c[2][1]],
        "doubles": [c for c in cases if c[2][0] == c[2][1]],
        "worst cases": worst,
    }
    print(
        f"backgammon, {args.count} cases (seed 1) + 200 worst of {len(pool)}; best of {args.repeat}"
    )
    head = f"{'group':<12} {'n':>5}  {'generator':<11} {'median µs':>10} {'p99 µs':>10}"
    print(f"{head}  {'median ×gnubg':>13} {'p99 ×gnubg':>11}")
    for name, group in groups.items():
        boards = [mp.to_gnubg(own, theirs) for own, theirs, _ in group]
        positions = [
            Position.from_view(Side.LIGHT, bg.numbering, own, theirs) for own, theirs, _ in group
        ]
        ref = [
            _time(gnubg_nn.moves, (b, c[2][0], c[2][1], 1), args.repeat)
            for b, c in zip(boards, group, strict=True)
        ]
        core = [_time(bg.generate, (c[0], c[1], c[2], False), args.repeat) for c in group]
        full = [
            _time(bg.legal_turns, (p, Side.LIGHT, c[2]), args.repeat)
            for p, c in zip(positions, group, strict=True)
        ]
        rm, r99 = statistics.median(ref), _pct(ref, 0.99)
        for label, ts in (("gnubg_nn", ref), ("ours", core), ("ours+turns", full)):
            m, p99 = statistics.median(ts), _pct(ts, 0.99)
            print(
                f"{name:<12} {len(group):>5}  {label:<11} {m * 1e6:>10.1f} {p99 * 1e6:>10.1f}  "
                f"{m / rm:>13.2f} {p99 / r99:>11.2f}"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
