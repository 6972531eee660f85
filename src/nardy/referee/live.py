"""A live table: the referee, its store and the recorded-session folder it writes, together.

Every input (a throw from the cup, a frame's reading, a button) goes through :meth:`submit`: it
is appended to the store first, then the referee acts on it, then subscribers hear the new view.
Opening a store that already holds a log folds it: the table carries on where it was.

This is the object the dashboard holds::

    table = LiveTable.open("table1.sqlite", setup)
    unsubscribe = table.subscribe(lambda view: push_to_browsers(view.to_json()))
    table.submit(Action(t_ms, "accept", "dark"))
    table.view(); table.record()
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from nardy.referee.events import Action, Event
from nardy.referee.setup import TableSetup
from nardy.referee.store import EventStore, StoreError
from nardy.referee.table import Table, TableView

Listener = Callable[[TableView], None]


class TableClosed(StoreError):
    """An event submitted after the table was closed: it is not recorded."""


class LiveTable:
    def __init__(
        self,
        store: EventStore,
        setup: TableSetup | None = None,
        *,
        rules: Any = None,
        recorder: Any = None,
    ) -> None:
        stored = store.setup()
        if stored is None:
            if setup is None:
                raise StoreError(f"{store.path} holds no table: give a setup")
            store.set_setup(setup)
            stored = setup
        elif setup is not None and setup != stored:
            raise StoreError(f"{store.path} already holds a table set up differently")
        self.store = store
        self.recorder = recorder
        self._lock = threading.RLock()
        self._closed = False
        self._listeners: list[Listener] = []
        self.table = Table(stored, rules)
        for event in store.events():
            self.table.feed(event)
        if recorder is not None:
            recorder.write_setup(stored)

    @classmethod
    def open(cls, path: str | Path, setup: TableSetup | None = None, **kw: Any) -> LiveTable:
        return cls(EventStore(path), setup, **kw)

    @property
    def setup(self) -> TableSetup:
        return self.table.setup

    def submit(self, event: Event) -> TableView:
        """Log the event, then act on it; returns the view after it. Raises ``TableClosed``
        once the table is closed (a feed's thread may outlive the station's stop)."""
        with self._lock:
            if self._closed:
                raise TableClosed(f"the table is closed: {type(event).__name__} not recorded")
            self.store.append(event)
            if self.recorder is not None and isinstance(event, Action):
                self.recorder.write_action(event)
            games = len(self.table.games)
            self.table.feed(event)
            if len(self.table.games) != games:
                self._save()
            view = self.table.view()
            listeners = list(self._listeners)
        for listener in listeners:
            listener(view)
        return view

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Call ``listener(view)`` after every event; returns the function that stops it."""
        with self._lock:
            self._listeners.append(listener)

        def unsubscribe() -> None:
            with self._lock:
                if listener in self._listeners:
                    self._listeners.remove(listener)

        return unsubscribe

    def view(self) -> TableView:
        with self._lock:
            return self.table.view()

    def record(self) -> dict[str, Any]:
        """The referee's record (with what the dashboard shows: nearest turns, notices)."""
        with self._lock:
            return self.table.record()

    def game_record(self) -> Any:
        """The record as :class:`nardy.record.Record`, what ``nardy export`` writes out."""
        from nardy.referee.export import record_of

        with self._lock:
            return record_of(self.table)

    def _save(self) -> None:
        self.store.save_record(self.table.record())

    def close(self) -> None:
        with self._lock:
            if self._closed:
                return
            self._closed = True
            self._save()
            self.store.close()
            if self.recorder is not None:
                self.recorder.close()
