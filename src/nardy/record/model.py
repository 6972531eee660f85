"""The record of a match or money session: what was played, in order, and how it ended.

Values only, frozen: the referee builds a :class:`Record` as the table plays, ``nardy replay``
prints it, ``nardy export`` writes it as JSON, Jellyfish ``.mat`` or GNU Backgammon SGF. What can
be derived (the match score, the money ledger) is computed here, never stored twice.

Sides are light and dark; light is "player 1" of the exported files (the left column of a
``.mat``, White of an SGF). Steps are in the mover's own numbering: 1..24, 25 the bar, 0 off.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from nardy.rules.position import Numbering, Position, Side
from nardy.rules.result import Ending, WinKind
from nardy.rules.variant import VARIANTS

BAR = 25
OFF = 0


class RecordError(ValueError):
    """A record that is malformed or does not hold together; the message says where."""


class Resolution(enum.Enum):
    """How a flag on a turn was settled."""

    #: Not settled yet (a live table; nobody has answered).
    PENDING = "pending"
    #: The opponent accepted the play as it stands.
    ACCEPTED = "accepted"
    #: The opponent threw without answering, which accepts the play (``RULES.md``).
    CONDONED = "condoned"
    #: The opponent demanded a replay; the turn recorded is the play made afterwards.
    REPLAYED = "replayed"
    #: A person corrected the position the camera read; the recorded position is the corrected one.
    CORRECTED = "corrected"
    #: Two valid throws for one turn: the first stands.
    FIRST_THROW_STANDS = "first_throw_stands"
    #: The cup and the camera disagreed on a throw: the cup's values stand.
    CUP_STANDS = "cup_stands"


#: Resolutions after which a play that broke the rules stands in the record.
STANDS = frozenset({Resolution.ACCEPTED, Resolution.CONDONED, Resolution.PENDING})


class CubeKind(enum.Enum):
    DOUBLE = "double"
    TAKE = "take"
    DROP = "drop"
    BEAVER = "beaver"


@dataclass(frozen=True, slots=True)
class Step:
    """One checker moved by one die, in the mover's numbering (25 the bar, 0 off).

    ``die`` 0 is a step no die of the throw makes: part of a foul that was let stand.
    """

    start: int
    end: int
    die: int
    hit: bool = False


@dataclass(frozen=True, slots=True)
class Flag:
    """Something the referee flagged on a turn, in words a player understands, and its outcome.

    ``kind``: ``illegal`` (a foul), ``misread`` (the board could not be read as any play),
    ``dice_mismatch`` (cup and camera disagree), ``dispute`` (a second throw for a decided turn).
    """

    reason: str
    resolution: Resolution = Resolution.PENDING
    kind: str = "illegal"
    #: The legal plays nearest to what was seen, in GNU notation.
    nearest: tuple[str, ...] = ()
    #: Who settled it.
    by: Side | None = None
    note: str | None = None


@dataclass(frozen=True, slots=True)
class VoidThrow:
    """A throw that did not count (cocked, split, off the board, out of turn)."""

    values: tuple[int, ...]
    why: str


@dataclass(frozen=True, slots=True)
class PlayedTurn:
    """A throw and the play that stands for it. ``steps`` is empty when nothing could be played."""

    side: Side
    dice: tuple[int, int]
    steps: tuple[Step, ...]
    #: GNU Backgammon notation from the mover's side ("24/18 13/9", "bar/22*", "6/off(2)").
    notation: str
    after: Position
    flags: tuple[Flag, ...] = ()
    void_throws: tuple[VoidThrow, ...] = ()

    @property
    def corrected(self) -> bool:
        return any(f.resolution is Resolution.CORRECTED for f in self.flags)

    @property
    def foul_stands(self) -> bool:
        """A play flagged illegal that was let stand: it need not be legal, nor fit the dice."""
        return any(f.kind == "illegal" and f.resolution in STANDS for f in self.flags)


@dataclass(frozen=True, slots=True)
class CubeAction:
    """``value`` is the stake the action leaves: a double or beaver names the new value, a take
    accepts it, a drop leaves the value the game is lost at."""

    side: Side
    kind: CubeKind
    value: int


@dataclass(frozen=True, slots=True)
class Resignation:
    """``points`` is what the resigner offers before the cube: 1 single, 2 gammon, 3 backgammon."""

    side: Side
    points: int
    accepted: bool


Entry = PlayedTurn | CubeAction | Resignation


@dataclass(frozen=True, slots=True)
class Result:
    """``points`` won by ``winner``: the kind's ``multiplier`` (the variant's scoring table)
    times the ``cube``, as the session's rules count them (Jacoby, ``mars_with_cube``).

    A draw has no winner and scores ``points`` (a half) to each side.
    """

    winner: Side | None
    kind: WinKind
    ending: Ending
    cube: int
    points: float
    multiplier: int = 1


@dataclass(frozen=True, slots=True)
class Opening:
    """The opening throws, one die each, as ``(light, dark)``; ties included, the last decides."""

    rolls: tuple[tuple[int, int], ...]

    @property
    def starter(self) -> Side | None:
        if not self.rolls or self.rolls[-1][0] == self.rolls[-1][1]:
            return None
        light, dark = self.rolls[-1]
        return Side.LIGHT if light > dark else Side.DARK


@dataclass(frozen=True, slots=True)
class Game:
    """One game. ``score`` is ``(light, dark)`` before it; ``result`` is None while it runs."""

    number: int
    score: tuple[float, float]
    start: Position
    entries: tuple[Entry, ...]
    result: Result | None = None
    crawford: bool = False
    opening: Opening | None = None

    @property
    def turns(self) -> tuple[PlayedTurn, ...]:
        return tuple(e for e in self.entries if isinstance(e, PlayedTurn))

    def final_position(self) -> Position:
        turns = self.turns
        return turns[-1].after if turns else self.start


@dataclass(frozen=True, slots=True)
class Header:
    """What the players agreed before the first game.

    ``match_to`` None is a money session, played for ``stake`` per point in ``currency``.
    ``cube_limit`` None means the cube goes as high as the variant allows.
    """

    variant: str
    players: tuple[str, str]
    match_to: int | None = None
    stake: float | None = None
    currency: str | None = None
    options: Mapping[str, Any] = field(default_factory=dict)
    cube: bool = True
    crawford: bool = False
    jacoby: bool = False
    beaver: bool = False
    cube_limit: int | None = None
    #: ISO date and time of the first game ("2026-11-29", "14:05").
    date: str | None = None
    time: str | None = None
    event: str | None = None
    place: str | None = None

    def __post_init__(self) -> None:
        # A read-only view, so that a frozen header cannot be changed through its options.
        object.__setattr__(self, "options", MappingProxyType(dict(self.options)))

    @property
    def money(self) -> bool:
        return self.match_to is None

    def player(self, side: Side) -> str:
        return self.players[side]


@dataclass(frozen=True, slots=True)
class LedgerLine:
    """One game of a money session: what it paid and the running balance, from light's side."""

    game: int
    winner: Side | None
    points: float
    amount: float
    balance: float


