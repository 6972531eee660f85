"""The dice cup driver: one thread that keeps a DCP/1 session alive and hands out clean events.

    with CupDriver("/dev/ttyACM0", log="session/cup.log") as cup:
        cup.arm("W", 18)
        for event in cup.events():
            ...

The protocol decisions live in ``HostSession`` (pure); this module owns the port, the clock,
the timers (retries, heartbeat watch, backoff) and the ``cup.log``. Nothing here prints.
"""

from __future__ import annotations

import contextlib
import dataclasses
import queue
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import serial

from nardy.device.cuplog import CupLog
from nardy.device.dcp import Armed, LineSplitter, Message, message, parse
from nardy.device.events import CupEvent, CupLost
from nardy.device.session import HostSession

BAUD = 115200


class SerialLike(Protocol):
    """What the driver needs of a port: pyserial's ``Serial`` and the emulator's in-process end."""

    timeout: float | None

    @property
    def in_waiting(self) -> int: ...

    def read(self, size: int = 1) -> bytes: ...

    def write(self, data: bytes) -> int | None: ...

    def close(self) -> None: ...


PortSpec = str | Callable[[], SerialLike] | None


@dataclass(frozen=True)
class Timing:
    """The session's clocks, in seconds, as ``DICECUP.md`` sets them. ``scaled`` for fast tests."""

    hello_timeout: float = 1.0
    hello_tries: int = 3
    silence: float = 3.5  # no valid line for this long: the cup is lost
    retry: float = 0.5  # an unanswered command is sent again after this
    retries: int = 3
    backoff_min: float = 0.5
    backoff_max: float = 10.0
    poll: float = 0.1  # the longest a read blocks: how soon arm() and stop() take effect
    write_timeout: float = 1.0

    def scaled(self, k: float) -> Timing:
        return dataclasses.replace(
            self,
            hello_timeout=self.hello_timeout * k,
            silence=self.silence * k,
            retry=self.retry * k,
            backoff_min=self.backoff_min * k,
            backoff_max=self.backoff_max * k,
            poll=min(self.poll, self.poll * k * 2),
        )


class _Gone(Exception):
    """The session ended: the cup stopped answering or the port went away."""


class _Refused(_Gone):
    """The cup speaks a protocol version this program cannot."""


def open_port(spec: str, timeout: float, write_timeout: float = 1.0) -> SerialLike:
    """A port by path (``/dev/ttyACM0``, a pty) or pyserial URL (``socket://``, ``loop://``)."""
    return serial.serial_for_url(
        spec, baudrate=BAUD, timeout=timeout, write_timeout=write_timeout, exclusive=True
    )


def probe(spec: str, timeout: float = 1.0) -> Message | None:
    """Send ``HELLO?`` on a port; the cup's ``HELLO`` if one answers within ``timeout``."""
    try:
        port = open_port(spec, timeout=min(0.1, timeout))
    except (serial.SerialException, OSError, ValueError):
        return None
    try:
        hello = message("HELLO?", 1, proto=1)
        port.write(hello.encode())
        splitter, deadline = LineSplitter(), time.monotonic() + timeout
        while time.monotonic() < deadline:
            for raw in splitter.feed(port.read(max(1, port.in_waiting))):
                with contextlib.suppress(ValueError):
                    msg = parse(raw)
                    if isinstance(msg, Message) and msg.type == "HELLO" and msg.ref() == 1:
                        return msg
    except (serial.SerialException, OSError):
        return None
    finally:
        with contextlib.suppress(Exception):
            port.close()
    return None


def find_cups(timeout: float = 1.0) -> list[tuple[str, str]]:
    """``(port, cup id)`` of every cup that answers ``HELLO?`` among the serial ports."""
    from serial.tools import list_ports

    found = []
    for info in list_ports.comports():
        hello = probe(info.device, timeout)
        if hello is not None:
            found.append((info.device, hello.get("id") or "?"))
    return found


