"""The move generator against GNU Backgammon's, position by position.

The fixed corpus comes from ``scripts/make_positions.py`` (seeded); a fresh random run with a
new seed is added each time the suite runs (the seed is printed: replay it with
``NARDY_DIFF_SEED``).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from nardy.rules.variant import get_variant
from rules.oracle import MP, disagreements, our_turns

VARIANTS = ("backgammon", "nackgammon", "hypergammon")
CORPUS = 10_000
FRESH = 1_000


@pytest.mark.slow
@pytest.mark.parametrize("name", VARIANTS)
def test_legal_turns_match_gnubg_on_the_corpus(name):
    cases = MP.corpus(name, CORPUS, seed=1)
    assert len(cases) == CORPUS
    bad = disagreements(get_variant(name), cases)
    assert not bad, f"{len(bad)} of {CORPUS} differ, e.g.\n" + "\n".join(bad[:5])


@pytest.mark.parametrize("name", VARIANTS)
def test_legal_turns_match_gnubg_on_fresh_random_positions(name):
    seed = int(os.environ.get("NARDY_DIFF_SEED", time.time_ns() % 1_000_000_007))
    print(f"fresh differential run: {name}, seed {seed} (NARDY_DIFF_SEED={seed} replays it)")
    cases = MP.corpus(name, FRESH, seed=seed)
    bad = disagreements(get_variant(name), cases)
    assert not bad, f"seed {seed}: {len(bad)} differ, e.g.\n" + "\n".join(bad[:5])


def test_the_corpus_covers_bar_closed_boards_bear_off_and_doubles():
    cases = MP.corpus("backgammon", CORPUS, seed=1)
    on_bar = [c for c in cases if c[0][25]]
    closed = [c for c in on_bar if sum(1 for p in range(19, 25) if c[1][p] >= 2) >= 5]
    bear_off = [c for c in cases if not any(c[0][7:26])]
    doubles = [c for c in cases if c[2][0] == c[2][1]]
    hits_possible = [c for c in cases if any(c[1][p] == 1 for p in range(1, 25))]
    assert len(on_bar) > 1000 and len(closed) > 100
    assert len(bear_off) > 1000 and len(doubles) > 1500 and len(hits_possible) > 3000
    assert len(set(cases)) > 0.9 * len(cases)


# -- against the Debian program ------------------------------------------------------------------

_SCRIPT = """
import json
gnubg.command("set player 0 human")
gnubg.command("set player 1 human")
for line in open({jobs!r}):
    job = json.loads(line)
    gnubg.command("new game")
    gnubg.command("set board " + job["pid"])
    gnubg.command("set dice %d %d" % tuple(job["dice"]))
    try:
        moves = sorted(m["move"] for m in gnubg.hint(9999)["hint"])
    except Exception as e:
        moves = ["error: %s" % e]
    print("RESULT " + json.dumps({{"pid": job["pid"], "dice": job["dice"], "moves": moves}}))
"""


def _gnubg() -> str | None:
    return shutil.which("gnubg") or next(
        (p for p in ("/usr/games/gnubg", "/usr/bin/gnubg") if Path(p).exists()), None
    )


@pytest.mark.gnubg
def test_notation_matches_the_debian_gnubg_program(tmp_path):
    program = _gnubg()
    if program is None:
        pytest.skip("the Debian gnubg program is not installed (scripts/test installs it)")
    from nardy.rules.posid import position_id
    from nardy.rules.position import Position, Side

    bg = get_variant("backgammon")
    cases = [
        c for c in MP.corpus("backgammon", 3000, seed=5)[::24] if c[0][0] < 15 and c[1][0] < 15
    ]
    jobs = tmp_path / "jobs.jsonl"
    expected = {}
    with jobs.open("w") as f:
        for own, theirs, dice in cases:
            pos = Position.from_view(Side.LIGHT, bg.numbering, own, theirs)
            pid = position_id(pos, Side.LIGHT)
            turns = sorted(our_turns(bg, own, theirs, dice).values())
            if turns == [""]:
                continue  # gnubg's hint has nothing to say about a roll that cannot be played
            expected[(pid, tuple(dice))] = turns
            f.write(json.dumps({"pid": pid, "dice": list(dice)}) + "\n")
    script = tmp_path / "hint.py"
    script.write_text(_SCRIPT.format(jobs=str(jobs)))
    run = subprocess.run(
        [program, "-t", "-q", "-r", "-p", str(script)], capture_output=True, text=True, timeout=600
    )
    got = {}
    for line in run.stdout.splitlines():
        if line.startswith("RESULT "):
            r = json.loads(line[7:])
            got[(r["pid"], tuple(r["dice"]))] = r["moves"]
    assert len(got) == len(expected) > 100, run.stderr[-2000:]
    differ = [(k, expected[k], got[k]) for k in expected if expected[k] != got[k]]
    assert not differ, f"{len(differ)} of {len(expected)} differ, e.g. {differ[:3]}"
