"""The Flask dashboard: live table, club view, calibration wizard, history.

``create_app`` is the application factory (Flask tutorial style). Everything the app holds — the
tables, the cameras, the record store — comes in through ``init_app``-style hooks, so tests hand
it fakes and ``nardy serve`` hands it the real thing.
"""

from __future__ import annotations

import secrets
from typing import Any

from flask import Flask, jsonify, render_template, request
from flask.typing import ResponseReturnValue
from werkzeug.exceptions import HTTPException

from nardy.webui.history import History
from nardy.webui.hub import TableHub


def create_app(
    config: dict[str, Any] | None = None,
    *,
    hub: TableHub | None = None,
    history: History | None = None,
) -> Flask:
    app = Flask(__name__)
    app.config.from_mapping(
        SECRET_KEY=secrets.token_hex(32),
        # How long a server-sent-events stream waits for a change before a keep-alive comment.
        SSE_KEEPALIVE_S=15.0,
        # Ends a stream after this long so that a test client or a forgotten tab lets go.
        SSE_MAX_S=3600.0,
        # How often the MJPEG stream looks for a new camera frame.
        CAMERA_FPS=10.0,
        # A folder of past games (record JSON, table stores, recorded sessions) for History.
        HISTORY_DIR=None,
    )
    if config:
        app.config.update(config)

    (hub or TableHub()).init_app(app)
    (history or History(app.config["HISTORY_DIR"])).init_app(app)

    from nardy.webui import security
    from nardy.webui.views import calibrate, club, history, table

    security.init_app(app)
    app.register_error_handler(HTTPException, _http_error)
    app.register_blueprint(club.bp)
    app.register_blueprint(table.bp)
    app.register_blueprint(calibrate.bp)
    app.register_blueprint(history.bp)
    return app


def _http_error(e: HTTPException) -> ResponseReturnValue:
    """A 4xx as JSON for the page's scripts (POSTs, JSON requests), as a short page otherwise."""
    if request.method == "POST" or request.accept_mimetypes.best == "application/json":
        return jsonify(error=e.description), e.code or 500
    return render_template("error.html", error=e), e.code or 500
