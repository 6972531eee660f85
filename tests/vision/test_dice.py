"""The dice reader against truth: real photographs it never trained on, drawn dice of every
value in both colourings, bad input, and where dice lie on a board."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from nardy.synth.textures import PIPS
from nardy.vision.dice import (
    DiceConfig,
    DiceInputError,
    DieReading,
    board_homography,
    face_sides,
    find_dice,
    map_region,
    place_dice,
    where_on_board,
)
from nardy.vision.dice_centres import Proposal
from nardy.vision.dice_eval import DiceScore, score_image, yolo_truth

REAL = Path(__file__).resolve().parent.parent / "fixtures" / "dice-real"


def drawn_die(value: int, dark: bool = False, side: int = 60, turn: float = 0.0) -> np.ndarray:
    """A die seen from straight above on a plain table: a rounded square with round pips."""
    table, body, ink = (120, 140, 150), (245, 245, 240), (20, 20, 20)
    if dark:
        body, ink = (40, 40, 170), (240, 240, 240)  # a red die with white pips
    image = np.full((240, 320, 3), table, np.uint8)
    face = np.full((side, side, 3), table, np.uint8)
    r = side // 8
    cv2.rectangle(face, (r, 0), (side - 1 - r, side - 1), body, -1)
    cv2.rectangle(face, (0, r), (side - 1, side - 1 - r), body, -1)
    for cx, cy in ((r, r), (side - 1 - r, r), (r, side - 1 - r), (side - 1 - r, side - 1 - r)):
        cv2.circle(face, (cx, cy), r, body, -1)
    step = side * 0.27
    for dx, dy in PIPS[value]:
        cv2.circle(
            face, (int(side / 2 + dx * step), int(side / 2 + dy * step)), side // 11, ink, -1
        )
    y0, x0 = 90, 130
    image[y0 : y0 + side, x0 : x0 + side] = face
    m = cv2.getRotationMatrix2D((x0 + side / 2, y0 + side / 2), turn, 1.0)
    image = cv2.warpAffine(image, m, (320, 240), borderMode=cv2.BORDER_REPLICATE)
    return cv2.GaussianBlur(image, (3, 3), 0)


def test_real_photographs_never_trained_on():
    score = DiceScore()
    for path in sorted(REAL.glob("*.jpg")):
        image = cv2.imread(str(path))
        h, w = image.shape[:2]
        found = find_dice(image)
        score_image(score, path.name, found, yolo_truth(path, w, h))
    print(score.line("real sample"))
    assert score.images == 29 and score.dice > 80
    assert score.found >= 0.95 * score.dice
    assert score.value_accuracy >= 0.90
    assert score.false <= 0.05 * score.dice


@pytest.mark.parametrize("dark", [False, True], ids=["white-die", "dark-die"])
def test_drawn_dice_of_every_value(dark):
    read = {}
    for value in range(1, 7):
        for turn in (0.0, 25.0):
            dice = find_dice(drawn_die(value, dark, turn=turn))
            read[(value, turn)] = [d.value for d in dice]
    print(read)
    assert all(got == [value] for (value, _), got in read.items())


def test_a_reading_says_where_the_top_face_is():
    dice = find_dice(drawn_die(5))
    assert len(dice) == 1
    die = dice[0]
    assert abs(die.center[0] - 160) < 6 and abs(die.center[1] - 120) < 6
    x, y, w, h = die.box
    assert x <= die.center[0] <= x + w and y <= die.center[1] <= y + h
    assert 0.0 < die.confidence <= 1.0 and die.flat


def test_a_board_tells_the_size_of_its_dice():
    square = [(100, 50), (500, 50), (500, 350), (100, 350)]  # seen from straight above
    (side,) = face_sides(square, np.array([[300.0, 200.0]]), 0.05)
    assert side == pytest.approx(0.05 * np.sqrt(400 * 300))
    # seen from the bottom edge: the far (top) half is foreshortened, its dice smaller
    tilted = [(150, 50), (450, 50), (500, 350), (100, 350)]
    far, near = face_sides(tilted, np.array([[300.0, 80.0], [300.0, 320.0]]), 0.05)
    assert far < 0.9 * near


def test_a_die_found_knowing_the_board():
    whole = [(0, 0), (319, 0), (319, 239), (0, 239)]
    # this board's dice are 60 px
    fits = DiceConfig(face_of_board=60 / np.sqrt(319 * 239))
    for value in range(1, 7):
        dice = find_dice(drawn_die(value), fits, corners=whole)
        assert len(dice) == 1
        assert abs(dice[0].center[0] - 160) < 6 and abs(dice[0].center[1] - 120) < 6
        # read again in the board's plane (here the image's): the value, and flat
        assert dice[0].value == value and dice[0].flat


def test_a_known_board_is_read_at_one_scale_around_it():
    board = [(400, 200), (880, 200), (880, 520), (400, 520)]  # 480 × 320, seen from above
    config = DiceConfig(face_of_board=0.05, map_face=10.0, map_margin=0.25)
    scale, box = map_region((720, 1280, 3), board, config)
    assert scale == pytest.approx(10.0 / (0.05 * np.sqrt(480 * 320)))
    assert box == (280, 120, 1000, 600)  # a quarter of its width and height around it
    # a board at the image's edge: the margin stops there; dice larger than the map's: as seen
    scale, box = map_region((720, 1280, 3), [(0, 0), (1279, 0), (1279, 719), (0, 719)], config)
    assert box == (0, 0, 1280, 720) and scale < 1.0
    small = [(0, 0), (319, 0), (319, 239), (0, 239)]  # dice of 14 pixels: never scaled up
    assert map_region((240, 320, 3), small, replace(config, map_face=20.0))[0] == 1.0


def test_nothing_on_a_plain_table():
    table = np.full((240, 320, 3), (120, 140, 150), np.uint8)
    noise = np.random.default_rng(0).normal(0, 6, table.shape)
    assert find_dice(np.clip(table + noise, 0, 255).astype(np.uint8)) == []


@pytest.mark.parametrize(
    "bad",
    [
        np.zeros((0, 0, 3), np.uint8),
        np.zeros((10, 10, 3), np.float32),
        np.zeros((4, 4, 2), np.uint8),
    ],
    ids=["empty", "float", "two-channel"],
)
def test_bad_images_are_refused(bad):
    with pytest.raises(DiceInputError):
        find_dice(bad)


def test_where_on_a_board():
    corners = [(100, 50), (500, 50), (520, 350), (80, 350)]  # a board seen a little in perspective
    to_board = board_homography(corners)

    def die_at(x: float, y: float) -> DieReading:
        return DieReading(3, True, (x, y), (int(x) - 5, int(y) - 5, 10, 10), 0.9)

    dice = [die_at(200, 200), die_at(420, 120), die_at(300, 200), die_at(40, 200), die_at(300, 380)]
    assert place_dice(dice, corners) == ["left", "right", "bar", "off", "off"]
    assert place_dice(dice, to_board=to_board) == ["left", "right", "bar", "off", "off"]
    # a calibration may hand a function instead of a matrix
    assert where_on_board((420, 120), lambda pts: np.array([[0.7, 0.2]])) == "right"
    with pytest.raises(ValueError):
        place_dice(dice)


def test_on_a_known_board_the_value_is_read_from_a_tighter_cut(monkeypatch):
    """``read_flat`` with ``value_face``: the last read's places and turns cut again for a face
    that share of the one found, in the same batch; the value from those patches, flat or
    cocked from the looser ones. ``find_dice`` hands it ``board_value_cut``."""
    from nardy.vision import dice, dice_tilt

    corners = [(100.0, 80.0), (540.0, 90.0), (600.0, 420.0), (40.0, 400.0)]
    h, foot, _ = dice_tilt.board_plane(corners, 0.87, (640, 480))
    image = np.full((480, 640, 3), 60, np.uint8)
    cv2.rectangle(image, (300, 220), (323, 243), (240, 240, 240), -1)
    batches = []

    def predict(patches):  # the share of a patch the bright face fills: a tighter cut, more
        batches.append(len(patches))
        fill = np.array([(p[..., 0] > 150).mean() for p in patches])
        values = np.zeros((len(patches), 6))
        values[np.arange(len(patches)), np.minimum((fill * 12).astype(int), 5)] = 1.0
        return fill, values, np.zeros((len(patches), 2))

    monkeypatch.setattr(dice_tilt, "predict", predict)
    at, face = np.array([[311.5, 231.5]]), [24.0]
    loose_tilt, loose = dice_tilt.read_flat(image, h, at, face, foot, recentre=1)
    assert batches == [2, 2]
    tilt, values = dice_tilt.read_flat(image, h, at, face, foot, recentre=1, value_face=0.7)
    assert batches[2:] == [2, 4]  # the tight patches read in the last read's batch
    assert tilt == pytest.approx(loose_tilt)
    assert np.argmax(values) > np.argmax(loose)  # the face fills more of a tighter cut

    handed = []
    monkeypatch.setattr(dice, "in_region", lambda *args: [Proposal(50.0, 50.0, 10.0, 0.8)])
    monkeypatch.setattr(dice, "face_sides", lambda corners, points, f: np.full(len(points), 10.0))

    def read(bgr, centres, sides, turns=1, weights=None):  # the patch reader: a die, a 3
        n = len(centres)
        prob = np.tile([0.02, 0.0, 0.0, 0.9, 0.08, 0.0, 0.0], (n, 1))
        return prob, np.zeros(n), np.asarray(centres, float), np.full(n, 12.0)

    def flat(bgr, to_board, centres, faces, foot, recentre, value_face):
        handed.append(value_face)
        return np.zeros(len(centres)), np.tile([0.0, 0.0, 0.9, 0.1, 0.0, 0.0], (len(centres), 1))

    monkeypatch.setattr(dice, "_read_patches", read)
    monkeypatch.setattr(dice.dice_tilt, "read_flat", flat)
    board = [(0, 0), (239, 0), (239, 199), (0, 199)]
    # (this reader's every cut is a die: none looked for beside the one found)
    config = replace(DiceConfig(), board_value_cut=0.8, board_beside=0.0)
    find_dice(np.zeros((200, 240, 3), np.uint8), config, board)
    assert handed == [0.8]
