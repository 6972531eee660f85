"""Evaluate the dice and cube readers; prints the figures (the README's "How well" table, and
the tables of `docs/vision-notes.md`'s "Dice reading").

    PYTHONPATH=src python scripts/evaluate_dice.py [--real DIR] [--boards DIR] [--errors] [--by]
        [--corners]

- the real photographs (``Train`` and ``Valid`` separately; YOLO labels over the top face's pips):
  dice found and missed, false detections, value accuracy over all labelled dice;
- the rendered fixtures (``tests/fixtures/boards/*.jpg`` with their ``.json`` truth): the same,
  plus cocked precision and recall, where each die lies (from the truth's frame corners), and the
  cube's value and place. With ``--corners`` the reader is told each board's inner frame corners
  (from the truth, as ``nardy detect`` tells it the profile's), so it knows the dice's size.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
from tqdm import tqdm

from nardy.vision.dice import DiceConfig, find_dice, place_dice
from nardy.vision.dice_eval import (
    DiceScore,
    fixture_truth,
    load_fixture,
    match,
    score_image,
    yolo_truth,
)

ROOT = Path(__file__).resolve().parent.parent
REAL = Path("/work/shared/data/dice-real")
BOARDS = ROOT / "tests" / "fixtures" / "boards"
CONFIG = DiceConfig()  # the reader's settings (--set)
CORNERS = False  # whether the rendered boards' corners are given to the reader (--corners)


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
        score_image(score, path.name, find_dice(image, CONFIG), yolo_truth(path, w, h))
    return score


def rendered(
    folder: Path, groups: dict[str, DiceScore] | None = None
) -> tuple[DiceScore, int, int]:
    """The whole set's score and the cube's; ``groups`` (when given) gets the same figures by
    image kind, by whether the frame is one the referee reads (``frame_group``), by die style,
    where the die lies and flat or cocked, and false dice by where they were seen ("false at
    ...": only their count is meaningful)."""
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
        corners = truth.get("corners")
        readings = find_dice(image, CONFIG, corners if CORNERS else None)
        wheres = place_dice(readings, corners) if corners else None
        dice = fixture_truth(truth)
        score_image(score, path.name, readings, dice, wheres=wheres)
        if groups is not None:
            kind = path.stem.rsplit("-", 1)[0]
            for key in (f"kind {kind}", frame_group(truth)):
                score_image(groups.setdefault(key, DiceScore()), path.name, readings, dice)
            tilt_keys = tilt_groups(truth, image.shape) if corners else [[]] * len(dice)
            for t, more in zip(dice, tilt_keys, strict=True):
                kind = "flat" if t.flat else "cocked"
                for key in (f"style {t.style}", f"where {t.where}", kind, *more):
                    group = groups.setdefault(key, DiceScore())
                    score_image(group, path.name, readings, [t], count_false=False)
            found = set(match(readings, dice))
            for k in range(len(readings)):
                if k not in found:
                    at = wheres[k] if wheres else "?"
                    groups.setdefault(f"false at {at}", DiceScore()).false += 1
        if "cube" in truth and corners and cube_reader and cube_reader.WEIGHTS.exists():
            cube_total += 1
            seen = cube_reader.find_cube(image, corners, light_edge=true_edge(truth))
            want = truth["cube"]
            got = None if seen is None else {"value": seen.value, "where": seen.where}
            cube_right += got == (
                None if want is None else {k: want[k] for k in ("value", "where")}
            )
    return score, cube_total, cube_right


def frame_group(truth: dict) -> str:
    """The frame's group: "frame usable", or "frame unusable (why)". The referee reads dice
    only from a frame it calls usable (no hand over the board, no motion, no glare), so the
    first group is what it meets; the others are measured all the same."""
    if truth.get("usable", True):
        return "frame usable"
    return f"frame unusable ({truth.get('why') or '?'})"


def tilt_groups(truth: dict, shape: tuple[int, ...]) -> list[list[str]]:
    """For each true die, the groups of the flat-or-cocked read it falls in: a cocked die by
    what it leans on and whether it leans toward the camera (its top face turned to within
    60 degrees of the camera's side), across, or away; flat or cocked by the camera's slant at
    it (``dice_tilt.slant``: how far a flat die's side face shows, in top faces)."""
    from nardy.synth.camera import eye_of
    from nardy.synth.scene import Camera
    from nardy.vision import dice_tilt

    scene = truth.get("style", {}).get("scene", {})
    cam = scene.get("camera")
    size = (shape[1], shape[0])
    to_board, foot, height = dice_tilt.board_plane(truth["corners"], CONFIG.board_aspect, size)
    out = []
    for i, d in enumerate(truth.get("dice", [])):
        kind = "flat" if d.get("flat", True) else "cocked"
        at = dice_tilt.slant(to_board, foot, height, np.array([d["center"]]))[0]
        band = "under 0.25" if at < 0.25 else "0.25-0.5" if at < 0.5 else "over 0.5"
        keys = [f"{kind} at slant {band}"]
        drawn = scene.get("dice", [])
        if kind == "cocked" and cam and i < len(drawn):
            die = drawn[i]
            # the point under the camera, in the board's millimetres as the renderer places it
            eye = eye_of(Camera(**{**cam, "aim": tuple(cam["aim"])}))[:2]
            to_cam = np.degrees(np.arctan2(*(eye - np.array(die["at"]))[::-1]))
            off = abs((die.get("lean_toward", 0.0) - to_cam + 180) % 360 - 180)
            way = "toward" if off < 60 else "away from" if off > 120 else "across"
            keys.append(f"cocked on {die.get('rests_on') or '?'} leaning {way} the camera")
        out.append(keys)
    return out


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


def setting(text: str) -> tuple[str, float | int]:
    """``name=value`` of a numeric ``DiceConfig`` field."""
    name, _, value = text.partition("=")
    kind = type(getattr(DiceConfig(), name, None))
    if kind not in (int, float):
        raise SystemExit(f"--set: {name!r} is not a numeric DiceConfig field")
    return name, kind(value)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--real", type=Path, default=REAL, help="folder with Train/ and Valid/")
    ap.add_argument("--boards", type=Path, default=BOARDS, help="rendered fixtures with truth")
    ap.add_argument("--errors", action="store_true", help="list every wrong or missed die")
    ap.add_argument("--by", action="store_true", help="rendered figures by kind, style, place")
    ap.add_argument(
        "--corners", action="store_true", help="tell the reader each rendered board's corners"
    )
    ap.add_argument("--skip-real", action="store_true", help="only the rendered fixtures")
    ap.add_argument(
        "--set",
        nargs="+",
        default=[],
        metavar="NAME=VALUE",
        help="DiceConfig fields to change (numbers), e.g. --set proposal=0.3",
    )
    args = ap.parse_args()
    global CONFIG, CORNERS
    CONFIG = replace(DiceConfig(), **dict(map(setting, args.set)))
    CORNERS = args.corners
    for split in () if args.skip_real else ("Train", "Valid"):
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
        groups: dict[str, DiceScore] | None = {} if args.by else None
        score, cube_total, cube_right = rendered(args.boards, groups)
        print(score.line("rendered") + f"  [{time.perf_counter() - t:.1f} s]")
        for key, group in sorted((groups or {}).items()):
            print(group.line(f"  {key}") if group.dice else f"  {key}: {group.false}")
        if cube_total:
            print(f"rendered cube: {cube_right}/{cube_total} right ({cube_right / cube_total:.1%})")
        if args.errors:
            for wrong in score.wrong:
                print("   ", *wrong)
    return 0


if __name__ == "__main__":
    sys.exit(main())
