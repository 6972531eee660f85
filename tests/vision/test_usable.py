"""The usability checks that need no network, on the committed fixtures (read with their true
corners): motion blur, and a camera knocked out of calibration (the fixtures' boards moved in
the picture by a few per cent of their width, as a nudged camera moves them)."""

import dataclasses
import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from nardy.calibration import BoardProfile
from nardy.vision import usable_model
from nardy.vision.config import VisionConfig
from nardy.vision.sampler import Sampler
from nardy.vision.usable import (
    FrameCheck,
    board_light,
    edge_drift,
    frame_intruder,
    hand_over_tiles,
    strips_gray,
    strips_sharpness,
    surface_blur,
    surface_glare,
)

BOARDS = Path(__file__).resolve().parents[1] / "fixtures" / "boards"
CFG = VisionConfig()


def _fixtures(kind: str, every: int = 1) -> list[tuple[np.ndarray, FrameCheck, dict]]:
    out = []
    for path in sorted(BOARDS.glob(f"{kind}-*.json"))[::every]:
        truth = json.loads(path.read_text())
        image = cv2.imread(str(path.with_suffix(".jpg")))
        size = (image.shape[1], image.shape[0])
        out.append((image, FrameCheck(BoardProfile.from_corners(truth["corners"], size)), truth))
    return out


@pytest.fixture(scope="module")
def usable_boards():
    boards = _fixtures("bg-mid", 2) + _fixtures("dark-on-dark", 2) + _fixtures("bearoff", 2)
    return [b for b in boards if b[2]["usable"]]


