"""Symbolic proofs (sympy) of thesis §4.3–4.4 statements for all ε > 0, Δ > 0 and every
admissible d (issues 30, 31): the redistribution of Laplace (§4.3: ε-DP, strictly smaller than
Laplace), Theorem 1 for symmetric Y and Theorem 2 for 0 < d < Δ — with decision procedures that
also refute their plausible wrong variants (the claims' mutants) and the printed Theorems 1
(zero mean only) and 2 (d ∈ [0, Δ]).

Seed: 000_65177858bc9aa63c.txt §4.3–4.4 (Theorem 1 is introduced "for any symmetric a.c. noise
distribution").  Notation of :mod:`privlab.proofs.thesis.ch4`: Δ = Δf, r = e^{−ε}, the
member γ = d/Δ ∈ [0, 1] of the staircase family has density M0 on [−d, d] and M0·r^{i+1} on
d + iΔ < |x| ≤ d + (i+1)Δ.  For a symmetric a.c. noise Y write H_Y(α) = P(|Y| > α), α ≥ 0.

*Reduction to rational obligations.*  ε enters through q = e^ε − 1 ∈ (0, ∞), r = 1/(1+q) (and
as L = log(1 + q) where it appears itself); lengths are in units of Δ (a = α/Δ), so Δ > 0 is
only the unit.  The member γ has μ(γ) := 2M0Δ = q/(1 + γq) (the M0–d relation) and H_γ(a) =
1 − μa on [0, γ], r(1 + μ(1 − a)) on [γ, 1], H_γ(a + 1) = r·H_γ(a).  Every step is decided
exactly:

* an identity by ``sympy.simplify``/``cancel`` to 0 (also with a symbolic integer index or
  ceilings);
* "E ≥ 0" (E > 0) over parameters that are positive / nonnegative symbols is *certified* when
  E, factored over ℚ (``factor_list``), has every numerator factor of constant sign on the
  nonnegative orthant (all coefficients of one sign, or an even power) and every denominator
  factor strictly positive — a sufficient condition;
* a one-variable φ(v) ≥ 0 with logarithms or exponentials by φ^(j)(0) = 0 (j < n) and a
  certified sign of φ^(n) (:func:`grows_from_zero`);
* otherwise a rational point where the step fails is searched for (exact evaluation), which
  decides it false; if neither, the step is undecided (the claim is then inconclusive).

A parameter in [0, 1] is written s/(1 + s), s ≥ 0 (covering [0, 1); the end point follows by
continuity of the rational functions involved).

*Premises taken from the text* (not machine-checked, each a line of measure theory): for a.c.
noise, ε-DP implies the pointwise condition (4.2) at continuity points (Lebesgue
differentiation) and (4.2) implies ε-DP (integration); for symmetric a.c. laws Definition 6
reads H_Ỹ(α) ≤ H_Y(α) for all α ≥ 0, since P(Y ∈ ⟨0, α⟩) = (1 − H_Y(|α|))/2.
"""

from __future__ import annotations

import functools
import itertools
from typing import Any

import attrs
import sympy as sp

from privlab.proofs.thesis.ch4_sign import Q, certify_sign, exact_eps
from privlab.types import CheckResult, Method

__all__ = ["Q", "certify_sign", "exact_eps"]  # re-exported: the proofs' sign engine

S, T, W, X, Y_ = sp.symbols("s t w x y", nonnegative=True)
R_Q = 1 / (1 + Q)
"""r = e^{−ε}."""
HALF = sp.Rational(1, 2)


def unit(v: sp.Expr) -> sp.Expr:
    """[0, ∞) → [0, 1): v ↦ v/(1 + v)."""
    return v / (1 + v)


def mu(g: Any) -> sp.Expr:
    """2·M0·Δ of the member γ = d/Δ (the M0–d relation of §4.4): q/(1 + γq)."""
    return Q / (1 + g * Q)


def h_core(g: Any, a: Any) -> sp.Expr:
    """H_γ(a) = P(|Ỹ| > aΔ) on 0 ≤ a ≤ γ (in the core)."""
    return 1 - mu(g) * a


def h_step(g: Any, a: Any) -> sp.Expr:
    """H_γ(a) on γ ≤ a ≤ 1 (in step 0)."""
    return R_Q * (1 + mu(g) * (1 - a))


# ---- steps and their exact decision -------------------------------------------------------------
@attrs.frozen(kw_only=True)
class Step:
    """One obligation of a proof: ``holds`` True (certified), False (a witness point where it
    fails, ``witness``) or None (undecided); ``form`` the expression as decided."""

    name: str
    statement: str
    holds: bool | None
    form: str
    witness: tuple[tuple[str, str], ...] | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"step": self.name, "statement": self.statement,
                               "holds": self.holds, "decided_form": self.form}
        if self.witness is not None:
            out["fails_at"] = dict(self.witness)
        return out


_POSITIVE_VALUES = (sp.Rational(1, 2), sp.Integer(1), sp.Integer(3), sp.Integer(10))
_NONNEG_VALUES = (sp.Integer(0), sp.Rational(1, 2), sp.Integer(1), sp.Integer(3))


