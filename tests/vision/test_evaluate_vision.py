"""``scripts/evaluate_vision.py``: how `nardy detect`'s dice are scored against the truth."""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path
from types import SimpleNamespace

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))

from evaluate_vision import _dice  # noqa: E402


def _die(value: int, x: float, **more) -> dict:
    return {"value": value, "flat": True, "center": [x, 100.0], "box": [x - 12, 88, 24, 24]} | more


def test_two_touching_dice_are_each_scored_against_the_reading_on_it():
    # the truth lists the 3 first; the reading on the 4 lies within reach of the 3 too and comes
    # first in the readings: taken die by die it went to the 3, and the 3's reading was spurious
    truth = {"dice": [_die(3, 116.0), _die(4, 100.0)]}
    result = SimpleNamespace(dice=[_die(4, 101.0), _die(3, 117.0)], cube=None)
    c = Counter()
    _dice(c, truth, result)
    assert (c["dice_found"], c["dice_value_right"], c["dice_spurious"]) == (2, 2, 0)


def test_a_reading_on_a_hidden_die_is_neither_found_nor_spurious():
    truth = {"dice": [_die(5, 100.0, hidden=True), _die(2, 200.0)]}
    result = SimpleNamespace(dice=[_die(5, 101.0), _die(2, 200.0)], cube=None)
    c = Counter()
    _dice(c, truth, result)
    assert (c["dice"], c["dice_found"], c["dice_hidden"], c["dice_spurious"]) == (1, 1, 1, 0)
