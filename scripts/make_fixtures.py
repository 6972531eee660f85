#!/usr/bin/env python3
"""Write the committed vision fixtures: still images with truth, and short clips of moves.

    PYTHONPATH=src python scripts/make_fixtures.py [--out tests/fixtures] [--limit N] [--no-clips]
    PYTHONPATH=src python scripts/make_fixtures.py --prefix train --repeat 4 --out DIR --no-clips
    PYTHONPATH=src python scripts/make_fixtures.py --no-clips --only 'markers-*' stacks-022
    PYTHONPATH=src python scripts/make_fixtures.py --prefix unseen --looks held_out --limit 84 \
        --out tests/fixtures/unseen --no-clips
    PYTHONPATH=src python scripts/make_fixtures.py --truth-only --no-clips [--prefix ... --out ...]

Deterministic: every image's seed is derived from its name, so the same script writes the same
files (byte for byte with the same OpenCV/libjpeg). ``plan()`` is what the tests re-render.
``--prefix`` names (and so seeds) a set of its own: the training sets of the readers are made
this way, so no fixture they are measured on was ever trained on. ``--looks held_out`` draws
boards, checkers and dice no reader is trained on (``synth.styles.HELD_OUT_*``): the committed
``tests/fixtures/unseen`` set, which measures the readers on looks they have never seen.
``--truth-only`` rewrites the truth of the images already written (when the renderer learns to
say more about them) and leaves the images alone: an image with a hand is rendered again and
must be the stored one byte for byte; one without takes its truth from the scene's geometry
(``synth.render.drawless_truth``, no drawing), which must agree with the stored truth's. An
image that fails is named and its truth left as it was.
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import sys
import zlib
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from nardy.synth import Scene, SceneError, random_scene, render  # noqa: E402
from nardy.synth.render import drawless_truth  # noqa: E402

#: (category, how many, random_scene keywords). Order is interleaved by ``plan``.
CATEGORIES: list[tuple[str, int, dict[str, Any]]] = [
    ("bg-start", 25, {"kind": "backgammon_start"}),
    ("nardy-start", 25, {"kind": "nardy_start"}),
    ("bg-mid", 55, {"kind": "backgammon"}),
    ("nardy-mid", 40, {"kind": "nardy"}),
    ("bearoff", 30, {"kind": "bearoff"}),
    ("stacks", 30, {"kind": "stacks"}),
    ("cocked", 30, {"cocked": 1.0, "n_dice": 2, "with_hand": False}),
    ("cube", 20, {"with_cube": True, "with_hand": False}),
    ("dark-on-dark", 20, {"board": "dark", "with_hand": False}),
    ("markers", 15, {"markers": True, "whole_board": True, "with_hand": False}),
    ("trays-out", 12, {"fit": "fields"}),
    ("hand", 25, {"with_hand": True}),
    ("glare", 6, {"glare": True}),
    ("motion", 6, {"motion": True}),
]
#: Categories kept apart from the fixtures' boards, made only when ``--kinds`` names them: a
#: training set's hands, and hypergammon's three checkers a side (``tests/fixtures/hypergammon``).
APART: list[tuple[str, int, dict[str, Any]]] = [
    ("hands", 25, {"with_hand": True, "varied_hand": True}),
    ("hypergammon", 20, {"kind": "hypergammon"}),
]


def seed_of(name: str) -> int:
    return zlib.crc32(name.encode())


def plan(
    prefix: str = "", repeat: int = 1, kinds: set[str] | None = None
) -> list[tuple[str, int, dict[str, Any]]]:
    """Every still image: (name, seed, random_scene keywords), categories interleaved so that
    the first N are a fair sample of the whole. ``prefix`` and ``repeat`` make another set,
    ``repeat`` times the size, whose names (and so seeds) the fixtures never use; ``kinds``
    keeps only those categories (more of what a reader finds hard)."""
    head = f"{prefix}-" if prefix else ""
    queues = [
        [(f"{head}{cat}-{i:04d}" if prefix else f"{cat}-{i:03d}", kw) for i in range(n * repeat)]
        for cat, n, kw in (CATEGORIES if kinds is None else CATEGORIES + APART)
        if kinds is None or cat in kinds
    ]
    out = []
    while any(queues):
        for q in queues:
            if q:
                name, kw = q.pop(0)
                out.append((name, seed_of(name), kw))
    return out


def make_scene(
    seed: int,
    kw: dict[str, Any],
    looks: str = "seen",
    adjust: Callable[[Scene, np.random.Generator], Scene] | None = None,
) -> Scene:
    """The scene an image of this seed and category shows (``make_image`` renders it)."""
    rng = np.random.default_rng(seed)
    if looks != "seen":  # the category's board is one of the seen ones
        kw = {k: v for k, v in kw.items() if k != "board"} | {"looks": looks}
    if kw.get("board") == "dark":
        kw = {**kw, "checkers": str(rng.choice(["white_black", "beige_brown", "wood"]))}
    kw = {"with_hand": False, **kw} if "with_hand" not in kw else kw
    scene = random_scene(rng, **kw)
    if adjust is not None:
        scene = adjust(scene, rng)
    return scene


def truth_of(name: str, seed: int, kw: dict[str, Any], looks: str, stored: bytes) -> dict | None:
    """The truth of the stored image ``name``, as ``make_image`` writes it now, or None when
    the stored image is not what the script makes. A scene with a hand is rendered (what the
    hand covers is known only so) and must give the stored bytes; one without is its geometry
    (``drawless_truth``), which the stored truth's own geometry must agree with."""
    scene = make_scene(seed, kw, looks)
    if scene.hand is not None:
        data, truth = make_image(name, seed, kw, looks)
        return truth if data == stored else None
    truth = drawless_truth(scene, seed) | {"image": f"{name}.jpg"}
    return truth


