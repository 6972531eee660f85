"""Train the known board's patch reader (``dice_patches_board.onnx``) on CPU, from the shipped
photograph's patch reader (or ``--init`` another of its shape): the network that, on a board
whose corners are known, says whether each of the board map's proposals is a die and reads it
twice (``dice._learned_dice``).

    PYTHONPATH=src python scripts/train_dice_board.py --rendered DIR [DIR ...] [--drawn N] \
        [--patches CUT.npz [MORE.npz ...]] [--cut-only] [--epochs 4] [--init ONNX] [--defocus S] \
        [--mine]

The general patch reader learnt its first read from wide patches around proposals of any size;
on a known board no wide patch is read: every patch is cut ``CONTEXT`` times a die's side
there, around the proposal, and then around the face the read before found. Here it learns
from exactly those cuts, on renders of known boards (never the test fixtures):
- every true die, cut around points as far from its face's centre as the board map's
  proposals and the reads after them come (``board_cut``), at the side a die has there (a
  board's dice differ in size by a fifth either way) or at its own face's;
- as "not a die", the board map's own proposals where no die lies (checkers beside dice, point
  tips, the frame), the doubling cube (whose printed number read at a die's size is the likeliest
  false die), around its centre and its side faces, and dice's side faces; a die the cube stands
  on (``UNDER_CUBE``: the renderer can put the cube on a die on the bar) is neither;
- a third of the renders motion-blurred along a line as long as a die's face or less (a die
  still rolling, a knocked camera), before the map proposes and the patches are cut, and
  ``--defocus`` of the others out of focus (``DEFOCUS``);
- with ``--mine``, the finder's own mistakes on each render, found by running it there with
  lower thresholds (``MINE``): its false dice are cut ``--copies`` times as "not a die" (the
  fingertips of a hand, the cube's faces, a checker's rim) and the dice it misses twice as often
  as the others;
- ``--drawn N`` scenes of plainly drawn dice (``drawn_dice.py``), each die's side taken as its
  board's, so dice drawn without sides stay dice.

In a render with a hand, a die is taught only where the map proposes it (a die wholly under the
hand is in the truth but not in view). Every tenth image's patches are held out and measured
after each epoch (``train_dice_reader.held_out``). The cut patches can be kept (``--patches
ONE.npz --cut-only``, one set of renders at a time) and trained on together (``--patches
ONE.npz TWO.npz ...``).

The shipped reader (session 12) went on from session 10's in two rounds, each on patches cut
anew from the same 2,258 renders (never the fixtures, never the held-out ``p12h``/``p12hc``):
1,200 of ``make_dice_set.py --prefix p12d --count 1200 --cocked 0.6`` (with ``--drawn 300``),
678 of ``make_fixtures.py --prefix p12t --repeat 2 --no-clips`` (its ``boards/``), 180 of
``make_fixtures.py --prefix p12k --kinds cocked --repeat 6 --no-clips`` and 200 of
``make_dice_set.py --prefix p12a --count 200 --cocked 0.7 --above 3 --lean-away 0.5``; each set
cut by a run of its own, ``--cut-only --defocus 0.3 --mine``:
1. cut with ``--seed`` 1, 2, 3, 4 (mined by session 10's reader, then shipped): 89,879
   patches; ``--init`` session 10's reader, ``--lr 1e-3 --epochs 6 --seed 3``;
2. cut again with ``--seed`` 11, 12, 13, 14, mined by the first round's reader (put in place
   as ``dice_patches_board.onnx``, which the finder reads): 88,592 patches; ``--init`` the
   first round's reader, ``--lr 5e-4 --epochs 3 --seed 15``.
On the 459 held-out renders (798 dice) the finder found 761 with 14 false, 703 values right,
with session 10's reader; 772 with 10 false, 709 right after the first round; 772 with 7 false,
709 right after the second. The first round had taught it checkers seen edge on (in the trays,
stacked) as dice, which the second round's mining took back only in part: on the fixtures,
false dice went 6, 9, 8 (and found dice 537, 541, 543).

Session 13 went on from the shipped reader on session 13's pool (``/work/cache/pool13``: 300
shaken frames ``make_fixtures.py --prefix p13m --kinds motion --repeat 50``, 300 ``p13k``
cocked, 678 ``p13t``, 800 ``make_dice_set.py --prefix p13d --count 800 --cocked 0.6
--rim-toward 0.2``; each cut ``--cut-only --defocus 0.3 --mine``) and shipped none of it: on
549 held-out renders (session 12's 459 and 90 shaken frames, ``p13hm``, with 139 of the 937
dice), where the shipped reader finds 864 with 18 false, 766 values right (shaken frames: 88
found, 11 false, 22 right), no run read more values right (each from the shipped reader):
- session 12's pool cut a third time (``--seed`` 21-24, mined by the shipped reader: 88,880
  patches) and the shaken frames' (112,301 in all), ``--lr 5e-4 --epochs 3``: 852
  found, 14 false, 757 right (shaken: 81, 4, 18);
- the same without the shaken frames but with the other three sets (155,536): 864, 20, 761
  (shaken: 89, 6, 20); its weights' mean with the shipped reader's 867, 14, 763;
- the three sets alone (66,656), ``--lr 2e-4 --epochs 2``: 854, 12, 761 (at
  ``board_min_die`` 0.5: 858, 16, 763).
In shaken frames the dice found are mostly misread by the board-plane reader (66 of 88) and
the board's patch reader reads them no better (its value right on 38 of 134 candidates
lying on shaken dice, the board-plane reader's on 36): finding more of them there adds
misread dice, not values right.

Session 16 went on from the shipped reader with session 15's training renders, which no reader
had learnt from (``/work/cache/pool15``: 678 ``make_fixtures.py --prefix p15t --repeat 2``, 800
``make_dice_set.py --prefix p15d --count 800 --cocked 0.6 --rim-toward 0.2``; each cut
``--cut-only --defocus 0.3 --mine``, ``--seed`` 31 and 32: 53,879 patches), and shipped none of
it: on the eight held-out sets (p12h, p12hc, p14h, p14hc, p15h, p15hc, p13hm, p14hm; 2,664
dice), where the shipped reader finds 2,571 with 35 false, 2,483 values right (the finder of
``board_same_face``), no run read more values right:
- the two sets alone, ``--lr 2e-4 --epochs 2 --seed 33``: 2,561 found, 27 false, 2,473 right;
  at ``board_min_die`` 0.5 2,569, 32, 2,480 (it finds 3 of 4 plain flat dice the shipped
  reader gives 0.42-0.57, and misses as many others it found);
- with session 12's second round's cuts too (142,471 patches), ``--seed 34``: 2,569, 33, 2,479.

Session 10's reader was the one written after the last of ``--epochs 4 --copies 3 --drawn 300``
(from the shipped photograph's reader, at ``--lr 1e-3``) on 2,245 renders: the 1,355 training
renders, 177 dice renders, 348 with most dice cocked, 79 more cocked, 42 others and 244 of
``make_fixtures.py --prefix df10 --kinds motion,hand,cocked --repeat 4``: 78,876 patches.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
from train_dice_reader import drawn, labelled_cut, rendered_dice, side_faces, train_patches

from nardy.vision import dice_patches
from nardy.vision.dice import DiceConfig, _proposals, face_sides, find_dice
from nardy.vision.dice_patches import CONTEXT

#: the least heat of the proposals cut as "not a die" (lower than the reader's, so that what
#: the map nearly proposes is learnt too)
PROPOSAL = 0.1
NEGATIVES = 20  # the most proposals of one image cut as "not a die", likeliest first
DEFOCUS = (0.5, 1.6)  # the Gaussian blur (pixels) of a render out of focus (``--defocus``)
#: with ``--mine``, the finder is run on each render with these settings (lower than its own,
#: so that what it nearly calls a die is learnt too); a reading this many of a die's sides
#: from every true die is a false die to learn as none, and a true die no reading lies within
#: MINE_FOUND of is a missed one
MINE = {"board_min_die": 0.2, "board_least": 0.0, "board_maybe_die": 0.15}
MINE_APART = 1.0
MINE_FOUND = 0.5
#: a die whose centre lies within this many of a die's sides of the cube's is under it (the
#: renderer can stand the cube on a die on the bar): no die to learn, and no cube cut there
UNDER_CUBE = 0.8


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
    mined: Sequence[tuple[float, float, float]] = (),
    hard: np.ndarray | None = None,
) -> list[tuple]:
    """(patch uint8, class, box, cocked) cut as a known board's reads cut them. ``want`` is a
    die's side at each true die, ``proposals`` the map's (x, y, a die's side there), ``cube``
    the doubling cube's centre and a die's side there; ``mined`` the finder's own false dice
    (x, y, face side), each cut ``copies`` times as "not a die", and ``hard`` the true dice it
    missed, cut twice as often as the others."""
    out = []
    hard = np.zeros(len(dice), bool) if hard is None else hard

    def add(centre, side, label) -> None:
        out.append(labelled_cut(image, centre, side, label, rng))

    near = np.zeros(len(dice), bool)
    for x, y, _ in proposals:
        if len(dice):
            near |= np.hypot(*(dice[:, :2] - [x, y]).T) < 0.6 * dice[:, 2]
    for d, w, seen, missed in zip(dice, want, near, hard, strict=True):
        if hand and not seen:
            continue  # under the hand, maybe wholly
        for k in range(copies * (2 if d[4] == 1 else 1) * (2 if missed else 1)):
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
            turn = rng.uniform(0, 2 * np.pi)  # and its side faces, numbers printed on them too
            if len(dice) and (np.hypot(*(dice[:, :2] - [cx, cy]).T) / dice[:, 2]).min() < 2.0:
                continue  # a die beside the cube: not cut as none
            at = np.array([cx, cy]) + rng.uniform(0.4, 0.9) * w * np.array(
                [np.cos(turn), np.sin(turn)]
            )
            add(at, CONTEXT * w * np.exp(rng.uniform(-0.3, 0.15)), None)
    for x, y, w in mined:
        for _ in range(copies):
            at = np.array([x, y]) + board_cut(rng) * w
            add(at, CONTEXT * w * np.exp(rng.uniform(-0.15, 0.15)), None)
    if len(dice):
        out.extend(side_faces(image, dice, rng, per_die=1, beside=2))
    return out


def defocused(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The image out of focus: blurred by a Gaussian of ``DEFOCUS`` pixels (on top of the
    render's own 0.3-1.3)."""
    return cv2.GaussianBlur(image, (0, 0), rng.uniform(*DEFOCUS))


def render_items(
    path: Path,
    rng: np.random.Generator,
    config: DiceConfig,
    copies: int,
    defocus: float = 0.0,
    mine: bool = False,
):
    """The patches of one render with truth (its corners known): a third of them smeared
    (``smeared``), and ``defocus`` of the rest blurred (``defocused``); with ``mine``, the
    finder's own false dice and the dice it misses there (``MINE``) taught harder."""
    truth = json.loads(path.with_suffix(".json").read_text())
    image = cv2.imread(str(path))
    corners = truth["corners"]
    dice = rendered_dice(path)
    u = rng.random()
    if len(dice) and u < 1 / 3:
        image = smeared(image, rng.uniform(0.2, 1.0) * float(np.median(dice[:, 2])), rng)
    elif u < 1 / 3 + defocus * 2 / 3:
        image = defocused(image, rng)
    cube = truth.get("cube") or {}
    at = None
    if "center" in cube:
        (w,) = face_sides(corners, np.array([cube["center"]]), config.face_of_board)
        at = (*cube["center"], float(w))
        if len(dice):
            under = np.hypot(*(dice[:, :2] - cube["center"]).T) < UNDER_CUBE * w
            dice, at = dice[~under], (None if under.any() else at)
    found, sides = _proposals(image, replace(config, proposal=PROPOSAL), corners)
    proposals = [(p.x, p.y, s) for p, s in zip(found, sides, strict=True)]
    want = face_sides(corners, dice[:, :2], config.face_of_board) if len(dice) else np.zeros(0)
    mined, hard = [], np.zeros(len(dice), bool)
    if mine:
        readings = find_dice(image, replace(config, **MINE), corners)
        if readings:
            xy = np.array([r.center for r in readings])
            side = face_sides(corners, xy, config.face_of_board)
            if len(dice):
                apart = np.hypot(*(xy[:, None] - dice[None, :, :2]).transpose(2, 0, 1))
                hard = (apart / want[None]).min(axis=0) > MINE_FOUND
                far = (apart / side[:, None]).min(axis=1) > MINE_APART
            else:
                far = np.ones(len(readings), bool)
            mined = [(*xy[k], float(side[k])) for k in np.nonzero(far)[0]]
        else:
            hard[:] = True
    hand = "hand" in path.name
    return board_patches(image, dice, want, proposals, rng, copies, at, hand, mined, hard)


def main() -> None:
    import torch

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rendered", type=Path, nargs="+", default=[], help="renders with truth")
    ap.add_argument("--drawn", type=int, default=0, help="this many scenes of drawn dice too")
    ap.add_argument(
        "--patches",
        type=Path,
        nargs="+",
        default=[],
        help="cut patches: all read when every file is stored, else the one file kept",
    )
    ap.add_argument("--cut-only", action="store_true", help="cut and keep the patches, no more")
    ap.add_argument("--epochs", type=int, default=4)
    ap.add_argument("--copies", type=int, default=3, help="patches cut around each true die")
    ap.add_argument("--lr", type=float, default=1e-3, help="peak learning rate")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument(
        "--defocus", type=float, default=0.0, help="share of the renders not smeared blurred"
    )
    ap.add_argument("--mine", action="store_true", help="teach the finder's own mistakes harder")
    ap.add_argument(
        "--init", type=Path, default=dice_patches.WEIGHTS, help="the reader to go on from"
    )
    ap.add_argument("--out", type=Path, default=dice_patches.BOARD_WEIGHTS)
    args = ap.parse_args()
    torch.set_num_threads(1)
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    names = ("x", "y", "box", "cocked", "held")
    if args.patches and all(p.exists() for p in args.patches):
        data = []
        for stored in args.patches:
            with np.load(stored) as z:
                data += list(zip(*(z[k] for k in names), strict=True))
    else:
        if len(args.patches) > 1:
            raise SystemExit("--patches: cut into one file at a time")
        data, t0 = [], time.time()
        paths = [p for folder in args.rendered for p in sorted(folder.glob("*.jpg"))]
        paths = [p for p in paths if p.with_suffix(".json").exists()]
        for n, path in enumerate(paths):
            got = render_items(path, rng, DiceConfig(), args.copies, args.defocus, args.mine)
            data += [(*c, n % 10 == 0) for c in got]
            if (n + 1) % 200 == 0:
                print(f"cut {n + 1}/{len(paths)} renders [{time.time() - t0:.0f} s]", flush=True)
        for n, (image, dice) in enumerate(drawn(args.drawn, args.rendered), start=len(paths)):
            got = board_patches(image, dice, dice[:, 2], [], rng, args.copies)
            data += [(*c, n % 10 == 0) for c in got]
        if args.patches:
            columns = map(np.array, zip(*data, strict=True))
            np.savez(args.patches[0], **dict(zip(names, columns, strict=True)))
    if args.cut_only:
        return
    train_patches(data, args.epochs, rng, args.init, args.lr, args.out)


if __name__ == "__main__":
    main()
