"""The profiles that ship read the fixtures they were made from."""

from pathlib import Path

import pytest

from nardy.calibration.orientation import Orientation
from nardy.calibration.profiles import names, shipped
from nardy.vision.board import read_board
from nardy.vision.images import load_image

BOARDS = Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "boards"
START = [-2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 2]


def test_profiles_ship():
    assert len(names()) >= 3


@pytest.mark.parametrize("name", names())
def test_a_shipped_profile_reads_its_fixture_and_knows_whose_home_is_where(name):
    profile = shipped(name)
    assert profile.orientation is not None
    reading = read_board(load_image(BOARDS / f"{name}.jpg"), profile)
    light = profile.orientation.to_light(reading.points)
    assert light == Orientation(1).to_light(START)


def test_an_unknown_profile_name_is_refused():
    with pytest.raises(ValueError, match="no shipped profile"):
        shipped("no-such-board")
