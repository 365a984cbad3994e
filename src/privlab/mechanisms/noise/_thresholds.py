"""Exact w-bit thresholds ⌊v·2^w⌋ of the irrational probabilities the safe samplers compare
uniform bits with (:mod:`privlab.mechanisms.noise._exact`).

Every value here is e^{−γ} for a rational γ ≥ 0, or the staircase's core probability, a rational
function of e^{−γ}.  Both are bracketed by rational bounds as tight as asked
(:func:`exp_neg_bounds`), and a threshold is the common floor of the two bounds: the values are
irrational for γ > 0 (e^{−γ} is transcendental, Lindemann), so the bounds, refined, always end up
with one floor.  No float is formed.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from fractions import Fraction

import numpy as np
from numpy.typing import NDArray

Bounds = Callable[[int], tuple[Fraction, Fraction]]
"""bits ↦ (lo, hi), rational bounds of a value with hi − lo ≤ 2^−bits (or tighter)."""

DIGIT = 1 << 16
"""Entries per block of :func:`geometric_tables`' U table (one block per base-2^16 digit);
``_exact_kernels._tgeom`` tests e^{−u·γ} one such digit of u at a time."""


@functools.lru_cache(maxsize=4096)
def exp_neg_bounds(gamma: Fraction, bits: int) -> tuple[Fraction, Fraction]:
    """Rational bounds lo ≤ e^{−γ} ≤ hi (γ ≥ 0) with hi − lo ≤ 2^−bits.

    e^{−γ} = (e^{−y})^n with n = max(1, ⌈γ⌉) and y = γ/n ≤ 1.  For y ≤ 1 the terms y^j/j! of
    Σ (−y)^j/j! decrease, so e^{−y} lies between two consecutive partial sums; the bracket is
    rounded outwards to dyadic numbers (short denominators) and raised to the n-th power
    (monotone on [0, 1], and hi^n − lo^n ≤ n·(hi − lo)).  Cached: the slow path asks for the
    same few values again and again."""
    n = max(1, math.ceil(gamma))
    y = gamma / n
    extra = bits + n.bit_length() + 2
    tol = Fraction(1, 1 << extra)
    s, term, j = Fraction(1), Fraction(1), 0
    while True:
        j += 1
        term = -term * y / j
        if j >= 2 and abs(term) <= tol / 2:
            break
        s += term
    lo, hi = sorted((s, s + term))
    scale = 1 << extra
    lo = Fraction(math.floor(lo * scale), scale)
    hi = Fraction(math.ceil(hi * scale), scale)
    return max(lo, Fraction(0)) ** n, min(hi, Fraction(1)) ** n


def floor_scaled(bounds: Bounds, w: int) -> int:
    """⌊v·2^w⌋ for an irrational v given by ``bounds``: refined until both bounds share it."""
    bits = w + 16
    while True:
        lo, hi = bounds(bits)
        a, b = math.floor(lo * (1 << w)), math.floor(hi * (1 << w))
        if a == b:
            return a
        bits += 32


def _exp_floors(gamma: Fraction, w: int, first: int, count: int | None) -> list[int]:
    """⌊e^{−k·γ}·2^w⌋ for k = first, first + 1, …: ``count`` values, or (count None) up to
    and including the first 0.  The powers are bracketed in fixed point with P = w + 96 bits
    (lo rounded down, hi up at every product, so lo ≤ e^{−kγ}·2^P ≤ hi); when the two floors
    differ (the value within about k·2^−(P−1) of a multiple of 2^−w) that one entry is taken
    from :func:`floor_scaled`."""
    p = w + 96
    r_lo, r_hi = exp_neg_bounds(gamma, p + 8)
    rl, rh = math.floor(r_lo * (1 << p)), math.ceil(r_hi * (1 << p))
    lo = hi = 1 << p
    for _ in range(first):
        lo, hi = (lo * rl) >> p, -((-hi * rh) >> p)
    out: list[int] = []
    k = first
    while True:
        f_lo, f_hi = lo >> (p - w), hi >> (p - w)
        f = f_lo if f_lo == f_hi else floor_scaled(
            functools.partial(exp_neg_bounds, k * gamma), w)
        out.append(f)
        if (count is None and f == 0) or (count is not None and len(out) == count):
            return out
        lo, hi = (lo * rl) >> p, -((-hi * rh) >> p)
        k += 1


@functools.lru_cache(maxsize=64)
def geometric_tables(num: int, den: int, w: int) -> tuple[int, NDArray[np.int64],
                                                          NDArray[np.int64]]:
    """(m, tu, tv) for the exact geometric law P(Y = y) ∝ e^{−y·γ}, γ = num/den > 0, drawn
    as Y = U + m·V (``_exact_kernels._tgeom``): m = max(1, ⌊den/num⌋), so m·γ is about 1
    (U is kept with probability about 0.63, V ≥ 1 about e^{−1}).  For m ≤ 2^16,
    tu[u] = ⌊e^{−u·γ}·2^w⌋ (u < m; tu[0] = 2^w); for larger m, one block of 2^16 entries per
    base-2^16 digit position k of u < m, tu[2^16·k + d] = ⌊e^{−d·2^{16k}·γ}·2^w⌋ (at most 4
    blocks: den < 2^56).  tv[j] = ⌊e^{−(j+1)·m·γ}·2^w⌋ up to and including its first 0 (about
    43/(m·γ) + 1 entries).  Cached: the arrays are shared, never written."""
    gamma = Fraction(num, den)
    m = max(1, den // num)
    if m <= DIGIT:
        tu = np.array(_exp_floors(gamma, w, 0, m), dtype=np.int64)
    else:
        blocks = -(-int(m - 1).bit_length() // 16)
        tu = np.array([f for k in range(blocks)
                       for f in _exp_floors(gamma * (1 << (16 * k)), w, 0, DIGIT)],
                      dtype=np.int64)
    tv = np.array(_exp_floors(m * gamma, w, 1, None), dtype=np.int64)
    return m, tu, tv


@functools.lru_cache(maxsize=256)
def staircase_core_bounds(p: int, q: int, core: int, width: int,
                          bits: int) -> tuple[Fraction, Fraction]:
    """Rational bounds of x = P(|Y| ≤ core) = a(1 − r)/(a(1 − r) + b·r) for the discrete
    staircase (a = 2·core + 1, b = 2·width, r = e^{−p/q}); x decreases in r, so the bounds of r
    (:func:`exp_neg_bounds` at ``bits``) give [x(r_hi), x(r_lo)]."""
    a, b = 2 * core + 1, 2 * width
    r_lo, r_hi = exp_neg_bounds(Fraction(p, q), bits)

    def x(r: Fraction) -> Fraction:
        return a * (1 - r) / (a * (1 - r) + b * r)

    return x(r_hi), x(r_lo)


@functools.lru_cache(maxsize=256)
def staircase_threshold(p: int, q: int, core: int, width: int, w: int) -> int:
    """lo = ⌊x·2^w⌋ for the core probability x of :func:`staircase_core_bounds`, exactly:
    x is irrational (r = e^{−p/q} is transcendental), so the bounds are refined until both
    have the same floor."""
    return floor_scaled(functools.partial(staircase_core_bounds, p, q, core, width), w)
