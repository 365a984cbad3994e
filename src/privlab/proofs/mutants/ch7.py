"""Mutants of thesis ch.7 and ins15 claims (t-closeness)."""

from __future__ import annotations

from typing import Any

from privlab.types import Mutant


def _ck() -> Any:
    from privlab.proofs.tcloseness import checks as ck

    return ck


MUTANTS: dict[str, tuple[Mutant, ...]] = {
    "thesis:sec-7.2.2-construction": (Mutant(
        description="the construction's releases claimed (t − 1/10)-close",
        check=lambda: _ck().check_construction(t_shrink=0.1)),),
    "ins15:prop-3": (Mutant(
        description="exp(ε)-closeness (not exp(ε/2)) claimed enough: pair ratio ≤ t",
        check=lambda: _ck().check_ins15_prop_3(exponent=1)),),
}


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


MUTANTS.update({
    "thesis:alg-7.1": (Mutant(description="Algorithm 7.1 classes claimed ≤ 2k − 2 records",
                              check=lambda: _ck().check_alg_7_1(max_offset=2)),),
    "thesis:def-15": (Mutant(description="one-sided max P1(S)/P2(S) claimed a symmetric "
                             "distance", check=lambda: _ck().check_def_15(dist=_one_sided)),),
    "thesis:prop-10": (Mutant(description="d = max_i P1(x_i)/P2(x_i) (one-sided)",
                              check=_prop_10_one_sided),),
    "ins15:prop-2": (Mutant(description="d = max_i P1(x_i)/P2(x_i) (one-sided)",
                            check=_prop_10_one_sided),),
    "thesis:sec-7.2.1-buckets": (Mutant(description="b = t + 2 buckets",
                                        check=lambda: _ck().check_bucket_optimum(offset=2)),),
    "ins15:sec-6.1-buckets": (Mutant(description="b = t + 2 buckets",
                                     check=lambda: _ck().check_bucket_optimum(offset=2)),),
    "thesis:table-7.6": (Mutant(description="masses 1/(t²(t+1)) off the emphasised bucket",
                                check=lambda: _ck().check_table_7_6(other_power=2)),),
    "ins15:table-1": (Mutant(description="masses 1/(t²(t+1)) off the emphasised bucket",
                             check=lambda: _ck().check_table_7_6(other_power=2)),),
    "ins15:prop-1-derived": (Mutant(
        description="the derived bound claimed 10 % smaller",
        check=lambda: _ck().check_ins15_prop_1_derived(shrink=__import__("fractions").Fraction(
            9, 10))),),
    "ins15:prop-1-second-term": (Mutant(
        description="product − 1 = x(1−x)(r−1)/r (sign-indefinite)",
        check=lambda: _ck().check_ins15_second_term(exponent=1)),),
})

MUTANTS.update({
    "thesis:sec-7.2.2-l-range": (Mutant(
        description="l = ⌊N/b²⌋ (not + 1) claimed infeasible",
        check=lambda: _ck().check_l_range(offset=0)),),
    "thesis:sec-7.3.1": (Mutant(
        description="posterior/prior claimed ≤ t/2 (not t)",
        check=lambda: _ck().check_uninformed_add_remove(shrink=0.5)),),
    "thesis:sec-7.3.2": (Mutant(
        description="an intruder knowing k − 2 values claimed to pin I's value",
        check=lambda: _ck().check_informed_intruder(unknown=2)),),
})
