"""The real driver against the emulator over a real pty, one fault at a time."""

from __future__ import annotations

import pytest
import serial
from cup_rig import SCALE, make_rig, seen, truth

from nardy.device import driver as driver_mod
from nardy.device.dcp import Armed
from nardy.device.driver import CupDriver, Timing, probe
from nardy.device.emulator import CupEmulator, ScriptedThrow
from nardy.device.events import (
    Battery,
    CupConnected,
    CupLost,
    CupRestarted,
    DiceMoved,
    NoThrow,
    Thrown,
    ThrowsMissed,
    ThrowStarted,
)
from nardy.device.replay import LogReplay

QUICK = {"shake_s": 0.5, "wait_s": 0.2}


def _connected(rig) -> None:
    assert rig.until(lambda ev: any(isinstance(e, CupConnected) for e in ev))


def test_scripted_throws_come_out_once_each_with_values_why_and_player(pty_rig):
    _connected(pty_rig)
    pty_rig.driver.arm("W", 18)
    pty_rig.pump(0.2)
    pty_rig.emulator.play(
        [
            ScriptedThrow((5, 5), **QUICK),
            ScriptedThrow((6, None), why="cocked", **QUICK),
            ScriptedThrow((2, None), why="partial", **QUICK),
            ScriptedThrow(why="timeout", **QUICK),
            ScriptedThrow((3, 1), **QUICK),
        ]
    )
    assert pty_rig.settle()
    assert seen(pty_rig.events) == truth(pty_rig.emulator.made)
    throws = [e for e in pty_rig.events if isinstance(e, Thrown | NoThrow)]
    assert [e.values for e in throws][:3] == [(5, 5), (6, None), (2, None)]
    assert [e.why for e in throws if isinstance(e, NoThrow)] == ["cocked", "partial", "timeout"]
    assert {e.armed for e in throws} == {Armed("W", 18)}
    assert [e.roll for e in pty_rig.of(ThrowStarted)] == [e.roll for e in throws]
    connected = pty_rig.of(CupConnected)[0]
    assert connected.cup_id == "CUP-7F21" and connected.dice == 2 and connected.proto == 1


@pytest.mark.parametrize("fault", ["corrupt", "drop", "duplicate", "noise", "overlong"])
def test_a_damaged_line_loses_no_throw_and_repeats_none(pty_rig, fault):
    _connected(pty_rig)
    emu = pty_rig.emulator
    for _ in range(4):  # a fault at a time: a run of lost answers would be a lost cup
        emu.throw(**QUICK)
        assert emu.wait_idle(5)
        getattr(emu, fault)() if fault in ("noise", "overlong") else getattr(emu, fault)(2)
        emu.throw(**QUICK)
        assert emu.wait_idle(5)
    assert pty_rig.settle()
    assert emu.faults[fault] >= 4
    assert seen(pty_rig.events) == truth(emu.made)
    assert not pty_rig.of(CupLost)


def test_silence_is_a_lost_cup_then_a_reconnect_and_the_throws_made_meanwhile(pty_rig):
    _connected(pty_rig)
    emu = pty_rig.emulator
    emu.throw(**QUICK)
    emu.silence(10.0)
    emu.throw(**QUICK)
    emu.throw(**QUICK)
    assert pty_rig.settle(20)
    lost = pty_rig.of(CupLost)
    assert lost and lost[0].why == "dice cup not answering"
    assert len(pty_rig.of(CupConnected)) >= 2
    assert seen(pty_rig.events) == truth(emu.made)


