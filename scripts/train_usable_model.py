#!/usr/bin/env python3
"""Train the usability network (``src/nardy/vision/usable_model.npz``, and the same network as
ONNX, ``usable_model.onnx``, which the reader runs) on CPU, a few minutes.

Needs PyTorch, which reading does not. The samples are boards rendered by ``nardy.synth`` from
seeds no fixture uses (folders of ``.jpg`` + ``.json`` in the fixtures' form), e.g.

    PYTHONPATH=src python scripts/make_fixtures.py --prefix train --repeat 4 --out DIR --no-clips
    PYTHONPATH=src python scripts/make_fixtures.py --prefix usable --repeat 12 \\
        --kinds hand,glare,motion --out DIR2 --no-clips
    PYTHONPATH=src python scripts/train_usable_model.py DIR/boards DIR2/boards

Each board is cut several times with its corners jittered (a calibration a little off, a board
nudged), then coloured, lit, flipped and noised afresh every epoch. Motion-blurred frames are
left out: at the view's resolution they look sharp, and the blur check catches them.

    PYTHONPATH=src python scripts/train_usable_model.py --onnx-only

writes the ONNX network again from the weights as they stand (``--out``), with no training.
"""

from __future__ import annotations

import argparse
import json
import sys
import zlib
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from nardy.calibration import BoardProfile
from nardy.vision.usable_model import CLASSES, VIEW, WEIGHTS, BoardView, prepare

CUTS = 3  # jittered cuts of each board
CHANNELS = (8, 16, 24, 32)


def label_of(truth: dict) -> int | None:
    if truth["usable"]:
        return 0
    why = truth.get("why")
    return CLASSES.index(why) if why in CLASSES else None


def cuts(image: np.ndarray, corners: np.ndarray, rng: np.random.Generator) -> list[np.ndarray]:
    size = (image.shape[1], image.shape[0])
    span = np.linalg.norm(corners[1] - corners[0])
    out = []
    for k in range(CUTS):
        c = corners if k == 0 else corners + rng.normal(0, 0.012 * span, corners.shape)
        out.append(BoardView(BoardProfile.from_corners(c, size)).cut(image))
    return out


