"""History with Flask's test client: the list, a match's games, stepping, downloads, bad input.

The records come from the record tests' generator (random legal games made with gnubg's move
generator, ``tests/record/record_games.py``), a long nardy session with flags, and a live table
run by the referee on its stand-in rules (``tests/referee``).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "record"))
sys.path.insert(0, str(HERE.parent / "referee"))

from record_games import long_nardy_record, make_record  # noqa: E402
from referee_feeder import LEGAL, SETUP, session  # noqa: E402
from referee_stand_in import rules  # noqa: E402

from nardy.record import PlayedTurn, dumps, loads  # noqa: E402
from nardy.record.mat import write_mat  # noqa: E402
from nardy.record.sgf import write_sgf  # noqa: E402
from nardy.referee.live import LiveTable  # noqa: E402
from nardy.webui import create_app  # noqa: E402
from nardy.webui.game_steps import game_frames  # noqa: E402
from nardy.webui.history import History  # noqa: E402

MATCH = make_record(5, match_to=5, cube_rate=0.05)  # three games, cube actions
MONEY = make_record(10, match_to=None, games=2, cube_rate=0.04, jacoby=True, beaver=True)
FOULS = make_record(2, match_to=3, foul_rate=0.1)  # a foul let stand: no .mat
LONG = long_nardy_record()  # long nardy: JSON only


def live_table(path: Path, events: int | None = None) -> LiveTable:
    table = LiveTable.open(path, SETUP, rules=rules(LEGAL))
    for event in session()[:events]:
        table.submit(event)
    return table


@pytest.fixture
def history(tmp_path) -> History:
    folder = tmp_path / "history"
    folder.mkdir()
    (folder / "club-night.json").write_text(dumps(MONEY))
    (folder / "garbled.json").write_text('{"header": ')
    os.utime(folder / "garbled.json", (1e9, 1e9))  # older: listed after club-night
    h = History(folder)
    h.add_record("match", MATCH)
    h.add_record("fouls", FOULS)
    h.add_record("long", LONG)
    return h


@pytest.fixture
def app(hub, history):
    """The dashboard with the conftest's fake tables and the records above (overrides conftest's
    ``app``, so ``client`` and ``live_server`` serve History too)."""
    return create_app(
        {"TESTING": True, "SSE_KEEPALIVE_S": 0.05, "SSE_MAX_S": 0.3}, hub=hub, history=history
    )


def rows(html: str) -> dict[str, str]:
    """The list's rows by record id, as text."""
    found = re.findall(r'<tr data-rid="([^"]+)"[^>]*>(.*?)</tr>', html, re.S)
    return {rid: re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", body)).strip() for rid, body in found}


def test_the_list_names_every_record_with_its_score_and_flags(client) -> None:
    html = client.get("/history").get_data(as_text=True)
    listed = rows(html)
    assert list(listed) == ["match", "fouls", "long", "club-night.json", "garbled.json"]
    light, dark = MATCH.score()
    assert f"{light}–{dark} of 5" in listed["match"] and "backgammon" in listed["match"]
    assert "Light Player – Dark Player" in listed["match"]
    games = len(MATCH.games)
    assert f" {games} 0 " in listed["match"]  # games, then flags
    assert "⚑ 2" in listed["long"] and "long" in listed["long"] and "UAH" in listed["long"]
    balance = MONEY.ledger()[-1].balance
    assert f"light {balance:+g} EUR" in listed["club-night.json"]
    assert "cannot be read" in listed["garbled.json"]
    assert 'href="/history/garbled.json"' not in html


def test_history_is_linked_from_every_page_and_the_club_view(client) -> None:
    club = client.get("/").get_data(as_text=True)
    assert club.count('href="/history"') == 2  # the header and the club's own link
    assert 'href="/history"' in client.get("/table/t1").get_data(as_text=True)


def test_a_match_page_lists_its_games(client) -> None:
    html = client.get("/history/match").get_data(as_text=True)
    for g in MATCH.games:
        assert f'href="/history/match/game/{g.number}"' in html
        assert f"<td>{len(g.turns)}</td>" in html
    winner = MATCH.header.player(MATCH.match_winner())
    assert f"{winner} wins the match" in html
    for fmt in ("mat", "sgf", "json"):
        assert f'href="/history/match/download.{fmt}"' in html


def test_a_money_session_shows_its_ledger(client) -> None:
    html = client.get("/history/club-night.json").get_data(as_text=True)
    for line in MONEY.ledger():
        assert f"{line.amount:+g} → {line.balance:+g}" in html


def test_stepping_through_a_game(client) -> None:
    game = MATCH.games[1]
    frames = game_frames(MATCH, game)
    assert len(frames) == len(game.entries) + 1
    first = client.get("/history/match/game/2").get_data(as_text=True)
    embedded = json.loads(
        re.search(r'<script type="application/json" id="frames">(.*?)</script>', first, re.S).group(
            1
        )
    )
    assert [f["text"] for f in embedded] == [f["text"] for f in frames]
    k = next(i for i, e in enumerate(game.entries, 1) if isinstance(e, PlayedTurn))
    turn = game.entries[k - 1]
    page = client.get(f"/history/match/game/2?turn={k}").get_data(as_text=True)
    now = re.search(r'<p class="now" id="now">(.*?)</p>', page).group(1)
    assert f"{turn.dice[0]}-{turn.dice[1]}: {turn.notation}" in now
    board = re.search(r'<div class="board-wrap" id="board">(.*?)</div>', page, re.S).group(1)
    assert board == frames[k]["svg"] != frames[0]["svg"]
    assert frames[-1]["result"] in page


def test_flags_and_their_resolution_are_in_the_move_list(client) -> None:
    html = client.get("/history/long/game/1").get_data(as_text=True)
    assert "two checkers left the head — replayed by dark" in html
    assert "two checkers left the head — condoned" in html
    assert "void throw 6-0: a die cocked against the rim" in html


def test_downloads_are_the_writers_output(client) -> None:
    r = client.get("/history/match/download.mat")
    assert r.status_code == 200
    assert r.get_data(as_text=True) == write_mat(MATCH)
    assert r.headers["Content-Type"].startswith("text/plain")
    assert r.headers["Content-Disposition"] == 'attachment; filename="match.mat"'
    r = client.get("/history/match/download.sgf")
    assert r.get_data(as_text=True) == write_sgf(MATCH)
    assert r.headers["Content-Type"].startswith("application/x-go-sgf")
    r = client.get("/history/club-night.json/download.json")
    assert r.headers["Content-Type"].startswith("application/json")
    assert r.headers["Content-Disposition"] == 'attachment; filename="club-night.json"'
    assert loads(r.get_data(as_text=True)) == MONEY
    # SGF holds a foul let stand (as a position set by hand), .mat cannot.
    assert client.get("/history/fouls/download.sgf").get_data(as_text=True) == write_sgf(FOULS)


@pytest.mark.parametrize(
    ("rid", "fmt", "reason"),
    [("long", "mat", "backgammon family only"), ("long", "sgf", "backgammon family only"),
     ("fouls", "mat", "foul let stand")],
)  # fmt: skip
def test_a_format_that_cannot_hold_the_record_is_refused_with_the_reason(
    client, rid, fmt, reason
) -> None:
    r = client.get(f"/history/{rid}/download.{fmt}")
    assert r.status_code == 422
    assert reason in r.get_data(as_text=True)
    page = client.get(f"/history/{rid}").get_data(as_text=True)
    assert f'href="/history/{rid}/download.{fmt}"' not in page
    assert reason in page
    r = client.get(f"/history/{rid}/download.{fmt}", headers={"Accept": "application/json"})
    assert r.status_code == 422 and reason in r.get_json()["error"]


@pytest.mark.parametrize(
    ("url", "status"),
    [
        ("/history/nope", 404),
        ("/history/nope/game/1", 404),
        ("/history/nope/download.mat", 404),
        ("/history/match/game/99", 404),
        ("/history/match/game/x", 404),
        ("/history/match/download.exe", 404),
        ("/history/match/download.", 404),
        ("/history/match/game/1?turn=-1", 400),
        ("/history/match/game/1?turn=abc", 400),
        ("/history/match/game/1?turn=100000", 400),
        ("/history/garbled.json", 422),
        ("/history/garbled.json/download.json", 422),
        ("/history/..%2f..%2fetc%2fpasswd", 404),
    ],
)
def test_bad_requests_are_4xx(client, url, status) -> None:
    r = client.get(url)
    assert r.status_code == status, r.get_data(as_text=True)


def test_posting_to_history_is_refused_not_a_crash(client) -> None:
    assert client.post("/history/match/download.mat").status_code in (403, 405)


def test_a_live_table_shows_its_game_as_it_goes(tmp_path) -> None:
    table = live_table(tmp_path / "t1.sqlite", events=6)
    history = History(tmp_path)  # the table's own store lies in the history folder too
    assert history.add_table("t1", table) == "table-t1"
    client = create_app({"TESTING": True}, history=history).test_client()
    listed = rows(client.get("/history").get_data(as_text=True))
    assert list(listed) == ["table-t1"]  # its store file is not listed a second time
    assert "live" in listed["table-t1"] and "in play" not in listed["table-t1"]
    page = client.get("/history/table-t1").get_data(as_text=True)
    assert "in play" in page and "<td>1</td>" in page
    for event in session()[6:]:
        table.submit(event)
    got = client.get("/history/table-t1/download.json").get_data(as_text=True)
    assert loads(got) == table.game_record()
    assert len(loads(got).games[0].turns) == 4
    listed = rows(client.get("/history").get_data(as_text=True))
    assert "⚑ 1" in listed["table-t1"]  # the replayed illegal play
    table.close()


class Station:
    """What ``nardy serve`` puts in the hub: a dashboard table holding its LiveTable."""

    def __init__(self, live: LiveTable) -> None:
        self.live = live

    def snapshot(self) -> dict:
        return {"name": "station"}

    def act(self, kind: str, by: str, params: dict) -> None:
        raise ValueError("not here")


def test_the_hubs_live_tables_are_shown_without_registering_them(hub, tmp_path) -> None:
    table = live_table(tmp_path / "t9.sqlite")
    hub.add("t9", Station(table))
    client = create_app({"TESTING": True, "HISTORY_DIR": str(tmp_path)}, hub=hub).test_client()
    listed = rows(client.get("/history").get_data(as_text=True))
    assert list(listed) == ["table-t9"]  # the fake tables t1, t2 have no record; no store twice
    assert "live table t9" in listed["table-t9"]
    got = client.get("/history/table-t9/download.json").get_data(as_text=True)
    assert loads(got) == table.game_record()
    table.close()


def test_a_table_store_in_the_history_folder(tmp_path) -> None:
    table = live_table(tmp_path / "friday.sqlite")
    expected = table.game_record()
    table.close()
    client = create_app({"TESTING": True, "HISTORY_DIR": str(tmp_path)}).test_client()
    listed = rows(client.get("/history").get_data(as_text=True))
    assert "store friday.sqlite" in listed["friday.sqlite"]
    got = client.get("/history/friday.sqlite/download.json").get_data(as_text=True)
    assert loads(got) == expected
    r = client.get("/history/friday.sqlite/download.mat")
    assert r.headers["Content-Disposition"] == 'attachment; filename="friday.mat"'
    assert r.get_data(as_text=True) == write_mat(expected)


def test_the_referees_own_json_in_the_history_folder(tmp_path) -> None:
    table = live_table(tmp_path / "t.sqlite")
    (tmp_path / "replayed.json").write_text(json.dumps(table.record()))
    expected = table.game_record()
    table.close()
    (tmp_path / "t.sqlite").unlink()
    client = create_app({"TESTING": True, "HISTORY_DIR": str(tmp_path)}).test_client()
    got = client.get("/history/replayed.json/download.json").get_data(as_text=True)
    assert loads(got) == expected


def test_a_recorded_session_folder_is_replayed_when_opened(tmp_path) -> None:
    """A fixture session with moves entered by hand (no frames): replayed through the referee,
    it shows its truth (``truth.json``): a foul condoned, dark winning 2 from light."""
    fixture = HERE.parent / "fixtures" / "sessions" / "entered_no_camera"
    truth = json.loads((fixture / "truth.json").read_text())
    shutil.copytree(fixture, tmp_path / "friday-night")
    (tmp_path / "broken").mkdir()
    (tmp_path / "broken" / "session.json").write_text('{"players": "nobody"}')
    client = create_app({"TESTING": True, "HISTORY_DIR": str(tmp_path)}).test_client()
    listed = rows(client.get("/history").get_data(as_text=True))
    assert "Ivan – Jana" in listed["friday-night"] and "not replayed yet" in listed["friday-night"]
    assert "cannot be read" in listed["broken"]
    html = client.get("/history/friday-night/game/1").get_data(as_text=True)
    flagged = [e for e in truth["games"][0]["entries"] if e.get("flags")]
    assert [f for e in flagged for f in e["flags"]] == [["illegal", "condoned"]]
    assert "— condoned" in html
    listed = rows(client.get("/history").get_data(as_text=True))
    assert f"light {truth['balance_light']:+g}" in listed["friday-night"]
    assert "⚑ 1" in listed["friday-night"]
    r = client.get("/history/friday-night/download.mat")
    assert r.status_code == 422 and "foul let stand" in r.get_data(as_text=True)
    assert client.get("/history/broken").status_code == 422


def test_a_record_id_is_checked() -> None:
    with pytest.raises(ValueError, match="record id"):
        History().add_record("../x", MATCH)


@pytest.mark.gnubg
def test_gnu_backgammon_imports_the_downloaded_mat(client, tmp_path) -> None:
    """The real gnubg reads the download and reaches the record's games, move by move (the
    record tests' gnubg helper and comparison)."""
    from test_gnubg_import import _compare, run_gnubg

    path = tmp_path / "match.mat"
    path.write_bytes(client.get("/history/match/download.mat").data)
    [got] = run_gnubg([{"path": str(path)}], tmp_path)
    games, turns, _ = _compare(MATCH, "mat", got)
    assert games == len(MATCH.games) and turns == sum(len(g.turns) for g in MATCH.games)


SCREENSHOTS = HERE.parents[1] / "docs" / "screenshots"


@pytest.mark.browser
def test_stepping_and_downloading_in_the_browser(page, live_server) -> None:
    page.goto(f"{live_server}/")
    page.click("header.top >> text=History")
    page.click('tr[data-rid="match"] a')
    page.click('a[href="/history/match/game/2"]')
    page.evaluate("window.__sameDocument = true")
    last = len(MATCH.games[1].entries)
    assert page.inner_text("#where") == f"0 / {last}"
    start = page.inner_html("#board")
    page.click("#next")
    page.wait_for_function("document.getElementById('where').textContent.startsWith('1 /')")
    first = MATCH.games[1].entries[0]
    assert f"{first.dice[0]}-{first.dice[1]}: {first.notation}" in page.inner_text("#now")
    assert page.inner_html("#board") != start
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowLeft")
    assert page.inner_text("#where") == f"2 / {last}"
    assert page.url.endswith("?turn=2")
    page.keyboard.press("End")
    assert page.inner_text("#where") == f"{last} / {last}"
    assert "wins" in page.inner_text("#result")
    page.click("#moves li[data-turn='3']")
    assert page.inner_text("#where") == f"3 / {last}"
    assert page.evaluate("window.__sameDocument") is True  # stepped without reloading
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "history.png"))

    page.goto(f"{live_server}/history/match")
    with page.expect_download() as info:
        page.click("#download-mat")
    download = info.value
    assert download.suggested_filename == "match.mat"
    assert Path(download.path()).read_text(encoding="utf-8") == write_mat(MATCH)


@pytest.mark.browser
def test_history_fits_a_phone_screen(browser, live_server) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    page = context.new_page()
    widths = {}
    for url in ("/history", "/history/match", "/history/match/game/1"):
        page.goto(live_server + url)
        widths[url] = page.evaluate("document.documentElement.scrollWidth")
    board = page.locator("#board svg").bounding_box()
    context.close()
    assert all(w <= 390 for w in widths.values()), f"pages scroll sideways on a phone: {widths}"
    assert board["width"] >= 330, "the board is too small to read on a phone"
