"""Finding dice on a known board: which proposals are read again, faces too small for a die
there, and two dice leaning together."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from nardy.vision import dice
from nardy.vision.dice import DiceConfig, find_dice


def black_board() -> tuple[np.ndarray, list[tuple[int, int]]]:
    """A black picture and its whole as the board: the mocked readers below see nothing."""
    return np.zeros((200, 240, 3), np.uint8), [(0, 0), (239, 0), (239, 199), (0, 199)]


def dice_of_side(monkeypatch, side: float) -> None:
    """A die's top face is ``side`` pixels wherever it lies on the board."""
    monkeypatch.setattr(dice, "face_sides", lambda corners, points, f: np.full(len(points), side))


def read_every_die_as(monkeypatch, value: int, sure: float = 1.0) -> None:
    """The board-plane reader (``dice_tilt.read_flat``) reads every die cocked, a ``value``
    ``sure`` sure."""
    values = np.zeros(6)
    values[value - 1] = sure

    def flat(bgr, to_board, centres, faces, foot, recentre, value_face=0.0):
        return np.ones(len(centres)), np.tile(values, (len(centres), 1))

    monkeypatch.setattr(dice.dice_tilt, "read_flat", flat)


def test_on_a_known_board_a_patch_cut_as_the_second_reads_says_whether_to_read_again(
    monkeypatch,
):
    from nardy.vision.dice_centres import Proposal

    found = [Proposal(50.0, 50.0, 10.0, 0.8), Proposal(150.0, 50.0, 10.0, 0.3)]
    monkeypatch.setattr(dice, "in_region", lambda *args: list(found))
    monkeypatch.setattr(dice, "propose", lambda *args: list(found))
    firsts: list[list[float]] = []
    faces = [10.0]  # the top face's side the reader finds

    def read(bgr, centres, sides, turns=1, weights=None):
        n = len(centres)
        if turns == 1:
            firsts.append(list(sides))
        # the die at (150, 50): the wide patch (30) all but rules it out, the narrow one (20)
        # doubts it less; the second reads (four turns) are sure of both
        doubt = [
            {30.0: 0.95, 20.0: 0.75}[side] if x > 100 and turns == 1 else 0.02
            for (x, _), side in zip(centres, sides, strict=True)
        ]
        prob = np.array([[d, 0, 0, 1 - d, 0, 0, 0] for d in doubt])
        return prob, np.ones(n), np.asarray(centres, float), np.full(n, faces[0])

    monkeypatch.setattr(dice, "_read_patches", read)
    dice_of_side(monkeypatch, 10.0)
    image, board = black_board()
    # (the board's reader's last read, board_turns, at four turns as the second reads: only
    # the first read is at one turn here)
    config = DiceConfig(
        board_first=2.0,
        board_maybe_die=0.3,
        maybe_die=0.1,
        least_face=0.6,
        board_turns=4,
        board_beside=0.0,  # this reader's every cut is a die: none looked for beside them
        smear=None,  # a black picture has no edge the blur check could call sharp
    )
    got = find_dice(image, config, corners=board)
    assert firsts == [[20.0, 20.0]]  # no wide read: one cut as the second read's, twice a die
    assert [d.center for d in got] == [(50.0, 50.0)]
    got = find_dice(image, replace(config, board_maybe_die=0.2), corners=board)
    assert sorted(d.center for d in got) == [(50.0, 50.0), (150.0, 50.0)]
    firsts.clear()
    got = find_dice(image, replace(config, maybe_die=0.01))  # a photograph: the wide read only
    assert len(got) == 2 and firsts == [[30.0, 30.0]]
    assert len(find_dice(image, config)) == 1
    # a face read far smaller than a die's there (the cube's number) is no die on a known board
    faces[0] = 5.5
    assert find_dice(image, config, corners=board) == []
    assert len(find_dice(image, replace(config, least_face=0.5), corners=board)) == 1


