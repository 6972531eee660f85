"""One live table: a referee (``LiveTable``) fed by a dice cup, a camera and the dashboard.

Each device runs on its own thread and only ever calls :meth:`LiveTable.submit`, which logs the
event before the referee acts on it; the dashboard reads :meth:`snapshot` and presses buttons
through :meth:`act`. Whatever changes the table calls ``on_change`` (the dashboard's seat).
"""

from __future__ import annotations

import dataclasses
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, Protocol

import cv2
import numpy as np

from nardy.referee.events import Action, ActionRefused, CameraStatus, Event, Observation
from nardy.referee.live import LiveTable
from nardy.referee.session import FrameInput
from nardy.station.view import snapshot as view_snapshot


class FrameReader(Protocol):
    def read(self, t_ms: int, frame: Any) -> tuple[Observation, bool]: ...


JPEG = [cv2.IMWRITE_JPEG_QUALITY, 80]
#: How the station names the players to the dice cup when it arms it (DICECUP.md's ``ARM``).
CUP_PLAYER = {"light": "W", "dark": "B"}


def _overlaid(image: np.ndarray, reader: FrameReader) -> np.ndarray:
    """The frame with what vision read drawn over it, when the reader is vision."""
    result = getattr(reader, "last", None)
    if result is None:
        return image
    from nardy.vision.draw import draw_overlay

    return draw_overlay(image, result)


class Clock:
    """Milliseconds since the table's session began, optionally running faster than life."""

    def __init__(self, speed: float = 1.0, start: float | None = None) -> None:
        self.speed = speed
        self.t0 = time.monotonic() if start is None else start

    def now_ms(self) -> int:
        return int((time.monotonic() - self.t0) * 1000 * self.speed)

    def sleep_until(self, t_ms: int, stop: threading.Event) -> bool:
        """Wait until the session's clock reads ``t_ms``; False if ``stop`` was set meanwhile."""
        delay = (t_ms - self.now_ms()) / 1000 / self.speed
        return not stop.wait(delay) if delay > 0 else not stop.is_set()


