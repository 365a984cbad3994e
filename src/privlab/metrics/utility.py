"""Utility (information-loss) measures between an original table X and its release X′, both
``(n, m)`` with rows aligned (row i of X′ is the masked version of record i).

* :func:`sse` — thesis §6.4.2: Σ_i Σ_j (x_ij − x′_ij)² (``normalise=True`` divides by the total
  sum of squares Σ (x_ij − mean_j)², a scale-free variant).
* :func:`relative_error` — irm §4.2: mean over records and attributes of
  |x_ij − x′_ij| / max(|x_ij|, s_j).  The sanity bound s_j is "a function of the domain of
  values of each attribute"; the formula did not survive the text extraction, so privlab uses
  s_j = (hi_j − lo_j)/100 (one histogram bin of the same paper) by default and takes any
  ``sanity`` the caller gives.
* :func:`js_divergence` — irm §4.2: Jensen–Shannon divergence (base 2, in [0, 1]) between the
  histograms of X_j and X′_j with bins of 1/100 of the declared domain (values outside the
  domain fall in the end bins), averaged over attributes.
* :func:`delta_mean`, :func:`delta_variance` — per attribute |mean′ − mean| / |mean| and
  |var′ − var| / var (vldb14 Table 7, irm Table 1 report variations of these statistics).
* :func:`correlation_differences` — thesis Tables 3.10–3.11: |corr′ − corr| over the pairs of
  attributes involving at least one confidential attribute (off-diagonal; the diagonal is
  always 0), with their mean and standard deviation.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

import numpy as np

from privlab.errors import InvalidParameter

__all__ = ["correlation_differences", "delta_mean", "delta_variance", "js_divergence",
           "relative_error", "sse", "utility_summary"]


def _pair(x: Any, y: Any) -> tuple[np.ndarray, np.ndarray]:
    from privlab.mechanisms.microaggregation.core import as_table

    a, _ = as_table(x, name="original")
    b, _ = as_table(y, name="release")
    if a.shape != b.shape:
        raise InvalidParameter(f"original of shape {a.shape} and release of shape {b.shape} "
                               f"must have the same shape")
    return a, b


def _bounds(a: np.ndarray, bounds: Any) -> np.ndarray:
    if bounds is None:
        lo, hi = a.min(axis=0), a.max(axis=0)
        return np.stack([lo, np.where(hi > lo, hi, lo + 1.0)], axis=1)
    b = np.asarray(bounds, dtype=float).reshape(-1, 2)
    if b.shape[0] == 1:
        b = np.repeat(b, a.shape[1], axis=0)
    if b.shape[0] != a.shape[1] or (b[:, 1] <= b[:, 0]).any():
        raise InvalidParameter(f"bounds={bounds!r} must give lo < hi for each of the "
                               f"{a.shape[1]} columns")
    return b


def sse(original: Any, release: Any, *, normalise: bool = False) -> float:
    """Sum of squared errors (module doc)."""
    a, b = _pair(original, release)
    s = float(((a - b) ** 2).sum())
    if normalise:
        sst = float(((a - a.mean(axis=0)) ** 2).sum())
        return s / sst if sst > 0 else 0.0
    return s


def relative_error(original: Any, release: Any, *, bounds: Any = None,
                   sanity: Any = None) -> float:
    """Mean relative error with the sanity bound (module doc)."""
    a, b = _pair(original, release)
    if sanity is None:
        bb = _bounds(a, bounds)
        s = (bb[:, 1] - bb[:, 0]) / 100.0
    else:
        s = np.broadcast_to(np.asarray(sanity, dtype=float), (a.shape[1],))
        if not (s > 0).all():
            raise InvalidParameter(f"sanity={sanity!r} must be > 0")
    return float((np.abs(a - b) / np.maximum(np.abs(a), s)).mean())


def _jsd(p: np.ndarray, q: np.ndarray) -> float:
    p = p / p.sum()
    q = q / q.sum()
    mid = 0.5 * (p + q)

    def kl(u: np.ndarray) -> float:
        nz = u > 0
        return float((u[nz] * np.log2(u[nz] / mid[nz])).sum())

    return max(0.0, 0.5 * kl(p) + 0.5 * kl(q))


def js_divergence(original: Any, release: Any, *, bounds: Any = None, bins: int = 100,
                  per_attribute: bool = False) -> Any:
    """Jensen–Shannon divergence of per-attribute histograms (module doc)."""
    a, b = _pair(original, release)
    bb = _bounds(a, bounds)
    if int(bins) != bins or bins < 1:
        raise InvalidParameter(f"bins={bins!r} must be a positive integer")
    out = []
    for j in range(a.shape[1]):
        edges = np.linspace(bb[j, 0], bb[j, 1], int(bins) + 1)
        ia = np.clip(np.searchsorted(edges, a[:, j], side="right") - 1, 0, bins - 1)
        ib = np.clip(np.searchsorted(edges, b[:, j], side="right") - 1, 0, bins - 1)
        out.append(_jsd(np.bincount(ia, minlength=bins).astype(float),
                        np.bincount(ib, minlength=bins).astype(float)))
    return out if per_attribute else float(np.mean(out))


def delta_mean(original: Any, release: Any) -> np.ndarray:
    """|mean′_j − mean_j| / |mean_j| per attribute (absolute difference where mean_j = 0)."""
    a, b = _pair(original, release)
    ma, mb = a.mean(axis=0), b.mean(axis=0)
    d = np.abs(mb - ma)
    return np.where(ma != 0, d / np.where(ma != 0, np.abs(ma), 1.0), d)


def delta_variance(original: Any, release: Any) -> np.ndarray:
    """|var′_j − var_j| / var_j per attribute (absolute difference where var_j = 0)."""
    a, b = _pair(original, release)
    va, vb = a.var(axis=0, ddof=1), b.var(axis=0, ddof=1)
    d = np.abs(vb - va)
    return np.where(va > 0, d / np.where(va > 0, va, 1.0), d)


def _corr(a: np.ndarray) -> np.ndarray:
    sd = a.std(axis=0)
    z = (a - a.mean(axis=0)) / np.where(sd > 0, sd, 1.0)
    c = (z.T @ z) / a.shape[0]
    c[:, sd == 0] = 0.0
    c[sd == 0, :] = 0.0
    return c


_LAST_ORIGINAL: list[tuple[np.ndarray, np.ndarray]] = []


def _corr_original(a: np.ndarray) -> np.ndarray:
    """``_corr(a)`` for the original table, remembered for the last original seen (experiments
    compare many releases with one original); reused only when the bytes are equal."""
    if _LAST_ORIGINAL:
        prev, c = _LAST_ORIGINAL[0]
        if prev.shape == a.shape and prev.dtype == a.dtype and prev.tobytes() == a.tobytes():
            return c.copy()
    c = _corr(a)
    _LAST_ORIGINAL[:] = [(a.copy(), c.copy())]
    return c


def correlation_differences(original: Any, release: Any, confidential: Sequence[int]
                            ) -> dict[str, Any]:
    """|Δcorr| over the attribute pairs with at least one confidential attribute (module
    doc): ``{"values", "pairs", "mean", "sd"}`` (sd with ddof = 0)."""
    a, b = _pair(original, release)
    m = a.shape[1]
    conf = sorted(set(int(c) for c in confidential))
    if not conf or conf[0] < 0 or conf[-1] >= m:
        raise InvalidParameter(f"confidential={confidential!r} must be column indices < {m}")
    ca, cb = _corr_original(a), _corr(b)
    pairs, rows, cols = _confidential_pairs(m, tuple(conf))
    vals = np.abs(cb[rows, cols] - ca[rows, cols])  # elementwise: the floats of the pair loop
    return {"values": vals, "pairs": list(pairs), "mean": float(vals.mean()),
            "sd": float(vals.std())}


@functools.cache
def _confidential_pairs(m: int, conf: tuple[int, ...]
                        ) -> tuple[tuple[tuple[int, int], ...], np.ndarray, np.ndarray]:
    """The pairs (i < j) of m attributes with i or j in ``conf``, in row-major order, and
    their row and column indices (read-only arrays)."""
    cs = set(conf)
    pairs = tuple((i, j) for i in range(m) for j in range(i + 1, m) if i in cs or j in cs)
    rows = np.array([i for i, _ in pairs], dtype=np.intp)
    cols = np.array([j for _, j in pairs], dtype=np.intp)
    rows.setflags(write=False)
    cols.setflags(write=False)
    return pairs, rows, cols


def utility_summary(original: Any, release: Any, *, bounds: Any = None) -> dict[str, float]:
    """SSE (raw and normalised), RE, JSD, mean Δmean and mean Δvariance in one dictionary."""
    return {"sse": sse(original, release),
            "sse_normalised": sse(original, release, normalise=True),
            "relative_error": relative_error(original, release, bounds=bounds),
            "jsd": js_divergence(original, release, bounds=bounds),
            "delta_mean": float(np.mean(delta_mean(original, release))),
            "delta_variance": float(np.mean(delta_variance(original, release)))}
