#!/usr/bin/env python3
"""Train the tall-stack network (``src/nardy/vision/checker_tall_model.npz``): it counts the
checkers on a point the other networks call tall, from a tile sampled at twice their
resolution each way (``nardy.vision.tall``), near the photo's own.

    PYTHONPATH=src python scripts/train_tall_model.py collect /work/cache/train/boards \\
        /work/cache/counts/tall /work/cache/counts5/heads /work/cache/points/boards \\
        --out /work/cache/stacks7/tall.npz
    PYTHONPATH=src python scripts/train_tall_model.py train /work/cache/stacks7/tall.npz \\
        --epochs 14 --out /work/cache/stacks7/tall_v1.npz
    PYTHONPATH=src python scripts/train_tall_model.py train /work/cache/stacks7/tall.npz \\
        --init /work/cache/stacks7/tall_v1.npz --epochs 6 \\
        --out src/nardy/vision/checker_tall_model.npz

(Those were session 7's weights. The shipped weights train on from them, on the points read
unsurely as well, whatever their count, so the reader can ask the tall network about any
point the others doubt (``VisionConfig.tall_unsure``): a head dark on dark they take for an
empty point, a die they take for a checker:

    PYTHONPATH=src python scripts/make_fixtures.py --prefix p10a --repeat 3 --no-clips \
        --kinds nardy-start,stacks,dark-on-dark,cocked,nardy-mid --out /work/cache/points10/r1
    PYTHONPATH=src python scripts/train_tall_model.py collect /work/cache/train/boards \
        /work/cache/counts/tall /work/cache/counts5/heads /work/cache/points/boards \
        /work/cache/counts4/dice /work/cache/points8/among /work/cache/points10/r1/boards \
        --doubt 0.99 --out /work/cache/points10/tall10.npz
    PYTHONPATH=src python scripts/train_tall_model.py train /work/cache/points10/tall10.npz \
        --init src/nardy/vision/checker_tall_model.npz --epochs 8 --lr 1e-3 \
        --out src/nardy/vision/checker_tall_model.npz

the render stopped after its first 161 images. On the 3,952 held-out tiles (group 0): 100
counts wrong, the fast and fine networks' reading 137.)

Two steps, the first cached:

1. ``collect``: every usable training image (rendered with seeds no fixture uses; the folders
   of ``train_point_model.py``'s renders, tall stacks and heads among them) read as the reader
   reads a frame, twice (true corners, then moved a few pixels as a real calibration errs):
   the fast and fine networks' reading of each point (``read_tiles``), and, for every point
   that reading or the truth calls ``--from`` high or more (or that it or the fast network
   reads less surely than ``--doubt``), the fine tile at twice the resolution with the
   same levels. Kept with the truth, the reading's probabilities (so the routing and how to
   agree the two readings are chosen later without reading again) and the
   image's group (a tenth, by name, is held out).
2. ``train`` (PyTorch, CPU, one thread): a network of ``tinynet``'s shape with four
   convolutions, the batches varied as ``train_point_model.augment`` varies them (light,
   colour, other colours, blur, noise, mirror), counts drawn about equally often. One head
   says the count (0–15), the other light or dark.

The fixtures in ``tests/fixtures`` are never trained on, only measured.
"""

from __future__ import annotations

import argparse
import sys
import time
import zlib
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "scripts"))

from train_point_model import (  # noqa: E402
    augment,
    count_colour_loss,
    export,
    labels,
    rendered,
    step,
)

from nardy.calibration import BoardProfile, ProfileError  # noqa: E402
from nardy.calibration.geometry import GeometryError  # noqa: E402
from nardy.calibration.measure import measure_geometry  # noqa: E402
from nardy.vision.checkers import MOST, read_tiles, read_with, tile_kinds  # noqa: E402
from nardy.vision.config import VisionConfig  # noqa: E402
from nardy.vision.sampler import Sampler  # noqa: E402
from nardy.vision.tall import TALL_WEIGHTS, TallSampler, tall_input  # noqa: E402


