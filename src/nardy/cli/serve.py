"""``nardy serve``: live tables — camera, dice cup, referee — on the dashboard."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from nardy.cli.common import UsageError

HELP = "run a live table (or several from --config) and serve its dashboard"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--config", type=Path, help='a JSON file {"tables": [...]} for several tables')
    p.add_argument("--id", default="table1", help="the table's id in the dashboard's addresses")
    p.add_argument("--name", help="the table's name on the dashboard")
    p.add_argument("--variant", default="backgammon", help="backgammon, caucasian, long, …")
    p.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a variant option (repeatable), e.g. --option crawford=true",
    )
    p.add_argument("--players", default="Light,Dark", help="the light and dark players' names")
    p.add_argument("--match-to", type=int, help="play a match to N points")
    p.add_argument("--stake", type=float, help="money play: the stake per point")
    p.add_argument("--currency", help="the stake's currency")
    p.add_argument("--camera", help="a camera index, a video, a folder of frames or a URL")
    p.add_argument("--cup", help='the dice cup\'s port, or "auto" to look for one')
    p.add_argument("--profile", type=Path, help="the board profile (nardy calibrate)")
    p.add_argument("--corners", help="x1,y1,...,x4,y4: the board's inner corners, no profile")
    p.add_argument("--dice-source", default=None, choices=["cup", "camera", "both"])
    p.add_argument("--move-source", default=None, choices=["camera", "entered"])
    p.add_argument("--record", type=Path, help="the session folder to record into (and resume)")
    p.add_argument("--host", default="127.0.0.1", help="address to serve on (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8000, help="port to serve on (0: any free one)")


def _table_from_flags(args: argparse.Namespace) -> dict:
    players = [s.strip() for s in args.players.split(",")]
    if len(players) != 2 or not all(players):
        raise UsageError("--players is two names: light,dark")
    options = {}
    for item in args.option:
        name, sep, value = item.partition("=")
        if not sep:
            raise UsageError(f"--option {item!r}: expected NAME=VALUE")
        try:
            options[name] = json.loads(value)
        except json.JSONDecodeError:
            options[name] = value
    table = {
        "id": args.id,
        "name": args.name or args.id,
        "variant": args.variant,
        "options": options,
        "players": {"light": players[0], "dark": players[1]},
        "match_to": args.match_to,
        "stake": args.stake,
        "currency": args.currency,
        "camera": args.camera,
        "cup": args.cup,
        "profile": None if args.profile is None else str(args.profile.resolve()),
        "record": None if args.record is None else str(args.record.resolve()),
        "dice_source": args.dice_source or ("cup" if args.cup else "camera"),
        "move_source": args.move_source or ("camera" if args.camera else "entered"),
    }
    if args.match_to is None and args.stake is None:
        table["stake"] = 1.0
    if args.corners:
        from nardy.calibration import ProfileError, parse_corners

        try:
            table["corners"] = [list(c) for c in parse_corners(args.corners)]
        except ProfileError as e:
            raise UsageError(str(e)) from None
    return table


def run(args: argparse.Namespace) -> int:
    from nardy.referee.setup import SetupError
    from nardy.referee.store import StoreError
    from nardy.rules.errors import RulesError
    from nardy.station.build import TableSpec, TableSpecError, read_config, start_table
    from nardy.webui import create_app
    from nardy.webui.hub import TableHub
    from nardy.webui.server import start_server, url_of, wait_forever

    if not (0 <= args.port <= 65535):
        raise UsageError("--port must be 0–65535")
    try:
        specs = (
            read_config(args.config)
            if args.config
            else [TableSpec.from_json(_table_from_flags(args))]
        )
    except (TableSpecError, SetupError) as e:
        raise UsageError(str(e)) from None
    hub = TableHub()
    running = []
    try:
        for spec in specs:
            table = start_table(spec)
            running.append(table)
            seat = hub.add(spec.id, table.station)
            table.station.on_change = seat.touch
        server = start_server(create_app(hub=hub), args.host, args.port)
    except (TableSpecError, SetupError, StoreError, RulesError, OSError) as e:
        for table in running:
            table.stop()
        raise UsageError(str(e)) from None
    for table, seat in zip(running, hub, strict=True):
        print(
            f"{seat.table_id}: {url_of(server, '/table/' + seat.table_id)}  "
            f"(PIN {seat.pin}; recording into {table.folder})",
            flush=True,
        )
    print(f"club view: {url_of(server)}", flush=True)
    try:
        wait_forever()
    finally:
        server.shutdown()
        for table in running:
            table.stop()
    return 0
