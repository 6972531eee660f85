"""``scripts/evaluate_dice.py --by``: the groups a die's flat-or-cocked read is counted in."""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))

from evaluate_dice import frame_group, tilt_groups  # noqa: E402

BOARDS = ROOT / "tests" / "fixtures" / "boards"


def test_a_cocked_die_is_grouped_by_what_it_leans_on_and_its_lean_against_the_camera():
    # two dice on the rim: the first leans across the camera's line (77 degrees off it), the
    # second toward the camera (10 degrees off), near the point under it (a small slant)
    truth = json.loads((BOARDS / "cocked-018.json").read_text())
    across, toward = tilt_groups(truth, (720, 1280, 3))
    assert "cocked on rim leaning across the camera" in across
    assert "cocked on rim leaning toward the camera" in toward
    assert "cocked at slant 0.25-0.5" in across and "cocked at slant under 0.25" in toward


def test_a_flat_die_is_grouped_by_the_slant_alone():
    truth = json.loads((BOARDS / "bg-start-000.json").read_text())
    one, other = tilt_groups(truth, (720, 1280, 3))  # both seen at a slant of 0.55 and more
    assert one == ["flat at slant over 0.5"] and other == ["flat at slant over 0.5"]


def test_dice_are_grouped_by_whether_the_referee_would_read_the_frame():
    still = json.loads((BOARDS / "bg-start-000.json").read_text())
    moving = json.loads((BOARDS / "motion-000.json").read_text())
    assert frame_group(still) == "frame usable"
    assert frame_group(moving) == "frame unusable (motion)"
