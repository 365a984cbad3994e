"""The parameter grids the t-closeness checks run on (thesis ch.7, ins15).

One definition serves both sides: the ledger modules (:mod:`privlab.proofs.thesis.ch7`,
:mod:`privlab.proofs.ins15`) declare these tuples as the ``grid`` of each quantified
:class:`~privlab.types.Param`, and the checks in :mod:`privlab.proofs.tcloseness.checks` iterate
over the very same tuples — so a declared grid is what the checker runs on.  Pure Python (no
numpy / sympy): building the ledger imports this module, not the checks.

ε values that are not rational are written as text and read exactly by the checks:
``"log(q)"`` is ln q for a rational q (e^ε = q exactly), anything else a rational ε
(``"1/100"``); :func:`eps_float` gives the float a grid lists.
"""

from __future__ import annotations

import math
from fractions import Fraction

__all__ = [
    "ALG71_K_GRID", "ALG71_LARGE_K", "ALG71_N_GRID", "ALG71_N_MAX", "ALG71_OPT_K",
    "ALG71_SPAN", "CONSTRUCTION_N_MAX", "COUNT_RULE_N_MAX", "COUNT_RULE_TS", "L_RANGE_N_MAX",
    "PROP1_CASES", "PROP1_DERIVED_N_MAX", "PROP1_DERIVED_R", "PROP3_SIZES", "PROP3_TS",
    "SEC73_EPS", "SEC731_N", "SWEEP_TS", "alg71_cases", "construction_grid", "count_rule_cases",
    "count_rule_grid", "eps_exp", "eps_float", "first_l_range_n", "l_range_grid",
]

# ---- Algorithm 7.1 (thesis §7.1.1) ------------------------------------------------------------
ALG71_N_MAX = 60
"""Every N ≤ 60 with every k ≤ N."""
ALG71_LARGE_K = (100, 300)
"""The thesis's registry values of k above ``ALG71_N_MAX`` (ch.6 figures k ≤ 100; ch.3
k = 300): each runs on every N in k … ``ALG71_SPAN``·k."""
ALG71_SPAN = 5
"""N up to 5k: the loop runs zero times (k ≤ N < 3k, both branches after it) and once
(3k ≤ N < 5k); further rounds repeat the first (each removes k records from both ends)."""


def alg71_cases() -> tuple[tuple[int, int], ...]:
    """The (N, k) pairs :func:`~privlab.proofs.tcloseness.checks.check_alg_7_1` runs."""
    small = [(n, k) for n in range(1, ALG71_N_MAX + 1) for k in range(1, n + 1)]
    large = [(n, k) for k in ALG71_LARGE_K for n in range(k, ALG71_SPAN * k + 1)]
    return (*small, *large)


ALG71_K_GRID = (*range(1, ALG71_N_MAX + 1), *ALG71_LARGE_K)
ALG71_N_GRID = tuple(sorted({n for n, _ in alg71_cases()}))

ALG71_OPT_K = (1, 2, 3, 4, 5, 11, 12, 15, 25, 30, 100, 300)
"""k of the optimality check: the thesis's registry of k, and ch.7's own 3 (Table 7.3) and 4
(Fig. 7.3, Table 7.5).  At each k ≥ 2 the instance is 0, 1, …, 2k − 1 and 25k² (k = 2: the
values 0, 1, 2, 3, 100)."""

# ---- §7.2.2 construction and l range ----------------------------------------------------------
SWEEP_TS: tuple[int | float, ...] = (1, 1.2, 1.5, 2, 2.5, 3, 4, 5)
"""t values of the §7.2.2 sweeps: the boundary t = 1 (1-closeness, named in §7.2.1), the
thesis's 1.5 (Fig. 7.5 / Table 7.5) and 2 (Figs 7.6–7.7), integers and halves up to 5."""
CONSTRUCTION_N_MAX = 60
L_RANGE_N_MAX = 80


def _exact_t(t: int | float) -> Fraction:
    """t as a Fraction, floats by their shortest repr (as
    :func:`privlab.mechanisms.tcloseness.counts.as_fraction_t`, without numpy)."""
    return Fraction(repr(t)) if isinstance(t, float) else Fraction(t)


def _n_buckets(t: int | float) -> int:
    """b = ⌈t⌉ + 1 (:func:`privlab.mechanisms.tcloseness.counts.n_buckets`)."""
    return math.ceil(_exact_t(t)) + 1


