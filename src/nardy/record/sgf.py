"""GNU Backgammon SGF (``GM[6]``) for the backgammon family: one game tree per game.

Light is White (gnubg's player 0), dark is Black. A move is the dice and then a pair of letters
per step, from gnubg's conventions: for White point p is the letter ``a + p - 1``, for Black
``x - p + 1``; ``y`` is the bar and ``z`` off. Cube actions are the words ``double``, ``take``,
``drop``; a beaver is written as gnubg keeps it, a redouble by the doubled player (``double``)
and the doubler's ``take``. ``RE[W+2]`` is the result, ``R`` after it a resignation.

A turn gnubg would refuse as a move (a foul let stand, a position corrected by hand) is written
as gnubg's "set board" node: the position it left, the opponent on roll, and a comment with the
throw, the play and the flag. Left out: other flags, rejected resignations, the stake.
"""

from __future__ import annotations

from nardy import __version__
from nardy.record.export_common import check_exportable, set_by_hand, variant_note
from nardy.record.model import (
    BAR,
    OFF,
    CubeAction,
    CubeKind,
    Ending,
    Game,
    PlayedTurn,
    Record,
    numbering_of,
)
from nardy.rules.position import Numbering, Side

#: What gnubg puts in ``RU`` for a variation other than standard backgammon.
RULES_VARIATION = {"nackgammon": "Nackgammon", "hypergammon": "Hypergammon3"}
_COLOUR = {Side.LIGHT: "W", Side.DARK: "B"}


def write_sgf(record: Record) -> str:
    """The whole match or session as SGF text, as gnubg's ``load match`` reads it."""
    check_exportable(record, "SGF", positions=True)
    return "".join(_game_tree(record, g) for g in record.games)


def _game_tree(record: Record, game: Game) -> str:
    h = record.header
    props = [
        "FF[4]GM[6]CA[UTF-8]",
        f"AP[nardy-companion:{__version__}]",
        f"MI[length:{h.match_to or 0}][game:{game.number - 1}]"
        f"[ws:{_int(game.score[0])}][bs:{_int(game.score[1])}]",
        f"PW[{_text(h.players[0])}]PB[{_text(h.players[1])}]",
    ]
    if h.date:
        props.append(f"DT[{h.date}]")
    if h.place:
        props.append(f"PC[{_text(h.place)}]")
    if h.event:
        props.append(f"EV[{_text(h.event)}]")
    rules = []
    if h.money:
        if h.jacoby:
            rules.append("Jacoby")
    elif h.crawford:
        rules.append("Crawford")
        if game.crawford:
            rules.append("CrawfordGame")
    if h.variant in RULES_VARIATION:
        rules.append(RULES_VARIATION[h.variant])
    if not h.cube:
        rules.append("NoCube")
    if rules:
        props.append(f"RU[{':'.join(rules)}]")
    r = game.result
    if r is not None and r.winner is not None:
        resigned = "R" if r.ending is Ending.RESIGNED else ""
        props.append(f"RE[{_COLOUR[r.winner]}+{_int(r.points)}{resigned}]")
    note = variant_note(h.variant)
    if note:
        props.append(f"GC[{_text(note)}]")
    nodes = ["(;" + "".join(props)]
    numbering = numbering_of(h.variant)
    before = game.start
    for e in game.entries:
        if isinstance(e, PlayedTurn):
            if set_by_hand(before, e, numbering):
                nodes.append(_set_board(e))
            else:
                moves = "".join(_point(s.start, e.side) + _point(s.end, e.side) for s in e.steps)
                nodes.append(f";{_COLOUR[e.side]}[{e.dice[0]}{e.dice[1]}{moves}]")
            before = e.after
        elif isinstance(e, CubeAction):
            if e.kind is CubeKind.BEAVER:
                # gnubg has no beaver node: it keeps a beaver as a redouble by the doubled
                # player, which the doubler takes (as its .mat import does too).
                nodes.append(f";{_COLOUR[e.side]}[double]")
                nodes.append(f";{_COLOUR[e.side.other]}[take]")
            else:
                nodes.append(f";{_COLOUR[e.side]}[{e.kind.value}]")
    return "\n".join(nodes) + ")\n"


def _set_board(turn: PlayedTurn) -> str:
    """A turn gnubg would refuse as a move, given as the position it left (gnubg's "set board"
    node), with a comment saying what was played and why.

    As gnubg writes it: ``PL`` names the side on roll, ``AW`` holds that side's checkers (letters
    from ``a`` in its own numbering) and ``AB`` the other side's (letters from ``x``), whatever
    their colours.
    """
    on_roll = turn.side.other
    own, _ = turn.after.view(on_roll, Numbering.OPPOSED)
    other, _ = turn.after.view(turn.side, Numbering.OPPOSED)
    aw = "".join(f"[{_point(p, Side.LIGHT)}]" * own[p] for p in range(1, 26))
    ab = "".join(f"[{_point(p, Side.DARK)}]" * other[p] for p in range(1, 26))
    flags = "; ".join(f"{f.reason} ({f.resolution.value})" for f in turn.flags)
    said = f"{turn.side} threw {turn.dice[0]}-{turn.dice[1]} and played {turn.notation}: {flags}"
    node = f";PL[{_COLOUR[on_roll]}]AE[a:y]" + (f"AW{aw}" if aw else "") + (f"AB{ab}" if ab else "")
    return node + f"C[{_text(said)}]"


def _point(p: int, side: Side) -> str:
    if p == BAR:
        return "y"
    if p == OFF:
        return "z"
    return chr(ord("a") + p - 1) if side is Side.LIGHT else chr(ord("x") - p + 1)


def _text(s: str) -> str:
    return s.replace("\\", "\\\\").replace("]", "\\]")


def _int(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else str(x)


__all__ = ["RULES_VARIATION", "write_sgf"]
