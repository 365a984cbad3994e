"""Thesis §6.3.4 Proposition 9 / Algorithm 6.3 and vldb14 §4.4 Proposition 4 / Algorithm 4:
the exponential-mechanism centroid of a categorical cluster, judged over the papers' own ε and k.

One cluster of k records (n = k, so vldb14's factor n/k is 1); the quality is −m(S, c), the
marginality of candidate c towards the cluster's values, and the mechanism samples c with
probability ∝ exp(ε·(−m(S, c)) / (2Δ(m))) with Δ(m) = δ(a_b, a_t), the semantic distance
between the domain's two boundary values (thesis eqs. 6.2–6.3).  Changing one record of the
cluster (insensitive microaggregation: one value per cluster) changes m(S, c) by
|δ(a, c) − δ(b, c)|, which can exceed δ(a_b, a_t) when the boundary pair does not realise the
sensitivity.  Then the loss tends to ε·Δ_true/δ(a_b, a_t) > ε as k·ε grows: the draw
concentrates on the optimum, so the normaliser's ratio no longer offsets the quality term.

The check is exact on the finite instance set it lists (every ordered pair (a, b) of domain
values, cluster [a]·k against [b] + [a]·(k − 1)); losses are computed from log-probabilities
(no underflow, see ``ExponentialCentroid.log_probabilities``).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

from privlab.types import CheckResult, Method

TAXONOMY = "job"
"""privlab's own job taxonomy: a valid taxonomy under the thesis's definitions whose boundary
pair underestimates the marginality's sensitivity by 2 % (the papers' WordNet taxonomies are a
separate question)."""


@cache
def _one_value_marginalities(taxonomy: str) -> tuple[Any, tuple[str, ...]]:
    """δ(x, c) for every domain value x (rows) and concept c (columns): m([x], c)."""
    import numpy as np

    from privlab.mechanisms.microaggregation.taxonomy import project_taxonomy

    t = project_taxonomy(taxonomy)
    return np.array([t.marginality([x]) for x in t.domain], dtype=float), tuple(t.domain)


@cache
def worst_loss(epsilon: float, k: int, taxonomy: str = TAXONOMY) -> tuple[float, str, str]:
    """The largest exact loss of one centroid draw over the pairs (a, b), with the pair.

    m(S, c) is additive over S, so m([a]·k, c) = k·δ(a, c) and m([b] + [a]·(k − 1), c) =
    (k − 1)·δ(a, c) + δ(b, c); the exponential mechanism's log-probabilities (numerically
    stable log-softmax, as ``ExponentialCentroid.log_probabilities``) are computed for every b
    at once."""
    import numpy as np

    from privlab.mechanisms.microaggregation.semantic import ExponentialCentroid
    from privlab.mechanisms.microaggregation.taxonomy import project_taxonomy

    t = project_taxonomy(taxonomy)
    em = ExponentialCentroid(taxonomy=t, epsilon=epsilon, factor=1.0)
    scale = epsilon / (2.0 * em.factor * em.delta_m)
    one, domain = _one_value_marginalities(taxonomy)

    def log_softmax(z: Any) -> Any:
        top = z.max(axis=-1, keepdims=True)
        return z - (top + np.log(np.exp(z - top).sum(axis=-1, keepdims=True)))

    best = (0.0, "", "")
    for ia, a in enumerate(domain):
        base = log_softmax(-scale * k * one[ia])
        nb = log_softmax(-scale * ((k - 1) * one[ia][None, :] + one))
        loss = np.abs(nb - base[None, :]).max(axis=1)
        ib = int(np.argmax(loss))
        if loss[ib] > best[0]:
            best = (float(loss[ib]), a, domain[ib])
    return best


def check_em_centroid(epsilons: Sequence[float], ks: Sequence[int], *, claimed: float = 1.0,
                      taxonomy: str = TAXONOMY) -> CheckResult:
    """Is the loss of the centroid draw ≤ ``claimed``·ε at every (ε, k) of the grid?

    ``claimed`` = 1 is the statement; the weakest failing instance is the one with the smallest
    ε, then the smallest k."""
    from privlab.mechanisms.microaggregation.taxonomy import project_taxonomy

    t = project_taxonomy(taxonomy)
    rows: list[dict[str, Any]] = []
    for e in sorted(epsilons):
        for k in sorted(ks):
            loss, a, b = worst_loss(float(e), int(k), taxonomy)
            rows.append({"epsilon": e, "k": k, "loss": loss, "loss_over_epsilon": loss / e,
                         "a": a, "b": b, "holds": loss <= claimed * e * (1 + 1e-12)})
    failing = [r for r in rows if not r["holds"]]
    weakest = failing[0] if failing else None
    worst = max(rows, key=lambda r: r["loss_over_epsilon"])
    return CheckResult(
        holds=not failing,
        claim=f"the exponential-mechanism centroid is ({claimed:g}·ε)-DP for every ε, k",
        value=worst["loss_over_epsilon"], method=Method.EXHAUSTIVE,
        evidence={"taxonomy": taxonomy, "delta_m_boundary": t.boundary_distance,
                  "true_sensitivity": t.marginality_sensitivity,
                  "ratio_true_over_boundary": t.marginality_sensitivity / t.boundary_distance,
                  "grid": rows, "failing": len(failing)},
        counterexample=None if weakest is None else {
            "weakest": {"epsilon": weakest["epsilon"], "k": weakest["k"]},
            "sample": f"[{weakest['a']}] × {weakest['k']}",
            "neighbour_sample": f"[{weakest['b']}] + [{weakest['a']}] × {weakest['k'] - 1}",
            "privacy_loss": weakest["loss"],
            "loss_over_epsilon": weakest["loss_over_epsilon"],
            "failing_instances": [(r["epsilon"], r["k"]) for r in failing]})
