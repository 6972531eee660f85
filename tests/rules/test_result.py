"""The Scoring section of RULES.md: one test per row and per option."""

from __future__ import annotations

import random

import gnubg_nn
import pytest

from nardy.rules.errors import ResignationError, RulesError, UndefinedRuleError
from nardy.rules.position import Numbering, Position, Side
from nardy.rules.result import (
    Ending,
    WinKind,
    extra_turn_due,
    game_result,
    max_resignation,
    resign,
    scoring_table,
)
from nardy.rules.variant import get_variant as variant

L, D = Side.LIGHT, Side.DARK


def short(light: dict[int, int], dark: dict[int, int], *, bar=(0, 0), off=(15, 0)) -> Position:
    """A short-nardy position from each side's own point numbers."""
    pts = [0] * 24
    for p, n in light.items():
        pts[p - 1] += n
    for p, n in dark.items():
        pts[25 - p - 1] -= n
    return Position(tuple(pts), bar, off)


def long_pos(light: dict[int, int], dark: dict[int, int], *, off=(15, 0)) -> Position:
    pts = [0] * 24
    for p, n in light.items():
        pts[p - 1] += n
    for p, n in dark.items():
        pts[Numbering.SAME_WAY.to_light(D, p) - 1] -= n
    return Position(tuple(pts), (0, 0), off)


# -- short nardy, international ------------------------------------------------------------------


def test_oin_loser_bore_off_one_checker_pays_1():
    r = game_result(variant("backgammon"), short({}, {20: 14}, off=(15, 1)))
    assert (r.winner, r.kind, r.multiplier) == (L, WinKind.OIN, 1)


def test_mars_loser_bore_off_none_pays_2():
    r = game_result(variant("backgammon"), short({}, {10: 15}))
    assert (r.kind, r.multiplier) == (WinKind.MARS, 2)


def test_backgammon_loser_on_bar_pays_3():
    r = game_result(variant("backgammon"), short({}, {10: 14}, bar=(0, 1)))
    assert (r.kind, r.multiplier) == (WinKind.BACKGAMMON, 3)


def test_backgammon_loser_in_winners_home_pays_3():
    # dark's point 19 is light's point 6: light's home
    r = game_result(variant("backgammon"), short({}, {10: 14, 19: 1}))
    assert (r.kind, r.multiplier) == (WinKind.BACKGAMMON, 3)


def test_loser_just_outside_winners_home_is_mars_not_backgammon():
    r = game_result(variant("backgammon"), short({}, {18: 15}))
    assert r.kind is WinKind.MARS


def test_home_mars_counts_as_mars_in_backgammon():
    r = game_result(variant("backgammon"), short({}, {6: 10, 1: 5}))
    assert (r.kind, r.multiplier) == (WinKind.HOME_MARS, 2)


def test_dark_wins_is_scored_from_darks_side():
    pos = short({24: 1, 3: 14}, {}, off=(0, 15))
    r = game_result(variant("backgammon"), pos)
    assert (r.winner, r.kind, r.multiplier) == (D, WinKind.BACKGAMMON, 3)


@pytest.mark.parametrize("name", ["caucasian", "nackgammon"])
def test_short_variants_pay_backgammon(name):
    assert scoring_table(variant(name))[WinKind.BACKGAMMON] == 3


def test_game_goes_on_until_a_side_bore_off_everything():
    assert game_result(variant("backgammon"), short({1: 1}, {10: 15}, off=(14, 0))) is None


# -- oin–mars ------------------------------------------------------------------------------------


def test_oin_mars_has_no_backgammon():
    r = game_result(variant("oin_mars"), short({}, {10: 14}, bar=(0, 1)))
    assert (r.kind, r.multiplier) == (WinKind.MARS, 2)
    assert WinKind.BACKGAMMON not in scoring_table(variant("oin_mars"))


def test_oin_mars_oin_and_home_mars():
    v = variant("oin_mars")
    assert game_result(v, short({}, {20: 14}, off=(15, 1))).multiplier == 1
    r = game_result(v, short({}, {3: 15}))
    assert (r.kind, r.multiplier) == (WinKind.HOME_MARS, 2)


# -- long nardy ----------------------------------------------------------------------------------


def test_long_mars_pays_2():
    # dark's head still holds checkers
    r = game_result(variant("long"), long_pos({}, {24: 3, 5: 12}))
    assert (r.kind, r.multiplier) == (WinKind.MARS, 2)


def test_long_has_no_backgammon_even_with_checkers_in_winners_home():
    # dark's point 19..24 is not light's home in long nardy; nothing pays 3 by default
    r = game_result(variant("long"), long_pos({}, {13: 15}))
    assert r.multiplier == 2


def test_long_home_mars_option_2():
    r = game_result(variant("long", home_mars=2), long_pos({}, {1: 15}))
    assert (r.kind, r.multiplier) == (WinKind.HOME_MARS, 2)


def test_long_home_mars_option_3():
    r = game_result(variant("long", home_mars=3), long_pos({}, {1: 5, 6: 10}))
    assert (r.kind, r.multiplier) == (WinKind.HOME_MARS, 3)


def test_long_oin():
    r = game_result(variant("long", home_mars=3), long_pos({}, {1: 14}, off=(15, 1)))
    assert (r.kind, r.multiplier) == (WinKind.OIN, 1)


def test_koks_is_undefined_and_refused():
    with pytest.raises(UndefinedRuleError, match="koks"):
        game_result(variant("long", koks=True), long_pos({}, {1: 15}))
    assert game_result(variant("long"), long_pos({}, {1: 15})) is not None


# -- the long-nardy draw -------------------------------------------------------------------------


