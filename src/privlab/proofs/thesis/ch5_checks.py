"""Checks of the thesis ch.5 claims (masses, Algorithm 5.1, Propositions 2–5, δ variants).

Exact arithmetic: priors with ``Fraction`` masses; factors rational (e^ε is then the rational
α_u/α_d or max(α_u, 1/α_d) — e.g. α_u = 2, α_d = 1/2 is ε = ln 2 individual) or, at the
thesis's registry ε (0.01, 0.1, 0.5, ln 2, 1, 2, 10), exact elements of ℚ(e^{ε/2})
(:mod:`.ch5_exact`), so e^ε itself is the bound every ratio is compared with.  Propositions
2–3 and Table 5.2 are in addition proved for every ε > 0 by sympy (:func:`symbolic_factors`).
Random instances are drawn from fixed seeds.
"""

from __future__ import annotations

import functools
import itertools
import math
import random
from fractions import Fraction as Fr
from typing import Any, cast

import sympy as sp

from privlab.mechanisms.refinement.algorithm import (
    ABSENT,
    Refinement,
    refine_discrete,
)
from privlab.mechanisms.refinement.distances import ABSOLUTE, NOMINAL, custom, ordinal
from privlab.mechanisms.refinement.factors import (
    Factors,
    printed_alpha_ud,
    printed_masses,
)
from privlab.mechanisms.refinement.laws import DiscreteLaw
from privlab.mechanisms.refinement.priors import DiscretePrior, PiecewisePrior
from privlab.mechanisms.refinement.queries import Dataset, IndividualQuery, count_query
from privlab.proofs.thesis.ch5_exact import EPSILONS, LN2, eps_float, eps_text, exp_of
from privlab.types import CheckResult, Method
from privlab.verify.refinement.neighbours import check_refinement_dp, check_true_values

AU, AD, P = sp.symbols("alpha_u alpha_d p", positive=True)
RATIONAL_FACTORS = ((Fr(2), Fr(1, 2)), (Fr(3), Fr(1, 3)), (Fr(3, 2), Fr(3, 4)),
                    (Fr(5, 4), Fr(1, 2)))


def dprior(values: tuple[Any, ...], probs: tuple[Any, ...]) -> DiscretePrior:
    """``DiscretePrior(values=…, probs=…)`` (keyword arguments passed as a mapping: the attrs
    converters' generic signature confuses the type checker)."""
    kw: dict[str, Any] = {"values": values, "probs": probs}
    return DiscretePrior(**kw)


def dlaw(mech: Refinement, t: Any) -> DiscreteLaw:
    """``mech.output(t)`` for a discrete prior (always a :class:`DiscreteLaw`)."""
    return cast(DiscreteLaw, mech.output(t))


def random_prior(rnd: random.Random, n: int) -> DiscretePrior:
    w = [rnd.randint(0, 6) for _ in range(n)]
    if sum(w) == 0:
        w[0] = 1
    return dprior(tuple(range(n)), tuple(Fr(x, sum(w)) for x in w))


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
    prior = dprior((0, 1), (Fr(99, 100), Fr(1, 100)))
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
    prior = dprior((0, 1, 2), (Fr(1, 2), Fr(1, 4), Fr(1, 4)))
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
_S = sp.Symbol("s", positive=True)
"""e^ε = 1 + s: s > 0 is exactly ε > 0."""
_U = sp.Symbol("u", nonnegative=True)
"""The holder's position w = u/(1 + u) ∈ [0, 1) between α_u = 1 and α_u = e^ε (w = 1 apart)."""
POSITIONS = ("1", "mid", "e^eps")
"""The statistical α_u of the exact instances: 1, (1 + e^ε)/2, e^ε (α_d = α_u e^{−ε})."""


def _decide(expr: Any) -> str:
    """identity / nonnegative / negative / undecided, for a rational function of s > 0, u ≥ 0
    (sympy's sign rules on the factored form)."""
    f = sp.factor(sp.together(expr))
    if f == 0:
        return "identity"
    if f.is_nonnegative:
        return "nonnegative"
    if f.is_negative:
        return "negative"
    return "undecided"