def test_on_a_known_board_a_die_is_as_sure_as_the_board_plane_read_of_its_value(monkeypatch):
    from nardy.vision.dice_centres import Proposal

    found = [Proposal(50.0, 50.0, 10.0, 0.8)]
    monkeypatch.setattr(dice, "in_region", lambda *args: list(found))
    monkeypatch.setattr(dice, "propose", lambda *args: list(found))
    dice_of_side(monkeypatch, 10.0)

    def read(bgr, centres, sides, turns=1, weights=None):  # the patch reader: a 3, 0.9 sure
        n = len(centres)
        prob = np.tile([0.02, 0.0, 0.0, 0.9, 0.08, 0.0, 0.0], (n, 1))
        return prob, np.zeros(n), np.asarray(centres, float), np.full(n, 10.0)

    def flat(bgr, to_board, centres, faces, foot, recentre, value_face):  # a 4, 0.6 sure
        return np.zeros(len(centres)), np.tile([0.0, 0.0, 0.4, 0.6, 0.0, 0.0], (len(centres), 1))

    monkeypatch.setattr(dice, "_read_patches", read)
    monkeypatch.setattr(dice.dice_tilt, "read_flat", flat)
    image, board = black_board()
    (die,) = find_dice(image, DiceConfig(board_beside=0.0), corners=board)
    assert die.value == 4 and die.flat
    assert die.confidence == 0.6  # not the patch reader's 0.9, which was for a 3
    (die,) = find_dice(image, DiceConfig())  # a photograph: the patch reader's word alone
    assert die.value == 3 and die.confidence == 0.9


def test_on_a_known_board_two_dice_leaning_together_are_two():
    from nardy.vision.dice import DieReading, _kept

    # two top faces of 20 pixels, 9 apart: dice leaning together on a board whose dice's size
    # is known; in a photograph of unknown scale the same two readings are one die
    leaning = [
        DieReading(5, False, (100.0, 100.0), (90, 90, 20, 20), 0.9),
        DieReading(2, False, (109.0, 100.0), (99, 90, 20, 20), 0.4),
    ]
    config = DiceConfig(same_die=0.6, board_same_die=0.35, side_face=0.9, board_side_face=0.0)
    assert [leaning[i].value for i in _kept(leaning, config, board=True)] == [5, 2]
    assert [leaning[i].value for i in _kept(leaning, config)] == [5]
    assert len(_kept(leaning, replace(config, board_same_die=0.5), board=True)) == 1
    # a less sure reading beside a surer one is a side face in a photograph, not on a board
    beside = [leaning[0], replace(leaning[1], center=(115.0, 100.0))]
    assert len(_kept(beside, config)) == 1
    assert len(_kept(beside, config, board=True)) == 2


def test_on_a_known_board_the_boards_reader_says_whether_a_die_is_there(monkeypatch):
    from nardy.vision import dice_patches
    from nardy.vision.dice_centres import Proposal

    found = [Proposal(50.0, 50.0, 10.0, 0.8)]
    monkeypatch.setattr(dice, "in_region", lambda *args: list(found))
    monkeypatch.setattr(dice, "propose", lambda *args: list(found))
    dice_of_side(monkeypatch, 10.0)
    board_sure = [0.9]  # how sure the board's reader is of a die; the photograph's: 0.6
    placed = (52.0, 49.0)  # where the photograph's reader places the top face

    def read(bgr, centres, sides, turns=1, weights=dice_patches.WEIGHTS):
        n = len(centres)
        die = board_sure[0] if weights == dice_patches.BOARD_WEIGHTS else 0.6
        prob = np.tile([1 - die, 0.0, 0.0, die, 0.0, 0.0, 0.0], (n, 1))
        return prob, np.ones(n), np.tile(placed, (n, 1)), np.full(n, 10.0)

    monkeypatch.setattr(dice, "_read_patches", read)
    image, board = black_board()
    config = DiceConfig(
        board_min_die=0.7,
        board_maybe_die=0.3,
        min_die=0.7,
        maybe_die=0.1,
        smear=None,  # a black picture has no edge the blur check could call sharp
    )
    (die,) = find_dice(image, config, corners=board)
    assert die.center == placed  # the face where the photograph's reader, read twice, puts it
    assert find_dice(image, config) == []  # a photograph: its own reader, unsure, decides
    board_sure[0] = 0.6
    assert find_dice(image, config, corners=board) == []


