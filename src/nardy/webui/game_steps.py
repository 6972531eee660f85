"""A recorded game as the History page steps through it: one frame per entry of the record.

Frame 0 is the starting position; then one frame per turn played, cube action or resignation,
each with the board after it (SVG), the line of the move list it stands for, and its flags in
words; the last frame also says the result.
"""

from __future__ import annotations

from typing import Any

from nardy.record import (
    CubeAction,
    CubeKind,
    Flag,
    Game,
    PlayedTurn,
    Record,
    Resignation,
    Resolution,
    Result,
)
from nardy.record.model import numbering_of
from nardy.webui.board_svg import Cube, Dice, board_svg

_RESOLVED = {
    Resolution.PENDING: "not answered yet",
    Resolution.ACCEPTED: "accepted",
    Resolution.CONDONED: "condoned (the opponent threw without answering)",
    Resolution.REPLAYED: "replayed",
    Resolution.CORRECTED: "position corrected by hand",
    Resolution.FIRST_THROW_STANDS: "the first throw stands",
    Resolution.CUP_STANDS: "the cup's dice stand",
}
_RESIGN = {1: "a single game", 2: "a gammon", 3: "a backgammon"}


def flag_text(flag: Flag) -> str:
    """``⚑ reason — how it was settled (by whom)``."""
    settled = _RESOLVED[flag.resolution]
    if flag.by is not None and flag.resolution is not Resolution.PENDING:
        settled += f" by {flag.by}"
    text = f"{flag.reason} — {settled}"
    if flag.nearest:
        text += f"; legal plays nearest: {', '.join(flag.nearest)}"
    return text


def entry_text(record: Record, entry: Any) -> str:
    name = record.header.player
    if isinstance(entry, PlayedTurn):
        play = entry.notation or "(no move)"
        return f"{name(entry.side)} ({entry.side}) {entry.dice[0]}-{entry.dice[1]}: {play}"
    if isinstance(entry, CubeAction):
        verb = {
            CubeKind.DOUBLE: f"doubles to {entry.value}",
            CubeKind.TAKE: "takes",
            CubeKind.DROP: "drops",
            CubeKind.BEAVER: f"beavers to {entry.value}",
        }[entry.kind]
        return f"{name(entry.side)} ({entry.side}) {verb}"
    if isinstance(entry, Resignation):
        word = "resigns" if entry.accepted else "offers to resign"
        what = _RESIGN.get(entry.points, f"{entry.points} points")
        tail = "" if entry.accepted else " (refused)"
        return f"{name(entry.side)} ({entry.side}) {word} {what}{tail}"
    raise TypeError(f"not an entry of a game: {entry!r}")


def result_text(record: Record, result: Result) -> str:
    if result.winner is None:
        return f"a draw: {result.points} each"
    s = "" if result.points == 1 else "s"
    kind = result.kind.value.replace("_", " ")
    how = {"borne_off": "bearing off", "resigned": "resignation", "dropped": "a dropped cube"}
    return (
        f"{record.header.player(result.winner)} ({result.winner}) wins {result.points} point{s}"
        f" ({kind}, cube {result.cube}, by {how[result.ending.value]})"
    )


def game_frames(record: Record, game: Game) -> list[dict[str, Any]]:
    """The frames of ``game``: ``{"svg", "text", "flags": [text], "voids": [text], "kind"}``."""
    numbering = numbering_of(record.header.variant)
    position = game.start
    cube, owner, pending = 1, None, None
    frames = [_frame(position, numbering, None, Cube(cube, owner), "start", _start_text(game))]
    for entry in game.entries:
        dice = None
        flags: list[str] = []
        voids: list[str] = []
        if isinstance(entry, PlayedTurn):
            position = entry.after
            dice = Dice(entry.dice, (), entry.side)
            flags = [flag_text(f) for f in entry.flags]
            voids = [
                f"void throw {'-'.join(map(str, v.values))}: {v.why}" for v in entry.void_throws
            ]
            kind = "turn"
        elif isinstance(entry, CubeAction):
            kind = "cube"
            if entry.kind is CubeKind.DOUBLE:
                pending = entry.value
            elif entry.kind is CubeKind.TAKE:
                cube, owner, pending = pending or entry.value, entry.side, None
            elif entry.kind is CubeKind.BEAVER:
                # The doubled player redoubles and keeps the cube.
                cube, owner, pending = entry.value, entry.side, None
        else:
            kind = "resign"
        text = entry_text(record, entry)
        frame = _frame(position, numbering, dice, Cube(cube, owner), kind, text)
        frame["flags"], frame["voids"] = flags, voids
        frames.append(frame)
    if game.result is not None:
        frames[-1]["result"] = result_text(record, game.result)
    return frames


def _start_text(game: Game) -> str:
    if game.opening is None or not game.opening.rolls:
        return "the start"
    rolls = ", ".join(f"{a}-{b}" for a, b in game.opening.rolls)
    starter = game.opening.starter
    return f"the start; opening throws (light-dark) {rolls}" + (
        f": {starter} begins" if starter is not None else ""
    )


def _frame(position, numbering, dice, cube, kind: str, text: str) -> dict[str, Any]:
    return {
        "svg": board_svg(position, numbering=numbering, dice=dice, cube=cube),
        "text": text,
        "kind": kind,
        "flags": [],
        "voids": [],
    }
