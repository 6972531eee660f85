"""The end of a game: who won, the kind of win and what it is worth under the variant's table.

The Scoring table of ``RULES.md``:

====================  ==============  =============  ===================================
result                international   oin–mars       long nardy
====================  ==============  =============  ===================================
oin (single)          1               1              1
mars (gammon)         2               2              2
backgammon            3               —              —
home mars             2 (as mars)     2              option ``home_mars``: 2 or 3
koks                  —               —              option, undefined: refused
draw                  —               —              option ``draw_rule``: half each
====================  ==============  =============  ===================================

A :class:`GameResult` carries the table's multiplier only; the cube (``nardy.rules.cube``) turns
it into points, and a match or money session (``nardy.rules.match``) keeps them.

**The long-nardy draw.** With ``draw_rule`` on, the game is not over when the player who started
bears off the last checker: the other player gets one more turn, and bearing off every remaining
checker in it draws the game. The position alone cannot tell whether that turn was played, so the
referee says who started (``starter``) and, after the extra turn, ``extra_turn_played=True``::

    due = extra_turn_due(variant, pos, starter=starter)   # the side owed a turn, or None
    result = game_result(variant, pos, starter=starter, extra_turn_played=played)

:func:`game_result` returns ``None`` while the game goes on, including while the extra turn is
owed.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any, Protocol

from nardy.rules.errors import ResignationError, RulesError, UndefinedRuleError
from nardy.rules.position import Numbering, Position, Side


class ScoringVariant(Protocol):
    """What scoring reads of a variant (``nardy.rules.variant.Variant`` has all of it)."""

    @property
    def name(self) -> str: ...
    @property
    def family(self) -> str: ...  # "short" | "long"
    @property
    def checkers(self) -> int: ...
    @property
    def numbering(self) -> Numbering: ...
    @property
    def options(self) -> Any: ...  # reads home_mars, koks, draw_rule


class WinKind(enum.Enum):
    """How a game ended, in the game's words (gnubg's words in the comments)."""

    OIN = "oin"  # single game: the loser bore off at least one checker
    MARS = "mars"  # gammon: the loser bore off none
    HOME_MARS = "home_mars"  # the loser bore off none but has every checker in home
    BACKGAMMON = "backgammon"  # mars with a loser's checker on the bar or in the winner's home
    DRAW = "draw"  # long nardy, draw_rule on: both sides bore off everything


class Ending(enum.Enum):
    """What ended the game."""

    BORNE_OFF = "borne_off"
    RESIGNED = "resigned"
    DROPPED = "dropped"  # the cube was refused


@dataclass(frozen=True, slots=True)
class GameResult:
    """The end of one game. ``winner`` is ``None`` only for a draw.

    ``multiplier`` is the row of the variant's scoring table (1, 2 or 3; a draw has 1 and each
    side gets half of it); the cube multiplies it, see ``Cube.points``.
    """

    winner: Side | None
    kind: WinKind
    multiplier: int
    ending: Ending = Ending.BORNE_OFF

    @property
    def loser(self) -> Side | None:
        return None if self.winner is None else self.winner.other

    @property
    def is_draw(self) -> bool:
        return self.kind is WinKind.DRAW

    def __str__(self) -> str:
        if self.winner is None:
            return "draw"
        how = {Ending.RESIGNED: ", resigned", Ending.DROPPED: ", cube dropped"}.get(self.ending, "")
        return f"{self.winner} wins {self.kind.value.replace('_', ' ')} ({self.multiplier}{how})"


# -- the scoring table --------------------------------------------------------------------------


def counts_backgammon(variant: ScoringVariant) -> bool:
    """International short nardy pays 3 for a backgammon; oin–mars and long nardy do not."""
    return variant.family == "short" and variant.name != "oin_mars"


def scoring_table(variant: ScoringVariant) -> dict[WinKind, int]:
    """The kinds of win the variant knows, with their multipliers (what the dashboard shows)."""
    _refuse_koks(variant)
    table = {WinKind.OIN: 1, WinKind.MARS: 2, WinKind.HOME_MARS: 2}
    if counts_backgammon(variant):
        table[WinKind.BACKGAMMON] = 3
    if variant.family == "long":
        table[WinKind.HOME_MARS] = _home_mars(variant)
        if _draw_rule(variant):
            table[WinKind.DRAW] = 1
    return table


def kind_of_win(variant: ScoringVariant, position: Position, winner: Side) -> WinKind:
    """The kind of win for ``winner`` in ``position`` (the loser's checkers decide it)."""
    _refuse_koks(variant)
    loser = winner.other
    if position.off[loser] > 0:
        return WinKind.OIN
    n = variant.numbering
    if position.bar[loser] == 0 and all(position.at(loser, p, n) == 0 for p in range(7, 25)):
        return WinKind.HOME_MARS
    if counts_backgammon(variant) and (
        position.bar[loser] > 0 or any(position.at(loser, p, n) for p in range(19, 25))
    ):
        return WinKind.BACKGAMMON
    return WinKind.MARS


def win(variant: ScoringVariant, position: Position, winner: Side) -> GameResult:
    """The result of ``winner`` having borne off every checker in ``position``."""
    kind = kind_of_win(variant, position, winner)
    return GameResult(winner, kind, scoring_table(variant)[kind])


# -- the end of a game --------------------------------------------------------------------------


def extra_turn_due(
    variant: ScoringVariant, position: Position, *, starter: Side | None
) -> Side | None:
    """The side owed one more turn by the long-nardy draw rule, or ``None``.

    It is owed when ``draw_rule`` is on and the player who started the game (``starter``) has
    borne off every checker while the other has not.
    """
    if not _draw_rule(variant):
        return None
    if starter is None:
        raise RulesError("the draw rule needs to know which player started the game")
    done = _finished(variant, position)
    if done == {starter}:
        return starter.other
    return None


def game_result(
    variant: ScoringVariant,
    position: Position,
    *,
    starter: Side | None = None,
    extra_turn_played: bool = False,
) -> GameResult | None:
    """The result once a side has borne off every checker; ``None`` while the game goes on.

    ``starter`` (who rolled first this game) and ``extra_turn_played`` matter only with the
    long-nardy draw rule (see the module's docstring); other variants ignore them.
    """
    done = _finished(variant, position)
    if not done:
        return None
    if len(done) == 2:
        if not _draw_rule(variant):
            raise RulesError("both sides have borne off every checker: only one can finish")
        return GameResult(None, WinKind.DRAW, 1)
    (finisher,) = done
    if extra_turn_due(variant, position, starter=starter) is not None and not extra_turn_played:
        return None
    return win(variant, position, finisher)


# -- resignations -------------------------------------------------------------------------------


def max_resignation(variant: ScoringVariant) -> int:
    """The most a resignation can concede: the variant's largest multiplier (2 or 3)."""
    return max(m for k, m in scoring_table(variant).items() if k is not WinKind.DRAW)


def resign(variant: ScoringVariant, resigner: Side, points: int) -> GameResult:
    """The result of ``resigner`` conceding ``points`` (1, 2 or 3) and the opponent accepting.

    One point is an oin, two a mars; three is a backgammon in international short nardy and a
    home mars in long nardy with ``home_mars`` 3. Where the table has no 3 (oin–mars, long nardy
    with ``home_mars`` 2) a three-point resignation is refused.
    """
    top = max_resignation(variant)
    if points not in (1, 2, 3):
        raise ResignationError(f"a resignation concedes 1, 2 or 3 points, not {points}")
    if points > top:
        raise ResignationError(
            f"{variant.name} pays at most {top} points a game: "
            f"a resignation of {points} cannot be offered"
        )
    kind = {1: WinKind.OIN, 2: WinKind.MARS}.get(points)
    if kind is None:
        kind = WinKind.BACKGAMMON if counts_backgammon(variant) else WinKind.HOME_MARS
    return GameResult(resigner.other, kind, points, Ending.RESIGNED)


def dropped(doubler: Side) -> GameResult:
    """The result of a refused cube: the doubler wins a single game at the cube's old value."""
    return GameResult(doubler, WinKind.OIN, 1, Ending.DROPPED)


# -- helpers ------------------------------------------------------------------------------------


def _finished(variant: ScoringVariant, position: Position) -> set[Side]:
    return {s for s in Side if position.off[s] >= variant.checkers}


def _draw_rule(variant: ScoringVariant) -> bool:
    return variant.family == "long" and bool(getattr(variant.options, "draw_rule", False))


def _home_mars(variant: ScoringVariant) -> int:
    value = int(getattr(variant.options, "home_mars", 2))
    if value not in (2, 3):
        raise RulesError(f"home_mars pays 2 or 3, not {value}")
    return value


def _refuse_koks(variant: ScoringVariant) -> None:
    if getattr(variant.options, "koks", False):
        raise UndefinedRuleError(
            "koks is named in the sources but never defined: turn the option off to score games"
        )
