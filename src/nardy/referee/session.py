"""Recorded sessions (issue 5): a folder read into one time-ordered event stream, and written live.

A folder holds ``session.json``, ``profile.json`` (or ``corners`` in ``session.json``), the frames
(``frames/000001234.jpg`` named by milliseconds, or a video with ``frames.csv`` of ``index,ms``),
``cup.log`` and ``actions.jsonl``. :func:`read_session` merges them by time into the same input
events a live table hears; :func:`replay` feeds them to a :class:`~nardy.referee.live.LiveTable`,
the live code path, and :class:`SessionWriter` is how a live table writes such a folder.

Frames are read by a :class:`FrameReader`. :class:`VisionReader` uses ``nardy.vision``;
:class:`TruthReader` is a stand-in that reads ``frames_truth.jsonl`` (what each frame shows, kept
by the fixture maker) instead of the images, and says so.
"""

from __future__ import annotations

import csv
import dataclasses
import heapq
import itertools
import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from nardy.referee.cuplog import CupLogError, read_cup_log
from nardy.referee.events import (
    Action,
    BoardSeen,
    DiceSeen,
    DiceThrown,
    Event,
    EventError,
    Observation,
    observation_from_json,
)
from nardy.referee.setup import SetupError, TableSetup

FRAME_NAME = re.compile(r"^(\d+)\.(jpe?g|png)$", re.IGNORECASE)
VIDEO_EXT = (".mp4", ".avi", ".mkv", ".mov", ".webm")
TRUTH_FRAMES = "frames_truth.jsonl"


class SessionError(ValueError):
    """A recorded-session folder that cannot be read."""


@dataclass(frozen=True)
class Session:
    folder: Path
    setup: TableSetup
    frames: tuple[tuple[int, Any], ...]  # (ms, a path, or (video path, index))
    duration_ms: int


class FrameReader(Protocol):
    """Reads one frame: what stands on the board, and whether the board has been still."""

    name: str

    def read(self, t_ms: int, frame: Any) -> tuple[Observation, bool]: ...


# -- reading ------------------------------------------------------------------------------------


def open_session(folder: str | Path) -> Session:
    folder = Path(folder)
    if not folder.is_dir():
        raise SessionError(f"{folder}: not a folder")
    path = folder / "session.json"
    if not path.is_file():
        raise SessionError(f"{folder}: no session.json")
    try:
        setup = TableSetup.from_json(path.read_text(encoding="utf-8"))
    except SetupError as e:
        raise SessionError(f"{path}: {e}") from None
    frames = _frames(folder)
    last = [frames[-1][0]] if frames else []
    for name in ("cup.log", "actions.jsonl"):
        p = folder / name
        if p.is_file():
            tail = p.read_text(encoding="utf-8", errors="replace").strip().rsplit("\n", 1)[-1]
            m = re.match(r'^\s*(\d+)\t|.*"t"\s*:\s*(\d+)', tail)
            if m:
                last.append(int(m.group(1) or m.group(2)))
    return Session(folder, setup, tuple(frames), max(last, default=0))


def _frames(folder: Path) -> list[tuple[int, Any]]:
    images = folder / "frames"
    if images.is_dir():
        found = []
        for p in images.iterdir():
            m = FRAME_NAME.match(p.name)
            if m:
                found.append((int(m.group(1)), p))
        return sorted(found, key=lambda x: x[0])
    videos = [p for p in folder.iterdir() if p.suffix.lower() in VIDEO_EXT]
    if not videos:
        return []
    index = folder / "frames.csv"
    if not index.is_file():
        raise SessionError(f"{folder}: a video needs frames.csv (index,ms)")
    out = []
    with open(index, newline="") as fh:
        for n, row in enumerate(csv.reader(fh), 1):
            if not row or row[0].strip().lower() == "index":
                continue
            try:
                out.append((int(row[1]), (videos[0], int(row[0]))))
            except (ValueError, IndexError):
                raise SessionError(f"frames.csv line {n}: not index,ms") from None
    return sorted(out, key=lambda x: x[0])


def read_actions(path: Path) -> Iterator[Action]:
    with open(path, encoding="utf-8") as fh:
        for n, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                d = json.loads(line)
                if not isinstance(d, dict):
                    raise EventError("not a JSON object")
                position = d.get("position")
                if position is not None:
                    from nardy.rules.position import Position

                    position = Position.from_json(position)
                yield Action(
                    t_ms=int(d["t"]),
                    kind=str(d["kind"]),
                    by=str(d["by"]),
                    play=d.get("play"),
                    position=position,
                    level=d.get("level"),
                    dice=None if d.get("dice") is None else tuple(int(x) for x in d["dice"]),
                )
            except (json.JSONDecodeError, KeyError, TypeError, ValueError) as e:
                raise SessionError(f"{path.name} line {n}: {e}") from None


