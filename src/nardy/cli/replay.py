"""``nardy replay FOLDER``: the record of a recorded session, run through the live table's code."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from nardy.cli.common import UsageError

HELP = "the record of a recorded session folder (--json for the full record)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("folder", help="a recorded session: session.json, frames, cup.log, ...")
    parser.add_argument(
        "--json", action="store_true", help="print the record as JSON (nardy export reads it)"
    )
    parser.add_argument(
        "--truth-frames",
        action="store_true",
        help="read each frame's truth (frames_truth.jsonl) instead of its pixels: a stand-in "
        "for vision, for fixtures",
    )


def run(args: argparse.Namespace) -> int:
    from nardy.referee.events import EventError
    from nardy.referee.session import SessionError, open_session, replay
    from nardy.referee.setup import SetupError
    from nardy.rules.errors import RulesError

    try:
        session = open_session(args.folder)
        bar = _progress(session.duration_ms)
        try:
            table = replay(
                args.folder, truth_frames=args.truth_frames, progress=bar.update if bar else None
            )
        finally:
            if bar is not None:
                bar.close()
    except (SessionError, SetupError, EventError, RulesError) as e:
        raise UsageError(str(e)) from None
    if args.json:
        json.dump(table.record(), sys.stdout, indent=1)
        sys.stdout.write("\n")
    else:
        sys.stdout.write(describe(table.record()))
    return 0


class _Bar:
    """tqdm over the session's milliseconds, on stderr, only when stderr is a terminal."""

    def __init__(self, total_ms: int) -> None:
        from tqdm import tqdm

        self.bar = tqdm(total=total_ms, unit="ms", unit_scale=True, file=sys.stderr, leave=False)
        self.done = 0

    def update(self, t_ms: int) -> None:
        if t_ms > self.done:
            self.bar.update(t_ms - self.done)
            self.done = t_ms

    def close(self) -> None:
        self.bar.close()


def _progress(total_ms: int) -> _Bar | None:
    if not sys.stderr.isatty() or total_ms <= 0:
        return None
    return _Bar(total_ms)


def describe(record: dict[str, Any]) -> str:
    """The record in words, a line a turn."""
    setup = record["setup"]
    players = setup["players"]
    out = [f"{setup['variant']}: {players['light']} (light) v {players['dark']} (dark)"]
    for game in record["games"]:
        head = f"Game {game['number']}" + (" (Crawford)" if game["crawford"] else "")
        if game["opening"]:
            head += f", opening {game['opening'][0]}-{game['opening'][1]}"
        out.append(head)
        cubes = {}
        for c in game["cube_actions"]:
            cubes.setdefault(c["before_turn"], []).append(c)
        for turn in game["turns"]:
            for c in cubes.pop(turn["number"], []):
                out.append(f"      {c['by']} {c['kind']}s the cube ({c['value']})")
            dice = "-".join(map(str, turn["dice"]))
            line = (
                f"  {turn['number']:3d}. {turn['player']:5s} {dice}: {turn['play'] or '(no play)'}"
            )
            for f in turn["flags"]:
                line += f"  [{f['kind']}: {f['reason']} — {f['resolution'] or 'open'}]"
            for v in turn.get("void_throws", []):
                line += f"  (void {'-'.join(map(str, v['values']))}: {v['why']})"
            out.append(line)
        for rest in cubes.values():
            for c in rest:
                out.append(f"      {c['by']} {c['kind']}s the cube ({c['value']})")
        r = game["result"]
        if r is not None:
            out.append(
                f"  {r['winner']} wins: {r['kind']}, cube {r['cube']}, {r['points']} point"
                + ("s" if r["points"] != 1 else "")
            )
    if "match" in record:
        m = record["match"]
        out.append(f"Match to {m['match_to']}: light {m['light']}, dark {m['dark']}")
    else:
        led = record["ledger"]
        cur = f" {led['currency']}" if led.get("currency") else ""
        bal = led["balance"]
        out.append(
            f"Money at {led['stake']}{cur} a point: light {bal['light']:+g}, dark {bal['dark']:+g}"
        )
    return "\n".join(out) + "\n"
