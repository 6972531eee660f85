"""The stillness signal on frames made here: noise alone, a moving hand-sized blob, a pause."""

import numpy as np

from nardy.vision.config import VisionConfig
from nardy.vision.still import StillnessTracker

RNG = np.random.default_rng(5)
BASE = RNG.integers(40, 200, size=(360, 640, 3)).astype(np.uint8)


def _frame(blob_at: int | None = None, noise: float = 3.0) -> np.ndarray:
    f = BASE.astype(np.float32) + RNG.normal(0, noise, BASE.shape)
    if blob_at is not None:
        f[100:260, blob_at : blob_at + 120] = (150, 170, 210)
    return np.clip(f, 0, 255).astype(np.uint8)


def test_a_quiet_board_becomes_still_after_the_configured_frames():
    cfg = VisionConfig()
    tracker = StillnessTracker(cfg)
    states = [tracker.update(_frame()) for _ in range(cfg.still_frames + 3)]
    assert not any(s.still for s in states[: cfg.still_frames])
    assert all(s.still for s in states[cfg.still_frames :])
    assert sum(s.changed for s in states) == 1


def test_motion_ends_stillness_at_once_and_it_needs_quiet_frames_to_return():
    cfg = VisionConfig()
    tracker = StillnessTracker(cfg)
    for _ in range(cfg.still_frames + 1):
        tracker.update(_frame())
    moving = [tracker.update(_frame(blob_at=x)) for x in range(50, 400, 60)]
    assert all(not s.still for s in moving)
    assert moving[0].changed
    # the hand has left (that frame still shows a change): still again only after the wait
    after = [tracker.update(_frame()) for _ in range(cfg.still_frames + 2)]
    assert [s.still for s in after].index(True) == cfg.still_frames


def test_a_hand_held_still_over_the_board_is_not_a_still_board():
    cfg = VisionConfig()
    tracker = StillnessTracker(cfg)
    states = [tracker.update(_frame(blob_at=200), usable=False) for _ in range(20)]
    assert not any(s.still for s in states)


def test_sensor_noise_does_not_count_as_motion():
    cfg = VisionConfig()
    tracker = StillnessTracker(cfg)
    tracker.update(_frame(noise=6.0))
    state = tracker.update(_frame(noise=6.0))
    assert state.motion < cfg.motion_low


def _with(frame: np.ndarray, rows: slice, cols: slice) -> np.ndarray:
    out = frame.copy()
    out[rows, cols] = (60, 80, 120)
    return out


def _still_board(cfg: VisionConfig) -> StillnessTracker:
    tracker = StillnessTracker(cfg)
    for _ in range(cfg.still_frames + 1):
        state = tracker.update(_frame())
    assert state.still
    return tracker


def _after_a_hand(cfg: VisionConfig) -> StillnessTracker:
    """A still board over which a hand has just passed."""
    tracker = _still_board(cfg)
    for x in range(50, 400, 60):
        tracker.update(_frame(blob_at=x))
    return tracker


def test_fingers_paused_at_the_pictures_edge_keep_the_board_from_being_still():
    """Fingertips, 3 % of the picture at its bottom edge, held still after the hand moved (the
    usability check missing them): not still, however long they stay short of settling."""
    cfg = VisionConfig()
    tracker = _after_a_hand(cfg)
    fingers = [
        tracker.update(_with(_frame(), slice(300, 360), slice(300, 400)))
        for _ in range(cfg.settle_frames - 1)
    ]
    assert not any(s.still for s in fingers)


def test_a_checker_moved_inside_the_picture_is_still_once_the_hand_has_gone():
    cfg = VisionConfig()
    tracker = _after_a_hand(cfg)
    moved = [
        tracker.update(_with(_frame(), slice(150, 175), slice(300, 325)))
        for _ in range(cfg.still_frames + 2)
    ]
    assert [s.still for s in moved].index(True) == cfg.still_frames


def test_a_board_set_up_afresh_is_still_once_quiet_though_much_of_it_changed():
    """A new game: checkers gathered from every point and set out again change a good part of
    the picture, but nothing at its edge; the referee must not wait for the settling time."""
    cfg = VisionConfig()
    tracker = _after_a_hand(cfg)
    reset = _frame()
    reset[40:320, 60:580] = 255 - reset[40:320, 60:580]  # most of the inside, none of the edge
    states = [tracker.update(reset) for _ in range(cfg.still_frames + 2)]
    assert [s.still for s in states].index(True) == cfg.still_frames
