"""Recorded-session folders: written as a live table would, read back into one event stream."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys

import numpy as np
import pytest
from referee_stand_in import START, after, rules

from nardy.device.dcp import Message, message
from nardy.referee.events import Action, BoardSeen, CupStatus, DiceThrown
from nardy.referee.session import (
    TRUTH_FRAMES,
    SessionError,
    SessionWriter,
    TruthReader,
    open_session,
    read_session,
    replay,
)
from nardy.referee.setup import TableSetup
from nardy.rules.position import Side

L, D = Side.LIGHT, Side.DARK
LEGAL = {(L, (3, 1)): ["8/5 6/5"], (D, (6, 4)): ["24/14"]}
P1 = after(START, L, "8/5 6/5")


def line(text: str) -> str:
    return str(parse_message(text))


def parse_message(text: str) -> Message:
    kind, *fields = text.split()
    pairs = dict(f.split("=", 1) for f in fields)
    seq = int(pairs.pop("seq"))
    return message(kind, seq, **pairs)


def write_session(folder, setup=None):
    w = SessionWriter(folder)
    w.write_setup(setup or TableSetup(stake=1.0), profile={"corners": [[0, 0]] * 4})
    for ms, way, text in [
        (10, "out", "HELLO? seq=1 proto=1"),
        (20, "in", "HELLO seq=0 ref=1 boot=AB12 proto=1 min=1 fw=1 id=C1 dice=2 caps=arm"),
        (30, "out", "STATE? seq=2"),
        (40, "in", "STATE seq=1 ref=2 boot=AB12 st=idle roll=6 last=- armed=- batt=90 pending=-"),
        (50, "out", "REPLAY? seq=3 from=7"),
        (60, "in", "ACK seq=2 ref=3"),
        (100, "in", "ROLL seq=3 roll=7 boot=AB12 d=3,1 armed=W:1"),
        (110, "in", "ROLL seq=3 roll=7 boot=AB12 d=3,1 armed=W:1"),  # the same line twice
        (600, "in", "NOROLL seq=4 roll=8 boot=AB12 why=cocked d=6,? armed=B:2"),
        (700, "in", "ROLL seq=5 roll=9 boot=AB12 d=6,4 armed=B:2"),
    ]:
        w.write_cup_line(ms, way, line(text))
    w.write_cup_line(650, "in", "$ROLL seq=9 roll=10 boot=AB12 d=1,1*0000")  # bad CRC: skipped
    truth = []
    for ms, pos, still in [
        (300, after(START, L, "8/5"), False),
        (400, P1, True),
        (800, after(P1, D, "24/14"), True),
    ]:
        w.write_frame(ms, b"not really a jpeg")
        truth.append({"ms": ms, "observation": pos.to_json(), "still": still})
    (folder / TRUTH_FRAMES).write_text("".join(json.dumps(t) + "\n" for t in truth))
    w.write_action(Action(900, "offer", "light"))
    w.write_action(Action(950, "drop", "dark"))
    w.close()


def test_the_folder_reads_back_as_one_time_ordered_stream(tmp_path):
    write_session(tmp_path)
    session = open_session(tmp_path)
    assert session.duration_ms == 950 and len(session.frames) == 3
    events = list(read_session(session, TruthReader(tmp_path)))
    times = [e.t_ms for e in events]
    assert times == sorted(times)
    throws = [e for e in events if isinstance(e, DiceThrown)]
    assert [(t.values, t.valid, t.why, t.player) for t in throws] == [
        ((3, 1), True, None, "light"),
        ((6, 0), False, "cocked", "dark"),
        ((6, 4), True, None, "dark"),
    ]
    assert throws[0].throw_id == "AB12:7"
    assert isinstance(events[0], CupStatus) and events[0].state == "connected"
    assert sum(isinstance(e, BoardSeen) for e in events) == 3
    assert [e.kind for e in events if isinstance(e, Action)] == ["offer", "drop"]


def test_replaying_the_folder_gives_the_record(tmp_path):
    write_session(tmp_path)
    record = replay(tmp_path, truth_frames=True, rules=rules(LEGAL)).record()
    (game,) = record["games"]
    assert [(t["player"], t["play"]) for t in game["turns"]] == [
        ("light", "8/5 6/5"),
        ("dark", "24/14"),
    ]
    assert game["turns"][1]["void_throws"][0]["why"] == "cocked"
    assert game["result"]["winner"] == "light" and game["result"]["ending"] == "dropped"


def test_a_garbled_cup_log_is_a_session_error(tmp_path):
    write_session(tmp_path)
    with open(tmp_path / "cup.log", "a") as fh:
        fh.write("garbage without tabs\n")
    with pytest.raises(SessionError, match=r"cup\.log"):
        list(read_session(open_session(tmp_path), TruthReader(tmp_path)))


def test_a_garbled_action_is_a_session_error(tmp_path):
    write_session(tmp_path)
    with open(tmp_path / "actions.jsonl", "a") as fh:
        fh.write('{"t": 5, "kind": "juggle", "by": "light"}\n')
    with pytest.raises(SessionError, match=r"actions\.jsonl line 3"):
        list(read_session(open_session(tmp_path), TruthReader(tmp_path)))


@pytest.mark.parametrize("content", [None, "{not json", '{"players": {}}'])
def test_replay_of_a_bad_folder_is_one_line_and_exit_2(tmp_path, content):
    if content is not None:
        (tmp_path / "session.json").write_text(content)
    proc = subprocess.run(
        [sys.executable, "-m", "nardy", "replay", str(tmp_path)], capture_output=True, text=True
    )
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr


def test_a_live_table_writes_a_folder_that_replays_to_its_record(tmp_path):
    """No camera: the cup's lines (written by its driver) and the buttons (written by the live
    table) are all a replay needs to give the live table's record again."""
    from nardy.device.replay import LogReplay
    from nardy.referee.cuplog import referee_event
    from nardy.referee.live import LiveTable

    folder = tmp_path / "session"
    setup = TableSetup(stake=2.0, move_source="entered")
    writer = SessionWriter(folder)
    live = LiveTable.open(tmp_path / "t.sqlite", setup, rules=rules(LEGAL), recorder=writer)
    cup = [
        (10, "out", "HELLO? seq=1 proto=1"),
        (20, "in", "HELLO seq=0 ref=1 boot=AB12 proto=1 min=1 fw=1 id=C1 dice=2 caps=arm"),
        (30, "out", "STATE? seq=2"),
        (40, "in", "STATE seq=1 ref=2 boot=AB12 st=idle roll=0 last=- armed=- batt=90 pending=-"),
        (50, "out", "REPLAY? seq=3 from=1"),
        (60, "in", "ACK seq=2 ref=3"),
        (100, "in", "ROLL seq=3 roll=1 boot=AB12 d=3,1 armed=-"),
        (900, "in", "ROLL seq=4 roll=2 boot=AB12 d=6,4 armed=B:2"),
    ]
    buttons = {
        500: Action(500, "enter_turn", "light", play="8/5 6/5"),
        1200: Action(1200, "enter_turn", "dark", play="13/9 13/7"),
        1500: Action(1500, "replay", "light"),
        1800: Action(1800, "enter_turn", "dark", play="24/14"),
        2000: Action(2000, "offer", "light"),
        2100: Action(2100, "drop", "dark"),
    }
    # The driver logs each raw line and hands its events to the table, as `nardy serve` will.
    for ms, way, text in cup:
        writer.write_cup_line(ms, way, line(text))
    for e in LogReplay(folder / "cup.log"):
        event = referee_event(e)
        if event is not None:
            for t in [t for t in buttons if t < event.t_ms]:
                live.submit(buttons.pop(t))
            live.submit(event)
    for t in sorted(buttons):
        live.submit(buttons[t])
    live.close()
    record = live.record()
    assert record["games"][0]["result"]["ending"] == "dropped"
    assert record["ledger"]["balance"] == {"light": 2, "dark": -2}
    assert replay(folder, rules=rules(LEGAL)).record() == record


