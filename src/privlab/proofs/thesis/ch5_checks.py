"""Checks of the thesis ch.5 claims (masses, Algorithm 5.1, Propositions 2–5, δ variants).

Exact arithmetic: priors with ``Fraction`` masses and rational factors, for which e^ε is the
rational α_u/α_d (statistical) or max(α_u, 1/α_d) (individual) — e.g. α_u = 2, α_d = 1/2 is
ε = ln 2 individual and ε = ln 4 statistical.  Instances are drawn from a fixed seed.
"""

from __future__ import annotations

import itertools
import math
import random
from fractions import Fraction as Fr
from typing import Any

import sympy as sp

from privlab.mechanisms.refinement.algorithm import (
    ABSENT,
    Refinement,
    broken_statistical,
    refine_discrete,
)
from privlab.mechanisms.refinement.distances import ABSOLUTE, NOMINAL, custom, ordinal
from privlab.mechanisms.refinement.factors import (
    Factors,
    printed_alpha_ud,
    printed_masses,
)
from privlab.mechanisms.refinement.priors import DiscretePrior, PiecewisePrior
from privlab.mechanisms.refinement.queries import Dataset, IndividualQuery, count_query
from privlab.types import CheckResult, Method
from privlab.verify.refinement.neighbours import check_refinement_dp, check_true_values

AU, AD, P = sp.symbols("alpha_u alpha_d p", positive=True)
RATIONAL_FACTORS = ((Fr(2), Fr(1, 2)), (Fr(3), Fr(1, 3)), (Fr(3, 2), Fr(3, 4)),
                    (Fr(5, 4), Fr(1, 2)))


def random_prior(rnd: random.Random, n: int) -> DiscretePrior:
    w = [rnd.randint(0, 6) for _ in range(n)]
    if sum(w) == 0:
        w[0] = 1
    return DiscretePrior(values=tuple(range(n)), probs=tuple(Fr(x, sum(w)) for x in w))


def _distances(rnd: random.Random, n: int) -> list[Any]:
    table = {(i, j): 0 if i == j else rnd.randint(1, 3) for i in range(n) for j in range(n)}
    return [ABSOLUTE, NOMINAL, ordinal(range(n)), custom(lambda x, y: table[x, y], "random")]


# ---- masses and Algorithm 5.1 -------------------------------------------------------------------
def check_masses() -> CheckResult:
    sol = sp.solve(sp.Eq(AU * P + AD * (1 - P), 1), P)
    derived = sp.simplify(sol[0])
    printed_u = (AU - 1) / (AU - AD)
    same = sp.simplify(derived - printed_u) == 0
    f = Factors.individual(1.0)
    pu, _ = printed_masses(f)
    total_printed = f.alpha_u * pu + f.alpha_d * (1 - pu)
    return CheckResult(
        holds=bool(same), claim="P_f(U_u) = (α_u − 1)/(α_u − α_d) satisfies (5.2)",
        value=str(derived), method=Method.SYMBOLIC,
        evidence={"derived_P(U_u)": str(derived),
                  "derived_P(U_d)": str(sp.simplify(1 - derived)),
                  "printed_P(U_u)": str(printed_u),
                  "table_5.5_size(U_u)_at_eps_1_is_derived": round(1 / (1 + math.e), 3) == 0.269},
        counterexample=None if same else {
            "epsilon": 1.0, "factors": "individual", "printed_P(U_u)": float(pu),
            "total_mass_with_printed_P(U_u)": float(total_printed)})


