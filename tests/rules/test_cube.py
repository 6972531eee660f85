"""The Cube section of RULES.md: offer, take, drop, beavers, progressions, limits and scoring."""

from __future__ import annotations

from fractions import Fraction
from types import SimpleNamespace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from nardy.rules.cube import Cube, CubeRules
from nardy.rules.errors import CubeError
from nardy.rules.position import Side
from nardy.rules.result import Ending, GameResult, WinKind

L, D = Side.LIGHT, Side.DARK
GAMMON = GameResult(L, WinKind.MARS, 2)
BACKGAMMON = GameResult(D, WinKind.BACKGAMMON, 3)
SINGLE = GameResult(L, WinKind.OIN, 1)


def test_centred_cube_either_player_may_offer():
    cube = Cube()
    assert cube.centred and cube.may_offer(L) and cube.may_offer(D)


def test_take_raises_the_stake_and_the_taker_owns_the_cube():
    cube = Cube().offer(L).take()
    assert (cube.value, cube.owner, cube.offered_by) == (2, D, None)
    assert cube.may_offer(D)
    with pytest.raises(CubeError, match="dark owns the cube"):
        cube.offer(L)


def test_redouble_passes_the_cube_back():
    cube = Cube().offer(L).take().offer(D).take()
    assert (cube.value, cube.owner) == (4, L)


def test_drop_ends_the_game_at_the_old_value():
    cube = Cube().offer(L).take().offer(D)
    result = cube.drop()
    assert (result.winner, result.ending, result.multiplier) == (D, Ending.DROPPED, 1)
    assert cube.points(result) == 2


def test_no_offer_while_an_offer_waits():
    with pytest.raises(CubeError, match="light has offered the cube: dark must answer"):
        Cube().offer(L).offer(D)


def test_no_take_or_drop_without_an_offer():
    with pytest.raises(CubeError, match="no offer"):
        Cube().take()
    with pytest.raises(CubeError, match="no offer"):
        Cube().drop()


def test_geometric_progression():
    rules = CubeRules(progression="geometric")
    assert rules.values() == (1, 2, 4, 8, 16, 32, 64)


def test_arithmetic_progression():
    cube = Cube(CubeRules(progression="arithmetic"))
    values = []
    for side in (L, D, L, D):
        cube = cube.offer(side).take()
        values.append(cube.value)
    assert values == [2, 3, 4, 5]


def test_cube_limit():
    cube = Cube(CubeRules(limit=4)).offer(L).take().offer(D).take()
    assert cube.value == 4
    with pytest.raises(CubeError, match="limit of 4"):
        cube.offer(L)


def test_crawford_game_has_no_doubling():
    cube = Cube.disabled(crawford=True)
    with pytest.raises(CubeError, match="no doubling in the Crawford game"):
        cube.offer(L)


def test_beaver_takes_and_redoubles_keeping_the_cube():
    cube = Cube(CubeRules(beavers=True)).offer(L).beaver()
    assert (cube.value, cube.owner) == (4, D)


def test_beaver_refused_when_the_option_is_off():
    with pytest.raises(CubeError, match="beavers are not played"):
        Cube().offer(L).beaver()


def test_beavers_and_jacoby_only_in_money_play():
    options = SimpleNamespace(beavers=True, jacoby=True, cube_progression="geometric")
    assert not CubeRules.from_options(options, money=False).beavers
    assert not CubeRules.from_options(options, money=False).jacoby
    money = CubeRules.from_options(options, money=True)
    assert money.beavers and money.jacoby


def test_mars_with_cube_international_multiplies():
    cube = Cube(CubeRules(mars_with_cube=True)).offer(L).take()
    assert cube.points(GAMMON) == 4
    assert cube.points(BACKGAMMON) == 6


def test_mars_with_cube_off_russian_a_win_is_the_cube_value():
    cube = Cube(CubeRules(mars_with_cube=False))
    assert cube.points(GAMMON) == 1
    assert cube.offer(L).take().points(BACKGAMMON) == 2


def test_game_without_the_cube_counts_mars_even_in_russian_practice():
    assert Cube.disabled(CubeRules(mars_with_cube=False)).points(GAMMON) == 2


def test_jacoby_gammons_count_only_once_the_cube_was_turned():
    rules = CubeRules(jacoby=True)
    assert Cube(rules).points(GAMMON) == 1
    assert Cube(rules).offer(D).take().points(GAMMON) == 4


def test_without_jacoby_a_gammon_counts_on_a_centred_cube():
    assert Cube().points(GAMMON) == 2


def test_draw_gives_each_side_half():
    draw = GameResult(None, WinKind.DRAW, 1)
    assert Cube().points(draw) == Fraction(1, 2)
    assert Cube().offer(L).take().points(draw) == 1


def test_unknown_progression_refused():
    with pytest.raises(CubeError):
        CubeRules(progression="fibonacci")


@given(
    progression=st.sampled_from(["geometric", "arithmetic"]),
    beavers=st.booleans(),
    actions=st.lists(st.sampled_from(["offer_l", "offer_d", "take", "drop", "beaver"])),
)
def test_cube_value_is_always_in_the_progression(progression, beavers, actions):
    rules = CubeRules(progression=progression, beavers=beavers, limit=64)
    cube = Cube(rules)
    allowed = set(rules.values())
    for action in actions:
        try:
            if action == "offer_l":
                cube = cube.offer(L)
            elif action == "offer_d":
                cube = cube.offer(D)
            elif action == "take":
                cube = cube.take()
            elif action == "beaver":
                cube = cube.beaver()
            else:
                cube.drop()
        except CubeError:
            pass
        assert cube.value in allowed
        assert cube.owner is None or cube.value > 1


def test_oin_mars_options_give_the_russian_arithmetic_cube():
    from nardy.rules.variant import get_variant

    rules = CubeRules.from_options(get_variant("oin_mars").options, money=True)
    assert (rules.progression, rules.mars_with_cube) == ("arithmetic", False)
    backgammon = CubeRules.from_options(get_variant("backgammon").options, money=True)
    assert (backgammon.progression, backgammon.mars_with_cube) == ("geometric", True)
    assert not backgammon.jacoby and not backgammon.beavers  # off unless the club turns them on
