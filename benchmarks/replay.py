"""How much faster than real time a recorded session replays (aim: at least 20×).

For each fixture session (or the folders given), the live code path (``nardy.referee.session
.replay``: read, merge, log every event in SQLite, fold) is timed against the session's own length
in the same process; with vision reading the frames when it can, and with the frames' truth
standing in for vision (the referee's own cost). Also printed: decoding every frame alone, the
floor any vision-based replay pays.

    PYTHONPATH=src python benchmarks/replay.py [FOLDER ...] [--repeat N]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SESSIONS = ROOT / "tests" / "fixtures" / "sessions"
sys.path.insert(0, str(ROOT / "tests" / "referee"))


def best_of(repeat: int, fn) -> float:  # type: ignore[no-untyped-def]
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def true_record(folder: Path, table) -> str:  # type: ignore[no-untyped-def]
    """Whether the replay gave the session's truth.json ("-" when it has none)."""
    import json

    from session_truth import compare, project

    truth = folder / "truth.json"
    if not truth.is_file():
        return "-"
    try:
        compare(project(table.record()), json.loads(truth.read_text()))
    except AssertionError as e:
        return f"no ({str(e).splitlines()[0]})"
    return "yes"


def decode_all(folder: Path) -> None:
    import cv2

    for p in sorted((folder / "frames").glob("*.jpg")):
        cv2.imread(str(p), cv2.IMREAD_COLOR)


def main() -> int:
    from nardy.referee.session import SessionError, open_session, replay

    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("folders", nargs="*", type=Path)
    p.add_argument("--repeat", type=int, default=3)
    args = p.parse_args()
    folders = args.folders or sorted(d for d in SESSIONS.iterdir() if (d / "session.json").exists())
    if not folders:
        print("no sessions found", file=sys.stderr)
        return 2
    print(
        f"{'session':22s} {'length':>8s} {'frames':>6s} {'decode':>8s} "
        f"{'truth':>8s} {'×real':>7s} {'vision':>8s} {'×real':>7s}"
    )
    totals = [0.0, 0.0, 0.0]
    for folder in folders:
        session = open_session(folder)
        length = session.duration_ms / 1000
        frames = len(session.frames)
        decode = best_of(args.repeat, lambda f=folder: decode_all(f)) if frames else 0.0
        truth = best_of(args.repeat, lambda f=folder, n=frames: replay(f, truth_frames=n > 0))
        verdict = "truth frames: " + true_record(folder, replay(folder, truth_frames=True))
        if frames:
            try:
                t0 = time.perf_counter()
                table = replay(folder)
                vision = time.perf_counter() - t0
                vtext = f"{vision:8.2f} {length / vision:6.0f}×"
                totals[2] += vision
                verdict += "; vision: " + true_record(folder, table)
            except SessionError as e:
                vtext = f"{'n/a':>8s} {'':>7s}"
                verdict += f"; vision: n/a ({e})"[:80]
        else:
            vtext = f"{'-':>8s} {'':>7s}"
        totals[0] += length
        totals[1] += truth
        print(
            f"{folder.name:22s} {length:7.0f}s {frames:6d} {decode:7.2f}s "
            f"{truth:7.3f}s {length / truth:6.0f}× {vtext}  {verdict}"
        )
    print(
        f"{'all':22s} {totals[0]:7.0f}s {'':6s} {'':8s} {totals[1]:7.3f}s "
        f"{totals[0] / totals[1]:6.0f}×"
        + (f" {totals[2]:8.2f} {totals[0] / totals[2]:6.0f}×" if totals[2] else "")
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
