"""Certificate for the mixed numerical / categorical DP release (thesis §6.3.4–6.3.6, vldb14
§4.4–4.6; :class:`~privlab.mechanisms.releases.mixed.MixedDPRelease`).

Setting: n records, k, m attributes (numerical ones with domain width w_j, categorical ones
with taxonomy τ_j and domain Dom_j), ε the parameter, Laplace scale s·w_j per numerical
attribute, one exponential-mechanism (EM) draw per cluster at ε_a with factor f and Δ_j.

Substitution of one record (:func:`certify_mixed`):

* **order** — the eq. (6.7) distance to a fixed reference record, ties by the attribute values:
  a total order on the domain that does not depend on the data.  Cluster c is a fixed block of
  ranks (sizes fixed by n: k, …, k, the last n − (q−1)k).  Replacing record x by x′ removes x
  at rank p, inserts x′ at rank p′ and shifts the ranks in between by one: every block loses at
  most one value and gains at most one value — each of the q = ⌊n/k⌋ clusters changes by at
  most one record, all q of them when p and p′ lie in the first and last cluster.
* **numerical attribute j** — a changed cluster's mean moves by ≤ w_j/|C_c|; the ordered list
  of centroids moves by ≤ Σ_c w_j/|C_c| = w_j·((q−1)/k + 1/(n−(q−1)k)) in L1, so the Laplace
  draws lose ε_j = ((q−1)/k + 1/|C_last|)/s (≤ q/(ks) = qkε/(nm) ≤ ε/m at the vldb14 scale).
* **categorical attribute j** — one value change moves every quality −m(S, c) by at most
  D_j = max_{c ∈ τ_j} max_{s, s′ ∈ Dom_j} |δ(s, c) − δ(s′, c)| (computed exactly:
  :func:`quality_sensitivity`); one EM draw then loses ≤ 2·ε_a·D_j/(2·f·Δ_j) = ε_a·D_j/(f·Δ_j)
  (the exponent moves by ≤ ε_a·D_j/(2fΔ_j), the normaliser by as much), q draws
  q·ε_a·D_j/(f·Δ_j) (≤ ε_a when f = n/k ≥ q and Δ_j = D_j).
* **composition** — the draws are independent given the data; the shuffled table is
  post-processing of the ordered list of noisy cluster centroids: ε_total = Σ_j ε_j.
* k = 1 (or no microaggregation) — each record has its own draws, so a substitution changes
  one record's draws only (one "cluster", shift w_j); n < 2k — one cluster of n records
  (shift w_j/n).  In both cases record-aligned rows are covered too.
* record-aligned rows, k ≥ 2, n ≥ 2k — rows of one cluster are equal with probability 1, so
  the event "row 0 ≠ row 1" has probability 0 when records 0 and 1 share a cluster and a
  positive probability on a neighbour that separates them (two independent draws; the
  exponential mechanism gives every concept positive mass): ε = ∞, with or without numerical
  attributes (the exact check finds the infinite ratio, :mod:`~.dp_release_mixed_exact`).

Add/remove-one: the release has exactly n rows, so "the table has n rows" has probability 1 on
x and 0 on x minus a record — no ε (``certified_epsilon`` None), as for the numerical releases.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from privlab.errors import InvalidParameter
from privlab.mechanisms.microaggregation.semantic import NumericDomain
from privlab.mechanisms.microaggregation.taxonomy import Taxonomy
from privlab.mechanisms.releases.grid import SLACK
from privlab.mechanisms.releases.mixed import MixedDPRelease
from privlab.types import Neighbour

__all__ = ["certify_mixed", "quality_sensitivity", "structure"]

_TOL = 1e-12


def _log2(r: Fraction) -> float:
    return math.log2(r.numerator) - math.log2(r.denominator)


def quality_sensitivity(tax: Taxonomy) -> dict[str, Any]:
    """D = max_{c ∈ τ} max_{s, s′ ∈ Dom} |δ(s, c) − δ(s′, c)| exactly, with eq. (6.6)'s range.

    δ(a, b) = log₂ r(a, b) with r = (2u − i)/u rational (u = |φ(a) ∪ φ(b)|, i = |φ(a) ∩ φ(b)|),
    so D = log₂ max_c (max_s r(s, c) / min_s r(s, c)) — the maximum is taken over Fractions.
    Also checked exactly: 1 ≤ r < 2 for every pair of concepts (δ ∈ [0, 1), the root is a
    common ancestor), D equals the diameter of Dom (the triangle inequality gives ≤, c = s′
    gives ≥) and D ≤ max δ over all concepts; the float values used by the mechanism are
    compared with the exact ones.
    """
    from privlab.verify.microaggregation.taxonomy import ratio_parts

    num, den = ratio_parts(tax)
    cs = tax.concepts
    dom = [tax.index[a] for a in tax.domain]
    best, where = Fraction(1), None
    for c in range(len(cs)):
        rs = [Fraction(int(num[c, s]), int(den[c, s])) for s in dom]
        hi, lo = max(rs), min(rs)
        if hi / lo > best:
            best = hi / lo
            where = {"candidate": cs[c], "s": cs[dom[rs.index(hi)]],
                     "s_prime": cs[dom[rs.index(lo)]]}
    pairs = [(Fraction(int(num[a, b]), int(den[a, b])), a, b)
             for a in range(len(cs)) for b in range(len(cs))]
    in_range = all(1 <= r < 2 and (r == 1) == (a == b) for r, a, b in pairs)
    r_max = max(r for r, _, _ in pairs)
    diam = max(Fraction(int(num[a, b]), int(den[a, b])) for a in dom for b in dom)
    d = _log2(best)
    return {"taxonomy": tax.name, "concepts": len(cs), "domain_size": len(dom),
            "quality_sensitivity": d, "quality_sensitivity_exact": f"log2({best})",
            "attained_at": where, "domain_diameter": _log2(diam),
            "equals_domain_diameter": best == diam, "max_distance": _log2(r_max),
            "within_max_distance": best <= r_max, "range_ok": in_range,
            "boundary_distance": tax.boundary_distance,
            "boundary_underestimates": tax.boundary_distance < d - _TOL,
            "float_agrees": abs(d - tax.marginality_sensitivity) <= _TOL}


def structure(rel: MixedDPRelease, n: int) -> dict[str, Any]:
    """How a substitution can change the clusters: number of changed draws and the L1 shift
    (in units of range) of one numerical attribute's released centroids."""
    k = rel.k
    if rel.microaggregation == "none" or k == 1:
        return {"clusters": n, "changed_draws": 1, "numeric_shift": 1.0,
                "why": "k = 1: every record has its own draws; a substitution changes one "
                       "record's draws, its centroid by ≤ w"}
    q = n // k
    if q == 1:
        return {"clusters": 1, "changed_draws": 1, "numeric_shift": 1.0 / n,
                "why": f"n < 2k: one cluster of {n} records, its mean moves by ≤ w/{n}"}
    last = n - (q - 1) * k
    return {"clusters": q, "changed_draws": q, "numeric_shift": (q - 1) / k + 1 / last,
            "why": f"data-independent order: each of the q = {q} clusters (sizes {k}, …, "
                   f"{last}) changes by ≤ 1 record, its mean by ≤ w/|C|"}


