"""Train the top-face placer (``dice_place.onnx``): where a found die's top face's centre lies,
from the board-plane patch ``dice_place.CONTEXT`` faces wide around where it was found. Needs
PyTorch and ``onnx``, which reading does not.

    PYTHONPATH=src python scripts/train_dice_place.py --rendered DIR [DIR ...] [--epochs 8]

Trained on board renders with truth only (``scripts/make_fixtures.py --prefix``,
``scripts/make_dice_set.py``; never the test fixtures): each die is cut around points off its
true top face's centre, half of them spread over a disc ``--wide`` of a face across and half
mostly near the centre (flat dice ``--copies`` times, cocked ones ``--cocked-copies``), and, in
renders with a cocked die, ``--found`` times around the face the reader finds there
(``find_dice`` told the corners: a cocked die's face is found toward the side face it shows,
0.3-0.7 of a face off in the worst tenth) and ``--placed`` times around where the shipped
placer puts it (``train_dice_tilt.found_cuts``: to learn to move on from its own misses).
Each patch is cut as ``dice_place.place`` cuts it (away from the camera's foot up, give or
take a few degrees, mirrored at random, through the board's plane at proportions a little
off), at a face misjudged by a few per cent; colour, light, blur and noise changed as the
board-plane reader's patches are (``train_dice_tilt``).
The network says how likely the top face's centre lies at each of a ``--grid`` × ``--grid``
grid of places (``dice_place.grid_centre``), learnt against a Gaussian of half a cell round the
true place. It goes on from the board-plane reader (``dice_tilt.onnx``, ``--init``), of its
shape, its last layer made anew for the grid. Every tenth render's patches are held out and
measured after each epoch: how far the placed centre lies from the true one, in faces.
``--cache DIR`` keeps each set's patches.

The shipped ``dice_place.onnx`` (session 14) is this script's defaults, ``--epochs 8`` (seed 0,
``--copies 2 --cocked-copies 6 --found 4 --wide 0.8 --lr 7e-4 --grid 13 --context 2``,
``--shaken 0.1 --defocus 0.05 --recolour 0.2``), on the training renders of the three pools
in this order: ``make_dice_set.py --prefix p12d --count 1200 --cocked 0.6``, ``--prefix p13d
--count 800 --cocked 0.6 --rim-toward 0.2``, ``--prefix p14d --count 800 --cocked 0.8
--rim-toward 0.2``; ``make_fixtures.py --prefix p12k --kinds cocked --repeat 6 --no-clips``
(180), ``--prefix p13k --kinds cocked --repeat 10`` (300), ``--prefix p14k --kinds cocked
--repeat 10`` (300); ``--prefix p12t --repeat 2 --no-clips`` (678), ``--prefix p13t --repeat
2`` (678): 55,500 patches. On the held-out tenth of them a cocked die's face lies 0.050 of a
face from where it places it at the median (the farthest tenth 0.22), a flat one's 0.024
(0.07); on the six sets' other than ``p14``, the board-plane reader's own box 0.090 and 0.052
(0.31, 0.19). On the dice found on
held-out renders (``p12hc``, ``p12h``, ``p14hc``, ``p14h``: 444 cocked, 1,103 flat) a cocked
die's face lies 0.027-0.036 of a face off at the median once placed, 0.045-0.062 re-centred by
the reader (the farthest tenth 0.10-0.14 against 0.15-0.24), and read there 41 of the 444
values are wrong against 53 (``DiceConfig.board_place``: what it does in the whole read).

Tried and not kept, on the same held-out dice (``p12hc``, 128 found cocked dice, re-centred by
the reader: 0.061 off at the median, 0.235 the farthest tenth, 17 misread): the box's centre as
the patch reader's (the network's outputs 7-8, smooth L1), on patches 3 faces wide (48 pixels,
going on from ``dice_patches.onnx``, 6 epochs), 0.088 and 0.244, 23 misread; on patches 2 faces
wide going on from ``dice_tilt.onnx`` (5 epochs), 0.050 and 0.221, 17; this grid without the
``p14`` sets (5 epochs), 0.038 and 0.198, 17. Placed twice, or placed and re-centred by the
reader, placed no nearer and misread as many or more.

Session 17 went on from the shipped placer (``--init src/nardy/vision/dice_place.onnx --lr 2e-4
--epochs 6``, seed 0) on the first 420 renders of ``make_dice_set.py --prefix p17d --count 800
--cocked 0.6 --rim-toward 0.2`` (4,726 patches; the render hung there): on their held-out tenth
a cocked die's face lay 0.046 of a face off at the median (the farthest tenth 0.164) against
the shipped placer's 0.042 (0.150). Held out (p16h, p16hc, p15h, p15hc; 1,560 dice) it found
1,540 with 7 false and read 1,498 right against 1,540, 8, 1,499: not shipped.
The same for ``--epochs 4`` (seed 0, the rest the defaults) on all 800 of ``p17d`` and
``make_fixtures.py --prefix p17t --repeat 2 --no-clips`` (678): 13,308 patches, 2 minutes. On
their held-out tenth a cocked die's face lay 0.039 of a face off at the median (the farthest
tenth 0.19), a flat one's 0.026 (0.07); held out (on main before ``board_cube_apart``) 1,540
found with 11 false and 1,499 right, as the shipped placer (p15h, p15hc, p16h, p16hc: 530, 223,
525, 221 against 528, 223, 527, 221): not shipped.

Session 18 went on from the shipped placer on cocked dice above all: ``make_dice_set.py
--prefix p18cock --count 320 --cocked 0.8 --rim-toward 0.4`` and, lest it forget, ``--prefix
p17d --count 400 --cocked 0.6 --rim-toward 0.2`` (seed 0, the rest the defaults but ``--placed
2``). Of what session 18's main (``58f99b1``) misreads of p16hc's 234 found dice, 6 read right
at the true top face: placed 0.09-0.47 of a face off, four of them a cocked die whose top face
the placer takes for the side face it shows (a white die leaning on the rim toward the camera,
a die on a checker), one a flat die found as one with the other die beside it. ``--init
src/nardy/vision/dice_place.onnx --lr 2e-4 --epochs 4`` (10,976 patches, 7,656 cocked; 100 s):
on their held-out tenth a cocked die's face lay 0.042 of a face off at the median (the farthest
tenth 0.179), a flat one's 0.025 (0.063); held out (``evaluate_dice.py --corners``) p15h,
p15hc, p16h, p16hc read 529, 222, 529, 222 right (1,502) against main's 528, 223, 528, 223
(1,502), false dice 3, 0, 4, 1 as main's: not shipped. The same with ``--lr 5e-4 --epochs 6
--cocked-copies 10`` (13,552 patches, 10,232 cocked; 200 s): on its held-out tenth a cocked die
0.046 off at the median (the farthest tenth 0.248; these cuts reach farther), a flat one 0.025
(0.079); held out 528, 220, 526, 222 right (1,496; p16h found 536 against 537), false dice as
main's: worse, not shipped.
"""

