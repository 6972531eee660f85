"""The calibration wizard's endpoints, on a rendered board whose corners are known."""

from __future__ import annotations

import numpy as np

from nardy.calibration import BoardProfile


def _token(client, csrf_of):
    return {"X-CSRF-Token": csrf_of(client, "cam")}


def test_wizard_page_needs_a_camera(client, wizard_table):
    assert client.get("/calibrate/t1").status_code == 404
    page = client.get("/calibrate/cam")
    assert page.status_code == 200
    assert 'data-width="1280"' in page.get_data(as_text=True)
    assert client.get("/calibrate/cam/frame.jpg").data[:2] == b"\xff\xd8"


def test_find_returns_the_corners_calibration_finds(client, wizard_table, csrf_of):
    # How close those corners are to the truth is calibration's own test; here: the wizard
    # hands the person exactly what calibration found, in the frame's pixels.
    from nardy.calibration.auto import find_corners
    from nardy.calibration.markers import corners_from_markers

    for method, finder in (("markers", corners_from_markers), ("auto", find_corners)):
        r = client.post(
            "/calibrate/cam/find", json={"method": method}, headers=_token(client, csrf_of)
        )
        assert r.status_code == 200, method
        expected = np.asarray(finder(wizard_table.frame))
        assert np.allclose(r.get_json()["corners"], expected, atol=0.06), method


def test_find_uses_the_marker_layout_the_person_measured(client, wizard_table, csrf_of):
    from nardy.calibration.markers import MarkerLayout, corners_from_markers

    measured = wizard_table.truth["marker_layout"]
    r = client.post(
        "/calibrate/cam/find",
        json={"method": "markers", "layout": {k: str(v) for k, v in measured.items()}},
        headers=_token(client, csrf_of),
    )
    assert r.status_code == 200
    expected = corners_from_markers(wizard_table.frame, MarkerLayout(**measured))
    assert np.allclose(r.get_json()["corners"], expected, atol=0.06)
    truth = np.asarray(wizard_table.truth["corners"])
    default = corners_from_markers(wizard_table.frame)
    # the measured layout brings the corners nearer the truth than the default one does
    assert np.abs(expected - truth).max() < np.abs(default - truth).max()


def test_find_refuses_a_bad_marker_layout(client, wizard_table, csrf_of):
    for layout in ({"side_mm": "wide"}, {"side_mm": 1}, {"colour": 3}, [30, 0, 0]):
        r = client.post(
            "/calibrate/cam/find",
            json={"method": "markers", "layout": layout},
            headers=_token(client, csrf_of),
        )
        assert r.status_code == 400, layout
        assert "layout" in r.get_json()["error"]


def test_find_refuses_an_unknown_method(client, wizard_table, csrf_of):
    r = client.post(
        "/calibrate/cam/find", json={"method": "magic"}, headers=_token(client, csrf_of)
    )
    assert r.status_code == 400


def test_preview_rectifies_and_reads_the_board(client, wizard_table, csrf_of):
    corners = wizard_table.truth["corners"]
    r = client.post(
        "/calibrate/cam/preview", json={"corners": corners}, headers=_token(client, csrf_of)
    )
    assert r.status_code == 200
    data = r.get_json()
    assert data["rectified"].startswith("data:image/jpeg;base64,")
    reading = data["reading"]
    assert reading["usable"]
    # The reading is vision's, measured by its own evaluation; the wizard must pass it on whole.
    from nardy.vision.detect import detect_image, profile_from_corners

    frame = wizard_table.frame
    expected = detect_image(frame, profile_from_corners(frame, corners)).to_json()
    assert reading["points"] == expected["points"]
    assert sum(abs(n) for n in reading["points"]) > 0


def test_preview_refuses_bad_corners(client, wizard_table, csrf_of):
    h = _token(client, csrf_of)
    three = wizard_table.truth["corners"][:3]
    assert (
        client.post("/calibrate/cam/preview", json={"corners": three}, headers=h).status_code == 400
    )
    outside = [[0, 0], [5000, 0], [5000, 5000], [0, 5000]]
    r = client.post("/calibrate/cam/preview", json={"corners": outside}, headers=h)
    assert r.status_code == 400 and "outside" in r.get_json()["error"]
    r = client.post("/calibrate/cam/preview", json={"corners": "nope"}, headers=h)
    assert r.status_code == 400
    crossed = [wizard_table.truth["corners"][i] for i in (0, 2, 1, 3)]
    r = client.post("/calibrate/cam/preview", json={"corners": crossed}, headers=h)
    assert r.status_code == 400 and "convex" in r.get_json()["error"]


def test_saving_needs_the_pin_and_writes_a_profile(client, wizard_table, csrf_of):
    h = _token(client, csrf_of)
    corners = wizard_table.truth["corners"]
    assert (
        client.post("/calibrate/cam/save", json={"corners": corners}, headers=h).status_code == 403
    )
    assert client.post("/table/cam/unlock", json={"pin": "2468"}, headers=h).status_code == 200
    r = client.post("/calibrate/cam/save", json={"corners": corners}, headers=h)
    assert r.status_code == 200
    profile = BoardProfile.load(r.get_json()["saved"])
    assert np.allclose(profile.corners, corners, atol=0.01)
