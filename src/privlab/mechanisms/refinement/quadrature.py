"""Prior masses of l1 / l2 balls (and of intersections of two balls) for product priors.

Used by :mod:`privlab.mechanisms.refinement.product` (thesis §5.2, Example 7: a user-chosen
distance over a multi-component range).  The prior is p(x) = Π_i p_i(x_i); the ball is
B(t, r) = {x : ‖w ∘ (x − t)‖ ≤ r} for the weighted l1 or l2 norm.  Every x_1-section of a ball
is a ball of the same norm in the remaining coordinates, of radius

    g(r, a) = r − a  (l1)        g(r, a) = √(r² − a²)  (l2),        a = w_1|x_1 − t_1| ≤ r,

so masses are nested one-dimensional integrals whose innermost level is a difference of cdf
values.  Every level is integrated *between the break points* of its integrand (support ends
and piece edges of the components, the centres, the ends of the sections, and the points where
a section end crosses an edge of the next component), so that each piece is smooth inside.

* d = 2 (:func:`section_integral`): ball or intersection of two balls; Gauss–Legendre after the
  substitution x = m + h·sin(πu/2) per piece (smooths the square-root ends of l2 sections); the
  crossings of the two balls' sections are located numerically (:func:`crossings`); error
  estimate |I_64 − I_128| ≤ ``QUAD_EPS`` = 1e-12, else scipy ``quad``.
* d = 3 (:func:`ball_mass_3d`, :func:`intersection_mass_3d`): fully vectorised tanh–sinh
  quadrature (robust to integrable endpoint singularities such as a beta(1.3, ·) density at
  0).  The x_1-integrand is the mass of the common 2-D section of the balls; for one ball it is
  smooth except where the section touches an edge line of p_2 or p_3 or passes through a
  corner of two edges (``_kink_radii``, mapped to x_1 by the formula above); inside, the
  x_2-break points include the points where two sections swap (closed form,
  :func:`_swap_points`).  Pieces are bisected adaptively until the rules with steps 1/6 and
  1/12 agree; the summed differences (error estimate) target 1e-11 (``QUAD_EPS3``,
  ``QUAD_EPS3_PAIR``).  Checked in the tests against exact volumes and an independent nested
  scipy ``quad``.

d > 3 is not offered for l1 / l2 (chebyshev balls are boxes and have a product formula).
"""

from __future__ import annotations

import math
import warnings
import weakref
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from scipy import integrate, optimize

from privlab.mechanisms.refinement.priors import PiecewisePrior

QUAD_EPS = 1e-12
QUAD_EPS3 = 1e-11
QUAD_EPS3_PAIR = 1e-11
MAX_SPLITS = 8

__all__ = ["QUAD_EPS", "QUAD_EPS3", "QUAD_EPS3_PAIR", "ball_mass_3d", "crossings", "gauss",
           "intersection_mass_3d", "knots", "section_integral"]


def _knots(c: Any) -> list[float]:
    pts = list(c.edges) if isinstance(c, PiecewisePrior) else list(c.support())
    return [float(x) for x in pts if math.isfinite(float(x))]


_KNOTS: dict[int, tuple[Any, tuple[float, ...]]] = {}


def knots(c: Any) -> list[float]:
    """Finite support ends and piece edges of a component (kinks of its cdf).

    Memoised per component instance (frozen priors; a weak reference checks that the id
    still names the same object, and the entry goes with it) — a scipy ``support()`` call
    costs more than the rest of a small quadrature step.  Returns a new list each time."""
    hit = _KNOTS.get(id(c))
    if hit is not None and hit[0]() is c:
        return list(hit[1])
    pts = _knots(c)
    try:
        key = id(c)
        ref = weakref.ref(c, lambda _r, memo=_KNOTS: memo.pop(key, None))
    except TypeError:  # not weakly referenceable: not memoised
        return pts
    _KNOTS[key] = (ref, tuple(pts))
    return pts


def _shrink(norm: str, r: Any, a: Any) -> Any:
    """g(r, a): radius of the section at offset a (negative when the section is empty)."""
    if norm == "l1":
        return r - a
    return np.where(a <= r, np.sqrt(np.maximum(r * r - a * a, 0.0)), -1.0)


_NODES = {n: np.polynomial.legendre.leggauss(n) for n in (64, 128)}


