"""The referee's record becomes the shared record, and from it the .mat and SGF files.

The referee is run here on its own stand-in rules (``tests/referee``), through the events of a
money game with a cube taken and dropped, an illegal play replayed, and a Crawford match.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "referee"))

from referee_events import act, board, throw
from referee_feeder import LEGAL, SETUP, session
from referee_stand_in import START, after, options, rules

from nardy.record import CubeKind, Ending, PlayedTurn, RecordError, Resignation, loads
from nardy.record import dumps as record_dumps
from nardy.record.mat import write_mat
from nardy.record.sgf import write_sgf
from nardy.referee.export import record_of, to_record
from nardy.referee.setup import TableSetup
from nardy.referee.table import Table, fold
from nardy.rules.position import Side

L, D = Side.LIGHT, Side.DARK


def money_table() -> Table:
    return fold(SETUP, session(), rules(LEGAL))


def test_a_money_game_from_the_referee() -> None:
    table = money_table()
    record = record_of(table)
    game = record.games[0]
    turns = game.turns
    assert [t.notation for t in turns] == ["8/5 6/5", "24/14", "13/8 13/11", "24/14"]
    assert turns[0].steps[0].start == 8 and turns[0].steps[0].die in (3, 1)
    # The illegal 13/9 13/7 was replayed: the turn that stands is 24/14, flagged as replayed.
    assert [f.resolution.value for f in turns[1].flags] == ["replayed"]
    cube = [(e.kind, e.side, e.value) for e in game.entries if not isinstance(e, PlayedTurn)]
    assert cube == [
        (CubeKind.DOUBLE, D, 2),
        (CubeKind.TAKE, L, 2),
        (CubeKind.DOUBLE, L, 4),
        (CubeKind.DROP, D, 2),
    ]
    assert game.result.ending is Ending.DROPPED and game.result.points == 2
    assert record.ledger()[-1].balance == table.record()["ledger"]["balance"]["light"] == 2
    # The same record comes from the referee's JSON, as `nardy replay --json` prints it.
    printed = json.loads(json.dumps(table.record()))
    assert to_record(printed, START) == record
    assert loads(record_dumps(record)) == record


def test_the_referee_record_exports_to_mat_and_sgf() -> None:
    record = record_of(money_table())
    mat = write_mat(record)
    assert "  1)                              31: 8/5 6/5" not in mat  # light starts: left column
    assert " 31: 8/5 6/5" in mat and " Doubles => 2" in mat and " Drops" in mat
    sgf = write_sgf(record)
    assert ";W[31hefe]" in sgf and "RE[W+2]" in sgf


def test_a_crawford_match_with_resignations() -> None:
    legal = {(L, (3, 1)): ["8/5 6/5"]}
    table = Table(
        TableSetup(match_to=3, options={"crawford": True}),
        rules(legal, options=options(crawford=True)),
    )
    table.feed_all([throw(100, 3, 1), board(200, after(START, L, "8/5 6/5"))])
    table.feed_all([act(300, "resign", "dark", level=2), act(400, "new_game", "director")])
    table.feed_all([throw(500, 3, 1), board(600, after(START, L, "8/5 6/5"))])
    table.feed_all([act(700, "resign", "light"), act(800, "new_game", "director")])
    table.feed_all([throw(900, 3, 1), act(1000, "resign", "dark")])
    record = record_of(table)
    assert [g.crawford for g in record.games] == [False, True, False]
    assert [g.score for g in record.games] == [(0, 0), (2, 0), (2, 1)]
    assert record.match_winner() is L
    last = [e for e in record.games[0].entries if isinstance(e, Resignation)]
    assert last == [Resignation(D, 2, True)]
    assert "RU[Crawford:CrawfordGame]" in write_sgf(record)


def test_a_garbled_referee_record_is_a_record_error() -> None:
    data = money_table().record()
    data["games"][0]["turns"][0]["steps"][0] = [8, 30, 3, False]
    with pytest.raises(RecordError):
        to_record(data, START)
    del data["setup"]
    with pytest.raises(RecordError, match="not a referee record"):
        to_record(data, START)
