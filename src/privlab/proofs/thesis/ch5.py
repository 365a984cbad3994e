"""Claim ledger of thesis ch.5 — knowledge refinement (§5.1–5.5, Algorithm 5.1, Protocols 1–2).

Findings (details in each claim's evidence):

* The masses of U_u and U_d follow from (5.2): P_f(U_u) = (1 − α_d)/(α_u − α_d).  The text prints
  them swapped (§5.2, Algorithm 5.1 a–b, §5.5.2); its Table 5.5 uses the derived ones.
* Algorithm 5.1 step iv divides by 1 − p_u − p_d = 0; with the evident correction
  (normalise the middle set by its own mass) the algorithm conserves mass and keeps every factor
  in [α_d, α_u], which gives Propositions 2–3.
* Proposition 3 (individual factors e^{±ε}) holds under add/remove-one (the thesis's
  Definition 3) and fails under substitution (ratio e^{2ε}).
* The (ε, δ) sketches of §5.2 under-count δ: moving δ (individual) needs δe^ε; δ′ = δ/2
  (statistical) needs δ(1 + e^ε)/2.  δe^{−ε} and δ/(1 + e^ε) are exact.
* Table 5.5's Laplace P(K ∈ [0, 1]) column is wrong (ε = 1 prints P(K ∉ [0, 1])); §5.5.1 has
  two arithmetic slips in the last digits.
"""

from __future__ import annotations

import copy
import functools
import random
from fractions import Fraction as Fr
from typing import TYPE_CHECKING, Any

from privlab.proofs.lazyref import lazy_module
from privlab.proofs.setting import AR, SUB, _p, _priv, _x
from privlab.proofs.thesis.ch5_mutants import _broken_factors, _products_broken
from privlab.types import CheckResult, Claim, Conjunct, Method, Mutant, Proof, Refutation

if TYPE_CHECKING:  # loaded on first call of a check (see privlab.proofs.lazyref)
    from privlab.proofs.thesis import ch5_checks as ck
    from privlab.proofs.thesis import ch5_products as pr
    from privlab.proofs.thesis import ch5_tables as tb
else:
    ck = lazy_module("privlab.proofs.thesis.ch5_checks")
    pr = lazy_module("privlab.proofs.thesis.ch5_products")
    tb = lazy_module("privlab.proofs.thesis.ch5_tables")

F = "000_65177858bc9aa63c.txt"


def _run_session(kind: str, rnd: random.Random, budget: float) -> dict[str, Any]:
    from privlab.errors import BudgetExceeded
    from privlab.mechanisms.refinement.interactive import (
        LaplaceSession,
        RefinementSession,
        dec,
    )
    from privlab.mechanisms.refinement.priors import DiscretePrior
    from privlab.mechanisms.refinement.queries import Dataset, IndividualQuery, count_query

    data = Dataset(records={i: rnd.randint(0, 1) for i in range(6)})
    acc = rnd.choice(("sum", "per-individual"))
    s: Any = (RefinementSession(data=data, budget=budget, accounting=acc, rng=rnd.getrandbits(32))
              if kind == "refinement" else
              LaplaceSession(data=data, budget=budget, accounting=acc, rng=rnd.getrandbits(32),
                             scale=rnd.choice((0.5, 1.0, 2.0))))
    refused = answered_after_refusal = 0
    prior = DiscretePrior.uniform([0, 1])
    for _ in range(rnd.randint(1, 25)):
        q = (IndividualQuery(individual=rnd.randrange(8), sensitivity=1.0)
             if rnd.random() < 0.7 else count_query(1))
        try:
            if kind == "refinement":
                s.ask(q, prior if q.kind == "individual" else DiscretePrior.uniform(range(7)),
                      rnd.choice((0.05, 0.1, 0.25, 0.3, budget / 3)), "absolute")
            else:
                s.ask(q, scale=rnd.choice((None, 1.0, 4.0)))
            answered_after_refusal += refused > 0
        except BudgetExceeded:
            refused += 1
    return {"spent": s.spent, "budget": dec(budget), "refused": refused,
            "answered_after_refusal": answered_after_refusal,
            "prop4": s.proposition_4_holds, "answered": len(s.history)}


