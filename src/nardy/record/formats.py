"""The file formats a record is written in, by name: what ``nardy export --to`` and the
dashboard's downloads offer."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from nardy.record.json_form import dumps
from nardy.record.mat import write_mat
from nardy.record.model import Record, RecordError
from nardy.record.sgf import write_sgf


@dataclass(frozen=True, slots=True)
class Format:
    name: str
    suffix: str
    media_type: str
    write: Callable[[Record], str]
    #: Holds the backgammon family only (long nardy is JSON only).
    backgammon_only: bool


FORMATS = {
    "mat": Format("mat", ".mat", "text/plain; charset=utf-8", write_mat, True),
    "sgf": Format("sgf", ".sgf", "application/x-go-sgf; charset=utf-8", write_sgf, True),
    "json": Format("json", ".json", "application/json", lambda r: dumps(r) + "\n", False),
}


def render(record: Record, fmt: str) -> str:
    """``record`` as the text of format ``fmt`` (``mat``, ``sgf`` or ``json``).

    Raises :class:`~nardy.record.export_common.ExportError` (a :class:`RecordError`) when the
    format cannot hold the record, with the reason in words.
    """
    if fmt not in FORMATS:
        raise RecordError(f"no format {fmt!r}: say {', '.join(FORMATS)}")
    return FORMATS[fmt].write(record)
