"""Count the checkers on every point, and tell light from dark, relative to this board.

Every point's strip (see ``sampler``) is compared with what an empty point of this board looks
like, learnt from the frame itself: the field's colour outside the triangles and each of the two
triangle colours (medians, so the checkers standing on them do not matter). Where a strip
differs from that background, checkers stand. The run of such slots from the frame gives the
checkers of the first layer; further layers show as checkers centred over the gaps of the one
below. The colours of all the checkers found on the board are then split in two: the lighter
group is light. No colour is fixed in advance, so unseen boards and sets read the same way.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from nardy.vision.config import VisionConfig
from nardy.vision.layers import count_layers
from nardy.vision.sampler import Layout

ONE_SET = 25.0  # Lab distance under which two groups of checkers are one set seen twice


@dataclass(frozen=True)
class PointsRead:
    counts: tuple[int, ...]  # signed, + light
    confidence: tuple[float, ...]
    light_lab: np.ndarray | None
    dark_lab: np.ndarray | None


def triangle_mask(layout: Layout, point_length: float, aspect: float) -> np.ndarray:
    """Which strip pixels lie on the point's triangle (strip_l × strip_w, bool)."""
    tri_len = point_length * aspect / layout.px  # triangle height in strip pixels
    t = np.arange(layout.strip_l)[:, None] + 0.5
    u = np.abs(np.arange(layout.strip_w)[None, :] + 0.5 - layout.strip_w / 2)
    return u < (layout.strip_w / 2) * (1 - t / tri_len)


def to_lab(bgr: np.ndarray) -> np.ndarray:
    """BGR uint8 → L*a*b* float32 with L in 0..100."""
    lab = cv2.cvtColor(bgr, cv2.COLOR_BGR2Lab).astype(np.float32)
    lab[..., 0] *= 100.0 / 255.0
    lab[..., 1:] -= 128.0
    return lab


