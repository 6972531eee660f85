"""Exact stand-ins for NumPy reductions that cost more than their work on the few dozen rows
the readers reduce per frame (the result is the same to the bit)."""

from __future__ import annotations

import math

import numpy as np


def median_rows(rows: np.ndarray) -> np.ndarray:
    """``np.median(rows, axis=0)`` by one sort (NumPy's median partitions, then averages the
    middle pair as this does)."""
    ordered = np.sort(rows, axis=0)
    n = len(ordered)
    if n % 2:
        return ordered[n // 2]
    return (ordered[n // 2 - 1] + ordered[n // 2]) / 2


def runs(flags: np.ndarray) -> np.ndarray:
    """Each run of True in a row: its start and end (exclusive), one run a row."""
    edges = np.flatnonzero(np.diff(np.concatenate([[False], flags, [False]]).astype(np.int8)))
    return edges.reshape(-1, 2)


def percentiles(histogram: np.ndarray, q: tuple[float, ...]) -> tuple[float, ...]:
    """``np.percentile(values, q)`` (its linear method) of the integers whose ``histogram``
    (counts of 0, 1, 2, …) is given: the same numbers, without partitioning every value
    (``row_percentiles``' arithmetic on one row, a value found by a binary search: a few
    microseconds, where its dozen array steps on a single row cost a tenth of a millisecond)."""
    ranked = np.cumsum(np.asarray(histogram).ravel())
    n = int(ranked[-1])
    out = []
    for p in q:
        at = (n - 1) * (p / 100)
        below = math.floor(at)
        above = min(below + 1, n - 1)
        # the k-th value in order is how many levels have k or fewer values up to them
        a = float(np.searchsorted(ranked, min(below, n - 1), side="right"))
        b = float(np.searchsorted(ranked, above, side="right"))
        t = at - below
        out.append(b - (b - a) * (1 - t) if t >= 0.5 else a + (b - a) * t)
    return tuple(out)


def row_percentiles(counts: np.ndarray, q: tuple[float, ...]) -> np.ndarray:
    """``percentiles`` of each row of ``counts`` (N × levels, each a histogram of integers
    0, 1, 2, …): ``np.percentile(values, q, axis=1)`` of the N rows of values, len(q) × N,
    float64 (as NumPy gives them for integer or float32 values)."""
    ranked = np.cumsum(counts, axis=1)
    n = ranked[:, -1].astype(np.int64)  # values in each row
    at = (n - 1) * np.true_divide(q, 100)[:, None]  # where each lies among the values in order
    below = np.floor(at)
    above = np.minimum(below + 1, n - 1)
    # the k-th value in order (from 0) is how many levels have k or fewer values up to them
    a = (ranked[None] <= np.minimum(below, n - 1)[:, :, None]).sum(axis=2).astype(np.float64)
    b = (ranked[None] <= above[:, :, None]).sum(axis=2).astype(np.float64)
    t = at - below
    # NumPy's interpolation: from the nearer of the two neighbours
    return np.where(t >= 0.5, b - (b - a) * (1 - t), a + (b - a) * t)
