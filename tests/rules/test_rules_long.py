"""One test per rule and option of long nardy in RULES.md."""

from __future__ import annotations

import pytest

from nardy.rules.errors import InvalidPositionError
from nardy.rules.position import Position
from nardy.rules.variant import fences, get_variant
from rules.helpers import DARK, LIGHT, board, notations

LONG = get_variant("long")


def test_start_is_fifteen_on_the_head_and_the_opponents_head_is_point_12():
    start = LONG.start()
    assert start.at(LIGHT, 24, LONG.numbering) == 15
    assert start.at(DARK, 24, LONG.numbering) == 15
    assert start.points[11] == -15 and start.points[23] == 15  # dark's head is light's 12


def test_both_sides_move_the_same_way_round():
    for side in (LIGHT, DARK):
        got = notations(LONG, LONG.start(), (6, 5), side=side, first_turn=True)
        assert got == {"24/13"}


def test_head_rule_one_checker_leaves_the_head_per_turn():
    pos = board(LONG, {24: 14, 20: 1}, {24: 15})
    got = notations(LONG, pos, (3, 2))
    assert "24/21 24/22" not in got
    assert {"24/19", "24/21 20/18", "24/22 20/17", "20/15"} <= got


@pytest.mark.parametrize(
    ("dice", "expected"),
    [
        ((6, 6), {"24/18(2)"}),  # 24/18/12 meets the opponent's head
        ((4, 4), {"24/16(2)"}),
        ((3, 3), {"24/18(2)", "24/15 24/21"}),
        ((5, 5), {"24/4"}),  # one checker plays it in full: no second from the head
        ((2, 2), {"24/16"}),
    ],
)
def test_first_turn_doubles_when_blocked(dice, expected):
    assert notations(LONG, LONG.start(), dice, first_turn=True) == expected


def test_head_exception_only_on_the_first_turn():
    assert notations(LONG, LONG.start(), (6, 6)) == {"24/18"}


def test_second_player_may_take_two_when_the_first_move_blocks_the_double():
    # Dark opened 24/21 (light's 9): light's 5-5 from the head, 24/19/14/9, is blocked.
    (opening,) = LONG.legal_turns(LONG.start(), DARK, (2, 1), first_turn=True)
    assert opening.notation == "24/21"
    pos = opening.after
    assert notations(LONG, pos, (5, 5), first_turn=True) == {"24/14(2)"}


def test_first_turn_two_from_head_any_double():
    v = get_variant("long", first_turn_two_from_head="any_double")
    got = notations(v, v.start(), (5, 5), first_turn=True)
    assert {"24/4", "24/14(2)", "24/9 24/19"} <= got
    assert notations(v, v.start(), (6, 5), first_turn=True) == {"24/13"}


def test_first_turn_two_from_head_always():
    v = get_variant("long", first_turn_two_from_head="always")
    assert notations(v, v.start(), (6, 5), first_turn=True) == {"24/13", "24/19 24/18"}
    assert notations(v, v.start(), (6, 5)) == {"24/13"}


def test_no_landing_on_a_point_with_any_opposing_checker():
    pos = board(LONG, {24: 14, 10: 1}, {24: 14, 19: 1})  # dark's 19 is light's 7
    got = notations(LONG, pos, (3, 1))
    assert not any("/7" in n for n in got)
    assert "24/21 10/9" in got


def test_any_number_of_checkers_share_a_point():
    pos = board(LONG, {24: 10, 18: 5}, {24: 15})
    # 6-6: one checker may leave the head, to 18; 18/12 is the opponent's head.
    (turn,) = LONG.legal_turns(pos, LIGHT, (6, 6))
    assert turn.notation == "24/18" and turn.after.at(LIGHT, 18, LONG.numbering) == 6


# -- the block rule ------------------------------------------------------------------------------

# Light holds 10..6 and has a checker on 17: 17/11 makes six in a row (11..6), dark's 23..18.
FIVE = {24: 9, 17: 1, 10: 1, 9: 1, 8: 1, 7: 1, 6: 1}


def _has_fence(pos: Position) -> bool:
    own, _ = pos.view(LIGHT, LONG.numbering)
    return bool(fences(own))


