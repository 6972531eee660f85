"""GNU Backgammon Match ID and XGID: round trips, and the real gnubg as the truth.

The gnubg tests run the Debian program once each with a batch of cases drawn from a seed that
is printed, so a failure can be replayed (``NARDY_IDS_SEED=… pytest tests/rules/test_ids.py``).
"""

from __future__ import annotations

import base64
import dataclasses
import json
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from nardy.rules.cube import Cube, CubeRules
from nardy.rules.errors import InvalidIdError
from nardy.rules.match import Match
from nardy.rules.matchid import (
    PLAYER,
    GameState,
    MatchState,
    decode_match_id,
    encode_match_id,
    match_state,
)
from nardy.rules.position import Numbering, Position, Side
from nardy.rules.result import GameResult, WinKind
from nardy.rules.xgid import Xgid, decode_position, decode_xgid, encode_position, encode_xgid

L, D = Side.LIGHT, Side.DARK
START = "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10"
CASES = 500  # per gnubg run


# -- strategies ----------------------------------------------------------------------------------

sides = st.sampled_from([L, D])
dice = st.none() | st.tuples(st.integers(1, 6), st.integers(1, 6))


@st.composite
def match_states(draw: st.DrawFn) -> MatchState:
    length = draw(st.sampled_from([0, 1, 3, 5, 7, 11, 25, 0x7FFF]))
    top = length or 0x7FFF
    return MatchState(
        cube_value=1 << draw(st.integers(0, 15)),
        cube_owner=draw(st.none() | sides),
        on_roll=draw(sides),
        crawford=bool(length) and draw(st.booleans()),
        state=draw(st.sampled_from(list(GameState))),
        turn=draw(sides),
        double_offered=draw(st.booleans()),
        resignation=draw(st.integers(0, 3)),
        dice=draw(dice),
        length=length,
        score=(draw(st.integers(0, top)), draw(st.integers(0, top))),
        jacoby=draw(st.booleans()),
    )


def random_position(rng: random.Random, checkers: int = 15) -> Position:
    """Any backgammon-family position: each side's checkers on points, the bar or off."""
    points = [0] * 24
    bar = [0, 0]
    for side in Side:
        n = rng.randint(1, checkers)
        for _ in range(n):
            spot = rng.randrange(25)
            if spot == 24:
                bar[side] += 1
                continue
            while points[spot] * side.sign < 0:
                spot = rng.randrange(24)
            points[spot] += side.sign
    off = tuple(checkers - Position(tuple(points), tuple(bar)).checkers(s) for s in Side)
    return Position(tuple(points), (bar[0], bar[1]), off)


@st.composite
def positions(draw: st.DrawFn) -> Position:
    return random_position(random.Random(draw(st.integers(0, 2**32))))


@st.composite
def xgids(draw: st.DrawFn) -> Xgid:
    length = draw(st.sampled_from([0, 0, 1, 5, 7, 13]))
    doubled = draw(st.booleans())
    return Xgid(
        position=draw(positions()),
        on_roll=draw(sides),
        cube_value=1 << draw(st.integers(0, 10)),
        cube_owner=draw(st.none() | sides),
        dice=None if doubled else draw(dice),
        double_offered=doubled,
        beavered=doubled and not length and draw(st.booleans()),
        score=(draw(st.integers(0, 20)), draw(st.integers(0, 20))),
        length=length,
        crawford=bool(length) and draw(st.booleans()),
        jacoby=not length and draw(st.booleans()),
        beavers=not length and draw(st.booleans()),
        max_cube=1 << draw(st.integers(0, 15)),
    )


# -- round trips and known values ----------------------------------------------------------------


@given(match_states())
def test_match_id_round_trips(state):
    mid = encode_match_id(state)
    assert len(mid) == 12
    assert decode_match_id(mid) == state


@given(xgids())
def test_xgid_round_trips(x):
    assert decode_xgid(encode_xgid(x)) == x


@given(positions())
def test_xgid_position_round_trips(pos):
    assert decode_position(encode_position(pos)) == pos


def test_xgid_start_position_is_the_backgammon_start():
    x = decode_xgid(START)
    assert x.position.at(L, 24) == 2 and x.position.at(L, 6) == 5
    assert x.position.at(D, 13) == 5 and x.position.at(D, 8) == 3
    assert x.position.off == (0, 0) and x.max_cube == 1024 and x.dice is None
    assert encode_xgid(x) == START


def test_xgid_hypergammon_counts_three_checkers():
    text = "-a" + "-" * 19 + "A--A-"  # one dark checker on the board, two light
    x = decode_xgid(f"XGID={text}:0:0:1:00:0:0:0:0:10", checkers=3)
    assert x.position.off == (1, 2)