def test_on_a_known_board_a_die_touching_a_found_one_is_looked_for_beside_it(monkeypatch):
    from nardy.vision.dice_centres import Proposal

    # two dice touching, 10 pixels apart, and the map's one peak on the first
    dice_at = np.array([[50.0, 50.0], [60.0, 50.0]])
    monkeypatch.setattr(dice, "in_region", lambda *args: [Proposal(50.0, 50.0, 10.0, 0.8)])
    dice_of_side(monkeypatch, 10.0)

    def read(bgr, centres, sides, turns=1, weights=None):  # each cut settles on a die within
        xy = np.asarray(centres, float)  # half a face of its centre, or finds none
        apart = np.hypot(*(xy[:, None] - dice_at[None]).transpose(2, 0, 1))
        near = apart.argmin(axis=1)
        die = apart.min(axis=1) < 5.0
        prob = np.array([[0.0, 0, 0, 1, 0, 0, 0] if d else [1.0, 0, 0, 0, 0, 0, 0] for d in die])
        return (
            prob,
            np.ones(len(xy)),
            np.where(die[:, None], dice_at[near], xy),
            np.full(len(xy), 10.0),
        )

    monkeypatch.setattr(dice, "_read_patches", read)
    read_every_die_as(monkeypatch, 3)
    monkeypatch.setattr(dice.dice_place, "place", lambda bgr, to_board, xy, *args: xy)
    image, board = black_board()
    config = DiceConfig(board_beside=0.9, board_beside_at=6, board_beside_apart=0.4, board_dice=2)
    got = find_dice(image, config, corners=board)
    assert sorted(d.center for d in got) == [(50.0, 50.0), (60.0, 50.0)]
    assert len(find_dice(image, replace(config, board_beside=0.0), corners=board)) == 1
    # a die found beside nearer than board_beside_apart to one found before is that one
    assert len(find_dice(image, replace(config, board_beside_apart=1.1), corners=board)) == 1
    # and none is looked for once the throw's dice are all found
    assert len(find_dice(image, replace(config, board_dice=1), corners=board)) == 1


def test_on_a_known_board_a_die_found_beside_is_added_never_in_a_found_ones_place(monkeypatch):
    from nardy.vision.dice_centres import Proposal

    # two dice leaning together, 4.5 pixels apart, their faces read a third larger than a
    # die's (the pair's), the map's one peak on the first; a third die below the first
    dice_at = np.array([[50.0, 50.0], [54.5, 50.0], [50.0, 59.0]])
    sure = np.array([0.7, 0.9, 0.8])  # the board-plane reader is surer of the dice beside
    monkeypatch.setattr(dice, "in_region", lambda *args: [Proposal(50.0, 50.0, 10.0, 0.8)])
    dice_of_side(monkeypatch, 10.0)

    def near(xy):
        apart = np.hypot(*(np.asarray(xy, float)[:, None] - dice_at[None]).transpose(2, 0, 1))
        return apart.argmin(axis=1), apart.min(axis=1) < 5.0

    def read(bgr, centres, sides, turns=1, weights=None):  # each cut settles on a die within
        xy = np.asarray(centres, float)  # 5 pixels of its centre, or finds none
        at, die = near(xy)
        prob = np.array([[0.0, 0, 0, 1, 0, 0, 0] if d else [1.0, 0, 0, 0, 0, 0, 0] for d in die])
        xy = np.where(die[:, None], dice_at[at], xy)
        return prob, np.ones(len(xy)), xy, np.full(len(xy), 14.0)

    def flat(bgr, to_board, centres, faces, foot, recentre, value_face=0.0, place=0):
        at, _ = near(centres)
        return np.ones(len(centres)), np.array([[0, 0, s, 0, 0, 0] for s in sure[at]])

    monkeypatch.setattr(dice, "_read_patches", read)
    monkeypatch.setattr(dice.dice_tilt, "read_flat", flat)
    monkeypatch.setattr(dice.dice_place, "place", lambda bgr, to_board, xy, *args: xy)
    image, board = black_board()
    config = DiceConfig(
        board_beside=0.9,
        board_beside_at=6,
        board_beside_apart=0.4,
        board_same_die=0.35,
        board_dice=2,
        smear=None,
    )
    got = find_dice(image, config, corners=board)
    # the die found stays beside the surer one found beside it; of the two found beside, the
    # surer only: a throw is two dice
    assert [d.center for d in got] == [(54.5, 50.0), (50.0, 50.0)]
    got = find_dice(image, replace(config, board_dice=3), corners=board)
    assert [d.center for d in got] == [(54.5, 50.0), (50.0, 59.0), (50.0, 50.0)]


