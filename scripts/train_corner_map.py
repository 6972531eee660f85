"""Train the corner map (``src/nardy/calibration/corner_map.npz``) on CPU. Needs PyTorch, which
reading does not.

    PYTHONPATH=src python scripts/train_corner_map.py --rendered DIR [DIR ...] [--steps N]

Trained on board images rendered by ``nardy.synth`` from seeds of their own
(``scripts/make_fixtures.py --prefix``), never the test fixtures; their truth gives the inner
corners of the frame. Each photo is seen turned (so boards lie up to about 35° off), shifted,
scaled, mirrored either way, cut to other shapes than 16:9, its colours shuffled and its light,
blur and noise changed, so the map holds on boards and cameras it has never seen.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from train_dice_reader import colour

from nardy.calibration import corner_map
from nardy.vision import tinynet

STORE = 512  # photos are kept this wide in memory; crops are cut from them
#: in, out channels, stride, dilation of each convolution (its reach: about 280 input pixels)
ARCH = [(3, 16, 2, 1), (16, 32, 2, 1), (32, 32, 1, 1), (32, 32, 2, 1), (32, 32, 1, 2)]
ARCH += [(32, 32, 1, 4), (32, 32, 1, 8), (32, 32, 1, 1)]
HEIGHTS = (144, 144, 160, 192)  # crop heights for a 256-wide input (16:9 to 4:3)
SIGMA = 1.0  # the target's spread round the true cell, in cells


def load(folders: list[Path]) -> tuple[np.ndarray, np.ndarray]:
    """Photos (N, h, STORE, 3) and their corners (N, 4, 2) in the kept photos' pixels."""
    images, corners = [], []
    for folder in folders:
        for path in sorted(folder.glob("*.json")):
            truth = json.loads(path.read_text())
            image = cv2.imread(str(path.with_name(truth.get("image") or path.stem + ".jpg")))
            if image is None or "corners" not in truth:
                continue
            h, w = image.shape[:2]
            s = STORE / w
            images.append(cv2.resize(image, (STORE, round(h * s)), interpolation=cv2.INTER_AREA))
            corners.append((np.asarray(truth["corners"], float) + 0.5) * s - 0.5)
    return np.stack(images), np.stack(corners)


def image_order(quad: np.ndarray) -> np.ndarray:
    """The four points as TL, TR, BR, BL of the image: clockwise round their middle, starting
    where that order best fits the four diagonal directions."""
    d = quad - quad.mean(axis=0)
    angle = np.arctan2(d[:, 1], d[:, 0])
    q = quad[np.argsort(angle)]
    ang = np.sort(angle)
    want = np.radians([-135, -45, 45, 135])
    best = min(
        range(4),
        key=lambda k: np.abs(np.angle(np.exp(1j * (np.roll(ang, -k) - want)))).sum(),
    )
    return np.roll(q, -best, axis=0)


def crop(image: np.ndarray, quad: np.ndarray, height: int, rng: np.random.Generator):
    """One training input (3, height, WIDTH) and its corners (4, 2) in input pixels."""
    w_out = corner_map.WIDTH
    w = image.shape[1]
    centre = quad.mean(axis=0) + rng.normal(0, 0.04, 2) * w
    angle = rng.uniform(-15, 15) if rng.random() < 0.8 else 0.0
    board_w = np.linalg.norm(quad[1] - quad[0])
    # the board from about 0.4 to 0.85 of the input's width
    k = np.exp(rng.uniform(np.log(0.4), np.log(0.85))) * w_out / board_w
    m = cv2.getRotationMatrix2D((float(centre[0]), float(centre[1])), angle, k)
    m[:, 2] += np.array([w_out / 2, height / 2]) - centre
    if rng.random() < 0.5:
        m[0] = -m[0]
        m[0, 2] += w_out - 1
    if rng.random() < 0.3:
        m[1] = -m[1]
        m[1, 2] += height - 1
    border = cv2.BORDER_REFLECT_101 if rng.random() < 0.5 else cv2.BORDER_REPLICATE
    out = cv2.warpAffine(image, m, (w_out, height), flags=cv2.INTER_AREA, borderMode=border)
    pts = quad @ m[:, :2].T + m[:, 2]
    x = tinynet.map_input(colour(out, rng).astype(np.uint8))
    return x.transpose(2, 0, 1).copy(), image_order(pts)


def targets(pts: np.ndarray, gh: int, gw: int, stride: int = corner_map.STRIDE):
    """For n points: soft cell targets (n, gh, gw), offsets (2n, gh, gw) and their mask."""
    n = len(pts)
    heat = np.zeros((n, gh, gw), np.float32)
    off = np.zeros((2 * n, gh, gw), np.float32)
    mask = np.zeros((2 * n, gh, gw), np.float32)
    yy, xx = np.mgrid[0:gh, 0:gw]
    for k, (x, y) in enumerate(pts):
        u = (x + 0.5) / stride - 0.5
        v = (y + 0.5) / stride - 0.5
        uc, vc = float(np.clip(u, 0, gw - 1)), float(np.clip(v, 0, gh - 1))
        g = np.exp(-((xx - uc) ** 2 + (yy - vc) ** 2) / (2 * SIGMA**2))
        heat[k] = g / g.sum()
        j0, i0 = round(uc), round(vc)
        for i in range(max(i0 - 1, 0), min(i0 + 2, gh)):
            for j in range(max(j0 - 1, 0), min(j0 + 2, gw)):
                off[2 * k, i, j] = u - j
                off[2 * k + 1, i, j] = v - i
                mask[2 * k : 2 * k + 2, i, j] = 1.0
    return heat, off, mask


