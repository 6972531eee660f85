"""The store: events logged before they are acted on, and a table that survives being killed."""

from __future__ import annotations

import json
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from referee_feeder import LEGAL, SETUP, session
from referee_stand_in import rules

from nardy.referee.events import event_from_json, event_to_json
from nardy.referee.live import LiveTable, TableClosed
from nardy.referee.store import EventStore, StoreError
from nardy.referee.table import fold

FEEDER = Path(__file__).with_name("referee_feeder.py")


def test_events_round_trip_through_their_json_form():
    for e in session():
        assert event_from_json(json.loads(json.dumps(event_to_json(e)))) == e


def test_the_log_is_wal_and_append_only(tmp_path):
    with EventStore(tmp_path / "t.sqlite") as store:
        store.set_setup(SETUP)
        store.append(session()[0])
    db = sqlite3.connect(tmp_path / "t.sqlite")
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        db.execute("DELETE FROM events")


def test_a_store_refuses_a_different_setup(tmp_path):
    LiveTable.open(tmp_path / "t.sqlite", SETUP, rules=rules(LEGAL)).close()
    with pytest.raises(StoreError):
        LiveTable.open(tmp_path / "t.sqlite", SETUP.__class__(match_to=5), rules=rules(LEGAL))


def test_an_event_after_the_table_is_closed_is_refused_and_the_log_kept(tmp_path):
    # a feed's thread can outlive the station's stop: its last event must not reach a closed
    # database (sqlite3.ProgrammingError in the thread) but be refused in words
    events = session()
    table = LiveTable.open(tmp_path / "t.sqlite", SETUP, rules=rules(LEGAL))
    table.submit(events[0])
    table.close()
    with pytest.raises(TableClosed, match="closed"):
        table.submit(events[1])
    table.close()  # closing twice is no error
    with EventStore(tmp_path / "t.sqlite") as store:
        assert list(store.events()) == [events[0]]


def test_subscribers_hear_every_event_and_can_stop(tmp_path):
    table = LiveTable.open(tmp_path / "t.sqlite", SETUP, rules=rules(LEGAL))
    heard = []
    stop = table.subscribe(lambda view: heard.append(view.waiting))
    events = session()
    table.submit(events[0])
    table.submit(events[1])
    stop()
    table.submit(events[2])
    assert heard == ["move", "move"] and table.view().waiting == "throw"


def test_killed_mid_session_the_table_carries_on_with_the_same_record(tmp_path):
    db = tmp_path / "table.sqlite"
    proc = subprocess.Popen(
        [sys.executable, str(FEEDER), str(db), "--stall", "8"],
        stdout=subprocess.PIPE,
        text=True,
        env={"PYTHONPATH": "src", "PATH": "/usr/bin:/bin"},
        cwd=Path(__file__).parents[2],
    )
    assert proc.stdout is not None
    logged = 0
    while logged < 8:
        logged = int(proc.stdout.readline())
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert proc.returncode == -signal.SIGKILL
    with EventStore(db) as store:
        kept = len(store)
    assert kept == 8 < len(session())  # killed midway, nothing lost that was logged

    restarted = LiveTable.open(db, rules=rules(LEGAL))
    assert restarted.view().turns  # it carries on from the log, not from scratch
    restarted.close()
    done = subprocess.run(
        [sys.executable, str(FEEDER), str(db)],
        capture_output=True,
        text=True,
        env={"PYTHONPATH": "src", "PATH": "/usr/bin:/bin"},
        cwd=Path(__file__).parents[2],
        check=True,
    )
    assert done.stdout.strip().endswith("done")
    table = LiveTable.open(db, rules=rules(LEGAL))
    expected = fold(SETUP, session(), rules(LEGAL)).record()
    assert table.record() == expected
    assert expected["games"][0]["result"]["points"] == 2
    assert len(table.store) == len(session())
