"""A match to N points and a money session, as frozen values stepped by ``after_game``.

A match records the real points of every game (a 4-point win at 6-away still adds 4), and is
won on reaching N. The Crawford rule (an option, on by default here as in club play): no cube in
the first game after a player first reaches N−1; the games after it are post-Crawford.

A money session multiplies each game's points (result multiplier × cube value, see
``Cube.points``) by the stake per point and keeps a running ledger from light's side.

A long-nardy draw gives each side half the game's points: match scores are then halves
(``fractions.Fraction``); in a money session the halves cancel and the entry is zero.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from nardy.rules.cube import Cube, CubeRules
from nardy.rules.errors import MatchError
from nardy.rules.position import Side
from nardy.rules.result import GameResult

Points = int | Fraction


def _norm(x: Points) -> Points:
    """Whole numbers as ``int``, halves as ``Fraction``."""
    if isinstance(x, Fraction) and x.denominator == 1:
        return int(x)
    return x


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One finished game as a match or session keeps it."""

    number: int  # 1, 2, …
    result: GameResult
    cube_value: int
    points: Points  # to the winner; for a draw, to each side


# -- a match ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Match:
    """A match to ``length`` points. ``score`` is ``(light, dark)``.

    ``crawford_game`` says the game about to be played (or being played) is the Crawford game;
    ``crawford_done`` that it has been played, so the match is post-Crawford.
    """

    length: int
    score: tuple[Points, Points] = (0, 0)
    crawford_rule: bool = False  # the options default: off unless the club turns it on
    crawford_game: bool = False
    crawford_done: bool = False
    games: tuple[GameRecord, ...] = ()

    def __post_init__(self) -> None:
        if self.length < 1:
            raise MatchError(f"a match is played to at least 1 point, not {self.length}")

    @property
    def over(self) -> bool:
        return max(self.score) >= self.length

    @property
    def winner(self) -> Side | None:
        for side in Side:
            if self.score[side] >= self.length:
                return side
        return None

    def away(self, side: Side) -> Points:
        """How many points ``side`` still needs."""
        return _norm(max(Fraction(0), self.length - Fraction(self.score[side])))

    @property
    def post_crawford(self) -> bool:
        return self.crawford_done and not self.over

    def cube_for_game(self, rules: CubeRules) -> Cube:
        """A fresh cube for the next game: none in the Crawford game."""
        if self.crawford_game:
            return Cube.disabled(rules, crawford=True)
        return Cube(rules)

    def after_game(self, result: GameResult, cube: Cube) -> Match:
        """The match after ``result`` scored with ``cube`` (``cube.points(result)``)."""
        if self.over:
            raise MatchError(f"the match is over: {self.winner} has won")
        points = cube.points(result)
        score = list(self.score)
        for side in Side:
            if result.winner is side or result.winner is None:
                score[side] = _norm(Fraction(score[side]) + points)
        record = GameRecord(len(self.games) + 1, result, cube.value, _norm(points))
        crawford_done = self.crawford_done or self.crawford_game
        leader_reached = any(self.length - 1 <= s < self.length for s in score) and not any(
            self.length - 1 <= s for s in self.score
        )
        crawford_game = (
            self.crawford_rule and not crawford_done and leader_reached and max(score) < self.length
        )
        return Match(
            self.length,
            (score[0], score[1]),
            self.crawford_rule,
            crawford_game,
            crawford_done,
            (*self.games, record),
        )

    def __str__(self) -> str:
        tag = " (Crawford)" if self.crawford_game else ""
        return f"{self.score[0]}-{self.score[1]} to {self.length}{tag}"


# -- a money session ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class LedgerEntry:
    """One game of a money session, seen from light's side."""

    game: GameRecord
    amount: Decimal  # what light won in this game (negative: light paid)
    balance: Decimal  # light's balance after it

    @property
    def points_to_light(self) -> Points:
        result = self.game.result
        if result.winner is None:
            return 0
        return self.game.points if result.winner is Side.LIGHT else -self.game.points


@dataclass(frozen=True, slots=True)
class MoneySession:
    """Games for ``stake`` (a ``Decimal``) per point in ``currency``, with a running ledger."""

    stake: Decimal
    currency: str = ""
    entries: tuple[LedgerEntry, ...] = ()

    def __post_init__(self) -> None:
        if not isinstance(self.stake, Decimal):
            object.__setattr__(self, "stake", Decimal(str(self.stake)))
        if self.stake < 0:
            raise MatchError(f"a stake per point cannot be negative ({self.stake})")

    @property
    def balance(self) -> Decimal:
        """Light's running balance; dark's is its negative."""
        return self.entries[-1].balance if self.entries else Decimal(0)

    def balance_of(self, side: Side) -> Decimal:
        return self.balance if side is Side.LIGHT else -self.balance

    @staticmethod
    def cube_for_game(rules: CubeRules) -> Cube:
        return Cube(rules)

    def after_game(self, result: GameResult, cube: Cube) -> MoneySession:
        points = _norm(cube.points(result))
        record = GameRecord(len(self.entries) + 1, result, cube.value, points)
        entry = LedgerEntry(record, Decimal(0), Decimal(0))
        to_light = entry.points_to_light
        amount = self.stake * Decimal(to_light.numerator) / Decimal(to_light.denominator)
        entry = LedgerEntry(record, amount, self.balance + amount)
        return MoneySession(self.stake, self.currency, (*self.entries, entry))

    def __str__(self) -> str:
        unit = f" {self.currency}" if self.currency else ""
        return f"{len(self.entries)} games, light {self.balance:+}{unit}"
