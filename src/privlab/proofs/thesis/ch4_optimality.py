"""Checks of thesis §4.4 Lemma 2, Corollary 1 and Theorems 1–2 (and what they leave out)."""

from __future__ import annotations

import functools
from typing import Any

import mpmath
import numpy as np
import sympy as sp

from privlab.mechanisms.noise.laplace import Laplace
from privlab.mechanisms.noise.staircase import Staircase
from privlab.proofs.thesis import ch4_exact as ex
from privlab.proofs.thesis import ch4_grids as gr
from privlab.proofs.thesis import ch4_noises as nz
from privlab.proofs.thesis import ch4_proofs as pf
from privlab.types import CheckResult, Method

DPS = 30
MEMBER_D = gr.MEMBER_D
INTERIOR_D = (0.05, 0.25, 0.5, 0.75, 0.95)
EPS_GRID = gr.MEMBER_EPS
"""The thesis's ε (0.01 … 10); members d ∈ MEMBER_D include the end points 0, Δ."""


def _api() -> tuple[Any, Any]:
    from privlab.verify import check_pure_dp, compare

    return check_pure_dp, compare


# ---- Lemma 2 and Corollary 1 ------------------------------------------------------------------
@functools.lru_cache(maxsize=64)
def _unit_masses(y: Any) -> tuple[Any, ...]:
    """P(Y ∈ [i, i + 1]), i = 0 … 16, at 40 digits (memoised per process on the frozen noise
    value: shared by Lemma 2, its mutant and the non-member exercise)."""
    with mpmath.workdps(40):
        return tuple(ex.interval_mass(y, i, i + 1) for i in range(17))


def _lemma_2_fails(y: Any, e: float, power: float = 1.0) -> bool:
    """Whether the masses of [iΔ, (i+1)Δ], i = 0 … 15, are *not* geometric with ratio
    e^{−power·ε} (40 digits)."""
    with mpmath.workdps(40):
        r = mpmath.exp(-power * mpmath.mpf(e))
        masses = _unit_masses(y)
        return any(abs(masses[i + 1] / masses[i] - r) > mpmath.mpf("1e-30") for i in range(16))


def _cor_1_fails(y: Any, e: float) -> bool:
    """Whether f(x + Δ) ≠ e^{−ε} f(x) somewhere on [0, 12Δ] (piecewise exact)."""
    with mpmath.workdps(40):
        pts = sorted(set(ex.breakpoints(y, 0, 12)) | {x - 1 for x in ex.breakpoints(y, 1, 13)})
        pts = [p for p in pts if p >= 0]
        return not ex.linear_equal_on(ex.shift_gap(y, 1, e), pts, mpmath.mpf("1e-32"))[0]


def exercise_non_members(fails: Any) -> dict[str, Any]:
    """The implication 'optimal ⇒ property' exercised off the staircase family: every symmetric
    ε-DP instance of :func:`thm1_instances` whose law *fails* the property must be non-optimal —
    shown by an exact compare() finding a member strictly smaller.  ``exercised`` counts the
    failing instances (the check says nothing unless some exist)."""
    rows: list[dict[str, Any]] = []
    ok = True
    for name, (y, e) in thm1_instances().items():
        if not fails(y, e):
            rows.append({"Y": name, "fails_property": False})
            continue
        dp, d, verdict = _non_member_order(y, e)
        good = dp and verdict == "less"
        ok = ok and good
        rows.append({"Y": name, "fails_property": True, "epsilon_dp": dp,
                     "strictly_smaller_member_d": d, "compare(member, Y)": verdict})
    n = sum(r["fails_property"] for r in rows)
    return {"ok": ok and n > 0, "exercised": n, "instances": rows}


@functools.lru_cache(maxsize=64)
def _is_dp(y: Any, e: float) -> bool:
    """check_pure_dp(y, ε = e, Δ = 1) at :data:`DPS` digits (memoised per process on the frozen
    noise value and ε: the instances are shared by several claims and their mutants)."""
    check_pure_dp, _ = _api()
    return bool(check_pure_dp(y, epsilon=e, sensitivity=1.0, dps=DPS).holds)


@functools.lru_cache(maxsize=256)
def _order(y1: Any, y2: Any) -> str:
    """str(compare(y1, y2).value) at :data:`DPS` digits (memoised per process on the two frozen
    noise values)."""
    _, compare = _api()
    return str(compare(y1, y2, dps=DPS).value)