@functools.cache
def _sessions_memo(kind: str, trials: int) -> tuple[tuple[tuple[str, Any], ...], ...]:
    """The ``trials`` random sessions of :func:`check_protocol` (seeded: 7 refinement, 8
    Laplace), as frozen tuples: a pure function of (kind, trials), shared by the claim and
    its mutant (which only changes the threshold)."""
    rnd = random.Random(7 if kind == "refinement" else 8)
    return tuple(tuple(_run_session(kind, rnd, rnd.choice((0.3, 0.5, 1.0, 2.0))).items())
                 for _ in range(trials))


def _sessions(kind: str, trials: int) -> list[dict[str, Any]]:
    """:func:`_sessions_memo` as new dicts (their values are numbers and bools)."""
    return [dict(r) for r in _sessions_memo(kind, trials)]


def check_protocol(kind: str, trials: int = 300, *, claimed_fraction: str = "1") -> CheckResult:
    """privlab's session on random adversarial query sequences never spends more than
    ``claimed_fraction`` × its budget (the statement: 1; a smaller fraction is a mutant) and
    answers nothing after a refusal."""
    from privlab.mechanisms.refinement.interactive import dec

    bad, stats = [], {"answered": 0, "refused": 0, "prop4_condition_held": 0}
    for r in _sessions(kind, trials):
        stats["answered"] += r["answered"]
        stats["refused"] += r["refused"]
        stats["prop4_condition_held"] += r["prop4"]
        if r["spent"] > r["budget"] * dec(claimed_fraction) or r["answered_after_refusal"]:
            bad.append({k: str(x) for k, x in r.items()})
    return CheckResult(holds=not bad, claim=f"{kind} session never answers past its budget",
                       value=len(bad), method=Method.PROPERTY,
                       evidence={"random_adversarial_sessions": trials, **stats},
                       counterexample=bad[:3] or None)


def check_modified_condition(*, fewer: bool = True) -> CheckResult:
    """§5.4.1: with equal λ the per-query condition Σ Δ(f_j)/λ ≤ ε may answer fewer queries
    than Protocol 1's Δ(f_1..f_i)/λ ≤ ε (disjoint individual queries, Δ = 1, λ = 1, ε = 2)."""
    from privlab.errors import BudgetExceeded
    from privlab.mechanisms.refinement.interactive import LaplaceSession
    from privlab.mechanisms.refinement.queries import Dataset, IndividualQuery

    data = Dataset(records={i: 0 for i in range(10)})
    counts = {}
    for acc in ("per-individual", "sum"):
        s = LaplaceSession(data=data, budget=2.0, scale=1.0, accounting=acc, rng=0)
        for i in range(10):
            try:
                s.ask(IndividualQuery(individual=i, sensitivity=1.0))
            except BudgetExceeded:
                break
        counts[acc] = len(s.history)
    holds = (counts["sum"] < counts["per-individual"]) if fewer else (  # False: a mutant
        counts["sum"] > counts["per-individual"])
    return CheckResult(holds=holds, claim="the modified condition may answer fewer queries",
                       value=counts, method=Method.EXACT,
                       evidence={"answered_protocol_1_joint_sensitivity": counts["per-individual"],
                                 "answered_modified_sum_condition": counts["sum"]},
                       counterexample=None if holds else counts)


@functools.cache
def _cor_2_runs_memo() -> tuple[dict[str, Any], ...]:
    """The 18 adaptive attacks of :func:`check_cor_2` (exact, deterministic): a pure function,
    shared by the claim and its mutant.  Never handed out: :func:`check_cor_2` deep-copies."""
    from privlab.audit.refinement_attack import worst_log_ratio

    return tuple(worst_log_ratio(budget=b, rounds=k, prior=q)
                 for b in (0.5, 1.0) for k in (1, 3, 6) for q in (0.05, 0.3, 0.7))


