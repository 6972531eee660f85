"""A recorded ``cup.log`` read into the referee's throw events.

Each line is ``ms<TAB>in|out<TAB>raw DCP/1 line``. Only what the cup said (``in``) matters: a
``ROLL`` is a valid throw, a ``NOROLL`` a void one, both named for ever by ``boot:roll`` so a throw
the cup re-sent after a reconnect counts once. Lines with a bad CRC are skipped, as the live driver
skips them. Heartbeats, when the log has them, tell when the cup stopped answering.
"""

from __future__ import annotations

import binascii
from collections.abc import Iterator
from pathlib import Path

from nardy.referee.events import CupStatus, DiceThrown

#: No line from the cup for this long means it is not answering (three missed heartbeats).
SILENCE_MS = 3500

#: How a host may name the armed player (DICECUP.md's example arms ``W`` and ``B``).
_PLAYERS = {"W": "light", "L": "light", "LIGHT": "light", "B": "dark", "D": "dark", "DARK": "dark"}


class CupLogError(ValueError):
    """A ``cup.log`` line that is not ``ms<TAB>in|out<TAB>line``."""


def crc(body: str) -> str:
    return f"{binascii.crc_hqx(body.encode('ascii', 'replace'), 0xFFFF):04X}"


def frame(body: str) -> str:
    """A DCP/1 line for ``body`` (``TYPE key=value ...``), with its CRC."""
    return f"${body}*{crc(body)}"


def parse_line(line: str) -> tuple[str, dict[str, str]] | None:
    """``(TYPE, fields)`` of a raw DCP/1 line, or None when it is not a sound message."""
    start = line.find("$")
    star = line.rfind("*")
    if start < 0 or star < start:
        return None
    body = line[start + 1 : star]
    if line[star + 1 : star + 5].upper() != crc(body):
        return None
    kind, *rest = body.split(" ")
    fields = dict(part.split("=", 1) for part in rest if "=" in part)
    return kind, fields


def _values(text: str) -> tuple[int, ...]:
    return tuple(int(v) if v.isdigit() else 0 for v in text.split(","))


def read_cup_log(path: Path) -> Iterator[DiceThrown | CupStatus]:
    """The throw and link events of a ``cup.log``, in time order."""
    with open(path, encoding="utf-8", errors="replace") as fh:
        lines = list(fh)
    heartbeats = any("$HB " in line for line in lines)
    last_ms: int | None = None
    lost = False
    for number, raw in enumerate(lines, 1):
        raw = raw.rstrip("\n")
        if not raw.strip():
            continue
        parts = raw.split("\t", 2)
        if len(parts) != 3 or parts[1] not in ("in", "out"):
            raise CupLogError(f"{path.name} line {number}: not ms<TAB>in|out<TAB>line")
        try:
            ms = int(parts[0])
        except ValueError:
            raise CupLogError(f"{path.name} line {number}: bad time {parts[0]!r}") from None
        if parts[1] != "in":
            continue
        message = parse_line(parts[2])
        if message is None:
            continue
        if heartbeats and last_ms is not None and ms - last_ms > SILENCE_MS and not lost:
            yield CupStatus(last_ms + SILENCE_MS, "lost")
            lost = True
        if last_ms is None or lost:
            yield CupStatus(ms, "connected")
            lost = False
        last_ms = ms
        kind, f = message
        if kind not in ("ROLL", "NOROLL"):
            continue
        armed = f.get("armed", "-")
        player = None if armed == "-" else _PLAYERS.get(armed.split(":", 1)[0].upper())
        try:
            values = _values(f.get("d", ""))
        except ValueError:
            continue
        yield DiceThrown(
            t_ms=ms,
            source="cup",
            values=values,
            valid=kind == "ROLL",
            why=None if kind == "ROLL" else f.get("why", "invalid"),
            player=player,
            throw_id=f"{f.get('boot', '?')}:{f.get('roll', '?')}",
        )
