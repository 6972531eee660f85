"""A rig of the real driver against the emulator, at a tenth of real time (test helpers)."""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from nardy.device.driver import CupDriver, Timing
from nardy.device.emulator import CupEmulator, MadeThrow
from nardy.device.events import CupEvent, ThrowResult

SCALE = 0.1
# The driver's clocks at SCALE, with more slack than a tenth of DICECUP.md's where a loaded CI
# machine could stall a thread that long: six missed heartbeats before the cup counts as lost.
TIMING = dataclasses.replace(Timing().scaled(SCALE), silence=0.6, retry=0.1, hello_timeout=0.2)


def truth(made: list[MadeThrow]) -> list[tuple]:
    return [(m.boot, m.roll, m.values, m.why, m.armed) for m in made]


def seen(events: list[CupEvent]) -> list[tuple]:
    return [
        (e.boot, e.roll, e.values, None if e.valid else e.why, e.armed)  # type: ignore[attr-defined]
        for e in events
        if isinstance(e, ThrowResult)
    ]


@dataclass
class Rig:
    emulator: CupEmulator
    driver: CupDriver
    events: list[CupEvent] = field(default_factory=list)

    def pump(self, seconds: float) -> None:
        end = time.monotonic() + seconds
        while (left := end - time.monotonic()) > 0:
            e = self.driver.get(min(left, 0.05))
            if e is not None:
                self.events.append(e)

    def until(self, done: Callable[[list[CupEvent]], bool], timeout: float = 10.0) -> bool:
        end = time.monotonic() + timeout
        while not done(self.events):
            if time.monotonic() > end:
                return False
            e = self.driver.get(0.05)
            if e is not None:
                self.events.append(e)
        return True

    def of(self, kind: type) -> list:
        return [e for e in self.events if isinstance(e, kind)]

    def settle(self, timeout: float = 15.0) -> bool:
        """Every throw the cup made has come out (or a loss was reported); then a little more."""
        assert self.emulator.wait_idle(timeout)
        ok = self.until(lambda ev: len(seen(ev)) >= len(self.emulator.made), timeout)
        self.pump(0.3)
        return ok


def make_rig(emulator: CupEmulator, tmp_path, **driver_kw) -> Rig:
    emulator.start()
    driver = CupDriver(emulator.port, log=tmp_path / "cup.log", timing=TIMING, **driver_kw)
    driver.start()
    return Rig(emulator, driver)
