"""Make the recorded-session fixtures of the referee (tests/fixtures/sessions/) with their truth.

Each session is a whole game (or match) scripted move by move with the rules engine, with the
incidents issue 5 asks for, written as a live table would write it: ``session.json``, frames
rendered by ``nardy.synth`` (``frames/000001234.jpg``), the cup's raw DCP/1 lines in ``cup.log``,
the buttons in ``actions.jsonl``. Beside them:

- ``truth.json``: the true record, made here from the script (not by running the referee):
  per game every turn (player, dice, play, position after, flags as ``[kind, resolution]``, void
  throws), cube actions, result, and the match score or money balance;
- ``frames_truth.jsonl``: what each frame shows (the ``nardy detect`` form from the renderer), so
  a session can also be replayed with a stand-in for vision (``nardy replay --truth-frames``).

Deterministic. ``python scripts/make_sessions.py [OUT] [--only NAME] [--frames render|none|keep]``:
``none`` writes empty files in place of the images (a quick look at the scripts); ``keep`` keeps
the images already rendered in OUT (rendering takes minutes) and rewrites the rest.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
# NARDY_SRC: another source tree to make the fixtures with (a tree that merges unlanded work).
sys.path.insert(0, os.environ.get("NARDY_SRC", str(ROOT / "src")))

from nardy.device.dcp import crc  # noqa: E402
from nardy.rules.position import Position, Side  # noqa: E402
from nardy.rules.variant import get_variant  # noqa: E402

OUT = ROOT / "tests" / "fixtures" / "sessions"
SIZE = (960, 540)
QUALITY = 78
NAME = {Side.LIGHT: "light", Side.DARK: "dark"}
ARMED = {Side.LIGHT: "W", Side.DARK: "B"}


@dataclass
class Shot:
    """One frame to render: what the board shows at ``ms``."""

    ms: int
    position: Position
    dice: tuple[dict[str, Any], ...] = ()
    hand: bool = False
    copy_of: int | None = None  # the same still scene as this earlier frame, fresh sensor noise


@dataclass
class Recorder:
    """Writes one session as it is scripted, and keeps its truth."""

    name: str
    setup: dict[str, Any]
    seed: int
    t: int = 0
    cup: list[str] = field(default_factory=list)
    actions: list[dict[str, Any]] = field(default_factory=list)
    shots: list[Shot] = field(default_factory=list)
    games: list[dict[str, Any]] = field(default_factory=list)
    seq: int = 0  # the cup's next line number
    host: int = 1  # the host's next line number
    roll: int = 0
    notes: list[str] = field(default_factory=list)

    def wait(self, ms: int) -> None:
        self.t += ms

    # -- the cup --------------------------------------------------------------------------------

    def throw(
        self, dice: tuple[int, ...], armed: Side | None, turn: int, why: str | None = None
    ) -> None:
        """The cup reports a throw; the host acknowledges it; the cup answers ACK (DICECUP.md)."""
        self.roll += 1
        arm = "-" if armed is None else f"{ARMED[armed]}:{turn}"
        d = ",".join(str(v) if v else "?" for v in dice)
        if why is None:
            body = f"ROLL seq={self.seq} roll={self.roll} boot=5F3A91C2 d={d} armed={arm} ms=1500"
        else:
            body = (
                f"NOROLL seq={self.seq} roll={self.roll} boot=5F3A91C2 why={why} d={d} armed={arm}"
            )
        self.line(0, "in", body)
        self.line(20, "out", f"ACKROLL seq={self.host} roll={self.roll}")
        self.line(35, "in", f"ACK seq={self.seq} ref={self.host - 1}")

    def line(self, dt: int, direction: str, body: str) -> None:
        """One raw line with its CRC; each side numbers its own lines (``seq``)."""
        self.cup.append(f"{self.t + dt}\t{direction}\t{dcp(body)}")
        if direction == "in":
            self.seq += 1
        else:
            self.host += 1

    def hello(self) -> None:
        """The host's session start: identify, take a snapshot, ask for throws not yet seen."""
        self.line(0, "out", "HELLO? seq=1 proto=1")
        self.line(
            15,
            "in",
            "HELLO seq=0 ref=1 boot=5F3A91C2 proto=1 min=1 fw=0.3.1 id=CUP-7F21 "
            "dice=2 caps=arm,replay",
        )
        self.line(30, "out", "STATE? seq=2")
        self.line(
            45,
            "in",
            "STATE seq=1 ref=2 boot=5F3A91C2 st=idle roll=0 last=- armed=- batt=90 pending=-",
        )
        self.line(60, "out", "REPLAY? seq=3 from=1")
        self.line(75, "in", "ACK seq=2 ref=3")

    # -- the dashboard --------------------------------------------------------------------------

    def act(self, kind: str, by: str, **kw: Any) -> None:
        self.actions.append({"t": self.t, "kind": kind, "by": by, **kw})

    # -- the camera -----------------------------------------------------------------------------

    def still(self, pos: Position, dice: tuple[dict[str, Any], ...] = (), gap: int = 400) -> None:
        """A still board: two frames of the same scene (a still signal needs two)."""
        self.shots.append(Shot(self.t, pos, dice))
        first = len(self.shots) - 1
        self.shots.append(Shot(self.t + gap, pos, dice, copy_of=first))

    def hand(self, pos: Position, dice: tuple[dict[str, Any], ...] = ()) -> None:
        self.shots.append(Shot(self.t, pos, dice, hand=True))


