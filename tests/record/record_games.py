"""Random but legal games of the backgammon family, made with GNU Backgammon's move generator
(``gnubg_nn``) and written as records: the material for the export tests.

The positions after each turn come from gnubg's own result of the move (its position key), not
from the record's step arithmetic, so reading a generated record back checks that arithmetic.
"""

from __future__ import annotations

import random

import gnubg_nn

from nardy.record import (
    CubeAction,
    CubeKind,
    Ending,
    Flag,
    Game,
    Header,
    Opening,
    PlayedTurn,
    Record,
    Resignation,
    Resolution,
    Result,
    Step,
    VoidThrow,
    WinKind,
    apply_steps,
)
from nardy.record.steps import step_notation as notation
from nardy.rules.position import Numbering, Position, Side
from nardy.rules.result import kind_of_win, scoring_table
from nardy.rules.variant import get_variant

STARTS = {
    "backgammon": {24: 2, 13: 5, 8: 3, 6: 5},
    "caucasian": {24: 2, 13: 5, 8: 3, 6: 5},
    "oin_mars": {24: 2, 13: 5, 8: 3, 6: 5},
    "nackgammon": {24: 2, 23: 2, 13: 4, 8: 3, 6: 4},
    "hypergammon": {24: 1, 23: 1, 22: 1},
}


def start_position(variant: str) -> Position:
    own, theirs = [0] * 26, [0] * 26
    for p, n in STARTS[variant].items():
        own[p] = n
        theirs[25 - p] = n
    return Position.from_view(Side.LIGHT, Numbering.OPPOSED, own, theirs)


def gnubg_board(pos: Position, side: Side) -> list[list[int]]:
    """``[opponent, mover]``, each 25 counts from its own side, index 24 the bar."""
    own, theirs = pos.view(side, Numbering.OPPOSED)
    mover = [*own[1:25], own[25]]
    opponent = [theirs[24 - i] for i in range(24)] + [theirs[25]]
    return [opponent, mover]


def from_gnubg_board(board, side: Side, total: int) -> Position:
    opponent, mover = board
    own = [0] * 26
    theirs = [0] * 26
    own[1:25] = mover[:24]
    own[25] = mover[24]
    own[0] = total - sum(mover)
    for i in range(24):
        theirs[24 - i] = opponent[i]
    theirs[25] = opponent[24]
    theirs[0] = total - sum(opponent)
    return Position.from_view(side, Numbering.OPPOSED, own, theirs)


def _steps(pairs, dice: tuple[int, int], opponent: list[int]) -> tuple[Step, ...]:
    left = [dice[0]] * 4 if dice[0] == dice[1] else list(dice)
    dies: list[int | None] = [None] * len(pairs)
    for k, (a, b) in enumerate(pairs):
        if b != 0:
            dies[k] = a - b
            left.remove(a - b)
    for k, (a, b) in enumerate(pairs):
        if b == 0:
            die = a if a in left else min(d for d in left if d > a)
            dies[k] = die
            left.remove(die)
    opp = list(opponent)
    steps = []
    for (a, b), die in zip(pairs, dies, strict=True):
        hit = False
        if b != 0 and opp[24 - b] == 1:  # our point b is the opponent's 25 - b
            hit = True
            opp[24 - b] = 0
        steps.append(Step(a, b, die, hit))
    return tuple(steps)


def result_kind(variant: str, pos: Position, winner: Side) -> tuple[WinKind, int]:
    """The kind of win and its multiplier, as the rules engine counts them for ``variant``."""
    v = get_variant(variant)
    kind = kind_of_win(v, pos, winner)
    return kind, scoring_table(v)[kind]