def _leak(rel: MixedDPRelease, n: int, neighbour: str) -> dict[str, Any] | None:
    ref = [a.lo if isinstance(a, NumericDomain) else a.boundaries[0] for a in rel.attributes]
    far = [a.hi if isinstance(a, NumericDomain) else a.boundaries[1] for a in rel.attributes]

    def table(first: list[Any], size: int) -> Any:
        if size <= 8:
            return [first] + [ref] * (size - 1)
        return {"records": size, "record_0": first, "every_other_record": ref}

    if neighbour == "add-remove":
        return {"x": table(ref, n), "x_prime": table(ref, n - 1),
                "event": f"the released table has {n} rows", "p_x": 1.0, "p_x_prime": 0.0}
    if rel.rows != "aligned" or rel.microaggregation == "none" or rel.k == 1 or n < 2 * rel.k:
        return None
    return {"x": table(ref, n), "x_prime": table(far, n),
            "event": "released row 0 differs from released row 1", "p_x": 0.0,
            "p_x_prime": "> 0 (two independent draws: Laplace values differ almost surely, "
                         "exponential-mechanism centroids with positive probability)",
            "why": "all records at the reference are ordered by index, so records 0 and 1 share "
                   "the first cluster (one draw, equal rows); in x′ record 0 is farthest from "
                   "the reference (last cluster) and record 1 first"}


