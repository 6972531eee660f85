"""Train the corner refiner (``src/nardy/calibration/corner_patch.npz``) on CPU. Needs PyTorch,
which reading does not.

    PYTHONPATH=src python scripts/train_corner_patch.py --rendered DIR [DIR ...] [--steps N]

Trained on board images rendered by ``nardy.synth`` from seeds of their own
(``scripts/make_fixtures.py --prefix``), never the test fixtures. Round each true inner corner
of the frame a square half the board's width across is kept, mirrored so every corner lies as
the top-left one does; patches are cut from it off-centre (as far as the corner map errs and
more), turned, scaled, their colours shuffled and their light, blur and noise changed.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from train_corner_map import fit, net_of, save, targets
from train_dice_reader import colour

from nardy.calibration import corner_patch
from nardy.calibration.corner_map import decode
from nardy.vision import tinynet

#: in, out channels, stride, dilation of each convolution (its reach: about 70 patch pixels)
ARCH = [(3, 16, 2, 1), (16, 24, 2, 1), (24, 24, 1, 1), (24, 24, 1, 2), (24, 24, 1, 4)]
ARCH += [(24, 24, 1, 1)]
KEEP = 2 * corner_patch.PATCH  # the square kept round each corner: half the board's width
SHIFT = 0.12  # patches are cut this far (share of the board's width) off the corner at most


def regions(folders: list[Path]) -> np.ndarray:
    """(N, KEEP, KEEP, 3): the square round each true corner, mirrored to lie as TL does."""
    out = []
    for folder in folders:
        for path in sorted(folder.glob("*.json")):
            truth = json.loads(path.read_text())
            image = cv2.imread(str(path.with_name(truth.get("image") or path.stem + ".jpg")))
            if image is None or "corners" not in truth:
                continue
            quad = np.asarray(truth["corners"], float)
            width = corner_patch.board_width(quad)
            for k, c in enumerate(quad):
                out.append(corner_patch.cut(image, c, k, 2 * corner_patch.SPAN * width, KEEP))
    return np.stack(out)


def sample(region: np.ndarray, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """A patch (3, PATCH, PATCH) cut off-centre from a kept square, and where the corner lies
    in it (patch pixels)."""
    p = corner_patch.PATCH
    centre = (KEEP - 1) / 2
    shift = rng.uniform(-1, 1, 2) * SHIFT * KEEP / (2 * corner_patch.SPAN)
    if rng.random() < 0.3:
        shift *= 0.25  # the second look starts close
    k = np.exp(rng.uniform(-0.2, 0.2))
    m = cv2.getRotationMatrix2D((centre + shift[0], centre + shift[1]), rng.uniform(-20, 20), k)
    m[:, 2] += (p - 1) / 2 - (centre + shift)
    border = cv2.BORDER_REFLECT_101 if rng.random() < 0.5 else cv2.BORDER_REPLICATE
    out = cv2.warpAffine(region, m, (p, p), flags=cv2.INTER_LINEAR, borderMode=border)
    at = m @ np.array([centre, centre, 1.0])
    x = tinynet.map_input(colour(out, rng).astype(np.uint8))
    return x.transpose(2, 0, 1).copy(), at


def batch_of(kept: np.ndarray, pool: np.ndarray, rng: np.random.Generator, n: int):
    import torch

    g = corner_patch.PATCH // corner_patch.STRIDE
    xs, hs, os_, ms, ats = [], [], [], [], []
    for i in rng.choice(pool, n):
        x, at = sample(kept[i], rng)
        heat, off, mask = targets(at[None], g, g, corner_patch.STRIDE)
        xs.append(x)
        hs.append(heat)
        os_.append(off)
        ms.append(mask)
        ats.append(at)
    return (*(torch.tensor(np.stack(a)) for a in (xs, hs, os_, ms)), np.stack(ats))


def main() -> None:
    import torch

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rendered", type=Path, nargs="+", required=True, help="training renders")
    ap.add_argument("--steps", type=int, default=2400)
    ap.add_argument("--batch", type=int, default=48)
    ap.add_argument("--out", type=Path, default=corner_patch.WEIGHTS)
    ap.add_argument("--keep", type=Path, help="keep the squares cut round the corners here (.npy)")
    args = ap.parse_args()
    torch.set_num_threads(1)
    torch.manual_seed(0)
    rng = np.random.default_rng(0)
    if args.keep and args.keep.exists():
        kept = np.load(args.keep)
    else:
        kept = regions(args.rendered)
        if args.keep:
            np.save(args.keep, kept)
    order = rng.permutation(len(kept))
    val, train = order[:256], order[256:]
    print(f"{len(train)} corners to learn from, {len(val)} held back", flush=True)
    vx, *_, vat = batch_of(kept, val, np.random.default_rng(1), len(val))

    def held_back(net) -> str:
        out = net(vx).numpy().transpose(0, 2, 3, 1)
        got = np.array([decode(o, corner_patch.STRIDE)[0][0] for o in out])
        err = np.linalg.norm(got - vat, axis=1)
        share = err * corner_patch.SPAN / corner_patch.PATCH
        return (
            f"median {np.median(err):.2f} patch px, "
            f"within 0.5 % of the width {np.mean(share < 0.005):.3f}"
        )

    fit(
        net_of(ARCH, 3),
        lambda: batch_of(kept, train, rng, args.batch),
        args.steps,
        held_back,
        lambda net: save(net, args.out, ARCH),
    )


if __name__ == "__main__":
    main()
