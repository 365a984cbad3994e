"""Exact integer samplers behind the safe release mode (:mod:`privlab.mechanisms.noise.safe`).

Every probability used here is either a rational number p/q, drawn as
``rng.integers(0, q) < p`` (exact: numpy draws uniform integers by rejection, without floats),
or exp(−γ) for a rational γ, drawn with the alternating-series construction of Canonne, Kamath
and Steinke, "The Discrete Gaussian for Differential Privacy" (NeurIPS 2020), Algorithms 1–2.
No floating-point number is ever formed, so the law of every sample is exactly the stated one
(given an ideal source of uniform integers).

Each sampler is vectorized across samples: it keeps the indices of the samples still running
(an "active" set) and loops only over *rounds*, so n samples cost O(n) numpy work and a number
of Python iterations that grows like log n.  Randomness is drawn in a fixed order that depends
only on the random stream, never on the data (the data enter only after the noise is drawn).

Integer ranges: callers keep every denominator below 2^56 (``safe.py`` validates this), so
``den·k`` with k < 128 and ``U + t·V`` with V < 128 fit in int64.  Reaching k = 128 has
probability ≤ 1/127! and V = 127 probability e^{−127}; the samplers raise rather than overflow.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
from numpy.typing import ArrayLike, NDArray

from privlab.errors import PrivlabError

IntArray = NDArray[np.int64]
BoolArray = NDArray[np.bool_]

INT_LIMIT = 2**56
"""Every numerator and denominator handed to the samplers stays below this bound."""
_MAX_ROUNDS = 128


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


def bernoulli_exp(num: ArrayLike, den: ArrayLike, gen: np.random.Generator) -> BoolArray:
    """Independent Bernoulli(exp(−num/den)) draws for integers 0 ≤ num ≤ den (elementwise).

    Canonne–Kamath–Steinke 2020, Algorithm 1 (γ = num/den ∈ [0, 1]): k = 1; repeat
    A ~ Bernoulli(γ/k), k += 1 while A = 1; return [k odd].  P(k > m) = γ^m/m!, hence
    P(k odd) = Σ_m (−1)^m γ^m/m! = e^{−γ}.  Vectorized: one pass per value of k.
    """
    num_a, den_a = np.broadcast_arrays(np.asarray(num, dtype=np.int64),
                                       np.asarray(den, dtype=np.int64))
    shape = num_a.shape
    num_a, den_a = num_a.ravel(), den_a.ravel()
    k = np.ones(num_a.size, dtype=np.int64)
    active = np.flatnonzero(num_a > 0)  # γ = 0: the first A is 0, k stays 1 → True
    while active.size:
        kk = k[active]
        if kk[0] >= _MAX_ROUNDS:  # all active entries share the same k
            raise PrivlabError("bernoulli_exp: k reached 128 (probability < 1/127!)")
        a = gen.integers(0, den_a[active] * kk) < num_a[active]
        active = active[a]
        k[active] += 1
    return (k % 2 == 1).reshape(shape)


def count_exp1_successes(n: int, gen: np.random.Generator) -> IntArray:
    """V = number of Bernoulli(e^{−1}) successes before the first failure (n independent)."""
    v = np.zeros(n, dtype=np.int64)
    active = np.arange(n)
    rounds = 0
    while active.size:
        rounds += 1
        if rounds >= _MAX_ROUNDS:
            raise PrivlabError("count_exp1_successes: V reached 127 (probability e^-127)")
        a = bernoulli_exp(np.ones(active.size, dtype=np.int64), 1, gen)
        active = active[a]
        v[active] += 1
    return v


def geometric_exp(n: int, t: int, gen: np.random.Generator) -> IntArray:
    """n independent X ∈ {0, 1, …} with P(X = x) ∝ e^{−x/t} (t ≥ 1 an integer).

    CKS 2020 Algorithm 2, first half: U uniform in {0..t−1} accepted with probability
    e^{−U/t}; V ~ count of e^{−1} successes; X = U + t·V.  Then P(X = x) ∝ e^{−(x mod t)/t} ·
    e^{−⌊x/t⌋} = e^{−x/t}.
    """
    if not 1 <= t < INT_LIMIT:
        raise ValueError(f"t={t!r} must lie in [1, 2^56)")
    out = np.empty(n, dtype=np.int64)
    pending = np.arange(n)
    while pending.size:
        u = gen.integers(0, t, size=pending.size, dtype=np.int64)
        ok = bernoulli_exp(u, t, gen)
        v = count_exp1_successes(int(ok.sum()), gen)
        out[pending[ok]] = u[ok] + t * v
        pending = pending[~ok]
    return out


def discrete_laplace(n: int, s: int, t: int, gen: np.random.Generator) -> IntArray:
    """n independent Y ∈ ℤ with P(Y = y) ∝ e^{−|y|·s/t} (scale t/s; s, t ≥ 1 integers).

    CKS 2020 Algorithm 2: X as in :func:`geometric_exp`, Y = ⌊X/s⌋ (so P(Y = y) ∝ e^{−y·s/t}
    on y ≥ 0), a fair sign B, and rejection of (B = 1, Y = 0) so that 0 is not counted twice.
    """
    if not 1 <= s < INT_LIMIT:
        raise ValueError(f"s={s!r} must lie in [1, 2^56)")
    out = np.empty(n, dtype=np.int64)
    pending = np.arange(n)
    while pending.size:
        y = geometric_exp(pending.size, t, gen) // s
        neg = gen.integers(0, 2, size=pending.size, dtype=np.int64) == 1
        ok = ~(neg & (y == 0))
        out[pending[ok]] = np.where(neg, -y, y)[ok]
        pending = pending[~ok]
    return out


def discrete_staircase(n: int, p: int, q: int, core: int, width: int,
                       gen: np.random.Generator) -> IntArray:
    """n independent Y ∈ ℤ from the discrete staircase with rate γ = p/q:

        w(y) = 1             for |y| ≤ core,
        w(y) = r^i           for core + (i−1)·width < |y| ≤ core + i·width, i ≥ 1, r = e^{−γ}.

    Block design: block 0 is the core (a = 2·core + 1 cells), block i ≥ 1 the two signed steps
    of level i (b = 2·width cells).  Draw i with P(i) ∝ r^i (i = ⌊X/p⌋ with X from
    :func:`geometric_exp` at t = q, since P(⌊X/p⌋ = i) ∝ e^{−i·p/q}), a cell c uniform in
    {0..M−1} with M = max(a, b), and accept iff c < size(i).  Accepted pairs (i, c) have
    probability ∝ r^i for each of the size(i) cells of block i, i.e. ∝ w(y).  When a ≤ b only
    block 0 can reject (the brief's case 2D+1 ≤ 2K); when a > b only the step blocks can.
    Acceptance per round: ((1 − r)·a + r·b)/M (a Bernoulli-factory-free design; it is slow only
    when the core is tiny *and* r is tiny).
    """
    if core < 0 or width < 1:
        raise ValueError(f"core={core!r} must be >= 0 and width={width!r} >= 1")
    a, b = 2 * core + 1, 2 * width
    m = max(a, b)
    out = np.empty(n, dtype=np.int64)
    pending = np.arange(n)
    while pending.size:
        i = geometric_exp(pending.size, q, gen) // p
        c = gen.integers(0, m, size=pending.size, dtype=np.int64)
        ok = c < np.where(i == 0, a, b)
        i, c = i[ok], c[ok]
        off = c % width
        mag = core + (i - 1) * width + off + 1
        step = np.where(c < width, mag, -mag)
        out[pending[ok]] = np.where(i == 0, c - core, step)
        pending = pending[~ok]
    return out
