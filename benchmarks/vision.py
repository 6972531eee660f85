"""Reading one 1280×720 frame, single-threaded, beside decoding that JPEG frame in the same run.

    PYTHONPATH=src python benchmarks/vision.py [IMAGE.jpg ...] [--detect] [--repeat N]

With no image, two frames: the plainly drawn board of ``tests/vision`` (a drawn frame
compresses well, so it decodes faster than a photo) and the fixture photo ``bg-mid-010.jpg``.
For each it prints the median and the best time of decoding and of reading the board (a reader
kept from frame to frame, as a live table keeps it), their ratio (the aim: reading under 2× the
decode), and the read's stages. ``--detect`` also times the whole of ``detect_image`` (the dice
and the cube as well, each read from the whole frame). An image needs its truth beside it
(``NAME.json`` with the board's ``corners``, as the fixtures have).

Times are the process's CPU time (``time.process_time``, every thread of it, so a stray BLAS
or OpenCV thread would count): on a machine shared with other jobs, wall time also counts the
turns the others take on the cores. Both are still slowed by the others' use of the caches, a
read of many steps probably more than one decode: a ratio measured on a loaded machine may be
higher than on an idle one.
"""

from __future__ import annotations

import os

# single-threaded means the BLAS under NumPy too (set before NumPy is first imported)
os.environ["OPENBLAS_NUM_THREADS"] = "1"
os.environ["OMP_NUM_THREADS"] = "1"
os.environ["MKL_NUM_THREADS"] = "1"

import argparse
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "vision"))

from nardy.calibration import BoardProfile
from nardy.vision.bar_trays import read_bar, read_trays
from nardy.vision.board import BoardReader
from nardy.vision.checkers import read_tiles, settle_colours
from nardy.vision.config import VisionConfig
from nardy.vision.hand_tiles import hand_probs
from nardy.vision.sampler import Tiles
from nardy.vision.usable import (
    FrameCheck,
    board_light,
    edge_drift,
    frame_intruder,
    hand_over_tiles,
    strips_gray,
    surface_blur,
    surface_glare,
)

PHOTO = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "boards" / "bg-mid-010.jpg"


def _frame_and_profile(path: Path | None) -> tuple[str, bytes, BoardProfile]:
    if path is not None:
        data = path.read_bytes()
        truth = json.loads(path.with_suffix(".json").read_text())
        image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
        size = (image.shape[1], image.shape[0])
        return path.name, data, BoardProfile.from_corners(truth["corners"], size)
    from vision_drawn import START, draw_board, photograph

    flat, corners = draw_board(START)
    photo, seen = photograph(flat, corners, size=(1280, 720))
    ok, jpg = cv2.imencode(".jpg", photo, [cv2.IMWRITE_JPEG_QUALITY, 85])
    assert ok
    return "drawn board", jpg.tobytes(), BoardProfile.from_corners(seen, (1280, 720))


def _interleaved(fns: list[Callable[[], object]], repeat: int) -> list[tuple[float, float]]:
    """Median and best time of each function, run in turn so that all see the same load."""
    times: list[list[float]] = [[] for _ in fns]
    for _ in range(repeat):
        for i, fn in enumerate(fns):
            t0 = time.process_time()
            fn()
            times[i].append(time.process_time() - t0)
    return [(float(np.median(t)), float(np.min(t))) for t in times]


def _edges_light_glare(
    check: FrameCheck, config: VisionConfig, frame: np.ndarray, tiles: Tiles
) -> tuple[object, ...]:
    """As ``BoardReader`` runs them: the points' strips in grey made once for light and glare."""
    strips = strips_gray(tiles.strip_row())
    return (
        edge_drift(check.edges(frame), config),
        board_light(strips, tiles.levels, config),
        surface_glare(strips, tiles.raw_level(config.glare_level), config),
    )


