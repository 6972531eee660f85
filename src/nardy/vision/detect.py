"""Everything vision reports on one still image: the board reading, the dice and the cube.

The dice and the cube are found by ``nardy.vision.dice`` and ``nardy.vision.cube``; this module
places what they find on the board (which half, the bar, off the board), and has the points
under a die found counted again closely (``BoardReader.read``'s ``dice``); it decides nothing
else from them.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from nardy.calibration import BoardProfile, ProfileError
from nardy.vision.board import board_reader
from nardy.vision.config import VisionConfig
from nardy.vision.reading import BoardReading


@dataclass(frozen=True)
class DetectResult:
    reading: BoardReading
    profile: BoardProfile | None
    dice: tuple[dict[str, Any], ...] = ()
    cube: dict[str, Any] | None = None
    extras: dict[str, Any] = field(default_factory=dict)
    config: VisionConfig | None = None  # the reading's (None: the defaults)

    def to_json(self) -> dict[str, Any]:
        out = self.reading.to_json()
        conf = out.pop("confidence")
        out["dice"] = list(self.dice)
        out["cube"] = self.cube
        out["confidence"] = conf
        return out


def detect_image(
    image: np.ndarray,
    profile: BoardProfile | None = None,
    corners: Any = None,
    config: VisionConfig | None = None,
    objects: bool = True,
) -> DetectResult:
    """Read ``image`` with a profile, with corners given by hand, or finding the board itself;
    with ``objects``, the dice and the cube too (else :func:`with_objects` adds them later)."""
    config = config or VisionConfig()
    size = (image.shape[1], image.shape[0])
    if profile is None and corners is not None:
        profile = profile_from_corners(image, corners)
    if profile is None:
        from nardy.calibration.auto import BoardNotFound, find_board

        try:
            profile = find_board(image)
        except BoardNotFound as e:
            return DetectResult(BoardReading.unusable(str(e)), None)
    else:
        try:
            profile = profile.for_size(size)
        except ProfileError as e:
            return DetectResult(BoardReading.unusable(str(e)), profile)
    reading = board_reader(profile, config).read(image)  # kept from frame to frame
    result = DetectResult(reading, profile, config=config)
    return with_objects(result, image) if objects else result


def with_objects(result: DetectResult, image: np.ndarray) -> DetectResult:
    """``result`` with the dice and the cube in ``image`` read (the costly part of a frame).
    Dice found over points have the board read again, those points counted closely (a die
    beyond a short stack looks like one more checker to the reader of the whole board)."""
    if result.profile is None:
        return result
    dice, cube = _dice_and_cube(image, result.profile, result.reading)
    reading = result.reading
    on_points = [d["center"] for d in dice if d["where"] in ("left", "right")]
    if on_points and reading.usable:
        reader = board_reader(result.profile, result.config or VisionConfig())
        reading = reader.read(image, dice=on_points)
    return replace(result, reading=reading, dice=dice, cube=cube)


def profile_from_corners(image: np.ndarray, corners: Any) -> BoardProfile:
    """A profile from corners alone: the layout (bar, trays) measured from the photo."""
    from nardy.calibration.measure import measure_geometry

    size = (image.shape[1], image.shape[0])
    return BoardProfile.from_corners(corners, size, measure_geometry(image, corners))


def where_on_board(profile: BoardProfile, centre: tuple[float, float]) -> str:
    """ "left", "right" (halves of the board as it lies in the image), "bar" or "off"."""
    ((x, y),) = profile.image_to_board([centre])
    if not (0.0 <= x <= 1.0 and 0.0 <= y <= 1.0):
        return "off"
    left, right = profile.geometry.bar
    if x < left:
        return "left"
    if x > right:
        return "right"
    return "bar"


def _dice_and_cube(
    image: np.ndarray, profile: BoardProfile, reading: BoardReading
) -> tuple[tuple[dict[str, Any], ...], dict[str, Any] | None]:
    """The dice and the cube in ``nardy detect``'s form, each with its confidence."""
    from nardy.vision.cube import CubeConfig, find_cube
    from nardy.vision.dice import find_dice

    light_edge = None
    config = CubeConfig()
    if profile.orientation is None:  # whose side is whose, told from the checkers if they can
        from nardy.vision.sides import light_row

        seen = light_row(reading.points, reading.bar, reading.off, sure=config.side_sure)
        light_edge = seen.row
    cube = find_cube(image, profile, light_edge=light_edge, config=config)
    dice = []
    # told the board, the reader knows the dice's size there, and the cube's number is no die
    for d in find_dice(image, corners=profile.corners, cube=cube):
        centre = (float(d.center[0]), float(d.center[1]))
        dice.append(
            {
                "value": int(d.value),
                "flat": bool(d.flat),
                "where": where_on_board(profile, centre),
                "center": [round(centre[0], 1), round(centre[1], 1)],
                "box": [int(v) for v in d.box],
                "confidence": round(float(d.confidence), 3),
            }
        )
    if cube is None:
        return tuple(dice), None
    return tuple(dice), {**cube.to_json(), "confidence": round(cube.confidence, 3)}
