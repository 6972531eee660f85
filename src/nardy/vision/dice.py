"""Dice in any photograph: each die's top-face value, flat or cocked, where it lies, how sure.

Two small networks and no pip segmentation. ``dice_centres`` looks at the whole colour image at
reduced resolution and proposes where dice lie (a heat map of top-face centres with each face's
size); ``dice_patches`` reads each proposal: a wide patch says whether a die is there and where
its top face lies, a patch cut around that face, read at four quarter turns, gives the value,
flat or cocked, and the face's centre and size (``DiceConfig.reads`` times, each cut around the
face the read before found).

On a board whose inner frame corners are known the dice's size is known too (a die is a set
fraction of the board, seen through the board's perspective): a map trained for it reads one
level of the image, scaled so that the dice are about ``map_face`` pixels, and only the board
and around it (``map_region``), about a third of the pixels of the three levels a photo takes;
proposals far from the dice's size are dropped, the first read is no wide patch but one cut as
the second read's, at the size a die has where the proposal lies (``board_first``: a wide patch
around two dice leaning together finds only one of them), a reading whose face is far smaller
than a die's there (``least_face``) is none, and two readings are one die when closer than
``board_same_die`` or when the placer (``dice_place``) puts their top faces closer than
``board_same_face`` (a cocked die found on its top face and on its side face); while fewer dice
than a throw's are found, each is looked beside too (``board_beside``: two dice touching are
one peak of the map), and the surest found there whose top face the placer puts apart from
every found die's are added to those found, up to a throw's; a die found on the doubling cube
(``cube.find_cube``) is its printed number, no die (``board_cube_apart``). There a reader of
the patch reader's shape trained on a known board's cuts alone (``dice_patches.BOARD_WEIGHTS``) says
whether a die is there, at the first read and again once the second reads have placed the face
(a die it is ``board_sure_die`` sure of needs no value the patch reader is sure of); those reads
are still the photograph's reader's, behind whose placements the board-plane reader below
learnt to read. Each die found there is read once more in the board's own plane
(``dice_tilt``), which says flat or cocked, and the value, instead of the patch reader.

``place_dice`` says, for such a board, whether each die lies in the left or right half, on the
bar, or off the board.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

import cv2
import numpy as np

from nardy.vision import dice_patches, dice_place, dice_tilt
from nardy.vision.cube import CubeReading, find_cube
from nardy.vision.dice_centres import Proposal, in_region, propose
from nardy.vision.unsmear import SmearConfig, is_shaken, measure_smear, unsmear

Where = Literal["left", "right", "bar", "off"]


class DiceInputError(ValueError):
    """An image the dice reader cannot read (empty, wrong shape or type)."""


@dataclass(frozen=True)
class DiceConfig:
    long_side: int = 640  # the centre map reads a photograph at this long side, half and quarter
    proposal: float = 0.25  # least heat of a proposed die centre: few, but the dice among them
    max_proposals: int = 40  # the most proposals read by the patch network
    # least probability of a die at the first read, to read it again (on held-out renders of
    # known boards 0.1 against 0.2 passes on more dice the first read doubts, each read again
    # at some cost in time; few false ones get through the second read; on 271 training renders
    # with the photograph's map, 331 dice found instead of 313, with as many false)
    maybe_die: float = 0.1
    # on a known board no wide first read: a patch cut around each proposal at this many
    # times a die's side there (as the second read's) says whether to read it again, needing
    # board_maybe_die, and the second reads start from the proposal at a die's size (the map's
    # centres are good there). Session 8 read the wide patch too, for where the face lies, and
    # a wide patch around two dice leaning together finds one of them only. On 339 held-out
    # renders, never the fixtures, with the settings below (each chosen there in turn): 502 of
    # 567 dice found with 13 false (session 8's reader: 466 with 13); started from where that
    # one patch finds the face, 507 with 10, but then the board-plane reader calls a plainly
    # drawn flat 5 of tests/vision/test_dice.py cocked. Read by the board's reader (see
    # board_min_die), 0.3 finds as many as 0.2 with 2 false dice fewer, 1 more than 0.4
    board_first: float = 2.0
    board_maybe_die: float = 0.3
    # on a known board, a reading whose top face is under this share of a die's there is none:
    # the doubling cube, whose printed number the reader takes for a small die's face (session
    # 8, on the same renders: 0.6 left 13 false dice of 15 and lost none. With the map's dice
    # at 14 pixels and board_least the cube is found more often: on those 339 and 100 more
    # held-out renders, 730 dice, 0.7 leaves 12 false dice of 21, most of them the cube, and
    # loses 5 of 567 right values. The board's reader, which learnt the cube as none, leaves
    # 1 false die at 0.7 and at 0.6, where it finds 680 dice against 674)
    least_face: float = 0.6
    # least probability that a patch is a die at all (on the real Train photographs 0.8 against
    # 0.5 lets 54 false dice through instead of 91 and reads as many right)
    min_die: float = 0.8
    # the same on a board whose corners are known, where only proposals of a die's size are
    # read, and the board's reader (``dice_patches.BOARD_WEIGHTS``) says it (on the 439
    # held-out renders of least_face, 730 dice: 0.6 finds 680 with 1 false, 0.7 677 with 1,
    # 0.5 683 with 2; the photograph's reader at 0.7 found 633 with 12). Session 12's reader,
    # on 459 held-out renders (``p12h``, ``p12hc``: 798 dice): 0.6 finds 772 with 7 false, 0.5
    # 773 with 8, 0.7 769 with 9 (fewer found, so more dice looked for beside them)
    board_min_die: float = 0.6
    same_die: float = 0.6  # two readings closer than this (of the larger top face) are one die
    # on a known board, where two dice leaning together show top faces 0.5-0.8 of a face apart
    # (on those renders: 0.35 finds 500 of 567 dice, 0.6 finds 498, with 10 false either way)
    board_same_die: float = 0.35
    # and two readings whose top faces the placer puts closer than this (of the larger) are
    # one die found twice, off its face either way (a cocked die, on its top face and on its
    # side face), where dice leaning together are placed each onto its own face. Session 16,
    # on p12h, p12hc, p14h, p14hc, p15h, p15hc, p13hm, p14hm (2,664 dice): 0.35 finds 2,571
    # with 35 false, 2,483 values right, against 2,572, 45 and 2,481 without; 0.15 2,572, 35,
    # 2,480; 0.25 2,571, 35, 2,481; 0.45 2,570, 36, 2,483
    board_same_face: float = 0.35
    # a reading less sure of its value than side_least, closer than side_face (of the larger
    # top face) to a surer one, is that die's side face seen at a slant (on the real Train
    # photographs, never Valid)
    side_face: float = 0.9
    side_least: float = 0.5
    # on a known board the die's size is known and a side face too small for a die is none
    # (least_face): the rule is off there (on those renders 507 found against 500, 10 false
    # either way; the board-plane reader, whose confidence it weighs, is unsure of a die
    # leaning on another)
    board_side_face: float = 0.0
    cocked: float = 0.5  # least probability that a die is cocked to call it so
    # on a board whose corners are known the board-plane reader (``dice_tilt``) says flat or
    # cocked, and reads the value, instead: least probability to call a die cocked there (on
    # 397 held-out renders, never the fixtures, 229 found cocked dice and 389 flat, re-centred
    # once: 0.6 catches 196 and calls 56 flat ones cocked, more and fewer than session 9's
    # network at its 0.4, not re-centred: 193 and 59; 0.5 catches 206 and calls 73, 0.7 178
    # and 41. Session 12's wider network, on its 459 held-out renders (214 found cocked dice,
    # 547 flat) and 80 more with a die on the rim leaning toward the camera (87 and 69): 0.5
    # catches 197 and 84 and calls 71 and 14 flat ones cocked, 0.6 193 and 78, 56 and 14, 0.4
    # 200 and 87, 118 and 17; session 11's network at 0.6 184 and 60, 86 and 16), and the
    # board's height over its width that its plane is cut at (renders' boards are 0.84-0.91;
    # real ones near that). Session 13's network on those 459 and 90 held-out shaken frames
    # (228 found cocked dice, 632 flat): 0.5 catches 212 and calls 105 flat ones cocked
    # (session 12's: 209 and 110), 0.55 209 and 88, 0.6 204 and 74
    board_cocked: float = 0.5
    board_aspect: float = 0.87
    # the board-plane reads that move each die's patch to the top face's centre the read before
    # found, before the one that says flat or cocked and the value (a cocked die's face is
    # often found off its centre, toward the side face it shows). On the same renders one
    # misreads 73 of 618 values and none 82 (session 9's network, not re-centred: 98). Session
    # 12's network, on its 459 held-out renders (761 found dice): none misreads 44, one 27, two
    # 39
    board_recentre: int = 0
    # before those, each die is moved this many times to where the placer (``dice_place``, a
    # network of its own that says where in a patch the top face's centre lies) puts its top
    # face, instead of by the reader's own re-centring. Measured on the dice found on 918
    # held-out renders (p12hc, p12h, p14hc, p14h: 444 cocked), a cocked die's face lies
    # 0.027-0.036 of a face from its true centre at the median once placed against
    # 0.045-0.062 re-centred once (the farthest tenth 0.10-0.14 against 0.15-0.24), and of
    # those 444, read at the same found dice, 41 misread against 53 (23 cut at the true
    # centre). In the whole read, chosen on p12h and p12hc (placed once 27 misread, twice 29,
    # placed and re-centred 31, re-centred once 31) and measured with the read of b745c4a:
    # values right 755 against 749 on p12 and 747 against 746 on p14, cocked dice caught 415
    # against 411 of 442, flat dice called cocked 192 against 195 of 1,110. On the fixtures 535
    # values right either way, one cocked die fewer caught (bg-start-016's, lost as the dice
    # found change: 89 of 96), the unseen boards 121 either way. A plainly drawn die seen from
    # straight above, which it never learnt, it places about as the reader re-centres it
    board_place: int = 1
    # the value is read from patches cut at the last of those reads' places for a top face
    # this share of the side the patch reader found: a tighter cut shows the pips larger and
    # less of what lies beside the face (side faces, a die leaning on it). On 288 held-out
    # renders, never the fixtures (``make_fixtures.py --prefix dv11h``, 147, and
    # ``make_dice_set.py --prefix dv11d``, 140, half their dice cocked; 482 found dice): 0.85
    # misreads 29 values against 36 (every read cut tighter: 31; 0.8, 0.9, 0.95 so: 34, 33,
    # 33). Flat or cocked stays the looser cut's: every read cut tighter called fewer flat dice
    # cocked there (45 against 52 of 379) but more on the fixtures. With session 12's
    # network, on its 459 held-out renders: 0.75, 0.85, 1.0 misread 40, 27, 37 of 761
    board_value_cut: float = 0.85
    turns: int = 4  # the second read averages this many turns of each die (value, tilt, box)
    # on a known board the board's reader reads each die's last cut again, at this many turns,
    # to say whether it is a die (on the 439 held-out renders of board_min_die, 1 finds 680
    # with 1 false, 4 676 with 2, each right as often, at 4 times the patches)
    board_turns: int = 1
    reads: int = 2  # second reads, each cut around the top face the one before found
    least: float = 0.3  # least probability of a reading's value (side faces, clutter)
    # the same on a known board, where the board-plane reader reads the value again (on those
    # renders 0.2 finds 498 of 567 dice, 448 of them right, with 10 false; 0.3: 474, 436, 7)
    board_least: float = 0.2
    # but a reading the board's reader is at least this sure is a die is kept however unsure
    # the patch reader is of its value (the board-plane reader reads it again): a flat die the
    # photograph's reader reads 0.12-0.19 sure of every value. Session 16, on p12h, p12hc, p14h,
    # p14hc, p15h, p15hc, p13hm, p14hm (2,664 dice): 0.9 finds 2,573 with 35 false, 2,484
    # values right, against 2,571, 35, 2,483 without; 0.8 2,573, 39, 2,484; 0.7 2,574, 48, 2,484
    board_sure_die: float = 0.9
    # on a board whose corners are known: a die's top face (its box's larger side) over the
    # board's local scale (the square root of the pixels a unit square of board covers there);
    # the median of 717 dice on training renders (5 % of them under 0.041, 5 % over 0.066)
    face_of_board: float = 0.052
    size_apart: float = 2.5  # a proposal this many times larger or smaller than a die is none
    # on a known board the centre map reads one level, scaled so that a die's top face is about
    # this many pixels (it learnt 7 to 40; there two dice leaning together are two peaks more
    # often: on 339 held-out renders 14 finds 474 of 567 dice against 464 at 10, 465 at 12 and
    # 472 at 16, 7-8 false, for about twice the map's pixels)
    map_face: float = 14.0
    # and only the board and this far around it (in the board's widths and heights: 99.5 % of
    # training renders' dice lie within 0.3 of it)
    map_margin: float = 0.35
    # on a known board, while fewer than board_dice dice are found (a throw is two), each die
    # found is looked beside too, at board_beside_at points this many of a die's sides from
    # it, read as the map's proposals are (two dice leaning together or touching are one peak
    # of the map, and the reads from it settle on one of them); a die found so is kept when at
    # least board_beside_apart of a die's side from every die found before (nearer, it is
    # mostly that die read again off its centre). On 339 held-out renders (never the
    # fixtures, 548 dice in view): 0.9 and 0.4 find 532 with 7 false, values right 491,
    # against 525, 7 and 485 without; beside every die found, not only while fewer than two
    # are, 532 with 11 false (apart 0: 15); 0.75 beside every die 534 with 40, 1.05 529 with 9.
    # Session 13, on session 12's 459 held-out renders (p12h, p12hc; 798 dice): apart 0.3
    # finds 776 with 7 false, 744 values right, against 772, 7 and 741 at 0.4 (two dice
    # leaning together, the first reading settled between them 0.3-0.4 of a side from the
    # die found beside it; 0.2 the same as 0.3); the 90 shaken frames (p13hm) the same.
    # Session 15: the dice found beside are added to those found before, the surest up to
    # board_dice, instead of all read again as one (``_kept``, where a surer reading beside
    # a die, closer than board_same_die of the pair's face read larger than a die's, took the
    # die's place: the other die of two leaning together). On p12h, p12hc, p14h, p14hc (1,595
    # dice): 1,561 found with 12 false, 1,511 values right, against 1,555, 13 and 1,505;
    # every die found beside added, 1,561 with 15 false; apart 0.25, 0.35, 0.4 so: 1,561 with
    # 13, 1,560 with 12, 1,554 with 12. Confirmed on p15h, p15hc (777 dice): 772 found with 7
    # false, 741 right, against 770, 6, 739 (the false one a cocked die read twice)
    # Session 16: apart is measured between where the placer puts the top faces (where they are
    # read), not where they were found: a die read again beside itself (a cocked die found on
    # its side face) is found 0.3-0.4 of a side off but placed back within 0.21 of its face,
    # where the other die of a pair is placed 0.41 or more away. On p12h, p12hc, p14h, p14hc,
    # p15h, p15hc and the shaken p13hm, p14hm (2,664 dice): 8 points, apart 0.35 placed, find
    # 2,572 with 45 false, 2,481 values right, against 2,570, 50 and 2,475 (6 points, 0.3 as
    # found); 8 points apart 0.3 as found 2,574, 49, 2,482 (and 3 false dice more on the
    # fixtures, each a die read twice); placed 0.3-0.4 the same, 0.2 2,573, 46, 2,482; 6 points
    # placed 0.35 2,566, 45, 2,474; 10 points 2,571, 44, 2,480
    board_beside: float = 0.9
    board_beside_at: int = 8
    board_beside_apart: float = 0.35
    # the least probability of a die at the first read of a point beside a found die, to read
    # it again (board_maybe_die for the map's proposals): a point beside a die leaning on
    # another lies off that die, and the first read doubts it (0.1-0.3 on the dice of touching
    # pairs it missed). Session 17, on p16h, p16hc, p15h, p15hc (1,560 dice): 0.1 finds 1,543
    # with 8 false, 1,502 values right, against 1,540, 8, 1,499 at 0.3 (0.2: 1,542, 8, 1,501;
    # 0.1 with a second ring of points at 0.5 of a side: 1,545, 8, 1,503, but two dice lost to
    # a die read again beside itself). Fixtures 549 / 6 / 539 and unseen 125 / 1 / 122 either
    # way; p16h's seeds in held-out looks 527 / 9 / 515 against 526 / 7 / 513 (the two false
    # dice in frames a hand covers, which the referee reads no dice from)
    board_beside_maybe: float = 0.1
    board_dice: int = 2
    # on a known board, a die found closer than board_cube_apart of a die's side to the centre
    # of the doubling cube (``cube.find_cube``, at least board_cube_sure sure it is the cube)
    # is the cube's printed number read as a die, unless its value is read at least
    # board_cube_least sure (the cube reader takes a lone die for the cube where none stands).
    # Session 17, on p16h, p16hc, p15h, p15hc (1,560 dice): 8 false dice against 11, 1,540
    # found and 1,499 values right either way; without board_cube_least a lone die read 0.996
    # sure was lost (p15h-bg-mid-0016, a cube read 0.98 sure 0.5 of a side from it, none in
    # the scene). The cube's numbers lay 0.02-0.69 of a side from its centre there and on
    # p16h's seeds rendered in held-out looks, a die beside the cube 1.15 or more. Fixtures 6
    # false against 8, 539 right either way; p16h's seeds in held-out looks 7 against 10, 513
    board_cube_apart: float = 0.8
    board_cube_sure: float = 0.9
    board_cube_least: float = 0.9
    # on a known board, a frame the board's blur check calls smeared (a shaken camera) has its
    # smear measured and undone before its dice are read (``unsmear``; None: read as it is)
    smear: SmearConfig | None = field(default_factory=SmearConfig)

    def __post_init__(self) -> None:
        if self.reads < 1:
            raise ValueError("DiceConfig.reads: the learned reader reads each die at least once")


@dataclass(frozen=True)
class DieReading:
    """One die: ``center`` and ``box`` (x, y, w, h) are of its top face, in image pixels."""

    value: int
    flat: bool
    center: tuple[float, float]
    box: tuple[int, int, int, int]
    confidence: float

    def to_json(self) -> dict[str, object]:
        return {
            "value": self.value,
            "flat": self.flat,
            "center": [round(self.center[0], 1), round(self.center[1], 1)],
            "box": list(self.box),
        }


def _check(image: np.ndarray) -> np.ndarray:
    """The image as 8-bit BGR."""
    if not isinstance(image, np.ndarray) or image.size == 0:
        raise DiceInputError("expected a non-empty image array")
    if image.dtype != np.uint8:
        raise DiceInputError(f"expected 8-bit pixels, got {image.dtype}")
    if image.ndim == 2:
        return cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    if image.ndim == 3 and image.shape[2] == 3:
        return image
    if image.ndim == 3 and image.shape[2] == 4:
        return cv2.cvtColor(image, cv2.COLOR_BGRA2BGR)
    raise DiceInputError(f"expected a grey or BGR image, got shape {image.shape}")


def _read_patches(
    bgr: np.ndarray,
    centres: Sequence[tuple[float, float]],
    sides: Sequence[float],
    turns: int = 1,
    weights: Path = dice_patches.WEIGHTS,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The patch reader (``weights``: a photograph's or a known board's) on squares of
    ``sides`` around ``centres``: probabilities, cocked, and each top face's centre (x, y) and
    side in image pixels.

    With ``turns`` > 1 each square is read turned by steps of a ``turns``-th of a circle and
    all is averaged (a die reads the same any way round): probabilities, tilt, and the top
    face's box, each turn's turned back."""
    n = len(centres)
    patches = np.stack(
        [
            dice_patches.cut_patch(bgr, c, s, angle=360.0 * k / turns)
            for k in range(turns)
            for c, s in zip(centres, sides, strict=True)
        ]
    )
    prob, boxes, tilt = dice_patches.predict(patches, weights)
    prob = prob.reshape(turns, n, -1).mean(axis=0)
    tilt = tilt.reshape(turns, n).mean(axis=0)
    boxes = boxes.reshape(turns, n, 4).astype(np.float64)
    offsets = np.zeros((n, 2))
    for k in range(turns):  # the patch turned by a: back to the image's axes
        a = np.radians(360.0 * k / turns)
        back = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
        offsets += boxes[k, :, :2] @ back.T
    side = np.asarray(sides, np.float64)[:, None]
    xy = np.asarray(centres, np.float64) + offsets / turns * side
    face = np.maximum(boxes[:, :, 2:4].max(axis=2).mean(axis=0), 1e-3) * side[:, 0]
    return prob, tilt, xy, face


