"""Neighbour search for mechanisms whose input is a data set (``audit_mechanism(...,
neighbours="search", domain=...)``).

A pure-DP claim quantifies over *all* neighbouring data sets D ~ D', so a black-box audit is
only as strong as the pairs it tries.  Hand-made pairs found the true loss of the public
implementations of the seeds' releases (thesis §6.3: microaggregation followed by noise); this
module generates the kinds of pairs that did, from the domain alone:

* base data sets of ``size`` records in the box ``domain`` (m columns): evenly spread on the
  diagonal; groups of k tied records (duplicates; k = ``mechanism.k`` when it has one, else 2);
  half at each extreme corner; one uniform random data set from the search stream;
* substitution neighbours: a record at the ends of the order (first, last) or at a cluster
  boundary (sorted positions k − 1 and k: where a k-partition changes) moved to the lower or
  upper corner, onto the value of the next record (a new tie) or to the middle of the domain;
* add/remove neighbours: one of those records removed, or a record added at a corner or as a
  duplicate of the first record.

Each candidate is scored by a pilot audit on its own stream (as for scalar inputs,
:func:`privlab.audit.mechanism.audit_mechanism`) and only the best pair is audited on fresh
samples at the full confidence: the choice depends on data independent of the final
estimation, so the audit's guarantee is unchanged (auditor module docstring).

Outputs.  A table output (shape (n_rows, m) per release) is mapped to a fixed-length vector
before auditing (:func:`table_features`): the row count, for every row the index of the first
row equal to it (the tie structure of an aligned release: an event of probability 1 vs 0 when
the partition changes), the number of distinct rows, the smallest multiplicity of a row, the
column sums and the sorted first column.  Scalar and vector outputs are audited as they are.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

import numpy as np
from numpy.typing import NDArray

from privlab import _validate as v
from privlab.errors import InvalidParameter

__all__ = ["RELATIONS", "dataset_candidates", "dataset_sampler", "parse_domain",
           "table_features"]

RELATIONS = ("substitute", "add_remove", "both")
DEFAULT_SIZE = 6
MAX_CANDIDATES = 24

Pair = tuple[NDArray[np.float64], NDArray[np.float64], str]


def parse_domain(domain: Any) -> NDArray[np.float64]:
    """``(lo, hi)`` (one column) or ``[(lo_1, hi_1), …]`` → array (m, 2) with lo < hi."""
    try:
        b = np.asarray(domain, dtype=float)
    except (TypeError, ValueError):
        raise InvalidParameter(f"domain={domain!r} must be (lo, hi) or [(lo, hi), ...]") from None
    if b.ndim == 1:
        b = b[None, :]
    if b.ndim != 2 or b.shape[1] != 2 or b.shape[0] < 1 or not np.isfinite(b).all() \
            or not (b[:, 1] > b[:, 0]).all():
        raise InvalidParameter(f"domain={domain!r} must be (lo, hi) or [(lo, hi), ...] with "
                               f"finite lo < hi")
    return b


def _bases(lo: NDArray[Any], hi: NDArray[Any], n: int, k: int,
           rng: np.random.Generator) -> list[tuple[NDArray[np.float64], str]]:
    t = np.linspace(0.0, 1.0, n)[:, None]
    out = [(lo + t * (hi - lo), "spread")]
    g = -(-n // k)  # groups of k ties
    levels = np.repeat(np.linspace(0.0, 1.0, max(g, 2))[:g], k)[:n, None]
    out.append((lo + levels * (hi - lo), f"ties of {k}"))
    half = (np.arange(n) >= n // 2)[:, None].astype(float)
    out.append((lo + half * (hi - lo), "extremes"))
    out.append((lo + np.sort(rng.random((n, lo.size)), axis=0) * (hi - lo), "random"))
    return out


def dataset_candidates(domain: Any, *, size: int = DEFAULT_SIZE, k: int | None = None,
                       relation: str = "substitute", rng: Any = None,
                       limit: int = MAX_CANDIDATES) -> list[Pair]:
    """Small neighbouring data sets (module docstring): ``(x, x', label)`` triples, distinct,
    at most ``limit``, taken round-robin over the base data sets so every kind is tried."""
    b = parse_domain(domain)
    n = v.positive_int("size", size)
    kk = 2 if k is None else v.positive_int("k", k)
    v.one_of("relation", relation, RELATIONS)
    lim = v.positive_int("limit", limit)
    if n < max(2, kk):
        raise InvalidParameter(f"size={size!r} must be >= max(2, k={kk})")
    lo, hi = b[:, 0], b[:, 1]
    mid = (lo + hi) / 2
    g = rng if isinstance(rng, np.random.Generator) else np.random.default_rng(rng)
    per_base: list[list[Pair]] = []
    for x, name in _bases(lo, hi, n, kk, g):
        cands: list[Pair] = []
        idx = sorted({0, n - 1, *(i for i in (kk - 1, kk) if 0 <= i < n)})
        if relation in ("substitute", "both"):
            for i in idx:
                nxt = x[i + 1] if i + 1 < n else x[i - 1]
                for val, what in ((lo, "lower corner"), (hi, "upper corner"),
                                  (nxt, "next record (tie)"), (mid, "middle")):
                    xp = x.copy()
                    xp[i] = val
                    cands.append((x, xp, f"{name}: record {i} -> {what}"))
        if relation in ("add_remove", "both"):
            for i in idx:
                if n - 1 >= max(1, kk):
                    cands.append((x, np.delete(x, i, axis=0), f"{name}: record {i} removed"))
            for val, what in ((lo, "lower corner"), (hi, "upper corner"), (x[0], "duplicate")):
                cands.append((x, np.vstack([x, val[None, :]]), f"{name}: record added at "
                                                                f"{what}"))
        per_base.append(cands)
    out: list[Pair] = []
    seen: set[bytes] = set()
    for j in range(max(len(c) for c in per_base)):
        for cands in per_base:
            if j >= len(cands) or len(out) >= lim:
                continue
            x, xp, label = cands[j]
            key = x.tobytes() + b"|" + xp.tobytes() + bytes(str(xp.shape), "ascii")
            if (x.shape == xp.shape and np.array_equal(x, xp)) or key in seen:
                continue
            seen.add(key)
            out.append((x, xp, label))
    return out


def table_features(out: NDArray[Any], n_pad: int) -> NDArray[np.float64]:
    """(T, r, m) table releases → (T, 3 + 2·n_pad + m) features (module docstring); rows
    beyond r are padded with −1 (tie indices) and 0 (sorted column)."""
    t, r = out.shape[:2]
    eq = (out[:, :, None, :] == out[:, None, :, :]).all(axis=-1)
    first = np.argmax(eq, axis=2).astype(float)
    distinct = (first == np.arange(r)).sum(axis=1)
    mult = eq.sum(axis=2).min(axis=1)
    pad = max(n_pad - r, 0)
    ties = np.concatenate([first, np.full((t, pad), -1.0)], axis=1)[:, :n_pad]
    col0 = np.concatenate([np.sort(out[:, :, 0], axis=1), np.zeros((t, pad))], axis=1)[:, :n_pad]
    return np.concatenate([np.full((t, 1), float(r)), ties, distinct[:, None],
                           mult[:, None], out.sum(axis=1), col0], axis=1).astype(float)


def dataset_sampler(mech: Any, x: NDArray[np.float64], bounds: NDArray[np.float64],
                    n_pad: int) -> Callable[[int, np.random.Generator], Any]:
    """A sampler of the mechanism's outputs on data set ``x``: ``sample_on(x, n, rng)``
    (controls), ``sample(x, bounds, n, rng=)`` (the lab's releases) or one
    ``release(x, *, rng)`` per output; table outputs go through :func:`table_features`."""
    raw: Callable[[int, np.random.Generator], Any]
    if hasattr(mech, "sample_on"):
        raw = lambda t, g: mech.sample_on(x, t, g)  # noqa: E731
    elif callable(getattr(mech, "sample", None)) and "bounds" in _params(mech.sample):
        raw = lambda t, g: mech.sample(x, bounds, t, rng=g)  # noqa: E731
    elif callable(getattr(mech, "release", None)):
        from privlab.audit.usercode import vectorize

        raw = vectorize(lambda g: np.asarray(mech.release(x, rng=g)), label="release")
    else:
        raise InvalidParameter(f"mechanism={mech!r} needs sample_on(x, n, rng), "
                               f"sample(x, bounds, n, *, rng) or release(x, *, rng) to be "
                               f"audited on data sets")

    def sample(t: int, g: np.random.Generator) -> NDArray[Any]:
        out = np.asarray(raw(t, g))
        if out.ndim == 3:
            return table_features(out, n_pad)
        return out

    return sample


def _params(fn: Any) -> tuple[str, ...]:
    try:
        return tuple(inspect.signature(fn).parameters)
    except (TypeError, ValueError):
        return ()
