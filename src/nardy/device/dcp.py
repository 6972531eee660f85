"""DCP/1 framing: one line a message, ``$TYPE key=value ...*CRC\\n`` (``DICECUP.md``).

Pure functions and values, no I/O. Both ends use it: the host driver to read the cup and write
commands, the emulator to read commands and write what the cup reports.
"""

from __future__ import annotations

import binascii
import re
from dataclasses import dataclass

MAX_LINE = 128  # bytes of one message, from ``$`` to the last CRC digit, plus its ``\n``
SEQ_MOD = 65536
PROTO = 1  # the highest version this code speaks
MIN_PROTO = 1  # the lowest version this code speaks

_TYPE = re.compile(rb"[A-Z]+\??")
_KEY = re.compile(rb"[a-z]+")
_HEX4 = re.compile(rb"[0-9A-F]{4}")


class DcpError(ValueError):
    """A line that is not a valid DCP/1 message. The only error the parser raises."""


class NotAMessage(DcpError):
    """No ``$`` in the line: noise, a bootloader's chatter, or a message whose ``$`` was hit."""


class TooLong(DcpError):
    """A message longer than ``MAX_LINE`` bytes."""


class BadChecksum(DcpError):
    """The CRC does not match the body: the line was damaged on the way."""


class Malformed(DcpError):
    """Framing or fields that break the grammar (non-printable byte, no CRC, bad field)."""


def crc(body: bytes) -> str:
    """CRC-16/CCITT-FALSE of ``body`` as four upper-case hex digits (``123456789`` → ``29B1``)."""
    return f"{binascii.crc_hqx(body, 0xFFFF):04X}"


@dataclass(frozen=True)
class Message:
    """One parsed DCP/1 message. ``fields`` keeps the line's order; ``seq`` is always present."""

    type: str
    fields: tuple[tuple[str, str], ...]

    def get(self, key: str, default: str | None = None) -> str | None:
        for k, v in self.fields:
            if k == key:
                return v
        return default

    def __getitem__(self, key: str) -> str:
        value = self.get(key)
        if value is None:
            raise Malformed(f"{self.type} has no {key}")
        return value

    def int(self, key: str, lo: int = 0, hi: int = 2**31) -> int:
        """The field as an integer in ``[lo, hi]``; ``Malformed`` otherwise."""
        raw = self[key]
        if not raw.isdigit() or len(raw) > 10:
            raise Malformed(f"{self.type} {key}={raw} is not a number")
        value = int(raw)
        if not lo <= value <= hi:
            raise Malformed(f"{self.type} {key}={raw} is out of range")
        return value

    @property
    def seq(self) -> int:
        return self.int("seq", 0, SEQ_MOD - 1)

    def ref(self) -> int | None:
        """The ``seq`` this line answers, or None (absent or ``-``)."""
        raw = self.get("ref")
        if raw is None or raw == "-":
            return None
        return self.int("ref", 0, SEQ_MOD - 1)

    def with_seq(self, seq: int) -> Message:
        rest = tuple((k, v) for k, v in self.fields if k != "seq")
        return Message(self.type, (("seq", str(seq % SEQ_MOD)), *rest))

    def encode(self) -> bytes:
        """The whole line, ``\\n`` included."""
        body = " ".join([self.type, *(f"{k}={v}" for k, v in self.fields)]).encode("ascii")
        return b"$" + body + b"*" + crc(body).encode("ascii") + b"\n"

    def __str__(self) -> str:
        return self.encode().decode("ascii").rstrip("\n")


def message(type_: str, seq: int, **fields: object) -> Message:
    """Build a message; ``seq`` comes first, then ``fields`` in order (values via ``str``)."""
    pairs = [("seq", str(seq % SEQ_MOD))]
    for key, value in fields.items():
        text = str(value)
        if not text or " " in text or "*" in text or "$" in text or not text.isascii():
            raise Malformed(f"{key}={text!r} cannot be sent")
        pairs.append((key, text))
    return Message(type_, tuple(pairs))


@dataclass(frozen=True)
class DeviceLog:
    """A ``#`` line: the device talking to a person, never a message."""

    text: str


def parse(raw: bytes) -> Message | DeviceLog:
    """Parse one raw line (without its ``\\n``). Raises only ``DcpError`` subclasses.

    Bytes before the last ``$`` are ignored: noise ahead of a message never hides it.
    """
    if raw.endswith(b"\r"):
        raw = raw[:-1]
    if raw.startswith(b"#"):
        return DeviceLog(raw[1:].decode("ascii", "backslashreplace").strip())
    start = raw.rfind(b"$")
    if start < 0:
        raise NotAMessage("no '$' in the line")
    line = raw[start:]
    if len(line) + 1 > MAX_LINE:
        raise TooLong(f"{len(line) + 1} bytes, more than {MAX_LINE}")
    if any(b < 0x20 or b > 0x7E for b in line):
        raise Malformed("non-printable byte")
    star = line.rfind(b"*")
    if star < 0 or not _HEX4.fullmatch(line[star + 1 :]):
        raise Malformed("no '*CRC' at the end")
    body = line[1:star]
    if crc(body) != line[star + 1 :].decode("ascii"):
        raise BadChecksum("CRC mismatch")
    tokens = body.split(b" ")
    if not _TYPE.fullmatch(tokens[0]):
        raise Malformed("bad message type")
    fields: list[tuple[str, str]] = []
    seen: set[bytes] = set()
    for token in tokens[1:]:
        key, eq, value = token.partition(b"=")
        if not eq or not _KEY.fullmatch(key) or not value or b"$" in value or b"*" in value:
            raise Malformed("bad field")
        if key in seen:
            raise Malformed("repeated field")
        seen.add(key)
        fields.append((key.decode("ascii"), value.decode("ascii")))
    msg = Message(tokens[0].decode("ascii"), tuple(fields))
    msg.seq  # noqa: B018 - every message carries a valid seq; raises Malformed if not
    return msg


