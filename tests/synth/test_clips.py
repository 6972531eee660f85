"""The committed clips: readable, their truth consistent, and re-made by the renderer."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from nardy.synth import render
from nardy.synth.clip import CLIPS, STILL_AFTER, clip_scenes
from nardy.vision.images import load_video

CLIPS_DIR = Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "clips"
METAS = sorted(CLIPS_DIR.glob("*.frames.json"))


def test_there_are_clips():
    assert len(METAS) >= 3


@pytest.mark.parametrize("meta_path", METAS, ids=lambda p: p.name)
def test_clip_truth_is_consistent(meta_path):
    meta = json.loads(meta_path.read_text())
    frames = load_video(CLIPS_DIR / meta["video"])
    assert len(frames) == len(meta["frames"])
    assert frames[0].shape[1::-1] == tuple(meta["size"])
    positions = [(tuple(f["points"]), tuple(f["bar"])) for f in meta["frames"]]
    assert positions[0] != positions[-1], "a checker moved"
    hands = [f["hand"] for f in meta["frames"]]
    assert any(hands) and not hands[0] and not hands[-1]
    for i, f in enumerate(meta["frames"]):
        assert f["usable"] is (not f["hand"])
        window = meta["frames"][max(0, i - STILL_AFTER + 1) : i + 1]
        expect = (
            len(window) == STILL_AFTER
            and not any(g["hand"] for g in window)
            and all((g["points"], g["bar"]) == (f["points"], f["bar"]) for g in window)
        )
        assert f["still"] is expect
    # the hand's arrival changes a good part of the picture; on a still board only noise moves
    still = [i for i, f in enumerate(meta["frames"]) if f["still"]]
    a, b = still[0], still[1]
    hand = hands.index(True)

    def changed(x, y):
        return (np.abs(x.astype(int) - y).max(2) > 40).mean()

    assert changed(frames[a], frames[b]) < 0.002
    assert changed(frames[a], frames[hand + 4]) > 0.01


def test_a_clip_is_remade_by_the_renderer():
    name, kw, seed = CLIPS[0]
    meta = json.loads((CLIPS_DIR / f"{name}.frames.json").read_text())
    frames = load_video(CLIPS_DIR / meta["video"])
    scenes = clip_scenes(kw, seed)
    assert len(scenes) == len(frames)
    for i in (0, next(i for i, s in enumerate(scenes) if s.hand is not None) + 4):
        img, truth = render(scenes[i], seed, frame=i)
        assert truth["points"] == meta["frames"][i]["points"]
        diff = np.abs(img.astype(float) - frames[i])
        assert diff.mean() < 4, (i, diff.mean())  # MJPG re-encodes every frame
