"""The reader on a plainly drawn board whose truth is exact by construction."""

import numpy as np
import pytest
from vision_drawn import START, draw_board, photograph

from nardy.calibration import BoardGeometry, BoardProfile
from nardy.vision.board import BoardReader, board_reader, read_board
from nardy.vision.config import VisionConfig

POSITIONS = [
    START,
    [0] * 24,
    [1, 0, 2, -3, 3, -3, 4, -4, 5, -5, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -5, 0, 4],
]
# Dark checkers are drawn exactly the colour of the dark points: one or two of them by the
# frame hardly show. The reader need not see them, but it must not be sure when it does not.
SAME_COLOUR = [0, -1, 0, -2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]


@pytest.mark.parametrize("points", POSITIONS)
def test_a_drawn_board_reads_exactly(points):
    flat, corners = draw_board(points)
    photo, seen = photograph(flat, corners)
    profile = BoardProfile.from_corners(seen, (photo.shape[1], photo.shape[0]), BoardGeometry())
    reading = read_board(photo, profile)
    assert reading.usable, reading.why
    assert list(reading.points) == points
    assert reading.bar == (0, 0)


def test_a_black_frame_is_not_usable_and_says_why():
    profile = BoardProfile.from_corners(
        [(300, 40), (980, 50), (1040, 690), (250, 680)], (1280, 720)
    )
    reading = BoardReader(profile).read(np.full((720, 1280, 3), 3, np.uint8))
    assert not reading.usable
    assert "dark" in reading.why
    assert reading.to_json()["usable"] is False


def test_a_profile_made_at_another_resolution_still_reads():
    flat, corners = draw_board(START)
    photo, seen = photograph(flat, corners, size=(1280, 720))
    profile = BoardProfile.from_corners(seen, (1280, 720))
    import cv2

    small = cv2.resize(photo, (960, 540), interpolation=cv2.INTER_AREA)
    assert list(read_board(small, profile).points) == START


def test_frames_of_one_profile_share_one_reader_and_its_maps():
    corners = [(300.0, 40.0), (980.0, 50.0), (1040.0, 690.0), (250.0, 680.0)]
    first = board_reader(BoardProfile.from_corners(corners, (1280, 720)), VisionConfig())
    # an equal profile made afresh (as a caller handing its profile with every frame does)
    assert board_reader(BoardProfile.from_corners(corners, (1280, 720)), VisionConfig()) is first
    moved = [(x + 3, y) for x, y in corners]
    assert board_reader(BoardProfile.from_corners(moved, (1280, 720)), VisionConfig()) is not first
    told = VisionConfig(checkers_per_side=15)
    assert board_reader(BoardProfile.from_corners(corners, (1280, 720)), told) is not first


def test_short_dark_stacks_on_dark_points_are_read_or_doubted():
    flat, corners = draw_board(SAME_COLOUR)
    photo, seen = photograph(flat, corners)
    reading = read_board(photo, BoardProfile.from_corners(seen, (1280, 720)))
    for n in (2, 4):
        got, conf = reading.points[n - 1], reading.point_confidence[n - 1]
        print(f"point {n}: truth {SAME_COLOUR[n - 1]}, read {got}, confidence {conf:.2f}")
        assert got == SAME_COLOUR[n - 1] or conf < 0.5


def test_the_bars_own_tiles_are_sampled_only_when_its_network_is_asked(monkeypatch):
    """With the trays out of view and the checker networks sure the bar is empty, the bar's
    own tiles are not sampled; when the bar's network is asked, they are, once."""
    from nardy.vision.bar_trays import BarTraySampler

    sampled = []
    sample = BarTraySampler.sample

    def counted(self, *args, **kwargs):
        sampled.append(kwargs.get("trays", True))
        return sample(self, *args, **kwargs)

    monkeypatch.setattr(BarTraySampler, "sample", counted)
    flat, corners = draw_board(START)
    photo, seen = photograph(flat, corners)
    profile = BoardProfile.from_corners(seen, (1280, 720))
    reader = BoardReader(profile)
    assert not reader.trays_in_view
    assert list(reader.read(photo).points) == START
    assert sampled == []
    asked = BoardReader(profile, VisionConfig(bar_quiet=1.1))  # the bar's network always asked
    assert asked.read(photo).bar == (0, 0)
    assert sampled == [False]
