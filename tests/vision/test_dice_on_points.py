"""A die lying on a point is not a checker: rendered mid-game boards with dice thrown onto
empty points (half-way along them, where a checker of a short stack would stand), read with
their true corners, are read as they stand."""

import dataclasses

import numpy as np
import pytest

from nardy.synth import Die, random_scene, render
from nardy.synth.board import Board
from nardy.vision.board import read_board
from nardy.vision.detect import profile_from_corners


def _dice_on_empty_points(seed: int, dice: int = 3):
    rng = np.random.default_rng(seed)
    scene = random_scene(rng, kind="backgammon", n_dice=0, with_cube=False, with_hand=False)
    board = Board.of(scene)
    empty = [p for p, n in enumerate(scene.points, 1) if n == 0]
    style = "white"
    placed = []
    for p in rng.permutation(empty)[:dice]:
        sign = 1 if p <= 12 else -1
        x = board.point_x(int(p))
        y = -sign * board.inner_h / 2 + sign * board.point_l * 0.5
        placed.append(
            Die(
                value=int(rng.integers(1, 7)),
                where="left" if x < 0 else "right",
                at=(float(x), float(y)),
                turn=float(rng.uniform(0, 90)),
                style=style,
            )
        )
    return dataclasses.replace(scene, dice=tuple(placed)), len(placed)


# seeds no fixture or training render uses (those are seeded by their names' CRC32)
@pytest.mark.parametrize("seed", [81, 82, 83])
def test_dice_on_empty_points_are_not_counted(seed):
    scene, dice = _dice_on_empty_points(seed)
    assert dice == 3
    image, truth = render(scene, seed)
    assert truth["usable"]
    reading = read_board(image, profile_from_corners(image, truth["corners"]))
    assert [abs(v) for v in reading.points] == [abs(v) for v in truth["points"]]
