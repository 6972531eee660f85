"""What the referee concluded, as frozen values: turns with their flags, cube actions, results.

These are the referee's outputs; they are derived from the input events and never stored as
truth. ``to_json`` gives the record form of ``nardy replay --json``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from nardy.rules.position import Position


@dataclass(frozen=True, slots=True)
class Flag:
    """Something a person must know about a turn.

    ``kind``: ``illegal`` (a foul), ``misread`` (the board could not be read as any play),
    ``dice_mismatch`` (cup and camera disagree), ``dispute`` (a second valid throw for a turn
    already decided). ``resolution`` is None while open, else ``condoned`` (it stands: accepted,
    or play went on without an answer), ``replayed`` (the play, or the throw, was made again) or
    ``corrected`` (a person corrected the reading).
    """

    kind: str
    reason: str
    nearest: tuple[str, ...] = ()
    resolution: str | None = None
    by: str | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "reason": self.reason}
        if self.nearest:
            out["nearest"] = list(self.nearest)
        out["resolution"] = self.resolution
        if self.by:
            out["by"] = self.by
        return out


@dataclass(frozen=True, slots=True)
class VoidThrow:
    """A throw that did not count (cocked, split, off the board, made out of turn)."""

    values: tuple[int, ...]
    why: str
    t_ms: int

    def to_json(self) -> dict[str, Any]:
        return {"values": list(self.values), "why": self.why, "t_ms": self.t_ms}


@dataclass(frozen=True, slots=True)
class TurnRecord:
    number: int
    player: str
    dice: tuple[int, ...]
    play: str  # GNU notation; "" when nothing could be played
    position: Position  # after the turn
    flags: tuple[Flag, ...] = ()
    void_throws: tuple[VoidThrow, ...] = ()
    t_ms: int = 0
    #: ``(start, end, die, hit)`` in the mover's numbering (25 the bar, 0 off), as played.
    steps: tuple[tuple[int, int, int, bool], ...] = ()

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "number": self.number,
            "player": self.player,
            "dice": list(self.dice),
            "play": self.play,
            "steps": [list(s) for s in self.steps],
            "position": self.position.to_json(),
            "flags": [f.to_json() for f in self.flags],
        }
        if self.void_throws:
            out["void_throws"] = [v.to_json() for v in self.void_throws]
        return out


@dataclass(frozen=True, slots=True)
class CubeAction:
    """``offer`` / ``take`` / ``drop`` / ``beaver``, before turn ``before_turn`` of the game."""

    kind: str
    by: str
    value: int  # the cube's value after the action (the value offered, for an offer)
    before_turn: int

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "by": self.by,
            "value": self.value,
            "before_turn": self.before_turn,
        }


@dataclass(frozen=True, slots=True)
class GameRecord:
    number: int
    starter: str | None
    opening: tuple[int, ...]  # the opening roll (light's die, dark's die), () when none
    turns: tuple[TurnRecord, ...]
    cube_actions: tuple[CubeAction, ...]
    result: dict[str, Any] | None  # winner, kind, ending, multiplier, cube, points
    crawford: bool = False
    score_after: dict[str, Any] | None = None
    #: Every opening roll, ties included, as (light, dark).
    opening_rolls: tuple[tuple[int, int], ...] = ()
    #: A resignation that ended the game: (side, points offered).
    resignation: tuple[str, int] | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "crawford": self.crawford,
            "starter": self.starter,
            "opening": list(self.opening),
            "opening_rolls": [list(r) for r in self.opening_rolls],
            "resignation": None if self.resignation is None else list(self.resignation),
            "turns": [t.to_json() for t in self.turns],
            "cube_actions": [c.to_json() for c in self.cube_actions],
            "result": self.result,
            "score_after": self.score_after,
        }
