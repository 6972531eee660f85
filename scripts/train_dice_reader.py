"""Train the dice reader's two networks on CPU: where dice lie (``dice_centres.onnx``) and what
each shows (``dice_patches.onnx``). Needs PyTorch and ``onnx`` (to write the networks as ONNX,
which the package runs with OpenCV's DNN module), which reading does not.

    PYTHONPATH=src python scripts/train_dice_reader.py --rendered DIR [DIR ...] [--drawn N]

Trained on
- board images rendered by ``nardy.synth`` from seeds of their own (``scripts/make_fixtures.py
  --prefix``, ``scripts/make_dice_set.py``, e.g. ``--cocked 0.9`` for cocked dice), never the
  test fixtures; their truth gives each die's top face (centre, box), value and whether it is
  cocked;
- ``--drawn N`` scenes of plainly drawn dice (``drawn_dice.py``: flat-shaded dice of any colour
  and size, some cocked, on plain ground or on crops of the renders), styles the board renderer
  never draws;
- the real photographs' ``Train`` folder (``Valid`` is kept for measuring). Their labels box the
  top face's pips, not the face: the face's side is taken as the pips' box over 0.7 (a one's box
  is a single pip, so an image's faces are sized from its other dice where it has them).

The centre map learns from 96-pixel crops at random scale (faces 7–40 pixels), turn and
mirror. The patch reader learns from patches cut as its two reads cut them (``patches_of``):
around every true die, off centre and at any scale the map's proposals come at (the first read)
and centred with the face half the patch (the second); as "not a die", a die zoomed into too far,
a die's side faces, and the likeliest of the map's proposals where no die is. Labels follow the
cut (the top face's box in the patch), never the proposal's own guess of the die's size; a
first read's die is taught only "a die", the second read's its value and tilt too. Both
see colour (channels shuffled, so red dice also teach blue ones), light, blur and noise changed
at random. Patches of every tenth image are held out and measured after each epoch.

``--board`` trains the centre map a known board uses (``dice_centres_board.onnx``), which reads
the board's dice at one level about 10 pixels across: half its crops show faces of 6-16 pixels,
cocked dice centre three times as many crops as flat ones, and its crops are also turned in hue,
washed out and motion-blurred at random (dice of colours no render draws, a knocked camera).
The shipped one went on from the general map for 2,000 steps, then from itself for 3,000 more
(``--seed 1``): ``--stage centres --board --resume --drawn 400 --rendered`` the 1,355 training
renders, 177 dice renders and 348 with most dice cocked (``make_dice_set.py --cocked 0.9``).
Crops centred on a die touching another (``--touch 4``) came later: 1,000 steps more with
them (``--seed 3 --limit 900``, the dice renders first) found 2 more of 567 held-out dice with 2
fewer false, no clear gain, and were not shipped; two dice leaning together are lost by the
patch reader, which reads both proposals as one die.

``--resume`` and ``--init`` go on from the networks the package ships (read back from their
ONNX). The cut patches can be kept and reused, and more added to them:

    PYTHONPATH=src python scripts/train_dice_reader.py --stage centres --resume --rendered DIR ... \
        --drawn 800 --steps 700
    PYTHONPATH=src python scripts/train_dice_reader.py --stage patches --rendered DIR ... \
        --patches /work/cache/NAME.npz --epochs 6
    PYTHONPATH=src python scripts/train_dice_reader.py --stage patches --rendered NEW ... \
        --drawn 800 --patches /work/cache/NAME.npz --add --reuse 0.6 --init --epochs 3

The shipped patch reader went on from session 5's (``--init``) in two runs of 2 epochs: first at
``--lr 1.5e-3`` on 40 % of the stored patches and of new ones cut with ``second_cut`` from the
1,355 training renders, 196 renders with most dice cocked, the real ``Train`` folder cut anew
(``--photos``) and 300 drawn scenes (``--add --photos --keep NEW.npz``); then at ``--lr 1e-3``
on 35 % of all those and 1,500 more drawn scenes (``--limit 0 --drawn 1500 --drawn-seed 61``).
Session 7 taught it side faces (``side_faces``): from it, 2 epochs at ``--lr 1e-3`` on 30 % of
those stored patches and new cuts of the real ``Train`` folder and 196 cocked renders (``--add
--photos --seed 7``), then 1 epoch at ``--lr 5e-4`` on 40 % of all of them (``--seed 8``); the
shipped network is the mean of the two runs' weights (``--average FIRST.onnx SECOND.onnx``;
the first alone misread a plainly drawn white 5, the second a 3).
"""