def symbolic_factors(query: str, relation: str = "add/remove", power: int = 1) -> dict[str, Any]:
    """Propositions 2–3 / Table 5.2 for every ε > 0 at once (sympy; E = e^ε = 1 + s, s > 0).

    The factors claimed to give ε-DP: individual α_u = E^power, α_d = E^−power; statistical
    α_u/α_d = R = E^power with the holder's α_u = 1 + w(R − 1), w ∈ [0, 1] (w = u/(1 + u), u ≥ 0,
    and the end w = 1).  The statement is power = 1; a mutant uses 2.  Each fact is an
    expression shown ≡ 0 or ≥ 0 on the whole domain:

    * range: 1 ≤ α_u ≤ R and 1/R ≤ α_d ≤ 1;
    * mass: P_f(U_u) = (1 − α_d)/(α_u − α_d) ∈ [0, 1] and α_u P_f(U_u) + α_d (1 − P_f(U_u)) ≡ 1,
      so a set U_u of that prior mass is what the factors need (the propositions' hypothesis);
    * ratio: the output at D has density factor_D(x)·P_f(x) with factor_D(x) ∈ {α_u, α_d}, so
      P(K(D) ∈ S) ≤ e^ε P(K(D′) ∈ S) for every S as soon as factor_D(x)/factor_D′(x) ≤ E for
      every pair of factors that can meet at one point: statistical — any two data sets, so
      every pair in {α_u, α_d}²; individual under add/remove — the answer against the prior
      (factor 1; the only neighbour that changes an individual's answer removes or adds that
      individual); under substitution also two present values (α_u against α_d)."""
    sub = sp.Integer(1) + _S
    big_r = sub**power
    cases: list[tuple[str, Any, Any]] = []
    if query == "individual":
        cases.append(("", big_r, 1 / big_r))
    else:
        for label, w in (("w<1", _U / (1 + _U)), ("w=1", sp.Integer(1))):
            au = 1 + w * (big_r - 1)
            cases.append((label, au, au / big_r))
    facts: dict[str, str] = {}
    failed: list[tuple[str, Any]] = []
    for label, au, ad in cases:
        pu = (1 - ad) / (au - ad)
        exprs = {"alpha_u >= 1": au - 1, "R >= alpha_u": big_r - au,
                 "alpha_d >= 1/R": ad - 1 / big_r, "1 >= alpha_d": 1 - ad,
                 "P(U_u) >= 0": pu, "1 >= P(U_u)": 1 - pu,
                 "mass - 1 == 0": au * pu + ad * (1 - pu) - 1}
        names = {"alpha_u": au, "alpha_d": ad, "prior": sp.Integer(1)}
        pairs = [(a, b) for a in ("alpha_u", "alpha_d") for b in ("alpha_u", "alpha_d")
                 if query == "statistical" or relation == "substitute"]
        if query == "individual":
            pairs += [(a, "prior") for a in ("alpha_u", "alpha_d")]
            pairs += [("prior", a) for a in ("alpha_u", "alpha_d")]
        for a, b in pairs:
            exprs[f"e^eps >= {a}/{b}"] = sub - names[a] / names[b]
        for name, e in exprs.items():
            key = f"{label} {name}".strip()
            facts[key] = _decide(e)
            if facts[key] not in ("identity", "nonnegative"):
                failed.append((key, e))
    witness = None
    if failed:
        key, e = failed[0]
        witness = {"fact": key, "value_at_eps_ln2_u_1": str(sp.nsimplify(
            sp.together(e).subs({_S: 1, _U: 1})))}
    return {"holds": not failed,
            "decided": not any(facts[k] == "undecided" for k, _ in failed),
            "facts": facts, "failed": [k for k, _ in failed], "witness": witness}


def exact_factors(eps: Any, query: str, position: str = "mid", power: int = 1) -> tuple[Any, Any]:
    """(α_u, α_d) exactly at a registry ε (:mod:`.ch5_exact`): individual e^{±power·ε};
    statistical α_u ∈ {1, (1 + R)/2, R} by ``position`` and α_d = α_u/R, R = e^{power·ε}."""
    big_r = exp_of(eps, Fr(power))
    if query == "individual":
        return big_r, 1 / big_r
    au = {"1": Fr(1), "mid": (1 + big_r) / 2, "e^eps": big_r}[position]
    return au, au / big_r


