#!/usr/bin/env python3
"""Train the hand-over-a-point networks (``src/nardy/vision/hand_tiles_model.npz``, the fast one,
and ``hand_tiles_fine_model.npz``, the fine one, with ``--fine``) on CPU.

Needs PyTorch, which reading does not. Two steps, the first cached in ``--tiles``:

1. Tiles. Every rendered board (folders in the fixtures' form, seeds no fixture uses, e.g.
   ``make_fixtures.py --prefix NAME --kinds hand,hands ...``) is read as the reader reads a
   frame: a profile from its four corners with the layout measured from the photo, then the
   sampler's tiles (24 points, the bar's halves, the trays), once at the true corners and once
   at corners moved a little. A board with a hand over it is rendered again from its scene
   and seed, once as it was and once without the hand (the renderer is deterministic): where
   the two differ is the hand, and each tile's label is the share of it the hand covers.
   Glare and motion-blurred boards are left out (other checks catch them).
2. Training (PyTorch, one thread): a tile is a hand's when the hand covers ``--covered`` of it
   or more, clear when it touches neither it nor the two tiles either side; the rest are not
   learnt from. Light, colour, blur,
   noise and a mirror image vary every batch. A tenth of the boards (by name) is held out,
   and for them the script prints, at several cuts, how many tiles and boards the network
   calls a hand's: the cut (``VisionConfig.hand_tile``) is chosen from these figures, never
   from the fixtures.

    PYTHONPATH=src python scripts/train_hand_tiles.py DIR/boards ... --tiles tiles.npz \
        --collect-only
    PYTHONPATH=src python scripts/train_hand_tiles.py --tiles tiles.npz --epochs 14 \
        --samples 30000 [--fine]

The networks shipped learnt from 1,207 clear boards (``make_fixtures.py --prefix train``) and
300 with a hand (the fast one 400; ``--kinds hand`` and ``hands``); the cuts in ``VisionConfig``
were chosen on 414 more (boards with full trays, cubes and hands) neither learnt from.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import zlib
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from train_point_model import augment, build_model  # noqa: E402

from nardy.calibration import BoardProfile, ProfileError  # noqa: E402
from nardy.calibration.geometry import GeometryError  # noqa: E402
from nardy.calibration.measure import measure_geometry  # noqa: E402
from nardy.vision.checkers import kind_features, network_input, tile_kinds  # noqa: E402
from nardy.vision.config import VisionConfig  # noqa: E402
from nardy.vision.hand_tiles import FINE_WEIGHTS, WEIGHTS, tile_probs  # noqa: E402
from nardy.vision.sampler import Sampler  # noqa: E402

TILES = 28  # points, bar halves, trays: boards with the trays out of view are padded
CHANNELS = (8, 16, 24)
HIDDEN = 24


def hand_mask(truth: dict) -> np.ndarray:
    """Where the hand (and what it holds) lies in the picture, 255 there: the board rendered
    with and without it differs there and nowhere else but its soft shadow."""
    from nardy.synth import render
    from nardy.synth.scene import Scene

    scene = Scene.from_json(truth["style"]["scene"])
    seed = truth["style"]["seed"]
    with_hand, _ = render(scene, seed)
    without, _ = render(dataclasses.replace(scene, hand=None), seed)
    diff = np.abs(with_hand.astype(np.int16) - without.astype(np.int16)).max(axis=2)
    return np.where(diff > 40, 255, 0).astype(np.uint8)


def board_tiles(jf: Path) -> list[tuple[np.ndarray, np.ndarray]]:
    """(tiles, cover) of one rendered board, at its true corners and at moved ones; cover is
    the hand's share of each tile, -1 for a tile not in view."""
    truth = json.loads(jf.read_text())
    hand = truth.get("why") == "hand"
    if not truth["usable"] and not hand:
        return []
    image = cv2.imread(str(jf.with_suffix(".jpg")))
    size = (image.shape[1], image.shape[0])
    corners = np.array(truth["corners"], float)
    mask = hand_mask(truth) if hand else None
    rng = np.random.default_rng(zlib.crc32(jf.stem.encode()))
    span = np.linalg.norm(corners[1] - corners[0])
    out = []
    for k in range(2):
        c = corners if k == 0 else corners + rng.normal(0, 0.006 * span, corners.shape)
        try:
            profile = BoardProfile.from_corners(c, size, measure_geometry(image, c))
        except (ProfileError, GeometryError):
            continue
        sampler = Sampler(profile, VisionConfig())
        tiles = sampler.sample(image).checker_tiles()
        n = len(tiles)
        cover = np.full(TILES, -1.0, np.float32)
        cover[:n] = 0.0
        if mask is not None:
            seen = sampler.sample(cv2.merge([mask] * 3), stretch=False).checker_tiles()
            cover[:n] = seen[..., 0].reshape(n, -1).mean(axis=1) / 255.0
        padded = np.zeros((TILES, *tiles.shape[1:]), np.uint8)
        padded[:n] = tiles
        out.append((padded, cover))
    return out


