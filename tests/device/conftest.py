"""The pty rig every end-to-end test of the cup starts from."""

from __future__ import annotations

import pytest
from cup_rig import SCALE, make_rig

from nardy.device.emulator import CupEmulator


@pytest.fixture
def pty_rig(tmp_path):
    emulator = CupEmulator.on_pty(tmp_path / "ttyCUP", time_scale=SCALE, seed=7)
    rig = make_rig(emulator, tmp_path)
    yield rig
    rig.driver.stop()
    emulator.stop()