from __future__ import annotations

import argparse
import json
import time
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
from drawn_dice import drawn_scene

from nardy.vision import dice_centres as centres
from nardy.vision import dice_patches, tinynet
from nardy.vision.dice_patches import CONTEXT, FIRST_CONTEXT, PATCH, normalise_patch

REAL = Path("/work/shared/data/dice-real")
ROOT = Path(__file__).resolve().parent.parent
CROP = 96
FACES = (7.0, 40.0)  # face sides (pixels) the centre map learns
#: face sides half the centre map's crops show: a known board's one level (``DiceConfig.map_face``
#: 10 pixels at the board's median die; dice 0.65-1.5 times the median on training renders)
BOARD_FACES = (6.0, 16.0)
COCKED_WEIGHT = 3.0  # a cocked die is this many times likelier than a flat one to centre a crop
#: a die within TOUCH faces of another: two dice leaning together, whose centres the map must
#: tell apart (``--touch W`` makes them W times likelier again to centre a crop)
TOUCH = 1.5
#: the centre map's convolutions: in, out channels, stride, dilation (its reach: 71 pixels)
ARCH = [(3, 16, 2, 1), (16, 24, 2, 1), (24, 24, 1, 1), (24, 24, 1, 2), (24, 24, 1, 4)]
ARCH += [(24, 24, 1, 1)]
#: the patch reader's convolutions (in, out channels), each followed by a 2×2 max-pool
PATCH_CONVS = [(3, 16), (16, 32), (32, 64), (64, 64)]
SECOND_OFF = 0.4  # the second read learns faces off centre by up to this (of a face)
SECOND_SIZE = 0.3  # and their size misjudged by up to e to this, either way


@dataclass
class Sample:
    path: Path | None  # None: a drawn scene
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
    """The render's dice in view (x, y, side, value, cocked): a die the truth calls hidden,
    under the hand, is no die to learn: what is seen there is the hand."""
    truth = json.loads(path.with_suffix(".json").read_text())
    rows = [
        [d["center"][0], d["center"][1], max(d["box"][2], d["box"][3]), d["value"], not d["flat"]]
        for d in truth["dice"]
        if not d.get("hidden")
    ]
    return np.array(rows, np.float64).reshape(-1, 5)


def sources(rendered: list[Path], limit: int | None) -> list[tuple[Path, bool]]:
    out = [(p, False) for folder in rendered for p in sorted(folder.glob("*.jpg"))]
    out = [(p, r) for p, r in out if p.with_suffix(".json").exists()][:limit]
    return out + [(p, True) for p in sorted((REAL / "Train").glob("*.jpg"))]


def drawn(count: int, rendered: list[Path], seed: int = 4) -> list[tuple[np.ndarray, np.ndarray]]:
    """``count`` scenes of plainly drawn dice (``drawn_dice``), half on crops of renders."""
    rng = np.random.default_rng(seed)
    grounds = [p for folder in rendered for p in sorted(folder.glob("*.jpg"))]
    out = []
    for _ in range(count):
        ground = None
        if grounds and rng.random() < 0.5:
            ground = cv2.imread(str(grounds[rng.integers(len(grounds))]))
        out.append(drawn_scene(rng, ground))
    return out


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


