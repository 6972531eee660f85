"""Reading one 1280×720 frame, single-threaded, beside decoding that JPEG frame in the same run.

    PYTHONPATH=src python benchmarks/vision.py [IMAGE.jpg]

Prints the median time of each and their ratio (the aim: reading under 2× the decode).
"""

from __future__ import annotations

import os

# single-threaded means the BLAS under NumPy too (set before NumPy is first imported)
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("MKL_NUM_THREADS", "1")

import sys
import time
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "vision"))

from nardy.calibration import BoardProfile
from nardy.vision.board import BoardReader


def _frame_and_profile(path: str | None) -> tuple[bytes, BoardProfile]:
    if path:
        import json

        data = Path(path).read_bytes()
        truth = json.loads(Path(path).with_suffix(".json").read_text())
        image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
        size = (image.shape[1], image.shape[0])
        return data, BoardProfile.from_corners(truth["corners"], size)
    from vision_drawn import START, draw_board, photograph

    flat, corners = draw_board(START)
    photo, seen = photograph(flat, corners, size=(1280, 720))
    ok, jpg = cv2.imencode(".jpg", photo, [cv2.IMWRITE_JPEG_QUALITY, 85])
    assert ok
    return jpg.tobytes(), BoardProfile.from_corners(seen, (1280, 720))


def _interleaved(fns, repeat: int) -> list[float]:
    """Median time of each function, run in turn so that both see the same load."""
    times: list[list[float]] = [[] for _ in fns]
    for _ in range(repeat):
        for i, fn in enumerate(fns):
            t0 = time.perf_counter()
            fn()
            times[i].append(time.perf_counter() - t0)
    return [float(np.median(t)) for t in times]


def main() -> int:
    cv2.setNumThreads(1)
    data, profile = _frame_and_profile(sys.argv[1] if len(sys.argv) > 1 else None)
    buf = np.frombuffer(data, np.uint8)
    frame = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    reader = BoardReader(profile)
    reader.read(frame)  # the sampling maps are built once per profile, not per frame
    repeat = 60
    decode, read, check = _interleaved(
        [
            lambda: cv2.imdecode(buf, cv2.IMREAD_COLOR),
            lambda: reader.read(frame),
            lambda: reader.check.judge(frame),
        ],
        repeat,
    )
    print(f"frame {frame.shape[1]}×{frame.shape[0]}, single-threaded, median of {repeat}")
    print(f"decode JPEG: {decode * 1000:7.2f} ms")
    print(f"read board:  {read * 1000:7.2f} ms  ({1 / read:.0f} frames/s)")
    print(f"ratio read / decode: {read / decode:.2f}×  (aim < 2×)")
    print(
        f"of which the usability checks (network, blur, edges): {check * 1000:.2f} ms "
        f"({check / decode:.2f}× the decode)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