def dcp(body: str) -> str:
    """A raw DCP/1 line: ``$body*CRC``."""
    return f"${body}*{crc(body.encode('ascii'))}"


LEAN_APART = 17.6  # mm from a die to one leaning on it: 1.1 of the renderer's die (16 mm here)


def dice_on_board(
    values: tuple[int, ...],
    rng: random.Random,
    cocked: int | None = None,
    halves: tuple[str, ...] = ("right", "right"),
) -> tuple[dict[str, Any], ...]:
    out = []
    for i, v in enumerate(values[:2]):
        where = halves[i]
        x = (1 if where == "right" else -1) * rng.uniform(110, 200)
        y = rng.uniform(-40, 40) + (i * 55 - 27)
        die = {
            "value": v,
            "where": where,
            "at": (round(x, 1), round(y, 1)),
            "turn": round(rng.uniform(0, 90), 1),
            "flat": True,
        }
        out.append(die)
    if cocked is not None:
        # a cocked die leans on something: here on the other die of the throw, beside it and
        # toward it (the renderer stands a leaning die on its lowest corner wherever it is
        # told; until session 12 it leaned toward nothing, "on a checker" where none stood).
        # No draw of ``rng``, so the rest of each script is as before
        other = out[1 - cocked]["at"]
        out[cocked].update(
            flat=False,
            lean=24.0,
            at=(other[0], round(other[1] + LEAN_APART, 1)),
            lean_toward=270.0,  # toward -y, where the other die lies
            rests_on="die",
        )
    return tuple(out)


# -- playing a game by the rules --------------------------------------------------------------