def face_sides(
    corners: Sequence[Sequence[float]], points: np.ndarray, face_of_board: float
) -> np.ndarray:
    """The side (pixels) a die's top face has at each image point, on the board whose inner
    frame corners (TL, TR, BR, BL) are given: ``face_of_board`` times the board's local scale
    there."""
    to_board = board_homography(corners)
    to_image = np.linalg.inv(to_board)
    pts = np.asarray(points, np.float64).reshape(-1, 1, 2)
    b = cv2.perspectiveTransform(pts, to_board).reshape(-1, 2)
    e = 1e-3
    step = np.array([[0.0, 0.0], [e, 0.0], [0.0, e]])
    moved = (b[None] + step[:, None]).reshape(-1, 1, 2)
    q = cv2.perspectiveTransform(moved, to_image).reshape(3, -1, 2)
    dx, dy = (q[1] - q[0]) / e, (q[2] - q[0]) / e
    area = np.abs(dx[:, 0] * dy[:, 1] - dx[:, 1] * dy[:, 0])
    return face_of_board * np.sqrt(area)


def map_region(
    shape: tuple[int, ...], corners: Sequence[Sequence[float]], config: DiceConfig
) -> tuple[float, tuple[int, int, int, int]]:
    """Where and at what scale the centre map reads a known board: the scale that makes a die
    at the board's middle and corners ``map_face`` pixels at the median, and the image box
    (x0, y0, x1, y1) around the board and ``map_margin`` beyond it."""
    m = config.map_margin
    ring = np.array([[-m, -m], [0.5, -m], [1 + m, -m], [1 + m, 0.5], [1 + m, 1 + m], [0.5, 1 + m]])
    ring = np.vstack([ring, [[-m, 1 + m], [-m, 0.5]]])
    to_image = np.linalg.inv(board_homography(corners))
    at = cv2.perspectiveTransform(ring.reshape(-1, 1, 2), to_image).reshape(-1, 2)
    h, w = shape[:2]
    box = (0, 0, w, h)
    if np.isfinite(at).all():
        (x0, y0), (x1, y1) = np.round(at.min(axis=0)), np.round(at.max(axis=0))
        box = (int(max(x0, 0)), int(max(y0, 0)), int(min(x1, w)), int(min(y1, h)))
    if box[2] - box[0] < 16 or box[3] - box[1] < 16:
        box = (0, 0, w, h)
    here = np.vstack([np.asarray(corners, np.float64).reshape(4, 2), [np.mean(corners, axis=0)]])
    face = float(np.median(face_sides(corners, here, config.face_of_board)))
    return min(1.0, config.map_face / max(face, 1e-3)), box