def batch_of(images, quads, pool: np.ndarray, n: int, rng):
    import torch

    height = int(rng.choice(HEIGHTS))
    gh, gw = height // corner_map.STRIDE, corner_map.WIDTH // corner_map.STRIDE
    xs, hs, os_, ms = [], [], [], []
    for idx in rng.choice(pool, size=n):
        x, pts = crop(images[idx], quads[idx], height, rng)
        heat, off, mask = targets(pts, gh, gw)
        xs.append(x)
        hs.append(heat)
        os_.append(off)
        ms.append(mask)
    return tuple(torch.tensor(np.stack(a)) for a in (xs, hs, os_, ms))


def net_of(arch=ARCH, outputs: int = 12):
    """The chain of convolutions ``tinynet.fcn`` runs: ``arch`` rows (in, out, stride,
    dilation), ReLU between, a 1×1 head of ``outputs`` channels."""
    from torch import nn

    class CornerMap(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.body = nn.ModuleList(
                nn.Conv2d(cin, cout, 3, stride=s, padding=d, dilation=d) for cin, cout, s, d in arch
            )
            self.head = nn.Conv2d(arch[-1][1], outputs, 1)

        def forward(self, x):
            for conv in self.body:
                x = nn.functional.relu(conv(x))
            return self.head(x)

    return CornerMap()


def loss_of(out, heat, off, mask):
    import torch

    n, k = heat.shape[:2]
    logp = torch.log_softmax(out[:, :k].reshape(n, k, -1), dim=2)
    place = -(heat.reshape(n, k, -1) * logp).sum(dim=2).mean()
    m = mask > 0
    where = torch.nn.functional.smooth_l1_loss(out[:, k:][m], off[m], beta=0.1)
    return place + 2.0 * where


def error_px(out, quads_in) -> np.ndarray:
    """Each input's worst corner error, in input pixels."""
    errs = []
    for o, q in zip(out.detach().numpy().transpose(0, 2, 3, 1), quads_in, strict=True):
        found, _ = corner_map.decode(o)
        errs.append(np.linalg.norm(found - q, axis=1).max())
    return np.array(errs)


def save(net, path: Path, arch=ARCH) -> None:
    state = {k: v.detach().numpy().astype(np.float16) for k, v in net.state_dict().items()}
    state["arch"] = np.array([(s, d) for _, _, s, d in arch], np.int8)
    np.savez_compressed(path, **state)
    print(f"wrote {path}", flush=True)


def fit(net, batch: Callable[[], tuple], steps: int, held_back, write) -> None:
    """Train a map ``net`` for ``steps`` batches (AdamW, one cycle of the learning rate):
    ``held_back(net)`` says how it does every 200 steps, ``write(net)`` keeps it every 1000."""
    import torch

    opt = torch.optim.AdamW(net.parameters(), lr=2e-3, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=steps)
    t0, total = time.time(), 0.0
    for step in range(steps):
        net.train()
        x, heat, off, mask = batch()[:4]
        loss = loss_of(net(x), heat, off, mask)
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        total += float(loss.detach())
        if (step + 1) % 200 == 0:
            net.eval()
            with torch.no_grad():
                how = held_back(net)
            print(
                f"step {step + 1}/{steps}: loss {total / 200:.4f}, held back: {how} "
                f"[{time.time() - t0:.0f} s]",
                flush=True,
            )
            total = 0.0
        if (step + 1) % 1000 == 0:
            write(net)
    write(net)


def main() -> None:
    import torch

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rendered", type=Path, nargs="+", required=True, help="training renders")
    ap.add_argument("--steps", type=int, default=3000)
    ap.add_argument("--batch", type=int, default=16)
    ap.add_argument("--out", type=Path, default=corner_map.WEIGHTS)
    args = ap.parse_args()
    torch.set_num_threads(1)
    torch.manual_seed(0)
    rng = np.random.default_rng(0)
    images, quads = load(args.rendered)
    held = rng.permutation(len(images))
    val, train = held[:64], held[64:]
    print(f"{len(train)} photos to learn from, {len(val)} held back", flush=True)
    vrng = np.random.default_rng(1)
    vx, vpts = zip(*(crop(images[i], quads[i], 144, vrng) for i in val), strict=True)
    vx = torch.tensor(np.stack(vx))

    def held_back(net) -> str:
        err = error_px(net(vx), vpts)
        return f"median {np.median(err):.2f} px, within 3 px {np.mean(err < 3):.2f}"

    fit(
        net_of(),
        lambda: batch_of(images, quads, train, args.batch, rng),
        args.steps,
        held_back,
        lambda net: save(net, args.out),
    )


if __name__ == "__main__":
    main()