class Game:
    """One game being scripted: the rules engine picks legal plays; incidents are injected."""

    def __init__(
        self,
        rec: Recorder,
        variant: Any,
        rng: random.Random,
        *,
        camera: bool,
        dice_source: str,
        entered: bool = False,
        start_scores: Any = None,
    ) -> None:
        self.rec = rec
        self.v = variant
        self.rng = rng
        self.camera = camera
        self.dice_source = dice_source
        self.entered = entered
        self.pos = variant.start()
        self.turns: list[dict[str, Any]] = []
        self.cube: list[dict[str, Any]] = []
        self.first = {Side.LIGHT: True, Side.DARK: True}
        self.number = 0
        self.cube_value = 1
        self.result: dict[str, Any] | None = None
        self.shown: tuple[dict[str, Any], ...] = ()
        self.void: list[str] = []
        self.side: Side = Side.LIGHT

    # the opening roll: one die each, ties again
    def opening(self, rolls: list[tuple[int, int]]) -> Side:
        rec = self.rec
        if self.camera and not rec.shots:
            rec.still(self.pos)
        for light, dark in rolls:
            rec.wait(1500)
            if self.dice_source == "camera":
                shown = dice_on_board((light, dark), self.rng, halves=("right", "left"))
                rec.still(self.pos, shown)
                rec.wait(1200)
                rec.still(self.pos)  # picked up
            else:
                rec.throw((light, dark), None, 0)
        light, dark = rolls[-1]
        self.side = Side.LIGHT if light > dark else Side.DARK
        self.opening_roll = (light, dark)
        self.opening_rolls = [list(r) for r in rolls]
        return self.side

    def throw(
        self, dice: tuple[int, int], *, cocked: bool = False, seen: tuple[int, int] | None = None
    ) -> None:
        """The player on turn throws (a cocked first throw is thrown again)."""
        rec = self.rec
        n = len(self.turns) + 1
        if cocked:
            rec.wait(1500)
            bad = (dice[0], 0)
            if self.dice_source == "camera":
                shown = dice_on_board((dice[0], 3), self.rng, cocked=1)
                rec.still(self.pos, shown)
                rec.wait(1200)
                rec.still(self.pos)
            else:
                rec.throw(bad, self.side, n, why="cocked")
                if self.camera:
                    rec.still(self.pos, dice_on_board((dice[0], 3), self.rng, cocked=1))
                    rec.wait(900)
            self.void.append("cocked")
        rec.wait(1500)
        self.shown = dice_on_board(seen or dice, self.rng)
        if self.dice_source != "camera":
            rec.throw(dice, self.side, n)
        if self.camera:
            rec.wait(300)
            rec.still(self.pos, self.shown)
        self.dice = dice

    def legal(self, dice: tuple[int, int] | None = None) -> tuple[Any, ...]:
        return self.v.legal_turns(
            self.pos, self.side, dice or self.dice, first_turn=self.first[self.side]
        )

    def play(
        self,
        turn: Any | None = None,
        *,
        flags: tuple[tuple[str, str], ...] = (),
        partial: bool = False,
        hand: bool = True,
        after: Position | None = None,
        play: str | None = "auto",
    ) -> None:
        """Play a legal turn (random unless given); show it to the camera or enter it."""
        rec = self.rec
        if turn is None:
            turn = self.rng.choice(self.legal())
        if not turn.steps:  # nothing can be played: the referee passes the turn by itself
            self.record("", self.pos, flags)
            return
        target = after or turn.after
        if self.entered:
            rec.wait(2500)
            rec.act("enter_turn", NAME[self.side], play=turn.notation)
        elif self.camera:
            rec.wait(1200)
            if hand:
                rec.hand(self.pos, self.shown)
            if partial and len(turn.steps) >= 2:
                rec.wait(900)
                half = self.v.play(self.pos, self.side, turn.steps[:1])
                rec.still(half, self.shown)
                rec.wait(1100)
                rec.hand(half, self.shown)
            rec.wait(1200)
            rec.still(target, self.shown)
        self.record(turn.notation if play == "auto" else play, target, flags)

    def record(
        self, play: str | None, after: Position, flags: tuple[tuple[str, str], ...] = ()
    ) -> None:
        self.turns.append(
            {
                "player": NAME[self.side],
                "dice": list(self.dice),
                "play": play,
                "position": after.to_json(),
                "flags": [list(f) for f in flags],
                "void": list(self.void),
            }
        )
        self.void = []
        self.first[self.side] = False
        self.pos = after
        self.side = self.side.other

    def illegal_play(self) -> Any:
        """A play of another roll, whose position no legal turn of this roll reaches."""
        legal = {t.after for t in self.legal()}
        rolls = [(a, b) for a in range(1, 7) for b in range(1, a + 1) if {a, b} != set(self.dice)]
        self.rng.shuffle(rolls)
        for roll in rolls:
            for t in self.v.legal_turns(
                self.pos, self.side, roll, first_turn=self.first[self.side]
            ):
                if t.steps and t.after not in legal and t.after != self.pos:
                    return t
        raise RuntimeError("no illegal play found")

    def show_back(self) -> None:
        """The checkers go back to where the turn began (a replay was demanded)."""
        rec = self.rec
        rec.wait(1200)
        rec.hand(self.pos, self.shown)
        rec.wait(1200)
        rec.still(self.pos, self.shown)

    def end(
        self,
        winner: Side,
        kind: str,
        ending: str,
        multiplier: int,
        crawford: bool = False,
    ) -> None:
        """The result, scored by the rules engine's cube (mars with the cube or not, Jacoby)."""
        from nardy.rules.cube import Cube, CubeRules
        from nardy.rules.result import Ending, GameResult, WinKind

        rules = CubeRules.from_options(self.v.options, money="stake" in self.rec.setup)
        cube = Cube.disabled(rules, crawford=True) if crawford else Cube(rules, self.cube_value)
        points = cube.points(GameResult(winner, WinKind(kind), multiplier, Ending(ending)))
        self.result = {
            "winner": NAME[winner],
            "kind": kind,
            "ending": ending,
            "multiplier": multiplier,
            "cube": self.cube_value,
            "points": int(points),
        }

    def cube_action(self, kind: str, by: Side, value: int) -> None:
        self.rec.wait(800)
        self.rec.act(kind, NAME[by])
        self.cube.append(
            {"kind": kind, "by": NAME[by], "value": value, "before_turn": len(self.turns) + 1}
        )
        if kind in ("take", "beaver"):
            self.cube_value = value

    def truth(self, crawford: bool = False) -> dict[str, Any]:
        """The game in the record's words: entries in order (cube actions between turns, a
        resignation last), flags as [kind, resolution], void throws by why."""
        entries: list[dict[str, Any]] = []
        cubes = list(self.cube)
        for n, t in enumerate(self.turns, 1):
            while cubes and cubes[0]["before_turn"] <= n:
                entries.append(_cube_entry(cubes.pop(0)))
            entries.append(
                {
                    "turn": t["player"],
                    "dice": t["dice"],
                    "play": t["play"],
                    "after": t["position"],
                    "flags": t["flags"],
                    "void": t["void"],
                }
            )
        entries += [_cube_entry(c) for c in cubes]
        r = dict(self.result or {})
        if r.get("ending") == "resigned":
            loser = "dark" if r["winner"] == "light" else "light"
            entries.append({"resign": loser, "points": r["multiplier"]})
        return {
            "crawford": crawford,
            "opening": self.opening_rolls,
            "entries": entries,
            "result": r,
        }

    def plain_turns(self, n: int, **kw: Any) -> None:
        for _ in range(n):
            if self.v.winner(self.pos) is not None:
                return
            self.throw(self.roll())
            self.play(**kw)

    def roll(self) -> tuple[int, int]:
        return (self.rng.randint(1, 6), self.rng.randint(1, 6))


