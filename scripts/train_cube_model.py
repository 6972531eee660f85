#!/usr/bin/env python3
"""Train the cube reader's network (``src/nardy/vision/cube_model.npz``) on rendered scenes.

    PYTHONPATH=src python scripts/train_cube_model.py patches DIR... --out PATCHES.npz
    PYTHONPATH=src python scripts/train_cube_model.py train PATCHES.npz... [--epochs 14]

``patches`` turns each render (``NAME.jpg`` + truth, the fixtures' form; never the fixtures) into
the top-down view the reader sees and cuts: the cube, many times, shifted, scaled and turned to
every angle (a real cube lies any way round; the reader also tries four quarter turns) with light,
blur and noise changed; and as "not the cube" the reader's own candidates elsewhere (dice, checker
rims, point tips, the frame's edges). ``train`` fits ``nardy.vision.tinynet``'s network: class 0
"not the cube", 1–6 the faces 2 … 64. Torch on one thread.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

import train_dice_model  # noqa: E402  (beside this script: the network both trainers build)

from nardy.vision import cube as cube_reader  # noqa: E402


def roughen(patch: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Blur and sensor noise on a normalised patch."""
    if rng.random() < 0.35:
        patch = cv2.GaussianBlur(patch, (0, 0), rng.uniform(0.4, 1.1))
    patch = patch + rng.normal(0, rng.uniform(0, 0.1), patch.shape).astype(np.float32)
    return patch.astype(np.float32)


