"""Certificate and exact check for the mixed numerical / categorical DP release (thesis §6.3.4–
6.3.6, vldb14 §4.4–4.6; :class:`~privlab.mechanisms.dp_release_mixed.MixedDPRelease`).

Certificate (substitution of one record; n records, k, q = ⌊n/k⌋ clusters, m attributes of which
m_c categorical, ε the parameter, rows shuffled):

* the order is data-independent (distance to a fixed reference record), so a substitution
  moves one record to another rank and shifts the ranks in between: every one of the q clusters
  changes by at most one record (the vldb14 argument behind its n/k factor);
* numerical attribute j: each changed cluster's mean moves by ≤ w_j/k (w_j the domain width),
  so the q centroids move by ≤ q·w_j/k in L1; the Laplace scale s·w_j with
  s = (n/k)·m/(kε) gives ε_j = q·k/(n·m)·ε ≤ ε/m;
* categorical attribute j: one draw per cluster from the exponential mechanism at ε_a with
  quality −m(S, c), factor f = n/k and sensitivity Δ_j; one value change moves every quality
  by at most D_j = max_c max_{s,s′} |δ(s, c) − δ(s′, c)| (exhaustive over the taxonomy), so one
  draw's loss is ≤ ε_a·D_j/(f·Δ_j) and q draws give q·ε_a·D_j/(f·Δ_j);
* sequential composition over attributes: ε_total = Σ_j ε_j.

With ``budget="split"`` and ``em_sensitivity="exact"`` (privlab's default) this is ≤ ε.  As
printed (ε per categorical attribute, Δ_j = δ(a_b, a_t)) it is about ε·(m_num/m + m_c·D/Δ), more
than ε whenever a categorical attribute is present.  Record-aligned rows with one draw per
cluster release the partition (ε = ∞, :mod:`privlab.verify.dp_release_cert`), so no certificate
is issued for them.  Add/remove-one changes n and hence the cluster sizes and the noise scale;
the certificate covers substitution only and says so.

Exact check (categorical attributes only, small data): the shuffled output is the multiset of
the clusters' centroids repeated by the (data-independent) cluster sizes; its law is computed
exactly by enumerating every tuple of centroid draws (independent per cluster and attribute),
for the data set and for every substitution neighbour within the taxonomies' domains; the
worst log ratio over outputs and neighbours is the exact privacy loss at that data set.
"""

from __future__ import annotations

import itertools
import math
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

import numpy as np

from privlab.errors import InvalidParameter
from privlab.mechanisms.dp_release_mixed import MixedDPRelease
from privlab.mechanisms.semantic import NumericDomain
from privlab.mechanisms.taxonomy import Taxonomy
from privlab.types import CheckResult, Method

__all__ = ["certify_mixed", "check_mixed_exact", "exact_mixed_loss"]


def certify_mixed(rel: MixedDPRelease, n: int) -> dict[str, Any]:
    """The ε the lab establishes for ``rel`` on n records (module docstring) with its parts."""
    if n < rel.k:
        raise InvalidParameter(f"n={n!r} must be >= k={rel.k}")
    if rel.rows == "aligned":
        return {"certified_epsilon": None, "holds": False, "neighbour": "substitute",
                "reason": "record-aligned rows with one draw per cluster publish the partition "
                          "(equal released rows ⇔ same cluster): ε = ∞",
                "parts": []}
    m, q, f = len(rel.attributes), n // rel.k, max(n / rel.k, 1.0)
    s = (rel.scale_per_unit if rel.scale_per_unit is not None
         else (n / rel.k) * m / (rel.k * rel.epsilon))
    parts = []
    for j, a in enumerate(rel.attributes):
        if isinstance(a, NumericDomain):
            eps_j = q / (rel.k * s)
            parts.append({"attribute": j, "kind": "numerical", "epsilon": eps_j,
                          "argument": f"q·(w/k)/(s·w) = {q}/({rel.k}·{s:.6g})"})
        else:
            em = rel.centroid_mechanism(a, n)
            d = a.marginality_sensitivity
            eps_j = q * em.epsilon * d / (f * em.delta_m)
            parts.append({"attribute": j, "kind": "categorical", "taxonomy": a.name,
                          "epsilon": eps_j, "em_epsilon": em.epsilon, "factor": f,
                          "quality_sensitivity": d, "em_sensitivity": em.delta_m,
                          "argument": f"q·ε_a·D/(f·Δ) = {q}·{em.epsilon:.6g}·{d:.6g}/"
                                      f"({f:.6g}·{em.delta_m:.6g})"})
    total = float(sum(p["epsilon"] for p in parts))
    return {"certified_epsilon": total, "holds": total <= rel.epsilon * (1 + 1e-12),
            "neighbour": "substitute", "epsilon_parameter": rel.epsilon,
            "budget": rel.budget, "em_sensitivity": rel.em_sensitivity,
            "reason": "insensitive order (≤ 1 record changes per cluster) + Laplace / "
                      "exponential mechanism per cluster + composition over attributes",
            "parts": parts}