def check_alg_printed_step_iv() -> CheckResult:
    """Step iv as printed divides by 1 − p_u − p_d = 0."""
    den = sp.simplify(1 - (1 - AD) / (AU - AD) - (AU - 1) / (AU - AD))
    prior = DiscretePrior(values=(0, 1), probs=(Fr(99, 100), Fr(1, 100)))
    f = Factors.from_alphas(Fr(3), Fr(1, 3), "individual")
    law = refine_discrete(prior, 0, NOMINAL, f)
    val = printed_alpha_ud(f, law.info["p_u"], law.info["p_d"])
    defined = val is not None
    return CheckResult(
        holds=defined, claim="Algorithm 5.1 step iv α_ud = (1 − α_u p_u − α_d p_d)/(1 − p_u − p_d)"
                             " is defined in the else branch", value=str(den),
        method=Method.SYMBOLIC,
        evidence={"denominator_simplified": str(den), "instance_branch": law.info["branch"],
                  "corrected_alpha_ud": str(law.info["alpha_ud"])},
        counterexample=None if defined else {"prior": {0: "99/100", 1: "1/100"},
                                             "alpha_u": "3", "alpha_d": "1/3",
                                             "true_value": 0, "denominator": "0",
                                             "numerator": "0"})


def check_alg_51(trials: int = 300, *, shrink: Fr = Fr(0)) -> CheckResult:
    """Corrected Algorithm 5.1: total mass 1 and every factor in [α_d, α_u].

    Symbolic part: with a = P(U′_u), b = P(U′_d), (α_ud − α_d)(1 − a − b) = (1 − α_d) −
    a(α_u − α_d) and (α_u − α_ud)(1 − a − b) = (α_u − 1) − b(α_u − α_d), both > 0 exactly when
    a < p_u, b < p_d (the algorithm's choice).  Exhaustive part: random exact instances."""
    a, b = sp.symbols("a b", positive=True)
    aud = (1 - AU * a - AD * b) / (1 - a - b)
    id1 = sp.simplify((aud - AD) * (1 - a - b) - ((1 - AD) - a * (AU - AD))) == 0
    id2 = sp.simplify((AU - aud) * (1 - a - b) - ((AU - 1) - b * (AU - AD))) == 0
    rnd = random.Random(51)
    bad, branches = [], {"then": 0, "else": 0}
    for _ in range(trials):
        n = rnd.randint(1, 6)
        prior = random_prior(rnd, n)
        au, ad = rnd.choice(RATIONAL_FACTORS)
        f = Factors.from_alphas(au, ad, rnd.choice(("individual", "statistical")))
        dist = rnd.choice(_distances(rnd, n))
        t = rnd.randrange(n)
        law = refine_discrete(prior, t, dist, f)
        branches[law.info["branch"]] += 1
        lo, hi = ad + shrink * (au - ad), au - shrink * (au - ad)  # shrink > 0: a mutant
        ok = law.total == 1 and all(lo <= x <= hi for x in law.factors)
        if not ok:
            bad.append({"prior": prior.to_dict(), "t": t, "factors": [str(au), str(ad)]})
    holds = id1 and id2 and not bad
    return CheckResult(holds=holds, claim="Algorithm 5.1 (corrected) conserves mass with "
                                          "factors in [α_d, α_u]", value=len(bad),
                       method=Method.SYMBOLIC,
                       evidence={"identity_alpha_ud_minus_alpha_d": id1,
                                 "identity_alpha_u_minus_alpha_ud": id2,
                                 "exact_instances": trials, "branches": branches},
                       counterexample=bad[:3] or None)


def check_alg_printed_masses() -> CheckResult:
    """Algorithm 5.1 with the printed (swapped) p_u, p_d (and the corrected α_ud)."""
    prior = DiscretePrior(values=(0, 1, 2), probs=(Fr(1, 2), Fr(1, 4), Fr(1, 4)))
    f = Factors.from_alphas(Fr(3), Fr(1, 3), "individual")
    law = refine_discrete(prior, 0, ABSOLUTE, f, masses="printed")
    ok = law.total == 1 and all(f.alpha_d <= x <= f.alpha_u for x in law.factors) and all(
        p >= 0 for p in law.probs)
    return CheckResult(
        holds=ok, claim="Algorithm 5.1 with the printed masses yields a valid ε-DP refinement",
        value=[str(x) for x in law.factors], method=Method.EXACT,
        evidence={"info": {k: str(x) for k, x in law.info.items()}},
        counterexample=None if ok else {"prior": prior.to_dict(), "true_value": 0,
                                        "alpha_u": "3", "alpha_d": "1/3",
                                        "factors": [str(x) for x in law.factors],
                                        "probs": [str(x) for x in law.probs]})


