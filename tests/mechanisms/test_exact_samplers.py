"""Exact integer samplers of the safe mode (privlab.mechanisms.noise._exact).

Expected frequencies are computed in this file from the defining formulas (exp(−γ), e^{−|y|s/t},
the staircase weights), with mpmath; observed ones come from the vectorized samplers with a fixed
seed.  Each goodness-of-fit test is paired with a power check: the same samples must reject a
slightly wrong law, so the comparison can fail.
"""

from __future__ import annotations

import functools
import itertools
import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from privlab.mechanisms.noise import _exact, _thresholds
from privlab.mechanisms.noise import _exact_slow as _slow

ALPHA = 1e-3  # fixed seeds: each test passes or fails deterministically
N = 200_000


def chisq_pvalue(samples: np.ndarray, pmf, lo: int, hi: int) -> float:
    """Chi-square p-value of integer samples against ``pmf`` on bins lo..hi plus both tails."""
    ys = np.arange(lo, hi + 1)
    p_in = np.array([pmf(int(y)) for y in ys], dtype=float)
    lower = float(sum(pmf(int(y)) for y in range(lo - 4000, lo)))
    upper = max(1.0 - p_in.sum() - lower, 0.0)
    probs = np.concatenate([[lower], p_in, [upper]])
    obs = np.concatenate([[np.sum(samples < lo)],
                          [np.sum(samples == y) for y in ys],
                          [np.sum(samples > hi)]]).astype(float)
    keep = probs * samples.size >= 5
    f_exp = probs[keep] / probs[keep].sum() * obs[keep].sum()
    return float(stats.chisquare(obs[keep], f_exp).pvalue)


def laplace_pmf(s: int, t: int):
    a = mpmath.mpf(s) / t
    z = (1 + mpmath.exp(-a)) / (1 - mpmath.exp(-a))
    return lambda y: float(mpmath.exp(-a * abs(y)) / z)


def staircase_pmf(p: int, q: int, core: int, width: int):
    """w(y) = 1 on |y| ≤ core; r^{i+1} on (core + i·width, core + (i+1)·width]; r = e^{−p/q}."""
    r = mpmath.exp(-mpmath.mpf(p) / q)
    z = (2 * core + 1) + 2 * width * r / (1 - r)

    def pmf(y: int) -> float:
        a = abs(y)
        if a <= core:
            return float(1 / z)
        i = 0
        while a > core + (i + 1) * width:
            i += 1
        return float(r ** (i + 1) / z)

    return pmf


# ---- rational rounding ---------------------------------------------------------------------
def test_rational_floor_matches_brute_force():
    for n_max in (1, 2, 5, 13):
        cands = sorted({Fraction(p, q) for q in range(1, n_max + 1) for p in range(0, 4 * q + 1)})
        for x in [Fraction(k, 97) for k in range(0, 300)] + [Fraction(math.pi), Fraction(0.1)]:
            want = max(c for c in cands if c <= x)
            assert _exact.rational_floor(x, n_max) == want, (x, n_max)


@settings(max_examples=200, deadline=None)
@given(st.floats(min_value=1e-6, max_value=1e3, allow_nan=False, allow_infinity=False))
def test_rational_floor_of_floats_is_below_and_close(x):
    got = _exact.rational_floor(Fraction(x), 2**20)
    assert got <= Fraction(x) and got.denominator <= 2**20
    # the best lower approximation is at least as good as floor(x·2^20)/2^20
    assert Fraction(x) - got <= Fraction(1, 2**20)


def test_rational_floor_keeps_short_fractions():
    assert _exact.rational_floor(Fraction(3, 7), 2**20) == Fraction(3, 7)
    assert _exact.rational_floor(Fraction(1.0), 2**20) == 1
    # the double nearest 0.1 is slightly above 1/10, so 1/10 is the best lower fraction
    assert Fraction(0.1) > Fraction(1, 10)
    assert _exact.rational_floor(Fraction(0.1), 2**20) == Fraction(1, 10)


