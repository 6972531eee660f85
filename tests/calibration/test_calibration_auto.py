"""Finding the board with no help: on rendered photos the networks never learnt from (the
fixtures), on a board drawn flat (exact truth, a board unlike any rendered one), and on a photo
with no board at all."""

import json
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "vision"))
from vision_drawn import START, draw_board, photograph

from nardy.calibration import corner_patch
from nardy.calibration.auto import BoardNotFound, find_corners

BOARDS = Path(__file__).resolve().parents[1] / "fixtures" / "boards"
TOLERANCE = 0.01  # of the board's width: what a reading needs (a point is 1/13 of it)


def _worst(found, truth) -> float:
    """The worst corner's error as a share of the surface's width."""
    truth = np.asarray(truth, float)
    width = np.linalg.norm(truth[1] - truth[0])
    return float(np.linalg.norm(np.asarray(found) - truth, axis=1).max() / width)


def _fixtures(pattern: str, every: int):
    for jf in sorted(BOARDS.glob(pattern))[::every]:
        truth = json.loads(jf.read_text())
        yield jf.stem, cv2.imread(str(jf.with_suffix(".jpg"))), np.asarray(truth["corners"])


def test_rendered_starting_positions_are_found():
    """The photo ``nardy calibrate`` is meant to be given: a board in its starting position."""
    errs = []
    for _, image, truth in _fixtures("*-start-*.json", 2):
        try:
            errs.append(_worst(find_corners(image), truth))
        except BoardNotFound:
            errs.append(np.inf)
    errs = np.array(errs)
    print(f"{len(errs)} starts: worst corner {np.round(np.sort(errs) * 100, 2)} % of the width")
    assert len(errs) >= 25
    assert (errs < TOLERANCE).mean() >= 0.6
    assert (errs < 2 * TOLERANCE).mean() >= 0.9


def test_boards_in_play_with_hands_and_glare_are_found():
    errs = np.array(
        [_worst(find_corners(image), truth) for _, image, truth in _fixtures("*.json", 17)]
    )
    print(f"{len(errs)} boards: worst corner {np.round(np.sort(errs) * 100, 2)} % of the width")
    assert len(errs) >= 19
    assert (errs < TOLERANCE).mean() >= 0.65
    assert (errs < 2 * TOLERANCE).all()


def test_a_rough_guess_is_brought_onto_the_corners():
    """Each corner off by up to a tenth of the board's width (further than the corner map
    errs) is brought to within the tolerance by the patch reader alone."""
    rng = np.random.default_rng(7)
    before, after = [], []
    for _, image, truth in _fixtures("*-mid-*.json", 9):
        width = np.linalg.norm(truth[1] - truth[0])
        guess = truth + rng.uniform(-0.07, 0.07, truth.shape) * width
        before.append(_worst(guess, truth))
        after.append(_worst(corner_patch.refine(image, guess), truth))
    print(f"{np.round(np.array(before) * 100, 1)} % → {np.round(np.array(after) * 100, 2)} %")
    assert min(before) > 2 * TOLERANCE
    assert (np.array(after) < TOLERANCE).mean() >= 0.7
    assert (np.array(after) < 2 * TOLERANCE).all()


@pytest.mark.parametrize("tilt", [0.0, 20.0])
def test_a_board_drawn_flat_is_found(tilt):
    flat, corners = draw_board(START)
    photo, truth = photograph(flat, corners, tilt=tilt)
    err = _worst(find_corners(photo), truth)
    print(f"tilt {tilt}: worst corner {100 * err:.2f} % of the width")
    assert err < 1.5 * TOLERANCE


def test_a_photo_with_no_board_is_refused():
    rng = np.random.default_rng(0)
    table = cv2.GaussianBlur(rng.integers(90, 140, (720, 1280, 3)).astype(np.uint8), (9, 9), 3)
    with pytest.raises(BoardNotFound):
        find_corners(table)
