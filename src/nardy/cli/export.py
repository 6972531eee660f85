"""``nardy export``: a recorded game, match or session as .mat, SGF or the project's JSON."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from nardy.cli.common import UsageError

HELP = "write a recorded game, match or session as Jellyfish .mat, GNU Backgammon SGF or JSON"

FORMATS = ("mat", "sgf", "json")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "source", metavar="RECORD", help="a JSON record (as `nardy replay --json` prints)"
    )
    parser.add_argument("--to", choices=FORMATS, required=True, help="the format to write")
    parser.add_argument("-o", "--output", metavar="OUT", help="the file to write (default: stdout)")


def load_record(source: str):
    """The record ``source`` names. A new kind of source (the referee's SQLite store) is one
    more branch here; the writers do not change."""
    from nardy.record import RecordError, loads

    path = Path(source)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise UsageError(f"cannot read {source}: {getattr(e, 'strerror', None) or e}") from None
    try:
        return loads(text)
    except RecordError as e:
        raise UsageError(f"{source}: {e}") from None


def render(record, fmt: str) -> str:
    from nardy.record import RecordError, dumps
    from nardy.record.mat import write_mat
    from nardy.record.sgf import write_sgf

    writer = {"mat": write_mat, "sgf": write_sgf, "json": lambda r: dumps(r) + "\n"}[fmt]
    try:
        return writer(record)
    except RecordError as e:
        raise UsageError(str(e)) from None


def run(args: argparse.Namespace) -> int:
    text = render(load_record(args.source), args.to)
    if args.output:
        try:
            Path(args.output).write_text(text, encoding="utf-8")
        except OSError as e:
            raise UsageError(f"cannot write {args.output}: {e.strerror}") from None
    else:
        sys.stdout.write(text)
    return 0
