"""``nardy dice IMAGE...``: the dice in any photograph, board or not, one JSON line per image."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from nardy.cli.common import UsageError

HELP = "the dice in any photograph: value, flat or cocked, centre and box, one JSON line per image"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("images", nargs="+", metavar="IMAGE", help="photographs to read")
    parser.add_argument(
        "--json",
        action="store_true",
        help="JSON lines (the default; kept for symmetry with detect)",
    )
    parser.add_argument(
        "--confidence", action="store_true", help="add each die's confidence (0..1) to its entry"
    )


def run(args: argparse.Namespace) -> int:
    import cv2

    from nardy.vision.dice import find_dice

    images = []
    for name in args.images:  # check every file before reading any, so bad input costs nothing
        path = Path(name)
        if not path.is_file():
            raise UsageError(f"no such image file: {name}")
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if image is None:
            raise UsageError(f"not an image OpenCV can read: {name}")
        images.append(image)
    for image in images:
        dice = []
        for die in find_dice(image):
            entry = die.to_json()
            if args.confidence:
                entry["confidence"] = round(die.confidence, 3)
            dice.append(entry)
        print(json.dumps(dice), flush=True)
    return 0