class CameraDice:
    """Turns the dice the camera sees into throws, for tables with no cup.

    A throw is dice appearing on a still board after a still board showed none (the last
    player picked theirs up). It is void when a die is cocked, off the board or on the bar, the
    dice lie in different halves, or the camera sees other than two (one hidden, or misread:
    the rules have no throw of one die, so it is thrown again).
    """

    def __init__(self) -> None:
        self.cleared = True

    def feed(self, t_ms: int, obs: Observation, still: bool) -> DiceThrown | None:
        if not obs.usable or not still:
            return None
        if not obs.dice:
            self.cleared = True
            return None
        if not self.cleared:
            return None
        self.cleared = False
        dice = obs.dice
        why = None
        if len(dice) != 2:
            why = "count"
        elif any(d.where == "off" for d in dice):
            why = "off"
        elif any(not d.flat for d in dice):
            why = "cocked"
        elif len({d.where for d in dice}) > 1 or any(d.where == "bar" for d in dice):
            why = "split"
        elif any(d.value == 0 for d in dice):
            why = "unread"
        if why == "split":
            # The opening roll: one die each, light's in the right half (its home side).
            dice = tuple(sorted(dice, key=lambda d: d.where != "right"))
        values = tuple(d.value for d in dice)
        return DiceThrown(t_ms, "vision", values, why is None, why)


class FrameInput:
    """What one frame's reading tells the referee, live or replayed: the board seen, and the
    dice (compared with the cup's when both are read; the throws themselves with no cup)."""

    def __init__(self, dice_source: str) -> None:
        self.camera_dice = CameraDice() if dice_source == "camera" else None
        self.both = dice_source == "both"

    def events(self, t_ms: int, obs: Observation, still: bool) -> list[Event]:
        out: list[Event] = []
        if self.camera_dice is not None:
            thrown = self.camera_dice.feed(t_ms, obs, still)
            if thrown is not None:
                out.append(thrown)
        elif self.both and obs.usable and obs.dice:
            out.append(DiceSeen(t_ms, obs.dice, still))
        out.append(BoardSeen(t_ms, obs, still))
        return out


def frame_events(session: Session, reader: FrameReader) -> Iterator[tuple[int, int, Event]]:
    frames = FrameInput(session.setup.dice_source)
    for ms, frame in session.frames:
        obs, still = reader.read(ms, frame)
        for event in frames.events(ms, obs, still):
            yield ms, 1 if not isinstance(event, BoardSeen) else 2, event


def read_session(session: Session, reader: FrameReader | None) -> Iterator[Event]:
    """Every input event of the session, merged in time order (ties: cup, frames, actions)."""
    streams: list[Iterator[tuple[int, int, Event]]] = []
    cup = session.folder / "cup.log"
    if cup.is_file():
        streams.append((e.t_ms, 0, e) for e in read_cup_log(cup))
    if session.frames:
        if reader is None:
            raise SessionError(f"{session.folder}: has frames but no frame reader")
        streams.append(frame_events(session, reader))
    actions = session.folder / "actions.jsonl"
    if actions.is_file():
        streams.append((a.t_ms, 3, a) for a in read_actions(actions))
    try:
        for _, _, event in heapq.merge(*streams, key=lambda x: (x[0], x[1])):
            yield event
    except CupLogError as e:
        raise SessionError(str(e)) from None


# -- frame readers ------------------------------------------------------------------------------


class TruthReader:
    """A stand-in for vision: each frame's truth from ``frames_truth.jsonl``, not its pixels."""

    name = "truth (stand-in for vision)"

    def __init__(self, folder: Path) -> None:
        path = folder / TRUTH_FRAMES
        if not path.is_file():
            raise SessionError(f"{folder}: no {TRUTH_FRAMES} to stand in for vision")
        self.truth: dict[int, tuple[Observation, bool]] = {}
        with open(path, encoding="utf-8") as fh:
            for n, line in enumerate(fh, 1):
                try:
                    d = json.loads(line)
                    obs = observation_from_json(d["observation"])
                    self.truth[int(d["ms"])] = (obs, bool(d["still"]))
                except (json.JSONDecodeError, KeyError, TypeError, ValueError) as e:
                    raise SessionError(f"{TRUTH_FRAMES} line {n}: {e}") from None

    def read(self, t_ms: int, frame: Any) -> tuple[Observation, bool]:
        try:
            return self.truth[t_ms]
        except KeyError:
            raise SessionError(f"{TRUTH_FRAMES} has no frame at {t_ms} ms") from None