def _law(rel: MixedDPRelease, records: Sequence[Sequence[str]]) -> dict[tuple[Any, ...], float]:
    """Exact law of the shuffled categorical release: output multiset → probability."""
    taxes = rel.attributes
    enc = rel.encode(records)
    lab = rel.labels(enc)
    n = len(records)
    q = int(lab.max()) + 1
    per_cluster = []
    for c in range(q):
        members = [records[i] for i in np.flatnonzero(lab == c)]
        dists = []
        for j, tax in enumerate(taxes):
            p = rel.centroid_mechanism(tax, n).probabilities([r[j] for r in members])
            dists.append(list(zip(tax.concepts, p, strict=True)))
        size = len(members)
        per_cluster.append([(tuple(x for x, _ in combo), math.prod(pr for _, pr in combo), size)
                            for combo in itertools.product(*dists)])
    law: dict[tuple[Any, ...], float] = defaultdict(float)
    for choice in itertools.product(*per_cluster):
        key = tuple(sorted((cen, size) for cen, _, size in choice))
        law[key] += math.prod(p for _, p, _ in choice)
    return dict(law)


def exact_mixed_loss(rel: MixedDPRelease, records: Sequence[Sequence[str]]) -> dict[str, Any]:
    """Worst |log P_D(o) − log P_D′(o)| over outputs o and substitution neighbours D′ of D."""
    if not all(isinstance(a, Taxonomy) for a in rel.attributes):
        raise InvalidParameter("the exact check covers categorical attributes only")
    if rel.rows != "shuffled":
        raise InvalidParameter("the exact check covers shuffled rows only")
    base = _law(rel, records)
    domain = list(itertools.product(*(sorted(a.domain) for a in rel.attributes)))
    worst, where = 0.0, None
    for i in range(len(records)):
        for new in domain:
            if tuple(records[i]) == new:
                continue
            other = [list(r) for r in records]
            other[i] = list(new)
            law2 = _law(rel, other)
            for o in set(base) | set(law2):
                a, b = base.get(o, 0.0), law2.get(o, 0.0)
                r = math.inf if (a == 0) != (b == 0) else abs(math.log(a) - math.log(b))
                if r > worst:
                    worst, where = r, {"record": i, "replaced_by": list(new), "output": list(o)}
    return {"worst_log_ratio": worst, "at": where, "outputs": len(base),
            "neighbours": len(records) * (len(domain) - 1)}


def check_mixed_exact(rel: MixedDPRelease, datasets: Sequence[Sequence[Sequence[str]]]
                      ) -> CheckResult:
    """Exact loss on each small data set against the certificate (categorical-only)."""
    rows, worst = [], 0.0
    ok = True
    for data in datasets:
        cert = certify_mixed(rel, len(data))
        loss = exact_mixed_loss(rel, data)
        bound = cert["certified_epsilon"]
        fine = bound is not None and loss["worst_log_ratio"] <= bound * (1 + 1e-9)
        ok &= fine
        worst = max(worst, loss["worst_log_ratio"])
        rows.append({"n": len(data), "certified_epsilon": bound,
                     "exact_loss": loss["worst_log_ratio"], "at": loss["at"],
                     "within_certificate": fine})
    return CheckResult(
        holds=ok and worst <= rel.epsilon * (1 + 1e-9),
        claim=f"mixed release (budget {rel.budget}, Δ(m) {rel.em_sensitivity}) is "
              f"{rel.epsilon:g}-DP under substitution on these data sets",
        value=worst, method=Method.EXHAUSTIVE,
        evidence={"datasets": rows, "epsilon": rel.epsilon},
        counterexample=None if worst <= rel.epsilon * (1 + 1e-9) else
        max(rows, key=lambda r: r["exact_loss"]))