def test_a_fence_of_six_with_no_opposing_checker_ahead_is_refused():
    pos = board(LONG, FIVE, {24: 15})
    turns = LONG.legal_turns(pos, LIGHT, (6, 1))
    assert turns and not any(_has_fence(t.after) for t in turns)
    assert "24/23 17/11" not in {t.notation for t in turns}


def test_a_fence_is_allowed_once_an_opposing_checker_is_ahead_of_it():
    pos = board(LONG, FIVE, {24: 14, 10: 1})  # dark's 10 is past light's fence (dark's 23..18)
    got = {t.notation: t for t in LONG.legal_turns(pos, LIGHT, (6, 1))}
    assert "24/23 17/11" in got and _has_fence(got["24/23 17/11"].after)


def test_block_rule_opponent_in_home():
    v = get_variant("long", block_rule="opponent_in_home")
    ahead_not_home = board(v, FIVE, {24: 14, 10: 1})
    assert "24/23 17/11" not in notations(v, ahead_not_home, (6, 1))
    in_home = board(v, FIVE, {24: 14, 4: 1})
    assert "24/23 17/11" in notations(v, in_home, (6, 1))


def test_block_rule_timing_end_of_turn_judges_the_final_position():
    # 17/11 makes the fence, 11/6 breaks it: 17/6 ends without a fence. 17/12 is dark's head.
    pos = board(LONG, FIVE, {24: 15})
    assert "17/6" in notations(LONG, pos, (6, 5))


def test_block_rule_timing_every_move_refuses_a_passing_fence():
    v = get_variant("long", block_rule_timing="every_move")
    pos = board(v, FIVE, {24: 15})
    assert "17/6" not in notations(v, pos, (6, 5))
    assert notations(v, pos, (6, 5)) < notations(LONG, pos, (6, 5))


def test_six_points_across_the_opponents_start_are_not_a_fence():
    own = [0] * 26
    for p in (15, 14, 13, 12, 11, 10):
        own[p] = 1
    assert fences(own) == []
    # Across the mover's own start (its 1 and 24) they are: the opponent's 13..12 run.
    own = [0] * 26
    for p in (3, 2, 1, 24, 23, 22):
        own[p] = 1
    assert fences(own) != []


def test_a_run_across_the_opponents_start_is_allowed_with_nobody_ahead():
    # Dark has left its head: all its checkers on its 22 (light's 10), nobody ahead of light.
    # 17/16 gives light 16..11, six in a row across dark's 1 and 24 (light's 13 and 12).
    across = board(LONG, {24: 9, 17: 1, 15: 1, 14: 1, 13: 1, 12: 1, 11: 1}, {22: 15})
    assert "24/22 17/16" in notations(LONG, across, (2, 1))
    # 11/9 gives light 9..4, a real fence in dark's path: refused.
    fence = board(LONG, {24: 9, 11: 1, 8: 1, 7: 1, 6: 1, 5: 1, 4: 1}, {22: 15})
    got = notations(LONG, fence, (2, 1))
    assert "24/23 11/9" not in got and "24/23 8/6" in got


def test_larger_die_rule_on_and_off():
    # 9/3 or 9/4 alone; neither can go on (no bearing off with checkers on 20), and 20/14,
    # 20/15 are closed by dark (its 2 and 3).
    pos = board(LONG, {20: 14, 9: 1}, {2: 1, 3: 1, 24: 13})
    assert notations(LONG, pos, (6, 5)) == {"9/3"}
    chooser = get_variant("long", larger_die_rule=False)
    assert notations(chooser, pos, (6, 5)) == {"9/3", "9/4"}


def test_bearing_off_in_long_nardy():
    pos = board(LONG, {6: 1, 2: 1}, {24: 15})
    # A 6 bears off from 6; a 1 then bears off... 6/5 first leaves 5 the highest: 5/off.
    assert notations(LONG, pos, (6, 1)) == {"6/off 2/1", "6/off"}


def test_long_nardy_has_no_bar():
    pos = LONG.start()
    bad = Position((*pos.points[:23], 14), (1, 0), (0, 0))
    with pytest.raises(InvalidPositionError, match="no bar"):
        LONG.check_position(bad)
