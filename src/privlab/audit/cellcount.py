"""Histogram of values over the cells of a partition: ``np.bincount(np.searchsorted(edges, x,
"left"), minlength=edges.size + 1)`` without a binary search per value.

For sorted edges e_0 ≤ … ≤ e_{m−1} the cell of x is i(x) = #{j : e_j < x}.  A binary search
spends ~log₂ m unpredictable branches per value (~65 ns for m = 200).  Instead the range
[e_0, e_{m−1}] is cut into G equal grid cells with left ends g_k = e_0 + k·w, and
t_k = #{j : e_j < g_k} is tabulated once per partition.  For a value x in grid cell
k = ⌊(x − e_0)/w⌋ the search starts at s = t_{k−2}: since g_{k−2} ≤ x (two cells of margin
absorb the rounding of k, which is far below a cell when w ≫ the ulp of the values — checked),
every edge below s is < x, so s ≤ i(x); then s is advanced while e_s < x (vectorised passes,
about as many as edges in three grid cells, at most ``MAX_PER_CELL`` each — checked per
partition), which ends exactly at i(x).  Values below e_0 start at t_0 = 0, values above the
range at t_{G−2}.  Any partition or batch outside these conditions (tiny batches, NaN or
infinite values, a range too narrow for its magnitude, crowded grid cells) takes the binary
search, so the counts are always those of ``searchsorted`` (``tests/audit/test_cellcount.py``).

Few edges (m < ``MIN_EDGES``, the discrete features: coordinates of ⊤/⊥ answers, counts,
atoms) are counted by comparisons instead: with L_j = #{x ≤ e_j} (non-decreasing in j for
sorted edges), cell c holds L_c − L_{c−1} values (L_{−1} = 0, L_m = n), because
#{j : e_j < x} = c ⇔ e_{c−1} < x ≤ e_c; a NaN is ≤ no edge and lands in the last cell, as
``searchsorted`` (which sorts NaN last) puts it.  m vectorised comparisons cost less than one
unpredictable binary search per value.
"""

from __future__ import annotations

import functools
import math

import numpy as np
from numpy.typing import NDArray

IntArray = NDArray[np.int64]

MIN_EDGES = 32
"""Fewer edges: the binary search is short and predictable enough."""
MIN_VALUES = 4096
"""Smaller batches: the table lookup's fixed costs do not pay."""
MIN_COMPARE_VALUES = 2048
"""Smaller batches: the comparison passes' fixed costs do not pay."""
CELLS_PER_EDGE = 16
MAX_PER_CELL = 3
REL_WIDTH = 1e-6
"""A grid cell must be wider than this times the largest |edge| (rounding margin)."""

__all__ = ["cell_counts"]


def _reference(edges: NDArray[np.float64], x: NDArray[np.float64]) -> IntArray:
    idx = np.searchsorted(edges, x, side="left")
    return np.bincount(idx, minlength=edges.size + 1).astype(np.int64)


@functools.lru_cache(maxsize=256)
def _grid(raw: bytes) -> tuple[float, float, int, NDArray[np.intp], NDArray[np.float64]] | None:
    """(e_0, 1/w, G, t, edges followed by +∞) of a partition given by its edges' bytes (read-only
    arrays), or None when the grid does not apply (module docstring)."""
    edges = np.frombuffer(raw, dtype=np.float64)
    lo, hi = float(edges[0]), float(edges[-1])
    cells = CELLS_PER_EDGE * edges.size
    w = (hi - lo) / cells
    if not (math.isfinite(lo) and math.isfinite(hi) and math.isfinite(w)) or \
            w <= REL_WIDTH * max(abs(lo), abs(hi)) or np.any(np.diff(edges) < 0):
        return None
    table = np.searchsorted(edges, lo + w * np.arange(cells + 1), side="left")
    if int(np.diff(table).max()) > MAX_PER_CELL:
        return None
    ext = np.append(edges, np.inf)
    table.setflags(write=False)
    ext.setflags(write=False)
    return lo, 1.0 / w, cells, table, ext


def cell_counts(edges: NDArray[np.float64], x: NDArray[np.float64]) -> IntArray:
    """Counts of ``x`` per cell (−∞, e_0], (e_0, e_1], …, (e_{m−1}, ∞) — exactly
    ``np.bincount(np.searchsorted(edges, x, "left"), minlength=edges.size + 1)``."""
    edges = np.asarray(edges)
    x = np.asarray(x)
    if edges.dtype != np.float64 or x.dtype != np.float64 or x.ndim != 1 or edges.ndim != 1:
        return _reference(edges, x)
    if edges.size < MIN_EDGES:
        if x.size < MIN_COMPARE_VALUES or edges.size == 0 or \
                not bool(np.all(edges[1:] >= edges[:-1])):  # unsorted or NaN edges
            return _reference(edges, x)
        return _compare_counts(edges, x)
    if x.size < MIN_VALUES:
        return _reference(edges, x)
    grid = _grid(np.ascontiguousarray(edges).tobytes())
    if grid is None:
        return _reference(edges, x)
    lo, inv_w, cells, table, ext = grid
    pos = x - lo
    pos *= inv_w
    if not math.isfinite(float(np.add.reduce(pos))):  # NaN or ±∞ somewhere (or overflow)
        return _reference(edges, x)
    np.clip(pos, 2.0, float(cells), out=pos)
    idx = table[pos.astype(np.intp) - 2]
    while True:
        step = ext[idx] < x
        if not step.any():
            break
        idx += step
    return np.bincount(idx, minlength=edges.size + 1).astype(np.int64)


def _compare_counts(edges: NDArray[np.float64], x: NDArray[np.float64]) -> IntArray:
    """Counts per cell from L_j = #{x ≤ e_j} (module docstring), for sorted edges."""
    below = np.empty(edges.size + 2, dtype=np.int64)  # L_{−1}, L_0, …, L_{m−1}, L_m
    below[0], below[-1] = 0, x.size
    hit = np.empty(x.size, dtype=bool)
    for j in range(edges.size):
        np.less_equal(x, edges[j], out=hit)
        below[j + 1] = np.count_nonzero(hit)
    return np.diff(below)
