"""Undoing a shaken camera's smear, so that the dice of a shaken frame can still be read.

A camera that moves while its shutter is open smears the whole frame along one line, every
point alike (``synth.photo.motion_blur`` renders it so): a die's pips run into streaks, and the
patch reader, which learnt still dice, reads few of them (on 90 held-out shaken frames, 24 of
139 dice right). Blurred by a line, the frame's spectrum is the still frame's times the line's,
and a line's spectrum falls to nothing at every multiple of one over its length, in its
direction: the log spectrum dips periodically, and its own spectrum (the cepstrum) shows that
period as a deep trough at the smear's length, in its direction. The board's regular points
and grain make troughs of their own, and a trough places a short smear's angle only to a lag's
pixel, so the deepest few are each refined by matching the line's dips to the spectrum's, and
the best match is the smear (``measure_smear``). Knowing the line, a Wiener filter divides it
out (``unsmear``), stopping short where the line's spectrum is near nothing and noise alone
would be left (``noise``).

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
    # the cepstrum's deepest troughs each refined by matching the spectrum's dips
    # (``match_smear``), the best match kept: a board's regular points and grain make troughs
    # of their own, deeper than a long smear's at times, and the cepstrum places a short
    # smear's angle to a lag's pixel only. On 150 training renders of shaken frames (``p13m``,
    # never the fixtures), against each frame's true smear: the cepstrum alone errs by over
    # 3 pixels or 15 degrees on 7, by 1.41 pixels and 8.8 degrees at the 90th percentile; its
    # trough refined 6, 1.26 and 4.7; the best of 3 refined 2, 1.22 and 4.3; of 5, 6 (a trough
    # at twice a short smear's length matches its dips too). Read told the board, the first
    # 100 of those frames (158 dice) read 104 right against 100 (109 with the true smears);
    # held out, p13hm 96 of 139 against 90 (false dice 15 -> 14) and p14hm 111 of 155 against
    # 107 (14 -> 16)
    candidates: int = 3
    # the matched frequencies (cycles per pixel: the lowest are the picture's own, the highest
    # mostly noise and the JPEG's), and the width (in the tile's frequency steps) over which the
    # log spectrum's smooth fall is taken out so that only its dips are matched; chosen on the
    # first 60 of those frames (0.015-0.45 and widths 2-8 tried: none better at the 90th
    # percentile)
    band: tuple[float, float] = (0.03, 0.35)
    smooth: float = 4.0
    # the line's power is matched in log with this floor under it, as the picture's noise
    # floors its dips (0.005 and 0.1 on those 60 frames: 90th percentiles 1.17 px and 4.6
    # degrees, 1.37 and 4.9, against 1.08 and 4.3)
    floor: float = 0.02
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


def log_power(gray: np.ndarray, box: tuple[int, int, int, int], tile: int) -> np.ndarray:
    """The log of the power spectrum averaged over the half-overlapping tiles inside ``box``
    (x0, y0, x1, y1), each windowed, unshifted (frequency 0 at [0, 0]); raises ``ValueError``
    when no tile fits."""
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
    return np.log(power / len(corners) + 1e-2)


def cepstrum(log_spectrum: np.ndarray) -> np.ndarray:
    """The cepstrum of an unshifted log power spectrum, centred (lag 0 in the middle)."""
    return np.fft.fftshift(np.fft.ifft2(log_spectrum).real)


def troughs(cep: np.ndarray, config: SmearConfig) -> list[Smear]:
    """The ``candidates`` deepest local troughs of a centred cepstrum between ``shortest`` and
    ``longest`` pixels from its middle, deepest first, each placed to a fraction of a pixel by
    a parabola through it and its neighbours on each axis."""
    half = cep.shape[0] // 2
    yy, xx = np.mgrid[-half:half, -half:half]
    reach = np.hypot(xx, yy)
    # the cepstrum is symmetric through its middle: one half holds every direction
    ring = (reach >= config.shortest) & (reach <= config.longest)
    ring &= (yy > 0) | ((yy == 0) & (xx > 0))
    depth = np.where(ring, cep, np.inf).astype(np.float32)
    lowest = ring & (depth <= cv2.erode(depth, np.ones((5, 5), np.uint8)))
    found = []
    for iy, ix in sorted(np.argwhere(lowest), key=lambda i: depth[i[0], i[1]]):
        dx = xx[iy, ix] + _vertex(*cep[iy, ix - 1 : ix + 2])
        dy = yy[iy, ix] + _vertex(*cep[iy - 1 : iy + 2, ix])
        found.append(Smear(float(np.hypot(dx, dy)), float(np.degrees(np.arctan2(dy, dx)) % 180)))
    return found[: config.candidates]


def _vertex(before: float, at: float, after: float) -> float:
    """Where between -0.5 and 0.5 a parabola through three samples has its lowest point."""
    bend = before - 2 * at + after
    return 0.0 if bend <= 0 else float(np.clip(0.5 * (before - after) / bend, -0.5, 0.5))


class Dips:
    """How well a line's spectrum matches a picture's: the line's log power (a sinc squared,
    alike along every line across its direction) against the picture's, each with its smooth
    fall taken out (a Gaussian ``smooth`` frequency steps wide), correlated over the ``band``
    of frequencies in one half plane."""

    def __init__(self, log_spectrum: np.ndarray, config: SmearConfig) -> None:
        tile = log_spectrum.shape[0]
        centred = np.fft.fftshift(log_spectrum).astype(np.float32)
        dips = np.fft.ifftshift(centred - cv2.GaussianBlur(centred, (0, 0), config.smooth))
        f = np.fft.fftfreq(tile)
        fx, fy = np.meshgrid(f, f)
        radius = np.hypot(fx, fy)
        half = (fy > 0) | ((fy == 0) & (fx > 0))
        band = half & (radius > config.band[0]) & (radius < config.band[1])
        self.dips = _standard(dips[band])
        self.fx, self.fy = fx[band], fy[band]
        # the line's profile along its direction, sampled 4 to a frequency step, out to 0.75
        self.along = np.arange(-3 * tile, 3 * tile + 1) / (4.0 * tile)
        self.width = 4.0 * config.smooth
        self.floor = config.floor

        self.profiles: dict[float, np.ndarray] = {}  # by length: the searches share lengths

    def profile(self, length: float) -> np.ndarray:
        if length not in self.profiles:
            line = np.log(np.sinc(length * self.along) ** 2 + self.floor)
            self.profiles[length] = line - cv2.GaussianBlur(line[None], (0, 1), self.width)[0]
        return self.profiles[length]

    def match(self, smear: Smear) -> float:
        profile = self.profile(smear.length)
        a = np.radians(smear.angle)
        along = self.fx * np.cos(a) + self.fy * np.sin(a)
        return float(np.mean(self.dips * _standard(np.interp(along, self.along, profile))))


def _standard(values: np.ndarray) -> np.ndarray:
    return (values - values.mean()) / (values.std() + 1e-9)


# the searches round a trough: lengths (pixels) and angles (degrees) tried about the best so far,
# a pixel and 3 degrees apart, then a quarter pixel and a degree apart round the best of those
SEARCHES = (
    (np.arange(-2.0, 2.01, 1.0), np.arange(-9.0, 9.01, 3.0)),
    (np.arange(-0.75, 0.76, 0.25), np.arange(-2.0, 2.01, 1.0)),
)


def match_smear(dips: Dips, start: Smear) -> tuple[float, Smear]:
    """The smear near ``start`` whose spectrum best matches the picture's ``dips`` (searched
    as ``SEARCHES`` says), and how well."""
    best = (dips.match(start), start)
    for lengths, angles in SEARCHES:
        centre = best[1]
        for dl in lengths:
            for da in angles:
                length = max(centre.length + float(dl), 2.0)
                smear = Smear(length, float(centre.angle + da) % 180)
                score = dips.match(smear)
                if score > best[0]:
                    best = (score, smear)
    return best


def measure_smear(image: np.ndarray, config: SmearConfig = SmearConfig()) -> Smear:
    """The smear of a shaken frame (BGR or grey), measured over the whole picture (the board
    and the table round it are smeared alike, and more tiles make a steadier spectrum): of
    the cepstrum's deepest troughs (``troughs``), each refined by matching the spectrum's dips
    (``match_smear``), the one that matches best. Raises ``ValueError`` when the picture is
    smaller than a tile."""
    if image.ndim == 3:
        image = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    h, w = image.shape
    spectrum = log_power(image.astype(np.float32), (0, 0, w, h), config.tile)
    dips = Dips(spectrum, config)
    found = [match_smear(dips, start) for start in troughs(cepstrum(spectrum), config)]
    if not found:
        raise ValueError("no smear between the shortest and longest looked for")
    return max(found, key=lambda f: f[0])[1]


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
