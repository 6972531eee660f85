"""Reading the dice in one 1280×720 frame, single-threaded, beside decoding that JPEG frame.

    PYTHONPATH=src python benchmarks/dice.py [IMAGE.jpg]

Without an image: the first rendered board fixture with dice (``tests/fixtures/boards``), else a
real dice photograph scaled up to 1280×720. Prints the median time of each and their ratio: the
dice read as in any photograph, and (when the frame's truth gives the board's inner corners, as
a profile does) read knowing the board, and so again with no look for a shaken camera's smear
(``DiceConfig.smear``): on a still frame what the blur check costs, on a shaken one (a
``motion-*`` fixture) what undoing the smear costs too, timed turn about in the same run.
Told the board, ``find_dice`` also finds the doubling cube when it found a die (its number is
no die, ``DiceConfig.board_cube_apart``): about 11-16 ms of the read since session 17;
``nardy detect`` finds the cube once and hands it over (``benchmarks/vision.py --detect``).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from nardy.vision.dice import DiceConfig, find_dice  # noqa: E402


def _frame(path: str | None) -> tuple[bytes, str, list | None]:
    """The frame's bytes, its name, and its board's inner corners when its truth gives them."""
    if path:
        truth = Path(path).with_suffix(".json")
        corners = json.loads(truth.read_text()).get("corners") if truth.exists() else None
        return Path(path).read_bytes(), path, corners
    for jpg in sorted((ROOT / "tests" / "fixtures" / "boards").glob("*.jpg")):
        truth = jpg.with_suffix(".json")
        if truth.exists() and (data := json.loads(truth.read_text())).get("dice"):
            return jpg.read_bytes(), str(jpg.relative_to(ROOT)), data.get("corners")
    real = sorted((ROOT / "tests" / "fixtures" / "dice-real").glob("*.jpg"))[0]
    image = cv2.resize(cv2.imread(str(real)), (1280, 720), interpolation=cv2.INTER_CUBIC)
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 90])
    assert ok
    return data.tobytes(), f"{real.relative_to(ROOT)} scaled to 1280×720", None


def _median_time(fn, repeat: int) -> float:  # type: ignore[no-untyped-def]
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return float(np.median(times))


def _median_times(fns: list, repeat: int) -> list[float]:  # type: ignore[type-arg]
    """Each function's median time, the functions run turn about (a noisy machine slows
    whichever runs in a slow spell; turn about, both)."""
    times: list[list[float]] = [[] for _ in fns]
    for _ in range(repeat):
        for fn, out in zip(fns, times, strict=True):
            t0 = time.perf_counter()
            fn()
            out.append(time.perf_counter() - t0)
    return [float(np.median(t)) for t in times]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("image", nargs="?", help="a JPEG frame (default: a fixture with dice)")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    config = DiceConfig()
    data, name, corners = _frame(args.image)
    buf = np.frombuffer(data, np.uint8)
    frame = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    repeat = 30
    decode = _median_time(lambda: cv2.imdecode(buf, cv2.IMREAD_COLOR), repeat)
    print(f"frame: {name}, {frame.shape[1]}×{frame.shape[0]}")
    print(f"decode JPEG: {decode * 1e3:.2f} ms")
    ways = [("any photograph", None)] + ([("board's corners known", corners)] if corners else [])
    for what, known in ways:
        dice = find_dice(frame, config, known)
        read = _median_time(lambda known=known: find_dice(frame, config, known), repeat)
        print(
            f"read dice, {what}: {read * 1e3:.2f} ms ({1 / read:.0f} frames/s), "
            f"{len(dice)} dice; / decode: {read / decode:.2f}× (aim: under 2×)"
        )
    if corners:
        still = replace(config, smear=None)
        looked, not_looked = _median_times(
            [lambda: find_dice(frame, config, corners), lambda: find_dice(frame, still, corners)],
            repeat,
        )
        print(
            f"board's corners known, turn about: {looked * 1e3:.2f} ms with the look for a "
            f"shaken camera's smear, {not_looked * 1e3:.2f} ms without "
            f"({looked / not_looked:.2f}×)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