class CupDriver:
    """Talks to one dice cup on its own thread; events come out of ``get``/``events``.

    ``port`` is a path or pyserial URL, a callable returning an open port, or None to look for a
    cup among the serial ports on every connection attempt. ``log`` is the session's ``cup.log``
    (a path or an open ``CupLog``); ``t0`` the session's start on ``time.monotonic`` (events'
    ``t_ms`` count from it). ``on_event`` is called on the driver's thread for every event, after
    it is queued. A throw is acknowledged to the cup once it is queued.
    """

    def __init__(
        self,
        port: PortSpec = None,
        *,
        log: CupLog | str | Path | None = None,
        timing: Timing | None = None,
        t0: float | None = None,
        on_event: Callable[[CupEvent], Any] | None = None,
        armed: Armed | None = None,
    ) -> None:
        self.port = port
        self.timing = timing or Timing()
        self.t0 = (log.t0 if isinstance(log, CupLog) else time.monotonic()) if t0 is None else t0
        self._own_log = log is not None and not isinstance(log, CupLog)
        self._log = CupLog(log, self.t0) if isinstance(log, str | Path) else log
        self._on_event = on_event
        self._session = HostSession(port if isinstance(port, str) else "")
        if armed is not None:
            self._session.arm(armed)
        self._events: queue.Queue[CupEvent] = queue.Queue()
        self._requests: queue.Queue[Armed | None] = queue.Queue()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    # --- the public face -------------------------------------------------------------------------

    def start(self) -> CupDriver:
        with self._lock:
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="cup-driver", daemon=True)
                self._thread.start()
        return self

    def stop(self, timeout: float = 5.0) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)
        if self._own_log and self._log is not None:
            self._log.close()

    def __enter__(self) -> CupDriver:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def connected(self) -> bool:
        return self._session.connected

    def arm(self, player: str, turn: int) -> None:
        """The next throws belong to ``player``'s turn ``turn`` (kept across reconnects)."""
        self._requests.put(Armed(player, turn))

    def disarm(self) -> None:
        self._requests.put(None)

    def get(self, timeout: float | None = None) -> CupEvent | None:
        """The next event, or None after ``timeout`` seconds."""
        try:
            return self._events.get(timeout=timeout)
        except queue.Empty:
            return None

    def events(self, poll: float = 0.2) -> Iterator[CupEvent]:
        """Every event until the driver is stopped."""
        while not (self._stop.is_set() and self._events.empty()):
            event = self.get(poll)
            if event is not None:
                yield event

    def now_ms(self) -> int:
        return int((time.monotonic() - self.t0) * 1000)

    # --- the thread ------------------------------------------------------------------------------

    def _emit(self, events: list[CupEvent]) -> None:
        for event in events:
            self._events.put(event)
            if self._on_event is not None:
                self._on_event(event)

    def _run(self) -> None:
        backoff = self.timing.backoff_min
        while not self._stop.is_set():
            port = self._open()
            if port is not None:
                why, refused = "disconnected", False
                try:
                    self._serve(port)
                except _Gone as gone:
                    why, refused = str(gone), isinstance(gone, _Refused)
                except (serial.SerialException, OSError):
                    pass
                finally:
                    with contextlib.suppress(Exception):
                        port.close()
                if self._stop.is_set():
                    break  # stopped by the program: not a lost cup
                if self._session.connected:
                    backoff = self.timing.backoff_min
                lost = self._session.lost(self.now_ms(), why)
                if refused:  # said every time, at the slowest pace: a person must act
                    lost, backoff = [CupLost(self.now_ms(), why)], self.timing.backoff_max
                self._emit(lost)
            if self._stop.wait(backoff):
                break
            backoff = min(backoff * 2, self.timing.backoff_max)

    def _open(self) -> SerialLike | None:
        spec = self.port
        try:
            if callable(spec):
                port = spec()
                port.timeout = self.timing.poll
                return port
            if spec is None:
                found = find_cups(self.timing.hello_timeout)
                if not found:
                    return None
                spec = found[0][0]
                self._session.port = spec
            return open_port(spec, self.timing.poll, self.timing.write_timeout)
        except (serial.SerialException, OSError, ValueError):
            return None

    def _serve(self, port: SerialLike) -> None:
        timing = self.timing
        splitter = LineSplitter()
        waiting: dict[int, tuple[Message, float, int]] = {}  # seq → (command, due, sends left)

        def send(msgs: list[Message]) -> None:
            for msg in msgs:
                self._write(port, msg)
                if msg.type == "HELLO?":
                    waiting[msg.seq] = (msg, now + timing.hello_timeout, timing.hello_tries - 1)
                else:
                    waiting[msg.seq] = (msg, now + timing.retry, timing.retries)

        now = time.monotonic()
        last_valid = now
        send(self._session.open())
        while not self._stop.is_set():
            while True:
                try:
                    request = self._requests.get_nowait()
                except queue.Empty:
                    break
                send(self._session.arm(request))
            data = port.read(max(1, port.in_waiting))
            now = time.monotonic()
            for raw in splitter.feed(data):
                ms = self.now_ms()
                if self._log is not None:
                    self._log.write("in", raw, ms)
                step = self._session.receive(raw, ms)
                self._emit(step.events)  # queued first: then the throw is recorded and acked
                if step.refused:
                    raise _Refused(step.refused)
                for seq in step.answered:
                    waiting.pop(seq, None)
                if step.valid:
                    last_valid = now
                send(step.commands)
            for seq, (msg, due, left) in list(waiting.items()):
                if due > now:
                    continue
                if left <= 0:
                    raise _Gone("dice cup not answering")
                self._write(port, msg)
                timeout = timing.hello_timeout if msg.type == "HELLO?" else timing.retry
                waiting[seq] = (msg, now + timeout, left - 1)
            if self._session.connected and now - last_valid > timing.silence:
                raise _Gone("dice cup not answering")

    def _write(self, port: SerialLike, msg: Message) -> None:
        line = msg.encode()
        port.write(line)
        if self._log is not None:
            self._log.write("out", line[:-1])
        self._session.sent(msg)
