"""Train the known board's patch reader (``dice_patches_board.onnx``) on CPU, from the shipped
patch reader: the network that, on a board whose corners are known, says whether each of the
board map's proposals is a die and reads it twice (``dice._learned_dice``).

    PYTHONPATH=src python scripts/train_dice_board.py --rendered DIR [DIR ...] [--drawn N] \
        [--patches CUT.npz] [--epochs 4]

The general patch reader learnt its first read from wide patches around proposals of any size;
on a known board no wide patch is read: every patch is cut ``CONTEXT`` times a die's side
there, around the proposal, and then around the face the read before found. Here it learns
from exactly those cuts, on renders of known boards (never the test fixtures):
- every true die, cut around points as far from its face's centre as the board map's
  proposals and the reads after them come (``board_cut``), at the side a die has there (a
  board's dice differ in size by a fifth either way) or at its own face's;
- as "not a die", the board map's own proposals where no die lies (checkers beside dice, point
  tips, the frame), the doubling cube (whose printed number read at a die's size is the likeliest
  false die) and dice's side faces;
- a third of the renders motion-blurred along a line as long as a die's face or less (a die
  still rolling, a knocked camera), before the map proposes and the patches are cut;
- ``--drawn N`` scenes of plainly drawn dice (``drawn_dice.py``), each die's side taken as its
  board's, so dice drawn without sides stay dice.

In a render with a hand, a die is taught only where the map proposes it (a die wholly under the
hand is in the truth but not in view). Every tenth image's patches are held out and measured
after each epoch (``train_dice_reader.held_out``).

The shipped reader is the one written after the last of ``--epochs 4 --copies 3 --drawn 300``
(from the shipped photograph's reader, at ``--lr 1e-3``) on 2,245 renders: the 1,355 training
renders, 177 dice renders, 348 with most dice cocked, 79 more cocked, 42 others and 244 of
``make_fixtures.py --prefix df10 --kinds motion,hand,cocked --repeat 4``: 78,876 patches.
"""

from __future__ import annotations

import argparse
import json
import time
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
from train_dice_reader import drawn, labelled_cut, rendered_dice, side_faces, train_patches

from nardy.vision import dice_patches
from nardy.vision.dice import DiceConfig, _proposals, face_sides
from nardy.vision.dice_patches import CONTEXT

#: the least heat of the proposals cut as "not a die" (lower than the reader's, so that what
#: the map nearly proposes is learnt too)
PROPOSAL = 0.1
NEGATIVES = 20  # the most proposals of one image cut as "not a die", likeliest first


def board_cut(rng: np.random.Generator) -> np.ndarray:
    """How far from a die's face centre a read's patch is cut, in faces: the board map's
    proposals and the second reads land within a tenth of a face mostly, now and then up to
    two fifths."""
    turn = rng.uniform(0, 2 * np.pi)
    return 0.4 * rng.random() ** 2 * np.array([np.cos(turn), np.sin(turn)])


