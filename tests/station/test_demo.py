"""The demo plays a recorded session through the live path — the cup emulator on a pty, the
real driver, the frame feed — and the table ends with the session's true record at any speed."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import pytest

from nardy.station.demo import start_demo

SESSIONS = Path(__file__).resolve().parents[1] / "fixtures" / "sessions"
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "referee"))
from session_truth import compare, project  # noqa: E402  (the referee's truth helpers)


def _play(
    name: str,
    speed: float,
    look=lambda demo: demo.station.live.record(),
    truth_frames: bool = True,
):
    """Play the session through and return what ``look`` sees of the demo when it is done."""
    demo = start_demo(SESSIONS / name, speed=speed, truth_frames=truth_frames)
    try:
        deadline = time.monotonic() + (120 if truth_frames else 600)
        while not demo.finished():
            assert time.monotonic() < deadline, "the demo did not finish"
            time.sleep(0.1)
        time.sleep(0.3)  # the last throw's ACK and the last view
        assert demo.station.errors == []
        return look(demo)
    finally:
        demo.stop()


@pytest.mark.parametrize(
    "name", sorted(p.name for p in SESSIONS.iterdir() if (p / "truth.json").is_file())
)
def test_the_demo_at_speed_gives_the_true_record(name):
    truth = json.loads((SESSIONS / name / "truth.json").read_text())
    compare(project(_play(name, speed=25)), truth)


@pytest.mark.slow
def test_the_demo_as_it_starts_reads_the_frames_with_vision_and_gives_the_true_record():
    """``nardy demo`` with no options: the bundled match, its frames read by nardy.vision."""
    import argparse

    from nardy.cli.demo import BUNDLED, add_arguments

    parser = argparse.ArgumentParser()
    add_arguments(parser)
    args = parser.parse_args([])
    assert (args.session, args.truth_frames) == (BUNDLED, False)
    name = BUNDLED.name
    truth = json.loads((SESSIONS / name / "truth.json").read_text())
    compare(project(_play(name, speed=25, truth_frames=False)), truth)


def test_the_demo_arms_the_cup_for_the_player_on_turn_as_the_table_did():
    """Each throw says whose it is, as it did when the session was recorded (the recording's
    station armed the cup; a throw it left unarmed, an opening throw, may be armed now)."""
    from nardy.referee.cuplog import read_cup_log
    from nardy.referee.events import DiceThrown

    name = "backgammon_money"
    events = _play(name, speed=25, look=lambda demo: list(demo.station.live.store.events()))
    played = [e for e in events if isinstance(e, DiceThrown)]
    recorded = [e for e in read_cup_log(SESSIONS / name / "cup.log") if isinstance(e, DiceThrown)]
    assert [e.values for e in played] == [e.values for e in recorded]
    armed = [(p.player, r.player) for p, r in zip(played, recorded, strict=True) if r.player]
    assert len(armed) > 5
    assert all(now == then for now, then in armed), armed
