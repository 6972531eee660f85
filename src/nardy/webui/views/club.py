"""The club view: every table served by this machine on one page."""

from __future__ import annotations

from flask import Blueprint, current_app, jsonify, render_template
from flask.typing import ResponseReturnValue

from nardy.webui.hub import hub_of
from nardy.webui.present import present
from nardy.webui.sse import event_stream

bp = Blueprint("club", __name__)


@bp.get("/")
def index() -> ResponseReturnValue:
    views = [present(seat) for seat in hub_of(current_app)]
    return render_template("club.html", tables=views)


@bp.get("/club/state")
def state() -> ResponseReturnValue:
    return jsonify(tables=[present(seat) for seat in hub_of(current_app)])


@bp.get("/club/events")
def events() -> ResponseReturnValue:
    hub = hub_of(current_app)
    return event_stream(hub.versions, hub.wait, lambda: [present(seat) for seat in hub])
