"""Train the small networks of the dice and cube readers on CPU (a few minutes each).

Needs PyTorch (``pip install torch==2.13.0``), which reading does not. Weights are written as
``.npz`` beside the readers (``src/nardy/vision/dice_model.npz``, ``cube_model.npz``).

Dice samples are the pip clusters the first stage (``nardy.vision.pips``) finds in
- the real photographs' ``Train`` folder (``Valid`` is kept for measuring): a cluster that covers
  one labelled die is that die's value, one that covers none is "not a die", one over several
  dice is left out;
- board images rendered by ``nardy.synth`` from seeds of their own (``--rendered``, a folder of
  ``.jpg`` + ``.json`` made by ``--render N``), never the test fixtures: the same, plus whether
  the die is cocked.
Cube samples are cube-sized patches of the same renders' top-down views: the cube's own, with
its face, and the busiest other spots as "not the cube".
Each sample is cut many times with jitter (turn, mirror, scale, shift, blur, noise).

    PYTHONPATH=src python scripts/train_dice_model.py --render 300 --rendered /tmp/renders
    PYTHONPATH=src python scripts/train_dice_model.py --rendered /tmp/renders [--model dice|cube]
"""

from __future__ import annotations

import argparse
import json
import zlib
from pathlib import Path

import cv2
import numpy as np

from nardy.vision.dice_model import PATCH, WEIGHTS, cut_patch, patch_window
from nardy.vision.pips import cluster_pips, find_pips

DATA = Path("/work/shared/data/dice-real")


def yolo_labels(
    image_path: Path, shape: tuple[int, ...]
) -> list[tuple[int, float, float, float, float, bool | None]]:
    h, w = shape[:2]
    out = []
    for line in image_path.with_suffix(".txt").read_text().split("\n"):
        if line.strip():
            c, cx, cy, bw, bh = map(float, line.split())
            out.append((int(c) + 1, cx * w, cy * h, bw * w, bh * h, None))
    return out


def rendered_labels(image_path: Path) -> list[tuple[int, float, float, float, float, bool | None]]:
    truth = json.loads(image_path.with_suffix(".json").read_text())
    return [
        (d["value"], d["center"][0], d["center"][1], d["box"][2], d["box"][3], not d["flat"])
        for d in truth["dice"]
    ]


def dice_samples(paths, labels_of):
    """(gray, window, light, label) for every usable cluster."""
    for path in paths:
        image = cv2.imread(str(path))
        gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
        labels = labels_of(path, image.shape)
        for cluster in cluster_pips(gray, find_pips(gray)):
            hits = [
                lab
                for lab in labels
                if any(
                    abs(p.x - lab[1]) < lab[3] / 2 + 2 and abs(p.y - lab[2]) < lab[4] / 2 + 2
                    for p in cluster
                )
            ]
            if len(hits) > 1:
                continue
            yield gray, patch_window(cluster), cluster[0].light, (hits[0] if hits else None)


def jitter(rng, k: int, side: float):
    if k == 0:
        return 0.0, False, 1.0, 0.0, 0.0
    # any turn: which face is on top must be told by its look (the squarest, widest pips), not
    # by where it lies in the photograph (the real photographs all look from one side)
    return (
        rng.uniform(-180, 180),
        bool(rng.random() < 0.5),
        rng.uniform(0.8, 1.3),
        *(rng.uniform(-0.07, 0.07, 2) * side),
    )


def roughen(patch: np.ndarray, rng, k: int) -> np.ndarray:
    if k and rng.random() < 0.3:
        patch = cv2.GaussianBlur(patch, (0, 0), rng.uniform(0.4, 1.0))
    if k:
        patch = patch + rng.normal(0, rng.uniform(0, 0.08), patch.shape).astype(np.float32)
    return patch.astype(np.float32)


def dice_augmented(gray, window, light, label, rng, copies):
    """(patch, class, box, cocked) — cocked is -1 where the truth does not say."""
    cx, cy, side = window
    for k in range(copies):
        angle, flip, scale, dx, dy = jitter(rng, k, side)
        win = (cx + dx, cy + dy, side * scale)
        patch = roughen(cut_patch(gray, win, light, angle, flip), rng, k)
        box = np.zeros(4, np.float32)
        value, cocked = 0, -1
        if label is not None:
            value, lx, ly, lw, lh, tilted = label
            m = cv2.getRotationMatrix2D((win[0], win[1]), angle, 1.0)
            px, py = m @ np.array([lx, ly, 1.0])
            bx, by = (px - win[0]) / win[2], (py - win[1]) / win[2]
            box[:] = (-bx if flip else bx, by, lw / win[2], lh / win[2])
            cocked = -1 if tilted is None else int(tilted)
        yield patch, value, box, cocked


