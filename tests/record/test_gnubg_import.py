"""The real GNU Backgammon imports our .mat and SGF files and reaches the same game.

Random legal games (doubles, hits, bear-offs, takes, drops, beavers, resignations, a Crawford
game, money sessions with Jacoby) are written in both formats; one gnubg process imports them
all, and every position before every turn, every move, cube action, score and result it reads
must be the record's.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from record_games import essentials, gnubg_board, make_record, referee_records

from nardy.record import (
    BACKGAMMON_FAMILY,
    CubeAction,
    CubeKind,
    Ending,
    PlayedTurn,
    Record,
    Resignation,
)
from nardy.record.export_common import ExportError, set_by_hand
from nardy.record.mat import write_mat
from nardy.record.mat_reader import read_mat
from nardy.record.sgf import write_sgf
from nardy.rules.position import Numbering, Side
from nardy.rules.result import WinKind, kind_of_win
from nardy.rules.variant import get_variant

pytestmark = pytest.mark.gnubg

HERE = Path(__file__).resolve().parent
VARIATION = {"nackgammon": "Nackgammon", "hypergammon": "Hypergammon3"}


def _gnubg() -> str:
    found = shutil.which("gnubg") or shutil.which("gnubg", path="/usr/games")
    if not found:
        pytest.fail("GNU Backgammon is not installed (scripts/test installs Debian's gnubg)")
    return found


def _records() -> list[Record]:
    specs = []
    for seed in range(10):
        specs.append(dict(seed=seed, match_to=5, cube_rate=0.04, resign_rate=0.01))
    for seed in range(10, 14):
        specs.append(
            dict(
                seed=seed,
                match_to=None,
                games=3,
                cube_rate=0.04,
                resign_rate=0.01,
                jacoby=seed % 2 == 0,
                beaver=True,
            )
        )
    for seed, variant in enumerate(["nackgammon", "hypergammon", "caucasian", "oin_mars"], 20):
        specs.append(dict(seed=seed, variant=variant, match_to=3, cube_rate=0.04))
    specs.append(dict(seed=30, match_to=1, cube_rate=0.05))
    # Money without Jacoby and no cube: gammons count in full (gnubg's .mat import differs).
    specs.append(dict(seed=0, match_to=None, games=2, cube_rate=0, resign_rate=0))
    # Oin-mars: two games the loser ends with a checker in the winner's home, a mars (2) here.
    specs.append(dict(seed=2, variant="oin_mars", match_to=5, cube_rate=0.02, resign_rate=0))
    # Fouls let stand: SGF gives gnubg the position they left (.mat cannot hold them).
    specs += [dict(seed=s, match_to=3, foul_rate=0.05) for s in (31, 32)]
    records = []
    made = [*(make_record(**spec) for spec in specs), *referee_records(), *session_records()]
    for i, r in enumerate(made):
        # Names that differ per record tell one import from a stale one.
        header = r.header.__class__(**{**_fields(r.header), "players": (f"Light{i}", f"Dark{i}")})
        records.append(Record(header, r.games))
    return records


def _fields(h) -> dict:
    return {f: getattr(h, f) for f in h.__dataclass_fields__}


def run_gnubg(jobs: list[dict], tmp: Path) -> list[dict]:
    """One gnubg process imports every job's file (``gnubg_dump.py``); what it read of each."""
    (tmp / "jobs.json").write_text(json.dumps(jobs))
    env = dict(
        os.environ, NARDY_GNUBG_JOBS=str(tmp / "jobs.json"), NARDY_GNUBG_OUT=str(tmp / "out.json")
    )
    proc = subprocess.run(
        [_gnubg(), "-t", "-q", "-r", "-p", str(HERE / "gnubg_dump.py")],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        cwd=tmp,
    )
    out_path = tmp / "out.json"
    assert out_path.exists(), f"gnubg wrote nothing: {proc.stdout[-2000:]}{proc.stderr[-2000:]}"
    # gnubg goes on after a move it cannot play ("WARNING: Invalid move"); none may occur.
    assert "Invalid move" not in proc.stdout + proc.stderr, proc.stdout[-3000:]
    return json.loads(out_path.read_text())