def gauss(f: Callable[[np.ndarray], np.ndarray], br: np.ndarray, n: int) -> float:
    """Σ over pieces [a, b] of ``br`` of Gauss–Legendre after x = m + h·sin(πu/2)."""
    x, jac = _nodes(br[:-1], br[1:], n)
    return float(np.sum(jac * f(x)))


_SINCOS = {n: (np.sin(np.pi * u / 2), np.cos(np.pi * u / 2)) for n, (u, _) in _NODES.items()}
_BOTH = -1
"""Key of the 64- and 128-point rules side by side (nodes 0–63, then 64–191)."""
_NODES[_BOTH] = (np.concatenate([_NODES[64][0], _NODES[128][0]]),
                 np.concatenate([_NODES[64][1], _NODES[128][1]]))
_SINCOS[_BOTH] = (np.concatenate([_SINCOS[64][0], _SINCOS[128][0]]),
                  np.concatenate([_SINCOS[64][1], _SINCOS[128][1]]))


def _nodes(a: np.ndarray, b: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Nodes and weights·Jacobian of the substituted rule on pieces [a, b] (any leading shape)."""
    _, w = _NODES[n]
    sin_u, cos_u = _SINCOS[n]  # = sin(πu/2), cos(πu/2): the same floats, computed once
    a, b = np.asarray(a)[..., None], np.asarray(b)[..., None]
    m, h = (a + b) / 2, (b - a) / 2
    x = m + h * sin_u
    return x, w * h * (np.pi / 2) * cos_u


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


# ---- d = 2 ------------------------------------------------------------------------------------
_SECTIONS: dict[Any, tuple[Sequence[Any], tuple[float, float]]] = {}
_SECTIONS_MAX = 8192


def section_integral(norm: str, w: np.ndarray, comps: Sequence[Any], t: np.ndarray, r: float,
                     s: np.ndarray, q: float, lo: float, hi: float) -> tuple[float, float]:
    """∫_lo^hi p_1(x_1)·P_2(section of B(t, r) ∩ B(s, q) at x_1) dx_1 (d = 2) and its error
    estimate |I_64 − I_128|; scipy ``quad`` when that exceeds ``QUAD_EPS``.

    Memoised per process on the exact inputs (the components by identity, kept alive by the
    memo; the numbers by their bytes): a radius search, the law's ball mass and a pair check
    meet the same balls."""
    key = (norm, np.asarray(w, dtype=float).tobytes(), tuple(id(c) for c in comps),
           np.asarray(t, dtype=float).tobytes(), np.asarray(s, dtype=float).tobytes(),
           np.array([r, q, lo, hi], dtype=float).tobytes())
    hit = _SECTIONS.get(key)
    if hit is not None:
        return hit[1]
    out = _section_integral(norm, w, comps, t, r, s, q, lo, hi)
    if len(_SECTIONS) >= _SECTIONS_MAX:
        _SECTIONS.clear()
    _SECTIONS[key] = (tuple(comps), out)
    return out


def _section_integral(norm: str, w: np.ndarray, comps: Sequence[Any], t: np.ndarray, r: float,
                      s: np.ndarray, q: float, lo: float, hi: float) -> tuple[float, float]:
    c1, c2 = comps
    same = bool(np.array_equal(t, s) and r == q)  # one ball: the second half-width is the first

    def half(x1: np.ndarray, c: np.ndarray, rad: float) -> np.ndarray:
        g = _shrink(norm, rad, w[0] * np.abs(x1 - c[0]))
        return np.where(g >= 0, g / w[1], -1.0)

    def halves(x1: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        h1 = half(x1, t, r)
        return h1, (h1 if same else half(x1, s, q))

    def integrand(x1: np.ndarray) -> np.ndarray:
        h1, h2 = halves(x1)
        y0 = np.maximum(t[1] - h1, s[1] - h2)
        y1 = np.minimum(t[1] + h1, s[1] + h2)
        ok = (h1 >= 0) & (h2 >= 0) & (y1 > y0)
        # both cdf calls in one (elementwise: the same floats as two calls)
        f = np.asarray(c2.cdf(np.where(ok, np.stack([y1, y0]), 0.0)), dtype=float)
        mass = np.where(ok, f[0] - f[1], 0.0)
        return np.asarray(c1.pdf(x1), dtype=float) * mass

    w0, w1 = float(w[0]), float(w[1])

    def half_at(x: float, c: float, rad: float) -> float:  # = half(np.array([x]), …)[0]
        a = w0 * abs(x - c)
        if norm == "l1":
            g = rad - a
        else:
            g = math.sqrt(_fmax(rad * rad - a * a, 0.0)) if a <= rad else -1.0
        return g / w1 if g >= 0 else -1.0

    t0, s0, rf, qf = float(t[0]), float(s[0]), float(r), float(q)
    extra = [t[0], s[0], t[0] - r / w[0], t[0] + r / w[0], s[0] - q / w[0], s[0] + q / w[0],
             *crossings(halves, t[1], s[1], lo, hi, knots(c2),
                        halves_at=lambda x: (half_at(x, t0, rf), half_at(x, s0, qf)),
                        same=same)]
    pts = [lo, hi, *extra, *knots(c1)]
    br = np.unique(np.clip(np.asarray([x for x in pts if math.isfinite(x)]), lo, hi))
    # the 64- and 128-point rules share one integrand call (elementwise); each sum is taken
    # over its own (pieces, n) product, exactly as gauss() does
    # (one _nodes call on the concatenated rules: elementwise, the same floats as two calls)
    x, jac = _nodes(br[:-1], br[1:], _BOTH)
    f = integrand(x)
    i64 = float(np.sum(jac[:, :64] * f[:, :64]))
    i128 = float(np.sum(jac[:, 64:] * f[:, 64:]))
    if abs(i64 - i128) <= QUAD_EPS:
        return i128, abs(i64 - i128)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", integrate.IntegrationWarning)
        val, err = integrate.quad(lambda x: float(integrand(np.array([x]))[0]), lo, hi,
                                  limit=400, epsabs=QUAD_EPS, epsrel=1e-12,
                                  points=list(br[1:-1]))
    return float(val), max(float(err), abs(float(val) - i128))


def _fmax(a: float, b: float) -> float:
    """np.maximum on two floats (NaN propagates; a when equal)."""
    return a if (a >= b or a != a) else b


def _fmin(a: float, b: float) -> float:
    """np.minimum on two floats (NaN propagates; a when equal)."""
    return a if (a <= b or a != a) else b


def _gap_row(h1: Any, h2: Any, row: int, c1: Any, c2: Any, knots2: Sequence[float],
             fmin: Callable[[Any, Any], Any], fmax: Callable[[Any, Any], Any]) -> Any:
    """Row ``row`` of :func:`crossings`' sign functions at section half-widths h1, h2 (arrays
    with ``np.minimum``/``np.maximum``, or floats with ``_fmin``/``_fmax``: the same floats)."""
    if row == 0:
        return (c1 - h1) - (c2 - h2)
    if row == 1:
        return (c1 + h1) - (c2 + h2)
    if row == 2:
        return fmin(c1 + h1, c2 + h2) - fmax(c1 - h1, c2 - h2)
    e, k = knots2[(row - 3) // 4], (row - 3) % 4
    if k == 0:
        return c1 - h1 - e
    if k == 1:
        return c1 + h1 - e
    return c2 - h2 - e if k == 2 else c2 + h2 - e


def _gap_rows(h1: np.ndarray, h2: np.ndarray, c1: Any, c2: Any, kn: np.ndarray,
              same: bool) -> np.ndarray:
    """All rows of :func:`crossings`' sign functions at once, each the same floats as
    :func:`_gap_row` (the same operations: x − y, min/max, then − e).  Rows, in order: 0–2 and
    3 + 4j + k for knot j (k = 0: c1 − h1, 1: c1 + h1, 2: c2 − h2, 3: c2 + h2, minus e_j); with
    ``same`` (one ball) only the rows 3 + 4j + k, k ∈ {0, 1} (see :func:`crossings`)."""
    lo1, up1 = c1 - h1, c1 + h1
    if same:
        return (np.stack([lo1, up1])[None] - kn[:, None, None]).reshape(-1, h1.shape[-1])
    lo2, up2 = c2 - h2, c2 + h2
    head = np.stack([lo1 - lo2, up1 - up2, np.minimum(up1, up2) - np.maximum(lo1, lo2)])
    if not kn.size:
        return head
    tail = (np.stack([lo1, up1, lo2, up2])[None] - kn[:, None, None]).reshape(-1, h1.shape[-1])
    return np.concatenate([head, tail])


def _nonzero2(mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``np.nonzero`` of a 2-D boolean mask (row indices, column indices, row-major order)."""
    return divmod(np.flatnonzero(mask), mask.shape[1])


