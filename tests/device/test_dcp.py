import binascii
import contextlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from nardy.device.dcp import (
    MAX_LINE,
    Armed,
    BadChecksum,
    DcpError,
    DeviceLog,
    LineSplitter,
    Malformed,
    Message,
    NotAMessage,
    TooLong,
    crc,
    format_rolls,
    message,
    parse,
    parse_armed,
    parse_dice,
    parse_rolls,
)


def test_crc_is_ccitt_false_with_its_check_value():
    assert crc(b"123456789") == "29B1"


def test_the_example_line_of_the_spec_parses():
    body = b"ROLL seq=4 roll=42 boot=5F3A91C2 d=5,5 armed=W:18 ms=1830"
    line = b"$" + body + b"*" + crc(body).encode()
    msg = parse(line)
    assert isinstance(msg, Message)
    assert msg.type == "ROLL" and msg.seq == 4 and msg["d"] == "5,5"
    assert parse_armed(msg["armed"]) == Armed("W", 18)
    assert msg.int("ms") == 1830


def test_encode_then_parse_gives_the_message_back():
    msg = message("REPLAY?", 7, **{"from": 42})
    assert msg.encode().endswith(b"\n")
    assert parse(msg.encode()[:-1]) == msg


def test_noise_before_the_dollar_and_a_carriage_return_are_tolerated():
    line = message("HB", 3, boot="AB", up=1, roll=0, st="idle").encode()[:-1]
    assert parse(b"\x00\xffgarbage" + line + b"\r").type == "HB"


def test_a_hash_line_is_a_device_log_not_a_message():
    assert parse(b"# booting fw 0.3.1") == DeviceLog("booting fw 0.3.1")


@pytest.mark.parametrize(
    ("raw", "error"),
    [
        (b"", NotAMessage),
        (b"just noise", NotAMessage),
        (b"$HB seq=1", Malformed),  # no CRC
        (b"$HB seq=1*12", Malformed),
        (b"$HB seq=1*zzzz", Malformed),
        (b"$HB seq=1*0000", BadChecksum),
    ],
)
def test_bad_lines_raise_their_own_error(raw, error):
    with pytest.raises(error):
        parse(raw)


def _framed(body: bytes) -> bytes:
    return b"$" + body + b"*" + crc(body).encode()


@pytest.mark.parametrize(
    "body",
    [
        b"HB",  # no seq
        b"HB seq=70000",
        b"HB seq=x",
        b"HB seq=1 seq=2",
        b"hb seq=1",
        b"HB seq=1 =3",
        b"HB seq=1 k=",
        b"HB  seq=1",
        b"HB seq=1 k=\x01",
    ],
)
def test_good_crc_does_not_excuse_bad_fields(body):
    with pytest.raises(Malformed):
        parse(_framed(body))


def test_length_limit_is_128_bytes_with_the_newline():
    def line_of(total: int) -> bytes:
        pad = total - len(_framed(b"LOG seq=1 t=")) - 1
        return _framed(b"LOG seq=1 t=" + b"x" * pad)

    assert len(line_of(MAX_LINE)) + 1 == MAX_LINE
    assert parse(line_of(MAX_LINE)).type == "LOG"
    with pytest.raises(TooLong):
        parse(line_of(MAX_LINE + 1))


def test_field_values():
    assert parse_dice("5,?") == (5, None)
    assert parse_dice("6") == (6,)
    assert parse_rolls("-") == () and parse_rolls("41,43-45") == (41, 43, 44, 45)
    assert format_rolls([45, 41, 43, 44]) == "41,43-45"
    assert format_rolls(list(range(0, 200, 2)), room=12) == "0,2,4,6,8,10"
    for bad in ("4-2", "x", "1,,2", "3-"):
        with pytest.raises(Malformed):
            parse_rolls(bad)
    assert parse_armed("-") is None
    for bad in ("7,1", "0", "1,2,3", "", "5,"):
        with pytest.raises(Malformed):
            parse_dice(bad)
    with pytest.raises(Malformed):
        parse_armed("W18")


def test_splitter_cuts_lines_and_drops_a_runaway_line_up_to_the_next_dollar():
    good = message("HB", 1, boot="AB", up=1, roll=0, st="idle").encode()
    s = LineSplitter()
    pieces = s.feed(b"$LOG seq=0 t=" + b"y" * 300) + s.feed(b"tail" + good)
    assert pieces[-1] == good[:-1]
    assert b"".join(pieces[:-1]) == b"$LOG seq=0 t=" + b"y" * 300 + b"tail"
    with pytest.raises(DcpError):
        parse(pieces[0])


# --- properties --------------------------------------------------------------------------------

tokens = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789,:?-.", min_size=1, max_size=8)
messages = st.builds(
    lambda t, seq, kv: message(t, seq, **kv),
    st.sampled_from(["ROLL", "NOROLL", "HB", "STATE?", "ACK", "HELLO"]),
    st.integers(0, 65535),
    st.dictionaries(st.text(alphabet="abcdefghij", min_size=1, max_size=5), tokens, max_size=5).map(
        lambda d: {k: v for k, v in d.items() if k != "seq"}
    ),
)


@given(st.binary(max_size=300))
def test_random_bytes_never_raise_anything_but_a_dcp_error(raw):
    with contextlib.suppress(DcpError):
        parse(raw)


@given(messages)
def test_every_message_survives_encode_and_parse(msg):
    assert parse(msg.encode()[:-1]) == msg


@given(messages, st.data())
def test_a_single_damaged_byte_is_never_accepted(msg, data):
    line = bytearray(msg.encode()[:-1])
    i = data.draw(st.integers(0, len(line) - 1))
    line[i] = data.draw(st.integers(0, 255).filter(lambda b: b != line[i]))
    try:
        got = parse(bytes(line))
    except DcpError:
        return
    # A "$" damaged into "#" makes a device log line, which is never taken for a message.
    assert isinstance(got, DeviceLog) and line[0] == ord("#"), got


def test_a_start_damaged_into_a_log_mark_is_read_as_a_log_line():
    line = bytearray(message("PING", 3).encode()[:-1])
    line[0] = ord("#")
    assert isinstance(parse(bytes(line)), DeviceLog)


@given(messages, st.lists(st.tuples(st.integers(0, 200), st.integers(0, 255)), max_size=6))
def test_a_line_accepted_after_mutations_carries_its_own_crc(msg, edits):
    line = bytearray(msg.encode()[:-1])
    for i, b in edits:
        if i < len(line):
            line[i] = b
    try:
        got = parse(bytes(line))
    except DcpError:
        return
    assert isinstance(got, Message | DeviceLog)
    if isinstance(got, Message):
        text = bytes(line).rstrip(b"\r")
        framed = text[text.rfind(b"$") :]
        body, stated = framed[1:-5], framed[-4:]
        assert binascii.crc_hqx(body, 0xFFFF) == int(stated, 16)


@given(st.lists(messages, min_size=1, max_size=8), st.lists(st.integers(1, 40), max_size=10))
def test_splitter_gives_back_the_lines_whatever_the_chunking(msgs, cuts):
    stream = b"".join(m.encode() for m in msgs)
    s, pieces, pos = LineSplitter(), [], 0
    for c in cuts:
        pieces += s.feed(stream[pos : pos + c])
        pos += c
    pieces += s.feed(stream[pos:])
    assert [parse(p) for p in pieces] == msgs