def _proposals(
    bgr: np.ndarray, config: DiceConfig, corners: Sequence[Sequence[float]] | None
) -> tuple[list[Proposal], np.ndarray]:
    """Proposed dice, and the top face's side for each: the map's guess of it, or on a known
    board a die's side where the proposal lies (the map read at the one scale that fits the
    board's dice, proposals far from that size dropped)."""
    if corners is None:
        found = propose(bgr, config.long_side, config.proposal)[: config.max_proposals]
        return found, np.array([p.side for p in found])
    scale, box = map_region(bgr.shape, corners, config)
    found = in_region(bgr, scale, box, config.proposal)
    found.sort(key=lambda p: -p.score)
    if not found:
        return [], np.zeros(0)
    want = face_sides(corners, np.array([(p.x, p.y) for p in found]), config.face_of_board)
    ratio = np.array([p.side for p in found]) / want
    fits = (ratio < config.size_apart) & (ratio > 1.0 / config.size_apart)
    keep = np.nonzero(fits)[0][: config.max_proposals]
    return [found[i] for i in keep], want[keep]


def _beside(
    dice: Sequence[DieReading], corners: Sequence[Sequence[float]], config: DiceConfig
) -> tuple[list[tuple[float, float]], np.ndarray]:
    """Points beside each die found on a known board, where a die touching it would lie
    (``board_beside`` of a die's side away, ``board_beside_at`` of them round it), and a die's
    side at each."""
    if not dice:
        return [], np.zeros(0)
    at = np.array([d.center for d in dice], np.float64)
    side = face_sides(corners, at, config.face_of_board)
    turns = 2 * np.pi * np.arange(config.board_beside_at) / config.board_beside_at
    ring = np.stack([np.cos(turns), np.sin(turns)], axis=1)
    points = (at[:, None] + config.board_beside * side[:, None, None] * ring[None]).reshape(-1, 2)
    return [(float(x), float(y)) for x, y in points], face_sides(
        corners, points, config.face_of_board
    )