def make_image(
    name: str,
    seed: int,
    kw: dict[str, Any],
    looks: str = "seen",
    adjust: Callable[[Scene, np.random.Generator], Scene] | None = None,
) -> tuple[bytes, dict]:
    """One render and its truth; ``adjust`` changes the drawn scene before it is rendered."""
    scene = make_scene(seed, kw, looks, adjust)
    img, truth = render(scene, seed)
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, scene.jpeg_quality])
    assert ok
    truth["image"] = f"{name}.jpg"
    return buf.tobytes(), truth


def _same_geometry(truth: dict, stored: Path) -> bool:
    """Whether ``truth`` is the stored truth but for what the renderer says of dice now and
    said of none before (whether they can be seen)."""
    if not stored.exists():
        return True

    def bare(t: dict) -> dict:
        t = json.loads(json.dumps(t))
        for d in t["dice"]:
            for key in ("visible", "hidden"):
                d.pop(key, None)
        return t

    return bare(truth) == bare(json.loads(stored.read_text()))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=ROOT / "tests" / "fixtures")
    ap.add_argument("--limit", type=int, default=None, help="write only the first N images")
    ap.add_argument("--no-clips", action="store_true")
    ap.add_argument("--prefix", default="", help="name (and seed) a set apart from the fixtures")
    ap.add_argument("--repeat", type=int, default=1, help="this many times the fixtures' count")
    ap.add_argument("--kinds", help="only these categories, comma-separated (e.g. stacks,bearoff)")
    ap.add_argument(
        "--looks",
        choices=["seen", "held_out"],
        default="seen",
        help="held_out: boards, checkers and dice no reader is trained on",
    )
    ap.add_argument(
        "--only", nargs="+", metavar="GLOB", help="write only the images whose names match"
    )
    ap.add_argument(
        "--truth-only",
        action="store_true",
        help="rewrite only the truth of the images already there (each must render the same)",
    )
    args = ap.parse_args()
    only = set(args.kinds.split(",")) if args.kinds else None
    known = {cat for cat, _, _ in CATEGORIES + APART}
    if only and only - known:
        ap.error(f"unknown categories: {', '.join(sorted(only - known))}")
    boards = args.out / "boards"
    boards.mkdir(parents=True, exist_ok=True)
    kinds: Counter[str] = Counter()
    facts: Counter[str] = Counter()
    size = 0
    items = plan(args.prefix, args.repeat, only)[: args.limit]
    if args.only:
        items = [it for it in items if any(fnmatch.fnmatch(it[0], g) for g in args.only)]
    if args.truth_only:
        items = [it for it in items if (boards / f"{it[0]}.jpg").exists()]
    differ = []
    for i, (name, seed, kw) in enumerate(items):
        if (boards / f"{name}.json").exists() and args.prefix and not args.truth_only:
            continue  # a training set is made over several runs
        if args.truth_only:
            data = (boards / f"{name}.jpg").read_bytes()
            truth = truth_of(name, seed, kw, args.looks, data)
            if truth is None or not _same_geometry(truth, boards / f"{name}.json"):
                differ.append(name)  # not the stored picture: its truth is not this one's
                continue
        else:
            try:
                data, truth = make_image(name, seed, kw, args.looks)
            except SceneError as exc:  # a rare drawn scene the renderer refuses
                print(f"\n{name}: skipped ({type(exc).__name__}: {exc})", file=sys.stderr)
                continue
            (boards / f"{name}.jpg").write_bytes(data)
        (boards / f"{name}.json").write_text(json.dumps(truth, indent=1) + "\n")
        size += len(data)
        kinds[name.rsplit("-", 1)[0].removeprefix(f"{args.prefix}-")] += 1
        facts["usable" if truth["usable"] else f"unusable ({truth['why']})"] += 1
        facts["dice"] += len(truth["dice"])
        facts["cocked dice"] += sum(not d["flat"] for d in truth["dice"])
        facts["cube"] += truth["cube"] is not None
        facts["trays out of view"] += truth["off"] is None
        facts["markers"] += "markers" in truth
        facts[f"board {truth['style']['board']}"] += 1
        facts[f"checkers {truth['style']['checkers']}"] += 1
        print(f"\r{i + 1}/{len(items)} {name}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    if differ:
        print(f"{len(differ)} stored images render otherwise now, truth left: {' '.join(differ)}")
    print(f"{len(items)} images in {boards} ({size / 1e6:.1f} MB of JPEG)")
    for k, v in sorted(kinds.items()):
        print(f"  {k:14s} {v}")
    for k, v in sorted(facts.items()):
        print(f"  {k:22s} {v}")
    if not args.no_clips:
        from nardy.synth.clip import write_clips

        for line in write_clips(args.out / "clips"):
            print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
