#!/usr/bin/env python3
"""Train the checker reader's networks (``src/nardy/vision/checker_model.npz``, the fast one,
and ``checker_fine_model.npz``, the fine one, with ``--fine``; ``checker_fine_second_model.npz``,
the second fine one, with ``--fine --recolour``).

    PYTHONPATH=src python scripts/make_fixtures.py --prefix train --repeat 4 \\
        --out /work/cache/train --no-clips
    PYTHONPATH=src python scripts/make_fixtures.py --prefix pts --repeat 8 \\
        --kinds stacks,dark-on-dark,bearoff,trays-out --out /work/cache/points --no-clips
    PYTHONPATH=src python scripts/train_point_model.py /work/cache/train/boards \\
        /work/cache/points/boards --tiles /work/cache/points/tiles.npz --render bar 400 \\
        --render-out /work/cache/points/bar
    PYTHONPATH=src python scripts/train_point_model.py --render stacks 400 \\
        --render-out /work/cache/counts/tall --tiles /work/cache/counts/tiles.npz --collect-only
    PYTHONPATH=src python scripts/train_point_model.py --tiles /work/cache/counts/tiles.npz \\
        --more-tiles /work/cache/points/tiles.npz --fine --epochs 14
    PYTHONPATH=src python scripts/train_point_model.py /work/cache/train/boards \\
        /work/cache/points/boards /work/cache/points/bar /work/cache/counts/tall --drawn 200 \\
        --tiles /work/cache/counts4/tiles.npz --collect-only   # all again, trays re-measured
    PYTHONPATH=src python scripts/train_point_model.py --render dice 220 \\
        --render-out /work/cache/counts4/dice --tiles /work/cache/counts4/dice_tiles.npz \\
        --collect-only
    PYTHONPATH=src python scripts/train_point_model.py --tiles /work/cache/counts4/tiles.npz \\
        --more-tiles /work/cache/counts4/dice_tiles.npz --favour cnt4-dice 4 \\
        --init src/nardy/vision/checker_model.npz --epochs 18 --samples 30000 --lr 2e-3
    (then each network again, --init from the last, 12-13 epochs at --lr 1.5e-3 --seed 5)
    PYTHONPATH=src python scripts/train_point_model.py --render heads 450 \
        --render-out /work/cache/counts5/heads --tiles /work/cache/counts5/tiles5.npz \
        --collect-only     # and --render singles 160 --render-out .../singles, the same tiles
    PYTHONPATH=src python scripts/train_point_model.py --tiles /work/cache/counts4/tiles.npz \
        --more-tiles /work/cache/counts4/dice_tiles.npz /work/cache/counts5/tiles5.npz --fine \
        --init src/nardy/vision/checker_fine_model.npz \
        --route-with src/nardy/vision/checker_model.npz --favour cnt5-head 2 \
        --favour cnt5-single 2 --epochs 10 --lr 1.5e-3 --seed 7
    (and the fast one from its weights: --favour cnt4-dice 3 --favour cnt5-single 3
    --favour cnt5-head 1.5 --epochs 8 --samples 30000 --lr 1.5e-3 --seed 8)
    PYTHONPATH=src python scripts/train_point_model.py --tiles /work/cache/counts4/tiles.npz \
        --more-tiles /work/cache/counts4/dice_tiles.npz /work/cache/counts5/tiles5.npz --fine \
        --init src/nardy/vision/checker_fine_model.npz \
        --route-with src/nardy/vision/checker_model.npz --favour cnt5-head 2 \
        --favour cnt5-single 2 --epochs 10 --lr 1.5e-3 --seed 9 --recolour 0.6 --out FINE1
    (then from FINE1 the same at --recolour 0.3 --epochs 8 --lr 1e-3 --seed 11 --out FINE2,
    and from FINE2 at --recolour 0.3 --epochs 6 --lr 5e-4 --seed 17: the second fine
    network, src/nardy/vision/checker_fine_second_model.npz)
    (``--render among``, dice thrown among the checkers: the fine and the fast network trained
    5 epochs further with them, --favour pts8-among 3, read the held-out renders no better,
    46 and 45 points wrong of 7,320 against 42, 25 against 27 of 5,280 on the set below;
    not shipped)
    PYTHONPATH=src python scripts/train_point_model.py --render among 220 \
        --render-prefix points8x-among --render-out /work/cache/points8/among_x \
        --tiles /work/cache/points8/x.npz --collect-only   # a set to measure on, not to train on

Two steps, the first cached in ``--tiles``:

1. Tiles. Every usable training image (no hand, no glare, no motion: the truth says) is read
   the way the reader reads a frame: a profile from the four corners with the layout measured
   from the photo (``measure_geometry``), then the sampler's tiles (24 points, the bar's two
   halves, the two trays). Each image is read ``--versions`` times, all but the first with its
   corners moved a few pixels at random, because no real calibration is exact. Labels come from
   the truth: ``points``, ``bar`` (light's half is the bottom one in the renderer's boards,
   dark's the top), ``off`` (light's tray the bottom one).
2. Training (PyTorch, CPU, one thread). Every batch is varied as a camera would vary it:
   brightness, contrast and colour cast, blur, noise, a mirror image across the tile; with
   ``--recolour`` a share of it also in colours no board or checker set is rendered in (hues
   turned, colour weakened or strengthened, lightness bent), so that the reader holds on sets
   it never saw. One head says the count (0–15), the other light or dark. A tenth of the
   images (by name) is held out and its accuracy printed each epoch.

The training images come from the renderer with seeds no fixture uses (``--prefix``): the
fixtures in ``tests/fixtures/boards`` are never trained on, only measured.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import time
import zlib
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from nardy.calibration import BoardProfile, ProfileError  # noqa: E402
from nardy.calibration.geometry import GeometryError  # noqa: E402
from nardy.calibration.measure import measure_geometry  # noqa: E402
from nardy.vision.checkers import (  # noqa: E402
    FINE_WEIGHTS,
    MOST,
    WEIGHTS,
    kind_features,
    needs_fine,
    network_input,
    read_with,
    tile_kinds,
)
from nardy.vision.config import VisionConfig  # noqa: E402
from nardy.vision.sampler import Sampler  # noqa: E402

IGNORE = -1


def _bar_position(rng: np.random.Generator, scene) -> dict:
    """A few checkers of each side taken from their points and put on the bar (the fixtures'
    positions rarely have any there)."""
    pts, bar = list(scene.points), [0, 0]
    for who, sign in ((0, 1), (1, -1)):
        for _ in range(int(rng.choice([0, 1, 1, 2, 2, 3, 4, 5]))):
            own = [p for p, v in enumerate(pts) if v * sign > 0]
            if not own:
                break
            pts[int(rng.choice(own))] -= sign
            bar[who] += 1
    return {"points": tuple(pts), "bar": (bar[0], bar[1])}


def _stack_position(rng: np.random.Generator, scene) -> dict:
    """Many tall points (5–15 high: second and third layers, rows past a point's end), trays
    often full, now and then checkers on the bar, dark boards (dark checkers on dark points) a
    third of the time: what counting finds hard and the fixtures' positions rarely hold. The
    fifteen a side are the game's rule, not the camera's: a tile cannot see how many stand
    elsewhere, so these boards hold more tall points than a game could, and a render costs the
    same whatever stands on the board."""
    pts = [0] * 24
    for p in rng.permutation(24)[: int(rng.integers(8, 17))]:
        n = int(rng.integers(5, 16)) if rng.random() < 0.75 else int(rng.integers(1, 5))
        pts[int(p)] = n * int(rng.choice([-1, 1]))
    return _crowded(rng, scene, pts, (0.6, 0.15, 0.33), [4, 5, 5, 6, 6, 7, 8])


def _crowded(rng: np.random.Generator, scene, pts: list[int], shares, rows) -> dict:
    """The fields of a scene beyond the rules holding ``pts``: trays full, checkers on the bar
    and a dark board, each that often (``shares``), and the players' rows drawn from ``rows``."""
    full, on_bar, dark = shares
    off = [int(rng.integers(1, 16)) if rng.random() < full else 0 for _ in range(2)]
    bar = [int(rng.integers(1, 4)) if rng.random() < on_bar else 0 for _ in range(2)]
    return {
        "points": tuple(pts),
        "bar": (bar[0], bar[1]),
        "off": (off[0], off[1]),
        "board": "dark" if rng.random() < dark else scene.board,
        "row": int(rng.choice(rows)),
        "size": (1280, 720) if rng.random() < 0.7 else (960, 540),
    }


def _head_position(rng: np.random.Generator, scene) -> dict:
    """Heads: a few points of ten to fifteen (most often thirteen to fifteen, three layers
    from the frame, the layers a count apart differ by one checker on top) among shorter
    ones, and trays of every count: the fast network's and the fine one's worst tiles. As
    with ``_stack_position``, more than fifteen a side (a tile does not see the rest)."""
    pts = [0] * 24
    chosen = rng.permutation(24)
    tall = int(rng.integers(2, 7))
    for p in chosen[:tall]:
        n = int(rng.choice([10, 11, 12, 13, 13, 14, 14, 14, 15, 15, 15, 15]))
        pts[int(p)] = n * int(rng.choice([-1, 1]))
    for p in chosen[tall : tall + int(rng.integers(3, 10))]:
        pts[int(p)] = int(rng.integers(1, 7)) * int(rng.choice([-1, 1]))
    return _crowded(rng, scene, pts, (0.5, 0.1, 0.25), [4, 5, 5, 5, 6, 6, 7])


def _lying_on_points(rng: np.random.Generator, scene) -> dict:
    """Dice and the cube lying on the points, empty ones and ones with checkers (past the
    stack's end, clear of it, as a throw leaves them), often more dice than a throw has: a
    die on an empty point must read as no checker. The position is the scene's own."""
    from nardy.synth.board import Board
    from nardy.synth.render import CUBE_MM, die_size
    from nardy.synth.scene import Cube, Die
    from nardy.synth.styles import DICE_STYLES

    board = Board.of(scene)
    taken = [
        (x, y)
        for p, n in enumerate(scene.points, 1)
        for x, y, _ in board.stack(p, abs(n), scene.row, 0, 0.0)
    ]
    taken = np.array(taken or [(1e6, 1e6)])
    half = board.inner_h / 2
    style = str(rng.choice(sorted(DICE_STYLES)))
    placed: list[tuple[float, float, float]] = []  # x, y, size of what lies there already

    def spot(size: float) -> tuple[float, float] | None:
        for _ in range(200):
            p = int(rng.integers(1, 25))
            sign = 1 if p <= 12 else -1
            x = board.point_x(p) + rng.normal(0, board.point_w * 0.12)
            y = -sign * half + sign * rng.uniform(size * 0.7, board.point_l * 1.05)
            clear = np.hypot(*(taken - (x, y)).T).min()
            if clear < board.checker / 2 + size * 0.75:
                continue
            if any(np.hypot(x - a, y - b) < (size + s) * 0.75 for a, b, s in placed):
                continue
            return float(x), float(y)
        return None

    dice = []
    for _ in range(int(rng.choice([1, 2, 2, 3, 4]))):
        if rng.random() < 0.3:
            style = str(rng.choice(sorted(DICE_STYLES)))
        size = die_size(style, board.checker)
        at = spot(size)
        if at is None:
            continue
        placed.append((*at, size))
        where = "left" if at[0] < 0 else "right"
        dice.append(
            Die(
                value=int(rng.integers(1, 7)),
                where=where,
                at=at,
                turn=float(rng.uniform(0, 90)),
                style=style,
            )
        )
    cube = scene.cube
    if rng.random() < 0.5:
        at = spot(CUBE_MM)
        if at is not None:
            cube = Cube(
                value=int(rng.choice([2, 4, 8, 16, 32, 64])),
                where="light" if at[1] < 0 else "dark",
                at=at,
                turn=float(rng.uniform(-30, 30)),
                style=str(rng.choice(["ivory", "ivory", "black", "green"])),
            )
    return {"dice": tuple(dice), "cube": cube}


def _singles_with_dice(rng: np.random.Generator, scene) -> dict:
    """Many points of one to three checkers, a few taller, and dice and the cube lying among
    them (``_lying_on_points``): a die beside a lone checker, or on an empty point, is what
    the short counts are most often misread by."""
    pts = [0] * 24
    chosen = rng.permutation(24)
    short = int(rng.integers(6, 15))
    for p in chosen[:short]:
        pts[int(p)] = int(rng.choice([1, 1, 1, 2, 2, 3])) * int(rng.choice([-1, 1]))
    for p in chosen[short : short + int(rng.integers(0, 4))]:
        pts[int(p)] = int(rng.integers(4, 9)) * int(rng.choice([-1, 1]))
    fields = {"points": tuple(pts), "bar": (0, 0), "off": scene.off}
    return fields | _lying_on_points(rng, _beyond_the_rules(scene, fields))


def _dice_among_checkers(rng: np.random.Generator, scene) -> dict:
    """Three to six dice thrown onto the playing fields of the scene's own position, as a
    throw leaves them (``compose``'s placement: flat ones close beside the checkers, cocked
    ones leaning on a checker, the rim or the other die), in the scene's dice style or
    another one: a die against a stack, past its end or leaning on a lone checker is what a
    point is most often miscounted by, and a game's throw lands there rarely."""
    from nardy.synth.board import Board
    from nardy.synth.compose import _checker_xy, _try_die
    from nardy.synth.render import die_size
    from nardy.synth.styles import DICE_STYLES

    board = Board.of(scene)
    taken = _checker_xy(scene, board)
    style = str(rng.choice(sorted(DICE_STYLES)))
    dice: list = []
    for _ in range(int(rng.integers(3, 7))):
        if rng.random() < 0.3:
            style = str(rng.choice(sorted(DICE_STYLES)))
        size = die_size(style, board.checker)
        where = str(rng.choice(["left", "right"]))
        for _try in range(200):
            die = _try_die(
                rng, scene, board, taken, board.checker / 2, size, style, where, dice, 0.45
            )
            if die is not None:
                dice.append(die)
                break
    return {"dice": tuple(dice)}


def _beyond_the_rules(scene, fields: dict):
    """``scene`` with ``fields`` set without the check that each side has at most fifteen."""
    import dataclasses

    out = dataclasses.replace(scene, points=(0,) * 24, bar=(0, 0), off=(0, 0))
    for key, value in fields.items():
        object.__setattr__(out, key, value)  # frozen, but just built here and seen nowhere else
    return out


#: kind → (the scenes' names, their position); the names seed the scenes, apart from the fixtures'
SCENES = {
    "bar": ("pts-bar", _bar_position),
    "stacks": ("pts-tall", _stack_position),
    "dice": ("cnt4-dice", _lying_on_points),
    "heads": ("cnt5-head", _head_position),
    "singles": ("cnt5-single", _singles_with_dice),
    "among": ("pts8-among", _dice_among_checkers),
}


def render_set(out: Path, count: int, prefix: str, scene_of: Callable) -> None:
    """Render ``count`` scenes ``scene_of(rng)`` into ``out`` as ``PREFIX-NNNN.jpg`` and its
    truth, each seeded by its name (seeds no fixture uses); a name already there is kept, a
    scene the renderer cannot make is skipped."""
    from nardy.synth import SceneError, render

    out.mkdir(parents=True, exist_ok=True)
    for i in range(count):
        name = f"{prefix}-{i:04d}"
        if (out / f"{name}.json").exists():
            continue
        seed = zlib.crc32(name.encode())
        try:
            scene = scene_of(np.random.default_rng(seed))
            img, truth = render(scene, seed)
        except (SceneError, MemoryError):
            continue
        _, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, scene.jpeg_quality])
        truth["image"] = f"{name}.jpg"
        (out / f"{name}.jpg").write_bytes(buf.tobytes())
        (out / f"{name}.json").write_text(json.dumps(truth, indent=1) + "\n")
        print(f"\r{i + 1}/{count} {name}", end="", flush=True)
    print()


