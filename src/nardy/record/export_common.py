"""What the .mat and SGF writers share: which records they can write, and what to say about
the variants an analysis program does not know."""

from __future__ import annotations

from nardy.record.model import (
    BACKGAMMON_FAMILY,
    Record,
    RecordError,
    apply_steps,
    numbering_of,
)

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


def check_exportable(record: Record, fmt: str) -> None:
    h = record.header
    if h.variant not in BACKGAMMON_FAMILY:
        raise ExportError(f"{fmt} holds the backgammon family only; write {h.variant!r} as JSON")
    numbering = numbering_of(h.variant)
    for g in record.games:
        before = g.start
        for e in g.turns:
            # A position a person set by hand that the steps do not reach: the file, which
            # holds only the steps, would lead gnubg elsewhere.
            if e.corrected and apply_steps(before, e.side, e.steps, numbering) != e.after:
                raise ExportError(
                    f"{fmt} cannot hold a position set by hand (game {g.number}, {e.notation!r})"
                )
            before = e.after
        if g.result is not None and g.result.winner is None:
            raise ExportError(f"{fmt} cannot hold a drawn game (game {g.number})")
        for e in g.entries:
            value = getattr(e, "value", 1)
            if value & (value - 1):
                raise ExportError(f"{fmt} knows a doubling cube only; game {g.number} has {value}")
