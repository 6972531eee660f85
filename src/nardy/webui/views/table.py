"""One table: its page, its state as JSON, its live stream and its buttons."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    jsonify,
    render_template,
    request,
    stream_with_context,
)

from nardy.referee.events import ACTION_KINDS as REFEREE_ACTIONS
from nardy.referee.events import ACTORS as REFEREE_ACTORS
from nardy.webui import security
from nardy.webui.hub import ActionRefused, Seat, hub_of
from nardy.webui.present import present
from nardy.webui.sse import event_stream

bp = Blueprint("table", __name__, url_prefix="/table")

#: The buttons a person may press: the referee's actions, and "choose" — picking one of the
#: likely plays the referee offers for a board it could not explain (a correction).
ACTION_KINDS = frozenset(REFEREE_ACTIONS) | {"choose"}
ACTORS = frozenset(REFEREE_ACTORS)


def _seat(table_id: str) -> Seat:
    seat = hub_of(current_app).get(table_id)
    if seat is None:
        abort(404, description=f"no table {table_id!r} here")
    return seat


def _error(status: int, message: str) -> tuple[Response, int]:
    return jsonify(error=message), status


@bp.get("/<table_id>")
def page(table_id: str) -> str:
    seat = _seat(table_id)
    return render_template(
        "table.html",
        seat=seat,
        view=present(seat),
        unlocked=security.is_unlocked(table_id),
    )


@bp.get("/<table_id>/state")
def state(table_id: str) -> Response:
    return jsonify(present(_seat(table_id)))


@bp.get("/<table_id>/events")
def events(table_id: str) -> Response:
    """Server-sent events: the table's view now, then again after every change."""
    seat = _seat(table_id)
    return event_stream(lambda: seat.version, seat.wait, lambda: present(seat))


@bp.get("/<table_id>/camera.jpg")
def camera_still(table_id: str) -> Response:
    """The latest camera frame with what vision read drawn over it."""
    return Response(
        _camera_jpeg(_seat(table_id)), mimetype="image/jpeg", headers={"Cache-Control": "no-store"}
    )


@bp.get("/<table_id>/camera.mjpg")
def camera_stream(table_id: str) -> Response:
    """The camera as MJPEG: a new part whenever the table has a new frame."""
    seat = _seat(table_id)
    _camera_jpeg(seat)  # a table with no camera is a 404 before the stream starts
    deadline = time.monotonic() + float(current_app.config["SSE_MAX_S"])
    period = 1.0 / float(current_app.config["CAMERA_FPS"])

    def parts() -> Iterator[bytes]:
        last = None
        while time.monotonic() < deadline:
            jpeg = seat.table.camera_jpeg()
            if jpeg is not None and jpeg is not last:
                last = jpeg
                yield b"--frame\r\nContent-Type: image/jpeg\r\n\r\n" + jpeg + b"\r\n"
            time.sleep(period)

    return Response(
        stream_with_context(parts()), mimetype="multipart/x-mixed-replace; boundary=frame"
    )


def _camera_jpeg(seat: Seat) -> bytes:
    grab = getattr(seat.table, "camera_jpeg", None)
    jpeg = grab() if grab else None
    if jpeg is None:
        abort(404, description="this table has no camera picture")
    return jpeg


@bp.post("/<table_id>/unlock")
def unlock(table_id: str) -> tuple[Response, int] | Response:
    seat = _seat(table_id)
    pin = _body().get("pin")
    if not isinstance(pin, str) or not pin.strip().isdigit():
        return _error(400, "the PIN is the four digits shown on the table's own screen")
    if not security.unlock(table_id, pin, seat.pin):
        return _error(403, "wrong PIN for this table")
    return jsonify(ok=True)


@bp.post("/<table_id>/action")
def action(table_id: str) -> tuple[Response, int] | Response:
    seat = _seat(table_id)
    if not security.is_unlocked(table_id):
        return _error(403, "enter the table's PIN to act on it")
    body = _body()
    kind, by = body.get("kind"), body.get("by")
    if kind not in ACTION_KINDS:
        return _error(400, f"unknown action {kind!r}; one of: {', '.join(sorted(ACTION_KINDS))}")
    if by not in ACTORS:
        return _error(400, "say who acts: light, dark or director")
    params = {k: v for k, v in body.items() if k not in ("kind", "by", security.CSRF_FIELD)}
    try:
        seat.table.act(kind, by, params)
    except (ActionRefused, ValueError) as e:
        return _error(409 if isinstance(e, ActionRefused) else 400, str(e))
    seat.touch()
    return jsonify(ok=True, version=seat.version)


def _body() -> dict[str, Any]:
    """The request's fields, from JSON or a form; a body that is neither is a 400."""
    if request.is_json:
        data = request.get_json(silent=True)
        if not isinstance(data, dict):
            abort(400, description="the body must be a JSON object")
        return data
    return request.form.to_dict()
