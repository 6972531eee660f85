"""Properties every legal turn has, on positions hypothesis makes."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nardy.rules.posid import from_position_id, position_id
from nardy.rules.position import Position, Side
from nardy.rules.variant import get_variant

NAMES = ("backgammon", "caucasian", "nackgammon", "hypergammon", "long")


@st.composite
def games(draw):
    """A variant, a position that can arise in it, a side and a roll."""
    name = draw(st.sampled_from(NAMES))
    v = get_variant(name)
    n = v.checkers
    points = [0] * 24
    bar = [0, 0]
    off = [0, 0]
    for side in Side:
        if v.family == "short":
            bar[side] = draw(st.integers(0, min(2, n)))
        home_only = v.family == "long" and draw(st.booleans())
        placed = bar[side]
        slots = draw(
            st.lists(st.integers(1, 6 if home_only else 24), min_size=0, max_size=n - placed)
        )
        for p in slots:
            i = v.numbering.to_light(side, p) - 1
            if points[i] * side.sign >= 0:
                points[i] += side.sign
                placed += 1
        off[side] = n - placed
        if v.family == "long" and off[side] and not home_only:
            # Long nardy bears off only from home: put the rest back on the head instead.
            i = v.numbering.to_light(side, 24) - 1
            if points[i] * side.sign >= 0:
                points[i] += off[side] * side.sign
                off[side] = 0
    pos = Position(tuple(points), (bar[0], bar[1]), (off[0], off[1]))
    dice = (draw(st.integers(1, 6)), draw(st.integers(1, 6)))
    side = draw(st.sampled_from(list(Side)))
    return v, pos, side, dice


SETTINGS = settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.filter_too_much]
)


@SETTINGS
@given(games())
def test_checkers_are_conserved(game):
    v, pos, side, dice = game
    for t in v.legal_turns(pos, side, dice):
        for s in Side:
            assert t.after.checkers(s) == pos.checkers(s)


@SETTINGS
@given(games())
def test_no_turn_lands_on_a_closed_point(game):
    v, pos, side, dice = game
    for t in v.legal_turns(pos, side, dice):
        replay = v.play(pos, side, t.steps)  # raises on a landing on a closed point
        assert replay == t.after


@SETTINGS
@given(games())
def test_every_turn_uses_as_many_dice_as_any_other(game):
    v, pos, side, dice = game
    turns = v.legal_turns(pos, side, dice)
    assert len({len(t.steps) for t in turns}) == 1
    assert len({t.after for t in turns}) == len(turns)  # distinct positions
    assert len({t.notation for t in turns}) == len(turns)


@SETTINGS
@given(games())
def test_position_ids_round_trip(game):
    v, pos, side, _ = game
    if v.family != "short":
        return
    assert from_position_id(position_id(pos, side), side, v.checkers) == pos


@SETTINGS
@given(games())
def test_json_form_round_trips(game):
    _, pos, _, _ = game
    assert Position.from_json(str(pos)) == pos
