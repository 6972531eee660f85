"""A dashboard with fake tables, so the web layer is tested without a referee or devices."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from nardy.webui import create_app
from nardy.webui.hub import ActionRefused, TableHub

START = [-2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 2]


class FakeTable:
    """A table that records the actions it is given and refuses what a referee would."""

    def __init__(self, name: str = "Table 1") -> None:
        self.name = name
        self.actions: list[tuple[str, str, dict[str, Any]]] = []
        self.flag: dict[str, Any] | None = None

    def snapshot(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "variant": "backgammon",
            "family": "short",
            "players": {"light": "Anna", "dark": "Boris"},
            "position": {"points": START, "bar": [0, 0], "off": [0, 0]},
            "on_roll": "light",
            "dice": {"values": [6, 4], "used": [False, False], "by": "light"},
            "cube": {"value": 1, "owner": None},
            "waiting_for": "move",
            "turns": [{"side": "dark", "dice": [3, 1], "play": "8/5 6/5", "flags": []}],
            "flag": self.flag,
            "score": {"match_to": 5, "light": 1, "dark": 2, "crawford": False},
            "devices": {"cup": "connected", "camera": "connected"},
        }

    def act(self, kind: str, by: str, params: dict[str, Any]) -> None:
        if kind in ("accept", "replay") and self.flag is None:
            raise ActionRefused("there is no flag to answer")
        self.actions.append((kind, by, params))
        if kind in ("accept", "replay"):
            self.flag = None


@pytest.fixture
def hub() -> TableHub:
    hub = TableHub()
    hub.add("t1", FakeTable("Table 1"), pin="1234")
    hub.add("t2", FakeTable("Table 2"), pin="5678")
    return hub


@pytest.fixture
def app(hub: TableHub):
    return create_app({"TESTING": True, "SSE_KEEPALIVE_S": 0.05, "SSE_MAX_S": 0.3}, hub=hub)


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def csrf_of():
    """Opens a table's page as a browser would and returns the form token it carries."""

    def read(client, table_id: str = "t1") -> str:
        html = client.get(f"/table/{table_id}").get_data(as_text=True)
        return re.search(r'name="csrf-token" content="([^"]+)"', html).group(1)

    return read


@pytest.fixture
def unlocked(client, csrf_of):
    """A client that has the page's token and has entered table t1's PIN; returns the token."""
    token = csrf_of(client)
    r = client.post("/table/t1/unlock", json={"pin": "1234"}, headers={"X-CSRF-Token": token})
    assert r.status_code == 200
    return token


@pytest.fixture
def live_server(app):
    """The app served on a free loopback port in a thread; yields its base URL."""
    import threading

    from werkzeug.serving import make_server

    app.config["SSE_MAX_S"] = 30.0
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    thread.join(timeout=5)


CHROMIUM = "/usr/bin/chromium"
# As root with no display and no network beyond loopback, Chromium needs these.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="session")
def browser():
    """Debian's Chromium driven by Playwright (``scripts/test`` installs both)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    yield page
    context.close()


class CameraTable(FakeTable):
    """A fake table with a camera that has taken one frame."""

    def __init__(self) -> None:
        super().__init__("Camera table")
        import cv2
        import numpy as np

        self.jpeg = cv2.imencode(".jpg", np.full((36, 64, 3), 90, np.uint8))[1].tobytes()

    def camera_jpeg(self) -> bytes | None:
        return self.jpeg


@pytest.fixture
def camera_table() -> CameraTable:
    return CameraTable()


FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "boards"


class BoardCameraTable(FakeTable):
    """A fake table whose camera sees a rendered board with known corners (a fixture)."""

    def __init__(self, fixture: str, store: Path) -> None:
        super().__init__("Wizard table")
        import cv2

        self.frame = cv2.imread(str(FIXTURES / f"{fixture}.jpg"))
        self.truth = json.loads((FIXTURES / f"{fixture}.json").read_text())
        self.store = store
        self.saved = []

    def camera_frame(self):
        return self.frame

    def camera_jpeg(self) -> bytes | None:
        import cv2

        return cv2.imencode(".jpg", self.frame)[1].tobytes()

    def save_profile(self, profile) -> str:
        path = self.store / "profile.json"
        profile.save(path)
        self.saved.append(profile)
        return str(path)


@pytest.fixture
def wizard_table(hub, tmp_path) -> BoardCameraTable:
    table = BoardCameraTable("markers-000", tmp_path)
    hub.add("cam", table, pin="2468")
    return table