class TableStation:
    """A table as the dashboard sees it (``nardy.webui.hub.Table``), run by real devices."""

    def __init__(
        self,
        live: LiveTable,
        *,
        name: str,
        clock: Clock | None = None,
        profile_path: Path | None = None,
    ) -> None:
        self.live = live
        self.name = name
        self.clock = clock or Clock()
        self.profile_path = profile_path
        self.on_change: Callable[[], None] = lambda: None
        #: Set when the station stops; feeds and playbacks end at it.
        self.stopping = threading.Event()
        self._threads: list[threading.Thread] = []
        self._finite: list[threading.Thread] = []
        self._frame: np.ndarray | None = None
        self._jpeg: bytes | None = None
        self._frame_lock = threading.Lock()
        self.errors: list[str] = []
        self.throws_heard = 0
        self._throws_seen = threading.Condition()
        live.subscribe(lambda _view: self.on_change())

    # -- the dashboard's side (nardy.webui.hub.Table) --------------------------------------------

    def snapshot(self) -> dict[str, Any]:
        setup = self.live.setup
        variant = self.live.table.variant
        money = {"stake": setup.stake, "currency": setup.currency} if setup.money else None
        return view_snapshot(
            self.live.view().to_json(),
            name=self.name,
            variant=setup.variant,
            family=getattr(variant, "family", "short"),
            players=dict(setup.players),
            money=money,
            move_source=setup.move_source,
        )

    def act(self, kind: str, by: str, params: dict[str, Any]) -> None:
        fields: dict[str, Any] = {}
        if kind == "choose":  # the dashboard's answer to "which play was it?"
            kind, fields["play"] = "correct", str(params.get("play", ""))
        if "play" in params:
            fields["play"] = str(params["play"])
        if "position" in params:  # the position editor's board, in the JSON position form
            from nardy.rules.position import Position

            fields["position"] = Position.from_json(params["position"])
        if "dice" in params:
            try:
                fields["dice"] = tuple(int(v) for v in params["dice"])
            except (TypeError, ValueError):
                raise ValueError("dice are numbers 1–6") from None
        if kind == "resign":
            try:
                fields["level"] = int(params.get("level", 1))
            except (TypeError, ValueError):
                raise ValueError("a resignation is of 1, 2 or 3 points") from None
        before = len(self.live.view().notices)
        view = self.live.submit(Action(self.clock.now_ms(), kind, by, **fields))
        refused = [n for n in view.notices[before:] if "refused" in n]
        if refused:
            raise ActionRefused(refused[-1])

    def camera_frame(self) -> np.ndarray | None:
        with self._frame_lock:
            return self._frame

    def camera_jpeg(self) -> bytes | None:
        with self._frame_lock:
            return self._jpeg

    def save_profile(self, profile: Any) -> str:
        if self.profile_path is None:
            raise ValueError("this table was started without a profile file to write")
        profile.save(self.profile_path)
        return str(self.profile_path)

    # -- the devices' side -----------------------------------------------------------------------

    def feed_cup(self, events: Iterable[Any]) -> None:
        """Start a thread passing a cup driver's events to the referee.

        Events are stamped with the table's clock, so that throws and frames share one time
        line even when a recording plays faster than life.
        """
        from nardy.device.events import ThrowResult
        from nardy.referee.cuplog import referee_event

        def run() -> None:
            for e in events:
                if self.stopping.is_set():
                    return
                event = referee_event(e)
                if event is not None:
                    self.submit(dataclasses.replace(event, t_ms=self.clock.now_ms()))
                if isinstance(e, ThrowResult):
                    with self._throws_seen:
                        self.throws_heard += 1
                        self._throws_seen.notify_all()

        self._start(run, "cup-feed", endless=True)

    def feed_frames(
        self,
        frames: Iterable[tuple[int, np.ndarray]],
        reader: FrameReader,
        *,
        dice_source: str = "cup",
    ) -> None:
        """Start a thread reading ``(t_ms, image)`` frames with ``reader`` into the referee."""
        frame_input = FrameInput(dice_source)

        def run() -> None:
            self.submit(CameraStatus(self.clock.now_ms(), "connected"))
            for t_ms, image in frames:
                if self.stopping.is_set():
                    return
                obs, still = reader.read(t_ms, image)
                jpeg = cv2.imencode(".jpg", _overlaid(image, reader), JPEG)[1].tobytes()
                with self._frame_lock:
                    self._frame, self._jpeg = image, jpeg
                for event in frame_input.events(t_ms, obs, still):
                    self.submit(event)
                self.on_change()
            if not self.stopping.is_set():
                self.submit(CameraStatus(self.clock.now_ms(), "lost", "the frames ended"))

        self._start(run, "camera-feed")

    def arm_on_turn(self, driver: Any) -> None:
        """Tell the cup (a ``CupDriver``) whose throw comes next, whenever that changes, so each
        throw arrives saying whose it is."""
        armed: list[tuple[str, int] | None] = [None]

        def arm(view: Any) -> None:
            if view.on_turn is None:
                return
            key = (view.on_turn, len(view.turns) + 1)
            if key != armed[0]:
                armed[0] = key
                driver.arm(CUP_PLAYER[view.on_turn], key[1])

        self.live.subscribe(arm)
        arm(self.live.view())

    def wait_for_throws(self, count: int, timeout: float) -> bool:
        """Block until the cup has delivered ``count`` throws (valid or not) in all."""
        with self._throws_seen:
            return self._throws_seen.wait_for(lambda: self.throws_heard >= count, timeout)

    def submit(self, event: Event) -> None:
        try:
            self.live.submit(event)
        except ValueError as e:  # a malformed event from a device: kept out, said, not fatal
            self.errors.append(f"{type(event).__name__} at {event.t_ms} ms: {e}")

    def _start(self, target: Callable[[], None], name: str, *, endless: bool = False) -> None:
        thread = threading.Thread(target=target, name=name, daemon=True)
        self._threads.append(thread)
        if not endless:
            self._finite.append(thread)
        thread.start()

    def feeding(self) -> bool:
        """Whether a feed that can end (frames, recorded buttons) is still running."""
        return any(t.is_alive() for t in self._finite)

    def stop(self, timeout: float = 5.0) -> None:
        self.stopping.set()
        for t in self._threads:
            t.join(timeout)
        self.live.close()
