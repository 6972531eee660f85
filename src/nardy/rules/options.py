"""The settings of a variant that ``RULES.md`` names (where the sources disagree)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from nardy.rules.errors import RulesError

#: The allowed values of the options that are not plain booleans.
CHOICES: dict[str, tuple[Any, ...]] = {
    "first_turn_two_from_head": ("when_blocked", "any_double", "always"),
    "block_rule": ("opponent_ahead", "opponent_in_home"),
    "block_rule_timing": ("end_of_turn", "every_move"),
    "home_mars": (2, 3),
    "cube_progression": ("geometric", "arithmetic"),
}

#: Options that only mean something in long nardy.
LONG_ONLY = frozenset(
    {
        "larger_die_rule",
        "opening_uses_both_dice",
        "winner_starts_next",
        "first_turn_two_from_head",
        "block_rule",
        "block_rule_timing",
        "home_mars",
        "koks",
        "draw_rule",
    }
)


@dataclass(frozen=True, slots=True)
class Options:
    """A variant's options. A field that does not apply to a family keeps its default there."""

    #: When either die can be played but not both, the larger must be (long: one source lets the
    #: player choose).
    larger_die_rule: bool = True
    #: Long nardy: the starter plays the two opening dice (else rolls both afresh).
    opening_uses_both_dice: bool = True
    #: The winner of a game starts the next one.
    winner_starts_next: bool = False
    #: Long nardy: when a second checker may leave the head on a player's first turn.
    first_turn_two_from_head: str = "when_blocked"
    #: Long nardy: a fence of six is allowed once an opposing checker is ahead of it, or once
    #: one has entered its home.
    block_rule: str = "opponent_ahead"
    #: Long nardy: the block rule judges the position a turn ends in, or every single move.
    block_rule_timing: str = "end_of_turn"
    #: Long nardy: what a home mars pays.
    home_mars: int = 2
    #: Long nardy: "koks" (named, undefined in the sources).
    koks: bool = False
    #: Long nardy: the second player's last turn can draw the game.
    draw_rule: bool = False
    #: Gammons (mars) count when the cube is in play (international) or not (Russian practice).
    mars_with_cube: bool = True
    cube_progression: str = "geometric"
    crawford: bool = False
    jacoby: bool = False
    beavers: bool = False

    def changed(self, family: str, **values: Any) -> Options:
        """A copy with ``values`` set, each checked for its name, family and value."""
        names = {f.name for f in dataclasses.fields(self)}
        for key, value in values.items():
            if key not in names:
                raise RulesError(f"unknown option {key!r}; options are: {', '.join(sorted(names))}")
            if family != "long" and key in LONG_ONLY:
                raise RulesError(f"option {key!r} applies to long nardy only")
            if key in CHOICES:
                if isinstance(value, bool) or value not in CHOICES[key]:
                    allowed = " or ".join(repr(c) for c in CHOICES[key])
                    raise RulesError(f"option {key!r} is {allowed}, not {value!r}")
            elif not isinstance(value, bool):
                raise RulesError(f"option {key!r} is true or false, not {value!r}")
        return dataclasses.replace(self, **values)

    def as_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)
