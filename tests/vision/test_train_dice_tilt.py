"""``scripts/train_dice_tilt.py``: the shaken and out-of-focus patches it trains on, and the
cuts around the faces the reader finds and the placer places."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))

import train_dice_tilt  # noqa: E402
from train_dice_tilt import SHAKEN, camera_blur, found_cuts  # noqa: E402

from nardy.vision.dice_tilt import CONTEXT, PATCH  # noqa: E402


def dot() -> np.ndarray:
    patch = np.zeros((PATCH, PATCH, 3), np.uint8)
    patch[PATCH // 2, PATCH // 2] = 255
    return patch


def test_a_shaken_patch_is_smeared_along_one_line_about_its_centre():
    face = PATCH / CONTEXT
    rng = np.random.default_rng(3)
    for _ in range(20):
        got = camera_blur(dot(), rng, shaken=1.0, defocus=0.0)[..., 0].astype(np.float64)
        ys, xs = np.nonzero(got > 0)
        # as long as a camera shaken 8-20 pixels smears a die, and centred where the dot was
        length = np.hypot(np.ptp(xs), np.ptp(ys))
        assert SHAKEN[0] * face - 2 <= length <= SHAKEN[1] * face + 2
        w = got / got.sum()
        mid = (PATCH // 2, PATCH // 2)
        cy, cx = (w * np.mgrid[:PATCH, :PATCH]).sum(axis=(1, 2))
        assert abs(cx - mid[1]) < 1.0 and abs(cy - mid[0]) < 1.0
        # along a line: the smear's second moments have one axis only
        cov = np.cov(np.vstack([xs, ys]), aweights=got[ys, xs])
        small, large = np.linalg.eigvalsh(cov)
        assert small < 0.1 * large


def test_an_out_of_focus_patch_is_blurred_round_and_a_plain_one_is_left():
    rng = np.random.default_rng(4)
    blurred = camera_blur(dot(), rng, shaken=0.0, defocus=1.0)[..., 0]
    ys, xs = np.nonzero(blurred > 0)
    assert np.ptp(xs) >= 3 and abs(int(np.ptp(xs)) - int(np.ptp(ys))) <= 1
    plain = dot()
    assert camera_blur(plain, rng, shaken=0.0, defocus=0.0) is plain


def test_placed_cuts_lie_where_the_placer_puts_each_found_face(monkeypatch):
    path = ROOT / "tests" / "fixtures" / "boards" / "cocked-001.jpg"
    truth = json.loads(path.with_suffix(".json").read_text())
    image = cv2.imread(str(path))
    shift = np.array([40.0, 0.0])  # a placer that moves each face 40 pixels right
    moved: list[np.ndarray] = []

    def place(bgr, to_board, centres, faces, foot):
        moved.append(np.asarray(centres, np.float64) + shift)
        return moved[-1]

    monkeypatch.setattr(train_dice_tilt.dice_place, "place", place)
    found = found_cuts(image, truth, np.random.default_rng(0), 2)
    asked = len(moved)  # by find_dice only: without ``placed`` no cut is placed
    both = found_cuts(image, truth, np.random.default_rng(0), 2, placed=3)
    assert found and len(moved) == 2 * asked + 1
    assert len(both) == len(found) // 2 * 5
    for k, (_, centre, face) in enumerate(both):
        near = np.hypot(*(moved[-1] - centre).T).min() / face
        # each die's two cuts around where it was found, then three where it was placed
        assert (near < 0.2) == (k % 5 >= 2)


def test_the_hard_looks_are_dark_dice_on_dark_fields_and_blurred_renders():
    def truth(board: str, styles: list[str], blur: float) -> dict:
        scene = {"dice": [{"style": s} for s in styles], "lighting": {"blur": blur}}
        return {"dice": [{}] * len(styles), "style": {"board": board, "scene": scene}}

    hard = train_dice_tilt.hard_looks
    assert hard(truth("dark", ["black", "white"], 0.5)) == [True, False]
    assert hard(truth("classic", ["black", "green"], 0.5)) == [False, False]
    assert hard(truth("classic", ["white", "ivory"], 1.2)) == [True, True]
    assert hard({"dice": [{}], "style": {}}) == [False]  # no look told: none hard
