"""Exact comparison of noise laws in the order of thesis §4.1, Definition 6.

Definition 6: Y1 ≤ Y2 iff P(Y1 ∈ ⟨0, α⟩) ≥ P(Y2 ∈ ⟨0, α⟩) for every α ∈ ℝ (⟨0, α⟩ = [0, α] or
[α, 0]); Y1 < Y2 if moreover some inequality is strict.  For symmetric laws
P(Y ∈ ⟨0, α⟩) = G(|α|)/2 with G(a) = P(|Y| ≤ a).

Each half-line is decided separately (α > 0: t ↦ f(t); α < 0: t ↦ f(−t)).  With
T(a) = ∫_a^∞ f and p = T(0) (= ½ for a symmetric law) the quantity is p − T(a), so when the two
laws give the half-line the same mass p the sign to decide is that of E(a) = T2(a) − T1(a)
(E > 0 ⇔ P1 > P2 at α = a).  Masses are computed in closed form from the log-linear pieces,
always as sums of positive terms: near 0 as E = ∫_0^a f1 − ∫_0^a f2, far out as T2 − T1 with
T(s + kP + x) = ρ^k T(s + x), T(s) = M/(1 − ρ) — whichever side is smaller — so E keeps its
relative precision at both ends (a staircase core of width 1e-300 is still seen).

* Inside a window [0, A].  On each cell of the common refinement of both laws' breakpoints,
  E' = f1 − f2 = e^{c1+s1 a} − e^{c2+s2 a} vanishes at most once, at a* = (c2 − c1)/(s1 − s2)
  (never when s1 = s2 unless f1 ≡ f2 there), so E is monotone between cell ends and a*: its
  extrema are among the breakpoints and these stationary points, where E is evaluated exactly.
* Beyond A, equal decay rates λ = −log ρ/P.  If P1/P2 = n/m (small integers) then L = m·P1 =
  n·P2 is a common period with common ratio ρ_L, and for a ≥ S = max(s1, s2)
  T_i(a + L) = ρ_L T_i(a) for both laws, so E(a + L) = ρ_L E(a): the sign pattern on [S, S + L]
  repeats for ever (scaled by ρ_L > 0).  A = S + L decides everything.
* Beyond A, different rates.  For a ≥ s, ρ^{(a−s)/P + 1} T(s) ≤ T(a) ≤ ρ^{(a−s)/P − 1} T(s);
  with λ_h < λ_l (heavier tail h) the lower bound of T_h exceeds the upper bound of T_l for
  a > A0 (closed form), so beyond A = max(S, A0) + P the heavier-tailed law has the smaller
  P(Y ∈ ⟨0, α⟩) — strictly, proved — and the window [0, A] decides the rest.

Values within 10^(−dps+10) (relative to T) count as equal ("ties"; e.g. every staircase member
touches Laplace(Δ/ε) at α = kΔ), and a verdict resting on ties is confirmed at higher precision
(:func:`privlab.verify.noise.density.confirm_ties`): a genuine difference hidden below the
tolerance —
such as the (d − m)² ≈ 1e-34 dip of a staircase whose d is the float rounding of the §4.3 value
m — emerges there.  ``equal`` is reported only when the piece lists also coincide.

Undecidable cases (different half-line masses, incommensurable periods, windows beyond
``MAX_PERIODS`` periods, a broken tail contract) return decided=False: never a guess.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Any

import attrs
import mpmath

from privlab.errors import InvalidParameter
from privlab.types import CheckResult, Method
from privlab.verify.noise import density as dn

RELATIONS = ("less", "greater", "equal", "incomparable")
MAX_PERIODS = 4000
MAX_PERIOD_RATIO = 64


@attrs.frozen
class _Half:
    """One half-line of one law: t ↦ f(±t) on (0, ∞) with tail (s, P, log ρ)."""

    start: Any
    period: Any
    log_rho: Any
    base: list[Any]  # pieces on (0, s + P)
    t_start: Any  # T(s) = M/(1 − ρ)

    def tail_mass(self, a: Any) -> Any:
        """T(a) = ∫_a^∞ f as a sum of positive terms."""
        s, p = self.start, self.period
        if a < s:
            return dn.mass(self.base, a, s) + self.t_start
        k = mpmath.floor((a - s) / p)
        x = a - k * p
        if x >= s + p:
            k, x = k + 1, x - p
        x = max(x, s)
        return mpmath.exp(k * self.log_rho) * (dn.mass(self.base, x, s + p)
                                               + mpmath.exp(self.log_rho) * self.t_start)

    @property
    def rate(self) -> Any:
        return -self.log_rho / self.period


def _half(dist: Any, side: str, tail: dn.TailInfo) -> _Half:
    s, p, lr = tail.start, tail.period, tail.log_rho(side)
    base = dn.side_pieces(dist, side, 0, s + p)
    t_start = dn.mass(base, s, s + p) / -mpmath.expm1(lr) if lr < 0 else mpmath.inf
    return _Half(s, p, lr, base, t_start)


def _common_period(h1: _Half, h2: _Half) -> Any:
    q = Fraction(float(h1.period)) / Fraction(float(h2.period))
    if q.numerator > MAX_PERIOD_RATIO or q.denominator > MAX_PERIOD_RATIO:
        return None
    return q.denominator * h1.period


def _tail_bound_start(h1: _Half, h2: _Half) -> Any:
    """A0 beyond which T_heavy > T_light, from the bounds in the module doc."""
    h, lt = (h1, h2) if h1.rate < h2.rate else (h2, h1)
    const = (mpmath.log(h.t_start) + h.rate * h.start + h.log_rho
             - mpmath.log(lt.t_start) - lt.rate * lt.start + lt.log_rho)
    return -const / (lt.rate - h.rate)


def _difference(h1: _Half, h2: _Half, a: Any) -> tuple[Any, Any, Any, Any]:
    """(E, threshold, P1, P2) at a: E = P1 − P2 computed from the smaller side — the head
    masses P_i = ∫_0^a f_i near 0, the tail masses (E = T2 − T1) far out — so that it keeps
    its relative precision at both ends (the threshold is relative to the same side)."""
    t1, t2 = h1.tail_mass(a), h2.tail_mass(a)
    m1, m2 = h1.tail_mass(0), h2.tail_mass(0)
    tol = dn.tolerance()
    if a <= min(h1.start + h1.period, h2.start + h2.period):
        g1, g2 = dn.mass(h1.base, 0, a), dn.mass(h2.base, 0, a)
        if max(g1, g2) < max(t1, t2):
            return g1 - g2, tol * max(g1, g2), g1, g2
    return t2 - t1, tol * max(t1, t2), m1 - t1, m2 - t2


def _witness(a: Any, side: str, e: Any, p1: Any, p2: Any, y1: Any, y2: Any) -> dict[str, Any]:
    alpha = a if side == "right" else -a
    out = {"alpha": float(alpha), "alpha_exact": mpmath.nstr(alpha, 30),
           "P1 = P(Y1 in <0,alpha>)": mpmath.nstr(p1, 25),
           "P2 = P(Y2 in <0,alpha>)": mpmath.nstr(p2, 25),
           "P1 - P2": mpmath.nstr(e, 10),
           "relative_difference": mpmath.nstr(e / max(abs(p1), abs(p2)), 10)}
    if all(callable(getattr(y, "prob_within", None)) for y in (y1, y2)):
        try:  # float cross-check (symmetric laws): G(|α|) = P(|Y| ≤ |α|)
            out["G1_float"] = float(y1.prob_within(float(a)))
            out["G2_float"] = float(y2.prob_within(float(a)))
        except Exception:  # pragma: no cover - informational only
            pass
    return out


def _same_pieces(ps1: list[Any], ps2: list[Any], tol: Any, tol_x: Any) -> bool:
    return len(ps1) == len(ps2) and all(
        abs(p.lo - q.lo) <= tol_x and abs(p.hi - q.hi) <= tol_x and dn.same_function(p, q, tol)
        for p, q in zip(ps1, ps2, strict=True))


def _side(y1: Any, y2: Any, side: str, tails: tuple[dn.TailInfo, dn.TailInfo]) -> dict[str, Any]:
    """Decide the sign pattern of E = P1 − P2 on one half-line (see module doc)."""
    tol = dn.tolerance()
    h1, h2 = _half(y1, side, tails[0]), _half(y2, side, tails[1])
    ev: dict[str, Any] = {"rate1": mpmath.nstr(h1.rate, 20), "rate2": mpmath.nstr(h2.rate, 20)}
    out: dict[str, Any] = {"pos": None, "neg": None, "decided": True, "equal": False,
                           "ties": 0, "evidence": ev}
    if h1.log_rho >= 0 or h2.log_rho >= 0:
        return {**out, "decided": False, "reason": "a tail does not decay (rho >= 1)"}
    m1, m2 = h1.tail_mass(0), h2.tail_mass(0)
    ev.update({"mass1": mpmath.nstr(m1, 25), "mass2": mpmath.nstr(m2, 25)})
    if abs(m1 - m2) > tol * max(m1, m2):
        return {**out, "decided": False,
                "reason": "the laws give this half-line different masses (not implemented)"}
    s = max(h1.start, h2.start)
    pmin = min(h1.period, h2.period)
    tail_sign, a_tail = 0, None
    if abs(h1.rate - h2.rate) <= tol * max(h1.rate, h2.rate):
        big_l = _common_period(h1, h2)
        if big_l is None:
            return {**out, "decided": False,
                    "reason": "equal decay rates but no small common period"}
        a_end = s + big_l
        ev["tail"] = (f"equal rates: common period L = {mpmath.nstr(big_l, 15)}; "
                      f"E(a + L) = rho_L E(a) for a >= {mpmath.nstr(s, 15)}")
    else:
        tail_sign = -1 if h1.rate < h2.rate else 1
        a_tail = a_end = max(s, _tail_bound_start(h1, h2)) + max(h1.period, h2.period)
        ev["tail"] = (f"different rates: Y{1 if tail_sign < 0 else 2} has the heavier tail, "
                      f"hence the smaller P(Y in <0,alpha>) for all alpha >= "
                      f"{mpmath.nstr(a_tail, 15)} (proved by the tail bounds)")
    truncated = a_end > s + MAX_PERIODS * pmin
    if truncated:
        a_end = s + MAX_PERIODS * pmin
    ev.update(window=float(a_end), window_truncated=bool(truncated))
    tol_x = tol * max(1, a_end)
    ps1, ps2 = dn.side_pieces(y1, side, 0, a_end), dn.side_pieces(y2, side, 0, a_end)
    los1, los2 = [p.lo for p in ps1], [p.lo for p in ps2]
    pts = sorted({mpmath.mpf(0), a_end} | {x for p in ps1 + ps2 for x in (p.lo, p.hi)})
    extra = []
    for u, v in itertools.pairwise(pts):
        if v - u <= tol_x:
            continue
        p, q = dn.find_piece(ps1, (u + v) / 2, los1), dn.find_piece(ps2, (u + v) / 2, los2)
        if p is not None and q is not None and abs(p.slope - q.slope) > tol:
            x = (q.intercept - p.intercept) / (p.slope - q.slope)
            if u < x < v:
                extra.append(x)
    best_pos = best_neg = None
    for a in sorted(pts + extra):
        if a <= 0:
            continue
        e, thr, p1, p2 = _difference(h1, h2, a)
        out["ties"] += abs(e) <= thr
        # witnesses: the largest absolute difference (a readable α, checkable in floats)
        if e > thr and (best_pos is None or e > best_pos[0]):
            best_pos = (e, a, e, p1, p2)
        if e < -thr and (best_neg is None or e < best_neg[0]):
            best_neg = (e, a, e, p1, p2)
    if tail_sign:  # the sign beyond a_tail is proved; a_tail itself is a concrete witness
        e, thr, p1, p2 = _difference(h1, h2, a_tail)
        if tail_sign > 0 and best_pos is None:
            best_pos = (None, a_tail, e, p1, p2)
        if tail_sign < 0 and best_neg is None:
            best_neg = (None, a_tail, e, p1, p2)
    ev.update(n_points_evaluated=len(pts) + len(extra), n_ties=out["ties"])
    for key, best in (("pos", best_pos), ("neg", best_neg)):
        if best is not None:
            out[key] = _witness(best[1], side, *best[2:], y1, y2)
    if truncated and (out["neg"] if tail_sign > 0 else out["pos"]) is None:
        return {**out, "decided": False,
                "reason": f"window beyond {MAX_PERIODS} periods (rates too close)"}
    out["equal"] = not tail_sign and _same_pieces(ps1, ps2, tol, tol_x)
    return out


def compare(y1: Any, y2: Any, *, dps: int = 50) -> CheckResult:
    """Relation between Y1 and Y2 in the order of Definition 6 (thesis §4.1), decided exactly.

    ``value`` is ``"less"`` (Y1 < Y2: Y1 strictly smaller, i.e. better), ``"greater"``
    (Y2 < Y1), ``"equal"`` (same law) or ``"incomparable"``; ``holds`` is True when the
    relation was decided.  ``evidence["witness_P1_gt_P2"]`` / ``["witness_P1_lt_P2"]`` give an
    α with P(Y1 ∈ ⟨0, α⟩) > resp. < P(Y2 ∈ ⟨0, α⟩) (for symmetric laws G_i(|α|) = 2·P_i).
    """
    dn.require_structure(y1, "y1")
    dn.require_structure(y2, "y2")
    dps = dn.check_dps(dps)
    res = dn.confirm_ties(lambda p: _compare_at(y1, y2, p), dps, lambda r: r.value)
    return res if res.decided else attrs.evolve(res, value=None)


def _compare_at(y1: Any, y2: Any, dps: int) -> tuple[CheckResult, bool]:
    claim = "order of Y1 and Y2 under thesis §4.1 Definition 6"
    with mpmath.workdps(dps):
        evidence: dict[str, Any] = {"dps": dps, "tolerance": mpmath.nstr(dn.tolerance(), 3)}
        try:
            tails = (dn.tail_info(y1), dn.tail_info(y2))
        except dn.TailMismatch as exc:
            evidence["undecided_because"] = str(exc)
            return CheckResult(holds=False, claim=claim, decided=False, evidence=evidence), False
        sides = {side: _side(y1, y2, side, tails) for side in ("right", "left")}
    pos = next((r["pos"] for r in sides.values() if r["pos"] is not None), None)
    neg = next((r["neg"] for r in sides.values() if r["neg"] is not None), None)
    decided = all(r["decided"] for r in sides.values())
    evidence.update({
        "tails": [t.to_dict() for t in tails],
        "sides": {k: {**r["evidence"], "decided": r["decided"],
                      **({"reason": r["reason"]} if "reason" in r else {})}
                  for k, r in sides.items()},
        "witness_P1_gt_P2": pos, "witness_P1_lt_P2": neg})
    if pos is not None and neg is not None:
        value: str | None = "incomparable"
        decided = True
    elif not decided:
        value = None
    elif pos is not None:
        value = "less"
    elif neg is not None:
        value = "greater"
    else:
        value = "equal" if all(r["equal"] for r in sides.values()) else None
        if value is None:
            decided = False
            evidence["undecided_because"] = ("no difference above the working precision but "
                                             "the piece lists differ: increase dps")
    if not decided:
        evidence.setdefault("undecided_because", "; ".join(
            f"{k}: {r['reason']}" for k, r in sides.items() if "reason" in r))
    ties = sum(r["ties"] for r in sides.values()) > 0
    return CheckResult(holds=decided, claim=claim, value=value, evidence=evidence,
                       decided=decided, method=Method.EXACT), ties


def check_order(y1: Any, y2: Any, *, strict: bool = False, dps: int = 50) -> CheckResult:
    """Y1 ≤ Y2 (or Y1 < Y2 with ``strict=True``) in the order of Definition 6 (thesis §4.1).

    Counterexample when it fails: an α with P(Y1 ∈ ⟨0, α⟩) < P(Y2 ∈ ⟨0, α⟩), or, for
    ``strict`` with equal laws, the statement that no α has a strict inequality.
    """
    if not isinstance(strict, bool):
        raise InvalidParameter(f"strict={strict!r} must be a bool")
    res = compare(y1, y2, dps=dps)
    claim = f"Y1 {'<' if strict else '<='} Y2 under thesis §4.1 Definition 6"
    evidence = {**res.evidence, "relation": res.value}
    if not res.decided:
        return CheckResult(holds=False, claim=claim, decided=False, evidence=evidence)
    ok = ("less",) if strict else ("less", "equal")
    holds = res.value in ok
    cex = None
    if not holds:
        cex = res.evidence["witness_P1_lt_P2"] or {
            "relation": res.value, "reason": "equal laws: no alpha with P1 > P2"}
    return CheckResult(holds=holds, claim=claim, value=res.value, evidence=evidence,
                       counterexample=cex, method=Method.EXACT)