def _search(expr: sp.Expr, bad: Any) -> tuple[tuple[str, str], ...] | None:
    """A rational point of the parameters' domain where ``bad(value)`` (exact), or None."""
    syms = sorted(expr.free_symbols, key=str)
    grids = [_POSITIVE_VALUES if s.is_positive else _NONNEG_VALUES if s.is_nonnegative
             else (sp.Integer(0), sp.Integer(1), sp.Integer(2)) for s in syms]
    for point in itertools.product(*grids):
        sub = dict(zip(syms, point, strict=True))
        try:
            v = sp.nsimplify(sp.cancel(expr.subs(sub)))
        except (ZeroDivisionError, ValueError):  # pragma: no cover - outside the domain
            continue
        if v.is_finite and bad(v):
            return (*((str(k), str(x)) for k, x in sub.items()), ("value", str(v)))
    return None


def identity(name: str, statement: str, expr: sp.Expr) -> Step:
    """The step "expr = 0" for all values of its symbols."""
    e = sp.simplify(sp.cancel(sp.together(expr)))
    if e == 0:
        return Step(name=name, statement=statement, holds=True, form="0")
    w = _search(e, lambda v: v != 0)
    return Step(name=name, statement=statement, holds=False if w else None, form=str(e),
                witness=w)


def nonneg(name: str, statement: str, expr: sp.Expr, *, strict: bool = False) -> Step:
    """The step "expr ≥ 0" ("expr > 0" when ``strict``) on the nonnegative orthant."""
    sign, form = certify_sign(expr)
    if sign is not None and (sign == 2 or (sign >= 0 and not strict)):
        return Step(name=name, statement=statement, holds=True, form=form)
    w = _search(expr, (lambda v: v <= 0) if strict else (lambda v: v < 0))
    return Step(name=name, statement=statement, holds=False if w else None, form=form,
                witness=w)


def _sign_of(expr: sp.Expr) -> int | None:
    """:func:`certify_sign`, or sympy's assumptions (e.g. exp(−x) > 0) when it fails."""
    sign, _ = certify_sign(expr)
    if sign is not None:
        return sign
    if expr.is_positive:
        return 2
    return 1 if expr.is_nonnegative else None


def grows_from_zero(name: str, statement: str, phi: sp.Expr, var: sp.Symbol, *,
                    order: int = 1, strict: bool = False) -> Step:
    """The step "φ(v) ≥ 0 for v ≥ 0" ("> 0 for v > 0" when ``strict``): φ^(j)(0) = 0 for
    j < ``order`` and φ^(order) ≥ 0 (> 0 on v > 0), decided by :func:`certify_sign` or by sympy's
    assumptions; integrating ``order`` times gives the claim."""
    at0 = [sp.simplify(sp.diff(phi, var, j).subs(var, 0)) for j in range(order)]
    top = sp.simplify(sp.diff(phi, var, order))
    pos = sp.Symbol(f"{var}_pos", positive=True)  # strict: the sign on v > 0
    sign = _sign_of(top.subs(var, pos) if strict else top)
    ok = all(v == 0 for v in at0) and sign is not None and (sign == 2 or (sign >= 0
                                                                             and not strict))
    w = None
    if not ok:
        w = _search(phi.subs(var, pos) if strict else phi,
                    (lambda v: v <= 0) if strict else (lambda v: v < 0))
    return Step(name=name, statement=statement, holds=True if ok else (False if w else None),
                form=f"φ^(j)(0) = {at0}; φ^({order}) = {top}", witness=w)


# ---- the staircase family ------------------------------------------------------------------------
@functools.cache
def member_steps() -> tuple[Step, ...]:
    """Facts of the member γ used by every proof: normalisation, continuity of H_γ at γ (both
    pieces are the M0–d relation), H_γ(a + 1) = r·H_γ(a), d = 0 and d = Δ the same law, and
    μ(γ) strictly decreasing (so γ ↦ M0 is a bijection of [0, 1] onto [M0(Δ), M0(0)])."""
    g, a = unit(T), unit(S)
    R, M0, D, DL, A = sp.symbols("r M_0 d Delta alpha", positive=True)
    i = sp.Symbol("i", integer=True, nonnegative=True)

    def tail(k: Any, x: Any) -> sp.Expr:  # H(x) for x in step k: d + kΔ ≤ x ≤ d + (k+1)Δ
        return 2 * M0 * R ** (k + 1) * (D + (k + 1) * DL - x) + 2 * M0 * DL * R ** (k + 2) / (1 - R)

    core = 2 * M0 * (D - A) + tail(0, D)  # H(x) for 0 ≤ x ≤ d
    return (
        identity("normalisation", "2M0·d + 2M0Δ·Σ_{i≥0} r^{i+1} = 1, i.e. μγ + μ·r/(1 − r) = 1",
                 mu(g) * g + mu(g) * R_Q / (1 - R_Q) - 1),
        identity("continuity", "H_γ is continuous at a = γ: 1 − μγ = r(1 + μ(1 − γ))",
                 h_core(g, g) - h_step(g, g)),
        identity("periodic tail (steps)", "H(α + Δ) = r·H(α) for α in step i (i symbolic)",
                 sp.powsimp(sp.expand(tail(i + 1, A + DL) - R * tail(i, A)))),
        identity("periodic tail (core)", "H(α + Δ) = r·H(α) for 0 ≤ α ≤ d",
                 sp.powsimp(sp.expand(tail(0, A + DL) - R * core))),
        identity("d = 0 and d = Δ are one law", "H_0(a) = H_1(a) on [0, 1]",
                 h_step(0, a) - h_core(1, a)),
        nonneg("M0 decreasing in d", "−∂μ/∂γ > 0", -sp.diff(mu(T), T), strict=True),
    )


