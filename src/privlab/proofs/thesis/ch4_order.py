"""Checks of thesis §4.1–4.3 that need the order and DP checkers: Definitions 6–8, the density
characterisation (4.2), the §4.3 construction, and Lemma 1.

The order comes from :func:`privlab.verify.compare` (value ``"less"`` means the first noise is
strictly smaller, i.e. better, than the second) and DP from :func:`privlab.verify.check_pure_dp`;
both are imported inside the checks.  Independent exact computations from
:mod:`privlab.proofs.thesis.ch4_exact` corroborate them where possible.
"""

from __future__ import annotations

import functools
import itertools
import math
from typing import Any

import mpmath
import numpy as np
import sympy as sp

from privlab.mechanisms.noise.laplace import Laplace
from privlab.mechanisms.noise.staircase import Staircase
from privlab.proofs.thesis import ch4_exact as ex
from privlab.proofs.thesis import ch4_grids as gr
from privlab.proofs.thesis import ch4_noises as nz
from privlab.proofs.thesis import ch4_symbolic as sym
from privlab.types import CheckResult, Method

DPS = 30
MIRROR = {"less": "greater", "greater": "less", "equal": "equal", "incomparable": "incomparable"}


def _api() -> tuple[Any, Any]:
    from privlab.verify import check_pure_dp, compare

    return check_pure_dp, compare


def family(eps: float = 1.0) -> dict[str, Any]:
    """A finite family of noises (Δ = 1): staircase members, Laplace at two scales, a sawtooth
    and a wide-core staircase (d > Δ).  Every member is ε-DP for ``eps``."""
    fam: dict[str, Any] = {f"staircase(d={d:.4g})": Staircase(epsilon=eps, d=d)
                           for d in (0.0, 0.25, 0.75, 1.0)}
    m = nz.sec43_m(eps)
    fam[f"staircase(d={float(m):.4g}) [§4.3 m, 400 digits]"] = nz.sec43_member(eps, 1)
    fam["laplace(b=1/ε)"] = Laplace(epsilon=eps)
    fam["laplace(b=2/ε)"] = Laplace(epsilon=eps / 2)
    fam["sawtooth(slope=ε/2)"] = nz.sawtooth(eps, 1, eps / 2)
    fam["staircase(d=1.5)"] = nz.staircase_like(eps, 1, 1.5, label="wide-core")
    return fam


@functools.lru_cache(maxsize=2)
def relation(eps: float = 1.0) -> dict[tuple[str, str], str]:
    """compare() over all ordered pairs of :func:`family` (cached: shared by Def. 6 and 8)."""
    _, compare = _api()
    fam = family(eps)
    return {(a, b): str(compare(fam[a], fam[b], dps=DPS).value)
            for a, b in itertools.product(fam, fam)}


def _le(rel: dict[tuple[str, str], str], a: str, b: str) -> bool:
    return rel[a, b] in ("less", "equal")


# ---- Definition 6 --------------------------------------------------------------------------
def check_def_6(*, preferred: str = "less") -> CheckResult:
    """``preferred="greater"`` is a mutant: the *larger* noise claimed preferred."""
    fam, rel = family(), relation()
    names = list(fam)
    reflexive = [a for a in names if rel[a, a] != "equal"]
    mirror = [(a, b) for a, b in itertools.product(names, names) if MIRROR[rel[a, b]] != rel[b, a]]
    intrans = [(a, b, c) for a, b, c in itertools.product(names, names, names)
               if _le(rel, a, b) and _le(rel, b, c) and not _le(rel, a, c)]
    # consequence ("any rational user prefers the smaller noise"): smaller ⇒ shorter 95 % CI,
    # and smaller variance where the noise has one
    worse = []
    for a, b in itertools.product(names, names):
        if a != b and rel[a, b] == preferred:
            ya, yb = fam[a], fam[b]
            if ya.ci_halfwidth(0.95) > yb.ci_halfwidth(0.95) * (1 + 1e-12):
                worse.append({"smaller": a, "larger": b, "objective": "ci95"})
            if hasattr(ya, "variance") and hasattr(yb, "variance") and \
                    ya.variance() > yb.variance() * (1 + 1e-12):
                worse.append({"smaller": a, "larger": b, "objective": "variance"})
    strict = sorted(f"{a} < {b}" for a, b in itertools.product(names, names)
                    if rel[a, b] == "less")
    ok = not (reflexive or mirror or intrans or worse)
    return CheckResult(holds=ok, claim="Definition 6 orders noises: a preorder whose smaller "
                                       "elements are preferred under every monotone objective",
                       value=len(strict), method=Method.PROPERTY,
                       evidence={"family": names, "strict_pairs": strict,
                                 "not_reflexive": reflexive, "mirror_inconsistent": mirror,
                                 "transitivity_violations": intrans,
                                 "objective_violations": worse},
                       counterexample=None if ok else {"not_reflexive": reflexive,
                                                       "transitivity": intrans[:5],
                                                       "objectives": worse[:5]})


