"""Event makers for the referee's tests."""

from __future__ import annotations

import itertools
from typing import Any

from nardy.referee.events import Action, BoardSeen, DiceSeen, DiceThrown, Observation, SeenDie
from nardy.rules.position import Position

_ids = itertools.count(1)


def throw(t: int, *values: int, player: str | None = None, why: str | None = None) -> DiceThrown:
    return DiceThrown(t, "cup", tuple(values), why is None, why, player, f"B:{next(_ids)}")


def board(t: int, pos: Position, still: bool = True, confidence: float = 1.0) -> BoardSeen:
    return BoardSeen(t, Observation.of(pos, confidence=confidence), still)


def hand(t: int) -> BoardSeen:
    return BoardSeen(t, Observation((0,) * 24, usable=False, why="hand"), False)


def dice_seen(t: int, *values: int) -> DiceSeen:
    return DiceSeen(t, tuple(SeenDie(v) for v in values))


def act(t: int, kind: str, by: str, **kw: Any) -> Action:
    return Action(t, kind, by, **kw)
