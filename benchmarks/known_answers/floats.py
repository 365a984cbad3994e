"""Floating-point and lattice leaks: implementations whose output *sets* depend on the input,
so the true ε is ∞ although the law they imitate is ε-DP.

Each truth is a proof: either an exact enumeration of every possible output (the grid samplers:
both supports are computed point by point and compared), or an argument that one side cannot
produce some set of outputs plus a *witness* — a concrete output of the other side, computed by
the very function the sampler uses from an input value the random generator can produce (numpy's
``Generator.random`` returns every multiple of 2⁻⁵³ in [0, 1) with probability 2⁻⁵³), so the
witness has positive probability.  ``true_value`` is then ∞ (as long as the witness exists; the
code re-derives it each time).

Mironov, "On significance of the least significant bits for differential privacy", CCS 2012, is
the reference for the naive floating-point Laplace; the Sterbenz lemma (a − b is exact when
b/2 ≤ a ≤ 2b) gives the impossibility half of the proofs.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np
from numpy.typing import NDArray

from . import KnownAnswer, entry
from . import exact as ex

Arr = NDArray[Any]
MIRONOV = "Mironov, CCS 2012"
TWO53 = 2.0**53


def naive_laplace(u: Arr, neg: Arr, scale: float) -> Arr:
    """The naive Laplace sampler of Mironov 2012: ±(−b·ln U), U ∈ (0, 1], in float64."""
    mag = -scale * np.log(u)
    return np.where(neg, -mag, mag)


def _uniforms(n: int, g: np.random.Generator) -> tuple[Arr, Arr]:
    u = 1.0 - g.random(n)  # (0, 1], every multiple of 2⁻⁵³
    neg = g.random(n) < 0.5
    return u, neg


def _lowest_bit(y: Arr) -> Arr:
    y = np.asarray(y)
    bits = y.view(np.uint64) if y.dtype == np.float64 else y.view(np.uint32)
    return np.asarray(bits & 1)


def naive_witness(scale: float, dtype: Any = np.float64) -> float | None:
    """An output of the naive sampler on x = 0, in [−1, −1/2) with its last mantissa bit 1,
    computed from a reachable U = k·2⁻⁵³ (None if none among 4096 values of k around
    e^{−0.75/b}·2⁵³, spaced so that Y moves by about a third of an ulp of the output type)."""
    centre = math.exp(-0.75 / scale)  # −b·ln U = 0.75
    k0 = int(centre * TWO53)
    step = 1 if dtype == np.float64 else 1 << 27  # consecutive k move Y by ≈ 2⁻⁵³·b/U
    u = (k0 + step * np.arange(4096, dtype=np.float64)) / TWO53
    y = naive_laplace(u, np.ones(u.size, dtype=bool), scale).astype(dtype)
    ok = (y >= -1.0) & (y < -0.5) & (_lowest_bit(y) == 1)
    return float(y[ok][0]) if ok.any() else None


def _naive_entry(name: str, scale: float, dtype: Any) -> KnownAnswer:
    def side(x: float) -> Any:
        def s(n: int, g: np.random.Generator) -> Arr:
            u, neg = _uniforms(n, g)
            y = naive_laplace(u, neg, scale).astype(dtype)
            return np.asarray(dtype(x) + y)
        return s

    def truth() -> float:
        return math.inf if naive_witness(scale, dtype) is not None else float("nan")

    return KnownAnswer(name=name, family="floating point", pair="x = 0 vs x = 1",
                       sample_a=side(0.0), sample_b=side(1.0), claimed_epsilon=1.0 / scale,
                       truth=truth, target="implementation", reference=MIRONOV,
                       float_bits=dtype == np.float64, cost=3.0)


@entry
def float_laplace_naive() -> KnownAnswer:
    """Naive float64 Laplace x + Y, Y = ±(−b·ln U) with U a uniform double in (0, 1], b = 10
    (claimed ε = 0.1), x = 0 vs 1 (Mironov 2012).  Under x = 1 an output in [−1, −1/2) needs
    Y ∈ [−2, −1.5), where doubles are multiples of 2⁻⁵²; 1 + Y is then exact (Sterbenz) and a
    multiple of 2⁻⁵², so its last mantissa bit (2⁻⁵³ in that binade) is 0.  Under x = 0 the
    output is Y itself, and :func:`naive_witness` exhibits a reachable Y in [−1, −1/2) with last
    bit 1.  That output is impossible under x = 1: true ε = ∞ (an implementation leak; the event
    {last bit 1 in [−1, −1/2)} has probability ≈ 1.2 % under x = 0)."""
    return _naive_entry("float-laplace-naive", 10.0, np.float64)


@entry
def float32_laplace_naive() -> KnownAnswer:
    """The naive Laplace in float32: Y computed in float64, rounded to float32, added to
    float32(x) in float32 arithmetic; b = 1 (claimed ε = 1), x = 0 vs 1.  The float32 version of
    Mironov's argument: under x = 1 an output in [−1, −1/2) comes from a float32 Y ∈ [−2, −1.5)
    (multiples of 2⁻²³), 1 + Y is exact (Sterbenz) and has last bit 0 at the 2⁻²⁴ spacing of
    [−1, −1/2); under x = 0 :func:`naive_witness` finds a reachable float32 Y there with last bit
    1.  True ε = ∞ (Mironov 2012)."""
    return _naive_entry("float32-laplace-naive", 1.0, np.float32)


# ---- coarse grids rounded to float32 --------------------------------------------------------
def laplace_icdf(p: Arr, scale: float) -> Arr:
    """Inverse CDF of Lap(scale) in float64."""
    return np.where(p < 0.5, scale * np.log(2.0 * p), -scale * np.log(2.0 - 2.0 * p))


def grid_table(x: float, bits: int, scale: float = 1.0) -> Arr:
    """Every output of the grid sampler on input x: float32(x + F⁻¹((k + 1/2)/2^bits)), k < 2^bits,
    each with probability 2^−bits."""
    k = np.arange(1 << bits, dtype=np.float64)
    return (x + laplace_icdf((k + 0.5) / float(1 << bits), scale)).astype(np.float32)


def table_epsilon(ta: Arr, tb: Arr) -> float:
    """Exact ε between two equally weighted tables of outputs (uniform over the entries)."""
    va, ca = np.unique(ta, return_counts=True)
    vb, cb = np.unique(tb, return_counts=True)
    allv = np.union1d(va, vb)
    pa = np.zeros(allv.size, dtype=np.int64)
    pb = np.zeros(allv.size, dtype=np.int64)
    pa[np.searchsorted(allv, va)] = ca
    pb[np.searchsorted(allv, vb)] = cb
    if np.any((pa == 0) != (pb == 0)):
        return math.inf
    return ex.pure_epsilon([Fraction(int(c), ta.size) for c in pa],
                           [Fraction(int(c), tb.size) for c in pb])


def _grid_entry(name: str, bits: int) -> KnownAnswer:
    def side(x: float) -> Any:
        table = grid_table(x, bits)

        def s(n: int, g: np.random.Generator) -> Arr:
            return table[g.integers(0, table.size, n)]
        return s

    return KnownAnswer(name=name, family="floating point", pair="x = 0 vs x = 1",
                       sample_a=side(0.0), sample_b=side(1.0), claimed_epsilon=1.0,
                       truth=lambda: table_epsilon(grid_table(0.0, bits), grid_table(1.0, bits)),
                       target="implementation", reference=MIRONOV + " (grids)", cost=3.0)


@entry
def grid12_float32() -> KnownAnswer:
    """Laplace (b = 1, claimed ε = 1) by inverse CDF on a coarse uniform grid — U = (k + 1/2)/2¹²,
    k uniform in {0, …, 4095} — and the release x + F⁻¹(U) rounded to float32; x = 0 vs 1.
    Exact enumeration of all 4096 outputs of each input (:func:`grid_table`,
    :func:`table_epsilon`): the two supports are different finite sets of floats (x + F⁻¹(U)
    does not map the grid onto itself), so some output has probability 0 under one input and
    ≥ 2⁻¹² under the other: true ε = ∞ (issue 33's non-lattice support leak)."""
    return _grid_entry("grid12-float32", 12)


@entry
def grid20_float32() -> KnownAnswer:
    """As ``grid12-float32`` on a grid of 2²⁰ points (U = (k + 1/2)/2²⁰): exact enumeration of
    2²⁰ outputs per input shows supports that differ (true ε = ∞), but each output has
    probability ≈ 2⁻²⁰, so a pilot of 10⁴ draws sees almost no repeated value (Mironov 2012 for
    the principle)."""
    return _grid_entry("grid20-float32", 20)


# ---- lattices and extra precision -----------------------------------------------------------
G_STEP = 1.0 / 16


@entry
def lattice_offset() -> KnownAnswer:
    """Discrete Laplace on the grid gℤ, g = 1/16 (two-sided geometric Z with P(Z = k) ∝
    e^{−ε·g·|k|}, ε = 1, Δ = 1), added to an input that is *not* on the grid: x = 0 vs x = 0.3.
    Every output under x = 0 is k/16 exactly (an integer times a power of two, exact in
    float64); under x = 0.3 the output fl(0.3) (Z = 0, probability (1 − r)/(1 + r) > 0, r =
    e^{−1/16}) is not a multiple of 1/16 (|0.3 − 5/16| = 1/80).  An output possible under one
    input only: true ε = ∞ — the lattice leak of snapping mechanisms applied to off-grid inputs
    (Mironov 2012, §5)."""
    p = -math.expm1(-G_STEP)

    def side(x: float) -> Any:
        def s(n: int, g: np.random.Generator) -> Arr:
            z = g.geometric(p, n) - g.geometric(p, n)
            return x + z * G_STEP
        return s

    def truth() -> float:
        b0 = 0.3 + 0 * G_STEP  # the output of Z = 0 under x = 0.3
        on_grid = Fraction(b0) * 16 == int(Fraction(b0) * 16)
        return math.inf if not on_grid else float("nan")

    return KnownAnswer(name="lattice-offset", family="floating point", pair="x = 0 vs x = 0.3",
                       sample_a=side(0.0), sample_b=side(0.3), claimed_epsilon=1.0, truth=truth,
                       target="implementation", reference=MIRONOV, cost=3.0)


def f32_noise_witness() -> float | None:
    """A reachable float32 noise value Y (from U = k·2⁻⁵³ through :func:`naive_laplace`, b = 1)
    with 1 + Y (float64, exact) not representable in float32 (None if none is found)."""
    k0 = int(math.exp(-0.3) * TWO53)
    u = (k0 + (1 << 27) * np.arange(64, dtype=np.float64)) / TWO53  # distinct float32 values
    y = naive_laplace(u, np.zeros(u.size, dtype=bool), 1.0).astype(np.float32).astype(np.float64)
    out = 1.0 + y
    bad = out.astype(np.float32).astype(np.float64) != out
    return float(y[bad][0]) if bad.any() else None


@entry
def float32_noise_in_float64() -> KnownAnswer:
    """Laplace noise (b = 1, claimed ε = 1) generated in float32 and added to a float64 input:
    x + float64(float32(Y)), x = 0 vs 1.  Under x = 0 every output is a float32 value.  Under
    x = 1 the sum 1 + Y is exact in float64 and, for |Y| < 1, needs bits below 2⁻²³ whenever Y
    does, so it is usually not a float32 value; :func:`f32_noise_witness` exhibits a reachable Y
    with 1 + Y outside float32.  That output is impossible under x = 0: true ε = ∞ — a low-bit
    leak that lives 29 bits above the last mantissa bit (the float64 bits 2⁻²⁴ … 2⁻⁵² relative
    are all zero under x = 0), not in the two lowest bits."""
    def side(x: float) -> Any:
        def s(n: int, g: np.random.Generator) -> Arr:
            u, neg = _uniforms(n, g)
            y = naive_laplace(u, neg, 1.0).astype(np.float32).astype(np.float64)
            return x + y
        return s

    return KnownAnswer(name="float32-noise-in-float64", family="floating point",
                       pair="x = 0 vs x = 1", sample_a=side(0.0), sample_b=side(1.0),
                       claimed_epsilon=1.0,
                       truth=lambda: math.inf if f32_noise_witness() is not None else math.nan,
                       target="implementation", reference=MIRONOV, float_bits=True, cost=3.0)
