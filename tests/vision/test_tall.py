"""The closer look at tall points: where its tiles lie, and which points it is asked for."""

from collections.abc import Callable

import numpy as np
from vision_drawn import START, draw_board, photograph

from nardy.calibration import BoardGeometry, BoardProfile
from nardy.vision.board import BoardReader
from nardy.vision.checkers import (
    BAR,
    MOST,
    POINT,
    TilesRead,
    needs_tall,
    read_tall,
    read_tiles,
)
from nardy.vision.config import VisionConfig
from nardy.vision.sampler import Sampler
from nardy.vision.tall import TALL_WEIGHTS, TallSampler, tall_probs


def _profile() -> BoardProfile:
    corners = [(300, 100), (980, 110), (1000, 650), (280, 640)]
    return BoardProfile.from_corners(corners, (1280, 720), BoardGeometry())


def test_a_close_tile_covers_its_point_at_twice_the_resolution():
    profile = _profile()
    config = VisionConfig()
    tall, tiles = TallSampler(profile, config), Sampler(profile, config)
    for point in (1, 7, 12, 13, 19, 24):
        close, coarse = tall.coords(point), tiles.strip_coords(point)
        assert close.shape == (2 * config.strip_length, 2 * config.strip_pixels, 2)
        shape = profile.geometry.point(point)
        # across: the point's width about its base; along: its base to the board's middle
        assert abs(close[..., 0].mean() - shape.base[0]) < 1e-9
        assert abs(close[..., 0].max() - close[..., 0].min() - shape.width) < shape.width / 16
        assert abs(close[0, 0, 1] - shape.base[1]) < 0.01 and abs(close[-1, 0, 1] - 0.5) < 0.01
        # the mean of every 2 × 2 block of samples is where the coarse tile samples
        blocks = close.reshape(len(coarse), 2, coarse.shape[1], 2, 2).mean(axis=(1, 3))
        assert np.abs(blocks - coarse).max() < 1e-9


