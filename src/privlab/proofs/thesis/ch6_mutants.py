"""Mutant checks of thesis ch.6 / vldb14 claims (microaggregation, DP releases); those that
need a chapter module's internals live in that module (thesis.sec62_insensitivity, thesis.ch3).

The ``Mutant(kind=..., description=..., check=...)`` entries themselves are written in each claim's
``Claim(...)`` definition; this module holds the check functions too long for a lambda.
It never imports the chapter modules (they import it)."""

from __future__ import annotations

from itertools import product
from typing import Any


def _lexicographic(m: int, n: int) -> list[tuple[int, ...]]:
    """Corners in binary counting order (not the Hamming rule)."""
    corners = list(product((0, 1), repeat=m))
    return [corners[i % len(corners)] for i in range(n)]


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
