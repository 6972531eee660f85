"""The renderer's truth agrees with its scene, and it is deterministic."""

from __future__ import annotations

import dataclasses
import sys

import numpy as np
import pytest

from nardy.synth import Scene, SceneError, random_scene, render
from nardy.synth.positions import KINDS, RARE_KINDS, make, orient

SEEDS = [3, 17, 29, 41]


@pytest.fixture(scope="module")
def rendered():
    out = []
    for seed in SEEDS:
        scene = random_scene(
            np.random.default_rng(seed),
            with_cube=True,
            n_dice=2,
            with_hand=seed == 41,
            markers=seed == 29,
        )
        out.append((scene, *render(scene, seed, ss=1)))
    return out


@pytest.mark.parametrize("kind", KINDS + RARE_KINDS)
def test_positions_keep_their_checkers(kind):
    per_side = 3 if kind.startswith("hypergammon") else 15
    for seed in range(20):
        pts, bar, off = orient(make(kind, np.random.default_rng(seed))[0], seed % 4)
        light = sum(n for n in pts if n > 0) + bar[0] + off[0]
        dark = -sum(n for n in pts if n < 0) + bar[1] + off[1]
        assert (light, dark) == (per_side, per_side)


def test_hypergammon_starts_on_each_sides_24_23_and_22():
    pts, bar, off = make("hypergammon_start", np.random.default_rng(0))[0]
    # light's own 24-22 are the image's 24-22 as light's home lies (bottom-right); dark's are
    # light's 1-3
    assert [p + 1 for p, n in enumerate(pts) if n] == [1, 2, 3, 22, 23, 24]
    assert pts[21:] == (1, 1, 1) and pts[:3] == (-1, -1, -1) and bar == off == (0, 0)


def test_truth_is_the_scene(rendered):
    for scene, img, truth in rendered:
        assert img.shape == (scene.size[1], scene.size[0], 3) and img.dtype == np.uint8
        assert truth["points"] == list(scene.points)
        assert truth["bar"] == list(scene.bar)
        assert truth["off"] in (list(scene.off), None)
        assert [d["value"] for d in truth["dice"]] == [d.value for d in scene.dice]
        assert truth["usable"] is (scene.hand is None and scene.lighting.motion < 6)
        assert ("why" in truth) is (not truth["usable"])
        assert Scene.from_json(truth["style"]["scene"]) == scene


def test_corners_project_inside_the_image(rendered):
    for scene, _, truth in rendered:
        c = np.array(truth["corners"])
        w, h = scene.size
        assert c.shape == (4, 2)
        assert (c >= 0).all() and (c[:, 0] < w).all() and (c[:, 1] < h).all()
        tl, tr, br, bl = c
        assert tl[0] < tr[0] and bl[0] < br[0] and tl[1] < bl[1] and tr[1] < br[1]


def test_dice_centres_inside_their_boxes(rendered):
    n = 0
    for _, _, truth in rendered:
        for d in truth["dice"]:
            x, y, w, h = d["box"]
            assert x <= d["center"][0] <= x + w and y <= d["center"][1] <= y + h
            assert 5 < w < 120 and 5 < h < 120
            n += 1
    assert n >= 4


def test_markers_are_inside_the_image(rendered):
    found = [t for _, _, t in rendered if "markers" in t]
    assert found
    for m in found[0]["markers"]:
        assert np.array(m["corners"]).shape == (4, 2)


def test_the_picture_shows_the_board(rendered):
    """The playing field differs from the table around it (the board is drawn where the
    corners say)."""
    for _, img, truth in rendered:
        c = np.array(truth["corners"])
        inside = img[
            int(c[:, 1].min()) + 5 : int(c[:, 1].max()) - 5,
            int(c[:, 0].min()) + 5 : int(c[:, 0].max()) - 5,
        ]
        assert inside.size and inside.std() > 10


def test_same_seed_same_bytes():
    scene = random_scene(np.random.default_rng(5), n_dice=2, with_cube=True)
    a, ta = render(scene, 5, ss=1)
    b, tb = render(scene, 5, ss=1)
    assert a.tobytes() == b.tobytes() and ta == tb
    c, _ = render(scene, 6, ss=1)
    assert a.tobytes() != c.tobytes()


