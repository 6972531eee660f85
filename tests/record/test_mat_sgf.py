"""What the .mat and SGF writers say, beyond what gnubg's import checks: the header keys, the
variant notes, and the records they refuse."""

from __future__ import annotations

import dataclasses

import pytest
from record_games import long_nardy_record, make_record

from nardy.record import CubeAction, CubeKind, Record
from nardy.record.export_common import ExportError
from nardy.record.mat import write_mat
from nardy.record.sgf import write_sgf


def _with(record: Record, **changes) -> Record:
    return Record(dataclasses.replace(record.header, **changes), record.games)


def test_mat_header_has_xg_keys() -> None:
    record = make_record(2, match_to=5)
    text = write_mat(_with(record, event="Club night", time="19:30"))
    for line in (
        '; [Player 1 "Light Player"]',
        '; [Player 2 "Dark Player"]',
        '; [Event "Club night"]',
        '; [EventDate "2026.11.29"]',
        '; [EventTime "19:30"]',
        '; [Variation "Backgammon"]',
        '; [Crawford "On"]',
        '; [Jacoby "Off"]',
        '; [Beaver "Off"]',
        '; [CubeLimit "1024"]',
        " 5 point match",
        " Game 1",
    ):
        assert line in text.splitlines(), line
    assert text.count(" Game ") == len(record.games)


def test_money_session_is_a_zero_point_match_with_jacoby_and_beaver() -> None:
    record = make_record(11, match_to=None, games=2, jacoby=True, beaver=True, cube_limit=64)
    text = write_mat(record)
    assert " 0 point match" in text
    assert '; [Jacoby "On"]' in text and '; [Beaver "On"]' in text
    assert '; [CubeLimit "64"]' in text and '; [Crawford "Off"]' in text
    sgf = write_sgf(record)
    assert sgf.count("(;FF[4]GM[6]") == 2 and "RU[Jacoby]" in sgf and "MI[length:0]" in sgf


@pytest.mark.parametrize("variant", ["caucasian", "oin_mars"])
def test_short_nardy_is_written_as_backgammon_with_a_note(variant: str) -> None:
    record = make_record(4, variant=variant, match_to=3)
    mat = write_mat(record)
    assert '; [Variation "Backgammon"]' in mat
    assert f'; [Note "nardy variant {variant}:' in mat
    sgf = write_sgf(record)
    assert f"GC[nardy variant {variant}:" in sgf


def test_nackgammon_and_hypergammon_name_their_variation() -> None:
    assert '; [Variation "Nackgammon"]' in write_mat(make_record(5, variant="nackgammon"))
    assert "RU[Crawford:Hypergammon3]" in write_sgf(make_record(6, variant="hypergammon"))


def test_sgf_crawford_game_and_result() -> None:
    records = [make_record(s, match_to=5) for s in range(6)]
    record = next(r for r in records if any(g.crawford for g in r.games))
    sgf = write_sgf(record)
    trees = sgf.split("(;")[1:]
    for game, tree in zip(record.games, trees, strict=True):
        r = game.result
        colour = "W" if r.winner.name == "LIGHT" else "B"
        resigned = "R" if r.ending.value == "resigned" else ""
        assert f"RE[{colour}+{r.points}{resigned}]" in tree
        assert ("RU[Crawford:CrawfordGame]" in tree) == game.crawford


def test_long_nardy_is_json_only() -> None:
    with pytest.raises(ExportError, match="JSON"):
        write_mat(long_nardy_record())
    with pytest.raises(ExportError, match="JSON"):
        write_sgf(long_nardy_record())


def test_a_cube_on_three_cannot_be_written() -> None:
    record = make_record(7, match_to=None, games=1, cube_rate=0)
    game = record.games[0]
    entries = (
        game.entries[0],
        CubeAction(game.entries[1].side, CubeKind.DOUBLE, 3),
        CubeAction(game.entries[0].side, CubeKind.TAKE, 3),
        *game.entries[1:],
    )
    result = dataclasses.replace(game.result, cube=3, points=game.result.points * 3)
    odd = Record(record.header, (dataclasses.replace(game, entries=entries, result=result),))
    with pytest.raises(ExportError, match="doubling cube"):
        write_mat(odd)


def test_formats_by_name() -> None:
    from nardy.record import RecordError, dumps
    from nardy.record.formats import FORMATS, render

    record = make_record(2, match_to=5)
    assert render(record, "json") == dumps(record) + "\n"
    assert render(record, "mat") == write_mat(record)
    assert {f.suffix for f in FORMATS.values()} == {".mat", ".sgf", ".json"}
    with pytest.raises(RecordError, match="no format"):
        render(record, "xls")
    with pytest.raises(RecordError, match="JSON"):
        render(long_nardy_record(), "sgf")