def member_dp_steps(claimed: Any = 1) -> tuple[Step, ...]:
    """Every member (any d ≥ 0) is ε-DP, with sup log-ratio exactly ε: log f(x) = log M0 −
    ε·k(|x|), k(u) = max(0, ⌈(u − d)/Δ⌉), and k(u + Δ) − k(u) ∈ {0, 1}; as k is
    nondecreasing and ||x| − |y|| ≤ |x − y| ≤ Δ, |k(|x|) − k(|y|)| ≤ 1 — equality at
    x = d + Δ/2, y = d + 3Δ/2 (continuity points, for every d ≥ 0).  ``claimed`` (a mutant
    when < 1): the members claimed (claimed·ε)-DP, i.e. sup ≤ claimed·ε."""
    t = sp.Symbol("t", real=True)
    n = sp.Symbol("n", integer=True, nonnegative=True)

    def k(u: Any) -> sp.Expr:  # in units: u = (|x| − d)/Δ
        return sp.Max(0, sp.ceiling(u))

    jump = k(sp.Rational(3, 2)) - k(HALF)
    return (
        identity("ceiling shift", "⌈t + 1⌉ = ⌈t⌉ + 1", sp.ceiling(t + 1) - sp.ceiling(t) - 1),
        identity("k(u + Δ) − k(u) = 1 when ⌈·⌉ ≥ 0", "max(0, n + 1) − max(0, n) = 1, n ≥ 0",
                 sp.Max(0, n + 1) - sp.Max(0, n) - 1),
        identity("k(u + Δ) − k(u) = 0 when ⌈·⌉ < 0", "max(0, −n) − max(0, −n − 1) = 0, n ≥ 0",
                 sp.Max(0, -n) - sp.Max(0, -n - 1)),
        identity("the bound is attained", "k(d + 3Δ/2) − k(d + Δ/2) = 1", jump - 1),
        nonneg("sup log-ratio ≤ claimed ε", "claimed·ε − ε·max|Δk| ≥ 0 (in units of ε)",
               sp.nsimplify(claimed) - jump),
    )


# ---- Theorem 1 for symmetric Y -------------------------------------------------------------------
THM1_PREMISES = (
    "Y symmetric a.c. and ε_Y-DP, ρ = e^{−ε_Y}; by (4.2) at continuity points f(x + Δ) ≥ ρf(x) "
    "for x ≥ 0, so H_Y(α + Δ) ≥ ρH_Y(α) (integrate over (α, ∞)) and H_Y(Δ) ≥ ρ;",
    "on [0, Δ], with M = ess sup f and m = ess inf f there: m ≥ ρM (points of [0, Δ] are "
    "within Δ), H_Y(α) ≥ 1 − 2Mα and H_Y(α) ≥ H_Y(Δ) + 2m(Δ − α) ≥ ρ(1 + 2M(Δ − α));",
    "the member Ỹ is chosen by μ_Y := 2MΔ: d = Δ if μ_Y ≤ μ(1) (case A), d = 0 if μ_Y ≥ μ(0) "
    "(case B), else the γ with μ(γ) = μ_Y (case C); then H_Ỹ ≤ H_Y on [0, Δ], and the periodic "
    "tails give H_Ỹ(α + kΔ) = r^k H_Ỹ(α) ≤ ρ^k H_Y(α) ≤ H_Y(α + kΔ) when r ≤ ρ.",
)


def thm1_steps(power: int = 1) -> tuple[Step, ...]:
    """The obligations of Theorem 1 for symmetric Y.  ``power`` = ε_Y/ε_member: 1 is the
    theorem; 2 (a mutant) asks a member of the (ε/2)-staircase family to dominate every
    symmetric ε-DP Y (ρ = r²)."""
    return _thm1_steps(power)