def _non_member_order(y: Any, e: float) -> tuple[bool, float | None, str | None]:
    """(Y is e-DP, d of the first of ≤ 3 pre-scanned members found strictly smaller by compare()
    — or the last one tried —, its verdict) for one instance of :func:`exercise_non_members`."""
    dp = _is_dp(y, e)
    m = Staircase.from_laplace(Laplace(epsilon=e)).d
    verdict, d = None, None
    for c in _dominating_candidates(y, e, (m,))[:3]:
        member = nz.sec43_member(e, 1) if c == m else Staircase(epsilon=e, d=c)
        d, verdict = c, _order(member, y)
        if verdict == "less":
            break
    return dp, d, verdict


@functools.lru_cache(maxsize=64)
def _member_mass_ratios(e: float, d: float) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    """For the member (ε = e, Δ = 1, d), at 40 digits: the masses P([j − 1, j]), j = 0 … 1 +
    max i, and the left ratios P([−i − 2, −i − 1])/P([−i − 1, −i]), i ∈
    :data:`~privlab.proofs.thesis.ch4_grids.LEMMA2_I`.  Independent of the ratio tested, so
    memoised per process (shared by Lemma 2 and its mutant)."""
    with mpmath.workdps(40):
        y = nz.staircase_like(e, 1, d)
        masses = tuple(ex.interval_mass(y, j - 1, j) for j in range(max(gr.LEMMA2_I) + 3))
        left = tuple(ex.interval_mass(y, -i - 2, -i - 1) / ex.interval_mass(y, -i - 1, -i)
                     for i in gr.LEMMA2_I)
    return masses, left


def check_lemma_2(*, power: float = 1.0) -> CheckResult:
    """(i) On the members Theorem 2 declares optimal: P([(i+1)Δ, (i+2)Δ]) = e^{−ε}P([iΔ,
    (i+1)Δ]) for i ∈ LEMMA2_I = 0 … 15 (40 digits, both sides), ε ∈ EPS_GRID, d ∈ MEMBER_D;
    the index set matters: i = −1 fails.
    (ii) The implication on non-members: every symmetric ε-DP instance violating the mass
    property is strictly dominated (:func:`exercise_non_members`).  ``power`` (a mutant)
    replaces e^{−ε} by e^{−power·ε}."""
    worst, rows = mpmath.mpf(0), []
    with mpmath.workdps(40):
        for e in EPS_GRID:
            r = mpmath.exp(-power * mpmath.mpf(e))
            for d in MEMBER_D:
                masses, left = _member_mass_ratios(e, d)
                for i in gr.LEMMA2_I:  # masses[j] = P([j − 1, j])
                    worst = max(worst, abs(masses[i + 2] / masses[i + 1] - r))
                worst = max(worst, max(abs(v - r) for v in left))
                rows.append({"epsilon": e, "d": d,
                             "i=-1 ratio P[0,Δ]/P[−Δ,0]": mpmath.nstr(masses[1] / masses[0], 10)})
        members_ok = worst <= mpmath.mpf("1e-35")
    non = exercise_non_members(lambda y, e: _lemma_2_fails(y, e, power))
    ok = members_ok and non["ok"]
    return CheckResult(holds=ok, claim="Lemma 2 (i ∈ ℕ = {0, 1, …}) on the optimal family",
                       value=mpmath.nstr(worst, 5), method=Method.PROPERTY,
                       evidence={"epsilons": EPS_GRID, "d": MEMBER_D, "i": gr.LEMMA2_I,
                                 "max |ratio − e^{−ε}| for i = 0..15, both sides":
                                     mpmath.nstr(worst, 5),
                                 "index_set": rows, "non_members": non},
                       counterexample=None if ok else {"max_deviation": mpmath.nstr(worst, 5),
                                                       "non_members": non})



