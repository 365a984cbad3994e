"""Mutant checks of thesis ch.5 claims (knowledge refinement): factors, bounds and relations
perturbed so the statement is false, run through the claim's own checker.

The ``Mutant(kind=..., description=..., check=...)`` entries themselves are written in each claim's
``Claim(...)`` definition; this module holds the check functions too long for a lambda.
It never imports the chapter modules (they import it)."""

from __future__ import annotations

import math
from typing import Any


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


def _products_broken(spec: str, distance: Any) -> Any:
    """The individual factors on a statistical query (ratio e^{2ε}) claimed 1-DP, through the
    certifier the claim uses (privlab.proofs.thesis.ch5_products._run)."""
    from privlab.mechanisms.refinement.algorithm import broken_statistical
    from privlab.mechanisms.refinement.spec import parse_prior
    from privlab.proofs.thesis import ch5_products as pr

    return pr._run([(f"{spec} broken", broken_statistical(parse_prior(spec), 1.0,
                                                          distance=distance))], "mutant")