# ---- Propositions 2–3, Table 5.2 ----------------------------------------------------------------
def _pairs_exhaustive(query: str, trials: int, seed: int) -> tuple[list[Any], Any, int]:
    rnd = random.Random(seed)
    bad, worst, count = [], Fr(0), 0
    for _ in range(trials):
        n = rnd.randint(2, 5)
        prior = random_prior(rnd, n)
        au, ad = rnd.choice(RATIONAL_FACTORS)
        mech = Refinement(prior=prior, factors=Factors.from_alphas(au, ad, query),
                          distance=rnd.choice(_distances(rnd, n)))
        r = check_true_values(mech, list(range(n)))
        count += r.evidence["pairs"]
        e = r.evidence["exp_epsilon"]
        worst = max(worst, r.evidence["worst_ratio"] / e)
        if not r.holds:
            bad.append(r.counterexample)
    return bad, worst, count


def check_prop_2() -> CheckResult:
    alg = check_alg_51(100)
    bad, worst, count = _pairs_exhaustive("statistical", 150, 2)
    cont = check_true_values(Refinement.statistical(PiecewisePrior.uniform(), 1.0, 1.3),
                             [0.0, 0.2, 0.5, 0.77, 1.0])
    holds = alg.holds and not bad and cont.holds
    return CheckResult(holds=holds, claim="α_u/α_d = e^ε gives ε-DP for any query",
                       value=str(worst), method=Method.SYMBOLIC,
                       evidence={"lemma_factors_in_range": alg.holds,
                                 "exact_pairs_checked": count,
                                 "max_ratio_over_e^eps": str(worst),
                                 "continuous_uniform_worst_log_ratio": cont.value,
                                 "argument": "every output point gets a factor in [α_d, α_u] "
                                             "(thesis:alg-5.1), so any two data sets' answers "
                                             "differ pointwise by ≤ α_u/α_d"},
                       counterexample=bad[:3] or None)


def check_prop_3() -> CheckResult:
    bad, worst, count = _pairs_exhaustive("individual", 150, 3)
    data = Dataset(records={"a": 1, "b": 0})
    mech = Refinement(prior=DiscretePrior.uniform([0, 1, 2]),
                      factors=Factors.from_alphas(Fr(2), Fr(1, 2), "individual"),
                      distance=ABSOLUTE)
    ar = check_refinement_dp(mech, IndividualQuery(individual="a"), data,
                             neighbour="add/remove", domain=(0, 1, 2))
    holds = not bad and ar.holds
    return CheckResult(holds=holds, claim="individual factors give ε-DP under add/remove-one",
                       value=str(worst), method=Method.EXHAUSTIVE,
                       evidence={"exact_answer_vs_prior_pairs": count,
                                 "max_ratio_over_e^eps": str(worst),
                                 "dataset_neighbours": ar.evidence},
                       counterexample=bad[:3] or None)


def check_prop_3_substitution() -> CheckResult:
    data = Dataset(records={"a": 1, "b": 0})
    mech = Refinement(prior=DiscretePrior.uniform([0, 1, 2]),
                      factors=Factors.from_alphas(Fr(2), Fr(1, 2), "individual"),
                      distance=ABSOLUTE)
    r = check_refinement_dp(mech, IndividualQuery(individual="a"), data,
                            neighbour="substitute", domain=(0, 1, 2))
    cont = check_refinement_dp(Refinement.individual(PiecewisePrior.uniform(), 1.0),
                               IndividualQuery(individual="a"),
                               Dataset(records={"a": 0.9, "b": 0.2}), neighbour="substitute",
                               domain=(0.0, 0.5, 1.0))
    return CheckResult(holds=r.holds, claim="individual factors give ε-DP under substitution",
                       value=r.value, method=Method.EXHAUSTIVE,
                       evidence={"discrete": r.evidence, "continuous_uniform_eps_1": cont.evidence},
                       counterexample=r.counterexample)