def check_cor_2(*, claimed: float = 1.0) -> CheckResult:
    """Adaptive Bayesian attacks; ``claimed`` < 1 (a mutant) asks for (claimed·ε)-DP."""
    runs = copy.deepcopy(list(_cor_2_runs_memo()))  # callers get their own dicts
    bad = [r for r in runs if r["worst_log_ratio"] > claimed * r["budget"] + 1e-9]
    return CheckResult(holds=not bad, claim="the adaptive adversary's estimate is ε-DP",
                       value=max(r["worst_log_ratio"] / r["budget"] for r in runs),
                       method=Method.PROPERTY,
                       evidence={"attacks": len(runs), "max_loss_over_budget":
                                 max(r["worst_log_ratio"] / r["budget"] for r in runs),
                                 "runs": runs[:4]},
                       counterexample=bad[:2] or None)


CLAIMS: tuple[Claim, ...] = (
    Claim(id="thesis:sec-5.2-masses", source=f"{F} §5.2 (after (5.2)), Algorithm 5.1 a–b, §5.5.2",
          statement="P_f(U_u) = (α_u − 1)/(α_u − α_d) and P_f(U_d) = (1 − α_d)/(α_u − α_d).",
          check=ck.check_masses,
          notes=("Derived (sympy) from α_u P + α_d (1 − P) = 1: P_f(U_u) = (1 − α_d)/(α_u − α_d); "
                 "the printed pair is swapped.  With it the refined mass at ε = 1 (individual) "
                 "is 2.086.  Table 5.5 (size(U_u) = 0.269 at ε = 1) uses the derived value; "
                 "privlab implements the derived one.",),
          scope=_p(),
          refutation=Refutation(kind="false-statement"),
          covers=("thesis:Definition 10",)),
    Claim(id="thesis:alg-5.1-step-iv", source=f"{F} §5.2 Algorithm 5.1 step iv",
          statement="α_ud = (1 − α_u p_u − α_d p_d)/(1 − p_u − p_d) in the else branch.",
          check=ck.check_alg_printed_step_iv,
          notes=("p_u + p_d = 1 for either reading of the masses, so the formula is 0/0.  "
                 "Corrected: α_ud = (1 − α_u P(U′_u) − α_d P(U′_d))/(1 − P(U′_u) − P(U′_d)), "
                 "which reproduces the numbers of §5.5.1.",),
          scope=_p(),
          refutation=Refutation(kind="false-statement")),
    Claim(id="thesis:alg-5.1",
          proof=Proof(kind="symbolic", argument=(
              "sympy: both branches' masses sum to 1 and every factor lies in [α_d, α_u], "
              "symbolically in the priors and factors")),
          source=f"{F} §5.2 Algorithm 5.1 (corrected step iv)",
          statement="Both branches give total mass 1 and factors in [α_d, α_u] (hence DP).",
          check=ck.check_alg_51,
          notes=("Symbolic identities for α_ud − α_d and α_u − α_ud, plus 300 random exact "
                 "instances (Fraction priors, rational factors, four distances).",),
          scope=_p(reading="step iv corrected to use P(U′_u), P(U′_d)"),
          mutants=(Mutant(kind="constant",
              description="every factor in the inner 80 % of [α_d, α_u] (ends excluded)",
              check=lambda: ck.check_alg_51(60, shrink=Fr(1, 10))),)),
    Claim(id="thesis:alg-5.1-printed-masses", source=f"{F} §5.2 Algorithm 5.1 a–b",
          statement="Algorithm 5.1 with its printed p_u, p_d yields a valid refinement.",
          check=ck.check_alg_printed_masses,
          notes=("Prior (1/2, 1/4, 1/4) on {0, 1, 2}, t = 0, α = 3, 1/3: total mass 7/3.",),
          scope=_p(),
          refutation=Refutation(kind="false-statement")),
    Claim(id="thesis:prop-2", source=f"{F} §5.1 Proposition 2",
          statement="α_u = e^ε α_d and U_u of the required mass give ε-DP for any query.",
          check=ck.check_prop_2,
          notes=("Holds for every pair of data sets (not only neighbours): the answer depends "
                 "on D only through f(D) and every factor lies in [α_d, α_u].  Exhaustive exact "
                 "check over all pairs of true answers on 150 random priors, plus a continuous "
                 "uniform prior.",),
          bounded=True,
          scope=_p(neighbour="both", domain="150 random priors, all pairs of answers"),
          mutants=(Mutant(kind="factor",
              description="α_u = e^{2ε}α_d claimed ε-DP (all pairs of true answers)",
              check=lambda: _broken_factors("pairs")),)),
    Claim(id="thesis:prop-3", source=f"{F} §5.1 Proposition 3 (add/remove-one)",
          statement="For an individual query, α_u = e^ε, α_d = e^−ε give ε-DP.",
          check=ck.check_prop_3,
          notes=("Under the thesis's add/remove relation: exhaustive exact over 150 priors and "
                 "over every neighbour of a small data set.",),
          bounded=True,
          scope=_p(neighbour=AR, domain="150 priors, every neighbour of a small data set"),
          mutants=(Mutant(kind="dropped-hypothesis",
              description="Proposition 3 under substitution instead of add/remove",
              check=lambda: ck.check_prop_3_substitution()),)),
    Claim(id="thesis:prop-3-substitution", source=f"{F} §5.1 Proposition 3 (substitution)",
          statement="For an individual query, α_u = e^ε, α_d = e^−ε give ε-DP under "
                    "substitution.",
          check=ck.check_prop_3_substitution,
          notes=("Not in the thesis (it uses add/remove); the papers use substitution.  "
                 "Changing the person's value moves the answer from α_u to α_d: ratio e^{2ε}.",),
          scope=_x(neighbour=SUB, reading="the thesis states Prop. 3 under "
                   "add/remove; substitution is the lab's question"),
          refutation=_priv("2ε (ratio e^{2ε})", "any ε > 0, one individual",
                           "extension only (the thesis uses add/remove)")),
    Claim(id="thesis:table-5.2", source=f"{F} §5.2 Table 5.2",
          statement="Individual: α_u = e^ε, α_d = e^−ε; statistical: α_u ∈ [1, e^ε], "
                    "α_d ∈ [e^−ε, 1], α_u/α_d = e^ε — each gives ε-DP.",
          check=ck.check_table_52_rows,
          notes=("Both rows, in the thesis's setting (Definition 3, add/remove-one).  "
                 "Individual row: answer against the prior, 150 priors and every neighbour of "
                 "a small data set (as thesis:prop-3).  Statistical row: a grid of the holder's "
                 "α_u (exhaustive neighbours of a count query) under both relations; at "
                 "α_u ∈ {1, e^ε} the answer is the prior itself (P(U_u) ∈ {1, 0}).",
                 "Under substitution the individual row is only 2ε-DP: that is the lab's "
                 "extension thesis:prop-3-substitution, not an erratum."),
          bounded=True,
          scope=_p(neighbour=AR, domain="individual: 150 priors; statistical: ε = ln 4, "
                   "α_u ∈ {1, 3/2, 2, 3, 4}",
                   reading="the thesis's Definition 3 (add/remove); the statistical row is "
                           "also checked under substitution"),
          conjuncts=(Conjunct(name="individual", statement="the individual row gives ε-DP"),
                     Conjunct(name="statistical", statement="the statistical row gives ε-DP")),
          mutants=(Mutant(kind="factor", conjunct="statistical",
                          description="statistical row with α_u/α_d = e^{2ε} claimed ε-DP",
                          check=lambda: _broken_factors("neighbours")),
                   Mutant(kind="dropped-hypothesis", conjunct="individual",
                          description="the individual row claimed ε-DP under substitution too",
                          check=ck.check_prop_3_substitution))),
    Claim(id="thesis:sec-5.2-delta-individual", source=f"{F} §5.2 (ε, δ) individual",
          statement="Adding δ at f(D) and subtracting δ from the tails gives (ε, δ)-DP.",
          check=lambda: ck.check_delta("individual"),
          notes=("The tails already sit at e^−ε times the prior, so removing output mass x "
                 "costs e^ε x: moving δ needs δe^ε.  Reading the δ as prior mass zeroed in the "
                 "tails (output mass δe^−ε moved) is exact — privlab's rule.",),
          scope=_p(neighbour=AR, reading="δ as output mass moved"),
          refutation=_priv(
              "δ needed δe^ε instead of δ (exact: 2/5 for δ = 1/5 at α_u = 2)",
              "uniform prior on {0..4}, α_u = 2, α_d = 1/2, δ = 1/5 (the argument holds for any "
              "ε > 0, δ > 0)", "every (ε, δ) the printed rule is used with"),
          covers=("thesis:Definition 11",)),
    Claim(id="thesis:sec-5.2-delta-statistical", source=f"{F} §5.2 (ε, δ) statistical",
          statement="Moving δ′ = δ/2 from the farthest points to f(D) gives (ε, δ)-DP.",
          check=lambda: ck.check_delta("statistical"),
          notes=("The gain at f(D₁) adds δ′ and the removal at D₂ adds e^ε δ′ on an event "
                 "where the pure ratio is already tight: needs δ(1 + e^ε)/2.  "
                 "δ′ = δ/(1 + e^ε) is exact.",),
          scope=_p(neighbour=AR),
          refutation=_priv(
              "δ needed δ(1 + e^ε)/2 instead of δ (exact: 1/2 for δ = 1/5 at α_u/α_d = 4)",
              "uniform prior on {0..4}, α_u = 2, α_d = 1/2, δ = 1/5 (the argument holds for any "
              "ε > 0, δ > 0)", "every (ε, δ) the printed rule is used with"),
          covers=("thesis:Definition 11",)),
    Claim(id="thesis:ex-8",
          proof=Proof(kind="symbolic", argument=(
              "the example's joint answers and ratios computed symbolically")),
          source=f"{F} §5.3 Example 8, Tables 5.3–5.4",
          statement="The joint answers of Example 8 are as tabulated and their ratios are "
                    "α_d and 2 − α_d, within [e^−1, e].",
          check=tb.check_example_8,
          scope=_p(),
          covers=("thesis:Table 5.3", "thesis:Table 5.4"),
          mutants=(Mutant(kind="constant", description="Example 8's ratios claimed {α_d, 1 − α_d}",
                          check=lambda: tb.check_example_8(claimed=lambda a: {a, 1 - a})),)),
    Claim(id="thesis:prop-4", source=f"{F} §5.3 Proposition 4",
          statement="Independent ε_i-DP answers about disjoint individuals are max ε_i-DP.",
          check=ck.check_prop_4,
          notes=("Exhaustive over all data sets on 3 individuals (present 0/1 or absent) and "
                 "their add/remove neighbours, ε_i = ln 2, ln 3, ln 3/2 (exact).  Asking twice "
                 "about one person breaks the max (ratio 9/… in evidence): the condition "
                 "matters, and the sessions check it.",),
          scope=_p(neighbour=AR, domain="3 individuals, ε_i ∈ {ln 2, ln 3, ln 3/2}"),
          mutants=(Mutant(kind="direction",
              description="disjoint individuals composed at min ε_i instead of max ε_i",
              check=lambda: ck.check_prop_4(combine=min)),)),
    Claim(id="thesis:prop-5", source=f"{F} §5.4.2 Proposition 5",
          statement="Any function F of an ε-DP answer vector is ε-DP.",
          check=ck.check_prop_5,
          notes=("All 81 maps of Example 8's four outcomes into three values; the general "
                 "pre-image argument of the proof is immediate.",),
          bounded=True,
          scope=_p(domain="all 81 maps of Example 8's outcomes into 3 values"),
          mutants=(Mutant(kind="factor",
              description="post-processing claimed to halve the privacy ratio",
              check=lambda: ck.check_prop_5(bound_factor=Fr(1, 2))),)),
    Claim(id="thesis:cor-2", source=f"{F} §5.4.2 Corollary 2",
          statement="Whatever the attacker's strategy, her estimate of f(D) is ε-DP.",
          check=check_cor_2,
          notes=("An adaptive Bayesian adversary (priors = its posteriors, budget split over "
                 "1–6 rounds), every transcript enumerated exactly.",),
          scope=_p(neighbour=AR, domain="adaptive Bayesian adversary, 1–6 rounds"),
          mutants=(Mutant(kind="factor",
                          description="the adaptive adversary's estimate claimed (ε/2)-DP",
                          check=lambda: check_cor_2(claimed=0.5)),)),
    Claim(id="thesis:protocol-2", source=f"{F} §5.4.1 Protocol 2",
          statement="privlab's refinement session (Protocol 2's rule) never answers beyond "
                    "Σ ε_j ≤ ε.",
          check=lambda: check_protocol("refinement"),
          notes=("privlab's own session rule (scope: extension) — the paper's privacy content "
                 "of the protocol, composition of the answers, is thesis:prop-4 / prop-5 / "
                 "cor-2.",),
          scope=_x(neighbour=AR, reading="privlab's session enforces Protocol 2's "
                   "budget rule; the privacy content is thesis:prop-4/prop-5"),
          mutants=(Mutant(kind="factor",
              description="the refinement session claimed to spend at most half its budget",
              check=lambda: check_protocol("refinement", claimed_fraction="0.5")),)),
    Claim(id="thesis:protocol-1", source=f"{F} §5.4.1 Protocol 1",
          statement="privlab's Laplace session (Protocol 1's rule) never answers beyond "
                    "Δ(f_1..f_i)/λ ≤ ε.",
          check=lambda: check_protocol("laplace"),
          notes=("privlab's own session rule (scope: extension) — the paper's privacy content "
                 "of the protocol, composition of the answers, is thesis:prop-4 / cor-2.",),
          scope=_x(neighbour=AR, reading="privlab's session enforces Protocol 1's "
                   "budget rule; the privacy content (composition) is thesis:prop-4"),
          mutants=(Mutant(kind="factor",
              description="the Laplace session claimed to spend at most half its budget",
              check=lambda: check_protocol("laplace", claimed_fraction="0.5")),)),
    Claim(id="thesis:sec-5.4.1-modified-condition",
          proof=Proof(kind="exact-decision", argument=(
              "an existential statement, proved by an exact witness (disjoint individual "
              "queries, Δ = 1, λ = 1, ε = 2)")),
          source=f"{F} §5.4.1",
          statement="With equal λ the modified condition Σ Δ(f_j)/λ_j ≤ ε may answer fewer "
                    "queries than Protocol 1.",
          check=check_modified_condition,
          scope=_p(),
          mutants=(Mutant(kind="direction",
              description="the modified condition claimed to answer more queries than Protocol 1",
              check=lambda: check_modified_condition(fewer=False)),)),
    Claim(id="thesis:table-5.5", source=f"{F} §5.5.2 Table 5.5",
          statement="Table 5.5's values (Laplace vs refinement, uniform prior, f(D) = 0.5).",
          check=tb.check_table_55,
          notes=("All refinement columns and the Laplace variance agree; Laplace "
                 "P(K ∈ [0, 1]) = 1 − e^{−ε/2} disagrees in all four rows.",
                 "Reproduce before blaming: 144 readings of the Laplace column were tried "
                 "(scale 1/ε, 2/ε, 1/(2ε), √2/ε; centre 0, ½, 1; six intervals; inside or "
                 "outside — evidence laplace_column_readings): none reproduces more than one "
                 "row (the best misses by 0.30).  The ε = 1 value 0.607 = e^{−1/2} = "
                 "P(K ∉ [0, 1]) fits that row only."),
          scope=_p(),
          refutation=Refutation(kind="numeric")),
    Claim(id="thesis:sec-5.5.1", source=f"{F} §5.5.1",
          statement="The printed probabilities of the Boolean example.",
          check=tb.check_sec_551,
          notes=("Two last-digit slips: 1 − 0.003678 printed as 0.9963222, and the overall "
                 "0.003912 (exact 0.0039138).",
                 "Under the one printed-number rule (issue 14) 0.003678 and 0.027182 also fail: "
                 "they truncate e^{−1}/100 and e/100 while the rest of the example rounds "
                 "(0.184 = e^{−1}/2 rounded), so truncation is not the example's rule.  "
                 "Before issue 14 each cell could match by either rule.",),
          scope=_p(),
          refutation=Refutation(kind="numeric")),
    Claim(id="thesis:sec-5.2-example-7-products", source=f"{F} §5.2 Example 7, Table 5.1",
          statement="Refinement of a multi-component query (independent continuous components, "
                    "a user-chosen chebyshev / l1 / l2 distance) with the Table 5.2 factors is "
                    "ε-DP for every true answer.",
          check=pr.check_products,
          notes=("The text gives no multivariate distance (application-dependent).  For every t "
                 "a ball of exactly the required mass exists (IVT: atomless prior, null "
                 "spheres), so only Algorithm 5.1's then-branch occurs and the worst ratio is "
                 "max(α_u, 1/α_d) resp. α_u/α_d = e^ε (sympy); cross-checked by the "
                 "four-cell analysis of every pair of 25 answers on two priors × three norms "
                 "(l1/l2 ball masses by nested quadrature, error ≤ 1e-12); for products of "
                 "exact uniform components under chebyshev (d = 2 and d = 3) the radii are "
                 "exact roots of the piecewise-polynomial ball mass and every pair's cells have "
                 "rational mass bounds; the broken control (individual factors on a "
                 "statistical query) is refuted at 2ε.  Not offered: δ > 0 and discrete "
                 "components in a continuous product (atoms break the IVT argument).",),
          bounded=True,
          scope=_p(neighbour=AR, reading="the text gives no "
                   "multivariate distance: chebyshev / l1 / l2"),
          covers=("thesis:Example 7", "thesis:Table 5.1"),
          mutants=(Mutant(kind="factor",
              description="product prior, chebyshev distance, statistical query, α_u/α_d = e^{2ε} "
                          "claimed 1-DP",
              check=lambda: _products_broken("product(uniform:0,1;uniform:-1,1)", "chebyshev")),)),
    Claim(id="thesis:prop-2-continuous-all-answers", source=f"{F} §5.1 Propositions 2–3",
          statement="With a continuous prior the refinement is ε-DP for every true answer, "
                    "not only on a grid.",
          check=pr.check_continuous_all_answers,
          notes=("Symbolic in the factors for every t (verify/refinement_all.py), with the "
                 "21-answer piecewise analysis as a cross-check; uniform, beta(2,5), N(0,1) "
                 "and a three-piece exact density, ε = 1.  For the exact piecewise priors the "
                 "premises of the IVT argument are checked in exact arithmetic (density "
                 "integrates to exactly 1; M_t continuous, 0 at r = 0, 1 at R_t) and the "
                 "radius at each of the 21 answers is an exact root (closed form, verified by "
                 "sympy), matching the implementation's float radius to ≤ 1e-12 in mass.",),
          bounded=True,
          scope=_p(neighbour=AR,
                   domain="uniform, beta(2,5), N(0,1), a piecewise "
                   "density; ε = 1; every true answer"),
          mutants=(Mutant(kind="factor",
              description="uniform prior, statistical query with α_u/α_d = e^{2ε} claimed 1-DP",
              check=lambda: _products_broken("uniform:0,1", None)),)),
    Claim(id="thesis:sec-5.5.1-conclusion",
          proof=Proof(kind="exact-decision", argument=(
              "the example's probabilities computed exactly (ε = 1, prior rate 0.01)")),
          source=f"{F} §5.5.1 (conclusion)",
          statement="Refinement's P(K = 1) is much closer to the prior rate 0.01 than Laplace's.",
          check=tb.check_sec_551_conclusion,
          scope=_p(),
          mutants=(Mutant(kind="direction",
              description="Laplace's P(K = 1) claimed closer to the prior rate 0.01",
              check=lambda: tb.check_sec_551_conclusion(closer="laplace")),)),
)

TABLES = {"thesis-5.3": tb.table_5_3, "thesis-5.4": tb.table_5_4,  # = ch5_tables.TABLES
          "thesis-5.5": tb.table_5_5, "thesis-5.5.1": tb.table_5_5_1}
