"""How a table is set up: variant, players, match or money, where dice and moves come from.

Its JSON form is the recorded session's ``session.json`` (issue 5), with two keys of ours:
``dice_source`` (``cup`` | ``camera`` | ``both``) and ``move_source`` (``camera`` | ``entered``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

DICE_SOURCES = ("cup", "camera", "both")
MOVE_SOURCES = ("camera", "entered")


class SetupError(ValueError):
    """A table setup (``session.json``) that cannot be played."""


@dataclass(frozen=True)
class TableSetup:
    variant: str = "backgammon"
    options: Mapping[str, Any] = field(default_factory=dict)
    players: Mapping[str, str] = field(default_factory=lambda: {"light": "Light", "dark": "Dark"})
    match_to: int | None = None
    stake: float | None = None
    currency: str | None = None
    dice_source: str = "cup"
    move_source: str = "camera"
    profile: str | None = None
    corners: tuple[tuple[float, float], ...] | None = None

    def __post_init__(self) -> None:
        if self.dice_source not in DICE_SOURCES:
            raise SetupError(f"dice_source is one of {', '.join(DICE_SOURCES)}")
        if self.move_source not in MOVE_SOURCES:
            raise SetupError(f"move_source is one of {', '.join(MOVE_SOURCES)}")
        if self.match_to is not None and self.match_to < 1:
            raise SetupError("match_to is a positive number of points")
        if self.match_to is not None and self.stake is not None:
            raise SetupError("a table plays a match to N points or for a stake, not both")
        if set(self.players) != {"light", "dark"}:
            raise SetupError('players is {"light": name, "dark": name}')

    @property
    def money(self) -> bool:
        return self.match_to is None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "variant": self.variant,
            "options": dict(self.options),
            "players": dict(self.players),
            "dice_source": self.dice_source,
            "move_source": self.move_source,
        }
        for key in ("match_to", "stake", "currency", "profile"):
            if getattr(self, key) is not None:
                out[key] = getattr(self, key)
        if self.corners is not None:
            out["corners"] = [list(c) for c in self.corners]
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | str) -> TableSetup:
        if isinstance(data, str):
            try:
                data = json.loads(data)
            except json.JSONDecodeError as e:
                raise SetupError(f"session.json is not JSON: {e.msg} (line {e.lineno})") from None
        if not isinstance(data, Mapping) or "variant" not in data:
            raise SetupError('session.json needs at least "variant"')
        try:
            corners = data.get("corners")
            if corners is not None:
                corners = tuple((float(x), float(y)) for x, y in corners)
                if len(corners) != 4:
                    raise SetupError("corners are four [x, y] pairs")
            stake = data.get("stake")
            match_to = data.get("match_to")
            return cls(
                variant=str(data["variant"]),
                options=dict(data.get("options") or {}),
                players=dict(data.get("players") or {"light": "Light", "dark": "Dark"}),
                match_to=None if match_to is None else int(match_to),
                stake=None if stake is None else float(stake),
                currency=data.get("currency"),
                dice_source=str(data.get("dice_source", "cup")),
                move_source=str(data.get("move_source", "camera")),
                profile=data.get("profile"),
                corners=corners,
            )
        except (TypeError, ValueError) as e:
            if isinstance(e, SetupError):
                raise
            raise SetupError(f"bad session.json: {e}") from None
