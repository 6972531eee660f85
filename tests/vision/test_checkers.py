"""The checker reader's tiles and its network, apart from the fixtures' figures."""

from dataclasses import replace

import numpy as np
import pytest
from vision_drawn import START, draw_board, photograph

from nardy.calibration import BoardGeometry, BoardProfile, Rect
from nardy.vision.checkers import (
    BAR,
    FINE_WEIGHTS,
    MOST,
    POINT,
    TRAY,
    TilesRead,
    fit_sides,
    lean_to_totals,
    read_fine,
    read_tiles,
    settle_colours,
    settle_trays,
    tile_kinds,
)
from nardy.vision.config import VisionConfig
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


def _read(probs: list[dict[int, float]], light: list[bool], rest: float = 1e-4) -> TilesRead:
    """A reading of tiles with the count probabilities given (the rest spread thin)."""
    p = np.full((len(probs), MOST + 1), rest)
    for row, given in zip(p, probs, strict=True):
        for count, prob in given.items():
            row[count] = prob
    p /= p.sum(axis=1, keepdims=True)
    return TilesRead(p.argmax(axis=1), np.array(light), p.max(axis=1), p)


def test_told_the_checkers_a_side_the_reader_takes_the_likeliest_counts_that_add_up():
    # light: a sure 5, an unsure 9-or-10 (9 likelier), a sure 0; dark: a sure 15
    read = _read([{5: 0.99}, {9: 0.6, 10: 0.4}, {0: 0.99}, {15: 0.99}], [True, True, True, False])
    assert read.counts.tolist() == [5, 9, 0, 15]
    fitted = fit_sides(read, 15)
    assert fitted.counts.tolist() == [5, 10, 0, 15]  # the unsure tile gives way, not the sure
    assert fitted.confidence[1] == pytest.approx(read.count_p[1, 10])
    assert fitted.light.tolist() == read.light.tolist()


def test_two_trays_read_as_one_colour_hold_the_two_sets():
    probs = [{0: 0.99}] * 26 + [{11: 0.9}, {8: 0.9}]
    light = [False] * 26 + [True, True]
    read = replace(_read(probs, light), light_p=np.r_[np.full(26, 0.5), 0.9, 0.6])
    settled = settle_trays(read)
    assert settled.light[26] and not settled.light[27]  # the less sure tray gives way
    assert settled.counts.tolist() == read.counts.tolist()
    apart = replace(read, light=np.r_[light[:27], False])
    assert settle_trays(apart).light.tolist() == apart.light.tolist()
    one_empty = _read([{0: 0.99}] * 27 + [{8: 0.9}], light)
    one_empty = replace(one_empty, light_p=read.light_p)
    assert settle_trays(one_empty).light.tolist() == light


def _tiles(first_checkers: list[tuple[int, int, int]]) -> np.ndarray:
    """Point tiles (BGR) whose first checker is the colour given, on a plain wooden point."""
    tiles = np.full((len(first_checkers), 64, 24, 3), (90, 140, 190), np.uint8)
    for tile, bgr in zip(tiles, first_checkers, strict=True):
        tile[:12] = bgr
    return tiles


def test_the_lighter_of_two_sets_is_light_whatever_the_network_said():
    red, black = (40, 40, 190), (22, 22, 22)
    tiles = _tiles([red, black, red, black, red, (30, 30, 30)])
    # a set the network never saw: it calls every point dark, and is sure of it
    read = _read([{5: 0.99}] * 6, [False] * 6)
    settled = settle_colours(tiles, read, VisionConfig())
    assert settled.light.tolist() == [True, False, True, False, True, False]
    assert settled.counts.tolist() == read.counts.tolist()
    # the network's split, wrong on one point, is mended the same way
    read = _read([{5: 0.99}] * 6, [True, False, True, True, False, False])
    assert settle_colours(tiles, read, VisionConfig()).light.tolist() == settled.light.tolist()


