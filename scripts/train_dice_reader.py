"""Train the dice reader's two networks on CPU: where dice lie (``dice_centres.npz``) and what
each shows (``dice_patches.npz``). Needs PyTorch, which reading does not.

    PYTHONPATH=src python scripts/train_dice_reader.py --rendered DIR [DIR ...] [--stage both]

Trained on
- board images rendered by ``nardy.synth`` from seeds of their own (``scripts/make_fixtures.py
  --prefix``, ``scripts/make_dice_set.py``), never the test fixtures; their truth gives each die's
  top face (centre, box), value and whether it is cocked;
- the real photographs' ``Train`` folder (``Valid`` is kept for measuring). Their labels box the
  top face's pips, not the face: the face's side is taken as the pips' box over 0.7 (a one's box
  is a single pip, so an image's faces are sized from its other dice where it has them).

The centre map learns from 96-pixel crops at random scale (faces 7–40 pixels), turn and
mirror. The patch reader learns from patches cut as its two reads cut them (``patches_of``):
around every true die, off centre and at any scale the map's proposals come at (the first read)
and centred with the face half the patch (the second); as "not a die", a die zoomed into too far,
a die's side faces, and the likeliest of the map's proposals where no die is. Labels follow the
cut (the top face's box in the patch), never the proposal's own guess of the die's size. Both
see colour (channels shuffled, so red dice also teach blue ones), light, blur and noise changed
at random. Patches of every tenth image are held out and measured after each epoch.

    # the patch reader, its patches kept for another run, then fine-tuned
    PYTHONPATH=src python scripts/train_dice_reader.py --stage patches --rendered DIR ... \
        --patches /work/cache/NAME.npz --epochs 6
    PYTHONPATH=src python scripts/train_dice_reader.py --stage patches --rendered DIR ... \
        --patches /work/cache/NAME.npz --init src/nardy/vision/dice_patches.npz --epochs 2
"""

from __future__ import annotations

import argparse
import json
import time
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from nardy.vision import dice_centres as centres
from nardy.vision import tinynet
from nardy.vision.dice_patches import CONTEXT, FIRST_CONTEXT, PATCH, normalise_patch

REAL = Path("/work/shared/data/dice-real")
ROOT = Path(__file__).resolve().parent.parent
CROP = 96
FACES = (7.0, 40.0)  # face sides (pixels) the centre map learns
#: the centre map's convolutions: in, out channels, stride, dilation (its reach: 71 pixels)
ARCH = [(3, 16, 2, 1), (16, 24, 2, 1), (24, 24, 1, 1), (24, 24, 1, 2), (24, 24, 1, 4)]
ARCH += [(24, 24, 1, 1)]
#: the patch reader's convolutions (in, out channels), each followed by a 2×2 max-pool
PATCH_CONVS = [(3, 16), (16, 32), (32, 64), (64, 64)]


@dataclass
class Sample:
    path: Path
    pyramid: list[np.ndarray]  # long side 640 (or less), then halves
    dice: np.ndarray  # (n, 5): cx, cy, face side (level-0 pixels), value, cocked (-1 unknown)
    real: bool


def real_dice(path: Path, w: int, h: int) -> np.ndarray:
    rows = []
    for line in path.with_suffix(".txt").read_text().splitlines():
        if line.strip():
            c, cx, cy, bw, bh = (float(v) for v in line.split())
            rows.append([cx * w, cy * h, max(bw * w, bh * h), int(c) + 1, -1])
    dice = np.array(rows, np.float64).reshape(-1, 5)
    if len(dice):
        many = dice[dice[:, 3] >= 2, 2]
        face = np.median(many) / 0.7 if len(many) else np.median(dice[:, 2]) / 0.25
        dice[:, 2] = face
    return dice


def rendered_dice(path: Path) -> np.ndarray:
    truth = json.loads(path.with_suffix(".json").read_text())
    rows = [
        [d["center"][0], d["center"][1], max(d["box"][2], d["box"][3]), d["value"], not d["flat"]]
        for d in truth["dice"]
    ]
    return np.array(rows, np.float64).reshape(-1, 5)


def sources(rendered: list[Path], limit: int | None) -> list[tuple[Path, bool]]:
    out = [(p, False) for folder in rendered for p in sorted(folder.glob("*.jpg"))]
    out = [(p, r) for p, r in out if p.with_suffix(".json").exists()][:limit]
    return out + [(p, True) for p in sorted((REAL / "Train").glob("*.jpg"))]