from __future__ import annotations

import argparse
import json
import time
import zlib
from pathlib import Path

import cv2
import numpy as np
from train_dice_reader import (
    onnx_layers,
    optimised,
    patch_net,
    patch_training,
    to_onnx,
    unfolded,
)
from train_dice_tilt import (
    BATCH,
    augmenter,
    cached,
    found_cuts,
    held_out_reads,
    shape_of,
    train_epoch,
    widened_training,
)

from nardy.vision import camera, dice_place, dice_tilt
from nardy.vision.dice import DiceConfig
from nardy.vision.dice_patches import PATCH

FIELDS = ("patches", "at", "cocked", "held")


def near_points(dice: list[dict], rng: np.random.Generator, copies: int, cocked: int, wide: float):
    """(true die, point, face) spread over a disc ``wide`` of a face across each die's top face,
    the face misjudged as the finder misjudges it."""
    out = []
    for d in dice:
        face = float(max(d["box"][2], d["box"][3]))
        if face < 3 or d.get("hidden"):
            continue
        for _ in range(copies if d["flat"] else cocked):
            turn = rng.uniform(0, 2 * np.pi)
            # half as the finder mostly places a face (near it), half anywhere in the disc
            reach = wide * (np.sqrt(rng.random()) if rng.random() < 0.5 else rng.random() ** 2)
            off = reach * np.array([np.cos(turn), np.sin(turn)])
            out.append((d, np.asarray(d["center"]) + off * face, face * np.exp(rng.normal(0, 0.1))))
    return out


