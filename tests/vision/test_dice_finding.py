"""Finding dice: the centre map's maxima and their twins, and proposals that are one die."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from nardy.vision.dice import DiceConfig, _apart, find_dice
from nardy.vision.dice_centres import STRIDE, peaks


def heat_map(cells: dict[tuple[int, int], float], shape: tuple[int, int] = (12, 16)) -> np.ndarray:
    """A raw map (logit, x offset, y offset, log size) cold but for ``cells`` of given heat."""
    out = np.zeros((*shape, 4), np.float32)
    out[..., 0] = -8.0
    for (y, x), heat in cells.items():
        out[y, x, 0] = np.log(heat / (1.0 - heat))
    return out


def cells_of(found) -> set[tuple[int, int]]:
    return {(round(p.y / STRIDE), round(p.x / STRIDE)) for p in found}


def test_a_broad_maximum_gives_its_hottest_neighbour_as_a_twin():
    out = heat_map({(5, 7): 0.8, (5, 8): 0.6, (6, 7): 0.5, (9, 2): 0.7})
    assert cells_of(peaks(out, 0.25)) == {(5, 7), (9, 2)}
    # 0.6 is 0.75 of the maximum's 0.8: proposed at 0.7, not at 0.8; the lone maximum has none
    assert cells_of(peaks(out, 0.25, twin=0.7)) == {(5, 7), (5, 8), (9, 2)}
    assert cells_of(peaks(out, 0.25, twin=0.8)) == {(5, 7), (9, 2)}
    # a neighbour under the threshold is never proposed, whatever its share of the maximum
    assert cells_of(peaks(out, 0.65, twin=0.5)) == {(5, 7), (9, 2)}


def test_two_maxima_are_not_each_others_twins():
    out = heat_map({(4, 4): 0.9, (4, 6): 0.85, (4, 5): 0.3})
    found = peaks(out, 0.25, twin=0.2)
    assert len(found) == 3  # each maximum once, and the cell between them once
    assert sorted(cells_of(found)) == [(4, 4), (4, 5), (4, 6)]


def test_a_twin_stays_in_its_cell():
    out = heat_map({(5, 7): 0.8, (5, 8): 0.7})
    out[5, 8, 1:3] = (6.0, -6.0)  # a neighbour's offset was never trained: it may be anything
    twin = next(p for p in peaks(out, 0.25, twin=0.6) if p.score < 0.75)
    assert abs(twin.x - STRIDE * 8) <= STRIDE / 2 and abs(twin.y - STRIDE * 5) <= STRIDE / 2
    out[5, 7, 1] = 1.5  # a maximum keeps its own offset
    top = next(p for p in peaks(out, 0.25) if p.score > 0.75)
    assert top.x == STRIDE * 8.5


def test_proposals_whose_first_reads_meet_are_read_once():
    xy = np.array([[100.0, 100.0], [103.0, 101.0], [120.0, 100.0], [100.5, 99.0]])
    face = np.array([20.0, 20.0, 20.0, 18.0])
    config = DiceConfig(first_apart=0.3)  # 6 pixels of a 20-pixel face
    assert _apart(np.arange(4), xy, face, config).tolist() == [0, 2]
    # the surer (earlier) of two that meet is kept, whichever it is
    assert _apart(np.array([3, 1, 0, 2]), xy, face, config).tolist() == [3, 2]
    assert _apart(np.arange(4), xy, face, DiceConfig(first_apart=0.0)).tolist() == [0, 1, 2, 3]


def test_on_a_known_board_a_patch_cut_as_the_second_reads_says_whether_to_read_again(
    monkeypatch,
):
    from nardy.vision import dice
    from nardy.vision.dice_centres import Proposal

    found = [Proposal(50.0, 50.0, 10.0, 0.8), Proposal(150.0, 50.0, 10.0, 0.3)]
    monkeypatch.setattr(dice, "in_region", lambda *args: list(found))
    monkeypatch.setattr(dice, "propose", lambda *args: list(found))
    firsts: list[list[float]] = []
    faces = [10.0]  # the top face's side the reader finds

    def read(bgr, centres, sides, turns=1):
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
    monkeypatch.setattr(dice, "face_sides", lambda corners, points, f: np.full(len(points), 10.0))
    image = np.zeros((200, 240, 3), np.uint8)
    board = [(0, 0), (239, 0), (239, 199), (0, 199)]
    config = DiceConfig(board_first=2.0, board_maybe_die=0.3, maybe_die=0.1, least_face=0.6)
    got = find_dice(image, config, corners=board)
    assert firsts == [[30.0, 30.0], [20.0, 20.0]]  # the wide read, then the gate: twice a die
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
