"""The tables a dashboard serves, and how the web layer talks to them.

The web layer knows a table only through :class:`Table`: a snapshot of its state as plain JSON
values, a way to submit an action, and a version that changes with every change (server-sent
events wait on it). The live referee table and the tests' fakes both satisfy it.
"""

from __future__ import annotations

import secrets
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Protocol

from flask import Flask

from nardy.referee.events import ActionRefused

__all__ = ["ActionRefused", "Seat", "Table", "TableHub", "hub_of"]


class Table(Protocol):
    """What the dashboard needs from a table."""

    def snapshot(self) -> dict[str, Any]:
        """The table's state as JSON values (see ``webui/README`` in the module docstring)."""
        ...

    def act(self, kind: str, by: str, params: dict[str, Any]) -> None:
        """Carry out a button press; raise :class:`ActionRefused` (or ValueError) if it can't."""
        ...


# A table may also offer ``camera_jpeg() -> bytes | None``: its latest frame, with what vision
# read drawn over it, as JPEG. Tables without a camera (moves entered by hand) leave it out.


@dataclass
class Seat:
    """A table as the dashboard holds it: the table, its PIN and its change counter.

    Whoever changes the table (an action, a throw, a frame) calls :meth:`touch`; streams wait in
    :meth:`wait`. All seats of a hub share one condition so the club view can wait on any table.
    """

    table_id: str
    table: Table
    changed: threading.Condition
    pin: str = field(default_factory=lambda: f"{secrets.randbelow(10_000):04d}")
    version: int = 0

    def touch(self) -> None:
        with self.changed:
            self.version += 1
            self.changed.notify_all()

    def wait(self, seen: int, timeout: float) -> int:
        """Block until the version moves past ``seen`` or ``timeout`` passes; the version now."""
        with self.changed:
            self.changed.wait_for(lambda: self.version != seen, timeout=timeout)
            return self.version


class TableHub:
    """Every table this machine serves, by id, in the order they were added."""

    def __init__(self) -> None:
        self._seats: dict[str, Seat] = {}
        self.changed = threading.Condition()

    def add(self, table_id: str, table: Table, pin: str | None = None) -> Seat:
        if not table_id.replace("-", "").isalnum():
            raise ValueError(f"a table id is letters, digits and dashes, not {table_id!r}")
        seat = Seat(table_id, table, self.changed)
        if pin is not None:
            seat.pin = pin
        self._seats[table_id] = seat
        return seat

    def versions(self) -> tuple[int, ...]:
        return tuple(seat.version for seat in self._seats.values())

    def wait(self, seen: tuple[int, ...], timeout: float) -> tuple[int, ...]:
        """Block until any table changes after ``seen`` or ``timeout`` passes."""
        with self.changed:
            self.changed.wait_for(lambda: self.versions() != seen, timeout=timeout)
            return self.versions()

    def get(self, table_id: str) -> Seat | None:
        return self._seats.get(table_id)

    def __iter__(self) -> Iterator[Seat]:
        return iter(self._seats.values())

    def __len__(self) -> int:
        return len(self._seats)

    def init_app(self, app: Flask) -> None:
        app.extensions["nardy.hub"] = self


def hub_of(app: Flask) -> TableHub:
    return app.extensions["nardy.hub"]
