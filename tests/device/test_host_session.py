"""The host's session as a pure state machine: lines in, events and commands out."""

from __future__ import annotations

from nardy.device.dcp import Armed, message
from nardy.device.events import (
    CupConnected,
    CupRestarted,
    Thrown,
    ThrowResult,
    ThrowsMissed,
)
from nardy.device.session import HostSession

BOOT = "5F3A91C2"


class Cup:
    """Writes the cup's side of the conversation, one seq after another."""

    def __init__(self, session: HostSession) -> None:
        self.s = session
        self.seq = 0
        self.t = 0

    def line(self, type_: str, **fields):
        msg = message(type_, self.seq, **fields)
        self.seq += 1
        self.t += 10
        return self.s.receive(msg.encode()[:-1], self.t)

    def answer(self, step_or_cmds, type_: str, **fields):
        cmds = step_or_cmds if isinstance(step_or_cmds, list) else step_or_cmds.commands
        (cmd,) = [c for c in cmds if c.type == {"HELLO": "HELLO?", "STATE": "STATE?"}.get(type_)]
        return self.line(type_, ref=cmd.seq, **fields)

    def state(self, step, roll: int, pending: str, boot: str = BOOT):
        """The STATE answering the STATE? in ``step`` (which the host is taken to have sent)."""
        for c in step.commands:
            self.s.sent(c)
        return self.answer(
            step,
            "STATE",
            boot=boot,
            st="idle",
            roll=roll,
            last="-",
            armed="-",
            batt=80,
            pending=pending,
        )

    def roll(self, roll: int, d: str = "6,5", boot: str = BOOT):
        return self.line("ROLL", roll=roll, boot=boot, d=d, armed="W:1", ms=900)


def sent(session: HostSession, step_or_cmds) -> list:
    cmds = step_or_cmds if isinstance(step_or_cmds, list) else step_or_cmds.commands
    for c in cmds:
        session.sent(c)
    return cmds


def hello(cup: Cup, boot: str = BOOT, roll: int = 41, pending: str = "-", ack_replay=True):
    s = cup.s
    step = cup.answer(
        sent(s, s.open()),
        "HELLO",
        boot=boot,
        proto=1,
        min=1,
        fw="0.3.1",
        id="CUP-1",
        dice=2,
        caps="arm,replay",
    )
    state = cup.state(step, roll, pending, boot)
    sent(s, state)
    if ack_replay:
        cup.line("ACK", ref=state.commands[0].seq)
    return step, state


def throws(steps) -> list[int]:
    return [e.roll for st in steps for e in st.events if isinstance(e, ThrowResult)]


def test_handshake_asks_state_then_replays_from_the_first_unacknowledged():
    s = HostSession("tty")
    cup = Cup(s)
    step, state = hello(cup, pending="40,41")
    assert isinstance(step.events[0], CupConnected) and step.events[0].cup_id == "CUP-1"
    assert [c.type for c in step.commands] == ["STATE?"]
    (replay,) = state.commands
    assert replay.type == "REPLAY?" and replay["from"] == "40"


def test_a_throw_after_a_gap_waits_for_the_replay_and_comes_out_in_order():
    s = HostSession()
    cup = Cup(s)
    hello(cup)
    steps = [cup.roll(42)]
    cup.seq += 1  # the line with throw 43 is lost
    steps.append(cup.roll(44))
    assert throws(steps) == [42]
    assert [c.type for c in steps[-1].commands] == ["STATE?"]  # the gap: ask, never guess
    state = cup.state(steps[-1], 44, "43,44")
    (replay,) = sent(s, state)
    assert replay["from"] == "43"
    steps += [cup.roll(43), cup.roll(44), cup.line("ACK", ref=replay.seq)]
    assert throws(steps) == [42, 43, 44]
    acked = [c["roll"] for st in steps for c in st.commands if c.type == "ACKROLL"]
    assert acked.count("43") == 1 and "44" in acked


def test_a_damaged_line_is_never_guessed_at():
    s = HostSession()
    cup = Cup(s)
    hello(cup)
    line = bytearray(message("ROLL", cup.seq, roll=42, boot=BOOT, d="6,6", armed="-").encode())
    line[20] ^= 0x01
    step = s.receive(bytes(line[:-1]), 99)
    assert step.events == [] and not step.valid
    assert [c.type for c in step.commands] == ["STATE?"]


def test_duplicates_are_dropped_by_boot_and_roll_but_acknowledged_again():
    s = HostSession()
    cup = Cup(s)
    hello(cup)
    first, again = cup.roll(42), cup.roll(42)
    assert throws([first, again]) == [42]
    assert [c.type for c in again.commands] == ["ACKROLL"]


def test_the_same_line_twice_is_one_line():
    s = HostSession()
    cup = Cup(s)
    hello(cup)
    raw = message("ROLL", cup.seq, roll=42, boot=BOOT, d="6,6", armed="-").encode()[:-1]
    a, b = s.receive(raw, 1), s.receive(raw, 2)
    assert throws([a, b]) == [42] and b.commands == []


def test_a_replay_that_cannot_fill_the_gap_reports_the_missing_throws():
    s = HostSession()
    cup = Cup(s)
    hello(cup)
    cup.seq += 1
    step = cup.roll(50)
    state = cup.state(step, 50, "50")
    (replay,) = sent(s, state)
    steps = [cup.roll(50), cup.line("ACK", ref=replay.seq)]
    events = [e for st in steps for e in st.events]
    assert [type(e) for e in events] == [ThrowsMissed, Thrown]
    assert (events[0].first, events[0].last) == (42, 49)


def test_a_new_boot_in_a_heartbeat_is_a_restart_and_the_player_is_armed_again():
    s = HostSession()
    cup = Cup(s)
    sent(s, s.arm(Armed("B", 7)))
    hello(cup)
    cup.seq = 0
    step = cup.line("HB", boot="00C0FFEE", up=1, roll=41, st="idle")
    assert [type(e) for e in step.events] == [CupRestarted]
    assert [c.type for c in step.commands] == ["STATE?"]
    state = cup.state(step, 41, "-", boot="00C0FFEE")
    assert [c.type for c in state.commands] == ["REPLAY?", "ARM"]
    assert state.commands[1]["player"] == "B" and state.commands[1]["turn"] == "7"


def test_a_cup_that_needs_a_newer_protocol_is_refused():
    s = HostSession()
    cup = Cup(s)
    step = cup.answer(
        sent(s, s.open()), "HELLO", boot=BOOT, proto=2, min=2, fw="9", id="X", dice=2, caps="-"
    )
    assert step.refused and "update nardy" in step.refused
    assert not s.connected and step.events == []


def test_throws_acknowledged_to_an_earlier_host_are_not_delivered_again():
    s = HostSession()
    cup = Cup(s)
    _, state = hello(cup, roll=45, pending="43,45", ack_replay=False)
    (replay,) = state.commands
    steps = [cup.roll(43), cup.roll(44), cup.roll(45), cup.line("ACK", ref=replay.seq)]
    assert throws(steps) == [43, 45]