def check_cor_1(*, eps_factor: float = 1.0) -> CheckResult:
    """f(x + Δ) = e^{−ε} f(x) for all x ≥ 0 (and the mirror image) on the optimal family,
    piecewise exactly on [0, 12Δ]; also records that Laplace and a sawtooth satisfy it although
    they are not optimal (the condition is necessary, not sufficient)."""
    fails = []
    with mpmath.workdps(40):
        tol = mpmath.mpf("1e-32")
        for e in EPS_GRID:
            for d in MEMBER_D:
                y = nz.staircase_like(e, 1, d)
                pts = sorted(set(ex.breakpoints(y, 0, 12)) | {x - 1 for x in ex.breakpoints(
                    y, 1, 13)} - {mpmath.mpf(-1)})
                pts = [p for p in pts if p >= 0]
                right, at = ex.linear_equal_on(ex.shift_gap(y, 1, eps_factor * e), pts, tol)
                left, at2 = ex.linear_equal_on(ex.shift_gap(y, -1, eps_factor * e, sign=-1),
                                               pts, tol)
                if not (right and left):
                    fails.append({"epsilon": e, "d": d, "x": str(at if not right else at2)})
        extra = {}
        for name, y in (("laplace", nz.sawtooth(1, 1, 1)), ("sawtooth", nz.sawtooth(1, 1, 0.5))):
            pts = [mpmath.mpf(k) / 4 for k in range(49)]
            extra[name] = ex.linear_equal_on(ex.shift_gap(y, 1, 1), pts, tol)[0]
    non = exercise_non_members(_cor_1_fails)
    ok = not fails and non["ok"]
    return CheckResult(holds=ok, claim="Corollary 1 on the optimal family", value=len(fails),
                       method=Method.PROPERTY,
                       evidence={"members": {"epsilon": EPS_GRID, "d": MEMBER_D},
                                 "non_members": non,
                                 "non_optimal_noises_also_satisfying_it": extra},
                       counterexample=(fails or non) if not ok else None)


# ---- Theorem 1 --------------------------------------------------------------------------------
def check_thm_1_printed() -> CheckResult:
    """As printed (zero mean, not necessarily symmetric): decided for every ε > 0 and Δ > 0 by
    :func:`~privlab.proofs.thesis.ch4_proofs.decide_thm_1` (``symmetric=False``): the zero-mean
    ε-DP asymmetric Laplace with t = e^{ε/4}, b₊ = 2Δ/ε, b₋ = tb₊ has P(Y ∈ [0, α*]) > 1/2 ≥
    P(Ỹ ∈ [0, α*]) for every symmetric Ỹ — the hypothesis 'symmetric' of the sentence that
    introduces the theorem is what the statement omits.  At each ε of
    :data:`~privlab.proofs.thesis.ch4_grids.THM1_EPS` (Δ = 1) the witness is evaluated exactly
    (sympy), and its DP supremum recomputed on an independent route (exact pointwise supremum
    of the lab's :class:`~privlab.proofs.thesis.ch4_noises.AsymmetricLaplace`, mpmath)."""
    dec = pf.decide_thm_1(symmetric=False)
    rows, agree = [], True
    for e in gr.THM1_EPS:
        w = pf.asymmetric_witness_at(e)
        with mpmath.workdps(DPS):
            em = mpmath.mpf(e)
            t = mpmath.exp(em / 4)
            y = nz.AsymmetricLaplace(epsilon=e, b_right=2 / em, b_left=2 * t / em)
            sup, _ = ex.density_sup(y, 1, 8)
            hp, _ = y.heights()
            alpha = 2 / em * mpmath.log(2 * (1 + t) / (t - 1))
            mass = hp * (2 / em) * -mpmath.expm1(-alpha * em / 2)
        route_ok = bool(sup <= em * (1 + mpmath.mpf("1e-25")) and mass > mpmath.mpf(1) / 2
                        and abs(sup - mpmath.mpf(str(w["sup log-ratio"]))) < mpmath.mpf("1e-15"))
        good = w["P - 1/2 > 0"] and w["sup <= epsilon"]
        agree = agree and route_ok == good
        rows.append({**w, "density_sup (mpmath)": mpmath.nstr(sup, 20),
                     "P(Y in [0, alpha*]) (mpmath)": mpmath.nstr(mass, 20),
                     "refutes at this epsilon": good and route_ok})
    refuted = dec.counterexample is not None and agree and all(
        r["refutes at this epsilon"] for r in rows)
    return CheckResult(
        holds=not refuted, decided=refuted,
        claim="Theorem 1 as printed (zero-mean, possibly asymmetric Y)",
        value=[r["P(Y in [0, alpha*])"] for r in rows], method=Method.SYMBOLIC,
        evidence={"proof": dec.evidence, "epsilons": gr.THM1_EPS, "Delta": 1.0,
                  "witness_per_epsilon": rows},
        counterexample={**(dec.counterexample or {}), "per_epsilon": rows} if refuted else None)


