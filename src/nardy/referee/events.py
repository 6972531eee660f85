"""What the referee hears: timestamped input events, as frozen values with a JSON form.

Every event carries ``t_ms``, the time it happened in milliseconds since the session began. The
JSON form (``event_to_json`` / ``event_from_json``) is what the store keeps, one object per event
with its ``type``; it round-trips exactly, so a folded log gives the same record as the live run.

Sides are written ``"light"`` / ``"dark"``; ``"director"`` acts for the club (corrections, a new
game). Positions use the project's JSON position form (light's numbering).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any, Literal

from nardy.rules.position import Position


class EventError(ValueError):
    """A malformed event (in a log, a session folder or a request)."""


class ActionRefused(ValueError):
    """A button press the table cannot take now (no flag to answer, not this player's cube);
    the dashboard shows it as a 409 with the referee's words."""


PLAYERS = ("light", "dark")
ACTORS = ("light", "dark", "director")

ActionKind = Literal[
    "accept",
    "replay",
    "offer",
    "take",
    "drop",
    "beaver",
    "resign",
    "correct",
    "new_game",
    "undo",
    "set_position",
    "enter_turn",
]
ACTION_KINDS: tuple[str, ...] = ActionKind.__args__  # type: ignore[attr-defined]

#: Why a throw is not valid, in the words the dashboard shows.
WHY_INVALID = {
    "cocked": "a die is cocked",
    "partial": "a die did not settle",
    "split": "the dice are split across the halves",
    "off": "a die left the board",
    "timeout": "the cup did not read the dice",
    "sensor": "the cup could not read the dice",
    "disarmed": "the cup was not armed",
    "unread": "a die could not be read",
    "count": "not two dice were seen",
}


@dataclass(frozen=True, slots=True)
class DiceThrown:
    """A throw, as the cup (or the camera, for tables without a cup) reported it.

    ``values`` holds 0 for a die that could not be read. ``player`` is whom the throw belongs to
    when the source knows it (the side the cup was armed for), else None. ``throw_id`` names one
    throw for ever (the cup's ``boot:roll``), so a throw delivered twice counts once.
    """

    t_ms: int
    source: Literal["cup", "vision"]
    values: tuple[int, ...]
    valid: bool
    why: str | None = None
    player: str | None = None
    throw_id: str | None = None


@dataclass(frozen=True, slots=True)
class SeenDie:
    value: int
    flat: bool = True
    # "left" | "right" | "bar" | "off", with the board drawn in light's numbering: right is the
    # half that holds light's home
    where: str = "right"


@dataclass(frozen=True, slots=True)
class Observation:
    """What vision read in one frame, in light's numbering (the profile orients the board).

    ``off`` is None when the trays are not in view. ``confidence`` is the reader's lowest
    confidence over the board (1.0 when it is sure).
    """

    points: tuple[int, ...]
    bar: tuple[int, int] = (0, 0)
    off: tuple[int, int] | None = None
    dice: tuple[SeenDie, ...] = ()
    cube: Mapping[str, Any] | None = None
    usable: bool = True
    why: str | None = None
    confidence: float = 1.0

    def position(self, checkers: int) -> Position:
        """The seen board as a position; trays out of view are inferred from the counts."""
        off = self.off
        if off is None:
            light = sum(n for n in self.points if n > 0) + self.bar[0]
            dark = -sum(n for n in self.points if n < 0) + self.bar[1]
            off = (max(checkers - light, 0), max(checkers - dark, 0))
        return Position(tuple(self.points), tuple(self.bar), tuple(off))  # type: ignore[arg-type]

    @classmethod
    def of(cls, position: Position, **kw: Any) -> Observation:
        return cls(points=position.points, bar=position.bar, off=position.off, **kw)


@dataclass(frozen=True, slots=True)
class BoardSeen:
    """A frame's reading. ``still`` is vision's signal that the board has stopped changing."""

    t_ms: int
    observation: Observation
    still: bool


@dataclass(frozen=True, slots=True)
class DiceSeen:
    """The dice the camera sees lying on the board (flat or cocked, and where)."""

    t_ms: int
    dice: tuple[SeenDie, ...]
    still: bool = True


@dataclass(frozen=True, slots=True)
class Action:
    """A button pressed on the dashboard (or a move entered by hand).

    Which fields matter depends on ``kind``: ``play`` (GNU notation, for ``enter_turn`` and
    ``correct``), ``position`` (for ``correct`` and ``set_position``), ``level`` (1 single,
    2 gammon/mars, 3 backgammon, for ``resign``), ``dice`` (for ``correct`` of a throw).
    """

    t_ms: int
    kind: str
    by: str
    play: str | None = None
    position: Position | None = None
    level: int | None = None
    dice: tuple[int, ...] | None = None

    def __post_init__(self) -> None:
        if self.kind not in ACTION_KINDS:
            raise EventError(f"unknown action {self.kind!r}")
        if self.by not in ACTORS:
            raise EventError(f"an action is by light, dark or director, not {self.by!r}")


@dataclass(frozen=True, slots=True)
class CupStatus:
    """The dice cup's link: ``connected``, ``lost``, ``restarted``, ``battery``."""

    t_ms: int
    state: str
    detail: str | None = None


@dataclass(frozen=True, slots=True)
class CameraStatus:
    """The camera's link: ``connected``, ``lost``, ``moved`` (out of calibration)."""

    t_ms: int
    state: str
    detail: str | None = None


Event = DiceThrown | BoardSeen | DiceSeen | Action | CupStatus | CameraStatus

_TYPES: dict[str, type] = {
    "dice_thrown": DiceThrown,
    "board_seen": BoardSeen,
    "dice_seen": DiceSeen,
    "action": Action,
    "cup_status": CupStatus,
    "camera_status": CameraStatus,
}
_NAMES = {cls: name for name, cls in _TYPES.items()}


def event_to_json(event: Event) -> dict[str, Any]:
    out: dict[str, Any] = {"type": _NAMES[type(event)]}
    for f in fields(event):  # type: ignore[arg-type]
        v = getattr(event, f.name)
        if v is None:
            continue
        out[f.name] = _plain(v)
    return out


def _plain(v: Any) -> Any:
    if isinstance(v, Position):
        return v.to_json()
    if isinstance(v, Observation):
        d = {f.name: _plain(getattr(v, f.name)) for f in fields(v)}
        return {k: x for k, x in d.items() if x is not None}
    if isinstance(v, SeenDie):
        return {"value": v.value, "flat": v.flat, "where": v.where}
    if isinstance(v, tuple | list):
        return [_plain(x) for x in v]
    if isinstance(v, Mapping):
        return dict(v)
    return v


def event_from_json(data: Mapping[str, Any]) -> Event:
    """Read an event from its JSON form; anything malformed is an :class:`EventError`."""
    try:
        cls = _TYPES[data["type"]]
    except (KeyError, TypeError):
        raise EventError(f"not an event: {data!r:.80}") from None
    kw = {k: v for k, v in data.items() if k != "type"}
    try:
        if cls is BoardSeen:
            kw["observation"] = observation_from_json(kw["observation"])
            kw["still"] = bool(kw["still"])
        elif cls is DiceSeen:
            kw["dice"] = tuple(_die(d) for d in kw.get("dice", ()))
        elif cls is DiceThrown:
            kw["values"] = tuple(int(x) for x in kw["values"])
        elif cls is Action:
            if kw.get("position") is not None:
                kw["position"] = Position.from_json(kw["position"])
            if kw.get("dice") is not None:
                kw["dice"] = tuple(int(x) for x in kw["dice"])
        kw["t_ms"] = int(kw["t_ms"])
        return cls(**kw)
    except EventError:
        raise
    except (KeyError, TypeError, ValueError) as e:
        raise EventError(f"malformed {data.get('type')} event: {e}") from None


def _die(d: Mapping[str, Any]) -> SeenDie:
    return SeenDie(int(d["value"]), bool(d.get("flat", True)), str(d.get("where", "right")))


def _confidence(c: Any) -> float:
    """A number, or vision's ``{"board": least, "points": [...], ...}``: the board's."""
    if isinstance(c, Mapping):
        c = c.get("board", 1.0)
    return float(c)


def observation_from_json(d: Mapping[str, Any]) -> Observation:
    """Read vision's JSON form (``nardy detect``'s line; extra keys are ignored)."""
    if not isinstance(d, Mapping):
        raise EventError("an observation is a JSON object")
    try:
        points = tuple(int(x) for x in d["points"]) if d.get("points") is not None else ()
        if d.get("usable", True) and len(points) != 24:
            raise EventError("an observation has 24 points")
        if len(points) != 24:
            points = (0,) * 24
        bar = tuple(int(x) for x in d.get("bar") or (0, 0))
        off = d.get("off")
        return Observation(
            points=points,
            bar=(bar[0], bar[1]),
            off=None if off is None else (int(off[0]), int(off[1])),
            dice=tuple(_die(x) for x in d.get("dice") or ()),
            cube=d.get("cube"),
            usable=bool(d.get("usable", True)),
            why=d.get("why"),
            confidence=_confidence(d.get("confidence", 1.0)),
        )
    except (KeyError, TypeError, ValueError, IndexError) as e:
        if isinstance(e, EventError):
            raise
        raise EventError(f"malformed observation: {e}") from None


__all__ = [
    "ACTION_KINDS",
    "ACTORS",
    "PLAYERS",
    "WHY_INVALID",
    "Action",
    "BoardSeen",
    "CameraStatus",
    "CupStatus",
    "DiceSeen",
    "DiceThrown",
    "Event",
    "EventError",
    "Observation",
    "SeenDie",
    "event_from_json",
    "event_to_json",
]