#: The frame interval vision's stillness settings are made for (its clips run at 5 frames/s).
FRAME_MS = 200


class VisionReader:
    """Reads frames with ``nardy.vision``: a board profile, or the board's corners, or neither
    (vision then finds the board itself), live or from a recording.

    The still signal is vision's own tracker, with the numbers of quiet frames it wants scaled
    to the time between frames (a recording may keep only a frame or two a second). A frame is
    an image, or a recorded session's reference to one (a file, or a video and an index).

    Vision numbers the points as the board lies in the image; the referee counts them in light's
    numbering. The orientation between the two is the profile's, or else it is found on the
    first clear frame that shows the variant's starting position (``start``, in light's
    numbering) and kept. Until then light's ace point is taken to be the image's point 1.
    The board is read with the profile as it was given or measured (its reader's maps built
    once); the orientation joins it only where it counts, for the cube's side.
    """

    name = "nardy.vision"

    def __init__(
        self,
        profile: Any = None,
        corners: Any = None,
        frame_ms: int = FRAME_MS,
        checkers_per_side: int | None = None,
        start: tuple[int, ...] | None = None,
    ) -> None:
        from nardy.vision.config import VisionConfig
        from nardy.vision.detect import detect_image, with_objects
        from nardy.vision.still import StillnessTracker

        self.detect = detect_image
        self.with_objects = with_objects
        self.frames = _Frames()
        self.profile = profile
        self.corners = corners
        # the referee knows the game, vision does not: how many checkers each side has lets it
        # read a whole board as the likeliest counts that add up
        self.config = VisionConfig(checkers_per_side=checkers_per_side)
        self.tracker = StillnessTracker(_scaled(self.config, frame_ms))
        self.start = start
        self.orientation = getattr(profile, "orientation", None)
        #: The last frame's full result (``nardy.vision.detect.DetectResult``), for drawing.
        self.last: Any = None

    @classmethod
    def for_table(
        cls, setup: TableSetup, profile: Any = None, frame_ms: int = FRAME_MS
    ) -> VisionReader:
        """A reader told what the table's variant tells vision: the checkers a side has and
        the starting position."""
        variant = _variant(setup)
        start = None
        if variant is not None and variant.layout is not None:
            start = variant.start().points
        checkers = variant.checkers if variant is not None else None
        return cls(profile, setup.corners, frame_ms, checkers, start)

    @classmethod
    def for_session(cls, session: Session) -> VisionReader:
        """A reader with the session's profile (or corners) and frame rate."""
        profile = None
        if session.setup.profile:
            from nardy.calibration import BoardProfile

            try:
                profile = BoardProfile.load(session.folder / session.setup.profile)
            except (OSError, ValueError) as e:
                raise SessionError(f"{session.setup.profile}: {e}") from None
        times = [ms for ms, _ in session.frames]
        gaps = sorted(b - a for a, b in itertools.pairwise(times)) or [FRAME_MS]
        return cls.for_table(session.setup, profile, gaps[len(gaps) // 2])

    def read(self, t_ms: int, frame: Any) -> tuple[Observation, bool]:
        """The frame's reading, and whether the board is still. The dice and the cube are
        read only on a still board: the referee acts on nothing else, and they cost many times
        what the checkers do (a frame with a hand in it, or a board still moving, skips them)."""
        image = self.frames.image(frame)
        result = self.detect(
            image, profile=self.profile, corners=self.corners, config=self.config, objects=False
        )
        if self.profile is None and result.reading.usable:
            # the layout measured round the corners (or the board found with no help) on a
            # clear frame is the calibration: it is not made again on every frame (nor thrown
            # by a hand over a later one)
            self.profile = result.profile
        if self.orientation is None and self.start is not None and result.reading.usable:
            self.orientation = _start_orientation(result.reading.points, self.start)
        still = self.tracker.update(image, usable=result.reading.usable).still
        still = still and result.reading.usable
        if still:
            oriented = result.profile.with_orientation(self.orientation)  # the cube's side
            result = self.with_objects(dataclasses.replace(result, profile=oriented), image)
        self.last = result
        obs = observation_from_json(result.to_json())
        if self.orientation is not None:
            obs = _in_light_terms(obs, self.orientation)
        return obs, still


def _variant(setup: TableSetup) -> Any:
    """The table's variant from the rules engine (None: an unknown variant or option, which
    the referee reports itself)."""
    from nardy.rules.variant import get_variant

    try:
        return get_variant(setup.variant, **dict(setup.options))
    except (TypeError, ValueError):
        return None


def _start_orientation(image_points: tuple[int, ...], start: tuple[int, ...]) -> Any:
    """The orientation under which a reading is the starting position, or None."""
    from nardy.calibration import OrientationError, orientation_of

    try:
        return orientation_of(image_points, start, "the starting position")
    except OrientationError:
        return None


def _in_light_terms(obs: Observation, orientation: Any) -> Observation:
    """``obs`` read as the board lies in the image, told in light's numbering: the points
    renumbered, and the dice's halves named as if light's home were the right half."""
    dice = obs.dice
    if orientation.home_half == "left":
        swap = {"left": "right", "right": "left"}
        dice = tuple(dataclasses.replace(d, where=swap.get(d.where, d.where)) for d in dice)
    return dataclasses.replace(obs, points=tuple(orientation.to_light(obs.points)), dice=dice)


def _scaled(config: Any, gap_ms: int) -> Any:
    """Vision's stillness settings, counted in frames, for a recording ``gap_ms`` apart."""
    k = FRAME_MS / max(gap_ms, 1)
    still = max(1, round(config.still_frames * k))
    changes: dict[str, int] = {"still_frames": still}
    if hasattr(config, "settle_frames"):
        changes["settle_frames"] = max(still, round(config.settle_frames * k))
    return dataclasses.replace(config, **changes)


class _Frames:
    """Frames from image files, or from a video read in order (seeking only when it must)."""

    def __init__(self) -> None:
        self.video: tuple[Path, Any] | None = None
        self.next_index = 0

    def image(self, frame: Any) -> Any:
        import cv2

        if isinstance(frame, np.ndarray):
            return frame
        if isinstance(frame, Path):
            image = cv2.imread(str(frame), cv2.IMREAD_COLOR)
        else:
            path, index = frame
            if self.video is None or self.video[0] != path:
                self.video = (path, cv2.VideoCapture(str(path)))
                self.next_index = 0
            cap = self.video[1]
            if index != self.next_index:
                cap.set(cv2.CAP_PROP_POS_FRAMES, index)
            ok, image = cap.read()
            self.next_index = index + 1
            image = image if ok else None
        if image is None:
            raise SessionError(f"cannot read frame {frame}")
        return image


# -- replaying ----------------------------------------------------------------------------------


def replay(
    folder: str | Path,
    *,
    truth_frames: bool = False,
    rules: Any = None,
    progress: Callable[[int], None] | None = None,
) -> Any:
    """Run a recorded session through the live code path; returns the finished LiveTable."""
    from nardy.referee.live import LiveTable
    from nardy.referee.store import EventStore

    session = open_session(folder)
    reader: FrameReader | None = None
    if session.frames:
        reader = TruthReader(session.folder) if truth_frames else VisionReader.for_session(session)
    table = LiveTable(EventStore(":memory:"), session.setup, rules=rules)
    for event in read_session(session, reader):
        table.submit(event)
        if progress is not None:
            progress(event.t_ms)
    return table


# -- writing ------------------------------------------------------------------------------------


class SessionWriter:
    """Writes a recorded-session folder as a live table runs (every line flushed as written)."""

    def __init__(self, folder: str | Path) -> None:
        self.folder = Path(folder)
        (self.folder / "frames").mkdir(parents=True, exist_ok=True)
        self._cup = open(self.folder / "cup.log", "a", encoding="utf-8")  # noqa: SIM115
        self._actions = open(self.folder / "actions.jsonl", "a", encoding="utf-8")  # noqa: SIM115

    def write_setup(self, setup: TableSetup, profile: dict[str, Any] | None = None) -> None:
        data = setup.to_json()
        if profile is not None:
            (self.folder / "profile.json").write_text(json.dumps(profile, indent=1))
            data["profile"] = "profile.json"
        (self.folder / "session.json").write_text(json.dumps(data, indent=1) + "\n")

    def write_action(self, action: Action) -> None:
        d: dict[str, Any] = {"t": action.t_ms, "kind": action.kind, "by": action.by}
        if action.play is not None:
            d["play"] = action.play
        if action.position is not None:
            d["position"] = action.position.to_json()
        if action.level is not None:
            d["level"] = action.level
        if action.dice is not None:
            d["dice"] = list(action.dice)
        self._actions.write(json.dumps(d, separators=(",", ":")) + "\n")
        self._actions.flush()

    def write_cup_line(self, t_ms: int, direction: str, line: str) -> None:
        self._cup.write(f"{t_ms}\t{direction}\t{line.rstrip()}\n")
        self._cup.flush()

    def write_frame(self, t_ms: int, encoded: bytes, ext: str = "jpg") -> Path:
        path = self.folder / "frames" / f"{t_ms:09d}.{ext}"
        path.write_bytes(encoded)
        return path

    def close(self) -> None:
        self._cup.close()
        self._actions.close()