def test_a_reboot_is_reported_and_the_player_is_armed_again(pty_rig):
    _connected(pty_rig)
    pty_rig.driver.arm("B", 3)
    emu = pty_rig.emulator
    emu.throw(**QUICK)
    assert emu.wait_idle(5)
    old_boot = emu.boot
    emu.reboot()
    pty_rig.pump(0.5)
    emu.throw(**QUICK)
    assert pty_rig.settle()
    restarted = pty_rig.of(CupRestarted)
    assert restarted and restarted[0].old_boot == old_boot and restarted[0].new_boot == emu.boot
    assert seen(pty_rig.events) == truth(emu.made)
    assert [m.armed for m in emu.made] == [Armed("B", 3)] * 2
    assert len({m.boot for m in emu.made}) == 2


def test_a_throw_kept_across_a_reboot_is_sent_once_under_its_first_boot(pty_rig):
    _connected(pty_rig)
    emu = pty_rig.emulator
    emu.drop(2)  # the throw's lines never arrive...
    emu.throw(**QUICK)
    assert emu.wait_idle(5)
    emu.reboot()  # ...and the cup restarts before anyone asks
    emu.throw(**QUICK)
    assert pty_rig.settle()
    assert seen(pty_rig.events) == truth(emu.made)
    assert len({m.boot for m in emu.made}) == 2


def test_unplug_and_replug_at_the_same_path(pty_rig):
    _connected(pty_rig)
    emu = pty_rig.emulator
    emu.throw(**QUICK)
    assert emu.wait_idle(5)
    emu.unplug(for_s=3.0)
    emu.throw(**QUICK)
    emu.throw(**QUICK)
    assert pty_rig.settle(20)
    assert [e.why for e in pty_rig.of(CupLost)] == ["disconnected"]
    assert len(pty_rig.of(CupConnected)) == 2
    assert seen(pty_rig.events) == truth(emu.made)


def test_battery_and_dice_moved_by_hand(pty_rig):
    _connected(pty_rig)
    pty_rig.emulator.low_battery(7)
    pty_rig.emulator.move((4, 4))
    assert pty_rig.until(lambda ev: any(isinstance(e, DiceMoved) for e in ev))
    assert pty_rig.until(lambda ev: any(isinstance(e, Battery) for e in ev))
    battery = pty_rig.of(Battery)[-1]
    assert battery.pct == 7 and battery.low
    assert pty_rig.of(DiceMoved)[0].values == (4, 4)


def test_throws_the_cup_no_longer_holds_are_reported_missing(tmp_path):
    emu = CupEmulator.on_pty(tmp_path / "tty", time_scale=SCALE, seed=3, keep=16)
    rig = make_rig(emu, tmp_path)
    try:
        _connected(rig)
        emu.throw(**QUICK)
        assert rig.until(lambda ev: len(seen(ev)) == 1)
        emu.unplug()
        emu.play([ScriptedThrow(shake_s=0.1, wait_s=0.05)] * 20)
        assert emu.wait_idle(20)
        emu.replug()
        assert rig.until(lambda ev: len(seen(ev)) == 17, 15)
        missed = rig.of(ThrowsMissed)
        assert [(m.first, m.last) for m in missed] == [(2, 5)]
        assert seen(rig.events) == truth(emu.made[:1] + emu.made[5:])
    finally:
        rig.driver.stop()
        emu.stop()


def test_an_incompatible_cup_is_refused_in_words_a_person_understands(tmp_path):
    emu = CupEmulator.on_pty(tmp_path / "tty", time_scale=SCALE, proto=2, min_proto=2)
    rig = make_rig(emu, tmp_path)
    try:
        assert rig.until(lambda ev: any(isinstance(e, CupLost) for e in ev))
        assert "update nardy" in rig.of(CupLost)[0].why
        assert not rig.of(CupConnected)
    finally:
        rig.driver.stop()
        emu.stop()


