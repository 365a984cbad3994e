"""Claim ledger of ins15 — "From t-closeness to differential privacy and vice versa".

Readings: §6.2's count rule is garbled in extraction ("at most ⌈e_i p_i t⌉ … at least
⌈e_i p_i t⌉ … complete with e_i − t⌈e_i p_i t⌉"); it is checked literally
(``ins15:sec-6.2-count-rule``) and the thesis's reading is checked under
``thesis:sec-7.2.2-count-rules``.  Checks: :mod:`privlab.proofs.tcloseness.checks`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from privlab.proofs.lazyref import lazy_module
from privlab.types import Claim

if TYPE_CHECKING:  # loaded on first call of a check (see privlab.proofs.lazyref)
    from privlab.proofs.tcloseness import checks as ck
    from privlab.proofs.tcloseness import tables as tb
else:
    ck = lazy_module("privlab.proofs.tcloseness.checks")
    tb = lazy_module("privlab.proofs.tcloseness.tables")

F = "002_06f1c381d8beeaa3.txt"

CLAIMS: tuple[Claim, ...] = (
    Claim(id="ins15:prop-1", source=f"{F} §4 Proposition 1",
          statement="If Z is ε-DP on the confidential attribute, X' is stochastically t-close "
                    "with t = max_E (|E|/N)(1 + (N − |E| − 1)e^ε/|E|).",
          check=ck.check_ins15_prop_1_printed,
          notes=("Refuted: randomized response on {0, 1} with e^ε = 2, N = 10, a class of "
                 "|E| = 2 records at 0 and the others at 1 has exact t = 9/5 > 8/5 (printed). "
                 "Laplace and staircase reach the same exact t (table ins15-prop1).  The "
                 "proof derives (|E| + (N − |E|)e^ε)/N and loses a record in its last line; "
                 "see ins15:prop-1-derived.",)),
    Claim(id="ins15:prop-1-derived", source=f"{F} §4 proof of Proposition 1",
          statement="t = max_E (|E| + (N − |E|)e^ε)/N bounds the exact stochastic t and is "
                    "attained.",
          check=ck.check_ins15_prop_1_derived,
          notes=("Exact on 300 random randomized-response instances (ratio ≤ 1) and attained "
                 "by the extremal instance; the tightest bound privlab can state.  Not "
                 "proved for every mechanism (confirmed).",)),
    Claim(id="ins15:prop-1-second-term", source=f"{F} §4 proof of Proposition 1",
          statement="The second term (|E|/N)(1 + (N−|E|)e^ε/|E|) is always ≥ the first "
                    "(N/|E|)(1 + (N−|E|)e^{−ε}/|E|)^{−1}.",
          check=ck.check_ins15_second_term,
          notes=("sympy: product − 1 = x(1−x)(r−1)²/r ≥ 0 with x = |E|/N, r = e^ε.",)),
    Claim(id="ins15:prop-2", source=f"{F} §5 Proposition 2",
          statement="For discrete laws the distance of Definition 4 is the maximum over "
                    "single values.",
          check=ck.check_prop_10_family,
          notes=("Same statement as thesis:prop-10; same brute-force check over all sets.",)),
    Claim(id="ins15:prop-3", source=f"{F} §5 Proposition 3",
          statement="Under t-closeness's assumptions, exp(ε/2)-closeness implies ε-DP of k_I "
                    "(both neighbour relations, uninformed intruder).",
          check=ck.check_ins15_prop_3,
          notes=("Case (iv): Q1/Q2 ≤ t² on every constructed release (t ∈ {2, 3, 4}, "
                 "N ≤ 60, exact), each release checked t-close; t² is attained by Table 1 (E1 "
                 "vs E2 on B1).  The factor ε/2 is therefore exactly what case (iv) needs.  The "
                 "chain identity (Q1/P)(P/Q2) = Q1/Q2 is a tautology and no longer counts as "
                 "evidence (issue 14): bounded, confirmed.",),
          bounded=True),
    Claim(id="ins15:sec-6.1-buckets", source=f"{F} §6.1",
          statement="t·b_i/N + (1/t)(1 − b_i/N) = 1 gives b_i = N/(t + 1).",
          check=ck.check_bucket_optimum,
          notes=("Same equation as thesis:sec-7.2.1-buckets with b = N/b_i.",)),
    Claim(id="ins15:sec-6.3-bucket-sizes", source=f"{F} §6.3 step 3(a)",
          statement="Each bucket contains ⌈N/b⌉ values, some ⌈N/b⌉ + 1.",
          check=ck.check_ins15_bucket_sizes,
          notes=("Refuted as printed: N = 10, b = 3 would need ≥ 12 records.  Read ⌊N/b⌋; "
                 "privlab uses §6.2's boundaries ⌊jN/b + 0.5⌋ (sizes 3, 4, 3).",)),
    Claim(id="ins15:sec-6.2-count-rule", source=f"{F} §6.2 (last paragraph, as extracted)",
          statement="Select ⌈e_i p_i t⌉ records of every bucket j ≠ i and complete the class "
                    "with e_i − t⌈e_i p_i t⌉ records of B_i.",
          check=ck.check_ins15_count_rule_literal,
          notes=("Literally: N = 12, t = 2, e_i = 4, p = 1/3 → 3 records from each of the two "
                 "other buckets and −2 of its own.  An extraction slip (p_j/t intended); the "
                 "thesis's reading is thesis:sec-7.2.2-count-rules.",)),
    Claim(id="ins15:table-1", source=f"{F} §6.3 Table 1",
          statement="Table 1's masses are distributions with ratios t and 1/t to 1/(t+1).",
          check=ck.check_table_7_6, notes=("Same table as thesis Table 7.6.",)),
)

# = the tables of tcloseness.tables.TABLES whose id starts with "ins15"
TABLES = {"ins15-1": tb.table_ins15_1, "ins15-prop1": tb.table_prop1}
