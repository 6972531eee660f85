"""Small convolutional networks run in plain NumPy: the learned stages of the dice, cube and
checker readers. Trained with PyTorch by ``scripts/train_*.py``; weights ship as ``.npz`` beside
the reader, so reading needs NumPy only.

Networks exported as ONNX (the dice reader's) are run by OpenCV's DNN module (``run_onnx``)
instead, several times faster. Two shapes of network run here in NumPy:
- a patch classifier (``forward``): 3×3 convolutions ``conv1..convK`` (ReLU, 2×2 max-pool
  each), two dense layers ``fc1``, ``fc2``; the first dense layer may also take a few plain
  numbers beside the picture (what kind of tile it is). A ``stem`` may come first: an S×S
  convolution at stride S (ReLU, no pool), whose pixels' taps never overlap;
- a fully convolutional map (``fcn``): 3×3 convolutions ``body.I`` with the stride and dilation
  of each in ``arch`` (rows ``stride, dilation``), ReLU between, and a 1×1 ``head``. It runs on
  one image held channels-last, so each convolution is one matrix product.
"""

from __future__ import annotations

import threading
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

#: An image row of at most this many numbers (width × channels) is convolved a whole row at a
#: time (``_rows_conv``): the checker and hand tiles, 8 pixels across at half size, are
#: narrow enough that the banded matrix's zeros cost less than gathering every pixel's taps
#: (the fast checker network runs in 0.55 ms instead of 0.8; 16 pixels across it does not pay)
ROW_NUMBERS = 32
#: A wider colour image (the fine networks' tiles, 16 pixels across) is convolved this many
#: pixels of a row at a time, each piece with its neighbours either side: a third faster than
#: its taps there (a deeper layer's many channels make its taps' product efficient enough)
ROW_PIECE = 4


