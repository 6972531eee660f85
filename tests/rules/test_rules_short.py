"""One test per rule of the common and short-nardy rules in RULES.md."""

from __future__ import annotations

import pytest

from nardy.rules.position import Side
from nardy.rules.variant import get_variant
from rules.helpers import DARK, LIGHT, board, notations

BG = get_variant("backgammon")
CAU = get_variant("caucasian")


def test_start_of_each_short_variant():
    start = BG.start()
    assert [start.at(LIGHT, p) for p in (24, 13, 8, 6)] == [2, 5, 3, 5]
    # Dark's 24-point is light's 1-point: the two sides move in opposite directions.
    assert start.points[0] == -2 and start.points[23] == 2
    nack = get_variant("nackgammon").start()
    assert [nack.at(LIGHT, p) for p in (24, 23, 13, 8, 6)] == [2, 2, 4, 3, 4]
    hyper = get_variant("hypergammon").start()
    assert [hyper.at(DARK, p) for p in (24, 23, 22)] == [1, 1, 1]
    assert hyper.checkers(LIGHT) == 3
    for name in ("caucasian", "oin_mars"):
        assert get_variant(name).start() == start


def test_two_different_dice_move_one_checker_or_two():
    got = notations(BG, BG.start(), (3, 1))
    assert {"8/5 6/5", "24/20", "24/23 24/21", "13/9"} <= got
    assert len(got) == 16


def test_one_checker_uses_both_dice_only_through_an_open_point():
    both_closed = board(BG, {24: 1, 6: 14}, {7: 2, 6: 2})  # dark holds light's 18 and 19
    assert "24/13" not in notations(BG, both_closed, (6, 5))
    one_open = board(BG, {24: 1, 6: 14}, {6: 2})
    assert "24/13" in notations(BG, one_open, (6, 5))


def test_a_double_gives_four_moves():
    turns = BG.legal_turns(BG.start(), LIGHT, (6, 6))
    assert "24/18(2) 13/7(2)" in {t.notation for t in turns}
    assert all(len(t.steps) == 4 for t in turns)


def test_the_whole_roll_must_be_used_if_any_sequence_does():
    # 10/4 is closed, 9/5 leads nowhere; only 10/6 9/3 plays both dice.
    pos = board(BG, {10: 1, 9: 1}, {21: 2})
    assert notations(BG, pos, (6, 4)) == {"10/6 9/3"}


def test_the_larger_die_must_be_played_when_either_but_not_both_can():
    pos = board(BG, {12: 1}, {24: 2, 23: 2})  # light's 1 and 2 closed
    assert notations(BG, pos, (6, 5)) == {"12/6"}


def test_when_only_one_die_can_be_played_it_must_be():
    pos = board(BG, {12: 1}, {24: 2, 23: 2, 19: 2})  # and light's 6
    assert notations(BG, pos, (6, 5)) == {"12/7"}


def test_a_double_plays_as_many_moves_as_possible():
    assert notations(BG, board(BG, {12: 1}, {22: 2}), (3, 3)) == {"12/6"}


def test_nothing_playable_passes_the_turn_as_one_empty_turn():
    pos = board(BG, {6: 14}, {p: 2 for p in range(1, 7)}, bar=(1, 0))
    turns = BG.legal_turns(pos, LIGHT, (6, 5))
    assert len(turns) == 1 and turns[0].steps == () and turns[0].notation == ""
    assert turns[0].after == pos


def test_checkers_on_the_bar_enter_first():
    pos = board(BG, {13: 14}, {}, bar=(1, 0))
    got = notations(BG, pos, (3, 1))
    assert got and all(n.startswith("bar/") for n in got)
    assert {"bar/22 13/12", "bar/21", "bar/24 13/10"} <= got


def test_when_only_some_enter_the_rest_of_the_roll_is_lost():
    closed = {p: 2 for p in (1, 2, 4, 5, 6)}  # dark's home but its 3, light's 22
    pos = board(BG, {13: 13}, closed, bar=(2, 0))
    assert notations(BG, pos, (3, 1)) == {"bar/22"}


def test_a_blot_is_hit_and_goes_to_the_bar():
    pos = board(BG, {13: 15}, {14: 1, 1: 14})  # dark's 14 is light's 11
    turns = {t.notation: t for t in BG.legal_turns(pos, LIGHT, (2, 1))}
    after = turns["13/12 13/11*"].after
    assert after.bar == (0, 1) and after.at(LIGHT, 11) == 1
    assert [s.hit for s in turns["13/12 13/11*"].steps].count(True) == 1


def test_a_hit_on_the_way_keeps_its_intermediate_point():
    pos = board(BG, {13: 15}, {14: 1, 1: 14})
    assert "13/11*/10" in notations(BG, pos, (2, 1))


