"""Claim ledger of thesis ch.7 — t-closeness by bucketization and its link to ε-DP.

Readings of the extracted text (formulas garbled by extraction):

* §7.2.2 count rule: "(i) at most ⌊k_i p_i t⌋ records must have B_i … (ii) at least
  ⌈k_i p_j/t⌉ records must have B_j … complete the partition set with k_i − t⌈k_i p_j/t⌉
  records with B_i" — with b = t + 1 buckets there are t other buckets, so the completion is
  k_i − Σ_{j≠i}⌈k_i p_j/t⌉.
* Table 7.6 cells "t/t+1", "1/t(t+1)" are read as t/(t+1) and 1/(t(t+1)).
* t-closeness is read as d ≤ t (Table 7.6 attains the factor t exactly).

Checks in :mod:`privlab.proofs.tcloseness.checks`, tables in
:mod:`privlab.proofs.tcloseness.tables`; the construction is
:mod:`privlab.mechanisms.tcloseness.bucketization`.  The grids of the quantified parameters
(``params=``) are the tuples of :mod:`privlab.proofs.tcloseness.grids` the checks iterate over.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

from privlab.proofs.lazyref import lazy_module
from privlab.proofs.setting import AR, SUB, _p, _priv, _x
from privlab.proofs.tcloseness import grids as gr
from privlab.proofs.thesis.ch7_mutants import _one_sided, _prop_10_one_sided
from privlab.types import Claim, Mutant, Param, Proof, Refutation

if TYPE_CHECKING:  # loaded on first call of a check (see privlab.proofs.lazyref)
    from privlab.proofs.tcloseness import checks as ck
    from privlab.proofs.tcloseness import tables as tb
else:
    ck = lazy_module("privlab.proofs.tcloseness.checks")
    tb = lazy_module("privlab.proofs.tcloseness.tables")

F = "000_65177858bc9aa63c.txt"

K_ALG71 = Param(name="k", lo=1, lo_closed=True, integer=True, registry="k", boundary=(1,),
                grid=gr.ALG71_K_GRID)
"""k of Algorithm 7.1: every k ≤ 60 and the thesis's k = 100, 300 (k = 1: singletons)."""
N_ALG71 = Param(name="N", lo=1, lo_closed=True, integer=True, boundary=(1,),
                grid=gr.ALG71_N_GRID)
T_SWEEP = Param(name="t", lo=1, lo_closed=True, registry="t", boundary=(1,), grid=gr.SWEEP_TS)
"""t of the §7.2.2 sweeps: t ≥ 1 (Definition 15's distance; §7.2.1 names 1-closeness)."""
CONSTRUCTION_N, CONSTRUCTION_L = gr.construction_grid()
COUNT_RULE_N, COUNT_RULE_L = gr.count_rule_grid()
COUNT_RULE_PARAMS = (
    Param(name="t", lo=1, lo_closed=True, integer=True, registry="t", boundary=(1,),
          grid=gr.COUNT_RULE_TS),
    Param(name="N", lo=4, lo_closed=True, integer=True, boundary=(4,), grid=COUNT_RULE_N),
    Param(name="l", lo=1, lo_closed=True, integer=True, boundary=(1,), grid=COUNT_RULE_L))
"""t, N, l of the count rules (thesis §7.2.2, ins15 §6.2): integer t ≥ 1 — the construction
has t + 1 buckets B_1 … B_{t+1} and completes a class from the t other buckets —, N ≥ (t+1)²
(the least N with an admissible l; 4 at t = 1) and l = 1 … ⌊N/(t+1)²⌋; the grids are
:func:`privlab.proofs.tcloseness.grids.count_rule_cases`'s."""
COUNT_RULE_DOMAIN = ("integer t ∈ {1, 2, 3, 4, 5} (b = t + 1 buckets), N = (t+1)² … 120, "
                     "every l = 1 … ⌊N/(t+1)²⌋")
EPS_73 = Param(name="epsilon", lo=0, lo_closed=True, registry="epsilon", boundary=(0,),
               grid=tuple(gr.eps_float(e) for e in gr.SEC73_EPS))
"""ε of §7.3 (t = e^ε ≥ 1): the boundary ε = 0 is 1-closeness."""

