"""The bar's and the trays' own reader: where its tiles lie, and what its networks make of them."""

import json
from pathlib import Path

import cv2
import numpy as np

from nardy.calibration import BoardGeometry, BoardProfile, Rect
from nardy.vision.bar_trays import BarTraySampler, bar_quiet, join, read_bar, read_trays, rows
from nardy.vision.checkers import MOST, TilesRead
from nardy.vision.config import VisionConfig
from nardy.vision.detect import profile_from_corners
from nardy.vision.sampler import Sampler

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "boards"
TRAYS = (Rect(1.03, 0.53, 1.1, 1.0), Rect(1.03, 0.0, 1.1, 0.47))
CORNERS = [(300, 100), (980, 110), (1000, 650), (280, 640)]


def _profile(trays=TRAYS) -> BoardProfile:
    return BoardProfile.from_corners(CORNERS, (1280, 720), BoardGeometry(trays=trays))


def _inside(coords: np.ndarray, x0: float, x1: float, y0: float, y1: float) -> bool:
    x, y = coords[..., 0], coords[..., 1]
    return bool(((x > x0) & (x < x1) & (y > y0) & (y < y1)).all())


def test_each_tray_tile_lies_on_its_tray_from_the_outer_end_inward():
    config = VisionConfig()
    bottom, top = BarTraySampler(_profile(), config).tray_coords()
    assert bottom.shape == top.shape == (*config.tray_tile, 2)
    m = config.tray_margin
    for tile, r in zip((bottom, top), TRAYS, strict=True):
        dx, dy = r.width * m, r.height * m
        assert _inside(tile, r.x0 - dx, r.x1 + dx, r.y0 - dy, r.y1 + dy)
        # the tile covers the tray whole, ends and sides
        assert tile[..., 0].min() < r.x0 + 0.01 and tile[..., 0].max() > r.x1 - 0.01
        assert tile[..., 1].min() < r.y0 + 0.01 and tile[..., 1].max() > r.y1 - 0.01
    assert bottom[0, 0, 1] > bottom[-1, 0, 1]  # the bottom tray from its lower (outer) end
    assert top[0, 0, 1] < top[-1, 0, 1]


def test_the_bar_tiles_run_from_the_middle_outward_a_little_wider_than_the_bar():
    config = VisionConfig()
    left, right = BoardGeometry().bar
    top, bottom = BarTraySampler(_profile(), config).bar_coords()
    assert abs(top[0, 0, 1] - 0.5) < 0.01 and top[-1, 0, 1] < 0.01
    assert abs(bottom[0, 0, 1] - 0.5) < 0.01 and bottom[-1, 0, 1] > 0.99
    wide = (right - left) * config.bar_context
    assert abs(top[0, 0, 0] - left + wide) < 0.01 and abs(top[0, -1, 0] - right - wide) < 0.01


def _paint(frame: np.ndarray, profile: BoardProfile, r: Rect, colour) -> None:
    quad = profile.board_to_image([(r.x0, r.y0), (r.x1, r.y0), (r.x1, r.y1), (r.x0, r.y1)])
    cv2.fillPoly(frame, [np.round(quad).astype(np.int32)], colour)


def test_every_tile_is_cut_from_its_own_place_in_the_frame():
    profile = _profile()
    frame = np.full((720, 1280, 3), 128, np.uint8)
    left, right = profile.geometry.bar
    _paint(frame, profile, TRAYS[0], (0, 0, 255))  # bottom tray red
    _paint(frame, profile, TRAYS[1], (0, 255, 0))  # top tray green
    _paint(frame, profile, Rect(left, 0.0, right, 0.5), (255, 0, 0))  # the bar's top half blue
    tiles = BarTraySampler(profile).sample(frame)
    assert tiles.trays is not None
    red, green = tiles.trays[0, 20:-20, 10:-10], tiles.trays[1, 20:-20, 10:-10]
    assert (red[..., 2] > 200).all() and (red[..., :2] < 50).all()
    assert (green[..., 1] > 200).all() and (green[..., [0, 2]] < 50).all()
    middle = slice(10, -10)  # across the bar proper, away from the context either side
    assert (tiles.bar[0, 5:-5, middle, 0] > 200).all()
    assert (tiles.bar[1, 5:-5, middle] == 128).all()