def test_vision_is_told_the_checkers_a_side_has_and_the_start_of_the_tables_variant():
    from nardy.referee.session import VisionReader
    from nardy.rules.variant import get_variant

    hyper = VisionReader.for_table(TableSetup(variant="hypergammon"))
    assert hyper.config.checkers_per_side == 3
    assert hyper.start == get_variant("hypergammon").start().points
    assert VisionReader.for_table(TableSetup(variant="long")).config.checkers_per_side == 15
    unknown = VisionReader.for_table(TableSetup(variant="no-such-game"))
    assert unknown.config.checkers_per_side is None and unknown.start is None
    assert VisionReader().config.checkers_per_side is None


def test_vision_measures_the_layout_round_given_corners_once_on_a_clear_frame():
    from pathlib import Path

    import numpy as np

    from nardy.referee.session import VisionReader, open_session

    folder = Path(__file__).resolve().parents[1] / "fixtures" / "sessions" / "backgammon_match3"
    session = open_session(folder)
    reader = VisionReader.for_session(session)
    frames = dict(session.frames)
    assert reader.profile is None
    reader.read(0, np.zeros((540, 960, 3), np.uint8))  # a dark frame: nothing is measured
    assert reader.profile is None
    reader.read(400, frames[400])
    kept = reader.profile
    assert kept is not None
    assert np.allclose(kept.corners, session.setup.corners, atol=0.5)
    from nardy.vision.board import board_reader

    hits = board_reader.cache_info().hits
    reader.read(2700, frames[2700])
    assert reader.profile is kept
    assert board_reader.cache_info().hits > hits  # the last frame's reader, its maps built once


