"""Photo-like pictures of a real board with their truth: the stand-in for a camera in tests.

The API::

    random_scene(rng, *, kind=None, n_dice=None, cocked=0.2, with_cube=None, with_hand=None,
                 whole_board=False, fit=None, glare=False, motion=False, varied_hand=False,
                 looks="seen", **scene_fields) -> Scene
    render(scene, seed=0, ss=2, frame=0) -> (bgr_image: np.ndarray, truth: dict)
    Scene.to_json() / Scene.from_json(d)          # the scene round-trips through JSON

:class:`Scene` (frozen) holds the board style (``styles.BOARD_STYLES``: classic, dark, felt,
leather, nardy), the checker set (``styles.CHECKER_SETS``), the position as the project's JSON
form (``points``: 24 ints, + light, − dark, numbered as the board lies in the image — 1 is
bottom-right, 1–12 run right to left along the bottom, 13–24 left to right along the top —
``bar`` and ``off`` as (light, dark)), ``dice`` (:class:`Die`), ``cube`` (:class:`Cube`),
``hand`` (:class:`Hand`), ``camera`` (:class:`Camera`), ``lighting`` (:class:`Lighting`),
``markers`` and ``size`` (1280×720 by default). ``positions.KINDS`` are the kinds of position
``random_scene`` draws: backgammon_start, nardy_start, backgammon, nardy, bearoff, stacks;
``positions.RARE_KINDS`` (hypergammon's three checkers a side) only when asked for by name.
``styles.HELD_OUT_*`` are looks no reader is trained on (two boards, two checker sets, two dice
styles), drawn only with ``looks="held_out"``: they measure the readers on what they never saw.

The truth (also the fixture file format) is the ``nardy detect`` JSON form plus extras::

    {"image", "usable", "why" (only when not usable: "hand" | "motion" | "glare"),
     "points": [24], "bar": [light, dark], "off": [light, dark] | null (trays out of view),
     "dice": [{"value", "flat", "where": "left"|"right"|"bar"|"off", "center": [x, y],
               "box": [x, y, w, h]}],
     "cube": {"value" (face on top, 64 in the middle at the start), "where":
              "middle"|"light"|"dark", "center": [x, y]} | null,
     "corners": [[x, y] × 4]  (inner corners of the frame on the playing surface, TL TR BR BL),
     "light": colour name of the lighter set, "lens": {"f", "cx", "cy", "k1", "k2"},
     "markers": [{"id", "corners": [[x, y] × 4]}] (ArUco DICT_4X4_50, only when stuck on: the
                 black squares' corners; stuck as ``nardy.calibration.markers`` asks),
     "marker_layout": {"side_mm", "step_mm", "inset_mm"} (with the markers: their placement),
     "style": {"board", "checkers", "seed", "scene": Scene.to_json()}}

Pixel coordinates are those of the distorted image. Everything is deterministic: the same scene
and seed give the same bytes (with the same OpenCV build).
"""

from nardy.synth.compose import random_scene
from nardy.synth.render import render
from nardy.synth.scene import Camera, Cube, Die, Hand, Lighting, Scene, SceneError

__all__ = [
    "Camera",
    "Cube",
    "Die",
    "Hand",
    "Lighting",
    "Scene",
    "SceneError",
    "random_scene",
    "render",
]