def render_scenes(kind: str, out: Path, count: int, prefix: str | None = None) -> None:
    """Render ``count`` scenes of ``kind`` (``SCENES``) into ``out``: random scenes, seeded by
    their names (``prefix``, by default the kind's), with the position replaced."""
    import dataclasses

    from nardy.synth import random_scene

    own, position = SCENES[kind]

    def scene_of(rng: np.random.Generator):
        scene = random_scene(rng, with_hand=False)
        fields = position(rng, scene)
        if kind in ("stacks", "heads", "singles"):
            return _beyond_the_rules(scene, fields)
        return dataclasses.replace(scene, **fields)

    render_set(out, count, prefix or own, scene_of)


def labels(truth: dict, n_tiles: int, trays_right: bool) -> tuple[np.ndarray, np.ndarray]:
    """Count and colour (0 light, 1 dark, IGNORE when empty or unknown) of every tile."""
    counts = np.full(n_tiles, IGNORE)
    colours = np.full(n_tiles, IGNORE)
    pts = truth["points"]
    counts[:24] = np.abs(pts)
    colours[:24] = np.where(np.asarray(pts) > 0, 0, np.where(np.asarray(pts) < 0, 1, IGNORE))
    light_bar, dark_bar = truth["bar"]
    counts[24], colours[24] = dark_bar, 1 if dark_bar else IGNORE  # top half
    counts[25], colours[25] = light_bar, 0 if light_bar else IGNORE  # bottom half
    if n_tiles == 28 and truth["off"] is not None and trays_right:
        light_off, dark_off = truth["off"]
        counts[26], colours[26] = light_off, 0 if light_off else IGNORE  # bottom tray
        counts[27], colours[27] = dark_off, 1 if dark_off else IGNORE  # top tray
    return counts, colours