def exact_mech(eps: Any, query: str, prior: Any, distance: Any, *, position: str = "mid",
               power: int = 1) -> Refinement:
    """privlab's refinement with the exact factors of :func:`exact_factors` (``power`` ≠ 1 is a
    deliberately broken control claiming ε)."""
    au, ad = exact_factors(eps, query, position, power)
    f = Factors(alpha_u=au, alpha_d=ad, query=query, epsilon=eps_float(eps),
                control=power != 1)
    return Refinement(prior=prior, factors=f, distance=distance)


def _present_pairs_view(mech: Refinement) -> Refinement:
    """The same laws compared between two present values (substitution) — check_true_values
    compares all pairs of answers for a 'statistical' query (a control view, same factors)."""
    f = mech.factors
    view = Factors(alpha_u=f.alpha_u, alpha_d=f.alpha_d, query="statistical",
                   epsilon=f.epsilon, control=True)
    return Refinement(prior=mech.prior, factors=view, distance=mech.distance)


@functools.cache
def _instances_memo(query: str, relation: str, power: int, priors: int, seed: int
                    ) -> tuple[tuple[tuple[str, Any], ...], ...]:
    rnd = random.Random(seed)
    rows = []
    for eps in EPSILONS:
        for pos in (POSITIONS if query == "statistical" else ("-",)):
            worst: Any = 0
            holds, pairs = True, 0
            for _ in range(priors):
                n = rnd.randint(2, 5)
                prior = random_prior(rnd, n)
                mech = exact_mech(eps, query, prior, rnd.choice(_distances(rnd, n)),
                                  position=pos, power=power)
                checks = [check_true_values(mech, list(range(n)))]
                if query == "individual" and relation == "substitute":
                    checks.append(check_true_values(_present_pairs_view(mech),
                                                    list(range(n)),
                                                    epsilon=eps_float(eps)))
                for r in checks:
                    holds &= r.holds
                    pairs += r.evidence["pairs"]
                    if r.evidence["worst_ratio"] > worst:
                        worst = r.evidence["worst_ratio"]
            bound = exp_of(eps, Fr(1))
            rows.append((("epsilon", eps_text(eps)), ("alpha_u", pos), ("holds", holds),
                         ("pairs", pairs), ("worst_ratio", str(worst)),
                         ("worst_log_ratio_over_eps",
                          math.log(float(worst)) / eps_float(eps) if worst else 0.0),
                         ("tight", bool(worst == bound))))
    return tuple(rows)


def exact_instances(query: str, *, relation: str = "add/remove", power: int = 1,
                    priors: int = 4, seed: int = 2) -> list[dict[str, Any]]:
    """Random exact priors (``priors`` per ε and α_u position; sizes 2–5, four distances) at
    every registry ε: every pair of true answers (statistical) or every answer against the
    prior (individual; under substitution also every pair of present answers), exact."""
    return [dict(r) for r in _instances_memo(query, relation, power, priors, seed)]


def _dataset_neighbours(query: str, relation: str, power: int = 1) -> list[dict[str, Any]]:
    """Every neighbour of a small data set at every registry ε (exact): an individual query on
    {a: 1, b: 0} with a uniform prior on {0, 1, 2}; a count query on {a: 1, b: 0, c: 1} with a
    uniform prior on {0..5} for each α_u position."""
    rows = []
    for eps in EPSILONS:
        if query == "individual":
            mech = exact_mech(eps, "individual", DiscretePrior.uniform([0, 1, 2]), ABSOLUTE,
                              power=power)
            r = check_refinement_dp(mech, IndividualQuery(individual="a"),
                                    Dataset(records={"a": 1, "b": 0}), neighbour=relation,
                                    domain=(0, 1, 2))
            rows.append({"epsilon": eps_text(eps), "neighbour": relation, "holds": r.holds,
                         "worst_ratio": str(r.evidence["worst_ratio"]),
                         "loss_over_eps": r.value / eps_float(eps)})
            continue
        prior = DiscretePrior.uniform(range(6))
        for pos in POSITIONS:
            mech = exact_mech(eps, "statistical", prior, ABSOLUTE, position=pos, power=power)
            r = check_refinement_dp(mech, count_query(1), Dataset(records={"a": 1, "b": 0,
                                                                           "c": 1}),
                                    neighbour=relation, domain=(0, 1))
            rows.append({"epsilon": eps_text(eps), "alpha_u": pos, "neighbour": relation,
                         "holds": r.holds, "worst_ratio": str(r.evidence["worst_ratio"]),
                         "loss_over_eps": r.value / eps_float(eps),
                         "output_is_prior": dlaw(mech, 2).probs == prior.probs})
    return rows


