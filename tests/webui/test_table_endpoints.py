import json


def test_club_page_lists_every_table(client):
    html = client.get("/").get_data(as_text=True)
    assert html.count('class="club-table') == 2
    assert "Anna" in html and "<svg" in html


def test_table_page_draws_the_board(client):
    r = client.get("/table/t1")
    assert r.status_code == 200
    html = r.get_data(as_text=True)
    assert html.count('class="checker light"') >= 4  # 15 checkers, tall stacks drawn as 5
    assert "Table 1" in html


def test_unknown_table_is_404(client):
    assert client.get("/table/nope").status_code == 404
    assert client.get("/table/nope/state").status_code == 404


def test_state_carries_svg_and_pip_counts(client):
    data = client.get("/table/t1/state").get_json()
    assert data["pips"] == {"light": 167, "dark": 167}
    assert data["svg"].startswith("<svg")
    assert data["table_id"] == "t1"


def test_events_stream_starts_with_the_state(client):
    r = client.get("/table/t1/events")
    assert r.mimetype == "text/event-stream"
    first = r.get_data(as_text=True).split("\n\n")[0]
    assert first.startswith("event: state")
    assert json.loads(first.split("data: ", 1)[1])["table_id"] == "t1"


def test_post_without_token_is_refused(client, csrf_of):
    client.get("/table/t1")
    r = client.post("/table/t1/unlock", json={"pin": "1234"})
    assert r.status_code == 403


def test_unlock_checks_the_pin(client, csrf_of):
    token = csrf_of(client)
    h = {"X-CSRF-Token": token}
    assert client.post("/table/t1/unlock", json={"pin": "12a4"}, headers=h).status_code == 400
    assert client.post("/table/t1/unlock", json={"pin": "4321"}, headers=h).status_code == 403
    assert client.post("/table/t1/unlock", json={}, headers=h).status_code == 400
    assert client.post("/table/t1/unlock", json={"pin": "1234"}, headers=h).status_code == 200


def test_acting_needs_the_pin(client, csrf_of):
    token = csrf_of(client)
    r = client.post(
        "/table/t1/action", json={"kind": "offer", "by": "light"}, headers={"X-CSRF-Token": token}
    )
    assert r.status_code == 403
    assert "PIN" in r.get_json()["error"]


def test_a_pin_unlocks_only_its_table(client, unlocked):
    r = client.post(
        "/table/t2/action",
        json={"kind": "offer", "by": "light"},
        headers={"X-CSRF-Token": unlocked},
    )
    assert r.status_code == 403


def test_bad_action_fields_are_400(client, unlocked):
    h = {"X-CSRF-Token": unlocked}
    assert (
        client.post(
            "/table/t1/action", json={"kind": "explode", "by": "light"}, headers=h
        ).status_code
        == 400
    )
    assert (
        client.post(
            "/table/t1/action", json={"kind": "offer", "by": "nobody"}, headers=h
        ).status_code
        == 400
    )
    assert client.post("/table/t1/action", json=[1, 2], headers=h).status_code == 400
    r = client.post(
        "/table/t1/action", data="{not json", headers={**h, "Content-Type": "application/json"}
    )
    assert r.status_code == 400


def test_an_action_the_table_refuses_is_409_with_its_reason(client, unlocked):
    r = client.post(
        "/table/t1/action",
        json={"kind": "accept", "by": "dark"},
        headers={"X-CSRF-Token": unlocked},
    )
    assert r.status_code == 409
    assert r.get_json()["error"] == "there is no flag to answer"


def test_an_action_reaches_the_table_and_moves_the_version(client, hub, unlocked):
    before = hub.get("t1").version
    r = client.post(
        "/table/t1/action",
        json={"kind": "offer", "by": "light"},
        headers={"X-CSRF-Token": unlocked},
    )
    assert r.status_code == 200
    assert hub.get("t1").table.actions == [("offer", "light", {})]
    assert hub.get("t1").version == before + 1


def test_a_form_post_works_like_json(client, hub, unlocked):
    r = client.post(
        "/table/t1/action",
        data={"kind": "resign", "by": "dark", "points": "2", "csrf_token": unlocked},
    )
    assert r.status_code == 200
    assert hub.get("t1").table.actions[-1] == ("resign", "dark", {"points": "2"})


def test_a_table_without_camera_has_no_picture(client):
    assert client.get("/table/t1/camera.jpg").status_code == 404
    assert client.get("/table/t1/camera.mjpg").status_code == 404


def test_camera_picture_and_stream(app, hub, camera_table):
    hub.add("cam", camera_table)
    client = app.test_client()
    still = client.get("/table/cam/camera.jpg")
    assert still.mimetype == "image/jpeg"
    assert still.data[:2] == b"\xff\xd8"
    stream = client.get("/table/cam/camera.mjpg")
    assert stream.mimetype == "multipart/x-mixed-replace"
    body = stream.get_data()
    # The same frame is sent once, however long the stream lasts.
    assert body.count(b"--frame") == 1
    assert hub.get("cam").table.jpeg in body
