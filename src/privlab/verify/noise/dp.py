"""Exact decision of pure ε-DP for additive univariate noise (thesis §4.2, inequality 4.2).

Thesis §4.2 shows that, for an absolutely continuous noise Y with density f (jump
discontinuities without accumulation points), x ↦ x + Y is ε-DP for a query of sensitivity Δ
iff

    f(x) ≤ e^ε · f(y)    for all continuity points x, y of f with |x − y| ≤ Δ.     (4.2)

:func:`check_pure_dp` decides (4.2) on the exact piecewise log-linear structure of f
(:mod:`privlab.verify.noise.density`): sup log f(x) − log f(y) over admissible pairs, compared with
ε.

(a) Reduction to a window.  By the tail contract f(x + P) = ρ₊ f(x) for x ≥ s, so for x, y ≥ s
    log f(x + P) − log f(y + P) = log f(x) − log f(y), and continuity points map to continuity
    points.  A pair with min(x, y) ≥ s + P is shifted by −P (both stay ≥ s) until
    min(x, y) < s + P; the mirror holds for max(x, y) ≤ −(s + P).  Every other pair has
    min < s + P and max > −(s + P), and |x − y| ≤ Δ puts both in (−W, W), W = s + P + Δ.  So
    the supremum over ℝ equals the supremum over the window; one extra period is added as a
    margin.  (The contract is checked on three periods per side, and relied on beyond.)
(b) Pairs of pieces.  On open pieces I, J, log f(x) − log f(y) = g_I(x) − g_J(y) is linear.
    The open intervals hold points at distance ≤ Δ iff gap(I, J) < Δ strictly (a gap of exactly
    Δ — e.g. the staircase core [−d, d] and the step (d + Δ, d + 2Δ] — is only reached at
    endpoints, which are not continuity points, so such pieces are *not* paired; pairing them
    would report a false e^{2ε}).  If gap < Δ the convex set cl I × cl J ∩ {|x − y| ≤ Δ} has
    non-empty interior, its interior lies in the open set of admissible pairs, and it is the
    closure of that set; hence the supremum of the linear objective equals its maximum over the
    closed polygon, attained at a vertex: a box corner, or a box edge meeting y = x ± Δ.
(c) Decision.  Holds iff sup ≤ ε; |sup − ε| ≤ 10^(−dps+10) is treated as equality (reported),
    after confirming the tie at 2·dps (a float-induced excess of 1e-45 would emerge there).
    A zero-density gap next to positive density gives sup = +∞.  On failure the witness is a
    pair of interior points (continuity points) near the maximising vertex, moved towards the
    polygon's interior only as far as keeps the log-ratio above ε, re-evaluated exactly.
"""

from __future__ import annotations

import itertools
from typing import Any

import mpmath

from privlab._validate import positive
from privlab.mechanisms.noise._base import LogPiece
from privlab.types import CheckResult, Method
from privlab.verify.noise import density as dn

TAIL_ARGUMENT = ("pairs with min(x, y) >= s + P (resp. max <= -(s + P)) shift by -P (+P) "
                 "without changing log f(x) - log f(y) (tail contract f(x+P) = rho f(x)); "
                 "all remaining pairs lie in (-W, W), W = s + P + Delta; window = W + P")


def _vertices(p: LogPiece, q: LogPiece, delta: Any, tol: Any) -> list[tuple[Any, Any]]:
    """Vertices (and possibly a few more boundary points) of
    {x ∈ [p.lo, p.hi], y ∈ [q.lo, q.hi], |x − y| ≤ Δ}."""
    a1, b1, a2, b2 = p.lo, p.hi, q.lo, q.hi
    cand = [(x, y) for x in (a1, b1) for y in (a2, b2)]
    cand += [(x, x + t) for x in (a1, b1) for t in (-delta, delta)]
    cand += [(y + t, y) for y in (a2, b2) for t in (-delta, delta)]
    return [(x, y) for x, y in cand
            if a1 - tol <= x <= b1 + tol and a2 - tol <= y <= b2 + tol
            and abs(x - y) <= delta + tol]


