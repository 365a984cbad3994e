"""Claim ledger of ins15 — "From t-closeness to differential privacy and vice versa".

Readings: §6.2's count rule is garbled in extraction ("at most ⌈e_i p_i t⌉ … at least
⌈e_i p_i t⌉ … complete with e_i − t⌈e_i p_i t⌉"); it is checked literally
(``ins15:sec-6.2-count-rule``) and the thesis's reading is checked under
``thesis:sec-7.2.2-count-rules``.  Checks: :mod:`privlab.proofs.tcloseness.checks`.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import TYPE_CHECKING

from privlab.proofs.lazyref import lazy_module
from privlab.proofs.setting import SUB, _p, _priv, _x
from privlab.proofs.tcloseness import grids as gr
from privlab.proofs.thesis.ch7 import COUNT_RULE_DOMAIN, COUNT_RULE_PARAMS
from privlab.proofs.thesis.ch7_mutants import _prop_10_one_sided
from privlab.types import Claim, Mutant, Param, Proof, Refutation

if TYPE_CHECKING:  # loaded on first call of a check (see privlab.proofs.lazyref)
    from privlab.proofs.tcloseness import checks as ck
    from privlab.proofs.tcloseness import tables as tb
else:
    ck = lazy_module("privlab.proofs.tcloseness.checks")
    tb = lazy_module("privlab.proofs.tcloseness.tables")

F = "002_06f1c381d8beeaa3.txt"

PROP1_EPS = tuple(sorted({gr.eps_float(s) for _, _, s in gr.PROP1_CASES}))
"""ε of the Proposition 1 rows (ins15 has no experiments, so no registry of ε)."""
DERIVED_EPS = tuple(math.log(r) for r in gr.PROP1_DERIVED_R)
DERIVED_SIZES = tuple(range(1, gr.PROP1_DERIVED_N_MAX + 1))

CLAIMS: tuple[Claim, ...] = (
    Claim(id="ins15:prop-1", source=f"{F} §4 Proposition 1",
          statement="If Z is ε-DP on the confidential attribute, X' is stochastically t-close "
                    "with t = max_E (|E|/N)(1 + (N − |E| − 1)e^ε/|E|).",
          check=ck.check_ins15_prop_1_printed,
          notes=("Refuted: randomized response on {0, 1} with e^ε = 2, N = 10, a class of "
                 "|E| = 2 records at 0 and the others at 1 has exact t = 9/5 > 8/5 (printed). "
                 "Laplace and staircase reach the same exact t (table ins15-prop1).  The "
                 "proof derives (|E| + (N − |E|)e^ε)/N and loses a record in its last line; "
                 "see ins15:prop-1-derived.",
                 "The printed t is below the exact t on every row of table ins15-prop1, the "
                 "boundary cases included: |E| = 1, |E| = N (one class: exact t = 1, printed "
                 "1 − e^ε/N), N = 1 and ε = 0 (randomized response)."),
          scope=_p(neighbour=SUB,
                   domain="(N, |E|, ε) ∈ {(10, 2, ln 2), (10, 2, 1), (20, 5, 0.5), (6, 3, 2), "
                          "(10, 1, ln 2), (10, 10, ln 2), (1, 1, ln 2), (10, 2, 0)}; "
                          "1 ≤ |E| ≤ N"),
          params=(Param(name="epsilon", lo=0, lo_closed=True, boundary=(0,), grid=PROP1_EPS),
                  Param(name="N", lo=1, lo_closed=True, integer=True, boundary=(1,),
                        grid=tuple(sorted({n for n, _, _ in gr.PROP1_CASES}))),
                  Param(name="|E|", lo=1, lo_closed=True, integer=True, boundary=(1,),
                        grid=tuple(sorted({e for _, e, _ in gr.PROP1_CASES})))),
          refutation=_priv("t = 9/5 instead of the printed 8/5", "e^ε = 2, N = 10, |E| = 2",
                           "not checked against the paper's experiments")),
    Claim(id="ins15:prop-1-derived", source=f"{F} §4 proof of Proposition 1",
          statement="t = max_E (|E| + (N − |E|)e^ε)/N bounds the exact stochastic t and is "
                    "attained.",
          check=ck.check_ins15_prop_1_derived,
          notes=("Randomized response, exact: attained on the extremal instance (the class at "
                 "one value, the rest at the other; one class when |E| = N) for every "
                 "e^ε ∈ {1, 11/10, 3/2, 2, 3, 10, 100}, N = 1 … 12 and |E| = 1 … N, and "
                 "never exceeded there nor on three random data sets per e^ε and N; the "
                 "tightest bound privlab can state.  Not proved for every mechanism "
                 "(confirmed).",),
          scope=_x(neighbour=SUB, reading="privlab's derived bound",
                   domain="randomized response, e^ε ∈ {1, 11/10, 3/2, 2, 3, 10, 100}, "
                          "1 ≤ |E| ≤ N ≤ 12"),
          params=(Param(name="epsilon", lo=0, lo_closed=True, boundary=(0,), grid=DERIVED_EPS),
                  Param(name="N", lo=1, lo_closed=True, integer=True, boundary=(1,),
                        grid=DERIVED_SIZES),
                  Param(name="|E|", lo=1, lo_closed=True, integer=True, boundary=(1,),
                        grid=DERIVED_SIZES)),
          mutants=(Mutant(kind="factor",
              description="the derived bound claimed 10 % smaller",
              check=lambda: ck.check_ins15_prop_1_derived(shrink=Fraction(9, 10))),)),
    Claim(id="ins15:prop-1-second-term",
          proof=Proof(kind="symbolic", argument=(
              "sympy factorises the difference of the two terms into a non-negative product")),
          source=f"{F} §4 proof of Proposition 1",
          statement="The second term (|E|/N)(1 + (N−|E|)e^ε/|E|) is always ≥ the first "
                    "(N/|E|)(1 + (N−|E|)e^{−ε}/|E|)^{−1}.",
          check=ck.check_ins15_second_term,
          notes=("sympy: product − 1 = x(1−x)(r−1)²/r ≥ 0 with x = |E|/N, r = e^ε.",),
          scope=_p(),
          mutants=(Mutant(kind="constant",
              description="product − 1 = x(1−x)(r−1)/r (sign-indefinite)",
              check=lambda: ck.check_ins15_second_term(exponent=1)),)),
    Claim(id="ins15:prop-2", source=f"{F} §5 Proposition 2",
          statement="For discrete laws the distance of Definition 4 is the maximum over "
                    "single values.",
          check=ck.check_prop_10_family,
          notes=("Same statement as thesis:prop-10; same brute-force check over all sets.",),
          scope=_p(domain="random pairs, support ≤ 7"),
          covers=("ins15:Definition 4",),
          mutants=(Mutant(kind="construction", description="d = max_i P1(x_i)/P2(x_i) (one-sided)",
                          check=_prop_10_one_sided),)),
    Claim(id="ins15:prop-3", source=f"{F} §5 Proposition 3",
          statement="Under t-closeness's assumptions, exp(ε/2)-closeness implies ε-DP of k_I "
                    "(both neighbour relations, uninformed intruder).",
          check=ck.check_ins15_prop_3,
          notes=("Judged on neighbouring data sets, as the statement quantifies: D1 and D2 "
                 "differ in one record of I's class, both are t-close with t = e^{ε/2}; I's "
                 "views (its class's distribution in D1 and in D2) can differ by more than t² "
                 "= e^ε because the proof's case (iv) uses one 'whole table' for both while "
                 "neighbours have different marginals.  For each t = e^{ε/2} of the grid, "
                 "exhaustive over one class or two classes of 2–6 records and a binary "
                 "attribute (exact Fractions): refuted at t = 1 (one class of 3 records, "
                 "ratio 2 > t² = 1), 11/10 and 5/4 (ratio 2 > 25/16).",
                 "At ins15's example values t = 1.5 and t = 2 (and t = 3) this family finds "
                 "no violation: with the partition fixed and one value flipped, a count c ≥ 1 "
                 "moves by one, so the view ratio never exceeds 2 ≤ t².",
                 "Comparing two classes of one release (the check used before) only restates "
                 "t-closeness: each class is t-close to the same marginal."),
          scope=_p(neighbour="both", release="set",
                   domain="t = e^{ε/2} ∈ {1, 11/10, 5/4, 3/2, 2, 3}; one class or two "
                          "classes of 2–6 records, binary attribute",
                   reading="case (iv): I in both data sets, one other record of I's class "
                           "substituted; 'the assumptions' = uninformed intruder whose prior "
                           "is each data set's released marginal"),
          params=(Param(name="t", lo=1, lo_closed=True, registry="t", boundary=(1,),
                        grid=gr.PROP3_TS),),
          refutation=Refutation(kind="privacy",
                                loss="ln 2 at t = 1 (ε = 0); ln 2 = 1.55·ε at t = 5/4",
                                weakest="one class of 3 records (t = 1); classes of 3 and 2 "
                                        "records (t = 5/4), binary attribute",
                                paper_parameters="not at ins15's example values t = 1.5, 2: "
                                                 "there the family's view ratio 2 ≤ t²"),
          mutants=()),
    Claim(id="ins15:sec-6.1-buckets", source=f"{F} §6.1",
          statement="t·b_i/N + (1/t)(1 − b_i/N) = 1 gives b_i = N/(t + 1).",
          check=ck.check_bucket_optimum,
          notes=("Same equation as thesis:sec-7.2.1-buckets with b = N/b_i.",),
          scope=_p(domain="t ≥ 1 (Definition 15's distance; §7.2.1 names 1-closeness)",
                   reading="'yields' read as: the equation determines b"),
          params=(Param(name="t", lo=1, lo_closed=True),),
          refutation=Refutation(kind="proof-gap"),
          mutants=(Mutant(kind="constant", description="b = t + 2 buckets",
                          check=lambda: ck.check_bucket_optimum(offset=2)),)),
    Claim(id="ins15:sec-6.3-bucket-sizes", source=f"{F} §6.3 step 3(a)",
          statement="Each bucket contains ⌈N/b⌉ values, some ⌈N/b⌉ + 1.",
          check=ck.check_ins15_bucket_sizes,
          notes=("Refuted as printed: N = 10, b = 3 would need ≥ 12 records.  Read ⌊N/b⌋; "
                 "privlab uses §6.2's boundaries ⌊jN/b + 0.5⌋ (sizes 3, 4, 3).",),
          scope=_p(),
          refutation=Refutation(kind="typo")),
    Claim(id="ins15:sec-6.2-count-rule", source=f"{F} §6.2 (last paragraph, as extracted)",
          statement="Select ⌈e_i p_i t⌉ records of every bucket j ≠ i and complete the class "
                    "with e_i − t⌈e_i p_i t⌉ records of B_i.",
          check=ck.check_ins15_count_rule_literal,
          notes=("Literally, over integer t = 1 … 5, N = (t+1)² … 120 and every l: at every "
                 "t ≥ 2 every case fails although a valid count matrix exists — with "
                 "p_i ≈ 1/(t + 1), t⌈e_i p_i t⌉ ≈ e_i t²/(t + 1) > e_i, so the own-bucket "
                 "count is negative "
                 "(first: N = 9, t = 2, l = 1: classes of 3, two records from each other "
                 "bucket and −1 of its own); at the boundary t = 1 it fails only where no "
                 "1-close partition with two buckets exists.  An extraction slip (p_j/t "
                 "intended); the thesis's reading is thesis:sec-7.2.2-count-rules.",),
          scope=_p(domain=COUNT_RULE_DOMAIN,
                   reading="as extracted, for the integer t its t + 1 buckets require; a case "
                           "fails when the counts are negative, leave [L, U] or miss the "
                           "bucket sizes"),
          params=COUNT_RULE_PARAMS,
          refutation=Refutation(kind="typo")),
    Claim(id="ins15:table-1",
          proof=Proof(kind="symbolic", argument=(
              "sympy in t, as thesis Table 7.6")),
          source=f"{F} §6.3 Table 1",
          statement="Table 1's masses are distributions with ratios t and 1/t to 1/(t+1).",
          check=ck.check_table_7_6, notes=("Same table as thesis Table 7.6.",),
          scope=_p(),
          mutants=(Mutant(kind="factor", description="masses 1/(t²(t+1)) off the emphasised bucket",
                          check=lambda: ck.check_table_7_6(other_power=2)),)),
)

# = the tables of tcloseness.tables.TABLES whose id starts with "ins15"
TABLES = {"ins15-1": tb.table_ins15_1, "ins15-prop1": tb.table_prop1}
