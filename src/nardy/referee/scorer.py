"""The cube, the end of a game and the match or money session of one table.

A thin keeper around the rules engine's values (``nardy.rules.cube``, ``result``, ``match``):
it holds the cube of the game in play and the match (or money session), turns a refused
transition into a reason the dashboard shows, and writes the score in the record's JSON form.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import Any

from nardy.referee.rules_port import VariantLike, option
from nardy.referee.setup import TableSetup
from nardy.rules.cube import Cube, CubeRules
from nardy.rules.errors import RulesError
from nardy.rules.match import Match, MoneySession
from nardy.rules.position import Position, Side
from nardy.rules.result import GameResult, extra_turn_due, game_result, resign


def _num(x: int | Fraction | Decimal) -> int | float:
    if isinstance(x, int):
        return x
    return int(x) if x == int(x) else float(x)


class Scorer:
    def __init__(self, variant: VariantLike, setup: TableSetup) -> None:
        self.variant = variant
        self.rules = CubeRules.from_options(variant.options, money=setup.money)
        self.match: Match | None = None
        self.money: MoneySession | None = None
        if setup.match_to is not None:
            crawford = bool(option(variant, "crawford", False))
            self.match = Match(setup.match_to, crawford_rule=crawford)
        else:
            self.money = MoneySession(Decimal(str(setup.stake or 0)), setup.currency or "")
        self.cube = self.fresh_cube()

    def fresh_cube(self) -> Cube:
        if self.match is not None:
            return self.match.cube_for_game(self.rules)
        return MoneySession.cube_for_game(self.rules)

    @property
    def over(self) -> bool:
        return self.match is not None and self.match.over

    # -- the cube -----------------------------------------------------------------------------

    def offer(self, side: Side) -> str | None:
        why = self.cube.why_not_offer(side)
        if why is None:
            self.cube = self.cube.offer(side)
        return why

    def answer(self, side: Side, kind: str) -> GameResult | str | None:
        """``take``/``beaver``/``drop`` by ``side``: a refusal, the game's result, or None."""
        if self.cube.offered_by is None or side is not self.cube.offered_by.other:
            return "no cube offered to this player"
        try:
            if kind == "take":
                self.cube = self.cube.take()
            elif kind == "beaver":
                self.cube = self.cube.beaver()
            else:
                return self.cube.drop()
        except RulesError as e:
            return str(e)
        return None

    @property
    def offered_value(self) -> int:
        return self.rules.next_value(self.cube.value)

    # -- the end of a game --------------------------------------------------------------------

    def board_result(
        self, pos: Position, starter: Side | None, extra_turn_played: bool
    ) -> tuple[GameResult | None, Side | None]:
        """The result on the board, or (None, the side owed the long-nardy draw turn)."""
        result = game_result(
            self.variant, pos, starter=starter, extra_turn_played=extra_turn_played
        )
        if result is not None:
            return result, None
        if any(pos.off[s] >= self.variant.checkers for s in Side):
            return None, extra_turn_due(self.variant, pos, starter=starter)
        return None, None

    def resign(self, resigner: Side, level: int) -> GameResult | str:
        try:
            return resign(self.variant, resigner, level)
        except RulesError as e:
            return str(e)

    def finish(self, result: GameResult) -> dict[str, Any]:
        """Score the game; returns the result's record form. A fresh cube for the next game."""
        points = self.cube.points(result)
        if self.match is not None:
            self.match = self.match.after_game(result, self.cube)
        else:
            assert self.money is not None
            self.money = self.money.after_game(result, self.cube)
        out = {
            "winner": None if result.winner is None else str(result.winner),
            "kind": result.kind.value,
            "ending": result.ending.value,
            "multiplier": result.multiplier,
            "cube": self.cube.value,
            "points": _num(points),
        }
        self.cube = self.fresh_cube()
        return out

    # -- the score ----------------------------------------------------------------------------

    def score(self) -> dict[str, Any]:
        if self.match is not None:
            m = self.match
            return {
                "match_to": m.length,
                "light": _num(m.score[0]),
                "dark": _num(m.score[1]),
                "crawford": m.crawford_game,
                "post_crawford": m.post_crawford,
                "winner": None if m.winner is None else str(m.winner),
            }
        assert self.money is not None
        s = self.money
        return {
            "stake": _num(s.stake),
            "currency": s.currency or None,
            "games": [
                {
                    "game": e.game.number,
                    "winner": None if e.game.result.winner is None else str(e.game.result.winner),
                    "points": _num(e.game.points),
                    "amount_to_light": _num(e.amount),
                    "balance_light": _num(e.balance),
                }
                for e in s.entries
            ],
            "balance": {"light": _num(s.balance), "dark": _num(-s.balance)},
        }