def _gap(p: LogPiece, q: LogPiece) -> Any:
    return max(mpmath.mpf(0), q.lo - p.hi, p.lo - q.hi)


def _piece_json(p: LogPiece) -> dict[str, str]:
    return {"lo": mpmath.nstr(p.lo, 20), "hi": mpmath.nstr(p.hi, 20),
            "intercept": mpmath.nstr(p.intercept, 20), "slope": mpmath.nstr(p.slope, 20)}


def _inside(p: LogPiece, x: Any) -> bool:
    return bool(p.lo < x < p.hi)


def _witness(p: LogPiece, q: LogPiece, v: tuple[Any, Any], verts: list[tuple[Any, Any]],
             delta: Any, eps: Any, dist: Any) -> dict[str, Any]:
    """Interior pair (continuity points) near vertex v with log-ratio still > ε."""
    def g(x: Any, y: Any) -> Any:
        return p.at(x) - q.at(y)

    cx = mpmath.fsum(w[0] for w in verts) / len(verts)
    cy = mpmath.fsum(w[1] for w in verts) / len(verts)
    top, drop = g(*v), g(*v) - g(cx, cy)
    # moving a fraction t towards the centroid loses t·drop; keep 90 % of the excess over ε
    t = mpmath.mpf(1) / 4 if drop <= 0 else min(mpmath.mpf(1) / 4, (top - eps) / (10 * drop))
    x, y = v[0] + t * (cx - v[0]), v[1] + t * (cy - v[1])
    xf, yf = mpmath.mpf(float(x)), mpmath.mpf(float(y))
    if _inside(p, xf) and _inside(q, yf) and abs(xf - yf) <= delta and g(xf, yf) > eps:
        x, y = xf, yf  # the rounded pair is still a valid witness: report it as floats
    lr = g(x, y)
    out: dict[str, Any] = {"x": float(x), "y": float(y), "log_ratio": float(lr),
                           "epsilon": float(eps), "x_exact": mpmath.nstr(x, 40),
                           "y_exact": mpmath.nstr(y, 40), "log_ratio_exact": mpmath.nstr(lr, 30),
                           "log_ratio_minus_epsilon": mpmath.nstr(lr - eps, 10),
                           "|x-y|": float(abs(x - y)), "sensitivity": float(delta)}
    if callable(getattr(dist, "logpdf", None)):
        try:
            out["float_logpdf_difference"] = float(dist.logpdf(float(x)) - dist.logpdf(float(y)))
        except Exception:  # pragma: no cover - informational cross-check only
            pass
    return out


def _gap_witness(ps: list[LogPiece], lo: Any, hi: Any, delta: Any, eps: Any,
                 tol_x: Any) -> dict[str, Any] | None:
    """A zero-density stretch (no piece) adjacent to a piece: sup = +∞."""
    edges = [(lo, ps[0].lo, None, ps[0])] if ps else []
    edges += [(p.hi, q.lo, p, q) for p, q in itertools.pairwise(ps)]
    edges += [(ps[-1].hi, hi, ps[-1], None)] if ps else []
    for u, v, left, right in edges:
        if v - u <= tol_x:
            continue
        piece = left if left is not None else right
        h = min(delta / 4, (v - u) / 2, (piece.hi - piece.lo) / 2)
        x, y = (u - h, u + h) if left is not None else (v + h, v - h)
        return {"x": float(x), "y": float(y), "log_ratio": "inf", "epsilon": float(eps),
                "log_f(x)": mpmath.nstr(piece.at(x), 20), "f(y)": 0,
                "zero_density_on": [mpmath.nstr(u, 20), mpmath.nstr(v, 20)]}
    return None


