"""The learned part of the usability check: a small network that looks at the whole board at
low resolution and says whether it is clear, or a hand or arm is over it, or a lamp's glare
washes part of it out.

The board is cut out with the frame around it (an arm always crosses the frame) and rectified
to ``VIEW`` pixels, so every board looks the same size to the network whatever the camera. The
weights (``usable_model.npz``) are made by ``scripts/train_usable_model.py`` from rendered boards
whose seeds no fixture uses; reading needs NumPy and OpenCV only. The same network, the views'
scaling included, ships as ONNX (``usable_model.onnx``, written from the weights by the same
script), which OpenCV's DNN module runs in a third of the time NumPy takes (``forward``, the
reference it is tested against).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import cv2
import numpy as np

from nardy.calibration import BoardProfile
from nardy.vision import tinynet

VIEW = (64, 48)  # width, height of the rectified view the network sees
MARGIN = (0.45, 0.45)  # room around the surface in the view: of its width, of its height
# samples a side per view pixel, each the nearest pixel of the frame. The network was
# trained on views of 4 × 4 samples interpolated; of 3 × 3 nearest (44 % fewer samples, each
# a fetch of one pixel, not four: the view cut in half the time) it reads its held-out renders
# as well: 406/414 clear, 150/156 hands (148 before), 42/42 glare, no hand at 0.9 or over
# (clear boards 341 there, 349 before), and the whole reader calls the same 135 of 138 clear
# and 51 of 52 hands. (2 × 2: a network trained afresh on such views let 3 hands through.)
# Trained afresh on 3 × 3 nearest views (all 2,645 renders of its sets, two seeds), it was no
# better where it counts: the whole reader on 192 clear and 264 hand renders it never saw
# called 188 and 191 clear boards usable and let 18 and 23 hands through; this network, 190
# and 18. It stays.
SUPERSAMPLE = 3
CLASSES = ("usable", "hand", "glare")
WEIGHTS = Path(__file__).with_name("usable_model.npz")
NETWORK = WEIGHTS.with_suffix(".onnx")  # the same weights, as the reader runs them


def view_coords(margin: tuple[float, float] = MARGIN, size: tuple[int, int] = VIEW) -> np.ndarray:
    """Board coordinates (h × w × 2) of the view's pixel centres."""
    mx, my = margin
    w, h = size
    xs = -mx + (np.arange(w) + 0.5) / w * (1 + 2 * mx)
    ys = -my + (np.arange(h) + 0.5) / h * (1 + 2 * my)
    xx, yy = np.meshgrid(xs, ys)
    return np.stack([xx, yy], -1)


@dataclass(frozen=True)
class BoardView:
    """Cuts the board and its surroundings out of a frame at ``VIEW`` size: sampled at
    ``SUPERSAMPLE`` times the view's resolution (nearest pixels), then area-averaged, so the
    view is hardly aliased and the rest of the frame is never touched. Beyond the picture is
    black: stretched edge pixels would look like an arm reaching in."""

    profile: BoardProfile

    @cached_property
    def _map(self) -> tuple[np.ndarray, np.ndarray]:
        w, h = VIEW
        grid = view_coords(MARGIN, (w * SUPERSAMPLE, h * SUPERSAMPLE))
        pts = self.profile.board_to_image(grid.reshape(-1, 2)).astype(np.float32)
        return cv2.convertMaps(pts.reshape(grid.shape), None, cv2.CV_16SC2)

    def cut(self, frame: np.ndarray) -> np.ndarray:
        m1, m2 = self._map
        fine = cv2.remap(frame, m1, m2, cv2.INTER_NEAREST, borderMode=cv2.BORDER_CONSTANT)
        return cv2.resize(fine, VIEW, interpolation=cv2.INTER_AREA)


def prepare(views: np.ndarray) -> np.ndarray:
    """Views (N × h × w × 3 BGR uint8) as the network's input, levels kept: a blown-out patch
    must still look blown out."""
    return views.astype(np.float32) / 127.5 - 1.0


def forward(weights: dict[str, np.ndarray], x: np.ndarray) -> np.ndarray:
    """Logits (N × classes): convolutions ``conv1..``, a global average and max of the last,
    one dense layer ``fc`` (the net's layout in ``scripts/train_usable_model.py``)."""
    x = tinynet.convolutions(weights, x)
    pooled = np.concatenate([x.mean(axis=(1, 2)), x.max(axis=(1, 2))], axis=1)
    return pooled @ weights["fc.weight"].T + weights["fc.bias"]


def predict(views: np.ndarray, weights: Path = NETWORK) -> np.ndarray:
    """Probabilities (N × len(CLASSES)) for views cut by ``BoardView``, by the network at
    ``weights``: ONNX (views as they are cut, as floats) or the ``.npz`` weights (``forward``)."""
    if weights.suffix == ".onnx":
        return tinynet.softmax(tinynet.run_onnx(weights, views.astype(np.float32)))
    return tinynet.softmax(forward(tinynet.load(weights), prepare(views)))
