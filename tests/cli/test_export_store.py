"""``nardy export`` reads a live table's SQLite store: the game as the table recorded it."""

from __future__ import annotations

import json
import subprocess
import sys

from nardy.referee.events import DiceThrown
from nardy.referee.live import LiveTable
from nardy.referee.setup import TableSetup
from nardy.referee.store import EventStore
from nardy.station.station import TableStation


def _export(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "nardy", "export", *args],
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_a_table_store_exports_the_game_it_holds(tmp_path):
    setup = TableSetup(variant="backgammon", stake=2, currency="EUR", move_source="entered")
    station = TableStation(LiveTable(EventStore(tmp_path / "table.sqlite"), setup), name="T")
    station.submit(DiceThrown(100, "cup", (5, 2), True))
    station.act("enter_turn", "light", {"play": "13/8 13/11"})
    station.live.close()
    proc = _export(str(tmp_path / "table.sqlite"), "--to", "json")
    assert proc.returncode == 0, proc.stderr
    game = json.loads(proc.stdout)["games"][0]
    (turn,) = game["entries"]
    assert (turn["turn"], turn["dice"], turn["play"]) == ("light", [5, 2], "13/11 13/8")
    assert turn["after"]["points"][7] == 4 and turn["after"]["points"][12] == 3


def test_a_file_that_is_not_a_store_is_refused(tmp_path):
    bad = tmp_path / "table.sqlite"
    bad.write_bytes(b"not a database at all" * 10)
    proc = _export(str(bad), "--to", "json")
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr and len(proc.stderr.strip().splitlines()) == 1
    proc = _export(str(tmp_path / "missing.sqlite"), "--to", "json")
    assert proc.returncode == 2 and "no such table store" in proc.stderr
