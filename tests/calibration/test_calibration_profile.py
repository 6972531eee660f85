import json

import numpy as np
import pytest

from nardy.calibration import BoardGeometry, BoardProfile, Orientation, ProfileError, parse_corners

CORNERS = [(112.0, 84.5), (1175.0, 96.0), (1210.0, 655.0), (80.0, 640.0)]


def test_corners_map_to_the_unit_square_and_back():
    p = BoardProfile.from_corners(CORNERS, (1280, 720))
    board = p.image_to_board(CORNERS)
    assert np.allclose(board, [[0, 0], [1, 0], [1, 1], [0, 1]], atol=1e-6)
    rng = np.random.default_rng(4)
    pts = rng.uniform(-0.2, 1.2, size=(50, 2))
    assert np.allclose(p.image_to_board(p.board_to_image(pts)), pts, atol=1e-6)


def test_profile_round_trips_through_a_file(tmp_path):
    p = BoardProfile.from_corners(
        CORNERS, (1280, 720), BoardGeometry(bar=(0.45, 0.55)), orientation=Orientation(12)
    )
    path = tmp_path / "p.json"
    p.save(path)
    q = BoardProfile.load(path)
    assert q == p
    assert json.loads(path.read_text())["format"].startswith("nardy-board-profile")


def test_scaling_a_profile_to_another_resolution_moves_the_corners_with_it():
    p = BoardProfile.from_corners(CORNERS, (1280, 720))
    q = p.for_size((640, 360))
    assert np.allclose(q.corners, np.array(CORNERS) / 2)
    assert np.allclose(q.image_to_board([(320, 180)]), p.image_to_board([(640, 360)]))


@pytest.mark.parametrize("text", ["1,2,3", "a,b,c,d,e,f,g,h", "1,2,3,4,5,6,7,8,9"])
def test_malformed_corner_text_is_refused(text):
    with pytest.raises(ProfileError):
        parse_corners(text)


def test_corners_in_the_wrong_order_are_refused():
    twisted = [CORNERS[0], CORNERS[2], CORNERS[1], CORNERS[3]]
    with pytest.raises(ProfileError):
        BoardProfile.from_corners(twisted, (1280, 720))
    anticlockwise = CORNERS[::-1]
    with pytest.raises(ProfileError):
        BoardProfile.from_corners(anticlockwise, (1280, 720))


def test_parse_corners_reads_the_command_line_form():
    assert parse_corners("1,2,3,4,5,6,7,8") == ((1, 2), (3, 4), (5, 6), (7, 8))


def test_a_file_that_is_not_a_profile_is_one_clear_error(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"hello": 1}')
    with pytest.raises(ProfileError, match="not a board profile"):
        BoardProfile.load(bad)
    with pytest.raises(ProfileError, match="cannot read"):
        BoardProfile.load(tmp_path / "missing.json")