def test_bad_scenes_are_refused():
    with pytest.raises(SceneError):
        Scene(points=(16,) + (0,) * 23)
    with pytest.raises(SceneError):
        Scene(points=(0,) * 23)
    with pytest.raises(SceneError):
        render(dataclasses.replace(Scene(), board="plastic"), 0)


def test_a_remembered_board_draws_the_same_picture():
    """Clips reuse the board drawn for the previous frame; the picture must not change."""
    render_module = sys.modules["nardy.synth.render"]  # the package's render is the function

    scene = random_scene(np.random.default_rng(8), n_dice=1)
    moved = dataclasses.replace(scene, points=tuple(reversed(scene.points)))
    render(scene, 8, ss=1)
    cached, _ = render(moved, 8, ss=1)
    render_module._BOARD_CACHE.clear()
    fresh, _ = render(moved, 8, ss=1)
    assert cached.tobytes() == fresh.tobytes()


#: A wide view (f ≈ 370 px across 1280) with both radial terms negative: the lens stopped
#: bending monotonically before the image's corners and the renderer asked for a 46.6 GiB canvas.
WIDE_BARREL = dict(
    height=427.31499219902065,
    tilt=25.21762359290856,
    azimuth=214.3527744269793,
    roll=-1.898467269120156,
    aim=(28.120901607940233, -5.304966643708614),
    fill=0.8720502405387323,
    fit="board",
    k1=-0.012504552547851877,
    k2=-0.009078627421575733,
)


def test_a_wide_barrel_lens_renders_on_a_canvas_of_sane_size():
    from nardy.synth.render import image_view
    from nardy.synth.scene import Camera

    scene = random_scene(np.random.default_rng(122), n_dice=2, cocked=0.35, with_cube=True)
    scene = dataclasses.replace(scene, camera=Camera(**WIDE_BARREL))
    _, lens, _ = image_view(scene)
    mapx, mapy = lens.maps(scene.size)
    w, h = scene.size
    assert mapx.min() > -w and mapx.max() < 2 * w
    assert mapy.min() > -h and mapy.max() < 2 * h
    image, truth = render(scene, 122, ss=1)
    assert image.shape == (h, w, 3)
    assert all(0 <= x < w and 0 <= y < h for x, y in truth["corners"])


@pytest.mark.parametrize("k1", [-0.15, -0.05, 0.0, 0.02])
@pytest.mark.parametrize("k2", [-0.01, 0.0, 0.04])
@pytest.mark.parametrize("f", [300.0, 500.0, 1100.0])
def test_the_lens_inverts_everywhere_on_the_image(k1, k2, f):
    from nardy.synth.camera import Lens, tame

    size = (1280, 720)
    r2 = (size[0] ** 2 + size[1] ** 2) / 4 / f**2
    lens = Lens(f, 640.0, 360.0, *tame(k1, k2, r2))
    corners = np.array([[0.0, 0.0], [1279.0, 0.0], [1279.0, 719.0], [0.0, 719.0], [640, 360]])
    ideal = lens.undistort(corners)  # as many rounds as Lens.maps takes
    assert np.abs(ideal).max() < 4 * size[0]
    assert np.allclose(lens.distort(ideal), corners, atol=0.5)


#: A low camera, far back and turned a little: the picture's top left corner looks above the
#: horizon and its top right meets the table kilometres away.
SKYWARD = {"tilt": 60.0, "fill": 0.4, "roll": 8.0}


def _rays_z(view, px: np.ndarray) -> np.ndarray:
    cam = np.stack([(px[:, 0] - view.cx) / view.f, (px[:, 1] - view.cy) / view.f, np.ones(len(px))])
    return (cam.T @ view.rot)[:, 2]


