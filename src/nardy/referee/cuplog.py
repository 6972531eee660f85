"""A recorded ``cup.log`` as the referee's input events, through the cup driver's own replayer.

``nardy.device.replay.LogReplay`` runs the log's lines through the same host session the live
driver ran (CRC and sequence checks, duplicates dropped by ``(boot, roll)``), so a replay hears
exactly the throws a live table heard. This module only turns the driver's events into the
referee's: a valid throw or a void one (with why), and the cup's link coming and going.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from nardy.device.cuplog import CupLogError as DeviceLogError
from nardy.device.events import (
    Battery,
    CupConnected,
    CupEvent,
    CupLost,
    CupRestarted,
    NoThrow,
    Thrown,
)
from nardy.device.replay import LogReplay
from nardy.referee.events import CupStatus, DiceThrown


class CupLogError(ValueError):
    """A ``cup.log`` line that is not ``ms<TAB>in|out<TAB>line``."""


#: How a host may name the armed player (DICECUP.md's example arms ``W`` and ``B``).
PLAYERS = {"W": "light", "L": "light", "LIGHT": "light", "B": "dark", "D": "dark", "DARK": "dark"}


def referee_event(e: CupEvent) -> DiceThrown | CupStatus | None:
    """The referee's event for one of the cup driver's (None for what the referee ignores)."""
    if isinstance(e, Thrown | NoThrow):
        player = None if e.armed is None else PLAYERS.get(e.armed.player.upper())
        return DiceThrown(
            t_ms=e.t_ms,
            source="cup",
            values=tuple(v or 0 for v in e.values),
            valid=isinstance(e, Thrown),
            why=e.why if isinstance(e, NoThrow) else None,
            player=player,
            throw_id=f"{e.boot}:{e.roll}",
        )
    if isinstance(e, CupConnected):
        return CupStatus(e.t_ms, "connected", e.cup_id)
    if isinstance(e, CupLost):
        return CupStatus(e.t_ms, "lost", e.why)
    if isinstance(e, CupRestarted):
        return CupStatus(e.t_ms, "restarted", e.new_boot)
    if isinstance(e, Battery):
        return CupStatus(e.t_ms, "battery", f"{e.pct}%")
    return None


def read_cup_log(path: Path) -> Iterator[DiceThrown | CupStatus]:
    """The referee's events of a recorded ``cup.log``, in time order."""
    try:
        replay = LogReplay(path)
    except DeviceLogError as e:
        raise CupLogError(f"{path.name}: {e}") from None
    for event in replay:
        mine = referee_event(event)
        if mine is not None:
            yield mine
