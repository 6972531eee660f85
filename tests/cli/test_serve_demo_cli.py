"""``nardy serve`` and ``nardy demo`` refuse bad input with one line and status 2."""

from __future__ import annotations

import subprocess
import sys

import pytest


def _nardy(*args: str, cwd=None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "nardy", *args], capture_output=True, text=True, timeout=120, cwd=cwd
    )


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["demo", "--speed", "0"], "--speed"),
        (["demo", "--session", "/nonexistent/session"], "/nonexistent/session"),
        (["demo", "--port", "70000"], "--port"),
        (["serve", "--players", "OnlyOne"], "--players"),
        (["serve", "--corners", "1,2,3"], "corners"),
        (["serve", "--option", "crawford"], "NAME=VALUE"),
        (["serve", "--variant", "chess"], "chess"),
        (["serve", "--camera", "/nonexistent/camera"], "/nonexistent/camera"),
    ],
)
def test_bad_input_is_one_line_and_status_2(args, said, tmp_path):
    proc = _nardy(*args, cwd=tmp_path)  # serve would record into the working folder
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr
    assert said in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1


def test_a_config_file_that_is_not_json_is_refused(tmp_path):
    config = tmp_path / "tables.json"
    config.write_text("{not json")
    proc = _nardy("serve", "--config", str(config))
    assert proc.returncode == 2 and "not JSON" in proc.stderr
    config.write_text(
        '{"tables": [{"id": "a", "variant": "backgammon"}, {"id": "a", "variant": "long"}]}'
    )
    proc = _nardy("serve", "--config", str(config))
    assert proc.returncode == 2 and "share an id" in proc.stderr