def _dominating_candidates(y: Any, eps: float, extra: tuple[float, ...] = ()) -> list[float]:
    """Members d ∈ [0, Δ] that look ≤ y on a dense float scan (fine on [0, 3Δ]), analytic
    ``extra`` candidates first (the §4.3 value m for Laplace: the only one that works).
    Memoised per process on (frozen noise value, ε, extra); callers get a fresh list."""
    return list(_dominating_candidates_cached(y, eps, tuple(extra)))


@functools.lru_cache(maxsize=64)
def _dominating_candidates_cached(y: Any, eps: float, extra: tuple[float, ...]
                                  ) -> tuple[float, ...]:
    return tuple(_dominating_candidates_uncached(y, eps, extra))


def _dominating_candidates_uncached(y: Any, eps: float, extra: tuple[float, ...] = ()
                                    ) -> list[float]:
    a = np.concatenate((np.linspace(0, 3, 6001), np.linspace(3, 30 / eps, 3000)))
    gy = y.prob_within(a)
    out = []
    for d in (*extra, *np.linspace(0, 1, 201)):
        gap = float(np.min(Staircase(epsilon=eps, d=float(d)).prob_within(a) - gy))
        if gap >= -1e-12:
            out.append(float(d))
    return out


def thm1_instances() -> dict[str, tuple[Any, float]]:
    """Symmetric ε-DP noises (ε in the tuple) of various shapes."""
    out: dict[str, tuple[Any, float]] = {}
    for e in (0.5, 1.0, 2.0):
        out[f"laplace(eps={e})"] = (Laplace(epsilon=e), e)
    out["laplace(b=2/ε), eps=1"] = (Laplace(epsilon=0.5), 1.0)
    out["staircase(eps=0.5, d=0.5), eps=1"] = (Staircase(epsilon=0.5, d=0.5), 1.0)
    out["wide-core staircase(d=1.5)"] = (nz.staircase_like(1, 1, 1.5), 1.0)
    for s in (0.25, 0.5, 0.75):
        out[f"sawtooth(slope={s})"] = (nz.sawtooth(1, 1, s), 1.0)
    return out


def check_thm_1_symmetric(*, instances: dict[str, tuple[Any, float]] | None = None,
                          accept: tuple[str, ...] = ("less", "equal")) -> CheckResult:
    """Theorem 1 for *symmetric* ε-DP Y: on each instance, a member Ỹ (d ∈ [0, Δ]) with
    compare(Ỹ, Y) ∈ {less, equal} is found (dense pre-scan, then compare)."""
    rows, ok = [], True
    for name, (y, e) in (thm1_instances() if instances is None else instances).items():
        dp = _is_dp(y, e)
        cands = _dominating_candidates(y, e, (Staircase.from_laplace(Laplace(epsilon=e)).d,))
        d, verdict = None, None
        m = Staircase.from_laplace(Laplace(epsilon=e)).d
        for c in cands[:3]:  # confirm with the exact order (m itself at 400 digits)
            member = nz.sec43_member(e, 1) if c == m else Staircase(epsilon=e, d=c)
            d, verdict = c, _order(member, y)
            if verdict in accept:
                break
        good = dp and verdict in accept  # accept=("less",): a mutant (strictly smaller)
        ok = ok and good
        rows.append({"Y": name, "epsilon": e, "Y_is_dp": dp, "dominating_d": d,
                     "float_scan_candidates": len(cands),
                     "compare(member, Y)": verdict})
    return CheckResult(holds=ok, claim="Theorem 1 for symmetric Y (on instances)",
                       value=len(rows), method=Method.PROPERTY, evidence={"instances": rows},
                       counterexample=None if ok else [r for r in rows if r["compare(member, Y)"]
                                                        not in accept])