def collect(folders: list[Path], cache: Path) -> dict[str, np.ndarray]:
    """Every board's tiles, those cut before read from ``cache`` (kept, new boards added)."""
    data: dict[str, list] = {"tiles": [], "cover": [], "names": []}
    if cache.exists():
        with np.load(cache) as z:
            data = {k: list(z[k]) for k in data}
    done = {str(n) for n in data["names"]}
    files = sorted(f for d in folders for f in d.glob("*.json") if f.stem not in done)
    for i, jf in enumerate(files):
        for tiles, cover in board_tiles(jf):
            data["tiles"].append(tiles)
            data["cover"].append(cover)
            data["names"].append(jf.stem)
        print(f"\r{i + 1}/{len(files)} {jf.stem}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    out = {k: np.stack(v) for k, v in data.items()}
    if files:
        np.savez(cache, **out)
    return out


def near_hand(cover: np.ndarray) -> np.ndarray:
    """Tiles (boards × TILES) beside one the hand touches, two either way in the sampler's
    order: where the hand's own pixels barely differ from the board (a dark sleeve over a dark
    point), its shadow and its edges fall there, so they are learnt as neither."""
    touched = cover >= 0.002
    near = touched.copy()
    for shift in (1, 2):
        near[:, shift:] |= touched[:, :-shift]
        near[:, :-shift] |= touched[:, shift:]
    return near


def train(data: dict[str, np.ndarray], args: argparse.Namespace) -> None:
    import torch
    import torch.nn.functional as F

    torch.set_num_threads(1)
    torch.manual_seed(args.seed)
    gen = torch.Generator().manual_seed(args.seed)
    n_boards = len(data["cover"])
    kinds = np.broadcast_to(tile_kinds(TILES), (n_boards, TILES)).reshape(-1)
    cover = data["cover"].reshape(-1)
    board = np.repeat(np.arange(n_boards), TILES)
    held_board = np.array([zlib.crc32(str(n).encode()) % 10 == 0 for n in data["names"]])
    held = held_board[board]
    hand = cover >= args.covered
    clear = (cover >= 0) & (cover < 0.002) & ~near_hand(data["cover"]).reshape(-1)
    learn = hand | clear
    tr, va = np.flatnonzero(learn & ~held), np.flatnonzero((cover >= 0) & held)
    print(f"tiles: {hand[tr].sum()} a hand's, {clear[tr].sum()} clear; {len(va)} held out")
    flat = data["tiles"].reshape(-1, *data["tiles"].shape[2:])

    def batch(idx: np.ndarray):
        return torch.from_numpy(network_input(flat[idx], args.fine).transpose(0, 3, 1, 2).copy())

    k_all = torch.from_numpy(kind_features(kinds))
    y_all = torch.from_numpy(hand.astype(np.float32))
    net = build_model(CHANNELS, HIDDEN, tuple(batch(tr[:1]).shape[2:]), outputs=1)
    opt = torch.optim.AdamW(net.parameters(), lr=args.lr, weight_decay=1e-4)
    steps = args.epochs * (args.samples // 256)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=args.lr, total_steps=steps)
    # as many of a hand's tiles as clear ones in every batch: they are one in thirty
    p = np.where(hand[tr], 0.5 / hand[tr].sum(), 0.5 / clear[tr].sum())
    rng = np.random.default_rng(args.seed)
    for epoch in range(args.epochs):
        net.train()
        total = 0.0
        for _ in range(args.samples // 256):
            idx = rng.choice(tr, 256, p=p)
            logit = net(
                augment(batch(idx), gen, contrast=0.25, brightness=0.35, blur_share=0.3, noise=0.1),
                k_all[idx],
            )[:, 0]
            loss = F.binary_cross_entropy_with_logits(logit, y_all[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += loss.item()
        print(f"epoch {epoch + 1}: loss {total / (args.samples // 256):.4f}", file=sys.stderr)
        np.savez_compressed(args.out, **{k: v.numpy() for k, v in net.state_dict().items()})
    report(data, args.out, args.fine, held_board, args.covered)


def report(
    data: dict[str, np.ndarray], weights: Path, fine: bool, held: np.ndarray, covered: float
) -> None:
    """Held-out figures at several cuts: tiles, and boards (a board is called a hand's when
    any of its tiles is)."""
    probs = np.zeros(data["cover"].shape, np.float32)
    for b in np.flatnonzero(held):
        n = int((data["cover"][b] >= 0).sum())
        probs[b, :n] = tile_probs(data["tiles"][b, :n], weights, fine)
    cover = data["cover"][held]
    probs = probs[held]
    hand_board = (cover >= covered).any(axis=1)
    clear_board = (cover < 0.02).all(axis=1)
    print(f"held out: {hand_board.sum()} boards with a hand over a tile, {clear_board.sum()} clear")
    for cut in (0.5, 0.8, 0.9, 0.95, 0.98, 0.99, 0.995):
        called = probs >= cut
        tiles_hand = called[cover >= covered].mean()
        tiles_clear = called[(cover >= 0) & (cover < 0.02)].mean()
        boards = called.any(axis=1)
        two = called.sum(axis=1) >= 2
        print(
            f"cut {cut}: hand tiles caught {tiles_hand:.1%}, clear tiles called {tiles_clear:.3%}; "
            f"boards caught {boards[hand_board].sum()}/{hand_board.sum()}, "
            f"clear boards called {boards[clear_board].sum()}/{clear_board.sum()}; two tiles: "
            f"caught {two[hand_board].sum()}, clear called {two[clear_board].sum()}"
        )
    print(f"weights: {weights} ({weights.stat().st_size / 1000:.0f} kB)")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folders", type=Path, nargs="*")
    ap.add_argument("--tiles", type=Path, required=True, help="the tiles' cache (.npz)")
    ap.add_argument("--more-tiles", type=Path, nargs="*", default=[], help="other caches")
    ap.add_argument("--collect-only", action="store_true")
    ap.add_argument("--covered", type=float, default=0.15, help="a hand's tile from this share")
    ap.add_argument("--epochs", type=int, default=12)
    ap.add_argument("--samples", type=int, default=40000, help="tiles an epoch")
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--fine", action="store_true", help="the fine network (tiles at full size)")
    ap.add_argument("--out", type=Path)
    ap.add_argument("--report-only", action="store_true")
    args = ap.parse_args()
    args.out = args.out or (FINE_WEIGHTS if args.fine else WEIGHTS)
    data = collect(args.folders, args.tiles)
    if args.collect_only:
        return 0
    for more in args.more_tiles:
        with np.load(more) as z:
            data = {k: np.concatenate([data[k], z[k]]) for k in data}
    if args.report_only:
        held = np.array([zlib.crc32(str(n).encode()) % 10 == 0 for n in data["names"]])
        report(data, args.out, args.fine, held, args.covered)
        return 0
    train(data, args)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
