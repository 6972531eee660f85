"""``nardy cup``: watch what a dice cup reports, live, or emulate one on a pseudo-terminal."""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

from nardy.cli.common import UsageError

HELP = "show what a dice cup reports, live (or --emulate a cup on a pseudo-terminal)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "port",
        nargs="?",
        help="a serial port (/dev/ttyACM0, a pty) or pyserial URL (socket://host:port); "
        "none: look for a cup among the serial ports",
    )
    parser.add_argument("--json", action="store_true", help="one JSON line an event")
    parser.add_argument("--log", metavar="PATH", help="append every raw line to this cup.log")
    parser.add_argument("--arm", metavar="PLAYER:TURN", help="arm the cup, e.g. W:1")
    parser.add_argument("--count", type=int, metavar="N", help="stop after N throws")
    parser.add_argument("--seconds", type=float, metavar="S", help="stop after S seconds")
    emu = parser.add_argument_group("emulator")
    emu.add_argument(
        "--emulate", action="store_true", help="run an emulated cup and print the path to open"
    )
    emu.add_argument("--dice", type=int, choices=(1, 2), default=2)
    emu.add_argument("--id", default="CUP-0001", help="the emulated cup's id")
    emu.add_argument(
        "--every",
        type=float,
        nargs=2,
        metavar=("MIN", "MAX"),
        default=(3.0, 8.0),
        help="seconds between random throws (default 3 8)",
    )
    emu.add_argument("--link", metavar="PATH", help="also reach the pty by this symlink")
    emu.add_argument("--seed", type=int, help="random seed of the emulated throws")


def _armed(text: str | None):
    from nardy.device.dcp import Armed

    if text is None:
        return None
    player, _, turn = text.partition(":")
    if not player or not turn.isdigit():
        raise UsageError(f"--arm {text}: expected PLAYER:TURN, e.g. W:1")
    return Armed(player, int(turn))


def _line(event) -> str:
    from nardy.device import events as ev
    from nardy.device.dcp import format_dice

    def armed(a) -> str:
        return f" for {a}" if a is not None else ""

    t = f"{event.t_ms / 1000:9.3f}s "
    match event:
        case ev.Thrown():
            return f"{t}throw {event.roll}: {format_dice(event.values)}{armed(event.armed)}"
        case ev.NoThrow():
            dice = format_dice(event.values)
            why = f"no valid throw, {event.why} ({dice})"
            return f"{t}throw {event.roll}: {why}{armed(event.armed)}"
        case ev.ThrowStarted():
            return f"{t}shaking (throw {event.roll}){armed(event.armed)}"
        case ev.DiceMoved():
            return f"{t}dice moved by hand: {format_dice(event.values)}"
        case ev.CupConnected():
            return (
                f"{t}connected: {event.cup_id} on {event.port or 'the port'}, "
                f"{event.dice} dice, fw {event.fw}, DCP/{event.proto}"
            )
        case ev.CupLost():
            return f"{t}lost: {event.why}; reconnecting"
        case ev.CupRestarted():
            return f"{t}the cup restarted ({event.old_boot} -> {event.new_boot})"
        case ev.Battery():
            low = " LOW" if event.low else ""
            return f"{t}battery {event.pct}%{' charging' if event.charging else ''}{low}"
        case ev.ThrowsMissed():
            return f"{t}throws {event.first}-{event.last} were lost: the cup no longer holds them"
        case ev.CupError():
            return f"{t}cup error {event.code}: {event.message}"
    return f"{t}{event}"


def _emulate(args: argparse.Namespace) -> int:
    from nardy.device.emulator import CupEmulator

    lo, hi = args.every
    if not 0 <= lo <= hi:
        raise UsageError("--every MIN MAX: 0 <= MIN <= MAX")
    emulator = CupEmulator.on_pty(args.link, cup_id=args.id, dice=args.dice, seed=args.seed)
    with emulator:
        print(emulator.transport.path, flush=True)  # type: ignore[attr-defined]
        emulator.auto((lo, hi))
        deadline = None if args.seconds is None else time.monotonic() + args.seconds
        try:
            while deadline is None or time.monotonic() < deadline:
                if args.count is not None and len(emulator.made) >= args.count:
                    break
                time.sleep(0.1)
        except KeyboardInterrupt:
            pass
    return 0


def run(args: argparse.Namespace) -> int:
    if args.emulate:
        if args.port:
            raise UsageError("give a PORT or --emulate, not both")
        return _emulate(args)
    from nardy.device.driver import CupDriver
    from nardy.device.events import ThrowResult, event_to_dict

    port = args.port
    if port is not None and "://" not in port and not os.path.exists(port):
        raise UsageError(f"{port}: no such port")
    armed = _armed(args.arm)
    if port is None:
        from nardy.device.driver import find_cups

        found = find_cups()
        if not found:
            raise UsageError("no dice cup answers on any serial port; give its PORT")
        port = found[0][0]
    try:
        driver = CupDriver(port, log=args.log, armed=armed)
    except OSError as e:
        raise UsageError(f"--log {args.log}: {e.strerror}") from None
    if not args.json:
        print(f"watching {port} (Ctrl-C to stop)", file=sys.stderr, flush=True)
    deadline = None if args.seconds is None else time.monotonic() + args.seconds
    throws = 0
    try:
        with driver:
            while deadline is None or time.monotonic() < deadline:
                event = driver.get(0.2)
                if event is None:
                    continue
                if args.json:
                    print(json.dumps(event_to_dict(event)), flush=True)
                else:
                    print(_line(event), flush=True)
                if isinstance(event, ThrowResult):
                    throws += 1
                    if args.count is not None and throws >= args.count:
                        break
    except KeyboardInterrupt:
        pass
    sys.stdout.flush()
    return 0
