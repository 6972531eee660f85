"""The reader against the committed fixtures' truth (the renderer's photos of real-looking
boards). The thresholds are the figures reached when this was written, less a small margin:
they fail when the reader gets worse, and they print the figures each run."""

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))

from evaluate_vision import evaluate, report  # noqa: E402

from nardy.vision.config import VisionConfig  # noqa: E402

BOARDS = ROOT / "tests" / "fixtures" / "boards"
HYPERGAMMON = ROOT / "tests" / "fixtures" / "hypergammon" / "boards"


@pytest.fixture(scope="module")
def figures():
    assert BOARDS.is_dir() and any(BOARDS.glob("*.json")), "the board fixtures are missing"
    res = evaluate(BOARDS, "truth")
    print("\n" + report(res))
    return res["counts"]


def test_per_point_error_stays_low(figures):
    c = figures
    assert c["points"] >= 24 * 40
    assert c["point_count_wrong"] / c["points"] < 0.01
    assert c["point_colour_wrong"] / c["points"] < 0.005


def test_whole_boards_read_exactly(figures):
    assert figures["boards_exact"] / figures["boards"] >= 0.7


def test_bar_and_trays(figures):
    c = figures
    assert (c["bars"] - c["bar_wrong"]) / c["bars"] >= 0.95
    assert (c["trays"] - c["tray_wrong"]) / c["trays"] >= 0.86


def test_usable_frames_are_called_usable(figures):
    # 300 of 302 in session 9 (291 before: the room's darkness, a stack at a quarter's end
    # taken for glare, the band over the trays, a lit lip taken for the board's edge)
    assert figures["usable_right"] / figures["usable_truth"] >= 0.98


def test_no_hand_over_the_board_is_called_usable(figures):
    assert figures["hand_frames"] >= 3
    assert figures["hand_called_usable"] == 0


def test_every_fixture_has_a_truth_the_reader_can_use():
    for path in sorted(BOARDS.glob("*.json"))[:20]:
        truth = json.loads(path.read_text())
        assert len(truth["points"]) == 24 and len(truth["corners"]) == 4
        assert path.with_suffix(".jpg").exists()


def test_hypergammon_boards_told_three_a_side():
    """Hypergammon's three checkers a side, the reader told so as the referee tells it: 20 of
    20 exact when written (58 of 60 on held-out renders of the kind, seeds ``p16y``)."""
    res = evaluate(HYPERGAMMON, "truth", config=VisionConfig(checkers_per_side=3))
    print("\n" + report(res))
    c = res["counts"]
    assert c["boards"] >= 20
    assert c["boards_exact"] / c["boards"] >= 0.9
    assert c["point_count_wrong"] + c["point_colour_wrong"] <= 2