# ---- Definition 7 --------------------------------------------------------------------------
def _prob_star_set(y1: Any, y2: Any, boxes: np.ndarray) -> float:
    """P((Y1, Y2) ∈ ∪_j ⟨0, x_j⟩) for independent symmetric Y1, Y2 (each quadrant: ¼ times the
    probability of a union of origin-anchored rectangles for (|Y1|, |Y2|), a staircase)."""
    total = 0.0
    for sx, sy in itertools.product((1, -1), (1, -1)):
        sel = boxes[(np.sign(boxes[:, 0]) == sx) & (np.sign(boxes[:, 1]) == sy)]
        if len(sel) == 0:
            continue
        u, h = np.abs(sel[:, 0]), np.abs(sel[:, 1])
        order = np.argsort(u)
        u, h = u[order], h[order]
        hmax = np.maximum.accumulate(h[::-1])[::-1]  # height over (u_{k−1}, u_k]
        g1 = y1.prob_within(u)
        prev = np.concatenate(([0.0], g1[:-1]))
        total += 0.25 * float(np.sum((g1 - prev) * y2.prob_within(hmax)))
    return total


@functools.cache
def _def_7_sets() -> tuple[tuple[tuple[tuple[float, ...], ...], float, float, float], ...]:
    """The 300 random sets S = ∪⟨0, x_j⟩ of Definition 7 (seeded generator, in order), each as
    (its corners x_j, P((S_m, S_m) ∈ S), P((L, L) ∈ S), P((S_0.1, S_0.1) ∈ S) − P((S_0.9,
    S_0.9) ∈ S)) — independent of which pair is claimed smaller, so memoised per process
    (shared by the claim and its mutant); immutable tuples of floats."""
    gen = np.random.default_rng(407)
    lap = Laplace(epsilon=1.0)
    sm = Staircase.from_laplace(lap)
    a, b = Staircase(epsilon=1.0, d=0.1), Staircase(epsilon=1.0, d=0.9)
    out = []
    for _ in range(300):
        boxes = gen.uniform(-6, 6, size=(int(gen.integers(1, 6)), 2))
        p_s, p_l = _prob_star_set(sm, sm, boxes), _prob_star_set(lap, lap, boxes)
        diff = _prob_star_set(a, a, boxes) - _prob_star_set(b, b, boxes)
        out.append((tuple(map(tuple, boxes.tolist())), p_s, p_l, diff))
    return tuple(out)


