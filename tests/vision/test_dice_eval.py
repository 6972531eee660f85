"""Scoring dice against the rendered truth: a die the truth calls hidden counts for nothing."""

from __future__ import annotations

from nardy.vision.dice import DieReading
from nardy.vision.dice_eval import DiceScore, fixture_truth, score_image


def _reading(x: float, y: float, value: int) -> DieReading:
    return DieReading(value, True, (x, y), (round(x) - 10, round(y) - 10, 20, 20), 0.9)


def _truth(*dice: tuple[float, float, int, bool]) -> dict:
    out = []
    for x, y, value, hidden in dice:
        d = {"value": value, "flat": True, "where": "left", "center": [x, y]}
        d |= {"box": [x - 10, y - 10, 20, 20], "visible": 0.0 if hidden else 1.0}
        out.append(d | ({"hidden": True} if hidden else {}))
    return {"dice": out}


def test_a_hidden_die_is_neither_found_nor_missed_and_a_reading_on_it_is_not_false():
    truth = fixture_truth(_truth((100, 100, 3, False), (200, 100, 4, True), (300, 100, 5, True)))
    assert [t.hidden for t in truth] == [False, True, True]
    score = DiceScore()
    # the die in view read right, the first hidden one read too, the second not at all
    score_image(score, "x", [_reading(101, 100, 3), _reading(200, 101, 6)], truth)
    assert (score.dice, score.found, score.right, score.false, score.hidden) == (1, 1, 1, 0, 2)
    assert score.wrong == []
    assert "2 hidden dice left out" in score.line("rendered")


def test_a_hidden_die_takes_no_reading_from_a_die_in_view_beside_it():
    # the hidden die comes first in the truth and lies as near the one reading
    truth = fixture_truth(_truth((110, 100, 2, True), (100, 100, 3, False)))
    score = DiceScore()
    score_image(score, "x", [_reading(105, 100, 3)], truth)
    assert (score.dice, score.found, score.right, score.false) == (1, 1, 1, 0)


def test_a_reading_is_scored_against_the_die_it_lies_on():
    """Two dice lying together, one found: the reading counts for the die under it, the other
    die as missed, whatever the truth's order (the reader is right about the die it read)."""
    from nardy.vision.dice_eval import match

    for order in (1, -1):
        truth = fixture_truth(_truth((100, 100, 2, False), (100, 118, 3, False)))[::order]
        reading = _reading(101, 116, 3)
        assert [truth[i].value for i, k in enumerate(match([reading], truth)) if k == 0] == [3]
        score = DiceScore()
        score_image(score, "x", [reading], truth)
        assert (score.dice, score.found, score.right, score.false) == (2, 1, 1, 0)
