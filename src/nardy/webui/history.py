"""Where the History pages find past and running games: one :class:`History` per app.

It holds two kinds of source:

- the tables this machine serves, registered by whoever builds them (``nardy serve``, ``nardy
  demo``)::

      history_of(app).add_table(table_id, live_table)   # a LiveTable (or an EventStore)

  a table of the app's hub whose table offers ``game_record()`` itself or through its ``live``
  attribute (the station ``nardy serve`` and ``nardy demo`` build) is shown without that call.
  Their record is read afresh on every request, so a game in progress shows up to its last turn;
- the files of a history directory (config ``HISTORY_DIR``), looked at again on every listing:
  record JSON files (``nardy export --to json`` or ``nardy replay --json``), table stores
  (``*.sqlite``: the record the store keeps, or its log folded) and recorded-session folders (with a
  ``session.json``; replayed through the referee when first opened, then kept while the folder
  does not change).

Every record has an id (``rid``): ``table-<table id>`` for a table, the file or folder name for
the rest (letters, digits, ``-``, ``_`` and ``.``), unique within the app.
"""

from __future__ import annotations

import datetime as dt
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from flask import Flask

from nardy.record import Record, RecordError


class HistoryError(ValueError):
    """A source whose record cannot be read (a broken file, a session the referee refuses)."""


@dataclass(frozen=True, slots=True)
class Summary:
    """One line of the History list: what a record is, without its moves."""

    rid: str
    source: str  # "table", "record", "store", "session"
    name: str  # what the source is called: the table id, the file name
    live: bool
    players: tuple[str, str] = ("", "")
    variant: str = ""
    date: str | None = None
    match_to: int | None = None
    score: tuple[float, float] | None = None
    #: Money sessions: light's balance, the stake and its currency.
    balance: float | None = None
    stake: float | None = None
    currency: str | None = None
    games: int | None = None
    flags: int | None = None
    #: Why the record cannot be shown (the list still names the source).
    error: str | None = None
    #: A session folder not replayed yet: opening it runs the referee over it.
    pending: bool = False


def summarize(rid: str, source: str, name: str, live: bool, record: Record, date: str | None):
    h = record.header
    ledger = record.ledger()
    return Summary(
        rid=rid,
        source=source,
        name=name,
        live=live,
        players=h.players,
        variant=h.variant,
        date=h.date or date,
        match_to=h.match_to,
        score=None if h.money else record.score(),
        balance=(ledger[-1].balance if ledger else 0) if h.money else None,
        stake=h.stake,
        currency=h.currency,
        games=len(record.games),
        flags=sum(len(t.flags) for g in record.games for t in g.turns),
    )


# -- sources ------------------------------------------------------------------------------------


class _Table:
    """A table this machine serves: its record now, read through the table's own lock."""

    def __init__(self, table: Any) -> None:
        self.table = table
        self.since = dt.date.today().isoformat()

    def record(self) -> Record:
        read = getattr(self.table, "game_record", None)
        if callable(read):  # a LiveTable
            return read()
        return _store_record(self.table)  # an EventStore

    @property
    def path(self) -> str | None:
        store = getattr(self.table, "store", self.table)
        return getattr(store, "path", None)


def _store_record(store: Any) -> Record:
    from nardy.referee.export import record_of_store
    from nardy.referee.store import StoreError

    try:
        return record_of_store(store)
    except StoreError as e:
        raise HistoryError(str(e)) from None


def _read_file(path: Path) -> Record:
    from nardy.record import record_from_json
    from nardy.referee.store import EventStore, StoreError

    if path.suffix == ".sqlite":
        try:
            with EventStore(path) as store:
                return _store_record(store)
        except StoreError as e:
            raise HistoryError(str(e)) from None
    import json

    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise HistoryError(f"{path.name}: not a JSON record ({e})") from None
    if isinstance(data, dict) and "setup" in data:  # the referee's record, `nardy replay --json`
        from nardy.referee.export import to_record

        return to_record(data)
    return record_from_json(data)