def conv_relu_pool(x: np.ndarray, w: np.ndarray, b: np.ndarray) -> np.ndarray:
    """3×3 'same' convolution, ReLU, 2×2 max-pool; x is (N, H, W, C) with H and W even, w is
    (O, C, 3, 3).

    The convolution is one matrix product for the whole batch: of every pixel's nine taps
    (``_taps_conv``), or of every image row's three rows around it (``_rows_conv``, for
    narrow images). Its rows run along the image rows, so the pooling is the maximum of
    each pair of rows (whole image rows, long contiguous runs), then of each pair of pixels
    of what is left: each step reads what the one before wrote, half as much each time."""
    n, h, wd, c = x.shape
    if wd * c <= ROW_NUMBERS:
        out = _rows_conv(x, w, wd)
    elif c <= 3 and wd % ROW_PIECE == 0:
        out = _rows_conv(x, w, ROW_PIECE)
    else:
        out = _taps_conv(x, w)
    o = len(w)
    out = out.reshape(n, h // 2, 2, wd, o)
    # pooled before the bias and ReLU (both commute with the max): a quarter of the work
    rows = np.maximum(out[:, :, 0], out[:, :, 1]).reshape(n, h // 2, wd // 2, 2, o)
    pooled = np.maximum(rows[:, :, :, 0], rows[:, :, :, 1])
    pooled += b
    return np.maximum(pooled, 0, out=pooled)


def _taps_conv(x: np.ndarray, w: np.ndarray) -> np.ndarray:
    """The convolution (N H W × O) as one product with every pixel's nine taps: one strided
    view of the zero-padded batch (a tap row's three pixels lie side by side, one run of 3 C
    numbers), copied once into a matrix."""
    n, h, wd, c = x.shape
    padded = np.empty((n, h + 2, wd + 2, c), np.float32)
    padded[:, 1:-1, 1:-1] = x
    # only the border is cleared: the inside was just written
    padded[:, 0] = padded[:, -1] = padded[:, 1:-1, 0] = padded[:, 1:-1, -1] = 0.0
    sn, sy, sx, sc = padded.strides
    taps = np.ndarray((n, h, wd, 3, 3 * c), np.float32, padded, 0, (sn, sy, sx, sy, sc))
    if c == 1:
        # a grey image's tap row is only three numbers: copied that way, the copy costs more
        # than the product; copied tap by tap (whole image rows at a time) it costs little,
        # and the product takes the matrix transposed as it is
        cols = np.empty((3, 3, n, h, wd), np.float32)
        cols[...] = taps.transpose(3, 4, 0, 1, 2)
        matrix = cols.reshape(9, n * h * wd).T
    else:
        matrix = taps.reshape(n * h * wd, 9 * c)
    return matrix @ _kernel(w)


def _rows_conv(x: np.ndarray, w: np.ndarray, piece: int) -> np.ndarray:
    """The convolution (N H W × O) a piece of an image row at a time: ``piece`` output pixels
    are the three input rows around them, over those pixels and one either side (zero rows
    above and below the image, zero pixels at its ends), times a banded matrix
    (``_row_kernel``) that holds the taps. A piece the whole row wide needs no pixels beside
    it: the matrix leaves out the taps that would fall outside."""
    n, h, wd, c = x.shape
    whole = piece == wd
    side = 0 if whole else 1
    padded = np.empty((n, h + 2, wd + 2 * side, c), np.float32)
    padded[:, 1:-1, side : side + wd] = x
    padded[:, 0] = padded[:, -1] = 0.0
    if side:
        padded[:, :, 0] = padded[:, :, -1] = 0.0
    sn, sy, sx, sc = padded.strides
    span = (piece + 2 * side) * c
    rows = np.ndarray(
        (n, h, wd // piece, 3, span), np.float32, padded, 0, (sn, sy, piece * sx, sy, sc)
    )
    return (rows.reshape(-1, 3 * span) @ _row_kernel(w, piece, whole)).reshape(n * h * wd, len(w))


_ROW_KERNELS: dict[tuple[int, int, bool], tuple[np.ndarray, np.ndarray]] = {}


def _row_kernel(w: np.ndarray, piece: int, whole: bool) -> np.ndarray:
    """Convolution weights (O, C, 3, 3) as the banded matrix of ``_rows_conv``: rows in
    (ky, x, c) order over the piece's input pixels (with one either side unless ``whole``),
    columns (x, o) over its output pixels; made once per network and piece (the key keeps
    ``w`` alive, so its id is not reused; weights are never changed in place). A script that
    runs ever new weights (training) starts the store afresh now and then."""
    key = (id(w), piece, whole)
    kept = _ROW_KERNELS.get(key)
    if kept is not None and kept[0] is w:
        return kept[1]
    if len(_ROW_KERNELS) >= 64:  # the shipped networks need a dozen
        _ROW_KERNELS.clear()
    o, c = w.shape[:2]
    side = 0 if whole else 1
    width = piece + 2 * side
    band = np.zeros((3, width, c, piece, o), np.float32)
    for kx in range(3):
        for out_x in range(piece):
            in_x = out_x + kx - 1 + side
            if 0 <= in_x < width:
                band[:, in_x, :, out_x, :] = w[:, :, :, kx].transpose(2, 1, 0)
    matrix = band.reshape(3 * width * c, piece * o)
    _ROW_KERNELS[key] = (w, matrix)
    return matrix


def stem(x: np.ndarray, w: np.ndarray, b: np.ndarray) -> np.ndarray:
    """S×S convolution at stride S, then ReLU; x is (N, H, W, C) with H and W multiples of S,
    w is (O, C, S, S). Every output pixel's taps are a block of the input no other pixel
    reads: one reordering copy makes the matrix of the product. The blocks are gathered row
    by row of the batch laid side by side (N images' rows one after the other: how the
    sampler lays out the checker tiles, so each block row is one run of S C numbers), and
    the output handed on in that order, as a view."""
    n, h, wd, c = x.shape
    o, _, s, _ = w.shape
    rows = x.transpose(1, 0, 2, 3).reshape(h // s, s, n, wd // s, s * c)
    matrix = rows.transpose(0, 2, 3, 1, 4).reshape(-1, s * s * c)
    out = matrix @ w.transpose(2, 3, 1, 0).reshape(s * s * c, o)
    out += b
    np.maximum(out, 0, out=out)
    return out.reshape(h // s, n, wd // s, o).transpose(1, 0, 2, 3)


def convolutions(weights: dict[str, np.ndarray], x: np.ndarray) -> np.ndarray:
    """``stem`` (when there is one), then ``conv1..convK`` of ``weights`` over x (N, H, W, C),
    ``conv_relu_pool`` each."""
    if "stem.weight" in weights:
        x = stem(x, weights["stem.weight"], weights["stem.bias"])
    i = 1
    while f"conv{i}.weight" in weights:
        x = conv_relu_pool(x, weights[f"conv{i}.weight"], weights[f"conv{i}.bias"])
        i += 1
    return x


def _kernel(w: np.ndarray) -> np.ndarray:
    """Convolution weights (O, C, 3, 3) as a matrix (9 C, O), rows in (ky, kx, c) order."""
    return w.transpose(2, 3, 1, 0).reshape(9 * w.shape[1], len(w))


@lru_cache(maxsize=32)  # every network the readers ship, loaded once
def load(path: Path) -> dict[str, np.ndarray]:
    with np.load(path) as z:
        return {k: z[k].astype(np.float32) for k in z.files}


def forward(
    weights: dict[str, np.ndarray], images: np.ndarray, extra: np.ndarray | None = None
) -> np.ndarray:
    """Raw outputs (N, outputs) for images (N, H, W) grey or (N, H, W, C), H and W multiples
    of 2 to the number of convolutions; ``extra`` (N, k) joins the flattened features before
    the dense layers."""
    x = np.asarray(images, np.float32)
    if x.ndim == 3:
        x = x[..., None]
    x = convolutions(weights, x)
    # flattened channel first, as PyTorch does
    x = x.transpose(0, 3, 1, 2).reshape(len(x), -1)
    if extra is not None:
        x = np.concatenate([x, extra.astype(np.float32)], axis=1)
    x = np.maximum(x @ weights["fc1.weight"].T + weights["fc1.bias"], 0)
    return x @ weights["fc2.weight"].T + weights["fc2.bias"]


def conv_hwc(x: np.ndarray, w: np.ndarray, b: np.ndarray, stride: int, dilation: int) -> np.ndarray:
    """3×3 convolution of a channels-last image (H, W, C), zero padding as PyTorch's
    ``padding=dilation``; w is (O, C, 3, 3). Output (ceil(H/stride), ceil(W/stride), O).
    The nine taps of every output pixel are one strided view of the padded image, copied
    once into a matrix for one matrix product."""
    h, wd, c = x.shape
    d = dilation
    xp = np.pad(x, ((d, d), (d, d), (0, 0)))
    oh, ow = -(-h // stride), -(-wd // stride)
    sy, sx, sc = xp.strides
    if d == 1:  # a tap row's three pixels lie side by side: (kx, c) is one run
        shape = (oh, ow, 3, 3 * c)
        strides = (stride * sy, stride * sx, sy, sc)
    else:
        shape = (oh, ow, 3, 3, c)
        strides = (stride * sy, stride * sx, d * sy, d * sx, sc)
    taps = np.ndarray(shape, xp.dtype, xp, 0, strides).reshape(oh * ow, 9 * c)
    return (taps @ _kernel(w) + b).reshape(oh, ow, len(w))


def map_input(bgr: np.ndarray) -> np.ndarray:
    """A BGR image as the fully convolutional maps take it (and were trained on): float, about
    zero mean and unit spread."""
    return (bgr.astype(np.float32) * (1 / 255.0) - 0.5) * 4.0


def fcn(weights: dict[str, np.ndarray], image: np.ndarray) -> np.ndarray:
    """The map (H / total stride, W / total stride, outputs) of a channels-last float image."""
    x = image.astype(np.float32)
    for i, (stride, dilation) in enumerate(weights["arch"].astype(int)):
        x = conv_hwc(x, weights[f"body.{i}.weight"], weights[f"body.{i}.bias"], stride, dilation)
        np.maximum(x, 0, out=x)
    w = weights["head.weight"].reshape(len(weights["head.weight"]), -1)
    return x @ w.T + weights["head.bias"]


@lru_cache(maxsize=8)
def _dnn(path: Path) -> tuple[cv2.dnn.Net, threading.Lock]:
    return cv2.dnn.readNetFromONNX(str(path)), threading.Lock()


def run_onnx(path: Path, blob: np.ndarray) -> np.ndarray:
    """The output of the ONNX network at ``path`` (run by OpenCV's DNN module, loaded once) for
    an input ``blob`` (N, C, H, W) float32. Several times faster than ``forward``/``fcn`` for
    the dice reader's networks; one call at a time per network (a DNN net is not re-entrant)."""
    net, lock = _dnn(path)
    with lock:
        net.setInput(np.ascontiguousarray(blob, np.float32))
        return net.forward()


def softmax(logits: np.ndarray) -> np.ndarray:
    z = np.exp(logits - logits.max(axis=1, keepdims=True))
    return z / z.sum(axis=1, keepdims=True)
