"""What a finished game is worth, the cube's next value, and a match's Crawford state.

Small and pure; it reads the variant's options (``mars_with_cube``, ``jacoby``, ``home_mars``,
``cube_progression``) through :func:`nardy.referee.rules_port.option`.
"""

from __future__ import annotations

from dataclasses import dataclass

from nardy.referee.rules_port import VariantLike, option
from nardy.rules.position import Position, Side

KINDS = {1: "single", 2: "gammon", 3: "backgammon"}


def win_level(variant: VariantLike, pos: Position, winner: Side) -> tuple[str, int]:
    """The kind of win on the board and its multiplier (1 single, 2 gammon/mars, 3 backgammon)."""
    loser = winner.other
    if pos.off[loser] > 0:
        return "single", 1
    if variant.family == "long":
        own, _ = pos.view(loser, variant.numbering)
        if sum(own[1:7]) == variant.checkers:
            level = 3 if option(variant, "home_mars", 2) == 3 else 2
            return "home_mars", level
        return "gammon", 2
    if variant.name != "oin_mars":
        # The loser's checkers, seen from the winner's seat: any in the winner's home?
        _, theirs = pos.view(winner, variant.numbering)
        if pos.bar[loser] > 0 or sum(theirs[1:7]) > 0:
            return "backgammon", 3
    return "gammon", 2


def points_for(variant: VariantLike, level: int, cube: int, cube_turned: bool, money: bool) -> int:
    """Points won: the result's multiplier times the cube, under the cube options."""
    if cube_turned and not option(variant, "mars_with_cube", True):
        level = 1
    if money and not cube_turned and option(variant, "jacoby", False):
        level = 1
    return level * cube


def next_cube(variant: VariantLike, value: int) -> int:
    if option(variant, "cube_progression", "geometric") == "arithmetic":
        return value + 1
    return value * 2


@dataclass(frozen=True, slots=True)
class MatchState:
    """A match to ``length`` points: the score and where the Crawford rule stands."""

    length: int
    light: int = 0
    dark: int = 0
    crawford_game: bool = False  # the game now being played is the Crawford game
    crawford_done: bool = False  # the Crawford game has been played (post-Crawford)

    def score(self, side: Side) -> int:
        return self.light if side is Side.LIGHT else self.dark

    @property
    def winner(self) -> Side | None:
        if self.light >= self.length:
            return Side.LIGHT
        if self.dark >= self.length:
            return Side.DARK
        return None

    def after_game(self, winner: Side, points: int, crawford: bool = True) -> MatchState:
        light = self.light + (points if winner is Side.LIGHT else 0)
        dark = self.dark + (points if winner is Side.DARK else 0)
        done = self.crawford_done or self.crawford_game
        next_crawford = (
            crawford
            and not done
            and max(light, dark) == self.length - 1
            and min(light, dark) < self.length - 1
        )
        return MatchState(self.length, light, dark, next_crawford, done)