@dataclass(frozen=True, slots=True)
class Record:
    header: Header
    games: tuple[Game, ...]

    def score(self) -> tuple[float, float]:
        """Points ``(light, dark)`` after every finished game."""
        if not self.games:
            return (0, 0)
        return score_after(self.games[-1])

    def match_winner(self) -> Side | None:
        n = self.header.match_to
        if n is None:
            return None
        light, dark = self.score()
        if light >= n:
            return Side.LIGHT
        if dark >= n:
            return Side.DARK
        return None

    def ledger(self) -> tuple[LedgerLine, ...]:
        """Money sessions: per finished game, points × stake, balance from light's side."""
        stake = self.header.stake or 0
        lines, balance = [], 0.0
        for g in self.games:
            r = g.result
            if r is None or r.winner is None:
                if r is not None:
                    lines.append(LedgerLine(g.number, None, r.points, 0, _tidy(balance)))
                continue
            amount = r.points * stake * (1 if r.winner is Side.LIGHT else -1)
            balance += amount
            lines.append(LedgerLine(g.number, r.winner, r.points, _tidy(amount), _tidy(balance)))
        return tuple(lines)


def score_after(game: Game) -> tuple[float, float]:
    """The score once ``game`` is over (its start score while it runs)."""
    light, dark = game.score
    r = game.result
    if r is None:
        return (light, dark)
    if r.winner is None:
        return (_tidy(light + r.points), _tidy(dark + r.points))
    if r.winner is Side.LIGHT:
        return (_tidy(light + r.points), dark)
    return (light, _tidy(dark + r.points))


def _tidy(x: float) -> float:
    """Whole numbers as ``int``, so that JSON says 3 rather than 3.0."""
    return int(x) if float(x).is_integer() else x


# -- the variants a record knows how to lay out --------------------------------------------------

#: Variants played on a backgammon board with hitting: exportable to .mat and SGF.
BACKGAMMON_FAMILY = frozenset(n for n, v in VARIANTS.items() if v.family == "short")


def numbering_of(variant: str) -> Numbering:
    """How the variant's sides count their points (from the rules' registry)."""
    try:
        return VARIANTS[variant].numbering
    except KeyError:
        raise RecordError(f"unknown variant {variant!r}; known: {', '.join(VARIANTS)}") from None


def apply_steps(
    position: Position, side: Side, steps: tuple[Step, ...], numbering: Numbering
) -> Position:
    """The position after ``side`` plays ``steps`` — as played, legal or not (a condoned foul
    stands). Raises :class:`RecordError` if a step moves a checker that is not there."""
    own, theirs = (list(v) for v in position.view(side, numbering))
    for s in steps:
        if own[s.start] <= 0:
            raise RecordError(f"step {step_notation((s,))}: no {side} checker on point {s.start}")
        own[s.start] -= 1
        own[s.end] += 1
        if s.end in (BAR, OFF):
            if s.end == BAR:
                raise RecordError(f"step {step_notation((s,))}: a checker cannot move to the bar")
            continue
        # The opponent's checkers on our point s.end; in opposed numbering they sit on its 25 - end.
        if theirs[s.end]:
            if not s.hit or theirs[s.end] != 1:
                raise RecordError(
                    f"step {step_notation((s,))}: point {s.end} holds {theirs[s.end]} opposing "
                    f"checker(s) and the step {'hits' if s.hit else 'does not hit'}"
                )
            theirs[s.end] = 0
            theirs[BAR] += 1
        elif s.hit:
            raise RecordError(f"step {step_notation((s,))}: a hit on {s.end}, which has no blot")
    return Position.from_view(side, numbering, own, theirs)


def step_notation(steps: tuple[Step, ...] | list[Step]) -> str:
    """GNU-style text of the steps, one a checker and die: ``bar/22* 13/7 6/off``."""

    def p(n: int) -> str:
        return "bar" if n == BAR else "off" if n == OFF else str(n)

    return " ".join(f"{p(s.start)}/{p(s.end)}{'*' if s.hit else ''}" for s in steps)
