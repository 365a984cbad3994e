"""Mutant checks of thesis ch.5 claims (knowledge refinement): factors, bounds and relations
perturbed so the statement is false, run through the claim's own checker.

The ``Mutant(kind=..., description=..., check=...)`` entries themselves are written in each claim's
``Claim(...)`` definition; this module holds the check functions too long for a lambda.
It never imports the chapter modules (they import it)."""

from __future__ import annotations

from typing import Any


def _products_broken(spec: str, distance: Any) -> Any:
    """The individual factors on a statistical query (ratio e^{2ε}) claimed 1-DP, through the
    certifier the claim uses (privlab.proofs.thesis.ch5_products._run)."""
    from privlab.mechanisms.refinement.algorithm import broken_statistical
    from privlab.mechanisms.refinement.spec import parse_prior
    from privlab.proofs.thesis import ch5_products as pr

    return pr._run([(f"{spec} broken", broken_statistical(parse_prior(spec), 1.0,
                                                          distance=distance))], "mutant")
