"""Exact integer samplers behind the safe release mode (:mod:`privlab.mechanisms.noise.safe`).

Every probability used here is either a rational number p/q or e^{−γ} for a rational γ (or a
rational function of it).  The discrete Laplace and staircase follow Canonne, Kamath and
Steinke, "The Discrete Gaussian for Differential Privacy" (NeurIPS 2020), Algorithm 2's split of
a geometric variable, with each e^{−γ}-probability decided by comparing uniform bits with its
exact binary expansion (:mod:`._thresholds`: ⌊v·2^w⌋ from rational bounds; a tie reads more
bits, :mod:`._exact_slow`).  :func:`bernoulli_exp` and :func:`geometric_exp` keep CKS
Algorithms 1–2 as such.  No floating-point number is ever formed, so the law of every sample
is exactly the stated one (given an ideal source of uniform bits).

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
The table sampler's V stays below its table's length (about 43/(m·γ) entries) except after
a tie at the table's final 0 (probability < 2^−w), which the slow path continues exactly.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import numpy as np
from numpy.typing import ArrayLike, NDArray

from privlab.errors import PrivlabError
from privlab.mechanisms.noise import _exact_kernels as _kernels
from privlab.mechanisms.noise import _exact_slow as _slow
from privlab.mechanisms.noise._thresholds import geometric_tables, staircase_threshold

IntArray = NDArray[np.int64]
BoolArray = NDArray[np.bool_]

INT_LIMIT = 2**56
"""Every numerator and denominator handed to the samplers stays below this bound."""
_BLOCK_WORDS = 1 << 16
"""Uniform 64-bit words fetched from the generator per refill of the bit stream."""
DECISION_BITS = 62
"""Bits w of each comparison with an exact threshold; a tie (probability 2^−w) sends the
sample to the slow path (:mod:`._exact_slow`)."""


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
           slow: Callable[[_slow.Stream], int] | None = None,
           tables: tuple[IntArray, IntArray] | None = None) -> IntArray:
    """Run the compiled sampler ``kind`` of :mod:`._exact_kernels` until ``out`` is full,
    feeding it the uniform 64-bit words of ``gen`` in blocks (module doc: one bit stream).
    A sample at which the kernel stopped on a tie (``st[3]`` = NEED_FLAG) is drawn by ``slow``
    from the same bits (:mod:`._exact_slow`); when the words run out inside it, more are
    fetched and it is drawn again from its start."""
    tu, tv = tables if tables is not None else (None, None)
    buf = np.empty(0, dtype=np.uint64)
    st = np.zeros(4, dtype=np.int64)
    i = 0
    while True:
        if kind == 0:
            i = _kernels.run_laplace(params, out, i, buf, st, tu, tv)
        elif kind == 1:
            i = _kernels.run_staircase(params, out, i, buf, st, tu, tv)
        else:
            i = _kernels.run(kind, params, out, i, buf, st)
        if i == out.size:
            return out
        if i < 0:
            raise PrivlabError("exact sampler: a Bernoulli(exp) chain reached k = 128 "
                               "(probability < 1/127!)")
        if st[3] == _kernels.NEED_FLAG and slow is not None:
            stream = _slow.Stream(buf, int(st[0]), int(st[1]), int(st[2]))
            try:
                out[i] = slow(stream)
            except _slow.OutOfWords:
                pass
            else:
                st[0], st[1], st[2], st[3] = stream.pos, stream.cur, stream.left, 0
                i += 1
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


def _check_bits(decision_bits: int) -> int:
    if not 1 <= decision_bits <= DECISION_BITS:
        raise ValueError(f"decision_bits={decision_bits!r} must lie in [1, {DECISION_BITS}]")
    return decision_bits


def discrete_laplace(n: int, s: int, t: int, gen: np.random.Generator, *,
                     decision_bits: int = DECISION_BITS) -> IntArray:
    """n independent Y ∈ ℤ with P(Y = y) ∝ e^{−|y|·s/t} (scale t/s; s, t ≥ 1 integers).

    CKS 2020 Algorithm 2 with γ = s/t: a geometric G, P(G = g) ∝ e^{−g·γ}, a fair sign B, and
    rejection of (B = 1, G = 0) so that 0 is not counted twice.  G = U + m·V
    (``_exact_kernels._tgeom``): U on {0..m−1} kept with probability e^{−U·γ}, V with
    P(V ≥ j) = e^{−j·m·γ}, both decided by comparing w = ``decision_bits`` uniform bits with
    the exact thresholds of :func:`._thresholds.geometric_tables` (a tie, probability 2^−w,
    sends the sample to :mod:`._exact_slow`).  P(U = u, V = j) ∝ e^{−(u + m·j)·γ}, so G has
    the stated law (for m > 2^16, e^{−U·γ} is tested one base-2^16 digit of U at a time).
    ``decision_bits`` below 62 is for tests: it sends many samples to the slow path.
    """
    if not 1 <= s < INT_LIMIT:
        raise ValueError(f"s={s!r} must lie in [1, 2^56)")
    if not 1 <= t < INT_LIMIT:
        raise ValueError(f"t={t!r} must lie in [1, 2^56)")
    w = _check_bits(decision_bits)
    gamma = Fraction(s, t)
    m, tu, tv = geometric_tables(gamma.numerator, gamma.denominator, w)
    return _drive(0, np.array([m, w], dtype=np.int64), np.empty(n, dtype=np.int64), gen,
                  lambda stream: _slow.laplace(stream, gamma, m, w, tu, tv), (tu, tv))


def discrete_staircase(n: int, p: int, q: int, core: int, width: int,
                       gen: np.random.Generator, *, decision_bits: int = DECISION_BITS
                       ) -> IntArray:
    """n independent Y ∈ ℤ from the discrete staircase with rate γ = p/q:

        w(y) = 1             for |y| ≤ core,
        w(y) = r^i           for core + (i−1)·width < |y| ≤ core + i·width, i ≥ 1, r = e^{−γ}.

    The core (a = 2·core + 1 cells) has mass a/Z and level i ≥ 1 (b = 2·width cells) mass
    b·r^i/Z, Z = a + b·r/(1 − r).  So: decide core or steps with the exact probability
    x = a/Z = a(1 − r)/(a(1 − r) + b·r), by comparing w = ``decision_bits`` uniform bits with
    ⌊x·2^w⌋ (:func:`._thresholds.staircase_threshold`); in the core, a uniform cell; in the
    steps, a uniform signed cell of a level and the level 1 + G, P(G = g) ∝ r^g, drawn as in
    :func:`discrete_laplace`.  A tie (probability 2^−w per comparison) sends the sample to
    :mod:`._exact_slow`.  No proposal is rejected, so the cost does not grow when the core is
    small and r tiny (the earlier block sampler's acceptance fell to 0.0072 at ε = 5, d = 0).
    """
    if core < 0 or width < 1:
        raise ValueError(f"core={core!r} must be >= 0 and width={width!r} >= 1")
    if not (1 <= p < INT_LIMIT and 1 <= q < INT_LIMIT and 2 * core + 1 < INT_LIMIT
            and 2 * width < INT_LIMIT):
        raise ValueError(f"p={p!r}, q={q!r}, core={core!r}, width={width!r} must be < 2^56")
    w = _check_bits(decision_bits)
    gamma = Fraction(p, q)
    p, q = gamma.numerator, gamma.denominator
    m, tu, tv = geometric_tables(p, q, w)
    lo = staircase_threshold(p, q, core, width, w)
    return _drive(1, np.array([core, width, lo, w, m], dtype=np.int64),
                  np.empty(n, dtype=np.int64), gen,
                  lambda stream: _slow.staircase(stream, p, q, core, width, lo, w, m, tu, tv),
                  (tu, tv))