def cube_samples(paths, rng, copies):
    """(patch, class) for the cube and the busiest non-cube spots of each render's view."""
    from nardy.vision import cube as cube_reader

    side = cube_reader.CubeConfig().cube * cube_reader.VIEW_W * cube_reader.CubeConfig().window
    for path in paths:
        truth = json.loads(path.with_suffix(".json").read_text())
        gray = cv2.imread(str(path), cv2.IMREAD_GRAYSCALE)
        to_view, size = cube_reader.view_transform(truth["corners"])
        view = cv2.warpPerspective(gray, to_view, size, flags=cv2.INTER_AREA)
        where = None
        if truth["cube"]:
            c = np.array([[truth["cube"]["center"]]], np.float64)
            where = cv2.perspectiveTransform(c, to_view)[0, 0]
            value = cube_reader.FACES.index(truth["cube"]["value"]) + 1
            for k in range(copies):
                angle = rng.uniform(-25, 25) + (180 if rng.random() < 0.5 else 0) if k else 0.0
                dx, dy = rng.uniform(-0.12, 0.12, 2) * side if k else (0.0, 0.0)
                s = side * (rng.uniform(0.85, 1.2) if k else 1.0)
                patch = cube_reader.cube_patch(view, where[0] + dx, where[1] + dy, s, angle)
                yield roughen(patch, rng, k), value
        for x, y in cube_reader.candidates(view)[:15]:
            if where is not None and np.hypot(x - where[0], y - where[1]) < side * 0.5:
                continue
            for k in range(2):
                yield (
                    roughen(
                        cube_reader.cube_patch(
                            view, x, y, side, rng.uniform(-25, 25) if k else 0.0
                        ),
                        rng,
                        k,
                    ),
                    0,
                )


def drawn_cube_samples(backgrounds: list[np.ndarray], rng, n: int):
    """(patch, class) for cube faces drawn by ``nardy.synth.textures.cube_face`` in many
    colourings onto pieces of the renders' top-down views: the renders hold too few cubes."""
    from nardy.synth.styles import CUBE_STYLES
    from nardy.synth.textures import cube_face
    from nardy.vision import cube as cube_reader

    cfg = cube_reader.CubeConfig()
    side = cfg.cube * cube_reader.VIEW_W
    styles = list(CUBE_STYLES.values())
    for i in range(n):
        value = cube_reader.FACES[i % 6]
        if rng.random() < 0.6:
            body, ink = styles[int(rng.integers(len(styles)))]
        else:
            body = tuple(float(v) for v in rng.uniform(0, 1, 3))
            ink = tuple(
                float(v)
                for v in (rng.uniform(0, 0.25, 3) if sum(body) > 1.5 else rng.uniform(0.75, 1, 3))
            )
        px = round(side * rng.uniform(0.8, 1.25))
        face = cube_face(px * 4, value, body, ink)
        face = cv2.resize(face, (px, px), interpolation=cv2.INTER_AREA)
        gray_face = cv2.cvtColor((face * 255).clip(0, 255).astype(np.uint8), cv2.COLOR_BGR2GRAY)
        bg = backgrounds[int(rng.integers(len(backgrounds)))]
        h, w = bg.shape
        big = int(side * 3)
        y, x = int(rng.integers(0, h - big)), int(rng.integers(0, w - big))
        canvas = bg[y : y + big, x : x + big].copy()
        angle = rng.uniform(-25, 25) + (180 if rng.random() < 0.5 else 0)
        m = cv2.getRotationMatrix2D((px / 2, px / 2), angle, 1.0)
        m[:, 2] += big / 2 - px / 2
        warped = cv2.warpAffine(gray_face, m, (big, big), borderValue=0)
        mask = cv2.warpAffine(np.full((px, px), 255, np.uint8), m, (big, big), borderValue=0)
        canvas[mask > 128] = warped[mask > 128]
        dx, dy = rng.uniform(-0.12, 0.12, 2) * side
        patch = cube_reader.cube_patch(canvas, big / 2 + dx, big / 2 + dy, side * cfg.window)
        yield roughen(patch, rng, 1), cube_reader.FACES.index(value) + 1


def build_net(
    outputs: int,
    patch: int = PATCH,
    channels: tuple[int, int, int] = (16, 32, 64),
    hidden: int = 128,
):
    """The network ``vision.tinynet`` runs: three 3×3 conv/ReLU/pool stages, two dense layers."""
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


