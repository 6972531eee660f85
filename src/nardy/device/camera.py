"""Frame sources: a camera, a video file, a folder of images, a network stream.

Every source yields :class:`Frame` values with the time they were taken in milliseconds, so a
recorded session and a live camera look the same to whatever reads them. Recorded folders name
each image by its time (``000001234.jpg``); a video carries its times in ``frames.csv``
(``index,ms``), or, without one, the times follow from the video's frame rate.
"""

from __future__ import annotations

import csv
import re
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import cv2
import numpy as np

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png")
VIDEO_SUFFIXES = (".mp4", ".avi", ".mkv", ".mov", ".webm")
_TIMED_NAME = re.compile(r"^(\d+)$")


class FrameSourceError(ValueError):
    """A source that cannot be opened or read: a missing folder, a malformed ``frames.csv``…"""


@dataclass(frozen=True, slots=True)
class Frame:
    t_ms: int
    image: np.ndarray
    index: int


class FrameSource(Protocol):
    def frames(self) -> Iterator[Frame]:
        """The frames in order of time. A live source runs until :meth:`close`."""
        ...

    def close(self) -> None: ...


class ImageFolder:
    """A folder of images named by their time in milliseconds (``000001234.jpg``)."""

    def __init__(self, folder: Path | str) -> None:
        self.folder = Path(folder)
        if not self.folder.is_dir():
            raise FrameSourceError(f"{self.folder}: no such folder of frames")
        self._files = sorted(
            (int(m.group(1)), p)
            for p in self.folder.iterdir()
            if p.suffix.lower() in IMAGE_SUFFIXES and (m := _TIMED_NAME.match(p.stem))
        )
        if not self._files:
            raise FrameSourceError(
                f"{self.folder}: no frames named by their time in ms (like 000001234.jpg)"
            )
        #: Files that could not be decoded, with their time: skipped, never silently.
        self.unreadable: list[tuple[int, Path]] = []

    def frames(self) -> Iterator[Frame]:
        for index, (t_ms, path) in enumerate(self._files):
            image = cv2.imread(str(path), cv2.IMREAD_COLOR)
            if image is None:
                self.unreadable.append((t_ms, path))
                continue
            yield Frame(t_ms, image, index)

    def close(self) -> None:
        pass


class VideoFile:
    """A video file readable by OpenCV, with ``frames.csv`` beside it when times matter."""

    def __init__(self, path: Path | str, times: Path | str | None = None) -> None:
        self.path = Path(path)
        if not self.path.is_file():
            raise FrameSourceError(f"{self.path}: no such video file")
        self._capture = cv2.VideoCapture(str(self.path))
        if not self._capture.isOpened():
            raise FrameSourceError(f"{self.path}: OpenCV cannot read this video")
        csv_path = Path(times) if times else self.path.parent / "frames.csv"
        self._times = read_frame_times(csv_path) if csv_path.exists() else None
        fps = self._capture.get(cv2.CAP_PROP_FPS)
        self._fps = fps if fps and fps > 0 else 25.0

    def frames(self) -> Iterator[Frame]:
        index = 0
        while True:
            ok, image = self._capture.read()
            if not ok:
                return
            if self._times is not None:
                if index not in self._times:
                    raise FrameSourceError(f"frames.csv gives no time for frame {index}")
                t_ms = self._times[index]
            else:
                t_ms = round(index * 1000 / self._fps)
            yield Frame(t_ms, image, index)
            index += 1

    def close(self) -> None:
        self._capture.release()


class Camera:
    """A live camera (an index such as ``0``) or a network stream (``rtsp://…``, ``http://…``)."""

    def __init__(self, device: int | str) -> None:
        self.device = device
        self._capture = cv2.VideoCapture(device)
        if not self._capture.isOpened():
            raise FrameSourceError(f"camera {device!r} cannot be opened")
        self._closed = False

    def frames(self) -> Iterator[Frame]:
        start = time.monotonic()
        index = 0
        while not self._closed:
            ok, image = self._capture.read()
            if not ok:
                raise FrameSourceError(f"camera {self.device!r} stopped sending frames")
            yield Frame(round((time.monotonic() - start) * 1000), image, index)
            index += 1

    def close(self) -> None:
        self._closed = True
        self._capture.release()


def read_frame_times(path: Path | str) -> dict[int, int]:
    """``frames.csv``: a header ``index,ms`` and one row a frame."""
    path = Path(path)
    times: dict[int, int] = {}
    with path.open(newline="") as f:
        rows = csv.reader(f)
        header = next(rows, None)
        if header is None or [h.strip() for h in header] != ["index", "ms"]:
            raise FrameSourceError(f"{path}: the first line must be 'index,ms'")
        for line, row in enumerate(rows, start=2):
            try:
                index, ms = (int(v) for v in row)
            except ValueError:
                raise FrameSourceError(f"{path}:{line}: expected two integers, got {row}") from None
            times[index] = ms
    return times


def open_source(spec: str | Path) -> FrameSource:
    """A source from what a user types: a camera index, a folder, a video file or a URL."""
    text = str(spec)
    if text.isdigit():
        return Camera(int(text))
    if "://" in text:
        return Camera(text)
    path = Path(text)
    if path.is_dir():
        return ImageFolder(path)
    if path.is_file():
        return VideoFile(path)
    raise FrameSourceError(f"{text}: not a camera index, a folder of frames, a video or a URL")


def open_recorded(folder: Path | str) -> FrameSource | None:
    """The frames of a recorded session: ``frames/``, or its video with ``frames.csv``.

    None when the session has no frames (a table with no camera).
    """
    folder = Path(folder)
    if (folder / "frames").is_dir():
        return ImageFolder(folder / "frames")
    videos = sorted(p for p in folder.iterdir() if p.suffix.lower() in VIDEO_SUFFIXES)
    if not videos:
        return None
    if len(videos) > 1:
        raise FrameSourceError(
            f"{folder}: more than one video ({', '.join(p.name for p in videos)})"
        )
    times = folder / "frames.csv"
    if not times.is_file():
        raise FrameSourceError(f"{folder}: a video needs frames.csv (index,ms) beside it")
    return VideoFile(videos[0], times)
