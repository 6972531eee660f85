"""The device side of a serial link, for the emulator: a pty, an in-process pair, a TCP port.

Each transport is used from the emulator's thread only. ``port`` is what the host opens: a path
(pty), a ``socket://`` URL (TCP) or a callable returning a pyserial-like port (in-process).
``unplug``/``replug`` pull the cable: the host's port fails the way a real one does (pyserial
raises ``SerialException``); a pty with a ``link`` comes back at the same path, like a USB cup
coming back as the same ``/dev/ttyACM0``.
"""

from __future__ import annotations

import contextlib
import os
import select
import socket
import threading
import time
import tty
from collections.abc import Callable
from pathlib import Path

import serial


class Transport:
    port: str | Callable[[], object]
    plugged: bool = True

    def read(self, timeout: float) -> bytes:
        """What the host sent, or ``b""`` after ``timeout`` seconds (also when unplugged)."""
        raise NotImplementedError

    def write(self, data: bytes) -> None:
        """Send to the host; lost without a word if nobody listens (like a real cup)."""
        raise NotImplementedError

    def unplug(self) -> None:
        raise NotImplementedError

    def replug(self) -> None:
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError


class PtyTransport(Transport):
    """The master end of a pseudo-terminal; the host opens the slave (``port``).

    The emulator keeps a slave descriptor of its own open, so the host closing and reopening its
    end never hangs the master up; only ``unplug`` does.
    """

    def __init__(self, link: str | Path | None = None) -> None:
        self.link = Path(link) if link is not None else None
        self.path = ""
        self._open()

    def _open(self) -> None:
        master, slave = os.openpty()
        tty.setraw(slave)  # no echo, no line editing: bytes pass untouched
        os.set_blocking(master, False)
        self._master, self._slave = master, slave
        self.path = os.ttyname(slave)
        if self.link is not None:
            tmp = self.link.with_name(self.link.name + ".new")
            with contextlib.suppress(FileNotFoundError):
                tmp.unlink()
            os.symlink(self.path, tmp)
            os.replace(tmp, self.link)
        self.plugged = True

    @property
    def port(self) -> str:  # type: ignore[override]
        return str(self.link) if self.link is not None else self.path

    def read(self, timeout: float) -> bytes:
        if not self.plugged:
            time.sleep(timeout)
            return b""
        ready, _, _ = select.select([self._master], [], [], timeout)
        if not ready:
            return b""
        try:
            return os.read(self._master, 4096)
        except (BlockingIOError, InterruptedError):
            return b""
        except OSError:
            time.sleep(timeout)
            return b""

    def write(self, data: bytes) -> None:
        while self.plugged and data:
            try:
                n = os.write(self._master, data)
            except OSError:  # full (nobody reads) or gone: the bytes are lost
                return
            data = data[n:]

    def unplug(self) -> None:
        if self.plugged:
            self.plugged = False
            for fd in (self._master, self._slave):
                with contextlib.suppress(OSError):
                    os.close(fd)

    def replug(self) -> None:
        if not self.plugged:
            self._open()

    def close(self) -> None:
        self.unplug()
        if self.link is not None and self.link.is_symlink():
            with contextlib.suppress(OSError):
                self.link.unlink()


class _Wire:
    """One plugged-in cable of an in-process pair: two byte queues and a condition."""

    def __init__(self) -> None:
        self.cond = threading.Condition()
        self.to_host = bytearray()
        self.to_device = bytearray()
        self.alive = True
        self.host: HostEnd | None = None


