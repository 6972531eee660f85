"""The demo: a recorded session played back at table speed through the live code path.

The session's throws are thrown again by the dice cup emulator on a pseudo-terminal and read by
the real cup driver; its frames go through the frame feed a camera uses; its buttons are pressed
at their times. One playback walks the recording's time line and hands each input on only when
everything recorded before it has reached the referee, so the table hears the game in the order
it was played at any ``--speed``.
"""

from __future__ import annotations

import heapq
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
#: How long the playback waits for a throw to come through the cup before it says so.
THROW_WAIT_S = 10.0


@dataclass
class Demo:
    """A running demo: the station the dashboard shows, and the devices behind it."""

    station: TableStation
    session: Session
    emulator: CupEmulator | None
    driver: CupDriver | None
    workdir: tempfile.TemporaryDirectory[str]
    playback: threading.Thread | None = None

    def finished(self) -> bool:
        """Every recorded frame, throw and button press has been played."""
        return not self.station.feeding() and not (self.playback and self.playback.is_alive())

    def stop(self) -> None:
        self.station.stop()
        if self.driver is not None:
            self.driver.stop()
        if self.emulator is not None:
            self.emulator.stop()
        self.workdir.cleanup()


def start_demo(folder: Path, *, speed: float = 1.0, truth_frames: bool = False) -> Demo:
    """Start playing ``folder`` back; the returned demo's station goes to the dashboard."""
    session = open_session(folder)
    workdir = tempfile.TemporaryDirectory(prefix="nardy-demo-")
    live = LiveTable(EventStore(Path(workdir.name) / "table.sqlite"), session.setup)
    station = TableStation(live, name=f"Demo: {folder.name}", clock=Clock(speed))
    demo = Demo(station, session, None, None, workdir)

    throws: list[ThrowResult] = []
    if (session.folder / "cup.log").is_file():
        throws = [e for e in LogReplay(session.folder / "cup.log") if isinstance(e, ThrowResult)]
        demo.emulator = CupEmulator.on_pty(seed=0).start()
        demo.driver = CupDriver(demo.emulator.port, log=Path(workdir.name) / "cup.log").start()
        station.feed_cup(demo.driver.events())
        station.arm_on_turn(demo.driver)  # as a table's station does: throws say whose they are

    frames = _playback(session, station, demo.emulator, throws)
    if session.frames:
        reader: FrameReader = (
            TruthReader(session.folder) if truth_frames else VisionReader.for_session(session)
        )
        station.feed_frames(frames, reader, dice_source=session.setup.dice_source)
    else:  # a table with no camera: the playback only throws and presses buttons
        demo.playback = threading.Thread(target=lambda: list(frames), name="demo", daemon=True)
        demo.playback.start()
    return demo


def _playback(
    session: Session, station: TableStation, emulator: CupEmulator | None, throws: list[ThrowResult]
) -> Iterator[tuple[int, np.ndarray]]:
    """The recording's time line. Runs on the frame feed's thread: a frame yielded here has been
    read and judged before the next input is handed on."""
    source = open_recorded(session.folder)
    actions = session.folder / "actions.jsonl"
    timeline: list[Iterator[tuple[int, int, Any]]] = [
        ((t.t_ms, 0, t) for t in throws),
        ((f.t_ms, 1, f.image) for f in (source.frames() if source else ())),
        ((a.t_ms, 2, a) for a in (read_actions(actions) if actions.is_file() else ())),
    ]
    thrown = 0
    try:
        for t_ms, kind, item in heapq.merge(*timeline, key=lambda x: (x[0], x[1])):
            if not station.clock.sleep_until(t_ms, station.stopping):
                return
            if kind == 0 and emulator is not None:
                _throw_again(emulator, item, station.clock.speed)
                thrown += 1
                if not station.wait_for_throws(thrown, THROW_WAIT_S):
                    station.errors.append(f"the cup did not deliver the throw of {t_ms} ms")
            elif kind == 1:
                yield t_ms, item
            elif kind == 2:
                station.submit(item)
    finally:
        if source is not None:
            source.close()


def _throw_again(emulator: CupEmulator, throw: ThrowResult, speed: float) -> None:
    why = throw.why if isinstance(throw, NoThrow) and throw.why != "disarmed" else None
    values = throw.values if why is not None or None not in throw.values else None
    emulator.throw(values, why, shake_s=SHAKE_S / speed)