def check_table_52_rows() -> CheckResult:
    """Table 5.2 in the thesis's setting (Definition 3, add/remove-one), row by row: the
    individual row is :func:`check_prop_3` (answer against the prior, every neighbour of a small
    data set), the statistical row :func:`check_table_52` (both relations)."""
    ind, stat = check_prop_3(), check_table_52()
    ok = ind.holds and stat.holds
    cex = None
    if not ok:
        cex = {"row": "individual" if not ind.holds else "statistical",
               "witness": ind.counterexample if not ind.holds else stat.counterexample}
    return CheckResult(holds=ok, claim="Table 5.2: both rows give ε-DP under add/remove-one",
                       value={"individual": ind.holds, "statistical": stat.holds},
                       method=Method.EXHAUSTIVE, counterexample=cex,
                       evidence={"individual": dict(ind.evidence),
                                 "statistical": dict(stat.evidence)})


def check_table_52() -> CheckResult:
    """Statistical row: every holder's α_u ∈ [1, e^ε] with α_d = α_u e^−ε is ε-DP (ε = ln 4,
    α_u ∈ {1, 3/2, 2, 3, 4}, counts 0..5); the end points return the prior (no gain)."""
    prior = DiscretePrior.uniform(range(6))
    data = Dataset(records={"a": 1, "b": 0, "c": 1})
    res, prior_back = {}, {}
    for au in (Fr(1), Fr(3, 2), Fr(2), Fr(3), Fr(4)):
        f = Factors(alpha_u=au, alpha_d=au / 4, query="statistical", epsilon=math.log(4))
        mech = Refinement(prior=prior, factors=f, distance=ABSOLUTE)
        ok = all(check_refinement_dp(mech, count_query(1), data, neighbour=nb,
                                     domain=(0, 1)).holds for nb in ("add/remove", "substitute"))
        res[str(au)] = ok
        prior_back[str(au)] = mech.output(2).probs == prior.probs
    broken = check_refinement_dp(broken_statistical(prior, math.log(4), distance=ABSOLUTE),
                                 count_query(1), data, neighbour="substitute", domain=(0, 1))
    holds = all(res.values()) and not broken.holds
    return CheckResult(holds=holds, claim="Table 5.2 factors give ε-DP; wrong factors do not",
                       value=res, method=Method.EXHAUSTIVE,
                       evidence={"statistical_alpha_u_grid_dp": res,
                                 "output_equals_prior": prior_back,
                                 "broken_control_caught": not broken.holds,
                                 "broken_control": broken.evidence},
                       counterexample=None if holds else res)


# ---- (ε, δ) variants ----------------------------------------------------------------------------
def _delta_case(query: str, rule: str) -> CheckResult:
    prior = DiscretePrior.uniform(range(5))
    f = Factors.from_alphas(Fr(2), Fr(1, 2), query)
    mech = Refinement(prior=prior, factors=f, distance=ABSOLUTE, delta=0.2, delta_rule=rule)
    return check_true_values(mech, list(range(5)))


def check_delta(query: str) -> CheckResult:
    paper, exact = _delta_case(query, "paper"), _delta_case(query, "exact")
    need = paper.evidence["delta_needed_at_epsilon"]
    return CheckResult(
        holds=paper.holds, claim=f"{query} (ε, δ) variant as printed is (ε, δ)-DP",
        value=str(need), method=Method.EXACT,
        evidence={"printed_rule_delta_needed": str(need),
                  "exact_rule_holds": exact.holds,
                  "exact_rule_delta_needed": str(exact.evidence["delta_needed_at_epsilon"]),
                  "instance": "uniform prior on {0..4}, absolute distance, α_u = 2, α_d = 1/2, "
                              "δ = 1/5"},
        counterexample=None if paper.holds else {"delta": "1/5", "delta_needed": str(need),
                                                 "worst": paper.evidence["worst_location"]})


