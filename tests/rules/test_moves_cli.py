"""``nardy moves``, run as a user runs it."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest


def nardy(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "nardy", "moves", *args],
        capture_output=True,
        text=True,
        input=stdin,
        timeout=60,
    )


def test_readme_example_lists_the_sixteen_turns_of_3_1():
    r = nardy("--variant", "backgammon", "--position", "start", "--dice", "3", "1")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert "16 turns" in lines[0]
    assert any(line.startswith("8/5 6/5 ") for line in lines)


def test_json_carries_notation_position_id_and_json_position():
    r = nardy("--position", "4HPwATDgc/ABMA", "--dice", "6", "5", "--json", "--player", "dark")
    assert r.returncode == 0, r.stderr
    answer = json.loads(r.stdout)
    assert answer["player"] == "dark"
    run = next(t for t in answer["turns"] if t["notation"] == "24/13")
    # Dark ran a back checker from its 24 (light's 1) to its 13 (light's 12).
    assert run["position"]["points"][0] == -1 and run["position"]["points"][11] == -6
    assert len(run["position_id"]) == 14


def test_long_nardy_from_json():
    start = {"points": [0] * 11 + [-15] + [0] * 11 + [15], "bar": [0, 0], "off": [0, 0]}
    r = nardy(
        "--variant",
        "long",
        "--position",
        json.dumps(start),
        "--dice",
        "6",
        "6",
        "--first-turn",
        "--json",
    )
    assert r.returncode == 0, r.stderr
    assert [t["notation"] for t in json.loads(r.stdout)["turns"]] == ["24/18(2)"]


def test_batch_answers_each_job_in_order(tmp_path):
    jobs = tmp_path / "jobs.jsonl"
    jobs.write_text(
        '{"variant": "backgammon", "position": "start", "dice": [3, 1]}\n'
        '{"variant": "long", "position": "start", "dice": [5, 5], "player": "dark",'
        ' "first_turn": true}\n'
    )
    r = nardy("--batch", str(jobs))
    assert r.returncode == 0, r.stderr
    first, second = (json.loads(line) for line in r.stdout.splitlines())
    assert len(first["turns"]) == 16
    assert [t["notation"] for t in second["turns"]] == ["24/4"] and second["player"] == "dark"


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--dice", "7", "1"], "1 to 6"),
        (["--dice", "x", "1"], "number"),
        (["--variant", "chess", "--dice", "3", "1"], "unknown variant"),
        (["--position", "4HPwATDgc/ABM!", "--dice", "3", "1"], "Position ID"),
        (["--position", '{"points": [1]}', "--dice", "3", "1"], "24 points"),
        (["--position", '{"points": [16] + [0]*23}', "--dice", "3", "1"], "JSON"),
        (["--player", "blue", "--dice", "3", "1"], "light or dark"),
        (["--variant", "khachapuri", "--dice", "3", "1"], "starting"),
        (["--option", "home_mars=3", "--dice", "3", "1"], "long nardy only"),
        (["--batch", "/nonexistent/jobs"], "cannot read"),
    ],
)
def test_bad_input_gives_one_line_and_status_2(args, words):
    r = nardy(*args)
    assert r.returncode == 2
    assert r.stderr.count("\n") == 1 and words in r.stderr and "Traceback" not in r.stderr


def test_sixteen_checkers_are_refused():
    pos = {"points": [16] + [0] * 22 + [-15], "bar": [0, 0], "off": [0, 0]}
    r = nardy("--position", json.dumps(pos), "--dice", "3", "1")
    assert r.returncode == 2 and "16 checkers" in r.stderr


def test_a_garbled_batch_line_names_its_line(tmp_path):
    jobs = tmp_path / "jobs.jsonl"
    jobs.write_text('{"position": "start", "dice": [3, 1]}\n{"dice": [3, \n')
    r = nardy("--batch", str(jobs))
    assert r.returncode == 2 and "line 2" in r.stderr


def test_xgid_gives_the_position_and_the_side_on_roll():
    xgid = "XGID=-b----E-C---eE---c-e----B-:0:0:-1:00:0:0:0:0:10"  # the start, dark on roll
    r = nardy("--position", xgid, "--dice", "3", "1", "--json")
    assert r.returncode == 0, r.stderr
    answer = json.loads(r.stdout)
    assert answer["player"] == "dark" and answer["position_id"] == "4HPwATDgc/ABMA"
    assert "8/5 6/5" in [t["notation"] for t in answer["turns"]]