@functools.cache
def _thm1_steps(power: int) -> tuple[Step, ...]:
    rho = R_Q**power
    a, b = unit(S), unit(S)
    g = unit(T)
    a_step = g + (1 - g) * unit(S)  # a ∈ [γ, 1)
    return (
        nonneg("tails propagate", "ρ − r ≥ 0 (H_Ỹ(α + Δ) = r·H_Ỹ(α), H_Y(α + Δ) ≥ ρ·H_Y(α))",
               rho - R_Q),
        nonneg("case A: μ_Y ≤ μ(1), member d = Δ",
               "1 − μ_Y·a − H_1(a) ≥ 0 on [0, 1], μ_Y = μ(1)/(1 + w)",
               (1 - mu(1) / (1 + W) * a) - h_core(1, a)),
        nonneg("case B: μ_Y ≥ μ(0), member d = 0",
               "ρ(1 + μ_Y·b) − H_0(1 − b) ≥ 0 on [0, 1], μ_Y = μ(0)(1 + w)",
               rho * (1 + mu(0) * (1 + W) * b) - h_step(0, 1 - b)),
        identity("case C: core", "1 − μ_Y·a = H_γ(a) on [0, γ], μ_Y = μ(γ)",
                 (1 - mu(g) * a) - h_core(g, a)),
        nonneg("case C: step", "ρ(1 + μ_Y(1 − a)) − H_γ(a) ≥ 0 on [γ, 1], μ_Y = μ(γ)",
               rho * (1 + mu(g) * (1 - a_step)) - h_step(g, a_step)),
    )


def _ok(steps: tuple[Step, ...]) -> bool | None:
    """True if every step holds, False if one is decided false, else None."""
    if all(s.holds is True for s in steps):
        return True
    return False if any(s.holds is False for s in steps) else None


@functools.cache
def asymmetric_witness_steps() -> tuple[Step, ...]:
    """A zero-mean ε-DP noise with P(Y ∈ [0, α*]) > 1/2, for every ε > 0: f = h₊e^{−x/b₊}
    (x ≥ 0), h₋e^{x/b₋} (x < 0) with t = e^{ε/4} > 1, b₊ = 2Δ/ε, b₋ = tb₊, h₊ = b₋/(b₊(b₊ +
    b₋)), h₋ = b₊/(b₋(b₊ + b₋)).  Its log-density has slopes −ε/2 and ε/(2t) and a jump
    log(h₊/h₋) = 2 log t = ε/2 at 0, so sup_{|x−y|≤Δ} log f(x) − log f(y) = max(ε/2, ε/(2t),
    ε/2 + ε/(2t), 0) (the closed form of ``AsymmetricLaplace.true_epsilon``).  With α* =
    b₊·log(2(1 + t)/(t − 1)), P(Y ∈ [0, α*]) = h₊b₊(1 − e^{−α*/b₊}) = t(t + 3)/(2(1 + t)²)."""
    s = sp.Symbol("s", positive=True)  # t = 1 + s
    t = 1 + s
    bp, bm, x, alpha = sp.symbols("b_p b_m x alpha", positive=True)
    hp, hm = bm / (bp * (bp + bm)), bp / (bm * (bp + bm))
    mass_right = sp.integrate(hp * sp.exp(-x / bp), (x, 0, alpha))
    at_star = sp.simplify(mass_right.subs(alpha, bp * sp.log(2 * (1 + t) / (t - 1)))
                          .subs(bm, t * bp))
    sup_terms = (HALF, 1 / (2 * t), HALF + 1 / (2 * t), sp.Integer(0))  # in units of ε
    return (
        identity("normalised", "h₊b₊ + h₋b₋ = 1", hp * bp + hm * bm - 1),
        identity("zero mean", "h₊b₊² − h₋b₋² = 0", hp * bp**2 - hm * bm**2),
        identity("jump at 0", "h₊/h₋ = t² (log-jump 2 log t = ε/2)",
                 (hp / hm).subs(bm, t * bp) - t**2),
        *(nonneg(f"ε-DP ({i + 1}/4)", f"1 − {term} ≥ 0 (sup term / ε)", 1 - term)
          for i, term in enumerate(sup_terms)),
        identity("mass of [0, α*]", "P(Y ∈ [0, α*]) = t(t + 3)/(2(1 + t)²)",
                 at_star - t * (t + 3) / (2 * (1 + t) ** 2)),
        nonneg("more than half", "P(Y ∈ [0, α*]) − 1/2 > 0 ≥ P(Ỹ ∈ [0, α*]) − 1/2 for "
               "symmetric Ỹ", t * (t + 3) / (2 * (1 + t) ** 2) - HALF, strict=True),
    )


def asymmetric_witness_at(eps: Any, delta: Any = 1) -> dict[str, Any]:
    """The witness of :func:`asymmetric_witness_steps` at one ε (exact sympy values)."""
    e, dl = exact_eps(eps), exact_eps(delta)
    t = sp.exp(e / 4)
    bp = 2 * dl / e
    alpha = bp * sp.log(2 * (1 + t) / (t - 1))
    p = t * (t + 3) / (2 * (1 + t) ** 2)
    sup = e / 2 + e / (2 * t)
    return {"epsilon": str(e), "b_plus": str(bp), "b_minus": str(sp.simplify(t * bp)),
            "alpha_star": sp.N(alpha, 15), "P(Y in [0, alpha*])": sp.N(p, 20),
            "sup log-ratio": sp.N(sup, 20),
            "P - 1/2 > 0": bool(sp.N(p - HALF, 40) > 0),
            "sup <= epsilon": bool(sp.N(e - sup, 40) > 0)}