def _raw_id(key: int) -> str:
    return base64.b64encode(key.to_bytes(9, "little")).decode()


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("cAkAAAAAAAA", "12 base64"),
        ("cAkAAAAAAA!A", "12 base64"),
        # the documented bit layout: playing (bit 8), a 3-point match (bits 21-35), 5 to 0
        (_raw_id(1 << 8 | 3 << 21 | 5 << 36), "past the"),
        (_raw_id(1 << 8 | 2 << 4), "owner"),
        (_raw_id(6 << 8), "game state"),
        (_raw_id(1 << 8 | 7 << 15 | 2 << 18), "dice"),
        (_raw_id(1 << 8 | 1 << 7), "Crawford"),
    ],
)
def test_bad_match_id_says_why(text, why):
    with pytest.raises(InvalidIdError, match=why):
        decode_match_id(text)


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0", "10 fields"),
        ("XGID=-b----E-C---eE---c-e---B-:0:0:1:00:0:0:0:0:10", "26 characters"),
        ("XGID=-b----E-C---eE---c-e----Z-:0:0:1:00:0:0:0:0:10", "not a checker count"),
        ("XGID=-b----E-C---eE---c-e----P-:0:0:1:00:0:0:0:0:10", "light checkers"),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:07:0:0:0:0:10", "dice"),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:R:0:0:0:0:10", "raccoon"),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:2:00:0:0:0:0:10", "turn"),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:2:7:10", "rules field"),
        ("XGID=-b----E-C---eE---c-e----B-:x:0:1:00:0:0:0:0:10", "numbers"),
    ],
)
def test_bad_xgid_says_why(text, why):
    with pytest.raises(InvalidIdError, match=why):
        decode_xgid(text)


def test_xgid_doubled_means_the_opponent_decides():
    x = decode_xgid(START.replace(":1:00:", ":-1:D:"))
    state = x.match_state()
    assert (state.on_roll, state.turn, state.double_offered) == (D, L, True)


# -- the real gnubg ------------------------------------------------------------------------------

_SCRIPT = """
import gnubg, json
cases = json.load(open({path!r}))
for kind, case in cases:
    if kind == "mid":
        ci, pi = case
        ci["score"], pi["dice"] = tuple(ci["score"]), tuple(pi["dice"])
        out = gnubg.matchid(ci, pi)
    else:
        gnubg.command("set xgid " + case)
        out = [gnubg.board(), gnubg.matchid()]
    print("OUT " + json.dumps(out))
"""


def _gnubg() -> str:
    exe = shutil.which("gnubg") or ("/usr/games/gnubg" if Path("/usr/games/gnubg").exists() else "")
    if not exe:
        pytest.fail("the Debian program gnubg is missing: scripts/test installs it")
    return exe


def _run_gnubg(tmp_path: Path, cases: list) -> list:
    data = tmp_path / "cases.json"
    data.write_text(json.dumps(cases))
    script = tmp_path / "script.py"
    script.write_text(_SCRIPT.format(path=str(data)))
    proc = subprocess.run(
        [_gnubg(), "-t", "-q", "-r", "-p", str(script)],
        capture_output=True,
        text=True,
        timeout=300,
        stdin=subprocess.DEVNULL,
    )
    outs = [json.loads(line[4:]) for line in proc.stdout.splitlines() if line.startswith("OUT ")]
    assert len(outs) == len(cases), proc.stderr[-2000:]
    return outs


def _seed() -> int:
    seed = int(os.environ.get("NARDY_IDS_SEED", random.randrange(2**31)))
    print(f"ids seed: NARDY_IDS_SEED={seed}", file=sys.stderr)
    return seed


def _random_state(rng: random.Random) -> MatchState:
    length = rng.choice([0, 1, 3, 5, 7, 9, 15, 21, 64])
    top = length or 999
    return MatchState(
        cube_value=1 << rng.randrange(16),
        cube_owner=rng.choice([None, L, D]),
        on_roll=rng.choice([L, D]),
        crawford=bool(length) and rng.random() < 0.3,
        state=rng.choice(list(GameState)),
        turn=rng.choice([L, D]),
        double_offered=rng.random() < 0.3,
        resignation=rng.randrange(4),
        dice=rng.choice([None, (rng.randint(1, 6), rng.randint(1, 6))]),
        length=length,
        score=(rng.randint(0, top), rng.randint(0, top)),
        jacoby=not length and rng.random() < 0.5,
    )


def _gnubg_dicts(s: MatchState) -> list:
    cubeinfo = {
        "cube": s.cube_value,
        "cubeowner": -1 if s.cube_owner is None else PLAYER[s.cube_owner],
        "move": PLAYER[s.on_roll],
        "matchto": s.length,
        "score": [s.score[D], s.score[L]],
        "crawford": int(s.crawford),
        "jacoby": int(s.jacoby),
        "beavers": 0,
        "bgv": 0,
    }
    posinfo = {
        "dice": list(s.dice or (0, 0)),
        "turn": PLAYER[s.turn],
        "resigned": s.resignation,
        "doubled": int(s.double_offered),
        "gamestate": int(s.state),
    }
    return [cubeinfo, posinfo]


