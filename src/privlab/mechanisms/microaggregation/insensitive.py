"""Insensitive microaggregation (thesis §6.2–6.3.3: Definitions 12–13, Propositions 6–7,
Algorithm 6.1; vldb14 §3–4.3).

**Algorithm 6.1** (fixed cluster size): while at least 2k records remain, the next cluster is
the k smallest remaining records under the order ≤_i of step i; the remaining k … 2k − 1
records form the last cluster.  Proposition 7: it is insensitive (Definition 12) iff {≤_i} is a
fixed sequence of *total* orders on the domain — fixed means chosen without looking at the
data.

**Total orders from reference points** (§6.3.1): x ≤_R y iff d(R, x) < d(R, y), or the
distances are equal and x ≤ y lexicographically (attribute 0 first).  The distance is Euclidean
on the domain-scaled attributes ``(x − lo)/(hi − lo)`` by default (``scale="domain"``; vldb14
eq. (8) replaces data variances by domain ranges for this reason) or on the raw values
(``scale="raw"``).  Squared distances are compared.  Identical records tie, which is harmless:
they are the same point, so the clusters are the same multisets.  The key is a fixed function
of the record and the declared domain — the data never enter it.

* :func:`insensitive_mdav` — MDAV with a distance consistent with ≤_R (Definition 13,
  Proposition 6): MDAV then takes groups of k alternately from the two extremes of the order.
  The round structure is MDAV's (two clusters per round while ≥ 3k records remain, one more if
  ≥ 2k remain, the rest last) and the ends are fixed: each round starts at the end nearest R
  (R lies on the domain boundary, where MDAV starts), then the far end; the single extra
  cluster is taken at the near end; the last cluster (k … 2k − 1 records) lies in the middle of
  the order.  This is Algorithm 6.1 with the fixed sequence (≤_R, ≥_R, ≤_R, …), insensitive by
  Proposition 7.  ``final="average"`` reproduces the *literal* reading instead, where the end of
  that single extra cluster is the one farther from the average record (as MDAV chooses x1):
  a data-dependent choice that breaks insensitivity (see the ledger claim ``thesis:prop-6``).
* :func:`insensitive_microaggregation` — Algorithm 6.1 with one reference point per step, the
  corners of the domain in the order of the Hamming rule of §6.3.3 (:func:`corner_sequence`).
* :func:`algorithm_6_1` — Algorithm 6.1 for any fixed sequence of reference points.

Cost: O(P·n log n) for P distinct orders (P = 1 or 2 for insensitive MDAV; min(q, 2^m) for the
corner sequence, q = ⌊n/k⌋ clusters) plus an O(P·n) compiled pass that takes the clusters.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

import numba
import numpy as np

from privlab.errors import InvalidParameter
from privlab.mechanisms.microaggregation.core import (
    Domain,
    MicroaggregationResult,
    as_table,
    check_k,
    finish,
)

__all__ = ["SCALES", "algorithm_6_1", "algorithm_6_1_labels", "corner_sequence",
           "insensitive_mdav", "insensitive_mdav_labels", "insensitive_microaggregation",
           "order_keys", "reference_point", "total_order"]

SCALES = ("domain", "raw")


def reference_point(domain: Domain, reference: Any = "lower") -> np.ndarray:
    """A point of the domain boundary: ``"lower"`` (all lo, the thesis's example), ``"upper"``,
    a corner as a string of 0/1 digits (``"01"``: lo of attribute 0, hi of attribute 1), or
    explicit coordinates inside the domain with at least one coordinate on a bound."""
    if isinstance(reference, str):
        if reference == "lower":
            return domain.lower.copy()
        if reference == "upper":
            return domain.upper.copy()
        if len(reference) == domain.m and set(reference) <= {"0", "1"}:
            return domain.corner([int(c) for c in reference])
        raise InvalidParameter(f"reference={reference!r} must be 'lower', 'upper', a corner "
                               f"string of {domain.m} 0/1 digits, or a boundary point")
    r = np.asarray(reference, dtype=float).ravel()
    if r.size != domain.m:
        raise InvalidParameter(f"reference={reference!r} must have {domain.m} coordinates")
    inside = bool((r >= domain.lower).all() and (r <= domain.upper).all())
    on_boundary = bool(((r == domain.lower) | (r == domain.upper)).any())
    if not (inside and on_boundary):
        raise InvalidParameter(f"reference={r.tolist()!r} must lie on the boundary of the "
                               f"declared domain")
    return r


def order_keys(x: np.ndarray, domain: Domain, ref: np.ndarray, scale: str = "domain"
               ) -> np.ndarray:
    """Squared distance of each record to ``ref`` (the primary key of ≤_R)."""
    if scale == "domain":
        u = (x - ref) / domain.width
    elif scale == "raw":
        u = x - ref
    else:
        raise InvalidParameter(f"scale={scale!r} must be one of {', '.join(SCALES)}")
    return np.einsum("ij,ij->i", u, u)


def total_order(x: np.ndarray, domain: Domain, ref: np.ndarray, scale: str = "domain"
                ) -> np.ndarray:
    """Row indices sorted by ≤_R: squared distance to R, ties lexicographic on the values
    (attribute 0 first); identical records keep their input order (stable)."""
    s = order_keys(x, domain, ref, scale)
    keys = (*(x[:, j] for j in range(x.shape[1] - 1, -1, -1)), s)
    return np.lexsort(keys)


def corner_sequence(m: int, count: int) -> list[tuple[int, ...]]:
    """The first ``count`` reference corners of §6.3.3 (0 = lower bound, 1 = upper bound).

    R1 = (0, …, 0); R_{i+1} is the unselected corner at the largest Hamming distance from R_i,
    ties broken by the largest distance to R_{i−1}, then R_{i−2}, and so on (the text's rule),
    then by the smallest corner in lexicographic order (0 < 1; privlab's rule, the text leaves
    it open).  Corner distances are Hamming distances (on domain-scaled coordinates the
    Euclidean distance between corners is its square root, so the order is the same).  Once
    all 2^m corners are used the sequence starts again (the text does not say; privlab
    repeats it).
    """
    if type(m) is int and type(count) is int:  # exact ints: safe cache keys
        return list(_corner_sequence(m, count))
    return list(_corner_sequence.__wrapped__(m, count))


@functools.lru_cache(maxsize=64)  # bounded: library callers may vary m and count
def _corner_sequence(m: int, count: int) -> tuple[tuple[int, ...], ...]:
    """:func:`corner_sequence` as a tuple (memoised: a pure function of m and count)."""
    if m < 1:
        raise InvalidParameter(f"m={m!r} must be >= 1")
    total = 1 << m
    need = min(count, total)
    if m > 20 and need > 1:
        raise InvalidParameter(f"m={m}: the corner sequence over 2^{m} corners is too large")
    cand = ((np.arange(total)[:, None] >> np.arange(m - 1, -1, -1)) & 1).astype(np.int8)
    used = np.zeros(total, dtype=bool)
    seq = [0]
    used[0] = True
    while len(seq) < need:
        alive = np.flatnonzero(~used)
        for prev in reversed(seq):
            h = (cand[alive] != cand[prev]).sum(axis=1)
            alive = alive[h == h.max()]
            if alive.size == 1:
                break
        nxt = int(alive.min())
        seq.append(nxt)
        used[nxt] = True
    out = [tuple(int(b) for b in cand[i]) for i in seq]
    return tuple(out[i % len(out)] for i in range(count))


def _take_by_orders(perms: np.ndarray, reverse: np.ndarray, step_order: np.ndarray,
                    k: int) -> np.ndarray:
    """Algorithm 6.1: step i takes the k first not-yet-taken records of order
    ``perms[step_order[i]]`` (read backwards when ``reverse[step_order[i]]``); cluster i =
    step i, the records left form the last cluster.  The arrays are allocated here (numpy),
    the pass is the compiled :func:`_take_by_orders_core`."""
    p, n = perms.shape
    lab = np.full(n, -1, dtype=np.int64)
    _take_by_orders_core(perms, reverse, step_order, int(k), lab,
                         np.zeros(p, dtype=np.int64))
    return lab


@numba.njit(cache=True, nogil=True)
def _take_by_orders_core(perms: np.ndarray, reverse: np.ndarray, step_order: np.ndarray,
                         k: int, lab: np.ndarray, ptr: np.ndarray) -> None:
    """:func:`_take_by_orders` into ``lab`` (all −1 on entry); ``ptr`` (P,) zeros: the read
    position in each order."""
    n = perms.shape[1]
    r = n
    i = 0
    while r >= 2 * k:
        o = step_order[i]
        got = 0
        while got < k:
            pos = ptr[o]
            rec = perms[o, n - 1 - pos] if reverse[o] else perms[o, pos]
            ptr[o] = pos + 1
            if lab[rec] < 0:
                lab[rec] = i
                got += 1
        r -= k
        i += 1
    for t in range(n):
        if lab[t] < 0:
            lab[t] = i


def algorithm_6_1_labels(x: np.ndarray, k: int, domain: Domain,
                         refs: Sequence[np.ndarray], directions: Sequence[bool] | None = None,
                         scale: str = "domain") -> np.ndarray:
    """Labels of Algorithm 6.1 with step i using reference ``refs[i % len(refs)]`` (ascending
    ≤_R, or descending when ``directions[i % len]`` is True).  Cluster i = step i."""
    n = x.shape[0]
    q = max(n // k, 1)
    steps = max(q - 1, 0)
    period = len(refs)
    if directions is None:
        directions = [False] * period
    # the distinct (reference, direction) orders the steps use depend only on the references'
    # values, the directions and the number of steps: planned once (_plan)
    used = min(period, max(steps, 1))
    keys = tuple(tuple(np.asarray(refs[i % period], float).tolist()) for i in range(used))
    dirs = tuple(bool(directions[i % period]) for i in range(used))
    first, order_id, reverse, step_order = _plan(keys, dirs, period, steps)
    perms_list = [total_order(x, domain, np.asarray(refs[j], float), scale) for j in first]
    perms = np.stack([perms_list[p] for p in order_id]).astype(np.int64)
    # fresh writable arrays: the compiled pass is typed for them (a read-only array would
    # compile a second specialisation)
    return _take_by_orders(perms, np.array(reverse, dtype=np.bool_),
                           np.array(step_order, dtype=np.int64), int(k))


@functools.lru_cache(maxsize=256)  # bounded: one entry per reference set of a data set
def _plan(keys: tuple[tuple[float, ...], ...], dirs: tuple[bool, ...], period: int,
          steps: int) -> tuple[tuple[int, ...], tuple[int, ...], tuple[bool, ...],
                               tuple[int, ...]]:
    """The orders of :func:`algorithm_6_1_labels` for the references used (their values
    ``keys``, directions ``dirs``; reference i of step i, cyclic with ``period``): the index
    of the first reference of each distinct value (one total order each), the total order of
    each distinct (reference, direction) combination, whether it is read backwards, and the
    combination of each step (tuples)."""
    uniq: dict[tuple[float, ...], int] = {}
    first: list[int] = []
    for j, key in enumerate(keys):
        if key not in uniq:
            uniq[key] = len(first)
            first.append(j)
    order_id: list[int] = []
    reverse: list[bool] = []
    combos: dict[tuple[int, bool], int] = {}
    for key, d in zip(keys, dirs, strict=True):
        c = (uniq[key], d)
        if c not in combos:
            combos[c] = len(order_id)
            order_id.append(uniq[key])
            reverse.append(d)
    step_order = tuple(combos[(uniq[keys[i % period]], dirs[i % period])]
                       for i in range(max(steps, 1)))
    return tuple(first), tuple(order_id), tuple(reverse), step_order


def insensitive_mdav_labels(x: np.ndarray, k: int, domain: Domain, reference: Any = "lower",
                            scale: str = "domain", final: str = "fixed") -> np.ndarray:
    """Labels of :func:`insensitive_mdav` on a validated array inside ``domain``."""
    ref = reference_point(domain, reference)
    if final == "fixed":
        return algorithm_6_1_labels(x, k, domain, [ref, ref], [False, True], scale)
    if final != "average":
        raise InvalidParameter(f"final={final!r} must be 'fixed' or 'average'")
    return _literal_labels(x, k, domain, ref, scale)


def _literal_labels(x: np.ndarray, k: int, domain: Domain, ref: np.ndarray, scale: str
                    ) -> np.ndarray:
    """MDAV literally, with the order-consistent distance d(a, b) = |s(a) − s(b)| on the key
    s = squared distance to R (ties: lexicographic): the extreme taken first in a round, and
    the end of the single extra cluster, is the one farther from the average record."""
    n = x.shape[0]
    order = total_order(x, domain, ref, scale)
    s = order_keys(x, domain, ref, scale)
    lab = np.full(n, -1, dtype=np.int64)
    lo, hi = 0, n  # remaining = order[lo:hi]
    label = 0

    def low_is_farther() -> bool:
        rem = order[lo:hi]
        sbar = float(order_keys(x[rem].mean(axis=0, keepdims=True), domain, ref, scale)[0])
        return abs(s[order[lo]] - sbar) >= abs(s[order[hi - 1]] - sbar)

    while hi - lo >= 3 * k:
        lab[order[lo:lo + k]] = label
        lab[order[hi - k:hi]] = label + 1
        lo, hi, label = lo + k, hi - k, label + 2
    if hi - lo >= 2 * k:
        if low_is_farther():
            lab[order[lo:lo + k]] = label
            lo += k
        else:
            lab[order[hi - k:hi]] = label
            hi -= k
        label += 1
    lab[order[lo:hi]] = label
    return lab


def _prepare(data: Any, k: int, columns: Any, bounds: Any, scale: str
             ) -> tuple[np.ndarray, tuple[str, ...], int, Domain]:
    x, names = as_table(data, columns)
    k = check_k(k, x.shape[0])
    if scale not in SCALES:
        raise InvalidParameter(f"scale={scale!r} must be one of {', '.join(SCALES)}")
    dom = Domain.parse(bounds, names)
    dom.check(x)
    return x, names, k, dom


def insensitive_mdav(data: Any, k: int, *, bounds: Any, reference: Any = "lower",
                     columns: Any = None, scale: str = "domain", final: str = "fixed"
                     ) -> MicroaggregationResult:
    """Insensitive MDAV (thesis §6.3.2): one total order from the distance to a reference
    point R on the boundary of the declared domain (``bounds``, required), ties lexicographic;
    clusters of k taken alternately from the two ends of the order (module doc)."""
    x, names, k, dom = _prepare(data, k, columns, bounds, scale)
    ref = reference_point(dom, reference)
    lab = insensitive_mdav_labels(x, k, dom, ref, scale, final)
    return finish("insensitive-mdav", x, lab, k, names,
                  {"bounds": dom.to_dict(), "reference": ref.tolist(), "scale": scale,
                   "final": final})


def algorithm_6_1(data: Any, k: int, *, bounds: Any, references: Sequence[Any],
                  columns: Any = None, scale: str = "domain") -> MicroaggregationResult:
    """Algorithm 6.1 with the fixed sequence of reference points ``references`` (repeated
    cyclically; each as :func:`reference_point` accepts)."""
    x, names, k, dom = _prepare(data, k, columns, bounds, scale)
    refs = [reference_point(dom, r) for r in references]
    if not refs:
        raise InvalidParameter("references must name at least one reference point")
    lab = algorithm_6_1_labels(x, k, dom, refs, None, scale)
    return finish("algorithm-6.1", x, lab, k, names,
                  {"bounds": dom.to_dict(), "references": [r.tolist() for r in refs],
                   "scale": scale})


def insensitive_microaggregation(data: Any, k: int, *, bounds: Any, columns: Any = None,
                                 scale: str = "domain") -> MicroaggregationResult:
    """Algorithm 6.1 with the domain corners as reference points, in the order of the Hamming
    rule of §6.3.3 (:func:`corner_sequence`)."""
    x, names, k, dom = _prepare(data, k, columns, bounds, scale)
    lab = corners_labels(x, k, dom, scale)
    q = max(x.shape[0] // k, 1)
    seq = corner_sequence(dom.m, min(max(q - 1, 1), 1 << min(dom.m, 20)))
    return finish("insensitive-corners", x, lab, k, names,
                  {"bounds": dom.to_dict(), "scale": scale,
                   "corners": ["".join(map(str, c)) for c in seq[:16]]})


def corners_labels(x: np.ndarray, k: int, domain: Domain, scale: str = "domain") -> np.ndarray:
    """Labels of :func:`insensitive_microaggregation` on a validated array."""
    q = max(x.shape[0] // k, 1)
    count = max(q - 1, 1)
    seq = corner_sequence(domain.m, min(count, 1 << min(domain.m, 20)))
    refs = [domain.corner(c) for c in seq]
    return algorithm_6_1_labels(x, k, domain, refs, None, scale)
