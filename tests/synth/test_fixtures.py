"""The committed fixtures are well formed and are exactly what the script makes: the board
fixtures, the unseen set drawn in looks no reader is trained on, and hypergammon's boards of three
checkers a side."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from nardy.synth import random_scene
from nardy.synth.styles import HELD_OUT_BOARD_STYLES, HELD_OUT_CHECKER_SETS, HELD_OUT_DICE_STYLES

ROOT = Path(__file__).resolve().parents[2]
BOARDS = ROOT / "tests" / "fixtures" / "boards"
UNSEEN = ROOT / "tests" / "fixtures" / "unseen" / "boards"
HYPERGAMMON = ROOT / "tests" / "fixtures" / "hypergammon" / "boards"
#: Each committed set: its folder, the (prefix, looks, kinds) the script made it with, how many
#: images it has at least and how many checkers a side.
SETS = {
    "boards": (BOARDS, "", "seen", None, 300, 15),
    "unseen": (UNSEEN, "unseen", "held_out", None, 50, 15),
    "hypergammon": (HYPERGAMMON, "", "seen", {"hypergammon"}, 20, 3),
}


def _script():
    spec = importlib.util.spec_from_file_location(
        "make_fixtures", ROOT / "scripts" / "make_fixtures.py"
    )
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _truths(folder: Path = BOARDS) -> list[Path]:
    return sorted(folder.glob("*.json"))


@pytest.mark.parametrize("which", SETS)
def test_every_image_has_its_truth(which: str):
    folder, _, _, _, least, per_side = SETS[which]
    jsons = _truths(folder)
    assert len(jsons) >= least
    for j in jsons:
        truth = json.loads(j.read_text())
        assert truth["image"] == j.with_suffix(".jpg").name
        assert (folder / truth["image"]).exists()
        assert len(truth["points"]) == 24
        light = sum(n for n in truth["points"] if n > 0) + truth["bar"][0]
        dark = -sum(n for n in truth["points"] if n < 0) + truth["bar"][1]
        scene_off = truth["style"]["scene"]["off"]
        assert light + scene_off[0] == per_side and dark + scene_off[1] == per_side
        assert truth["usable"] or truth["why"] in ("hand", "motion", "glare")
        for x, y in truth["corners"]:
            assert 0 <= x < 1280 and 0 <= y < 720, j.name
        for d in truth["dice"]:
            bx, by, bw, bh = d["box"]
            assert bx <= d["center"][0] <= bx + bw and by <= d["center"][1] <= by + bh


@pytest.mark.parametrize("which", SETS)
def test_fixtures_are_reproducible_from_the_script(which: str):
    """Re-render a sample. The same OpenCV gives the same bytes; another build of it may round
    differently, so then the decoded pixels must agree closely."""
    folder, prefix, looks, kinds, _, _ = SETS[which]
    mod = _script()
    jsons = {p.stem for p in _truths(folder)}
    sample = [item for item in mod.plan(prefix, kinds=kinds) if item[0] in jsons][::23][:4]
    assert sample
    for name, seed, kw in sample:
        data, truth = mod.make_image(name, seed, kw, looks)
        stored = (folder / f"{name}.jpg").read_bytes()
        assert json.loads(json.dumps(truth)) == json.loads((folder / f"{name}.json").read_text())
        if data == stored:
            continue
        a = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR).astype(float)
        b = cv2.imdecode(np.frombuffer(stored, np.uint8), cv2.IMREAD_COLOR).astype(float)
        diff = np.abs(a - b)
        assert diff.mean() < 1.0 and np.percentile(diff, 99) < 12, name


def test_the_set_covers_what_the_readers_meet():
    truths = [json.loads(p.read_text()) for p in _truths()]
    styles = {t["style"]["board"] for t in truths}
    sets = {t["style"]["checkers"] for t in truths}
    dice = [d for t in truths for d in t["dice"]]
    assert len(styles) >= 3 and len(sets) >= 3
    assert any(not d["flat"] for d in dice) and any(d["flat"] for d in dice)
    assert {d["where"] for d in dice} >= {"left", "right"}
    assert any(t["cube"] for t in truths)
    assert any(t.get("why") == "hand" for t in truths)
    assert any(max(map(abs, t["points"])) >= 10 for t in truths)
    assert any(t["off"] is None for t in truths) and any(t["off"] for t in truths)
    assert any("markers" in t for t in truths)


def test_held_out_looks_are_only_in_the_unseen_set():
    """No fixture, and no scene drawn as the trainers draw them, has a held-out board,
    checker set or die; every unseen image has a held-out board and checkers."""
    held_boards, held_sets = set(HELD_OUT_BOARD_STYLES), set(HELD_OUT_CHECKER_SETS)
    held_dice = set(HELD_OUT_DICE_STYLES)
    for j in _truths(BOARDS):
        scene = json.loads(j.read_text())["style"]["scene"]
        assert scene["board"] not in held_boards and scene["checkers"] not in held_sets, j.name
        assert not {d["style"] for d in scene["dice"]} & held_dice, j.name
    rng = np.random.default_rng(0)
    for _ in range(100):
        scene = random_scene(rng, n_dice=2)
        assert scene.board not in held_boards and scene.checkers not in held_sets
        assert not {d.style for d in scene.dice} & held_dice
    unseen = [json.loads(j.read_text())["style"]["scene"] for j in _truths(UNSEEN)]
    assert {s["board"] for s in unseen} == held_boards
    assert {s["checkers"] for s in unseen} == held_sets
    assert {d["style"] for s in unseen for d in s["dice"]} == held_dice