def _cube_entry(c: dict[str, Any]) -> dict[str, Any]:
    kind = "double" if c["kind"] == "offer" else c["kind"]
    return {"cube": kind, "by": c["by"], "value": c["value"]}


def opening_turn(g: Game, starter: Side) -> None:
    """Short nardy: the starter plays the two opening dice (no new throw)."""
    light, dark = g.opening_roll
    g.dice = (max(light, dark), min(light, dark))
    g.shown = ()
    g.play()


# -- the sessions -------------------------------------------------------------------------------


def backgammon_money(rec: Recorder) -> None:
    """Money game, cup and camera both: a tie in the opening, a hand mid-move (partial), a cocked
    die, cup and camera disagreeing, a double taken, a redouble dropped."""
    rng = random.Random(rec.seed)
    v = get_variant("backgammon")
    rec.hello()
    g = Game(rec, v, rng, camera=True, dice_source="both")
    g.opening([(4, 4), (5, 2)])
    opening_turn(g, Side.LIGHT)
    g.throw((6, 4))
    g.play(partial=True)
    g.throw((3, 1), cocked=True)
    g.play()
    g.throw((6, 3), seen=(6, 2))  # the camera reads a 2 where the cup says 3
    g.play(flags=(("dice_mismatch", "cup_stands"),))
    g.plain_turns(3)
    taker = g.side.other
    g.cube_action("offer", g.side, 2)
    g.cube_action("take", taker, 2)
    g.plain_turns(4)
    if g.side is not taker:
        g.plain_turns(1)
    g.cube_action("offer", taker, 4)
    g.cube_action("drop", taker.other, 2)
    g.end(taker, "oin", "dropped", 1)
    rec.games.append(g.truth())


