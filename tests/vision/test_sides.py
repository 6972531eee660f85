"""Light's row told from the checkers: the starting positions both ways round, a bear-off, and
positions that tell nothing."""

from __future__ import annotations

import pytest

from nardy.synth import positions
from nardy.vision.sides import SidesInputError, light_row


@pytest.mark.parametrize("same_way", [False, True])
@pytest.mark.parametrize("k", range(4))
def test_a_starting_position_tells_lights_row_every_way_round(same_way: bool, k: int):
    pts, bar, off = positions.orient(positions.start(same_way), k)
    want = "bottom" if positions.ORIENTS[k](1) <= 12 else "top"
    seen = light_row(pts, bar, off)
    assert seen.row == want and seen.confidence > 0.9


def test_a_bear_off_is_read_by_where_lights_checkers_are_home():
    # light's five on its own 1-6 (image points 1-6), dark's on image 19-24 with some off
    pts = [2, 1, 0, 1, 1, 0] + [0] * 12 + [0, -1, 0, -2, -1, -3]
    assert light_row(pts, (0, 0), (10, 8)).row == "bottom"
    turned = [0] * 24  # the board turned half round: image point p becomes p + 12
    for p in range(1, 25):
        turned[(p + 11) % 24] = pts[p - 1]
    assert light_row(turned, (0, 0), (10, 8)).row == "top"


def test_a_row_told_with_less_than_sure_confidence_is_unknown():
    pts, bar, off = positions.start(False)
    seen = light_row(pts, bar, off)
    assert light_row(pts, bar, off, sure=seen.confidence) == seen
    doubt = light_row(pts, bar, off, sure=min(1.0, seen.confidence + 1e-6))
    assert doubt.row is None and doubt.confidence == seen.confidence


def test_an_empty_board_tells_nothing():
    assert light_row([0] * 24).row is None


def test_bad_points_are_refused():
    with pytest.raises(SidesInputError):
        light_row([1, 2, 3])
