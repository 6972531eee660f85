"""The checker reader's tiles and its network, apart from the fixtures' figures."""

import numpy as np
from vision_drawn import START, draw_board, photograph

from nardy.calibration import BoardGeometry, BoardProfile, Rect
from nardy.vision.checkers import BAR, POINT, TRAY, read_tiles, tile_kinds
from nardy.vision.sampler import Sampler

TRAYS = (Rect(1.03, 0.53, 1.1, 1.0), Rect(1.03, 0.0, 1.1, 0.47))


def _profile(trays=None) -> BoardProfile:
    corners = [(300, 100), (980, 110), (1000, 650), (280, 640)]
    return BoardProfile.from_corners(corners, (1280, 720), BoardGeometry(trays=trays))


def test_every_tile_runs_from_where_checkers_start():
    s = Sampler(_profile(TRAYS))
    p1, p13 = s.strip_coords(1), s.strip_coords(13)
    assert p1[0, :, 1].min() > 0.99 and abs(p1[-1, 0, 1] - 0.5) < 0.01  # bottom edge → middle
    assert p13[0, :, 1].max() < 0.01 and abs(p13[-1, 0, 1] - 0.5) < 0.01  # top edge → middle
    top, bottom = s.bar_coords()
    assert abs(top[0, 0, 1] - 0.5) < 0.01 and top[-1, 0, 1] < 0.01  # the middle outward
    assert abs(bottom[0, 0, 1] - 0.5) < 0.01 and bottom[-1, 0, 1] > 0.99
    lo, hi = s.tray_coords(0), s.tray_coords(1)
    assert lo[0, 0, 1] > 0.99 and hi[0, 0, 1] < 0.01  # each tray from its outer end
    assert lo[0, :, 0].min() > 1.03 and lo[0, :, 0].max() < 1.1


def test_all_tiles_are_the_same_size_and_trays_only_when_the_profile_has_them():
    frame = np.full((720, 1280, 3), 128, np.uint8)
    with_trays = Sampler(_profile(TRAYS)).sample(frame).checker_tiles()
    without = Sampler(_profile()).sample(frame).checker_tiles()
    assert with_trays.shape[0] == 28 and without.shape[0] == 26
    assert with_trays.shape[1:] == without.shape[1:]
    assert list(tile_kinds(28)) == [POINT] * 24 + [BAR] * 2 + [TRAY] * 2


def test_the_network_reads_every_tile_with_a_probability():
    flat, corners = draw_board(START)
    photo, seen = photograph(flat, corners)
    tiles = Sampler(BoardProfile.from_corners(seen, (1280, 720))).sample(photo).checker_tiles()
    read = read_tiles(tiles)
    assert read.counts.shape == read.light.shape == read.confidence.shape == (26,)
    assert ((read.counts >= 0) & (read.counts <= 15)).all()
    assert ((read.confidence > 0) & (read.confidence <= 1)).all()
    # the network says what it sees from the tile alone: the same tile reads the same anywhere
    again = read_tiles(tiles[[5, 0]])
    assert again.counts.tolist() == read.counts[[5, 0]].tolist()