def _learned_dice(
    bgr: np.ndarray,
    config: DiceConfig,
    corners: Sequence[Sequence[float]] | None,
    beside: Sequence[DieReading] = (),
) -> tuple[list[DieReading], np.ndarray]:
    """Each proposal read until it is a die or none, and (N, 2) image points where each die's
    value was read: on a known board where the placer puts its top face, else its centre. The
    first read says whether a die is there: in a photograph a patch wide around the proposal,
    which says where its top face lies too; on a known board one cut as the second read's at a
    die's size there, the face taken to lie at the proposal. The second reads, each cut around
    the face the read before found, read its value and tilt; on a known board the board's reader
    reads the last cut again and says whether it is a die. Given dice found on a known board,
    the points ``beside`` them are read so instead of the map's proposals."""
    if beside and corners is not None:
        centres, faces = _beside(beside, corners, config)
    else:
        proposals, faces = _proposals(bgr, config, corners)
        centres = [(p.x, p.y) for p in proposals]
    if not centres:
        return [], np.zeros((0, 2))
    board = dice_patches.BOARD_WEIGHTS
    if corners is None:
        prob, _, xy, face = _read_patches(bgr, centres, faces * dice_patches.FIRST_CONTEXT)
        maybe = config.maybe_die
    else:  # the second reads start from the proposal, at a die's size there
        prob = _read_patches(bgr, centres, faces * config.board_first, weights=board)[0]
        xy, face, maybe = np.asarray(centres, np.float64), faces, config.board_maybe_die
        if beside:  # a point beside a found die: the first read doubts a die leaning on it
            maybe = config.board_beside_maybe
    keep = np.nonzero(1.0 - prob[:, 0] >= maybe)[0]
    if not len(keep):
        return [], np.zeros((0, 2))
    xy, face = xy[keep], face[keep]
    for _ in range(config.reads):  # each read cut around the face the read before found
        centres = [(float(x), float(y)) for x, y in xy]
        prob, tilt, xy, face = _read_patches(
            bgr, centres, face * dice_patches.CONTEXT, config.turns
        )
    least_die, least = config.min_die, config.least
    if corners is not None:  # the board's reader says whether it is a die; the value is read
        centres = [(float(x), float(y)) for x, y in xy]  # again in the board's plane
        prob = _read_patches(bgr, centres, face * dice_patches.CONTEXT, config.board_turns, board)
        prob = prob[0]
        least_die, least = config.board_min_die, config.board_least
    value = np.argmax(prob[:, 1:], axis=1) + 1
    sure = prob[np.arange(len(prob)), value]  # the patch reader's: the dice kept hang on it
    small = np.zeros(len(xy))  # a known board's die is no smaller than least_face of its size
    if corners is not None:
        small = config.least_face * face_sides(corners, xy, config.face_of_board)
    die = 1.0 - prob[:, 0]
    sure_enough = sure >= least
    if corners is not None:
        sure_enough |= die >= config.board_sure_die
    keep = np.nonzero((die >= least_die) & sure_enough & (face >= small))[0]
    prob, tilt, xy, face, sure = prob[keep], tilt[keep], xy[keep], face[keep], sure[keep]
    cocked, values = config.cocked, prob[:, 1:]
    placed = xy
    if corners is not None and len(keep):  # flat or cocked, and the value, read again in the
        size = (bgr.shape[1], bgr.shape[0])  # board's plane instead
        to_board, foot, _ = dice_tilt.board_plane(corners, config.board_aspect, size)
        placed = xy  # read where the placer puts each top face; reported where it was found
        for _ in range(config.board_place):
            placed = dice_place.place(bgr, to_board, placed, face, foot)
        tilt, values = dice_tilt.read_flat(
            bgr, to_board, placed, face, foot, config.board_recentre, config.board_value_cut
        )
        cocked = config.board_cocked
        sure = values.max(axis=1)  # the confidence is the reader's whose value it is
    value = np.argmax(values, axis=1) + 1
    found: list[DieReading] = []
    for v, (cx, cy), side, t, c in zip(value, xy, face, tilt, sure, strict=True):
        box = (round(cx - side / 2), round(cy - side / 2), round(side), round(side))
        found.append(DieReading(int(v), bool(t < cocked), (float(cx), float(cy)), box, float(c)))
    return found, np.asarray(placed, np.float64).reshape(-1, 2)