def crossings(halves: Any, c1: float, c2: float, lo: float, hi: float,
              knots2: Sequence[float] = (), *, halves_at: Any = None,
              same: bool = False) -> list[float]:
    """x_1 where the sections of two balls swap which one bounds the intersection (their lower
    ends, upper ends, or the intersection's emptiness change sign), or where a section end
    crosses a knot of the second component's cdf: kinks of the integrand.  Located by sign
    changes on a 4096-point grid, refined with Brent's method.  [lo, hi] must lie in both
    balls' x_1-ranges.  ``halves_at`` (optional): the same as ``halves`` for one float x,
    returning two floats equal to ``halves(np.array([x]))`` — used by Brent's method (pure
    Python, the same floats, much cheaper than length-1 arrays).

    ``same=True`` says the two balls are one (equal centres and radii, so ``halves`` returns
    two equal arrays): then rows 0 and 1 are identically 0 and row 2 = (c + h) − (c − h) ≥ 0
    (h ≥ 0 after clamping; rounding is monotone), so none of them has a crossing, and the knot
    rows of the second ball repeat those of the first.  Only the first ball's knot rows are
    scanned: the same points, each once instead of twice (callers take the set of points)."""
    if not hi > lo:
        return []
    f1, f2 = float(c1), float(c2)
    kn = [float(e) for e in knots2]
    if same and not kn:
        return []
    rows = [3 + 4 * j + k for j in range(len(kn)) for k in (0, 1)] if same else list(
        range(3 + 4 * len(kn)))  # the row numbers of _gap_row, in the order of _gap_rows

    def row_of(h1: np.ndarray, h2: np.ndarray, row: int) -> np.ndarray:
        return _gap_row(h1, h2, row, c1, c2, knots2, np.minimum, np.maximum)

    def clamped(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        h1, h2 = halves(x)  # [lo, hi] lies in both balls' x_1-ranges: clamp rounding at its ends
        return np.maximum(h1, 0.0), np.maximum(h2, 0.0)

    def scalar_row(z: float, row: int) -> float:  # = row_of(*clamped(z), row) elementwise
        h1, h2 = halves_at(z)
        return _gap_row(_fmax(h1, 0.0), _fmax(h2, 0.0), row, f1, f2, kn, _fmin, _fmax)

    xs = np.linspace(lo, hi, 4097)
    g = _gap_rows(*clamped(xs), c1, c2, np.asarray(kn, dtype=float), same)
    out: list[float] = []
    # every row at once: crossings on a node, and sign changes between nodes (row by row)
    # (the masks are skipped only when they are all False: no zero, or no non-finite value)
    # (np.nonzero of a 2-D mask, as (row, column) = divmod of its flat indices: the same
    # pairs in the same order, several times faster)
    on_rows, on_at = (_nonzero2((g[:, 1:-1] == 0) & (g[:, :-2] * g[:, 2:] < 0))
                      if not g[:, 1:-1].all() else (np.empty(0, int), np.empty(0, int)))
    change = g[:, :-1] * g[:, 1:] < 0
    if not np.isfinite(g).all():
        change &= np.isfinite(g[:, :-1]) & np.isfinite(g[:, 1:])
    ch_rows, ch_at = _nonzero2(change)
    for k, row in enumerate(rows):
        out.extend(float(xs[i + 1]) for i in on_at[on_rows == k])
        for i in ch_at[ch_rows == k]:
            if halves_at is None:
                def fn(z: float, row: int = row) -> float:  # = gaps(z)[row], that row only
                    return float(row_of(*clamped(np.array([z])), row)[0])
            else:
                def fn(z: float, row: int = row) -> float:  # the same, in Python floats
                    return scalar_row(float(z), row)
            out.append(float(optimize.brentq(fn, xs[i], xs[i + 1], xtol=1e-15)))
    return out


# ---- d = 3 (vectorised) ----------------------------------------------------------------------
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
