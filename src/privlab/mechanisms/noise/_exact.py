"""Exact integer samplers behind the safe release mode (:mod:`privlab.mechanisms.noise.safe`).

Every probability used here is either a rational number p/q or exp(−γ) for a rational γ, drawn
with the alternating-series construction of Canonne, Kamath and Steinke, "The Discrete Gaussian
for Differential Privacy" (NeurIPS 2020), Algorithms 1–2.  No floating-point number is ever
formed, so the law of every sample is exactly the stated one (given an ideal source of uniform
bits).

The samplers are compiled (:mod:`privlab.mechanisms.noise._exact_kernels`): they read one stream
of fair bits, the uniform 64-bit words of the generator in order, and draw the samples one after
the other from it; Bernoulli(p/q) is a lazy comparison of uniform bits with the binary digits of
p/q (2 bits on average), uniform integers are rejection on bit-length draws.  The stream is
refilled in blocks without ever restarting a sample, so a seed fixes every output byte and the
noise depends only on the random stream, never on the data (the data enter only after the noise
is drawn).  :func:`bernoulli_rational` (not used by the release path) stays numpy's
``integers(0, q) < p``.

Integer ranges: callers keep every denominator below 2^56 (``safe.py`` validates this), so
``den·k`` with k < 128 and ``U + t·V`` with V < 128 fit in int64.  Reaching k = 128 has
probability ≤ 1/127! and V = 128 probability e^{−128}; the samplers raise rather than overflow.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from fractions import Fraction

import numpy as np
from numpy.typing import ArrayLike, NDArray

from privlab.errors import PrivlabError
from privlab.mechanisms.noise import _exact_kernels as _kernels

IntArray = NDArray[np.int64]
BoolArray = NDArray[np.bool_]

INT_LIMIT = 2**56
"""Every numerator and denominator handed to the samplers stays below this bound."""
_BLOCK_WORDS = 1 << 16
"""Uniform 64-bit words fetched from the generator per refill of the bit stream."""
DECISION_BITS = 62
"""Bits w of the staircase's core/steps decision: it is left to :func:`_decide_core` with
probability 2^−w."""


def rational_floor(x: Fraction, max_denominator: int) -> Fraction:
    """The largest fraction p/q ≤ x with 1 ≤ q ≤ ``max_denominator`` (x ≥ 0).

    Continued-fraction walk as in :meth:`fractions.Fraction.limit_denominator`: it ends with a
    convergent and a semiconvergent that bracket x and are Farey neighbours
    (|p·q' − p'·q| = 1) whose mediant has denominator > ``max_denominator``; so no fraction of
    admissible denominator lies strictly between them and the lower one is the answer.
    """
    if x < 0:
        raise ValueError("rational_floor needs x >= 0")
    if x.denominator <= max_denominator:
        return x
    p0, q0, p1, q1 = 0, 1, 1, 0
    n, d = x.numerator, x.denominator
    while True:
        a = n // d
        q2 = q0 + a * q1
        if q2 > max_denominator:
            break
        p0, q0, p1, q1 = p1, q1, p0 + a * p1, q2
        n, d = d, n - a * d
    k = (max_denominator - q0) // q1
    return min(Fraction(p0 + k * p1, q0 + k * q1), Fraction(p1, q1))


def bernoulli_rational(p: ArrayLike, q: ArrayLike, gen: np.random.Generator) -> BoolArray:
    """Independent Bernoulli(p/q) draws (0 ≤ p ≤ q), exactly: ``integers(0, q) < p``."""
    p_arr, q_arr = np.broadcast_arrays(np.asarray(p, dtype=np.int64),
                                       np.asarray(q, dtype=np.int64))
    return np.asarray(gen.integers(0, q_arr) < p_arr, dtype=bool)


def _drive(kind: int, params: IntArray, out: IntArray, gen: np.random.Generator,
           decide: Callable[[NDArray[np.uint64], IntArray], bool] | None = None) -> IntArray:
    """Run the compiled sampler ``kind`` of :mod:`._exact_kernels` until ``out`` is full,
    feeding it the uniform 64-bit words of ``gen`` in blocks (module doc: one bit stream).
    When the kernel stops at a decision it cannot make (``st[3]`` = NEED_FLAG), ``decide``
    makes it from the same stream (False: the words ran out first; more are fetched)."""
    buf = np.empty(0, dtype=np.uint64)
    st = np.array([0, 0, 0, -1], dtype=np.int64)
    i = 0
    while True:
        i = _kernels.run(kind, params, out, i, buf, st)
        if i == out.size:
            return out
        if i < 0:
            raise PrivlabError("exact sampler: a Bernoulli(exp) chain reached k = 128 "
                               "(probability < 1/127!)")
        if st[3] == _kernels.NEED_FLAG and decide is not None and decide(buf, st):
            continue
        words = min(max(2 * (out.size - i), 256), _BLOCK_WORDS)
        fresh = gen.integers(0, 2**64 - 1, size=words, dtype=np.uint64, endpoint=True)
        buf = np.concatenate([buf[int(st[0]):], fresh])
        st[0] = 0


def bernoulli_exp(num: ArrayLike, den: ArrayLike, gen: np.random.Generator) -> BoolArray:
    """Independent Bernoulli(exp(−num/den)) draws for integers 0 ≤ num ≤ den (elementwise).

    Canonne–Kamath–Steinke 2020, Algorithm 1 (γ = num/den ∈ [0, 1]): k = 1; repeat
    A ~ Bernoulli(γ/k), k += 1 while A = 1; return [k odd].  P(k > m) = γ^m/m!, hence
    P(k odd) = Σ_m (−1)^m γ^m/m! = e^{−γ}.  Compiled (:mod:`._exact_kernels`).
    """
    num_a, den_a = np.broadcast_arrays(np.asarray(num, dtype=np.int64),
                                       np.asarray(den, dtype=np.int64))
    shape = num_a.shape
    nums = np.ascontiguousarray(num_a.ravel(), dtype=np.int64)
    dens = np.ascontiguousarray(den_a.ravel(), dtype=np.int64)
    if nums.size and (nums.min() < 0 or np.any(nums > dens) or dens.max() >= INT_LIMIT):
        raise ValueError("bernoulli_exp needs 0 <= num <= den < 2^56")
    out = _drive(3, dens, nums.copy(), gen)
    return (out == 1).reshape(shape)


def count_exp1_successes(n: int, gen: np.random.Generator) -> IntArray:
    """V = number of Bernoulli(e^{−1}) successes before the first failure (n independent).
    This is :func:`geometric_exp` with t = 1 (U is always 0 and accepted)."""
    return geometric_exp(n, 1, gen)


def geometric_exp(n: int, t: int, gen: np.random.Generator) -> IntArray:
    """n independent X ∈ {0, 1, …} with P(X = x) ∝ e^{−x/t} (t ≥ 1 an integer).

    CKS 2020 Algorithm 2, first half: U uniform in {0..t−1} accepted with probability
    e^{−U/t}; V ~ count of e^{−1} successes; X = U + t·V.  Then P(X = x) ∝ e^{−(x mod t)/t} ·
    e^{−⌊x/t⌋} = e^{−x/t}.
    """
    if not 1 <= t < INT_LIMIT:
        raise ValueError(f"t={t!r} must lie in [1, 2^56)")
    return _drive(2, np.array([t], dtype=np.int64), np.empty(n, dtype=np.int64), gen)


def discrete_laplace(n: int, s: int, t: int, gen: np.random.Generator) -> IntArray:
    """n independent Y ∈ ℤ with P(Y = y) ∝ e^{−|y|·s/t} (scale t/s; s, t ≥ 1 integers).

    CKS 2020 Algorithm 2: X as in :func:`geometric_exp`, Y = ⌊X/s⌋ (so P(Y = y) ∝ e^{−y·s/t}
    on y ≥ 0), a fair sign B, and rejection of (B = 1, Y = 0) so that 0 is not counted twice.
    """
    if not 1 <= s < INT_LIMIT:
        raise ValueError(f"s={s!r} must lie in [1, 2^56)")
    if not 1 <= t < INT_LIMIT:
        raise ValueError(f"t={t!r} must lie in [1, 2^56)")
    return _drive(0, np.array([s, t], dtype=np.int64), np.empty(n, dtype=np.int64), gen)


def exp_neg_bounds(gamma: Fraction, bits: int) -> tuple[Fraction, Fraction]:
    """Rational bounds lo ≤ e^{−γ} ≤ hi (γ ≥ 0) with hi − lo ≤ 2^−bits.

    e^{−γ} = (e^{−y})^n with n = max(1, ⌈γ⌉) and y = γ/n ≤ 1.  For y ≤ 1 the terms y^j/j! of
    Σ (−y)^j/j! decrease, so e^{−y} lies between two consecutive partial sums; the bracket is
    rounded outwards to dyadic numbers (short denominators) and raised to the n-th power
    (monotone on [0, 1], and hi^n − lo^n ≤ n·(hi − lo))."""
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
    bits = w + 16
    while True:
        x_lo, x_hi = staircase_core_bounds(p, q, core, width, bits)
        lo, hi = math.floor(x_lo * (1 << w)), math.floor(x_hi * (1 << w))
        if lo == hi:
            return lo
        bits += 32


def _decide_core(p: int, q: int, core: int, width: int, w: int,
                 buf: NDArray[np.uint64], st: IntArray) -> bool:
    """The core/steps decision of the staircase sample that starts at ``st`` when its w bits
    u equal the threshold lo (the kernel's NEED).  U = (u + V)/2^w, V uniform from the bits
    that follow, and the sample is in the core iff U < x: read V 32 bits at a time, so that
    U ∈ [m/2^n, (m + 1)/2^n), and compare with bounds of x to 2^−(n+16) until the interval
    lies on one side (almost surely it does).  Sets ``st`` to the stream after the bits read
    and ``st[3]`` to the decision (1 core, 0 steps); False when the words run out first
    (``st`` is then unchanged)."""
    pos, cur, left = int(st[0]), int(st[1]), int(st[2])
    m, pos, cur, left = _kernels._bits(buf, pos, cur, left, w)
    if m < 0:
        return False
    n = w
    while True:
        x_lo, x_hi = staircase_core_bounds(p, q, core, width, n + 16)
        if (m + 1) <= x_lo * (1 << n):
            decision = 1
            break
        if m >= x_hi * (1 << n):
            decision = 0
            break
        v, pos, cur, left = _kernels._bits(buf, pos, cur, left, 32)
        if v < 0:
            return False
        m, n = (m << 32) + v, n + 32
    st[0], st[1], st[2], st[3] = pos, cur, left, decision
    return True


def discrete_staircase(n: int, p: int, q: int, core: int, width: int,
                       gen: np.random.Generator, *, decision_bits: int = DECISION_BITS
                       ) -> IntArray:
    """n independent Y ∈ ℤ from the discrete staircase with rate γ = p/q:

        w(y) = 1             for |y| ≤ core,
        w(y) = r^i           for core + (i−1)·width < |y| ≤ core + i·width, i ≥ 1, r = e^{−γ}.

    The core (a = 2·core + 1 cells) has mass a/Z and level i ≥ 1 (b = 2·width cells) mass
    b·r^i/Z, Z = a + b·r/(1 − r).  So: decide core or steps with the exact probability
    x = a/Z = a(1 − r)/(a(1 − r) + b·r), by comparing a uniform U with x bit by bit (w =
    ``decision_bits`` bits decide unless they equal ⌊x·2^w⌋, :func:`staircase_threshold`;
    then :func:`_decide_core` reads more); in the core, a uniform cell; in the steps, a
    uniform signed cell of a level and the level 1 + ⌊X/p⌋ with X from :func:`geometric_exp`
    at t = q (P(⌊X/p⌋ = j) ∝ e^{−j·p/q} = r^j).  No proposal is rejected, so the cost does
    not grow when the core is small and r tiny (the earlier block sampler's acceptance fell
    to 0.0072 at ε = 5, d = 0).  ``decision_bits`` below 62 is for tests: it sends many
    decisions to :func:`_decide_core`.
    """
    if core < 0 or width < 1:
        raise ValueError(f"core={core!r} must be >= 0 and width={width!r} >= 1")
    if not (1 <= p < INT_LIMIT and 1 <= q < INT_LIMIT and 2 * core + 1 < INT_LIMIT
            and 2 * width < INT_LIMIT):
        raise ValueError(f"p={p!r}, q={q!r}, core={core!r}, width={width!r} must be < 2^56")
    if not 1 <= decision_bits <= DECISION_BITS:
        raise ValueError(f"decision_bits={decision_bits!r} must lie in [1, {DECISION_BITS}]")
    w = decision_bits
    lo = staircase_threshold(p, q, core, width, w)
    return _drive(1, np.array([p, q, core, width, lo, w], dtype=np.int64),
                  np.empty(n, dtype=np.int64), gen,
                  functools.partial(_decide_core, p, q, core, width, w))