def decide_thm_1(*, symmetric: bool = True, power: int = 1, strict: bool = False
                 ) -> CheckResult:
    """Theorem 1: for every (symmetric) a.c. ε-DP Y there is a member Ỹ (d ∈ [0, Δ]) with
    Ỹ ≤ Y — decided for all ε > 0 and Δ > 0.  The proof's steps (:func:`member_steps`,
    :func:`member_dp_steps` — Ỹ is ε-DP —, :func:`thm1_steps`) hold for symmetric Y.  The
    variants: ``symmetric=False`` (Theorem 1 as printed: zero mean only) is refuted by
    :func:`asymmetric_witness_steps`; ``power=2`` (a member at ε/2) by Y = Laplace(Δ/ε), whose
    H(Δ) = r² is below every member's H(Δ) = r; ``strict=True`` (a *strictly* smaller member)
    by Y = the member d = Δ/2, the only member ≤ it (:func:`uniqueness_steps`)."""
    proof = member_steps() + member_dp_steps() + thm1_steps(power)
    reduction = Step(name="Def. 6 ⇔ H-order", statement="for symmetric Y, Ỹ ≤ Y iff "
                     "H_Ỹ ≤ H_Y on [0, ∞)", holds=symmetric,
                     form="P(Y ∈ ⟨0, α⟩) = (1 − H_Y(|α|))/2" if symmetric else
                     "Y not symmetric: P(Y ∈ [0, α]) may exceed 1/2")
    proof = (*proof, reduction)
    proved = _ok(proof) is True and not strict
    evidence: dict[str, Any] = {"premises": THM1_PREMISES,
                                "steps": [s.to_dict() for s in proof],
                                "domain": "ε > 0 (q = e^ε − 1 > 0), Δ > 0, d ∈ [0, Δ]"}
    counterexample = None
    if not proved:
        counterexample = _thm1_refutation(symmetric=symmetric, power=power, strict=strict,
                                          evidence=evidence)
    return CheckResult(
        holds=proved, decided=proved or counterexample is not None,
        claim="Theorem 1 (symmetric Y): a member Ỹ ≤ Y exists", value=proved,
        method=Method.SYMBOLIC, evidence=evidence, counterexample=counterexample)


def _thm1_refutation(*, symmetric: bool, power: int, strict: bool,
                     evidence: dict[str, Any]) -> dict[str, Any] | None:
    if power != 1:
        gap = nonneg("Laplace below every member", "r − ρ > 0: H_Lap(Δ) = ρ < r = H_Ỹ(Δ)",
                     R_Q - R_Q**power, strict=True)
        evidence["refutation_steps"] = [gap.to_dict()]
        if gap.holds:
            return {"Y": "Laplace(Δ/ε) (symmetric, ε-DP)", "P(|Y| > Δ)": "e^{−ε}",
                    "member": f"any member at ε/{power}", "P(|Ỹ| > Δ)": f"e^{{−ε/{power}}}",
                    "so": "P(Ỹ ∈ [0, Δ]) < P(Y ∈ [0, Δ]) for every member: Ỹ ≤ Y fails",
                    "at ε = 2 ln 2": {"P(|Y| > Δ)": "1/4", "P(|Ỹ| > Δ)": "1/2"}}
    if not symmetric:
        steps = asymmetric_witness_steps()
        evidence["refutation_steps"] = [s.to_dict() for s in steps]
        if _ok(steps):
            return {"Y": "f = h₊e^{−x/b₊} (x ≥ 0), h₋e^{x/b₋} (x < 0), zero mean, ε-DP",
                    "t": "e^{ε/4}", "b_plus": "2Δ/ε", "b_minus": "2Δe^{ε/4}/ε",
                    "alpha": "α* = b₊·log(2(1 + t)/(t − 1))",
                    "P(Y ∈ [0, α*]) − 1/2": "(t − 1)/(2(1 + t)²) > 0",
                    "so": "P(Y ∈ [0, α*]) > 1/2 ≥ P(Ỹ ∈ [0, α*]) for every symmetric Ỹ",
                    "for": "every ε > 0 and Δ > 0", "at ε = Δ = 1": asymmetric_witness_at(1)}
    if strict:
        steps = uniqueness_steps()
        evidence["refutation_steps"] = [s.to_dict() for s in steps]
        if _ok(steps):
            return {"Y": "the member d = Δ/2 (symmetric, ε-DP)",
                    "so": "a member γ′ with H_γ′ ≤ H_{1/2} near 0 has μ(γ′) ≥ μ(1/2), near Δ "
                          "μ(γ′) ≤ μ(1/2): γ′ = 1/2 (μ strictly decreasing), so no member is "
                          "strictly smaller", "for": "every ε > 0 and Δ > 0"}
    return None


