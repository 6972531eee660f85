"""Scoring the dice and cube readers against truth: shared by ``scripts/evaluate_dice.py`` and
the tests, so both count the same way.

Truth comes in two forms: the real photographs' YOLO labels (a box over the top face's pips,
value = class + 1) and the rendered fixtures' JSON (``dice``: value, flat, where, center, box;
``cube``: value, where, or null). A reading matches a true die when its centre lies within
``reach`` times the larger side of the true box (or of its own box) from the true centre.

A rendered die the truth calls ``hidden`` (its top face all but wholly under the hand, or out
of the picture: ``nardy.synth.render.top_seen``) is left out of every figure: neither found nor
missed when read or not, and a reading on it is no false die. ``DiceScore.hidden`` counts them.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from nardy.vision.dice import DieReading


@dataclass(frozen=True)
class TrueDie:
    value: int
    center: tuple[float, float]
    size: float  # the larger side of the true box
    flat: bool | None = None  # None where the truth does not say (the real photographs)
    where: str | None = None
    style: str | None = None  # the rendered die's style (white, ivory, red, ...)
    hidden: bool = False  # its top face is not in the picture to be seen (the renderer says)


@dataclass
class DiceScore:
    dice: int = 0
    found: int = 0
    right: int = 0
    false: int = 0
    images: int = 0
    cocked_dice: int = 0  # cocked dice in the truth, found or not
    cocked_true: int = 0  # cocked dice in the truth that were found
    cocked_caught: int = 0  # ... and read as cocked
    cocked_called: int = 0  # found dice read as cocked
    cocked_called_right: int = 0
    where_total: int = 0
    where_right: int = 0
    hidden: int = 0  # true dice left out of the figures: no one could see them
    wrong: list[tuple[str, int, int | None]] = field(default_factory=list)

    @property
    def value_accuracy(self) -> float:
        """Right values over all true dice: a missed die counts as wrong."""
        return self.right / self.dice if self.dice else 1.0

    @property
    def cocked_recall(self) -> float:
        return self.cocked_caught / self.cocked_true if self.cocked_true else 1.0

    @property
    def cocked_precision(self) -> float:
        return self.cocked_called_right / self.cocked_called if self.cocked_called else 1.0

    def line(self, name: str) -> str:
        text = (
            f"{name}: {self.images} images, {self.dice} dice, found {self.found}, "
            f"missed {self.dice - self.found}, false {self.false}, "
            f"values right {self.right} ({self.value_accuracy:.2%})"
        )
        if self.cocked_true or self.cocked_called:
            text += (
                f", cocked recall {self.cocked_caught}/{self.cocked_true} found "
                f"({self.cocked_recall:.1%}; of all {self.cocked_dice} cocked dice "
                f"{self.cocked_caught / max(self.cocked_dice, 1):.1%}), "
                f"precision {self.cocked_called_right}/{self.cocked_called} "
                f"({self.cocked_precision:.1%})"
            )
        if self.where_total:
            text += f", where right {self.where_right}/{self.where_total}"
        if self.hidden:
            text += f"; {self.hidden} hidden {'die' if self.hidden == 1 else 'dice'} left out"
        return text


def yolo_truth(image_path: Path, width: int, height: int) -> list[TrueDie]:
    out = []
    for line in image_path.with_suffix(".txt").read_text().splitlines():
        if line.strip():
            c, cx, cy, bw, bh = (float(v) for v in line.split())
            out.append(TrueDie(int(c) + 1, (cx * width, cy * height), max(bw * width, bh * height)))
    return out


def fixture_truth(truth: dict) -> list[TrueDie]:
    out = []
    drawn = truth.get("style", {}).get("scene", {}).get("dice", [])
    for i, d in enumerate(truth.get("dice", [])):
        box = d.get("box") or [0, 0, 0, 0]
        out.append(
            TrueDie(
                int(d["value"]),
                (float(d["center"][0]), float(d["center"][1])),
                float(max(box[2], box[3])),
                bool(d.get("flat", True)),
                d.get("where"),
                drawn[i].get("style") if i < len(drawn) else None,
                bool(d.get("hidden", False)),
            )
        )
    return out


def load_fixture(path: Path) -> dict:
    return json.loads(path.with_suffix(".json").read_text())


def nearest_first(pairs: Iterable[tuple[bool, float, int, int]], dice: int) -> list[int | None]:
    """For each of ``dice`` true dice, the reading paired with it, or None. ``pairs`` are the
    candidates ``(hidden, distance, die, reading)``, each reading within reach of the die: the
    closest pair is taken first, then the closest of the rest, and so on (taken die by die in
    the truth's order, a reading on one of two dice lying together went to whichever came
    first, and its right value was counted wrong for the other die). Hidden dice are paired
    last, so that none takes a reading from a die in view."""
    out: list[int | None] = [None] * dice
    used: set[int] = set()
    for _, _, i, k in sorted(pairs):
        if out[i] is None and k not in used:
            out[i] = k
            used.add(k)
    return out


def match(
    readings: Sequence[DieReading], truth: Sequence[TrueDie], reach: float = 0.8
) -> list[int | None]:
    """For each true die, the index of the reading that found it, or None (``nearest_first``):
    a reading within ``reach`` of the larger of the die's and its own box, and 2 pixels."""
    pairs = []
    for i, t in enumerate(truth):
        for k, r in enumerate(readings):
            d = float(np.hypot(r.center[0] - t.center[0], r.center[1] - t.center[1]))
            if d <= reach * max(t.size, r.box[2], r.box[3]) + 2:
                pairs.append((t.hidden, d, i, k))
    return nearest_first(pairs, len(truth))


def score_image(
    score: DiceScore,
    name: str,
    readings: Sequence[DieReading],
    truth: Iterable[TrueDie],
    reach: float = 0.8,
    wheres: Sequence[str] | None = None,
    count_false: bool = True,
) -> None:
    """Add one image's readings to the score (greedy nearest matching)."""
    score.images += 1
    truth = list(truth)
    found = match(readings, truth, reach)
    for t, best in zip(truth, found, strict=True):
        if t.hidden:
            score.hidden += 1
            continue
        score.dice += 1
        score.cocked_dice += t.flat is False
        if best is None:
            score.wrong.append((name, t.value, None))
            continue
        r = readings[best]
        score.found += 1
        if r.value == t.value:
            score.right += 1
        else:
            score.wrong.append((name, t.value, r.value))
        if t.flat is not None:
            if not t.flat:
                score.cocked_true += 1
                score.cocked_caught += not r.flat
            if not r.flat:
                score.cocked_called += 1
                score.cocked_called_right += not t.flat
        if wheres is not None and t.where is not None:
            score.where_total += 1
            score.where_right += wheres[best] == t.where
    if count_false:
        score.false += len(readings) - sum(b is not None for b in found)