def test_draw_rule_off_first_to_finish_wins():
    v = variant("long")
    pos = long_pos({}, {1: 2}, off=(15, 13))
    assert extra_turn_due(v, pos, starter=L) is None
    assert game_result(v, pos, starter=L).winner is L


def test_draw_rule_second_player_gets_one_more_turn():
    v = variant("long", draw_rule=True)
    pos = long_pos({}, {1: 2}, off=(15, 13))
    assert extra_turn_due(v, pos, starter=L) is D
    assert game_result(v, pos, starter=L) is None


def test_draw_rule_extra_turn_bearing_off_all_is_a_draw():
    v = variant("long", draw_rule=True)
    r = game_result(v, long_pos({}, {}, off=(15, 15)), starter=L, extra_turn_played=True)
    assert (r.winner, r.kind) == (None, WinKind.DRAW)
    assert WinKind.DRAW in scoring_table(v)


def test_draw_rule_extra_turn_not_finishing_loses():
    v = variant("long", draw_rule=True)
    r = game_result(v, long_pos({}, {1: 1}, off=(15, 14)), starter=L, extra_turn_played=True)
    assert (r.winner, r.kind, r.multiplier) == (L, WinKind.OIN, 1)


def test_draw_rule_second_player_finishing_first_wins_outright():
    v = variant("long", draw_rule=True)
    pos = long_pos({3: 15}, {}, off=(0, 15))
    assert extra_turn_due(v, pos, starter=L) is None
    assert game_result(v, pos, starter=L).winner is D


def test_draw_rule_needs_the_starter():
    with pytest.raises(RulesError, match="started"):
        game_result(variant("long", draw_rule=True), long_pos({}, {1: 2}, off=(15, 13)))


# -- resignations --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "options", "points", "kind"),
    [
        ("backgammon", {}, 1, WinKind.OIN),
        ("backgammon", {}, 2, WinKind.MARS),
        ("backgammon", {}, 3, WinKind.BACKGAMMON),
        ("oin_mars", {}, 2, WinKind.MARS),
        ("long", {}, 2, WinKind.MARS),
        ("long", {"home_mars": 3}, 3, WinKind.HOME_MARS),
    ],
)
def test_resignation_worth(name, options, points, kind):
    r = resign(variant(name, **options), D, points)
    assert (r.winner, r.kind, r.multiplier, r.ending) == (L, kind, points, Ending.RESIGNED)


@pytest.mark.parametrize(("name", "options"), [("oin_mars", {}), ("long", {"home_mars": 2})])
def test_resignation_of_three_refused_where_nothing_pays_three(name, options):
    v = variant(name, **options)
    assert max_resignation(v) == 2
    with pytest.raises(ResignationError, match="at most 2"):
        resign(v, L, 3)


def test_resignation_of_four_refused():
    with pytest.raises(ResignationError):
        resign(variant("backgammon"), L, 4)


# -- against GNU Backgammon ----------------------------------------------------------------------


def _finished(rng: random.Random, winner: Side) -> Position:
    """The winner has borne off all 15; the loser's checkers anywhere, on the bar or off."""
    loser = winner.other
    points = [0] * 24
    bar = [0, 0]
    off = [0, 0]
    off[winner] = 15
    # where the loser's checkers may be: in home, short of the winner's home, or anywhere
    top, spots = rng.choice([(6, ["board"]), (18, ["board"]), (24, ["off", "bar", "board"])])
    for _ in range(15):
        spot = rng.choice(spots)
        if spot == "off" and rng.random() < 0.3:
            off[loser] += 1
        elif spot == "bar":
            bar[loser] += 1
        else:
            own_point = rng.randint(1, top)
            points[Numbering.OPPOSED.to_light(loser, own_point) - 1] += loser.sign
    return Position(tuple(points), (bar[0], bar[1]), (off[0], off[1]))


def test_backgammon_scoring_agrees_with_gnubg():
    """gnubg's evaluation of a finished game is exact: win, gammon and backgammon flags."""
    seed = random.randrange(2**31)
    print(f"scoring seed {seed}")
    rng = random.Random(seed)
    v = variant("backgammon")
    kinds = set()
    for _ in range(10000):
        winner = rng.choice([L, D])
        pos = _finished(rng, winner)
        own, theirs = pos.view(winner, Numbering.OPPOSED)
        board = [[theirs[25 - p] for p in range(1, 25)] + [theirs[25]], [*own[1:25], own[25]]]
        win, gammon, backgammon, _, _ = gnubg_nn.probabilities(board, 0)
        r = game_result(v, pos)
        kinds.add(r.kind)
        assert (r.winner, r.multiplier) == (winner, 1 + int(gammon) + int(backgammon)), (seed, pos)
        assert win == 1.0
    assert kinds == {WinKind.OIN, WinKind.MARS, WinKind.HOME_MARS, WinKind.BACKGAMMON}


def test_hypergammon_game_ends_when_three_are_off():
    v = variant("hypergammon")
    pos = Position(tuple([-3] + [0] * 23), (0, 0), (3, 0))  # dark's three still on its 24
    assert game_result(v, pos).kind is WinKind.BACKGAMMON
    assert game_result(v, Position(tuple([-3] + [0] * 4 + [1] + [0] * 18), (0, 0), (2, 0))) is None


@pytest.mark.parametrize("name", ["gulbar", "khachapuri"])
def test_long_family_variants_score_as_long_nardy(name):
    try:
        v = variant(name, home_mars=3)
    except RulesError as e:  # a variant the sources leave undefined says so
        pytest.fail(f"{name}: {e}")
    assert scoring_table(v) == {WinKind.OIN: 1, WinKind.MARS: 2, WinKind.HOME_MARS: 3}