@pytest.fixture(scope="module")
def imported(tmp_path_factory) -> list[tuple[Record, str, dict]]:
    tmp = tmp_path_factory.mktemp("gnubg")
    records = _records()
    jobs = []
    for i, r in enumerate(records):
        fouls = any(by_hand(r, g) for g in r.games)
        for fmt, write in (("mat", write_mat), ("sgf", write_sgf)):
            if fouls and fmt == "mat":
                with pytest.raises(ExportError, match=r"foul|by hand"):
                    write_mat(r)
                continue
            path = tmp / f"record{i}.{fmt}"
            path.write_text(write(r), encoding="utf-8")
            job = {"path": str(path), "record": i, "fmt": fmt}
            if fmt == "sgf" and not fouls:
                # gnubg writes the match back as .mat in its own way: our reader must read it.
                job["export_mat"] = str(tmp / f"gnubg{i}.mat")
            jobs.append(job)
    out = run_gnubg(jobs, tmp)
    for j, o in zip(jobs, out, strict=True):
        o["exported"] = Path(j["export_mat"]).read_text() if "export_mat" in j else None
    return [(records[j["record"]], j["fmt"], o) for j, o in zip(jobs, out, strict=True)]


def _gnubg_side(player: str) -> Side:
    return Side.LIGHT if player == "X" else Side.DARK


def session_records() -> list[Record]:
    """The records of the referee's recorded fixture sessions of the backgammon family."""
    from nardy.referee.export import record_of
    from nardy.referee.session import replay

    sessions = sorted((HERE.parent / "fixtures" / "sessions").glob("*/session.json"))
    records = [record_of(replay(p.parent, truth_frames=True)) for p in sessions]
    return [r for r in records if r.header.variant in BACKGAMMON_FAMILY]


def by_hand(record: Record, game) -> list[PlayedTurn]:
    """The turns of ``game`` that reach gnubg as positions, not moves."""
    turns, before = [], game.start
    for t in game.turns:
        if set_by_hand(before, t, Numbering.OPPOSED):
            turns.append(t)
        before = t.after
    return turns


def _gnubg_points(record: Record, game, fmt: str) -> float:
    """The points gnubg scores. Its .mat import ignores XG's Jacoby key and plays money games
    under its own setting, on by default: a gammon with the cube never turned counts once. And it
    scores a game borne off by backgammon's table: oin-mars's mars with a checker in the winner's
    home is a backgammon (3) to gnubg."""
    r, h = game.result, record.header
    if r.ending is Ending.BORNE_OFF and h.variant == "oin_mars":
        kind = kind_of_win(get_variant("backgammon"), game.final_position(), r.winner)
        if kind is WinKind.BACKGAMMON:
            return 3 * r.cube
    turned = any(isinstance(e, CubeAction) and e.kind is not CubeKind.DOUBLE for e in game.entries)
    if fmt == "mat" and h.money and not h.jacoby and not turned and r.ending is Ending.BORNE_OFF:
        return r.cube
    return r.points


