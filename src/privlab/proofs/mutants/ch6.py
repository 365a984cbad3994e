"""Mutants of thesis ch.2–3 and ch.6 / vldb14 / irm claims (microaggregation, DP releases)."""

from __future__ import annotations

from itertools import product
from typing import Any

from privlab.types import Mutant


def _micro() -> Any:
    from privlab.proofs.thesis import microaggregation as mi

    return mi


def _ch6() -> Any:
    from privlab.proofs.thesis import ch6

    return ch6


def _lexicographic(m: int, n: int) -> list[tuple[int, ...]]:
    """Corners in binary counting order (not the Hamming rule)."""
    corners = list(product((0, 1), repeat=m))
    return [corners[i % len(corners)] for i in range(n)]


def _mdav_insensitive(k: int) -> Any:
    return _micro()._search("mdav", k)


def _small_groups() -> Any:
    from privlab.verify.microaggregation.prob_kanon import check_probabilistic_k_anonymity

    q, c = _micro().REID_DATA
    return check_probabilistic_k_anonymity(q, c, 3, method="ir-swap-small-groups")


def _alg_2_1() -> Any:
    from privlab.proofs.thesis.ch3 import check_alg_2_1

    return check_alg_2_1(random_sets=5, last_max=2)


def _squared_metric() -> Any:
    from privlab.mechanisms.microaggregation.taxonomy import project_taxonomy
    from privlab.types import CheckResult, Method
    from privlab.verify.microaggregation.taxonomy import (
        check_semantic_metric,
        squared_difference_parts,
    )

    rs = {n: check_semantic_metric(project_taxonomy(n), parts=squared_difference_parts)
          for n in ("sport", "job")}
    return CheckResult(holds=all(r.holds for r in rs.values()),
                       claim="|φ(a) Δ φ(b)|² is a metric on the shipped taxonomies",
                       value=len(rs), method=Method.EXHAUSTIVE,
                       evidence={n: dict(r.evidence) for n, r in rs.items()},
                       counterexample=next((r.counterexample for r in rs.values()
                                            if r.counterexample), None))


MUTANTS: dict[str, tuple[Mutant, ...]] = {
    "thesis:eq-6.6": (Mutant(
        description="the squared count of non-shared ancestors |φ(a) Δ φ(b)|² claimed a metric "
                    "(the checker, same taxonomies, with the distance replaced)",
        check=_squared_metric),),
    "thesis:alg-2.1": (Mutant(
        description="last MDAV cluster claimed to have at most 2k − 2 records",
        check=_alg_2_1),),
    "thesis:def-12": (Mutant(
        description="MDAV (Euclidean) claimed insensitive for k = 2",
        check=lambda: _mdav_insensitive(2)),),
    "thesis:prop-6-fixed-ends": (Mutant(
        description="clusters chosen by data-dependent orders (MDAV) claimed insensitive, k = 2",
        check=lambda: _mdav_insensitive(2)),),
    "vldb14:prop-2": (Mutant(
        description="Algorithm 2 with data-dependent orders (MDAV) claimed insensitive, k = 3",
        check=lambda: _mdav_insensitive(3)),),
    "thesis:prop-7": (Mutant(
        description="Algorithm 6.1 with data-dependent orders (MDAV) claimed insensitive, k = 3",
        check=lambda: _mdav_insensitive(3)),),
    "thesis:sec-6.3.3-hamming": (Mutant(
        description="corners in binary counting order claimed to follow the Hamming rule",
        check=lambda: _micro().check_hamming_sequence(sequence=_lexicographic)),),
    "irm:lemma-1-adversarial": (Mutant(
        description="univariate centroid list claimed to move by ≤ Δ/(2k)",
        check=lambda: _micro().check_irm_lemma_1(bound_factor=0.5)),),
    "thesis:sec-3.3.1-reid-bound": (Mutant(
        description="swapping within groups of k − 1 records claimed to give ≤ 1/k",
        check=_small_groups),),
    "thesis:sec-3.4.1-table-3.10": (Mutant(
        description="MDAV-ID claimed to preserve correlations best at every k",
        check=lambda: _micro().check_table_3_10_order(best="MDAV-ID")),),
    "thesis:sec-6.3.1-univariate": (Mutant(
        description="univariate ordered centroid list claimed to move by ≤ Δ/(2k)",
        check=lambda: _ch6()._univariate("insensitive-mdav", bound_factor=0.5)),),
    "irm:lemma-1": (Mutant(
        description="univariate IR centroid list claimed to move by ≤ Δ/(2k)",
        check=lambda: _ch6()._univariate("individual-ranking", bound_factor=0.5)),),
    "vldb14:sec-4-noise-scale": (Mutant(
        description="the factor n/k dropped: Laplace Δ(I_r)/(kε) claimed ε-DP (m = 2)",
        check=lambda: _ch6().check_noise_scale_multivariate()),),
    "vldb14:sec-4-sqrt-n": (Mutant(
        description="(n/k)·Δ/k ≤ Δ claimed equivalent to n < k² (strict)",
        check=lambda: _ch6().check_sqrt_n(strict=True)),),
    "irm:sec-3.2-note": (Mutant(
        description="per-record noise claimed to multiply the sensitivity by k + 1",
        check=lambda: _ch6().check_irm_note(offset=1)),),
}

MUTANTS.update({
    "thesis:prop-9": (Mutant(description="Algorithm 6.3's centroid draw claimed (ε/2)-DP",
                             check=lambda: _ch6()._em_claim(False, claimed=0.5)),),
    "vldb14:prop-4": (Mutant(description="Algorithm 4's centroid draw claimed (ε/2)-DP",
                             check=lambda: _ch6()._em_claim(True, claimed=0.5)),),
})

MUTANTS.update({
    "thesis:prop-7-only-if": (Mutant(
        description="a fixed total order (insensitive MDAV) on the preorder pair claimed to fail",
        check=lambda: _micro().check_prop_7_only_if(control="insensitive-mdav")),),
})
