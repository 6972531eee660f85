#!/usr/bin/env python3
"""Render scenes that all hold the doubling cube, with their truth, for training the cube reader.

    PYTHONPATH=src python scripts/make_cube_scenes.py --prefix cube01 --count 800 --out DIR

Same form as the fixtures (``NAME.jpg`` + ``NAME.json``); seeds come from the names, and the
prefix keeps them apart from every fixture's. Every tenth scene has a hand over the board, every
seventh is on the dark board; the position, dice and camera are drawn as for the fixtures.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "scripts"))

from make_fixtures import make_image, seed_of  # noqa: E402

from nardy.synth import SceneError  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--prefix", required=True)
    ap.add_argument("--count", type=int, default=500)
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    made = 0
    for i in range(args.count):
        name = f"{args.prefix}-{i:05d}"
        if (args.out / f"{name}.json").exists():
            continue
        kw: dict = {"with_cube": True, "with_hand": i % 10 == 9}
        if i % 7 == 3:
            kw["board"] = "dark"
        try:
            data, truth = make_image(name, seed_of(name), kw)
        except (SceneError, MemoryError) as exc:  # a rare drawn scene the renderer refuses
            print(f"{name}: skipped ({type(exc).__name__})", file=sys.stderr)
            continue
        (args.out / f"{name}.jpg").write_bytes(data)
        (args.out / f"{name}.json").write_text(json.dumps(truth, indent=1) + "\n")
        made += 1
    print(f"{made} scenes written to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
