"""The host's side of a DCP/1 session as a pure state machine: lines in, events and commands out.

No I/O, no clock, no threads. The driver feeds it the raw lines it reads and tells it which
commands it sent; ``LogReplay`` feeds it the same lines from a ``cup.log``. Because every decision
here depends only on those lines, a recorded session gives the same throws as the live one.

Throws come out exactly once and in the order of their roll ids: a throw that arrives after a
gap is held until a ``REPLAY?`` fills the gap or shows the cup no longer holds the missing ones
(``ThrowsMissed``). Duplicates are dropped by ``(boot, roll)``. Roll ids are taken to increase
across restarts (the cup keeps them, and the throws it holds, in non-volatile memory); a cup
whose counter went back is treated as new.
"""

from __future__ import annotations

import dataclasses
from collections import OrderedDict
from dataclasses import dataclass, field

from nardy.device.dcp import (
    MIN_PROTO,
    PROTO,
    SEQ_MOD,
    Armed,
    DcpError,
    DeviceLog,
    Malformed,
    Message,
    message,
    parse,
    parse_armed,
    parse_dice,
    parse_rolls,
)
from nardy.device.events import (
    Battery,
    CupConnected,
    CupError,
    CupEvent,
    CupLost,
    CupRestarted,
    DiceMoved,
    NoThrow,
    Thrown,
    ThrowResult,
    ThrowsMissed,
    ThrowStarted,
)

LINE_ERRORS = {"CRC", "PARSE", "LONG"}  # the cup got a damaged command: the retry resends it
_KEEP_DELIVERED = 4096  # far more than a cup keeps (16+), so a replayed throw is always known


class _Unset:
    pass


UNSET = _Unset()


@dataclass
class Step:
    """What one incoming line led to."""

    events: list[CupEvent] = field(default_factory=list)
    commands: list[Message] = field(default_factory=list)  # to send, in order
    answered: set[int] = field(default_factory=set)  # host seqs that got their final answer
    valid: bool = False  # a message that passed the CRC: the cup is alive
    refused: str | None = None  # an incompatible cup, said for a person


