"""Mutant checks of thesis ch.7 and ins15 claims (t-closeness).

The ``Mutant(kind=..., description=..., check=...)`` entries themselves are written in each claim's
``Claim(...)`` definition; this module holds the check functions too long for a lambda.
It never imports the chapter modules (they import it)."""

from __future__ import annotations

from typing import Any


def _ck() -> Any:
    from privlab.proofs.tcloseness import checks as ck

    return ck


def _one_sided(p: Any, q: Any) -> Any:
    """max_i P1(x_i)/P2(x_i) only (the mutant of Definition 15 / Proposition 10)."""
    import math
    from fractions import Fraction

    vals = [math.inf if y == 0 and x > 0 else (Fraction(0) if x == 0 else Fraction(x) / y)
            for x, y in zip(p, q, strict=True)]
    return max(vals)


def _prop_10_one_sided() -> Any:
    """'d(D1, D2) = max_i P1(x_i)/P2(x_i)' against the brute-force maximum over all sets."""
    from privlab.types import CheckResult, Method
    from privlab.verify.tcloseness import distance_bruteforce

    for p, q in _ck()._random_pairs(10, 400):
        one, brute = _one_sided(p, q), distance_bruteforce(p, q)
        if one != brute:
            return CheckResult(holds=False, claim="one-sided singleton max = set max",
                               method=Method.EXHAUSTIVE,
                               counterexample={"p": p, "q": q, "one_sided": one, "sets": brute})
    return CheckResult(holds=True, claim="one-sided singleton max = set max",
                       method=Method.EXHAUSTIVE)