def load(path: Path, real: bool) -> tuple[np.ndarray, np.ndarray]:
    image = cv2.imread(str(path))
    h, w = image.shape[:2]
    dice = real_dice(path, w, h) if real else rendered_dice(path)
    return image, dice


def pyramid_of(image: np.ndarray, dice: np.ndarray) -> tuple[list[np.ndarray], np.ndarray]:
    s = min(1.0, 640 / max(image.shape[:2]))
    if s < 1:
        size = (round(image.shape[1] * s), round(image.shape[0] * s))
        image = cv2.resize(image, size, interpolation=cv2.INTER_AREA)
        dice = dice.copy()
        dice[:, :2] = (dice[:, :2] + 0.5) * s - 0.5
        dice[:, 2] *= s
    levels = [image]
    for _ in range(3):
        levels.append(cv2.pyrDown(levels[-1]))
    return levels, dice


def colour(x: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Light, colour, blur and noise changed at random; uint8 or float in 0..255, same shape."""
    x = x.astype(np.float32) / 255.0
    if rng.random() < 0.5:
        x = x[..., rng.permutation(3)]
    if rng.random() < 0.1:
        x = np.repeat(x.mean(axis=-1, keepdims=True), 3, axis=-1)
    x = x * rng.uniform(0.85, 1.15, 3).astype(np.float32)
    x = (x - 0.5) * rng.uniform(0.6, 1.3) + 0.5 + rng.uniform(-0.2, 0.2)
    x = np.clip(x, 0, 1) ** np.float32(np.exp(rng.uniform(-0.4, 0.4)))
    if rng.random() < 0.3:
        x = cv2.GaussianBlur(x, (0, 0), rng.uniform(0.3, 1.2))
    x = x + rng.normal(0, rng.uniform(0, 0.03), x.shape).astype(np.float32)
    return np.clip(x, 0, 1) * 255.0


def crop(sample: Sample, rng: np.random.Generator):
    """One training crop: (image 3×C×C, heat C/4², regression targets, regression mask)."""
    dice = sample.dice
    want = np.exp(rng.uniform(np.log(FACES[0]), np.log(FACES[1])))
    base = sample.pyramid[0]
    if len(dice) and rng.random() < 0.85:
        d = dice[rng.integers(len(dice))]
        k = want / d[2]
        centre = d[:2] + rng.uniform(-44, 44, 2) / k
    else:
        typical = float(np.median(dice[:, 2])) if len(dice) else 13.0
        k = want / typical
        centre = rng.uniform(0, 1, 2) * [base.shape[1], base.shape[0]]
    level = int(np.clip(np.floor(np.log2(0.7 / k)), 0, 3)) if k < 0.7 else 0
    img = sample.pyramid[level]
    kl = k * 2**level
    to_level = lambda p: (p + 0.5) / 2**level - 0.5  # noqa: E731
    angle = rng.uniform(0, 360)
    m = cv2.getRotationMatrix2D(tuple(float(v) for v in to_level(centre)), angle, kl)
    m[:, 2] += CROP / 2 - to_level(centre)
    if rng.random() < 0.5:
        m[0] = -m[0]
        m[0, 2] += CROP - 1
    out = cv2.warpAffine(
        img, m, (CROP, CROP), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT_101
    )
    x = (colour(out, rng) / 255.0 - 0.5) * 4.0
    g = CROP // centres.STRIDE
    heat = np.zeros((g, g), np.float32)
    reg = np.zeros((3, g, g), np.float32)
    mask = np.zeros((g, g), np.float32)
    yy, xx = np.mgrid[0:g, 0:g]
    for d in dice:
        p = m @ np.array([*to_level(d[:2]), 1.0])
        face = d[2] * k
        cx, cy = p / centres.STRIDE
        if not (-1 <= cx <= g and -1 <= cy <= g):
            continue
        sigma = max(0.6, 0.12 * face / centres.STRIDE)
        heat = np.maximum(heat, np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * sigma**2)))
        j, i = round(cx), round(cy)
        if 0 <= j < g and 0 <= i < g:
            heat[i, j] = 1.0
            reg[:, i, j] = (cx - j, cy - i, np.log(face / centres.SIZE_UNIT))
            mask[i, j] = 1.0
    return x.transpose(2, 0, 1).astype(np.float32), heat, reg, mask


def centre_net():
    from torch import nn

    class Centres(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.body = nn.ModuleList(
                nn.Conv2d(cin, cout, 3, stride=s, padding=d, dilation=d) for cin, cout, s, d in ARCH
            )
            self.head = nn.Conv2d(ARCH[-1][1], 4, 1)
            with __import__("torch").no_grad():
                self.head.bias[0] = -4.0  # few cells hold a die: start the heat low

        def forward(self, x):
            for conv in self.body:
                x = nn.functional.relu(conv(x))
            return self.head(x)

    return Centres()


def focal(logit, heat):
    import torch

    p = torch.sigmoid(logit).clamp(1e-4, 1 - 1e-4)
    pos = heat >= 1.0
    pos_loss = -((1 - p) ** 2 * torch.log(p))[pos].sum()
    neg_loss = -(((1 - heat) ** 4) * p**2 * torch.log(1 - p))[~pos].sum()
    return (pos_loss + neg_loss) / max(int(pos.sum()), 1)


def train_centres(samples: list[Sample], steps: int, batch: int, rng, resume: bool) -> object:
    import torch

    net = load_centres() if resume else centre_net()
    opt = torch.optim.AdamW(net.parameters(), lr=2e-3, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=steps)
    real = [s for s in samples if s.real]
    rendered = [s for s in samples if not s.real]
    t0, total = time.time(), 0.0
    for step in range(steps):
        items = []
        for _ in range(batch):
            pool = real if (real and rng.random() < 0.3) or not rendered else rendered
            items.append(crop(pool[rng.integers(len(pool))], rng))
        x = torch.tensor(np.stack([i[0] for i in items]))
        heat = torch.tensor(np.stack([i[1] for i in items]))
        reg = torch.tensor(np.stack([i[2] for i in items]))
        mask = torch.tensor(np.stack([i[3] for i in items]))
        out = net(x)
        loss = focal(out[:, 0], heat)
        m = mask[:, None].expand_as(reg) > 0
        if m.any():
            loss = loss + nn_l1(out[:, 1:4][m], reg[m])
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        total += float(loss.detach())
        if (step + 1) % 100 == 0:
            print(
                f"centres step {step + 1}/{steps}: loss {total / 100:.4f} "
                f"[{time.time() - t0:.0f} s]",
                flush=True,
            )
            total = 0.0
    return net


def nn_l1(a, b):
    import torch

    return torch.nn.functional.smooth_l1_loss(a, b, beta=0.1)


def load_centres():
    """The centre map as last written, as a PyTorch network."""
    import torch

    net = centre_net()
    w = np.load(centres.WEIGHTS)
    net.load_state_dict({k: torch.tensor(w[k].astype(np.float32)) for k in w.files if k != "arch"})
    return net


def save_centres(net, out: Path) -> None:
    state = {k: v.detach().numpy().astype(np.float16) for k, v in net.state_dict().items()}
    state["arch"] = np.array([(s, d) for _, _, s, d in ARCH], np.int8)
    np.savez_compressed(out, **state)
    print(f"wrote {out}")


def torch_propose(net, image: np.ndarray, threshold: float) -> list[centres.Proposal]:
    """``dice_centres.propose`` with the PyTorch network (same levels, same peaks)."""
    import torch

    found = []
    for s in centres.levels(image.shape, 640):
        small = image
        if s < 1.0:
            size = (max(round(image.shape[1] * s), 1), max(round(image.shape[0] * s), 1))
            small = cv2.resize(image, size, interpolation=cv2.INTER_AREA)
        h, w = small.shape[:2]
        small = cv2.copyMakeBorder(small, 0, -h % 4, 0, -w % 4, cv2.BORDER_REPLICATE)
        with torch.no_grad():
            x = torch.tensor(tinynet.map_input(small).transpose(2, 0, 1)[None].copy())
            out = net(x)[0].numpy().transpose(1, 2, 0)
        sx, sy = image.shape[1] / (w), image.shape[0] / (h)
        for p in centres.peaks(out, threshold):
            found.append(
                centres.Proposal(
                    (p.x + 0.5) * sx - 0.5, (p.y + 0.5) * sy - 0.5, p.side * sx, p.score
                )
            )
    return found


def patch_uint8(image, centre, side, angle, flip):
    n = max(round(side), 4)
    m = cv2.getRotationMatrix2D((float(centre[0]), float(centre[1])), angle, 1.0)
    m[0, 2] += n / 2 - centre[0]
    m[1, 2] += n / 2 - centre[1]
    c = cv2.warpAffine(image, m, (n, n), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    p = cv2.resize(
        c, (PATCH, PATCH), interpolation=cv2.INTER_AREA if n > PATCH else cv2.INTER_LINEAR
    )
    return (p[:, ::-1] if flip else p).copy(), m


def patches_of(image, dice, proposals, rng, copies: int):
    """(patch uint8, class, box, cocked) as the reader meets them: around every true die as the
    first read cuts it (centre off by up to half a face, the face 0.18-0.75 of the patch) and
    as the second read cuts it (centred, the face about half the patch); zoomed into a die so
    far that no whole face shows (not a die at this scale); where the map proposes dice that are
    not there, at either read's size; and anywhere at all."""
    out = []

    def add(centre, side, label):
        angle, flip = rng.uniform(0, 360), bool(rng.random() < 0.5)
        p, m = patch_uint8(image, centre, side, angle, flip)
        box = np.zeros(4, np.float32)
        value, cocked = 0, -1
        if label is not None:
            q = m @ np.array([label[0], label[1], 1.0])
            bx, by = q[0] / side - 0.5, q[1] / side - 0.5
            box[:] = (-bx if flip else bx, by, label[2] / side, label[2] / side)
            value, cocked = int(label[3]), int(label[4])
        out.append((p, value, box, cocked))

    for d in dice:
        for k in range(copies * (2 if d[4] == 1 else 1)):
            if k % 2:  # the second read: centred, face about half the patch
                off, fill = rng.uniform(-0.12, 0.12, 2), 0.5 * np.exp(rng.uniform(-0.2, 0.2))
            else:  # the first read, from a proposal
                off, fill = rng.uniform(-0.5, 0.5, 2), 0.5 * np.exp(rng.uniform(-1.0, 0.4))
            add(d[:2] + off * d[2], d[2] / fill, d)
        fill = rng.uniform(1.5, 3.0)  # zoomed in on one part of the face
        add(d[:2] + rng.uniform(-0.35, 0.35, 2) * d[2], d[2] / fill, None)
    out.extend(side_faces(image, dice, rng))
    negatives = 0
    for p in sorted(proposals, key=lambda p: -p.score):
        if negatives >= 16:  # the likeliest mistakes, not every one
            break
        dist = np.hypot(*(dice[:, :2] - [p.x, p.y]).T) / dice[:, 2] if len(dice) else [9.0]
        if np.min(dist) < 1.0:
            continue
        negatives += 1
        context = FIRST_CONTEXT if rng.random() < 0.5 else CONTEXT * np.exp(rng.uniform(-0.3, 0.3))
        add((p.x, p.y), p.side * context, None)
    h, w = image.shape[:2]
    typical = float(np.median(dice[:, 2])) if len(dice) else 0.02 * max(h, w)
    for _ in range(2):  # anywhere at all
        c = rng.uniform(0, 1, 2) * [w, h]
        if len(dice) and (np.hypot(*(dice[:, :2] - c).T) / dice[:, 2]).min() < 1.0:
            continue
        add(c, typical * CONTEXT * np.exp(rng.uniform(-0.5, 0.5)), None)
    return out


def side_faces(image, dice, rng, per_die: int = 2):
    """ "Not a die" patches as the second read would cut them around a die's side face: beside
    the top face, smaller than it (seen edge on), away from any other die's top face."""
    out = []
    for d in dice:
        for _ in range(per_die):
            turn = rng.uniform(0, 2 * np.pi)
            at = d[:2] + rng.uniform(0.55, 0.95) * d[2] * np.array([np.cos(turn), np.sin(turn)])
            if (np.hypot(*(dice[:, :2] - at).T) / dice[:, 2]).min() < 0.5:
                continue
            side = CONTEXT * d[2] * rng.uniform(0.35, 0.75)
            p, _ = patch_uint8(image, at, side, rng.uniform(0, 360), bool(rng.random() < 0.5))
            out.append((p, 0, np.zeros(4, np.float32), -1))
    return out


def patch_net():
    """The patch reader as trained: each convolution batch-normalised (folded into the
    convolution when written, so ``tinynet.forward`` reads it as a plain convolution)."""
    from torch import nn

    net = nn.Sequential()
    for i, (cin, cout) in enumerate(PATCH_CONVS, start=1):
        net.add_module(f"conv{i}", nn.Conv2d(cin, cout, 3, padding=1))
        net.add_module(f"bn{i}", nn.BatchNorm2d(cout))
        net.add_module(f"r{i}", nn.ReLU())
        net.add_module(f"p{i}", nn.MaxPool2d(2))
    net.add_module("flat", nn.Flatten())
    net.add_module("fc1", nn.Linear(PATCH_CONVS[-1][1] * (PATCH // 16) ** 2, 128))
    net.add_module("r5", nn.ReLU())
    net.add_module("drop", nn.Dropout(0.3))
    net.add_module("fc2", nn.Linear(128, 12))
    return net


def folded(net) -> dict[str, np.ndarray]:
    """The patch reader's weights for ``tinynet.forward``: batch norms folded into the
    convolutions before them."""
    state = {k: v.detach().numpy().astype(np.float64) for k, v in net.state_dict().items()}
    out = {}
    for i in range(1, len(PATCH_CONVS) + 1):
        g, b = state[f"bn{i}.weight"], state[f"bn{i}.bias"]
        mean, var = state[f"bn{i}.running_mean"], state[f"bn{i}.running_var"]
        k = g / np.sqrt(var + 1e-5)
        out[f"conv{i}.weight"] = state[f"conv{i}.weight"] * k[:, None, None, None]
        out[f"conv{i}.bias"] = (state[f"conv{i}.bias"] - mean) * k + b
    for name in ("fc1", "fc2"):
        out[f"{name}.weight"], out[f"{name}.bias"] = state[f"{name}.weight"], state[f"{name}.bias"]
    return {k: v.astype(np.float16) for k, v in out.items()}


def patch_loss(pred, y, box, cocked):
    from torch import nn

    loss = nn.functional.cross_entropy(pred[:, :7], y, label_smoothing=0.02)
    pos = y > 0
    if pos.any():
        loss = loss + 5 * nn.functional.smooth_l1_loss(pred[pos, 7:11], box[pos], beta=0.05)
    known = cocked >= 0
    if known.any():
        loss = loss + nn.functional.binary_cross_entropy_with_logits(pred[known, 11], cocked[known])
    return loss


def held_out(net, pats, y, ck) -> str:
    """Figures on the held-out images' patches: die or not, value of the dice, cocked."""
    import torch

    net.eval()
    with torch.no_grad():
        x = torch.tensor(np.stack([normalise_patch(p) for p in pats]))
        pred = torch.cat([net(x[i : i + 512]) for i in range(0, len(x), 512)])
    got = pred[:, :7].argmax(1)
    die = y > 0
    found = die & (got > 0)
    value = int((got[die] == y[die]).sum()) / max(int(die.sum()), 1)
    false = int((~die & (got > 0)).sum())
    tilt = pred[:, 11] > 0
    known = found & (ck >= 0)
    ck_right = int((tilt[known] == (ck[known] == 1)).sum()) / max(int(known.sum()), 1)
    return (
        f"held out: {int(die.sum())} dice, found {int(found.sum())}, value right {value:.4f}, "
        f"false {false}/{int((~die).sum())}, cocked right {ck_right:.4f}"
    )


def unfolded(net, path: Path) -> None:
    """Start ``net`` from a written (folded) reader: its convolutions as written, each batch
    norm the identity and held so (``train_patches`` keeps them in eval mode)."""
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


def train_patches(
    data, epochs: int, rng, out: Path, init: Path | None = None, lr: float = 3e-3
) -> None:
    import torch

    held = np.array([d[4] for d in data], bool)
    pats = np.stack([d[0] for d in data])
    y = torch.tensor(np.array([d[1] for d in data]))
    b = torch.tensor(np.stack([d[2] for d in data]))
    ck = torch.tensor(np.array([d[3] for d in data], np.float32))
    train = np.nonzero(~held)[0]
    test = np.nonzero(held)[0]
    print(
        f"{len(pats)} patches ({len(test)} held out), {int((y > 0).sum())} dice, "
        f"{int((ck == 1).sum())} cocked",
        flush=True,
    )
    net = patch_net()
    if init is not None:
        unfolded(net, init)
    opt = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=1e-4)
    bs = 128
    steps = epochs * ((len(train) + bs - 1) // bs)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=steps)
    t0 = time.time()
    for epoch in range(epochs):
        net.train()
        if init is not None:  # the batch norms stay the identity they were folded into
            for m in net.modules():
                if isinstance(m, torch.nn.BatchNorm2d):
                    m.eval()
                    m.weight.requires_grad_(False)
                    m.bias.requires_grad_(False)
        order = rng.permutation(train)
        total, right = 0.0, 0
        for i in range(0, len(order), bs):
            idx = order[i : i + bs]
            x = torch.tensor(np.stack([normalise_patch(colour(pats[j], rng)) for j in idx]))
            ti = torch.tensor(idx)
            pred = net(x)
            loss = patch_loss(pred, y[ti], b[ti], ck[ti])
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += float(loss.detach()) * len(idx)
            right += int((pred[:, :7].argmax(1) == y[ti]).sum())
        ti = torch.tensor(test)
        print(
            f"patches epoch {epoch + 1}: loss {total / len(order):.4f}, "
            f"accuracy {right / len(order):.4f}; {held_out(net, pats[test], y[ti], ck[ti])} "
            f"[{time.time() - t0:.0f} s]",
            flush=True,
        )
        np.savez_compressed(out, **folded(net))
    print(f"wrote {out}")


def main() -> None:
    import torch

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument(
        "--rendered", type=Path, nargs="+", default=[], help="folders of training renders"
    )
    ap.add_argument("--limit", type=int, default=None, help="at most this many renders")
    ap.add_argument("--stage", choices=["centres", "patches", "both"], default="both")
    ap.add_argument("--steps", type=int, default=3000, help="centre-map training steps")
    ap.add_argument("--batch", type=int, default=32)
    ap.add_argument("--resume", action="store_true", help="go on from the centre map written")
    ap.add_argument("--patches", type=Path, help="keep the cut patches in this .npz (and reuse)")
    ap.add_argument("--epochs", type=int, default=8, help="patch-reader epochs")
    ap.add_argument("--copies", type=int, default=4, help="patches cut around each true die")
    ap.add_argument("--out", type=Path, help="write the patch reader here (default: the package's)")
    ap.add_argument("--init", type=Path, help="go on from this patch reader (fine-tuning)")
    ap.add_argument("--lr", type=float, default=3e-3, help="the patch reader's peak learning rate")
    ap.add_argument(
        "--side-faces", action="store_true", help="add side-face patches to stored patches"
    )
    args = ap.parse_args()
    torch.set_num_threads(1)
    torch.manual_seed(0)
    rng = np.random.default_rng(0)
    items = sources(args.rendered, args.limit)
    print(f"{len(items)} images ({sum(r for _, r in items)} real)", flush=True)
    if args.stage in ("centres", "both"):
        samples = []
        for path, real in items:
            image, dice = load(path, real)
            levels, dice = pyramid_of(image, dice)
            samples.append(Sample(path, levels, dice, real))
        print("loaded", flush=True)
        net = train_centres(samples, args.steps, args.batch, rng, args.resume)
        save_centres(net, centres.WEIGHTS)
        del samples
    net = load_centres()
    net.eval()
    if args.stage in ("patches", "both"):
        if args.patches and args.patches.exists():
            with np.load(args.patches) as z:
                data = list(zip(z["x"], z["y"], z["box"], z["cocked"], z["held"], strict=True))
            if args.side_faces:  # patches cut before side faces were taught
                for n, (path, real) in enumerate(items):
                    image, dice = load(path, real)
                    data.extend((*c, n % 10 == 0) for c in side_faces(image, dice, rng))
        else:
            data = []
            t0 = time.time()
            for n, (path, real) in enumerate(items):
                image, dice = load(path, real)
                props = torch_propose(net, image, 0.1)
                cut = patches_of(image, dice, props, rng, args.copies * (3 if real else 1))
                data.extend((*c, n % 10 == 0) for c in cut)
                if (n + 1) % 200 == 0:
                    print(f"cut {n + 1}/{len(items)} images [{time.time() - t0:.0f} s]", flush=True)
            if args.patches:
                np.savez(
                    args.patches,
                    x=np.stack([d[0] for d in data]),
                    y=np.array([d[1] for d in data]),
                    box=np.stack([d[2] for d in data]),
                    cocked=np.array([d[3] for d in data]),
                    held=np.array([d[4] for d in data]),
                )
        from nardy.vision.dice_patches import WEIGHTS

        train_patches(data, args.epochs, rng, args.out or WEIGHTS, args.init, args.lr)


if __name__ == "__main__":
    main()
