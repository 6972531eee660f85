"""Jellyfish ``.mat``, with XG's header keys, for the backgammon family.

Light is "player 1", the left column; dark the right. Moves are written from the mover's side,
Jellyfish style: 25 is the bar, 0 is off, ``*`` a hit. A money session is a " 0 point match"
whose game headers carry the running points.

What the format cannot say, and is left out: flags and their resolution, rejected
resignations, the opening roll's ties, the stake and currency (they stay in the JSON record).
A foul let stand or a position set by hand cannot be said at all (gnubg would refuse the move):
such a record is refused with :class:`~nardy.record.export_common.ExportError`; write SGF.
"""

from __future__ import annotations

from nardy.record.export_common import check_exportable, variant_note
from nardy.record.model import (
    CubeAction,
    CubeKind,
    Game,
    PlayedTurn,
    Record,
    Resignation,
    Step,
)
from nardy.rules.position import Side

#: The ``Variation`` XG writes for each exportable variant.
VARIATION = {
    "backgammon": "Backgammon",
    "caucasian": "Backgammon",
    "oin_mars": "Backgammon",
    "nackgammon": "Nackgammon",
    "hypergammon": "Hypergammon",
}


def write_mat(record: Record) -> str:
    """The whole match or session as the text of a ``.mat`` file."""
    check_exportable(record, ".mat")
    h = record.header
    lines = [f'; [Site "{_q(h.place or "")}"]']
    if h.event:
        lines.append(f'; [Event "{_q(h.event)}"]')
    lines += [f'; [Player 1 "{_q(h.players[0])}"]', f'; [Player 2 "{_q(h.players[1])}"]']
    if h.date:
        lines.append(f'; [EventDate "{h.date.replace("-", ".")}"]')
    if h.time:
        lines.append(f'; [EventTime "{h.time}"]')
    lines.append(f'; [Variation "{VARIATION[h.variant]}"]')
    note = variant_note(h.variant)
    if note:
        lines.append(f'; [Note "{_q(note)}"]')
    lines.append('; [Unrated "On"]')
    lines.append(f'; [Crawford "{_on(h.crawford and not h.money)}"]')
    lines.append(f'; [Jacoby "{_on(h.jacoby and h.money)}"]')
    lines.append(f'; [Beaver "{_on(h.beaver and h.money)}"]')
    lines.append(f'; [CubeLimit "{h.cube_limit or 1024}"]')
    lines += ["", f" {h.match_to or 0} point match", ""]
    for game in record.games:
        lines += _game_lines(record, game)
    return "\n".join(lines) + "\n"


def _game_lines(record: Record, game: Game) -> list[str]:
    h = record.header
    light, dark = h.players
    left = f" {light} : {_num(game.score[0])}"
    out = [f" Game {game.number}", f"{left:<31} {dark} : {_num(game.score[1])}"]
    slots: list[list[str | None]] = []  # per numbered line: [light's text, dark's text]

    def put(side: Side, text: str) -> None:
        if side is Side.LIGHT or not slots or slots[-1][1] is not None:
            slots.append([None, None])
        slots[-1][side] = text

    for i, e in enumerate(game.entries):
        if isinstance(e, PlayedTurn):
            put(e.side, f"{e.dice[0]}{e.dice[1]}: {move_text(e.steps)}".rstrip())
        elif isinstance(e, CubeAction):
            put(e.side, _cube_text(e))
            if e.kind is CubeKind.BEAVER and not any(
                isinstance(later, PlayedTurn) for later in game.entries[i + 1 :]
            ):
                # A beaver is taken by the doubler without a word, and gnubg's import adds that
                # take with the next move; a game that ends before one needs it said.
                put(e.side.other, " Takes")
        elif isinstance(e, Resignation) and e.accepted:
            pass  # the "Wins" line below says it; a .mat has no word for an offer
    r = game.result
    if r is not None and r.winner is not None:
        s = "" if r.points == 1 else "s"
        put(r.winner, f" Wins {_num(r.points)} point{s}")
    for n, (a, b) in enumerate(slots, 1):
        text = f"{n:3d}) {a or '':<28} {b or ''}".rstrip()
        out.append(text)
    out.append("")
    return out


def move_text(steps: tuple[Step, ...]) -> str:
    """Jellyfish move text: ``24/18 13/9``, ``25/22*``, ``6/0``."""
    return " ".join(f"{s.start}/{s.end}{'*' if s.hit else ''}" for s in steps)


def _cube_text(e: CubeAction) -> str:
    if e.kind is CubeKind.DOUBLE:
        return f" Doubles => {e.value}"
    if e.kind is CubeKind.BEAVER:
        return f" Beavers => {e.value}"
    return " Takes" if e.kind is CubeKind.TAKE else " Drops"


def _on(flag: bool) -> str:
    return "On" if flag else "Off"


def _q(text: str) -> str:
    return text.replace('"', "'")


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else str(x)


__all__ = ["VARIATION", "move_text", "write_mat"]