def _result(claim: str, parts: dict[str, Any], evidence: dict[str, Any],
            method: Method) -> CheckResult:
    holds = all(parts.values())
    bad = [k for k, ok in parts.items() if not ok]
    return CheckResult(holds=holds, claim=claim, value=bad or "all parts hold", method=method,
                       evidence=evidence, counterexample=None if holds else {
                           "failed": bad, **{k: evidence[k] for k in ("witness",)
                                             if evidence.get(k)}})


def check_prop_2(*, power: int = 1) -> CheckResult:
    """Proposition 2 for every ε > 0 and every admissible α_u (:func:`symbolic_factors`,
    statistical factor set, any two data sets), with exact instances at every registry ε
    (random priors through Algorithm 5.1, all pairs of answers) and a continuous uniform prior
    at ε = 1 as cross-checks.  ``power=2`` is a mutant: α_u/α_d = e^{2ε} claimed ε-DP."""
    sym = symbolic_factors("statistical", "any", power)
    inst = exact_instances("statistical", power=power)
    parts = {"symbolic": sym["holds"], "exact_instances": all(r["holds"] for r in inst)}
    ev: dict[str, Any] = {"symbolic_facts": sym["facts"], "witness": sym["witness"],
                          "exact_instances": inst}
    if power == 1:
        cont = check_true_values(Refinement.statistical(PiecewisePrior.uniform(), 1.0, 1.3),
                                 [0.0, 0.2, 0.5, 0.77, 1.0])
        parts["continuous_uniform_eps_1"] = cont.holds
        ev["continuous_uniform_worst_log_ratio"] = cont.value
    return _result("α_u/α_d = e^ε gives ε-DP for any query, every ε > 0", parts, ev,
                   Method.SYMBOLIC)


def check_prop_3(*, relation: str = "add/remove") -> CheckResult:
    """Proposition 3 (individual factors e^{±ε}) for every ε > 0 under ``relation``
    (:func:`symbolic_factors`), with exact instances at every registry ε: random priors (the
    answer against the prior, and under substitution every pair of present answers) and every
    neighbour of a small data set.  ``relation="substitute"`` is the extension (it fails:
    e^{2ε})."""
    sym = symbolic_factors("individual", relation)
    inst = exact_instances("individual", relation=relation)
    nbrs = _dataset_neighbours("individual", relation)
    parts = {"symbolic": sym["holds"], "exact_instances": all(r["holds"] for r in inst),
             "dataset_neighbours": all(r["holds"] for r in nbrs)}
    ev = {"neighbour": relation, "symbolic_facts": sym["facts"], "witness": sym["witness"],
          "exact_instances": inst, "dataset_neighbours": nbrs}
    return _result(f"individual factors give ε-DP under {relation}, every ε > 0", parts, ev,
                   Method.SYMBOLIC)