def check_def_7(*, swap: bool = False) -> CheckResult:
    """2-D consequence: with independent components, (S_m, S_m) is smaller than
    (Laplace, Laplace) on random sets S = ∪⟨0, x_j⟩ (the sets of Definition 7); the reverse
    fails on some S; and an incomparable 1-D pair stays incomparable."""
    worst, reverse_found, ab, ba = math.inf, None, False, False
    for boxes, p_s, p_l, diff in _def_7_sets():
        if swap:  # a mutant: (Laplace, Laplace) claimed the smaller pair
            p_s, p_l = p_l, p_s
        worst = min(worst, p_s - p_l)
        if p_s - p_l > 1e-9 and reverse_found is None:
            reverse_found = {"boxes": [list(x) for x in boxes], "P_staircase": p_s,
                             "P_laplace": p_l}
        ab, ba = ab or diff > 1e-9, ba or diff < -1e-9
    ok = worst >= -1e-12 and reverse_found is not None and ab and ba
    return CheckResult(holds=ok, claim="Definition 7 on R²: product of Def.-6-smaller components "
                                       "is smaller; the order is strict and partial",
                       value=worst, method=Method.PROPERTY,
                       evidence={"random_sets": 300, "min_P_staircase_minus_P_laplace": worst,
                                 "set_with_strict_inequality": reverse_found,
                                 "d=0.1_vs_d=0.9_incomparable": ab and ba,
                                 "one_dimensional_case": "sets with ⟨0,x⟩ ⊂ S for x ∈ S are "
                                 "intervals [a, b] ∋ 0 and P[a, b] = P[a, 0] + P[0, b] for a.c. "
                                 "noise, so Def. 7 reduces to Def. 6 on R"},
                       counterexample=None if ok else {"min_difference": worst})


# ---- Definition 8 --------------------------------------------------------------------------
def check_def_8(*, closed: bool = False) -> CheckResult:
    """``closed=True`` is a mutant: members with d ∈ {0, Δ} claimed minimal too."""
    check_pure_dp, _ = _api()
    fam, rel = family(), relation()
    in_c = [n for n, y in fam.items()
            if check_pure_dp(y, epsilon=1.0, sensitivity=1.0, dps=DPS).holds]
    minimal = sorted(n for n in in_c if not any(rel[o, n] == "less" for o in in_c if o != n))
    predicted = sorted(n for n, y in fam.items()
                       if (isinstance(y, Staircase) and (
                           0 <= y.d <= y.sensitivity if closed else 0 < y.d < y.sensitivity))
                       or n.endswith("[§4.3 m, 400 digits]"))
    ok = sorted(in_c) == sorted(fam) and minimal == predicted
    return CheckResult(holds=ok, claim="Definition 8: minimal elements of a class of ε-DP noises",
                       value=minimal, method=Method.PROPERTY,
                       evidence={"class_C (DP members found)": in_c, "minimal": minimal,
                                 "predicted (members with 0 < d < Δ)": predicted},
                       counterexample=None if ok else {"minimal": minimal,
                                                       "predicted": predicted})


# ---- Inequality (4.2) ------------------------------------------------------------------------
def _eq42_distributions(e: float = 1.0) -> list[tuple[str, Any]]:
    """The noises of (4.2) at ε = ``e`` (Δ = 1): four ε-DP ones and four broken controls (each
    broken at every ε: losses 2ε, 1.5ε, 2ε and ε + log 1.01)."""
    from privlab.mechanisms.noise.controls import (
        HalfScaleLaplace,
        HalfWidthStaircase,
        WrongRatioStaircase,
    )

    return [("staircase(d=0.3)", Staircase(epsilon=e, d=0.3)),
            ("laplace", Laplace(epsilon=e)),
            ("sawtooth", nz.sawtooth(e, 1.0, e / 2)),
            ("wide-core staircase(d=1.5)", nz.staircase_like(e, 1.0, 1.5)),
            ("broken: half-scale laplace", HalfScaleLaplace(epsilon=e)),
            ("broken: staircase ratio 1.5ε", WrongRatioStaircase(epsilon=e, d=0.3)),
            ("broken: staircase width Δ/2", HalfWidthStaircase(epsilon=e, d=0.3)),
            ("broken: core raised 1%", nz.staircase_like(e, 1.0, 0.4, core_factor=1.01))]


EQ42_EVENTS = 20
"""Random interval events per noise and ε (7 ε × 8 noises)."""


