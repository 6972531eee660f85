"""Judging a played turn: legal, partial, illegal with a reason, impossible."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from nardy.rules.judge import distance, judge
from nardy.rules.position import Position
from nardy.rules.turn import Step
from nardy.rules.variant import get_variant
from rules.helpers import DARK, LIGHT, board

BG = get_variant("backgammon")
LONG = get_variant("long")


def _play(v, pos, *steps, side=LIGHT):
    return v.play(pos, side, [Step(*s) for s in steps])


def test_a_legal_turn_is_found_from_the_position_alone():
    start = BG.start()
    after = _play(BG, start, (24, 18, 6), (18, 14, 4))
    j = judge(BG, start, LIGHT, (6, 4), after)
    assert j.verdict == "legal" and j.turn.notation == "24/14" and j.reasons == ()


def test_a_legal_turn_given_as_steps():
    start = BG.start()
    j = judge(BG, start, DARK, (3, 1), [Step(8, 5, 3), Step(6, 5, 1)])
    assert j.verdict == "legal" and j.turn.notation == "8/5 6/5"


def test_half_a_roll_played_is_partial():
    start = BG.start()
    j = judge(BG, start, LIGHT, (6, 4), _play(BG, start, (24, 18, 6)))
    assert j.verdict == "partial" and j.turn is None
    assert "24/18 13/9" in {t.notation for t in j.nearest}


def test_nothing_moved_is_partial_while_the_roll_can_be_played():
    start = BG.start()
    assert judge(BG, start, LIGHT, (6, 4), start).verdict == "partial"
    blocked = board(BG, {6: 14}, {p: 2 for p in range(1, 7)}, bar=(1, 0))
    j = judge(BG, blocked, LIGHT, (6, 5), blocked)
    assert j.verdict == "legal" and j.turn.notation == ""


def test_a_roll_that_can_be_played_in_full_must_be():
    pos = board(BG, {10: 1, 9: 1}, {21: 2})
    j = judge(BG, pos, LIGHT, (6, 4), _play(BG, pos, (9, 5, 4)))
    assert j.verdict == "illegal"
    assert j.reasons == ("6-4 can be played in full: 10/6 9/3 uses both dice",)
    assert [t.notation for t in j.nearest] == ["10/6 9/3"]


def test_the_larger_die_when_only_one_can_be_played():
    pos = board(BG, {12: 1}, {24: 2, 23: 2})
    j = judge(BG, pos, LIGHT, (6, 5), _play(BG, pos, (12, 7, 5)))
    assert j.verdict == "illegal" and "must be the larger: 12/6" in j.reasons[0]


def test_passing_two_closed_points_names_them():
    pos = board(BG, {24: 1, 6: 14}, {7: 2, 6: 2})  # light's 18 and 19
    j = judge(BG, pos, LIGHT, (6, 5), _play(BG, pos, (24, 13, 11)))
    assert j.verdict == "illegal"
    assert "point 19 is held by two dark checkers" in j.reasons[0]
    assert "point 18 is held by two dark checkers" in j.reasons[0]


def test_entering_from_the_bar_comes_first():
    pos = board(BG, {13: 14}, {}, bar=(1, 0))
    j = judge(BG, pos, LIGHT, (3, 1), _play(BG, pos, (13, 10, 3), (13, 12, 1)))
    assert j.verdict == "illegal" and "bar must enter" in j.reasons[0]


def test_bearing_off_waits_for_every_checker_home():
    pos = board(BG, {8: 1, 2: 14}, {13: 15})
    j = judge(BG, pos, LIGHT, (2, 1), _play(BG, pos, (2, 0, 2), (8, 7, 1)))
    assert j.verdict == "illegal" and "all the checkers are home" in j.reasons[0]


def test_head_rule_reason():
    pos = board(LONG, {24: 14, 20: 1}, {24: 15})
    j = judge(LONG, pos, LIGHT, (3, 2), _play(LONG, pos, (24, 21, 3), (24, 22, 2)))
    assert j.verdict == "illegal" and j.reasons == (
        "only one checker may leave the head this turn",
    )


def test_block_rule_reason():
    five = {24: 9, 17: 1, 10: 1, 9: 1, 8: 1, 7: 1, 6: 1}
    pos = board(LONG, five, {24: 15})
    j = judge(LONG, pos, LIGHT, (6, 1), _play(LONG, pos, (17, 11, 6), (24, 23, 1)))
    assert j.verdict == "illegal"
    assert j.reasons == (
        "six points in a row (11 to 6) block dark: a fence needs a dark checker ahead of it",
    )


def test_caucasian_hit_and_hide_reason():
    cau = get_variant("caucasian")
    pos = board(cau, {8: 1, 3: 2, 24: 12}, {20: 1})
    j = judge(cau, pos, LIGHT, (3, 2), _play(cau, pos, (8, 5, 3), (5, 3, 2)))
    assert j.verdict == "illegal" and "caucasian rule" in j.reasons[0]
    assert judge(BG, pos, LIGHT, (3, 2), _play(BG, pos, (8, 5, 3), (5, 3, 2))).verdict == "legal"


def test_too_far_is_illegal_with_the_pips_counted():
    start = BG.start()
    j = judge(BG, start, LIGHT, (2, 1), _play(BG, start, (13, 7, 6)))
    assert j.verdict == "illegal" and "moved 6 pips, 2-1 gives 3" in j.reasons[0]


def test_a_vanished_checker_is_impossible():
    start = BG.start()
    gone = Position((*start.points[:5], 4, *start.points[6:]), start.bar, start.off)
    j = judge(BG, start, LIGHT, (6, 4), gone)
    assert j.verdict == "impossible" and "vanished" in j.reasons[0]


def test_the_opponent_moving_is_impossible():
    start = BG.start()
    moved = Position((-1, -1, *start.points[2:]), start.bar, start.off)
    j = judge(BG, start, LIGHT, (6, 5), moved)
    assert j.verdict == "impossible" and "dark checkers moved" in j.reasons[0]


def test_a_checker_going_backwards_is_impossible():
    start = BG.start()
    back = list(start.points)
    back[5] -= 1  # one light checker from 6 ...
    back[14] += 1  # ... to 15
    j = judge(BG, start, LIGHT, (6, 5), Position(tuple(back), start.bar, start.off))
    assert j.verdict == "impossible" and "backwards" in j.reasons[0]


def test_a_step_from_an_empty_point_is_illegal():
    j = judge(BG, BG.start(), LIGHT, (6, 5), [Step(20, 14, 6)])
    assert j.verdict == "illegal" and "no checker on point 20" in j.reasons[0]


def test_nearest_are_the_fewest_checkers_away():
    start = BG.start()
    played = _play(BG, start, (24, 18, 6), (13, 9, 4))  # a 6-4 play ...
    j = judge(BG, start, LIGHT, (6, 5), played)  # ... but the roll is 6-5
    assert j.verdict == "illegal"
    assert all(distance(t.after, played) == j.distance for t in j.nearest)
    assert j.distance == 1 and "24/18 13/8" in {t.notation for t in j.nearest}


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.integers(1, 6), st.integers(1, 6))
def test_every_legal_turn_is_legal_and_its_prefixes_partial(seed, a, b):
    import random

    rng = random.Random(seed)
    pos = BG.start()
    side = LIGHT
    for _ in range(rng.randint(0, 20)):  # a random game up to some point
        turns = BG.legal_turns(pos, side, (rng.randint(1, 6), rng.randint(1, 6)))
        pos = rng.choice(turns).after
        side = side.other
        if BG.winner(pos) is not None:
            return
    for t in BG.legal_turns(pos, side, (a, b)):
        j = judge(BG, pos, side, (a, b), t.after)
        assert j.verdict == "legal" and j.turn == t
        for k in range(1, len(t.steps)):
            prefix = BG.play(pos, side, t.steps[:k])
            assert judge(BG, pos, side, (a, b), prefix).verdict in ("partial", "legal")