def test_on_a_known_board_a_die_found_beside_that_the_placer_puts_on_a_found_one_is_that_one(
    monkeypatch,
):
    from nardy.vision.dice_centres import Proposal

    # a cocked die: its top face at (50, 50), its side face at (60, 50) read as a face too
    # (the map's one peak on the top face); the placer puts either onto the top face
    faces = np.array([[50.0, 50.0], [60.0, 50.0]])
    monkeypatch.setattr(dice, "in_region", lambda *args: [Proposal(50.0, 50.0, 10.0, 0.8)])
    dice_of_side(monkeypatch, 10.0)

    def read(bgr, centres, sides, turns=1, weights=None):  # each cut settles on a face within
        xy = np.asarray(centres, float)  # half a side of its centre, or finds none
        apart = np.hypot(*(xy[:, None] - faces[None]).transpose(2, 0, 1))
        die = apart.min(axis=1) < 5.0
        prob = np.array([[0.0, 0, 0, 1, 0, 0, 0] if d else [1.0, 0, 0, 0, 0, 0, 0] for d in die])
        xy = np.where(die[:, None], faces[apart.argmin(axis=1)], xy)
        return prob, np.ones(len(xy)), xy, np.full(len(xy), 10.0)

    placer = {"onto the top face": True}

    def place(bgr, to_board, xy, *args):
        xy = np.asarray(xy, float)
        return np.tile(faces[0], (len(xy), 1)) if placer["onto the top face"] else xy

    monkeypatch.setattr(dice, "_read_patches", read)
    read_every_die_as(monkeypatch, 3)
    monkeypatch.setattr(dice.dice_place, "place", place)
    image, board = black_board()
    config = DiceConfig(board_beside=1.0, board_beside_at=4, board_beside_apart=0.35, smear=None)
    # the side face lies a whole side from the top face, but is placed onto it: one die
    assert [d.center for d in find_dice(image, config, corners=board)] == [(50.0, 50.0)]
    placer["onto the top face"] = False  # placed where found: a die of its own beside it
    got = find_dice(image, config, corners=board)
    assert sorted(d.center for d in got) == [(50.0, 50.0), (60.0, 50.0)]