@functools.cache
def _eq42_exact() -> tuple[tuple[float, str, Any, Any, Any, Any, bool], ...]:
    """Per ε of :data:`~privlab.proofs.thesis.ch4_grids.EQ42_EPS` and noise of
    :func:`_eq42_distributions`, at :data:`DPS` digits: (ε, name, noise, exact pointwise sup of
    log f(x) − log f(x+δ), event log-ratio of small intervals at the maximising pair, worst of
    :data:`EQ42_EVENTS` random interval events (seeded generator, drawn in order over ε and the
    noises),
    check_pure_dp's verdict).  None of it depends on the factor the criterion is compared with,
    so it is memoised per process (shared by the claim and its mutant); frozen noises and mpf
    values in tuples."""
    check_pure_dp, _ = _api()
    gen = np.random.default_rng(42)
    out = []
    with mpmath.workdps(DPS):
        for e in gr.EQ42_EPS:
            for name, y in _eq42_distributions(e):
                tail = y.tail()
                window = float(tail.start) + 4 * float(tail.period) + 1
                sup, arg = ex.density_sup(y, y.sensitivity, window)
                x, dy = arg["interior_x"], arg["interior_y"] - arg["interior_x"]
                h = mpmath.mpf("1e-10")
                ev = ex.event_log_ratio(y, x - h, x + h, dy)
                worst_random = mpmath.mpf("-inf")
                for _ in range(EQ42_EVENTS):
                    c, w = gen.uniform(-window, window), gen.uniform(1e-3, 2.0)
                    s = gen.uniform(-1, 1) * y.sensitivity
                    worst_random = max(worst_random, ex.event_log_ratio(y, c - w, c + w, s))
                verify = check_pure_dp(y, dps=DPS)
                out.append((e, name, y, sup, ev, worst_random, bool(verify.holds)))
    return tuple(out)


def check_eq_4_2(*, pointwise_factor: float = 1.0) -> CheckResult:
    """For each ε of the grid and each noise: pointwise verdict (4.2) — exact sup of log f(x) −
    log f(x+δ) over a window covering the head and 3 tail periods — vs event verdict (4.1):
    small intervals at the maximising pair, and :data:`EQ42_EVENTS` random intervals and
    shifts.  They must agree; and the pointwise sup must agree with check_pure_dp.
    ``pointwise_factor`` ≠ 1 (a mutant) compares the pointwise sup with factor·ε."""
    rows, agree = [], True
    with mpmath.workdps(DPS):
        for e, name, y, sup, ev, worst_random, verify_holds in _eq42_exact():
            eps = mpmath.mpf(y.epsilon)
            pointwise_dp = sup <= pointwise_factor * eps * (1 + mpmath.mpf("1e-20"))
            event_dp = ev <= eps * (1 + mpmath.mpf("1e-20")) and worst_random <= eps * (
                1 + mpmath.mpf("1e-20"))
            agree = agree and pointwise_dp == event_dp == verify_holds
            rows.append({"epsilon": e, "noise": name, "claimed_epsilon": y.epsilon,
                         "pointwise_sup": mpmath.nstr(sup, 15),
                         "event_log_ratio_at_sup": mpmath.nstr(ev, 15),
                         "worst_random_event": mpmath.nstr(worst_random, 15),
                         "pointwise_dp": pointwise_dp, "event_dp": event_dp,
                         "verify.check_pure_dp": verify_holds})
    return CheckResult(holds=agree, claim="(4.2) f(x) ≤ e^ε f(x+δ) at continuity points ⇔ ε-DP",
                       value=sum(r["pointwise_dp"] for r in rows), method=Method.NUMERIC,
                       evidence={"epsilons": gr.EQ42_EPS, "Delta": 1.0,
                                 "random_events_per_noise": EQ42_EVENTS, "noises": rows},
                       counterexample=None if agree else [r for r in rows if not (
                           r["pointwise_dp"] == r["event_dp"] == r["verify.check_pure_dp"])])


# ---- §4.3 -----------------------------------------------------------------------------------
SEC43_GRID = [(e, dl) for e in gr.SEC43_EPS for dl in gr.SEC43_DELTA]
"""ε from 0.01 to 10 (issue 14's sweep and the thesis's values), two sensitivities."""