def test_a_dark_checker_under_a_highlight_stays_dark():
    light, dark = (180, 180, 180), (25, 25, 25)
    tiles = _tiles([light, dark, light, dark, light, dark, dark, dark])
    tiles[7, :4, 6:18] = 255  # the lamp's highlight over nearly half of its face
    said = [True, False, True, False, True, False, False, False]
    read = replace(_read([{1: 0.99}] * 8, said), light_p=np.array(said, float))
    assert settle_colours(tiles, read, VisionConfig()).light.tolist() == said


def test_one_set_in_uneven_light_stays_one_set():
    # white checkers from lamp-lit to shadowed, with no gap between: not two sets
    whites = [(v, v, v) for v in (235, 222, 210, 198, 186, 175)]
    read = _read([{3: 0.99}] * 6, [True] * 6)
    settled = settle_colours(_tiles(whites), read, VisionConfig())
    assert settled.light.tolist() == [True] * 6


def test_a_side_that_cannot_add_up_keeps_what_was_read():
    read = _read([{0: 0.99}, {1: 0.99}], [True, False])
    fitted = fit_sides(read, 40)  # more than the tiles can hold
    assert fitted.counts.tolist() == [0, 1]


def test_a_side_that_adds_up_only_through_an_unlikely_reading_keeps_what_was_read():
    # light: sure 2 and 1 (twelve short of fifteen: its trays are out of view); dark: 14 or 15
    read = _read([{2: 0.99}, {1: 0.99}, {14: 0.6, 15: 0.4}], [True, True, False], rest=1e-7)
    fitted = fit_sides(read, 15, most_doubt=12.0)
    assert fitted.counts.tolist() == [2, 1, 15]  # dark gives little up; light would give a lot
    assert fit_sides(read, 15).counts[:2].sum() == 15  # with no limit it is forced


def test_not_told_a_side_leans_to_a_games_total_but_is_not_forced_to_it():
    # light: a sure 5 and a tray of 9 or 10 (9 likelier: 14 in all); dark: a sure 15
    read = _read([{5: 0.99}, {9: 0.6, 10: 0.4}, {15: 0.99}], [True, True, False])
    leaned = lean_to_totals(read, (15, 3), lean=3.0)
    assert leaned.counts.tolist() == [5, 10, 15]  # 0.4 nats given up for 3 of prior
    assert leaned.confidence[1] == pytest.approx(read.count_p[1, 10])
    assert lean_to_totals(read, (15, 3), lean=0.3).counts.tolist() == [5, 9, 15]
    # a side that reaches fifteen only through an unlikely count keeps what was read
    sure = _read([{5: 0.99}, {9: 0.99}, {15: 0.99}], [True, True, False])
    assert lean_to_totals(sure, (15, 3), lean=3.0).counts.tolist() == [5, 9, 15]
    # hypergammon's three: a lone checker's tray read empty, a little likelier than one
    hyper = _read([{2: 0.99}, {0: 0.55, 1: 0.45}, {3: 0.99}], [True, True, False])
    assert lean_to_totals(hyper, (15, 3), lean=3.0).counts.tolist() == [2, 1, 3]
    # a side over fifteen is not this fit's to mend (``cap_trays``)
    over = _read([{10: 0.99}, {7: 0.6, 5: 0.4}, {15: 0.99}], [True, True, False])
    assert lean_to_totals(over, (15, 3), lean=3.0).counts.tolist() == [10, 7, 15]


def test_the_fine_network_reads_again_only_what_the_fast_one_finds_tall_or_unsure():
    flat, corners = draw_board(START)
    photo, seen = photograph(flat, corners)
    tiles = Sampler(BoardProfile.from_corners(seen, (1280, 720))).sample(photo).checker_tiles()
    fast = read_tiles(tiles, fine_weights=None)
    never = VisionConfig(fine_from=MOST + 1, fine_sure=0.0)
    assert read_tiles(tiles, config=never).counts.tolist() == fast.counts.tolist()
    always = VisionConfig(fine_from=0, fine_sure=1.1, fine_skip=1.1)
    fine = read_tiles(tiles, config=always)
    assert fine.count_p.shape == (26, MOST + 1)
    assert not np.array_equal(fine.count_p, fast.count_p)  # another network's word