def match_to_3(rec: Recorder) -> None:
    """Match to 3 with the Crawford rule, cup only: an illegal move accepted, a board no play
    explains corrected, a gammon resigned, the Crawford game (an offer refused), a post-Crawford
    game with the cube."""
    rng = random.Random(rec.seed)
    v = get_variant("backgammon", crawford=True)
    rec.hello()
    # game 1
    g = Game(rec, v, rng, camera=True, dice_source="cup")
    g.opening([(6, 1)])
    opening_turn(g, Side.LIGHT)
    g.throw((5, 3))
    t = g.illegal_play()
    g.play(t, flags=(("illegal", "condoned"),), play=None)
    g.rec.wait(800)
    g.rec.act("accept", NAME[g.side])  # the opponent (now on turn) accepts
    g.throw((4, 2))
    turn = g.rng.choice(g.legal())
    # The player keeps the last checker moved in hand, out of view: the board the camera sees
    # is one checker short, which no play explains. The referee asks; the director answers.
    misread = list(turn.after.points)
    held = v.numbering.to_light(g.side, next(s.end for s in reversed(turn.steps) if s.end))
    misread[held - 1] -= g.side.sign
    g.play(
        turn,
        flags=(("misread", "corrected"),),
        after=Position(tuple(misread), turn.after.bar, turn.after.off),
    )
    g.pos = turn.after
    g.turns[-1]["position"] = turn.after.to_json()
    rec.wait(1000)
    rec.act("correct", "director", play=turn.notation)
    rec.wait(800)
    rec.still(turn.after, g.shown)  # the checker put down
    g.plain_turns(2)
    rec.wait(800)
    rec.act("resign", NAME[g.side], level=2)
    g.end(g.side.other, "mars", "resigned", 2)
    rec.games.append(g.truth())
    winner1 = g.side.other
    # game 2: the Crawford game
    rec.wait(1500)
    rec.act("new_game", "director")
    g = Game(rec, v, rng, camera=True, dice_source="cup")
    rec.still(g.pos)
    g.opening([(2, 5)])
    opening_turn(g, Side.DARK)
    rec.wait(500)
    rec.act("offer", NAME[g.side])  # refused: no cube in the Crawford game
    g.plain_turns(3)
    loser = winner1
    rec.wait(800)
    rec.act("resign", NAME[loser])
    g.end(loser.other, "oin", "resigned", 1, crawford=True)
    rec.games.append(g.truth(crawford=True))
    # game 3: post-Crawford
    rec.wait(1500)
    rec.act("new_game", "director")
    g = Game(rec, v, rng, camera=True, dice_source="cup")
    rec.still(g.pos)
    g.opening([(3, 4)])
    opening_turn(g, Side.DARK)
    g.plain_turns(2)
    trailer = winner1.other
    if g.side is not trailer:
        g.plain_turns(1)
    g.cube_action("offer", trailer, 2)
    g.cube_action("take", winner1, 2)
    g.plain_turns(3)
    rec.wait(800)
    rec.act("resign", NAME[trailer])
    g.end(winner1, "oin", "resigned", 1)
    rec.games.append(g.truth())