def rendered(folders: list[Path], done: set[str]):
    """(name, image, truth) of every usable training image not yet collected."""
    for jf in sorted(f for folder in folders for f in folder.glob("*.json")):
        if jf.stem in done:
            continue
        truth = json.loads(jf.read_text())
        image = cv2.imread(str(jf.with_suffix(".jpg")), cv2.IMREAD_COLOR)
        if truth["usable"] and image is not None:
            yield jf.stem, image, truth


def drawn(count: int, done: set[str]):
    """Plainly drawn boards (``tests/vision/vision_drawn.py``: flat discs, no shading) with
    random rows of checkers, seen at random tilts: a board style unlike the renderer's."""
    sys.path.insert(0, str(ROOT / "tests" / "vision"))
    from vision_drawn import draw_board, photograph

    for i in range(count):
        name = f"pts-drawn-{i:04d}"
        if name in done:
            continue
        rng = np.random.default_rng(zlib.crc32(name.encode()))
        counts = rng.choice([0, 0, 0, 1, 2, 2, 3, 4, 5, 6], 24) * rng.choice([-1, 1], 24)
        flat, corners = draw_board([int(v) for v in counts], seed=i)
        size = (1280, 720) if rng.random() < 0.7 else (960, 540)
        photo, seen = photograph(
            flat, corners, size=size, tilt=float(rng.uniform(0, 35)), noise=rng.uniform(1, 5)
        )
        truth = {
            "points": counts.tolist(),
            "bar": [0, 0],
            "off": None,
            "corners": seen.tolist(),
            "style": {"scene": {"trays": "right"}},
        }
        yield name, photo, truth


