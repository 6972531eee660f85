"""The stillness signal on the committed clips of moves (hand in, checker moved, hand out), frame
by frame against each clip's truth, with the usability check's word on each frame as the
referee's reader gives it.

A clip's truth counts the hand from the moment it starts toward the board until it is gone,
while the picture shows it only once it reaches into view: the frames where the hand is out of
view look exactly like a still board (no reader can tell them apart). So the signal is measured
twice: against the clip's truth, and against the same rule (``STILL_AFTER`` frames with no hand
and no change) applied to what the pictures show.
"""

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from nardy.calibration import BoardProfile
from nardy.synth.clip import STILL_AFTER
from nardy.vision.config import VisionConfig
from nardy.vision.images import load_video
from nardy.vision.still import StillnessTracker
from nardy.vision.usable import FrameCheck

CLIPS = Path(__file__).resolve().parents[1] / "fixtures" / "clips"


def hand_in_view(frames: list[np.ndarray], truth: list[dict]) -> list[bool]:
    """Whether each frame shows the hand: its truth has one, and the picture differs from the
    clip's frames without a hand and with the same checkers by more than noise."""
    gray = [cv2.cvtColor(f, cv2.COLOR_BGR2GRAY).astype(np.int16) for f in frames]
    out = []
    for g, t in zip(gray, truth, strict=True):
        if not t["hand"]:
            out.append(False)
            continue
        bare = [
            gray[u["index"]]
            for u in truth
            if not u["hand"] and (u["points"], u["bar"]) == (t["points"], t["bar"])
        ]
        changed = min(float(np.mean(np.abs(g - b) > 40)) for b in bare) if bare else 1.0
        out.append(changed > 0.0005)
    return out


def still_as_seen(truth: list[dict], seen: list[bool]) -> list[bool]:
    """The clip's own rule for "still" on what the pictures show: the last ``STILL_AFTER``
    frames (this one included) show no hand and the same checkers."""
    out = []
    position = [(t["points"], t["bar"]) for t in truth]
    for i in range(len(truth)):
        window = range(i - STILL_AFTER + 1, i + 1)
        out.append(
            i >= STILL_AFTER - 1
            and not any(seen[j] for j in window)
            and all(position[j] == position[i] for j in window)
        )
    return out


@pytest.fixture(scope="module")
def runs():
    cfg = VisionConfig()
    result = []
    for path in sorted(CLIPS.glob("*.frames.json")):
        meta = json.loads(path.read_text())
        frames = load_video(CLIPS / meta["video"])
        truth = meta["frames"]
        assert len(frames) == len(truth), path.name
        check = FrameCheck(BoardProfile.from_corners(meta["corners"], tuple(meta["size"])), cfg)
        tracker = StillnessTracker(cfg)
        said = []
        for frame in frames:
            usable = all(v.usable for v in check.judge(frame))
            said.append(tracker.update(frame, usable=usable).still)
        result.append((path.name, truth, said, hand_in_view(frames, truth)))
    assert len(result) >= 4, "the clips are missing"
    return result


def test_never_still_while_a_hand_is_in_view(runs):
    for name, _truth, said, seen in runs:
        bad = [i for i, (s, h) in enumerate(zip(said, seen, strict=True)) if s and h]
        assert not bad, f"{name}: still with a hand in view on frames {bad}"


def test_the_still_signal_agrees_with_the_clips_truth(runs):
    agree = seen_agree = total = 0
    for name, truth, said, seen in runs:
        right = sum(s == t["still"] for s, t in zip(said, truth, strict=True))
        as_seen = still_as_seen(truth, seen)
        right_seen = sum(s == a for s, a in zip(said, as_seen, strict=True))
        print(f"{name}: {right}/{len(said)} with the truth, {right_seen} with what is seen")
        agree, seen_agree, total = agree + right, seen_agree + right_seen, total + len(said)
    print(f"all clips: {agree}/{total} with the truth, {seen_agree}/{total} with what is seen")
    assert seen_agree / total >= 0.95
    assert agree / total >= 0.8
