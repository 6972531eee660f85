"""The registry, the options and their defaults, positions' sanity checks."""

from __future__ import annotations

import pytest

from nardy.rules.errors import InvalidPositionError, RulesError, UnknownVariantError
from nardy.rules.position import Numbering, Position
from nardy.rules.variant import VARIANTS, Gulbar, get_variant
from rules.helpers import DARK, LIGHT, board

SHORT = ("backgammon", "caucasian", "nackgammon", "hypergammon", "oin_mars")


def test_registry_holds_every_variant_of_rules_md():
    assert set(VARIANTS) == {*SHORT, "long", "gulbar", "khachapuri"}
    for name, cls in VARIANTS.items():
        v = get_variant(name)
        assert isinstance(v, cls) and v.name == name


def test_unknown_variant_names_the_known_ones():
    with pytest.raises(UnknownVariantError, match="backgammon") as e:
        get_variant("chess")
    assert isinstance(e.value, ValueError)


@pytest.mark.parametrize("name", SHORT)
def test_short_family_attributes_and_defaults(name):
    v = get_variant(name)
    assert v.family == "short" and v.numbering is Numbering.OPPOSED
    assert v.checkers == (3 if name == "hypergammon" else 15)
    o = v.options
    assert o.larger_die_rule and o.opening_uses_both_dice and not o.winner_starts_next
    assert not (o.crawford or o.jacoby or o.beavers or o.koks or o.draw_rule)
    russian = name in ("caucasian", "oin_mars")
    assert o.mars_with_cube is not russian
    assert o.cube_progression == ("arithmetic" if russian else "geometric")


def test_long_defaults():
    v = get_variant("long")
    assert v.family == "long" and v.numbering is Numbering.SAME_WAY and v.checkers == 15
    o = v.options
    assert o.larger_die_rule and not o.opening_uses_both_dice and o.winner_starts_next
    assert o.first_turn_two_from_head == "when_blocked"
    assert (o.block_rule, o.block_rule_timing) == ("opponent_ahead", "end_of_turn")
    assert o.home_mars == 2 and not o.koks and not o.draw_rule
    assert not o.mars_with_cube and o.cube_progression == "geometric"


@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("larger_die_rule", False),
        ("opening_uses_both_dice", True),
        ("winner_starts_next", False),
        ("first_turn_two_from_head", "any_double"),
        ("first_turn_two_from_head", "always"),
        ("block_rule", "opponent_in_home"),
        ("block_rule_timing", "every_move"),
        ("home_mars", 3),
        ("koks", True),
        ("draw_rule", True),
        ("mars_with_cube", True),
        ("cube_progression", "arithmetic"),
        ("crawford", True),
        ("jacoby", True),
        ("beavers", True),
    ],
)
def test_every_long_option_value_is_accepted(option, value):
    assert getattr(get_variant("long", **{option: value}).options, option) == value


def test_long_only_options_are_refused_in_short_nardy():
    with pytest.raises(RulesError, match="long nardy only"):
        get_variant("backgammon", home_mars=3)
    assert get_variant("backgammon", crawford=True).options.crawford


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"colour": "red"}, "unknown option"),
        ({"home_mars": 4}, "home_mars"),
        ({"block_rule": "sometimes"}, "opponent_ahead"),
        ({"koks": "yes"}, "true or false"),
    ],
)
def test_bad_options_are_refused_with_a_reason(options, words):
    with pytest.raises(RulesError, match=words):
        get_variant("long", **options)


def test_gulbar_exposes_its_passing_rule_and_says_what_is_missing():
    v = get_variant("gulbar")
    assert isinstance(v, Gulbar) and not v.complete and "opening" in v.missing[0]
    assert v.unplayable_dice_pass_to_opponent and v.double_rolls_again
    # 6-6 on the first turn: 24/18(2), the other two sixes are the opponent's.
    (turn,) = v.legal_turns(v.start(), LIGHT, (6, 6), first_turn=True)
    assert v.unplayed_dice((6, 6), turn) == (6, 6)


def test_khachapuri_has_no_start_but_lets_any_number_leave_the_head():
    v = get_variant("khachapuri")
    assert not v.complete
    with pytest.raises(RulesError, match="starting"):
        v.start()
    pos = get_variant("long").start()
    assert "24/22 24/21" in {t.notation for t in v.legal_turns(pos, LIGHT, (3, 2))}


# -- sanity of positions -------------------------------------------------------------------------


def test_a_sixteenth_checker_is_refused():
    bg = get_variant("backgammon")
    pos = bg.start()
    extra = Position((*pos.points[:5], 6, *pos.points[6:]), pos.bar, pos.off)
    with pytest.raises(InvalidPositionError, match="16 checkers"):
        bg.check_position(extra)


def test_both_colours_on_one_point_cannot_be_built():
    with pytest.raises(InvalidPositionError, match="both colours"):
        Position.from_view(LIGHT, Numbering.OPPOSED, [0, 1] + [0] * 24, [0, 1] + [0] * 24)


def test_long_nardy_bearing_off_with_a_checker_outside_home_is_impossible():
    long = get_variant("long")
    pos = board(long, {7: 1, 3: 13}, {24: 15})  # one light checker borne off
    with pytest.raises(InvalidPositionError, match="outside its home"):
        long.check_position(pos)


def test_a_short_nardy_checker_hit_during_bear_off_is_a_real_position():
    bg = get_variant("backgammon")
    bg.check_position(board(bg, {5: 3}, {3: 1}, bar=(1, 0)))  # borne off and on the bar


def test_winner_is_the_side_with_every_checker_off():
    bg = get_variant("backgammon")
    assert bg.winner(bg.start()) is None
    done = board(bg, {}, {24: 2}, side=DARK)
    assert bg.winner(done) is DARK


@pytest.mark.parametrize("dice", [(0, 3), (7, 1), (3,), (2.0, 3)])
def test_bad_dice_are_refused(dice):
    bg = get_variant("backgammon")
    with pytest.raises(RulesError):
        bg.legal_turns(bg.start(), LIGHT, dice)
