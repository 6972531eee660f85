"""The demo: a recorded session played back at table speed through the live code path.

The session's throws are thrown again by the dice cup emulator on a pseudo-terminal, and the
real cup driver reads them from it; its frames reach the referee at the times they were taken;
its button presses come at theirs. Only the cup's hardware and the camera are stand-ins.
"""

from __future__ import annotations

import tempfile
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from nardy.device.camera import open_recorded
from nardy.device.driver import CupDriver
from nardy.device.emulator import CupEmulator
from nardy.device.events import NoThrow, ThrowResult
from nardy.device.replay import LogReplay
from nardy.referee.live import LiveTable
from nardy.referee.session import (
    FrameReader,
    Session,
    TruthReader,
    VisionReader,
    open_session,
    read_actions,
)
from nardy.referee.store import EventStore
from nardy.station.station import Clock, TableStation

#: How long the emulated cup shakes before the dice settle, in the session's seconds.
SHAKE_S = 1.0


@dataclass
class Demo:
    """A running demo: the station the dashboard shows, and the devices behind it."""

    station: TableStation
    emulator: CupEmulator | None
    driver: CupDriver | None
    session: Session
    workdir: tempfile.TemporaryDirectory[str]

    def finished(self) -> bool:
        return not self.station.running()

    def stop(self) -> None:
        if self.driver is not None:
            self.driver.stop()
        if self.emulator is not None:
            self.emulator.stop()
        self.station.stop()
        self.workdir.cleanup()


def start_demo(folder: Path, *, speed: float = 1.0, truth_frames: bool = False) -> Demo:
    """Start playing ``folder`` back; the returned demo's station goes to the dashboard."""
    session = open_session(folder)
    workdir = tempfile.TemporaryDirectory(prefix="nardy-demo-")
    live = LiveTable(EventStore(Path(workdir.name) / "table.sqlite"), session.setup)
    clock = Clock(speed)
    station = TableStation(live, name=f"Demo: {folder.name}", clock=clock)
    stop = station._stop

    emulator = driver = None
    cup_log = session.folder / "cup.log"
    if cup_log.is_file():
        throws = [e for e in LogReplay(cup_log) if isinstance(e, ThrowResult)]
        emulator = CupEmulator.on_pty(seed=0).start()
        driver = CupDriver(emulator.port, log=Path(workdir.name) / "cup.log").start()
        station.feed_cup(driver.events())
        _start(lambda: _throw_at_their_times(emulator, throws, clock, stop), "demo-thrower")

    if session.frames:
        reader: FrameReader = TruthReader(session.folder) if truth_frames else VisionReader(session)
        frames = _frames_at_their_times(session, clock, stop)
        station.feed_frames(frames, reader, dice_source=session.setup.dice_source)

    actions = session.folder / "actions.jsonl"
    if actions.is_file():
        station.feed_actions(list(read_actions(actions)))
    return Demo(station, emulator, driver, session, workdir)


def _throw_at_their_times(
    emulator: CupEmulator, throws: list[ThrowResult], clock: Clock, stop: threading.Event
) -> None:
    shake_ms = int(SHAKE_S * 1000)
    for t in throws:
        if not clock.sleep_until(t.t_ms - shake_ms, stop):
            return
        why = t.why if isinstance(t, NoThrow) and t.why != "disarmed" else None
        values = t.values if why is not None or None not in t.values else None
        emulator.throw(values, why, shake_s=SHAKE_S / clock.speed)


def _frames_at_their_times(
    session: Session, clock: Clock, stop: threading.Event
) -> Iterator[tuple[int, np.ndarray]]:
    source = open_recorded(session.folder)
    if source is None:
        return
    try:
        for frame in source.frames():
            if not clock.sleep_until(frame.t_ms, stop):
                return
            yield frame.t_ms, frame.image
    finally:
        source.close()


def _start(target: Any, name: str) -> None:
    threading.Thread(target=target, name=name, daemon=True).start()