class _GameMaker:
    def __init__(self, rng: random.Random, header: Header, number: int, score, crawford: bool):
        self.rng, self.h, self.number, self.score, self.crawford = (
            rng,
            header,
            number,
            score,
            crawford,
        )

    def cube_allowed(self) -> bool:
        if not self.h.cube or self.crawford:
            return False
        n = self.h.match_to
        return n is None or max(self.score) < n  # post-Crawford doubles are allowed

    def play(self, cube_rate: float, resign_rate: float, foul_rate: float = 0) -> Game:
        rng, h = self.rng, self.h
        pos = start_position(h.variant)
        total = pos.checkers(Side.LIGHT)
        while True:
            rolls = [(rng.randint(1, 6), rng.randint(1, 6))]
            if rolls[-1][0] != rolls[-1][1]:
                break
        while rolls[-1][0] == rolls[-1][1]:
            rolls.append((rng.randint(1, 6), rng.randint(1, 6)))
        opening = Opening(tuple(rolls))
        side = opening.starter
        assert side is not None
        dice = rolls[-1] if side is Side.LIGHT else (rolls[-1][1], rolls[-1][0])
        start, entries = pos, []
        cube, owner, turned = 1, None, False
        first = True
        while True:
            if not first:
                # Cube and resignation decisions come before the throw.
                limit = h.cube_limit or 64
                if (
                    self.cube_allowed()
                    and owner in (None, side)
                    and cube * 2 <= limit
                    and rng.random() < cube_rate
                    and not self._pointless_double(side, cube)
                ):
                    entries.append(CubeAction(side, CubeKind.DOUBLE, cube * 2))
                    r = rng.random()
                    if h.beaver and h.money and r < 0.15 and cube * 4 <= limit:
                        entries.append(CubeAction(side.other, CubeKind.BEAVER, cube * 4))
                        cube, owner, turned = cube * 4, side.other, True
                    elif r < 0.75:
                        entries.append(CubeAction(side.other, CubeKind.TAKE, cube * 2))
                        cube, owner, turned = cube * 2, side.other, True
                    else:
                        entries.append(CubeAction(side.other, CubeKind.DROP, cube))
                        res = Result(side, WinKind.OIN, Ending.DROPPED, cube, cube)
                        return self._game(start, entries, res, opening)
                if rng.random() < resign_rate:
                    offered = rng.choice([1, 1, 2])
                    accepted = rng.random() < 0.6
                    entries.append(Resignation(side, offered, accepted))
                    if accepted:
                        mult = offered
                        if h.money and h.jacoby and not turned:
                            mult = 1
                        kind = [WinKind.OIN, WinKind.MARS, WinKind.BACKGAMMON][offered - 1]
                        res = Result(side.other, kind, Ending.RESIGNED, cube, mult * cube, offered)
                        return self._game(start, entries, res, opening)
                dice = (rng.randint(1, 6), rng.randint(1, 6))
            first = False
            board = gnubg_board(pos, side)
            found = gnubg_nn.moves(board, dice[0], dice[1], 1)
            if found:
                key, pairs = rng.choice(found)
                steps = _steps(pairs, dice, board[0])
                after = from_gnubg_board(gnubg_nn.boardfromkey(key), side, total)
            else:
                steps, after = (), pos
            flags: tuple[Flag, ...] = ()
            if len(steps) >= 2 and rng.random() < foul_rate:
                # A foul the opponent lets stand: the last die left unplayed.
                steps = steps[:-1]
                after = apply_steps(pos, side, steps, Numbering.OPPOSED)
                flags = (
                    Flag("the whole throw must be played", Resolution.ACCEPTED, by=side.other),
                )
            entries.append(PlayedTurn(side, dice, steps, notation(steps), after, flags))
            pos = after
            if pos.off[side] == total:
                kind, base = result_kind(h.variant, pos, side)
                mult = 1 if h.money and h.jacoby and not turned else base
                res = Result(side, kind, Ending.BORNE_OFF, cube, mult * cube, base)
                return self._game(start, entries, res, opening)
            side = side.other

    def _pointless_double(self, side: Side, cube: int) -> bool:
        # Dead cube: in a match, a player already sure to win the match with the current
        # stake has no reason to double (gnubg accepts it anyway; keep games plausible).
        n = self.h.match_to
        return n is not None and self.score[side] + cube >= n

    def _game(self, start, entries, result, opening) -> Game:
        return Game(self.number, self.score, start, tuple(entries), result, self.crawford, opening)


def make_record(
    seed: int,
    variant: str = "backgammon",
    match_to: int | None = 3,
    games: int = 3,
    cube_rate: float = 0.08,
    resign_rate: float = 0.01,
    foul_rate: float = 0,
    **header_options,
) -> Record:
    """A whole match to ``match_to`` (or ``games`` money games when ``match_to`` is None)."""
    rng = random.Random(seed)
    header_options.setdefault("crawford", match_to is not None)
    header = Header(
        variant=variant,
        players=("Light Player", "Dark Player"),
        match_to=match_to,
        stake=None if match_to else 5,
        currency=None if match_to else "EUR",
        date="2026-11-29",
        place="Club test",
        **header_options,
    )
    played: list[Game] = []
    score = (0, 0)
    crawford_done = False
    while True:
        if match_to is None and len(played) >= games:
            break
        if match_to is not None and max(score) >= match_to:
            break
        crawford = bool(
            match_to
            and header.crawford
            and match_to > 1
            and max(score) == match_to - 1
            and not crawford_done
        )
        crawford_done = crawford_done or crawford
        game = _GameMaker(rng, header, len(played) + 1, score, crawford).play(
            cube_rate, resign_rate, foul_rate
        )
        played.append(game)
        r = game.result
        assert r is not None and r.winner is not None
        score = (
            (score[0] + r.points, score[1])
            if r.winner is Side.LIGHT
            else (score[0], score[1] + r.points)
        )
    return Record(header, tuple(played))