@pytest.mark.parametrize("where", ["tcp", "in_process"])
def test_other_links_carry_the_same_session(tmp_path, where):
    emu = (
        CupEmulator.on_tcp(time_scale=SCALE)
        if where == "tcp"
        else CupEmulator.in_process(time_scale=SCALE)
    )
    rig = make_rig(emu, tmp_path)
    try:
        _connected(rig)
        emu.throw((1, 2), **QUICK)
        emu.unplug(for_s=2.0)
        emu.throw(**QUICK)
        emu.corrupt(2)
        emu.throw(**QUICK)
        assert rig.settle(20)
        assert seen(rig.events) == truth(emu.made)
        assert rig.of(CupLost) and len(rig.of(CupConnected)) >= 2
    finally:
        rig.driver.stop()
        emu.stop()


def test_one_die_cup(tmp_path):
    emu = CupEmulator.in_process(time_scale=SCALE, dice=1)
    rig = make_rig(emu, tmp_path)
    try:
        emu.throw((6,), **QUICK)
        emu.throw(**QUICK)
        assert rig.settle()
        assert seen(rig.events) == truth(emu.made)
        assert all(len(e[2]) == 1 for e in seen(rig.events))
    finally:
        rig.driver.stop()
        emu.stop()


def test_the_log_replays_into_the_same_events(pty_rig, tmp_path):
    _connected(pty_rig)
    emu = pty_rig.emulator
    pty_rig.driver.arm("W", 1)
    for fault in (emu.corrupt, emu.drop, emu.duplicate, emu.noise, emu.reboot):
        emu.throw(**QUICK)
        fault()
        emu.throw(**QUICK)
    emu.unplug(for_s=1.0)
    emu.throw(**QUICK)
    assert pty_rig.settle(20)
    pty_rig.driver.stop()
    replayed = list(LogReplay(tmp_path / "cup.log", port=str(tmp_path / "ttyCUP")))

    def comparable(events):
        return [e for e in events if not isinstance(e, CupLost)]

    assert comparable(replayed) == comparable(pty_rig.events)
    assert len(replayed) > len(emu.made)


def test_probe_and_autodetect_find_the_cup(tmp_path, monkeypatch):
    with CupEmulator.on_pty(time_scale=SCALE) as emu:
        hello = probe(emu.port, timeout=1.0)
        assert hello is not None and hello.get("id") == "CUP-7F21"

        class Info:
            device = emu.port

        monkeypatch.setattr("serial.tools.list_ports.comports", lambda: [Info()])
        assert driver_mod.find_cups(1.0) == [(emu.port, "CUP-7F21")]
        drv = CupDriver(None, timing=Timing().scaled(SCALE)).start()
        try:
            event = drv.get(5)
            assert isinstance(event, CupConnected) and event.port == emu.port
        finally:
            drv.stop()


def test_a_port_that_is_not_a_cup_is_not_found():
    assert probe("loop://", timeout=0.2) is None
    assert probe("/dev/no-such-port", timeout=0.2) is None
    with pytest.raises(serial.SerialException):
        serial.serial_for_url("/dev/no-such-port")


def test_one_cup_per_player_each_armed_for_its_own(tmp_path):
    cups = {
        p: CupEmulator.in_process(time_scale=SCALE, cup_id=f"CUP-{p}", seed=i)
        for i, p in enumerate("WB")
    }
    rigs = {}
    for p, cup in cups.items():
        (tmp_path / p).mkdir()
        rigs[p] = make_rig(cup, tmp_path / p)  # a cup.log each
    try:
        for turn, p in enumerate("WBWB", 1):
            rigs[p].driver.arm(p, turn)
            rigs[p].pump(0.2)
            cups[p].throw(**QUICK)
            assert cups[p].wait_idle(5)
        for p, rig in rigs.items():
            assert rig.settle()
            assert rig.of(CupConnected)[0].cup_id == f"CUP-{p}"
            assert seen(rig.events) == truth(cups[p].made)
            assert [e.armed for e in rig.of(Thrown)] == [
                Armed(p, t) for t, q in enumerate("WBWB", 1) if q == p
            ]
    finally:
        for p in rigs:
            rigs[p].driver.stop()
            cups[p].stop()
