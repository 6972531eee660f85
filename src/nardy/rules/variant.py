"""The variants of ``RULES.md`` as classes with hooks, and the one registry.

Like python-chess's variants, :class:`Variant` holds the rules every variant shares and each
subclass overrides a few documented hooks:

* class attributes ``name``, ``family`` ("short" or "long"), ``numbering``, ``checkers``,
  ``layout`` (the start, in each side's own numbering), ``closed_at`` (how many opposing checkers
  close a point), ``missing`` (what the sources leave undefined: never silently guessed);
* :meth:`Variant.turn_rules` — the rules of movement in force for one turn (the move generator
  and the judge both ask it);
* :meth:`Variant.generate` — the legal turns on the mover's view (long nardy adds the first-turn
  head exception here).

``get_variant(name, **options)`` makes one with its options checked.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import partial
from typing import Any, ClassVar

from nardy.rules.errors import (
    IllegalTurnError,
    InvalidPositionError,
    RulesError,
    UnknownVariantError,
)
from nardy.rules.movegen import EndCheck, Found, MoveRules, Search
from nardy.rules.options import Options
from nardy.rules.position import Numbering, Position, Side
from nardy.rules.turn import Step, Turn

View = tuple[int, ...]
#: Where a turn leaves the mover: its own view after the turn, and the mask of points it hit.
Place = tuple[View, int]


def _after(side: Side, numbering: Numbering, own: View, theirs: View, mask: int) -> Position:
    """The position a turn reaches, from the generator's output."""
    if mask:
        th = list(theirs)
        for p in range(1, 25):
            if mask >> p & 1:
                th[p] -= 1
                th[25] += 1
        theirs = tuple(th)
    return Position.from_view(side, numbering, own, theirs, trusted=True)


def check_dice(dice: Sequence[int]) -> tuple[int, int]:
    """Two dice, each 1 to 6, or ``RulesError``."""
    if len(dice) != 2:
        raise RulesError(f"a roll is two dice, not {len(dice)}")
    for d in dice:
        if isinstance(d, bool) or not isinstance(d, int) or not 1 <= d <= 6:
            raise RulesError(f"a die shows 1 to 6, not {d!r}")
    return (dice[0], dice[1])