def _motion_blur(image: np.ndarray, length: int, angle: float) -> np.ndarray:
    kernel = np.zeros((length, length), np.float32)
    kernel[length // 2] = 1.0 / length
    turn = cv2.getRotationMatrix2D((length / 2 - 0.5, length / 2 - 0.5), angle, 1.0)
    kernel = cv2.warpAffine(kernel, turn, (length, length))
    return cv2.filter2D(image, -1, kernel / kernel.sum())


def test_motion_blurred_frames_are_caught_and_sharp_ones_pass(usable_boards):
    moving = _fixtures("motion")
    assert len(moving) >= 5 and all(t["why"] == "motion" for _, _, t in moving)
    caught = [not surface_blur(c.surface_gray(im), CFG).usable for im, c, _ in moving]
    passed = [surface_blur(c.surface_gray(im), CFG).usable for im, c, _ in usable_boards]
    print(f"motion caught {sum(caught)}/{len(caught)}, sharp passed {sum(passed)}/{len(passed)}")
    assert all(caught)
    assert sum(passed) / len(passed) >= 0.97


def test_a_sharp_board_smeared_by_motion_is_caught(usable_boards):
    rng = np.random.default_rng(3)
    caught = []
    for image, check, _ in usable_boards[:12]:
        smeared = _motion_blur(image, int(rng.integers(9, 16)), float(rng.uniform(0, 180)))
        caught.append(not surface_blur(check.surface_gray(smeared), CFG).usable)
    assert sum(caught) >= 11, f"caught {sum(caught)} of {len(caught)}"


def test_a_knocked_camera_is_caught_and_a_calibrated_one_is_not(usable_boards):
    rng = np.random.default_rng(7)
    kept, moved = [], []
    for image, check, truth in usable_boards:
        kept.append(edge_drift(check.edges(image), CFG).usable)
        c = np.asarray(truth["corners"])
        size = (image.shape[1], image.shape[0])
        slide = 0.05 * np.linalg.norm(c[1] - c[0])
        a = rng.uniform(0, 2 * np.pi)
        turn = cv2.getRotationMatrix2D((size[0] / 2, size[1] / 2), rng.uniform(-1.5, 1.5), 1.0)
        turn[:, 2] += (slide * np.cos(a), slide * np.sin(a))
        nudged = cv2.warpAffine(image, turn, size, borderMode=cv2.BORDER_REFLECT)
        verdict = edge_drift(check.edges(nudged), CFG)
        moved.append(not verdict.usable)
        assert verdict.usable or "moved" in (verdict.why or "")
    print(f"calibrated kept {sum(kept)}/{len(kept)}, knocked caught {sum(moved)}/{len(moved)}")
    assert sum(kept) / len(kept) >= 0.97
    assert sum(moved) / len(moved) >= 0.8


def test_the_network_sees_hands_and_glare_and_passes_clear_boards(usable_boards):
    """The network alone (where it is sure), on the fixtures it never saw (its training renders
    use other seeds)."""
    flagged = {}
    for kind in ("hand", "glare"):
        boards = _fixtures(kind)
        flagged[kind] = [not c.learned(c.clear(im)).usable for im, c, _ in boards]
    passed = [c.learned(c.clear(im)).usable for im, c, _ in usable_boards]
    print({k: f"{sum(v)}/{len(v)} flagged" for k, v in flagged.items()}, f"clear {sum(passed)}")
    assert sum(flagged["hand"]) / len(flagged["hand"]) >= 0.6
    assert sum(flagged["glare"]) / len(flagged["glare"]) >= 0.8
    assert sum(passed) / len(passed) >= 0.93


def test_a_hand_seen_close_lies_over_two_tiles_or_more():
    probs = np.full(28, 0.01)
    probs[4] = 1.0  # one tile alone: a die or the cube, as often as a hand
    probs[26:] = 1.0  # the trays are not looked at
    assert hand_over_tiles(probs, CFG).usable
    probs[5] = CFG.hand_tile
    verdict = hand_over_tiles(probs, CFG)
    assert not verdict.usable and "point 5, point 6" in (verdict.why or "")
    probs[4], probs[25] = 0.01, 0.999
    assert "point 6, the bar" in (hand_over_tiles(probs, CFG).why or "")


def _strips(image: np.ndarray, check: FrameCheck) -> np.ndarray:
    return strips_gray(Sampler(check.profile, CFG).sample(image).strip_row())


def _nudged(image: np.ndarray, truth: dict, rng: np.random.Generator) -> np.ndarray:
    """The camera knocked: the picture slid by 5 % of the board's width and turned a little."""
    c = np.asarray(truth["corners"])
    size = (image.shape[1], image.shape[0])
    slide = 0.05 * np.linalg.norm(c[1] - c[0])
    turn = cv2.getRotationMatrix2D((size[0] / 2, size[1] / 2), rng.uniform(-1.5, 1.5), 1.0)
    turn[:, 2] += (slide, -slide)
    return cv2.warpAffine(image, turn, size, borderMode=cv2.BORDER_REFLECT)


def test_the_strips_settle_only_boards_the_surface_calls_sharp(usable_boards):
    """The quick look for motion blur on the sampler's strips gives the surface's verdict on
    every kind of frame (clear, a hand, glare, blurred, the camera knocked), and settles the
    plainly sharp ones by itself (so the surface is measured for the rest only)."""
    rng = np.random.default_rng(11)
    frames = [(im, c, "clear") for im, c, _ in usable_boards]
    for kind in ("hand", "glare", "motion"):
        frames += [(im, c, kind) for im, c, _ in _fixtures(kind)]
    frames += [(_nudged(im, t, rng), c, "moved") for im, c, t in usable_boards[:6]]
    settled = {kind: 0 for _, _, kind in frames}
    for image, check, kind in frames:
        strips = _strips(image, check)
        surface = surface_blur(check.surface_gray(image), CFG)
        assert check.motion_blur(image, strips).usable == surface.usable, kind
        if strips_sharpness(strips, CFG.blur_sigma) >= CFG.blur_sure:
            settled[kind] += 1
            assert surface.usable, kind
    print("settled by the strips:", settled)
    assert settled["motion"] == 0
    assert settled["clear"] >= len(usable_boards) // 3


def test_strips_of_a_smeared_board_are_never_sure_it_is_sharp(usable_boards):
    """Smeared in any direction, the diagonal ones too (the bottom row's strips run
    mirrored: counted as they lie, a smear along one diagonal would cancel out), and with
    a dim room's sensor noise over the smear (the strips are sampled point by point, the
    surface halved: noise looks sharper to the strips). The surface decides then, as it did
    before the strips were looked at (noise hides a smear from it too, now and then)."""
    rng = np.random.default_rng(5)
    for i, (image, check, _) in enumerate(usable_boards[:10]):
        angle = float(rng.uniform(0, 180))
        smeared = _motion_blur(image, int(rng.integers(9, 16)), angle)
        noisy = i % 2 == 1
        if noisy:
            noise = rng.normal(0, 12, smeared.shape)
            smeared = np.clip(smeared + noise, 0, 255).astype(np.uint8)
        strips = _strips(smeared, check)
        assert strips_sharpness(strips, CFG.blur_sigma) < CFG.blur_sure, (angle, noisy)
        verdict = check.motion_blur(smeared, strips)
        assert verdict == surface_blur(check.surface_gray(smeared), CFG)
        assert noisy or not verdict.usable, angle


def test_glare_is_a_blown_out_patch_wider_than_a_checker():
    width = CFG.strip_pixels
    strips = np.full((CFG.strip_length, 24 * width), 120, np.uint8)
    strips[10 : 10 + width, 3 * width : 3 * width + width // 2] = 255  # a white checker
    assert surface_glare(strips, CFG.glare_level, CFG).usable
    patch = int(CFG.glare_patch * width) + 2
    strips[40 : 40 + 2 * patch, 14 * width : 14 * width + patch] = 250
    verdict = surface_glare(strips, CFG.glare_level, CFG)
    assert not verdict.usable and "glare" in (verdict.why or "")


def test_a_lamp_caught_in_the_frames_lip_is_no_edge():
    """A dark frame round a dark surface: the step onto the surface is small, a thin bright
    line on the frame (its lip, lit) steps up and down by more. Where the profile puts the
    edge the board is calibrated; slid off it, on all four sides, it has moved."""
    n = CFG.edge_samples
    across = np.full(n, 20.0)
    across[n // 2 + 1 :] = 32.0  # the surface, a little lighter than the frame
    across[n // 2 - 5 : n // 2 - 3] = 60.0  # the lip, two samples wide
    profiles = np.tile(across, (4, 32, 1)).astype(np.uint8)
    assert edge_drift(profiles, CFG).usable
    slid = np.roll(profiles, 6, axis=2)
    slid[..., :6] = 20
    verdict = edge_drift(slid, CFG)
    assert not verdict.usable and "moved" in (verdict.why or "")


def test_a_white_stack_at_a_quarters_end_is_no_glare():
    """Beyond the quarter is not blown out: a column of white checkers one point wide at the
    end of a quarter (a nardy head overexposed) is narrower than a glare patch."""
    width = CFG.strip_pixels
    strips = np.full((CFG.strip_length, 24 * width), 120, np.uint8)
    strips[:, 12 * width : 13 * width - 2] = 255  # the first point of the third quarter
    assert surface_glare(strips, CFG.glare_level, CFG).usable
    strips[:, 13 * width - 2 : 14 * width] = 255  # and the point beside it: two points wide
    assert not surface_glare(strips, CFG.glare_level, CFG).usable


def test_too_dark_is_the_board_as_the_camera_took_it_not_the_room():
    """A lit board in a black room is light enough; the same board dimmed to a few grey
    levels is not, though its levels, stretched, span the full range again."""
    width = CFG.strip_pixels
    board = np.tile(np.linspace(40, 200, 24 * width).astype(np.uint8), (CFG.strip_length, 1))
    assert board_light(board, (0.0, 1.0), CFG).usable
    dim = (board / 20).astype(np.uint8)  # 2..10
    lo, hi = float(dim.min()), float(dim.max())
    stretched = ((dim - lo) * 255 / (hi - lo)).astype(np.uint8)
    verdict = board_light(stretched, (lo, 255 / (hi - lo)), CFG)
    assert not verdict.usable and "too dark" in (verdict.why or "")


def test_the_band_runs_beyond_the_trays_on_their_side():
    """Between the surface and the trays the frame is narrow and a tray's checkers lie over
    it: on the trays' side the band runs beyond them; elsewhere just off the surface."""
    from nardy.calibration.geometry import Rect

    corners = [(300, 100), (980, 110), (1000, 650), (280, 640)]
    plain = BoardProfile.from_corners(corners, (1280, 720))
    g = plain.geometry
    for x0, x1 in ((1.06, 1.15), (-0.15, -0.06)):
        trays = (Rect(x0, 0.53, x1, 1.0), Rect(x0, 0.0, x1, 0.47))
        geometry = dataclasses.replace(g, trays=trays)
        sampler = Sampler(BoardProfile.from_corners(corners, (1280, 720), geometry))
        band = sampler.band_coords()
        sides = zip(("top", "right", "bottom", "left"), sampler.band_sides, strict=True)
        for side, (a, b) in sides:
            xs, ys = band[:, a:b, 0], band[:, a:b, 1]
            if side == "right" and x0 > 0:
                assert xs.min() > x1
            elif side == "left" and x0 < 0:
                assert xs.max() < x0
            elif side in ("right", "left"):
                assert xs.min() > -0.06 and xs.max() < 1.06
            else:
                assert (ys < 0).all() or (ys > 1).all()


def test_the_shipped_onnx_network_computes_what_its_weights_do(usable_boards):
    """The reader runs ``usable_model.onnx``; its weights of record are the ``.npz`` (what
    training writes, read by NumPy): the two must not drift apart. Views of every kind."""
    frames = [(im, c) for im, c, _ in usable_boards[:6]]
    for kind in ("hand", "glare"):
        frames += [(im, c) for im, c, _ in _fixtures(kind)[:3]]
    views = np.stack([c.view.cut(im) for im, c in frames])
    onnx = usable_model.predict(views)
    weights = usable_model.predict(views, usable_model.WEIGHTS)
    assert np.abs(onnx - weights).max() < 1e-4
    assert (onnx[:6, 0] > 0.5).sum() >= 5 and (onnx[6:, 0] < 0.5).sum() >= 4


def test_the_band_sampled_apart_is_the_frame_round_the_surface():
    """``Sampler.band`` (remapped apart from the tiles, only when the band is looked at) shows
    the frame where the band's coordinates lie: a patch painted over the middle of the top
    side shows there and on no other side; stretched levels brighten it as they do the tiles."""
    corners = [(300, 100), (980, 110), (1000, 650), (280, 640)]
    profile = BoardProfile.from_corners(corners, (1280, 720))
    sampler = Sampler(profile)
    image = np.full((720, 1280, 3), 90, np.uint8)
    (a, b), *others = sampler.band_sides
    middle = (a + b) // 2
    spot = profile.board_to_image(sampler.band_coords()[:, middle]).mean(axis=0)
    cv2.circle(image, (round(spot[0]), round(spot[1])), 8, (250, 250, 250), -1)
    band = sampler.band(image)
    lightness = band[..., 0].mean(axis=0)
    assert band.shape[1] == sampler.band_sides[-1][1]
    assert lightness[middle] > 90 and lightness[a + 5] < 40
    assert all(lightness[s:e].max() < 40 for s, e in others)
    stretched = sampler.band(image, (20.0, 2.0))  # grey 90 stretched to 140
    assert stretched[..., 0].mean(axis=0)[a + 5] > lightness[a + 5]


def test_lamplight_fading_along_the_frame_is_no_hand():
    """A lamp brightens one end of a side gradually; an arm's edge changes the band at once.
    The same light over the same stretch of the top side: faded in, the frame is clear; all at
    once, something lies over it."""
    corners = [(300, 100), (980, 110), (1000, 650), (280, 640)]
    sampler = Sampler(BoardProfile.from_corners(corners, (1280, 720)))
    sides, in_view = sampler.band_sides, sampler.band_in_view
    (a, b), *_ = sides
    assert in_view.all()
    frame, lit = np.float32([30, 10, 20]), np.float32([60, 20, 40])
    band = np.empty((sampler.band_coords().shape[0], sides[-1][1], 3), np.float32)
    band[:] = frame
    reach = int(0.3 * (b - a))
    faded, sudden = band.copy(), band.copy()
    faded[:, a : a + reach] = frame + np.linspace(1, 0, reach)[:, None] * (lit - frame)
    sudden[:, a : a + reach] = lit
    assert frame_intruder(faded, sides, in_view, CFG).usable
    verdict = frame_intruder(sudden, sides, in_view, CFG)
    assert not verdict.usable and "top" in (verdict.why or "")


def test_a_lamp_fading_over_a_few_segments_is_no_hand_but_a_soft_arm_is():
    """A lamp low beside the frame shifts its colour over a few segments, each step over
    ``intruder_edge`` but small beside the whole shift (``intruder_edge_share``); an arm's edge,
    even blurred over two segments, is most of the shift at once."""
    corners = [(300, 100), (980, 110), (1000, 650), (280, 640)]
    sampler = Sampler(BoardProfile.from_corners(corners, (1280, 720)))
    sides, in_view = sampler.band_sides, sampler.band_in_view
    (a, b), *_ = sides
    k = (b - a) // CFG.intruder_segments
    frame, lit = np.float32([30, 10, 20]), np.float32([60, 20, 40])
    band = np.empty((sampler.band_coords().shape[0], sides[-1][1], 3), np.float32)
    band[:] = frame

    def lit_then_fading(over: int) -> np.ndarray:
        out = band.copy()
        out[:, a : a + 6 * k] = lit
        fade = np.repeat(np.linspace(1, 0, over + 2)[1:-1], k)[:, None]
        out[:, a + 6 * k : a + (6 + over) * k] = frame + fade * (lit - frame)
        return out

    lamp, arm = lit_then_fading(6), lit_then_fading(2)
    steps_only = dataclasses.replace(CFG, intruder_edge_share=0.0)  # each step over the edge
    assert not frame_intruder(lamp, sides, in_view, steps_only).usable
    assert frame_intruder(lamp, sides, in_view, CFG).usable
    verdict = frame_intruder(arm, sides, in_view, CFG)
    assert not verdict.usable and "top" in (verdict.why or "")
