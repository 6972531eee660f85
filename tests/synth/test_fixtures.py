"""The committed fixtures are well formed and are exactly what the script makes."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[2]
BOARDS = ROOT / "tests" / "fixtures" / "boards"


def _script():
    spec = importlib.util.spec_from_file_location(
        "make_fixtures", ROOT / "scripts" / "make_fixtures.py"
    )
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _truths():
    return sorted(BOARDS.glob("*.json"))


def test_every_image_has_its_truth():
    jsons = _truths()
    assert len(jsons) >= 50
    for j in jsons:
        truth = json.loads(j.read_text())
        assert truth["image"] == j.with_suffix(".jpg").name
        assert (BOARDS / truth["image"]).exists()
        assert len(truth["points"]) == 24
        light = sum(n for n in truth["points"] if n > 0) + truth["bar"][0]
        dark = -sum(n for n in truth["points"] if n < 0) + truth["bar"][1]
        scene_off = truth["style"]["scene"]["off"]
        assert light + scene_off[0] == 15 and dark + scene_off[1] == 15
        assert truth["usable"] or truth["why"] in ("hand", "motion", "glare")
        for x, y in truth["corners"]:
            assert 0 <= x < 1280 and 0 <= y < 720, j.name
        for d in truth["dice"]:
            bx, by, bw, bh = d["box"]
            assert bx <= d["center"][0] <= bx + bw and by <= d["center"][1] <= by + bh


def test_fixtures_are_reproducible_from_the_script():
    """Re-render a sample. The same OpenCV gives the same bytes; another build of it may round
    differently, so then the decoded pixels must agree closely."""
    mod = _script()
    jsons = {p.stem for p in _truths()}
    sample = [item for item in mod.plan() if item[0] in jsons][::23][:4]
    assert sample
    for name, seed, kw in sample:
        data, truth = mod.make_image(name, seed, kw)
        stored = (BOARDS / f"{name}.jpg").read_bytes()
        assert json.loads(json.dumps(truth)) == json.loads((BOARDS / f"{name}.json").read_text())
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