def check_prop_3_substitution() -> CheckResult:
    """:func:`check_prop_3` under substitution, and the loss there at every registry ε on the
    data set {a: 1, b: 0} (uniform prior on {0, 1, 2}): 2ε exactly where the ball of the
    required mass exists (ε = ln 2), between ε and 2ε where Algorithm 5.1 takes its else branch;
    plus a continuous uniform prior at ε = 1."""
    r = check_prop_3(relation="substitute")
    loss_2eps, loss = {}, {}
    for eps in EPSILONS:
        mech = exact_mech(eps, "individual", DiscretePrior.uniform([0, 1, 2]), ABSOLUTE)
        sub = check_refinement_dp(mech, IndividualQuery(individual="a"),
                                  Dataset(records={"a": 1, "b": 0}), neighbour="substitute",
                                  domain=(0, 1, 2))
        loss_2eps[eps_text(eps)] = bool(sub.evidence["worst_ratio"] == exp_of(eps, Fr(2)))
        loss[eps_text(eps)] = sub.value / eps_float(eps)
    cont = check_refinement_dp(Refinement.individual(PiecewisePrior.uniform(), 1.0),
                               IndividualQuery(individual="a"),
                               Dataset(records={"a": 0.9, "b": 0.2}), neighbour="substitute",
                               domain=(0.0, 0.5, 1.0))
    ev = {**r.evidence, "loss_over_eps_on_the_dataset": loss,
          "loss_is_exactly_2eps_on_the_dataset": loss_2eps,
          "continuous_uniform_eps_1_log_ratio": cont.value}
    cex = None if r.holds else {**(r.counterexample or {}), "loss_over_eps": loss}
    return CheckResult(holds=r.holds, claim="individual factors give ε-DP under substitution",
                       value=r.value, method=Method.SYMBOLIC, evidence=ev, counterexample=cex)


def check_table_52(*, power: int = 1) -> CheckResult:
    """Statistical row: every holder's α_u ∈ [1, e^ε] with α_d = α_u e^{−ε} is ε-DP for every
    ε > 0 (:func:`symbolic_factors`), with exact instances at every registry ε and
    α_u ∈ {1, (1 + e^ε)/2, e^ε}: random priors (all pairs of answers) and every neighbour of a
    count query under both relations; at α_u ∈ {1, e^ε} the answer is the prior itself."""
    sym = symbolic_factors("statistical", "any", power)
    inst = exact_instances("statistical", power=power)
    nbrs = [r for rel in ("add/remove", "substitute")
            for r in _dataset_neighbours("statistical", rel, power)]
    ends = all(r["output_is_prior"] == (r["alpha_u"] != "mid") for r in nbrs)
    parts = {"symbolic": sym["holds"], "exact_instances": all(r["holds"] for r in inst),
             "dataset_neighbours": all(r["holds"] for r in nbrs)}
    ev = {"symbolic_facts": sym["facts"], "witness": sym["witness"], "exact_instances": inst,
          "dataset_neighbours": nbrs, "ends_return_the_prior": ends}
    return _result("Table 5.2 statistical row gives ε-DP, every ε > 0", parts, ev,
                   Method.SYMBOLIC)


def check_table_52_rows(*, individual_relation: str = "add/remove",
                        statistical_power: int = 1) -> CheckResult:
    """Table 5.2 in the thesis's setting (Definition 3, add/remove-one), row by row: the
    individual row is :func:`check_prop_3`, the statistical row :func:`check_table_52` (both
    relations).  The keywords make the mutants (substitution; α_u/α_d = e^{2ε})."""
    ind = check_prop_3(relation=individual_relation)
    stat = check_table_52(power=statistical_power)
    ok = ind.holds and stat.holds
    cex = None
    if not ok:
        cex = {"row": "individual" if not ind.holds else "statistical",
               "witness": ind.counterexample if not ind.holds else stat.counterexample}
    return CheckResult(holds=ok, claim="Table 5.2: both rows give ε-DP under add/remove-one",
                       value={"individual": ind.holds, "statistical": stat.holds},
                       method=Method.SYMBOLIC, counterexample=cex,
                       evidence={"individual": dict(ind.evidence),
                                 "statistical": dict(stat.evidence)})


# ---- (ε, δ) variants ----------------------------------------------------------------------------
DELTAS = (Fr(1, 20), Fr(1, 5))
"""δ of the (ε, δ) checks: the thesis's Figures 5.2–5.3 use δ = 0.2; 1/20 is a smaller one."""


def _delta_case(eps: Any, query: str, rule: str, delta: Fr) -> CheckResult:
    prior = DiscretePrior.uniform(range(5))
    au, ad = exact_factors(eps, query)
    f = Factors(alpha_u=au, alpha_d=ad, query=query, epsilon=eps_float(eps))
    mech = Refinement(prior=prior, factors=f, distance=ABSOLUTE, delta=float(delta),
                      delta_rule=rule)
    return check_true_values(mech, list(range(5)))