def collect(samples, versions: int, jitter: float, out: Path) -> None:
    """Step 1: the tiles and labels of every (name, image, truth) in ``samples``, added to
    ``out`` (.npz), so a set still being rendered can be collected as it grows."""
    xs, kinds, counts, colours, groups, names = [], [], [], [], [], []
    t0 = time.time()
    for i, (name, image, truth) in enumerate(samples):
        size = (image.shape[1], image.shape[0])
        true_corners = np.asarray(truth["corners"], float)
        scale = np.linalg.norm(true_corners[1] - true_corners[0])  # the surface's width
        rng = np.random.default_rng(zlib.crc32(name.encode()))
        side = truth["style"]["scene"].get("trays", "right")
        try:
            # measured once, on the true corners: moving the corners then moves every tile
            # against the board as a calibration error would
            geometry = measure_geometry(image, true_corners)
        except (ProfileError, GeometryError):
            continue
        trays = geometry.trays
        right = trays is not None and (trays[0].x0 > 0.5) == (side == "right")
        for v in range(versions):
            corners = true_corners + (v > 0) * rng.normal(0, jitter * scale, (4, 2))
            try:
                profile = BoardProfile.from_corners(corners, size, geometry)
            except ProfileError:
                continue
            tiles = Sampler(profile).sample(image).checker_tiles()
            n = len(tiles)
            c, k = labels(truth, n, right)
            xs.append(tiles)
            kinds.append(tile_kinds(n))
            counts.append(c)
            colours.append(k)
            groups.append(np.full(n, zlib.crc32(name.encode()) % 10))
            names.append(np.full(n, name))
        if i % 20 == 0:
            print(f"\r{i + 1} images, {time.time() - t0:.0f} s", end="", flush=True)
    print()
    if not xs:
        return
    new = {
        "x": np.concatenate(xs),
        "kind": np.concatenate(kinds),
        "count": np.concatenate(counts),
        "colour": np.concatenate(colours),
        "group": np.concatenate(groups),
        "name": np.concatenate(names),
    }
    if out.exists():
        old = dict(np.load(out))
        new = {k: np.concatenate([old[k], v]) for k, v in new.items()}
    np.savez(out, **new)


