import pytest
from hypothesis import given
from hypothesis import strategies as st

from nardy.device.cuplog import CupLog, CupLogError, LogEntry, escape, read_cup_log, unescape


@given(st.binary(max_size=200))
def test_escape_keeps_every_byte_and_one_line(raw):
    text = escape(raw)
    assert "\n" not in text and "\t" not in text and "\r" not in text
    assert unescape(text) == raw


def test_log_is_written_and_read_back(tmp_path):
    path = tmp_path / "cup.log"
    with CupLog(path) as log:
        log.write("out", b"$PING seq=1*ABCD", ms=5)
        log.write("in", b"\x00noise\\", ms=7)
    assert path.read_text() == "5\tout\t$PING seq=1*ABCD\n7\tin\t\\x00noise\\\\\n"
    assert read_cup_log(path) == [
        LogEntry(5, "out", b"$PING seq=1*ABCD"),
        LogEntry(7, "in", b"\x00noise\\"),
    ]


@pytest.mark.parametrize(
    "bad", ["5\tsideways\tx\n", "x\tin\ty\n", "5\tin\n", "5\tin\ta\\q\n", "5\tin\t\u00e9\n"]
)
def test_a_bad_log_line_is_named(tmp_path, bad):
    path = tmp_path / "cup.log"
    path.write_text("1\tin\tok\n" + bad)
    with pytest.raises(CupLogError, match=":2:"):
        read_cup_log(path)
