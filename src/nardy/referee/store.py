"""The table's store: an append-only log of input events in SQLite (WAL mode).

An event is committed to the log BEFORE the referee acts on it; the referee's state is always
the fold of the log, so a process killed at any moment restarts with the same record. The
latest record (derived, rewritable) is kept beside the log for exports and the history pages.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from nardy.referee.events import Event, event_from_json, event_to_json
from nardy.referee.setup import TableSetup

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS events (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    t_ms INTEGER NOT NULL,
    body TEXT NOT NULL
);
CREATE TRIGGER IF NOT EXISTS events_append_only_u BEFORE UPDATE ON events
    BEGIN SELECT RAISE(ABORT, 'the event log is append-only'); END;
CREATE TRIGGER IF NOT EXISTS events_append_only_d BEFORE DELETE ON events
    BEGIN SELECT RAISE(ABORT, 'the event log is append-only'); END;
"""


class StoreError(ValueError):
    """A store file that is not a table's log, or a setup that does not match it."""


class EventStore:
    """One table's log. Thread-safe: one connection, one lock."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self._lock = threading.Lock()
        try:
            self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            # FULL: a committed event survives a power cut, not only a killed process.
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.executescript(_SCHEMA)
        except sqlite3.DatabaseError as e:
            raise StoreError(f"{self.path}: not a table store ({e})") from None

    # -- setup --------------------------------------------------------------------------------

    def setup(self) -> TableSetup | None:
        row = self._get("setup")
        return None if row is None else TableSetup.from_json(row)

    def set_setup(self, setup: TableSetup) -> None:
        with self._lock:
            self._db.execute(
                "INSERT INTO meta(key, value) VALUES('setup', ?) ON CONFLICT(key) DO NOTHING",
                (json.dumps(setup.to_json(), sort_keys=True),),
            )
        stored = self.setup()
        if stored != setup:
            raise StoreError(f"{self.path} already holds a table set up differently")

    # -- the log ------------------------------------------------------------------------------

    def append(self, event: Event) -> int:
        """Commit one event; returns its sequence number. Durable when this returns."""
        body = json.dumps(event_to_json(event), separators=(",", ":"))
        with self._lock:
            cur = self._db.execute(
                "INSERT INTO events(t_ms, body) VALUES(?, ?)", (event.t_ms, body)
            )
            return int(cur.lastrowid or 0)

    def events(self) -> Iterator[Event]:
        with self._lock:
            rows = self._db.execute("SELECT body FROM events ORDER BY seq").fetchall()
        for (body,) in rows:
            yield event_from_json(json.loads(body))

    def __len__(self) -> int:
        with self._lock:
            return int(self._db.execute("SELECT count(*) FROM events").fetchone()[0])

    # -- derived ------------------------------------------------------------------------------

    def save_record(self, record: dict[str, Any]) -> None:
        self._put("record", json.dumps(record, separators=(",", ":")))

    def record(self) -> dict[str, Any] | None:
        row = self._get("record")
        return None if row is None else json.loads(row)

    def _get(self, key: str) -> str | None:
        with self._lock:
            row = self._db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def _put(self, key: str, value: str) -> None:
        with self._lock:
            self._db.execute(
                "INSERT INTO meta(key, value) VALUES(?, ?)"
                " ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                (key, value),
            )

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def __enter__(self) -> EventStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