@pytest.mark.gnubg
def test_match_ids_agree_with_gnubg(tmp_path):
    """gnubg writes the Match ID of random fields; ours must be the same, and read back."""
    rng = random.Random(_seed())
    states = [_random_state(rng) for _ in range(CASES)]
    outs = _run_gnubg(tmp_path, [["mid", _gnubg_dicts(s)] for s in states])
    for state, theirs in zip(states, outs, strict=True):
        assert encode_match_id(state) == theirs, state
        assert decode_match_id(theirs) == state


def _random_xgid(rng: random.Random) -> Xgid:
    """XGIDs that gnubg's ``set xgid`` takes: no pending double, no cube in the Crawford game."""
    length = rng.choice([0, 0, 3, 5, 7, 11])
    score = (rng.randint(0, max(length - 1, 0)), rng.randint(0, max(length - 1, 0)))
    if not length:
        score = (rng.randint(0, 30), rng.randint(0, 30))
    crawford = bool(length) and length - 1 in score and rng.random() < 0.5
    cube = 1 if crawford else 1 << rng.randrange(7)
    return Xgid(
        position=random_position(rng),
        on_roll=rng.choice([L, D]),
        cube_value=cube,
        cube_owner=None if cube == 1 else rng.choice([None, L, D]),
        dice=rng.choice([None, (rng.randint(1, 6), rng.randint(1, 6))]),
        score=score,
        length=length,
        crawford=crawford,
        jacoby=not length and rng.random() < 0.5,
        beavers=not length and rng.random() < 0.5,
    )


def _swapped(s: MatchState) -> MatchState:
    """The same state with the players' numbers exchanged (gnubg's ``swap players``)."""
    return dataclasses.replace(
        s,
        cube_owner=None if s.cube_owner is None else s.cube_owner.other,
        on_roll=s.on_roll.other,
        turn=s.turn.other,
        score=(s.score[1], s.score[0]),
    )


@pytest.mark.gnubg
def test_xgids_agree_with_gnubg(tmp_path):
    """gnubg reads our XGIDs: the same board (from the roller's seat) and the same Match ID."""
    rng = random.Random(_seed())
    xs = [_random_xgid(rng) for _ in range(CASES)]
    outs = _run_gnubg(tmp_path, [["xgid", encode_xgid(x)] for x in xs])
    for x, (board, mid) in zip(xs, outs, strict=True):
        own, theirs = x.position.view(x.on_roll, Numbering.OPPOSED)
        roller = [*own[1:25], own[25]]
        opponent = [*(theirs[25 - q] for q in range(1, 25)), theirs[25]]
        assert board == [opponent, roller], encode_xgid(x)
        expected = x.match_state()
        # gnubg puts the player on roll at the bottom: with dark on roll it swaps the players
        if x.on_roll is D:
            expected = _swapped(expected)
        assert decode_match_id(mid) == expected, encode_xgid(x)


# -- the Match ID of a game in play --------------------------------------------------------------


def test_match_state_of_a_pending_double_in_a_match():
    m = Match(7, crawford_rule=True).after_game(GameResult(D, WinKind.MARS, 2), Cube())
    cube = m.cube_for_game(CubeRules()).offer(L)
    state = match_state(cube, on_roll=D, match=m)
    assert (state.on_roll, state.turn, state.double_offered) == (L, D, True)
    assert (state.length, state.score, state.cube_value, state.jacoby) == (7, (0, 2), 1, False)
    assert decode_match_id(encode_match_id(state)) == state


def test_match_state_of_the_crawford_game_and_of_money_with_jacoby():
    m = Match(3, crawford_rule=True).after_game(GameResult(L, WinKind.MARS, 2), Cube())
    assert match_state(m.cube_for_game(CubeRules()), on_roll=L, match=m).crawford
    money = match_state(Cube(CubeRules(jacoby=True)).offer(D).take(), on_roll=L, dice=(3, 5))
    assert (money.length, money.jacoby, money.cube_owner, money.dice) == (0, True, L, (5, 3))


def test_match_state_of_a_resignation_lets_the_opponent_decide():
    state = match_state(Cube(), on_roll=D, resignation=2)
    assert (state.turn, state.resignation) == (L, 2)


def test_match_id_cannot_hold_an_arithmetic_cube_of_three():
    cube = Cube(CubeRules(progression="arithmetic")).offer(L).take().offer(D).take()
    with pytest.raises(InvalidIdError, match="power of 2"):
        match_state(cube, on_roll=L)


def test_match_id_cannot_hold_half_points():
    m = Match(5).after_game(GameResult(None, WinKind.DRAW, 1), Cube())
    with pytest.raises(InvalidIdError, match="whole points"):
        match_state(Cube(), on_roll=L, match=m)