def check_delta(query: str) -> CheckResult:
    """§5.2's (ε, δ) sketches as printed (individual: move δ; statistical: δ′ = δ/2) at every
    registry ε and δ ∈ {1/20, 1/5}, exact: uniform prior on {0..4}, absolute distance,
    individual factors e^{±ε} resp. statistical α_u = (1 + e^ε)/2.  The δ each needs is
    compared exactly with δe^ε (individual) resp. δ(1 + e^ε)/2 (statistical); the exact rule
    (move δe^{−ε} resp. δ/(1 + e^ε)) must hold on the same instances."""
    rows, bad = [], []
    for eps in EPSILONS:
        e = exp_of(eps, Fr(1))
        for d in DELTAS:
            paper, exact = _delta_case(eps, query, "paper", d), _delta_case(eps, query, "exact", d)
            need = paper.evidence["delta_needed_at_epsilon"]
            formula = d * e if query == "individual" else d * (1 + e) / 2
            row = {"epsilon": eps_text(eps), "delta": str(d), "printed_rule_holds": paper.holds,
                   "printed_rule_delta_needed": str(need),
                   "delta_needed_equals_formula": bool(need == formula),
                   "exact_rule_holds": exact.holds,
                   "exact_rule_delta_needed": str(exact.evidence["delta_needed_at_epsilon"])}
            rows.append(row)
            if not paper.holds:
                bad.append(row)
    exact_ok = all(r["exact_rule_holds"] for r in rows)
    holds = not bad
    return CheckResult(
        holds=holds and exact_ok, claim=f"{query} (ε, δ) variant as printed is (ε, δ)-DP",
        value=f"{len(bad)} of {len(rows)} (ε, δ) instances fail", method=Method.EXACT,
        evidence={"instances": rows, "exact_rule_holds_everywhere": exact_ok,
                  "formula": "δe^ε" if query == "individual" else "δ(1 + e^ε)/2",
                  "setting": "uniform prior on {0..4}, absolute distance"},
        counterexample=None if holds else {"failing": bad[:3], "count": len(bad)})


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


PROP_4_TRIPLES: tuple[tuple[tuple[Any, ...], Fr | None], ...] = (
    ((Fr(1, 100), Fr(1, 10), Fr(1, 2)), Fr(1, 100)),
    ((Fr(1), Fr(2), Fr(10)), Fr(1)),
    ((LN2, "ln 3", "ln 3/2"), None),
)
"""(ε_1, ε_2, ε_3) of :func:`check_prop_4` and the generator exponent g of their exact field
(e^{ε_i} = y^{ε_i/g}); the last triple is rational (e^{ε_i} = 2, 3, 3/2)."""
_LN = {LN2: Fr(2), "ln 3": Fr(3), "ln 3/2": Fr(3, 2)}


def _prop_4_factors(eps: Any, g: Fr | None) -> tuple[Any, Any]:
    if g is None:
        return _LN[eps], 1 / _LN[eps]
    e = exp_of(eps, Fr(1), g)
    return e, 1 / e