# ---- Propositions 4–5 ---------------------------------------------------------------------------
def _joint(laws: list[dict[Any, Any]]) -> dict[tuple[Any, ...], Any]:
    out: dict[tuple[Any, ...], Any] = {}
    for combo in itertools.product(*(law.items() for law in laws)):
        p: Any = 1
        for _, q in combo:
            p *= q
        out[tuple(x for x, _ in combo)] = p
    return out


def _worst(p: dict[Any, Any], q: dict[Any, Any]) -> Any:
    return max(max(p[x] / q[x], q[x] / p[x]) for x in p)


def check_prop_4(*, combine: Any = max) -> CheckResult:
    """Independent individual answers about disjoint individuals: max ε_i under add/remove."""
    eps_f = [(Fr(2), Fr(1, 2)), (Fr(3), Fr(1, 3)), (Fr(3, 2), Fr(2, 3))]
    prior = DiscretePrior.uniform([0, 1])
    mechs = [Refinement(prior=prior, factors=Factors.from_alphas(a, d, "individual"))
             for a, d in eps_f]
    bound = combine(max(a, 1 / d) for a, d in eps_f)  # the statement: max (min: a mutant)
    bad, worst, n = [], Fr(0), 0
    for vals in itertools.product((0, 1, None), repeat=3):
        data = Dataset(records={i: x for i, x in enumerate(vals) if x is not None})
        for lab, d2 in data.neighbours("add/remove", (0, 1), new_id=0 if vals[0] is None else 9):
            laws = [_joint([m.output(ABSENT if (t := IndividualQuery(individual=i)(d)) is ABSENT
                                     else t).as_dict() for i, m in enumerate(mechs)])
                    for d in (data, d2)]
            r = _worst(*laws)
            n += 1
            worst = max(worst, r)
            if r > bound:
                bad.append({"data": vals, "neighbour": lab, "ratio": str(r)})
    same = _joint([mechs[0].output(0).as_dict(), mechs[1].output(0).as_dict()])
    same_absent = _joint([mechs[0].output(ABSENT).as_dict(), mechs[1].output(ABSENT).as_dict()])
    overlap = _worst(same, same_absent)
    return CheckResult(holds=not bad, claim="disjoint individuals ⇒ max ε_i-DP",
                       value=str(worst), method=Method.PROPERTY,
                       evidence={"pairs": n, "max_e^eps_i": str(bound), "worst_ratio": str(worst),
                                 "same_individual_twice_ratio": str(overlap),
                                 "same_individual_exceeds_max": overlap > 3},
                       counterexample=bad[:3] or None)


def check_prop_5(*, bound_factor: Fr = Fr(1)) -> CheckResult:
    """Post-processing: every map F of Example 8's 4 outcomes into {0,1,2} (81 maps)."""
    mech = Refinement(prior=DiscretePrior.uniform([0, 1]),
                      factors=Factors.from_alphas(Fr(2), Fr(1, 2), "individual"))
    joint_d = _joint([mech.output(0).as_dict(), mech.output(1).as_dict()])
    joint_n = _joint([mech.output(ABSENT).as_dict(), mech.output(1).as_dict()])
    outs = sorted(joint_d)
    base = _worst(joint_d, joint_n)
    worst = Fr(0)
    for img in itertools.product(range(3), repeat=len(outs)):
        pd: dict[int, Any] = {}
        pn: dict[int, Any] = {}
        for o, y in zip(outs, img, strict=True):
            pd[y] = pd.get(y, 0) + joint_d[o]
            pn[y] = pn.get(y, 0) + joint_n[o]
        worst = max(worst, _worst(pd, pn))
    ok = worst <= base * bound_factor  # bound_factor < 1: a mutant
    return CheckResult(holds=ok, claim="F(K) is as private as K", value=str(worst),
                       method=Method.EXHAUSTIVE, counterexample=None if ok else {
                           "worst_ratio_of_F(K)": str(worst), "bound": str(base * bound_factor)},
                       evidence={"maps": 3 ** len(outs), "ratio_of_K": str(base),
                                 "worst_ratio_of_F(K)": str(worst)})