# ---- Theorem 2 for 0 < d < Δ ---------------------------------------------------------------------
@functools.cache
def uniqueness_steps() -> tuple[Step, ...]:
    """For γ, γ′ ∈ [0, 1]: H_γ − H_γ′ = a(μ(γ′) − μ(γ)) on [0, min(γ, γ′)] and r(1 − a)(μ(γ) −
    μ(γ′)) on [max(γ, γ′), 1]; with μ strictly decreasing (:func:`member_steps`), H_γ′ ≤ H_γ
    forces γ′ ≤ γ (near 0, if γ, γ′ > 0) and γ′ ≥ γ (near Δ, if γ, γ′ < 1).  For 0 < γ < 1 and
    γ′ = 1 (the law of γ′ = 0) the first gives 1 ≤ γ: impossible.  So H_γ′ ≤ H_γ ⇒ γ′ = γ."""
    g, g2, a = sp.symbols("gamma gamma_2 a", nonnegative=True)
    return (
        identity("near 0", "H_γ(a) − H_γ′(a) = a(μ(γ′) − μ(γ)) on [0, min(γ, γ′)]",
                 h_core(g, a) - h_core(g2, a) - a * (mu(g2) - mu(g))),
        identity("near Δ", "H_γ(a) − H_γ′(a) = r(1 − a)(μ(γ) − μ(γ′)) on [max(γ, γ′), 1]",
                 h_step(g, a) - h_step(g2, a) - R_Q * (1 - a) * (mu(g) - mu(g2))),
        member_steps()[-1],
    )


THM2_PREMISES = (
    "Z ε-DP (any a.c. noise) with Z ≤ S_d: the mixture Z_s of Z and −Z is symmetric and ε-DP "
    "(step 'mixture'), and Z_s ≤ S_d (step 'average'), since S_d is symmetric;",
    "Theorem 1 for symmetric Y (the steps above) gives a member S_d′ ≤ Z_s ≤ S_d, so d′ = d "
    "(uniqueness, 0 < d < Δ) and H_{Z_s} = H_{S_d};",
    "then P(Z ∈ [0, α]) and P(Z ∈ [−α, 0]), both ≥ P(S_d ∈ [0, α]) with that average, equal it "
    "(step 'average'): Z and S_d have the same P(· ∈ ⟨0, α⟩), so Z < S_d is impossible: S_d is "
    "minimal (Definition 8) among ε-DP noises, and it is ε-DP itself (member steps).",
)


@functools.cache
def symmetrisation_steps() -> tuple[Step, ...]:
    """Mixtures keep ε-DP and the order: u ≤ Eu′, v ≤ Ev′ ⇒ (u + v)/2 ≤ E(u′ + v′)/2 (−Z is
    ε-DP: the shifts [−Δ, Δ] are symmetric); and p₊, p₋ ≥ g ⇒ (p₊ + p₋)/2 ≥ g, with equality
    only if p₊ = p₋ = g (the slack is x + y with x, y ≥ 0)."""
    e, u2, v2, g = sp.symbols("E u_2 v_2 g", positive=True)
    return (
        nonneg("mixture", "E(u′ + v′)/2 − (u + v)/2 ≥ 0, u = Eu′ − x, v = Ev′ − y",
               e * (u2 + v2) / 2 - ((e * u2 - X) + (e * v2 - Y_)) / 2),
        nonneg("average", "((g + x) + (g + y))/2 − g = (x + y)/2 ≥ 0, = 0 iff x = y = 0",
               ((g + X) + (g + Y_)) / 2 - g),
    )


@functools.cache
def endpoint_steps() -> tuple[Step, ...]:
    """The member d = Δ/2 is strictly smaller than the member d = Δ (the law of d = 0), for
    every ε: H_1 − H_{1/2} ≥ 0 on [0, 1/2] and [1/2, 1], > 0 at a = 1/2."""
    return (
        nonneg("below on the core", "H_1(a) − H_{1/2}(a) ≥ 0 on [0, 1/2]",
               h_core(1, HALF * unit(S)) - h_core(HALF, HALF * unit(S))),
        nonneg("below on the step", "H_1(a) − H_{1/2}(a) ≥ 0 on [1/2, 1]",
               h_core(1, HALF + HALF * unit(S)) - h_step(HALF, HALF + HALF * unit(S))),
        nonneg("strictly at Δ/2", "H_1(1/2) − H_{1/2}(1/2) > 0",
               h_core(1, HALF) - h_core(HALF, HALF), strict=True),
    )


def endpoint_gap_at(eps: Any) -> Any:
    """H_1(1/2) − H_{1/2}(1/2) = q²/(2(1 + q)(2 + q)) at q = e^ε − 1 (exact sympy value)."""
    q = sp.exp(exact_eps(eps)) - 1
    return sp.simplify((h_core(1, HALF) - h_core(HALF, HALF)).subs(Q, q))


