"""Finding the board with no help: on a board drawn flat (exact truth), and on rendered photos."""

import json
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "vision"))
from vision_drawn import START, draw_board, photograph

from nardy.calibration.auto import BoardNotFound, find_corners
from nardy.calibration.refine import refine_corners

BOARDS = Path(__file__).resolve().parents[1] / "fixtures" / "boards"


def _worst(found, truth) -> float:
    """The worst corner's error as a share of the surface's width."""
    truth = np.asarray(truth, float)
    width = np.linalg.norm(truth[1] - truth[0])
    return float(np.linalg.norm(np.asarray(found) - truth, axis=1).max() / width)


@pytest.fixture(scope="module")
def drawn():
    flat, corners = draw_board(START)
    return {tilt: photograph(flat, corners, tilt=tilt) for tilt in (0.0, 20.0)}


@pytest.mark.parametrize("tilt", [0.0, 20.0])
def test_the_drawn_board_in_its_starting_position_is_found(drawn, tilt):
    photo, truth = drawn[tilt]
    err = _worst(find_corners(photo), truth)
    print(f"tilt {tilt}: worst corner {100 * err:.2f} % of the width")
    assert err < 0.01


@pytest.mark.parametrize("tilt", [0.0, 20.0])
def test_a_rough_guess_is_brought_onto_the_edges(drawn, tilt):
    photo, truth = drawn[tilt]
    width = np.linalg.norm(truth[1] - truth[0])
    guess = truth + np.random.default_rng(7).normal(0, 0.03 * width, truth.shape)
    refined, _ = refine_corners(photo, guess)
    print(f"tilt {tilt}: {100 * _worst(guess, truth):.1f} % → {100 * _worst(refined, truth):.2f} %")
    assert _worst(guess, truth) > 0.03
    assert _worst(refined, truth) < 0.01


def test_a_photo_with_no_board_is_refused():
    rng = np.random.default_rng(0)
    table = cv2.GaussianBlur(rng.integers(90, 140, (720, 1280, 3)).astype(np.uint8), (9, 9), 3)
    with pytest.raises(BoardNotFound):
        find_corners(table)


def test_rendered_starting_positions_are_found():
    """The photo ``nardy calibrate`` is meant to be given: a board in its starting position.
    Measured, not yet good: the share found to within 2 % of the board's width."""
    names = sorted(BOARDS.glob("*-start-*.json"))[::3]
    errs = []
    for jf in names:
        truth = json.loads(jf.read_text())
        image = cv2.imread(str(jf.with_suffix(".jpg")))
        try:
            errs.append(_worst(find_corners(image), truth["corners"]))
        except BoardNotFound:
            errs.append(np.inf)
    errs = np.array(errs)
    print(f"{len(errs)} starts: worst corner {np.round(np.sort(errs) * 100, 1)} % of the width")
    assert len(errs) >= 15
    assert (errs < 0.02).mean() >= 0.25
