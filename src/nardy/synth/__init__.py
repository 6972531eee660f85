"""Photo-like pictures of a real board with their truth: the stand-in for a camera in tests.

``random_scene(rng, **overrides) -> Scene`` draws a plausible scene; ``render(scene, seed) ->
(bgr_image, truth)`` draws it. Both are deterministic. The truth is the ``nardy detect`` JSON form
plus extras (``box`` on dice, ``corners``, ``light``, ``style``, ``markers``); see
``nardy.synth.render.truth``.
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
