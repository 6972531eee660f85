"""Short video clips of a move being made — the hand comes in, lifts a checker, puts it down on
another point and leaves — with the truth of every frame, for the stillness signal.

A clip is ``NAME.avi`` (MJPG, OpenCV-readable) and ``NAME.frames.json``::

    {"video", "fps", "size", "corners", "light", "style",
     "frames": [{"index", "usable", "why"?, "still", "hand", "points", "bar", "off", "dice"}]}

``still`` is true when no hand is over the board and the position has not changed for the last
``STILL_AFTER`` frames (the frame itself included).
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import cv2
import numpy as np

from nardy.synth.board import Board
from nardy.synth.compose import random_scene
from nardy.synth.render import render
from nardy.synth.scene import Hand, Scene

STILL_AFTER = 3
FPS = 5

#: (name, random_scene keywords, seed)
CLIPS: list[tuple[str, dict, int]] = [
    ("move-bg-start", {"kind": "backgammon_start", "board": "classic"}, 101),
    ("move-nardy", {"kind": "nardy", "board": "nardy"}, 202),
    ("move-felt-mid", {"kind": "backgammon", "board": "felt"}, 303),
    ("move-dark", {"kind": "backgammon", "board": "dark", "checkers": "beige_brown"}, 404),
]


def _move(scene: Scene, rng: np.random.Generator) -> tuple[int, int]:
    """A source point and a target point the checker on top of the source can go to."""
    pts = scene.points
    sources = [p for p in range(1, 25) if pts[p - 1] != 0]
    for _ in range(200):
        src = int(rng.choice(sources))
        sign = 1 if pts[src - 1] > 0 else -1
        dst = int(rng.integers(1, 25))
        if dst != src and pts[dst - 1] * sign >= 0:
            return src, dst
    raise ValueError("no move found")


def timeline(scene: Scene, rng: np.random.Generator, frames: int = 40) -> list[Scene]:
    """The scenes of a clip: still, the hand in, the checker lifted, carried, put down, hand
    out, still."""
    board = Board.of(scene)
    src, dst = _move(scene, rng)
    sign = 1 if scene.points[src - 1] > 0 else -1
    who = "light" if sign > 0 else "dark"
    enters = "bottom" if rng.random() < 0.5 else "top"
    ey = -1 if enters == "bottom" else 1

    def over(p: int) -> tuple[float, float]:
        n = abs(scene.points[p - 1])
        x = board.point_x(p)
        y = (-1 if p <= 12 else 1) * (board.inner_h / 2 - board.checker * (0.5 + min(n, 4)))
        return (x, y)

    outside = (over(src)[0], ey * (board.inner_h / 2 + 450))
    a, b = over(src), over(dst)
    before = scene.points
    lifted = list(before)
    lifted[src - 1] -= sign
    after = list(lifted)
    after[dst - 1] += sign
    # key frames: (frame, reach, height, holding, points)
    t_in, t_src, t_up, t_dst, t_down, t_out = 8, 13, 15, 21, 23, 29
    out = []
    for f in range(frames):
        if f < t_in or f > t_out:
            hand = None
            pts = before if f < t_in else after
        else:
            if f <= t_src:
                s = (f - t_in) / (t_src - t_in)
                reach, height = _lerp(outside, a, s), 160 - 110 * s
            elif f <= t_up:
                reach, height = a, 50.0
            elif f <= t_dst:
                s = (f - t_up) / (t_dst - t_up)
                reach, height = _lerp(a, b, s), 50 + 40 * np.sin(np.pi * s)
            elif f <= t_down:
                reach, height = b, 50.0
            else:
                s = (f - t_down) / (t_out - t_down)
                reach, height = _lerp(b, outside, s), 50 + 110 * s
            lifting = t_src < f <= t_down
            pts = tuple(lifted) if lifting else (tuple(after) if f > t_down else before)
            hand = Hand(
                enters=enters,
                reach=(float(reach[0]), float(reach[1])),
                height=float(height),
                skin=int(rng.integers(5)) if f == t_in else 0,
                sleeve=1,
                spread=0.4,
                holding=who if lifting else "",
            )
        out.append(dataclasses.replace(scene, points=tuple(pts), hand=hand))
    # one skin and sleeve for the whole clip
    skin = next(s.hand.skin for s in out if s.hand is not None)
    return [
        dataclasses.replace(s, hand=dataclasses.replace(s.hand, skin=skin))
        if s.hand is not None
        else s
        for s in out
    ]


def _lerp(a, b, s: float) -> np.ndarray:
    return np.asarray(a, float) + (np.asarray(b, float) - np.asarray(a, float)) * s


def clip_scenes(kw: dict, seed: int, size=(960, 540)) -> list[Scene]:
    """The scene of every frame of a clip."""
    rng = np.random.default_rng(seed)
    scene = random_scene(
        rng,
        n_dice=2,
        with_cube=False,
        with_hand=False,
        size=size,
        markers=False,
        whole_board=True,
        **kw,
    )
    scene = dataclasses.replace(
        scene,
        lighting=dataclasses.replace(
            scene.lighting, motion=0.0, glare=min(scene.lighting.glare, 0.2)
        ),
    )
    return timeline(scene, rng)


def make_clip(kw: dict, seed: int, size=(960, 540)) -> tuple[list[np.ndarray], dict]:
    scenes = clip_scenes(kw, seed, size)
    scene = dataclasses.replace(scenes[0], hand=None)
    images, frames, history = [], [], []
    first = None
    for i, sc in enumerate(scenes):
        img, truth = render(sc, seed, frame=i)
        images.append(img)
        first = first or truth
        history.append((sc.hand is None, sc.points))
        recent = history[-STILL_AFTER:]
        still = (
            len(recent) == STILL_AFTER
            and all(h for h, _ in recent)
            and all(p == recent[-1][1] for _, p in recent)
        )
        frame = {"index": i, "usable": truth["usable"]}
        if "why" in truth:
            frame["why"] = truth["why"]
        frame.update(
            {
                "still": still,
                "hand": sc.hand is not None,
                "points": truth["points"],
                "bar": truth["bar"],
                "off": truth["off"],
                "dice": truth["dice"],
            }
        )
        frames.append(frame)
    meta = {
        "fps": FPS,
        "size": list(size),
        "corners": first["corners"],
        "light": first["light"],
        "lens": first["lens"],
        "style": {**first["style"], "scene": scene.to_json()},
        "frames": frames,
    }
    return images, meta


def write_clips(out: Path) -> list[str]:
    out.mkdir(parents=True, exist_ok=True)
    lines = []
    for name, kw, seed in CLIPS:
        images, meta = make_clip(kw, seed)
        video = out / f"{name}.avi"
        h, w = images[0].shape[:2]
        writer = cv2.VideoWriter(str(video), cv2.VideoWriter_fourcc(*"MJPG"), FPS, (w, h))
        if not writer.isOpened():
            raise OSError(f"OpenCV cannot write {video}")
        for img in images:
            writer.write(img)
        writer.release()
        meta = {"video": video.name, **meta}
        (out / f"{name}.frames.json").write_text(json.dumps(meta, indent=1) + "\n")
        still = sum(f["still"] for f in meta["frames"])
        lines.append(
            f"clip {video.name}: {len(images)} frames at {FPS} fps, {w}×{h}, "
            f"{still} still, {video.stat().st_size / 1e6:.1f} MB"
        )
    return lines
