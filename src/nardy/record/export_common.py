"""What the .mat and SGF writers share: which records they can write, and what to say about
the variants an analysis program does not know."""

from __future__ import annotations

from nardy.record.model import (
    BACKGAMMON_FAMILY,
    PlayedTurn,
    Record,
    RecordError,
    apply_steps,
    numbering_of,
)
from nardy.rules.position import Numbering, Position

#: Short nardy played on a backgammon board under rules gnubg does not know. Written as
#: backgammon with this note; an analysis of such a file misses what the note says.
NOTES = {
    "caucasian": (
        "nardy variant caucasian: no hit-and-hide in the mover's home; an analysis as "
        "backgammon may suggest plays that are illegal here"
    ),
    "oin_mars": (
        "nardy variant oin_mars: no backgammons (a mars pays 2 at most); an analysis as "
        "backgammon overvalues backgammon chances"
    ),
}


class ExportError(RecordError):
    """A record the format cannot hold (a long nardy game as .mat, a cube on 3)."""


def variant_note(variant: str) -> str | None:
    return NOTES.get(variant)


def set_by_hand(before: Position, turn: PlayedTurn, numbering: Numbering) -> bool:
    """Whether ``turn`` must reach gnubg as a position rather than a move: a foul let stand
    (gnubg refuses an illegal move), or a corrected position its steps do not lead to."""
    if turn.foul_stands:
        return True
    if not turn.corrected:
        return False
    try:
        return apply_steps(before, turn.side, turn.steps, numbering) != turn.after
    except RecordError:
        return True


def check_exportable(record: Record, fmt: str, *, positions: bool = False) -> None:
    """Refuse what ``fmt`` cannot hold; ``positions``: the format can set a position by hand."""
    h = record.header
    if h.variant not in BACKGAMMON_FAMILY:
        raise ExportError(f"{fmt} holds the backgammon family only; write {h.variant!r} as JSON")
    numbering = numbering_of(h.variant)
    for g in record.games:
        before = g.start
        for e in g.turns:
            if not positions and set_by_hand(before, e, numbering):
                what = "a foul let stand" if e.foul_stands else "a position set by hand"
                raise ExportError(
                    f"{fmt} cannot hold {what} (game {g.number}, {e.side} {e.notation!r}); "
                    "write SGF or JSON"
                )
            before = e.after
        if g.result is not None and g.result.winner is None:
            raise ExportError(f"{fmt} cannot hold a drawn game (game {g.number})")
        for e in g.entries:
            value = getattr(e, "value", 1)
            if value & (value - 1):
                raise ExportError(f"{fmt} knows a doubling cube only; game {g.number} has {value}")