def cut_points(
    image, corners, points, rng: np.random.Generator, context: float, spread: float = 0.06
):
    """(patch, where the true centre lies in it, cocked) for each of ``points`` (true die,
    point, face), cut as ``dice_place`` cuts."""
    out = []
    size = (image.shape[1], image.shape[0])
    aspect = DiceConfig().board_aspect
    for d, at, face in points:
        to_board = dice_tilt.to_plane(corners, aspect * np.exp(rng.normal(0, spread)))
        foot = camera.camera_foot(to_board, size)
        up = dice_tilt.away_from(to_board, foot, np.asarray(at)[None])[0] + rng.normal(0, 8.0)
        frame = dice_tilt.patch_frame(
            to_board,
            (float(at[0]), float(at[1])),
            float(face),
            up,
            bool(rng.random() < 0.5),
            context,
        )
        patch = dice_tilt.cut_by(image, frame)
        true = np.asarray(d["center"], np.float64).reshape(1, 1, 2)
        uv = cv2.perspectiveTransform(true, np.linalg.inv(frame)).reshape(2)
        out.append((patch, ((uv - (PATCH - 1) / 2) / PATCH).astype(np.float32), int(not d["flat"])))
    return out


def cut_image(path: Path, rng: np.random.Generator, args) -> list:
    """The patches of one render."""
    truth = json.loads(path.with_suffix(".json").read_text())
    image = cv2.imread(str(path))
    dice = truth.get("dice", [])
    points = near_points(dice, rng, args.copies, args.cocked_copies, args.wide)
    if (args.found or args.placed) and not all(d["flat"] for d in dice):
        points += found_cuts(image, truth, rng, args.found, args.placed)
    return cut_points(image, np.asarray(truth["corners"], np.float64), points, rng, args.context)


def cut_set(folder: Path, args) -> dict:
    """The patches of one folder of renders, every tenth render's held out, cut with a
    generator of their own and kept in ``--cache``."""
    paths = [p for p in sorted(folder.glob("*.jpg")) if p.with_suffix(".json").exists()]
    how = (args.seed, args.copies, args.cocked_copies, args.wide, args.found, args.context, 2)
    if args.placed:  # (the key of the sets cut before ``--placed`` as it was)
        how += (args.placed,)
    key = f"{paths[0].stem}-{len(paths)}-{zlib.crc32(repr(how).encode()):08x}" if paths else ""

    def make() -> dict:
        rng = np.random.default_rng([args.seed, zlib.crc32(key.encode())])
        cuts, held = [], []
        t0 = time.time()
        for n, p in enumerate(paths):
            got = cut_image(p, rng, args)
            cuts += got
            held += [n % 10 == 0] * len(got)
        print(f"cut {len(paths)} images of {folder}: {len(cuts)} [{time.time() - t0:.0f} s]")
        return {
            "patches": np.stack([c[0] for c in cuts]) if cuts else np.zeros((0, PATCH, PATCH, 3)),
            "at": np.stack([c[1] for c in cuts]) if cuts else np.zeros((0, 2), np.float32),
            "cocked": np.array([c[2] for c in cuts], np.int64),
            "held": np.array(held, bool),
        }

    return cached(args.cache if paths else None, key, make)


def placer_training(init: Path, lr: float, steps: int):
    """A placer going on from the placer ``init`` (its grid's last layer too, not made anew),
    its batch norms the identity they were folded into; its optimiser and schedule."""
    from torch import nn

    convs, hidden = shape_of(init)
    net = patch_net(convs, hidden)
    net.fc2 = nn.Linear(hidden, len(onnx_layers(init)[-1][1]))
    unfolded(net, init)
    return optimised(net, lr, steps)