def decide_thm_2(*, endpoints: bool = False) -> CheckResult:
    """Theorem 2 for the members with 0 < d < Δ (``endpoints=True``, a mutant or the printed
    theorem: d ∈ [0, Δ]) — decided for all ε > 0, Δ > 0: proved from Theorem 1 for symmetric
    Y, symmetrisation and uniqueness (:data:`THM2_PREMISES`); the end points are refuted by
    :func:`endpoint_steps` (the member d = Δ/2 is strictly smaller)."""
    proof = (member_steps() + member_dp_steps() + thm1_steps(1) + symmetrisation_steps()
             + uniqueness_steps())
    interior = _ok(proof)
    evidence: dict[str, Any] = {"premises": THM1_PREMISES + THM2_PREMISES,
                                "steps": [s.to_dict() for s in proof],
                                "domain": "ε > 0 (q = e^ε − 1 > 0), Δ > 0, 0 < d < Δ"}
    counterexample = None
    holds = interior is True
    if endpoints:
        ends = endpoint_steps()
        evidence["endpoint_steps"] = [s.to_dict() for s in ends]
        if _ok(ends):
            holds = False
            counterexample = {
                "Y": "the member d = Δ (the same law as d = 0)",
                "smaller": "the member d = Δ/2 (ε-DP): H_{1/2} ≤ H_Δ on [0, Δ], periodic tails",
                "H_Δ(Δ/2) − H_{Δ/2}(Δ/2)": "q²/(2(1 + q)(2 + q)) > 0, q = e^ε − 1",
                "for": "every ε > 0 and Δ > 0",
                "at ε = ln 2": str(endpoint_gap_at(sp.log(2)))}
    return CheckResult(
        holds=holds, decided=holds or counterexample is not None,
        claim="Theorem 2: every member with " + ("0 ≤ d ≤ Δ" if endpoints else "0 < d < Δ")
              + " is optimal among ε-DP noises", value=holds, method=Method.SYMBOLIC,
        evidence=evidence, counterexample=counterexample)


# ---- §4.3: the redistribution of Laplace ---------------------------------------------------------
L_EPS = sp.Symbol("L", positive=True)
"""ε itself, where it enters other than through q (L = log(1 + q))."""


def gamma_m() -> sp.Expr:
    """m/Δ of §4.3, (1 − r − εr)/(ε(1 − r)), as (q − L)/(qL)."""
    return (Q - L_EPS) / (Q * L_EPS)


@functools.cache
def sec43_member_steps() -> tuple[Step, ...]:
    """The §4.3 redistribution is the member d = m with 2M0Δ = ε (core height ε/(2Δ), the
    Laplace peak) and 0 < m < Δ, for every ε > 0: m/Δ = (q − L)/(qL) with L = ε = log(1 + q);
    q − log(1 + q) > 0 and log(1 + q) − q/(1 + q) > 0 for q > 0."""
    from privlab.proofs.thesis.ch4_symbolic import DELTA, EPS, m_reconstructed

    sub = {sp.exp(-EPS): 1 / (1 + Q)}
    m_in_q = m_reconstructed().subs(sub).subs(EPS, L_EPS) / DELTA
    u = sp.Symbol("u", nonnegative=True)
    return (
        identity("m in q", "m/Δ = (1 − e^{−ε} − εe^{−ε})/(ε(1 − e^{−ε})) = (q − L)/(qL)",
                 m_in_q - gamma_m()),
        identity("core height", "μ(m/Δ) = 2M0Δ = ε, i.e. M0 = ε/(2Δ)", mu(gamma_m()) - L_EPS),
        grows_from_zero("m > 0", "q − log(1 + q) > 0 for q > 0 (numerator of m/Δ)",
                        u - sp.log(1 + u), u, strict=True),
        identity("Δ − m", "1 − m/Δ = (1 + q)(L − q/(1 + q))/(qL)",
                 1 - gamma_m() - (1 + Q) * (L_EPS - Q / (1 + Q)) / (Q * L_EPS)),
        grows_from_zero("m < Δ", "log(1 + q) − q/(1 + q) > 0 for q > 0",
                        sp.log(1 + u) - u / (1 + u), u, strict=True),
    )


def decide_sec43_dp(*, claimed: Any = 1) -> CheckResult:
    """§4.3: the redistribution of Laplace(Δ/ε) is ε-DP, for every ε > 0 and Δ > 0 — it is the
    member d = m ∈ (0, Δ) (:func:`sec43_member_steps`) and every member is ε-DP with supremum
    exactly ε (:func:`member_dp_steps`).  ``claimed`` < 1 (a mutant): (claimed·ε)-DP, refuted
    by the pair x = m + Δ/2, y = m + 3Δ/2 (log f(x) − log f(y) = ε)."""
    steps = sec43_member_steps() + member_dp_steps(claimed)
    ok = _ok(steps)
    cex = None
    if ok is False and steps[-1].holds is False and _ok(steps[:-1]):
        cex = {"pair": "x = m + Δ/2, y = m + 3Δ/2 (continuity points, |x − y| = Δ)",
               "log f(x) − log f(y)": "ε", "claimed": f"{claimed}·ε", "for": "every ε > 0"}
    return CheckResult(holds=ok is True, decided=ok is True or cex is not None,
                       claim=f"the §4.3 density is ({claimed}·ε)-DP", value=ok is True,
                       method=Method.SYMBOLIC, counterexample=cex,
                       evidence={"premises": ("(4.2) ⇒ ε-DP (integration of the pointwise "
                                              "bound over any event)",),
                                 "steps": [x.to_dict() for x in steps],
                                 "domain": "ε > 0 (q = e^ε − 1), Δ > 0"})


