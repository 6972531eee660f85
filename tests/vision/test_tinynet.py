"""The NumPy networks against a plain reference: each convolution is the textbook sum."""

from __future__ import annotations

import numpy as np
import pytest

from nardy.vision.tinynet import conv_hwc, conv_relu_pool, fcn, stem


def reference(x: np.ndarray, w: np.ndarray, b: np.ndarray, stride: int, dilation: int):
    """Zero-padded 3×3 convolution, summed term by term."""
    h, wd, _ = x.shape
    d = dilation
    xp = np.pad(x, ((d, d), (d, d), (0, 0)))
    out = np.zeros(((h + stride - 1) // stride, (wd + stride - 1) // stride, len(w)))
    for i in range(out.shape[0]):
        for j in range(out.shape[1]):
            for ky in range(3):
                for kx in range(3):
                    pixel = xp[i * stride + ky * d, j * stride + kx * d]
                    out[i, j] += w[:, :, ky, kx] @ pixel
    return out + b


@pytest.mark.parametrize(("stride", "dilation"), [(1, 1), (2, 1), (1, 2), (1, 4)])
def test_a_convolution_is_the_sum_it_stands_for(stride, dilation):
    rng = np.random.default_rng(stride * 10 + dilation)
    x = rng.normal(size=(11, 14, 3)).astype(np.float32)
    w = rng.normal(size=(5, 3, 3, 3)).astype(np.float32)
    b = rng.normal(size=5).astype(np.float32)
    got = conv_hwc(x, w, b, stride, dilation)
    assert got.shape == reference(x, w, b, stride, dilation).shape
    assert np.allclose(got, reference(x, w, b, stride, dilation), atol=1e-4)


def test_a_map_runs_its_layers_in_order_with_relu_between():
    rng = np.random.default_rng(7)
    weights = {
        "arch": np.array([[2, 1], [1, 2]]),
        "body.0.weight": rng.normal(size=(4, 3, 3, 3)),
        "body.0.bias": rng.normal(size=4),
        "body.1.weight": rng.normal(size=(6, 4, 3, 3)),
        "body.1.bias": rng.normal(size=6),
        "head.weight": rng.normal(size=(2, 6, 1, 1)),
        "head.bias": rng.normal(size=2),
    }
    weights = {k: v.astype(np.float32) for k, v in weights.items()}
    x = rng.normal(size=(9, 8, 3)).astype(np.float32)
    a = np.maximum(reference(x, weights["body.0.weight"], weights["body.0.bias"], 2, 1), 0)
    a = np.maximum(reference(a, weights["body.1.weight"], weights["body.1.bias"], 1, 2), 0)
    want = a @ weights["head.weight"][:, :, 0, 0].T + weights["head.bias"]
    assert np.allclose(fcn(weights, x), want, atol=1e-3)


@pytest.mark.parametrize(
    "shape",
    # narrow rows (width × channels up to ROW_NUMBERS) go a row at a time, wider ones of few
    # channels a piece of a row at a time (ROW_PIECE), the rest tap by tap
    [
        (3, 8, 4, 3),
        (2, 8, 8, 4),
        (1, 6, 10, 5),
        (2, 4, 16, 3),
        (1, 4, 20, 2),
        (2, 2, 2, 1),
        (2, 4, 6, 1),
    ],
)
@pytest.mark.parametrize("laid_out", ["batch", "side by side"])
def test_a_convolution_pooled_is_relu_of_the_largest_of_each_two_by_two(shape, laid_out):
    """Each image of the batch on its own: a pixel's neighbours never come from the next
    image, the next row, or the padding's other side; the same whether the batch is one
    block or the images' rows lie side by side (the sampler's layout of the tiles)."""
    rng = np.random.default_rng(sum(shape))
    x = rng.normal(size=shape).astype(np.float32)
    if laid_out == "side by side":
        x = x.transpose(1, 0, 2, 3).copy().transpose(1, 0, 2, 3)
    w = rng.normal(size=(4, shape[3], 3, 3)).astype(np.float32)
    b = rng.normal(size=4).astype(np.float32)
    got = conv_relu_pool(x, w, b)
    n, h, wd, _ = shape
    assert got.shape == (n, h // 2, wd // 2, 4)
    for i in range(n):
        full = reference(x[i], w, b, 1, 1)
        want = np.maximum(full.reshape(h // 2, 2, wd // 2, 2, 4).max(axis=(1, 3)), 0)
        assert np.allclose(got[i], want, atol=1e-4)


@pytest.mark.parametrize(
    ("shape", "size"), [((3, 8, 4, 3), 4), ((2, 6, 10, 2), 2), ((1, 3, 3, 1), 3)]
)
def test_a_stem_is_relu_of_each_block_summed_against_the_kernel(shape, size):
    """Each output pixel sees its own block of its own image: the batch is gathered as the
    images' rows laid side by side, and handed back image by image."""
    rng = np.random.default_rng(sum(shape) + size)
    x = rng.normal(size=shape).astype(np.float32)
    w = rng.normal(size=(5, shape[3], size, size)).astype(np.float32)
    b = rng.normal(size=5).astype(np.float32)
    side_by_side = x.transpose(1, 0, 2, 3).copy().transpose(1, 0, 2, 3)  # the sampler's layout
    for batch in (x, side_by_side):
        got = stem(batch, w, b)
        n, h, wd, _ = shape
        assert got.shape == (n, h // size, wd // size, 5)
        for i in range(n):
            for y in range(h // size):
                for v in range(wd // size):
                    block = x[i, y * size : (y + 1) * size, v * size : (v + 1) * size]
                    want = np.einsum("oyxc,yxc->o", w.transpose(0, 2, 3, 1), block) + b
                    assert np.allclose(got[i, y, v], np.maximum(want, 0), atol=1e-4)