def train(data: dict, args, rng: np.random.Generator) -> None:
    """Go on from ``--init`` (its batch norms held as the identity they were folded into): a
    patch reader's layers with a grid's last layer made anew, or a placer's (of ``--grid``)
    as it is."""
    import torch
    from torch import nn

    pats, held = data["patches"], data["held"]
    at = torch.tensor(data["at"].astype(np.float32))
    cocked = torch.tensor(data["cocked"].astype(np.float32))
    train_idx, test_idx = np.nonzero(~held)[0], np.nonzero(held)[0]
    print(f"{len(pats)} patches ({len(test_idx)} held out), {int(cocked.sum())} cocked")
    steps = args.epochs * ((len(train_idx) + BATCH - 1) // BATCH)
    init = None if str(args.init) == "none" else args.init
    g = args.grid  # a grid of places instead of the box's centre, the rest as it was
    cells = torch.linspace(-dice_place.REACH, dice_place.REACH, g)
    if init is not None and len(onnx_layers(init)[-1][1]) == g * g:  # a placer: all of it
        net, opt, sched = placer_training(init, args.lr, steps)
    else:
        if init is None:
            net, opt, sched = patch_training(None, args.lr, steps)
        else:  # of the shape of the reader it goes on from
            net, opt, sched = widened_training(init, args.lr, steps, *shape_of(init))
        net.fc2 = nn.Linear(net.fc2.in_features, g * g)
        net, opt, sched = optimised(net, args.lr, steps)

    def grid_loss(pred, ti, _patches):
        """Cross-entropy against a Gaussian of half a cell round each patch's true place."""
        target = at[ti]
        cell = float(cells[1] - cells[0])
        dx = (cells[None, :] - target[:, :1]) / (0.5 * cell)
        dy = (cells[None, :] - target[:, 1:]) / (0.5 * cell)
        w = torch.exp(-0.5 * (dy[:, :, None] ** 2 + dx[:, None, :] ** 2)).reshape(len(target), -1)
        w = w / w.sum(dim=1, keepdim=True).clamp_min(1e-12)
        return -(w * nn.functional.log_softmax(pred, dim=1)).sum(dim=1).mean()

    augmented = augmenter(pats, rng, (args.shaken, args.defocus), args.recolour)

    face = 1.0 / args.context  # a top face, of the patch's side
    t0 = time.time()
    for epoch in range(args.epochs):
        order = rng.permutation(train_idx)
        mean = train_epoch(net, opt, sched, order, augmented, grid_loss, init is not None)
        pred = held_out_reads(net, pats, test_idx)
        ti = torch.tensor(test_idx)
        placed = torch.tensor(dice_place.grid_centre(pred.numpy()), dtype=torch.float32)
        miss = ((placed - at[ti]).norm(dim=1) / face).numpy()
        was = (at[ti].norm(dim=1) / face).numpy()
        ck = cocked[ti].numpy() > 0.5
        figures = "; ".join(
            f"{name} {int(m.sum())}: off {np.median(was[m]):.3f} -> {np.median(miss[m]):.3f}, "
            f"tenth {np.percentile(was[m], 90):.3f} -> {np.percentile(miss[m], 90):.3f}"
            for name, m in (("flat", ~ck), ("cocked", ck))
            if m.any()
        )
        print(
            f"epoch {epoch + 1}: loss {mean:.4f}; held out, in faces: {figures} "
            f"[{time.time() - t0:.0f} s]",
            flush=True,
        )
        to_onnx(net, args.out, (2, 3, PATCH, PATCH), {0: "n"})
    print(f"wrote {args.out}")


def main() -> None:
    import torch

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rendered", type=Path, nargs="+", required=True, help="folders of renders")
    ap.add_argument("--epochs", type=int, default=8)
    ap.add_argument("--copies", type=int, default=2, help="points around each flat die")
    ap.add_argument("--cocked-copies", type=int, default=6, help="... and each cocked die")
    ap.add_argument("--wide", type=float, default=0.8, help="... over a disc this wide (faces)")
    ap.add_argument("--found", type=int, default=4, help="points around each die found, if cocked")
    ap.add_argument(
        "--placed", type=int, default=0, help="... and around where the placer puts it, if cocked"
    )
    ap.add_argument("--lr", type=float, default=7e-4)
    ap.add_argument("--init", type=Path, default=dice_tilt.WEIGHTS)
    ap.add_argument(
        "--context", type=float, default=dice_place.CONTEXT, help="patch side, in top faces"
    )
    ap.add_argument("--shaken", type=float, default=0.1, help="share of patches smeared")
    ap.add_argument("--defocus", type=float, default=0.05, help="share of patches out of focus")
    ap.add_argument("--recolour", type=float, default=0.2, help="share of patches recoloured")
    ap.add_argument("--grid", type=int, default=13, help="places along a side of the grid")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--cache", type=Path, help="folder to keep each set's cut patches in")
    ap.add_argument("--out", type=Path, default=dice_place.WEIGHTS)
    args = ap.parse_args()
    torch.set_num_threads(1)
    cv2.setNumThreads(1)
    torch.manual_seed(args.seed)
    sets = [cut_set(folder, args) for folder in args.rendered]
    data = {k: np.concatenate([s[k] for s in sets if len(s["at"])]) for k in FIELDS}
    train(data, args, np.random.default_rng(args.seed))


if __name__ == "__main__":
    main()
