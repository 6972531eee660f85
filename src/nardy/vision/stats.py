"""Exact stand-ins for NumPy reductions that cost more than their work on the few dozen rows
the readers reduce per frame (the result is the same to the bit)."""

from __future__ import annotations

import numpy as np


def median_rows(rows: np.ndarray) -> np.ndarray:
    """``np.median(rows, axis=0)`` by one sort (NumPy's median partitions, then averages the
    middle pair as this does)."""
    ordered = np.sort(rows, axis=0)
    n = len(ordered)
    if n % 2:
        return ordered[n // 2]
    return (ordered[n // 2 - 1] + ordered[n // 2]) / 2


def longest_run(flags: np.ndarray) -> int:
    """The longest run of True in a row."""
    edges = np.flatnonzero(np.diff(np.concatenate([[False], flags, [False]]).astype(np.int8)))
    return int((edges[1::2] - edges[::2]).max(initial=0))


def percentiles(histogram: np.ndarray, q: tuple[float, ...]) -> tuple[float, ...]:
    """``np.percentile(values, q)`` (its linear method) of the integers whose ``histogram``
    (counts of 0, 1, 2, …) is given: the same numbers, without partitioning every value."""
    counts = np.asarray(histogram).ravel()
    ranked = np.cumsum(counts)
    n = int(ranked[-1])
    at = (n - 1) * np.true_divide(q, 100)  # where each lies among the values in order
    below = np.floor(at)
    above = np.minimum(below + 1, n - 1)
    a = np.searchsorted(ranked, np.minimum(below, n - 1), side="right").astype(np.float64)
    b = np.searchsorted(ranked, above, side="right").astype(np.float64)
    t = at - below
    # NumPy's interpolation: from the nearer of the two neighbours
    value = np.where(t >= 0.5, b - (b - a) * (1 - t), a + (b - a) * t)
    return tuple(float(v) for v in value)