def train(x, y, boxes, cocked, outputs: int, epochs: int, out: Path) -> None:
    """Classes in the first 7 outputs; then, if given, a box (4) and a cocked logit (1)."""
    import torch
    from torch import nn

    x = torch.tensor(np.stack(x)[:, None].astype(np.float32))
    y = torch.tensor(np.array(y))
    b = torch.tensor(np.stack(boxes)) if boxes is not None else None
    ck = torch.tensor(np.array(cocked, np.float32)) if cocked is not None else None
    print(f"{len(x)} patches, {int((y > 0).sum())} of the object", flush=True)
    net = build_net(outputs)
    opt = torch.optim.AdamW(net.parameters(), lr=2e-3, weight_decay=1e-4)
    steps = epochs * ((len(x) + 255) // 256)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=steps)
    for epoch in range(epochs):
        net.train()
        order = torch.randperm(len(x))
        total, right = 0.0, 0
        for i in range(0, len(x), 256):
            idx = order[i : i + 256]
            pred = net(x[idx])
            loss = nn.functional.cross_entropy(pred[:, :7], y[idx])
            pos = y[idx] > 0
            if b is not None and pos.any():
                loss = loss + 5 * nn.functional.smooth_l1_loss(
                    pred[pos, 7:11], b[idx][pos], beta=0.05
                )
            if ck is not None:
                known = ck[idx] >= 0
                if known.any():
                    loss = loss + nn.functional.binary_cross_entropy_with_logits(
                        pred[known, 11], ck[idx][known]
                    )
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += float(loss.detach()) * len(idx)
            right += int((pred[:, :7].argmax(1) == y[idx]).sum())
        print(
            f"epoch {epoch + 1}: loss {total / len(x):.4f}, train accuracy {right / len(x):.4f}",
            flush=True,
        )
    state = {k: v.detach().numpy().astype(np.float16) for k, v in net.state_dict().items()}
    np.savez_compressed(out, **state)
    print(f"wrote {out}")


def render(folder: Path, n: int) -> None:
    """Training renders from seeds of their own (``train-dice-NNNN``), two dice each, a third of
    them cocked, every other one with the cube, every fifth on the dark board."""
    from nardy.synth import random_scene
    from nardy.synth import render as draw

    folder.mkdir(parents=True, exist_ok=True)
    for i in range(n):
        name = f"train-dice-{i:04d}"
        if (folder / f"{name}.json").exists():
            continue
        seed = zlib.crc32(name.encode())
        rng = np.random.default_rng(seed)
        kw = {"n_dice": 2, "cocked": 0.35, "with_hand": False, "with_cube": i % 2 == 0}
        if i % 5 == 0:
            kw["board"] = "dark"
        scene = random_scene(rng, **kw)
        image, truth = draw(scene, seed)
        _, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, scene.jpeg_quality])
        (folder / f"{name}.jpg").write_bytes(buf.tobytes())
        (folder / f"{name}.json").write_text(json.dumps(truth))


def main() -> None:
    import torch

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", type=Path, default=DATA, help="the real photographs (Train/ used)")
    ap.add_argument("--rendered", type=Path, help="a folder of training renders")
    ap.add_argument("--render", type=int, default=0, help="first render this many into --rendered")
    ap.add_argument("--model", choices=["dice", "cube", "both"], default="both")
    ap.add_argument("--epochs", type=int, default=10)
    ap.add_argument("--copies", type=int, default=8)
    args = ap.parse_args()
    torch.set_num_threads(1)
    torch.manual_seed(0)
    rng = np.random.default_rng(0)
    if args.render:
        render(args.rendered, args.render)
    renders = sorted(args.rendered.glob("*.jpg")) if args.rendered else []
    if args.model in ("dice", "both"):
        xs, ys, bs, cs = [], [], [], []
        sources = [(sorted((args.data / "Train").glob("*.jpg")), yolo_labels)]
        sources.append((renders, lambda p, _shape: rendered_labels(p)))
        for paths, labels_of in sources:
            for gray, window, light, label in dice_samples(paths, labels_of):
                copies = args.copies if label is not None else max(2, args.copies // 4)
                for patch, value, box, cocked in dice_augmented(
                    gray, window, light, label, rng, copies
                ):
                    xs.append(patch)
                    ys.append(value)
                    bs.append(box)
                    cs.append(cocked)
        train(xs, ys, bs, cs, 12, args.epochs, WEIGHTS)
    if args.model in ("cube", "both") and renders:
        xs, ys = [], []
        for patch, value in cube_samples(renders, rng, args.copies * 3):
            xs.append(patch)
            ys.append(value)
        from nardy.vision import cube as cube_reader

        backgrounds = []
        for path in renders[:40]:
            truth = json.loads(path.with_suffix(".json").read_text())
            to_view, size = cube_reader.view_transform(truth["corners"])
            gray = cv2.imread(str(path), cv2.IMREAD_GRAYSCALE)
            backgrounds.append(cv2.warpPerspective(gray, to_view, size, flags=cv2.INTER_AREA))
        for patch, value in drawn_cube_samples(backgrounds, rng, 6000):
            xs.append(patch)
            ys.append(value)
        from nardy.vision.cube import WEIGHTS as CUBE_WEIGHTS

        train(xs, ys, None, None, 7, args.epochs, CUBE_WEIGHTS)


if __name__ == "__main__":
    main()
