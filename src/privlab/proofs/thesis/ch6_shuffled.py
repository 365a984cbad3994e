"""Exact privacy loss of Laplace noise on *shuffled* centroids for one neighbouring pair
(thesis §6.3.1, issue 14).

With rows shuffled, one Laplace(b) draw per centroid and coordinate, the release is the multiset
of noisy centroids; its density at y = (y_1 … y_q) is p(y | c) = Σ_π Π_i f(y_i − c_π(i)) with
f(t) = e^{−‖t‖₁/b}/(2b)^m.  For two centroid lists c, c′:

* upper bound: for any matching σ, p(y|c)/p(y|c′) ≤ max_π e^{(‖y−c′_{σπ}‖₁ − ‖y−c_π‖₁)/b}
  ≤ e^{L_σ/b} with L_σ = Σ_i ‖c_i − c′_σ(i)‖₁ (triangle inequality), so the loss is at most
  min_σ L_σ / b — *not* the ordered-list distance L_id, which is only an upper bound;
* attainment: at a point y where every term of the numerator has the same exponent A and every
  term of the denominator the same exponent B, the ratio is exactly e^{(B − A)/b}; if
  B − A = min_σ L_σ the bound is attained, exactly (Fractions, no floating point).
"""

from __future__ import annotations

from fractions import Fraction
from itertools import permutations, product
from typing import Any

Point = tuple[Fraction, ...]


def _l1(a: Point, b: Point) -> Fraction:
    return sum((abs(x - y) for x, y in zip(a, b, strict=True)), Fraction(0))


def _exponents(y: tuple[Point, ...], c: list[Point]) -> set[Fraction]:
    return {sum((_l1(y[i], c[p]) for i, p in enumerate(pi)), Fraction(0))
            for pi in permutations(range(len(c)))}


def shuffled_loss(c: list[Point], cp: list[Point],
                  values: tuple[Fraction, ...] = tuple(Fraction(v) for v in (
                      -1, 0, Fraction(1, 4), Fraction(1, 2), 1, 2, 3))) -> dict[str, Any]:
    """Exact loss (in units of 1/b) of the shuffled release between centroid lists ``c`` and
    ``cp``: the matching bound, and a grid point (coordinates in ``values``) attaining it in
    either direction, or None."""
    q, m = len(c), len(c[0])
    ordered = sum((_l1(a, b) for a, b in zip(c, cp, strict=True)), Fraction(0))
    bound = min(sum((_l1(c[i], cp[s]) for i, s in enumerate(sig)), Fraction(0))
                for sig in permutations(range(q)))
    witness = None
    pts = list(product(values, repeat=m))
    for y in product(pts, repeat=q):
        ea, eb = _exponents(y, c), _exponents(y, cp)
        if len(ea) == 1 and len(eb) == 1 and abs(next(iter(ea)) - next(iter(eb))) == bound:
            witness = [[str(v) for v in p] for p in y]
            break
    return {"ordered_list_l1": ordered, "matching_bound": bound, "attained_at": witness,
            "exact_loss_units": bound if witness is not None else None}
