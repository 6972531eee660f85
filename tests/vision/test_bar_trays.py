"""The bar's and the trays' own reader: where its tiles lie, and what its networks make of them."""

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from nardy.calibration import BoardGeometry, BoardProfile, Rect
from nardy.vision.bar_trays import (
    RHYTHM_LAGS,
    BarTraySampler,
    bar_quiet,
    cap_trays,
    join,
    lifted_to_image,
    read_bar,
    read_trays,
    rhythm,
    rows,
    witnessed,
)
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
    # the trays' floors painted: sampled at their floor, not the checkers' height
    tiles = BarTraySampler(profile, VisionConfig(tray_lift=0.0)).sample(frame)
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
    trays, bar = read_trays(tiles.trays, tiles.lifted), read_bar(tiles.bar)
    floor = read_trays(tiles.trays)  # the floor's view alone
    for read in (trays, floor):
        assert read.counts.tolist() == [light_off, dark_off]  # bottom tray light's, top dark's
    assert not np.allclose(trays.count_p, floor.count_p)  # the lifted view counts too
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


def _halves(top: dict[int, float], bottom: dict[int, float], light: float = 0.1) -> TilesRead:
    """The bar's halves read with the probabilities given (the rest shared out evenly)."""
    p = np.zeros((2, MOST + 1))
    for row, probs in enumerate((top, bottom)):
        p[row] = (1 - sum(probs.values())) / (MOST + 1 - len(probs))
        for count, prob in probs.items():
            p[row, count] = prob
    light_p = np.full(2, light)
    return TilesRead(p.argmax(axis=1), light_p >= 0.5, p.max(axis=1), p, light_p)


def test_the_checker_networks_taken_at_a_lesser_weight_let_the_bar_network_outvote_them():
    # the bar's network sees a dark checker on the top half (beside the cube, say); the checker
    # networks are surer still that the half is empty
    own = _halves({1: 0.95, 0: 0.04}, {0: 0.99})
    shared = _halves({0: 0.995, 1: 0.005}, {0: 0.999})
    assert witnessed(own, shared).counts.tolist() == [0, 0]  # the plain product
    taken_down = witnessed(own, shared, shared_weight=0.5)
    assert taken_down.counts.tolist() == [1, 0]
    assert np.allclose(taken_down.count_p.sum(axis=1), 1.0)
    assert not taken_down.light[0]  # dark, as both say
    # sure as each other, they still agree
    assert witnessed(shared, shared, 0.5).counts.tolist() == [0, 0]


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


def _stack(thickness: int, count: int, seam: int = 2) -> np.ndarray:
    """A tray tile with ``count`` checkers on edge from its outer end, each ``thickness``
    pixels along with a darker seam of ``seam`` pixels, on a plain floor."""
    tile = np.full((192, 32, 3), 60, np.uint8)
    for i in range(count):
        y = 8 + i * thickness
        tile[y : y + thickness - seam, 4:28] = 200
        tile[y + thickness - seam : y + thickness, 4:28] = 140
    return tile


def test_the_rhythm_of_a_stack_peaks_at_its_checkers_thickness():
    lags = list(RHYTHM_LAGS)
    for thickness in (6, 7, 8):
        r = rhythm(_stack(thickness, 12)[None])[0]
        assert lags[int(r[: lags.index(10)].argmax())] == thickness
        assert r[lags.index(thickness)] > 0.3
    # a plain stack (no seams) is like itself moved by no shift, only its ends show (as
    # unlike), and an empty tray has no rhythm at all
    assert rhythm(_stack(7, 12, seam=0)[None]).max() < 0.05
    assert np.abs(rhythm(np.full((1, 192, 32, 3), 90, np.uint8))).max() < 1e-3


def _board(points: list[int], trays: list[dict[int, float]]) -> TilesRead:
    """A whole board's reading: 24 points (+ light, - dark) read surely, the bar empty, and
    the trays (bottom light's, top dark's) with the probabilities given (the rest 1e-4)."""
    p = np.full((28, MOST + 1), 1e-4)
    p[np.arange(26), [abs(n) for n in points] + [0, 0]] = 1.0
    for i, tray in enumerate(trays):
        for count, prob in tray.items():
            p[26 + i, count] = prob
    p /= p.sum(axis=1, keepdims=True)
    light = np.array([n > 0 for n in points] + [True, False, True, False])
    return TilesRead(p.argmax(axis=1), light, p.max(axis=1), p, np.where(light, 0.9, 0.1))


