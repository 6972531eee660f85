"""A live table from its description: a setup, a camera, a dice cup and a folder to record into.

``nardy serve`` builds one table from its flags, or several from a config file whose
``"tables"`` list holds the same keys as the flags (``id``, ``name``, ``variant``, ``options``,
``players``, ``match_to``, ``stake``, ``currency``, ``camera``, ``cup``, ``profile``, ``corners``,
``dice_source``, ``move_source``, ``record``).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from nardy.referee.live import LiveTable
from nardy.referee.session import SessionWriter
from nardy.referee.setup import TableSetup
from nardy.referee.store import EventStore
from nardy.station.station import Clock, TableStation

#: How often a live table keeps a camera frame in its recorded session.
RECORD_EVERY_MS = 500
#: The cup's names for the players (DICECUP.md arms ``W`` and ``B``).


class TableSpecError(ValueError):
    """A table description that cannot be run, said in a line."""


@dataclass(frozen=True)
class TableSpec:
    id: str
    setup: TableSetup
    name: str = ""
    camera: str | None = None
    cup: str | None = None  # a port, or "auto" to look for one
    profile: Path | None = None
    record: Path | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def from_json(cls, data: dict[str, Any], base: Path = Path(".")) -> TableSpec:
        if not isinstance(data, dict) or not isinstance(data.get("id"), str):
            raise TableSpecError('each table needs an "id" (letters, digits, dashes)')
        setup = TableSetup.from_json({k: v for k, v in data.items() if k in _SETUP_KEYS})
        profile = data.get("profile")
        record = data.get("record")
        return cls(
            id=data["id"],
            setup=setup,
            name=str(data.get("name") or data["id"]),
            camera=None if data.get("camera") is None else str(data["camera"]),
            cup=None if data.get("cup") is None else str(data["cup"]),
            profile=None if profile is None else base / profile,
            record=None if record is None else base / record,
        )


_SETUP_KEYS = {
    "variant",
    "options",
    "players",
    "match_to",
    "stake",
    "currency",
    "dice_source",
    "move_source",
    "corners",
}


def read_config(path: Path) -> list[TableSpec]:
    try:
        data = json.loads(path.read_text())
    except OSError as e:
        raise TableSpecError(f"{path}: {e.strerror or e}") from None
    except json.JSONDecodeError as e:
        raise TableSpecError(f"{path}: not JSON ({e.msg}, line {e.lineno})") from None
    tables = data.get("tables") if isinstance(data, dict) else None
    if not isinstance(tables, list) or not tables:
        raise TableSpecError(f'{path}: expected {{"tables": [...]}} with at least one table')
    specs = [TableSpec.from_json(t, path.parent) for t in tables]
    ids = [s.id for s in specs]
    if len(set(ids)) != len(ids):
        raise TableSpecError(f"{path}: two tables share an id")
    return specs


@dataclass
class RunningTable:
    spec: TableSpec
    station: TableStation
    folder: Path
    stoppers: list[Any] = field(default_factory=list)

    def stop(self) -> None:
        self.station.stop()
        for stopper in reversed(self.stoppers):
            stopper()


def start_table(spec: TableSpec, default_root: Path = Path("nardy-sessions")) -> RunningTable:
    """Open (or resume) the table's record, then start its cup and camera feeds."""
    from nardy.calibration import BoardProfile, ProfileError

    folder = spec.record or default_root / spec.id
    folder.mkdir(parents=True, exist_ok=True)
    profile = None
    if spec.profile is not None:
        try:
            profile = BoardProfile.load(spec.profile)
        except ProfileError as e:
            raise TableSpecError(str(e)) from None
    writer = SessionWriter(folder)
    live = LiveTable(EventStore(folder / "table.sqlite"), spec.setup, recorder=writer)
    if profile is not None:
        writer.write_setup(spec.setup, profile.to_json())
    station = TableStation(
        live, name=spec.name or spec.id, clock=Clock(), profile_path=folder / "profile.json"
    )
    running = RunningTable(spec, station, folder)
    if spec.cup is not None:
        from nardy.device.driver import CupDriver

        port = None if spec.cup == "auto" else spec.cup
        driver = CupDriver(port, log=folder / "cup.log", t0=station.clock.t0).start()
        running.stoppers.append(driver.stop)
        station.feed_cup(driver.events())
        station.arm_on_turn(driver)
    if spec.camera is not None:
        from nardy.device.camera import Camera, FrameSourceError, open_source
        from nardy.referee.session import FRAME_MS, VisionReader

        try:
            source = open_source(spec.camera)
        except FrameSourceError as e:
            running.stop()
            raise TableSpecError(str(e)) from None
        running.stoppers.append(source.close)
        # A camera sends about 30 frames a second; a video or a folder standing in for one is
        # read with vision's own default.
        frame_ms = 33 if isinstance(source, Camera) else FRAME_MS
        reader = VisionReader.for_table(spec.setup, profile, frame_ms)
        station.feed_frames(
            _recorded(_live_frames(source, station), writer),
            reader,
            dice_source=spec.setup.dice_source,
        )
    return running


def _live_frames(source: Any, station: TableStation) -> Iterator[tuple[int, np.ndarray]]:
    """A camera's frames on the table's clock; a recorded source at the times it was taken."""
    from nardy.device.camera import Camera

    live = isinstance(source, Camera)
    for frame in source.frames():
        if live:
            yield station.clock.now_ms(), frame.image
        elif station.clock.sleep_until(frame.t_ms, station.stopping):
            yield frame.t_ms, frame.image
        else:
            return


def _recorded(
    frames: Iterator[tuple[int, np.ndarray]], writer: SessionWriter
) -> Iterator[tuple[int, np.ndarray]]:
    """Keep a frame every ``RECORD_EVERY_MS`` in the session folder, so the game can be replayed."""
    import cv2

    last = -RECORD_EVERY_MS
    for t_ms, image in frames:
        if t_ms - last >= RECORD_EVERY_MS:
            writer.write_frame(t_ms, cv2.imencode(".jpg", image)[1].tobytes())
            last = t_ms
        yield t_ms, image
