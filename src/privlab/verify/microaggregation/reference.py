"""Literal reference transcriptions of the microaggregation algorithms, in exact arithmetic.

These are deliberately naive (Python lists, :class:`fractions.Fraction`, O(n² · n/k)) and share
no code with the fast implementations of :mod:`privlab.mechanisms.microaggregation`; they
exist to cross-check them (tests and the ledger claim ``thesis:alg-2.1``).

* :func:`literal_mdav_labels` — thesis §2.8 Algorithm 2.1, line by line: while |X| ≥ 3k:
  x̄ ← average record of X, x1 ← most distant record to x̄, cluster x1 with its k − 1 closest,
  x2 ← most distant record to x1 *among the records left after that cluster* (sdcMicro's
  reading, the issue's), cluster x2 with its k − 1 closest; if |X| ≥ 2k: one more cluster
  around the record most distant from the average; the rest is the last cluster.  Distances:
  squared Euclidean on the raw values, or with attribute j weighted by 1/s_j² (s_j² the sample
  variance, ddof = 1, of the whole data; weight 1 when constant) — the standardised distance,
  squared, which is rational for rational data, so ties are decided exactly.  Tie rule (the one
  :mod:`privlab.mechanisms.microaggregation.mdav_algorithm` documents): records are ranked in
  canonical order
  (lexicographic by value, then input position); among equal distances the earlier record wins.
* :func:`literal_order_labels` — Algorithm 6.1 (thesis §6.2) with a fixed sequence of
  reference points and directions: step i takes the k first remaining records of the order
  "squared domain-scaled distance to R_i, then the record lexicographically, then position"
  (read backwards when the direction is descending).
* :func:`literal_insensitive_mdav_labels` — §6.3.2 with the fixed ends: (≤_R, ≥_R, ≤_R, …).
* :func:`literal_corner_sequence` — §6.3.3 Hamming rule by brute force: the next corner
  maximises the tuple (H(c, R_i), H(c, R_{i−1}), …, H(c, R_1)) lexicographically; remaining
  ties go to the lexicographically smallest corner; the sequence repeats after 2^m corners.
* :func:`literal_individual_ranking_labels` — irm §2.1: per attribute, consecutive chunks of k
  of the sorted values, the last chunk absorbing the remainder.
* :func:`brute_force_insensitive_pair` — Definition 12 for one pair by a depth-first search
  over the bijections between the cluster sets (small inputs), independent of the matching code.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import numpy as np

from privlab.errors import InvalidParameter

__all__ = ["brute_force_insensitive_pair", "literal_corner_sequence",
           "literal_individual_ranking_labels", "literal_insensitive_mdav_labels",
           "literal_mdav_labels", "literal_order_labels", "mdav_group_sizes"]

Row = tuple[Fraction, ...]


def _rows(x: Any) -> list[Row]:
    a = np.asarray(x, dtype=float)
    if a.ndim == 1:
        a = a[:, None]
    return [tuple(Fraction(float(v)) for v in r) for r in a]


def _check_k(k: int, n: int) -> None:
    if not 1 <= k <= n:
        raise InvalidParameter(f"k={k!r} must satisfy 1 <= k <= n={n}")


def mdav_group_sizes(n: int, k: int) -> list[int]:
    """Cluster sizes Algorithm 2.1 produces for n records (they depend on n and k only)."""
    _check_k(k, n)
    sizes, r = [], n
    while r >= 3 * k:
        sizes += [k, k]
        r -= 2 * k
    if r >= 2 * k:
        sizes.append(k)
        r -= k
    return [*sizes, r]


def literal_mdav_labels(x: Any, k: int, distance: str = "standardised") -> np.ndarray:
    """Algorithm 2.1 in exact arithmetic (module doc); labels numbered in formation order."""
    rows = _rows(x)
    n, m = len(rows), len(rows[0])
    _check_k(k, n)
    if distance == "standardised":
        w = []
        for j in range(m):
            col = [r[j] for r in rows]
            mu = sum(col, Fraction(0)) / n
            var = sum(((v - mu) ** 2 for v in col), Fraction(0)) / (n - 1) if n > 1 else 0
            w.append(1 / var if var > 0 else Fraction(1))
    elif distance == "raw":
        w = [Fraction(1)] * m
    else:
        raise InvalidParameter(f"distance={distance!r} must be 'standardised' or 'raw'")

    def d2(a: Row, b: Row) -> Fraction:
        return sum((w[j] * (a[j] - b[j]) ** 2 for j in range(m)), Fraction(0))

    remaining = sorted(range(n), key=lambda i: (rows[i], i))  # canonical order, kept
    lab = [-1] * n
    label = 0

    def average(ids: list[int]) -> Row:
        return tuple(sum((rows[i][j] for i in ids), Fraction(0)) / len(ids) for j in range(m))

    memo: dict[tuple[int, int], Fraction] = {}

    def d2_rows(i: int, c: int) -> Fraction:  # d2(rows[i], rows[c]), computed once per pair
        d = memo.get((i, c))
        if d is None:
            d = memo[i, c] = d2(rows[i], rows[c])
        return d

    def farthest(p: Row | int) -> int:
        best, arg = Fraction(-1), remaining[0]
        for i in remaining:  # strict '>' keeps the earliest among equals
            d = d2_rows(i, p) if isinstance(p, int) else d2(rows[i], p)
            if d > best:
                best, arg = d, i
        return arg

    def cluster(c: int) -> None:
        nonlocal label, remaining
        rank = {i: t for t, i in enumerate(remaining)}
        others = sorted((i for i in remaining if i != c),
                        key=lambda i: (d2_rows(i, c), rank[i]))
        members = {c, *others[:k - 1]}
        for i in members:
            lab[i] = label
        label += 1
        remaining = [i for i in remaining if i not in members]

    while len(remaining) >= 3 * k:
        x1 = farthest(average(remaining))
        cluster(x1)
        x2 = farthest(x1)  # the record farthest from x1 (distances to x1 from cluster(x1))
        cluster(x2)
    if len(remaining) >= 2 * k:
        cluster(farthest(average(remaining)))
    for i in remaining:
        lab[i] = label
    return np.array(lab, dtype=np.int64)


def literal_order_labels(x: Any, k: int, bounds: Any, refs: Sequence[Sequence[float]],
                         descending: Sequence[bool] | None = None) -> np.ndarray:
    """Algorithm 6.1 with step i using reference ``refs[i % len]`` (module doc)."""
    rows = _rows(x)
    n, m = len(rows), len(rows[0])
    _check_k(k, n)
    b = _rows(np.asarray(bounds, dtype=float).reshape(-1, 2))
    width = [r[1] - r[0] for r in b]
    if len(b) != m or any(wd <= 0 for wd in width):
        raise InvalidParameter(f"bounds={bounds!r} must give lo < hi for each of {m} columns")
    desc = list(descending) if descending is not None else [False] * len(refs)
    remaining = list(range(n))
    lab = [-1] * n
    step = 0
    while len(remaining) >= 2 * k:
        ref = [Fraction(float(v)) for v in refs[step % len(refs)]]

        def key(i: int, ref: list[Fraction] = ref) -> tuple[Any, ...]:
            s = sum((((rows[i][j] - ref[j]) / width[j]) ** 2 for j in range(m)), Fraction(0))
            return (s, rows[i], i)

        order = sorted(remaining, key=key, reverse=bool(desc[step % len(desc)]))
        for i in order[:k]:
            lab[i] = step
        taken = set(order[:k])
        remaining = [i for i in remaining if i not in taken]
        step += 1
    for i in remaining:
        lab[i] = step
    return np.array(lab, dtype=np.int64)


def literal_insensitive_mdav_labels(x: Any, k: int, bounds: Any) -> np.ndarray:
    """Insensitive MDAV with R the lower corner and the fixed ends (≤_R, ≥_R, ≤_R, …)."""
    b = np.asarray(bounds, dtype=float).reshape(-1, 2)
    return literal_order_labels(x, k, b, [b[:, 0], b[:, 0]], [False, True])


def literal_corner_sequence(m: int, count: int) -> list[tuple[int, ...]]:
    """§6.3.3 corners (0 = lower, 1 = upper bound) by brute force over all corners."""
    corners = list(itertools.product((0, 1), repeat=m))
    seq = [corners[0]]
    while len(seq) < min(count, len(corners)):
        unused = [c for c in corners if c not in seq]

        def score(c: tuple[int, ...]) -> tuple[int, ...]:
            return tuple(sum(a != b for a, b in zip(c, r, strict=True)) for r in reversed(seq))

        top = max(score(c) for c in unused)
        seq.append(min(c for c in unused if score(c) == top))
    return [seq[i % len(seq)] for i in range(count)]


def literal_individual_ranking_labels(x: Any, k: int) -> np.ndarray:
    """irm §2.1: (n, m) labels, attribute j sorted (ties: whole record, then position)."""
    rows = _rows(x)
    n, m = len(rows), len(rows[0])
    _check_k(k, n)
    q = max(n // k, 1)
    lab = np.empty((n, m), dtype=np.int64)
    for j in range(m):
        order = sorted(range(n), key=lambda i, j=j: (rows[i][j], rows[i], i))
        for t, i in enumerate(order):
            lab[i, j] = min(t // k, q - 1)
    return lab


def _clusters(rows: list[Row], labels: np.ndarray) -> list[Counter[Row]]:
    out: dict[int, Counter[Row]] = {}
    for r, lab in zip(rows, labels.tolist(), strict=True):
        out.setdefault(lab, Counter())[r] += 1
    return list(out.values())


def brute_force_insensitive_pair(x: Any, labels_x: Any, x_prime: Any, labels_x_prime: Any,
                                 max_clusters: int = 64) -> bool:
    """Definition 12 for one pair by a depth-first search over the bijections of the cluster
    sets: clusters are multisets of records and correspond when each side has at most one
    record the other lacks.  ``(n, m)`` labels (individual ranking) are checked attribute
    by attribute."""
    la, lb = np.asarray(labels_x), np.asarray(labels_x_prime)
    xa, xb = np.asarray(x, dtype=float), np.asarray(x_prime, dtype=float)
    if xa.ndim == 1:
        xa, xb = xa[:, None], xb[:, None]
    if la.ndim == 2:
        return all(brute_force_insensitive_pair(xa[:, [j]], la[:, j], xb[:, [j]], lb[:, j],
                                                max_clusters) for j in range(la.shape[1]))
    ca, cb = _clusters(_rows(xa), la), _clusters(_rows(xb), lb)
    if len(ca) != len(cb):
        return False
    if len(ca) > max_clusters:
        raise InvalidParameter(f"max_clusters={max_clusters}: {len(ca)} clusters are too many "
                               f"for the brute-force bijection search")
    ok = [[sum((a - b).values()) <= 1 and sum((b - a).values()) <= 1 for b in cb] for a in ca]
    used = [False] * len(cb)

    def assign(i: int) -> bool:  # depth-first over bijections, first cluster first
        if i == len(ca):
            return True
        for j in range(len(cb)):
            if ok[i][j] and not used[j]:
                used[j] = True
                if assign(i + 1):
                    return True
                used[j] = False
        return False

    return assign(0)
