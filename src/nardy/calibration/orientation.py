"""Which corner is whose home, found from a variant's starting position.

Vision numbers points as the board lies in the image (1 = bottom-right). The players number them
from their own side; the orientation is where light's 1-point (the ace point) lies in the image:
image point 1, 12, 13 or 24. From it, any image reading converts to light's numbering.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

ACE_CORNERS = (1, 12, 13, 24)

# Starting layouts in light's numbering: + light checkers, − dark checkers.
START_LAYOUTS: dict[str, dict[int, int]] = {
    "backgammon": {24: 2, 13: 5, 8: 3, 6: 5, 1: -2, 12: -5, 17: -3, 19: -5},
    "nackgammon": {24: 2, 23: 2, 13: 4, 8: 3, 6: 4, 1: -2, 2: -2, 12: -4, 17: -3, 19: -4},
    "long-nardy": {24: 15, 12: -15},
}


class OrientationError(ValueError):
    """No orientation makes the reading a starting position of the variant."""


@dataclass(frozen=True)
class Orientation:
    """``light_ace`` is the image point number of light's 1-point."""

    light_ace: int

    def __post_init__(self) -> None:
        if self.light_ace not in ACE_CORNERS:
            raise OrientationError(f"light's ace point must be one of {ACE_CORNERS}")

    @property
    def light_row(self) -> Literal["bottom", "top"]:
        """The long edge of the image along which light's home board lies."""
        return "bottom" if self.light_ace <= 12 else "top"

    @property
    def home_half(self) -> Literal["right", "left"]:
        """The half of the image (either side of the bar) that holds light's home board."""
        return "left" if self.light_ace in (12, 13) else "right"

    def image_point(self, light_point: int) -> int:
        """Light's point number → the image's point number."""
        p = light_point
        if self.light_ace == 1:
            return p
        if self.light_ace == 24:
            return 25 - p
        if self.light_ace == 12:
            return 13 - p if p <= 12 else 37 - p
        return p + 12 if p <= 12 else p - 12

    def to_light(self, image_points: Sequence[int]) -> list[int]:
        """A reading in image numbering (24 counts) → the same counts in light's numbering."""
        return [image_points[self.image_point(p) - 1] for p in range(1, 25)]

    def to_json(self) -> dict[str, Any]:
        return {"light_ace": self.light_ace}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Orientation:
        try:
            return cls(int(data["light_ace"]))
        except (KeyError, TypeError, ValueError) as e:
            raise OrientationError(f"malformed orientation: {e}") from e


def orientation_from_start(image_points: Sequence[int], variant: str = "backgammon") -> Orientation:
    """The orientation under which ``image_points`` is the variant's starting position."""
    if variant not in START_LAYOUTS:
        raise OrientationError(f"no starting layout for {variant!r}; know {sorted(START_LAYOUTS)}")
    layout = START_LAYOUTS[variant]
    start = [layout.get(p, 0) for p in range(1, 25)]
    return orientation_of(image_points, start, f"the {variant} starting position")


def orientation_of(
    image_points: Sequence[int], light_points: Sequence[int], name: str = "the position"
) -> Orientation:
    """The one orientation under which ``image_points`` (as the board lies in the image) is
    ``light_points`` (in light's numbering); ``name`` names the position in the error."""
    found = [
        Orientation(ace)
        for ace in ACE_CORNERS
        if Orientation(ace).to_light(image_points) == list(light_points)
    ]
    if len(found) != 1:
        why = "does not tell the corners apart" if found else "is not on the board"
        raise OrientationError(f"{name} {why}")
    return found[0]
