"""``nardy detect IMAGE...``: what vision sees on a board, one JSON line per image."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from nardy.cli.common import UsageError

HELP = "what vision sees in images of a board: checkers, bar, trays, dice, cube"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("images", nargs="+", metavar="IMAGE", help="photos of the board")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--profile", metavar="FILE", help="a board profile (nardy calibrate)")
    where.add_argument(
        "--corners",
        metavar="x1,y1,...,x4,y4",
        help="inner corners of the frame: top-left, top-right, bottom-right, bottom-left",
    )
    parser.add_argument(
        "--checkers",
        type=int,
        metavar="N",
        help="each side has N checkers (15 in backgammon and nardy, 3 in hypergammon): with "
        "the trays in view, the counts are read as the likeliest that add up to N a side; "
        "by default every point is read on its own",
    )
    parser.add_argument("--json", action="store_true", help="one JSON line per image")
    parser.add_argument(
        "--draw",
        metavar="OUT",
        help="write the image with the reading drawn over it "
        "(a folder when there are several images)",
    )


def run(args: argparse.Namespace) -> int:
    from nardy.calibration import BoardProfile, ProfileError, parse_corners
    from nardy.vision.checkers import MOST
    from nardy.vision.config import VisionConfig
    from nardy.vision.detect import detect_image
    from nardy.vision.images import ImageError, load_image

    if args.checkers is not None and not 1 <= args.checkers <= MOST:
        raise UsageError(f"--checkers: a side has 1 to {MOST} checkers, not {args.checkers}")
    config = VisionConfig(checkers_per_side=args.checkers)
    profile = None
    corners = None
    if args.profile:
        try:
            profile = BoardProfile.load(args.profile)
        except ProfileError as e:
            raise UsageError(str(e)) from e
    elif args.corners:
        try:
            corners = parse_corners(args.corners)
        except ProfileError as e:
            raise UsageError(str(e)) from e
    draw_dir = _draw_target(args.draw, len(args.images))
    status = 0
    for path in args.images:
        try:
            image = load_image(path)
        except ImageError as e:
            _emit({"image": path, "usable": False, "why": str(e)}, args.json)
            status = 2
            continue
        try:
            result = detect_image(image, profile=profile, corners=corners, config=config)
        except ProfileError as e:  # corners that do not make a board
            raise UsageError(str(e)) from e
        out = {"image": path, **result.to_json()}
        _emit(out, args.json)
        if args.draw:
            from nardy.vision.draw import draw_result

            target = draw_dir / (Path(path).stem + ".png") if draw_dir else Path(args.draw)
            if not draw_result(image, result, target):
                raise UsageError(f"cannot write {target}")
    return status


def _draw_target(draw: str | None, count: int) -> Path | None:
    if not draw or count == 1:
        return None
    folder = Path(draw)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise UsageError(f"--draw with several images needs a folder: {e}") from e
    return folder


def _emit(out: dict[str, Any], as_json: bool) -> None:
    if as_json:
        print(json.dumps(out, separators=(", ", ": ")))
        return
    if not out["usable"]:
        print(f"{out['image']}: not usable — {out.get('why', '')}")
        if "points" not in out:
            return
    else:
        print(f"{out['image']}:")
    pts = out["points"]
    top = " ".join(f"{n:>3}" for n in pts[12:24])
    bottom = " ".join(f"{n:>3}" for n in reversed(pts[0:12]))
    print(f"  13..24 {top}")
    print(f"  12..1  {bottom}")
    off = out.get("off")
    print(f"  bar {out['bar']}  off {off if off is not None else '—'}")
    for d in out.get("dice", []):
        print(
            f"  die {d['value']} {'flat' if d['flat'] else 'cocked'} {d['where']} at {d['center']}"
        )
    cube = out.get("cube")
    if cube:
        # where is None for a cube on a side when nothing tells whose side that is
        print(f"  cube {cube['value']} {cube['where'] or 'on a side, whose not told'}")
    sys.stdout.flush()
