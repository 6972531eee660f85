"""Safe by default: watching is open, acting on a table needs its PIN, and every POST carries
a token tied to the browser's session so another site cannot make the browser act."""

from __future__ import annotations

import hmac
import secrets

from flask import Flask, abort, request, session

CSRF_FIELD = "csrf_token"
CSRF_HEADER = "X-CSRF-Token"


def csrf_token() -> str:
    if CSRF_FIELD not in session:
        session[CSRF_FIELD] = secrets.token_urlsafe(24)
    return session[CSRF_FIELD]


def _check_csrf() -> None:
    if request.method != "POST":
        return
    sent = request.headers.get(CSRF_HEADER) or request.form.get(CSRF_FIELD, "")
    expected = session.get(CSRF_FIELD, "")
    if not expected or not hmac.compare_digest(sent, expected):
        abort(403, description="missing or stale form token: reload the page and try again")


def unlock(table_id: str, pin: str, expected: str) -> bool:
    """Remember in this browser's session that it knows ``table_id``'s PIN."""
    if not hmac.compare_digest(pin.strip(), expected):
        return False
    unlocked = set(session.get("unlocked", []))
    unlocked.add(table_id)
    session["unlocked"] = sorted(unlocked)
    return True


def is_unlocked(table_id: str) -> bool:
    return table_id in session.get("unlocked", [])


def init_app(app: Flask) -> None:
    app.before_request(_check_csrf)
    app.jinja_env.globals["csrf_token"] = csrf_token
