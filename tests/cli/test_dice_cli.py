"""``nardy dice``: one JSON line per image, one clear line and exit 2 on bad input."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

REAL = Path(__file__).resolve().parent.parent / "fixtures" / "dice-real"


def nardy(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "nardy", "dice", *args], capture_output=True, text=True, timeout=120
    )


def test_one_json_line_per_image():
    images = sorted(REAL.glob("*.jpg"))[:2]
    done = nardy(*map(str, images), "--confidence")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == 2
    for path, line in zip(images, lines, strict=True):
        dice = json.loads(line)
        truth = [ln for ln in path.with_suffix(".txt").read_text().splitlines() if ln.strip()]
        assert len(dice) == len(truth)
        for die in dice:
            assert set(die) == {"value", "flat", "center", "box", "confidence"}
            assert 1 <= die["value"] <= 6 and isinstance(die["flat"], bool)
            assert len(die["center"]) == 2 and len(die["box"]) == 4


def test_missing_file_is_one_line_and_exit_2(tmp_path):
    done = nardy(str(tmp_path / "nowhere.jpg"))
    assert done.returncode == 2
    assert done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1 and "nowhere.jpg" in done.stderr


def test_not_an_image_is_one_line_and_exit_2(tmp_path):
    bad = tmp_path / "garbled.jpg"
    bad.write_bytes(b"\xff\xd8 this is not a JPEG")
    done = nardy(str(bad))
    assert done.returncode == 2
    assert len(done.stderr.strip().splitlines()) == 1 and "garbled.jpg" in done.stderr
    assert "Traceback" not in done.stderr
