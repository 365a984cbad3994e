"""Information loss and disclosure risk of categorical releases (thesis §6.4.2, vldb14 §5.2).

Records are rows of concept codes, one taxonomy per column
(:class:`~privlab.mechanisms.microaggregation.categorical.SemanticSpace`).

* :func:`semantic_sse` — SSE = Σ_j Σ_i δ_i(a_j^i, (a_j^i)′)², the semantic distance of eq. (6.6)
  per categorical attribute (thesis §6.4.2).
* :func:`semantic_record_linkage` — RL = 100 · Σ_j Pr(x′_j) / n, Pr(x′_j) = 1/|G| when the
  original record x_j is in the set G of original records at minimum distance from x′_j, else 0
  ("the same distance functions as for SSE": d(x, y)² = Σ_i δ_i(x_i, y_i)²).  Distances within
  a relative 1e-12 count as equal (as :func:`privlab.metrics.risk.record_linkage`).  Computed on
  distinct tuples: the originals reduce to P distinct tuples with multiplicities and the
  releases to R distinct tuples, so the cost is O(R·P·m + n) instead of O(n²·m).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from privlab.errors import InvalidParameter
from privlab.mechanisms.microaggregation.categorical import SemanticSpace

__all__ = ["semantic_record_linkage", "semantic_sse"]


def _pair(space: SemanticSpace, original: Any, release: Any) -> tuple[np.ndarray, np.ndarray]:
    x = space.check_codes(original)
    r = np.asarray(release)
    if r.shape[-2:] != x.shape:
        raise InvalidParameter(f"release of shape {r.shape} must end with the original's "
                               f"shape {x.shape}")
    space.check_codes(r.reshape(-1, space.m))
    return x, r.astype(np.int64)


def semantic_sse(space: SemanticSpace, original: Any, release: Any) -> Any:
    """SSE of one release (n, m) or of each of several (runs, n, m) (then an array)."""
    x, r = _pair(space, original, release)
    tot = np.zeros(r.shape[:-1])
    c = space.dist.shape[1]
    for j in range(space.m):
        t = space.dist[j].ravel()[x[:, j] * c + r[..., j]]  # δ_j(x_ij, r_ij), flat lookup
        tot = tot + t * t
    s = tot.sum(axis=-1)
    return float(s) if s.ndim == 0 else s


def _distinct_keys(keys: np.ndarray, stride: np.ndarray, sizes: np.ndarray
                   ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(distinct tuples (P, m) in lexicographic order, counts (P,), inverse) of the tuples with
    mixed-radix keys ``keys`` — what ``np.unique(rows, axis=0)`` gives (the key order is the
    lexicographic order), by counting over the key space when it is small."""
    total = int(np.prod(sizes.astype(np.float64)))
    if total <= max(1 << 16, 4 * keys.size):
        cnt = np.bincount(keys, minlength=total)
        ukeys = np.flatnonzero(cnt)
        rank = np.zeros(total, dtype=np.int64)
        rank[ukeys] = np.arange(ukeys.size)
        inv, w = rank[keys], cnt[ukeys]
    else:
        ukeys, inv, w = np.unique(keys, return_inverse=True, return_counts=True)
    u = (ukeys[:, None] // stride[None, :]) % sizes[None, :]
    return u.astype(np.int64), w.astype(np.int64), inv.ravel().astype(np.int64)


def _keys(rows: np.ndarray, stride: np.ndarray) -> np.ndarray:
    """``rows @ stride`` (int64 mixed-radix keys), column by column (exact integers)."""
    key = rows[:, 0] * stride[0]
    for j in range(1, rows.shape[1]):
        key = key + rows[:, j] * stride[j]
    return key


def semantic_record_linkage(space: SemanticSpace, original: Any, release: Any,
                            per_record: bool = False) -> Any:
    """RL (%) of one release (n, m), or of each of several (runs, n, m) (then an array);
    ``per_record=True`` also returns Pr(x′_j) with the release's shape minus the last axis."""
    x, r = _pair(space, original, release)
    flat = r.reshape(-1, space.m)
    stride = np.cumprod(np.r_[1, space.sizes[::-1][:-1]])[::-1]  # mixed-radix tuple key
    u, w, inv = _distinct_keys(_keys(x, stride), stride, space.sizes)
    v, _, vinv = _distinct_keys(_keys(flat, stride), stride, space.sizes)
    d = np.zeros((len(v), len(u)))
    for j in range(space.m):
        t = space.dist[j][v[:, j][:, None], u[:, j][None, :]]
        d += t * t
    dmin = d.min(axis=1, keepdims=True)
    near = d <= dmin * (1.0 + 1e-12) + 1e-300
    size = near.astype(float) @ w.astype(float)  # |G| per distinct released tuple
    orig_of = np.broadcast_to(inv, r.shape[:-1]).ravel()
    # near[vinv, orig_of] / size[vinv], divided once per (distinct release, original) pair
    pv = (near / size[:, None]).ravel()
    prob = pv[vinv * len(u) + orig_of].reshape(r.shape[:-1])
    rl = 100.0 * prob.mean(axis=-1)
    rl = float(rl) if rl.ndim == 0 else rl
    return (rl, prob) if per_record else rl
