"""Matches to N points (Crawford, post-Crawford) and money sessions (the Stakes section)."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from nardy.rules.cube import Cube, CubeRules
from nardy.rules.errors import MatchError
from nardy.rules.match import Match, MoneySession
from nardy.rules.position import Side
from nardy.rules.result import GameResult, WinKind

L, D = Side.LIGHT, Side.DARK


def single(side: Side) -> GameResult:
    return GameResult(side, WinKind.OIN, 1)


def gammon(side: Side) -> GameResult:
    return GameResult(side, WinKind.MARS, 2)


def test_match_adds_the_real_points_and_is_won_on_reaching_n():
    m = Match(3).after_game(single(L), Cube())
    cube = Cube().offer(D).take()
    m = m.after_game(gammon(L), cube)
    assert m.score == (5, 0)  # not capped at 3
    assert m.over and m.winner is L
    with pytest.raises(MatchError, match="over"):
        m.after_game(single(D), Cube())


def test_crawford_game_follows_first_reaching_match_point_minus_one():
    m = Match(5, crawford_rule=True).after_game(gammon(L), Cube()).after_game(gammon(L), Cube())
    assert m.score == (4, 0) and m.crawford_game
    cube = m.cube_for_game(CubeRules())
    assert not cube.enabled and cube.crawford
    m = m.after_game(single(D), cube)
    assert not m.crawford_game and m.post_crawford
    m = m.after_game(gammon(D), m.cube_for_game(CubeRules()))
    assert m.score == (4, 3) and not m.crawford_game  # only one Crawford game per match
    assert m.cube_for_game(CubeRules()).enabled


def test_crawford_rule_off_no_crawford_game():
    m = Match(5, crawford_rule=False).after_game(GameResult(L, WinKind.BACKGAMMON, 3), Cube())
    m = m.after_game(single(L), Cube())
    assert m.score == (4, 0) and not m.crawford_game
    assert m.cube_for_game(CubeRules()).enabled


def test_crawford_not_triggered_by_jumping_past_match_point_minus_one_to_a_win():
    m = Match(3, crawford_rule=True).after_game(GameResult(L, WinKind.BACKGAMMON, 3), Cube())
    assert m.over and not m.crawford_game


def test_away_counts_what_each_side_needs():
    m = Match(7).after_game(gammon(D), Cube())
    assert (m.away(L), m.away(D)) == (7, 5)


def test_draw_in_a_match_gives_half_a_point_each():
    m = Match(3).after_game(GameResult(None, WinKind.DRAW, 1), Cube())
    assert m.score == (Fraction(1, 2), Fraction(1, 2))


def test_money_session_ledger_stake_times_points():
    s = MoneySession(Decimal("2.50"), "EUR")
    s = s.after_game(gammon(L), Cube().offer(D).take())  # 2 × 2 points
    s = s.after_game(single(D), Cube())
    assert [e.amount for e in s.entries] == [Decimal("10.00"), Decimal("-2.50")]
    assert s.balance == Decimal("7.50") and s.balance_of(D) == Decimal("-7.50")
    assert s.entries[0].game.cube_value == 2 and s.entries[0].points_to_light == 4


def test_money_session_draw_costs_nothing():
    s = MoneySession(Decimal(1)).after_game(GameResult(None, WinKind.DRAW, 1), Cube())
    assert s.balance == 0


def test_money_session_jacoby():
    rules = CubeRules(jacoby=True)
    s = MoneySession(Decimal(1)).after_game(gammon(L), MoneySession.cube_for_game(rules))
    assert s.balance == 1


def test_negative_stake_refused():
    with pytest.raises(MatchError):
        MoneySession(Decimal(-1))


GAMES = st.tuples(
    st.sampled_from([L, D, None]),
    st.integers(1, 3),
    st.sampled_from([1, 2, 4, 8]),
)


@given(st.lists(GAMES, max_size=30), st.decimals("0.01", "100", places=2))
def test_ledger_balance_equals_the_sum_of_entries(games, stake):
    s = MoneySession(stake)
    for winner, mult, value in games:
        result = (
            GameResult(None, WinKind.DRAW, 1)
            if winner is None
            else GameResult(winner, WinKind.OIN, mult)
        )
        s = s.after_game(result, Cube(value=value))
    assert s.balance == sum((e.amount for e in s.entries), Decimal(0))
    assert all(e.amount % stake == 0 for e in s.entries)


@given(st.lists(st.tuples(st.sampled_from([L, D]), st.integers(1, 3)), max_size=40))
def test_match_score_is_the_sum_of_game_points_and_at_most_one_crawford_game(games):
    m = Match(7, crawford_rule=True)
    crawford_games = 0
    for winner, mult in games:
        if m.over:
            break
        crawford_games += m.crawford_game
        m = m.after_game(GameResult(winner, WinKind.OIN, mult), m.cube_for_game(CubeRules()))
    for side in Side:
        assert m.score[side] == sum(g.points for g in m.games if g.result.winner is side)
    assert crawford_games <= 1