def long_nardy(rec: Recorder) -> None:
    """Long nardy, cup and camera: the starter throws afresh, an illegal move replayed, a hand over
    the board, then a mars resigned."""
    rng = random.Random(rec.seed)
    v = get_variant("long")
    rec.hello()
    g = Game(rec, v, rng, camera=True, dice_source="cup")
    g.opening([(2, 6)])
    g.side = Side.DARK
    g.throw((5, 3))
    g.play()
    g.throw((4, 1))
    g.play(partial=True)
    g.throw((6, 2))
    bad = g.illegal_play()
    rec.wait(1200)
    rec.hand(g.pos, g.shown)
    rec.wait(1200)
    rec.still(bad.after, g.shown)
    rec.wait(900)
    rec.act("replay", NAME[g.side.other])
    g.show_back()
    g.play(flags=(("illegal", "replayed"),))
    g.plain_turns(9)
    rec.wait(800)
    rec.act("resign", NAME[g.side], level=2)
    g.end(g.side.other, "mars", "resigned", 2)
    rec.games.append(g.truth())


def caucasian(rec: Recorder) -> None:
    """Caucasian short nardy: a hit-and-hide in the home board flagged, the opponent demands a
    replay; the game is then resigned."""
    rng = random.Random(rec.seed)
    v = get_variant("caucasian")
    bg = get_variant("backgammon")
    rec.hello()
    g = Game(rec, v, rng, camera=True, dice_source="cup")
    g.opening([(5, 3)])
    opening_turn(g, Side.LIGHT)
    for _ in range(60):
        dice = g.roll()
        legal = {t.after for t in v.legal_turns(g.pos, g.side, dice, first_turn=False)}
        fouls = [t for t in bg.legal_turns(g.pos, g.side, dice) if t.after not in legal]
        if fouls:
            g.throw(dice)
            foul = fouls[0]
            rec.wait(1200)
            rec.hand(g.pos, g.shown)
            rec.wait(1200)
            rec.still(foul.after, g.shown)
            rec.wait(900)
            rec.act("replay", NAME[g.side.other])
            g.show_back()
            g.play(flags=(("illegal", "replayed"),))
            rec.notes.append(f"hit and hide: {foul.notation} with {dice[0]}-{dice[1]}")
            break
        g.throw(dice)
        g.play(hand=False)
    else:
        raise RuntimeError("no hit-and-hide chance in 60 turns: change the seed")
    g.plain_turns(2)
    rec.wait(800)
    rec.act("resign", NAME[g.side])
    g.end(g.side.other, "oin", "resigned", 1)
    rec.games.append(g.truth())


def entered(rec: Recorder) -> None:
    """No camera: every turn entered on the dashboard, a whole game to the last checker, one
    illegal entry accepted."""
    rng = random.Random(rec.seed)
    v = get_variant("backgammon")
    rec.hello()
    g = Game(rec, v, rng, camera=False, dice_source="cup", entered=True)
    g.opening([(3, 5)])
    opening_turn(g, Side.DARK)
    g.throw((6, 5))
    bad = g.illegal_play()
    rec.wait(2500)
    rec.act("enter_turn", NAME[g.side], play=bad.notation)
    rec.wait(1500)
    rec.act("accept", NAME[g.side.other])
    g.record(None, bad.after, (("illegal", "condoned"),))
    while v.winner(g.pos) is None:
        g.throw(g.roll())
        g.play()
    winner = v.winner(g.pos)
    from nardy.rules.result import win

    r = win(v, g.pos, winner)
    g.end(winner, r.kind.value, "borne_off", r.multiplier)
    rec.games.append(g.truth())


def camera_dice(rec: Recorder) -> None:
    """No cup: the camera reads the throws; a cocked die thrown again; resigned after six turns."""
    rng = random.Random(rec.seed)
    v = get_variant("backgammon")
    g = Game(rec, v, rng, camera=True, dice_source="camera")
    g.opening([(4, 6)])
    opening_turn(g, Side.DARK)
    for k in range(6):
        rec.wait(900)
        rec.still(g.pos)  # the last player picked up the dice
        g.throw(g.roll(), cocked=k == 2)
        g.play()
    rec.wait(800)
    rec.act("resign", NAME[g.side])
    g.end(g.side.other, "oin", "resigned", 1)
    rec.games.append(g.truth())