def recolour(x: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Colours no render draws (yellow or grey dice, boards of any hue): a uint8 BGR image's hue
    turned, or its colour partly washed out, at random."""
    if rng.random() < 0.4:
        hsv = cv2.cvtColor(x, cv2.COLOR_BGR2HSV)
        hsv[..., 0] = (hsv[..., 0].astype(np.int16) + rng.integers(180)) % 180
        x = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)
    if rng.random() < 0.15:
        grey = x.mean(axis=-1, keepdims=True)
        x = np.clip(grey + (x - grey) * rng.uniform(0.0, 0.5), 0, 255).astype(np.uint8)
    return x


def smear(x: np.ndarray, rng: np.random.Generator, chance: float = 0.25) -> np.ndarray:
    """Motion blur 3 to 9 pixels long in any direction on a share of images (a camera or a
    board knocked, a die still sliding)."""
    if rng.random() >= chance:
        return x
    n = int(rng.integers(3, 10))
    k = np.zeros((n, n), np.float32)
    k[n // 2] = 1.0
    turn = cv2.getRotationMatrix2D(((n - 1) / 2, (n - 1) / 2), rng.uniform(0, 180), 1.0)
    k = cv2.warpAffine(k, turn, (n, n))
    return cv2.filter2D(x, -1, k / max(float(k.sum()), 1e-6), borderType=cv2.BORDER_REFLECT_101)


def crop(sample: Sample, rng: np.random.Generator, board_share: float = 0.0, touch: float = 1.0):
    """One training crop: (image 3×C×C, heat C/4², regression targets, regression mask); a
    share ``board_share`` of them shows faces of ``BOARD_FACES``, the rest of ``FACES``; a die
    touching another is ``touch`` times likelier to centre it."""
    dice = sample.dice
    lo, hi = BOARD_FACES if rng.random() < board_share else FACES
    want = np.exp(rng.uniform(np.log(lo), np.log(hi)))
    base = sample.pyramid[0]
    if len(dice) and rng.random() < 0.85:
        weight = np.where(dice[:, 4] == 1, COCKED_WEIGHT, 1.0)
        apart = np.hypot(*(dice[:, None, :2] - dice[None, :, :2]).transpose(2, 0, 1))
        np.fill_diagonal(apart, np.inf)
        weight = weight * np.where(apart.min(axis=1) < TOUCH * dice[:, 2], touch, 1.0)
        d = dice[rng.choice(len(dice), p=weight / weight.sum())]
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
    x = (colour(smear(recolour(out, rng), rng), rng) / 255.0 - 0.5) * 4.0
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


def train_centres(
    samples: list[Sample],
    steps: int,
    batch: int,
    rng,
    start: Path | None,
    board_share: float,
    touch: float = 1.0,
) -> object:
    import torch

    net = load_centres(start) if start is not None else centre_net()
    opt = torch.optim.AdamW(net.parameters(), lr=2e-3, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=steps)
    real = [s for s in samples if s.real]
    rendered = [s for s in samples if not s.real and s.path is not None]
    plain = [s for s in samples if s.path is None]
    t0, total = time.time(), 0.0
    for step in range(steps):
        items = []
        for _ in range(batch):
            u = rng.random()
            pool = real if u < 0.25 else plain if u < 0.45 else rendered
            pool = pool or rendered or real
            items.append(crop(pool[rng.integers(len(pool))], rng, board_share, touch))
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


def onnx_layers(path: Path) -> list[tuple[np.ndarray, np.ndarray]]:
    """(weight, bias) of each convolution and dense layer of an ONNX network, in order (batch
    norms folded into their convolutions, as the export writes them)."""
    import onnx
    from onnx import numpy_helper

    graph = onnx.load(str(path)).graph
    values = {i.name: numpy_helper.to_array(i) for i in graph.initializer}
    for node in graph.node:  # constants written as nodes rather than initializers
        if node.op_type == "Constant":
            values[node.output[0]] = numpy_helper.to_array(node.attribute[0].t)
    return [
        (values[n.input[1]].astype(np.float32), values[n.input[2]].astype(np.float32))
        for n in graph.node
        if n.op_type in ("Conv", "Gemm")
    ]


def load_centres(path: Path = centres.WEIGHTS):
    """The centre map as shipped (``dice_centres.onnx``), as a PyTorch network."""
    import torch

    net = centre_net()
    names = [f"body.{i}" for i in range(len(ARCH))] + ["head"]
    state = {}
    for name, (w, b) in zip(names, onnx_layers(path), strict=True):
        state[f"{name}.weight"], state[f"{name}.bias"] = torch.tensor(w), torch.tensor(b)
    net.load_state_dict(state)
    return net


def save_centres(net, out: Path = centres.WEIGHTS) -> None:
    """The centre map for OpenCV's DNN module (``dice_centres.WEIGHTS`` or ``BOARD_WEIGHTS``,
    what the package reads and training goes on from)."""
    to_onnx(net, out, (1, 3, 64, 96), {0: "n", 2: "h", 3: "w"})
    print(f"wrote {out}")


def to_onnx(net, out: Path, shape: tuple[int, ...], dynamic: dict[int, str]) -> None:
    """``net`` (in eval mode) as ONNX for ``cv2.dnn``, batch norms as they stand."""
    import torch

    net.eval()
    torch.onnx.export(
        net,
        torch.zeros(shape),
        str(out),
        dynamo=False,
        input_names=["x"],
        output_names=["y"],
        dynamic_axes={"x": dynamic},
        do_constant_folding=True,
    )


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


def labelled_cut(image, centre, side, label, rng) -> tuple:
    """(patch uint8, class, box, cocked): the square of ``side`` around ``centre``, turned and
    mirrored at random, and what it shows: the die ``label`` (cx, cy, face side, value, cocked)
    with its top face's box in the patch, or none."""
    angle, flip = rng.uniform(0, 360), bool(rng.random() < 0.5)
    p, m = patch_uint8(image, centre, side, angle, flip)
    box = np.zeros(4, np.float32)
    value, cocked = 0, -1
    if label is not None:
        q = m @ np.array([label[0], label[1], 1.0])
        bx, by = q[0] / side - 0.5, q[1] / side - 0.5
        box[:] = (-bx if flip else bx, by, label[2] / side, label[2] / side)
        value, cocked = int(label[3]), int(label[4])
    return p, value, box, cocked


