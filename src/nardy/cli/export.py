"""``nardy export``: a recorded game, match or session as .mat, SGF or the project's JSON."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from nardy.cli.common import UsageError

HELP = "write a recorded game, match or session as Jellyfish .mat, GNU Backgammon SGF or JSON"

FORMATS = ("mat", "sgf", "json")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "source",
        metavar="RECORD",
        help="a JSON record, the output of `nardy replay --json`, a .mat file, "
        "a recorded session folder, or a table's store (table.sqlite)",
    )
    parser.add_argument("--to", choices=FORMATS, required=True, help="the format to write")
    parser.add_argument("-o", "--output", metavar="OUT", help="the file to write (default: stdout)")
    parser.add_argument(
        "--truth-frames",
        action="store_true",
        help="for a session folder: read each frame's truth instead of its pixels (fixtures)",
    )


def load_record(source: str, *, truth_frames: bool = False) -> Any:
    """The record ``source`` names: a folder is replayed by the referee; a table's SQLite store
    gives the record it keeps; a JSON file is our record or the referee's; a .mat is read
    (XG's, gnubg's or ours)."""
    from nardy.record import RecordError, record_from_json

    path = Path(source)
    try:
        if path.is_dir():
            return _replayed(path, truth_frames)
        if path.suffix.lower() == ".sqlite":
            return _stored(path)
        if path.suffix.lower() == ".mat":
            from nardy.record.mat_reader import read_mat

            return read_mat(_text(path))
        data = _json(path)
        if isinstance(data, dict) and "setup" in data:
            from nardy.referee.export import to_record

            return to_record(data)
        return record_from_json(data)
    except RecordError as e:
        raise UsageError(f"{source}: {e}") from None


def _stored(path: Path) -> Any:
    from nardy.referee.export import record_of_store
    from nardy.referee.store import EventStore, StoreError

    if not path.is_file():
        raise UsageError(f"{path}: no such table store")
    try:
        with EventStore(path) as store:
            return record_of_store(store)
    except StoreError as e:
        raise UsageError(f"{path}: {e}") from None


def _text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise UsageError(f"cannot read {path}: {getattr(e, 'strerror', None) or e}") from None


def _json(path: Path) -> Any:
    text = _text(path)
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise UsageError(f"{path}: not JSON: {e.msg} (line {e.lineno})") from None


def _replayed(folder: Path, truth_frames: bool) -> Any:
    from nardy.referee.events import EventError
    from nardy.referee.export import record_of
    from nardy.referee.session import SessionError, replay
    from nardy.referee.setup import SetupError
    from nardy.rules.errors import RulesError

    try:
        table = replay(folder, truth_frames=truth_frames)
    except (SessionError, SetupError, EventError, RulesError) as e:
        raise UsageError(str(e)) from None
    return record_of(table)


def render(record: Any, fmt: str) -> str:
    from nardy.record import RecordError
    from nardy.record.formats import render as write

    try:
        return write(record, fmt)
    except RecordError as e:
        raise UsageError(str(e)) from None


def run(args: argparse.Namespace) -> int:
    text = render(load_record(args.source, truth_frames=args.truth_frames), args.to)
    if args.output:
        try:
            Path(args.output).write_text(text, encoding="utf-8")
        except OSError as e:
            raise UsageError(f"cannot write {args.output}: {e.strerror}") from None
    else:
        sys.stdout.write(text)
    return 0