@dataclass(frozen=True)
class Spec:
    name: str
    make: Callable[[Recorder], None]
    setup: dict[str, Any]
    seed: int


SPECS = [
    Spec(
        "backgammon_money",
        backgammon_money,
        {
            "variant": "backgammon",
            "players": {"light": "Ann", "dark": "Boris"},
            "stake": 5,
            "currency": "EUR",
            "dice_source": "both",
        },
        11,
    ),
    Spec(
        "backgammon_match3",
        match_to_3,
        {
            "variant": "backgammon",
            "options": {"crawford": True},
            "players": {"light": "Carla", "dark": "Dmitri"},
            "match_to": 3,
        },
        23,
    ),
    Spec(
        "long_nardy",
        long_nardy,
        {
            "variant": "long",
            "players": {"light": "Elnur", "dark": "Farid"},
            "stake": 1,
            "currency": "AZN",
        },
        31,
    ),
    Spec(
        "caucasian_foul",
        caucasian,
        {
            "variant": "caucasian",
            "players": {"light": "Giorgi", "dark": "Hovik"},
            "stake": 2,
            "currency": "GEL",
        },
        4,
    ),
    Spec(
        "entered_no_camera",
        entered,
        {
            "variant": "backgammon",
            "players": {"light": "Ivan", "dark": "Jana"},
            "stake": 1,
            "move_source": "entered",
        },
        53,
    ),
    Spec(
        "camera_dice_no_cup",
        camera_dice,
        {
            "variant": "backgammon",
            "players": {"light": "Kemal", "dark": "Lena"},
            "stake": 1,
            "dice_source": "camera",
        },
        67,
    ),
]


# -- the score --------------------------------------------------------------------------------


def score(spec: Spec, games: list[dict[str, Any]]) -> dict[str, Any]:
    if "match_to" in spec.setup:
        s = {"light": 0, "dark": 0}
        for g in games:
            s[g["result"]["winner"]] += g["result"]["points"]
        return {"score": [s["light"], s["dark"]]}
    balance = 0.0
    for g in games:
        r = g["result"]
        amount = r["points"] * spec.setup["stake"]
        balance += amount if r["winner"] == "light" else -amount
    return {"balance_light": balance}


# -- rendering ----------------------------------------------------------------------------------


def render_frames(folder: Path, shots: list[Shot], seed: int) -> list[dict[str, Any]]:
    import cv2
    import numpy as np

    from nardy.synth import Die, Hand, Scene, render

    (folder / "frames").mkdir(exist_ok=True)
    truths: list[dict[str, Any]] = []
    images: dict[int, Any] = {}
    rng = np.random.default_rng(seed)
    for i, shot in enumerate(shots):
        if shot.copy_of is not None:
            base, truth = images[shot.copy_of]
            noise = rng.normal(0, 2.0, base.shape)
            img = np.clip(base.astype(np.float32) + noise, 0, 255).astype(np.uint8)
        else:
            dice = tuple(
                Die(
                    d["value"],
                    d["where"],
                    d["at"],
                    turn=d["turn"],
                    flat=d["flat"],
                    lean=d.get("lean", 0.0),
                    lean_toward=d.get("lean_toward", 0.0),
                    rests_on=d.get("rests_on", ""),
                )
                for d in shot.dice
            )
            hand = (
                Hand(enters="bottom", reach=(-120.0, 40.0), holding="light") if shot.hand else None
            )
            scene = Scene(
                points=shot.position.points,
                bar=shot.position.bar,
                off=shot.position.off,
                dice=dice,
                hand=hand,
                size=SIZE,
                jpeg_quality=QUALITY,
            )
            img, truth = render(scene, seed=seed)
            images[i] = (img, truth)
        _, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, QUALITY])
        (folder / "frames" / f"{shot.ms:09d}.jpg").write_bytes(buf.tobytes())
        truths.append((shot.ms, truth))
    return truths