@functools.cache
def _sec43_core_is_laplace_peak() -> bool:
    """sympy: M0(d = m) − ε/(2Δ) simplifies to 0 (memoised per process: shared by the claim and
    its mutant)."""
    r = sp.exp(-sym.EPS)
    return bool(sp.simplify(sym.m0_of_d().subs({sym.D: sym.m_reconstructed(), sym.R: r})
                            - sym.EPS / (2 * sym.DELTA)) == 0)


@functools.lru_cache(maxsize=64)
def _sec43_sup(e: float, dl: float) -> Any:
    """Exact pointwise sup of log f(x) − log f(y), |x − y| ≤ Δ, over [−(m + 4Δ), m + 4Δ] for
    Staircase.from_laplace(Laplace(e, Δ = dl)), at :data:`DPS` digits (an immutable mpf;
    memoised per process: independent of the ε claimed, so shared by the claim and its
    mutant)."""
    with mpmath.workdps(DPS):
        y = Staircase.from_laplace(Laplace(epsilon=e, sensitivity=dl))
        sup, _ = ex.density_sup(y, dl, y.d + 4 * dl)
    return sup


def check_sec43_dp(*, claimed: float = 1.0) -> CheckResult:
    """check_pure_dp and the exact pointwise supremum on :data:`SEC43_GRID`; ``claimed`` < 1
    (a mutant) asks for (claimed·ε)-DP."""
    check_pure_dp, _ = _api()
    core = _sec43_core_is_laplace_peak()
    rows, ok = [], core
    with mpmath.workdps(DPS):
        for e, dl in SEC43_GRID:
            y = Staircase.from_laplace(Laplace(epsilon=e, sensitivity=dl))
            res = check_pure_dp(y, epsilon=claimed * e, dps=DPS)
            sup = _sec43_sup(e, dl)
            tight = abs(sup - e) <= mpmath.mpf("1e-20") * e
            ok = ok and bool(res.holds) and tight
            rows.append({"epsilon": e, "Delta": dl, "m": y.d, "verify_holds": bool(res.holds),
                         "verify_value": res.value, "pointwise_sup": mpmath.nstr(sup, 20)})
    return CheckResult(holds=ok, claim="the §4.3 density is ε-DP", value=len(rows),
                       method=Method.PROPERTY,
                       evidence={"core_height_equals_laplace_peak_eps/(2Δ)": core, "grid": rows},
                       counterexample=None if ok else [r for r in rows if not r["verify_holds"]])


@functools.lru_cache(maxsize=16)
def _sec43_rounded_vs_laplace(e: float) -> tuple[str, tuple[Any, Any]]:
    """(verdict, (P1 − P2, α) of its witness) of compare(Staircase.from_laplace(L), L) for
    L = Laplace(e) — independent of the member tested, so memoised per process (shared by the
    claim and its mutant); immutable."""
    _, compare = _api()
    lap = Laplace(epsilon=e)
    rounded = compare(Staircase.from_laplace(lap), lap, dps=DPS)
    w = rounded.evidence.get("witness_P1_lt_P2") or {}
    return str(rounded.value), (w.get("P1 - P2"), w.get("alpha"))


@functools.cache
def _sec43_other_members() -> tuple[tuple[str, str], ...]:
    """compare(member d, Laplace(1)) for d ∈ {0, 0.2, m ∓ 10⁻³, 0.6, 1} as (d, verdict) pairs
    (memoised per process: shared by the claim and its mutant)."""
    _, compare = _api()
    lap = Laplace(epsilon=1.0)
    m = Staircase.from_laplace(lap).d
    return tuple((f"{d:.6g}", str(compare(Staircase(epsilon=1.0, d=d), lap, dps=DPS).value))
                 for d in (0.0, 0.2, m - 1e-3, m + 1e-3, 0.6, 1.0))


