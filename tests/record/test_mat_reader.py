"""Reading a .mat back: what we write comes back as the same games."""

from __future__ import annotations

import pytest
from record_games import essentials, make_record

from nardy.record import RecordError
from nardy.record.mat import write_mat
from nardy.record.mat_reader import read_mat

CASES = [
    dict(seed=6, match_to=5),
    dict(seed=4, match_to=5),
    dict(seed=11, match_to=None, games=3, beaver=True, jacoby=True, resign_rate=0.02),
    dict(seed=13, match_to=None, games=3, beaver=True),
    dict(seed=20, variant="nackgammon", match_to=3),
    dict(seed=21, variant="hypergammon", match_to=3),
    dict(seed=22, variant="caucasian", match_to=3),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c.get('variant', 'bg')}-{c['seed']}")
def test_a_written_mat_reads_back_as_the_same_games(case) -> None:
    record = make_record(**case)
    back = read_mat(write_mat(record))
    assert essentials(back) == essentials(record)
    assert back.score() == record.score()
    assert back.header.date == record.header.date and back.header.place == record.header.place


def test_a_garbled_line_is_named() -> None:
    text = write_mat(make_record(6, match_to=5)).splitlines()
    i = next(k for k, line in enumerate(text) if line.strip().startswith("3)"))
    text[i] = "  3) 64: 24/18 13/x"
    with pytest.raises(RecordError, match=f"line {i + 1}"):
        read_mat("\n".join(text))


def test_text_that_is_not_a_mat_is_refused() -> None:
    with pytest.raises(RecordError, match="point match"):
        read_mat('; [Site "x"]\n\n')
    with pytest.raises(RecordError, match="line 1"):
        read_mat("hello\n")
