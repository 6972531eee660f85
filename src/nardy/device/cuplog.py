"""``cup.log``: every raw line in and out with its time, one line each.

    ms<TAB>in|out<TAB>line

``ms`` counts from the session's start. ``line`` is the raw line without its ``\\n``; bytes
outside printable ASCII and the backslash are written ``\\xNN`` (``\\\\`` for a backslash), so
noise and damaged lines are kept exactly and the file stays one entry a line.
"""

from __future__ import annotations

import re
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Literal

Direction = Literal["in", "out"]


class CupLogError(ValueError):
    """A ``cup.log`` line that does not follow the format."""


@dataclass(frozen=True)
class LogEntry:
    ms: int
    direction: Direction
    raw: bytes


def escape(raw: bytes) -> str:
    return "".join(
        chr(b) if 0x20 <= b <= 0x7E and b != 0x5C else ("\\\\" if b == 0x5C else f"\\x{b:02x}")
        for b in raw
    )


_ESC = re.compile(r"\\(\\|x[0-9a-fA-F]{2})?")


def unescape(text: str) -> bytes:
    def sub(m: re.Match[str]) -> str:
        s = m.group(1)
        if s is None:
            raise CupLogError(f"bad escape in {text!r}")
        return "\\" if s == "\\" else chr(int(s[1:], 16))

    if not all(" " <= c <= "~" for c in text):
        raise CupLogError(f"a raw byte in {text!r}: bytes are written \\xNN")
    return _ESC.sub(sub, text).encode("latin-1")


class CupLog:
    """Appends entries to a ``cup.log``; thread-safe; flushed line by line (a crash keeps it).

    ``t0`` is the session's start on the ``time.monotonic`` clock; entries are ms since then.
    """

    def __init__(self, path: str | Path, t0: float | None = None) -> None:
        self.path = Path(path)
        self.t0 = time.monotonic() if t0 is None else t0
        self._lock = threading.Lock()
        self._file: IO[str] | None = self.path.open("a", encoding="ascii", newline="\n")

    def now_ms(self) -> int:
        return int((time.monotonic() - self.t0) * 1000)

    def write(self, direction: Direction, raw: bytes, ms: int | None = None) -> None:
        line = f"{self.now_ms() if ms is None else ms}\t{direction}\t{escape(raw)}\n"
        with self._lock:
            if self._file is not None:
                self._file.write(line)
                self._file.flush()

    def close(self) -> None:
        with self._lock:
            if self._file is not None:
                self._file.close()
                self._file = None

    def __enter__(self) -> CupLog:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def parse_entry(text: str) -> LogEntry:
    parts = text.rstrip("\n").split("\t")
    if len(parts) != 3 or not parts[0].isdigit() or parts[1] not in ("in", "out"):
        raise CupLogError(f"not a cup.log line: {text.rstrip()!r}")
    direction: Direction = "in" if parts[1] == "in" else "out"
    return LogEntry(int(parts[0]), direction, unescape(parts[2]))


def read_cup_log(path: str | Path) -> list[LogEntry]:
    """Every entry of a ``cup.log``, in file order. ``CupLogError`` names the first bad line."""
    entries = []
    with Path(path).open(encoding="ascii", errors="replace", newline="\n") as f:
        for number, text in enumerate(f, 1):
            if not text.strip():
                continue
            try:
                entries.append(parse_entry(text))
            except CupLogError as e:
                raise CupLogError(f"{path}:{number}: {e}") from None
    return entries