def smeared(image: np.ndarray, length: float, rng: np.random.Generator) -> np.ndarray:
    """The image blurred along a line ``length`` pixels long, at any angle."""
    n = max(round(length) | 1, 3)
    line = np.zeros((n, n), np.float32)
    line[n // 2] = 1.0
    turn = cv2.getRotationMatrix2D(((n - 1) / 2, (n - 1) / 2), rng.uniform(0, 180), 1.0)
    line = cv2.warpAffine(line, turn, (n, n))
    return cv2.filter2D(image, -1, line / max(float(line.sum()), 1e-6))


def board_patches(
    image: np.ndarray,
    dice: np.ndarray,
    want: np.ndarray,
    proposals: list[tuple[float, float, float]],
    rng: np.random.Generator,
    copies: int,
    cube: tuple[float, float, float] | None = None,
    hand: bool = False,
) -> list[tuple]:
    """(patch uint8, class, box, cocked) cut as a known board's reads cut them. ``want`` is a
    die's side at each true die, ``proposals`` the map's (x, y, a die's side there), ``cube``
    the doubling cube's centre and a die's side there."""
    out = []

    def add(centre, side, label) -> None:
        out.append(labelled_cut(image, centre, side, label, rng))

    near = np.zeros(len(dice), bool)
    for x, y, _ in proposals:
        if len(dice):
            near |= np.hypot(*(dice[:, :2] - [x, y]).T) < 0.6 * dice[:, 2]
    for d, w, seen in zip(dice, want, near, strict=True):
        if hand and not seen:
            continue  # under the hand, maybe wholly
        for k in range(copies * (2 if d[4] == 1 else 1)):
            size = w if k % 2 == 0 else d[2]  # a die's side there, or the face the read found
            side = CONTEXT * size * np.exp(rng.uniform(-0.15, 0.15))
            add(d[:2] + board_cut(rng) * d[2], side, d)
    negatives = 0
    for x, y, w in proposals:
        if len(dice) and (np.hypot(*(dice[:, :2] - [x, y]).T) / dice[:, 2]).min() < 1.0:
            continue
        if negatives >= NEGATIVES:
            break
        negatives += 1
        add((x, y), CONTEXT * w * np.exp(rng.uniform(-0.15, 0.15)), None)
    if cube is not None:
        cx, cy, w = cube
        for _ in range(copies):
            at = np.array([cx, cy]) + rng.uniform(-0.3, 0.3, 2) * w
            add(at, CONTEXT * w * np.exp(rng.uniform(-0.15, 0.3)), None)
    if len(dice):
        out.extend(side_faces(image, dice, rng, per_die=1, beside=2))
    return out


def render_items(path: Path, rng: np.random.Generator, config: DiceConfig, copies: int):
    """The patches of one render with truth (its corners known)."""
    truth = json.loads(path.with_suffix(".json").read_text())
    image = cv2.imread(str(path))
    corners = truth["corners"]
    dice = rendered_dice(path)
    if len(dice) and rng.random() < 1 / 3:
        image = smeared(image, rng.uniform(0.2, 1.0) * float(np.median(dice[:, 2])), rng)
    found, sides = _proposals(image, replace(config, proposal=PROPOSAL), corners)
    proposals = [(p.x, p.y, s) for p, s in zip(found, sides, strict=True)]
    want = face_sides(corners, dice[:, :2], config.face_of_board) if len(dice) else np.zeros(0)
    cube = truth.get("cube") or {}
    at = None
    if "center" in cube:
        (w,) = face_sides(corners, np.array([cube["center"]]), config.face_of_board)
        at = (*cube["center"], float(w))
    hand = "hand" in path.name
    return board_patches(image, dice, want, proposals, rng, copies, at, hand)


def main() -> None:
    import torch

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rendered", type=Path, nargs="+", default=[], help="renders with truth")
    ap.add_argument("--drawn", type=int, default=0, help="this many scenes of drawn dice too")
    ap.add_argument("--patches", type=Path, help="cut patches: reused when stored, else kept")
    ap.add_argument("--epochs", type=int, default=4)
    ap.add_argument("--copies", type=int, default=3, help="patches cut around each true die")
    ap.add_argument("--lr", type=float, default=1e-3, help="peak learning rate")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", type=Path, default=dice_patches.BOARD_WEIGHTS)
    args = ap.parse_args()
    torch.set_num_threads(1)
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    if args.patches and args.patches.exists():
        with np.load(args.patches) as z:
            data = list(zip(*(z[k] for k in ("x", "y", "box", "cocked", "held")), strict=True))
    else:
        data, t0 = [], time.time()
        paths = [p for folder in args.rendered for p in sorted(folder.glob("*.jpg"))]
        paths = [p for p in paths if p.with_suffix(".json").exists()]
        for n, path in enumerate(paths):
            data += [(*c, n % 10 == 0) for c in render_items(path, rng, DiceConfig(), args.copies)]
            if (n + 1) % 200 == 0:
                print(f"cut {n + 1}/{len(paths)} renders [{time.time() - t0:.0f} s]", flush=True)
        for n, (image, dice) in enumerate(drawn(args.drawn, args.rendered), start=len(paths)):
            got = board_patches(image, dice, dice[:, 2], [], rng, args.copies)
            data += [(*c, n % 10 == 0) for c in got]
        if args.patches:
            names = ("x", "y", "box", "cocked", "held")
            columns = map(np.array, zip(*data, strict=True))
            np.savez(args.patches, **dict(zip(names, columns, strict=True)))
    train_patches(data, args.epochs, rng, dice_patches.WEIGHTS, args.lr, args.out)


if __name__ == "__main__":
    main()
