"""The dashboard in a real Chromium: live updates, buttons, the phone layout."""

from __future__ import annotations

from pathlib import Path

import pytest

pytestmark = pytest.mark.browser

SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


def test_a_turn_arrives_without_reloading(page, live_server, hub):
    page.goto(f"{live_server}/table/t1")
    page.evaluate("window.__sameDocument = true")
    assert page.locator("#moves li").count() == 1

    table = hub.get("t1").table
    played = {"side": "light", "dice": [6, 4], "play": "24/14", "flags": []}
    original = table.snapshot

    def with_turn():
        snap = original()
        snap["turns"] = [*snap["turns"], played]
        return snap

    table.snapshot = with_turn
    hub.get("t1").touch()
    page.locator("#moves li").nth(1).wait_for(timeout=5000)
    assert "24/14" in page.locator("#moves li").nth(1).inner_text()
    assert page.evaluate("window.__sameDocument") is True  # no reload happened
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "table.png"))


def test_accepting_a_flag_in_the_browser(page, live_server, hub):
    table = hub.get("t1").table
    table.flag = {
        "reason": "6-4 can be played in full: 13/3 uses both dice",
        "offender": "light",
        "answer_by": "dark",
        "nearest": ["13/3", "24/14"],
    }
    page.goto(f"{live_server}/table/t1")
    assert page.locator("#flag").is_visible()
    assert "13/3 uses both dice" in page.locator("#flag .reason").inner_text()
    page.fill("#unlock input[name=pin]", "1234")
    page.click("#unlock button")
    page.locator("#unlock .msg", has_text="unlocked").wait_for(timeout=5000)
    page.click("#flag button[data-action=accept]")
    page.locator("#flag").wait_for(state="hidden", timeout=5000)
    assert table.actions == [("accept", "dark", {})]


def test_club_view_updates_live_and_marks_a_flag(page, live_server, hub):
    page.goto(live_server + "/")
    assert page.locator(".club-table").count() == 2
    assert page.locator(".club-table.alert").count() == 0
    hub.get("t2").table.flag = {"reason": "point 5 is held by two dark checkers"}
    hub.get("t2").touch()
    page.locator(".club-table.alert").wait_for(timeout=5000)
    assert "point 5" in page.locator(".club-table.alert .status").inner_text()
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "club.png"))


def test_table_fits_a_phone_screen(browser, live_server):
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    page = context.new_page()
    page.goto(f"{live_server}/table/t1")
    page.locator("#board svg").wait_for()
    width = page.evaluate("document.documentElement.scrollWidth")
    board = page.locator("#board svg").bounding_box()
    context.close()
    assert width <= 390, "the page scrolls sideways on a phone"
    assert board["width"] >= 330, "the board is too small to read on a phone"


def test_calibration_wizard_by_clicking_four_corners(page, live_server, wizard_table):
    page.goto(f"{live_server}/calibrate/cam")
    page.locator("#frame").wait_for()
    page.wait_for_function("document.getElementById('frame').complete")
    box = page.locator("#marks").bounding_box()
    scale = box["width"] / 1280
    for x, y in wizard_table.truth["corners"]:
        page.mouse.click(box["x"] + x * scale, box["y"] + y * scale)
    assert page.locator("#marks circle.corner").count() == 4
    assert "Four corners set" in page.locator("#step").inner_text()
    page.click("#preview")
    page.locator("#result").wait_for(state="visible", timeout=30000)
    page.wait_for_function("document.getElementById('rectified').naturalWidth > 0")
    page.fill("#unlock input[name=pin]", "2468")
    page.click("#unlock button")
    page.locator("#unlock .msg", has_text="unlocked").wait_for(timeout=5000)
    page.click("#save")
    page.locator("#message", has_text="profile saved").wait_for(timeout=30000)
    saved = wizard_table.saved[-1]
    # Clicks land on whole screen pixels: the corners come back within a pixel or two.
    for (x, y), (tx, ty) in zip(saved.corners, wizard_table.truth["corners"], strict=True):
        assert abs(x - tx) < 2.5 and abs(y - ty) < 2.5
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "calibrate.png"), full_page=True)


def test_calibration_wizard_finds_the_markers_with_the_layout_typed_in(
    page, live_server, wizard_table
):
    page.goto(f"{live_server}/calibrate/cam")
    page.locator("#frame").wait_for()
    for name, value in wizard_table.truth["marker_layout"].items():
        page.fill(f"#marker-layout input[name={name}]", str(value))
    page.click("#find-markers")
    page.locator("#step", has_text="Four corners set").wait_for(timeout=30000)
    marks = page.locator("#marks circle.corner")  # drawn in the frame's own pixels
    found = [
        (float(marks.nth(i).get_attribute("cx")), float(marks.nth(i).get_attribute("cy")))
        for i in range(4)
    ]
    for (x, y), (tx, ty) in zip(found, wizard_table.truth["corners"], strict=True):
        assert abs(x - tx) < 2 and abs(y - ty) < 2


def test_the_demo_plays_turns_into_an_open_page(page):
    """The live path end to end: a recorded match thrown by the emulated cup, read by the real
    driver, judged by the referee, pushed to a page that never reloads."""
    from nardy.station.demo import start_demo
    from nardy.webui import create_app
    from nardy.webui.hub import TableHub
    from nardy.webui.server import start_server, url_of

    session = Path(__file__).resolve().parents[1] / "fixtures" / "sessions" / "backgammon_match3"
    demo = start_demo(session, speed=4, truth_frames=True)
    hub = TableHub()
    seat = hub.add("demo", demo.station)
    demo.station.on_change = seat.touch
    server = start_server(create_app(hub=hub), "127.0.0.1", 0)
    try:
        page.goto(url_of(server, "/table/demo"))
        page.evaluate("window.__sameDocument = true")
        page.locator("#moves li").nth(3).wait_for(timeout=60000)
        assert page.evaluate("window.__sameDocument") is True
        assert "match to 3" in page.locator("#score").inner_text()
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / "demo.png"))
    finally:
        server.shutdown()
        demo.stop()