CLAIMS: tuple[Claim, ...] = (
    Claim(id="thesis:alg-7.1", source=f"{F} §7.1.1 Algorithm 7.1",
          statement="Algorithm 7.1 partitions D into classes of at least k records taken "
                    "contiguously in the order of C.",
          check=ck.check_alg_7_1,
          notes=("Exhaustive over N ≤ 60 with every k ≤ N, and N = k … 5k for the thesis's "
                 "k = 100 and 300 (zero and one round of the loop, both branches after it): "
                 "sizes always lie in [k, 2k − 1] (after the loop k ≤ |O| < 3k).",),
          bounded=True,
          scope=_p(domain="1 ≤ k ≤ N: every N ≤ 60; N = k … 5k for k ∈ {100, 300}"),
          params=(K_ALG71, N_ALG71),
          mutants=(Mutant(kind="constant",
                          description="Algorithm 7.1 classes claimed ≤ 2k − 2 records",
                          check=lambda: ck.check_alg_7_1(max_offset=2)),)),
    Claim(id="thesis:alg-7.1-optimal", source=f"{F} §7.1.1 Algorithm 7.1 ('Optimal "
          "partitioning')", statement="Algorithm 7.1's partition minimises the variability "
          "(within-class SSE) of C among partitions into classes of ≥ k records.",
          check=ck.check_alg_7_1_optimal,
          notes=("Refuted for the SSE reading: values (0, 1, 2, 3, 100), k = 2 — Algorithm 7.1 "
                 "gives {0,1},{2,3,100} (SSE 6338.5), the optimum {0,1,2},{3,100} has SSE "
                 "4706.5 (exact dynamic programme over contiguous classes of k … 2k−1).  The "
                 "algorithm fixes every class but the last at exactly k records.",
                 "The same instance scaled (0, 1, …, 2k − 1 and 25k²) refutes it at every "
                 "k ≥ 2 of the grid (the thesis's k = 2 … 300, ch.7's 3 and 4); at k = 1 the "
                 "algorithm's singletons have SSE 0, the least possible."),
          scope=_p(domain="N = 2k + 1 (0, 1, …, 2k − 1 and 25k²) for each k of the grid",
                   reading="'optimal partitioning' = minimum within-class SSE"),
          params=(Param(name="k", lo=1, lo_closed=True, integer=True, registry="k",
                        boundary=(1,), grid=gr.ALG71_OPT_K),),
          refutation=Refutation(kind="false-statement")),
    Claim(id="thesis:def-15", source=f"{F} §7.2 Definition 15",
          statement="d(D1, D2) = max_S max{P1(S)/P2(S), P2(S)/P1(S)} with 0/0 = 0, x/0 = ∞.",
          check=ck.check_def_15,
          notes=("A definition; checked consequences on 300 random rational pairs: symmetric, "
                 "≥ 1, = 1 iff equal laws, ∞ iff the supports differ.",),
          scope=_p(domain="300 random rational pairs"),
          covers=("ins15:Definition 4",),
          mutants=(Mutant(kind="construction",
                          description="one-sided max P1(S)/P2(S) claimed a symmetric "
                          "distance", check=lambda: ck.check_def_15(dist=_one_sided)),)),
    Claim(id="thesis:prop-10", source=f"{F} §7.2 Proposition 10",
          statement="For discrete laws, d(D1, D2) = max_i max{P1(x_i)/P2(x_i), P2(x_i)/P1(x_i)}.",
          check=ck.check_prop_10_family,
          notes=("Brute-force maximum over all 2^m sets S (m ≤ 7, zeros included) equals the "
                 "singleton maximum on 400 random pairs (exact Fractions).  Proof sketch: the "
                 "mediant inequality Σa_i/Σc_i ≤ max a_i/c_i; not machine-proved in general.",),
          scope=_p(domain="400 random pairs, support ≤ 7"),
          mutants=(Mutant(kind="construction", description="d = max_i P1(x_i)/P2(x_i) (one-sided)",
                          check=_prop_10_one_sided),)),
    Claim(id="thesis:sec-7.2.1-buckets", source=f"{F} §7.2.1",
          statement="t·(1/b) + (1/t)(1 − 1/b) = 1 yields b = t + 1 buckets.",
          check=ck.check_bucket_optimum,
          notes=("sympy; t = 1 leaves b free.  Also factored: a class emphasising one bucket "
                 "by t leaves ratio (b−t)/(b−1) ≥ 1/t to the others iff (t−1)(b−t−1) ≥ 0, so "
                 "privlab uses b = ⌈t⌉ + 1 for real t (1.5 → 3 buckets, as in Fig. 7.5).",),
          scope=_p(domain="t ≥ 1 (Definition 15's distance; §7.2.1 names 1-closeness)",
                   reading="'yields' read as: the equation determines b"),
          params=(Param(name="t", lo=1, lo_closed=True),),
          refutation=Refutation(kind="proof-gap"),
          mutants=(Mutant(kind="constant", description="b = t + 2 buckets",
                          check=lambda: ck.check_bucket_optimum(offset=2)),)),
    Claim(id="thesis:table-7.6",
          proof=Proof(kind="symbolic", argument=(
              "sympy in t: each row sums to one and its ratios to the uniform row are t and "
              "1/t")),
          source=f"{F} §7.2.2 Table 7.6",
          statement="The class masses t/(t+1) on the emphasised bucket and 1/(t(t+1)) on the "
                    "others are distributions at distance exactly t from the uniform 1/(t+1).",
          check=ck.check_table_7_6,
          notes=("sympy in t; table thesis-7.6 shows the construction reaching them exactly on "
                 "N = 2t(t+1)² records.",),
          scope=_p(),
          mutants=(Mutant(kind="factor", description="masses 1/(t²(t+1)) off the emphasised bucket",
                          check=lambda: ck.check_table_7_6(other_power=2)),)),
    Claim(id="thesis:sec-7.2.2-count-rules", source=f"{F} §7.2.2 (last paragraph)",
          statement="Taking ⌈k_i p_j/t⌉ records of each bucket j ≠ i and completing class i "
                    "with bucket B_i gives a t-close partition for every N, t and l.",
          check=ck.check_printed_rules, slow=True,
          notes=("Refuted: over integer t = 1 … 5, N = (t+1)² … 120 and every l, most cases "
                 "fail.  At every t ≥ 2 of the grid the rule fails where a valid count matrix "
                 "exists, usually because the column sums miss the bucket sizes (first: "
                 "N = 10, t = 2, l = 1: counts per bucket (4, 3, 3) against sizes (3, 4, 3)); "
                 "at the boundary t = 1 it fails only where no 1-close partition with two "
                 "buckets exists.  Non-integer t (privlab's b = ⌈t⌉ + 1, e.g. Table 7.5's "
                 "t = 1.5) is outside the construction's t + 1 buckets and shown only in "
                 "table thesis-7.2.2-rounding.  privlab solves the exact integer problem "
                 "instead.",),
          scope=_p(release="set", domain=COUNT_RULE_DOMAIN,
                   reading="the printed count rule, for the integer t its t + 1 buckets "
                           "B_1 … B_{t+1} require; a case fails when the counts are "
                           "negative, leave [L, U] or miss the bucket sizes"),
          params=COUNT_RULE_PARAMS,
          refutation=Refutation(kind="false-statement")),
    Claim(id="thesis:sec-7.2.2-construction", source=f"{F} §7.2.2",
          statement="privlab's repaired bucketization construction (§7.2.2's buckets and "
                    "classes; the printed counts when they add up, else the exact integer "
                    "solution) produces a k-anonymous t-close data set whenever one exists.",
          check=ck.check_construction,
          notes=("privlab's construction (printed counts when they add up, else the exact "
                 "integer solution; fewer buckets when b = ⌈t⌉ + 1 admits none): every "
                 "release over N = b² … 60, t ∈ {1, 1.2, 1.5, 2, 2.5, 3, 4, 5}, all l "
                 "verified exactly t-close and k-anonymous; every refusal confirmed infeasible "
                 "by max-flow for each b.",),
          scope=_x(release="set", reading="privlab's repaired "
                   "construction (printed counts when they add up, else "
                   "the exact integer solution); 'whenever one exists': whenever a partition "
                   "with §7.2.2's buckets (or fewer) and l classes exists — not any t-close "
                   "partition (one class of all N records is always 1-close); the printed rule "
                   "is thesis:sec-7.2.2-count-rules",
                   domain="t ∈ {1, 1.2, 1.5, 2, 2.5, 3, 4, 5}, N = b² … 60, l = 1 … ⌊N/b²⌋"),
          params=(T_SWEEP,
                  Param(name="N", lo=4, lo_closed=True, integer=True, boundary=(4,),
                        grid=CONSTRUCTION_N),
                  Param(name="l", lo=1, lo_closed=True, integer=True, boundary=(1,),
                        grid=CONSTRUCTION_L)),
          covers=("thesis:Table 7.5",),
          mutants=(Mutant(kind="constant",
              description="the construction's releases claimed (t − 1/10)-close",
              check=lambda: ck.check_construction(t_shrink=0.1)),)),
    Claim(id="thesis:sec-7.2.2-l-range", source=f"{F} §7.2.2",
          statement="l ranges over 1 … ⌊N/(t+1)²⌋ (from k ≥ t + 1).",
          check=ck.check_l_range,
          notes=("Necessity checked exactly: for l = ⌊N/(t+1)²⌋ + 1 no partition into b·l "
                 "t-close classes exists (max-flow), N = ⌈(t+1)²⌉ … 80, t ∈ {1, 1.2, 1.5, 2, "
                 "2.5, 3, 4, 5}.",),
          scope=_p(domain="N = ⌈(t+1)²⌉ … 80, t ∈ {1, 1.2, 1.5, 2, 2.5, 3, 4, 5}",
                   reading="'ranges over' checked as: the upper end is necessary (l = "
                           "⌊N/(t+1)²⌋ + 1 admits no partition); b = t + 1 buckets for integer "
                           "t, b = ⌈t⌉ + 1 otherwise (Table 7.5: t = 1.5, three buckets)"),
          params=(T_SWEEP,
                  Param(name="N", lo=4, lo_closed=True, integer=True, boundary=(4,),
                        grid=gr.l_range_grid())),
          mutants=(Mutant(kind="constant",
              description="l = ⌊N/(t+1)²⌋ (not + 1) claimed infeasible",
              check=lambda: ck.check_l_range(offset=0)),)),
    Claim(id="thesis:sec-7.3.1", source=f"{F} §7.3.1 (uninformed intruder, add/remove)",
          statement="For an uninformed intruder, exp(ε)-closeness implies ε-DP: I's posterior "
                    "(the class distribution) differs from the prior by at most e^ε.",
          check=ck.check_uninformed_add_remove,
          notes=("The case I ∈ D vs I ∉ D with the prior fixed (the marginal): posterior/prior "
                 "≤ e^ε exactly on releases built at a rational t ≤ e^ε (N = 4, 7, …, 58; the "
                 "most buckets that admit a partition) for every ε of the grid — a "
                 "restatement of t-closeness.",),
          scope=_p(neighbour=AR, release="set",
                   domain="ε ∈ {0, 0.01, 0.1, 0.5, ln 1.5, ln 2, 1, ln 3, ln 5, 2, 10}",
                   reading="I ∈ D vs I ∉ D; the prior is the released marginal of the whole "
                           "D (which contains I), the posterior I's class distribution"),
          params=(EPS_73,),
          premise_implies=("posterior/prior ≤ t is Definition 15's distance between I's class "
                           "and the released marginal, which the releases are built to keep "
                           "≤ t: the check restates t-closeness"),
          mutants=(Mutant(kind="factor",
              description="posterior/prior claimed ≤ t/2 (not t)",
              check=lambda: ck.check_uninformed_add_remove(shrink=Fraction(1, 2))),)),
    Claim(id="thesis:sec-7.3.1-add-remove", source=f"{F} §7.3.1 (add/remove, each data set's "
          "own release)",
          statement="For an uninformed intruder, exp(ε)-closeness implies ε-DP under add/remove: "
                    "I's view when I ∈ D (its class distribution) and when I ∉ D (the marginal "
                    "the data set without I releases) differ by at most e^ε.",
          check=ck.check_add_remove_views,
          notes=("thesis:sec-7.3.1 compares I's class with the marginal of the same D, which "
                 "contains I — a restatement of t-closeness.  Here the absent case is the "
                 "neighbouring data set D ∖ {I}, whose release shows the marginal without I: "
                 "removing I moves the marginal, and the ratio exceeds t.  Exhaustive over two "
                 "classes of 2–6 records and a binary attribute, every record as I (exact "
                 "Fractions); the referee finds 11/6 > t = 3/2 on the thesis's Table 7.5.",),
          scope=_p(neighbour=AR, release="set",
                   reading="I ∈ D vs I ∉ D, each data set's own release as the intruder's view "
                           "(the marginal of D ∖ {I} when I is absent)"),
          params=(Param(name="t", lo=1, lo_closed=True, boundary=(1,)),),
          refutation=Refutation(kind="privacy", loss="ln(11/6) at t = 1; ln 2 at t = 11/10",
                                weakest="two classes of 6 records, one value a in each",
                                paper_parameters="Table 7.5 (t = 1.5): 11/6 > 1.5"),
          mutants=()),
    Claim(id="thesis:sec-7.3-substitute", source=f"{F} §7.3 (neighbours by substitution)",
          statement="exp(ε)-closeness implies ε-DP also when both neighbouring data sets "
                    "contain I (substitution).",
          check=ck.check_substitute_thesis,
          notes=("Refuted: I's views in two t-close releases can be two classes E1, E2 with "
                 "Q_E1(B1)/Q_E2(B1) = t² (Table 7.6, and the construction on N = 36, t = 2 "
                 "reaches 4).  This is ins15's case (iv), which is why ins15 Proposition 3 "
                 "asks exp(ε/2)-closeness.",
                 "Every ε > 0 of the grid (the thesis's 0.01 … 10) has an exact witness: two "
                 "classes of m records with c and m − c of one value, marginal (½, ½), "
                 "t = m/(2(m − c)) ≤ e^ε and Q_E1/Q_E2 = c/(m − c) > e^ε, the smallest such m "
                 "found exactly.  At ε = 0 it holds: 1-closeness makes every class equal to "
                 "the marginal."),
          scope=_x(neighbour=SUB, release="set",
                   domain="ε ∈ {0, 0.01, 0.1, 0.5, ln 1.5, ln 2, 1, ln 3, ln 5, 2, 10}",
                   reading="thesis §7.3 compares posterior and marginal prior; "
                   "two neighbouring releases both containing I is the lab's "
                   "question (ins15 case iv)"),
          params=(EPS_73,),
          refutation=_priv("2ε (ratio t² = e^{2ε})", "N = 36, t = 2",
                           "extension only (ins15 Prop. 3 asks exp(ε/2))")),
    Claim(id="thesis:sec-7.3.2",
          proof=Proof(kind="exact-decision", argument=(
              "an existential statement, proved by an exact witness: the k − 1 known values "
              "pin I's bucket, the knowledge gain is infinite")),
          source=f"{F} §7.3.2 (informed intruder)",
          statement="For an intruder knowing k−1 values of I's class, t-closeness does not "
                    "imply DP (infinite knowledge gain).",
          check=ck.check_informed_intruder,
          notes=("Exact on a constructed Anatomy release (N = 24, t = 2, l = 2): the class "
                 "multiset minus the k−1 known values is I's value; the posterior point mass "
                 "is at distance ∞ from the prior.  Hiding the classes (permuted form) only "
                 "helps if the class assignment is not a public function of the QIs — "
                 "privlab's QI-ordered assignment is; not machine-checked.",),
          scope=_p(release="set", reading="informed intruder knowing k − 1 values"),
          mutants=(Mutant(kind="constant",
              description="an intruder knowing k − 2 values claimed to pin I's value",
              check=lambda: ck.check_informed_intruder(unknown=2)),)),
)

# = the tables of tcloseness.tables.TABLES whose id does not start with "ins15"
TABLES = {"thesis-7.5": tb.table_thesis_7_5, "thesis-7.6": tb.table_thesis_7_6,
          "thesis-7.2.2-rounding": tb.table_rounding, "tcloseness-utility": tb.table_utility}
