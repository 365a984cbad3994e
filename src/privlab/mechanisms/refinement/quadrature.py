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
* d = 3: :mod:`privlab.mechanisms.refinement.quadrature_3d` (tanh–sinh, built on the knots and
  sections defined here).

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

__all__ = ["QUAD_EPS", "crossings", "gauss", "knots", "section_integral"]


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