def check_thm_1_symmetric_proof(*, symmetric: bool = True, power: int = 1,
                                strict: bool = False) -> CheckResult:
    """Theorem 1 for symmetric Y, for all ε > 0, Δ > 0: the symbolic proof of
    :func:`~privlab.proofs.thesis.ch4_proofs.decide_thm_1` (the keywords select its wrong
    variants, which the same procedure refutes), corroborated on the instances of
    :func:`check_thm_1_symmetric` (a dominating member found by compare(), exact)."""
    proof = pf.decide_thm_1(symmetric=symmetric, power=power, strict=strict)
    inst = check_thm_1_symmetric()
    holds = proof.holds and inst.holds
    cex = None if holds else (proof.counterexample if not proof.holds else inst.counterexample)
    return CheckResult(holds=holds, decided=proof.decided and inst.decided,
                       claim=proof.claim, value=proof.value, method=Method.SYMBOLIC,
                       evidence={"proof": proof.evidence, "instances": inst.evidence},
                       counterexample=cex)


def check_thm_1_proof_construction() -> CheckResult:
    """The proof's two-valued redistribution on Y = sawtooth (slope ε/(2Δ), ε = Δ = 1): levels
    M0 = f(0), m0 = f(Δ⁻) = M0e^{−1/2} on [0, Δ] and, by f(x+Δ) = e^{−ε}f(x), e^{−ε}M0 and
    e^{−ε}m0 on [Δ, 2Δ].  It preserves interval masses and d_i is constant, but the density
    has four levels in [0, 2Δ): (d, Δ] at m0 ≠ e^{−ε}M0 = level on (Δ, Δ + d], so no step of
    width Δ — not of the form of Theorem 1."""
    with mpmath.workdps(DPS):
        y = nz.sawtooth(1, 1, mpmath.mpf(1) / 2)
        big = mpmath.exp(ex.log_density_at(y, mpmath.mpf("1e-20")))
        small = mpmath.exp(ex.log_density_at(y, 1 - mpmath.mpf("1e-20")))
        r = mpmath.exp(-1)
        d = (1 - r - 2 * small) / (2 * (big - small))  # printed d_i (Δ = 1)
        built = nz.four_level(1, 1, big, small, d)
        mass_y, mass_b = ex.interval_mass(y, 0, 1), ex.interval_mass(built, 0, 1)
        mids = (d / 2, (d + 1) / 2, 1 + d / 2, 1 + (d + 1) / 2)
        levels = [mpmath.exp(ex.log_density_at(built, x)) for x in mids]
    not_staircase = abs(levels[1] - levels[2]) > mpmath.mpf("1e-20")
    same_mass = abs(mass_y - mass_b) <= mpmath.mpf("1e-25")
    refuted = not_staircase and same_mass and 0 < d < 1
    ev = {"M0": mpmath.nstr(big, 15), "m0": mpmath.nstr(small, 15), "d": mpmath.nstr(d, 15),
          "mass_[0,Δ]_Y": mpmath.nstr(mass_y, 20), "mass_[0,Δ]_built": mpmath.nstr(mass_b, 20),
          "levels_on_(0,d),(d,Δ),(Δ,Δ+d),(Δ+d,2Δ)": [mpmath.nstr(v, 12) for v in levels],
          "e^{-ε}·M0": mpmath.nstr(r * big, 12)}
    return CheckResult(holds=not refuted, claim="the proof's redistribution yields a density of "
                                                "the form of Theorem 1",
                       value=mpmath.nstr(levels[1] / levels[2], 12), method=Method.EXACT,
                       evidence=ev,
                       counterexample={"Y": "sawtooth slope 1/2, ε = Δ = 1", **ev}
                       if refuted else None)


# ---- Theorem 2 --------------------------------------------------------------------------------
def _perturbations(e: float, d: float) -> dict[str, Any]:
    """Ways of moving mass of the member (e, Δ = 1, d) towards zero."""
    from privlab.mechanisms.noise.controls import WrongRatioStaircase

    dm, em = mpmath.mpf(d), mpmath.mpf(e)
    w, eta = mpmath.mpf(1) / 2, mpmath.mpf(1) / 100
    split = nz.PeriodicNoise(  # inside every step: near half raised, far half lowered
        epsilon=e, sensitivity=1.0, start=dm, period=1, decay=em,
        head=((0, dm, 0, 0),) if d > 0 else (),
        cycle=((0, w, -em + mpmath.log(1 + eta), 0), (w, 1, -em + mpmath.log(1 - eta), 0)))
    out = {"steps decay by e^{-1.5ε}": WrongRatioStaircase(epsilon=e, d=d),
           "mass moved to the near half of every step": split}
    if d > 0:
        out["core raised by 0.1%"] = nz.staircase_like(e, 1, d, core_factor=1.001)
    return out


