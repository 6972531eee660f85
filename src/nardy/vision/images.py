"""Reading image files, with one clear error for a file that is missing or not an image."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np


class ImageError(ValueError):
    """A path that does not hold a readable image."""


def load_image(path: str | Path) -> np.ndarray:
    """The image at ``path`` as BGR uint8."""
    p = Path(path)
    if not p.is_file():
        raise ImageError(f"no such file: {p}")
    data = np.fromfile(str(p), dtype=np.uint8)
    image = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
    if image is None:
        raise ImageError(f"not an image: {p}")
    return image


def load_video(path: str | Path) -> list[np.ndarray]:
    """Every frame of the video at ``path``, in order, as BGR uint8 (a short clip: all in
    memory)."""
    p = Path(path)
    if not p.is_file():
        raise ImageError(f"no such file: {p}")
    capture = cv2.VideoCapture(str(p))
    frames = []
    while True:
        ok, frame = capture.read()
        if not ok:
            break
        frames.append(frame)
    capture.release()
    if not frames:
        raise ImageError(f"not a video: {p}")
    return frames
