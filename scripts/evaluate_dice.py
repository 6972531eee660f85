"""Evaluate the dice and cube readers; prints the figures (the README's "Dice reading" table).

    PYTHONPATH=src python scripts/evaluate_dice.py [--real DIR] [--boards DIR] [--errors]

- the real photographs (``Train`` and ``Valid`` separately; YOLO labels over the top face's pips):
  dice found and missed, false detections, value accuracy over all labelled dice;
- the rendered fixtures (``tests/fixtures/boards/*.jpg`` with their ``.json`` truth): the same,
  plus cocked precision and recall, where each die lies (from the truth's frame corners), and the
  cube's value and place.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Iterable
from pathlib import Path

import cv2
import numpy as np
from tqdm import tqdm

from nardy.vision.dice import find_dice, place_dice
from nardy.vision.dice_eval import DiceScore, fixture_truth, load_fixture, score_image, yolo_truth

ROOT = Path(__file__).resolve().parent.parent
REAL = Path("/work/shared/data/dice-real")
BOARDS = ROOT / "tests" / "fixtures" / "boards"


def progress(paths: list[Path], what: str) -> Iterable[Path]:
    """A progress bar on stderr while a set is read (only when stderr is a terminal)."""
    return tqdm(
        paths,
        desc=what,
        unit="image",
        file=sys.stderr,
        leave=False,
        disable=not sys.stderr.isatty(),
    )


def real(folder: Path) -> DiceScore:
    score = DiceScore()
    for path in progress(sorted(folder.glob("*.jpg")), f"real {folder.name}"):
        image = cv2.imread(str(path))
        h, w = image.shape[:2]
        score_image(score, path.name, find_dice(image), yolo_truth(path, w, h))
    return score


def rendered(folder: Path) -> tuple[DiceScore, int, int]:
    try:
        from nardy.vision import cube as cube_reader
    except ImportError:  # no cube reader yet
        cube_reader = None

    score = DiceScore()
    cube_total = cube_right = 0
    for path in progress(sorted(folder.glob("*.jpg")), "rendered"):
        if not path.with_suffix(".json").exists():
            continue
        truth = load_fixture(path)
        image = cv2.imread(str(path))
        readings = find_dice(image)
        corners = truth.get("corners")
        wheres = place_dice(readings, corners) if corners else None
        score_image(score, path.name, readings, fixture_truth(truth), wheres=wheres)
        if "cube" in truth and corners and cube_reader and cube_reader.WEIGHTS.exists():
            cube_total += 1
            seen = cube_reader.find_cube(image, corners, light_edge=true_edge(truth))
            want = truth["cube"]
            got = None if seen is None else {"value": seen.value, "where": seen.where}
            cube_right += got == (
                None if want is None else {k: want[k] for k in ("value", "where")}
            )
    return score, cube_total, cube_right


def true_edge(truth: dict) -> str | None:
    """Light's long edge, from the truth: the side its cube stands on, or its checkers' home."""
    cube = truth.get("cube")
    if not cube or cube["where"] == "middle" or "center" not in cube:
        return None
    from nardy.vision.dice import board_homography

    to_board = board_homography(truth["corners"])
    y = cv2.perspectiveTransform(np.array([[cube["center"]]], np.float64), to_board)[0, 0, 1]
    edge = "top" if y < 0.5 else "bottom"
    if cube["where"] == "light":
        return edge
    return "bottom" if edge == "top" else "top"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--real", type=Path, default=REAL, help="folder with Train/ and Valid/")
    ap.add_argument("--boards", type=Path, default=BOARDS, help="rendered fixtures with truth")
    ap.add_argument("--errors", action="store_true", help="list every wrong or missed die")
    args = ap.parse_args()
    for split in ("Train", "Valid"):
        folder = args.real / split
        if folder.is_dir():
            t = time.perf_counter()
            score = real(folder)
            print(score.line(f"real {split}") + f"  [{time.perf_counter() - t:.1f} s]")
            if args.errors:
                for wrong in score.wrong:
                    print("   ", *wrong)
    if args.boards.is_dir() and any(args.boards.glob("*.json")):
        t = time.perf_counter()
        score, cube_total, cube_right = rendered(args.boards)
        print(score.line("rendered") + f"  [{time.perf_counter() - t:.1f} s]")
        if cube_total:
            print(f"rendered cube: {cube_right}/{cube_total} right ({cube_right / cube_total:.1%})")
        if args.errors:
            for wrong in score.wrong:
                print("   ", *wrong)
    return 0


if __name__ == "__main__":
    sys.exit(main())
