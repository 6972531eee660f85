#!/usr/bin/env python3
"""Render a training set for the dice reader: boards with two dice each, half of them cocked.

    PYTHONPATH=src python scripts/make_dice_set.py --out /work/cache/dice/boards --count 800

Seeds come from the names ``dice-NNNN`` (``--prefix``), which no fixture uses, so the fixtures
the reader is measured on are never trained on. Same JPEG + truth JSON form as the fixtures.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

from make_fixtures import make_image, seed_of  # noqa: E402

from nardy.synth import SceneError  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--count", type=int, default=800)
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--prefix", default="dice")
    ap.add_argument("--cocked", type=float, default=0.5, help="chance each die is cocked")
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    for i in range(args.start, args.start + args.count):
        name = f"{args.prefix}-{i:04d}"
        if (args.out / f"{name}.json").exists():
            continue
        # every fifth on the dark board, every tenth with a hand beside the dice
        kw = {"n_dice": 2, "cocked": args.cocked, "with_hand": i % 10 == 3}
        if i % 5 == 0:
            kw["board"] = "dark"
        try:
            data, truth = make_image(name, seed_of(name), kw)
        except (SceneError, MemoryError) as exc:
            print(f"{name}: skipped ({type(exc).__name__})", file=sys.stderr)
            continue
        (args.out / f"{name}.jpg").write_bytes(data)
        (args.out / f"{name}.json").write_text(json.dumps(truth) + "\n")
        print(f"\r{i + 1} {name}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
