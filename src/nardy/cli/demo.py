"""``nardy demo``: a recorded session replayed through the live code path, on the dashboard."""

from __future__ import annotations

import argparse
from pathlib import Path

from nardy.cli.common import UsageError

HELP = "replay a bundled recorded game at table speed and serve the live dashboard"

#: The session the demo plays unless told otherwise: a match to 3 with a Crawford game, the cube,
#: an illegal move accepted and one replayed. It is one of the referee's fixture sessions, so it
#: comes with a source checkout (``pip install -e .``), not with a wheel.
BUNDLED = (
    Path(__file__).resolve().parents[3] / "tests" / "fixtures" / "sessions" / "backgammon_match3"
)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--session",
        type=Path,
        default=BUNDLED,
        help="a recorded-session folder to play instead of the bundled one",
    )
    p.add_argument(
        "--speed",
        type=float,
        default=1.0,
        help="how many times faster than the table played it (default 1)",
    )
    p.add_argument("--host", default="127.0.0.1", help="address to serve on (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8000, help="port to serve on (0: any free one)")
    p.add_argument(
        "--truth-frames",
        action="store_true",
        help="let the recording's truth for each frame stand in for vision (default: the "
        "frames are read with nardy.vision, as a camera's would be)",
    )
    p.add_argument(
        "--exit-when-done",
        action="store_true",
        help="stop when the session has been played (for scripts and tests)",
    )


def run(args: argparse.Namespace) -> int:
    if not args.speed > 0:
        raise UsageError("--speed must be a positive number")
    if not (0 <= args.port <= 65535):
        raise UsageError("--port must be 0–65535")
    from nardy.referee.session import SessionError
    from nardy.station.demo import start_demo
    from nardy.webui import create_app
    from nardy.webui.hub import TableHub
    from nardy.webui.server import start_server, url_of, wait_forever

    if args.session is None:
        if not (BUNDLED / "session.json").is_file():
            raise UsageError(
                "the bundled session comes with a source checkout of nardy-companion; "
                "give a recorded session with --session FOLDER"
            )
        args.session = BUNDLED
    try:
        demo = start_demo(args.session, speed=args.speed, truth_frames=args.truth_frames)
    except (SessionError, OSError, ValueError) as e:
        raise UsageError(f"{args.session}: {e}") from None
    hub = TableHub()
    seat = hub.add("demo", demo.station)
    demo.station.on_change = seat.touch
    try:
        server = start_server(create_app(hub=hub), args.host, args.port)
    except OSError as e:
        demo.stop()
        raise UsageError(f"cannot serve on {args.host}:{args.port}: {e.strerror or e}") from None
    print(
        f"nardy demo: {demo.session.folder.name} at {args.speed:g}× table speed; dice thrown "
        "by the emulated cup on a pseudo-terminal and read by the real driver",
        flush=True,
    )
    print(
        "the board in each frame is "
        + (
            "the recording's truth, standing in for vision"
            if args.truth_frames
            else "read by nardy.vision from the recorded camera frames"
        ),
        flush=True,
    )
    print(f"dashboard: {url_of(server, '/table/demo')}  (table PIN {seat.pin})", flush=True)
    try:
        wait_forever(demo.finished if args.exit_when_done else None)
    finally:
        server.shutdown()
        record = demo.station.live.record()
        demo.stop()
    games = record.get("games", []) if isinstance(record, dict) else []
    print(f"played {sum(len(g.get('turns', [])) for g in games)} turns in {len(games)} game(s)")
    return 0