def test_without_trays_or_told_they_are_out_of_view_only_the_bar_is_cut():
    frame = np.full((720, 1280, 3), 128, np.uint8)
    assert BarTraySampler(_profile(None)).sample(frame).trays is None
    assert BarTraySampler(_profile()).sample(frame, trays=False).trays is None
    read = read_bar(BarTraySampler(_profile()).sample(frame, trays=False).bar)
    assert read.counts.shape == (2,)


def test_the_levels_are_stretched_as_the_points_were():
    frame = np.full((720, 1280, 3), 100, np.uint8)
    tiles = BarTraySampler(_profile()).sample(frame, levels=(50.0, 3.0))
    assert (tiles.bar == 150).all() and (tiles.trays == 150).all()  # (100 - 50) × 3


def _tiles_of(name: str):
    image = cv2.imread(str(FIXTURES / f"{name}.jpg"))
    truth = json.loads((FIXTURES / f"{name}.json").read_text())
    profile = profile_from_corners(image, truth["corners"])
    levels = Sampler(profile).sample(image).levels
    return BarTraySampler(profile).sample(image, levels), truth


def test_full_trays_and_an_empty_bar_are_counted():
    tiles, truth = _tiles_of("bearoff-000")
    light_off, dark_off = truth["off"]
    assert light_off + dark_off > 0 and truth["bar"] == [0, 0]
    assert tiles.trays is not None
    trays, bar = read_trays(tiles.trays), read_bar(tiles.bar)
    assert trays.counts.tolist() == [light_off, dark_off]  # bottom tray light's, top dark's
    assert bar.counts.tolist() == [0, 0]
    for read in (trays, bar):
        assert ((read.confidence > 0) & (read.confidence <= 1)).all()
        assert np.allclose(read.count_p.sum(axis=1), 1.0)


def _sure(*counts: int, light: float = 0.9) -> TilesRead:
    p = np.full((len(counts), MOST + 1), 1e-3)
    p[np.arange(len(counts)), counts] = 1.0
    p /= p.sum(axis=1, keepdims=True)
    return TilesRead(
        np.array(counts),
        np.full(len(counts), light >= 0.5),
        p.max(axis=1),
        p,
        np.full(len(counts), light),
    )


def test_the_bar_read_twice_takes_what_both_readings_make_likeliest():
    tiles, _ = _tiles_of("bearoff-000")
    own = read_bar(tiles.bar)
    # the checker networks sure of two dark checkers on the top half: agreed, the bar's own
    # network's doubt moves the count only as far as its probabilities say
    agreed = read_bar(tiles.bar, shared=_sure(2, 0, light=0.2))
    assert agreed.counts[1] == own.counts[1] == 0
    assert agreed.count_p[0, 2] > own.count_p[0, 2]
    assert np.allclose(agreed.count_p.sum(axis=1), 1.0)
    assert read_bar(tiles.bar, shared=rows(own, slice(0, 2))).counts.tolist() == [0, 0]


def test_readings_joined_keep_their_order():
    def one(count: int) -> TilesRead:
        p = np.zeros((1, MOST + 1))
        p[0, count] = 1.0
        return TilesRead(np.array([count]), np.array([True]), np.ones(1), p, np.ones(1))

    joined = join(one(3), one(0), one(7))
    assert joined.counts.tolist() == [3, 0, 7] and joined.count_p.shape == (3, MOST + 1)


def test_the_bar_network_is_asked_unless_the_checker_networks_are_sure_the_bar_is_empty():
    empty = _sure(0, 0)  # each half empty at 0.985
    assert bar_quiet(empty, 0.98) and not bar_quiet(empty, 0.99)
    assert not bar_quiet(_sure(0, 1), 0.5)  # a checker seen on one half
    unsure = _sure(0, 0)
    unsure.count_p[1] = np.r_[0.9, 0.1, np.zeros(MOST - 1)]
    assert not bar_quiet(unsure, 0.99) and bar_quiet(unsure, 0.8)