def collected(path: Path) -> set[str]:
    return set(np.load(path)["name"].tolist()) if path.exists() else set()


def build_model(
    channels: tuple[int, int, int],
    hidden: int,
    tile: tuple[int, int],
    outputs: int = MOST + 3,
    stem: int = 0,
):
    """``tinynet``'s shape: three conv + ReLU + max-pool, two dense layers. With ``stem``, the
    first is a ``stem`` × ``stem`` convolution at that stride, ReLU, no pool (``tinynet``'s
    ``stem``): it reads the tile at full size for about what the average over 2 × 2 pixels
    and a 3 × 3 convolution at half size cost."""
    import torch
    from torch import nn

    class Net(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            a, b, c = channels
            if stem:
                self.stem = nn.Conv2d(3, a, stem, stride=stem)
                self.conv1 = nn.Conv2d(a, b, 3, padding=1)
                self.conv2 = nn.Conv2d(b, c, 3, padding=1)
                convs, shrink = (self.conv1, self.conv2), 4 * stem
            else:
                self.conv1 = nn.Conv2d(3, a, 3, padding=1)
                self.conv2 = nn.Conv2d(a, b, 3, padding=1)
                self.conv3 = nn.Conv2d(b, c, 3, padding=1)
                convs, shrink = (self.conv1, self.conv2, self.conv3), 8
            self.convs = convs
            flat = c * (tile[0] // shrink) * (tile[1] // shrink)
            self.fc1 = nn.Linear(flat + 3, hidden)
            self.fc2 = nn.Linear(hidden, outputs)

        def forward(self, x, extra):
            if stem:
                x = torch.relu(self.stem(x))
            for conv in self.convs:
                x = torch.max_pool2d(torch.relu(conv(x)), 2)
            x = torch.cat([x.flatten(1), extra], 1)
            return self.fc2(torch.relu(self.fc1(x)))

    return Net()


def augment(
    x,
    gen,
    contrast: float = 0.3,
    brightness: float = 0.4,
    blur_share: float = 0.4,
    noise=0.12,
    mix: float = 0.0,
    recolour: float = 0.0,
):
    """A batch (n, 3, l, w) as other cameras and lights would show it: contrast within
    1 ± ``contrast``, brightness within ± ``brightness``, ``blur_share`` of them blurred, sensor
    noise up to ``noise``; with ``mix``, half the batch in other colours (each channel a mix
    of all three, weights off the identity by about ``mix``): sets and boards never seen;
    first, ``recolour`` of them in other colours (``recoloured``)."""
    import torch
    import torch.nn.functional as F

    n = len(x)

    def r(lo, hi, *shape):
        return lo + (hi - lo) * torch.rand(n, *shape, generator=gen)

    if recolour:
        x = recoloured(x, gen, recolour)
    x = x * r(1 - contrast, 1 + contrast, 1, 1, 1) + r(-brightness, brightness, 1, 1, 1)
    x = x * r(0.85, 1.15, 3, 1, 1) + r(-0.15, 0.15, 3, 1, 1)  # colour cast
    if mix:
        m = torch.eye(3) + mix * torch.randn(n, 3, 3, generator=gen)
        m[torch.rand(n, generator=gen) < 0.5] = torch.eye(3)
        x = torch.einsum("nij,njhw->nihw", m, x)
    blur = torch.rand(n, generator=gen) < blur_share
    if blur.any():
        k = torch.tensor([0.25, 0.5, 0.25])
        k2 = (k[:, None] * k[None, :]).expand(3, 1, 3, 3)
        x[blur] = F.conv2d(F.pad(x[blur], (1, 1, 1, 1), mode="replicate"), k2, groups=3)
    x = x + torch.randn(x.shape, generator=gen) * r(0.0, noise, 1, 1, 1)
    flip = torch.rand(n, generator=gen) < 0.5
    x[flip] = x[flip].flip(3)
    return x


def recoloured(x, gen, share: float):
    """``share`` of a batch (n, 3, l, w; grey at 0) in the colours of boards and checker sets
    never rendered: hues turned about the grey axis by any angle, colour weakened or
    strengthened (0.3–1.7), lightness bent by a gamma of 0.6–1.6. None of it changes which of
    two sets is the lighter (a hue turn keeps each pixel's channel sum), so the labels hold."""
    import math

    import torch

    n = len(x)
    on = torch.rand(n, generator=gen) < share
    theta = (torch.rand(n, generator=gen) * 2 - 1) * math.pi * on
    sat = torch.where(on, 0.3 + 1.4 * torch.rand(n, generator=gen), torch.ones(n))
    gamma = torch.where(on, torch.exp(torch.empty(n).uniform_(-0.5, 0.47, generator=gen)), 1.0)
    u = torch.full((3,), 3**-0.5)
    cross = torch.tensor([[0.0, -u[2], u[1]], [u[2], 0.0, -u[0]], [-u[1], u[0], 0.0]])
    c, s = torch.cos(theta)[:, None, None], torch.sin(theta)[:, None, None]
    turn = c * torch.eye(3) + s * cross + (1 - c) * torch.outer(u, u)
    grey = x.mean(1, keepdim=True)
    x = grey + sat[:, None, None, None] * (x - grey)
    x = torch.einsum("nij,njhw->nihw", turn, x)
    level = ((x * 64 + 128) / 255).clamp(0, 1) ** gamma[:, None, None, None]
    return (level * 255 - 128) / 64


def train(args: argparse.Namespace) -> None:
    import torch

    torch.set_num_threads(1)
    torch.manual_seed(args.seed)
    gen = torch.Generator().manual_seed(args.seed)
    parts = [dict(np.load(path)) for path in [args.tiles, *args.more_tiles]]
    data = {k: np.concatenate([part[k] for part in parts]) for k in parts[0]}
    del parts
    x_all = data["x"]
    keep = data["count"] != IGNORE
    held = data["group"] == 0
    tr = np.flatnonzero(keep & ~held)
    va = np.flatnonzero(keep & held)
    print(f"tiles: {len(tr)} training, {len(va)} held out")
    for name, kind in (("points", 0), ("bar", 1), ("trays", 2)):
        sel = data["kind"][tr] == kind
        hist = np.bincount(data["count"][tr][sel], minlength=MOST + 1)
        print(f"  {name}: {sel.sum()} tiles, counts {hist.tolist()}")
    full = args.fine or bool(args.stem)  # the tiles at full size, not averaged over 2 × 2
    tile = network_input(x_all[:1], full).shape[1:3]
    model = build_model(tuple(args.channels), args.hidden, tile, stem=args.stem)
    if args.init:  # go on from weights trained before (on less data)
        with np.load(args.init) as z:
            model.load_state_dict({k: torch.from_numpy(z[k].astype(np.float32)) for k in z.files})
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=1e-4)
    steps = args.epochs * (args.samples // args.batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, args.lr, total_steps=steps)

    def tensors(idx):
        x = torch.from_numpy(network_input(x_all[idx], full)).permute(0, 3, 1, 2)
        x = x.contiguous()
        extra = torch.from_numpy(kind_features(data["kind"][idx]))
        count = torch.from_numpy(data["count"][idx])
        colour = torch.from_numpy(data["colour"][idx])
        return x, extra, count, colour

    routed = None
    if args.fine and args.route_with:
        routed = routed_tiles(x_all[tr], data["kind"][tr], args.route_with)
        print(f"  the fast network sends {routed.sum()} of {len(tr)} to the fine one")
    taught = None
    if args.teacher:
        taught = teacher_outputs(x_all, data["kind"], args.teacher)
        print(f"  distilled from {args.teacher}, {args.distil:.0%} of each loss")
    weight = draw_weights(data["count"][tr], data["kind"][tr], args.fine, routed)
    for prefix, factor in args.favour:  # sets made for what the others hold too rarely
        weight[np.char.startswith(data["name"][tr].astype(str), prefix)] *= float(factor)
    weight /= weight.sum()
    rng = np.random.default_rng(args.seed)
    t0 = time.time()
    for epoch in range(args.epochs):
        model.train()
        order = rng.choice(tr, size=(args.samples // args.batch, args.batch), p=weight)
        total = 0.0
        for idx in order:
            x, extra, count, colour = tensors(np.sort(idx))
            out = model(augment(x, gen, mix=args.colour_mix, recolour=args.recolour), extra)
            loss = count_colour_loss(out, count, colour)
            if taught is not None:
                loss = (1 - args.distil) * loss + args.distil * distil_loss(
                    out, *(torch.from_numpy(t[np.sort(idx)]) for t in taught), count
                )
            total += step(opt, sched, loss)
        print(
            f"epoch {epoch + 1}: loss {total / len(order):.4f}, "
            f"held out {evaluate(model, tensors, va, data)}, {time.time() - t0:.0f} s",
            flush=True,
        )
        export(model, args.out)
    print(f"wrote {args.out}")


def count_colour_loss(out, count, colour, smoothing: float = 0.0):
    """Cross-entropy of the count head, plus the colour head's on tiles with checkers."""
    import torch.nn.functional as F

    loss = F.cross_entropy(out[:, : MOST + 1], count, label_smoothing=smoothing)
    has = colour != IGNORE
    if has.any():
        loss = loss + F.cross_entropy(out[has, MOST + 1 :], colour[has])
    return loss


def step(opt, sched, loss) -> float:
    """One optimiser step on ``loss``; its value."""
    opt.zero_grad()
    loss.backward()
    opt.step()
    sched.step()
    return float(loss.detach())


def teacher_outputs(x: np.ndarray, kinds: np.ndarray, teacher: Path):
    """The teacher network's probabilities for every tile: of each count (n × (MOST + 1)),
    and of light and dark (n × 2)."""
    count_p = np.zeros((len(x), MOST + 1), np.float32)
    colour_p = np.zeros((len(x), 2), np.float32)
    for a in range(0, len(x), 4096):
        read = read_with(x[a : a + 4096], kinds[a : a + 4096], teacher, fine=False)
        count_p[a : a + 4096] = read.count_p
        colour_p[a : a + 4096, 0] = read.light_p
    colour_p[:, 1] = 1 - colour_p[:, 0]
    return count_p, colour_p


def distil_loss(out, count_p, colour_p, count):
    """Cross-entropy against the teacher's probabilities: its doubt (which tiles it hands the
    fine network) is taught with its answers. The colour only on tiles with checkers."""
    import torch.nn.functional as F

    logq = F.log_softmax(out[:, : MOST + 1], 1)
    loss = -(count_p * logq).sum(1).mean()
    some = count > 0
    if some.any():
        logc = F.log_softmax(out[some, MOST + 1 :], 1)
        loss = loss - (colour_p[some] * logc).sum(1).mean()
    return loss


def routed_tiles(x: np.ndarray, kinds: np.ndarray, fast: Path) -> np.ndarray:
    """Which tiles the fast network (weights ``fast``) sends to the fine one."""
    config = VisionConfig()
    routed = np.zeros(len(x), bool)
    for a in range(0, len(x), 4096):
        read = read_with(x[a : a + 4096], kinds[a : a + 4096], fast, fine=False)
        routed[a : a + 4096] = needs_fine(read, kinds[a : a + 4096], config)
    return routed


def draw_weights(
    counts: np.ndarray, kinds: np.ndarray, fine: bool, routed: np.ndarray | None = None
) -> np.ndarray:
    """How often each training tile is drawn. Harder tiles (tall stacks, the bar and trays)
    are rarer: the fast network draws them more often. The fine one reads the tiles the fast
    one calls tall or is unsure of: it draws every count of every kind about equally often,
    and, given ``routed`` (the tiles the fast network sends it), mostly those, empty points
    with a die on them among them."""
    weight = np.ones(len(counts))
    if fine:
        for kind in range(3):
            for n in range(MOST + 1):
                for sent in (False, True) if routed is not None else (None,):
                    sel = (kinds == kind) & (counts == n)
                    if sent is not None:
                        sel &= routed == sent
                    weight[sel] = (1.0 if sent in (None, True) else 0.2) / max(sel.sum(), 50)
        weight[kinds == 0] *= 3.0
    else:
        weight[(counts == 0) & (kinds == 0)] = 0.5
        weight[counts >= 5] = 2.0
        weight[kinds != 0] = 3.0
    return weight / weight.sum()


def evaluate(model, tensors, idx: np.ndarray, data) -> str:
    import torch

    model.eval()
    wrong = np.zeros(3)
    seen = np.zeros(3)
    with torch.no_grad():
        for chunk in np.array_split(idx, max(1, len(idx) // 2048)):
            x, extra, count, colour = tensors(chunk)
            out = model(x, extra)
            c = out[:, : MOST + 1].argmax(1)
            k = out[:, MOST + 1 :].argmax(1)
            bad = (c != count) | ((colour != IGNORE) & (k != colour))
            kinds = data["kind"][chunk]
            for kind in range(3):
                sel = kinds == kind
                wrong[kind] += int(bad.numpy()[sel].sum())
                seen[kind] += int(sel.sum())
    return ", ".join(
        f"{name} {100 * w / max(s, 1):.2f} % wrong"
        for name, w, s in zip(("points", "bar", "trays"), wrong, seen, strict=True)
    )


def export(model, out: Path) -> None:
    weights = {k: v.detach().numpy().astype(np.float16) for k, v in model.state_dict().items()}
    np.savez_compressed(out, **weights)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folders", type=Path, nargs="*", help="training images with truth JSON")
    ap.add_argument("--tiles", type=Path, required=True, help="cache of step 1 (.npz)")
    ap.add_argument("--more-tiles", type=Path, nargs="*", default=[], help="train on these too")
    ap.add_argument("--fine", action="store_true", help="the fine network (full-size tiles)")
    ap.add_argument(
        "--route-with", type=Path, help="fine: draw mostly what these fast weights send it"
    )
    ap.add_argument("--versions", type=int, default=2, help="reads of each image")
    ap.add_argument("--collect-only", action="store_true", help="step 1 only")
    ap.add_argument("--drawn", type=int, default=0, help="add this many drawn boards")
    ap.add_argument(
        "--render", nargs=2, metavar=("KIND", "N"), help=f"first render N scenes of {set(SCENES)}"
    )
    ap.add_argument("--render-out", type=Path, help="where the rendered scenes go")
    ap.add_argument(
        "--render-prefix", help="name (and seed) the scenes so: a set to measure on, not train"
    )
    ap.add_argument("--jitter", type=float, default=0.005, help="corner noise, surface widths")
    ap.add_argument("--epochs", type=int, default=12)
    ap.add_argument("--batch", type=int, default=128)
    ap.add_argument("--samples", type=int, default=20000, help="tiles drawn in an epoch")
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--channels", type=int, nargs=3, help="default 8 16 32, fine 12 24 48")
    ap.add_argument("--hidden", type=int, help="default 64, fine 96")
    ap.add_argument("--seed", type=int, default=4)
    ap.add_argument("--init", type=Path, help="start from these weights (.npz)")
    ap.add_argument(
        "--favour",
        nargs=2,
        action="append",
        default=[],
        metavar=("PREFIX", "FACTOR"),
        help="draw the tiles of images named PREFIX... FACTOR times as often",
    )
    ap.add_argument("--stem", type=int, default=0, help="fast: a first S×S layer at stride S")
    ap.add_argument("--teacher", type=Path, help="distil from these fast weights (.npz)")
    ap.add_argument("--distil", type=float, default=0.5, help="the teacher's share of the loss")
    ap.add_argument("--colour-mix", type=float, default=0.0, help="other colours (augment)")
    ap.add_argument(
        "--recolour", type=float, default=0.0, help="share of tiles drawn in other colours"
    )
    ap.add_argument("--out", type=Path)
    args = ap.parse_args()
    args.channels = args.channels or ([12, 24, 48] if args.fine else [8, 16, 32])
    args.hidden = args.hidden or (96 if args.fine else 64)
    args.out = args.out or (FINE_WEIGHTS if args.fine else WEIGHTS)
    if args.render:
        render_scenes(args.render[0], args.render_out, int(args.render[1]), args.render_prefix)
        args.folders.append(args.render_out)
    if args.folders or args.drawn:
        done = collected(args.tiles)
        samples = itertools.chain(rendered(args.folders, done), drawn(args.drawn, done))
        collect(samples, args.versions, args.jitter, args.tiles)
        if args.collect_only:
            return 0
    if not args.tiles.exists():
        ap.error("no tiles yet: name the training folders")
    train(args)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
