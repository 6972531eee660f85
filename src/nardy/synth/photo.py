"""What the camera does to the light: uneven illumination, tint, defocus, motion, sensor noise."""

from __future__ import annotations

import cv2
import numpy as np

from nardy.synth.scene import Lighting


def develop(img: np.ndarray, light: Lighting, rng: np.random.Generator) -> np.ndarray:
    """The float picture (0..1, BGR) as an 8-bit camera frame."""
    h, w = img.shape[:2]
    # the light's unevenness varies slowly: work it out on a coarse grid
    gh, gw = h // 8 + 1, w // 8 + 1
    yy, xx = np.mgrid[0:gh, 0:gw].astype(np.float32) * 8
    xx = (xx - w / 2) / (w / 2)
    yy = (yy - h / 2) / (w / 2)
    a = np.radians(light.gradient_angle)
    ramp = xx * np.cos(a) + yy * np.sin(a)
    gain = light.exposure * (1 - light.gradient * (0.5 + 0.5 * ramp))
    gain = gain * (1 - light.vignette * (xx * xx + yy * yy) / 1.3)
    gain = cv2.resize(gain, (gw * 8, gh * 8), interpolation=cv2.INTER_LINEAR)[:h, :w]
    tint = np.float32([1 - 0.12 * light.warmth, 1.0, 1 + 0.1 * light.warmth])
    out = img * gain[..., None]
    out *= tint
    if light.blur > 0.05:
        out = cv2.GaussianBlur(out, (0, 0), light.blur)
    if light.motion >= 1:
        out = motion_blur(out, light.motion, light.motion_angle)
    if light.noise > 0:
        # sensor noise, partly correlated between neighbours as demosaicing leaves it
        sigma = light.noise / 255.0
        fine = rng.standard_normal((h, w), dtype=np.float32)
        half = rng.standard_normal((h // 2 + 1, w // 2 + 1, 3), dtype=np.float32)
        half = cv2.resize(half, (w, h), interpolation=cv2.INTER_LINEAR)
        level = np.sqrt(np.clip(out, 0, 1))
        level *= 0.9
        level += 0.35
        half *= 0.6
        half += (0.7 * fine)[..., None]
        half *= level
        half *= sigma
        out += half
    return np.clip(out * 255 + 0.5, 0, 255).astype(np.uint8)


def motion_blur(
    img: np.ndarray, length: float, angle: float, border: int = cv2.BORDER_DEFAULT
) -> np.ndarray:
    """``img`` smeared along a line ``length`` pixels long at ``angle`` degrees, centred (what
    is smeared stays where it was on average), as a camera moved during the exposure smears it;
    ``border`` is OpenCV's for the pixels beyond the edge."""
    n = int(np.ceil(length)) | 1
    k = np.zeros((n, n), np.float32)
    c = n // 2
    a = np.radians(angle)
    dx, dy = np.cos(a) * length / 2, np.sin(a) * length / 2
    cv2.line(k, (round(c - dx), round(c - dy)), (round(c + dx), round(c + dy)), 1.0, 1, cv2.LINE_AA)
    return cv2.filter2D(img, -1, k / k.sum(), borderType=border)