def find_dice(
    image: np.ndarray,
    config: DiceConfig = DiceConfig(),
    corners: Sequence[Sequence[float]] | None = None,
    cube: CubeReading | Literal["find"] | None = "find",
) -> list[DieReading]:
    """Every die in a BGR (or grey) image, most confident first. ``corners``, the inner frame
    corners (TL, TR, BR, BL) of a board in the image, tell the reader the dice's size
    (dice much larger or smaller than a die on that board are not read) and where the
    doubling ``cube`` stands, whose number is no die (``board_cube_apart``): the cube as the
    caller found it on that board (None: none found), or by default found here."""
    bgr = as_given = _check(image)
    least = 0.0
    if corners is not None and config.smear is not None and is_shaken(bgr, corners, config.smear):
        try:
            bgr = unsmear(bgr, measure_smear(bgr, config.smear), config.smear)
            least = config.smear.least
        except ValueError:  # a picture too small to measure: read it as it is
            pass
    found, placed = _learned_dice(bgr, config, corners)
    board = corners is not None
    on_board: CubeReading | None = None  # the cube, looked for once a die is found
    if board and config.board_cube_apart > 0 and found:
        # found in the image as given: the cube reader learnt no unsmearing
        on_board = find_cube(as_given, corners) if cube == "find" else cube
        off = _off_cube(found, corners, on_board, config)
        found, placed = [found[i] for i in off], placed[off]
    kept = _kept(found, config, board, placed if board and config.board_same_face > 0 else None)
    found, placed = [found[i] for i in kept], placed[kept]
    if board and config.board_beside > 0 and 0 < len(found) < config.board_dice:
        # a die touching one found? The dice found stay (a surer reading beside one is the
        # other die of the pair more often than the same die), the surest beside them are
        # added, up to a throw's
        more = _found_beside(bgr, config, corners, found, placed)
        if config.board_cube_apart > 0 and more:
            more = [more[i] for i in _off_cube(more, corners, on_board, config)]
        more = [more[i] for i in _kept(more, config, True)]
        found = sorted(found + more[: config.board_dice - len(found)], key=lambda r: -r.confidence)
    return [d for d in found if d.confidence >= least]