def _stages(reader: BoardReader, frame: np.ndarray) -> dict[str, Callable[[], object]]:
    """The read's stages one by one, as ``BoardReader`` runs them on a frame."""
    tiles = reader.sampler.sample(frame)
    cells = tiles.checker_tiles()
    read = read_tiles(cells, config=reader.config)
    levels, whole = tiles.levels, reader.trays_in_view
    check, config = reader.check, reader.config
    stages: dict[str, Callable[[], object]] = {
        "sampling (one remap, levels)": lambda: reader.sampler.sample(frame),
        "usability network (view, net)": lambda: check.clear(frame),
        "motion blur (strips, as the read)": lambda: check.motion_blur(
            frame, strips_gray(tiles.strip_row())
        ),
        "motion blur (surface, strips unsure)": lambda: surface_blur(
            check.surface_gray(frame), config
        ),
        "edges, light, glare": lambda: _edges_light_glare(check, config, frame, tiles),
        "frame band (when unsure)": lambda: frame_intruder(
            reader.sampler.band(frame, tiles.levels),
            reader.sampler.band_sides,
            reader.sampler.band_in_view,
            reader.config,
        ),
        "hand on the tiles (when unsure)": lambda: hand_over_tiles(
            hand_probs(cells[:26], config.hand_fine_from), config
        ),
        "checker networks (fast, fine)": lambda: read_tiles(cells[:26], config=reader.config),
        "bar's own tiles, net (unsure)": lambda: _bar_and_trays(reader, frame, levels, False),
        "colours settled": lambda: settle_colours(cells, read, reader.config),
    }
    if whole:
        stages["bar's and trays' own (in view)"] = lambda: _bar_and_trays(
            reader, frame, levels, True
        )
    return stages


def _bar_and_trays(reader: BoardReader, frame: np.ndarray, levels, whole: bool) -> None:
    """The bar's and the trays' own sampling and networks: with the trays in view (``whole``)
    one remap of both, on every frame; else the bar's tiles alone, sampled only when the bar's
    network is asked (the bar's halves' reading by the checker networks is timed with
    those)."""
    tiles = reader.bar_trays.sample(frame, levels, trays=whole)
    read_bar(tiles.bar)
    if tiles.trays is not None:
        read_trays(tiles.trays, tiles.lifted)


def bench(path: Path | None, detect: bool, repeat: int = 60) -> float:
    name, data, profile = _frame_and_profile(path)
    buf = np.frombuffer(data, np.uint8)
    frame = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    reader = BoardReader(profile)
    reader.read(frame)  # the sampling maps are built once per profile, not per frame
    stages = _stages(reader, frame)
    timed = _interleaved(
        [
            lambda: cv2.imdecode(buf, cv2.IMREAD_COLOR),
            lambda: reader.read(frame),
            lambda: BoardReader(profile).read(frame),
            *stages.values(),
        ],
        repeat,
    )
    (decode, best_decode), (read, best_read), (fresh, _) = timed[:3]
    print(f"{name}: {frame.shape[1]}×{frame.shape[0]}, single-threaded, {repeat} runs")
    print(f"  decode JPEG:  {decode * 1000:7.2f} ms  (best {best_decode * 1000:.2f})")
    print(
        f"  read board:   {read * 1000:7.2f} ms  (best {best_read * 1000:.2f}; "
        f"{1 / read:.0f} frames/s)"
    )
    best = best_read / best_decode
    print(f"  ratio read / decode: {read / decode:.2f}×  (best {best:.2f}×)  aim < 2×")
    print(f"  a new reader for the frame (its maps built again): {fresh * 1000:.2f} ms")
    for stage, (t, _) in zip(stages, timed[3:], strict=True):
        print(f"    {stage:32s} {t * 1000:6.2f} ms  ({t / decode:.2f}× the decode)")
    if detect:
        from nardy.vision.cube import find_cube
        from nardy.vision.detect import detect_image
        from nardy.vision.dice import find_dice

        seen = find_cube(frame, profile)  # detect_image finds the cube once, for the dice too
        (whole, _), (dice, _), (cube, _) = _interleaved(
            [
                lambda: detect_image(frame, profile),
                lambda: find_dice(frame, corners=profile.corners, cube=seen),  # as detect reads
                lambda: find_cube(frame, profile),
            ],
            5,
        )
        print(
            f"  detect_image (board, dice, cube): {whole * 1000:.0f} ms ({whole / decode:.1f}× "
            f"the decode), of which dice {dice * 1000:.0f} ms ({dice / decode:.1f}×), "
            f"cube {cube * 1000:.0f} ms"
        )
    return read / decode


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument(
        "images",
        nargs="*",
        type=Path,
        help="JPEG frames, each with NAME.json giving the board's corners "
        "(default: a drawn board and bg-mid-010.jpg)",
    )
    ap.add_argument("--detect", action="store_true", help="also time the whole of detect_image")
    ap.add_argument("--repeat", type=int, default=60, help="runs of each timing (default 60)")
    args = ap.parse_args(argv)
    if args.repeat < 1:
        ap.error("--repeat must be at least 1")
    for path in args.images:
        if not path.is_file() or not path.with_suffix(".json").is_file():
            ap.error(f"{path}: needs the image and its truth {path.with_suffix('.json').name}")
    cv2.setNumThreads(1)
    for path in args.images or [None, PHOTO]:
        bench(path, args.detect, args.repeat)
    return 0


if __name__ == "__main__":
    sys.exit(main())
