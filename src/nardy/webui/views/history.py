"""History: past and running matches, their games, stepping through a game, downloads."""

from __future__ import annotations

from flask import Blueprint, Response, abort, current_app, render_template, request
from flask.typing import ResponseReturnValue

from nardy.record import Record, RecordError
from nardy.webui.game_steps import game_frames, result_text
from nardy.webui.history import HistoryError, history_of

bp = Blueprint("history", __name__, url_prefix="/history")

#: Each download: what writes it, its content type.
FORMATS = {
    "mat": "text/plain; charset=utf-8",
    "sgf": "application/x-go-sgf; charset=utf-8",
    "json": "application/json; charset=utf-8",
}


def _record(rid: str) -> Record:
    try:
        return history_of(current_app).record(rid)
    except KeyError:
        abort(404, description=f"no record {rid!r} here")
    except HistoryError as e:
        abort(422, description=f"record {rid!r} cannot be read: {e}")


def render(record: Record, fmt: str) -> str:
    """The record as a file; RecordError (ExportError) when the format cannot hold it."""
    from nardy.record import dumps
    from nardy.record.mat import write_mat
    from nardy.record.sgf import write_sgf

    writer = {"mat": write_mat, "sgf": write_sgf, "json": lambda r: dumps(r) + "\n"}[fmt]
    return writer(record)


def _refusals(record: Record) -> dict[str, str | None]:
    """Per format, why it cannot hold this record (None: it can)."""
    from nardy.record.export_common import check_exportable

    out: dict[str, str | None] = {"json": None}
    for fmt, name, positions in (("mat", ".mat", False), ("sgf", "SGF", True)):
        try:
            check_exportable(record, name, positions=positions)
            out[fmt] = None
        except RecordError as e:
            out[fmt] = str(e)
    return out


def _stem(rid: str) -> str:
    """The download's name: the record's id without a file's own extension."""
    for ext in (".json", ".sqlite"):
        if rid.endswith(ext):
            return rid[: -len(ext)]
    return rid


@bp.get("")
def index() -> ResponseReturnValue:
    return render_template("history.html", entries=history_of(current_app).summaries())


@bp.get("/<rid>")
def match(rid: str) -> ResponseReturnValue:
    record = _record(rid)
    ledger = {line.game: line for line in record.ledger()}
    games = [
        {
            "game": g,
            "turns": len(g.turns),
            "flags": sum(len(t.flags) for t in g.turns),
            "result": None if g.result is None else result_text(record, g.result),
            "ledger": ledger.get(g.number),
        }
        for g in record.games
    ]
    return render_template(
        "history_match.html",
        rid=rid,
        record=record,
        games=games,
        refusals=_refusals(record),
    )


@bp.get("/<rid>/game/<int:number>")
def game(rid: str, number: int) -> ResponseReturnValue:
    record = _record(rid)
    found = [g for g in record.games if g.number == number]
    if not found:
        abort(404, description=f"record {rid!r} has no game {number}")
    frames = game_frames(record, found[0])
    # ?turn=k opens (and, without JavaScript, shows) frame k; the script steps without reloading.
    raw = request.args.get("turn", "0")
    if not raw.isdigit() or int(raw) >= len(frames):
        abort(400, description=f"turn is a number from 0 to {len(frames) - 1}, not {raw!r}")
    numbers = [g.number for g in record.games]
    i = numbers.index(number)
    return render_template(
        "history_game.html",
        rid=rid,
        record=record,
        game=found[0],
        frames=frames,
        current=int(raw),
        previous_game=numbers[i - 1] if i > 0 else None,
        next_game=numbers[i + 1] if i + 1 < len(numbers) else None,
    )


@bp.get("/<rid>/download.<fmt>")
def download(rid: str, fmt: str) -> ResponseReturnValue:
    if fmt not in FORMATS:
        abort(404, description=f"no download as .{fmt}; one of: .mat, .sgf, .json")
    record = _record(rid)
    try:
        text = render(record, fmt)
    except RecordError as e:
        abort(422, description=f"this record cannot be written as .{fmt}: {e}")
    return Response(
        text,
        content_type=FORMATS[fmt],
        headers={"Content-Disposition": f'attachment; filename="{_stem(rid)}.{fmt}"'},
    )
