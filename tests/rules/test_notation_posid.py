"""GNU Backgammon notation and Position IDs."""

from __future__ import annotations

import gnubg_nn
import pytest

from nardy.rules.errors import InvalidIdError, RulesError
from nardy.rules.notation import format_turn, parse_moves, split_moves
from nardy.rules.posid import decode_board, encode_board, from_position_id, position_id
from nardy.rules.turn import Step
from nardy.rules.variant import get_variant
from rules.helpers import DARK, LIGHT

BG = get_variant("backgammon")


@pytest.mark.parametrize(
    ("steps", "text"),
    [
        ([(24, 18, 6, False), (13, 11, 2, True)], "24/18 13/11*"),
        ([(25, 22, 3, False)], "bar/22"),
        ([(6, 0, 6, False)], "6/off"),
        ([(8, 5, 3, False)] * 2, "8/5(2)"),
        ([(24, 20, 4, True), (20, 16, 4, False)], "24/20*/16"),
        ([(24, 20, 4, False), (20, 16, 4, False)], "24/16"),
        ([(13, 7, 6, False)] * 2 + [(24, 18, 6, False)] * 2, "24/18(2) 13/7(2)"),
        ([(8, 5, 3, True), (8, 5, 3, False)], "8/5*(2)"),
        ([], ""),
    ],
)
def test_format_like_gnubg(steps, text):
    assert format_turn(Step(*s) for s in steps) == text


def test_parse_moves_reads_chains_counts_and_words():
    assert parse_moves("24/18* 13/11") == ((24, 18), (13, 11))
    assert parse_moves("bar/22 6/off") == ((25, 22), (6, 0))
    assert parse_moves("8/5(2)") == ((8, 5), (8, 5))
    assert parse_moves("24/20*/16") == ((24, 20), (20, 16))


@pytest.mark.parametrize("text", ["24-18", "13/14", "off/3", "30/20", "8/5(9)"])
def test_parse_moves_refuses_garble(text):
    with pytest.raises(RulesError):
        parse_moves(text)


def test_split_moves_cuts_long_moves_into_dice():
    assert split_moves(((13, 3),), (6, 4)) == (Step(13, 7, 6), Step(7, 3, 4))
    assert split_moves(((3, 0),), (6, 4)) == (Step(3, 0, 4),)
    assert split_moves(((3, 0), (6, 0)), (6, 4)) == (Step(3, 0, 4), Step(6, 0, 6))
    with pytest.raises(RulesError, match="cannot be played"):
        split_moves(((13, 2),), (6, 4))


def test_start_position_id():
    assert position_id(BG.start(), LIGHT) == "4HPwATDgc/ABMA"
    assert position_id(BG.start(), DARK) == "4HPwATDgc/ABMA"


def test_position_id_is_from_the_side_on_roll():
    turn = next(t for t in BG.legal_turns(BG.start(), LIGHT, (3, 1)) if t.notation == "8/5 6/5")
    # The same board written for gnubg_nn: [player not on roll, player on roll].
    mover = [0] * 25
    for p, n in {24: 2, 13: 5, 8: 2, 6: 4, 5: 2}.items():
        mover[p - 1] = n
    opponent = [0] * 25
    for p, n in {24: 2, 13: 5, 8: 3, 6: 5}.items():
        opponent[p - 1] = n
    assert position_id(turn.after, LIGHT) == gnubg_nn.position_id([opponent, mover])
    assert position_id(turn.after, DARK) == gnubg_nn.position_id([mover, opponent])
    assert from_position_id(position_id(turn.after, DARK), DARK) == turn.after


@pytest.mark.parametrize("pid", ["", "4HPwATDgc/ABM", "4HPwATDgc/AB!A", "//////////////"])
def test_malformed_ids_are_refused(pid):
    with pytest.raises(InvalidIdError):
        from_position_id(pid, LIGHT)


def test_encode_decode_round_trip_on_gnubg_boards():
    board = ((0,) * 23 + (2, 1), (1, 2, 3) + (0,) * 22)
    assert decode_board(encode_board(board)) == board
    assert encode_board(board) == gnubg_nn.position_id([list(board[0]), list(board[1])])