def check_thm_2_printed() -> CheckResult:
    """Theorem 2 for every member d ∈ [0, Δ]: decided for every ε > 0 and Δ > 0 by
    :func:`~privlab.proofs.thesis.ch4_proofs.decide_thm_2` (``endpoints=True``): d = Δ and
    d = 0 are the same law, flat on each (kΔ, (k+1)Δ], and the member d = Δ/2 is strictly
    smaller (H_Δ(Δ/2) − H_{Δ/2}(Δ/2) = q²/(2(1 + q)(2 + q)) > 0, q = e^ε − 1).  The gap is
    evaluated exactly at each ε of :data:`~privlab.proofs.thesis.ch4_grids.THM2_EPS`; on an
    independent route (ε = Δ = 1) compare() finds Laplace and the member d = Δ/2 strictly
    smaller than d = Δ, and moving mass to the near half of every step keeps ε-DP."""
    check_pure_dp, compare = _api()
    from privlab.proofs.thesis import ch4_symbolic as sy

    dec = pf.decide_thm_2(endpoints=True)
    gaps = {e: pf.endpoint_gap_at(e) for e in gr.THM2_EPS}
    gaps_positive = all(bool(sp.N(g, 40) > 0) for g in gaps.values())
    same_law = sp.simplify(sy.m0_of_d().subs(sy.D, 0) * sy.R - sy.m0_of_d().subs(
        sy.D, sy.DELTA)) == 0
    edge = Staircase(epsilon=1.0, d=1.0)
    lap, mid = Laplace(epsilon=1.0), Staircase(epsilon=1.0, d=0.5)
    v_lap, v_mid = str(compare(lap, edge, dps=DPS).value), str(compare(mid, edge, dps=DPS).value)
    moved = _perturbations(1.0, 0.0)["mass moved to the near half of every step"]
    moved_dp = bool(check_pure_dp(moved, epsilon=1.0, sensitivity=1.0, dps=DPS).holds)
    v_moved = str(compare(moved, edge, dps=DPS).value)
    refuted = dec.counterexample is not None and gaps_positive and same_law and v_mid == "less"
    a = np.array([0.25, 0.5, 0.75])
    ev = {"proof": dec.evidence, "epsilons": gr.THM2_EPS, "d/Δ": (0.0, 1.0),
          "H_Δ(Δ/2) − H_{Δ/2}(Δ/2) per ε": {e: str(sp.N(g, 15)) for e, g in gaps.items()},
          "d=0 and d=Δ are the same law": same_law, "compare(laplace, member d=Δ)": v_lap,
          "compare(member d=Δ/2, member d=Δ)": v_mid,
          "near-half perturbation of d=0 is DP": moved_dp,
          "compare(perturbation, member d=Δ)": v_moved,
          "variance d=Δ": edge.variance(), "variance laplace": lap.variance()}
    return CheckResult(
        holds=not refuted, decided=refuted,
        claim="Theorem 2: every member with d ∈ [0, Δ] is optimal",
        value=v_mid, method=Method.SYMBOLIC, evidence=ev,
        counterexample={**(dec.counterexample or {}),
                        "at ε = Δ = 1": {"alpha": a.tolist(),
                                         "P(|member d=Δ/2| ≤ α)": mid.prob_within(a).tolist(),
                                         "P(|Laplace| ≤ α)": lap.prob_within(a).tolist(),
                                         "P(|member d=Δ| ≤ α)": edge.prob_within(a).tolist()}}
        if refuted else None)


@functools.cache
def _thm_2_interior_facts() -> tuple[tuple[tuple[float, float, bool, Any,
                                                 tuple[tuple[str, bool], ...]], ...],
                                     tuple[tuple[str, str], ...]]:
    """(per member (ε, d, DP, DP value, ((perturbation, still DP), …)), ((pair, compare), …))
    for :func:`check_thm_2_interior` — independent of any mutant, so memoised per process
    (shared by the claim and its mutant); immutable."""
    check_pure_dp, compare = _api()
    rows = []
    for e in EPS_GRID:
        for d in INTERIOR_D:
            res = check_pure_dp(Staircase(epsilon=e, d=d), dps=DPS)
            broken = tuple((k, bool(check_pure_dp(p, epsilon=e, sensitivity=1.0,
                                                  dps=DPS).holds))
                           for k, p in _perturbations(e, d).items())
            rows.append((e, d, bool(res.holds), res.value, broken))
    pairs = tuple((f"{d1} vs {d2}", str(compare(Staircase(epsilon=1.0, d=d1),
                                                Staircase(epsilon=1.0, d=d2), dps=DPS).value))
                  for d1, d2 in ((0.05, 0.5), (0.25, 0.75), (0.5, 0.95), (0.1, 0.11)))
    return tuple(rows), pairs