def test_the_table_ends_at_the_far_wall_where_the_picture_looks_past_it():
    import cv2

    from nardy.synth.render import TABLE_FAR_MM, image_view, table_outline
    from nardy.synth.scene import Camera

    scene = Scene(camera=Camera(**SKYWARD), size=(320, 180))
    view, _, board = image_view(scene)
    w, h = scene.size
    z = -board.base
    quad, whole = table_outline(view, w, h, z)
    assert not whole and quad is not None
    assert np.allclose(quad[:, 2], z)
    depth = view.depth(quad)
    assert (depth > 0).all() and (depth <= TABLE_FAR_MM * (1 + 1e-9)).all()
    # the quad as drawn covers every pixel that sees the table nearer than the far wall, and
    # no pixel that looks above the horizon
    uu, vv = np.meshgrid(np.linspace(0, w, 33), np.linspace(0, h, 19))
    px = np.stack([uu.ravel(), vv.ravel()], 1)
    rz = _rays_z(view, px)
    meets = (z - view.eye[2]) / np.where(rz < 0, rz, -1e-12)
    outline = view.project(quad).astype(np.float32)
    inside = np.array([cv2.pointPolygonTest(outline, (float(u), float(v)), True) for u, v in px])
    sky, table = rz >= 0, meets < TABLE_FAR_MM * 0.99
    assert sky.any() and table.any()
    assert (inside[table] >= -1e-3).all()
    assert (inside[sky] < 0).all()


def test_the_table_is_the_whole_picture_when_it_fills_it():
    from nardy.synth.render import image_view, table_outline

    scene = Scene(size=(320, 180))  # looking straight down
    view, _, board = image_view(scene)
    quad, whole = table_outline(view, 320, 180, -board.base)
    assert whole
    assert np.allclose(view.project(quad), [[0, 0], [320, 0], [320, 180], [0, 180]])


def test_a_picture_that_looks_past_the_table_shows_a_room_not_black():
    from nardy.synth.scene import Camera

    scene = Scene(camera=Camera(**SKYWARD), size=(320, 180))
    image, _ = render(scene, 3, ss=1)
    assert (image.max(2) < 12).mean() < 0.01


def test_a_die_under_the_hand_is_hidden_and_one_in_view_is_not():
    """The truth says how much of each die's top face the picture shows: a die under the
    hand's palm is hidden, the same die without the hand is wholly seen; and a scene without a
    hand has the same truth drawn or not (``drawless_truth``)."""
    from nardy.synth import Die, Hand
    from nardy.synth.render import drawless_truth

    scene = random_scene(np.random.default_rng(12), n_dice=0, with_hand=False, with_cube=False)
    dice = (Die(3, "right", (150.0, -60.0)), Die(5, "left", (-180.0, 60.0)))
    bare = dataclasses.replace(scene, dice=dice)
    # the palm lies some 120 mm back from the fingertips, toward the player (the bottom edge)
    palm = Hand(enters="bottom", reach=(150.0, 60.0), height=25.0)
    _, seen = render(bare, 12, ss=1)
    _, covered = render(dataclasses.replace(bare, hand=palm), 12, ss=1)
    assert [d["visible"] for d in seen["dice"]] == [1.0, 1.0]
    assert not any("hidden" in d for d in seen["dice"])
    assert covered["dice"][0]["hidden"] is True and covered["dice"][0]["visible"] < 0.25
    assert covered["dice"][1]["visible"] == 1.0 and "hidden" not in covered["dice"][1]
    assert drawless_truth(bare, 12) == seen


def test_a_die_the_cube_stands_on_is_hidden_and_one_beside_it_is_not():
    """The doubling cube covers a die it stands on (the scene may put both on the bar's middle)
    as the hand does, drawn or not; a die across the board from it is wholly seen."""
    from nardy.synth import Cube, Die
    from nardy.synth.render import drawless_truth

    scene = random_scene(np.random.default_rng(12), n_dice=0, with_hand=False, with_cube=False)
    dice = (Die(3, "bar", (0.0, -3.0)), Die(5, "right", (150.0, -60.0)))
    cubed = dataclasses.replace(scene, dice=dice, cube=Cube(64, "middle", (1.0, -1.0)))
    _, drawn = render(cubed, 12, ss=1)
    under, apart = drawn["dice"]
    assert under["hidden"] is True and under["visible"] < 0.25
    assert apart["visible"] == 1.0 and "hidden" not in apart
    assert drawless_truth(cubed, 12) == drawn
    bare = drawless_truth(dataclasses.replace(cubed, cube=None), 12)
    assert [d["visible"] for d in bare["dice"]] == [1.0, 1.0]
