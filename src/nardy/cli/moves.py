"""``nardy moves``: the legal turns for a position and a roll."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

HELP = "list the legal turns for a position and dice"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--variant", default="backgammon", help="backgammon, long, … (default backgammon)"
    )
    parser.add_argument(
        "--position",
        default="start",
        help="start, a GNU Backgammon Position ID, an XGID or the JSON form (default start)",
    )
    parser.add_argument("--dice", nargs=2, metavar=("A", "B"), help="the two dice")
    parser.add_argument("--player", default="light", help="the side on roll: light or dark")
    parser.add_argument(
        "--first-turn", action="store_true", help="the player's first turn (long nardy)"
    )
    parser.add_argument(
        "--option", action="append", default=[], metavar="NAME=VALUE", help="a variant option"
    )
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.add_argument("--batch", metavar="FILE", help="one JSON job a line ('-' for stdin)")


def _value(text: str) -> Any:
    low = text.strip().lower()
    if low in ("true", "yes", "on"):
        return True
    if low in ("false", "no", "off"):
        return False
    return int(low) if low.isdigit() else text.strip()


def _options(items: list[str]) -> dict[str, Any]:
    from nardy.cli.common import UsageError

    out = {}
    for item in items:
        name, eq, value = item.partition("=")
        if not eq:
            raise UsageError(f"--option wants NAME=VALUE, not {item!r}")
        out[name.strip()] = _value(value)
    return out


def _dice(values: Any) -> tuple[int, int]:
    from nardy.cli.common import UsageError

    if not isinstance(values, list | tuple) or len(values) != 2:
        raise UsageError("give two dice")
    out = []
    for v in values:
        try:
            d = int(v)
        except (TypeError, ValueError):
            raise UsageError(f"a die is a number 1 to 6, not {v!r}") from None
        if not 1 <= d <= 6 or isinstance(v, float | bool):
            raise UsageError(f"a die shows 1 to 6, not {v!r}")
        out.append(d)
    return out[0], out[1]


def job(
    variant_name: str,
    position: Any,
    dice: Any,
    player: str = "light",
    options: dict[str, Any] | None = None,
    first_turn: bool = False,
) -> dict[str, Any]:
    """One job's answer as a JSON-ready dict. Bad input raises ``ValueError``/``UsageError``."""
    from nardy.rules.posid import position_id
    from nardy.rules.position import Side
    from nardy.rules.reading import read_position
    from nardy.rules.variant import get_variant

    variant = get_variant(str(variant_name), **(options or {}))
    side = Side.parse(str(player))
    roll = _dice(dice)
    pos, side = read_position(variant, position, side)
    variant.check_position(pos)
    turns = variant.legal_turns(pos, side, roll, first_turn=first_turn)
    short = variant.family == "short"
    return {
        "variant": variant.name,
        "options": variant.options.as_dict(),
        "missing": list(variant.missing),
        "player": str(side),
        "dice": list(roll),
        "position": pos.to_json(),
        "position_id": position_id(pos, side) if short else None,
        "turns": [
            {
                "notation": t.notation,
                "steps": [[s.start, s.end, s.die, s.hit] for s in t.steps],
                # From the side of the next player on roll, the opponent: GNU Backgammon's way.
                "position_id": position_id(t.after, side.other) if short else None,
                "position": t.after.to_json(),
            }
            for t in turns
        ],
    }


def _print_text(answer: dict[str, Any]) -> None:
    for note in answer["missing"]:
        print(f"incomplete: {note}")
    a, b = answer["dice"]
    n = len(answer["turns"])
    where = answer["position_id"] or json.dumps(answer["position"], separators=(",", ":"))
    plural = "s" if n != 1 else ""
    print(f"{answer['variant']}: {answer['player']} to play {a}-{b} from {where}: {n} turn{plural}")
    width = max(len(t["notation"]) for t in answer["turns"]) if answer["turns"] else 0
    for t in answer["turns"]:
        pos = json.dumps(t["position"], separators=(",", ":"))
        note = t["notation"] or "(no move: the roll cannot be played)"
        pid = t["position_id"] or "-"
        print(f"{note:<{max(width, 8)}}  {pid}  {pos}")


def run(args: argparse.Namespace) -> int:
    from nardy.cli.common import UsageError

    if args.batch:
        return _run_batch(args.batch)
    if not args.dice:
        raise UsageError("give the dice: --dice A B")
    try:
        answer = job(
            args.variant,
            args.position,
            args.dice,
            args.player,
            _options(args.option),
            args.first_turn,
        )
    except ValueError as e:
        raise UsageError(str(e)) from None
    if args.json:
        print(json.dumps(answer))
    else:
        _print_text(answer)
    return 0


def _run_batch(path: str) -> int:
    from nardy.cli.common import UsageError

    try:
        stream = sys.stdin if path == "-" else open(path, encoding="utf-8")  # noqa: SIM115
    except OSError as e:
        raise UsageError(f"cannot read {path}: {e.strerror}") from None
    with stream:
        for n, line in enumerate(stream, 1):
            if not line.strip():
                continue
            try:
                spec = json.loads(line)
                if not isinstance(spec, dict):
                    raise ValueError("a job is a JSON object")
                unknown = set(spec) - {
                    "variant",
                    "position",
                    "dice",
                    "player",
                    "options",
                    "first_turn",
                }
                if unknown:
                    raise ValueError(f"unknown key {sorted(unknown)[0]!r}")
                answer = job(
                    spec.get("variant", "backgammon"),
                    spec.get("position", "start"),
                    spec.get("dice"),
                    spec.get("player", "light"),
                    spec.get("options") or {},
                    bool(spec.get("first_turn", False)),
                )
            except (ValueError, UsageError) as e:
                raise UsageError(f"{path} line {n}: {e}") from None
            print(json.dumps(answer), flush=False)
    return 0