def _replay(folder: Path) -> Record:
    from nardy.referee.events import EventError
    from nardy.referee.export import record_of
    from nardy.referee.session import SessionError, replay
    from nardy.referee.setup import SetupError
    from nardy.rules.errors import RulesError

    try:
        return record_of(replay(folder))
    except (SessionError, SetupError, EventError, RulesError) as e:
        raise HistoryError(str(e)) from None


#: What a file of the history directory must look like to be listed.
_RECORD_FILE = re.compile(r"^[\w.-]+\.(json|sqlite)$")
_SESSION_DIR = re.compile(r"^[\w.-]+$")


class History:
    """The records the History pages show. Thread-safe; reads files only when asked."""

    def __init__(self, directory: str | Path | None = None) -> None:
        self.directory = None if directory is None else Path(directory)
        self._tables: dict[str, _Table] = {}
        self._records: dict[str, Record] = {}
        # Parsed files and replayed sessions, by path, kept while their mtime stands.
        self._cache: dict[Path, tuple[float, Record | HistoryError]] = {}
        self._lock = threading.Lock()
        self._hub: Any = None
        self._hub_tables: dict[str, _Table] = {}

    # -- registering ------------------------------------------------------------------------

    def add_table(self, table_id: str, table: Any) -> str:
        """Show a served table's games: ``table`` is a LiveTable (or its EventStore). Returns
        the record's id, ``table-<table_id>``."""
        rid = f"table-{table_id}"
        _check_rid(rid)
        with self._lock:
            self._tables[rid] = _Table(table)
        return rid

    def add_record(self, rid: str, record: Record) -> str:
        """Show a record held in memory (tests; a finished table's record kept by the server)."""
        _check_rid(rid)
        with self._lock:
            self._records[rid] = record
        return rid

    def init_app(self, app: Flask) -> None:
        """Hold on to ``app``'s table hub (if it has one yet), whose live tables are shown."""
        app.extensions["nardy.history"] = self
        self._hub = app.extensions.get("nardy.hub")

    # -- reading ----------------------------------------------------------------------------

    def summaries(self) -> list[Summary]:
        """Every record: the served tables first, then held records, then the directory's files
        (newest first). A source that cannot be read is listed with its error."""
        out = []
        for rid, t in self._tables_now():
            out.append(self._summary(rid, "table", rid[len("table-") :], True, t.record, t.since))
        with self._lock:
            held = list(self._records.items())
        for rid, record in held:
            out.append(summarize(rid, "record", rid, False, record, None))
        for rid, path in self._files():
            date = dt.date.fromtimestamp(path.stat().st_mtime).isoformat()
            if path.is_dir():
                try:
                    cached = self._cached(path)
                except HistoryError as e:
                    out.append(Summary(rid, "session", path.name, False, date=date, error=str(e)))
                    continue
                if cached is None:
                    out.append(self._session_summary(rid, path, date))
                    continue
                out.append(summarize(rid, "session", path.name, False, cached, date))
            else:
                kind = "store" if path.suffix == ".sqlite" else "record"
                out.append(
                    self._summary(rid, kind, path.name, False, lambda p=path: self._load(p), date)
                )
        return out

    def record(self, rid: str) -> Record:
        """The record ``rid`` names. KeyError: no such record; HistoryError: it cannot be read."""
        table = dict(self._tables_now()).get(rid)
        with self._lock:
            held = self._records.get(rid)
        if table is not None:
            return _guard(table.record)
        if held is not None:
            return held
        for found, path in self._files():
            if found == rid:
                return self._load(path)
        raise KeyError(rid)

    # -- inside -----------------------------------------------------------------------------

    def _tables_now(self) -> list[tuple[str, _Table]]:
        """The registered tables, then the hub's live tables not registered by hand."""
        with self._lock:
            found = dict(self._tables)
            for seat in self._hub or ():
                rid = f"table-{seat.table_id}"
                live = _live_of(seat.table)
                if rid not in found and live is not None:
                    if rid not in self._hub_tables or self._hub_tables[rid].table is not live:
                        self._hub_tables[rid] = _Table(live)
                    found[rid] = self._hub_tables[rid]
        return list(found.items())

    def _summary(
        self, rid: str, source: str, name: str, live: bool, read: Callable[[], Any], date
    ) -> Summary:
        try:
            record = _guard(read)
        except HistoryError as e:
            return Summary(rid, source, name, live, error=str(e), date=date)
        return summarize(rid, source, name, live, record, date)

    def _session_summary(self, rid: str, folder: Path, date: str) -> Summary:
        from nardy.referee.setup import SetupError, TableSetup

        try:
            setup = TableSetup.from_json((folder / "session.json").read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, SetupError) as e:
            return Summary(rid, "session", folder.name, False, date=date, error=str(e))
        return Summary(
            rid,
            "session",
            folder.name,
            False,
            players=(setup.players["light"], setup.players["dark"]),
            variant=setup.variant,
            date=date,
            match_to=setup.match_to,
            stake=setup.stake,
            currency=setup.currency,
            pending=True,
        )

    def _files(self) -> list[tuple[str, Path]]:
        """The directory's records by id, newest first; a store served live is left out."""
        if self.directory is None or not self.directory.is_dir():
            return []
        served = {Path(t.path).resolve() for _, t in self._tables_now() if t.path}
        found = []
        for p in self.directory.iterdir():
            if p.is_dir():
                if _SESSION_DIR.match(p.name) and (p / "session.json").is_file():
                    found.append(p)
            elif _RECORD_FILE.match(p.name) and p.resolve() not in served:
                found.append(p)
        found.sort(key=lambda p: (-p.stat().st_mtime, p.name))
        with self._lock:
            taken = set(self._records)
        taken |= {rid for rid, _ in self._tables_now()}
        return [(p.name, p) for p in found if p.name not in taken]

    def _cached(self, path: Path) -> Record | None:
        with self._lock:
            hit = self._cache.get(path)
        if hit is None or hit[0] != _mtime(path):
            return None
        if isinstance(hit[1], HistoryError):
            raise hit[1]
        return hit[1]

    def _load(self, path: Path) -> Record:
        cached = self._cached(path)
        if cached is not None:
            return cached
        mtime = _mtime(path)
        try:
            record: Record | HistoryError = _guard(
                lambda: _replay(path) if path.is_dir() else _read_file(path)
            )
        except HistoryError as e:
            record = e
        with self._lock:
            self._cache[path] = (mtime, record)
        if isinstance(record, HistoryError):
            raise record
        return record


def _live_of(table: Any) -> Any:
    """What of a hub's table gives its record: the table itself or its ``live`` LiveTable."""
    for candidate in (table, getattr(table, "live", None)):
        if callable(getattr(candidate, "game_record", None)):
            return candidate
    return None


def _guard(read: Callable[[], Record]) -> Record:
    """A record, or a HistoryError saying why not (never another exception for a bad source)."""
    try:
        return read()
    except HistoryError:
        raise
    except (RecordError, ValueError, KeyError, TypeError) as e:
        raise HistoryError(f"{type(e).__name__}: {e}") from None


def _mtime(path: Path) -> float:
    """A folder's time is its newest file's: a session still being written changes it."""
    if not path.is_dir():
        return path.stat().st_mtime
    return max([path.stat().st_mtime, *(p.stat().st_mtime for p in path.iterdir())])


def _check_rid(rid: str) -> None:
    if not re.fullmatch(r"[\w.-]+", rid):
        raise ValueError(f"a record id is letters, digits, '-', '_' and '.', not {rid!r}")


def history_of(app: Flask) -> History:
    return app.extensions["nardy.history"]
