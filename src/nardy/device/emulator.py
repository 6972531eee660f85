"""An electronic dice cup that speaks DCP/1, for tests, ``nardy demo`` and trying the dashboard.

    with CupEmulator.on_pty(time_scale=0.1, seed=1) as cup:
        driver = CupDriver(cup.port, timing=Timing().scaled(0.1))
        cup.throw((6, 5))                  # scripted; or cup.throw() for fair random dice
        cup.throw((5, None), why="cocked")
        cup.reboot(); cup.unplug(for_s=2); cup.corrupt(3)   # faults on demand
        cup.wait_idle(5)
        cup.made                           # the truth: every throw the cup made

Durations in the API are the cup's own seconds; ``time_scale`` multiplies every one of them
(heartbeat, shaking, silences), so a test at 0.1 runs ten times faster. Every method is safe to
call from any thread: it is queued and carried out on the emulator's thread.

The cup keeps its roll counter and the throws it holds across a restart (as in flash memory),
so a throw made before a reboot is re-sent with its first ``boot`` and ``roll``. A throw under
way when the cup restarts is lost with the power, and the player throws again (it is retried).
"""

from __future__ import annotations

import queue
import random
import threading
import time
from collections import Counter, OrderedDict, deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from nardy.device.dcp import (
    MIN_PROTO,
    PROTO,
    SEQ_MOD,
    Armed,
    BadChecksum,
    DcpError,
    DeviceLog,
    LineSplitter,
    Message,
    NotAMessage,
    TooLong,
    format_armed,
    format_dice,
    format_rolls,
    message,
    parse,
)
from nardy.device.transports import PairTransport, PtyTransport, TcpTransport, Transport

WHY = ("cocked", "partial", "timeout", "sensor")
HEARTBEAT_S = 1.0


@dataclass(frozen=True)
class ScriptedThrow:
    """One throw to play. ``values`` None: fair random dice. ``why`` None: a valid throw."""

    values: tuple[int | None, ...] | None = None
    why: str | None = None
    shake_s: float = 1.2
    wait_s: float = 0.0  # the pause before the cup starts shaking


@dataclass(frozen=True)
class MadeThrow:
    """A throw the cup made (the truth the driver's events are checked against)."""

    boot: str
    roll: int
    values: tuple[int | None, ...]
    why: str | None  # None: valid
    armed: Armed | None


@dataclass(frozen=True)
class FaultRates:
    """Random faults, as the chance per line the cup sends (``corrupt_in``: per command read)."""

    corrupt: float = 0.0
    drop: float = 0.0
    duplicate: float = 0.0
    corrupt_in: float = 0.0
    noise: float = 0.0
    overlong: float = 0.0
    silence: float = 0.0
    reboot: float = 0.0
    unplug: float = 0.0
    silence_s: float = 5.0
    unplug_s: float = 1.0


@dataclass
class _Kept:
    throw: MadeThrow
    line: dict[str, object] = field(default_factory=dict)
    acked: bool = False
    sent_at: float = 0.0