def test_on_a_known_board_two_readings_the_placer_puts_on_one_face_are_one_die(monkeypatch):
    from nardy.vision.dice import DieReading, _kept
    from nardy.vision.dice_centres import Proposal

    # one cocked die found twice, 9 pixels (0.45 of its face) apart: farther than dice leaning
    # together are told apart at, but the placer puts both onto the same top face
    twice = [
        DieReading(2, False, (100.0, 100.0), (90, 90, 20, 20), 0.6),
        DieReading(5, False, (109.0, 100.0), (99, 90, 20, 20), 0.9),
    ]
    config = DiceConfig(board_same_die=0.35, board_same_face=0.25, board_side_face=0.0)
    assert len(_kept(twice, config, board=True)) == 2  # where found alone: two dice
    one_face = np.array([[104.0, 100.0], [105.0, 100.0]])
    assert [twice[i].value for i in _kept(twice, config, board=True, placed=one_face)] == [5]
    # two dice leaning together, placed each onto its own face, stay two
    own_faces = np.array([[99.0, 100.0], [110.0, 100.0]])
    assert [twice[i].value for i in _kept(twice, config, board=True, placed=own_faces)] == [5, 2]
    assert len(_kept(twice, replace(config, board_same_face=0.0), board=True, placed=one_face)) == 2
    # and so in find_dice: the map's two peaks on one die, each read where it is proposed
    peaks = [Proposal(100.0, 100.0, 20.0, 0.8), Proposal(109.0, 100.0, 20.0, 0.7)]
    monkeypatch.setattr(dice, "in_region", lambda *args: list(peaks))
    dice_of_side(monkeypatch, 20.0)

    def read(bgr, centres, sides, turns=1, weights=None):
        n = len(centres)
        prob = np.tile([0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0], (n, 1))
        return prob, np.ones(n), np.asarray(centres, float), np.full(n, 20.0)

    monkeypatch.setattr(dice, "_read_patches", read)
    read_every_die_as(monkeypatch, 3)
    monkeypatch.setattr(
        dice.dice_place, "place", lambda bgr, t, xy, *a: np.tile([104.0, 100.0], (len(xy), 1))
    )
    image, board = black_board()
    config = replace(config, board_beside=0.0, smear=None)
    assert len(find_dice(image, config, corners=board)) == 1
    assert len(find_dice(image, replace(config, board_same_face=0.0), corners=board)) == 2


def test_on_a_known_board_a_die_the_boards_reader_is_sure_of_needs_no_sure_value(monkeypatch):
    from nardy.vision.dice_centres import Proposal

    monkeypatch.setattr(dice, "in_region", lambda *args: [Proposal(50.0, 50.0, 10.0, 0.8)])
    dice_of_side(monkeypatch, 10.0)
    # the board's reader: 0.95 a die; the photograph's reader: unsure which value (0.15 at best)
    values = [0.05, 0.14, 0.14, 0.14, 0.14, 0.14, 0.15]

    def read(bgr, centres, sides, turns=1, weights=None):
        n = len(centres)
        return np.tile(values, (n, 1)), np.ones(n), np.asarray(centres, float), np.full(n, 10.0)

    monkeypatch.setattr(dice, "_read_patches", read)
    read_every_die_as(monkeypatch, 6, 0.9)
    image, board = black_board()
    config = DiceConfig(board_least=0.2, board_sure_die=0.9, board_beside=0.0, smear=None)
    (die,) = find_dice(image, config, corners=board)
    assert die.value == 6  # the board-plane reader's value
    assert find_dice(image, replace(config, board_sure_die=0.96), corners=board) == []
    assert find_dice(image, replace(config, board_sure_die=0.9)) == []  # a photograph: no say


def test_on_a_known_board_the_cubes_number_is_no_die(monkeypatch):
    from nardy.vision.cube import CubeReading
    from nardy.vision.dice import DieReading

    image, board = black_board()
    dice_of_side(monkeypatch, 20.0)
    read = [  # the cube's number, read as a die; a die beside the cube; a die far from it
        DieReading(5, True, (100.0, 100.0), (90, 90, 20, 20), 0.6),
        DieReading(2, True, (124.0, 100.0), (114, 90, 20, 20), 0.7),
        DieReading(3, True, (40.0, 40.0), (30, 30, 20, 20), 0.5),
    ]
    monkeypatch.setattr(
        dice, "_learned_dice", lambda *a, **k: (list(read), np.array([d.center for d in read]))
    )
    config = DiceConfig(board_beside=0.0)
    cube = CubeReading(16, "middle", "middle", (104.0, 100.0), 0.95)
    got = find_dice(image, config, corners=board, cube=cube)
    assert [d.value for d in got] == [2, 3]  # the 5 lay 0.2 of a side from its centre, the 2 1.0
    unsure = replace(cube, confidence=0.85)  # a cube the reader is unsure of stands nowhere
    assert len(find_dice(image, config, corners=board, cube=unsure)) == 3
    assert len(find_dice(image, config, corners=board, cube=None)) == 3
    sure = [replace(read[0], confidence=0.95), *read[1:]]  # a die read that sure is a die
    monkeypatch.setattr(
        dice, "_learned_dice", lambda *a, **k: (list(sure), np.array([d.center for d in sure]))
    )
    assert len(find_dice(image, config, corners=board, cube=cube)) == 3
    looked: list[object] = []  # by default the cube is found in the image as given
    monkeypatch.setattr(dice, "find_cube", lambda img, corners: looked.append(corners) or cube)
    assert len(find_dice(image, config, corners=board)) == 3 and looked == [board]
    assert len(find_dice(image, config)) == 3 and len(looked) == 1  # no board: no cube