def patches_of(image, dice, proposals, rng, copies: int):
    """(patch uint8, class, box, cocked) as the reader meets them: around every true die as the
    first read cuts it (centre off by up to half a face, the face 0.18-0.75 of the patch) and
    as the second read cuts it (centred, the face about half the patch); zoomed into a die so
    far that no whole face shows (not a die at this scale); where the map proposes dice that are
    not there, at either read's size; and anywhere at all."""
    out = []

    def add(centre, side, label):
        out.append(labelled_cut(image, centre, side, label, rng))

    for d in dice:
        for k in range(copies * (2 if d[4] == 1 else 1)):
            if k % 2:  # the second read: where the first read puts the face (as off as it)
                off, fill = second_cut(rng)
            else:  # the first read, from a proposal
                off, fill = rng.uniform(-0.5, 0.5, 2), 0.5 * np.exp(rng.uniform(-1.0, 0.4))
            add(d[:2] + off * d[2], d[2] / fill, d)
        fill = rng.uniform(1.5, 3.0)  # zoomed in on one part of the face
        add(d[:2] + rng.uniform(-0.35, 0.35, 2) * d[2], d[2] / fill, None)
    out.extend(side_faces(image, dice, rng, beside=max(copies // 2, 2)))
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


def second_cut(rng: np.random.Generator) -> tuple[np.ndarray, float]:
    """Where the second read cuts a die, as the first read places its face on training renders
    (``/work/cache`` renders, never the fixtures: the face's centre off by 0.07 of its side at
    the median, 0.20 in one in ten, 0.31 in one in twenty; its size 0.82-1.46 of the true one,
    5 % to 95 %): the face's offset (in faces) and the share of the patch it fills. Drawn wider
    than measured, so a far-off cut is met often enough to be learnt."""
    turn = rng.uniform(0, 2 * np.pi)
    off = SECOND_OFF * rng.random() ** 1.5 * np.array([np.cos(turn), np.sin(turn)])
    return off, 0.5 / np.exp(rng.uniform(-SECOND_SIZE, SECOND_SIZE) + 0.05)


def side_faces(image, dice, rng, per_die: int = 2, beside: int = 3):
    """ "Not a die" patches cut around a die's side face, as either read may cut them there:
    ``per_die`` beside the top face and smaller than it (seen edge on, the second read zoomed
    in), and ``beside`` a whole face off it, at the size of a face or twice it (a slanted
    die's side face seen as a die of its own: the map proposes it, a small first read keeps
    it, and a second read cut around it would read its pips). The top face's centre then lies
    0.75-1.15 of a face off the patch's, where no read's die is cut (the first read's dice lie
    within half a face of its centre, the second read's within 0.4). None near any other
    die's top face."""
    out = []

    def add(d, near: tuple[float, float], side: float) -> None:
        turn = rng.uniform(0, 2 * np.pi)
        at = d[:2] + rng.uniform(*near) * d[2] * np.array([np.cos(turn), np.sin(turn)])
        if (np.hypot(*(dice[:, :2] - at).T) / dice[:, 2]).min() < near[0] - 0.05:
            return
        p, _ = patch_uint8(image, at, side, rng.uniform(0, 360), bool(rng.random() < 0.5))
        out.append((p, 0, np.zeros(4, np.float32), -1))

    for d in dice:
        for _ in range(per_die):
            add(d, (0.55, 0.95), CONTEXT * d[2] * rng.uniform(0.35, 0.75))
        for _ in range(beside):
            add(d, (0.75, 1.15), d[2] * np.exp(rng.uniform(0.0, np.log(2.2))))
    return out


def patch_colour(x: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """``colour``, then more than a board's light does: colours mixed (hues no die style has),
    now and then inverted (a white die with dark pips becomes a dark one with light pips),
    blurred harder or along a line (a die still rolling), noisier, JPEG-coded."""
    x = colour(x, rng)
    if rng.random() < 0.3:
        mix = np.eye(3, dtype=np.float32) + rng.normal(0, 0.25, (3, 3)).astype(np.float32)
        x = x @ (mix / np.abs(mix).sum(axis=1, keepdims=True)).T
    if rng.random() < 0.1:
        x = 255.0 - x
    u = rng.random()
    if u < 0.15:
        x = cv2.GaussianBlur(x, (0, 0), rng.uniform(0.8, 1.8))
    elif u < 0.25:
        n = int(rng.integers(3, 8))
        line = np.zeros((n, n), np.float32)
        line[n // 2] = 1.0 / n
        turn = cv2.getRotationMatrix2D((n / 2 - 0.5, n / 2 - 0.5), rng.uniform(0, 180), 1.0)
        line = cv2.warpAffine(line, turn, (n, n))
        x = cv2.filter2D(x, -1, line / max(float(line.sum()), 1e-6))
    if rng.random() < 0.3:
        x = x + rng.normal(0, rng.uniform(2, 12), x.shape).astype(np.float32)
    x = np.clip(x, 0, 255)
    if rng.random() < 0.3:
        quality = [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(30, 85))]
        _, code = cv2.imencode(".jpg", x.astype(np.uint8), quality)
        x = cv2.imdecode(code, cv2.IMREAD_COLOR).astype(np.float32)
    return x


def patch_net(convs=PATCH_CONVS, hidden: int = 128):
    """The patch reader as trained: each convolution batch-normalised (folded into the
    convolution when written, so ``tinynet.forward`` reads it as a plain convolution).
    ``convs`` and ``hidden`` (the first dense layer's width) give other shapes of it."""
    from torch import nn

    net = nn.Sequential()
    for i, (cin, cout) in enumerate(convs, start=1):
        net.add_module(f"conv{i}", nn.Conv2d(cin, cout, 3, padding=1))
        net.add_module(f"bn{i}", nn.BatchNorm2d(cout))
        net.add_module(f"r{i}", nn.ReLU())
        net.add_module(f"p{i}", nn.MaxPool2d(2))
    net.add_module("flat", nn.Flatten())
    net.add_module("fc1", nn.Linear(convs[-1][1] * (PATCH // 2 ** len(convs)) ** 2, hidden))
    net.add_module("r5", nn.ReLU())
    net.add_module("drop", nn.Dropout(0.3))
    net.add_module("fc2", nn.Linear(hidden, 12))
    return net


def second_read(box: np.ndarray) -> np.ndarray:
    """Which dice patches are cut as the second read may cut them (the face's centre in the
    patch's middle half, the face 0.3-0.72 of the patch: ``second_cut`` and the wider of the
    first read's cuts): only those are read for a value. Told from the label's box, so it holds
    for stored patches too."""
    box = np.asarray(box).reshape(-1, 4)
    return (np.abs(box[:, :2]).max(axis=1) < 0.25) & (box[:, 2] > 0.3) & (box[:, 2] < 0.72)


def patch_loss(pred, y, box, cocked, valued):
    """Die or not on every patch; the value only where ``valued`` (a second read's patch: a
    first read's die may be too small or too far off centre to read, and need not be)."""
    import torch
    from torch import nn

    logp = nn.functional.log_softmax(pred[:, :7], dim=1)
    die = torch.logsumexp(logp[:, 1:], dim=1)  # log P(a die)
    none = logp[:, 0]
    whole = nn.functional.cross_entropy(pred[:, :7], y, label_smoothing=0.02, reduction="none")
    either = -torch.where(y > 0, die, none)
    loss = torch.where(valued | (y == 0), whole, either).mean()
    pos = y > 0
    if pos.any():
        loss = loss + 5 * nn.functional.smooth_l1_loss(pred[pos, 7:11], box[pos], beta=0.05)
    known = cocked >= 0
    known &= valued
    if known.any():
        loss = loss + nn.functional.binary_cross_entropy_with_logits(pred[known, 11], cocked[known])
    return loss


def held_out(net, pats, y, ck, valued) -> str:
    """Figures on the held-out images' patches: die or not, the value of the second read's
    dice, cocked."""
    import torch

    net.eval()
    with torch.no_grad():
        x = torch.tensor(np.stack([normalise_patch(p) for p in pats]))
        pred = torch.cat([net(x[i : i + 512]) for i in range(0, len(x), 512)])
    got = pred[:, :7].argmax(1)
    die = y > 0
    found = die & (got > 0)
    value = int((got[valued] == y[valued]).sum()) / max(int(valued.sum()), 1)
    false = int((~die & (got > 0)).sum())
    tilt = pred[:, 11] > 0
    known = found & valued & (ck >= 0)
    ck_right = int((tilt[known] == (ck[known] == 1)).sum()) / max(int(known.sum()), 1)
    return (
        f"held out: {int(die.sum())} dice, found {int(found.sum())}, value right {value:.4f} "
        f"(of {int(valued.sum())} second reads), "
        f"false {false}/{int((~die).sum())}, cocked right {ck_right:.4f}"
    )


def unfolded(net, path: Path) -> None:
    """Start ``net`` from a shipped reader (ONNX, batch norms folded): its convolutions as
    written, each batch norm the identity and held so (``train_patches`` keeps them in eval
    mode)."""
    import torch

    names = [f"conv{i}" for i in range(1, len(PATCH_CONVS) + 1)] + ["fc1", "fc2"]
    w = {}
    for name, (weight, bias) in zip(names, onnx_layers(path), strict=True):
        w[f"{name}.weight"], w[f"{name}.bias"] = weight, bias
    state = net.state_dict()
    for k in state:
        if k in w:
            state[k] = torch.tensor(w[k])
        elif k.endswith("running_var") or k.endswith(".weight"):
            state[k] = torch.ones_like(state[k])
        elif k.endswith("running_mean") or k.endswith(".bias"):
            state[k] = torch.zeros_like(state[k])
    net.load_state_dict(state)


def patch_training(init: Path | None, lr: float, steps: int, convs=PATCH_CONVS, hidden=128):
    """The patch reader to train (from ``init`` when given, of the shipped shape; else of
    ``convs`` and ``hidden``, as ``patch_net``), its optimiser and its schedule."""

    net = patch_net() if init is not None else patch_net(convs, hidden)
    if init is not None:
        unfolded(net, init)
    return optimised(net, lr, steps)


def optimised(net, lr: float, steps: int):
    """``net`` laid out for a CPU, its optimiser and its one-cycle schedule of ``steps``."""
    import torch

    net = net.to(memory_format=torch.channels_last)  # about 1.3-3.5 times faster on a CPU
    opt = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=steps)
    return net, opt, sched


def train_mode(net, folded: bool) -> None:
    """``net`` set to train; when it went on from a shipped reader (``folded``), its batch
    norms stay the identity they were folded into."""
    import torch

    net.train()
    if folded:
        for m in net.modules():
            if isinstance(m, torch.nn.BatchNorm2d):
                m.eval()
                m.weight.requires_grad_(False)
                m.bias.requires_grad_(False)


def train_patches(
    data, epochs: int, rng, init: Path | None = None, lr: float = 3e-3, out: Path | None = None
) -> None:
    import torch

    held = np.array([d[4] for d in data], bool)
    pats = np.stack([d[0] for d in data])
    y = torch.tensor(np.array([d[1] for d in data]))
    b = torch.tensor(np.stack([d[2] for d in data]))
    ck = torch.tensor(np.array([d[3] for d in data], np.float32))
    valued = torch.tensor(second_read(b.numpy())) & (y > 0)
    out = out or dice_patches.WEIGHTS
    train = np.nonzero(~held)[0]
    test = np.nonzero(held)[0]
    print(
        f"{len(pats)} patches ({len(test)} held out), {int((y > 0).sum())} dice, "
        f"{int((ck == 1).sum())} cocked, {int(valued.sum())} read for their value",
        flush=True,
    )
    bs = 128
    net, opt, sched = patch_training(init, lr, epochs * ((len(train) + bs - 1) // bs))
    t0 = time.time()
    for epoch in range(epochs):
        train_mode(net, init is not None)
        order = rng.permutation(train)
        total, right = 0.0, 0
        for i in range(0, len(order), bs):
            idx = order[i : i + bs]
            x = torch.tensor(np.stack([normalise_patch(patch_colour(pats[j], rng)) for j in idx]))
            x = x.contiguous(memory_format=torch.channels_last)
            ti = torch.tensor(idx)
            pred = net(x)
            loss = patch_loss(pred, y[ti], b[ti], ck[ti], valued[ti])
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += float(loss.detach()) * len(idx)
            right += int((pred[:, :7].argmax(1) == y[ti]).sum())
        ti = torch.tensor(test)
        figures = held_out(net, pats[test], y[ti], ck[ti], valued[ti])
        print(
            f"patches epoch {epoch + 1}: loss {total / len(order):.4f}, "
            f"accuracy {right / len(order):.4f}; {figures} "
            f"[{time.time() - t0:.0f} s]",
            flush=True,
        )
        to_onnx(net, out, (2, 3, PATCH, PATCH), {0: "n"})
    print(f"wrote {out}")


def cut(items, net, rng, copies: int, start: int = 0) -> list[tuple]:
    """Patches of (image, dice, real) items as ``patches_of`` cuts them; every tenth image's
    patches held out."""
    data: list[tuple] = []
    t0 = time.time()
    for n, (image, dice, real) in enumerate(items, start=start):
        props = torch_propose(net, image, 0.1)
        got = patches_of(image, dice, props, rng, copies * (3 if real else 1))
        data.extend((*c, n % 10 == 0) for c in got)
        if (n + 1 - start) % 200 == 0:
            print(f"cut {n + 1 - start}/{len(items)} images [{time.time() - t0:.0f} s]", flush=True)
    return data


class Loaded:
    """(image, dice, real) of each source, read when iterated (renders and photos are many)."""

    def __init__(self, items: list[tuple[Path, bool]]) -> None:
        self.items = items

    def __len__(self) -> int:
        return len(self.items)

    def __iter__(self):
        for path, real in self.items:
            yield (*load(path, real), real)


def average_networks(paths: list[Path], out: Path) -> None:
    """Write the mean of the weights of networks of one graph (two training runs from the same
    start, each of which misread a die the other read: their mean read both)."""
    import onnx
    from onnx import numpy_helper

    models = [onnx.load(str(p)) for p in paths]
    first = models[0].graph
    for i, init in enumerate(first.initializer):
        arrays = [numpy_helper.to_array(m.graph.initializer[i]) for m in models]
        if any(a.shape != arrays[0].shape for a in arrays):
            raise SystemExit(f"{init.name}: the networks differ in shape; not one graph")
        if arrays[0].dtype.kind == "f":
            mean = np.mean(arrays, axis=0).astype(arrays[0].dtype)
            init.CopyFrom(numpy_helper.from_array(mean, init.name))
    onnx.save(models[0], str(out))


def main() -> None:
    import torch

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument(
        "--rendered", type=Path, nargs="+", default=[], help="folders of training renders"
    )
    ap.add_argument("--limit", type=int, default=None, help="at most this many renders")
    ap.add_argument("--drawn", type=int, default=0, help="this many scenes of drawn dice too")
    ap.add_argument("--drawn-seed", type=int, default=4, help="the drawn scenes' seed")
    ap.add_argument("--stage", choices=["centres", "patches", "both"], default="both")
    ap.add_argument("--steps", type=int, default=3000, help="centre-map training steps")
    ap.add_argument("--batch", type=int, default=32)
    ap.add_argument("--resume", action="store_true", help="go on from the shipped centre map")
    ap.add_argument(
        "--board",
        action="store_true",
        help="train the known board's map (half its crops at BOARD_FACES); --resume goes on "
        "from it, or from the general map when there is none",
    )
    ap.add_argument("--seed", type=int, default=0, help="of the crops, patches and their changes")
    ap.add_argument(
        "--patches",
        type=Path,
        nargs="+",
        default=[],
        help="stored patches (.npz) to reuse; the first keeps the cut ones when none is stored",
    )
    ap.add_argument("--keep", type=Path, help="keep the patches cut this run in this .npz")
    ap.add_argument("--out", type=Path, help="write the patch reader here (default: the package)")
    ap.add_argument(
        "--touch",
        type=float,
        default=1.0,
        metavar="W",
        help="a die touching another centres a crop W times as often (1: as any die)",
    )
    ap.add_argument("--map-out", type=Path, help="write the centre map here (default: the package)")
    ap.add_argument(
        "--add", action="store_true", help="cut the sources' patches and add them to --patches"
    )
    ap.add_argument(
        "--photos", action="store_true", help="with --add: cut the real photos anew too"
    )
    ap.add_argument("--reuse", type=float, default=1.0, help="use this share of stored patches")
    ap.add_argument("--epochs", type=int, default=8, help="patch-reader epochs")
    ap.add_argument("--copies", type=int, default=4, help="patches cut around each true die")
    ap.add_argument(
        "--init",
        nargs="?",
        const=dice_patches.WEIGHTS,
        type=Path,
        help="go on from the shipped patch reader (or this one)",
    )
    ap.add_argument("--lr", type=float, default=3e-3, help="the patch reader's peak learning rate")
    ap.add_argument(
        "--average",
        type=Path,
        nargs="+",
        help="only write the mean of these patch readers' weights (to --out or the package)",
    )
    args = ap.parse_args()
    if args.average:
        average_networks(args.average, args.out or dice_patches.WEIGHTS)
        return
    torch.set_num_threads(1)
    torch.manual_seed(0)
    rng = np.random.default_rng(args.seed)
    items = sources(args.rendered, args.limit)
    scenes = [(i, d, False) for i, d in drawn(args.drawn, args.rendered, args.drawn_seed)]
    print(f"{len(items)} images ({sum(r for _, r in items)} real), {len(scenes)} drawn", flush=True)
    if args.stage in ("centres", "both"):
        samples = [
            Sample(path, *pyramid_of(image, dice), real)
            for (path, real), (image, dice, _) in zip(items, Loaded(items), strict=True)
        ]
        samples += [Sample(None, *pyramid_of(image, dice), False) for image, dice, _ in scenes]
        print("loaded", flush=True)
        out = centres.BOARD_WEIGHTS if args.board else centres.WEIGHTS
        start = (out if out.exists() else centres.WEIGHTS) if args.resume else None
        net = train_centres(
            samples, args.steps, args.batch, rng, start, 0.5 if args.board else 0.0, args.touch
        )
        save_centres(net, args.map_out or out)
        del samples
    net = load_centres()
    net.eval()
    if args.stage in ("patches", "both"):
        data: list[tuple] = []
        for path in args.patches:
            if path.exists():
                with np.load(path) as z:
                    keep = np.nonzero(rng.random(len(z["y"])) < args.reuse)[0]
                    stored = [z[k][keep] for k in ("x", "y", "box", "cocked", "held")]
                data += list(zip(*stored, strict=True))
        if not data or args.add:
            # photos: stored, unless cut anew
            fresh = [(p, real) for p, real in items if not (data and real and not args.photos)]
            new = cut(Loaded(fresh), net, rng, args.copies)
            new += cut(scenes, net, rng, args.copies, start=len(fresh))
            keep_in = args.keep or (args.patches[0] if args.patches and not data else None)
            if keep_in:
                np.savez(
                    keep_in,
                    x=np.stack([d[0] for d in new]),
                    y=np.array([d[1] for d in new]),
                    box=np.stack([d[2] for d in new]),
                    cocked=np.array([d[3] for d in new]),
                    held=np.array([d[4] for d in new]),
                )
            data += new
        train_patches(data, args.epochs, rng, args.init, args.lr, args.out)


if __name__ == "__main__":
    main()
