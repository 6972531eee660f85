#!/usr/bin/env python3
"""Train the cube reader's networks on rendered scenes: the quick one that ranks every candidate
(``--net quick``, ``src/nardy/vision/cube_quick_model.npz``), the screen that ranks its best
again (``--net screen``, ``cube_model.npz``) and the fine one that reads the likeliest
(``--net read``, ``cube_read_model.npz``). The quick network and the screen differ only in
width and learn from the same patches.

    PYTHONPATH=src python scripts/train_cube_model.py patches DIR... --out PATCHES.npz [--net read]
    PYTHONPATH=src python scripts/train_cube_model.py train PATCHES.npz... [--net read] [--epochs N]

The quick network shipped: ``train`` on the screen's three patch sets (from 764 training
renders and two sets of 100 cube scenes) with ``--net quick --neg-keep 0.6 --epochs 10``. The
fine one shipped: the earlier one (``--init``) trained on for ``--epochs 4 --neg-keep 0.5``,
then ``--epochs 3 --seed 2``, on ``patches --net read --copies 16`` of the 1,355 training
renders, 350 cube scenes (prefix ``cube01``) and 93 more (``cube7a``); on held-out patches of
160 other cube scenes (``--val``) its faces went from 81 % to 91 %, then 93.5 % right (8s had
gone to 4s and 2s), the patches it took for a cube from 23 to 9 of 1,518.

``patches`` turns each render (``NAME.jpg`` + truth, the fixtures' form; never the fixtures) into
the top-down view the reader sees and cuts: the cube, many times, shifted, scaled and turned to
every angle (a real cube lies any way round; the fine network's patches are first turned square
with the view, then a quarter turn any way round, as the reader turns them) with light,
shadow, blur and noise changed; and as "not the cube" the reader's own candidates elsewhere (dice,
checker rims, point tips, the frame's edges) — for the fine network, above all those the quick
one ranks highest. The fine network's cube is shifted up to half its side: the candidate it is
given may be that far off. ``train`` fits ``nardy.vision.tinynet``'s network: class 0 "not the
cube", 1–6 the faces 2 … 64. Torch on one thread.
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


from nardy.vision import cube as cube_reader  # noqa: E402


def roughen(patch: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Blur and sensor noise on a normalised patch."""
    if rng.random() < 0.35:
        patch = cv2.GaussianBlur(patch, (0, 0), rng.uniform(0.4, 1.1))
    patch = patch + rng.normal(0, rng.uniform(0, 0.1), patch.shape).astype(np.float32)
    return patch.astype(np.float32)