def test_a_close_tile_shows_what_the_frame_shows_there():
    # a frame whose every pixel says where it is: the tile must hold the profile's image points
    h, w = 720, 1280
    ys, xs = np.mgrid[0:h, 0:w]
    frame = np.stack([xs % 256, xs // 256, ys % 256], -1).astype(np.uint8)
    frame[..., 1] += (ys // 256 * 8).astype(np.uint8)
    profile = _profile()
    tall = TallSampler(profile)
    tiles = tall.sample(frame, np.array([0, 20]))
    for tile, point in zip(tiles, (1, 21), strict=True):
        c = tall.coords(point)
        want = profile.board_to_image(c.reshape(-1, 2)).reshape(c.shape)
        got_x = tile[..., 0].astype(int) + 256 * (tile[..., 1].astype(int) % 8)
        got_y = tile[..., 2].astype(int) + 256 * (tile[..., 1].astype(int) // 8)
        inside = (want[..., 0] % 256 > 2) & (want[..., 0] % 256 < 253)
        inside &= (want[..., 1] % 256 > 2) & (want[..., 1] % 256 < 253)
        assert np.abs(got_x - want[..., 0])[inside].max() <= 1.0
        assert np.abs(got_y - want[..., 1])[inside].max() <= 1.0


def test_the_close_tiles_take_the_levels_the_frame_was_stretched_by():
    frame = np.full((720, 1280, 3), 100, np.uint8)
    tall = TallSampler(_profile())
    plain = tall.sample(frame, np.array([3]))
    stretched = tall.sample(frame, np.array([3]), (50.0, 2.0))
    assert (plain == 100).all() and (stretched == 100).all()  # (100 - 50) × 2
    assert (tall.sample(frame, np.array([3]), (80.0, 2.0)) == 40).all()


def _start_asking() -> tuple[np.ndarray, list[list[int]], Callable[[np.ndarray], np.ndarray]]:
    """The drawn start's checker tiles, and a closer that notes the points it is asked for."""
    flat, corners = draw_board(START)
    photo, seen = photograph(flat, corners)
    profile = BoardProfile.from_corners(seen, (1280, 720))
    tiles = Sampler(profile).sample(photo)
    asked: list[list[int]] = []

    def closer(points: np.ndarray) -> np.ndarray:
        asked.append(points.tolist())
        return TallSampler(profile).sample(photo, points, tiles.levels)

    return tiles.checker_tiles(), asked, closer


def test_only_points_read_tall_are_looked_at_closely():
    checker_tiles, asked, closer = _start_asking()
    config = VisionConfig(tall_from=5)
    plain = read_tiles(checker_tiles, config=config)
    read = read_tiles(checker_tiles, config=config, closer=closer)
    tall = [i for i in range(24) if plain.counts[i] >= 5]
    assert len(tall) == 4  # the start's four points of five
    assert asked == [tall]
    assert isinstance(read, TilesRead) and read.count_p.shape == (26, MOST + 1)
    rest = ~np.isin(np.arange(26), tall)
    assert (read.counts[rest] == plain.counts[rest]).all()
    never = VisionConfig(tall_from=MOST + 1)
    none = read_tiles(checker_tiles, config=never, closer=closer)
    assert len(asked) == 1 and (none.counts == plain.counts).all()


def test_points_marked_as_under_a_die_are_looked_at_closely_whatever_their_reading():
    checker_tiles, asked, closer = _start_asking()
    config = VisionConfig(
        tall_from=MOST + 1, tall_unsure=0.0, tall_unsure_empty=0.0, tall_die_empty=1.01
    )
    also = np.zeros(26, bool)
    also[[2, 20, 24]] = True  # two points and a half of the bar: a die found there
    read_tiles(checker_tiles[:26], config=config, closer=closer, also=also)
    assert asked == [[2, 20]]
    read_tiles(checker_tiles[:26], config=config, closer=closer)
    assert len(asked) == 1


def test_an_empty_point_under_a_die_read_surely_is_not_looked_at_closely():
    checker_tiles, asked, closer = _start_asking()
    config = VisionConfig(tall_from=MOST + 1, tall_unsure=0.0, tall_unsure_empty=0.0)
    plain = read_tiles(checker_tiles[:26], config=config)
    also = np.zeros(26, bool)
    also[[0, 2, 20]] = True  # a die over point 1 (two checkers) and over two empty points
    assert plain.counts[[2, 20]].tolist() == [0, 0] and plain.counts[0] > 0
    assert (plain.count_p[[2, 20]].max(axis=1) >= config.tall_die_empty).all()
    read_tiles(checker_tiles[:26], config=config, closer=closer, also=also)
    assert asked == [[0]]  # the die alone on an empty point is no checker to count


def test_a_die_is_under_the_points_whose_strip_holds_it():
    profile = _profile()
    reader = BoardReader(profile, VisionConfig(die_point_reach=1.0))
    g = profile.geometry
    for n in (1, 9, 14, 22):
        shape = g.point(n)
        x, y = shape.base
        along = y + shape.down * 0.3  # on the strip, past the triangle's middle
        for dx, under in ((0.0, True), (0.45, True), (0.55, False)):
            ((u, v),) = profile.board_to_image([(x + dx * shape.width, along)])
            mask = reader.points_under([(u, v)])
            assert mask[n - 1] == under and mask.sum() <= 1
    bar = profile.board_to_image([(sum(g.bar) / 2, 0.3)])
    assert not reader.points_under(bar).any()
    wider = BoardReader(profile, VisionConfig(die_point_reach=1.3))
    x, y = g.point(3).base
    edge = profile.board_to_image([(x + 0.55 * g.point(3).width, 0.8)])
    assert np.flatnonzero(wider.points_under(edge)).tolist() == [1, 2]


def _read(counts: list[int], sure: list[float]) -> TilesRead:
    count_p = np.full((len(counts), MOST + 1), 0.0)
    for i, (c, p) in enumerate(zip(counts, sure, strict=True)):
        count_p[i] = (1 - p) / MOST
        count_p[i, c] = p
    light = np.ones(len(counts), bool)
    return TilesRead(np.array(counts), light, count_p.max(axis=1), count_p, light * 0.9)


def test_the_tall_network_counts_tall_points_and_doubtful_high_ones_only():
    config = VisionConfig(
        tall_from=8, tall_doubt=0.99, fine_from=4, tall_unsure=0.0, tall_unsure_empty=0.0
    )
    read = _read([0, 3, 4, 4, 7, 8, 15, 2, 9], [0.5, 0.5, 0.995, 0.9, 0.95, 1.0, 1.0, 0.5, 1.0])
    kinds = np.array([POINT] * 8 + [BAR])
    assert needs_tall(read, kinds, config).tolist() == [
        False,
        False,
        False,
        True,
        True,
        True,
        True,
        False,
        False,
    ]


def test_a_point_read_unsurely_at_any_height_is_looked_at_closely_when_asked():
    read = _read([0, 0, 2, 1, 3], [0.6, 0.95, 0.7, 0.999, 0.5])
    kinds = np.array([POINT] * 4 + [BAR])
    never = VisionConfig(tall_unsure=0.0, tall_unsure_empty=0.0)
    assert not needs_tall(read, kinds, never).any()
    unsure = VisionConfig(tall_unsure=0.9, tall_unsure_empty=0.9)
    assert needs_tall(read, kinds, unsure).tolist() == [True, False, True, False, False]
    empty_surer = VisionConfig(tall_unsure=0.9, tall_unsure_empty=0.5)
    assert needs_tall(read, kinds, empty_surer).tolist() == [False, False, True, False, False]


def test_a_close_reading_read_in_its_mirror_image_too_is_the_same_for_the_mirror_image():
    rng = np.random.default_rng(3)
    close = rng.integers(0, 256, (2, 192, 32, 3), dtype=np.uint8)
    read = _read([12, 14], [0.6, 0.7])
    mirrored = np.ascontiguousarray(close[:, :, ::-1])
    always = VisionConfig(tall_mirror=1.1)
    a = read_tall(close, read, np.array([0, 1]), TALL_WEIGHTS, always)
    b = read_tall(mirrored, read, np.array([0, 1]), TALL_WEIGHTS, always)
    assert np.allclose(a.count_p, b.count_p, atol=1e-5)
    assert (a.light == read.light).all()


def test_a_close_reading_never_mirrored_is_the_weighted_geometric_mean_of_the_two():
    rng = np.random.default_rng(3)
    close = rng.integers(0, 256, (2, 192, 32, 3), dtype=np.uint8)
    read = _read([12, 14], [0.6, 0.7])
    count_p, _ = tall_probs(close)
    for w in (1.0, 0.5):
        once = read_tall(
            close,
            read,
            np.array([0, 1]),
            TALL_WEIGHTS,
            VisionConfig(tall_mirror=0.0, tall_read_weight=w),
        )
        mean = (count_p * read.count_p**w) ** (1 / (1 + w))
        assert np.allclose(once.count_p, mean / mean.sum(axis=1, keepdims=True), atol=1e-6)
    # the fine reading counting less, the tall network's favourite gains
    half = read_tall(close, read, np.array([0, 1]), TALL_WEIGHTS, VisionConfig(tall_mirror=0.0))
    full = read_tall(
        close,
        read,
        np.array([0, 1]),
        TALL_WEIGHTS,
        VisionConfig(tall_mirror=0.0, tall_read_weight=1.0),
    )
    top = count_p.argmax(axis=1)
    assert (half.count_p[[0, 1], top] >= full.count_p[[0, 1], top]).all()


def test_detect_reads_the_board_again_only_for_dice_over_the_points(monkeypatch):
    """``with_objects`` hands the board reader the centres of the dice found in a half of the
    board (its points counted closely), and reads nothing again for dice on the bar or off."""
    from nardy.vision import detect

    flat, corners = draw_board(START)
    photo, seen = photograph(flat, corners)
    profile = BoardProfile.from_corners(seen, (1280, 720))
    result = detect.detect_image(photo, profile=profile, objects=False)
    assert result.reading.usable
    calls: list[list[tuple[float, float]]] = []
    original = BoardReader.read

    def read(self, frame, dice=()):
        calls.append(list(dice))
        return original(self, frame, dice)

    monkeypatch.setattr(BoardReader, "read", read)
    found: list[dict] = []
    monkeypatch.setattr(detect, "_dice_and_cube", lambda image, p, r: (tuple(found), None))
    found[:] = [{"where": "bar", "center": [640.0, 360.0]}, {"where": "off", "center": [5, 5]}]
    assert detect.with_objects(result, photo).reading == result.reading
    assert calls == []
    found.append({"where": "left", "center": [400.0, 300.0]})
    again = detect.with_objects(result, photo)
    assert calls == [[[400.0, 300.0]]]
    assert again.dice == tuple(found)