def _off_cube(
    found: Sequence[DieReading],
    corners: Sequence[Sequence[float]],
    cube: CubeReading | None,
    config: DiceConfig,
) -> list[int]:
    """Indices of the dice ``found`` on a known board that are not the doubling ``cube``'s
    number: each farther than ``board_cube_apart`` of a die's side from a cube found at least
    ``board_cube_sure`` sure, or read at least ``board_cube_least`` sure of its value."""
    if cube is None or cube.confidence < config.board_cube_sure:
        return list(range(len(found)))
    at = np.array([d.center for d in found], np.float64).reshape(-1, 2)
    side = face_sides(corners, at, config.face_of_board)
    apart = np.hypot(*(at - np.asarray(cube.center, np.float64)).T) / side
    return [
        i
        for i, (d, a) in enumerate(zip(found, apart, strict=True))
        if a >= config.board_cube_apart or d.confidence >= config.board_cube_least
    ]


def _found_beside(
    bgr: np.ndarray,
    config: DiceConfig,
    corners: Sequence[Sequence[float]],
    found: Sequence[DieReading],
    placed: np.ndarray,
) -> list[DieReading]:
    """Dice touching those ``found`` on a known board, which the map saw as one with them:
    read beside each (``_beside``), kept when the placer puts its top face apart from every
    found die's (``placed``: a die read beside itself, a cocked one mostly, is found off its
    face but placed back onto it)."""
    more, at = _learned_dice(bgr, config, corners, beside=found)
    if not more:
        return []
    side = face_sides(corners, at, config.face_of_board)
    apart = np.hypot(*(at[:, None] - placed[None]).transpose(2, 0, 1)).min(axis=1) / side
    return [d for d, a in zip(more, apart, strict=True) if a >= config.board_beside_apart]