def check_sec43_smaller(*, d_offset: float = 0.0) -> CheckResult:
    """compare(§4.3 member with m at 400 digits, Laplace) is "less" on a grid of ε; and no other
    member is ≤ Laplace (members d = m ± 10⁻³ and a coarse grid are incomparable with it).
    Evidence also records the float-rounded member of Staircase.from_laplace, which is
    incomparable by ~1e-34 (rounding of m)."""
    _, compare = _api()
    rows, ok = [], True
    for e in gr.SMALLER_EPS:
        lap = Laplace(epsilon=e)
        member = (nz.sec43_member(e, 1) if not d_offset else
                  Staircase(epsilon=e, d=Staircase.from_laplace(lap).d + d_offset))
        res = compare(member, lap, dps=DPS)
        ok = ok and res.value == "less"
        rounded_value, witness = _sec43_rounded_vs_laplace(e)
        rows.append({"epsilon": e, "compare": str(res.value),
                     "float-rounded m: compare": rounded_value,
                     "float-rounded m: P1 - P2 at alpha": witness})
    lap = Laplace(epsilon=1.0)
    m = Staircase.from_laplace(lap).d
    others = dict(_sec43_other_members())
    return CheckResult(holds=ok, claim="the §4.3 member is strictly smaller than Laplace",
                       value=rows, method=Method.PROPERTY,
                       evidence={"grid": rows, "other_members_vs_laplace_eps_1": others,
                                 "m_at_eps_1": m},
                       counterexample=None if ok else [r for r in rows if r["compare"] != "less"])


def check_sec43_dp_proof(*, claimed: float = 1.0) -> CheckResult:
    """§4.3 DP for every ε > 0, Δ > 0: the symbolic proof of
    :func:`~privlab.proofs.thesis.ch4_proofs.decide_sec43_dp` (``claimed`` < 1, a mutant:
    (claimed·ε)-DP, which it refutes), corroborated by :func:`check_sec43_dp` on
    :data:`SEC43_GRID` (check_pure_dp and the exact pointwise supremum)."""
    from privlab.proofs.thesis import ch4_proofs as pf

    proof = pf.decide_sec43_dp(claimed=claimed)
    num = check_sec43_dp(claimed=claimed)
    holds = proof.holds and num.holds
    cex = None if holds else (proof.counterexample if not proof.holds else num.counterexample)
    return CheckResult(holds=holds, decided=proof.decided and num.decided, claim=proof.claim,
                       value=proof.value, method=Method.SYMBOLIC, counterexample=cex,
                       evidence={"proof": proof.evidence, "grid": num.evidence})


def check_sec43_smaller_proof(*, d_offset: float = 0.0) -> CheckResult:
    """§4.3 member < Laplace for every ε > 0, Δ > 0: the symbolic proof of
    :func:`~privlab.proofs.thesis.ch4_proofs.decide_sec43_smaller` (``d_offset`` ≠ 0, a mutant:
    the member d = m + offset claimed smaller, which it refutes), corroborated by
    :func:`check_sec43_smaller` (compare() on a grid of ε)."""
    from privlab.proofs.thesis import ch4_proofs as pf

    proof = pf.decide_sec43_smaller(gamma_offset=d_offset)
    num = check_sec43_smaller(d_offset=d_offset)
    holds = proof.holds and num.holds
    cex = None if holds else (proof.counterexample if not proof.holds else num.counterexample)
    return CheckResult(holds=holds, decided=proof.decided and num.decided, claim=proof.claim,
                       value=proof.value, method=Method.SYMBOLIC, counterexample=cex,
                       evidence={"proof": proof.evidence, "grid": num.evidence})


# ---- Lemma 1 --------------------------------------------------------------------------------
def _lemma_1_noises(e: float = 1.0) -> dict[str, Any]:
    """ε-DP noises at ε = ``e`` (Δ = 1): two staircases, Laplace (the sawtooth with slope ε)
    and a sawtooth with slope ε/2."""
    return {"staircase(d=0.3)": nz.staircase_like(e, 1, 0.3),
            "staircase(d=0.8)": nz.staircase_like(e, 1, 0.8),
            "laplace": nz.sawtooth(e, 1, e), "sawtooth": nz.sawtooth(e, 1, e / 2)}


LEMMA1_INTERVALS = 30
"""Random intervals per noise and ε (7 ε × 4 noises)."""