def test_a_stack_the_fast_network_is_plainly_sure_of_keeps_its_reading():
    """The start's heads of five, drawn plainly: the fast network is sure of them, and the
    fine one reads them only when told to read even what the fast one is sure of."""
    flat, corners = draw_board(START)
    photo, seen = photograph(flat, corners)
    tiles = Sampler(BoardProfile.from_corners(seen, (1280, 720))).sample(photo).checker_tiles()
    fast = read_tiles(tiles, fine_weights=None)
    heads = np.flatnonzero(np.abs(START) == 5)
    assert (fast.counts[heads] == 5).all() and (fast.confidence[heads] >= 0.995).all()
    kept = read_tiles(tiles, config=VisionConfig())
    assert np.array_equal(kept.count_p[heads], fast.count_p[heads])
    asked = read_tiles(tiles, config=VisionConfig(fine_skip=1.1))
    assert not np.array_equal(asked.count_p[heads], fast.count_p[heads])
    assert (asked.counts[heads] == 5).all()


def test_a_tile_the_fine_network_doubts_reads_the_same_as_its_mirror_image():
    flat, corners = draw_board(START)
    photo, seen = photograph(flat, corners)
    tiles = Sampler(BoardProfile.from_corners(seen, (1280, 720))).sample(photo).checker_tiles()
    kinds = tile_kinds(len(tiles))
    mirrored = np.ascontiguousarray(tiles[:, :, ::-1])
    once = read_fine(tiles, kinds, FINE_WEIGHTS, again=0.0)
    assert not np.allclose(once.count_p, read_fine(mirrored, kinds, FINE_WEIGHTS, 0.0).count_p)
    both = read_fine(tiles, kinds, FINE_WEIGHTS, again=1.1, second=None)  # every tile doubted
    mirror_both = read_fine(mirrored, kinds, FINE_WEIGHTS, 1.1, second=None)
    assert np.allclose(both.count_p, mirror_both.count_p)
    assert np.allclose(both.count_p.sum(axis=1), 1.0)
    three = read_fine(tiles, kinds, FINE_WEIGHTS, again=1.1)  # and the second network's word
    assert not np.allclose(three.count_p, both.count_p)
    sure = once.count_p.max(axis=1) >= 0.8  # those it is sure of it reads only once
    part = read_fine(tiles, kinds, FINE_WEIGHTS, again=0.8)
    assert np.array_equal(part.count_p[sure], once.count_p[sure])


def test_points_read_not_quite_surely_go_along_only_when_the_fine_network_runs():
    flat, corners = draw_board(START)
    photo, seen = photograph(flat, corners)
    tiles = Sampler(BoardProfile.from_corners(seen, (1280, 720))).sample(photo).checker_tiles()
    fast = read_tiles(tiles, fine_weights=None)
    # nothing for the fine network: every point, however unsure, keeps the fast reading
    idle = VisionConfig(fine_from=MOST + 1, fine_sure=0.0, fine_along=1.1)
    assert np.array_equal(read_tiles(tiles, config=idle).count_p, fast.count_p)
    # one point for it: the rest go along when fine_along says so, else they stay
    least = int(np.argmin(fast.confidence[:24]))
    one = replace(idle, fine_sure=float(np.sort(fast.confidence[:24])[:2].mean()))
    fine = read_fine(tiles[:24], tile_kinds(24), FINE_WEIGHTS, one.fine_doubt).count_p
    alone = read_tiles(tiles, config=replace(one, fine_along=0.0))
    assert np.allclose(alone.count_p[least], fine[least])
    rest = np.arange(26) != least
    assert np.array_equal(alone.count_p[rest], fast.count_p[rest])
    along = read_tiles(tiles, config=replace(one, fine_along=1.1))
    assert np.allclose(along.count_p[:24], fine)  # the points, not the bar's halves
    assert np.array_equal(along.count_p[24:], fast.count_p[24:])
    assert not np.allclose(along.count_p[:24], fast.count_p[:24])
