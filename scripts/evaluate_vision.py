#!/usr/bin/env python3
"""Measure the board reader against a folder of images with their truth (``NAME.json`` beside
``NAME.jpg``, the fixtures' form) and print the figures.

    PYTHONPATH=src python scripts/evaluate_vision.py tests/fixtures/boards \
        [--profile-from truth auto markers]

``--profile-from truth`` reads each image with its true corners (the layout measured from the
photo), ``auto`` finds the board with no help, ``markers`` from the ArUco markers when present
(placed as the truth's ``marker_layout`` says, as a user measures their board). For ``auto`` and
``markers`` the corners found are also measured against the true ones: the worst corner's error
in pixels, and the share within 1 % of the surface's width.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np
from tqdm import tqdm

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from nardy.calibration import BoardProfile, ProfileError
from nardy.calibration.measure import measure_geometry
from nardy.vision.config import VisionConfig
from nardy.vision.detect import detect_image
from nardy.vision.dice_eval import nearest_first
from nardy.vision.images import load_image


def profile_for(image: np.ndarray, truth: dict, how: str) -> BoardProfile | None:
    size = (image.shape[1], image.shape[0])
    if how == "truth":
        from nardy.vision.detect import profile_from_corners

        return profile_from_corners(image, truth["corners"])
    if how == "markers":
        from nardy.calibration.markers import MarkerLayout, corners_from_markers

        if "markers" not in truth:
            raise NoMarkers
        layout = MarkerLayout(**truth.get("marker_layout", {}))
        corners = corners_from_markers(image, layout)
        return BoardProfile.from_corners(corners, size, measure_geometry(image, corners))
    return None  # detect_image finds the board itself


class NoMarkers(Exception):
    """The image has no markers stuck on: not counted for ``markers``."""


def corner_error(profile: BoardProfile | None, truth: dict) -> float:
    """The worst corner's distance from the truth (pixels), as a share of the surface's width
    too; infinite when no board was found."""
    if profile is None:
        return float("inf")
    found = np.asarray(profile.corners, float)
    return float(np.linalg.norm(found - np.asarray(truth["corners"], float), axis=1).max())


def surface_width(truth: dict) -> float:
    c = np.asarray(truth["corners"], float)
    return float((np.linalg.norm(c[1] - c[0]) + np.linalg.norm(c[2] - c[3])) / 2)


def evaluate(
    folder: Path,
    how: str,
    limit: int | None = None,
    every: int = 1,
    config: VisionConfig | None = None,
) -> dict:
    files = sorted(p for p in folder.glob("*.json"))[::every]
    if limit:
        files = files[:limit]
    c: Counter = Counter()
    wrong_boards = []
    times = []
    corner_errors: list[tuple[str, float, float]] = []  # (name, px, share of the width)
    for jf in tqdm(files, desc=how, unit="image", file=sys.stderr, leave=False):
        truth = json.loads(jf.read_text())
        img_path = jf.with_name(truth.get("image") or jf.stem + ".jpg")
        if not img_path.exists():
            img_path = jf.with_suffix(".jpg")
        image = load_image(img_path)
        t0 = time.perf_counter()
        try:
            profile = profile_for(image, truth, how)
        except NoMarkers:
            continue
        except ProfileError:
            c["calibration_failed"] += 1
            corner_errors.append((jf.stem, float("inf"), float("inf")))
            continue
        result = detect_image(image, profile=profile, config=config)
        times.append(time.perf_counter() - t0)
        if how != "truth":
            err = corner_error(result.profile, truth)
            corner_errors.append((jf.stem, err, err / surface_width(truth)))
        reading = result.reading
        c["images"] += 1
        if truth["usable"]:
            c["usable_truth"] += 1
            c["usable_right"] += reading.usable
        else:
            c["unusable_truth"] += 1
            c["unusable_right"] += not reading.usable
            c[f"unusable_truth:{truth.get('why')}"] += 1
            c[f"unusable_right:{truth.get('why')}"] += not reading.usable
            if truth.get("why") == "hand":
                c["hand_frames"] += 1
                c["hand_called_usable"] += reading.usable
            continue
        if not reading.usable and not reading.why:
            continue
        exact = True
        for want, got in zip(truth["points"], reading.points, strict=True):
            c["points"] += 1
            if abs(want) != abs(got):
                c["point_count_wrong"] += 1
                exact = False
            elif want and np.sign(want) != np.sign(got):
                c["point_colour_wrong"] += 1
                exact = False
        c["bars"] += 1
        if list(reading.bar) != list(truth["bar"]):
            c["bar_wrong"] += 1
            exact = False
        if truth["off"] is not None:
            c["trays"] += 1
            if reading.off is None or list(reading.off) != list(truth["off"]):
                c["tray_wrong"] += 1
                exact = False
        elif reading.off is not None:
            c["trays_seen_but_not_in_view"] += 1
        c["boards"] += 1
        c["boards_exact"] += exact
        if not exact:
            wrong_boards.append(jf.stem)
        _dice(c, truth, result)
    return {
        "counts": c,
        "wrong": wrong_boards,
        "seconds": float(np.mean(times)) if times else 0,
        "corners": corner_errors,
    }


def _dice(c: Counter, truth: dict, result) -> None:
    dice = truth.get("dice", [])
    # each reading goes to the nearest true die within 0.7 of its size, the closest pair first,
    # a hidden die (its top face under the hand) last; it counts for nothing, nor its reading
    pairs = []
    for i, die in enumerate(dice):
        cx, cy = die["center"]
        size = max(die["box"][2], die["box"][3])
        for k, d in enumerate(result.dice):
            dist = float(np.hypot(d["center"][0] - cx, d["center"][1] - cy))
            if dist < 0.7 * size:
                pairs.append((bool(die.get("hidden")), dist, i, k))
    paired = nearest_first(pairs, len(dice))
    unpaired = [d for k, d in enumerate(result.dice) if k not in paired]
    for i, die in enumerate(dice):
        if die.get("hidden"):
            c["dice_hidden"] += 1
            continue
        c["dice"] += 1
        got = None if paired[i] is None else result.dice[paired[i]]
        if got is None:
            c["dice_missed"] += 1
            if not die["flat"]:
                c["cocked_missed"] += 1
            continue
        c["dice_found"] += 1
        c["dice_value_right"] += got["value"] == die["value"]
        if not die["flat"]:
            c["cocked_truth"] += 1
            c["cocked_caught"] += not got["flat"]
        if not got["flat"]:
            c["cocked_called"] += 1
            c["cocked_called_right"] += not die["flat"]
    c["dice_spurious"] += len(unpaired)
    if truth.get("cube") is not None:
        c["cubes"] += 1
        cube = result.cube
        if (
            cube
            and cube.get("value") == truth["cube"]["value"]
            and cube.get("where") == truth["cube"]["where"]
        ):
            c["cube_right"] += 1


def _pct(a: int, b: int) -> str:
    return f"{100.0 * a / b:.2f} % ({a}/{b})" if b else "n/a"


def report(res: dict) -> str:
    c = res["counts"]
    lines = [
        f"images: {c['images']}  (usable by truth {c['usable_truth']}, unusable "
        f"{c['unusable_truth']}); mean time per image {res['seconds'] * 1000:.0f} ms",
        f"per-point count error:   {_pct(c['point_count_wrong'], c['points'])}",
        f"per-point colour error:  {_pct(c['point_colour_wrong'], c['points'])}",
        f"whole board exact:       {_pct(c['boards_exact'], c['boards'])}",
        f"bar right:               {_pct(c['bars'] - c['bar_wrong'], c['bars'])}",
        f"trays right:             {_pct(c['trays'] - c['tray_wrong'], c['trays'])}",
        f"usable called usable:    {_pct(c['usable_right'], c['usable_truth'])}",
        f"unusable called so:      {_pct(c['unusable_right'], c['unusable_truth'])}  "
        + ", ".join(
            f"{k.split(':')[1]} {c['unusable_right:' + k.split(':')[1]]}/{v}"
            for k, v in sorted(c.items())
            if k.startswith("unusable_truth:")
        ),
        f"hand frames called usable: {c['hand_called_usable']} of {c['hand_frames']}",
        f"dice found:              {_pct(c['dice_found'], c['dice'])} "
        f"(missed {c['dice_missed']}, spurious {c['dice_spurious']}, "
        f"hidden left out {c['dice_hidden']})",
        f"dice value right:        {_pct(c['dice_value_right'], c['dice_found'])}",
        "cocked recall:           "
        + _pct(c["cocked_caught"], c["cocked_truth"] + c["cocked_missed"]),
        f"cocked precision:        {_pct(c['cocked_called_right'], c['cocked_called'])}",
        f"cube right:              {_pct(c['cube_right'], c['cubes'])}",
    ]
    if c["calibration_failed"]:
        lines.append(f"calibration failed on {c['calibration_failed']} image(s)")
    lines.extend(corner_report(res["corners"]))
    return "\n".join(lines)


def corner_report(errors: list[tuple[str, float, float]]) -> list[str]:
    """The corners found against the true ones, over all images and over the starting
    positions alone (the photo ``nardy calibrate`` is meant to be given)."""
    lines = []
    for label, rows in (
        ("all", errors),
        ("start positions", [e for e in errors if "-start-" in e[0]]),
    ):
        if not rows:
            continue
        px = np.array([e[1] for e in rows])
        share = np.array([e[2] for e in rows])
        found = np.isfinite(px)
        median = f"{np.median(px[found]):.1f}" if found.any() else "n/a"
        within1 = _pct(int((share < 0.01).sum()), len(rows))
        within2 = _pct(int((share < 0.02).sum()), len(rows))
        lines.append(
            f"corners ({label}): found {_pct(int(found.sum()), len(rows))}; worst corner "
            f"median {median} px; within 1 % of the width {within1}, within 2 % {within2}"
        )
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument(
        "--profile-from",
        "--calibration",
        dest="profile_from",
        nargs="+",
        choices=["truth", "auto", "markers"],
        default=["truth"],
        help="how each image's board profile is made; several are reported one after another",
    )
    parser.add_argument("--limit", type=int)
    parser.add_argument("--every", type=int, default=1, help="every Nth image only (a sample)")
    parser.add_argument("--wrong", action="store_true", help="list the boards not read exactly")
    parser.add_argument(
        "--per-side",
        type=int,
        metavar="N",
        help="tell the reader each side has N checkers (VisionConfig.checkers_per_side); "
        "by default it is not told",
    )
    args = parser.parse_args(argv)
    for how in args.profile_from:
        config = VisionConfig(checkers_per_side=args.per_side)
        res = evaluate(args.folder, how, args.limit, args.every, config)
        told = f"{args.per_side} checkers a side" if args.per_side else "checkers a side not told"
        print(f"{args.folder} (profile from: {how}; {told})")
        print(report(res))
        if args.wrong:
            print("not exact:", " ".join(res["wrong"]))
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
