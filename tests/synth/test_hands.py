"""The training sets' hands (``random_scene(varied_hand=True)``) vary as real ones do, and the
hands drawn before them are written and rendered as they were."""

from __future__ import annotations

import dataclasses

import numpy as np

from nardy.synth import Scene, random_scene, render
from nardy.synth.board import Board
from nardy.synth.scene import Hand


def _hands(n: int = 60) -> list[tuple[Scene, Hand]]:
    out = []
    for seed in range(n):
        scene = random_scene(np.random.default_rng(seed), with_hand=True, varied_hand=True)
        assert scene.hand is not None
        out.append((scene, scene.hand))
    return out


def test_varied_hands_cover_skins_sleeves_edges_and_what_they_hold():
    hands = [h for _, h in _hands()]
    lightness = [float(np.mean(h.tone)) for h in hands if h.tone is not None]
    assert len(lightness) == len(hands)
    assert min(lightness) < 0.2 and max(lightness) > 0.6  # very dark to pale skin
    assert {h.enters for h in hands} == {"bottom", "top", "left", "right"}
    assert {h.holding for h in hands} == {"", "light", "dark", "cup"}
    fabric = [float(np.mean(h.fabric)) for h in hands if h.fabric is not None]
    assert min(fabric) < 0.1 and max(fabric) > 0.6  # dark and light sleeves
    assert any(h.cuff is not None and h.cuff > 520 for h in hands)  # bare arms (past LENGTH)


def test_some_varied_hands_reach_only_over_the_frame():
    edge = 0
    for scene, h in _hands():
        b = Board.of(scene)
        x, y = h.reach
        if abs(x) > b.inner_w / 2 - 1e-6 or abs(y) > b.inner_h / 2 - 1e-6:
            edge += 1
            assert h.height <= 60  # low: fingers on the frame, not high in the air beside it
    assert edge >= 10


def test_varied_hands_are_drawn_from_the_seed():
    a = random_scene(np.random.default_rng(7), with_hand=True, varied_hand=True)
    b = random_scene(np.random.default_rng(7), with_hand=True, varied_hand=True)
    assert a == b


def test_the_new_hand_fields_are_written_only_when_set():
    plain = random_scene(np.random.default_rng(3), with_hand=True)
    assert plain.hand is not None and plain.hand.tone is None
    assert set(plain.to_json()["hand"]) == {
        "enters",
        "reach",
        "height",
        "skin",
        "sleeve",
        "spread",
        "holding",
    }
    varied = random_scene(np.random.default_rng(3), with_hand=True, varied_hand=True)
    assert Scene.from_json(varied.to_json()) == varied
    assert Scene.from_json(plain.to_json()) == plain


def test_a_hand_holding_the_cup_is_drawn_with_it():
    scene = random_scene(
        np.random.default_rng(11), with_hand=True, varied_hand=True, size=(320, 180)
    )
    assert scene.hand is not None
    hand = dataclasses.replace(scene.hand, holding="", reach=(0.0, 0.0), height=150.0)
    bare, _ = render(dataclasses.replace(scene, hand=hand), 5, ss=1)
    cup, _ = render(
        dataclasses.replace(scene, hand=dataclasses.replace(hand, holding="cup")), 5, ss=1
    )
    changed = np.abs(bare.astype(float) - cup.astype(float)).max(axis=2) > 30
    assert changed.mean() > 0.003  # the cup beyond the fingertips, a few checkers wide