def test_vision_reads_the_dice_and_cube_on_still_boards_only():
    """They are the costly part of a frame, and the referee acts on nothing but a still board."""
    from pathlib import Path

    from nardy.referee.session import VisionReader, open_session
    from nardy.vision.detect import detect_image

    folder = Path(__file__).resolve().parents[1] / "fixtures" / "sessions" / "camera_dice_no_cup"
    session = open_session(folder)
    reader = VisionReader.for_session(session)
    read_objects = reader.with_objects
    reads: list[int] = []

    def counted(result, image):
        reads.append(1)
        return read_objects(result, image)

    reader.with_objects = counted
    still_frames = 0
    for t, frame in session.frames[:12]:
        obs, still = reader.read(t, frame)
        if not still:
            assert obs.dice == () and obs.cube is None
            continue
        still_frames += 1
        full = detect_image(reader.frames.image(frame), corners=session.setup.corners)
        assert [d.value for d in obs.dice] == [d["value"] for d in full.dice]
    assert 0 < still_frames < 12
    assert len(reads) == still_frames


def test_vision_finds_a_board_given_no_corners_once_and_keeps_it():
    from pathlib import Path

    import numpy as np

    from nardy.referee.session import VisionReader, open_session

    folder = Path(__file__).resolve().parents[1] / "fixtures" / "sessions" / "backgammon_match3"
    session = open_session(folder)
    reader = VisionReader()  # neither a profile nor corners: vision finds the board itself
    frames = dict(session.frames)
    reader.read(400, frames[400])
    found = reader.profile
    assert found is not None and found.source == "auto"
    corners = np.asarray(found.corners)
    width = corners[1, 0] - corners[0, 0]
    assert np.abs(corners - np.asarray(session.setup.corners)).max() < 0.02 * width
    reader.read(2700, frames[2700])
    assert reader.profile is found


def test_the_camera_seeing_one_die_is_no_throw_of_one():
    """A die hidden or missed leaves one on the board: the rules have no throw of one die, so
    the throw is void and thrown again (it once reached the rules engine and raised)."""
    from nardy.referee.events import WHY_INVALID, Observation, SeenDie
    from nardy.referee.session import CameraDice

    dice = CameraDice()
    board = (0,) * 24
    thrown = dice.feed(0, Observation(board, dice=(SeenDie(4),)), still=True)
    assert thrown is not None and not thrown.valid and thrown.why == "count"
    assert "two dice" in WHY_INVALID["count"]
    assert dice.feed(100, Observation(board, dice=(SeenDie(4), SeenDie(2))), still=True) is None
    assert dice.feed(200, Observation(board), still=True) is None  # picked up
    again = dice.feed(300, Observation(board, dice=(SeenDie(4), SeenDie(2))), still=True)
    assert again is not None and again.valid and again.values == (4, 2)


def _stubbed_reader(points, dice=(), start=None):
    """A VisionReader whose vision always reads ``points`` (image numbering) and ``dice``."""
    from nardy.calibration import BoardProfile
    from nardy.referee.session import VisionReader
    from nardy.vision.detect import DetectResult
    from nardy.vision.reading import BoardReading

    profile = BoardProfile.from_corners([(100, 50), (860, 50), (860, 490), (100, 490)], (960, 540))
    reading = BoardReading(usable=True, points=tuple(points), point_confidence=(1.0,) * 24)
    reader = VisionReader(start=start)
    reader.detect = lambda image, **kw: DetectResult(reading, kw["profile"] or profile)
    reader.with_objects = lambda result, image: dataclasses.replace(result, dice=dice)
    reader.tracker.update = lambda image, usable: type("S", (), {"still": True})()
    return reader


def test_vision_turns_the_board_into_lights_numbering_from_the_starting_position():
    """A camera across the table: light's ace point lies at the image's top-left (point 13)."""
    from nardy.calibration import Orientation
    from nardy.rules.variant import get_variant

    start = get_variant("backgammon").start().points
    across = Orientation(13)
    image = [0] * 24
    for p in range(1, 25):
        image[across.image_point(p) - 1] = start[p - 1]
    dice = ({"value": 3, "flat": True, "where": "left", "center": [0, 0], "box": [0, 0, 1, 1]},)
    reader = _stubbed_reader(image, dice, start=start)
    frame = np.zeros((540, 960, 3), np.uint8)
    obs, _ = reader.read(0, frame)
    assert reader.orientation == across
    assert obs.points == start
    assert [d.where for d in obs.dice] == ["right"]  # the image's left half is light's home
    later = list(image)  # light's 6-point (image point 18) moves to its 3-point (image 15)
    later[17], later[14] = later[17] - 1, 1
    reader.detect = _stubbed_reader(later).detect
    obs, _ = reader.read(200, frame)
    assert obs.points[5] == 4 and obs.points[2] == 1


def test_vision_without_a_starting_position_keeps_the_image_numbering():
    from nardy.rules.variant import get_variant

    start = get_variant("backgammon").start().points
    moved = list(start)
    moved[5], moved[2] = moved[5] - 1, 1
    reader = _stubbed_reader(moved, start=start)
    obs, _ = reader.read(0, np.zeros((540, 960, 3), np.uint8))
    assert reader.orientation is None
    assert obs.points == tuple(moved)