@functools.cache
def sec43_smaller_steps() -> tuple[Step, ...]:
    """H_m ≤ H_Lap on [0, ∞), strictly at α = m, for every ε > 0 (H_Lap(α) = e^{−εα/Δ}): on
    [0, m] H_m = 1 − εa ≤ e^{−εa}; on [m, Δ] H_m = e^{−ε}(1 + ε(1 − a)) ≤ e^{−εa}, i.e.
    e^{y} ≥ 1 + y with y = ε(1 − a) — the two tangents of the convex e^{−εa} at a = 0 and
    a = 1; both tails satisfy H(α + Δ) = e^{−ε}H(α) (:func:`member_steps` for the member)."""
    a, x, y = sp.symbols("a x y", nonnegative=True)
    lap = sp.exp(-L_EPS * a)
    return (
        identity("Laplace tail periodic", "e^{−ε(a + 1)} = e^{−ε}·e^{−εa}",
                 sp.exp(-L_EPS * (a + 1)) - sp.exp(-L_EPS) * lap),
        identity("e^{−ε} = r", "exp(−log(1 + q)) = 1/(1 + q)", sp.exp(-sp.log(1 + Q)) - R_Q),
        identity("core line", "H_m(a) = 1 − εa on [0, m/Δ] (2M0Δ = ε)",
                 h_core(gamma_m(), a) - (1 - L_EPS * a)),
        grows_from_zero("below on the core", "e^{−x} − (1 − x) > 0 for x = εa > 0",
                        sp.exp(-x) - (1 - x), x, order=2, strict=True),
        identity("step line", "H_m(a) = r(1 + ε(1 − a)) on [m/Δ, 1]",
                 h_step(gamma_m(), a) - R_Q * (1 + L_EPS * (1 - a))),
        grows_from_zero("below on the step", "e^{y} − (1 + y) ≥ 0 for y = ε(1 − a) ≥ 0 "
                        "(e^{−εa} − r(1 + ε(1 − a)) = r(e^{y} − 1 − y))",
                        sp.exp(y) - (1 + y), y, order=2),
        identity("step factor", "e^{−εa} − e^{−ε}(1 + ε(1 − a)) = e^{−ε}(e^{ε(1−a)} − 1 − "
                 "ε(1 − a))", sp.expand(lap - sp.exp(-L_EPS) * (1 + L_EPS * (1 - a))
                                        - sp.exp(-L_EPS) * (sp.exp(L_EPS * (1 - a)) - 1
                                                             - L_EPS * (1 - a)))),
    )


def decide_sec43_smaller(*, gamma_offset: Any = 0) -> CheckResult:
    """§4.3: the member d = m is strictly smaller than Laplace(Δ/ε), for every ε > 0, Δ > 0
    (:func:`sec43_smaller_steps`, with 0 < m < Δ from :func:`sec43_member_steps` for the
    strict inequality at α = m).  ``gamma_offset`` ≠ 0 (a mutant): the member d = m +
    offset·Δ claimed smaller; decided at ε = 1 by the slopes at 0 and Δ (2M0Δ ≠ ε): at
    α = a*Δ, a* = |ε − 2M0Δ|/ε² (near 0) or 1 − a* (near Δ), e^{−εa} ≤ 1 − εa + (εa)²/2 (resp.
    e^{y} ≥ 1 + y + y²/2) shows H_member > H_Lap, exactly (sympy, 50 digits)."""
    steps = member_steps() + sec43_member_steps() + sec43_smaller_steps()
    ok = _ok(steps)
    evidence: dict[str, Any] = {
        "premises": ("for symmetric laws Def. 6 is H_Ỹ ≤ H_Y with H(α) = P(|Y| > α); strict "
                     "somewhere makes Ỹ < Y",),
        "steps": [x.to_dict() for x in steps], "domain": "ε > 0 (q = e^ε − 1), Δ > 0"}
    if not gamma_offset:
        return CheckResult(holds=ok is True, decided=ok is True,
                           claim="the §4.3 member is strictly smaller than Laplace",
                           value=ok is True, method=Method.SYMBOLIC, evidence=evidence)
    e = sp.Integer(1)
    q = sp.E - 1
    g = (q - e) / (q * e) + sp.nsimplify(gamma_offset)
    m = mu(g).subs(Q, q)
    a_star = abs(e - m) / e**2
    a = a_star if m < e else 1 - a_star
    inside = bool(sp.N(a - g, 50) <= 0) if m < e else bool(sp.N(a - g, 50) >= 0)
    h = (h_core(g, a) if m < e else h_step(g, a)).subs(Q, q)
    gap = sp.N(h - sp.exp(-e * a), 50)
    refuted = inside and bool(gap > 0)
    evidence["mutant"] = {"d/Δ": str(sp.N(g, 20)), "2M0Δ": str(sp.N(m, 20)),
                          "alpha/Δ": str(sp.N(a, 20)), "H_member − H_Lap": str(gap)}
    return CheckResult(holds=not refuted, decided=refuted,
                       claim="a member d ≠ m is smaller than Laplace", value=str(gap),
                       method=Method.SYMBOLIC, evidence=evidence,
                       counterexample={"epsilon": 1, "Delta": 1, **evidence["mutant"]}
                       if refuted else None)
