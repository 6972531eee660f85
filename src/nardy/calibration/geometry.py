"""Where the points, the bar and the trays lie on the board, in board coordinates.

Board coordinates are normalised to the playing surface, the area inside the frame's inner
corners (both fields and the bar): ``x`` runs 0 → 1 from the left edge to the right edge of the
surface as the board lies in the image, ``y`` runs 0 → 1 from the top edge to the bottom edge.
Anything outside the surface (the frame, trays beside it) has coordinates outside [0, 1].

Points are numbered as the board lies in the image: 1 is the bottom-right point, 1–12 run right
to left along the bottom edge, 13–24 left to right along the top edge.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


class GeometryError(ValueError):
    """A geometry that cannot describe a board (negative sizes, a bar wider than the board)."""


@dataclass(frozen=True)
class Rect:
    """An axis-aligned rectangle in board coordinates."""

    x0: float
    y0: float
    x1: float
    y1: float

    @property
    def width(self) -> float:
        return self.x1 - self.x0

    @property
    def height(self) -> float:
        return self.y1 - self.y0

    def to_json(self) -> list[float]:
        return [self.x0, self.y0, self.x1, self.y1]

    @classmethod
    def from_json(cls, data: Any) -> Rect:
        x0, y0, x1, y1 = (float(v) for v in data)
        return cls(x0, y0, x1, y1)


@dataclass(frozen=True)
class PointShape:
    """One point: its base on the edge of the board and the direction it grows toward the middle.

    ``base`` is the centre of the point's base on the surface's top or bottom edge, ``width`` its
    width and ``length`` the triangle's height; ``down`` is +1 for a top point (it grows down the
    image) and -1 for a bottom point.
    """

    number: int
    base: tuple[float, float]
    width: float
    length: float
    down: int

    @property
    def tip(self) -> tuple[float, float]:
        return (self.base[0], self.base[1] + self.down * self.length)

    def triangle(self) -> list[tuple[float, float]]:
        x, y = self.base
        half = self.width / 2
        return [(x - half, y), (x + half, y), self.tip]


@dataclass(frozen=True)
class BoardGeometry:
    """The layout of a board's playing surface, in board coordinates.

    ``bar`` is the bar's extent along x (left edge, right edge), ``point_length`` the height of a
    triangle as a fraction of the surface height, ``aspect`` the surface's height / width in the
    real world (used to rectify without stretching), ``trays`` the two bear-off trays (left or
    right of the surface, or ``None`` when the board has none in view).
    """

    bar: tuple[float, float] = (0.4625, 0.5375)
    point_length: float = 0.42
    aspect: float = 0.8
    trays: tuple[Rect, Rect] | None = None
    checker: float = 0.9  # a checker's diameter as a share of a point's width

    def __post_init__(self) -> None:
        left, right = self.bar
        if not 0.0 < left < right < 1.0:
            raise GeometryError(f"bar must lie inside the surface, got {self.bar}")
        if not 0.05 <= self.point_length <= 0.5:
            raise GeometryError(
                f"point length must be 0.05–0.5 of the height, got {self.point_length}"
            )
        if not 0.2 <= self.aspect <= 2.0:
            raise GeometryError(f"aspect must be 0.2–2.0, got {self.aspect}")
        if not 0.5 <= self.checker <= 1.2:
            raise GeometryError(f"checker must be 0.5–1.2 of a point's width, got {self.checker}")

    @property
    def point_width(self) -> float:
        """The width of one point, averaged over the two fields."""
        left, right = self.bar
        return (left + (1.0 - right)) / 12.0

    def point(self, number: int) -> PointShape:
        """The shape of point ``number`` (1–24, numbered as the board lies in the image)."""
        if not 1 <= number <= 24:
            raise GeometryError(f"points are numbered 1–24, got {number}")
        left, right = self.bar
        left_w = left / 6.0
        right_w = (1.0 - right) / 6.0
        if number <= 6:  # bottom right, right to left
            x, w, y, down = 1.0 - (number - 0.5) * right_w, right_w, 1.0, -1
        elif number <= 12:  # bottom left, right to left
            x, w, y, down = left - (number - 6 - 0.5) * left_w, left_w, 1.0, -1
        elif number <= 18:  # top left, left to right
            x, w, y, down = (number - 12 - 0.5) * left_w, left_w, 0.0, 1
        else:  # top right, left to right
            x, w, y, down = right + (number - 18 - 0.5) * right_w, right_w, 0.0, 1
        return PointShape(number, (x, y), w, self.point_length, down)

    def points(self) -> list[PointShape]:
        return [self.point(n) for n in range(1, 25)]

    def to_json(self) -> dict[str, Any]:
        return {
            "bar": list(self.bar),
            "point_length": self.point_length,
            "aspect": self.aspect,
            "trays": None if self.trays is None else [t.to_json() for t in self.trays],
            "checker": self.checker,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> BoardGeometry:
        try:
            trays = data.get("trays")
            return cls(
                bar=(float(data["bar"][0]), float(data["bar"][1])),
                point_length=float(data["point_length"]),
                aspect=float(data["aspect"]),
                trays=None
                if trays is None
                else (Rect.from_json(trays[0]), Rect.from_json(trays[1])),
                checker=float(data.get("checker", 0.9)),
            )
        except (KeyError, TypeError, IndexError) as e:
            raise GeometryError(f"malformed board geometry: {e}") from e