def background(lab: np.ndarray, tri: np.ndarray) -> np.ndarray:
    """What each strip would look like empty (24 × l × w × 3): the two triangle colours by
    parity (points 1, 3, 5… share one) and the field's colour around them."""
    outer = ~cv2.dilate(tri.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)
    # medians of every third pixel: as good as all of them, three times faster
    flat = lab.reshape(lab.shape[0], -1, 3)
    out_idx = np.flatnonzero(outer)[::3]
    field = np.median(flat[:, out_idx].reshape(-1, 3), axis=0)
    # a triangle's colour from its outer part, which only a stack of four or more covers:
    # each point's own median there, then the median of the points of that colour
    width = tri.shape[1]
    tri_len = int(np.flatnonzero(tri[:, width // 2])[-1]) + 1 if tri[:, width // 2].any() else 1
    tip = lab[
        :,
        int(0.55 * tri_len) : max(int(0.85 * tri_len), int(0.55 * tri_len) + 1),
        width // 2 - 1 : width // 2 + 2,
    ]
    per_point = np.median(tip.reshape(lab.shape[0], -1, 3), axis=1)
    odd = np.median(per_point[0::2], axis=0)
    even = np.median(per_point[1::2], axis=0)
    bg = np.empty_like(lab)
    bg[:] = field
    bg[0::2, tri] = odd
    bg[1::2, tri] = even
    return bg


def disk_kernel(radius: float) -> np.ndarray:
    r = int(np.ceil(radius))
    yy, xx = np.mgrid[-r : r + 1, -r : r + 1]
    k = (xx * xx + yy * yy <= radius * radius).astype(np.float32)
    return k / k.sum()


def ring_kernel(inner: float, outer: float, half_width: float) -> np.ndarray:
    """The far half of an annulus (away from the frame), cut to the columns of a point's own
    strip (its neighbours' checkers may come within a hair of its edge). Only the far half:
    the near half of an empty slot would see the rim of the checker before it."""
    r = int(np.ceil(outer))
    yy, xx = np.mgrid[-r : r + 1, -r : r + 1]
    rr = np.sqrt(xx * xx + yy * yy)
    keep = (rr >= inner) & (rr <= outer) & (np.abs(xx) <= half_width) & (yy >= 0.2 * outer)
    k = keep.astype(np.float32)
    return k / k.sum()


def along_axis(values: np.ndarray, kernel: np.ndarray) -> np.ndarray:
    """``values`` (n × l × w) correlated with ``kernel`` (kh × kw, centred), but only down the
    middle column of each strip: all the reader needs, at a fraction of a full 2-D filter."""
    n, length, width = values.shape
    kh, kw = kernel.shape
    mid = width // 2
    half_w = kw // 2
    lo, hi = mid - half_w, mid + half_w + 1
    # a kernel wider than the strip: its outer columns see nothing
    k = kernel[:, max(0, -lo) : kw - max(0, hi - width)]
    sub = values[:, :, max(lo, 0) : min(hi, width)]
    per_row = sub @ k.T  # n × l × kh: each row's contribution to each kernel row
    half_h = kh // 2
    padded = np.pad(per_row, ((0, 0), (half_h, half_h), (0, 0)), mode="edge")
    out = np.zeros((n, length), np.float32)
    for dy in range(kh):
        out += padded[:, dy : dy + length, dy]
    return out


def disc_evidence(lab: np.ndarray, unlike: np.ndarray, radius: float) -> np.ndarray:
    """Down the middle of each strip (n × l): how unlike the empty board (``unlike``, per
    pixel) a disc of ``radius`` is, less how much its own colour varies. A checker is a disc
    of one colour; an empty board's disc mixes triangle and field."""
    disc = disk_kernel(radius)
    n, length = lab.shape[:2]
    spread_sq = np.zeros((n, length), np.float32)
    for ch in range(3):
        channel = np.ascontiguousarray(lab[..., ch])
        m = along_axis(channel, disc)
        spread_sq += np.clip(along_axis(channel * channel, disc) - m * m, 0, None)
    return along_axis(unlike, disc) - np.sqrt(spread_sq)


def _gradient(lightness: np.ndarray) -> np.ndarray:
    smooth = cv2.GaussianBlur(lightness, (3, 3), 0.8)
    gx = cv2.Sobel(smooth, cv2.CV_32F, 1, 0)
    gy = cv2.Sobel(smooth, cv2.CV_32F, 0, 1)
    return cv2.magnitude(gx, gy)


def _texture(grad: np.ndarray, tri: np.ndarray) -> np.ndarray:
    """The board's own texture (wood grain, felt) as a gradient level: the median gradient of
    each kind of surface, so grain does not pass for a checker's rim."""
    level = np.empty_like(grad)
    flat = grad.reshape(grad.shape[0], -1)
    on = np.flatnonzero(tri)[::3]
    off = np.flatnonzero(~tri)[::3]
    level[:] = np.median(flat[:, off])
    level[0::2, tri] = np.median(flat[0::2, on])
    level[1::2, tri] = np.median(flat[1::2, on])
    return level.reshape(-1, grad.shape[2])


@dataclass(frozen=True)
class Evidence:
    """Along every point's axis (24 × strip_l): how much a checker-sized disc centred there is
    unlike the empty board and uniform in itself (``colour``), and how much circular outline the
    strip shows around it beyond the triangle's own edges (``outline``)."""

    colour: np.ndarray
    outline: np.ndarray
    lab: np.ndarray
    triangle: np.ndarray  # each point's own triangle colour (24 × 3)
    sides: np.ndarray  # 24 × strip_l, 0..1: how much board shows beside the axis


def evidence(
    strips_lab: np.ndarray, layout: Layout, point_length: float, aspect: float, config: VisionConfig
) -> Evidence:
    lab = np.ascontiguousarray(strips_lab)
    n, length, width, _ = lab.shape
    lab_flat = lab.reshape(n * length, width, 3)
    tri = triangle_mask(layout, point_length, aspect)
    bg = background(lab, tri)
    d = layout.checker
    mid = width // 2
    # lightness counts half: the light falls unevenly across a board, its colours do not change
    delta = (lab - bg) * np.float32([0.5, 1.0, 1.0])
    pixel_diff = np.linalg.norm(delta, axis=-1)
    colour = disc_evidence(lab, pixel_diff, 0.45 * d)
    grad = _gradient(np.ascontiguousarray(lab_flat[..., 0]))
    bg_grad = _gradient(np.ascontiguousarray(bg.reshape(n * length, width, 3)[..., 0]))
    bg_grad = cv2.dilate(bg_grad, np.ones((7, 7), np.uint8))
    extra = np.clip(grad - bg_grad - 2.0 * _texture(grad.reshape(n, length, width), tri), 0, None)
    ring = ring_kernel(0.36 * d, 0.52 * d, 0.42 * width)
    outline = along_axis(extra.reshape(n, length, width), ring)
    # the board showing either side of the axis (where two checkers of one layer touch)
    u = np.abs(np.arange(width) + 0.5 - width / 2)
    side_cols = (u > 0.3 * d) & (u < 0.46 * d)
    sides = (pixel_diff[:, :, side_cols] < config.side_board).mean(axis=2)
    return Evidence(colour, outline, lab, bg[:, 1, mid], sides)


def read_points(
    strips_lab: np.ndarray, layout: Layout, point_length: float, aspect: float, config: VisionConfig
) -> PointsRead:
    ev = evidence(strips_lab, layout, point_length, aspect, config)
    n, length, width, _ = strips_lab.shape
    d = layout.checker
    mid = width // 2
    slots = int(length // (d * config.checker_pitch))
    centres = np.minimum(
        ((np.arange(slots) + 0.5) * d * config.checker_pitch).astype(int), length - 1
    )
    c_slots = ev.colour[:, centres]
    e_slots = ev.outline[:, centres]
    c_score = c_slots / config.colour_evidence
    e_score = e_slots / config.outline_evidence
    score = np.maximum(c_score, e_score)  # 1 = on the threshold
    counts, confidence, colours = [], [], []
    boundary = _boundary_profile(ev.lab, d)
    half = max(1, round(0.25 * d))
    for i in range(n):
        count, conf = _first_layer(score[i])
        if count >= config.layer_from:
            total, layer_conf = count_layers(
                boundary[i], count, d * config.checker_pitch, ev.sides[i]
            )
            count, conf = total, min(conf, layer_conf) if total != count else conf
        counts.append(count)
        confidence.append(conf)
        if count:
            sel = centres[: min(count, slots)]
            colour = ev.lab[i, sel, mid - half : mid + half].reshape(-1, 3).mean(axis=0)
            colours.append(colour)
            if count <= 2 and np.linalg.norm(colour - ev.triangle[i]) < config.same_colour:
                # checkers the colour of their point: the ones by the frame barely show
                confidence[-1] = min(confidence[-1], 0.4)
        else:
            colours.append(None)
    light_lab, dark_lab, is_light = _two_sets([c for c in colours if c is not None])
    for i, count in enumerate(counts):
        # an empty point the colour of one of the sets, with a trace of something by the
        # frame, may hide a checker of that colour there: say so
        # (with a set not seen anywhere, its colour is unknown: any point might be it)
        if count == 0 and score[i, :2].max() > 0.15:
            for ref in (light_lab, dark_lab):
                if ref is None or np.linalg.norm(ref - ev.triangle[i]) < config.same_colour:
                    confidence[i] = min(confidence[i], 0.4)
    signed = []
    k = 0
    for c, count in zip(colours, counts, strict=True):
        if c is None:
            signed.append(0)
            continue
        signed.append(count if is_light[k] else -count)
        k += 1
    return PointsRead(tuple(signed), tuple(confidence), light_lab, dark_lab)


def _boundary_profile(lab: np.ndarray, d: float) -> np.ndarray:
    """How strongly each point's axis shows a boundary between checkers at every pixel: the
    lightness's slope plus its dark valleys (a rim turning away, a shadow), on the central
    columns where boundaries cross the axis."""
    width = lab.shape[2]
    half = max(1, round(0.25 * d))
    mid = width // 2
    light = lab[:, :, mid - half : mid + half, 0].mean(axis=2)
    light = cv2.GaussianBlur(light, (3, 1), 0.7)
    slope = np.abs(np.gradient(light, axis=1))
    step = max(1, round(0.12 * d))
    padded = np.pad(light, ((0, 0), (step, step)), mode="edge")
    valley = np.clip((padded[:, : -2 * step] + padded[:, 2 * step :]) / 2 - light, 0, None)
    return slope + valley


def _first_layer(score: np.ndarray) -> tuple[int, float]:
    """Checkers in the first layer from slot scores (> 1 occupied). Checkers stand from the
    frame without gaps, but the first one or two may not stand out (a dark checker on a dark
    point), so the run ends at the last occupied slot with at most one doubtful slot before it.
    The confidence is how far the deciding slots are from the threshold."""
    occupied = score > 1.0
    end = 0
    misses = 0
    for k, occ in enumerate(occupied):
        if occ:
            end = k + 1
            misses = 0
        else:
            misses += 1
            if misses > (2 if end == 0 else 1):
                break
    deciding = [score[end - 1]] if end else []
    if end < len(score):
        deciding.append(score[end])
    margin = min(abs(np.log(max(s, 1e-3))) for s in deciding) if deciding else 1.0
    return end, float(np.clip(margin / np.log(2.0), 0, 1))


def _two_sets(colours: list[np.ndarray]) -> tuple[np.ndarray | None, np.ndarray | None, list[bool]]:
    """Split checker colours into two sets; the one with the higher lightness is light."""
    if not colours:
        return None, None, []
    data = np.array(colours, np.float32)
    if len(data) == 1:
        return data[0], None, [bool(data[0, 0] > 50)]
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.1)
    _, labels, centres = cv2.kmeans(data, 2, None, criteria, 3, cv2.KMEANS_PP_CENTERS)
    light = int(np.argmax(centres[:, 0]))
    if np.linalg.norm(centres[0] - centres[1]) < ONE_SET:
        # one set only (the other borne off, or not yet read): lightness alone decides
        is_light = bool(data[:, 0].mean() > 50)
        both = data.mean(axis=0)
        return (
            (both, None, [is_light] * len(data)) if is_light else (None, both, [False] * len(data))
        )
    return centres[light], centres[1 - light], [int(lb) == light for lb in labels.ravel()]