def construction_grid() -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(N grid, l grid) of the construction sweep: N = b² … 60 and l = 1 … ⌊N/b²⌋ for each t."""
    ns: set[int] = set()
    ls: set[int] = set()
    for t in SWEEP_TS:
        b = _n_buckets(t)
        for n in range(b * b, CONSTRUCTION_N_MAX + 1):
            ns.add(n)
            ls.update(range(1, n // (b * b) + 1))
    return tuple(sorted(ns)), tuple(sorted(ls))


def first_l_range_n(t: int | float) -> int:
    """⌈(t+1)²⌉: the least N with ⌊N/(t+1)²⌋ ≥ 1."""
    return math.ceil((_exact_t(t) + 1) ** 2)


def l_range_grid() -> tuple[int, ...]:
    """N grid of the l-range check: N = ⌈(t+1)²⌉ … 80 for each t of :data:`SWEEP_TS`."""
    return tuple(sorted({n for t in SWEEP_TS
                         for n in range(first_l_range_n(t), L_RANGE_N_MAX + 1)}))


# ---- §7.2.2 / ins15 §6.2 count rules ----------------------------------------------------------
COUNT_RULE_TS = (1, 2, 3, 4, 5)
"""t of the count-rule checks: integers, as the construction they belong to has t + 1 buckets
B_1 … B_{t+1} and completes a class from the t other buckets (thesis §7.2.2, ins15 §6.2);
the boundary t = 1 and the seeds' t = 2 (thesis Figs 7.6–7.7, ins15 §6.1)."""
COUNT_RULE_N_MAX = 120


def count_rule_cases() -> tuple[tuple[int, int, int], ...]:
    """(t, N, l) of the count-rule checks: every t of :data:`COUNT_RULE_TS`, every
    N = (t+1)² … 120 (the least N with an admissible l) and every l = 1 … ⌊N/(t+1)²⌋."""
    return tuple((t, n, c) for t in COUNT_RULE_TS
                 for n in range((t + 1) ** 2, COUNT_RULE_N_MAX + 1)
                 for c in range(1, n // (t + 1) ** 2 + 1))


def count_rule_grid() -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(N grid, l grid) of :func:`count_rule_cases`."""
    cases = count_rule_cases()
    return (tuple(sorted({n for _, n, _ in cases})), tuple(sorted({c for _, _, c in cases})))


# ---- §7.3 (t-closeness ⇒ DP) -----------------------------------------------------------------
SEC73_EPS = ("0", "1/100", "1/10", "1/2", "log(3/2)", "log(2)", "1", "log(3)", "log(5)", "2",
             "10")
"""ε of the §7.3 checks (t = e^ε): the boundary ε = 0 (1-closeness), the thesis's registry of ε
(0.01, 0.1, 0.5, ln 2, 1, 2, 10) and ln of the t values 1.5, 3, 5."""
SEC731_N = tuple(range(4, 61, 3))
"""Data-set sizes of the uninformed-intruder releases (N = 4, 7, …, 58)."""


def eps_exp(spec: str) -> Fraction | None:
    """e^ε exactly when it is rational (``"0"`` → 1, ``"log(q)"`` → q), else None."""
    if spec.startswith("log(") and spec.endswith(")"):
        return Fraction(spec[4:-1])
    return Fraction(1) if Fraction(spec) == 0 else None


def eps_float(spec: str) -> float:
    """The float of an ε written as in :data:`SEC73_EPS`."""
    if spec.startswith("log(") and spec.endswith(")"):
        return math.log(Fraction(spec[4:-1]))
    return float(Fraction(spec))


# ---- ins15 Propositions 1 and 3 ---------------------------------------------------------------
PROP1_CASES: tuple[tuple[int, int, str], ...] = (
    (10, 2, "log(2)"), (10, 2, "1"), (20, 5, "1/2"), (6, 3, "2"),
    (10, 1, "log(2)"), (10, 10, "log(2)"), (1, 1, "log(2)"), (10, 2, "0"))
"""(N, |E|, ε) of the Proposition 1 rows: the counterexample (e^ε = 2, N = 10, |E| = 2), three
other interior cases, and the boundary cases |E| = 1, |E| = N (one class), N = 1 and ε = 0
(randomized response only: Laplace and staircase need ε > 0)."""
PROP1_DERIVED_R = (Fraction(1), Fraction(11, 10), Fraction(3, 2), Fraction(2), Fraction(3),
                   Fraction(10), Fraction(100))
"""e^ε of the derived-bound check (randomized response with rational e^ε; ε = 0 at r = 1)."""
PROP1_DERIVED_N_MAX = 12
"""Every N = 1 … 12 and every class size |E| = 1 … N."""

PROP3_TS = (Fraction(1), Fraction(11, 10), Fraction(5, 4), Fraction(3, 2), Fraction(2),
            Fraction(3))
"""t = e^{ε/2} of the Proposition 3 check: the boundary t = 1 (ε = 0), ins15's example values
1.5 (§6, Fig. 2) and 2 (§6.1, Figs 3–4), and 11/10, 5/4, 3."""
PROP3_SIZES = (2, 3, 4, 5, 6)
"""Class sizes of the Proposition 3 family (one class, or two classes)."""
