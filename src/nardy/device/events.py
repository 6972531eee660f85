"""What the dice cup driver tells the rest of the program: one clean stream of events.

Every event carries ``t_ms``, milliseconds since the session's start (the clock of ``cup.log``).
The referee adapts these to its own ``DiceThrown``/``CupStatus``; nothing here knows the referee.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass

from nardy.device.dcp import Armed


@dataclass(frozen=True)
class CupEvent:
    t_ms: int


@dataclass(frozen=True)
class ThrowStarted(CupEvent):
    """The cup began shaking: throw ``roll`` is under way."""

    boot: str
    roll: int
    armed: Armed | None


@dataclass(frozen=True)
class ThrowResult(CupEvent):
    """A finished throw, valid or not. ``(boot, roll)`` names it for ever; delivered once."""

    boot: str
    roll: int
    values: tuple[int | None, ...]
    armed: Armed | None

    @property
    def valid(self) -> bool:
        return isinstance(self, Thrown)


@dataclass(frozen=True)
class Thrown(ThrowResult):
    """The dice came to rest flat: ``values`` hold (one or two dice, 1–6)."""

    shake_ms: int | None = None


@dataclass(frozen=True)
class NoThrow(ThrowResult):
    """No valid result: ``why`` in cocked, partial, timeout, sensor, disarmed; None = unreadable."""

    why: str = "?"


@dataclass(frozen=True)
class DiceMoved(CupEvent):
    """A die changed face without a throw: someone touched the dice."""

    values: tuple[int | None, ...]


@dataclass(frozen=True)
class CupConnected(CupEvent):
    port: str
    cup_id: str
    boot: str
    fw: str
    proto: int
    dice: int
    caps: tuple[str, ...]


@dataclass(frozen=True)
class CupLost(CupEvent):
    """The link is down (``why`` says how it looked); the driver is reconnecting."""

    why: str


@dataclass(frozen=True)
class CupRestarted(CupEvent):
    """The cup powered up again (a new ``boot``): its arming and volatile state are gone."""

    old_boot: str
    new_boot: str


@dataclass(frozen=True)
class Battery(CupEvent):
    pct: int
    charging: bool

    @property
    def low(self) -> bool:
        return self.pct <= 15 and not self.charging


@dataclass(frozen=True)
class ThrowsMissed(CupEvent):
    """Throws ``first``..``last`` were made but the cup no longer holds them (gone for good)."""

    first: int
    last: int


@dataclass(frozen=True)
class CupError(CupEvent):
    """The cup reported an error that is not about one damaged line (SENSOR, LOWBATT, a NAK)."""

    code: str
    message: str


def event_name(event: CupEvent) -> str:
    """``ThrowStarted`` → ``throw_started``."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", type(event).__name__).lower()


def event_to_dict(event: CupEvent) -> dict[str, object]:
    """A JSON-ready dict: ``{"event": name, **fields}`` (``armed`` as ``"W:18"`` or None)."""
    out: dict[str, object] = {"event": event_name(event)}
    for f in dataclasses.fields(event):
        value = getattr(event, f.name)
        if isinstance(value, Armed):
            value = str(value)
        elif isinstance(value, tuple):
            value = list(value)
        out[f.name] = value
    if isinstance(event, ThrowResult):
        out["valid"] = event.valid
    return out
