#!/usr/bin/env python3
"""Train the network of ``nardy.vision.sides`` (which row is light's) on positions drawn as the
renderer draws them (``nardy.synth.positions``), laid on the board all four ways round, with
misread points mixed in as the board reader makes them. A minute on one core.

    PYTHONPATH=src python scripts/train_sides_model.py [--count 200000] [--epochs 30]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
import torch

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from nardy.synth import positions  # noqa: E402
from nardy.vision import sides  # noqa: E402

KIND_P = [0.12, 0.1, 0.3, 0.22, 0.13, 0.13]  # as random_scene draws them


def misread(pts: list[int], rng: np.random.Generator) -> list[int]:
    """A few points read one checker too many or too few, as the board reader does."""
    out = list(pts)
    for i in rng.choice(24, size=int(rng.integers(0, 4)), replace=False):
        sign = np.sign(out[i]) or (1 if rng.random() < 0.5 else -1)
        out[i] = int(sign * max(0, abs(out[i]) + int(rng.choice([-1, 1]))))
    return out


def sample(rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray]:
    xs, ys = [], []
    for _ in range(n):
        kind = str(rng.choice(positions.KINDS, p=KIND_P))
        counts, _ = positions.make(kind, rng)
        k = int(rng.integers(4))
        pts, bar, off = positions.orient(counts, k)
        if rng.random() < 0.5:
            pts = tuple(misread(list(pts), rng))
        tray = off if rng.random() < 0.8 else None
        xs.append(sides.features(pts, bar, tray))
        ys.append(float(positions.ORIENTS[k](1) <= 12))
    return np.stack(xs), np.asarray(ys, np.float32)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=200_000)
    ap.add_argument("--epochs", type=int, default=30)
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args()
    torch.set_num_threads(1)
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    x, y = sample(rng, args.count)
    vx, vy = sample(np.random.default_rng(args.seed + 1), 20_000)
    net = torch.nn.Sequential(
        torch.nn.Linear(x.shape[1], 64),
        torch.nn.ReLU(),
        torch.nn.Linear(64, 32),
        torch.nn.ReLU(),
        torch.nn.Linear(32, 1),
    )
    opt = torch.optim.Adam(net.parameters(), lr=2e-3, weight_decay=1e-5)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, args.epochs)
    tx, ty = torch.from_numpy(x), torch.from_numpy(y)
    for epoch in range(args.epochs):
        net.train()
        for idx in torch.randperm(len(tx)).split(512):
            loss = torch.nn.functional.binary_cross_entropy_with_logits(net(tx[idx])[:, 0], ty[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
        sched.step()
        net.eval()
        with torch.no_grad():
            acc = ((net(torch.from_numpy(vx))[:, 0] > 0).numpy() == (vy > 0.5)).mean()
        print(f"epoch {epoch + 1}: loss {loss.item():.3f}, held-out right {100 * acc:.1f} %")
    names = {"0": "fc1", "2": "fc2", "4": "fc3"}
    weights = {
        f"{names[k.split('.')[0]]}.{k.split('.')[1]}": v.detach().numpy().astype(np.float32)
        for k, v in net.state_dict().items()
    }
    np.savez_compressed(sides.WEIGHTS, **weights)
    sides._weights.cache_clear()
    p = sides.p_light_bottom(vx)
    print(f"numpy reader held-out right: {100 * ((p > 0.5) == (vy > 0.5)).mean():.1f} %")
    for kind in positions.KINDS:
        r = np.random.default_rng(args.seed + 2)
        kx, ky = [], []
        for _ in range(2000):
            counts, _ = positions.make(kind, r)
            k = int(r.integers(4))
            pts, bar, off = positions.orient(counts, k)
            kx.append(sides.features(pts, bar, off))
            ky.append(positions.ORIENTS[k](1) <= 12)
        right = ((sides.p_light_bottom(np.stack(kx)) > 0.5) == np.asarray(ky)).mean()
        print(f"  {kind:18s} {100 * right:.1f} %")
    print(f"wrote {sides.WEIGHTS}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