def load(folders: list[Path], cache: Path | None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Views, labels and hold-out groups of every board in ``folders``; with ``cache``, the
    boards cut before are read from it and only new ones are cut (and the cache kept)."""
    views, labels, groups, names = [], [], [], []
    if cache and cache.exists():
        with np.load(cache) as z:
            views, labels, groups, names = (
                list(z[k]) for k in ("views", "labels", "groups", "names")
            )
    done = set(names)
    files = sorted(f for d in folders for f in d.glob("*.json") if f.stem not in done)
    for i, jf in enumerate(files):
        truth = json.loads(jf.read_text())
        label = label_of(truth)
        if label is None:
            continue
        image = cv2.imread(str(jf.with_suffix(".jpg")))
        rng = np.random.default_rng(zlib.crc32(jf.stem.encode()))
        for v in cuts(image, np.array(truth["corners"], float), rng):
            views.append(v)
            labels.append(label)
            groups.append(zlib.crc32(jf.stem.encode()) % 100)
            names.append(jf.stem)
        print(f"\r{i + 1}/{len(files)}", end="", file=sys.stderr)
    print(file=sys.stderr)
    out = np.stack(views), np.array(labels), np.array(groups)
    if cache and files:
        np.savez(cache, views=out[0], labels=out[1], groups=out[2], names=np.array(names))
    return out


def augment(batch: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Light, colour, noise, blur and mirror, per view (uint8 in, uint8 out)."""
    out = np.empty_like(batch)
    for i, v in enumerate(batch):
        f = v.astype(np.float32)
        f = f * rng.uniform(0.85, 1.15) * rng.uniform(0.93, 1.07, 3) + rng.uniform(-12, 12)
        if rng.random() < 0.3:
            f = cv2.GaussianBlur(f, (0, 0), rng.uniform(0.4, 1.0))
        f += rng.normal(0, rng.uniform(0, 4), f.shape)
        if rng.random() < 0.5:
            f = f[:, ::-1]
        if rng.random() < 0.5:
            f = f[::-1]
        out[i] = np.clip(f, 0, 255)
    return out


def build():
    import torch.nn as nn

    class Net(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            chans = (3, *CHANNELS)
            for i in range(len(CHANNELS)):
                setattr(self, f"conv{i + 1}", nn.Conv2d(chans[i], chans[i + 1], 3, padding=1))
                setattr(self, f"norm{i + 1}", nn.BatchNorm2d(chans[i + 1]))
            self.fc = nn.Linear(2 * CHANNELS[-1], len(CLASSES))
            self.pool = nn.MaxPool2d(2)

        def forward(self, x):
            import torch

            for i in range(len(CHANNELS)):
                x = getattr(self, f"norm{i + 1}")(getattr(self, f"conv{i + 1}")(x))
                x = self.pool(torch.relu(x))
            pooled = torch.cat([x.mean(dim=(2, 3)), x.amax(dim=(2, 3))], dim=1)
            return self.fc(pooled)

    return Net()


def folded(net) -> dict[str, np.ndarray]:
    """The weights as reading uses them: each batch norm folded into its convolution."""
    out = {}
    for i in range(len(CHANNELS)):
        conv, norm = getattr(net, f"conv{i + 1}"), getattr(net, f"norm{i + 1}")
        scale = (norm.weight / (norm.running_var + norm.eps).sqrt()).detach().numpy()
        w = conv.weight.detach().numpy() * scale[:, None, None, None]
        b = (conv.bias.detach().numpy() - norm.running_mean.numpy()) * scale
        out[f"conv{i + 1}.weight"] = w.astype(np.float32)
        out[f"conv{i + 1}.bias"] = (b + norm.bias.detach().numpy()).astype(np.float32)
    out["fc.weight"] = net.fc.weight.detach().numpy().astype(np.float32)
    out["fc.bias"] = net.fc.bias.detach().numpy().astype(np.float32)
    return out


def reading_net(weights: dict[str, np.ndarray]):
    """The network as the reader runs it, from folded weights: the views as they are cut
    (N × h × w × 3, BGR as floats) scaled as ``prepare`` does, the convolutions (ReLU, 2×2
    max-pool each), the average and the largest of the last, the dense layer."""
    import torch
    import torch.nn as nn

    shift = float(prepare(np.zeros(1, np.float32))[0])
    scale = float(prepare(np.ones(1, np.float32))[0]) - shift

    class Reading(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.convs = nn.ModuleList()
            for i in range(len(CHANNELS)):
                w = torch.from_numpy(weights[f"conv{i + 1}.weight"])
                conv = nn.Conv2d(w.shape[1], w.shape[0], 3, padding=1)
                conv.weight.data = w
                conv.bias.data = torch.from_numpy(weights[f"conv{i + 1}.bias"])
                self.convs.append(conv)
            self.fc = nn.Linear(2 * CHANNELS[-1], len(CLASSES))
            self.fc.weight.data = torch.from_numpy(weights["fc.weight"])
            self.fc.bias.data = torch.from_numpy(weights["fc.bias"])

        def forward(self, x):
            x = x.permute(0, 3, 1, 2) * scale + shift
            for conv in self.convs:
                x = torch.max_pool2d(torch.relu(conv(x)), 2)
            return self.fc(torch.cat([x.mean(dim=(2, 3)), x.amax(dim=(2, 3))], dim=1))

    return Reading().eval()


def write_onnx(weights: Path) -> Path:
    """The network of ``weights`` (``.npz``) as ONNX beside it, for OpenCV's DNN module."""
    import torch

    with np.load(weights) as z:
        net = reading_net({k: z[k].astype(np.float32) for k in z.files})
    out = weights.with_suffix(".onnx")
    torch.onnx.export(
        net,
        torch.zeros((1, VIEW[1], VIEW[0], 3)),
        str(out),
        dynamo=False,
        input_names=["view"],
        output_names=["logits"],
        dynamic_axes={"view": {0: "n"}},
        do_constant_folding=True,
    )
    return out


def main() -> int:
    import torch

    from nardy.vision.usable_model import predict

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folders", type=Path, nargs="*")
    ap.add_argument("--epochs", type=int, default=30)
    ap.add_argument("--seed", type=int, default=0, help="of the weights and the augmentation")
    ap.add_argument("--out", type=Path, default=WEIGHTS)
    ap.add_argument("--cache", type=Path, help="keep the cut views here between runs")
    ap.add_argument("--cut-only", action="store_true", help="cut the views into --cache, no more")
    ap.add_argument(
        "--onnx-only", action="store_true", help="write the ONNX network of --out, no training"
    )
    args = ap.parse_args()
    if args.onnx_only:
        print(f"wrote {write_onnx(args.out)}")
        return 0
    if not args.folders:
        ap.error("the folders of training renders are needed")
    torch.set_num_threads(1)  # the machine's cores are shared
    torch.manual_seed(args.seed)
    views, labels, groups = load(args.folders, args.cache)
    if args.cut_only:
        return 0
    assert views.shape[1:3] == (VIEW[1], VIEW[0])
    valid = groups < 12  # boards held out (all their cuts), for the figures printed
    print("samples:", {c: int((labels[~valid] == i).sum()) for i, c in enumerate(CLASSES)})
    net = build()
    opt = torch.optim.AdamW(net.parameters(), lr=3e-3, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(
        opt, max_lr=3e-3, total_steps=args.epochs * (int((~valid).sum()) // 64 + 1)
    )
    counts = np.bincount(labels[~valid], minlength=len(CLASSES)).astype(float)
    # a hand called usable is the worst mistake: weigh it above the others
    weight = torch.tensor((counts.sum() / counts) ** 0.5 * np.array([1.0, 2.0, 1.0]))
    loss_fn = torch.nn.CrossEntropyLoss(weight=weight.float())
    rng = np.random.default_rng(args.seed)
    train = np.flatnonzero(~valid)
    for epoch in range(args.epochs):
        net.train()
        rng.shuffle(train)
        total = 0.0
        for s in range(0, len(train), 64):
            idx = train[s : s + 64]
            x = torch.from_numpy(prepare(augment(views[idx], rng)).transpose(0, 3, 1, 2).copy())
            y = torch.from_numpy(labels[idx]).long()
            loss = loss_fn(net(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += float(loss.detach()) * len(idx)
        print(f"epoch {epoch + 1}: loss {total / len(train):.4f}", file=sys.stderr)
        np.savez_compressed(args.out, **folded(net))  # after every epoch: a long run can be cut
    probs = predict(views[valid], write_onnx(args.out))
    got = probs.argmax(1)
    truth = labels[valid]
    for i, c in enumerate(CLASSES):
        mask = truth == i
        print(f"held out {c}: {int((got[mask] == i).sum())}/{int(mask.sum())} right")
    # what the network alone would call usable at each cut (``VisionConfig.view_alone``): the
    # cut is chosen here, on held-out renders, never on the fixtures
    for cut in (0.15, 0.3, 0.5, 0.7, 0.9):
        kept = probs[:, 0] >= cut
        usable, hands = truth == 0, truth == 1
        print(
            f"P(usable) >= {cut}: usable kept {int(kept[usable].sum())}/{int(usable.sum())}, "
            f"hands let through {int(kept[hands].sum())}/{int(hands.sum())}"
        )
    print(f"weights: {args.out} ({args.out.stat().st_size / 1000:.0f} kB), and as ONNX")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