def collect(
    folders: list[Path], out: Path, versions: int, jitter: float, least: int, doubt: float
) -> None:
    config = VisionConfig()
    keep: dict[str, list] = {
        k: [] for k in ("x", "count", "colour", "read_p", "fast_p", "group", "name", "point")
    }
    t0 = time.time()
    for i, (name, image, truth) in enumerate(rendered(folders, set())):
        size = (image.shape[1], image.shape[0])
        true_corners = np.asarray(truth["corners"], float)
        scale = np.linalg.norm(true_corners[1] - true_corners[0])
        rng = np.random.default_rng(zlib.crc32(name.encode()))
        try:
            geometry = measure_geometry(image, true_corners)
        except (ProfileError, GeometryError):
            continue
        count, colour = labels(truth, 26, False)
        for v in range(versions):
            corners = true_corners + (v > 0) * rng.normal(0, jitter * scale, (4, 2))
            try:
                profile = BoardProfile.from_corners(corners, size, geometry)
            except ProfileError:
                continue
            tiles = Sampler(profile, config).sample(image)
            checker_tiles = tiles.checker_tiles()
            read = read_tiles(checker_tiles, config=config)
            fast = read_with(checker_tiles[:24], tile_kinds(24), Path(_fast_weights()), fine=False)
            tall = (read.counts[:24] >= least) | (count[:24] >= least) | (fast.counts >= least)
            unsure = (read.count_p[:24].max(axis=1) < doubt) | (fast.count_p.max(axis=1) < doubt)
            chosen = np.flatnonzero(tall | unsure)
            if not len(chosen):
                continue
            close = TallSampler(profile, config).sample(image, chosen, tiles.levels)
            keep["x"].append(close)
            keep["count"].append(count[chosen])
            keep["colour"].append(colour[chosen])
            keep["read_p"].append(read.count_p[chosen].astype(np.float32))
            keep["fast_p"].append(fast.count_p[chosen].astype(np.float32))
            keep["group"].append(np.full(len(chosen), zlib.crc32(name.encode()) % 10))
            keep["name"].append(np.full(len(chosen), name))
            keep["point"].append(chosen + 1)
        if i % 20 == 0:
            n = sum(len(c) for c in keep["count"])
            print(f"\r{i + 1} images, {n} tiles, {time.time() - t0:.0f} s", end="", flush=True)
    print()
    np.savez(out, **{k: np.concatenate(v) for k, v in keep.items()})


def _fast_weights() -> str:
    from nardy.vision.checkers import WEIGHTS

    return str(WEIGHTS)


