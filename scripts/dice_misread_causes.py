"""Where the board-plane reader's misread values come from, on renders with truth.

    PYTHONPATH=src python scripts/dice_misread_causes.py DIR [DIR ...]

Each folder's renders are read as ``evaluate_dice.py --corners`` reads them (``find_dice`` told
the corners). Every die found but read wrong is read again by the board-plane reader
(``dice_tilt.read_flat``, as ``DiceConfig`` cuts it) at the true top face's centre, at the face
size the reader found and at the true one (the truth box's larger side), and put down to:

- ``place``: read right at the true centre: where the placer (``dice_place``) put the face;
- ``size``: read right at the true centre only at the true face's size;
- ``reader``: wrong there too.

A line for each such die says how far (in true faces) the found and the placed centres lie from
the true one, and what the die rests on. A shaken frame is read again as it is, not unsmeared
as ``find_dice`` reads it, so its re-reads may differ from the pipeline's.

Session 17, on p15h, p15hc, p16h, p16hc (1,560 dice, 1,540 found): 41 misread, 35 of them
cocked (of 460 cocked dice found, against 6 of 1,080 flat ones), 19 on the rim, 10 on the other
die, 6 on a checker; 18 place, 4 size, 19 reader. The misread cocked dice were placed 0.21 of a
face from their true centre at the median, those read right 0.03.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

from nardy.vision import dice_place, dice_tilt
from nardy.vision.dice import DiceConfig, find_dice
from nardy.vision.dice_eval import fixture_truth, match


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("folders", type=Path, nargs="+", help="folders of renders with truth")
    args = ap.parse_args()
    config = DiceConfig()
    places: dict[tuple[float, float], np.ndarray] = {}
    placer = dice_place.place

    def place(bgr, to_board, centres, faces, foot):  # where the placer put each found die
        out = placer(bgr, to_board, centres, faces, foot)
        for c, p in zip(np.asarray(centres, np.float64).reshape(-1, 2), out, strict=True):
            places[(float(c[0]), float(c[1]))] = p
        return out

    dice_place.place = place
    causes: Counter[str] = Counter()
    found = misread = 0
    for path in (p for f in args.folders for p in sorted(f.glob("*.jpg"))):
        if not path.with_suffix(".json").exists():
            continue
        truth = json.loads(path.with_suffix(".json").read_text())
        image = cv2.imread(str(path))
        places.clear()
        readings = find_dice(image, config, truth["corners"])
        size = (image.shape[1], image.shape[0])
        to_board, foot, _ = dice_tilt.board_plane(truth["corners"], config.board_aspect, size)
        drawn = truth.get("style", {}).get("scene", {}).get("dice", [])
        dice = fixture_truth(truth)
        for i, (t, k) in enumerate(zip(dice, match(readings, dice), strict=True)):
            if k is None or t.hidden:
                continue
            found += 1
            r = readings[k]
            if r.value == t.value:
                continue
            misread += 1
            box = truth["dice"][i]["box"]
            true_face = float(max(box[2], box[3]))
            at = np.array([t.center, t.center])
            _, values = dice_tilt.read_flat(
                image, to_board, at, [r.box[2], true_face], foot, 0, config.board_value_cut
            )
            read_at_face, read_at_true = np.argmax(values, axis=1) + 1
            cause = (
                "place"
                if read_at_face == t.value
                else "size"
                if read_at_true == t.value
                else "reader"
            )
            causes[cause] += 1
            placed = places.get((float(r.center[0]), float(r.center[1])), np.array(r.center))
            off = np.hypot(*(np.array(r.center) - t.center)) / true_face
            placed_off = np.hypot(*(placed - t.center)) / true_face
            rests = drawn[i].get("rests_on") if i < len(drawn) else None
            print(
                f"{path.name} {t.value} read {r.value} {'flat' if t.flat else 'cocked'} "
                f"on {rests or '-'} {t.style}: found {off:.2f} placed {placed_off:.2f} off; "
                f"at the true centre {read_at_face} ({read_at_true} at the true size): {cause}"
            )
    print(f"{found} found, {misread} misread: " + ", ".join(f"{c} {n}" for c, n in causes.items()))


if __name__ == "__main__":
    main()
