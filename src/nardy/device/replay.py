"""Replay a ``cup.log`` into the event stream the driver produced, without a port.

The ``in`` lines go through the same ``HostSession`` the driver ran, and the ``out`` lines tell
it which commands were sent, so the throws (and their order, duplicates dropped, gaps reported)
come out as they did live, with the times of the log. Connection events are rebuilt from the
log: a cup is connected when it answers ``HELLO?``, and lost when the host says ``HELLO?`` again
(``why="reconnected"``, at the time of that ``HELLO?``); the driver's own reasons are not in the
log.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path

from nardy.device.cuplog import LogEntry, read_cup_log
from nardy.device.dcp import DcpError, Message, parse
from nardy.device.events import CupEvent
from nardy.device.session import HostSession


class LogReplay:
    """Iterate the events of a recorded ``cup.log`` (a path, or its entries)."""

    def __init__(self, source: str | Path | Iterable[LogEntry], port: str = "") -> None:
        self._entries = read_cup_log(source) if isinstance(source, str | Path) else list(source)
        self._port = port

    def __iter__(self) -> Iterator[CupEvent]:
        session = HostSession(self._port)
        for entry in self._entries:
            if entry.direction == "in":
                yield from session.receive(entry.raw, entry.ms).events
                continue
            try:
                msg = parse(entry.raw)
            except DcpError:
                continue  # never written by the driver; a hand-edited log
            if not isinstance(msg, Message):
                continue
            if msg.type == "HELLO?" and session.connected:
                yield from session.lost(entry.ms, "reconnected")
            session.sent(msg)


def replay_cup_log(path: str | Path) -> list[CupEvent]:
    return list(LogReplay(path))