def _compare(record: Record, fmt: str, got: dict) -> tuple[int, int]:
    """Assert that gnubg's reading is the record; returns (games, turns) checked."""
    h = record.header
    where = f"{fmt} of {h.players[0]}"
    assert got["players"] == list(h.players), f"{where}: gnubg did not import it"
    assert got["match_length"] == (h.match_to or 0), where
    assert got["variation"] == VARIATION.get(h.variant, "Standard"), where
    assert len(got["games"]) == len(record.games), where
    turns = fouls = 0
    for game, g in zip(record.games, got["games"], strict=True):
        w = f"{where}, game {game.number}"
        info = g["info"]
        assert (info["score-X"], info["score-O"]) == tuple(game.score), w
        assert bool(info.get("crawford")) == game.crawford, w
        r = game.result
        assert _gnubg_side(info["winner"]) is r.winner, w
        assert info["points-won"] == _gnubg_points(record, game, fmt), w
        assert info["resigned"] == (r.ending is Ending.RESIGNED), w
        expected = [e for e in game.entries if not isinstance(e, Resignation)]
        actions = [a for a in g["actions"] if a["action"] != "resign"]
        before = game.start
        k = 0
        for e in expected:
            if isinstance(e, CubeAction) and e.kind is CubeKind.BEAVER:
                # gnubg keeps a beaver as a redouble by the doubled player, taken.
                pair = [(a["action"], _gnubg_side(a["player"])) for a in actions[k : k + 2]]
                assert pair == [("double", e.side), ("take", e.side.other)], w
                k += 2
                continue
            a = actions[k]
            k += 1
            if isinstance(e, PlayedTurn) and set_by_hand(before, e, Numbering.OPPOSED):
                assert a["action"] == "set", f"{w}, action {k}"
                assert a["board"] == [list(b) for b in gnubg_board(e.after, e.side.other)], w
                before = e.after
                fouls += 1
                continue
            assert _gnubg_side(a["player"]) is e.side, f"{w}, action {k}"
            if isinstance(e, PlayedTurn):
                assert a["action"] == "move", f"{w}, action {k}"
                assert sorted(a["dice"]) == sorted(e.dice), f"{w}, action {k}"
                assert sorted(map(tuple, a["move"])) == sorted((s.start, s.end) for s in e.steps), (
                    f"{w}, action {k}: gnubg read {a['move']} for {e.notation}"
                )
                assert a["board"] == [list(b) for b in gnubg_board(before, e.side)], (
                    f"{w}, action {k}: gnubg's position before {e.notation} differs"
                )
                before = e.after
                turns += 1
            else:
                assert a["action"] == e.kind.value, f"{w}, action {k}"
        assert k == len(actions), f"{w}: gnubg has {len(actions) - k} more actions"
    if not fouls:
        # gnubg's board at the end of the file: the last game's final position. (After a set
        # position gnubg's current board is not the last game's; every move above still is.)
        final = record.games[-1].final_position()
        ends = [[list(b) for b in gnubg_board(final, s)] for s in Side]
        assert got["end"] in ends, f"{where}: end position"
    return len(record.games), turns, fouls


def test_gnubg_reaches_the_same_games(imported) -> None:
    games = turns = fouls = 0
    for record, fmt, got in imported:
        g, t, f = _compare(record, fmt, got)
        games += g
        turns += t
        fouls += f
    kinds = {
        (type(e).__name__, getattr(e, "kind", None))
        for record, _, _ in imported
        for game in record.games
        for e in game.entries
    }
    print(
        f"gnubg checked {len(imported)} files, {games} games, {turns} moves, "
        f"{fouls} positions set by hand (fouls let stand, corrections)"
    )
    assert fouls > 0
    # What the generated games covered: each must be there for the test to mean something.
    for needed in (CubeKind.TAKE, CubeKind.DROP, CubeKind.BEAVER):
        assert ("CubeAction", needed) in kinds, needed
    assert ("Resignation", None) in kinds
    assert any(game.crawford for record, _, _ in imported for game in record.games)


def test_our_reader_reads_the_mat_gnubg_writes(imported) -> None:
    read = 0
    for record, _, got in imported:
        if got["exported"] is None:
            continue
        if any(_gnubg_points(record, g, "sgf") != g.result.points for g in record.games):
            continue  # gnubg wrote its own points (oin-mars scored as backgammon)
        back = read_mat(got["exported"])
        assert essentials(back, variant=False)[1] == essentials(record, variant=False)[1], (
            f"gnubg's .mat of {record.header.players[0]}"
        )
        read += 1
    print(f"read {read} .mat files gnubg wrote")
    assert read >= 20