class Variant:
    """A game of the backgammon family with its options. Immutable once made."""

    name: ClassVar[str] = "backgammon"
    title: ClassVar[str] = "International backgammon"
    family: ClassVar[str] = "short"
    numbering: ClassVar[Numbering] = Numbering.OPPOSED
    checkers: ClassVar[int] = 15
    #: The start: checkers on each side's own points.
    layout: ClassVar[dict[int, int] | None] = {24: 2, 13: 5, 8: 3, 6: 5}
    #: How many opposing checkers close a point (a single one is hit in short nardy).
    closed_at: ClassVar[int] = 2
    #: What the sources leave undefined for this variant, in words for the player.
    missing: ClassVar[tuple[str, ...]] = ()
    #: Option defaults that differ from :class:`Options`'s.
    defaults: ClassVar[dict[str, Any]] = {}

    def __init__(self, **options: Any) -> None:
        base = Options().changed("long", **self.defaults) if self.defaults else Options()
        self.options: Options = base.changed(self.family, **options)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r})"

    @property
    def complete(self) -> bool:
        """False when the sources leave part of the variant undefined (see ``missing``)."""
        return not self.missing

    # -- positions ------------------------------------------------------------------------------

    def start(self) -> Position:
        """The starting position."""
        if self.layout is None:
            raise RulesError(
                f"{self.name}: no starting position is defined — " + "; ".join(self.missing)
            )
        points = [0] * 24
        for p, n in self.layout.items():
            points[self.numbering.to_light(Side.LIGHT, p) - 1] += n
            points[self.numbering.to_light(Side.DARK, p) - 1] -= n
        return Position(tuple(points))

    def check_position(self, pos: Position) -> None:
        """Raise :class:`InvalidPositionError` if ``pos`` cannot arise in this variant."""
        for side in Side:
            n = pos.checkers(side)
            if n != self.checkers:
                raise InvalidPositionError(
                    f"{side} has {n} checkers; {self.name} is played with {self.checkers} a side"
                )
        if self.family == "long":
            if any(pos.bar):
                raise InvalidPositionError(
                    f"long nardy has no bar, yet {pos.bar[0]} light and {pos.bar[1]} dark "
                    "checkers stand on it"
                )
            for side in Side:
                if pos.off[side]:
                    own, _ = pos.view(side, self.numbering)
                    far = max((p for p in range(7, 25) if own[p]), default=0)
                    if far:
                        raise InvalidPositionError(
                            f"{side} has borne off {pos.off[side]} checkers but still has one on "
                            f"its point {far}, outside its home: bearing off starts only when "
                            "all are home"
                        )
        both_off = pos.off[0] == self.checkers and pos.off[1] == self.checkers
        if both_off and not (self.family == "long" and self.options.draw_rule):
            raise InvalidPositionError("both sides have borne off every checker")

    def winner(self, pos: Position) -> Side | None:
        """The side that has borne off every checker; None while the game goes on (or a draw)."""
        done = [side for side in Side if pos.off[side] >= self.checkers]
        return done[0] if len(done) == 1 else None

    # -- turns ----------------------------------------------------------------------------------

    def turn_rules(
        self, own: View, theirs: View, dice: tuple[int, int], first_turn: bool
    ) -> MoveRules:
        """Hook: the rules of movement in force for this turn, on the mover's view."""
        return MoveRules(closed_at=self.closed_at)

    def generate(
        self, own: View, theirs: View, dice: tuple[int, int], first_turn: bool
    ) -> list[Found]:
        """The legal turns on the mover's view (see :mod:`nardy.rules.movegen`)."""
        return Search(own, theirs, dice, self.turn_rules(own, theirs, dice, first_turn)).turns()

    def legal_turns(
        self, pos: Position, side: Side, dice: Sequence[int], *, first_turn: bool = False
    ) -> tuple[Turn, ...]:
        """Every distinct legal turn for ``side`` with ``dice``, in a fixed order.

        Turns that reach the same position are one. When the roll cannot be played at all the
        answer is one empty turn (no steps, notation ``""``, ``after`` equal to ``pos``).
        ``first_turn`` is the player's first turn of the game (long nardy's head exception).
        """
        return tuple(self.turns_by_place(pos, side, dice, first_turn=first_turn).values())

    def turns_by_place(
        self, pos: Position, side: Side, dice: Sequence[int], *, first_turn: bool = False
    ) -> dict[Place, Turn]:
        """The legal turns keyed by where they leave the mover: ``(own view, hit mask)``.

        ``own view`` is the mover's 26 counts after the turn (as :meth:`Position.view` gives
        them) and ``hit mask`` has bit ``p`` set for each of the mover's points where a blot was
        hit. The judge finds a played position among the legal ones by this key without making
        every turn's position.
        """
        roll = check_dice(dice)
        own, theirs = pos.view(side, self.numbering)
        out: dict[Place, Turn] = {}
        numbering = self.numbering
        for own_after, mask, raw in self.generate(own, theirs, roll, first_turn):
            if not raw:
                out[(own_after, mask)] = Turn((), pos, "")
                continue
            make = partial(_after, side, numbering, own_after, theirs, mask)
            out[(own_after, mask)] = Turn.lazy(raw, make)
        return out

    def play(self, pos: Position, side: Side, steps: Iterable[Step]) -> Position:
        """Apply ``steps`` as geometry allows, without judging the rules of the turn.

        Raises :class:`IllegalTurnError` for a step that cannot be made at all: no checker of
        ``side`` on its start, a landing on a point the opponent holds with more than the
        variant lets a checker hit.
        """
        own, theirs = (list(v) for v in pos.view(side, self.numbering))
        for st in steps:
            s, t = st.start, st.end
            if not (0 < s <= 25 and 0 <= t < 25 and t < s):
                raise IllegalTurnError(f"a step runs from a higher point to a lower one: {s}/{t}")
            if not own[s]:
                raise IllegalTurnError(
                    f"{side} has no checker on {'the bar' if s == 25 else f'point {s}'}"
                )
            if t and theirs[t]:
                if theirs[t] >= self.closed_at:
                    raise IllegalTurnError(
                        f"point {t} is held by {theirs[t]} {side.other} checker"
                        + ("s" if theirs[t] > 1 else "")
                    )
                theirs[t] -= 1
                theirs[25] += 1
            own[s] -= 1
            own[t] += 1
        return Position.from_view(side, self.numbering, own, theirs)


class Backgammon(Variant):
    pass


class Caucasian(Variant):
    name = "caucasian"
    title = "Caucasian short nardy"
    defaults: ClassVar[dict[str, Any]] = {"mars_with_cube": False, "cube_progression": "arithmetic"}

    def turn_rules(
        self, own: View, theirs: View, dice: tuple[int, int], first_turn: bool
    ) -> MoveRules:
        return MoveRules(closed_at=2, no_hit_and_hide=True)


class Nackgammon(Variant):
    name = "nackgammon"
    title = "Nackgammon"
    layout: ClassVar[dict[int, int] | None] = {24: 2, 23: 2, 13: 4, 8: 3, 6: 4}


class Hypergammon(Variant):
    name = "hypergammon"
    title = "Hypergammon"
    checkers = 3
    layout: ClassVar[dict[int, int] | None] = {24: 1, 23: 1, 22: 1}


class OinMars(Variant):
    name = "oin_mars"
    title = "Oin–mars short nardy"
    defaults: ClassVar[dict[str, Any]] = {"mars_with_cube": False, "cube_progression": "arithmetic"}


# -- long nardy ---------------------------------------------------------------------------------

