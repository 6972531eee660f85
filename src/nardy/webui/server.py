"""Serving the dashboard: a threaded local server, loopback unless asked otherwise."""

from __future__ import annotations

import ipaddress
import sys
import threading
from collections.abc import Callable

from flask import Flask
from werkzeug.serving import BaseWSGIServer, make_server


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def start_server(app: Flask, host: str = "127.0.0.1", port: int = 8000) -> BaseWSGIServer:
    """Bind and serve on a background thread; the server's ``server_port`` is the real port.

    Raises OSError when the address cannot be bound (in use, not ours).
    """
    if not is_loopback(host):
        print(
            f"warning: serving on {host}: anyone who can reach this machine can watch the "
            "tables; acting still needs a table's PIN",
            file=sys.stderr,
        )
    server = make_server(host, port, app, threaded=True)
    threading.Thread(target=server.serve_forever, name="dashboard", daemon=True).start()
    return server


def url_of(server: BaseWSGIServer, path: str = "/") -> str:
    host = server.host if ":" not in server.host else f"[{server.host}]"
    return f"http://{host}:{server.server_port}{path}"


def wait_forever(done: Callable[[], bool] | None = None, poll: float = 0.5) -> None:
    """Block until Ctrl-C, or until ``done()`` turns true."""
    stop = threading.Event()
    try:
        while not stop.wait(poll):
            if done is not None and done():
                return
    except KeyboardInterrupt:
        return