class HostSession:
    def __init__(self, port: str = "") -> None:
        self.port = port
        self.boot: str | None = None
        self.connected = False
        self.info: CupConnected | None = None
        self._seq = 0
        self._expect: int | None = None  # the cup's next seq; None: take the next line as is
        self._last_seq: int | None = None
        self._outstanding: dict[int, Message] = {}
        self._state_seq: int | None = None
        self._replay_seq: int | None = None
        self._replay_again = False
        self._want: Armed | _Unset | None = UNSET
        self._next_roll: int | None = None  # every roll below it is delivered or accounted for
        self._held: dict[int, ThrowResult] = {}
        self._skip: set[int] = set()  # acknowledged to an earlier host before we came
        self._skipped: OrderedDict[tuple[str, int], None] = OrderedDict()
        self._delivered: OrderedDict[tuple[str, int], None] = OrderedDict()
        self._started: OrderedDict[tuple[str, int], None] = OrderedDict()

    # --- what the driver calls -----------------------------------------------------------------

    def command(self, type_: str, **fields: object) -> Message:
        self._seq = (self._seq + 1) % SEQ_MOD
        return message(type_, self._seq, **fields)

    def open(self) -> list[Message]:
        """A new connection: the commands that start it."""
        return [self.command("HELLO?", proto=PROTO)]

    def sent(self, msg: Message) -> None:
        """``msg`` went out on the line (a retry sends the same seq again)."""
        if msg.seq in self._outstanding:
            return  # a retry: nothing new
        if msg.type == "HELLO?":
            self._expect = self._last_seq = None
            self._outstanding.clear()
            self._state_seq = self._replay_seq = None
            self._replay_again = False
        self._outstanding[msg.seq] = msg
        if msg.type == "STATE?":
            self._state_seq = msg.seq
        elif msg.type == "REPLAY?":
            self._replay_seq = msg.seq
            self._replay_again = False

    def lost(self, t_ms: int, why: str) -> list[CupEvent]:
        self._outstanding.clear()
        self._state_seq = self._replay_seq = None
        if not self.connected:
            return []
        self.connected = False
        return [CupLost(t_ms, why)]

    def arm(self, armed: Armed | None) -> list[Message]:
        self._want = armed
        return self._arm_commands() if self.connected else []

    def receive(self, raw: bytes, t_ms: int) -> Step:
        step = Step()
        if not raw.strip(b"\r"):
            return step
        try:
            parsed = parse(raw)
        except DcpError:
            self._doubt(step)
            return step
        if isinstance(parsed, DeviceLog):
            return step
        step.valid = True
        seq = parsed.seq
        if seq == self._last_seq:
            return step  # the same line twice
        gap = self._expect is not None and seq != self._expect
        self._expect, self._last_seq = (seq + 1) % SEQ_MOD, seq
        try:
            self._dispatch(parsed, t_ms, step)
        except Malformed:
            gap = True
        if gap:
            self._doubt(step)
        return step

    # --- dispatch ------------------------------------------------------------------------------

    def _dispatch(self, msg: Message, t: int, step: Step) -> None:
        kind = msg.type
        if kind == "HELLO":
            self._on_hello(msg, t, step)
        elif kind == "STATE":
            self._on_state(msg, t, step)
        elif kind in ("ACK", "NAK", "ERR"):
            self._on_answer(msg, t, step)
        elif kind == "ROLLSTART":
            if self.boot is None:
                return
            key = (self.boot, msg.int("roll"))
            if key not in self._started:
                _remember(self._started, key)
                step.events.append(
                    ThrowStarted(t, self.boot, key[1], parse_armed(msg.get("armed", "-") or "-"))
                )
        elif kind in ("ROLL", "NOROLL"):
            self._on_throw(self._throw_of(msg, t), step)
        elif kind == "MOVED":
            step.events.append(DiceMoved(t, parse_dice(msg["d"])))
        elif kind == "HB":
            boot = msg["boot"]
            if self.connected and self.boot is not None and boot != self.boot:
                self._restarted(boot, t, step)
                self._doubt(step)
        elif kind == "BATT":
            step.events.append(Battery(t, msg.int("pct", 0, 100), msg.get("chg") == "1"))
        # unknown types are ignored: a newer cup stays readable

    def _answers(self, msg: Message, step: Step, *types: str) -> Message | None:
        ref = msg.ref()
        cmd = self._outstanding.get(ref) if ref is not None else None
        if cmd is None or cmd.type not in types:
            return None  # an answer to a retry already answered, or to nothing of ours
        del self._outstanding[ref]  # type: ignore[arg-type]
        step.answered.add(cmd.seq)
        return cmd

    def _on_hello(self, msg: Message, t: int, step: Step) -> None:
        if self._answers(msg, step, "HELLO?") is None:
            return
        proto, least = msg.int("proto"), msg.int("min")
        if least > PROTO:
            step.refused = (
                f"the dice cup needs protocol DCP/{least} or newer and this program speaks "
                f"DCP/{PROTO}: update nardy"
            )
            return
        if not MIN_PROTO <= proto <= PROTO:
            step.refused = (
                f"the dice cup speaks DCP/{proto} and this program DCP/{MIN_PROTO}"
                f"..{PROTO}: the two cannot talk"
            )
            return
        boot = msg["boot"]
        if self.boot is not None and boot != self.boot:
            self._restarted(boot, t, step)
        self.boot = boot
        self.connected = True
        caps = msg.get("caps", "-") or "-"
        self.info = CupConnected(
            t,
            self.port,
            msg.get("id", "?") or "?",
            boot,
            msg.get("fw", "?") or "?",
            proto,
            msg.int("dice", 1, 2),
            () if caps == "-" else tuple(caps.split(",")),
        )
        step.events.append(self.info)
        step.commands.append(self.command("STATE?"))

    def _on_state(self, msg: Message, t: int, step: Step) -> None:
        if self._answers(msg, step, "STATE?") is None:
            return
        self._state_seq = None
        boot = msg["boot"]
        restarted = self.boot is not None and boot != self.boot
        if restarted:
            self._restarted(boot, t, step)
        self.boot = boot
        roll, pending = msg.int("roll"), parse_rolls(msg["pending"])
        if self._next_roll is not None and restarted and roll + 1 < self._next_roll:
            # the cup's counter went back: whatever we hold came before; start afresh
            for r in sorted(self._held):
                self._deliver(self._held.pop(r), t, step)
            self._next_roll = None
        if self._next_roll is None:
            self._next_roll = min(pending) if pending else roll + 1
            self._skip = set(range(self._next_roll, roll + 1)) - set(pending)
            self._advance(t, step)
        step.commands.append(self.command("REPLAY?", **{"from": self._next_roll}))
        if self._want is not UNSET and parse_armed(msg["armed"]) != self._want:
            step.commands.extend(self._arm_commands())

    def _on_answer(self, msg: Message, t: int, step: Step) -> None:
        code = msg.get("code", "") or ""
        if msg.type != "ACK" and code in LINE_ERRORS:
            return  # our command arrived damaged: the retry timer sends it again
        cmd = self._answers(msg, step, "HELLO?", "STATE?", "ARM", "DISARM", "ACKROLL", "REPLAY?")
        if msg.type != "ACK":
            what = cmd.type if cmd is not None else "the cup"
            text = msg.get("msg") or f"{what} refused"
            step.events.append(CupError(t, code or "?", text))
        if cmd is None:
            return
        if cmd.type == "STATE?":
            self._state_seq = None
        if cmd.type == "REPLAY?" and cmd.seq == self._replay_seq:
            self._replay_seq = None
            if self._replay_again:
                self._replay_again = False
                step.commands.append(self.command("REPLAY?", **{"from": self._next_roll}))
            else:
                self._resolve(t, step)

    def _throw_of(self, msg: Message, t: int) -> ThrowResult:
        boot, roll = msg["boot"], msg.int("roll")
        values = parse_dice(msg["d"])
        armed = parse_armed(msg.get("armed", "-") or "-")
        if msg.type == "ROLL":
            if None in values:
                raise Malformed("ROLL with an unreadable die")
            ms = msg.get("ms")
            return Thrown(t, boot, roll, values, armed, msg.int("ms") if ms else None)
        return NoThrow(t, boot, roll, values, armed, msg["why"])

    # --- throws in order, once -----------------------------------------------------------------

    def _on_throw(self, throw: ThrowResult, step: Step) -> None:
        key = (throw.boot, throw.roll)
        passed = ("", throw.roll)
        if key in self._delivered or throw.roll in self._skip or passed in self._skipped:
            step.commands.append(self.command("ACKROLL", roll=throw.roll))
            return
        if self._next_roll is None or throw.roll > self._next_roll:
            self._held.setdefault(throw.roll, throw)
            if self._next_roll is not None and self._replay_seq is None:
                self._doubt(step)  # during a replay this is the replay itself: its ACK settles it
            return
        self._deliver(throw, throw.t_ms, step)  # roll == next, or a late one: never lose it
        self._advance(throw.t_ms, step)

    def _deliver(self, throw: ThrowResult, t: int, step: Step) -> None:
        _remember(self._delivered, (throw.boot, throw.roll))
        step.events.append(dataclasses.replace(throw, t_ms=t))
        step.commands.append(self.command("ACKROLL", roll=throw.roll))
        if self._next_roll is not None:
            self._next_roll = max(self._next_roll, throw.roll + 1)

    def _advance(self, t: int, step: Step) -> None:
        assert self._next_roll is not None
        while True:
            if self._next_roll in self._held:
                self._deliver(self._held.pop(self._next_roll), t, step)
            elif self._next_roll in self._skip:
                self._skip.discard(self._next_roll)
                _remember(self._skipped, ("", self._next_roll))
                self._next_roll += 1
            else:
                break
        self._skip = {r for r in self._skip if r >= self._next_roll}
        for r in [r for r in self._held if r < self._next_roll]:
            del self._held[r]  # acknowledged to an earlier host: not ours to deliver

    def _resolve(self, t: int, step: Step) -> None:
        """A complete replay left gaps below held throws: the cup no longer has those."""
        while self._held and self._next_roll is not None:
            first = min(self._held)
            step.events.append(ThrowsMissed(t, self._next_roll, first - 1))
            self._next_roll = first
            self._advance(t, step)

    # --- doubt, restarts, arming ---------------------------------------------------------------

    def _doubt(self, step: Step) -> None:
        """Something may have been missed: ask, never guess."""
        if any(c.type in ("STATE?", "REPLAY?") for c in step.commands):
            return  # about to ask anyway, after this line
        if self._replay_seq is not None:
            self._replay_again = True
        elif self._state_seq is None and self.connected:
            step.commands.append(self.command("STATE?"))

    def _restarted(self, boot: str, t: int, step: Step) -> None:
        step.events.append(CupRestarted(t, self.boot or "?", boot))
        self.boot = boot

    def _arm_commands(self) -> list[Message]:
        if isinstance(self._want, Armed):
            return [self.command("ARM", player=self._want.player, turn=self._want.turn)]
        if self._want is None:
            return [self.command("DISARM")]
        return []


def _remember(seen: OrderedDict[tuple[str, int], None], key: tuple[str, int]) -> None:
    seen[key] = None
    if len(seen) > _KEEP_DELIVERED:
        seen.popitem(last=False)