def test_a_set_read_over_fifteen_has_its_tray_read_again_within_them():
    points = [0] * 24
    points[0], points[5], points[12] = 3, 2, -4  # light 5 on the points, dark 4
    # light's tray read 11 (10 next likeliest): 16 in all; dark's 11 (12 next): 15
    board = _board(points, [{11: 0.55, 10: 0.3}, {11: 0.55, 12: 0.3}])
    read = cap_trays(board, 15)
    assert read.counts[26:].tolist() == [10, 11]
    assert read.counts[:26].tolist() == board.counts[:26].tolist()
    assert read.confidence[26] < 0.5  # taken down to its second likeliest count
    # the likeliest count within the cap, not merely the next one down
    read = cap_trays(_board(points, [{12: 0.5, 13: 0.2, 11: 0.01, 9: 0.1}, {}]), 15)
    assert read.counts[26] == 9
    # a set read short is not made up to fifteen
    read = cap_trays(_board(points, [{9: 0.55, 10: 0.4}, {11: 0.55, 12: 0.3}]), 15)
    assert read.counts[26:].tolist() == [9, 11]
    # nor is a tray taken down further than its probabilities allow
    board = _board(points, [{12: 0.99, 10: 2e-4}, {}])
    assert cap_trays(board, 15, most_doubt=5.0).counts[26] == 12  # 10: 8.5 nats less likely
    assert cap_trays(board, 15, most_doubt=12.0).counts[26] == 10
    # a set over fifteen on its points alone keeps its tray (nothing there to take down)
    many = [0] * 24
    many[0], many[1] = 15, 2  # (a die counted as checkers, say)
    assert cap_trays(_board(many, [{1: 0.6, 0: 0.4}, {}]), 15).counts[26] == 1


def _camera(eye, focal: float, aspect: float, size=(1280, 720)):
    """A pinhole camera at ``eye`` (board plane's units: the surface 1 × ``aspect`` at z = 0,
    the camera on the side of negative z) looking at the surface's middle: what it makes of
    a 3-D point."""
    eye = np.asarray(eye, np.float64)
    forward = np.array([0.5, aspect / 2, 0.0]) - eye
    forward /= np.linalg.norm(forward)
    right = np.cross(forward, [0.0, -1.0, 0.0])
    right /= np.linalg.norm(right)
    rot = np.stack([right, np.cross(forward, right), forward])

    def project(p):
        c = (np.asarray(p, np.float64) - eye) @ rot.T
        return focal * c[:, :2] / c[:, 2:] + np.array(size) / 2

    return project


def test_a_tray_is_seen_where_the_tops_of_its_checkers_stand():
    """``lifted_to_image`` puts a board point raised off the surface where the camera sees it
    (the camera's pose from the corners alone), and at height 0 where the profile does."""
    aspect = 0.85
    # slanted views (seen from straight above, the focal length and so the height are not told)
    for eye, focal in (((1.4, 1.3, -1.1), 800.0), ((0.2, -0.5, -1.2), 1100.0)):
        project = _camera(eye, focal, aspect)
        surface = [(0, 0, 0), (1, 0, 0), (1, aspect, 0), (0, aspect, 0)]
        profile = BoardProfile.from_corners(
            project(surface), (1280, 720), BoardGeometry(aspect=aspect, trays=TRAYS)
        )
        board = np.array([[1.06, 0.1], [1.08, 0.9], [0.5, 0.5]])
        height = 0.06
        raised = project(np.c_[board[:, 0], board[:, 1] * aspect, np.full(3, -height)])
        floor = project(np.c_[board[:, 0], board[:, 1] * aspect, np.zeros(3)])
        assert lifted_to_image(profile, board, height) == pytest.approx(raised, abs=0.5)
        assert lifted_to_image(profile, board, 0.0) == pytest.approx(floor, abs=1e-3)
        assert np.abs(raised - floor).max() > 5  # the height shows


def test_each_tray_is_seen_at_its_floor_and_at_its_checkers_height():
    tiles, _ = _tiles_of("bearoff-003")  # seen from 29 degrees off the vertical
    assert tiles.trays is not None and tiles.lifted is not None
    assert tiles.lifted.shape == tiles.trays.shape
    assert np.abs(tiles.lifted.astype(int) - tiles.trays).mean() > 10
    image = cv2.imread(str(FIXTURES / "bearoff-003.jpg"))
    truth = json.loads((FIXTURES / "bearoff-003.json").read_text())
    flat = BarTraySampler(profile_from_corners(image, truth["corners"]), VisionConfig(tray_lift=0))
    low = flat.sample(image, Sampler(flat.profile).sample(image).levels)
    assert low.lifted is not None and np.array_equal(low.lifted, low.trays)


def _fixture(name: str) -> tuple[np.ndarray, BoardProfile, dict]:
    image = cv2.imread(str(FIXTURES / f"{name}.jpg"))
    truth = json.loads((FIXTURES / f"{name}.json").read_text())
    return image, profile_from_corners(image, truth["corners"]), truth


def test_a_usable_board_whose_tray_reads_one_short_leans_to_fifteen_a_side(monkeypatch):
    from nardy.vision import board

    # dark's 11 borne off, thin checkers: the trays' networks read 10 a little more surely
    image, profile, truth = _fixture("bearoff-004")
    assert board.read_board(image, profile).off == tuple(truth["off"]) == (0, 11)
    assert board.read_board(image, profile, VisionConfig(total_lean=0.0)).off == (0, 10)
    # a frame with a hand over the board (unusable: a checker may be in it) is not leaned
    leaned = []
    lean = board.lean_to_totals
    monkeypatch.setattr(board, "lean_to_totals", lambda *a: leaned.append(1) or lean(*a))
    image, profile, _ = _fixture("hand-000")
    reading = board.read_board(image, profile, VisionConfig(total_lean=2.4))
    assert not reading.usable and reading.off is not None and not leaned
    image, profile, _ = _fixture("bearoff-004")
    board.read_board(image, profile, VisionConfig(total_lean=2.4))
    assert leaned