def test_a_point_held_by_two_opposing_checkers_is_closed():
    pos = board(BG, {13: 15}, {14: 2, 1: 13})
    assert not any("/11" in n for n in notations(BG, pos, (2, 1)))


def test_bearing_off_starts_only_when_all_are_home():
    pos = board(BG, {7: 1, 3: 14}, {13: 15})
    # The straggler comes home first; only then may the other die bear off.
    assert notations(BG, pos, (6, 3)) == {"7/1 3/off", "7/off"}
    assert notations(BG, pos, (1, 3)) == {"7/4 3/2", "7/6 3/off", "7/3"}


def test_bearing_off_from_the_point_of_the_die():
    pos = board(BG, {5: 2, 3: 1}, {13: 15})
    assert "5/off 3/off" in notations(BG, pos, (5, 3))


def test_bearing_off_moves_from_a_higher_point_when_the_dies_point_is_empty():
    pos = board(BG, {6: 1, 2: 1}, {13: 15})
    # A 4 cannot bear off the checker on 2 while one stands on 6: it moves 6/2. (GNU
    # Backgammon writes 6/2 2/off as 6/off, joining the two moves.)
    assert notations(BG, pos, (5, 4)) == {"6/1 2/off", "6/off"}


def test_bearing_off_from_the_highest_point_when_none_is_higher():
    pos = board(BG, {3: 1, 2: 1}, {13: 15})
    assert notations(BG, pos, (6, 5)) == {"3/off 2/off"}


def test_moving_inside_home_instead_of_bearing_off_is_allowed():
    pos = board(BG, {6: 2}, {13: 15})
    assert notations(BG, pos, (6, 1)) == {"6/5 6/off"}
    assert notations(BG, pos, (2, 1)) == {"6/5 6/4", "6/3"}


def test_a_checker_hit_during_bear_off_comes_home_before_bearing_off_resumes():
    pos = board(BG, {5: 3}, {3: 1}, bar=(1, 0))  # dark's 3 is light's 22
    assert notations(BG, pos, (3, 5)) == {"bar/22*/17", "bar/17", "bar/20 5/2"}


@pytest.mark.parametrize("side", [LIGHT, DARK])
def test_the_rules_are_the_same_from_either_seat(side: Side):
    got = notations(BG, BG.start(), (6, 5), side=side)
    assert got == notations(BG, BG.start(), (6, 5))
    after = {t.notation: t.after for t in BG.legal_turns(BG.start(), side, (6, 5))}
    assert after["24/13"].at(side, 13) == 6


# -- the caucasian rule: no hit and hide inside one's own home ----------------------------------


def test_caucasian_forbids_hit_and_hide_in_own_home():
    pos = board(CAU, {8: 1, 3: 2, 24: 12}, {20: 1})  # dark's 20 is light's 5
    assert "8/5*/3" in notations(BG, pos, (3, 2))
    assert "8/5*/3" not in notations(CAU, pos, (3, 2))
    assert "8/3" in notations(CAU, pos, (3, 2))  # through 6, hitting nothing


def test_caucasian_allows_hit_and_cover():
    pos = board(CAU, {8: 1, 7: 1, 3: 2, 24: 11}, {20: 1})
    assert "8/5* 7/5" in notations(CAU, pos, (3, 2))


def test_caucasian_allows_hit_and_move_on_to_an_empty_point():
    pos = board(CAU, {8: 1, 1: 2, 24: 12}, {20: 1})
    assert "8/5*/3" in notations(CAU, pos, (3, 2))


def test_caucasian_allows_hit_and_bear_off():
    pos = board(CAU, {6: 1, 2: 2}, {21: 1})  # dark's 21 is light's 4
    assert "6/4*/off" in notations(CAU, pos, (2, 4))


def test_caucasian_allows_hit_and_hide_outside_home():
    pos = board(CAU, {13: 1, 8: 2, 24: 12}, {15: 1})  # dark's 15 is light's 10
    assert "13/10*/8" in notations(CAU, pos, (3, 2))


def test_caucasian_forbids_exactly_the_turns_that_hide_a_hitter():
    pos = board(CAU, {9: 1, 7: 1, 3: 2, 24: 11}, {20: 1})  # a dark blot on light's 5
    international = notations(BG, pos, (2, 2))
    caucasian = notations(CAU, pos, (2, 2))
    assert caucasian < international
    assert international - caucasian == {
        "24/20 7/5*/3",
        "24/22 7/5*/1",
        "24/22 9/5*/3",
        "24/22(2) 7/5*/3",
        "9/5*/1",
    }
    # Hit, cover, and the cover goes on: the hitter stays where it hit.
    assert "9/5*/3 7/5" in caucasian