class CupEmulator:
    def __init__(
        self,
        transport: Transport,
        *,
        cup_id: str = "CUP-7F21",
        dice: int = 2,
        fw: str = "0.3.1",
        proto: int = PROTO,
        min_proto: int = MIN_PROTO,
        time_scale: float = 1.0,
        seed: int | None = None,
        keep: int = 64,
        battery: int = 84,
        resend_s: float = 5.0,
        faults: FaultRates | None = None,
    ) -> None:
        if dice not in (1, 2):
            raise ValueError("a cup holds one or two dice")
        self.transport = transport
        self.cup_id, self.dice, self.fw = cup_id, dice, fw
        self.proto, self.min_proto = proto, min_proto
        self.scale = time_scale
        self.keep = max(16, keep)
        self.battery = battery
        self.resend_s = resend_s
        self.rates = faults or FaultRates()
        self.faults: Counter[str] = Counter()  # injected so far, by kind
        self.boots: list[str] = []  # every power-up's boot id, in order
        self._rng = random.Random(seed)
        self._actions: queue.Queue[Callable[[], None]] = queue.Queue()
        self._lock = threading.Lock()
        self._made: list[MadeThrow] = []
        self._script: deque[ScriptedThrow] = deque()
        self._phase: tuple[str, float, ScriptedThrow, int] | None = None
        self._auto: tuple[float, float] | None = None
        self._kept: OrderedDict[int, _Kept] = OrderedDict()
        self._last_roll = 0
        self._last_values: tuple[int | None, ...] | None = None
        self._armed: Armed | None = None
        self._pending_faults: Counter[str] = Counter()
        self._silent_until = 0.0
        self._replug_at: float | None = None
        self._idle = threading.Event()
        self._idle.set()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._splitter = LineSplitter()
        self._power_up()

    # --- construction helpers ------------------------------------------------------------------

    @classmethod
    def on_pty(cls, link: str | Path | None = None, **kw: object) -> CupEmulator:
        """On a pseudo-terminal; ``port`` is its path (or ``link``, kept across replugs)."""
        return cls(PtyTransport(link), **kw)  # type: ignore[arg-type]

    @classmethod
    def on_tcp(cls, host: str = "127.0.0.1", port: int = 0, **kw: object) -> CupEmulator:
        """On a TCP port; ``port`` is a ``socket://`` URL."""
        return cls(TcpTransport(host, port), **kw)  # type: ignore[arg-type]

    @classmethod
    def in_process(cls, **kw: object) -> CupEmulator:
        """On an in-process pair; ``port`` is a callable that opens the host's end."""
        return cls(PairTransport(), **kw)  # type: ignore[arg-type]

    @property
    def port(self) -> str | Callable[[], object]:
        return self.transport.port

    def start(self) -> CupEmulator:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="cup-emulator", daemon=True)
            self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(5)
        self.transport.close()

    def __enter__(self) -> CupEmulator:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # --- throws ------------------------------------------------------------------------------

    def throw(
        self,
        values: tuple[int | None, ...] | None = None,
        why: str | None = None,
        shake_s: float = 1.2,
        wait_s: float = 0.0,
    ) -> None:
        """Queue one throw (see ``ScriptedThrow``)."""
        self.play([ScriptedThrow(values, why, shake_s, wait_s)])

    def play(self, throws: Iterable[ScriptedThrow]) -> None:
        items = list(throws)
        for t in items:
            if t.why is not None and t.why not in WHY:
                raise ValueError(f"why={t.why}: not one of {', '.join(WHY)}")
            if t.values is not None and len(t.values) != self.dice:
                raise ValueError(f"{len(t.values)} values for a cup of {self.dice} dice")
            if t.values is not None and t.why is None and None in t.values:
                raise ValueError("a valid throw shows every die")
        with self._lock:
            self._idle.clear()
            self._script.extend(items)

    def auto(self, every_s: tuple[float, float] | None = (3.0, 8.0)) -> None:
        """Fair random throws for ever, a pause drawn from ``every_s`` before each (None: stop)."""
        with self._lock:
            self._auto = every_s

    def wait_idle(self, timeout: float | None = None) -> bool:
        """Wait until every queued throw is made; False on timeout."""
        return self._idle.wait(timeout)

    @property
    def made(self) -> list[MadeThrow]:
        with self._lock:
            return list(self._made)

    # --- faults on demand --------------------------------------------------------------------

    def corrupt(self, n: int = 1) -> None:
        """Damage one byte in each of the next ``n`` lines."""
        self._do(lambda: self._pending_faults.update(corrupt=n))

    def drop(self, n: int = 1) -> None:
        self._do(lambda: self._pending_faults.update(drop=n))

    def duplicate(self, n: int = 1) -> None:
        self._do(lambda: self._pending_faults.update(duplicate=n))

    def noise(self) -> None:
        """Bootloader chatter: random bytes and a newline."""
        self._do(self._noise)

    def overlong(self) -> None:
        self._do(self._overlong)

    def silence(self, seconds: float) -> None:
        """Hang: send nothing and answer nothing (throws are still made and kept)."""
        self._do(lambda: self._silence(seconds))

    def reboot(self, wipe: bool = False) -> None:
        """Restart with a new ``boot``; ``wipe`` also forgets the throws and the roll counter."""
        self._do(lambda: self._reboot(wipe))

    def unplug(self, for_s: float | None = None) -> None:
        """Pull the cable; put it back after ``for_s`` seconds (None: wait for ``replug``)."""
        self._do(lambda: self._unplug(for_s))

    def replug(self) -> None:
        self._do(self._replug)

    def low_battery(self, pct: int = 8) -> None:
        self._do(lambda: self._battery(pct))

    def move(self, values: tuple[int | None, ...]) -> None:
        """Someone turned a die by hand."""
        self._do(lambda: self._send("MOVED", d=format_dice(values)))

    def set_faults(self, rates: FaultRates) -> None:
        self._do(lambda: setattr(self, "rates", rates))

    def _do(self, action: Callable[[], None]) -> None:
        self._actions.put(action)

    # --- the cup's life ----------------------------------------------------------------------

    def _power_up(self) -> None:
        self.boot = f"{self._rng.getrandbits(32):08X}"
        self.boots.append(self.boot)
        self._seq = 0
        self._booted_at = time.monotonic()
        self._last_sent = 0.0  # a heartbeat at once says the cup is there
        self._armed = None

    def _run(self) -> None:
        while not self._stop.is_set():
            while True:
                try:
                    action = self._actions.get_nowait()
                except queue.Empty:
                    break
                action()
            now = time.monotonic()
            self._tick(now)
            data = self.transport.read(min(0.05, max(0.002, self.scale * 0.05)))
            if data:
                for raw in self._splitter.feed(data):
                    if time.monotonic() >= self._silent_until:
                        self._on_line(raw)

    def _tick(self, now: float) -> None:
        if self._replug_at is not None and now >= self._replug_at:
            self._replug()
        self._throw_tick(now)
        if now < self._silent_until:
            return
        for kept in list(self._kept.values()):
            if not kept.acked and now - kept.sent_at > self.resend_s * self.scale:
                self._send_throw(kept)
        if now - self._last_sent >= HEARTBEAT_S * self.scale:
            st = "idle" if self._phase is None or self._phase[0] == "wait" else "shaking"
            up = int((now - self._booted_at) / self.scale)
            self._send("HB", boot=self.boot, up=up, roll=self._last_roll, st=st)

    def _throw_tick(self, now: float) -> None:
        with self._lock:
            if self._phase is None:
                if not self._script and self._auto is not None:
                    lo, hi = self._auto
                    self._script.append(ScriptedThrow(wait_s=self._rng.uniform(lo, hi)))
                if not self._script:
                    self._idle.set()
                    return
                t = self._script.popleft()
                self._phase = ("wait", now + t.wait_s * self.scale, t, 0)
            stage, until, t, roll = self._phase
        if now < until:
            return
        if stage == "wait":
            roll = self._last_roll + 1
            self._phase = ("shake", now + t.shake_s * self.scale, t, roll)
            self._send("ROLLSTART", roll=roll, armed=format_armed(self._armed))
            return
        self._phase = None
        values = t.values if t.values is not None else self._fair(t.why)
        made = MadeThrow(self.boot, roll, values, t.why, self._armed)
        fields: dict[str, object] = {"roll": roll, "boot": self.boot}
        if t.why is None:
            fields.update(d=format_dice(values), armed=format_armed(self._armed))
            fields["ms"] = int(t.shake_s * 1000)
        else:
            fields.update(why=t.why, d=format_dice(values), armed=format_armed(self._armed))
        kept = _Kept(made, fields)
        with self._lock:
            self._made.append(made)
            self._last_roll, self._last_values = roll, values
            self._kept[roll] = kept
            while len(self._kept) > self.keep:
                self._kept.popitem(last=False)
        self._send_throw(kept)

    def _fair(self, why: str | None) -> tuple[int | None, ...]:
        values: list[int | None] = [self._rng.randint(1, 6) for _ in range(self.dice)]
        if why in ("cocked", "partial"):
            values[self._rng.randrange(self.dice)] = None
        elif why is not None:
            values = [None] * self.dice
        return tuple(values)

    def _send_throw(self, kept: _Kept) -> None:
        kept.sent_at = time.monotonic()
        self._send("ROLL" if kept.throw.why is None else "NOROLL", **kept.line)

    # --- lines out, with their faults ----------------------------------------------------------

    def _send(self, type_: str, **fields: object) -> None:
        now = time.monotonic()
        if now < self._silent_until:
            return
        line = message(type_, self._seq, **fields).encode()
        self._seq = (self._seq + 1) % SEQ_MOD
        self._last_sent = now
        r = self.rates
        roll = self._rng.random()
        if self._pending_faults["drop"] or roll < r.drop:
            self._take("drop")
            return
        if self._pending_faults["corrupt"] or roll < r.drop + r.corrupt:
            self._take("corrupt")
            i = self._rng.randrange(len(line) - 1)
            line = line[:i] + bytes([line[i] ^ self._rng.randrange(1, 256)]) + line[i + 1 :]
        self.transport.write(line)
        if self._pending_faults["duplicate"] or roll > 1 - r.duplicate:
            self._take("duplicate")
            self.transport.write(line)
        for kind, action in (
            ("noise", self._noise),
            ("overlong", self._overlong),
            ("silence", lambda: self._silence(r.silence_s)),
            ("reboot", lambda: self._reboot(False)),
            ("unplug", lambda: self._unplug(r.unplug_s)),
        ):
            if self._rng.random() < getattr(r, kind):
                self._actions.put(action)  # after this line, not inside it

    def _take(self, kind: str) -> None:
        self.faults[kind] += 1
        if self._pending_faults[kind]:
            self._pending_faults[kind] -= 1

    def _noise(self) -> None:
        self.faults["noise"] += 1
        junk = bytes(b for b in self._rng.randbytes(self._rng.randint(8, 60)) if b not in b"$\n")
        self.transport.write(junk + b"\r\n")

    def _overlong(self) -> None:
        self.faults["overlong"] += 1
        text = "".join(self._rng.choice("abcdefgh") for _ in range(self._rng.randint(140, 300)))
        self.transport.write(f"$LOG seq=0 text={text}*0000\n".encode())

    def _silence(self, seconds: float) -> None:
        self.faults["silence"] += 1
        self._silent_until = time.monotonic() + seconds * self.scale

    def _reboot(self, wipe: bool) -> None:
        self.faults["reboot"] += 1
        with self._lock:
            if self._phase is not None:
                self._script.appendleft(self._phase[2])  # lost with the power: thrown again
            self._phase = None
            if wipe:
                self._kept.clear()
                self._last_roll, self._last_values = 0, None
        self._silent_until = 0.0
        self._power_up()
        self._noise()
        self.transport.write(f"# DCP cup {self.cup_id} fw {self.fw} boot {self.boot}\r\n".encode())
        self._battery(self.battery, count=False)

    def _unplug(self, for_s: float | None) -> None:
        if not self.transport.plugged:
            return
        self.faults["unplug"] += 1
        self.transport.unplug()
        self._splitter.reset()
        self._replug_at = None if for_s is None else time.monotonic() + for_s * self.scale

    def _replug(self) -> None:
        self._replug_at = None
        self.transport.replug()

    def _battery(self, pct: int, count: bool = True) -> None:
        if count:
            self.faults["low_battery"] += 1
        self.battery = pct
        self._send("BATT", pct=pct, chg=0)

    # --- commands in ---------------------------------------------------------------------------

    def _on_line(self, raw: bytes) -> None:
        if self.rates.corrupt_in and self._rng.random() < self.rates.corrupt_in:
            self.faults["corrupt_in"] += 1
            self._send("ERR", code="CRC", ref="-", msg="crc")
            return
        try:
            msg = parse(raw)
        except NotAMessage:
            return
        except BadChecksum:
            self._send("ERR", code="CRC", ref="-", msg="crc")
            return
        except TooLong:
            self._send("ERR", code="LONG", ref="-", msg="too-long")
            return
        except DcpError:
            self._send("ERR", code="PARSE", ref="-", msg="parse")
            return
        if isinstance(msg, DeviceLog):
            return
        self._command(msg)

    def _command(self, msg: Message) -> None:
        ref = msg.seq
        kind = msg.type
        try:
            if kind == "HELLO?":
                asked = msg.int("proto", 1, 999) if msg.get("proto") else 1
                self._send(
                    "HELLO",
                    ref=ref,
                    boot=self.boot,
                    proto=min(asked, self.proto),
                    min=self.min_proto,
                    fw=self.fw,
                    id=self.cup_id,
                    dice=self.dice,
                    caps="arm,replay,batt",
                )
            elif kind == "STATE?":
                with self._lock:
                    pending = [r for r, k in self._kept.items() if not k.acked]
                    st = "idle" if self._phase is None or self._phase[0] == "wait" else "shaking"
                    last = self._last_values
                self._send(
                    "STATE",
                    ref=ref,
                    boot=self.boot,
                    st=st,
                    roll=self._last_roll,
                    last="-" if last is None else format_dice(last),
                    armed=format_armed(self._armed),
                    batt=self.battery,
                    pending=format_rolls(pending),
                )
            elif kind == "ARM":
                player = msg["player"]
                self._armed = Armed(player, msg.int("turn", 0, 9999))
                self._send("ACK", ref=ref)
            elif kind == "DISARM":
                self._armed = None
                self._send("ACK", ref=ref)
            elif kind == "ACKROLL":
                roll = msg.int("roll")
                with self._lock:
                    if roll in self._kept:
                        self._kept[roll].acked = True
                self._send("ACK", ref=ref)
            elif kind == "REPLAY?":
                first = msg.int("from")
                with self._lock:
                    kept = [k for r, k in self._kept.items() if r >= first]
                for k in kept:
                    self._send_throw(k)
                self._send("ACK", ref=ref)
            elif kind == "PING":
                self._send("ACK", ref=ref)
            else:
                self._send("ERR", code="UNKNOWN", ref=ref, msg="unknown")
        except DcpError:
            self._send("NAK", ref=ref, code="RANGE")