def relight(view: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Another exposure and gamma of the grey view (the patch's own scaling undoes the rest)."""
    gamma = rng.uniform(0.6, 1.6)
    v = (view.astype(np.float32) / 255) ** gamma * rng.uniform(0.7, 1.2) * 255
    return v.clip(0, 255).astype(np.uint8)


def samples(path: Path, rng: np.random.Generator, copies: int, cfg: cube_reader.CubeConfig):
    truth = json.loads(path.read_text())
    if not truth.get("usable", True):
        return
    gray = cv2.imread(str(path.with_name(truth.get("image") or path.stem + ".jpg")), 0)
    if gray is None:
        return
    to_view, size = cube_reader.view_transform(truth["corners"])
    view = cv2.warpPerspective(gray, to_view, size, flags=cv2.INTER_AREA)
    side = cfg.cube * cube_reader.VIEW_W
    win = side * cfg.window
    spots = cube_reader.candidates(view, cfg)
    at = None
    if truth["cube"]:
        c = np.array([[truth["cube"]["center"]]], np.float64)
        at = cv2.perspectiveTransform(c, to_view)[0, 0]
        if not (0 <= at[0] < size[0] and 0 <= at[1] < size[1]):
            return
        centres = [at]
        near = [s for s in spots if np.hypot(s[0] - at[0], s[1] - at[1]) < 0.8 * side]
        centres += near[:1]  # where the reader's own search puts it
        value = cube_reader.FACES.index(truth["cube"]["value"]) + 1
        r = int(win * 1.5)  # a piece of the view around the cube: relit, it stays cheap
        x0, y0 = max(0, int(at[0]) - r), max(0, int(at[1]) - r)
        piece = view[y0 : int(at[1]) + r, x0 : int(at[0]) + r]
        for k in range(copies):
            cx, cy = centres[k % len(centres)]
            dx, dy = rng.uniform(-0.15, 0.15, 2) * side
            v = relight(piece, rng) if rng.random() < 0.5 else piece
            patch = cube_reader.cube_patch(
                v, cx - x0 + dx, cy - y0 + dy, win * rng.uniform(0.85, 1.2), rng.uniform(0, 360)
            )
            yield roughen(patch, rng), value
    for x, y in spots:
        if at is not None and np.hypot(x - at[0], y - at[1]) < 1.1 * side:
            continue
        patch = cube_reader.cube_patch(view, x, y, win * rng.uniform(0.9, 1.1), rng.uniform(0, 360))
        yield roughen(patch, rng), 0


def make_patches(folders: list[Path], out: Path, copies: int, seed: int, match: str) -> None:
    rng = np.random.default_rng(seed)
    cfg = cube_reader.CubeConfig()
    xs, ys = [], []
    files = sorted(f for d in folders for f in d.glob(match))
    for i, f in enumerate(files):
        for patch, label in samples(f, rng, copies, cfg):
            xs.append(patch.astype(np.float16))
            ys.append(label)
        if i % 100 == 0:
            print(f"{i}/{len(files)} images, {len(ys)} patches", flush=True)
    y = np.array(ys, np.int64)
    np.savez_compressed(out, x=np.stack(xs), y=y)
    print(f"wrote {out}: {len(y)} patches, {int((y > 0).sum())} of the cube")


def build_net():
    return train_dice_model.build_net(1 + len(cube_reader.FACES), cube_reader.PATCH)


def train(
    sets: list[Path], epochs: int, seed: int, neg_keep: float = 1.0, init: Path | None = None
) -> None:
    import torch
    from torch import nn

    torch.set_num_threads(1)
    torch.manual_seed(seed)
    loaded = [np.load(s) for s in sets]
    x = torch.tensor(np.concatenate([z["x"] for z in loaded]).astype(np.float32)[:, None])
    y = torch.tensor(np.concatenate([z["y"] for z in loaded]))
    keep = (y > 0) | (torch.rand(len(y)) < neg_keep)  # fewer of the many "not the cube"
    x, y = x[keep], y[keep]
    held = torch.rand(len(y)) < 0.05
    tx, ty, vx, vy = x[~held], y[~held], x[held], y[held]
    print(f"{len(ty)} patches to train on ({int((ty > 0).sum())} cube), {len(vy)} held out")
    net = build_net()
    if init is not None:  # go on from earlier weights: fewer epochs on a busy machine
        with np.load(init) as z:
            net.load_state_dict({k: torch.tensor(z[k].astype(np.float32)) for k in z.files})
    opt = torch.optim.AdamW(net.parameters(), lr=2e-3, weight_decay=1e-4)
    steps = epochs * ((len(tx) + 255) // 256)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=steps)
    weight = torch.tensor([1.0] + [2.0] * len(cube_reader.FACES))  # faces are the rarer class
    for epoch in range(epochs):
        net.train()
        order = torch.randperm(len(tx))
        total = 0.0
        for i in range(0, len(tx), 256):
            idx = order[i : i + 256]
            batch = tx[idx]
            if torch.rand(1) < 0.5:  # a mirror image is no cube face: only flip the background
                keep = ty[idx] == 0
                batch = torch.where(keep[:, None, None, None], batch.flip(3), batch)
            loss = nn.functional.cross_entropy(net(batch), ty[idx], weight=weight)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += float(loss.detach()) * len(idx)
        net.eval()
        with torch.no_grad():
            pred = net(vx).argmax(1)
        cube = vy > 0
        print(
            f"epoch {epoch + 1}: loss {total / len(tx):.4f}; held out: cube found "
            f"{int((pred[cube] > 0).sum())}/{int(cube.sum())}, face right "
            f"{int((pred[cube] == vy[cube]).sum())}, false {int((pred[~cube] > 0).sum())}"
            f"/{int((~cube).sum())}",
            flush=True,
        )
    state = {k: v.detach().numpy().astype(np.float16) for k, v in net.state_dict().items()}
    np.savez_compressed(cube_reader.WEIGHTS, **state)
    print(f"wrote {cube_reader.WEIGHTS}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="step", required=True)
    pa = sub.add_parser("patches")
    pa.add_argument("folders", type=Path, nargs="+")
    pa.add_argument("--out", type=Path, required=True)
    pa.add_argument("--copies", type=int, default=16)
    pa.add_argument("--seed", type=int, default=1)
    pa.add_argument("--match", default="*.json", help="which truth files of the folders")
    tr = sub.add_parser("train")
    tr.add_argument("sets", type=Path, nargs="+")
    tr.add_argument("--epochs", type=int, default=14)
    tr.add_argument("--seed", type=int, default=1)
    tr.add_argument("--neg-keep", type=float, default=1.0, help="share of non-cube patches used")
    tr.add_argument("--init", type=Path, default=None, help="weights (.npz) to start from")
    args = ap.parse_args()
    if args.step == "patches":
        make_patches(args.folders, args.out, args.copies, args.seed, args.match)
    else:
        train(args.sets, args.epochs, args.seed, args.neg_keep, args.init)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
