"""Exact check of probabilistic k-anonymity (thesis ch.3 Definition 5, inequality (3.1)) for the
swap methods, on small inputs.

Setting (§3.3.1–3.3.2, the "reverse permutation" form): the intruder knows every record's
non-swapped attributes ``q_i`` (they are released unchanged, so each released row is linked to
its identity) and the mechanism M: a partition of the records into groups (computed from the
original data — from ``q`` for MDAV-SWAP, from the confidential attribute itself for IR-SWAP)
and a random permutation π inside each group; released row l carries ``c_{π(l)}``.  The
question is which released value is identity i's own: the record that "corresponds" to i.

A rational intruder (§3.2, Examples 1–3) weighs every hypothesis ρ about the original data —
``c_i = c'_{ρ(i)}`` for a bijection ρ onto the released positions, uniform prior (the intruder
is uninformed about c) — by its likelihood P_M(released | T_ρ) = P(π = ρ^{-1} | T_ρ), and gets
the posterior P(i ↔ l) = Σ_{ρ(i)=l} L(ρ) / Σ_ρ L(ρ).  Everything is exact (Fractions).

:func:`check_probabilistic_k_anonymity` enumerates every realisation π of the mechanism on the
true data (with its probability), computes the posterior matrix for each, and reports

* ``max_posterior`` — the largest P(i ↔ l) over identities, positions and realisations:
  inequality (3.1) requires it ≤ 1/k;
* ``max_success`` — for each identity, the probability that the rational intruder (who picks
  a position of largest posterior, uniformly among ties) links it correctly, maximised over
  identities: Definition 5 requires it ≤ 1/k.

Mechanisms: ``"uniform"`` (a uniformly random permutation within each group — MDAV-SWAP,
IR-SWAP) and, as a broken control, ``"reverse"`` (each group reversed deterministically: the
intruder who knows M undoes it).  Cost O(n! · n · realisations); n ≤ 7.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import numpy as np

from privlab.errors import InvalidParameter
from privlab.types import CheckResult, Method

__all__ = ["PARTITIONS", "check_probabilistic_k_anonymity", "posterior"]

Partition = Callable[[np.ndarray, np.ndarray, int], np.ndarray]


def _mdav_partition(q: np.ndarray, c: np.ndarray, k: int) -> np.ndarray:
    """MDAV on the known attributes ``q`` only (``c`` does not enter): memoised on q's bytes,
    shape and k, since :func:`posterior` asks for it once per hypothesis; a fresh copy."""
    x = np.ascontiguousarray(q, dtype=float)
    return _mdav_labels_of(x.tobytes(), x.shape, int(k)).copy()


@functools.lru_cache(maxsize=16)  # the key holds the data's bytes: keep few
def _mdav_labels_of(data: bytes, shape: tuple[int, ...], k: int) -> np.ndarray:
    from privlab.mechanisms.microaggregation.mdav_algorithm import mdav_labels

    lab = mdav_labels(np.frombuffer(data, dtype=float).reshape(shape).copy(), k)
    lab.setflags(write=False)
    return lab


def _ir_partition(q: np.ndarray, c: np.ndarray, k: int) -> np.ndarray:
    from privlab.mechanisms.microaggregation.ranking import consecutive_labels

    full = np.column_stack([c, q]).astype(float)
    keys = tuple(full[:, j] for j in range(full.shape[1] - 1, -1, -1))
    return consecutive_labels(np.lexsort(keys), k)


def _small_groups_partition(q: np.ndarray, c: np.ndarray, k: int) -> np.ndarray:
    """Broken control: IR groups of k − 1 records (fewer than k)."""
    return _ir_partition(q, c, max(k - 1, 1))


PARTITIONS: dict[str, Partition] = {"mdav-swap": _mdav_partition, "ir-swap": _ir_partition,
                                    "ir-swap-small-groups": _small_groups_partition}


def _perms_within(labels: np.ndarray, kind: str) -> list[tuple[tuple[int, ...], Fraction]]:
    """Every permutation π the mechanism can draw, with its probability (π[l] = source row)."""
    n = len(labels)
    groups = [np.flatnonzero(labels == g).tolist() for g in np.unique(labels)]
    if kind == "reverse":
        p = list(range(n))
        for g in groups:
            for a, b in zip(g, reversed(g), strict=True):
                p[a] = b
        return [(tuple(p), Fraction(1))]
    if kind != "uniform":
        raise InvalidParameter(f"mechanism={kind!r} must be 'uniform' or 'reverse'")
    total = math.prod(math.factorial(len(g)) for g in groups)
    out = []
    for choice in itertools.product(*(itertools.permutations(g) for g in groups)):
        p = list(range(n))
        for g, img in zip(groups, choice, strict=True):
            for a, b in zip(g, img, strict=True):
                p[a] = b
        out.append((tuple(p), Fraction(1, total)))
    return out


def _prob_of(perm: tuple[int, ...], labels: np.ndarray, kind: str) -> Fraction:
    """P_M(π = perm) for the partition ``labels``."""
    lab = labels.tolist()
    if any(lab[perm[r]] != lab[r] for r in range(len(perm))):
        return Fraction(0)
    if kind == "reverse":
        return Fraction(1) if perm == _perms_within(labels, "reverse")[0][0] else Fraction(0)
    sizes = np.bincount(labels)
    return Fraction(1, math.prod(math.factorial(int(s)) for s in sizes if s))


@functools.lru_cache(maxsize=256)  # bounded: a long-lived process sees many partitions
def _uniform_probability(sizes: tuple[int, ...]) -> Fraction:
    """1/Π|G|!: the probability of each permutation within groups of these sizes."""
    return Fraction(1, math.prod(math.factorial(s) for s in sizes if s))


def posterior(q: np.ndarray, released_c: np.ndarray, k: int, partition: Partition,
              kind: str = "uniform", cache: dict[Any, Any] | None = None
              ) -> list[list[Fraction]]:
    """P(identity i ↔ released position l) for the intruder of the module doc.

    Exact as a sum of Fractions; the likelihoods take few distinct values (1/Π|G|! per
    partition), so the hypotheses ρ are counted per (likelihood, i, ρ(i)) in integers and each
    count is multiplied by its likelihood once: Σ_ρ L(ρ)·[ρ(i) = l] = Σ_L L·#{ρ: L(ρ) = L,
    ρ(i) = l}, the same rational numbers."""
    n = len(released_c)
    cache = {} if cache is None else cache
    rel = released_c.tolist()
    counts: dict[Fraction, list[int]] = {}  # likelihood -> #ρ with ρ(i) = l at [i·n + l]
    for rho in itertools.permutations(range(n)):
        key = tuple(rel[r] for r in rho)  # c_i = c'_{rho(i)}
        got = cache.get(("likelihood", kind, key))
        if got is None:
            lab = cache.get(key)
            if lab is None:
                lab = np.asarray(partition(q, released_c[list(rho)], k))
                cache[key] = lab
            # uniform: P(π) = 1/Π|G|! for every π within the groups (else 0)
            got = (lab.tolist(), _uniform_probability(tuple(np.bincount(lab).tolist()))
                   if kind == "uniform" else None)
            cache[("likelihood", kind, key)] = got
        inv = [0] * n
        for i, r in enumerate(rho):
            inv[r] = i
        # π = ρ^{-1} as "released row l carries c_{π(l)}": c_{π(l)} = c'_l ⇔ π(l) = ρ^{-1}(l)
        lab_l, uniform = got
        if uniform is None:
            like = _prob_of(tuple(inv), cache[key], kind)
        elif any(lab_l[inv[r]] != lab_l[r] for r in range(n)):
            continue
        else:
            like = uniform
        if like == 0:
            continue
        m = counts.get(like)
        if m is None:
            m = counts[like] = [0] * (n * n)
        for i, r in enumerate(rho):
            m[i * n + r] += 1
    total = sum((like * sum(m[:n]) for like, m in counts.items()), Fraction(0))
    if total == 0:  # pragma: no cover - the true hypothesis always has positive likelihood
        raise InvalidParameter("no hypothesis explains the release")
    post = [[Fraction(0)] * n for _ in range(n)]
    for like, m in counts.items():
        for i in range(n):
            row = post[i]
            for r in range(n):
                if m[i * n + r]:
                    row[r] += like * m[i * n + r]
    return [[p / total for p in row] for row in post]


def check_probabilistic_k_anonymity(q: Any, c: Any, k: int, *, method: str = "ir-swap",
                                    mechanism: str = "uniform") -> CheckResult:
    """Decide inequality (3.1) and Definition 5 exactly for a swap method on the data
    ``(q, c)`` (``q``: (n, p) attributes the intruder knows, ``c``: (n,) the swapped
    confidential attribute) — see the module doc.  ``method`` names the partition
    (:data:`PARTITIONS`); ``mechanism`` the permutation law."""
    if method not in PARTITIONS:
        raise InvalidParameter(f"method={method!r} must be one of {', '.join(PARTITIONS)}")
    q = np.asarray(q, dtype=float)
    q = q[:, None] if q.ndim == 1 else q
    c = np.asarray(c, dtype=float).ravel()
    n = len(c)
    if q.shape[0] != n:
        raise InvalidParameter(f"q has {q.shape[0]} rows, c has {n}")
    if n > 7:
        raise InvalidParameter(f"n={n} is too large for the exact check (n <= 7)")
    if isinstance(k, bool) or int(k) != k or not 1 <= k <= n:
        raise InvalidParameter(f"k={k!r} must be an integer in [1, n={n}]")
    part = PARTITIONS[method]
    lab_true = np.asarray(part(q, c, k))
    real = _perms_within(lab_true, mechanism)
    cache: dict[Any, Any] = {}
    max_post = Fraction(0)
    success = [Fraction(0)] * n
    worst: dict[str, Any] | None = None
    for perm, prob in real:
        released = c[list(perm)]  # released row l carries c_{π(l)}
        post = posterior(q, released, k, part, mechanism, cache)
        inv = [0] * n
        for pos, src in enumerate(perm):
            inv[src] = pos  # identity i's own value sits at row inv[i]
        for i in range(n):
            row = post[i]
            best = max(row)
            if best > max_post:
                max_post = best
                worst = {"identity": i, "position": row.index(best), "posterior": best,
                         "released_c": released.tolist(), "permutation": list(perm)}
            argmax = [j for j, p in enumerate(row) if p == best]
            if inv[i] in argmax:
                success[i] += prob / len(argmax)
    max_success = max(success)
    bound = Fraction(1, int(k))
    holds = max_post <= bound and max_success <= bound
    sizes = np.bincount(lab_true)
    return CheckResult(holds=holds, claim=f"{method} ({mechanism} swap) is probabilistically "
                       f"{k}-anonymous (Definition 5, inequality 3.1)", value=max_post,
                       method=Method.EXACT,
                       evidence={"n": n, "k": int(k), "method": method, "mechanism": mechanism,
                                 "group_sizes": sizes.tolist(), "realisations": len(real),
                                 "max_posterior": max_post, "max_success": max_success,
                                 "bound": bound},
                       counterexample=None if holds else {"q": q.tolist(), "c": c.tolist(),
                                                          **(worst or {}),
                                                          "max_success": max_success})