def _kept(
    found: list[DieReading],
    config: DiceConfig,
    board: bool = False,
    placed: np.ndarray | None = None,
) -> list[int]:
    """One reading per die, as indices into ``found``, surest first: the surest where several
    lie on one die (closer on a known ``board``, where dice leaning together are told apart),
    or where the placer puts their top faces (``placed``, one image point per reading) closer
    than ``board_same_face``."""
    same_die = config.board_same_die if board else config.same_die
    side_face = config.board_side_face if board else config.side_face
    order = sorted(range(len(found)), key=lambda i: -found[i].confidence)
    kept: list[int] = []
    for i in order:
        reading = found[i]
        size = max(reading.box[2], reading.box[3])
        apart = [
            np.hypot(reading.center[0] - found[k].center[0], reading.center[1] - found[k].center[1])
            / max(size, found[k].box[2], found[k].box[3])
            for k in kept
        ]
        if any(a < same_die for a in apart):
            continue
        if reading.confidence < config.side_least and any(a < side_face for a in apart):
            continue  # a side face of a surer die beside it, read as a die of its own
        if placed is not None and any(
            np.hypot(*(placed[i] - placed[k])) / max(size, found[k].box[2], found[k].box[3])
            < config.board_same_face
            for k in kept
        ):
            continue  # one die found twice, off its face either way, placed back onto it
        kept.append(i)
    return kept