def build_model(channels: tuple[int, ...], hidden: int, tile: tuple[int, int]):
    """Convolutions (3 × 3, ReLU, 2 × 2 max-pool each) and two dense layers: ``tinynet``'s
    patch classifier, without the kind of tile (every tile here is a point)."""
    import torch
    from torch import nn

    class Net(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            before = 3
            for i, c in enumerate(channels, 1):
                setattr(self, f"conv{i}", nn.Conv2d(before, c, 3, padding=1))
                before = c
            shrink = 2 ** len(channels)
            self.fc1 = nn.Linear(before * (tile[0] // shrink) * (tile[1] // shrink), hidden)
            self.fc2 = nn.Linear(hidden, MOST + 3)

        def forward(self, x):
            for i in range(1, len(channels) + 1):
                x = torch.max_pool2d(torch.relu(getattr(self, f"conv{i}")(x)), 2)
            return self.fc2(torch.relu(self.fc1(x.flatten(1))))

    return Net()


def train(args: argparse.Namespace) -> None:
    import torch

    torch.set_num_threads(1)
    torch.manual_seed(args.seed)
    gen = torch.Generator().manual_seed(args.seed)
    data = dict(np.load(args.tiles))
    x_all = data["x"]
    held = data["group"] == 0
    tr, va = np.flatnonzero(~held), np.flatnonzero(held)
    hist = np.bincount(data["count"][tr], minlength=MOST + 1)
    print(f"tiles: {len(tr)} training, {len(va)} held out; counts {hist.tolist()}")
    model = build_model(tuple(args.channels), args.hidden, x_all.shape[1:3])
    if args.init:
        with np.load(args.init) as z:
            model.load_state_dict({k: torch.from_numpy(z[k].astype(np.float32)) for k in z.files})
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=1e-4)
    steps = args.epochs * (args.samples // args.batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, args.lr, total_steps=steps)

    def tensors(idx):
        x = torch.from_numpy(tall_input(x_all[idx])).permute(0, 3, 1, 2).contiguous()
        return x, torch.from_numpy(data["count"][idx]), torch.from_numpy(data["colour"][idx])

    counts = data["count"][tr]
    weight = 1.0 / np.maximum(np.bincount(counts, minlength=MOST + 1), 30)[counts]
    weight /= weight.sum()
    rng = np.random.default_rng(args.seed)
    t0 = time.time()
    for epoch in range(args.epochs):
        model.train()
        order = rng.choice(tr, size=(args.samples // args.batch, args.batch), p=weight)
        total = 0.0
        for idx in order:
            x, count, colour = tensors(np.sort(idx))
            out = model(augment(x, gen, recolour=args.recolour))
            total += step(opt, sched, count_colour_loss(out, count, colour, smoothing=0.02))
        print(
            f"epoch {epoch + 1}: loss {total / len(order):.4f}, "
            f"held out {held_out(model, tensors, va, data)}, {time.time() - t0:.0f} s",
            flush=True,
        )
        export(model, args.out)
    print(f"wrote {args.out}")


def held_out(model, tensors, idx: np.ndarray, data) -> str:
    """Counts wrong on the held-out tiles, the new network's and the reading's it replaces."""
    import torch

    model.eval()
    mine = 0
    with torch.no_grad():
        for chunk in np.array_split(idx, max(1, len(idx) // 1024)):
            x, count, _ = tensors(chunk)
            mine += int((model(x)[:, : MOST + 1].argmax(1) != count).sum())
    theirs = int((data["read_p"][idx].argmax(1) != data["count"][idx]).sum())
    return f"{mine} wrong (the reading: {theirs}) of {len(idx)}"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="step", required=True)
    c = sub.add_parser("collect", help="step 1: the tiles of training renders")
    c.add_argument("folders", type=Path, nargs="+", help="training images with truth JSON")
    c.add_argument("--out", type=Path, required=True, help="the tiles (.npz)")
    c.add_argument("--versions", type=int, default=2, help="reads of each image")
    c.add_argument("--jitter", type=float, default=0.005, help="corner noise, surface widths")
    c.add_argument("--from", dest="least", type=int, default=4, help="tiles this tall or more")
    c.add_argument(
        "--doubt", type=float, default=0.0, help="and the points read less surely than this"
    )
    t = sub.add_parser("train", help="step 2")
    t.add_argument("tiles", type=Path)
    t.add_argument("--epochs", type=int, default=14)
    t.add_argument("--batch", type=int, default=64)
    t.add_argument("--samples", type=int, default=16000, help="tiles drawn in an epoch")
    t.add_argument("--lr", type=float, default=2e-3)
    t.add_argument("--channels", type=int, nargs="+", default=[12, 24, 32, 48])
    t.add_argument("--hidden", type=int, default=96)
    t.add_argument("--recolour", type=float, default=0.3, help="share in other colours")
    t.add_argument("--seed", type=int, default=3)
    t.add_argument("--init", type=Path, help="start from these weights (.npz)")
    t.add_argument("--out", type=Path, default=TALL_WEIGHTS)
    args = ap.parse_args()
    if args.step == "collect":
        collect(args.folders, args.out, args.versions, args.jitter, args.least, args.doubt)
    else:
        train(args)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