def relight(view: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Another exposure and gamma of the grey view (the patch's own scaling undoes the rest),
    at times with a soft-edged shadow over part of it (a hand, the frame, a lamp's fall-off)."""
    gamma = rng.uniform(0.6, 1.6)
    v = (view.astype(np.float32) / 255) ** gamma * rng.uniform(0.7, 1.2) * 255
    if rng.random() < 0.4:
        h, w = v.shape
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        a = rng.uniform(0, 2 * np.pi)
        d = (xx - w / 2) * np.cos(a) + (yy - h / 2) * np.sin(a) - rng.uniform(-0.3, 0.3) * w
        edge = 1 / (1 + np.exp(-d / rng.uniform(1, 0.1 * w + 1)))
        v = v * (1 - edge * rng.uniform(0.3, 0.65))
    return v.clip(0, 255).astype(np.uint8)


def samples(
    path: Path, rng: np.random.Generator, copies: int, cfg: cube_reader.CubeConfig, net: str
):
    truth = json.loads(path.read_text())
    if not truth.get("usable", True):
        return
    gray = cv2.imread(str(path.with_name(truth.get("image") or path.stem + ".jpg")), 0)
    if gray is None:
        return
    view, to_view = cube_reader.top_down(gray, truth["corners"])
    size = (view.shape[1], view.shape[0])
    side = cfg.cube * cube_reader.VIEW_W
    fine = net == "read"
    win = side * (cfg.read_window if fine else cfg.window)
    patch_size = cube_reader.READ_PATCH if fine else cube_reader.PATCH
    shift = 0.45 if fine else 0.2  # how far off centre the cube may be in a patch (of its side)

    def cut(v: np.ndarray, x: float, y: float, scale: float) -> np.ndarray:
        if fine:  # turned square as the reader turns it, then a quarter turn any way round
            turn = cube_reader.square_turn(v, x, y, side)
            angle = turn + 90 * rng.integers(4) + rng.normal(0, 5)
        else:
            angle = rng.uniform(0, 360)
        raw = cube_reader.raw_patches(v, [(x, y, win * scale, angle)], patch_size)
        return roughen(cube_reader.normalise(raw)[0], rng)

    spots = cube_reader.candidates(view, cfg)
    if fine and spots:  # the reader's shortlist first: the hardest "not the cube"
        order = np.argsort(cube_reader.screen(view, spots, cfg))
        spots = [spots[i] for i in order[: 2 * cfg.shortlist]] + [
            spots[i] for i in rng.permutation(order[2 * cfg.shortlist :])[: cfg.shortlist]
        ]
    at, centres = None, []
    if truth["cube"]:
        c = np.array([[truth["cube"]["center"]]], np.float64)
        at = cv2.perspectiveTransform(c, to_view)[0, 0]
        if not (0 <= at[0] < size[0] and 0 <= at[1] < size[1]):
            return
        # and where the reader's own search puts it: seen aslant, a cube standing on the frame
        # shows its top up to a side away from where its centre projects onto the board
        near = [s for s in spots if np.hypot(s[0] - at[0], s[1] - at[1]) < side]
        centres = [at, *near[:1]]
        value = cube_reader.FACES.index(truth["cube"]["value"]) + 1
        r = int(win * 1.5)  # a piece of the view around the cube: relit, it stays cheap
        x0, y0 = max(0, int(at[0]) - r), max(0, int(at[1]) - r)
        piece = view[y0 : int(at[1]) + r, x0 : int(at[0]) + r]
        for k in range(copies):
            cx, cy = centres[k % len(centres)]
            dx, dy = rng.uniform(-shift, shift, 2) * side
            v = relight(piece, rng) if rng.random() < 0.6 else piece
            yield cut(v, cx - x0 + dx, cy - y0 + dy, rng.uniform(0.85, 1.2)), value
    for x, y in spots:
        if at is not None and any(
            np.hypot(x - cx, y - cy) < (shift + 0.7) * side for cx, cy in centres
        ):
            continue
        yield cut(view, x, y, rng.uniform(0.9, 1.1)), 0


def make_patches(
    folders: list[Path], out: Path, copies: int, seed: int, match: str, net: str
) -> None:
    rng = np.random.default_rng(seed)
    cfg = cube_reader.CubeConfig()
    xs, ys = [], []
    files = sorted(f for d in folders for f in d.glob(match))
    for i, f in enumerate(files):
        for patch, label in samples(f, rng, copies, cfg, net):
            xs.append(patch.astype(np.float16))
            ys.append(label)
        if i % 100 == 0:
            print(f"{i}/{len(files)} images, {len(ys)} patches", flush=True)
    y = np.array(ys, np.int64)
    np.savez_compressed(out, x=np.stack(xs), y=y)
    print(f"wrote {out}: {len(y)} patches, {int((y > 0).sum())} of the cube")


READ_CHANNELS = (8, 16, 32, 64)
#: the quick network's and the screen's widths: three convolutions' channels, the dense layer's
WIDTHS = {"quick": (8, 16, 32, 64), "screen": (16, 32, 64, 128)}
#: where each network is written
OUT = {"quick": cube_reader.QUICK_WEIGHTS, "screen": cube_reader.WEIGHTS}


def small_net(outputs: int, patch: int, channels: tuple[int, int, int], hidden: int):
    """Three 3×3 conv/ReLU/pool stages of ``channels``, a dense layer of ``hidden``, the outputs
    (the layer names ``vision.tinynet`` reads)."""
    from torch import nn

    net = nn.Sequential()
    for i, (cin, cout) in enumerate(zip((1, *channels[:2]), channels, strict=True), start=1):
        net.add_module(f"conv{i}", nn.Conv2d(cin, cout, 3, padding=1))
        net.add_module(f"r{i}", nn.ReLU())
        net.add_module(f"p{i}", nn.MaxPool2d(2))
    net.add_module("flat", nn.Flatten())
    net.add_module("fc1", nn.Linear(channels[2] * (patch // 8) ** 2, hidden))
    net.add_module("r4", nn.ReLU())
    net.add_module("drop", nn.Dropout(0.3))
    net.add_module("fc2", nn.Linear(hidden, outputs))
    return net


def build_net(net: str):
    """The quick network and the screen: three 3×3 conv/ReLU/pool stages and two dense layers
    of ``WIDTHS`` (what ``vision.tinynet`` runs); the fine one has a fourth stage for its larger
    patch, fewer channels early (where a 64-pixel patch costs most) and batch norms (folded
    into the convolutions when written)."""
    if net in WIDTHS:
        *channels, hidden = WIDTHS[net]
        return small_net(1 + len(cube_reader.FACES), cube_reader.PATCH, tuple(channels), hidden)
    from torch import nn

    layers = nn.Sequential()
    cin = 1
    for i, cout in enumerate(READ_CHANNELS, start=1):
        layers.add_module(f"conv{i}", nn.Conv2d(cin, cout, 3, padding=1))
        layers.add_module(f"bn{i}", nn.BatchNorm2d(cout))
        layers.add_module(f"r{i}", nn.ReLU())
        layers.add_module(f"p{i}", nn.MaxPool2d(2))
        cin = cout
    side = cube_reader.READ_PATCH >> len(READ_CHANNELS)
    layers.add_module("flat", nn.Flatten())
    layers.add_module("fc1", nn.Linear(cin * side * side, 128))
    layers.add_module("r5", nn.ReLU())
    layers.add_module("drop", nn.Dropout(0.3))
    layers.add_module("fc2", nn.Linear(128, 1 + len(cube_reader.FACES)))
    return layers


def folded(net) -> dict[str, np.ndarray]:
    """The fine network's weights for ``tinynet.forward``: batch norms folded into the
    convolutions before them."""
    state = {k: v.detach().numpy().astype(np.float64) for k, v in net.state_dict().items()}
    out = {}
    for i in range(1, len(READ_CHANNELS) + 1):
        g, b = state[f"bn{i}.weight"], state[f"bn{i}.bias"]
        mean, var = state[f"bn{i}.running_mean"], state[f"bn{i}.running_var"]
        k = g / np.sqrt(var + 1e-5)
        out[f"conv{i}.weight"] = state[f"conv{i}.weight"] * k[:, None, None, None]
        out[f"conv{i}.bias"] = (state[f"conv{i}.bias"] - mean) * k + b
    for name in ("fc1", "fc2"):
        out[f"{name}.weight"], out[f"{name}.bias"] = state[f"{name}.weight"], state[f"{name}.bias"]
    return {k: v.astype(np.float16) for k, v in out.items()}


def unfolded(net, path: Path) -> None:
    """Start the fine network from written (folded) weights: each batch norm the identity
    (and kept so while training goes on)."""
    import torch

    w = np.load(path)
    state = net.state_dict()
    for k in state:
        if k in w.files:
            state[k] = torch.tensor(w[k].astype(np.float32))
        elif k.endswith("running_var") or k.endswith(".weight"):
            state[k] = torch.ones_like(state[k])
        elif k.endswith("running_mean") or k.endswith(".bias"):
            state[k] = torch.zeros_like(state[k])
    net.load_state_dict(state)


def train(
    sets: list[Path],
    epochs: int,
    seed: int,
    neg_keep: float = 1.0,
    init: Path | None = None,
    net_name: str = "screen",
    out: Path | None = None,
    val: Path | None = None,
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
    if val is None:  # a share of the same renders' patches (copies of a cube on both sides)
        held = torch.rand(len(y)) < 0.05
        tx, ty, vx, vy = x[~held], y[~held], x[held], y[held]
    else:  # patches of renders no network learns from
        with np.load(val) as z:
            vx = torch.tensor(z["x"].astype(np.float32)[:, None])
            vy = torch.tensor(z["y"])
        tx, ty = x, y
    print(f"{len(ty)} patches to train on ({int((ty > 0).sum())} cube), {len(vy)} held out")
    net = build_net(net_name)
    if init is not None and net_name == "read":  # folded: each batch norm the identity, kept so
        unfolded(net, init)
    elif init is not None:  # go on from earlier weights: fewer epochs on a busy machine
        with np.load(init) as z:
            net.load_state_dict({k: torch.tensor(z[k].astype(np.float32)) for k in z.files})
    opt = torch.optim.AdamW(net.parameters(), lr=2e-3, weight_decay=1e-4)
    steps = epochs * ((len(tx) + 255) // 256)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=steps)
    if out is None:
        out = OUT.get(net_name, cube_reader.READ_WEIGHTS)
    weight = torch.tensor([1.0] + [2.0] * len(cube_reader.FACES))  # faces are the rarer class
    for epoch in range(epochs):
        net.train()
        if init is not None and net_name == "read":
            for m in net.modules():
                if isinstance(m, nn.BatchNorm2d):
                    m.eval()
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
        # after every epoch: a long run on a busy machine can be cut short
        if net_name == "read":
            state = folded(net)
        else:
            state = {k: v.detach().numpy().astype(np.float16) for k, v in net.state_dict().items()}
        np.savez_compressed(out, **state)
    print(f"wrote {out}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="step", required=True)
    pa = sub.add_parser("patches")
    pa.add_argument("folders", type=Path, nargs="+")
    pa.add_argument("--out", type=Path, required=True)
    pa.add_argument("--copies", type=int, default=16)
    pa.add_argument("--seed", type=int, default=1)
    pa.add_argument("--match", default="*.json", help="which truth files of the folders")
    pa.add_argument("--net", choices=["screen", "read"], default="screen")
    tr = sub.add_parser("train")
    tr.add_argument("--net", choices=["quick", "screen", "read"], default="screen")
    tr.add_argument("sets", type=Path, nargs="+")
    tr.add_argument("--epochs", type=int, default=14)
    tr.add_argument("--seed", type=int, default=1)
    tr.add_argument("--neg-keep", type=float, default=1.0, help="share of non-cube patches used")
    tr.add_argument("--init", type=Path, default=None, help="weights (.npz) to start from")
    tr.add_argument("--out", type=Path, default=None, help="where to write (default: the reader's)")
    tr.add_argument("--val", type=Path, default=None, help="held-out patches (other renders)")
    args = ap.parse_args()
    if args.step == "patches":
        make_patches(args.folders, args.out, args.copies, args.seed, args.match, args.net)
    else:
        train(
            args.sets,
            args.epochs,
            args.seed,
            args.neg_keep,
            args.init,
            args.net,
            args.out,
            val=args.val,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
