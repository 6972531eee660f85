"""The JSON record: it reads back as it was written, and a record that does not hold together is
refused with a message that says where."""

from __future__ import annotations

import dataclasses
import json

import pytest
from record_games import long_nardy_record, make_record

from nardy.record import (
    CubeAction,
    CubeKind,
    Ending,
    Game,
    Header,
    Record,
    RecordError,
    Result,
    WinKind,
    dumps,
    loads,
    record_from_json,
    record_to_json,
)
from nardy.rules.position import Position, Side


def test_a_generated_match_reads_back_as_written() -> None:
    record = make_record(3, match_to=5)
    text = dumps(record)
    assert loads(text) == record
    data = json.loads(text)
    assert data["score"] == list(record.score())
    assert max(data["score"]) >= 5
    assert data["match_winner"] in ("light", "dark")


def test_a_money_session_carries_its_ledger() -> None:
    record = make_record(12, match_to=None, games=4, jacoby=True, beaver=True)
    data = record_to_json(record)
    assert record_from_json(data) == record
    ledger = data["ledger"]
    assert [line["game"] for line in ledger] == [1, 2, 3, 4]
    balance = 0
    for line, game in zip(ledger, record.games, strict=True):
        sign = 1 if game.result.winner is Side.LIGHT else -1
        assert line["amount"] == sign * game.result.points * 5
        balance += line["amount"]
        assert line["balance"] == balance


def test_long_nardy_with_flags_reads_back() -> None:
    record = long_nardy_record()
    text = dumps(record)
    back = loads(text)
    assert back == record
    assert back.header.options["home_mars"] == 2
    entries = json.loads(text)["games"][0]["entries"]
    assert entries[0]["flags"] == [
        {
            "kind": "illegal",
            "reason": "two checkers left the head",
            "resolution": "replayed",
            "by": "dark",
        }
    ]
    assert entries[0]["void_throws"] == [{"values": [6, 0], "why": "a die cocked against the rim"}]
    assert entries[2]["flags"][0]["resolution"] == "condoned"
    assert back.games[0].result is None  # still being played


def test_a_corrected_position_need_not_follow_from_the_steps() -> None:
    record = long_nardy_record()
    game = record.games[0]
    t = game.entries[1]
    moved = Position(tuple({23: 14, 12: 1, 11: -14, 6: -1}.get(i, 0) for i in range(24)))
    data = record_to_json(record)
    data["games"][0]["entries"][1]["after"] = moved.to_json()
    data["games"][0]["entries"][2]["after"] = Position(
        tuple({23: 12, 21: 1, 22: 1, 12: 1, 11: -14, 6: -1}.get(i, 0) for i in range(24))
    ).to_json()
    with pytest.raises(RecordError, match=r"games\[0\]\.entries\[1\]\.after"):
        record_from_json(data)
    data["games"][0]["entries"][1]["flags"] = [
        {"reason": "misread: 24/20 was seen as 24/19", "resolution": "corrected"}
    ]
    back = record_from_json(data)
    assert back.games[0].entries[1] != t
    assert back.games[0].entries[1].corrected


def _broken(edit) -> str:
    data = record_to_json(make_record(6, match_to=5))  # four games, the last after Crawford
    edit(data)
    with pytest.raises(RecordError) as e:
        record_from_json(data)
    assert isinstance(e.value, ValueError)
    return str(e.value)


def _first_turn(data: dict) -> dict:
    return next(e for e in data["games"][0]["entries"] if "turn" in e)


def test_bad_records_are_refused_saying_where() -> None:
    assert "games[1].score" in _broken(lambda d: d["games"][1].__setitem__("score", [0, 0]))
    assert "header.players" in _broken(lambda d: d["header"]["players"].pop("dark"))
    assert "not one of" in _broken(lambda d: d["games"][0]["result"].__setitem__("kind", "koks"))
    msg = _broken(lambda d: _first_turn(d).__setitem__("dice", [7, 1]))
    assert "entries[0].dice" in msg
    msg = _broken(lambda d: _first_turn(d)["steps"][0].__setitem__(1, 3))
    assert "entries[0]" in msg
    msg = _broken(
        lambda d: d["games"][0]["entries"].insert(0, {"cube": "take", "by": "dark", "value": 2})
    )
    assert "no double" in msg
    msg = _broken(lambda d: d["games"][-1].__setitem__("crawford", not d["games"][-1]["crawford"]))
    assert "crawford" in msg
    assert "version" in _broken(lambda d: d.__setitem__("version", 99))
    assert "score" in _broken(lambda d: d.__setitem__("score", [0, 0]))


def test_text_that_is_not_json_is_refused() -> None:
    with pytest.raises(RecordError, match="not JSON"):
        loads("{nope")


def test_a_drop_and_its_result_agree() -> None:
    start = make_record(1).games[0].start
    entries = (
        CubeAction(Side.LIGHT, CubeKind.DOUBLE, 2),
        CubeAction(Side.DARK, CubeKind.DROP, 1),
    )
    header = Header("backgammon", ("A", "B"), stake=1)
    ok = Result(Side.LIGHT, WinKind.OIN, Ending.DROPPED, 1, 1)
    record = Record(header, (Game(1, (0, 0), start, entries, ok),))
    assert loads(dumps(record)) == record
    assert record.ledger()[-1].balance == 1
    wrong = Result(Side.DARK, WinKind.OIN, Ending.DROPPED, 1, 1)
    with pytest.raises(RecordError, match="drop"):
        loads(dumps(Record(header, (Game(1, (0, 0), start, entries, wrong),))))


def test_a_foul_let_stand_need_not_fit_the_dice() -> None:
    data = record_to_json(long_nardy_record())
    turn = data["games"][0]["entries"][2]
    # Light's 24/21 with 2-1: no die makes it, but the opponent let it stand.
    turn["steps"] = [[24, 21, 0, False], [24, 23, 1, False]]
    turn["play"] = "24/21 24/23"
    after = Position.from_json(turn["after"])
    points = list(after.points)
    points[21], points[20] = 0, 1
    turn["after"] = Position(tuple(points), after.bar, after.off).to_json()
    assert record_from_json(data).games[0].entries[2].foul_stands
    turn["flags"] = []
    with pytest.raises(RecordError, match="die 0"):
        record_from_json(data)


def test_a_long_nardy_draw_scores_a_half_each() -> None:
    base = long_nardy_record()
    game = base.games[0]
    draw = Result(None, WinKind.DRAW, Ending.BORNE_OFF, 1, 0.5, 1)
    first = Game(1, (0, 0), game.start, game.entries, draw)
    match = Record(dataclasses.replace(base.header, stake=None, match_to=3), (first,))
    back = loads(dumps(match))
    assert back.score() == (0.5, 0.5)
    assert json.loads(dumps(match))["score"] == [0.5, 0.5]
    money = Record(base.header, (first,))
    assert money.ledger()[-1].amount == 0 and money.ledger()[-1].winner is None
    with pytest.raises(RecordError, match="draw has no winner"):
        loads(
            dumps(
                Record(
                    base.header,
                    (
                        Game(
                            1,
                            (0, 0),
                            game.start,
                            game.entries,
                            dataclasses.replace(draw, winner=Side.LIGHT),
                        ),
                    ),
                )
            )
        )