def check_pure_dp(dist: Any, *, epsilon: Any = None, sensitivity: Any = None,
                  dps: int = 50) -> CheckResult:
    """Decide (4.2): f(x) ≤ e^ε f(y) for all continuity points with |x − y| ≤ Δ (module doc).

    ``epsilon`` and ``sensitivity`` default to the distribution's own (the claim it makes);
    pass them to check another claim.  ``value`` is the supremum of the log-ratio (float; the
    exact string is in ``evidence``), ``counterexample`` a concrete pair when it fails.
    """
    dn.require_structure(dist)
    dps = dn.check_dps(dps)
    eps_f = positive("epsilon", dist.epsilon if epsilon is None else epsilon)
    delta_f = positive("sensitivity", dist.sensitivity if sensitivity is None else sensitivity)
    return dn.confirm_ties(lambda p: _check_at(dist, eps_f, delta_f, p), dps,
                           lambda r: r.holds)


def _check_at(dist: Any, eps_f: float, delta_f: float, dps: int) -> tuple[CheckResult, bool]:
    claim = f"pure {eps_f:g}-DP for sensitivity {delta_f:g} (thesis §4.2, inequality 4.2)"
    with mpmath.workdps(dps):
        tol = dn.tolerance()
        eps, delta = mpmath.mpf(eps_f), mpmath.mpf(delta_f)
        try:
            tail = dn.tail_info(dist)
        except dn.TailMismatch as exc:
            return CheckResult(holds=False, claim=claim, decided=False, method=Method.EXACT,
                               evidence={"dps": dps, "undecided_because": str(exc)}), False
        w = tail.start + 2 * tail.period + delta
        tol_x = tol * max(1, w)
        ps = dn.pieces(dist, -w, w)
        evidence: dict[str, Any] = {"dps": dps, "tolerance": mpmath.nstr(tol, 3),
                                    "epsilon": eps_f, "sensitivity": delta_f,
                                    "window": [float(-w), float(w)], "n_pieces": len(ps),
                                    "tail": tail.to_dict(), "tail_argument": TAIL_ARGUMENT}
        gap = _gap_witness(ps, -w, w, delta, eps, tol_x)
        if gap is not None:
            evidence.update(n_pairs=0, sup_log_ratio="inf")
            return CheckResult(holds=False, claim=claim, value=float("inf"), evidence=evidence,
                               counterexample=gap, method=Method.EXACT), False
        best, arg = mpmath.mpf("-inf"), None
        n_pairs = n_touching = 0
        for p in ps:
            for q in ps:
                gp = _gap(p, q)
                if gp >= delta - tol_x:
                    n_touching += abs(gp - delta) <= tol_x
                    continue
                n_pairs += 1
                verts = _vertices(p, q, delta, tol_x)
                for v in verts:
                    val = p.at(v[0]) - q.at(v[1])
                    if val > best:
                        best, arg = val, (p, q, v, verts)
        assert arg is not None  # ps is non-empty and every piece pairs with itself
        p, q, v, verts = arg
        equal = abs(best - eps) <= tol * max(1, abs(eps))
        holds = best <= eps or equal
        evidence.update({
            "n_pairs": n_pairs, "pairs_at_distance_exactly_delta_skipped": n_touching,
            "sup_log_ratio": mpmath.nstr(best, 30),
            "sup_minus_epsilon": mpmath.nstr(best - eps, 10),
            "equal_to_epsilon_within_tolerance": bool(equal),
            "argmax": {"x_piece": _piece_json(p), "y_piece": _piece_json(q),
                       "vertex": [mpmath.nstr(v[0], 20), mpmath.nstr(v[1], 20)]}})
        cex = None if holds else _witness(p, q, v, verts, delta, eps, dist)
        return CheckResult(holds=holds, claim=claim, value=float(best), evidence=evidence,
                           counterexample=cex, method=Method.EXACT), bool(equal)
