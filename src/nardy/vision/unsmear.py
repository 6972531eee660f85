"""Undoing a shaken camera's smear, so that the dice of a shaken frame can still be read.

A camera that moves while its shutter is open smears the whole frame along one line, every
point alike (``synth.photo.motion_blur`` renders it so): a die's pips run into streaks, and the
patch reader, which learnt still dice, reads few of them (on 90 held-out shaken frames, 24 of
139 dice right). Blurred by a line, the frame's spectrum is the still frame's times the line's,
and a line's spectrum falls to nothing at every multiple of one over its length, in its
direction: the log spectrum dips periodically, and its own spectrum (the cepstrum) shows that
period as a deep trough at the smear's length, in its direction (``measure_smear``). Knowing
the line, a Wiener filter divides it out (``unsmear``), stopping short where the line's
spectrum is near nothing and noise alone would be left (``noise``).

Only a frame whose board the usability check's blur measure calls plainly smeared
(``is_shaken``: under a cut a little stricter than the one that calls a frame unusable) is
measured and undone: a still frame's cepstrum has troughs too, where the board's regular points
and the grain repeat, and a frame blurred by the lens has no line to divide out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from nardy.vision.config import VisionConfig
from nardy.vision.usable import surface_box, surface_sharpness


@dataclass(frozen=True)
class Smear:
    """A straight smear: ``length`` pixels covered, at ``angle`` degrees (0–180, from the
    image's x axis toward its y axis)."""

    length: float
    angle: float


@dataclass(frozen=True)
class SmearConfig:
    # a frame is undone when the blur check's measure is under this (``is_shaken``), a little
    # under what calls a frame unusable (``VisionConfig.blur_ratio``, 1.54): between the two lie
    # frames blurred mostly by the lens, with a shake of a pixel or two, whose cepstrum shows
    # a smear that is not there (undone, their dice are lost). On the training renders (never
    # the fixtures): 5 of 3,124 usable frames under 1.54 (1.50-1.54), none under 1.50; of 300
    # shaken frames 287 under 1.54, 282 under 1.50
    sharpness: float = 1.50
    # the picture is cut into tiles this many pixels square, half overlapping, whose power
    # spectra are averaged: the cepstrum of one tile is too noisy to show a short smear
    tile: int = 128
    # the shortest and longest smear looked for (pixels): under 4 the check rarely calls a
    # frame smeared; the renders' shaken frames are 8-20 pixels
    shortest: float = 4.0
    longest: float = 28.0
    # the Wiener filter's noise-to-signal power ratio: lower undoes more and rings more. On
    # the first 100 of 300 training renders of shaken frames (``p13m``, 158 dice, never the
    # fixtures) read told the board, 0.01, 0.02, 0.03 read 109, 106, 99 right with 19, 10, 6
    # false dice (read as they are: 32 right, 5 false; with each frame's true smear at 0.01,
    # not kept from ``least``: 122 right)
    noise: float = 0.02
    # least confidence of a die read in a frame undone so: the undoing leaves echoes (a die's
    # ghost a smear's length off, a checker's rim rung into pips) that the reader reads unsure.
    # On 90 held-out shaken frames (``p13hm``, 139 dice), the dice read undone kept from 0
    # are 123 found, 94 right, 27 false; from 0.3 115, 92, 20; from 0.4 101, 89, 11 (read
    # with it, the look beside a die found counting too: 105, 90, 10); from 0.5 90, 82, 9.
    # Read as they are: 88 found, 24 right, 11 false
    least: float = 0.4


def is_shaken(
    image: np.ndarray, corners: Sequence[Sequence[float]], config: SmearConfig = SmearConfig()
) -> bool:
    """Whether the board inside ``corners`` is smeared in ``image`` (BGR or grey): the
    usability check's blur measure (``usable.surface_sharpness``) under ``sharpness``."""
    x0, y0, x1, y1 = surface_box(corners, (image.shape[1], image.shape[0]))
    board = image[y0:y1, x0:x1]
    gray = cv2.cvtColor(board, cv2.COLOR_BGR2GRAY) if board.ndim == 3 else board
    return surface_sharpness(gray, VisionConfig.blur_sigma) < config.sharpness


def cepstrum(gray: np.ndarray, box: tuple[int, int, int, int], tile: int) -> np.ndarray:
    """The cepstrum (centred: lag 0 in the middle) of the power spectrum averaged over the
    half-overlapping tiles inside ``box`` (x0, y0, x1, y1), each windowed; raises
    ``ValueError`` when no tile fits."""
    x0, y0, x1, y1 = box
    step = tile // 2
    corners = [
        (x, y) for y in range(y0, y1 - tile + 1, step) for x in range(x0, x1 - tile + 1, step)
    ]
    if not corners:
        raise ValueError(f"the picture is smaller than one {tile}-pixel tile")
    window = np.hanning(tile).astype(np.float32)
    window = np.outer(window, window)
    power = np.zeros((tile, tile), np.float32)
    for x, y in corners:  # OpenCV's transform, one tile at a time, is twice NumPy's on a stack
        piece = gray[y : y + tile, x : x + tile]
        spectrum = cv2.dft((piece - piece.mean()) * window, flags=cv2.DFT_COMPLEX_OUTPUT)
        power += spectrum[..., 0] ** 2 + spectrum[..., 1] ** 2
    # the floor keeps the log finite where the tiles' spectrum is empty
    return np.fft.fftshift(np.fft.ifft2(np.log(power / len(corners) + 1e-2)).real)


def measure_smear(image: np.ndarray, config: SmearConfig = SmearConfig()) -> Smear:
    """The smear of a shaken frame (BGR or grey), measured over the whole picture (the board
    and the table round it are smeared alike, and more tiles make a steadier spectrum): the
    deepest trough of the cepstrum between ``shortest`` and ``longest`` pixels from its
    middle, placed to a fraction of a pixel by a parabola through it and its neighbours on
    each axis. Raises ``ValueError`` when the picture is smaller than a tile."""
    if image.ndim == 3:
        image = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    h, w = image.shape
    cep = cepstrum(image.astype(np.float32), (0, 0, w, h), config.tile)
    half = config.tile // 2
    yy, xx = np.mgrid[-half:half, -half:half]
    reach = np.hypot(xx, yy)
    # the cepstrum is symmetric through its middle: one half holds every direction
    ring = (reach >= config.shortest) & (reach <= config.longest) & (yy >= 0)
    iy, ix = np.unravel_index(np.argmin(np.where(ring, cep, np.inf)), cep.shape)
    dx = xx[iy, ix] + _vertex(*cep[iy, ix - 1 : ix + 2])
    dy = yy[iy, ix] + _vertex(*cep[iy - 1 : iy + 2, ix])
    return Smear(float(np.hypot(dx, dy)), float(np.degrees(np.arctan2(dy, dx)) % 180))


def _vertex(before: float, at: float, after: float) -> float:
    """Where between -0.5 and 0.5 a parabola through three samples has its lowest point."""
    bend = before - 2 * at + after
    return 0.0 if bend <= 0 else float(np.clip(0.5 * (before - after) / bend, -0.5, 0.5))


def line_kernel(smear: Smear) -> np.ndarray:
    """A line covering ``smear.length`` pixels, summing to 1, centred in an odd square."""
    reach = max(smear.length - 1, 0.0) / 2  # from the middle to the last pixel's centre
    n = 2 * int(np.ceil(reach)) + 1
    kernel = np.zeros((n, n), np.float32)
    a = np.radians(smear.angle)
    dx, dy = np.cos(a) * reach, np.sin(a) * reach
    # drawn at 8 times the resolution (shift 3) so that short lines keep their length
    ends = [(round((n // 2 + s * dx) * 8), round((n // 2 + s * dy) * 8)) for s in (-1, 1)]
    cv2.line(kernel, ends[0], ends[1], 1.0, 1, cv2.LINE_AA, 3)
    return kernel / kernel.sum()


def unsmear(image: np.ndarray, smear: Smear, config: SmearConfig = SmearConfig()) -> np.ndarray:
    """``image`` (8-bit, grey or BGR) with ``smear`` divided out by a Wiener filter: each
    plane's spectrum times the line's conjugate over the line's power and ``noise``. The
    spectra are OpenCV's packed real ones (half the work of complex ones)."""
    kernel = line_kernel(smear)
    pad = kernel.shape[0]
    h, w = image.shape[:2]
    height, width = cv2.getOptimalDFTSize(h + 2 * pad), cv2.getOptimalDFTSize(w + 2 * pad)
    # mirrored beyond the edges, so the filter sees no step there to ring from
    padded = cv2.copyMakeBorder(
        image, pad, height - h - pad, pad, width - w - pad, cv2.BORDER_REFLECT
    ).astype(np.float32)
    planes = padded.reshape(height, width, -1)
    line = np.zeros((height, width), np.float32)
    c = kernel.shape[0] // 2
    line[: kernel.shape[0], : kernel.shape[1]] = kernel
    line = cv2.dft(np.roll(line, (-c, -c), axis=(0, 1)))  # its middle at the origin: no shift
    one = np.zeros((height, width), np.float32)
    one[0, 0] = 1.0
    one = cv2.dft(one)  # 1 at every frequency
    power = cv2.mulSpectrums(line, line, 0, conjB=True) + config.noise * one
    wiener = cv2.divSpectrums(cv2.mulSpectrums(one, line, 0, conjB=True), power, 0)
    out = np.empty_like(planes)
    for i in range(planes.shape[2]):
        spectrum = cv2.mulSpectrums(cv2.dft(np.ascontiguousarray(planes[..., i])), wiener, 0)
        out[..., i] = cv2.idft(spectrum, flags=cv2.DFT_SCALE | cv2.DFT_REAL_OUTPUT)
    out = out[pad : pad + h, pad : pad + w].reshape(image.shape)
    return np.clip(out + 0.5, 0, 255).astype(np.uint8)
