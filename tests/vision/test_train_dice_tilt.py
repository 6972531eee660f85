"""``scripts/train_dice_tilt.py``: the shaken and out-of-focus patches it trains on."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))

from train_dice_tilt import SHAKEN, camera_blur  # noqa: E402

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
