"""``nardy detect`` and ``nardy calibrate`` as a user runs them."""

import json
import subprocess
import sys

import cv2
import numpy as np
import pytest

sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parent.parent / "vision"))
from vision_drawn import START, draw_board, photograph


def _nardy(*args, cwd=None):
    return subprocess.run(
        [sys.executable, "-m", "nardy", *args], capture_output=True, text=True, cwd=cwd
    )


@pytest.fixture(scope="module")
def board_photo(tmp_path_factory):
    flat, corners = draw_board(START)
    photo, seen = photograph(flat, corners)
    path = tmp_path_factory.mktemp("detect") / "start.png"
    cv2.imwrite(str(path), photo)
    return path, seen


def _corner_text(seen):
    return ",".join(f"{v:.1f}" for v in np.asarray(seen).ravel())


def test_detect_with_corners_prints_one_json_line_in_the_issues_form(board_photo):
    path, seen = board_photo
    proc = _nardy("detect", str(path), "--corners", _corner_text(seen), "--json")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.strip().splitlines()
    assert len(lines) == 1
    out = json.loads(lines[0])
    assert out["image"] == str(path)
    assert out["usable"] is True
    assert out["points"] == START
    assert out["bar"] == [0, 0]
    assert "off" in out and "dice" in out and "cube" in out


def test_calibrate_then_detect_with_the_profile(board_photo, tmp_path):
    path, seen = board_photo
    profile = tmp_path / "p.json"
    proc = _nardy("calibrate", str(path), "--out", str(profile), "--corners", _corner_text(seen))
    assert proc.returncode == 0, proc.stderr
    saved = json.loads(profile.read_text())
    assert saved["orientation"] == {"light_ace": 1}
    drawn = tmp_path / "drawn.png"
    proc = _nardy("detect", str(path), "--profile", str(profile), "--json", "--draw", str(drawn))
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["points"] == START
    assert cv2.imread(str(drawn)).shape == cv2.imread(str(path)).shape


def test_missing_and_broken_images_are_reported_not_raised(tmp_path, board_photo):
    path, seen = board_photo
    junk = tmp_path / "junk.jpg"
    junk.write_text("not an image")
    proc = _nardy(
        "detect",
        str(tmp_path / "none.jpg"),
        str(junk),
        str(path),
        "--json",
        "--corners",
        _corner_text(seen),
    )
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    out = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [o["usable"] for o in out] == [False, False, True]
    assert "no such file" in out[0]["why"] and "not an image" in out[1]["why"]


def test_a_dark_frame_is_unusable_with_a_reason(tmp_path, board_photo):
    _, seen = board_photo
    dark = tmp_path / "dark.png"
    cv2.imwrite(str(dark), np.full((720, 1280, 3), 4, np.uint8))
    proc = _nardy("detect", str(dark), "--corners", _corner_text(seen), "--json")
    assert proc.returncode == 0
    out = json.loads(proc.stdout)
    assert out["usable"] is False and "dark" in out["why"]


@pytest.mark.parametrize("corners", ["1,2,3", "a,b,c,d,e,f,g,h", "0,0,10,10,0,10,10,0"])
def test_bad_corners_are_one_clear_line_and_status_2(board_photo, corners):
    path, _ = board_photo
    proc = _nardy("detect", str(path), "--corners", corners)
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1


def test_a_bad_profile_file_is_one_clear_line(tmp_path, board_photo):
    path, _ = board_photo
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    proc = _nardy("detect", str(path), "--profile", str(bad))
    assert proc.returncode == 2 and "Traceback" not in proc.stderr


def test_calibrate_without_markers_in_view_says_so(board_photo, tmp_path):
    path, _ = board_photo
    proc = _nardy("calibrate", str(path), "--out", str(tmp_path / "p.json"), "--markers")
    assert proc.returncode == 2
    assert "marker" in proc.stderr and "Traceback" not in proc.stderr


def test_calibrate_names_a_bad_lens_pattern_and_a_pattern_not_seen(board_photo, tmp_path):
    path, seen = board_photo
    args = ["calibrate", str(path), "--out", str(tmp_path / "p.json")]
    args += ["--corners", _corner_text(seen), "--lens", str(path), str(path), str(path)]
    proc = _nardy(*args, "--pattern", "circles:4x11")
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert "pattern" in proc.stderr
    proc = _nardy(*args, "--pattern", "charuco:7x5")
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert "ChArUco board (DICT_6X6_250) in 0 photo(s)" in proc.stderr
    assert not (tmp_path / "p.json").exists()


def test_detect_gives_every_die_and_the_cube_a_confidence():
    from pathlib import Path

    fixture = Path(__file__).resolve().parents[1] / "fixtures" / "boards" / "cube-002.jpg"
    truth = json.loads(fixture.with_suffix(".json").read_text())
    corners = ",".join(str(v) for c in truth["corners"] for v in c)
    proc = _nardy("detect", str(fixture), "--corners", corners, "--json")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["dice"] and out["cube"] is not None  # a fixture with two dice and the cube
    sure = [d["confidence"] for d in out["dice"]] + [out["cube"]["confidence"]]
    assert all(0.0 < c <= 1.0 for c in sure)


def test_the_text_form_says_when_whose_side_the_cube_is_on_is_not_told(capsys):
    from nardy.cli.detect import _emit

    out = {"image": "x.jpg", "usable": True, "points": [0] * 24, "bar": [0, 0], "off": None}
    _emit({**out, "cube": {"value": 4, "where": None}}, as_json=False)
    _emit({**out, "cube": {"value": 2, "where": "dark"}}, as_json=False)
    text = capsys.readouterr().out
    assert "cube 4 on a side, whose not told" in text and "None" not in text
    assert "cube 2 dark" in text


def test_told_the_checkers_a_side_the_reading_adds_up_to_them():
    from pathlib import Path

    # a bear-off with both trays in view: every checker of both sets is in sight
    fixture = Path(__file__).resolve().parents[1] / "fixtures" / "boards" / "bearoff-011.jpg"
    truth = json.loads(fixture.with_suffix(".json").read_text())
    corners = ",".join(str(v) for c in truth["corners"] for v in c)
    proc = _nardy("detect", str(fixture), "--corners", corners, "--checkers", "15", "--json")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    light = sum(n for n in out["points"] if n > 0) + out["bar"][0] + out["off"][0]
    dark = -sum(n for n in out["points"] if n < 0) + out["bar"][1] + out["off"][1]
    assert (light, dark) == (15, 15)


@pytest.mark.parametrize("checkers", ["0", "16", "many"])
def test_a_bad_checkers_count_is_one_clear_line_and_status_2(board_photo, checkers):
    path, _ = board_photo
    proc = _nardy("detect", str(path), "--checkers", checkers)
    assert proc.returncode == 2
    assert "--checkers" in proc.stderr and "Traceback" not in proc.stderr
