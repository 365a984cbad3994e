"""Exact helpers for the ch.4 claims, on any noise exposing ``log_pieces(lo, hi)`` (log-linear
pieces, mpmath): interval masses, the pointwise DP supremum over a window (eq. 4.2), and
piecewise-exact comparison of two log-linear functions on an interval (Lemma 1, Corollary 1).

These are deliberately independent of :mod:`privlab.verify`, so that the ledger can
cross-check the project's checkers instead of only calling them.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

import mpmath


def interval_mass(dist: Any, lo: Any, hi: Any) -> Any:
    """P(Y ∈ [lo, hi]) by integrating exp(c + s·x) over each log-linear piece."""
    total = mpmath.mpf(0)
    for p in dist.log_pieces(lo, hi):
        w = p.hi - p.lo
        if w <= 0:
            continue
        base = mpmath.exp(p.at(p.lo))
        total += base * (w if p.slope == 0 else mpmath.expm1(p.slope * w) / p.slope)
    return total


def breakpoints(dist: Any, lo: Any, hi: Any) -> list[Any]:
    pts = {mpmath.mpf(lo), mpmath.mpf(hi)}
    for p in dist.log_pieces(lo, hi):
        pts.update((p.lo, p.hi))
    return sorted(pts)


def density_sup(dist: Any, delta: Any, window: Any) -> tuple[Any, dict[str, Any]]:
    """sup of log f(x) − log f(y) over x, y ∈ [−window, window], |x − y| ≤ delta, by vertex
    enumeration of each piece pair's feasible polygon (the objective is linear there).

    Returns (sup, {"x", "y", "interior_x", "interior_y"}) where the interior point lies strictly
    inside the maximising polygon close to the maximising vertex (used to build events)."""
    delta, w = mpmath.mpf(delta), mpmath.mpf(window)
    pieces = dist.log_pieces(-w, w)
    best, arg = mpmath.mpf("-inf"), {}
    for p1, p2 in itertools.product(pieces, pieces):
        if p2.lo - p1.hi > delta or p1.lo - p2.hi > delta:
            continue
        verts = _polygon(p1.lo, p1.hi, p2.lo, p2.hi, delta)
        if len(verts) < 3:
            continue
        for x, y in verts:
            val = p1.at(x) - p2.at(y)
            if val > best:
                cx = mpmath.fsum(v[0] for v in verts) / len(verts)
                cy = mpmath.fsum(v[1] for v in verts) / len(verts)
                t = mpmath.mpf("1e-6")
                best = val
                arg = {"x": x, "y": y, "interior_x": x + t * (cx - x),
                       "interior_y": y + t * (cy - y)}
    return best, arg


def _polygon(a1: Any, b1: Any, a2: Any, b2: Any, delta: Any) -> list[tuple[Any, Any]]:
    """Vertices of {x ∈ [a1, b1], y ∈ [a2, b2], |y − x| ≤ delta}."""
    lines: list[tuple[Any, Any, Any]] = [  # α·x + β·y = γ
        (1, 0, a1), (1, 0, b1), (0, 1, a2), (0, 1, b2), (-1, 1, delta), (-1, 1, -delta)]
    tol = mpmath.mpf(10) ** (-mpmath.mp.dps + 5)
    out: list[tuple[Any, Any]] = []
    for (p, q, r), (s, t, u) in itertools.combinations(lines, 2):
        det = p * t - q * s
        if det == 0:
            continue
        x = (r * t - q * u) / det
        y = (p * u - r * s) / det
        if (a1 - tol <= x <= b1 + tol and a2 - tol <= y <= b2 + tol
                and abs(y - x) <= delta + tol
                and all(abs(x - v[0]) > tol or abs(y - v[1]) > tol for v in out)):
            out.append((x, y))
    return out


def event_log_ratio(dist: Any, lo: Any, hi: Any, shift: Any) -> Any:
    """log P(Y ∈ [lo, hi]) − log P(Y ∈ [lo, hi] + shift) (eq. 4.1 with S = [lo, hi])."""
    lo, hi, shift = mpmath.mpf(lo), mpmath.mpf(hi), mpmath.mpf(shift)  # shift exactly
    return mpmath.log(interval_mass(dist, lo, hi)) - mpmath.log(
        interval_mass(dist, lo + shift, hi + shift))


def linear_equal_on(g: Callable[[Any], Any], pts: list[Any], tol: Any) -> tuple[bool, Any]:
    """Whether a function that is linear between consecutive ``pts`` vanishes on all of them
    (checked at the ¼ and ¾ points of each sub-interval: two points fix a line).  Returns
    (all zero, first point where it is not)."""
    for a, b in itertools.pairwise(pts):
        if b - a <= 0:
            continue
        for frac in (mpmath.mpf(1) / 4, mpmath.mpf(3) / 4):
            x = a + frac * (b - a)
            if abs(g(x)) > tol:
                return False, x
    return True, None


def log_density_at(dist: Any, x: Any) -> Any:
    """log f(x) from the piece containing x (x must not be a breakpoint)."""
    x = mpmath.mpf(x)
    eps = mpmath.mpf(10) ** (-mpmath.mp.dps // 2)
    for p in dist.log_pieces(x - eps, x + eps):
        if p.lo <= x <= p.hi:
            return p.at(x)
    return mpmath.mpf("-inf")


def shift_gap(dist: Any, shift: Any, eps: Any, sign: int = 1) -> Callable[[Any], Any]:
    """x ↦ log f(s·x + shift) − log f(s·x) + eps (s = ``sign``): zero where f(s·x + shift) =
    e^{−eps} f(s·x)."""

    def g(x: Any) -> Any:
        return log_density_at(dist, sign * x + shift) - log_density_at(dist, sign * x) + eps

    return g