@functools.cache
def _lemma_1_intervals() -> tuple[tuple[float, str, Any, Any, bool, Any, tuple[Any, ...]], ...]:
    """The random intervals I = [lo, hi] of Lemma 1 (seeded generator, :data:`LEMMA1_INTERVALS`
    per noise and ε of
    :data:`~privlab.proofs.thesis.ch4_grids.LEMMA1_EPS`, in order) at 40 digits, each as (ε,
    noise, lo, hi, P(I + Δ) = e^{−ε}P(I) within 10⁻³⁰, (P(I + Δ) − e^{−ε}P(I))/P(I),
    breakpoints of f on I and of f(· + Δ)).  The interval side does not depend on the
    pointwise factor tested, so it is memoised per process (shared by the claim and its
    mutant); immutable tuples of mpf."""
    gen = np.random.default_rng(1)
    out = []
    with mpmath.workdps(40):
        tol = mpmath.mpf("1e-30")
        for e in gr.LEMMA1_EPS:
            r = mpmath.exp(-mpmath.mpf(e))
            for name, y in _lemma_1_noises(e).items():
                for k in range(LEMMA1_INTERVALS):
                    lo = gen.uniform(-3, 3) if k % 2 else gen.uniform(0, 3)
                    lo = mpmath.mpf(lo)
                    hi = lo + mpmath.mpf(gen.uniform(0.05, 2.5))
                    p, q = ex.interval_mass(y, lo, hi), ex.interval_mass(y, lo + 1, hi + 1)
                    integral_eq = abs(q - r * p) <= tol * p
                    pts = sorted(set(ex.breakpoints(y, lo, hi))
                                 | {x - 1 for x in ex.breakpoints(y, lo + 1, hi + 1)})
                    out.append((e, name, lo, hi, bool(integral_eq), (q - r * p) / p,
                                tuple(pts)))
    return tuple(out)


def check_lemma_1(*, pointwise_factor: float = 1.0) -> CheckResult:
    """Random intervals I on ε-DP noises at every ε of the grid: P(I + Δ) = e^{−ε}P(I) exactly
    iff f(x + Δ) = e^{−ε}f(x) on all of I (piecewise exact, 40 digits); both branches must
    occur at each ε.  ``pointwise_factor`` ≠ 1 (a mutant) tests f(x + Δ) = e^{−factor·ε}f(x)."""
    noises = {e: _lemma_1_noises(e) for e in gr.LEMMA1_EPS}
    counts = {e: {"equal_both": 0, "unequal_both": 0} for e in gr.LEMMA1_EPS}
    bad, min_gap = [], mpmath.mpf("inf")
    with mpmath.workdps(40):
        tol = mpmath.mpf("1e-30")
        for e, name, lo, hi, integral_eq, gap, pts_t in _lemma_1_intervals():
            y = noises[e][name]
            min_gap = min(min_gap, gap)
            pointwise_eq, _ = ex.linear_equal_on(
                ex.shift_gap(y, 1, pointwise_factor * mpmath.mpf(e)), list(pts_t), tol)
            counts[e]["equal_both" if integral_eq else "unequal_both"] += (
                integral_eq == pointwise_eq)
            if integral_eq != pointwise_eq:
                bad.append({"epsilon": e, "noise": name, "I": [str(lo), str(hi)],
                            "integral_equal": integral_eq, "pointwise_equal": pointwise_eq})
    both = all(c["equal_both"] > 0 and c["unequal_both"] > 0 for c in counts.values())
    ok = not bad and both and min_gap >= -tol
    return CheckResult(holds=ok, claim="Lemma 1 (interval equality ⇔ pointwise equality)",
                       value=counts, method=Method.PROPERTY,
                       evidence={"epsilons": gr.LEMMA1_EPS, "Delta": 1.0,
                                 "noises": list(_lemma_1_noises()),
                                 "intervals_per_noise": LEMMA1_INTERVALS,
                                 "agreements": counts,
                                 "min (P(I+Δ) − e^{−ε}P(I))/P(I)": mpmath.nstr(min_gap, 5)},
                       counterexample=bad[:5] or None)
