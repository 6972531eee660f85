"""What a rendered picture shows: the scene, as frozen values.

A :class:`Scene` says everything that is *chosen* about a picture — board, checkers, position,
dice, cube, hand, camera, light. :func:`nardy.synth.render.render` turns it and a seed into an
image; the seed only decides the small things (wood grain, how carelessly each checker was put
down, sensor noise). ``Scene.to_json`` / ``Scene.from_json`` round-trip it, so every fixture
carries the scene it was made from.

Board coordinates are millimetres on the playing surface: the origin at the centre of the bar,
x to the right of the image, y toward its top edge, z up (0 is the playing surface).
Points are numbered as the board lies in the image: 1 is bottom-right, 1–12 run right to left
along the bottom edge, 13–24 left to right along the top; ``+n`` is n light checkers, ``−n`` dark.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field, fields
from typing import Any


class SceneError(ValueError):
    """A scene that cannot be rendered (bad position, unknown style)."""


@dataclass(frozen=True)
class Camera:
    """Where the camera is and how it sees.

    ``height`` is the height of the lens above the playing surface (mm); ``tilt`` the angle of its
    axis from the vertical (degrees); ``azimuth`` the direction, in the board's plane, the camera
    is moved toward when tilted (degrees, 0 = toward the board's bottom edge, 90 = right).
    ``roll`` turns the picture about the axis; ``aim`` is the board point it looks at (mm).
    ``fill`` is the fraction of the image the board's outline spans (above 1 crops it; then
    ``fit`` says whether the whole board with its trays, or only the playing fields, is fitted).
    ``k1``, ``k2`` are OpenCV's radial distortion terms.
    """

    height: float = 650.0
    tilt: float = 0.0
    azimuth: float = 0.0
    roll: float = 0.0
    aim: tuple[float, float] = (0.0, 0.0)
    fill: float = 0.9
    fit: str = "board"
    k1: float = -0.08
    k2: float = 0.01


@dataclass(frozen=True)
class Lighting:
    """The light: a key lamp, ambient light, how uneven it is, and the sensor's faults.

    ``azimuth``/``elevation`` (degrees) point from the board to the lamp. ``gradient`` and
    ``vignette`` darken parts of the frame (0 = none); ``warmth`` tints (−1 blue … +1 orange);
    ``glare`` is the strength of the lamp's reflection on the varnish; ``noise`` the sensor's
    standard deviation (grey levels); ``blur`` the defocus (pixels); ``motion`` a motion blur
    length (pixels) at ``motion_angle`` degrees; ``exposure`` scales everything.
    """

    azimuth: float = 135.0
    elevation: float = 60.0
    ambient: float = 0.45
    gradient: float = 0.2
    gradient_angle: float = 0.0
    vignette: float = 0.25
    warmth: float = 0.1
    glare: float = 0.0
    glare_at: tuple[float, float] = (0.0, 0.0)
    shadow: float = 0.5
    noise: float = 2.0
    blur: float = 0.6
    motion: float = 0.0
    motion_angle: float = 0.0
    exposure: float = 1.0


@dataclass(frozen=True)
class Die:
    """A die. ``where`` is "left", "right" (halves of the board as it lies in the image), "bar"
    or "off" (on the table beside the board); ``at`` its centre on the board (mm).
    A cocked die (``flat`` False) leans ``lean`` degrees toward ``lean_toward`` (degrees in the
    board plane) on ``rests_on`` ("rim", "checker" or "die")."""

    value: int
    where: str
    at: tuple[float, float]
    turn: float = 0.0
    style: str = "white"
    flat: bool = True
    lean: float = 0.0
    lean_toward: float = 0.0
    rests_on: str = ""


@dataclass(frozen=True)
class Cube:
    """The doubling cube. ``value`` is the face on top (2…64; 64 when it stands in the middle at
    the start). ``where`` is "middle" (on the bar), "light" or "dark" (on that player's side)."""

    value: int
    where: str
    at: tuple[float, float]
    turn: float = 0.0
    style: str = "ivory"


@dataclass(frozen=True)
class Hand:
    """A hand and arm over the board, reaching in from an edge of the image ("bottom", "top",
    "left", "right") to the board point ``reach`` (mm), ``height`` mm above the surface.
    ``holding`` is "light", "dark" (a checker between the fingers), "cup" (the dice cup) or "".

    ``tone`` and ``fabric`` (BGR 0..1) set the skin's and the sleeve's colour outright instead of
    picking ``skin``/``sleeve`` from the palettes; ``cuff`` is where the sleeve starts (mm from the
    fingertips; past the arm's length, a bare arm). Left None they are drawn as before, and the
    scene's JSON leaves them out, so truths written before them read the same."""

    enters: str = "bottom"
    reach: tuple[float, float] = (0.0, 0.0)
    height: float = 80.0
    skin: int = 0
    sleeve: int = 0
    spread: float = 0.5
    holding: str = ""
    tone: tuple[float, float, float] | None = None
    fabric: tuple[float, float, float] | None = None
    cuff: float | None = None

    def to_json(self) -> dict[str, Any]:
        return {k: v for k, v in dataclasses.asdict(self).items() if v is not None}


@dataclass(frozen=True)
class Scene:
    """Everything a picture shows. See the module's docstring for the coordinates."""

    board: str = "classic"
    checkers: str = "white_black"
    points: tuple[int, ...] = (0,) * 24
    bar: tuple[int, int] = (0, 0)
    off: tuple[int, int] = (0, 0)
    dice: tuple[Die, ...] = ()
    cube: Cube | None = None
    hand: Hand | None = None
    camera: Camera = field(default_factory=Camera)
    lighting: Lighting = field(default_factory=Lighting)
    markers: bool = False
    size: tuple[int, int] = (1280, 720)
    #: Which side of the board the bear-off trays are on ("right" or "left").
    trays: str = "right"
    #: Board proportions: checker diameter (mm) and a 0..1 knob for the rest (frame, bar, point).
    checker_mm: float = 36.0
    shape: float = 0.5
    #: How the players stack: checkers in a row before a second layer is started.
    row: int = 5
    #: How carelessly checkers are put down (mm of jitter).
    sloppy: float = 1.5
    table: int = 0
    jpeg_quality: int = 85

    def __post_init__(self) -> None:
        if len(self.points) != 24:
            raise SceneError(f"a board has 24 points, not {len(self.points)}")
        light = sum(n for n in self.points if n > 0) + self.bar[0] + self.off[0]
        dark = -sum(n for n in self.points if n < 0) + self.bar[1] + self.off[1]
        if light > 15 or dark > 15:
            raise SceneError(f"at most 15 checkers a side, not {light} light and {dark} dark")
        if min(*self.bar, *self.off) < 0:
            raise SceneError("bar and off counts cannot be negative")

    def to_json(self) -> dict[str, Any]:
        out = dataclasses.asdict(self)
        if self.hand is not None:
            out["hand"] = self.hand.to_json()
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Scene:
        """The inverse of :meth:`to_json` (lists become tuples again)."""
        kinds = {"camera": Camera, "lighting": Lighting, "cube": Cube, "hand": Hand}
        values: dict[str, Any] = {}
        for f in fields(cls):
            if f.name not in data:
                continue
            v = data[f.name]
            if f.name in kinds and v is not None:
                v = _build(kinds[f.name], v)
            elif f.name == "dice":
                v = tuple(_build(Die, d) for d in v)
            elif isinstance(v, list):
                v = tuple(v)
            values[f.name] = v
        return cls(**values)


def _build(kind: type, data: dict[str, Any]) -> Any:
    return kind(**{k: tuple(v) if isinstance(v, list) else v for k, v in data.items()})