def frame_truth_lines(shots: list[Shot], truths: list[tuple[int, dict[str, Any]]]) -> list[str]:
    """What each frame shows, and whether the board was still (the same as the frame before)."""
    out = []
    previous = None
    for (ms, truth), shot in zip(truths, shots, strict=True):
        obs = {k: truth[k] for k in ("usable", "points", "bar", "off", "dice", "cube")}
        if "why" in truth:
            obs["why"] = truth["why"]
        key = (obs["usable"], tuple(obs["points"]), tuple(obs["bar"]))
        still = obs["usable"] and previous == key
        previous = key
        out.append(json.dumps({"ms": ms, "observation": obs, "still": still}))
        del shot
    return out


def plain_truth(shots: list[Shot]) -> list[tuple[int, dict[str, Any]]]:
    """The frames' truth without rendering (``--no-frames``)."""
    out = []
    for shot in shots:
        out.append(
            (
                shot.ms,
                {
                    "usable": not shot.hand,
                    "points": list(shot.position.points),
                    "bar": list(shot.position.bar),
                    "off": list(shot.position.off),
                    "dice": [
                        {"value": d["value"], "flat": d["flat"], "where": d["where"]}
                        for d in shot.dice
                    ],
                    "cube": None,
                    **({"why": "hand"} if shot.hand else {}),
                },
            )
        )
    return out


def make(spec: Spec, out: Path, frames: str) -> None:
    """``frames``: ``render``, ``none`` (empty stand-ins named like frames, for --truth-frames
    replays) or ``keep`` (the frames already rendered there, when the script still shows them)."""
    folder = out / spec.name
    keep = frames == "keep" and (folder / "frames_truth.jsonl").is_file()
    if folder.exists() and not keep:
        shutil.rmtree(folder)
    folder.mkdir(parents=True, exist_ok=True)
    rec = Recorder(spec.name, spec.setup, spec.seed)
    spec.make(rec)
    setup = dict(spec.setup)
    if rec.cup:
        (folder / "cup.log").write_text("\n".join(rec.cup) + "\n")
    (folder / "actions.jsonl").write_text(
        "".join(json.dumps(a, separators=(",", ":")) + "\n" for a in rec.actions)
    )
    if rec.shots:
        if keep:
            old = (folder / "frames_truth.jsonl").read_text().splitlines()
            if [json.loads(line)["ms"] for line in old] != [s.ms for s in rec.shots]:
                raise SystemExit(f"{spec.name}: the script shows other frames now: render again")
            setup["corners"] = json.loads((folder / "session.json").read_text()).get("corners")
        elif frames == "render":
            truths = render_frames(folder, rec.shots, spec.seed)
            setup["corners"] = truths[0][1].get("corners")
        else:
            truths = plain_truth(rec.shots)
            (folder / "frames").mkdir()
            for shot in rec.shots:
                (folder / "frames" / f"{shot.ms:09d}.jpg").write_bytes(b"")
        if not keep:
            lines = frame_truth_lines(rec.shots, truths)
            (folder / "frames_truth.jsonl").write_text("\n".join(lines) + "\n")
    (folder / "session.json").write_text(json.dumps(setup, indent=1) + "\n")
    truth = {"session": spec.name, "notes": rec.notes, "games": rec.games, **score(spec, rec.games)}
    (folder / "truth.json").write_text(json.dumps(truth, indent=1) + "\n")
    turns = sum(sum("turn" in e for e in g["entries"]) for g in rec.games)
    print(
        f"{spec.name}: {len(rec.games)} game(s), {turns} turns, {len(rec.shots)} frames, "
        f"{rec.t / 1000:.0f} s"
    )


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("out", nargs="?", type=Path, default=OUT)
    p.add_argument("--only", action="append")
    p.add_argument("--frames", choices=("render", "none", "keep"), default="render")
    args = p.parse_args()
    for spec in SPECS:
        if args.only and spec.name not in args.only:
            continue
        make(spec, args.out, args.frames)


if __name__ == "__main__":
    main()
