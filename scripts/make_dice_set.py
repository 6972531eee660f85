#!/usr/bin/env python3
"""Render a training set for the dice reader: boards with two dice each, half of them cocked.

    PYTHONPATH=src python scripts/make_dice_set.py --out /work/cache/dice/boards --count 800

Seeds come from the names ``dice-NNNN`` (``--prefix``), which no fixture uses, so the fixtures
the reader is measured on are never trained on. Same JPEG + truth JSON form as the fixtures.

``--above DEG`` puts the camera within DEG degrees of straight above the board (there a flat die
shows side faces only away from the middle of the picture, toward it), and ``--lean-away P``
turns that share of the cocked dice not on a rim to lean away from the point under the camera:
their side face then shows toward it, where a flat die's does too (the board-plane reader
``dice_tilt`` must tell them apart by how much shows). ``--rim-toward P`` turns the camera of
that share of the renders with a die cocked on the rim to the rim's side, slanted 15-30
degrees, the point under it beyond that rim: a die on the rim leans outward, against the
frame, so only there does it lean toward the camera, hiding the side face a flat die there
shows (in the board's plane it looks like a flat die seen from higher up). The fixtures hold
few such dice.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

from make_fixtures import make_image, seed_of  # noqa: E402

from nardy.synth import Scene, SceneError  # noqa: E402
from nardy.synth.camera import eye_of  # noqa: E402

RIM_TILT = 30.0  # ``--rim-toward``'s camera slants this many degrees at most, as the renderer's


def beyond_rim(cam, die, rng: np.random.Generator):
    """``cam`` turned and slanted (at most ``RIM_TILT`` degrees, raised as far as needed: the
    picture is fitted to the board whatever its height) so that the point under it lies beyond
    the rim ``die`` leans on, along its lean give or take 15 degrees, 0.1-0.55 of the camera's
    height from the die (the slant there, ``dice_tilt.slant``): the die leans toward the
    camera."""
    turn = np.radians(die.lean_toward + rng.normal(0, 15))
    along = np.array([np.cos(turn), np.sin(turn)])
    reach = rng.uniform(0.1, 0.55)
    from_aim = np.array(die.at) - np.array(cam.aim)
    top = max(cam.height, 900.0)
    # the least height over the aim that sees the die within RIM_TILT: from lower, however near
    # the die the foot is brought, none would do and the search below would never end
    least = np.hypot(*from_aim) / np.tan(np.radians(RIM_TILT))
    if least >= top:
        top = 1.1 * least
    heights = np.linspace(cam.height, top, 11)
    while True:
        for height in heights:
            v = from_aim + reach * height * along  # the foot, from the aim
            tilt = float(np.degrees(np.arctan2(np.hypot(*v), height)))
            if tilt <= RIM_TILT:
                # azimuth a moves the foot along (sin a, -cos a) from the aim
                azimuth = float(np.degrees(np.arctan2(v[0], -v[1])) % 360)
                return dataclasses.replace(cam, azimuth=azimuth, tilt=tilt, height=float(height))
        reach *= 0.8  # too far to reach from any height: nearer the die


def adjusted(above: float | None, lean_away: float, rim_toward: float = 0.0):
    """The scene change ``make_image`` applies for ``--above``, ``--lean-away`` and
    ``--rim-toward``."""

    def adjust(scene: Scene, rng: np.random.Generator) -> Scene:
        cam = scene.camera
        if above is not None:
            cam = dataclasses.replace(cam, tilt=float(rng.uniform(0, above)))
        rim = [d for d in scene.dice if not d.flat and d.rests_on == "rim"]
        if rim and rim_toward > 0 and rng.random() < rim_toward:  # (no draw when off)
            cam = beyond_rim(cam, rim[0], rng)
        dice = []
        for d in scene.dice:
            if not d.flat and d.rests_on != "rim" and rng.random() < lean_away:
                foot = eye_of(cam)[:2]
                away = np.degrees(np.arctan2(d.at[1] - foot[1], d.at[0] - foot[0]))
                d = dataclasses.replace(d, lean_toward=float(away + rng.normal(0, 25)))
            dice.append(d)
        return dataclasses.replace(scene, camera=cam, dice=tuple(dice))

    return adjust


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--count", type=int, default=800)
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--prefix", default="dice")
    ap.add_argument("--cocked", type=float, default=0.5, help="chance each die is cocked")
    ap.add_argument("--above", type=float, help="camera within this many degrees of vertical")
    ap.add_argument(
        "--lean-away", type=float, default=0.0, help="share of cocked dice leaning from the foot"
    )
    ap.add_argument(
        "--rim-toward",
        type=float,
        default=0.0,
        help="share of renders with a die cocked on the rim seen from beyond that rim",
    )
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    adjust = adjusted(args.above, args.lean_away, args.rim_toward)
    for i in range(args.start, args.start + args.count):
        name = f"{args.prefix}-{i:04d}"
        if (args.out / f"{name}.json").exists():
            continue
        # every fifth on the dark board, every tenth with a hand beside the dice
        kw = {"n_dice": 2, "cocked": args.cocked, "with_hand": i % 10 == 3}
        if i % 5 == 0:
            kw["board"] = "dark"
        try:
            data, truth = make_image(name, seed_of(name), kw, adjust=adjust)
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
