"""The exact stand-ins for NumPy's reductions give NumPy's numbers to the bit."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from nardy.vision.stats import median_rows, percentiles, row_percentiles, runs


@settings(max_examples=200, deadline=None)
@given(
    st.integers(1, 5000),
    st.integers(0, 255),
    st.integers(0, 255),
    st.floats(0, 100),
    st.floats(0, 100),
    st.integers(0, 2**32 - 1),
)
def test_percentiles_from_a_histogram_are_numpys(n, a, b, q1, q2, seed):
    lo, hi = min(a, b), max(a, b)
    values = np.random.default_rng(seed).integers(lo, hi + 1, n).astype(np.uint8)
    for q in ((1.0, 99.5), (q1, q2), (0.0, 100.0)):
        want = tuple(float(v) for v in np.percentile(values, q))
        assert percentiles(np.bincount(values, minlength=256), q) == want


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 12), st.integers(1, 1200), st.floats(0, 100), st.integers(0, 2**32 - 1))
def test_percentiles_of_each_row_are_numpys(rows, n, q, seed):
    """As the cube reader levels its patches: grey levels held as float32, one row a patch."""
    rng = np.random.default_rng(seed)
    lo = rng.integers(0, 256, rows)[:, None]
    values = np.minimum(lo + rng.integers(0, 40, (rows, n)), 255)
    counts = np.stack([np.bincount(v, minlength=256) for v in values])
    for qs in ((5.0, 50.0, 95.0), (q,)):
        want = np.percentile(values.astype(np.float32), qs, axis=1)
        got = row_percentiles(counts, qs)
        assert got.dtype == want.dtype
        assert np.array_equal(got, want)


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 60), st.integers(1, 20), st.integers(0, 2**32 - 1))
def test_median_of_rows_is_numpys(rows, cols, seed):
    x = (np.random.default_rng(seed).standard_normal((rows, cols)) * 40).astype(np.float32)
    got, want = median_rows(x), np.median(x, axis=0)
    assert got.dtype == want.dtype
    assert np.array_equal(got, want)


def test_runs_are_each_stretch_of_true_start_to_end():
    assert runs(np.array([], bool)).shape == (0, 2)
    assert runs(np.array([False, False])).shape == (0, 2)
    assert runs(np.array([True] * 5)).tolist() == [[0, 5]]
    assert runs(np.array([True, False, True, True, False, True])).tolist() == [
        [0, 1],
        [2, 4],
        [5, 6],
    ]