def check_thm_2_interior() -> CheckResult:
    """Members with 0 < d < Δ (ε ∈ EPS_GRID, d ∈ INTERIOR_D): ε-DP; three ways of moving mass
    towards zero break DP; members with different d are pairwise incomparable."""
    facts, pairs = _thm_2_interior_facts()
    rows = [{"epsilon": e, "d": d, "dp": dp, "dp_value": value,
             "perturbation_still_dp": dict(broken)} for e, d, dp, value, broken in facts]
    incomparable = dict(pairs)
    ok = all(r["dp"] and not any(r["perturbation_still_dp"].values()) for r in rows) and all(
        v == "incomparable" for v in incomparable.values())
    return CheckResult(holds=ok, claim="Theorem 2 for members with 0 < d < Δ",
                       value=len(rows), method=Method.PROPERTY,
                       evidence={"members": rows, "pairwise_eps_1": incomparable},
                       counterexample=None if ok else [r for r in rows if not r["dp"] or any(
                           r["perturbation_still_dp"].values())] or incomparable)


def check_thm_2_interior_proof(*, endpoints: bool = False) -> CheckResult:
    """Theorem 2 for 0 < d < Δ, for all ε > 0, Δ > 0: the symbolic proof of
    :func:`~privlab.proofs.thesis.ch4_proofs.decide_thm_2` (``endpoints=True``, a mutant: the
    end points included, which the same procedure refutes), corroborated by
    :func:`check_thm_2_interior` (members DP, perturbations break DP, pairwise incomparable)."""
    proof = pf.decide_thm_2(endpoints=endpoints)
    num = check_thm_2_interior()
    holds = proof.holds and num.holds
    cex = None if holds else (proof.counterexample if not proof.holds else num.counterexample)
    return CheckResult(holds=holds, decided=proof.decided and num.decided,
                       claim=proof.claim, value=proof.value, method=Method.SYMBOLIC,
                       evidence={"proof": proof.evidence, "members": num.evidence},
                       counterexample=cex)


def check_thm_2_wide_core() -> CheckResult:
    """The form of Theorem 1 puts no bound on d; for d = 1.5 > Δ = 1 (ε = 1) the density is
    ε-DP but the member d = 1/2 is strictly smaller, so it is not optimal."""
    check_pure_dp, compare = _api()
    wide = nz.staircase_like(1, 1, 1.5)
    dp = check_pure_dp(wide, dps=DPS)
    res = compare(Staircase(epsilon=1.0, d=0.5), wide, dps=DPS)
    dom = [float(d) for d in np.linspace(0, 1, 11)
           if float(np.min(Staircase(epsilon=1.0, d=float(d)).prob_within(np.linspace(0, 40, 4001))
                           - wide.prob_within(np.linspace(0, 40, 4001)))) >= -1e-12]
    a = np.array([0.25, 0.5, 1.0, 1.25])
    refuted = bool(dp.holds) and res.value == "less"
    return CheckResult(
        holds=not refuted, claim="a density of the form of Theorem 1 with d > Δ is optimal",
        value=str(res.value), method=res.method,
        evidence={"wide_core_is_dp": bool(dp.holds), "compare(d=0.5, d=1.5)": str(res.value),
                  "members_d_dominating_it_(float_scan)": dom},
        counterexample={"Y": "staircase form, ε = Δ = 1, d = 1.5", "smaller_member_d": 0.5,
                        "alpha": a.tolist(),
                        "P(|Y_0.5| ≤ α)": Staircase(epsilon=1.0, d=0.5).prob_within(a).tolist(),
                        "P(|Y_1.5| ≤ α)": wide.prob_within(a).tolist()} if refuted else None)
