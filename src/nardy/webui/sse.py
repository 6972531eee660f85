"""Server-sent events: a state now, then again after every change, keep-alives in between."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

from flask import Response, current_app, stream_with_context

V = TypeVar("V")


def event_stream(
    version: Callable[[], V],
    wait: Callable[[V, float], V],
    payload: Callable[[], Any],
) -> Response:
    """Stream ``payload()`` as a ``state`` event whenever ``version()`` changes.

    ``wait(seen, timeout)`` blocks until the version differs from ``seen`` or the timeout passes.
    """
    keepalive = float(current_app.config["SSE_KEEPALIVE_S"])
    deadline = time.monotonic() + float(current_app.config["SSE_MAX_S"])

    def stream() -> Iterator[str]:
        seen: object = object()  # nothing sent yet
        while time.monotonic() < deadline:
            now = version()
            if now != seen:
                seen = now
                yield f"event: state\ndata: {json.dumps(payload())}\n\n"
            elif wait(now, keepalive) == now:
                yield ": keep-alive\n\n"

    headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
    return Response(stream_with_context(stream()), mimetype="text/event-stream", headers=headers)