#: The mover's point that is the opponent's point q (index q, 1..24), in long nardy.
_MINE = (0, *(q + 12 if q <= 12 else q - 12 for q in range(1, 25)))


def fences(own: Sequence[int]) -> list[int]:
    """Where the mover has six points in a row on the opponent's path, as the opponent's number
    of the run's lowest point. Runs across the opponent's start (the mover's 13 and 12) are not
    in the opponent's path and so are not fences."""
    out = []
    run = 0
    for q in range(1, 25):
        if own[_MINE[q]]:
            run += 1
            if run >= 6:
                out.append(q - 5)
        else:
            run = 0
    return out


class LongNardy(Variant):
    name = "long"
    title = "Long nardy"
    family = "long"
    numbering = Numbering.SAME_WAY
    layout: ClassVar[dict[int, int] | None] = {24: 15}
    closed_at = 1
    defaults: ClassVar[dict[str, Any]] = {
        "opening_uses_both_dice": False,
        "winner_starts_next": True,
        "mars_with_cube": False,
    }
    #: Most checkers that leave the head in a turn (0: any number).
    head_limit: ClassVar[int] = 1

    def _fence_allowed(self, low: int, theirs: Sequence[int]) -> bool:
        if self.options.block_rule == "opponent_in_home":
            return bool(theirs[0]) or any(theirs[_MINE[q]] for q in range(1, 7))
        return any(theirs[_MINE[q]] for q in range(1, low))

    def block_check(self, own0: View, theirs: View) -> EndCheck:
        """The block rule as a check of a position, fences already standing at the start of the
        turn excepted."""
        standing = set(fences(own0))

        def check(own: list[int], th: list[int]) -> bool:
            return all(low in standing or self._fence_allowed(low, th) for low in fences(own))

        return check

    def _rules(self, own: View, theirs: View, dice: tuple[int, int], head: int) -> MoveRules:
        # A turn makes at most two new points (four on a double): fewer than six then, no fence.
        new = 4 if dice[0] == dice[1] else 2
        occupied = sum(1 for n in own[1:25] if n)
        check = self.block_check(own, theirs) if occupied + new >= 6 else None
        every = self.options.block_rule_timing == "every_move"
        return MoveRules(
            closed_at=1,
            head_limit=head,
            larger_die=self.options.larger_die_rule,
            move_check=check if every else None,
            end_check=None if every else check,
        )

    def turn_rules(
        self, own: View, theirs: View, dice: tuple[int, int], first_turn: bool
    ) -> MoveRules:
        """The head rule with its first-turn exception, the block rule, the larger-die option."""
        if self.head_limit == 0:
            return self._rules(own, theirs, dice, 0)
        rule = self.options.first_turn_two_from_head
        double = dice[0] == dice[1]
        if first_turn and (rule == "always" or (rule == "any_double" and double)):
            return self._rules(own, theirs, dice, 2)
        one = self._rules(own, theirs, dice, 1)
        if first_turn and double and rule == "when_blocked":
            found = Search(own, theirs, dice, one).turns()
            if max(len(f[2]) for f in found) < 4:
                # The double cannot be played in full with one checker from the head.
                return self._rules(own, theirs, dice, 2)
        return one


class Gulbar(LongNardy):
    name = "gulbar"
    title = "Gul-bar"
    missing = (
        "the opening sequence of gul-bar (who starts, what the first turn may do) is not "
        "in the sources",
    )
    #: Dice the player cannot play are played by the opponent.
    unplayable_dice_pass_to_opponent: ClassVar[bool] = True
    #: After a double played in full the player rolls again; a double the player cannot finish
    #: is finished by the opponent, who then rolls.
    double_rolls_again: ClassVar[bool] = True

    @staticmethod
    def unplayed_dice(dice: Sequence[int], turn: Turn) -> tuple[int, ...]:
        """The dice of ``dice`` that ``turn`` left unplayed: in gul-bar, the opponent's to play."""
        pool = [dice[0]] * 4 if dice[0] == dice[1] else list(dice)
        for s in turn.steps:
            pool.remove(s.die)
        return tuple(pool)


class Khachapuri(LongNardy):
    name = "khachapuri"
    title = "Khachapuri"
    layout = None
    head_limit = 0
    missing = (
        "the starting arrangement of khachapuri is only a picture the sources do not "
        "reproduce: give the position",
    )


VARIANTS: dict[str, type[Variant]] = {
    cls.name: cls
    for cls in (
        Backgammon,
        Caucasian,
        Nackgammon,
        Hypergammon,
        OinMars,
        LongNardy,
        Gulbar,
        Khachapuri,
    )
}


def get_variant(name: str, **options: Any) -> Variant:
    """The variant called ``name`` with ``options`` set (each checked)."""
    try:
        cls = VARIANTS[name]
    except KeyError:
        raise UnknownVariantError(
            f"unknown variant {name!r}; known: {', '.join(VARIANTS)}"
        ) from None
    return cls(**options)