def test_on_a_known_board_a_point_beside_a_found_die_is_read_again_though_doubted(monkeypatch):
    from nardy.vision.dice_centres import Proposal

    # two dice leaning together, 7 pixels apart, the map's one peak on the first: the point
    # beside it lies off the second, and the first read there doubts a die (0.2)
    dice_at = np.array([[50.0, 50.0], [57.0, 50.0]])
    monkeypatch.setattr(dice, "in_region", lambda *args: [Proposal(50.0, 50.0, 10.0, 0.8)])
    dice_of_side(monkeypatch, 10.0)

    def read(bgr, centres, sides, turns=1, weights=None):
        xy = np.asarray(centres, float)
        apart = np.hypot(*(xy[:, None] - dice_at[None]).transpose(2, 0, 1))
        near = apart.argmin(axis=1)
        sure = np.where(apart.min(axis=1) < 1.0, 1.0, np.where(apart.min(axis=1) < 5.0, 0.2, 0.0))
        if turns > 1 or weights != dice.dice_patches.BOARD_WEIGHTS or sides[0] != 20.0:
            sure = np.where(sure > 0, 1.0, 0.0)  # cut around the face found: sure of a die
        prob = np.array([[1.0 - s, 0, 0, s, 0, 0, 0] for s in sure])
        at = np.where(sure[:, None] > 0, dice_at[near], xy)
        return prob, np.ones(len(xy)), at, np.full(len(xy), 10.0)

    monkeypatch.setattr(dice, "_read_patches", read)
    read_every_die_as(monkeypatch, 3)
    monkeypatch.setattr(dice.dice_place, "place", lambda bgr, to_board, xy, *args: xy)
    image, board = black_board()
    config = DiceConfig(board_beside=0.9, board_beside_at=4, board_cube_apart=0.0)
    got = find_dice(image, config, corners=board)
    assert sorted(d.center for d in got) == [(50.0, 50.0), (57.0, 50.0)]
    doubting = replace(config, board_beside_maybe=config.board_maybe_die)  # as the map's
    assert len(find_dice(image, doubting, corners=board)) == 1


def test_on_a_known_board_the_cubes_number_found_beside_a_die_is_no_die(monkeypatch):
    from nardy.vision.cube import CubeReading
    from nardy.vision.dice import DieReading

    image, board = black_board()
    dice_of_side(monkeypatch, 20.0)
    lone = DieReading(3, True, (40.0, 40.0), (30, 30, 20, 20), 0.8)  # far from the cube
    monkeypatch.setattr(dice, "_learned_dice", lambda *a, **k: ([lone], np.array([lone.center])))
    beside = [  # looked for beside it: the cube's number, surer than the other die
        DieReading(5, True, (100.0, 100.0), (90, 90, 20, 20), 0.6),
        DieReading(2, True, (60.0, 40.0), (50, 30, 20, 20), 0.5),
    ]
    monkeypatch.setattr(dice, "_found_beside", lambda *a, **k: list(beside))
    cube = CubeReading(16, "middle", "middle", (104.0, 100.0), 0.95)
    assert sorted(d.value for d in find_dice(image, corners=board, cube=cube)) == [2, 3]
    assert sorted(d.value for d in find_dice(image, corners=board, cube=None)) == [3, 5]
