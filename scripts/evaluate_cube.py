#!/usr/bin/env python3
"""Measure the cube reader alone against a folder of images with truth, and print where it fails.

    PYTHONPATH=src python scripts/evaluate_cube.py tests/fixtures/boards [--sides truth|points]

Each usable image is read with its true corners. ``--sides points`` (the default) tells light's
row from the true checkers by ``nardy.vision.sides`` as ``nardy detect`` does from the read ones;
``truth`` takes it from the truth (a cube on a side tells it), to see the cube reader apart.
Where the checkers tell light's row with less than ``CubeConfig.side_sure`` the reader says the
side is unknown (``where`` None): counted apart, neither right nor wrong.
Prints cube right, missed, false, where-errors and face-errors, broken down by face, board
style, cube style and where, and the milliseconds per frame the reader takes.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from nardy.vision import cube as cube_reader
from nardy.vision import sides
from nardy.vision.images import load_image


def true_light_row(truth: dict) -> str | None:
    """Light's row from a cube on a side (which long edge of the frame it is nearer)."""
    cube = truth["cube"]
    if cube is None or cube["where"] == "middle":
        return None
    tl, tr, br, bl = np.asarray(truth["corners"], float)
    y = cube["center"][1]
    top = (tl[1] + tr[1]) / 2
    bottom = (bl[1] + br[1]) / 2
    edge = "top" if abs(y - top) < abs(y - bottom) else "bottom"
    if cube["where"] == "light":
        return edge
    return "bottom" if edge == "top" else "top"


def evaluate(
    folder: Path, how: str, limit: int | None, show: bool, config: cube_reader.CubeConfig
) -> Counter:
    c: Counter = Counter()
    times = []
    for jf in sorted(folder.glob("*.json"))[:limit]:
        truth = json.loads(jf.read_text())
        if not truth["usable"]:
            continue
        image = load_image(jf.with_name(truth.get("image") or jf.stem + ".jpg"))
        if how == "truth":
            row = true_light_row(truth)
        else:
            row = sides.light_row(
                truth["points"], truth["bar"], truth["off"], sure=config.side_sure
            ).row
        t0, c0 = time.perf_counter(), time.process_time()
        got = cube_reader.find_cube(image, truth["corners"], light_edge=row, config=config)
        times.append((time.perf_counter() - t0, time.process_time() - c0))
        want = truth["cube"]
        c["images"] += 1
        if want is None:
            c["no cube"] += 1
            if got is not None:
                c["false"] += 1
                if show:
                    print(f"{jf.stem}: false cube {got.value} {got.edge}")
            continue
        board = truth["style"]["board"]
        style = truth["style"]["scene"]["cube"]["style"]
        keys = [f"face {want['value']}", f"board {board}", f"style {style}", f"at {want['where']}"]
        for k in keys:
            c[k, "n"] += 1
        c["cubes"] += 1
        if got is None:
            c["missed"] += 1
            for k in keys:
                c[k, "missed"] += 1
            if show:
                print(f"{jf.stem}: missed {want}")
            continue
        far = np.hypot(*(np.subtract(got.center, want["center"])))
        if far > 40:
            c["found elsewhere"] += 1
        face_ok = got.value == want["value"]
        unknown = got.where is None  # on a side, and whose side the checkers do not tell
        where_ok = got.where == want["where"]
        c["face wrong"] += not face_ok
        c["where wrong"] += not where_ok and not unknown
        c["side unknown"] += unknown
        c["right"] += face_ok and where_ok
        c["right or side unknown"] += face_ok and (where_ok or unknown)
        for k in keys:
            c[k, "right"] += face_ok and where_ok
        if show and not (face_ok and where_ok):
            print(f"{jf.stem}: read {got.value} {got.where} ({far:.0f} px off), truth {want}")
    wall, cpu = np.mean(times, axis=0) if times else (0.0, 0.0)
    c["ms"], c["cpu ms"] = round(1000 * float(wall), 1), round(1000 * float(cpu), 1)
    return c


def report(c: Counter) -> str:
    n = max(c["cubes"], 1)
    lines = [
        f"images {c['images']}, cubes {c['cubes']}, without {c['no cube']}",
        f"cube right:   {c['right']}/{c['cubes']} ({100 * c['right'] / n:.1f} %)",
        f"missed:       {c['missed']}",
        f"false cube:   {c['false']} of {c['no cube']} without",
        f"where wrong:  {c['where wrong']} (found > 40 px from the truth: {c['found elsewhere']})",
        f"side unknown: {c['side unknown']} (on a side; the checkers do not tell whose);"
        f" right but for that: {c['right or side unknown']}/{c['cubes']}",
        f"face wrong:   {c['face wrong']}",
        f"ms per frame: {c['ms']} (CPU {c['cpu ms']}; the machine's other work slows the first)",
    ]
    groups = sorted({k[0] for k in c if isinstance(k, tuple)})
    for g in groups:
        lines.append(
            f"  {g:14s} {c[g, 'right']:3d}/{c[g, 'n']:3d} right, {c[g, 'missed']:3d} missed"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folder", type=Path)
    ap.add_argument("--sides", choices=["truth", "points"], default="points")
    ap.add_argument("--limit", type=int, default=None)
    ap.add_argument("--show", action="store_true", help="print every image read wrong")
    ap.add_argument("--min-cube", type=float, default=None, help="the reader's least P(cube)")
    args = ap.parse_args(argv)
    config = cube_reader.CubeConfig()
    if args.min_cube is not None:
        config = dataclasses.replace(config, min_cube=args.min_cube)
    print(report(evaluate(args.folder, args.sides, args.limit, args.show, config)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