class LineSplitter:
    """Cuts a byte stream into raw lines for ``parse``.

    Complete lines come out without their ``\\n``. A run of more than ``MAX_LINE`` bytes without
    a newline comes out as a fragment (which ``parse`` rejects) and the rest is cut off up to the
    next ``$``, so one runaway line never swallows the message after it. Nothing is dropped
    silently: every byte leaves in some piece, so the log and the session see the same pieces.
    """

    def __init__(self) -> None:
        self._buf = b""
        self._skipping = False

    def feed(self, data: bytes) -> list[bytes]:
        self._buf += data
        out: list[bytes] = []
        while True:
            if self._skipping:
                cut = [i for i in (self._buf.find(b"\n"), self._buf.find(b"$")) if i >= 0]
                if not cut:
                    break
                i = min(cut)
                if i:
                    out.append(self._buf[:i])
                self._buf = self._buf[i + 1 :] if self._buf[i : i + 1] == b"\n" else self._buf[i:]
                self._skipping = False
                continue
            nl = self._buf.find(b"\n")
            if nl >= 0:
                out.append(self._buf[:nl])
                self._buf = self._buf[nl + 1 :]
                continue
            if len(self._buf) < MAX_LINE:
                break
            dollar = self._buf.rfind(b"$")
            if dollar > 0 and len(self._buf) - dollar < MAX_LINE:
                out.append(self._buf[:dollar])  # noise ahead of a message that may be fine
                self._buf = self._buf[dollar:]
                break
            out.append(self._buf)
            self._buf = b""
            self._skipping = True
        return out

    def reset(self) -> None:
        self._buf = b""
        self._skipping = False


# --- field values shared by both ends ---------------------------------------------------------


@dataclass(frozen=True)
class Armed:
    """Whose throw it is, as the host set it with ``ARM``: a player and a turn number."""

    player: str
    turn: int

    def __str__(self) -> str:
        return f"{self.player}:{self.turn}"


def parse_armed(raw: str) -> Armed | None:
    if raw == "-":
        return None
    player, colon, turn = raw.partition(":")
    if not colon or not player or not turn.isdigit() or len(turn) > 9:
        raise Malformed(f"armed={raw}")
    return Armed(player, int(turn))


def format_armed(armed: Armed | None) -> str:
    return "-" if armed is None else str(armed)


def parse_dice(raw: str) -> tuple[int | None, ...]:
    """``5,3`` → (5, 3); an unreadable die ``?`` → None."""
    values: list[int | None] = []
    for part in raw.split(","):
        if part == "?":
            values.append(None)
        elif len(part) == 1 and "1" <= part <= "6":
            values.append(int(part))
        else:
            raise Malformed(f"d={raw}")
    if not 1 <= len(values) <= 2:
        raise Malformed(f"d={raw}")
    return tuple(values)


def format_dice(values: tuple[int | None, ...]) -> str:
    return ",".join("?" if v is None else str(v) for v in values)


def parse_rolls(raw: str) -> tuple[int, ...]:
    """``pending=41,43-45`` → (41, 43, 44, 45); ``-`` → (). Ranges keep the line short."""
    if raw == "-":
        return ()
    rolls: list[int] = []
    for part in raw.split(","):
        lo, dash, hi = part.partition("-")
        if not (lo.isdigit() and len(lo) <= 10 and (not dash or (hi.isdigit() and len(hi) <= 10))):
            raise Malformed(f"pending={raw}")
        first, last = int(lo), int(hi) if dash else int(lo)
        if last < first or last - first > 4096:
            raise Malformed(f"pending={raw}")
        rolls.extend(range(first, last + 1))
    return tuple(rolls)


def format_rolls(rolls: list[int], room: int = 40) -> str:
    """Roll ids as ``parse_rolls`` reads them, in at most ``room`` characters: when they do not
    fit, the first ones are kept (the host replays from the lowest, so that one must stay)."""
    if not rolls:
        return "-"
    runs: list[list[int]] = []
    for r in sorted(rolls):
        if runs and r == runs[-1][1] + 1:
            runs[-1][1] = r
        else:
            runs.append([r, r])
    out = ""
    for lo, hi in runs:
        part = str(lo) if lo == hi else f"{lo}-{hi}"
        if out and len(out) + 1 + len(part) > room:
            break
        out = f"{out},{part}" if out else part
    return out
