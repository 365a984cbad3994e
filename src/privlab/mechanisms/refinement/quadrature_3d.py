"""Prior masses of l1 / l2 balls (and of intersections of two balls) for d = 3 product priors.

The d = 3 companion of :mod:`privlab.mechanisms.refinement.quadrature` (same balls, sections
g(r, a) and break points; thesis §5.2, Example 7).  :func:`ball_mass_3d` and
:func:`intersection_mass_3d`: fully vectorised tanh–sinh quadrature (robust to integrable
endpoint singularities such as a beta(1.3, ·) density at 0).  The x_1-integrand is the mass of
the common 2-D section of the balls; for one ball it is smooth except where the section touches
an edge line of p_2 or p_3 or passes through a corner of two edges (``_kink_radii``, mapped to
x_1 by the section formula); inside, the x_2-break points include the points where two sections
swap (closed form, :func:`_swap_points`).  Pieces are bisected adaptively until the rules with
steps 1/6 and 1/12 agree; the summed differences (error estimate) target 1e-11
(``QUAD_EPS3``, ``QUAD_EPS3_PAIR``).  Checked in the tests against exact volumes and an
independent nested scipy ``quad``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
from scipy import optimize

from privlab.mechanisms.refinement.quadrature import _shrink, knots

QUAD_EPS3 = 1e-11
QUAD_EPS3_PAIR = 1e-11
MAX_SPLITS = 8

__all__ = ["QUAD_EPS3", "QUAD_EPS3_PAIR", "ball_mass_3d", "intersection_mass_3d"]


def _de_rule(step: float, tmax: float = 3.0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """tanh–sinh rule on [−1, 1]: for τ = k·step, |τ| ≤ tmax, the node's side (−1, 0, +1), its
    distance δ = 1 − tanh(π/2·sinh|τ|) = 2/(e^{π sinh|τ|} + 1) from that end (computed
    stably), and its weight (π/2)·cosh τ / cosh²(π/2·sinh τ).  Nodes cluster doubly
    exponentially at the ends, so integrable endpoint singularities cost little."""
    tau = np.arange(-tmax, tmax + step / 2, step)
    side = np.sign(tau)
    delta = 2.0 / (np.exp(np.pi * np.sinh(np.abs(tau))) + 1.0)
    wt = step * (np.pi / 2) * np.cosh(tau) / np.cosh(np.pi / 2 * np.sinh(tau)) ** 2
    return side, delta, wt


_DE = {n: _de_rule(s) for n, s in ((1, 1 / 6), (2, 1 / 12), (3, 1 / 24))}


def _de_nodes(a: np.ndarray, b: np.ndarray, level: int) -> tuple[np.ndarray, np.ndarray]:
    """Nodes and weights of tanh–sinh rule ``level`` (step 1/6, 1/12, 1/24) on [a, b]."""
    side, delta, wt = _DE[level]
    a, b = np.asarray(a)[..., None], np.asarray(b)[..., None]
    h = (b - a) / 2
    x = np.where(side < 0, a + h * delta, np.where(side > 0, b - h * delta, (a + b) / 2))
    return x, wt * h


def _finite(v: np.ndarray) -> np.ndarray:
    """Integrand values at nodes that round onto a singular end (weight < 1e-20) count as 0."""
    return np.where(np.isfinite(v), v, 0.0)




def _kink_radii(norm: str, w: np.ndarray, comps: Sequence[Any], t: np.ndarray) -> list[float]:
    """Radii ρ at which the mass of the 2-D ball of radius ρ about (t_2, t_3) is not smooth:
    the ball touches an edge line of p_2 or p_3, or passes through a corner of two edges."""
    a2 = [w[1] * abs(e - t[1]) for e in knots(comps[1])]
    a3 = [w[2] * abs(e - t[2]) for e in knots(comps[2])]
    corner = [(x + y) if norm == "l1" else math.hypot(x, y) for x in a2 for y in a3]
    return [*a2, *a3, *corner]


def _swap_points(norm: str, w: np.ndarray, t: np.ndarray, s: np.ndarray, rt: np.ndarray,
                 rs: np.ndarray) -> list[np.ndarray]:
    """Candidate x_2 where the x_3-sections of the two 2-D balls swap which one bounds the
    intersection, or where the intersection becomes empty: with u = w_2 x_2 and scaled
    half-widths H(u) = g(ρ, |u − T|), the solutions of H_t ± H_s = ±D (D = w_3 (t_3 − s_3)).
    l2: squaring twice gives one quadratic in u; l1: one linear equation per sign pattern.
    Spurious candidates only add break points."""
    T, S, D = w[1] * t[1], w[1] * s[1], w[2] * (t[2] - s[2])
    out: list[np.ndarray] = []
    if norm == "l2":
        k0 = rt * rt - rs * rs - (T * T - S * S)
        k1 = 2 * (T - S)
        m0, m1 = rt * rt + rs * rs - T * T - S * S, 2 * (T + S)
        a = k1 * k1 + 4 * D * D
        if a == 0:
            return out
        b = 2 * k0 * k1 - 2 * D * D * m1
        c = k0 * k0 - 2 * D * D * m0 + D ** 4
        disc = np.sqrt(np.maximum(b * b - 4 * a * c, 0.0))
        return [(-b - disc) / (2 * a) / w[1], (-b + disc) / (2 * a) / w[1]]
    for s1 in (-1.0, 1.0):
        for s2 in (-1.0, 1.0):
            for pm in (-1.0, 1.0):  # H_t + pm·H_s = c
                coef = -s1 - pm * s2
                if coef == 0:
                    continue
                for c in (D, -D):
                    out.append((c - rt - s1 * T - pm * (rs + s2 * S)) / coef / w[1])
    return out


def _m2_pair(norm: str, w: np.ndarray, comps: Sequence[Any], t: np.ndarray, s: np.ndarray,
             rt: np.ndarray, rs: np.ndarray, n: int) -> np.ndarray:
    """Mass (over x_2, x_3) of the intersection of the 2-D balls of radii ρ_t, ρ_s (vectors)
    about (t_2, t_3) and (s_2, s_3): tanh–sinh rule ``n`` on each piece between break points."""
    c2, c3 = comps[1], comps[2]
    rt, rs = np.asarray(rt, dtype=float), np.asarray(rs, dtype=float)
    live = (rt >= 0) & (rs >= 0)
    rt, rs = np.where(live, rt, 0.0), np.where(live, rs, 0.0)
    lo = np.maximum(t[1] - rt / w[1], s[1] - rs / w[1])
    hi = np.maximum(np.minimum(t[1] + rt / w[1], s[1] + rs / w[1]), lo)
    same = np.array_equal(t, s) and np.array_equal(rt, rs)  # one ball
    balls = ((t, rt),) if same else ((t, rt), (s, rs))
    cols = [lo, hi, *(np.full_like(rt, c[1]) for c, _ in balls)]
    cols += [np.full_like(rt, e) for e in knots(c2)]
    for e in knots(c3):
        for c, rad in balls:
            g = _shrink(norm, rad, w[2] * abs(e - c[2]))
            g = np.where(g >= 0, g, 0.0) / w[1]
            cols += [c[1] - g, c[1] + g]
    if not same:
        cols += _swap_points(norm, w, t, s, rt, rs)
    br = np.sort(np.clip(np.stack(cols, axis=1), lo[:, None], hi[:, None]), axis=1)
    x2, jac = _de_nodes(br[:, :-1], br[:, 1:], n)  # shape (len(rt), pieces, nodes)

    def half(c: np.ndarray, rad: np.ndarray) -> np.ndarray:
        h = _shrink(norm, rad[:, None, None], w[1] * np.abs(x2 - c[1]))
        return np.where(h >= 0, h, -np.inf) / w[2]

    ht, hs = half(t, rt), half(s, rs)
    y0, y1 = np.maximum(t[2] - ht, s[2] - hs), np.minimum(t[2] + ht, s[2] + hs)
    ok = np.isfinite(y0) & np.isfinite(y1) & (y1 > y0)
    f3 = np.where(ok, np.asarray(c3.cdf(np.where(ok, y1, 0.0)), dtype=float)
                  - np.asarray(c3.cdf(np.where(ok, y0, 0.0)), dtype=float), 0.0)
    out = np.sum(jac * _finite(np.asarray(c2.pdf(x2), dtype=float) * f3), axis=(1, 2))
    return np.where(live, out, 0.0)


def _pair_events(norm: str, w: np.ndarray, comps: Sequence[Any], t: np.ndarray, r: float,
                 s: np.ndarray, q: float, lo: float, hi: float) -> list[float]:
    """x_1 where the common 2-D section of two balls changes shape — kinks of the outer
    integrand beyond the single-ball ones: the sections become tangent (ρ_t ± ρ_s = D, D the
    distance of the scaled section centres), a corner of the lens of two l2 sections crosses
    an edge of p_2 or p_3, or a vertex of one l1 section crosses the other's boundary.  Sign
    changes of these closed-form event functions on a 1025-point grid, refined by Brent."""
    T, S = np.array([w[1] * t[1], w[2] * t[2]]), np.array([w[1] * s[1], w[2] * s[2]])
    D = float(np.sum(np.abs(T - S))) if norm == "l1" else float(np.hypot(*(T - S)))
    e2, e3 = knots(comps[1]), knots(comps[2])

    def events(x1: np.ndarray) -> np.ndarray:  # [lo, hi] is inside both balls' x_1-ranges:
        rt = np.maximum(_shrink(norm, r, w[0] * np.abs(x1 - t[0])), 0.0)  # clamp rounding
        rs = np.maximum(_shrink(norm, q, w[0] * np.abs(x1 - s[0])), 0.0)
        rows = [rt + rs - D, rt - rs - D, rs - rt - D]
        if norm == "l2" and D > 0:
            a = (D * D + rt * rt - rs * rs) / (2 * D)
            h = np.sqrt(np.maximum(rt * rt - a * a, 0.0))
            u = (S - T) / D
            for sg in (-1.0, 1.0):
                corner = T[:, None] + a * u[:, None] + sg * h * np.array([-u[1], u[0]])[:, None]
                rows += [corner[0] / w[1] - e for e in e2] + [corner[1] / w[2] - e for e in e3]
        elif norm == "l1":
            for c, rc, o, ro in ((T, rt, S, rs), (S, rs, T, rt)):
                for k, sg in ((0, 1), (0, -1), (1, 1), (1, -1)):  # vertex c ± ρ_c e_k
                    v0 = c[0] + (sg * rc if k == 0 else 0.0)
                    v1 = c[1] + (sg * rc if k == 1 else 0.0)
                    rows.append(np.abs(v0 - o[0]) + np.abs(v1 - o[1]) - ro)
        return np.stack([np.broadcast_to(x, rt.shape) for x in rows])

    xs = np.linspace(lo, hi, 1025)
    g = events(xs)
    out: list[float] = []
    for row in range(g.shape[0]):
        y = g[row]
        idx = np.flatnonzero(np.isfinite(y[:-1]) & np.isfinite(y[1:]) & (y[:-1] * y[1:] < 0))
        for i in idx:
            def fn(z: float, row: int = row) -> float:
                return float(events(np.array([z]))[row, 0])
            out.append(float(optimize.brentq(fn, xs[i], xs[i + 1], xtol=1e-15)))
    return out


def _mass_3d(norm: str, w: np.ndarray, comps: Sequence[Any], t: np.ndarray, r: float,
             s: np.ndarray, q: float, lo: float, hi: float, tol: float) -> tuple[float, float]:
    """∫_lo^hi p_1(x_1)·m(x_1) dx_1, m the mass of the two balls' common x_1-section.

    Initial pieces: the ends, centres and edges of p_1, for each ball the x_1 where its
    section's radius crosses a kink radius (:func:`_kink_radii`), and for two balls the events
    of :func:`_pair_events`.  The inner (x_2) rule is fixed first: tanh–sinh with step 1/12,
    or 1/24 when the 1/6 and 1/12 inner rules differ by more than tol/2 integrated over the
    outer nodes (that difference is added to the error estimate).  Outer pieces are then
    integrated with steps 1/6 and 1/12 and accepted when the two differ by ≤ tol·(the piece's
    share of [lo, hi]), else bisected (all pieces of a round at once, at most ``MAX_SPLITS``
    rounds).  The error estimate is the sum of the outer differences plus the inner one.
    """
    pts = [lo, hi, t[0], s[0], *knots(comps[0])]
    for c, rad in ((t, r),) if np.array_equal(t, s) and r == q else ((t, r), (s, q)):
        for rho in _kink_radii(norm, w, comps, c):
            if rho < rad:
                a = float(_shrink(norm, rad, rho)) / w[0]  # offset where g(rad, ·) = rho
                pts += [c[0] - a, c[0] + a]
    if not (np.array_equal(t, s) and r == q):
        pts += _pair_events(norm, w, comps, t, r, s, q, lo, hi)
    br = np.unique(np.clip(np.asarray(pts, dtype=float), lo, hi))
    a_, b_ = br[:-1], br[1:]

    def section(x1: np.ndarray, inner: int) -> np.ndarray:
        rt = _shrink(norm, r, w[0] * np.abs(x1.ravel() - t[0]))
        rs = _shrink(norm, q, w[0] * np.abs(x1.ravel() - s[0]))
        return _m2_pair(norm, w, comps, t, s, rt, rs, inner).reshape(x1.shape)

    x1, jac = _de_nodes(a_, b_, 1)
    wts = jac * _finite(np.asarray(comps[0].pdf(x1), dtype=float))
    prev = section(x1, 1)
    for inner in (2, 3):  # fix the inner rule: its error must not stall the outer refinement
        cur = section(x1, inner)
        err = float(np.sum(wts * np.abs(cur - prev)))
        if err <= tol / 2:
            break
        prev = cur
    total = 0.0

    def level(a: np.ndarray, b: np.ndarray, n: int) -> np.ndarray:
        x1, jac = _de_nodes(a, b, n)
        m = section(x1, inner)
        return np.sum(jac * _finite(np.asarray(comps[0].pdf(x1), dtype=float) * m), axis=-1)

    for _ in range(MAX_SPLITS):
        coarse, fine = level(a_, b_, 1), level(a_, b_, 2)
        gap = np.abs(fine - coarse)
        done = gap <= tol * (b_ - a_) / (hi - lo)
        total += float(np.sum(fine[done]))
        err += float(np.sum(gap[done]))
        a_, b_ = a_[~done], b_[~done]
        if not a_.size:
            return total, err
        mid = (a_ + b_) / 2
        a_, b_ = np.concatenate([a_, mid]), np.concatenate([mid, b_])
    fine = level(a_, b_, 2)  # give up refining: keep the estimate honest
    return total + float(np.sum(fine)), err + float(np.sum(np.abs(fine - level(a_, b_, 1))))


def ball_mass_3d(norm: str, w: np.ndarray, comps: Sequence[Any], t: np.ndarray,
                 r: float) -> tuple[float, float]:
    """P(X ∈ B(t, r)) for d = 3 and its error estimate (tolerance ``QUAD_EPS3``)."""
    if r <= 0:
        return 0.0, 0.0
    return _mass_3d(norm, w, comps, t, r, t, r, t[0] - r / w[0], t[0] + r / w[0], QUAD_EPS3)


def intersection_mass_3d(norm: str, w: np.ndarray, comps: Sequence[Any], t: np.ndarray,
                         r: float, s: np.ndarray, q: float, lo: float,
                         hi: float) -> tuple[float, float]:
    """P(X ∈ B(t, r) ∩ B(s, q)) for d = 3 over x_1 ∈ [lo, hi] (the boxes' common range) and its
    error estimate (tolerance ``QUAD_EPS3_PAIR``)."""
    return _mass_3d(norm, w, comps, t, r, s, q, lo, hi, QUAD_EPS3_PAIR)