def check_prop_4(*, combine: Any = max) -> CheckResult:
    """Independent individual answers about disjoint individuals: max ε_i under add/remove.

    Exhaustive over all data sets on 3 individuals (present with value 0/1, or absent) and
    their add/remove neighbours, for n = 1, 2, 3 queries (the first n individuals), with the
    individual factors e^{±ε_i} exact at (ε_i) ∈ {(0.01, 0.1, 0.5), (1, 2, 10),
    (ln 2, ln 3, ln 3/2)}; ``combine=min`` is a mutant."""
    prior = DiscretePrior.uniform([0, 1])
    bad, rows, n_pairs = [], [], 0
    overlap_rows = []
    for epss, g in PROP_4_TRIPLES:
        mechs = []
        for eps in epss:
            au, ad = _prop_4_factors(eps, g)
            mechs.append(Refinement(prior=prior, factors=Factors(
                alpha_u=au, alpha_d=ad, query="individual",
                epsilon=eps_float(eps) if eps in (LN2,) or g is not None
                else math.log(float(_LN[eps])))))
        out = [{t: dlaw(m, t).as_dict() for t in (0, 1, ABSENT)} for m in mechs]
        for n in (1, 2, 3):
            bound = combine(max(m.factors.alpha_u, 1 / m.factors.alpha_d) for m in mechs[:n])
            worst: Any = Fr(0)
            for vals in itertools.product((0, 1, None), repeat=3):
                data = Dataset(records={i: x for i, x in enumerate(vals) if x is not None})
                for lab, d2 in data.neighbours("add/remove", (0, 1),
                                               new_id=0 if vals[0] is None else 9):
                    laws = [_joint([out[i][IndividualQuery(individual=i)(d)]
                                    for i in range(n)]) for d in (data, d2)]
                    r = _worst(*laws)
                    n_pairs += 1
                    if r > worst:
                        worst = r
                    if r > bound:
                        bad.append({"epsilons": [eps_text(e) for e in epss[:n]], "data": vals,
                                    "neighbour": lab, "ratio": str(r), "bound": str(bound)})
            rows.append({"epsilons": [eps_text(e) for e in epss[:n]], "n": n,
                         "worst_ratio": str(worst), "max_e^eps_i": str(bound),
                         "tight": bool(worst == bound)})
        same = _joint([out[0][0], out[0][0]])
        same_absent = _joint([out[0][ABSENT], out[0][ABSENT]])
        overlap = _worst(same, same_absent)
        overlap_rows.append({"epsilon": eps_text(epss[0]), "same_individual_twice": str(overlap),
                             "exceeds_e^eps": bool(overlap > mechs[0].factors.alpha_u)})
    return CheckResult(holds=not bad, claim="disjoint individuals ⇒ max ε_i-DP",
                       value=f"{len(bad)} violations in {n_pairs} neighbour pairs",
                       method=Method.PROPERTY,
                       evidence={"pairs": n_pairs, "cases": rows,
                                 "same_individual_asked_twice": overlap_rows},
                       counterexample=bad[:3] or None)


def check_prop_5(*, bound_factor: Fr = Fr(1)) -> CheckResult:
    """Post-processing at every registry ε (exact individual factors e^{±ε}): every map F of
    Example 8's 4 outcomes into {0, 1, 2} (81 maps); the worst ratio of F(K) between D (both
    individuals present, values 0 and 1) and D′ (individual 1 removed) is at most that of K
    (``bound_factor`` < 1 is a mutant)."""
    rows, bad = [], []
    for eps in EPSILONS:
        au, ad = exact_factors(eps, "individual")
        mech = Refinement(prior=DiscretePrior.uniform([0, 1]), factors=Factors(
            alpha_u=au, alpha_d=ad, query="individual", epsilon=eps_float(eps)))
        joint_d = _joint([dlaw(mech, 0).as_dict(), dlaw(mech, 1).as_dict()])
        joint_n = _joint([dlaw(mech, ABSENT).as_dict(), dlaw(mech, 1).as_dict()])
        outs = sorted(joint_d)
        base = _worst(joint_d, joint_n)
        worst: Any = Fr(0)
        for img in itertools.product(range(3), repeat=len(outs)):
            pd: dict[int, Any] = {}
            pn: dict[int, Any] = {}
            for o, y in zip(outs, img, strict=True):
                pd[y] = pd.get(y, 0) + joint_d[o]
                pn[y] = pn.get(y, 0) + joint_n[o]
            r = _worst(pd, pn)
            if r > worst:
                worst = r
        ok = worst <= base * bound_factor  # bound_factor < 1: a mutant
        row = {"epsilon": eps_text(eps), "ratio_of_K": str(base),
               "worst_ratio_of_F(K)": str(worst), "holds": bool(ok)}
        rows.append(row)
        if not ok:
            bad.append(row)
    return CheckResult(holds=not bad, claim="F(K) is as private as K",
                       value=f"{len(bad)} of {len(rows)} ε values fail",
                       method=Method.EXHAUSTIVE, counterexample=bad[:3] or None,
                       evidence={"maps_per_epsilon": 81, "cases": rows})
