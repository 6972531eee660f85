"""The referee's view, as the dashboard's snapshot."""

from nardy.station.view import snapshot

START = {"points": [0] * 24, "bar": [0, 0], "off": [0, 0]}


def _view(**kw):
    base = {
        "phase": "move",
        "waiting": "move",
        "on_turn": "light",
        "dice": [6, 4],
        "position": START,
        "cube": {"value": 2, "owner": "dark"},
        "crawford": False,
        "flag": None,
        "turns": [],
        "score": {},
        "cup": "connected",
        "camera": "lost",
        "notices": [],
    }
    return {**base, **kw}


def _snap(view, money=None):
    return snapshot(
        view,
        name="T",
        variant="backgammon",
        family="short",
        players={"light": "A", "dark": "B"},
        money=money,
    )


def test_an_illegal_play_is_a_flag_the_opponent_answers():
    flag = {
        "kind": "illegal",
        "reason": "6-4 can be played in full",
        "nearest": ["13/3"],
        "by": "light",
    }
    s = _snap(_view(flag=flag))
    assert s["flag"] == {
        "reason": "6-4 can be played in full",
        "offender": "light",
        "answer_by": "dark",
        "nearest": ["13/3"],
    }
    assert s["question"] is None


def test_a_misread_is_a_question_not_a_foul():
    flag = {"kind": "misread", "reason": "a checker appeared on point 5", "nearest": ["8/4 6/4"]}
    s = _snap(_view(flag=flag))
    assert s["flag"] is None
    assert s["question"] == {"text": "a checker appeared on point 5", "choices": ["8/4 6/4"]}


def test_match_score_or_money_ledger():
    match = _snap(_view(score={"match_to": 5, "light": 2, "dark": 4}, crawford=True))
    assert match["score"] == {"match_to": 5, "light": 2, "dark": 4, "crawford": True}
    money = _snap(
        _view(score={"light": 10.0, "dark": -10.0}), money={"stake": 5, "currency": "EUR"}
    )
    assert money["ledger"] == {"stake": 5, "currency": "EUR", "light": 10.0, "dark": -10.0}
    assert "score" not in money


def test_devices_and_dice():
    s = _snap(_view())
    assert s["devices"] == {"cup": "connected", "camera": "lost"}
    assert s["dice"] == {"values": [6, 4], "used": [], "by": "light"}
    assert _snap(_view(dice=[]))["dice"] is None


def test_a_table_without_camera_says_moves_are_entered():
    s = snapshot(
        _view(),
        name="T",
        variant="backgammon",
        family="short",
        players={"light": "A", "dark": "B"},
        money=None,
        move_source="entered",
    )
    assert s["move_source"] == "entered"
    assert _snap(_view())["move_source"] == "camera"
