"""Mutants of thesis ch.5 claims (knowledge refinement): factors, bounds and relations perturbed
so the statement is false, run through the claim's own checker."""

from __future__ import annotations

import math
from fractions import Fraction as Fr
from typing import Any

from privlab.types import Mutant


def _ck() -> Any:
    from privlab.proofs.thesis import ch5_checks as ck

    return ck


def _broken_factors(kind: str) -> Any:
    """α_u/α_d = e^{2ε} claimed ε-DP (the individual factors on a statistical query), through
    the checker of Prop. 2 (all pairs of true answers) or Table 5.2 (data-set neighbours)."""
    from privlab.mechanisms.refinement.algorithm import broken_statistical
    from privlab.mechanisms.refinement.distances import ABSOLUTE
    from privlab.mechanisms.refinement.priors import DiscretePrior
    from privlab.mechanisms.refinement.queries import Dataset, count_query
    from privlab.verify.refinement.neighbours import check_refinement_dp, check_true_values

    prior = DiscretePrior.uniform(range(6))
    mech = broken_statistical(prior, math.log(4), distance=ABSOLUTE)
    if kind == "pairs":
        return check_true_values(mech, list(range(6)))
    return check_refinement_dp(mech, count_query(1), Dataset(records={"a": 1, "b": 0, "c": 1}),
                               neighbour="substitute", domain=(0, 1))


def _protocol(kind: str) -> Any:
    from privlab.proofs.thesis.ch5 import check_protocol

    return check_protocol(kind, claimed_fraction="0.5")


MUTANTS: dict[str, tuple[Mutant, ...]] = {
    "thesis:alg-5.1": (Mutant(
        description="every factor in the inner 80 % of [α_d, α_u] (ends excluded)",
        check=lambda: _ck().check_alg_51(60, shrink=Fr(1, 10))),),
    "thesis:prop-2": (Mutant(
        description="α_u = e^{2ε}α_d claimed ε-DP (all pairs of true answers)",
        check=lambda: _broken_factors("pairs")),),
    "thesis:table-5.2": (Mutant(
        description="statistical row with α_u/α_d = e^{2ε} claimed ε-DP",
        check=lambda: _broken_factors("neighbours")),),
    "thesis:prop-3": (Mutant(
        description="Proposition 3 under substitution instead of add/remove",
        check=lambda: _ck().check_prop_3_substitution()),),
    "thesis:prop-4": (Mutant(
        description="disjoint individuals composed at min ε_i instead of max ε_i",
        check=lambda: _ck().check_prop_4(combine=min)),),
    "thesis:prop-5": (Mutant(
        description="post-processing claimed to halve the privacy ratio",
        check=lambda: _ck().check_prop_5(bound_factor=Fr(1, 2))),),
    "thesis:protocol-1": (Mutant(
        description="the Laplace session claimed to spend at most half its budget",
        check=lambda: _protocol("laplace")),),
    "thesis:protocol-2": (Mutant(
        description="the refinement session claimed to spend at most half its budget",
        check=lambda: _protocol("refinement")),),
}


def _ch5() -> Any:
    from privlab.proofs.thesis import ch5

    return ch5


def _tb() -> Any:
    from privlab.proofs.thesis import ch5_tables as tb

    return tb


MUTANTS.update({
    "thesis:cor-2": (Mutant(description="the adaptive adversary's estimate claimed (ε/2)-DP",
                            check=lambda: _ch5().check_cor_2(claimed=0.5)),),
    "thesis:sec-5.4.1-modified-condition": (Mutant(
        description="the modified condition claimed to answer more queries than Protocol 1",
        check=lambda: _ch5().check_modified_condition(fewer=False)),),
    "thesis:sec-5.5.1-conclusion": (Mutant(
        description="Laplace's P(K = 1) claimed closer to the prior rate 0.01",
        check=lambda: _tb().check_sec_551_conclusion(closer="laplace")),),
    "thesis:ex-8": (Mutant(description="Example 8's ratios claimed {α_d, 1 − α_d}",
                           check=lambda: _tb().check_example_8(claimed=lambda a: {a, 1 - a})),),
})


def _products_broken(spec: str, distance: Any) -> Any:
    """The individual factors on a statistical query (ratio e^{2ε}) claimed 1-DP, through the
    certifier the claim uses (privlab.proofs.thesis.ch5_products._run)."""
    from privlab.mechanisms.refinement.algorithm import broken_statistical
    from privlab.mechanisms.refinement.spec import parse_prior
    from privlab.proofs.thesis import ch5_products as pr

    return pr._run([(f"{spec} broken", broken_statistical(parse_prior(spec), 1.0,
                                                          distance=distance))], "mutant")


MUTANTS.update({
    "thesis:sec-5.2-example-7-products": (Mutant(
        description="product prior, chebyshev distance, statistical query, α_u/α_d = e^{2ε} "
                    "claimed 1-DP",
        check=lambda: _products_broken("product(uniform:0,1;uniform:-1,1)", "chebyshev")),),
    "thesis:prop-2-continuous-all-answers": (Mutant(
        description="uniform prior, statistical query with α_u/α_d = e^{2ε} claimed 1-DP",
        check=lambda: _products_broken("uniform:0,1", None)),),
})
