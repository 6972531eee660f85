"""What vision saw on one frame, as a value: the form ``nardy detect`` prints."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class BoardReading:
    """Checkers as the board lies in the image: ``points[n - 1]`` is point n, + light, − dark.

    ``off`` is ``None`` when the trays are not in view. Every count carries a confidence in
    0..1; ``confidence`` is the least of them. An unusable frame says ``why`` and its counts
    should not be trusted (they are what could be read, if anything).
    """

    usable: bool
    points: tuple[int, ...] = (0,) * 24
    bar: tuple[int, int] = (0, 0)
    off: tuple[int, int] | None = None
    why: str | None = None
    point_confidence: tuple[float, ...] = (0.0,) * 24
    bar_confidence: float = 0.0
    off_confidence: float = 0.0
    light_colour: tuple[int, int, int] | None = None  # BGR of the light checkers as seen
    dark_colour: tuple[int, int, int] | None = None

    @property
    def confidence(self) -> float:
        if not self.usable:
            return 0.0
        values = [*self.point_confidence, self.bar_confidence]
        if self.off is not None:
            values.append(self.off_confidence)
        return float(min(values))

    @classmethod
    def unusable(cls, why: str) -> BoardReading:
        return cls(usable=False, why=why)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"usable": self.usable}
        if self.why:
            out["why"] = self.why
        out["points"] = list(self.points)
        out["bar"] = list(self.bar)
        out["off"] = None if self.off is None else list(self.off)
        out["confidence"] = {
            "board": round(self.confidence, 3),
            "points": [round(c, 3) for c in self.point_confidence],
            "bar": round(self.bar_confidence, 3),
            "off": None if self.off is None else round(self.off_confidence, 3),
        }
        return out
