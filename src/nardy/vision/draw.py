"""Draw a reading over the image it came from (``nardy detect --draw``)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import cv2
import numpy as np

if TYPE_CHECKING:
    from nardy.vision.detect import DetectResult

GREEN, RED, YELLOW, CYAN = (60, 200, 60), (40, 40, 230), (40, 220, 240), (230, 200, 40)


def draw_result(image: np.ndarray, result: DetectResult, out: str | Path) -> bool:
    """Write ``image`` with the reading drawn over it to ``out``; False if it cannot be written."""
    try:
        return bool(cv2.imwrite(str(out), draw_overlay(image, result)))
    except cv2.error:
        return False


def draw_overlay(image: np.ndarray, result: DetectResult) -> np.ndarray:
    """A copy of ``image`` with the frame, the points' counts, the dice and the verdict drawn."""
    canvas = image.copy()
    profile = result.profile
    reading = result.reading
    scale = max(1.0, image.shape[1] / 1280)
    font = cv2.FONT_HERSHEY_SIMPLEX
    if profile is not None:
        quad = np.array(profile.corners, np.int32)
        cv2.polylines(canvas, [quad], True, GREEN if reading.usable else RED, int(2 * scale))
        for shape in profile.geometry.points():
            tri = profile.board_to_image(shape.triangle()).astype(np.int32)
            cv2.polylines(canvas, [tri], True, CYAN, 1)
            n = reading.points[shape.number - 1]
            label_at = profile.board_to_image([(shape.base[0], shape.base[1] + shape.down * 0.04)])
            x, y = label_at[0]
            text = f"{n:+d}" if n else "0"
            colour = (255, 255, 255) if n > 0 else (30, 30, 30) if n < 0 else (150, 150, 150)
            cv2.putText(
                canvas,
                text,
                (int(x) - 12, int(y) + 6),
                font,
                0.6 * scale,
                (0, 0, 0),
                int(4 * scale),
            )
            cv2.putText(
                canvas, text, (int(x) - 12, int(y) + 6), font, 0.6 * scale, colour, int(2 * scale)
            )
    for d in result.dice:
        x, y, w, h = d.get("box", [d["center"][0] - 10, d["center"][1] - 10, 20, 20])
        cv2.rectangle(canvas, (int(x), int(y)), (int(x + w), int(y + h)), YELLOW, 2)
        tag = f"{d['value']}{'' if d['flat'] else ' cocked'}"
        cv2.putText(canvas, tag, (int(x), int(y) - 4), font, 0.6 * scale, YELLOW, 2)
    status = "usable" if reading.usable else f"NOT USABLE: {reading.why}"
    off = "-" if reading.off is None else f"{reading.off[0]}/{reading.off[1]}"
    line = f"{status}  bar {reading.bar[0]}/{reading.bar[1]}  off {off}"
    if result.cube:
        line += f"  cube {result.cube.get('value')} {result.cube.get('where')}"
    cv2.putText(canvas, line, (10, int(28 * scale)), font, 0.7 * scale, (0, 0, 0), int(5 * scale))
    cv2.putText(
        canvas,
        line,
        (10, int(28 * scale)),
        font,
        0.7 * scale,
        GREEN if reading.usable else RED,
        int(2 * scale),
    )
    return canvas
