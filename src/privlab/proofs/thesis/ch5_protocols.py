"""Protocols 1–2 (thesis §5.4.1) and Corollary 2 (§5.4.2): is the whole adaptive transcript ε-DP?

§5.4.2: "The interactive mechanisms of Protocols 1 and 2 guarantee, respectively for Laplace
noise and knowledge refinement, that the responses to any sequence of adaptive queries
(q_1, …, q_d) will not violate ε-differential privacy."  Here the transcript is everything the
user sees — the answers, and the refusal that ends the session — while each query may depend on
the earlier answers.  The neighbour relation is the thesis's Definition 3 (add/remove one
record).  Both protocols are decided exactly on small finite universes, the protocol rule as
printed:

* **Protocol 2** (knowledge refinement): 2 individuals, each absent or with a Boolean value
  (9 data sets).  A query q_i = (f_i, P_{f_i}, d_i, ε_i): f_i ∈ {value of 1, value of 2 (the
  answer for an absent individual is the prior, §5.1), count of ones, number of records}, a
  rational prior, a distance (nominal or absolute for the statistical ones) and ε_i; answered
  by privlab's Algorithm 5.1 with Table 5.2's factors (individual e^{±ε_i}; statistical
  α_u = (1 + e^{ε_i})/2, α_d = α_u e^{−ε_i}) iff Σ_{j≤i} ε_j ≤ ε, else the session stops.
  ε_i is a fraction of ε (1, 1/2, 1/3, 1/4) at a rational ε, so every probability lies in
  ℚ(e^{ε/12}) (:mod:`.ch5_exact`); at ε = ln 2 the user's e^{ε_i} ∈ {2, 3/2, 4/3, 9/8} and all
  numbers are rational.  For every transcript t and ordered neighbour pair (D, D′) the check
  decides P(t | D) ≤ e^ε P(t | D′) exactly — for the transcripts of explicit adaptive
  strategies (priors from the attacker's posterior, query, distance and ε_i chosen from the
  answers), and for *every* deterministic adaptive strategy over a menu of queries: a
  transcript's probability is the product of its rounds' answer probabilities, so the worst
  transcript over all strategies is a longest-path problem over the budget spent, solved
  exactly (:func:`_menu_worst`).
* **Protocol 1** (Laplace): 3 individuals (27 data sets), a library of integer queries, the
  joint L1 sensitivity Δ(f_1..f_i) computed exactly over the universe; answered with
  f_i(D) + Laplace(λ) iff Δ(f_1..f_i)/λ ≤ ε.  The transcript density ratio is
  Π exp((|y_j − f_j(D′)| − |y_j − f_j(D)|)/λ); an adaptive strategy picks the next query from
  the half-line the previous answer fell in, so its transcript regions are products of
  half-lines and the essential supremum of the log-ratio over a region is the sum of each
  coordinate's supremum (piecewise linear, attained at an end or a kink) — exact rationals over
  λ.  With λ = B/ε the log-ratio is (L/B)·ε, so at every ε the decision is L ≤ B.

Corollary 2 (the attacker's estimate) is decided on Protocol 2's transcripts: the MAP estimate
of individual 1's record and of the count, pushed forward exactly.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Callable
from fractions import Fraction as Fr
from typing import Any

import attrs
import numpy as np

from privlab.mechanisms.refinement.algorithm import ABSENT, Refinement
from privlab.mechanisms.refinement.distances import ABSOLUTE, NOMINAL
from privlab.mechanisms.refinement.factors import Factors
from privlab.proofs.thesis.ch5_checks import dlaw, dprior
from privlab.proofs.thesis.ch5_exact import (
    EPSILONS,
    LN2,
    eps_float,
    eps_text,
    exp_bound_ok,
    exp_of,
)
from privlab.types import CheckResult, Method

INF = float("inf")

# ---- Protocol 2: the universe --------------------------------------------------------------------
DSETS2: tuple[tuple[int | None, ...], ...] = tuple(itertools.product((None, 0, 1), repeat=2))
"""Individual 1's and 2's record: absent (None) or the Boolean value."""


def _ar_pairs(dsets: tuple[tuple[Any, ...], ...]) -> tuple[tuple[int, int], ...]:
    """Ordered add/remove neighbours (i, j): the data sets differ in one individual, who is
    absent in one of them (the thesis's Definition 3)."""
    out = []
    for i, a in enumerate(dsets):
        for j, b in enumerate(dsets):
            diff = [k for k in range(len(a)) if a[k] != b[k]]
            if len(diff) == 1 and (a[diff[0]] is None) != (b[diff[0]] is None):
                out.append((i, j))
    return tuple(out)


PAIRS2 = _ar_pairs(DSETS2)
FRACTIONS = (Fr(1), Fr(1, 2), Fr(1, 3), Fr(1, 4))
"""ε_i/ε offered to the user at a rational ε (generator y = e^{ε/12})."""
LN2_MENU = (Fr(2), Fr(3, 2), Fr(4, 3), Fr(9, 8))
"""e^{ε_i} offered at ε = ln 2 (ε_i = ln 2, ln 3/2, ln 4/3, ln 9/8; 4/3 · 3/2 = 2 is tight)."""
RULES = ("printed", "exclusive", "double")
"""Protocol 2's test: Σ_{j≤i} ε_j ≤ ε (printed); Σ_{j<i} ε_j ≤ ε (the new ε_i left out, a
mutant); Σ_{j≤i} ε_j ≤ 2ε (a mutant)."""
VARIANTS = ("thesis", "individual-factors-on-statistical", "absent-refined")
"""The refinement step: as in the thesis; with the individual factors e^{±ε_i} on a statistical
query (Table 5.2's rows swapped, a mutant); an absent individual answered by refining the
prior around 0 instead of returning the prior (§5.1's case (i) dropped, a mutant)."""


def budget_menu(eps: Any) -> tuple[Any, ...]:
    """The exact e^{ε_i} the user may ask for (largest first)."""
    if eps == LN2:
        return LN2_MENU
    g = Fr(eps) / 12
    return tuple(exp_of(eps, c, g) for c in FRACTIONS)


def e_total(eps: Any) -> Any:
    return Fr(2) if eps == LN2 else exp_of(eps, Fr(1), Fr(eps) / 12)


@attrs.frozen
class RQuery:
    """Protocol 2's q_i = (f_i, P_{f_i}, d_i, ε_i); ``budget`` indexes :func:`budget_menu`."""

    f: str
    prior: tuple[Fr, ...]
    distance: str
    budget: int

    @property
    def individual(self) -> bool:
        return self.f in ("ind1", "ind2")

    def value(self, d: tuple[Any, ...]) -> Any:
        if self.individual:
            v = d[0 if self.f == "ind1" else 1]
            return ABSENT if v is None else v
        if self.f == "count":
            return sum(1 for v in d if v == 1)
        return sum(1 for v in d if v is not None)  # "size"

    def text(self) -> str:
        return (f"{self.f}, prior {'/'.join(str(p) for p in self.prior)}, {self.distance}, "
                f"budget #{self.budget}")


@functools.cache
def _law(q: RQuery, t: Any, eps: Any, variant: str) -> tuple[Any, ...]:
    """P(answer = a | f(D) = t) for a = 0, 1, … (exact)."""
    e = budget_menu(eps)[q.budget]
    prior = dprior(tuple(range(len(q.prior))), q.prior)
    broken = variant == "individual-factors-on-statistical" and not q.individual
    if q.individual or broken:
        au, ad = e, 1 / e
    else:
        au = (1 + e) / 2
        ad = au / e
    f = Factors(alpha_u=au, alpha_d=ad, query="individual" if q.individual else "statistical",
                epsilon=math.log(float(e)), control=broken)
    mech = Refinement(prior=prior, factors=f,
                      distance=ABSOLUTE if q.distance == "absolute" else NOMINAL)
    if t is ABSENT:
        if variant != "absent-refined":
            return q.prior
        t = 0
    return tuple(dlaw(mech, t).probs)


def _admit(spent: Any, e: Any, total: Any, rule: str) -> bool:
    if rule == "printed":
        return bool(spent * e <= total)
    if rule == "exclusive":
        return bool(spent <= total)
    return bool(spent * e <= total * total)  # "double"


# ---- Protocol 2: explicit adaptive strategies ----------------------------------------------------
History = tuple[tuple[RQuery, int], ...]
Strategy = Callable[[History, tuple[float, ...]], RQuery | None]


def _rat(p: float, den: int = 50) -> Fr:
    return min(max(Fr(p).limit_denominator(den), Fr(1, den)), 1 - Fr(1, den))


def _bayes_target(h: History, post: tuple[float, ...]) -> RQuery | None:
    """Always individual 1, the prior its posterior predictive (present given); ε_i shrinks
    after an answer 1 and grows after a 0."""
    p1 = sum(p for d, p in zip(DSETS2, post, strict=True) if d[0] == 1)
    pp = sum(p for d, p in zip(DSETS2, post, strict=True) if d[0] is not None)
    q1 = _rat(p1 / pp if pp else 0.5)
    b = 3 if not h or h[-1][1] == 1 else 2
    return RQuery("ind1", (1 - q1, q1), "nominal", b)


def _switch(h: History, post: tuple[float, ...]) -> RQuery | None:
    """Query, prior, distance and ε_i all follow the last answer."""
    last = h[-1][1] if h else 0
    b = 2 + (len(h) + last) % 2
    if last == 0:
        return RQuery("count", (Fr(3, 5), Fr(1, 5), Fr(1, 5)), "absolute", b)
    if last == 1:
        return RQuery("ind2", (Fr(1, 2), Fr(1, 2)), "nominal", b)
    return RQuery("size", (Fr(1, 10), Fr(1, 5), Fr(7, 10)), "nominal", b)


def _fake_priors(h: History, post: tuple[float, ...]) -> RQuery | None:
    """Individual 1 with extreme fake priors that flip with the answers, smallest ε_i."""
    flip = bool(h) and h[-1][1] == 1
    prior = (Fr(1, 100), Fr(99, 100)) if flip else (Fr(99, 100), Fr(1, 100))
    return RQuery("ind1", prior, "nominal", 3)


def _full_then_probe(h: History, post: tuple[float, ...]) -> RQuery | None:
    """The whole budget on individual 1, then one more (refused) query."""
    if not h:
        return RQuery("ind1", (Fr(1, 2), Fr(1, 2)), "nominal", 0)
    return RQuery("ind2", (Fr(1, 2), Fr(1, 2)), "nominal", 3)


def _count_then_target(h: History, post: tuple[float, ...]) -> RQuery | None:
    """A count first; its answer picks individual 1, individual 2 or the size (ε_i = ε/3
    each); then the smallest ε_i on an individual chosen from the posterior."""
    if not h:
        return RQuery("count", (Fr(1, 3), Fr(1, 3), Fr(1, 3)), "nominal", 2)
    if len(h) == 1:
        f = ("ind1", "ind2", "size")[h[0][1]]
        prior = (Fr(1, 3),) * 3 if f == "size" else (Fr(1, 2), Fr(1, 2))
        return RQuery(f, prior, "absolute" if f == "size" else "nominal", 2)
    return RQuery("ind1" if post[0] < 0.2 else "ind2", (Fr(1, 2), Fr(1, 2)), "nominal", 3)


STRATEGIES: dict[str, Strategy] = {
    "bayes-target": _bayes_target, "switch": _switch, "fake-priors": _fake_priors,
    "full-then-probe": _full_then_probe, "count-then-target": _count_then_target}
MAX_ROUNDS = 6


@functools.cache
def _run_named(name: str, eps: Any, rule: str, variant: str
               ) -> tuple[tuple[tuple[Any, ...], tuple[Any, ...]], ...]:
    return tuple(run_protocol_2(STRATEGIES[name], eps, rule=rule, variant=variant).items())


def run_protocol_2(strategy: Strategy, eps: Any, *, rule: str = "printed",
                   variant: str = "thesis", rounds: int = MAX_ROUNDS
                   ) -> dict[tuple[Any, ...], tuple[Any, ...]]:
    """Every transcript of ``strategy`` under Protocol 2 → (P(transcript | D) for D in
    :data:`DSETS2`), exact.  A transcript is the answers, then ``"refused"`` when the session
    stopped on a refusal, or nothing when the strategy stopped or ``rounds`` were answered."""
    menu, total = budget_menu(eps), e_total(eps)
    out: dict[tuple[Any, ...], tuple[Any, ...]] = {}

    def rec(h: History, probs: tuple[Any, ...], spent: Any) -> None:
        answers = tuple(a for _, a in h)
        if len(h) == rounds:
            out[answers] = probs
            return
        fl = [_approx(p) for p in probs]
        tot = sum(fl)
        q = strategy(h, tuple(x / tot for x in fl))
        if q is None:
            out[answers] = probs
            return
        e = menu[q.budget]
        if not _admit(spent, e, total, rule):
            out[(*answers, "refused")] = probs
            return
        laws = [_law(q, q.value(d), eps, variant) for d in DSETS2]
        for a in range(len(q.prior)):
            new = tuple(p * law[a] for p, law in zip(probs, laws, strict=True))
            rec((*h, (q, a)), new, spent * e)

    rec((), tuple(Fr(1) for _ in DSETS2), Fr(1))
    return out


def _approx(x: Any) -> float:
    return x.approx() if hasattr(x, "approx") else float(x)


def _worst_pairs(laws: dict[Any, tuple[Any, ...]], eps: Any, c: Fr = Fr(1)
                 ) -> tuple[bool, Any, Any]:
    """(every P(t | D) ≤ e^{cε} P(t | D′) over add/remove pairs — decided exactly —, the worst
    ratio (located in double precision, reported exactly), where)."""
    ok, top, arg = True, -1.0, None
    for t, probs in laws.items():
        for i, j in PAIRS2:
            p, q = probs[i], probs[j]
            if p == 0:
                continue
            if q == 0:
                ok, top, arg = False, INF, (t, i, j)
                continue
            r = p / q
            if not exp_bound_ok(r, eps, c):
                ok = False
            fr = _approx(p) / _approx(q)
            if top != INF and fr > top:
                top, arg = fr, (t, i, j)
    if arg is None:
        return ok, Fr(0), None
    t, i, j = arg
    worst = INF if top == INF else laws[t][i] / laws[t][j]
    return ok, worst, {"outcome": t, "D": DSETS2[i], "D'": DSETS2[j]}


# ---- Protocol 2: every adaptive strategy over a menu ---------------------------------------------
def _menu_queries() -> tuple[RQuery, ...]:
    half = (Fr(1, 2), Fr(1, 2))
    ind_priors = (half, (Fr(9, 10), Fr(1, 10)), (Fr(1, 10), Fr(9, 10)))
    stat_priors = ((Fr(1, 3),) * 3, (Fr(4, 5), Fr(1, 10), Fr(1, 10)),
                   (Fr(1, 10), Fr(1, 10), Fr(4, 5)))
    out = [RQuery(f, p, "nominal", b) for f in ("ind1", "ind2") for p in ind_priors
           for b in range(4)]
    out += [RQuery(f, p, d, b) for f in ("count", "size") for p in stat_priors
            for d in ("absolute", "nominal") for b in range(4)]
    return tuple(out)


MENU = _menu_queries()
"""72 queries: individual 1 / 2 (three priors), count / size (three priors, two distances),
each at the four ε_i of :func:`budget_menu`."""


@functools.cache
def _round_worst(q: RQuery, t: Any, t2: Any, eps: Any, variant: str) -> Any:
    """max_a P(a | f(D) = t)/P(a | f(D′) = t2) for one query (∞ when D′ cannot give a)."""
    worst: Any = Fr(0)
    for p, r in zip(_law(q, t, eps, variant), _law(q, t2, eps, variant), strict=True):
        if p == 0:
            continue
        if r == 0:
            return INF
        x = p / r
        if x > worst:
            worst = x
    return worst


def _mul_inf(a: Any, b: Any) -> Any:
    return INF if INF in (a, b) else a * b


def _menu_worst(eps: Any, rule: str, variant: str,
                queries: tuple[RQuery, ...] | None = None) -> dict[str, Any]:
    """The worst transcript ratio P(t | D)/P(t | D′) over *every* deterministic adaptive
    strategy whose queries come from :data:`MENU`, for every ordered add/remove pair.

    A strategy's transcript t = (a_1, …, a_d) has P(t | D) = Π_j P(a_j | D, q_j), q_j the query
    the strategy asks after a_1..a_{j−1}; conversely any sequence of (query, answer) is a
    transcript of some strategy.  So the worst ratio is max over admissible query sequences of
    Π_j max_a P(a | D, q_j)/P(a | D′, q_j): with m_b = the worst per-round ratio among the queries
    of budget b, Best(spent) = max(1, max_{b admissible} m_b · Best(spent · e^{ε_b})); every
    admissible step multiplies ``spent`` by at least min e^{ε_b} > 1, so the recursion ends.
    ``queries``: another menu (tests)."""
    menu, total = budget_menu(eps), e_total(eps)
    rows, ok, worst_all = [], True, Fr(0)
    for i, j in PAIRS2:
        m: list[Any] = [Fr(0)] * len(menu)
        for q in MENU if queries is None else queries:
            x = _round_worst(q, q.value(DSETS2[i]), q.value(DSETS2[j]), eps, variant)
            if x == INF or (m[q.budget] != INF and x > m[q.budget]):
                m[q.budget] = x
        memo: dict[Any, Any] = {}

        def best(spent: Any, m: list[Any] = m, memo: dict[Any, Any] = memo) -> Any:
            if spent in memo:
                return memo[spent]
            val: Any = Fr(1)
            for b, e in enumerate(menu):
                if not _admit(spent, e, total, rule) or not spent * e <= total * total * total:
                    continue  # the last test only bounds the mutants' recursion
                cand = _mul_inf(m[b], best(spent * e, m, memo))
                if cand == INF or (val != INF and cand > val):
                    val = cand
            memo[spent] = val
            return val

        w = best(Fr(1))
        good = w != INF and exp_bound_ok(w, eps)
        ok &= good
        if w == INF or (worst_all != INF and w > worst_all):
            worst_all = w
        rows.append({"D": DSETS2[i], "D'": DSETS2[j], "worst_ratio": str(w), "holds": good})
    return {"holds": ok, "worst_ratio": str(worst_all),
            "tight": bool(worst_all != INF and worst_all == total), "pairs": rows}


ORDER = (LN2, *[e for e in EPSILONS if e != LN2])
"""ε values in the order checked (the rational ε = ln 2 is the cheapest); a failing ε ends the
check of a mutant — the claim itself passes only when every ε passes."""


@functools.cache
def _protocol_2_row(eps: Any, rule: str, variant: str) -> tuple[tuple[str, Any], ...]:
    strat = {}
    for name in STRATEGIES:
        laws = dict(_run_named(name, eps, rule, variant))
        ok, worst, where = _worst_pairs(laws, eps)
        strat[name] = {"holds": ok, "transcripts": len(laws), "worst_ratio": str(worst),
                       "where": None if ok else where}
    menu = _menu_worst(eps, rule, variant)
    return (("strategies", strat),
            ("every_menu_strategy", {k: v for k, v in menu.items() if k != "pairs"}),
            ("menu_failing_pairs", [r for r in menu["pairs"] if not r["holds"]][:3]),
            ("holds", all(r["holds"] for r in strat.values()) and menu["holds"]))


def check_protocol_2(*, rule: str = "printed", variant: str = "thesis") -> CheckResult:
    """Protocol 2's whole adaptive transcript is ε-DP (add/remove) at every registry ε: the
    explicit strategies' transcripts and every strategy over :data:`MENU`, exactly.  ``rule``
    and ``variant`` other than the defaults are mutants (:data:`RULES`, :data:`VARIANTS`)."""
    import copy

    rows: dict[str, Any] = {}
    for eps in ORDER:
        rows[eps_text(eps)] = copy.deepcopy(dict(_protocol_2_row(eps, rule, variant)))
        if not rows[eps_text(eps)]["holds"]:
            break
    bad = {e: r for e, r in rows.items() if not r["holds"]}
    return CheckResult(
        holds=not bad, claim="Protocol 2's adaptive transcript is ε-DP under add/remove",
        value=f"{len(bad)} of {len(rows)} ε values checked fail", method=Method.EXACT,
        evidence={"rule": rule, "refinement": variant, "per_epsilon": rows,
                  "menu_queries": len(MENU), "strategies": list(STRATEGIES)},
        counterexample=None if not bad else {
            e: {"strategies": {k: v for k, v in r["strategies"].items() if not v["holds"]},
                "every_menu_strategy": r["every_menu_strategy"],
                "menu_failing_pairs": r["menu_failing_pairs"]}
            for e, r in bad.items()})


# ---- Corollary 2: the attacker's estimate -------------------------------------------------------
def _estimates(laws: dict[Any, tuple[Any, ...]]) -> dict[str, dict[Any, list[Any]]]:
    """Push the transcripts forward through two estimates of the attacker (uniform prior on the
    9 data sets): the MAP of individual 1's record (absent / 0 / 1) and the MAP of the count."""
    out: dict[str, dict[Any, list[Any]]] = {"record of 1": {}, "count": {}}
    for probs in laws.values():
        fl = [_approx(p) for p in probs]
        for name, key in (("record of 1", lambda d: d[0]),
                          ("count", lambda d: sum(1 for v in d if v == 1))):
            post: dict[Any, float] = {}
            for d, p in zip(DSETS2, fl, strict=True):
                post[key(d)] = post.get(key(d), 0.0) + p
            est = max(post, key=lambda k: (post[k], str(k)))
            acc = out[name].setdefault(est, [Fr(0)] * len(DSETS2))
            for k, p in enumerate(probs):
                acc[k] = acc[k] + p
    return out


@functools.cache
def _cor_2_row(eps: Any, c: Fr) -> tuple[tuple[str, Any], ...]:
    res = []
    for name in STRATEGIES:
        for ename, push in _estimates(dict(_run_named(name, eps, "printed", "thesis"))).items():
            ok, worst, where = _worst_pairs({k: tuple(v) for k, v in push.items()}, eps, c)
            res.append((f"{name} / {ename}", {"holds": ok, "worst_ratio": str(worst),
                                              "where": None if ok else where}))
    return tuple(res)


def check_cor_2_exact(*, claimed: Fr = Fr(1)) -> CheckResult:
    """Corollary 2 at every registry ε: the attacker's estimates (MAP of individual 1's record,
    MAP of the count) after each explicit adaptive strategy of Protocol 2 are ε-DP under
    add/remove, exactly.  ``claimed`` < 1 (a mutant) asks for (claimed·ε)-DP."""
    import copy

    rows: dict[str, Any] = {}
    for eps in ORDER:
        rows[eps_text(eps)] = copy.deepcopy(dict(_cor_2_row(eps, Fr(claimed))))
        if not all(v["holds"] for v in rows[eps_text(eps)].values()):
            break
    bad = {e: {k: v for k, v in r.items() if not v["holds"]} for e, r in rows.items()}
    bad = {e: r for e, r in bad.items() if r}
    return CheckResult(
        holds=not bad, claim="the adaptive attacker's estimate is ε-DP",
        value=f"{len(bad)} of {len(rows)} ε values checked fail", method=Method.EXACT,
        evidence={"claimed_fraction_of_eps": str(claimed), "per_epsilon": rows},
        counterexample=bad or None)


# ---- Protocol 1 ----------------------------------------------------------------------------------
DSETS1: tuple[tuple[int | None, ...], ...] = tuple(itertools.product((None, 0, 1), repeat=3))
PAIRS1 = _ar_pairs(DSETS1)


def _v(d: tuple[Any, ...], k: int) -> int:
    return d[k] or 0


LIBRARY: dict[str, Callable[[tuple[Any, ...]], int]] = {
    "count of ones": lambda d: sum(1 for v in d if v == 1),
    "number of records": lambda d: sum(1 for v in d if v is not None),
    "value of 1": lambda d: _v(d, 0),
    "value of 2": lambda d: _v(d, 1),
    "value of 3": lambda d: _v(d, 2),
    "value of 1 + value of 2": lambda d: _v(d, 0) + _v(d, 1),
    "2 × value of 1": lambda d: 2 * _v(d, 0),
}
"""Integer queries on 3 individuals (an absent individual's value reads 0)."""
QNAMES = tuple(LIBRARY)
TABLE1 = {q: tuple(f(d) for d in DSETS1) for q, f in LIBRARY.items()}
P1_RULES = ("printed", "double", "per-query", "max")
"""Protocol 1's test: Δ(f_1..f_i) ≤ λε (printed); ≤ 2λε (a mutant); Δ(f_i) ≤ λε for the new
query alone (a mutant); max_j Δ(f_j) ≤ λε, as if the queries were about disjoint individuals (a
mutant)."""
BUDGETS = (1, 2, 3)
"""B = λε: Protocol 1 is run with λ = B/ε at every ε."""


_DIFF = {q: np.abs(np.array([TABLE1[q][i] - TABLE1[q][j] for i, j in PAIRS1], dtype=np.int64))
         for q in QNAMES}
_A = {q: np.array([TABLE1[q][i] for i, _ in PAIRS1], dtype=np.int64) for q in QNAMES}
_B = {q: np.array([TABLE1[q][j] for _, j in PAIRS1], dtype=np.int64) for q in QNAMES}


@functools.cache
def _sens_sorted(queries: tuple[str, ...]) -> int:
    return int(np.sum([_DIFF[q] for q in queries], axis=0).max()) if queries else 0


def sensitivity(queries: tuple[str, ...]) -> int:
    """Δ(f_1..f_i): the exact L1 sensitivity of the multi-component query over the add/remove
    pairs of the universe (integers)."""
    return _sens_sorted(tuple(sorted(queries)))


def _admit1(queries: tuple[str, ...], budget: int, rule: str) -> bool:
    if rule == "printed":
        return sensitivity(queries) <= budget
    if rule == "double":
        return sensitivity(queries) <= 2 * budget
    if rule == "per-query":
        return sensitivity(queries[-1:]) <= budget
    return max(sensitivity((q,)) for q in queries) <= budget  # "max"


@functools.cache
def _region_sup2(q: str, t2: int, above: bool) -> np.ndarray:
    """2 × sup of |y − f(D′)| − |y − f(D)| over y ≥ t (``above``) or y < t, for every ordered
    pair (t2 = 2t an integer): the function is piecewise linear, so the supremum is at the
    region's end, at a kink inside it, or on the constant tail — exact integers."""
    a2, b2 = 2 * _A[q], 2 * _B[q]
    h = [np.abs(t2 - b2) - np.abs(t2 - a2)]
    for x in (a2, b2):
        inside = (x >= t2) if above else (x <= t2)
        h.append(np.where(inside, np.abs(x - b2) - np.abs(x - a2), h[0]))
    h.append(a2 - b2 if above else b2 - a2)  # the tail beyond both points and t
    return np.maximum.reduce(h)


P1Strategy = Callable[[tuple[int, ...]], tuple[str, Fr]]


def _p1_strategy(seed: int) -> P1Strategy:
    """The next (query, threshold) from the sides (0: below, 1: above) the answers fell on."""
    def nxt(sides: tuple[int, ...]) -> tuple[str, Fr]:
        k = len(sides)
        q = QNAMES[(3 * seed + 5 * k + 2 * sum(sides) + (sides[-1] if sides else 0))
                   % len(QNAMES)]
        return q, Fr(2 * ((k + seed + sum(sides)) % 4) - 1, 2)  # −1/2, 1/2, 3/2, 5/2
    return nxt


def _p1_repeat(q: str) -> P1Strategy:
    def nxt(sides: tuple[int, ...]) -> tuple[str, Fr]:
        return q, Fr(1, 2) if not sides or sides[-1] else Fr(-1, 2)
    return nxt


P1_STRATEGIES: dict[str, P1Strategy] = {
    **{f"mixed-{s}": _p1_strategy(s) for s in range(6)},
    "repeat value of 1": _p1_repeat("value of 1"),
    "repeat count": _p1_repeat("count of ones"),
}
P1_ROUNDS = 5


def _p1_strategy_worst(strategy: P1Strategy, budget: int, rule: str) -> tuple[Fr, int, Any]:
    """The largest λ·(log-ratio) L over the transcript regions of ``strategy`` and all ordered
    pairs, the number of regions, and where."""
    worst2, where, regions = -1, None, 0

    def rec(sides: tuple[int, ...], path: tuple[tuple[str, Fr], ...]) -> None:
        nonlocal worst2, where, regions
        if len(sides) < P1_ROUNDS:
            q, t = strategy(sides)
            qs = (*(p[0] for p in path), q)
            if _admit1(qs, budget, rule):
                for side in (0, 1):
                    rec((*sides, side), (*path, (q, t)))
                return
        regions += 1
        total = np.zeros(len(PAIRS1), dtype=np.int64)
        for (q, t), side in zip(path, sides, strict=True):
            total = total + _region_sup2(q, int(2 * t), bool(side))
        k = int(np.argmax(total))
        if int(total[k]) > worst2:
            i, j = PAIRS1[k]
            worst2, where = int(total[k]), {"queries": [q for q, _ in path],
                                            "thresholds": [str(t) for _, t in path],
                                            "sides (1: above)": list(sides),
                                            "D": DSETS1[i], "D'": DSETS1[j]}

    rec((), ())
    return Fr(worst2, 2), regions, where


def _p1_sequences_worst(budget: int, rule: str, length: int = 4) -> tuple[int, Any]:
    """Every query sequence of length ≤ ``length`` the rule answers: the supremum over all
    adaptive strategies that ask it (each answer's region may be any half-line, whose term's
    supremum is |f_j(D) − f_j(D′)|) is Σ_j |f_j(D) − f_j(D′)|, maximised over the pairs."""
    worst, where = 0, None
    for n in range(1, length + 1):
        for qs in itertools.product(QNAMES, repeat=n):
            if not all(_admit1(qs[:k], budget, rule) for k in range(1, n + 1)):
                continue
            s = sensitivity(qs)
            if s > worst:
                worst, where = s, list(qs)
    return worst, where


@functools.cache
def _protocol_1_memo(rule: str) -> tuple[tuple[int, Any], ...]:
    rows = []
    for budget in BUDGETS:
        strat = {}
        for name, s in P1_STRATEGIES.items():
            worst, regions, where = _p1_strategy_worst(s, budget, rule)
            strat[name] = {"L": str(worst), "regions": regions, "holds": worst <= budget,
                           "where": None if worst <= budget else where}
        seq_worst, seq_where = _p1_sequences_worst(budget, rule)
        rows.append((budget, {"strategies": strat, "every_sequence_of_length_4": {
            "L": seq_worst, "holds": seq_worst <= budget,
            "where": None if seq_worst <= budget else seq_where}}))
    return tuple(rows)


def check_protocol_1(*, rule: str = "printed") -> CheckResult:
    """Protocol 1's whole adaptive transcript is ε-DP (add/remove) at every registry ε with
    λ = B/ε, B ∈ {1, 2, 3}: the exact supremum of the transcript log-density ratio over the
    regions of explicit adaptive strategies, and over every query sequence of length ≤ 4.
    The log-ratio is L/λ = (L/B)·ε with L rational, so it is ≤ ε iff L ≤ B.  ``rule`` other than
    ``"printed"`` is a mutant (:data:`P1_RULES`)."""
    import copy

    by_b = copy.deepcopy(dict(_protocol_1_memo(rule)))
    per_eps: dict[str, Any] = {}
    bad = []
    for eps in EPSILONS:
        for budget, r in by_b.items():
            ls = [Fr(v["L"]) for v in r["strategies"].values()]
            ls.append(Fr(r["every_sequence_of_length_4"]["L"]))
            top = max(ls)
            ok = top <= budget
            per_eps[f"ε = {eps_text(eps)}, λ = {budget}/ε"] = {
                "max_log_ratio": f"({top}/{budget})·{eps_text(eps)}",
                "max_log_ratio_float": float(top) / budget * eps_float(eps), "holds": ok}
            if not ok:
                bad.append({"epsilon": eps_text(eps), "lambda": f"{budget}/ε",
                            "log_ratio_over_eps": str(top / budget),
                            "strategies": {k: v for k, v in r["strategies"].items()
                                           if not v["holds"]},
                            "sequences": r["every_sequence_of_length_4"]})
    return CheckResult(
        holds=not bad, claim="Protocol 1's adaptive transcript is ε-DP under add/remove",
        value=f"{len(bad)} of {len(per_eps)} (ε, λ) instances fail", method=Method.EXACT,
        evidence={"rule": rule, "per_budget_B": by_b, "per_epsilon_lambda": per_eps,
                  "library": list(QNAMES), "data_sets": len(DSETS1),
                  "ordered_add_remove_pairs": len(PAIRS1)},
        counterexample=bad[:2] or None)
