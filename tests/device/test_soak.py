"""The soak: thousands of throws through a faulty line; each must come out once, in order.

NARDY_SOAK_THROWS sets the size (default 2,000, the CI run); e.g. 50000 for a long soak.
"""

from __future__ import annotations

import itertools
import os
import random
import time

from cup_rig import SCALE, make_rig, seen, truth

from nardy.device.emulator import CupEmulator, FaultRates, ScriptedThrow
from nardy.device.events import CupConnected, CupLost, CupRestarted, ThrowsMissed

THROWS = int(os.environ.get("NARDY_SOAK_THROWS", "2000"))
FAULTS = FaultRates(
    corrupt=0.05,  # 5 % of the cup's lines damaged
    drop=0.01,
    duplicate=0.01,
    corrupt_in=0.02,  # and 2 % of the host's commands
    noise=0.003,
    overlong=0.003,
    silence=0.001,
    reboot=0.002,
    unplug=0.002,
    silence_s=10.0,
    unplug_s=1.0,
)


def test_soak_every_throw_once_and_in_order(tmp_path):
    rng = random.Random(20261129)
    emu = CupEmulator.on_pty(
        tmp_path / "ttyCUP", time_scale=SCALE, seed=11, keep=512, faults=FAULTS
    )
    rig = make_rig(emu, tmp_path)
    start = time.monotonic()
    try:
        script = [
            ScriptedThrow(
                why=rng.choice(["cocked", "partial"]) if rng.random() < 0.1 else None,
                shake_s=0.2,
                wait_s=0.05,
            )
            for _ in range(THROWS)
        ]
        emu.play(script)
        turn = 0
        # besides the random faults, each kind once on demand, so a short soak has them all
        on_demand = [
            emu.corrupt,
            emu.drop,
            emu.duplicate,
            emu.noise,
            emu.overlong,
            lambda: emu.silence(10.0),
            emu.reboot,
            lambda: emu.unplug(for_s=1.0),
        ]
        while not emu.wait_idle(0):
            if len(emu.made) >= turn * 25:  # the referee arms each new turn
                turn += 1
                rig.driver.arm("WB"[turn % 2], turn)
            if on_demand and len(emu.made) >= THROWS * (9 - len(on_demand)) // 10:
                on_demand.pop(0)()
            rig.pump(0.2)
        emu.set_faults(FaultRates())  # a clean line at the end: what is still owed comes in
        rig.until(lambda ev: len(seen(ev)) >= THROWS, 60)
        rig.pump(0.5)
    finally:
        rig.driver.stop()
        emu.stop()
    elapsed = time.monotonic() - start

    delivered, made = seen(rig.events), truth(emu.made)
    keys = [(boot, roll) for boot, roll, *_ in delivered]
    print(
        f"\nsoak: {len(made)} throws made, {len(delivered)} delivered, "
        f"{len(keys) - len(set(keys))} duplicates, {len(set(truth(emu.made)) - set(delivered))} "
        f"lost, in {elapsed:.1f} s; faults {dict(sorted(emu.faults.items()))}; "
        f"lost {len(rig.of(CupLost))}x, reconnected {len(rig.of(CupConnected)) - 1}x, "
        f"restarts seen {len(rig.of(CupRestarted))}"
    )
    assert len(made) == THROWS
    pairs = enumerate(zip(delivered, made, strict=False))
    first_wrong = next((i for i, (d, m) in pairs if d != m), None)
    assert delivered == made, f"{len(delivered)} delivered, first wrong at {first_wrong}"
    assert not rig.of(ThrowsMissed)
    kinds = ("corrupt", "drop", "duplicate", "noise", "overlong", "reboot", "unplug", "silence")
    assert all(emu.faults[kind] > 0 for kind in kinds), emu.faults
    # the host sees the cup's power-ups in order; two restarts in one absence count as one
    restarts = rig.of(CupRestarted)
    assert 0 < len(restarts) <= emu.faults["reboot"] == len(emu.boots) - 1
    chain = [restarts[0].old_boot] + [r.new_boot for r in restarts]
    assert all(a.new_boot == b.old_boot for a, b in itertools.pairwise(restarts))
    where = [emu.boots.index(b) for b in chain]
    assert where == sorted(set(where))