def certify_mixed(rel: MixedDPRelease, n: int, neighbour: str = "substitute"
                  ) -> dict[str, Any]:
    """The ε the lab establishes for ``rel`` on n records (module docstring), with its parts.

    Keys: ``certified_epsilon`` (None: no ε), ``holds`` (≤ the parameter ε), ``reason``,
    ``argument``, ``counterexample``, ``parts`` (per attribute), ``taxonomies`` (exact
    quality sensitivities), ``parameters``.
    """
    # every spelling privlab.types.Neighbour parses (add/remove, add-remove, add_remove, …);
    # this module's own tables spell it "add-remove"
    neighbour = ("add-remove" if Neighbour.parse(neighbour) is Neighbour.ADD_REMOVE
                 else "substitute")
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise InvalidParameter(f"n={n!r} must be a positive integer")
    if n < rel.k:
        raise InvalidParameter(f"n={n!r} must be >= k={rel.k}")
    m = len(rel.attributes)
    params = {"n": n, "k": rel.k, "epsilon": rel.epsilon, "attributes": m,
              "numerical": sum(isinstance(a, NumericDomain) for a in rel.attributes),
              "categorical": [a.name for a in rel.attributes if isinstance(a, Taxonomy)],
              "microaggregation": rel.microaggregation, "rows": rel.rows,
              "budget": rel.budget, "em_sensitivity": rel.em_sensitivity,
              "em_factor": rel.em_factor, "em_epsilon": rel.em_epsilon(),
              "factor": rel.factor(n), "scale_per_unit": rel.scale(n), "neighbour": neighbour}
    taxes = [quality_sensitivity(a) for a in rel.attributes if isinstance(a, Taxonomy)]
    base = {"mechanism": "dp-release-mixed", "parameters": params,
            "requested_epsilon": rel.epsilon, "neighbour": neighbour, "taxonomies": taxes,
            "epsilon_parameter": rel.epsilon, "budget": rel.budget,
            "em_sensitivity": rel.em_sensitivity}
    if neighbour == "substitute":
        base["add_remove"] = {"certified_epsilon": None, "reason": (
            "no ε under add/remove-one: every release has exactly n rows (privlab certify "
            "dp-release --neighbour add-remove gives the neighbour pair)")}
    leak = _leak(rel, n, neighbour)
    if leak is not None:
        why = ("add/remove-one changes n and every release has exactly n rows" if
               neighbour == "add-remove" else
               "record-aligned rows with one draw per cluster publish the partition (rows of "
               "the same cluster are equal with probability 1)")
        return {**base, "certified_epsilon": None, "holds": False, "counterexample": leak,
                "parts": [], "reason": f"structural leak: {why}; the event "
                f"'{leak['event']}' has probability {leak['p_x']} on x and "
                f"{leak['p_x_prime']} on the neighbour x′ (ε = ∞)",
                "argument": "explicit neighbour pair and event (counterexample); confirmed by "
                            "privlab.verify.releases.mixed_exact on small data sets"}
    st = structure(rel, n)
    s, f, ch = rel.scale(n), rel.factor(n), st["changed_draws"]
    safe = rel.noise_mode == "safe" and params["numerical"] > 0
    grid = rel.grid(n) if safe else None
    parts, ti, num = [], iter(taxes), 0
    for j, a in enumerate(rel.attributes):
        if isinstance(a, NumericDomain):
            eps_j: float | Fraction = st["numeric_shift"] / s
            arg = f"L1 shift ≤ {st['numeric_shift']:.6g}·w over the Laplace scale {s:.6g}·w"
            if grid is not None:  # the written grid values (privlab.mechanisms.releases.grid)
                g, lam = grid.rate[num], Fraction(grid.granularity[num])
                eps_j = (g * (Fraction(a.hi) - Fraction(a.lo)) / lam
                         * Fraction(st["numeric_shift"]) + SLACK * ch * g)
                arg += (f"; written on the grid {grid.granularity[num]!r} with integer rate "
                        f"{g}: γ·(w/Λ)·shift + {SLACK}·{ch}·γ = {float(eps_j):.9g}")
            num += 1
            parts.append({"attribute": j, "kind": "numerical", "epsilon": eps_j,
                          "argument": arg})
        else:
            qs = next(ti)
            em = rel.centroid_mechanism(a, n)
            d = qs["quality_sensitivity"]
            eps_j = ch * em.epsilon * d / (f * em.delta_m)
            parts.append({"attribute": j, "kind": "categorical", "taxonomy": a.name,
                          "epsilon": eps_j, "em_epsilon": em.epsilon, "factor": f,
                          "quality_sensitivity": d, "em_sensitivity": em.delta_m,
                          "argument": f"{ch} changed draws × ε_a·D/(f·Δ) = {ch}·"
                                      f"{em.epsilon:.6g}·{d:.6g}/({f:.6g}·{em.delta_m:.6g})"})
    exact_total = sum((Fraction(p["epsilon"]) for p in parts), Fraction(0))
    total = float(exact_total)
    holds = (exact_total <= Fraction(rel.epsilon) if grid is not None
             else total <= rel.epsilon * (1 + _TOL))
    for p in parts:
        p["epsilon"] = float(p["epsilon"])
    if grid is not None:
        base["noise"] = {**grid.to_dict(), "numerical_only": True,
                         "categorical": "exponential mechanism over concepts, probabilities "
                                        "in doubles (no float output to leak bits)"}
        base["float_safe"] = True
    elif params["numerical"] > 0:
        base["noise"] = {"implementation": "float Laplace (numpy)", "float_safe": False}
        base["float_safe"] = False
    return {**base, "certified_epsilon": total, "holds": holds, "counterexample": None,
            "parts": parts, "structure": st,
            "reason": (f"{st['why']}; Laplace / exponential mechanism per cluster; sequential "
                       f"composition over the {m} attributes gives ε = {total:.6g}"
                       + ("" if holds else f" > requested {rel.epsilon:g}")),
            "argument": f"{st['why']} + Laplace / exponential mechanism per changed draw "
                        "+ sequential composition over attributes "
                        "(privlab.verify.releases.mixed)"}
