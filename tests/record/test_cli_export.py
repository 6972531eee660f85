"""``nardy export`` from the command line."""

from __future__ import annotations

import json
import subprocess
import sys

from record_games import long_nardy_record, make_record

from nardy.record import dumps, loads


def _nardy(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "nardy", *args], capture_output=True, text=True)


def test_export_writes_each_format(tmp_path) -> None:
    record = make_record(8, match_to=3)
    src = tmp_path / "match.json"
    src.write_text(dumps(record))
    mat = _nardy("export", str(src), "--to", "mat")
    assert mat.returncode == 0, mat.stderr
    assert " 3 point match" in mat.stdout
    out = tmp_path / "match.sgf"
    sgf = _nardy("export", str(src), "--to", "sgf", "-o", str(out))
    assert sgf.returncode == 0 and sgf.stdout == ""
    assert out.read_text().startswith("(;FF[4]GM[6]")
    js = _nardy("export", str(src), "--to", "json")
    assert loads(js.stdout) == record


def test_long_nardy_exports_as_json_and_refuses_mat(tmp_path) -> None:
    src = tmp_path / "long.json"
    src.write_text(dumps(long_nardy_record()))
    assert _nardy("export", str(src), "--to", "json").returncode == 0
    bad = _nardy("export", str(src), "--to", "mat")
    assert bad.returncode == 2
    assert len(bad.stderr.strip().splitlines()) == 1 and "JSON" in bad.stderr


def test_bad_input_is_one_line_and_exit_2(tmp_path) -> None:
    garbled = tmp_path / "garbled.json"
    garbled.write_text('{"format": "nardy-record", "version": 1, "header": {}}')
    for path in (garbled, tmp_path / "missing.json"):
        r = _nardy("export", str(path), "--to", "sgf")
        assert r.returncode == 2
        assert len(r.stderr.strip().splitlines()) == 1, r.stderr
        assert "Traceback" not in r.stderr


def test_export_reads_the_referee_record_and_says_what_it_lacks(tmp_path) -> None:
    referee_json = {
        "setup": {"variant": "backgammon", "players": {"light": "A", "dark": "B"}},
        "games": [{"number": 1, "turns": [{"number": 1}]}],
    }
    src = tmp_path / "replayed.json"
    src.write_text(json.dumps(referee_json))
    r = _nardy("export", str(src), "--to", "mat")
    assert r.returncode == 2
    assert len(r.stderr.strip().splitlines()) == 1 and "Traceback" not in r.stderr


def test_a_mat_file_converts_to_sgf_and_json(tmp_path) -> None:
    from nardy.record.mat import write_mat

    record = make_record(6, match_to=5)
    src = tmp_path / "match.mat"
    src.write_text(write_mat(record))
    js = _nardy("export", str(src), "--to", "json")
    assert js.returncode == 0, js.stderr
    assert loads(js.stdout).score() == record.score()
    assert _nardy("export", str(src), "--to", "sgf").stdout.startswith("(;FF[4]GM[6]")
    src.write_text(write_mat(record).replace(" Game 2", " Game 2\n what is this"))
    bad = _nardy("export", str(src), "--to", "sgf")
    assert bad.returncode == 2 and "cannot read" in bad.stderr


def test_export_writes_what_nardy_replay_json_prints(tmp_path) -> None:
    from record_games import referee_tables

    table = referee_tables()[0]
    src = tmp_path / "replayed.json"
    src.write_text(json.dumps(table.record()))
    r = _nardy("export", str(src), "--to", "sgf")
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("(;FF[4]GM[6]") and ";W[31hefe]" in r.stdout