# -- where a die lies on the board ------------------------------------------------------------

BAR = (0.4625, 0.5375)  # the bar's extent across the board, as a fraction of the inner width


def board_homography(corners: Sequence[Sequence[float]]) -> np.ndarray:
    """Image → board map for the four inner frame corners TL, TR, BR, BL (board: unit square)."""
    src = np.asarray(corners, dtype=np.float64).reshape(4, 2)
    dst = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], dtype=np.float64)
    return cv2.getPerspectiveTransform(src.astype(np.float32), dst.astype(np.float32))


def where_on_board(
    center: tuple[float, float],
    to_board: np.ndarray | Callable[[np.ndarray], np.ndarray],
    bar: tuple[float, float] = BAR,
) -> Where:
    """left / right half, bar or off, for an image point; ``to_board`` a 3×3 map or a function."""
    pt = np.array([[center[0], center[1]]], dtype=np.float64)
    if callable(to_board):
        bx, by = np.asarray(to_board(pt), dtype=np.float64).reshape(2)
    else:
        bx, by = cv2.perspectiveTransform(pt[None], np.asarray(to_board, np.float64))[0, 0]
    if not (0.0 <= bx <= 1.0 and 0.0 <= by <= 1.0):
        return "off"
    if bar[0] <= bx <= bar[1]:
        return "bar"
    return "left" if bx < bar[0] else "right"


def place_dice(
    readings: Sequence[DieReading],
    corners: Sequence[Sequence[float]] | None = None,
    to_board: np.ndarray | Callable[[np.ndarray], np.ndarray] | None = None,
    bar: tuple[float, float] = BAR,
) -> list[Where]:
    """Where each die lies, from the inner frame corners or a calibration's image → board map."""
    if to_board is None:
        if corners is None:
            raise ValueError("place_dice needs the board's corners or its image → board map")
        to_board = board_homography(corners)
    return [where_on_board(r.center, to_board, bar) for r in readings]
