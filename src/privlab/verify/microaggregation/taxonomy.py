"""Exhaustive, exact checks on taxonomies (thesis §6.3.4–6.3.5, vldb14 §4.5, irm §3.4).

* :func:`check_semantic_metric` — eq. (6.6) is a metric on the concepts of a taxonomy.  With
  u = |φ(a) ∪ φ(b)| and i = |φ(a) ∩ φ(b)|, δ = log₂ r with r = (2u − i)/u rational, so the
  triangle inequality δ(a, c) ≤ δ(a, b) + δ(b, c) ⟺ r_ac ≤ r_ab · r_bc, which is decided in
  integer arithmetic over every triple (no float tolerance).
* :func:`check_marginality_sensitivity` — the sources take Δ(m(A)) = δ(a_b, a_t) (distance
  between the domain boundaries, thesis proof of Proposition 9).  The sensitivity of the
  quality q(S, c) = −m(S, c) under a change of one value of S ⊆ Dom(A) is, exhaustively,
  max_{c ∈ τ} max_{s, s' ∈ Dom} |δ(s, c) − δ(s', c)|; the check compares the two.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from privlab.mechanisms.microaggregation.taxonomy import Taxonomy
from privlab.types import CheckResult, Method

__all__ = ["check_marginality_sensitivity", "check_semantic_metric", "ratio_parts"]


def ratio_parts(tax: Taxonomy) -> tuple[np.ndarray, np.ndarray]:
    """Integer matrices (num, den) with δ = log₂(num/den), num = 2u − i, den = u."""
    cs = tax.concepts
    member = np.zeros((len(cs), len(cs)), dtype=np.int64)
    for c in cs:
        for p in tax.ancestors(c):
            member[tax.index[c], tax.index[p]] = 1
    inter = member @ member.T
    size = member.sum(axis=1)
    union = size[:, None] + size[None, :] - inter
    return 2 * union - inter, union


def squared_difference_parts(tax: Taxonomy) -> tuple[np.ndarray, np.ndarray]:
    """(num, den) of 2^d for d = |φ(a) Δ φ(b)|², the squared number of ancestors not shared —
    a *false* variant of eq. (6.6) (squares of a path length break the triangle inequality on
    any two siblings: 2² > 1² + 1²), used to show the checker can refute a non-metric."""
    num, den = ratio_parts(tax)
    sym = num - den  # num = 2u − i, den = u  ⇒  u − i = |φ(a) Δ φ(b)|
    power = np.vectorize(lambda s: 1 << int(s) ** 2, otypes=[object])  # exact, any size
    return power(sym), np.ones(sym.shape, dtype=object)


def check_semantic_metric(tax: Taxonomy, *, parts: Any = ratio_parts) -> CheckResult:
    """Non-negativity, reflexivity (δ = 0 iff equal), symmetry, triangle inequality — exact.

    ``parts(tax) -> (num, den)``: integer matrices with δ = log₂(num/den); by default
    eq. (6.6) (:func:`ratio_parts`); another distance in the same form can be checked (the
    claim's mutants do)."""
    num, den = parts(tax)
    n = len(tax.concepts)
    nonneg = bool((num >= den).all())
    zero = num == den
    reflexive = bool((zero == np.eye(n, dtype=bool)).all())
    symmetric = bool((num == num.T).all() and (den == den.T).all())
    # r_ac <= r_ab r_bc  <=>  num_ac * den_ab * den_bc <= num_ab * num_bc * den_ac
    bad = None
    for b in range(n):
        lhs = num * np.outer(den[:, b], den[b, :])
        rhs = np.outer(num[:, b], num[b, :]) * den
        viol = np.argwhere(lhs > rhs)
        if len(viol):
            a, c = viol[0]
            cs = tax.concepts
            bad = {"a": cs[a], "b": cs[b], "c": cs[c],
                   "delta_ac": float(np.log2(num[a, c] / den[a, c])),
                   "delta_ab_plus_bc": float(np.log2(num[a, b] / den[a, b])
                                             + np.log2(num[b, c] / den[b, c]))}
            break
    holds = nonneg and reflexive and symmetric and bad is None
    return CheckResult(holds=holds, claim=f"eq. 6.6 is a metric on taxonomy {tax.name!r}",
                       value=n, method=Method.EXHAUSTIVE,
                       evidence={"concepts": n, "triples": n ** 3, "non_negative": nonneg,
                                 "reflexive": reflexive, "symmetric": symmetric,
                                 "triangle": bad is None,
                                 "diameter": float(tax.distance_matrix.max())},
                       counterexample=bad)


def check_marginality_sensitivity(tax: Taxonomy) -> CheckResult:
    """Does δ(a_b, a_t) (the sources' Δ(m)) bound the quality's sensitivity on this taxonomy?"""
    d = tax.distance_matrix[:, tax.codes(tax.domain)]
    spread = d.max(axis=1) - d.min(axis=1)
    true = float(spread.max())
    stated = tax.boundary_distance
    holds = true <= stated + 1e-12
    cex = None
    if not holds:
        c = int(spread.argmax())
        dom = tax.domain
        cex = {"candidate": tax.concepts[c], "s": dom[int(d[c].argmin())],
               "s_prime": dom[int(d[c].argmax())], "true_sensitivity": true,
               "boundary_distance": stated, "boundaries": tax.boundaries}
    return CheckResult(holds=holds, claim=f"δ(a_b, a_t) bounds Δ(m) on taxonomy {tax.name!r}",
                       value=true, method=Method.EXHAUSTIVE,
                       evidence={"boundary_distance": stated, "true_sensitivity": true,
                                 "ratio": true / stated, "boundaries": tax.boundaries},
                       counterexample=cex)
