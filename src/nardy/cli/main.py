"""The one entry point, ``nardy``.

Every module of this package other than this one and ``common`` is a subcommand: it defines
``HELP`` (one line), ``add_arguments(parser)`` and ``run(args) -> int``. A new command is a new
module; nothing here changes. Modules import their heavy dependencies (OpenCV, Flask) inside
``run`` so that ``nardy moves`` starts fast.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from collections.abc import Sequence

import nardy.cli
from nardy.cli.common import UsageError

_NOT_COMMANDS = {"main", "common"}


def _commands() -> dict[str, object]:
    found = {}
    for info in pkgutil.iter_modules(nardy.cli.__path__):
        if info.name.startswith("_") or info.name in _NOT_COMMANDS:
            continue
        found[info.name] = importlib.import_module(f"nardy.cli.{info.name}")
    return dict(sorted(found.items()))


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="nardy",
        description="A referee, scorer and recorder for backgammon and nardy on a real board.",
    )
    parser.add_argument("--version", action="version", version=f"nardy {nardy.__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for name, module in _commands().items():
        p = sub.add_parser(name, help=module.HELP, description=module.HELP)
        module.add_arguments(p)
        p.set_defaults(_run=module.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args._run(args) or 0)
    except UsageError as e:
        print(f"nardy {args.command}: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