# ---- Bernoulli(exp(-γ)) ----------------------------------------------------------------------
@pytest.mark.parametrize("num,den", [(1, 7), (1, 2), (3, 5), (1, 1), (999, 1000)])
def test_bernoulli_exp_frequencies(num, den):
    gen = np.random.default_rng(1000 + num * 7 + den)
    b = _exact.bernoulli_exp(np.full(N, num), den, gen)
    hits = int(b.sum())
    target = math.exp(-num / den)  # expected: the defining formula
    assert stats.binomtest(hits, N, target).pvalue > ALPHA
    # power: a 5 % error in γ is rejected by the same data
    assert stats.binomtest(hits, N, math.exp(-1.05 * num / den)).pvalue < ALPHA


def test_bernoulli_exp_gamma_zero_is_certain_and_shape_kept():
    gen = np.random.default_rng(0)
    assert _exact.bernoulli_exp(np.zeros((3, 4), dtype=np.int64), 5, gen).all()
    assert _exact.bernoulli_exp(np.ones((3, 4), dtype=np.int64), 5, gen).shape == (3, 4)


def test_bernoulli_exp_mixed_parameters_in_one_call():
    gen = np.random.default_rng(5)
    nums = np.tile(np.array([0, 1, 2, 3], dtype=np.int64), N // 4)
    b = _exact.bernoulli_exp(nums, 3, gen)
    for k in range(4):
        sel = b[nums == k]
        assert stats.binomtest(int(sel.sum()), sel.size, math.exp(-k / 3)).pvalue > ALPHA


def test_bernoulli_rational():
    gen = np.random.default_rng(2)
    b = _exact.bernoulli_rational(np.full(N, 3), 8, gen)
    assert stats.binomtest(int(b.sum()), N, 3 / 8).pvalue > ALPHA
    assert not _exact.bernoulli_rational(np.zeros(100, dtype=np.int64), 8, gen).any()


# ---- geometric pieces ------------------------------------------------------------------------
def test_count_exp1_successes_is_geometric():
    v = _exact.count_exp1_successes(N, np.random.default_rng(3))
    q = math.exp(-1)
    pmf = lambda k: 0.0 if k < 0 else (1 - q) * q**k  # noqa: E731
    assert chisq_pvalue(v, pmf, 0, 9) > ALPHA


@pytest.mark.parametrize("t", [1, 2, 3, 10])
def test_geometric_exp(t):
    x = _exact.geometric_exp(N, t, np.random.default_rng(4 + t))
    q = math.exp(-1 / t)
    pmf = lambda k: 0.0 if k < 0 else (1 - q) * q**k  # noqa: E731
    assert chisq_pvalue(x, pmf, 0, 12 * t) > ALPHA


# ---- discrete Laplace -------------------------------------------------------------------------
@pytest.mark.parametrize("s,t", [(1, 3), (2, 7), (5, 2), (1, 1)])
def test_discrete_laplace_fit(s, t):
    y = _exact.discrete_laplace(N, s, t, np.random.default_rng(10 * s + t))
    half = max(4, int(8 * t / s))
    assert chisq_pvalue(y, laplace_pmf(s, t), -half, half) > ALPHA


def test_discrete_laplace_fit_has_power():
    """Forgetting the rejection of −0 (so 0 gets double weight) must be caught."""
    s, t = 1, 3
    y = _exact.discrete_laplace(N, s, t, np.random.default_rng(31))
    good = laplace_pmf(s, t)
    z0 = 1 + good(0)

    def double_zero(k: int) -> float:
        return (2 * good(0) if k == 0 else good(k)) / z0

    assert chisq_pvalue(y, double_zero, -24, 24) < ALPHA
    assert chisq_pvalue(y, laplace_pmf(s, t + 1), -24, 24) < ALPHA


# ---- discrete staircase -----------------------------------------------------------------------
@pytest.mark.parametrize("p,q,core,width", [
    (1, 2, 2, 4),    # 2D+1 = 5 ≤ 2W = 8: only the core block rejects
    (1, 1, 0, 3),    # point core
    (1, 10, 4, 5),   # small rate, many levels
    (3, 2, 7, 3),    # 2D+1 = 15 > 2W = 6: only the step blocks reject
    (1, 1, 4, 4),    # 2D+1 = 9 > 2W = 8 by one cell
])
def test_discrete_staircase_fit(p, q, core, width):
    y = _exact.discrete_staircase(N, p, q, core, width, np.random.default_rng(p + q + core))
    pmf = staircase_pmf(p, q, core, width)
    half = core + width * max(3, int(6 * q / p))
    assert chisq_pvalue(y, pmf, -half, half) > ALPHA


def test_discrete_staircase_fit_has_power():
    p, q, core, width = 1, 2, 2, 4
    y = _exact.discrete_staircase(N, p, q, core, width, np.random.default_rng(77))
    for wrong in (staircase_pmf(p, q, core + 1, width), staircase_pmf(p, q, core, width - 1),
                  staircase_pmf(p, q + 1, core, width)):
        assert chisq_pvalue(y, wrong, -30, 30) < ALPHA


def test_staircase_block_mapping_covers_every_cell_once():
    """Enumerate (block, cell) pairs: each accepted pair maps to a distinct y of the right level."""
    for core, width in itertools.product(range(0, 5), range(1, 5)):
        a, b = 2 * core + 1, 2 * width
        seen = {}
        for i in range(0, 4):
            for c in range(a if i == 0 else b):
                if i == 0:
                    y = c - core
                else:
                    mag = core + (i - 1) * width + c % width + 1
                    y = mag if c < width else -mag
                assert y not in seen
                seen[y] = i
        assert sorted(seen) == list(range(-(core + 3 * width), core + 3 * width + 1))
        for y, i in seen.items():
            lvl = 0 if abs(y) <= core else math.ceil((abs(y) - core) / width)
            assert lvl == i


def test_seeded_samplers_are_deterministic():
    a = _exact.discrete_staircase(1000, 1, 3, 2, 5, np.random.default_rng(9))
    b = _exact.discrete_staircase(1000, 1, 3, 2, 5, np.random.default_rng(9))
    c = _exact.discrete_laplace(1000, 1, 3, np.random.default_rng(9))
    d = _exact.discrete_laplace(1000, 1, 3, np.random.default_rng(9))
    assert np.array_equal(a, b) and np.array_equal(c, d)
    assert not np.array_equal(a, _exact.discrete_staircase(1000, 1, 3, 2, 5,
                                                           np.random.default_rng(10)))


def test_sampler_argument_guards():
    gen = np.random.default_rng(0)
    with pytest.raises(ValueError, match="t=0"):
        _exact.geometric_exp(3, 0, gen)
    with pytest.raises(ValueError, match="s=0"):
        _exact.discrete_laplace(3, 0, 1, gen)
    with pytest.raises(ValueError, match="width=0"):
        _exact.discrete_staircase(3, 1, 1, 0, 0, gen)
    with pytest.raises(ValueError):
        _exact.rational_floor(Fraction(-1), 10)


# ---- the compiled bit stream (privlab.mechanisms.noise._exact_kernels) -------------------------
def test_bits_read_the_words_least_significant_bit_first_across_boundaries():
    from privlab.mechanisms.noise import _exact_kernels as K

    words = np.random.default_rng(8).integers(0, 2**64 - 1, size=6, dtype=np.uint64,
                                              endpoint=True)
    stream = [(int(w) >> i) & 1 for w in words for i in range(64)]  # expected: the definition
    pos, cur, left, at = 0, 0, 0, 0
    for b in (1, 7, 62, 20, 33, 1, 50, 2, 61, 32, 62, 20):
        x, pos, cur, left = K._bits(words, pos, cur, left, b)
        assert x == sum(bit << i for i, bit in enumerate(stream[at:at + b])), b
        at += b
    x, *_ = K._bits(words, pos, cur, left, 62)  # 384 − 351 = 33 bits left: exhausted
    assert x == K.OUT


@pytest.mark.parametrize("num,den", [(1, 3), (2, 7), (1024, 1025), (1, 2**50 + 3)])
def test_bern_decides_at_the_first_chunk_that_differs_from_the_digits(num, den):
    """Chunk digits D = ⌊num·2^c/den⌋ (Fraction); U's chunk D−1 → True, D+1 → False."""
    from privlab.mechanisms.noise import _exact_kernels as K

    c = 20 if den < 2**44 else 64 - den.bit_length()
    dig = int(Fraction(num * 2**c, den))
    for u, want in ((dig - 1, 1), (dig + 1, 0)):
        if 0 <= u < 2**c:
            buf = np.array([u], dtype=np.uint64)
            assert K._bern(buf, 0, 0, 0, num, den)[0] == want, (u, dig)
    # equal chunk: the next chunk of digits decides (all-zero bits then < the next digits)
    rest = Fraction(num * 2**c, den) - dig
    buf = np.array([dig], dtype=np.uint64)  # the following bits are zero
    got = K._bern(np.concatenate([buf, np.zeros(2, dtype=np.uint64)]), 0, 0, 0, num, den)[0]
    assert got == (1 if rest > 0 else 0)


def _bern_reference(chunks, num, den, c):
    """Bernoulli(num/den) on U's c-bit chunks by the definition, in Fractions: chunk u of U
    against the digit chunk D of num/den; the first unequal chunk decides; an exhausted
    expansion with all chunks equal means U ≥ x; returns (decision, chunks read)."""
    frac = Fraction(num, den)
    for i, u in enumerate(chunks):
        frac *= 2**c
        dig = int(frac)
        frac -= dig
        if u != dig:
            return (1 if u < dig else 0), i + 1
        if frac == 0:
            return 0, i + 1
    raise AssertionError("reference ran out of chunks")


@pytest.mark.parametrize("num,den", [(1, 3), (3, 12), (1, 2**20), (5, 2**23), (7, 10),
                                     (2**19, 2**20 + 1), (1, 2**50 + 3), (3, 2**45),
                                     (123456789, 2**40 - 87)])
def test_bern_equals_the_fraction_definition_chunk_by_chunk(num, den):
    """Every decision (and the bits it reads) equals the definition, for chunks around the
    digit chunk D (D − 1, D, D + 1: the boundaries of the comparisons without division), for
    digit chunks that end the expansion exactly (den dividing num·2^c) and random ones."""
    from privlab.mechanisms.noise import _exact_kernels as K

    c = 20 if den < 2**44 else 64 - den.bit_length()
    rng = np.random.default_rng(num % 1000 + den % 1000)
    frac, digits = Fraction(num, den), []
    for _ in range(4):
        frac *= 2**c
        digits.append(int(frac))
        frac -= int(frac)
    firsts = {0, 2**c - 1, *(d + k for d in digits[:1] for k in (-1, 0, 1))}
    for first in sorted(x for x in firsts if 0 <= x < 2**c):
        for seconds in (digits[1:], [int(x) for x in rng.integers(0, 2**c, 3)]):
            chunks = [first, *[min(max(x + int(rng.integers(-1, 2)), 0), 2**c - 1)
                                for x in seconds]]
            chunks += [int(x) for x in rng.integers(0, 2**c, 4)]
            bits = "".join(format(u, f"0{c}b")[::-1] for u in chunks)  # LSB of a chunk first
            words = np.array([int(bits[i:i + 64][::-1], 2) for i in range(0, len(bits) - 63, 64)],
                             dtype=np.uint64)
            want, read = _bern_reference(chunks, num, den, c)
            if read * c > 64 * words.size:
                continue
            got, pos, _cur, left = K._bern(words, 0, 0, 0, num, den)
            assert got == want, (first, chunks[:3])
            assert 64 * pos - left == read * c  # the same number of bits consumed


@pytest.mark.parametrize("block", [1, 3, 7])
def test_stream_refills_never_restart_a_sample(monkeypatch, block):
    """The output depends only on the bit stream, not on how it is cut into blocks: a sampler
    that dropped a partly drawn sample at a refill (biasing the law) would differ here."""
    want_l = _exact.discrete_laplace(3000, 1, 1025, np.random.default_rng(12))
    want_s = _exact.discrete_staircase(3000, 1, 3, 2, 5, np.random.default_rng(12))
    monkeypatch.setattr(_exact, "_BLOCK_WORDS", block)
    assert np.array_equal(_exact.discrete_laplace(3000, 1, 1025, np.random.default_rng(12)),
                          want_l)
    assert np.array_equal(_exact.discrete_staircase(3000, 1, 3, 2, 5,
                                                    np.random.default_rng(12)), want_s)


def _laplace_bin_probs(s: int, t: int, edges: np.ndarray) -> np.ndarray:
    """P(lo <= Y < hi) for each bin, from the closed form of the geometric tail (mpmath)."""
    a = mpmath.exp(-mpmath.mpf(s) / t)
    z = (1 + a) / (1 - a)

    def tail(m: int) -> mpmath.mpf:  # P(Y >= m) = P(Y <= -m) for m >= 1
        return a**m / (1 - a) / z

    def mass(lo: int, hi: int) -> float:
        if lo >= 1:
            return float(tail(lo) - tail(hi))
        if hi <= 0:
            return float(tail(-hi + 1) - tail(-lo + 1))
        return float(1 - tail(hi) - tail(-lo + 1))

    return np.array([mass(int(lo), int(hi)) for lo, hi in itertools.pairwise(edges)])


@pytest.mark.parametrize("s,t", [(1, 1025), (3, 3075), (1, 140001), (3, 210004)])
def test_large_scale_discrete_laplace_fit(s, t):
    """Large scales, binned: the release path's t = 1025 grid units (tables of 1025 and 44
    entries), a non-reduced rate, and 1/γ > 2^16 (e^{−uγ} tested digit by digit); the same
    data must reject a 6 % larger scale (power)."""
    y = _exact.discrete_laplace(N, s, t, np.random.default_rng(41))
    scale = t // s
    edges = np.arange(-4, 4.001, 0.25) * scale
    edges = np.round(edges).astype(np.int64)
    assert abs(_laplace_bin_probs(s, t, np.array([0, 1]))[0] - laplace_pmf(s, t)(0)) < 1e-12
    obs = np.histogram(y, bins=edges)[0].astype(float)

    def pvalue(tt: int) -> float:
        probs = _laplace_bin_probs(s, tt, edges)
        return float(stats.chisquare(obs, probs / probs.sum() * obs.sum()).pvalue)

    assert pvalue(t) > ALPHA
    assert pvalue(t + (6 * t) // 100) < ALPHA


def test_mod32_is_the_remainder():
    """The division-free remainder of the uniform draw equals x % q on the edges of its domain
    (x < 2^32, 1 ≤ q < 2^31) and on random pairs."""
    from privlab.mechanisms.noise import _exact_kernels as K

    rng = np.random.default_rng(11)
    qs = [1, 2, 3, 7, 1025, 2050, 2**16 + 1, 2**30, 2**31 - 1,
          *[int(q) for q in rng.integers(1, 2**31, 40)]]
    for q in qs:
        mq = np.uint64(K._magic(q))
        xs = {0, 1, q - 1, q, q + 1, 2**32 - 1, 2**32 - 2, (2**32 // q) * q - 1,
              *[int(x) for x in rng.integers(0, 2**32, 200)]}
        for x in sorted(v for v in xs if 0 <= v < 2**32):
            assert K._mod32(x, q, mq) == x % q, (x, q)


@pytest.mark.parametrize("q", [2, 8, 1024, 2**20, 2**31, 3, 1025])
def test_uniform_reads_b_bits_for_powers_of_two_and_32_for_others(q):
    """A uniform on q = 2^b values takes exactly b bits (no rejection, no remainder); any
    other q < 2^31 reads 32-bit draws (the accepted one reduced mod q)."""
    from privlab.mechanisms.noise import _exact_kernels as K

    buf = np.random.default_rng(q).integers(0, 2**64 - 1, size=8, dtype=np.uint64,
                                             endpoint=True)
    b = int(q - 1).bit_length()
    lim = K._limit(q)
    mq = np.uint64(K._magic(q)) if lim > 0 else np.uint64(0)
    x, pos, _cur, left = K._uniform(buf, 0, 0, 0, q, b, lim, mq)
    used = 64 * pos - left
    assert 0 <= x < q
    if q & (q - 1) == 0:
        assert (used, x) == (b, int(buf[0]) & (q - 1))
    else:
        assert used % 32 == 0 and used >= 32


# ---- exact thresholds and the slow path -----------------------------------------------------
def _core_probability(p: int, q: int, core: int, width: int) -> mpmath.mpf:
    r = mpmath.exp(-mpmath.mpf(p) / q)
    a, b = 2 * core + 1, 2 * width
    return a * (1 - r) / (a * (1 - r) + b * r)


@pytest.mark.parametrize("gamma", [Fraction(0), Fraction(1, 10), Fraction(1, 2), Fraction(1),
                                   Fraction(2), Fraction(5), Fraction(5242879, 1048576),
                                   Fraction(37, 3)])
@pytest.mark.parametrize("bits", [8, 62, 130])
def test_exp_neg_bounds_bracket_the_value_within_the_width(gamma, bits):
    lo, hi = _thresholds.exp_neg_bounds(gamma, bits)
    with mpmath.workdps(80):
        e = mpmath.exp(-mpmath.mpf(gamma.numerator) / gamma.denominator)
        assert mpmath.mpf(lo.numerator) / lo.denominator <= e
        assert e <= mpmath.mpf(hi.numerator) / hi.denominator
    assert 0 <= hi - lo <= Fraction(1, 2**bits)


@pytest.mark.parametrize("p,q,core,width", [(1, 1, 426, 1025), (1, 10, 503, 1025),
                                            (5, 1, 147, 1025), (1, 1, 0, 3), (3, 2, 7, 3),
                                            (1, 2, 2, 4), (37, 3, 0, 1)])
@pytest.mark.parametrize("w", [1, 3, 8, 62])
def test_staircase_threshold_is_the_floor_of_the_core_probability(p, q, core, width, w):
    with mpmath.workdps(60):
        want = int(mpmath.floor(_core_probability(p, q, core, width) * 2**w))
    assert _thresholds.staircase_threshold(p, q, core, width, w) == want


@pytest.mark.parametrize("num,den", [(1, 1), (1, 2), (1, 3), (1, 10), (2, 1), (5, 1),
                                     (1, 1025), (1, 10250), (5242879, 1074790400), (3, 7),
                                     (1, 2**16), (1, 2**16 + 1), (1, 2**40)])
@pytest.mark.parametrize("w", [3, 62])
def test_geometric_tables_are_the_floors_of_the_powers(num, den, w):
    """m = ⌊1/γ⌋ (at least 1); tu[u] = ⌊e^{−uγ}·2^w⌋ for u < m ≤ 2^16, else one block of
    2^16 entries ⌊e^{−d·2^{16k}·γ}·2^w⌋ per base-2^16 digit position k of u < m;
    tv[j] = ⌊e^{−(j+1)mγ}·2^w⌋ down to its first 0.  Checked with mpmath at 60 digits."""
    m, tu, tv = _thresholds.geometric_tables(num, den, w)
    assert m == max(1, den // num)
    assert tv[-1] == 0 and (tv[:-1] > 0).all()
    with mpmath.workdps(60):
        g = mpmath.mpf(num) / den

        def fl(x):
            return int(mpmath.floor(mpmath.exp(-x) * 2**w))

        if m <= _thresholds.DIGIT:
            assert tu.size == m
            step = max(1, m // 300)  # every entry for small tables, 300 of the largest
            assert [int(tu[u]) for u in range(0, m, step)] == [fl(u * g)
                                                             for u in range(0, m, step)]
        else:
            blocks = -(-int(m - 1).bit_length() // 16)
            assert tu.size == blocks * _thresholds.DIGIT
            for k in range(blocks):
                for d in (0, 1, 2, 777, 40000, _thresholds.DIGIT - 1):
                    assert int(tu[k * _thresholds.DIGIT + d]) == fl(d * 2**(16 * k) * g)
        assert [int(v) for v in tv] == [fl((j + 1) * m * g) for j in range(tv.size)]


def _words(bits: str) -> np.ndarray:
    """The stream whose bits (first bit first) are ``bits`` (padded with zeros to whole words)."""
    bits += "0" * (-len(bits) % 64)
    return np.array([int(bits[i:i + 64][::-1], 2) for i in range(0, len(bits), 64)],
                    dtype=np.uint64)


@pytest.mark.parametrize("depth", [0, 5, 40, 150])
@pytest.mark.parametrize("below", [True, False])
def test_uniform_below_compares_beyond_the_first_w_bits(depth, below):
    """A stream whose uniform W = (lo + V)/2^w agrees with x (the staircase's core
    probability) for at least ``depth`` further bits and then falls just below (or above)
    it: W < x is decided right, however deep the first differing bit lies, and the reading
    stops at the chunk that decides."""
    p, q, core, width, w = 1, 3, 2, 5, 8
    lo = _thresholds.staircase_threshold(p, q, core, width, w)
    with mpmath.workdps(150):
        frac = _core_probability(p, q, core, width) * 2**w - lo  # W < x  <=>  V < frac
        digits = []
        for _ in range(depth + 200):
            frac *= 2
            digits.append(int(frac >= 1))
            frac -= digits[-1]
    # V copies frac's digits up to the first 1 (below) or 0 (above) at or after ``depth``,
    # flips it, and continues with the digit that keeps V closest to frac (1s or 0s).
    k = next(j for j in range(depth, len(digits)) if digits[j] == (1 if below else 0))
    flip, rest = (0, 1) if below else (1, 0)
    v = "".join(map(str, digits[:k])) + str(flip) + str(rest) * 160
    # Stream order: lo's w bits (least significant first), then V in 32-bit chunks, each
    # chunk least significant bit first (the kernel's _bits(…, 32)).
    chunks = [v[j:j + 32] for j in range(0, len(v) - 31, 32)]
    buf = _words(format(lo, f"0{w}b")[::-1] + "".join(c[::-1] for c in chunks))
    stream = _slow.Stream(buf, 0, 0, 0)
    u = _slow.Uniform(stream, w)
    bounds = functools.partial(_thresholds.staircase_core_bounds, p, q, core, width)
    assert u.below(lo, bounds) is below
    assert 64 * stream.pos - stream.left == w + 32 * (k // 32 + 1)
    # x decides alone against any other threshold, reading nothing more
    assert u.below(lo + 1, bounds) and not u.below(lo - 1, bounds)


def test_slow_path_runs_out_of_words():
    """Words that end inside a tied comparison: OutOfWords (the driver fetches more and the
    sample starts again at the same bits)."""
    p, q, core, width, w = 1, 3, 2, 5, 62  # one word: x and 2 bits, the next chunk needs 32
    lo = _thresholds.staircase_threshold(p, q, core, width, w)
    u = _slow.Uniform(_slow.Stream(_words(format(lo, f"0{w}b")[::-1]), 0, 0, 0), w)
    with pytest.raises(_slow.OutOfWords):
        u.below(lo, functools.partial(_thresholds.staircase_core_bounds, p, q, core, width))


def _reference(law: str, n: int, seed: int, w: int, args: tuple[int, ...]) -> list[int]:
    """n samples drawn one by one by the slow path alone (every comparison exact, ties read
    on) from the same word stream as the driver: numpy's full-range uint64 draws continue
    one sequence, so one large call holds the words of the driver's refills."""
    words = np.random.default_rng(seed).integers(0, 2**64 - 1, size=200 * n + 4096,
                                                 dtype=np.uint64, endpoint=True)
    s = _slow.Stream(words, 0, 0, 0)
    if law == "laplace":
        g = Fraction(*args)
        m, tu, tv = _thresholds.geometric_tables(g.numerator, g.denominator, w)
        return [_slow.laplace(s, g, m, w, tu, tv) for _ in range(n)]
    p, q, core, width = args
    m, tu, tv = _thresholds.geometric_tables(p, q, w)
    lo = _thresholds.staircase_threshold(p, q, core, width, w)
    return [_slow.staircase(s, p, q, core, width, lo, w, m, tu, tv) for _ in range(n)]


@pytest.mark.parametrize("w", [1, 2, 5, 62])
@pytest.mark.parametrize("law,args", [("laplace", (1, 3)), ("laplace", (2, 7)),
                                      ("laplace", (1, 1)), ("laplace", (5, 2)),
                                      ("staircase", (1, 2, 2, 4)), ("staircase", (3, 2, 7, 3)),
                                      ("staircase", (1, 1, 0, 3)),
                                      ("laplace", (1, 70001)), ("staircase", (1, 70001, 2, 5))])
def test_kernel_with_slow_ties_equals_the_slow_path_alone(law, args, w):
    """The compiled sampler (with the slow path on its ties) and the slow path alone give the
    same samples from the same bits: the kernel makes each comparison as the exact one would,
    and leaves exactly the tied ones.  At w = 1–5 many samples tie."""
    n = 400 if w < 62 else 3000
    gen = np.random.default_rng(31)
    if law == "laplace":
        got = _exact.discrete_laplace(n, *args, gen, decision_bits=w)
    else:
        got = _exact.discrete_staircase(n, *args, gen, decision_bits=w)
    assert got.tolist() == _reference(law, n, 31, w, args)


@pytest.mark.parametrize("s,t", [(1, 3), (5, 2), (1, 1)])
@pytest.mark.parametrize("w", [1, 2, 4])
def test_discrete_laplace_fit_with_short_comparisons(s, t, w):
    """With w = 1–4 bits per comparison, many samples take the slow exact path: the law must
    not move (and the data must reject a neighbouring law: power)."""
    y = _exact.discrete_laplace(N // 4, s, t, np.random.default_rng(w + s + t), decision_bits=w)
    assert chisq_pvalue(y, laplace_pmf(s, t), -24, 24) > ALPHA
    assert chisq_pvalue(y, laplace_pmf(s, t + 1), -24, 24) < ALPHA


@pytest.mark.parametrize("p,q,core,width", [(1, 2, 2, 4), (1, 1, 0, 3), (3, 2, 7, 3)])
@pytest.mark.parametrize("w", [1, 2, 4])
def test_discrete_staircase_fit_with_short_decisions(p, q, core, width, w):
    """With w = 1–4 decision bits, 1/16 to 1/2 of the comparisons take the slow exact path:
    the law must not move (and the data must reject a neighbouring law: power)."""
    y = _exact.discrete_staircase(N // 4, p, q, core, width, np.random.default_rng(w + p),
                                  decision_bits=w)
    half = core + width * max(3, int(6 * q / p))
    assert chisq_pvalue(y, staircase_pmf(p, q, core, width), -half, half) > ALPHA
    assert chisq_pvalue(y, staircase_pmf(p, q, core + 1, width), -half, half) < ALPHA


@pytest.mark.parametrize("block", [1, 2, 5])
def test_short_decisions_never_restart_a_sample(monkeypatch, block):
    """Slow samples that run out of words mid-way give the same output for any refill size."""
    want_s = _exact.discrete_staircase(2000, 1, 3, 2, 5, np.random.default_rng(5),
                                       decision_bits=2)
    want_l = _exact.discrete_laplace(2000, 1, 3, np.random.default_rng(5), decision_bits=2)
    monkeypatch.setattr(_exact, "_BLOCK_WORDS", block)
    assert np.array_equal(_exact.discrete_staircase(2000, 1, 3, 2, 5,
                                                    np.random.default_rng(5),
                                                    decision_bits=2), want_s)
    assert np.array_equal(_exact.discrete_laplace(2000, 1, 3, np.random.default_rng(5),
                                                  decision_bits=2), want_l)


def test_decision_bits_guard():
    with pytest.raises(ValueError, match="decision_bits=63"):
        _exact.discrete_staircase(3, 1, 1, 0, 1, np.random.default_rng(0), decision_bits=63)
    with pytest.raises(ValueError, match="decision_bits=0"):
        _exact.discrete_laplace(3, 1, 1, np.random.default_rng(0), decision_bits=0)
