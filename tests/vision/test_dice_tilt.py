"""The board-plane view of a die: a square on the board comes out a square of the die's size,
however slanted the camera; and a known board's reader says flat or cocked from that view."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from nardy.vision import camera, dice_tilt
from nardy.vision.dice_patches import CONTEXT, PATCH

#: a board 1 wide and 0.8 high seen by a slanted camera: its far edge shorter than its near one
SLANTED = [(260.0, 100.0), (700.0, 110.0), (820.0, 560.0), (140.0, 540.0)]
ASPECT = 0.8


def board_to_image() -> np.ndarray:
    return np.linalg.inv(dice_tilt.to_plane(SLANTED, ASPECT))


def test_the_plane_maps_the_corners_to_the_board_at_its_proportions():
    h = dice_tilt.to_plane(SLANTED, ASPECT)
    got = cv2.perspectiveTransform(np.array([SLANTED], np.float64), h)[0]
    assert got == pytest.approx(np.array([[0, 0], [1, 0], [1, ASPECT], [0, ASPECT]]), abs=1e-6)


def test_plane_scale_is_the_local_area_ratio():
    h = dice_tilt.to_plane(SLANTED, ASPECT)
    at = np.array([[300.0, 150.0], [600.0, 500.0]])
    e = 0.5
    for (x, y), got in zip(at, dice_tilt.plane_scale(h, at), strict=True):
        q = cv2.perspectiveTransform(np.array([[[x, y], [x + e, y], [x, y + e]]]), h)[0]
        dx, dy = (q[1] - q[0]) / e, (q[2] - q[0]) / e
        assert got == pytest.approx(np.sqrt(abs(dx[0] * dy[1] - dx[1] * dy[0])), rel=1e-3)
    far, near = dice_tilt.plane_scale(h, at)
    assert far > 1.3 * near  # the far side's pixels cover more of the board


def square_on_board(at: tuple[float, float], side: float, turn: float) -> np.ndarray:
    """A white square of ``side`` (board units) at board point ``at``, turned, drawn on a dark
    image as the slanted camera sees it."""
    a = np.radians(turn)
    r = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    corners = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]]) * side / 2 @ r.T + at
    seen = cv2.perspectiveTransform(corners[None], board_to_image())[0]
    fine = np.full((700 * 4, 960 * 4, 3), 40, np.uint8)  # drawn 4 times finer, then shrunk
    cv2.fillConvexPoly(fine, np.round((seen * 4 + 1.5) * 16).astype(np.int32), (230,) * 3, 8, 4)
    return cv2.resize(fine, (960, 700), interpolation=cv2.INTER_AREA)


@pytest.mark.parametrize("at", [(0.2, 0.1), (0.8, 0.7)], ids=["far", "near"])
def test_a_square_on_the_board_comes_out_square_at_its_size(at):
    side = 0.05
    image = square_on_board(at, side, turn=0.0)
    h = dice_tilt.to_plane(SLANTED, ASPECT)
    centre = cv2.perspectiveTransform(np.array([[at]], np.float64), board_to_image())[0, 0]
    # the face's side in image pixels, as the reader would measure it there
    face = side / dice_tilt.plane_scale(h, centre[None])[0]
    patch = dice_tilt.cut_flat(image, h, (float(centre[0]), float(centre[1])), face)
    assert patch.shape == (PATCH, PATCH, 3)
    ink = (patch[..., 0].astype(np.float64) - 40) / 190  # the square's share of each pixel
    ys, xs = np.mgrid[0:PATCH, 0:PATCH]
    area = ink.sum()
    mx, my = (ink * xs).sum() / area, (ink * ys).sum() / area
    vx, vy = (ink * (xs - mx) ** 2).sum() / area, (ink * (ys - my) ** 2).sum() / area
    assert np.sqrt(area) == pytest.approx(PATCH / CONTEXT, rel=0.03)
    assert vx == pytest.approx(vy, rel=0.03)  # as wide as high: a square, not foreshortened
    assert mx == pytest.approx((PATCH - 1) / 2, abs=0.3)
    assert my == pytest.approx((PATCH - 1) / 2, abs=0.3)
    # in the image itself the square is not one: the camera's slant stretches it one way
    q = cv2.perspectiveTransform(
        np.array([[[at[0] - side / 2, at[1]], [at[0] + side / 2, at[1]]]]), board_to_image()
    )[0]
    r = cv2.perspectiveTransform(
        np.array([[[at[0], at[1] - side / 2], [at[0], at[1] + side / 2]]]), board_to_image()
    )[0]
    across, along = np.linalg.norm(q[1] - q[0]), np.linalg.norm(r[1] - r[0])
    assert not 0.9 < along / across < 1.1


def test_a_turned_cut_turns_the_patch():
    image = square_on_board((0.5, 0.4), 0.05, turn=0.0)
    image[...] = 40
    h = dice_tilt.to_plane(SLANTED, ASPECT)
    # a mark to the board's right of the centre
    for at, colour in (((0.5, 0.4), 120), ((0.515, 0.4), 250)):
        p = cv2.perspectiveTransform(np.array([[at]], np.float64), board_to_image())[0, 0]
        cv2.circle(image, (round(p[0]), round(p[1])), 4, (colour,) * 3, -1)
    centre = cv2.perspectiveTransform(np.array([[(0.5, 0.4)]], np.float64), board_to_image())
    c = (float(centre[0, 0, 0]), float(centre[0, 0, 1]))
    face = 0.03 / dice_tilt.plane_scale(h, np.array([c]))[0]
    plain = dice_tilt.cut_flat(image, h, c, face)
    turned = dice_tilt.cut_flat(image, h, c, face, angle=90.0)

    def mark(patch: np.ndarray) -> tuple[float, float]:
        ys, xs = np.nonzero(patch[..., 0] > 200)
        return float(xs.mean()), float(ys.mean())

    x, y = mark(plain)
    assert x > PATCH * 0.7 and abs(y - (PATCH - 1) / 2) < 2
    x, y = mark(turned)  # a quarter turn puts the board's right elsewhere
    assert abs(x - (PATCH - 1) / 2) < 2 and abs(y - (PATCH - 1) / 2) > PATCH * 0.2


def seen_by(eye: np.ndarray, aim: np.ndarray, focal: float, size=(1280, 720)) -> np.ndarray:
    """The image corners (TL, TR, BR, BL) of the board's plane rectangle 1 × ASPECT (z = 0, z
    up out of the board... here the plane's y runs down the image) seen by a pinhole camera at
    ``eye`` looking at ``aim``."""
    forward = (aim - eye) / np.linalg.norm(aim - eye)
    right = np.cross(forward, [0.0, -1.0, 0.0])  # the board's "up" (−y) is the image's up
    right /= np.linalg.norm(right)
    down = np.cross(forward, right)
    rot = np.stack([right, down, forward])
    board = np.array([[0, 0, 0], [1, 0, 0], [1, ASPECT, 0], [0, ASPECT, 0]], np.float64)
    c = (board - eye) @ rot.T
    return np.c_[focal * c[:, 0] / c[:, 2] + size[0] / 2, focal * c[:, 1] / c[:, 2] + size[1] / 2]


@pytest.mark.parametrize(
    "eye, focal",
    [
        ((0.5, 0.4, -1.2), 900.0),  # straight above the middle
        ((0.9, 1.0, -1.0), 700.0),  # beyond the near edge, slanted two ways
        ((0.5, 1.3, -1.4), 1100.0),  # slanted along one axis only
    ],
    ids=["above", "slanted", "one-axis"],
)
def test_the_camera_foot_is_found_from_the_corners(eye, focal):
    eye = np.array(eye)
    corners = seen_by(eye, np.array([0.5, 0.4, 0.0]), focal)
    h = dice_tilt.to_plane(corners, ASPECT)
    assert camera.camera_foot(h, (1280, 720)) == pytest.approx(eye[:2], abs=0.03)


def test_away_from_the_foot_is_up_in_the_patch():
    h = dice_tilt.to_plane(SLANTED, ASPECT)
    to_image = board_to_image()
    foot = np.array([0.5, 0.4])
    for at in ((0.8, 0.4), (0.5, 0.1), (0.2, 0.7)):
        centre = cv2.perspectiveTransform(np.array([[at]], np.float64), to_image)[0, 0]
        (turn,) = dice_tilt.away_from(h, foot, centre[None])
        # a mark on the board further from the foot than the die
        away = np.subtract(at, foot)
        beyond = np.asarray(at) + 0.012 * away / np.linalg.norm(away)
        image = np.full((700, 960, 3), 40, np.uint8)
        p = cv2.perspectiveTransform(np.array([[beyond]], np.float64), to_image)[0, 0]
        cv2.circle(image, (round(p[0]), round(p[1])), 3, (250, 250, 250), -1)
        face = 0.02 / dice_tilt.plane_scale(h, centre[None])[0]
        patch = dice_tilt.cut_flat(image, h, (float(centre[0]), float(centre[1])), face, turn)
        ys, xs = np.nonzero(patch[..., 0] > 200)
        assert ys.mean() < PATCH * 0.3 and abs(xs.mean() - (PATCH - 1) / 2) < 3


def test_the_board_plane_and_foot_are_made_once_for_a_board():
    corners = np.array([[300.0, 150.0], [980.0, 160.0], [1050.0, 620.0], [230.0, 610.0]])
    to_board, foot, _ = dice_tilt.board_plane(corners, 0.87, (1280, 720))
    expected = dice_tilt.to_plane(corners, 0.87)
    assert np.allclose(to_board, expected)
    assert np.allclose(foot, camera.camera_foot(expected, (1280, 720)))
    # the same corners as another sequence: the same arrays, not made again
    again = dice_tilt.board_plane([tuple(c) for c in corners.tolist()], 0.87, (1280, 720))
    assert again[0] is to_board and again[1] is foot
    assert not to_board.flags.writeable and not foot.flags.writeable
    moved = dice_tilt.board_plane(corners + 5.0, 0.87, (1280, 720))
    assert moved[0] is not to_board and not np.allclose(moved[0], to_board)


def test_a_die_found_off_centre_is_read_again_around_the_face_the_first_read_found(monkeypatch):
    """``read_flat`` with ``recentre``: the second patches are cut around the point the first
    read's face centres (patch fractions, through each patch's turn and mirror) lead back to."""
    h = dice_tilt.to_plane(SLANTED, ASPECT)
    foot = np.array([0.5, 1.4])
    mark = cv2.perspectiveTransform(np.array([[(0.3, 0.5)]], np.float64), board_to_image())[0, 0]
    image = np.full((700, 960, 3), 40, np.uint8)
    cv2.circle(image, (round(mark[0]), round(mark[1])), 2, (250, 250, 250), -1)
    face = 0.03 / dice_tilt.plane_scale(h, mark[None])[0]
    seen = []

    def predict(patches):  # the face's centre where the mark is
        seen.append(patches)
        at = []
        for p in patches:
            ys, xs = np.nonzero(p[..., 0] > 150)
            at.append(((xs.mean(), ys.mean()) - np.float64((PATCH - 1) / 2)) / PATCH)
        n = len(patches)
        return np.zeros(n), np.full((n, 6), 1 / 6), np.array(at)

    monkeypatch.setattr(dice_tilt, "predict", predict)
    start = mark + 0.3 * face * np.array([1.0, -1.0])  # found off the face's centre
    dice_tilt.read_flat(image, h, start[None], [face], foot, recentre=1)
    first, second = seen
    for p in first:  # the mark off the middle at first, in the middle when cut again
        ys, xs = np.nonzero(p[..., 0] > 150)
        assert np.hypot(xs.mean() - (PATCH - 1) / 2, ys.mean() - (PATCH - 1) / 2) > 4
    for p in second:
        ys, xs = np.nonzero(p[..., 0] > 150)
        assert np.hypot(xs.mean() - (PATCH - 1) / 2, ys.mean() - (PATCH - 1) / 2) < 1.0


def test_the_camera_height_is_found_with_the_foot():
    eye = np.array([0.9, 1.0, -1.0])  # the plane's z runs away from the camera: 1.0 above it
    corners = seen_by(eye, np.array([0.5, 0.4, 0.0]), 700.0)
    _, foot, height = dice_tilt.board_plane(corners, ASPECT, (1280, 720))
    assert foot == pytest.approx(eye[:2], abs=0.03)
    assert height == pytest.approx(1.0, abs=0.05)
    assert camera.camera_eye(dice_tilt.to_plane(corners, ASPECT), (1280, 720)) == pytest.approx(
        [*foot, -height], abs=1e-9
    )


def test_the_slant_is_the_distance_from_the_foot_over_the_height():
    h = dice_tilt.to_plane(SLANTED, ASPECT)
    to_image = board_to_image()
    foot = np.array([0.5, 1.4])
    at = np.array([[0.5, 1.4], [0.5, 0.4], [0.2, 0.0]])
    pts = cv2.perspectiveTransform(at[None], to_image)[0]
    got = dice_tilt.slant(h, foot, 2.0, pts)
    assert got == pytest.approx([0.0, 0.5, np.hypot(0.3, 1.4) / 2.0], abs=1e-6)