class HostEnd:
    """The host's end of an in-process pair: the part of pyserial's ``Serial`` the driver uses."""

    def __init__(self, wire: _Wire) -> None:
        self._wire = wire
        self.timeout: float | None = None
        self.is_open = True

    def _check(self) -> None:
        if not self.is_open:
            raise serial.PortNotOpenError()
        if not self._wire.alive or self._wire.host is not self:
            raise serial.SerialException("device disconnected")

    @property
    def in_waiting(self) -> int:
        with self._wire.cond:
            self._check()
            return len(self._wire.to_host)

    def read(self, size: int = 1) -> bytes:
        wire = self._wire
        with wire.cond:
            self._check()
            if not wire.to_host:
                wire.cond.wait_for(
                    lambda: wire.to_host or not wire.alive or not self.is_open, self.timeout
                )
                self._check()
            data = bytes(wire.to_host[:size])
            del wire.to_host[:size]
            return data

    def write(self, data: bytes) -> int:
        with self._wire.cond:
            self._check()
            self._wire.to_device += data
            self._wire.cond.notify_all()
            return len(data)

    def reset_input_buffer(self) -> None:
        with self._wire.cond:
            self._wire.to_host.clear()

    def close(self) -> None:
        with self._wire.cond:
            self.is_open = False
            if self._wire.host is self:
                self._wire.host = None
            self._wire.cond.notify_all()


class PairTransport(Transport):
    """An in-process link: ``port`` is a callable that opens the host's end (like a path)."""

    def __init__(self) -> None:
        self._wire = _Wire()

    def port(self) -> HostEnd:  # type: ignore[override]
        wire = self._wire
        with wire.cond:
            if not wire.alive:
                raise serial.SerialException("no such device (unplugged)")
            if wire.host is not None:
                raise serial.SerialException("port busy")
            wire.host = HostEnd(wire)
            wire.to_host.clear()  # opening discards what the device sent before
            return wire.host

    def read(self, timeout: float) -> bytes:
        wire = self._wire
        with wire.cond:
            if not wire.to_device:
                wire.cond.wait_for(lambda: bool(wire.to_device), timeout)
            data = bytes(wire.to_device)
            wire.to_device.clear()
            return data

    def write(self, data: bytes) -> None:
        wire = self._wire
        with wire.cond:
            if wire.alive and wire.host is not None:
                wire.to_host += data
                wire.cond.notify_all()

    def unplug(self) -> None:
        with self._wire.cond:
            self._wire.alive = False
            self._wire.cond.notify_all()
        self.plugged = False

    def replug(self) -> None:
        if not self.plugged:
            self._wire = _Wire()
            self.plugged = True

    def close(self) -> None:
        self.unplug()


class TcpTransport(Transport):
    """A cup on a TCP port (pyserial's ``socket://``); one host at a time, the newest wins."""

    def __init__(self, host: str = "127.0.0.1", port: int = 0) -> None:
        self._server = socket.create_server((host, port))
        self.host, self.tcp_port = self._server.getsockname()[:2]
        self._client: socket.socket | None = None

    @property
    def port(self) -> str:  # type: ignore[override]
        return f"socket://{self.host}:{self.tcp_port}"

    def read(self, timeout: float) -> bytes:
        socks = [self._server] + ([self._client] if self._client is not None else [])
        ready, _, _ = select.select(socks, [], [], timeout)
        if self._server in ready:
            client, _ = self._server.accept()
            if not self.plugged:
                client.close()
            else:
                self._drop_client()
                self._client = client
        if self._client is not None and self._client in ready:
            try:
                data = self._client.recv(4096)
            except OSError:
                data = b""
            if not data:
                self._drop_client()
            return data
        return b""

    def write(self, data: bytes) -> None:
        if self._client is None:
            return
        try:
            self._client.settimeout(0.5)
            self._client.sendall(data)
        except OSError:
            self._drop_client()

    def _drop_client(self) -> None:
        if self._client is not None:
            with contextlib.suppress(OSError):
                self._client.close()
            self._client = None

    def unplug(self) -> None:
        self.plugged = False
        self._drop_client()

    def replug(self) -> None:
        self.plugged = True

    def close(self) -> None:
        self.unplug()
        with contextlib.suppress(OSError):
            self._server.close()