def long_nardy_start() -> Position:
    points = [0] * 24
    points[23] = 15  # light's head, its point 24
    points[11] = -15  # dark's head: its point 24 is light's 12
    return Position(tuple(points))


def long_nardy_record() -> Record:
    """A short long-nardy session: one turn each, a condoned foul, a replay, a correction."""
    start = long_nardy_start()
    p1 = Position(
        tuple(15 - 1 if i == 23 else 1 if i == 12 else -15 if i == 11 else 0 for i in range(24))
    )
    # Dark's 24/21/20: its point 20 is light's 8.
    p2 = Position(tuple({23: 14, 12: 1, 11: -14, 7: -1}.get(i, 0) for i in range(24)))
    # Light moves two from the head with 2-1 (a foul the opponent condoned).
    p3 = Position(tuple({23: 12, 21: 1, 22: 1, 12: 1, 11: -14, 7: -1}.get(i, 0) for i in range(24)))
    turns = (
        PlayedTurn(
            Side.LIGHT,
            (6, 5),
            (Step(24, 18, 6), Step(18, 13, 5)),
            "24/13",
            p1,
            (Flag("two checkers left the head", Resolution.REPLAYED, by=Side.DARK),),
            (VoidThrow((6, 0), "a die cocked against the rim"),),
        ),
        PlayedTurn(Side.DARK, (3, 1), (Step(24, 21, 3), Step(21, 20, 1)), "24/20", p2),
        PlayedTurn(
            Side.LIGHT,
            (2, 1),
            (Step(24, 22, 2), Step(24, 23, 1)),
            "24/22 24/23",
            p3,
            (Flag("two checkers left the head", Resolution.CONDONED),),
        ),
    )
    header = Header(
        "long",
        ("Ann", "Boris"),
        stake=2.5,
        currency="UAH",
        options={"home_mars": 2, "opening_uses_both_dice": False},
    )
    game = Game(1, (0, 0), start, turns, None, False, Opening(((4, 2),)))
    return Record(header, (game,))


def referee_tables() -> list:
    """Tables the referee itself played, on its stand-in rules (``tests/referee``): a money game
    with a cube taken and dropped and an illegal play replayed."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "referee"))
    from referee_feeder import LEGAL, SETUP, session
    from referee_stand_in import rules

    from nardy.referee.table import fold

    return [fold(SETUP, session(), rules(LEGAL))]


def referee_records() -> list[Record]:
    from nardy.referee.export import record_of

    return [record_of(t) for t in referee_tables()]


def essentials(record: Record, *, variant: bool = True) -> tuple:
    """What a .mat holds of a record, in a form that compares: the header's rules, and per game
    the score, the Crawford flag, each turn's side, dice, steps (in any order) and position after,
    the cube actions, accepted resignations and the result. ``variant`` False leaves out the
    variant's name (a file written by gnubg calls caucasian "backgammon")."""
    h = record.header
    head = (h.variant if variant else None, h.players, h.match_to, h.jacoby, h.beaver)
    games = []
    for g in record.games:
        entries = []
        for e in g.entries:
            if isinstance(e, PlayedTurn):
                steps = tuple(sorted((s.start, s.end, s.die, s.hit) for s in e.steps))
                entries.append(("turn", e.side, tuple(sorted(e.dice)), steps, e.after))
            elif isinstance(e, CubeAction):
                entries.append(("cube", e.kind, e.side, e.value))
            elif e.accepted:
                entries.append(("resign", e.side, e.points))
        r = g.result
        result = (r.winner, r.kind, r.ending, r.cube, r.points, r.multiplier)
        games.append((g.number, g.score, g.crawford, g.start, tuple(entries), result))
    return head, tuple(games)
