"""Safe release mode (privlab.mechanisms.noise.safe): grid, parameters, exact DP of the discrete
law,
goodness of fit of the released noise, determinism and bad input.

Where the numbers come from: privacy losses are exact Fractions computed by
``check_discrete_dp`` and, independently, by a brute-force loop in this file over the weight
formula of the brief; expected frequencies come from ``DiscreteNoise.pmf`` (mpmath), whose
normalisation is itself checked against a direct sum.
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from privlab.errors import InvalidParameter
from privlab.mechanisms.noise.controls import (
    HalfScaleLaplace,
    HalfWidthStaircase,
    WrongRatioStaircase,
)
from privlab.mechanisms.noise.laplace import Laplace
from privlab.mechanisms.noise.safe import (
    MAX_INPUT_INDEX,
    DiscreteNoise,
    check_discrete_dp,
    check_safe_dp,
    discrete_pmf,
    grid_index,
    safe_parameters,
    safe_release,
)
from privlab.mechanisms.noise.staircase import Staircase
from privlab.types import Method, jsonable

ALPHA = 1e-3
HONEST = [
    Laplace(epsilon=0.1), Laplace(epsilon=1.0), Laplace(epsilon=2.3, sensitivity=3.0),
    Staircase(epsilon=0.1, d=0.5), Staircase(epsilon=1.0, d=0.0), Staircase(epsilon=1.0, d=1.0),
    Staircase(epsilon=0.7, sensitivity=5.0, d=1.7),
]


def is_power_of_two(x: float) -> bool:
    return x > 0 and math.frexp(x)[0] == 0.5


# ---- grid and integer sensitivity ---------------------------------------------------------
@pytest.mark.parametrize("delta", [1.0, 3.0, 0.01, 1234.5, 1e-6])
def test_default_granularity_is_largest_power_of_two_below_delta_over_1000(delta):
    lam = safe_parameters(Laplace(epsilon=1.0, sensitivity=delta))["granularity"]
    assert is_power_of_two(lam)
    assert Fraction(lam) <= Fraction(delta) / 1000 < 2 * Fraction(lam)


@settings(max_examples=300, deadline=None)
@given(x=st.floats(-1e6, 1e6), u=st.floats(-1.0, 1.0), k=st.integers(-4, 6),
       delta=st.sampled_from([1.0, 3.0, 0.75, 10.0]))
def test_rounded_neighbours_differ_by_at_most_k(x, u, k, delta):
    lam = 2.0**-k
    x2 = x + u * delta
    if abs(Fraction(x2) - Fraction(x)) > Fraction(delta):  # float rounding of x + u·Δ
        return
    kk = math.floor(Fraction(delta) / Fraction(lam)) + 1
    j1, j2 = grid_index(x, lam), grid_index(x2, lam)
    assert abs(int(j1) - int(j2)) <= kk


def test_k_bound_is_attained_by_ties():
    """Δ/Λ = 3 (odd): x = 1.5 → 2 and x' = −1.5 → −2 differ by 4 = K grid units."""
    assert int(grid_index(1.5, 1.0)) - int(grid_index(-1.5, 1.0)) == 4
    assert discrete_pmf(Laplace(epsilon=1.0, sensitivity=3.0), 1.0).K == 4


def test_grid_index_is_round_half_even_of_the_exact_quotient():
    x = np.array([0.5, 1.5, 2.5, -0.5, -2.5, 0.75, 2.0**-30])
    assert grid_index(x, 1.0).tolist() == [0, 2, 2, 0, -2, 1, 0]
    assert grid_index(x, 2.0**-31).tolist()[-1] == 2


# ---- rational ε' -------------------------------------------------------------------------
@settings(max_examples=200, deadline=None)
@given(eps=st.floats(2.0**-19, 50.0), delta=st.floats(1e-3, 1e3))
def test_epsilon_prime_never_exceeds_epsilon(eps, delta):
    for mech in (Laplace(epsilon=eps, sensitivity=delta),
                 Staircase(epsilon=eps, sensitivity=delta, d=delta / 3)):
        ep = discrete_pmf(mech).epsilon_prime
        assert 0 < ep <= Fraction(eps)
        assert ep.denominator <= 2**20
        assert Fraction(eps) - ep <= Fraction(1, 2**20)


@pytest.mark.parametrize("eps,delta", [(0.1674, 1.0), (0.701, 3.0), (2.138, 2.0)])
def test_float_rounding_of_the_scale_is_not_mistaken_for_a_larger_rate(eps, delta):
    mech = Laplace(epsilon=eps, sensitivity=delta)
    rate = Fraction(delta) / Fraction(mech.scale)  # computed: the float scale is a bit small
    assert rate > Fraction(eps)
    assert discrete_pmf(mech).epsilon_prime <= Fraction(eps)
    assert check_safe_dp(mech, 2.0**-3).holds


def test_epsilon_prime_of_round_values():
    assert discrete_pmf(Laplace(epsilon=0.1)).epsilon_prime == Fraction(1, 10)
    assert discrete_pmf(Staircase(epsilon=1.0, d=0.5)).epsilon_prime == 1


# ---- exact DP of the discrete law -----------------------------------------------------------
@pytest.mark.parametrize("mech", HONEST, ids=lambda m: f"{m.name}-{m.epsilon}")
@pytest.mark.parametrize("granularity", [None, 2.0**-3, 4.0])
def test_honest_mechanisms_are_exactly_private(mech, granularity):
    res = check_safe_dp(mech, granularity)
    assert res.holds and res.decided and res.method is Method.EXHAUSTIVE
    noise = discrete_pmf(mech, granularity)
    # the worst loss is exactly ε' (a shift by K realises it), and ε' ≤ ε
    assert res.value == noise.epsilon_prime <= Fraction(mech.epsilon)
    if noise.kind == "staircase":
        assert noise.W == noise.K  # width Δ is rounded up exactly like the sensitivity


@pytest.mark.parametrize("mech,factor", [
    (HalfScaleLaplace(epsilon=1.0), 2), (WrongRatioStaircase(epsilon=1.0, d=0.3), Fraction(3, 2)),
    (HalfWidthStaircase(epsilon=1.0, d=0.3), 2), (HalfWidthStaircase(epsilon=0.5, d=0.9), 2),
])
def test_broken_controls_stay_broken_in_safe_mode(mech, factor):
    res = check_safe_dp(mech, 2.0**-4)
    assert not res.holds and res.decided
    assert res.value == factor * Fraction(mech.epsilon)
    ce = res.counterexample
    noise = discrete_pmf(mech, 2.0**-4)
    assert abs(ce["shift"]) <= noise.K
    # recompute the witness from the public exact log-weights
    assert noise.log_weight(ce["y"]) - noise.log_weight(ce["y"] + ce["shift"]) == res.value


def brute_force_loss(noise: DiscreteNoise, radius: int) -> Fraction:
    """Worst log w(y) − log w(y+δ), |δ| ≤ K, |y| ≤ radius, from the brief's weight formula."""
    def level(y: int) -> int:
        a = abs(y)
        if noise.kind == "laplace":
            return a
        if a <= noise.D:
            return 0
        i = 0
        while a > noise.D + (i + 1) * noise.W:
            i += 1
        return i + 1

    worst = max(level(y + d) - level(y) for y in range(-radius, radius + 1)
                for d in range(-noise.K, noise.K + 1))
    unit = noise.epsilon_prime / noise.K if noise.kind == "laplace" else noise.epsilon_prime
    return worst * unit


@pytest.mark.parametrize("kind,d_units,w_units", [
    ("staircase", 3, 5), ("staircase", 0, 5), ("staircase", 4, 4),   # W = K − 1: broken
    ("staircase", 9, 3), ("staircase", 2, 7), ("laplace", 0, 0),
])
def test_window_is_enough(kind, d_units, w_units):
    """The checker's window gives the same worst loss as a window three periods wider."""
    noise = DiscreteNoise(kind=kind, mechanism="t", epsilon=1.0, epsilon_prime=Fraction(1, 3),
                          granularity=1.0, K=5, D=d_units, W=w_units)
    res = check_discrete_dp(noise)
    wide = noise.D + noise.K + 4 * max(noise.W, 1) + 7
    assert res.value == brute_force_loss(noise, wide)
    # loss ε' exactly when W ≥ K (or Laplace); otherwise more (here claimed ε = 1 ≥ 2ε')
    assert (res.value == noise.epsilon_prime) == (kind == "laplace" or w_units >= 5)
    assert res.evidence["worst_log_ratio_le_epsilon_prime"] == (res.value <= noise.epsilon_prime)


def test_rounding_width_down_would_break_privacy():
    """For Δ/Λ an integer, ⌊width/Λ⌋ = K − 1: the loss doubles (so W must round up)."""
    good = discrete_pmf(Staircase(epsilon=1.0, d=0.5), 2.0**-3)
    bad = DiscreteNoise(kind="staircase", mechanism="floor-width", epsilon=1.0,
                        epsilon_prime=good.epsilon_prime, granularity=good.granularity,
                        K=good.K, D=good.D, W=good.K - 1)
    res = check_discrete_dp(bad)
    assert not res.holds and res.value == 2 * good.epsilon_prime


def test_undecidable_window_is_reported_not_guessed():
    res = check_discrete_dp(discrete_pmf(Laplace(epsilon=1.0)), max_pairs=10)
    assert not res.decided and not res.holds


# ---- the exact pmf ------------------------------------------------------------------------
@pytest.mark.parametrize("mech", [Laplace(epsilon=1.0), Staircase(epsilon=1.0, d=0.4),
                                  HalfWidthStaircase(epsilon=1.0, d=0.9)], ids=str)
def test_pmf_sums_to_one(mech):
    noise = discrete_pmf(mech, 2.0**-2)
    with mpmath.workdps(40):
        total = mpmath.fsum(noise.pmf(y, 40) for y in range(-700, 701))
    assert abs(total - 1) < mpmath.mpf(10) ** -30


# ---- released noise against the exact pmf ---------------------------------------------------
def chisq_pvalue(samples, noise: DiscreteNoise, half: int) -> float:
    ys = np.arange(-half, half + 1)
    p = noise.pmf_array(ys)
    probs = np.concatenate([[(1 - p.sum()) / 2], p, [(1 - p.sum()) / 2]])  # symmetric tails
    obs = np.concatenate([[np.sum(samples < -half)], [np.sum(samples == y) for y in ys],
                          [np.sum(samples > half)]]).astype(float)
    keep = probs * samples.size >= 5
    f_exp = probs[keep] / probs[keep].sum() * obs[keep].sum()
    return float(stats.chisquare(obs[keep], f_exp).pvalue)


@pytest.mark.parametrize("mech,lam,half", [
    (Laplace(epsilon=1.0), 2.0**-2, 30),                     # K = 5, scale 5
    (Staircase(epsilon=1.0, d=0.5), 2.0**-2, 30),            # K = W = 5, D = 2
    (Staircase(epsilon=0.5, d=1.0), 2.0**-1, 24),            # D = 2, W = 3: 2D+1 ≤ 2W
    (HalfWidthStaircase(epsilon=1.0, d=0.9), 2.0**-3, 60),   # D = 7, W = 5: 2D+1 > 2W
])
def test_released_noise_fits_the_exact_pmf(mech, lam, half):
    n = 200_000
    out = safe_release(mech, np.zeros(n), rng=123, granularity=lam)
    noise = discrete_pmf(mech, lam)
    y = out / lam
    assert np.array_equal(y, np.round(y))
    y = y.astype(np.int64)
    assert chisq_pvalue(y, noise, half) > ALPHA
    # power: the same samples reject the law with a core one cell wider / a faster decay
    wrong = DiscreteNoise(kind=noise.kind, mechanism="wrong", epsilon=noise.epsilon,
                          epsilon_prime=noise.epsilon_prime * Fraction(11, 10),
                          granularity=lam, K=noise.K, D=noise.D, W=noise.W)
    assert chisq_pvalue(y, wrong, half) < ALPHA


# ---- outputs, determinism, data independence ----------------------------------------------
@settings(max_examples=50, deadline=None)
@given(st.lists(st.floats(-1e6, 1e6), min_size=1, max_size=20),
       st.sampled_from(HONEST), st.integers(0, 2**32))
def test_outputs_lie_on_the_grid(values, mech, seed):
    lam = discrete_pmf(mech).granularity
    out = mech.release(np.array(values), rng=seed, mode="safe")
    q = out / lam
    assert out.shape == (len(values),)
    assert np.array_equal(q, np.round(q))


def test_same_seed_same_output_and_noise_does_not_depend_on_data():
    mech = Staircase(epsilon=0.5, d=0.3)
    lam = discrete_pmf(mech).granularity
    x1 = np.linspace(-5, 5, 1000)
    x2 = np.full(1000, 123.456)
    a, b = safe_release(mech, x1, rng=7), safe_release(mech, x1, rng=7)
    assert np.array_equal(a, b)
    assert not np.array_equal(a, safe_release(mech, x1, rng=8))
    n1 = a / lam - grid_index(x1, lam)
    n2 = safe_release(mech, x2, rng=7) / lam - grid_index(x2, lam)
    assert np.array_equal(n1, n2)


def test_release_keeps_shape_and_fast_path():
    mech = Laplace(epsilon=1.0)
    assert mech.release(np.zeros((3, 2)), rng=0, mode="safe").shape == (3, 2)
    assert np.shape(mech.release(2.5, rng=0, mode="safe")) == ()
    fast = mech.release(np.zeros(5), rng=0)
    assert np.array_equal(fast, mech.sample(5, rng=0))


def test_parameters_are_reportable():
    p = safe_parameters(Staircase(epsilon=1.0, d=0.4))
    assert {"epsilon_prime", "K", "D", "W", "granularity", "core_probability"} <= set(p)
    j = jsonable(p)
    assert j["epsilon_prime"] == "1" and j["K"] == 1025
    assert check_safe_dp(Laplace(epsilon=1.0)).to_dict()["holds"] is True


# ---- bad input ----------------------------------------------------------------------------
@pytest.mark.parametrize("g", [0.3, 0.0, -0.5, 3.0, math.nan, math.inf, True, "1"])
def test_granularity_must_be_a_power_of_two(g):
    with pytest.raises(InvalidParameter, match=r"granularity=.* must be a power of two > 0"):
        safe_release(Laplace(epsilon=1.0), np.zeros(2), rng=0, granularity=g)


@pytest.mark.parametrize("g", [2.0**-1074, 2.0**1000])
def test_granularity_range(g):
    with pytest.raises(InvalidParameter, match=r"granularity=.* must lie in"):
        safe_parameters(Laplace(epsilon=1.0), g)


def test_granularity_too_fine_for_the_sensitivity():
    with pytest.raises(InvalidParameter, match=r"granularity=.* too fine for sensitivity=1\.0"):
        safe_parameters(Laplace(epsilon=1.0), 2.0**-40)


@pytest.mark.parametrize("v", [math.nan, math.inf, -math.inf])
def test_value_must_be_finite(v):
    mech = Staircase(epsilon=1.0, d=0.5)
    with pytest.raises(InvalidParameter, match="value"):
        mech.release(np.array([0.0, v]), rng=0, mode="safe")
    with pytest.raises(InvalidParameter, match=f"value={v!r} must be finite"):
        safe_release(mech, np.array([0.0, v]), rng=0)


@pytest.mark.parametrize("v", [1e300, -2.0**43, 5e15])
def test_huge_value_is_rejected(v):
    with pytest.raises(InvalidParameter, match=r"value=.* is too large for granularity"):
        Laplace(epsilon=1.0).release(np.array([v]), rng=0, mode="safe")


def test_tiny_epsilon_and_unknown_mechanism():
    with pytest.raises(InvalidParameter, match=r"epsilon=1e-07 gives a rate"):
        safe_parameters(Laplace(epsilon=1e-7))
    with pytest.raises(InvalidParameter, match="mech=object is neither"):
        safe_parameters(object())


# ---- the attack safe mode exists for ------------------------------------------------------
def outputs_in_s(o: np.ndarray) -> np.ndarray:
    """S = {|o| < 1 and o not a multiple of 2^-53}.  From x = 1, fl(1 + Y) with |fl(1 + Y)| < 1
    is always a multiple of 2^-53 (Y ∈ (−2, 0); the exact sum has no bit below 2^-53 except
    when Y ∈ (−½, 0), where it is rounded to the ulp 2^-53 of [½, 1)); so P(S | x = 1) = 0."""
    scaled = np.ldexp(o, 53)
    return (np.abs(o) < 1) & (scaled != np.round(scaled))


@pytest.mark.parametrize("mech", [Laplace(epsilon=1.0), Staircase(epsilon=1.0, d=0.4)], ids=str)
def test_fast_mode_leaks_low_order_bits_and_safe_mode_does_not(mech):
    """Mironov 2012 in miniature: the event S separates the neighbours x = 0 and x = 1 (Δ = 1)
    with likelihood ratio ∞ in fast mode.  In safe mode every output is a multiple of Λ = 2^-10,
    so S is impossible from either input."""
    n = 20_000
    fast0 = outputs_in_s(mech.release(np.zeros(n), rng=1))
    fast1 = outputs_in_s(mech.release(np.ones(n), rng=2))
    assert fast0.mean() > 0.1 and not fast1.any()  # P(S|0) > 0 = P(S|1): infinite loss
    for x in (0.0, 1.0):
        assert not outputs_in_s(mech.release(np.full(n, x), rng=3, mode="safe")).any()


@pytest.mark.parametrize("kw,needle", [({"kind": "gauss"}, "kind='gauss'"), ({"K": 0}, "K=0"),
                                       ({"W": 0}, "W=0"), ({"D": -1}, "D=-1"),
                                       ({"epsilon_prime": Fraction(0)}, "epsilon_prime=")])
def test_discrete_noise_validates_its_fields(kw, needle):
    base = {"kind": "staircase", "mechanism": "t", "epsilon": 1.0, "epsilon_prime": Fraction(1),
            "granularity": 1.0, "K": 2, "D": 1, "W": 2}
    with pytest.raises(InvalidParameter, match=needle):
        DiscreteNoise(**{**base, **kw})


def _grid_index_before(value, granularity):
    """grid_index as written before the max/min screening (the oracle of the next test)."""
    from privlab.mechanisms.noise.safe import _granularity

    lam = _granularity(1.0, granularity)
    x = np.asarray(value, dtype=float)
    bad = ~np.isfinite(x)
    if np.any(bad):
        raise InvalidParameter(f"value={float(x[bad].flat[0])!r} must be finite")
    with np.errstate(over="ignore"):
        q = x / lam
    big = np.abs(q) >= MAX_INPUT_INDEX
    if np.any(big):
        worst = float(x[big].flat[0])
        raise InvalidParameter(f"value={worst!r} is too large for granularity={lam!r}: "
                               f"|value/granularity| must be < 2^52")
    return np.rint(q).astype(np.int64)


def _outcome(f, *args):
    try:
        r = f(*args)
    except InvalidParameter as exc:
        return "error", str(exc)
    return type(r).__name__, np.shape(r), np.asarray(r).tobytes()


@pytest.mark.parametrize("granularity", [2.0**-10, 1.0, 2.0**-40, 2.0**-1022, 2.0**970])
def test_grid_index_screening_equals_the_elementwise_checks(granularity):
    """One max and one min decide the common case (value·(1/Λ), the same floats as value/Λ);
    every outcome — result bytes and type, or the error naming the first bad value — is that
    of the element-wise code.  Mutants caught: screening on max only (a large negative value
    passes), dividing by 2Λ, ``<=`` for ``<`` at the 2^52 boundary, a 0-d result for a scalar."""
    rng = np.random.default_rng(4)
    edge = MAX_INPUT_INDEX * granularity
    values = [0.0, -0.0, 1.5, -2.5, 3.7, np.array(2.5), [0.5, -0.5, 1.5], np.zeros(0),
              np.zeros((0, 2)), rng.normal(size=(9, 4)) * 1e3, 5e-324, -1e-300,
              edge, -edge, np.nextafter(edge, 0), -np.nextafter(edge, 0), [1.0, -edge],
              [np.nan, 1e300], [1e300, np.nan], [-np.inf, 2.0], np.inf, np.nan, 1e308,
              [1.0, 2.0, -1e308], rng.normal(size=100) * edge]
    for v in values:
        assert _outcome(grid_index, v, granularity) == \
            _outcome(_grid_index_before, v, granularity), v


def test_safe_release_bound_checks_and_bytes_unchanged():
    """The output bound is checked by max |J| and max |j + J| (no int64 overflow at −2^63) and
    the release is (j + J)·Λ: the same bytes as the former element-wise form, and the same
    refusal when the noisy index reaches 2^53."""
    mech = Laplace(epsilon=1.0, sensitivity=1.0)
    x = np.random.default_rng(2).normal(size=500) * 100
    noise = discrete_pmf(mech, 2.0**-10)
    j = grid_index(x, noise.granularity)
    want = (j + noise.sample(j.shape, rng=21)).astype(np.float64) * noise.granularity
    assert safe_release(mech, x, rng=21, granularity=2.0**-10).tobytes() == want.tobytes()
    assert isinstance(safe_release(mech, 1.0, rng=3), np.floating)


def test_safe_release_refuses_noisy_indices_at_the_bound(monkeypatch):
    """Refused iff some |J| or some |j + J| reaches the bound (here lowered from 2^53 so that
    both cases occur): the decision of the former element-wise test on the same draws.
    Mutants caught: checking only J, only j + J, or max (not max |·|) of either."""
    import privlab.mechanisms.noise.safe as safe_mod

    mech = Laplace(epsilon=1.0, sensitivity=1.0)
    noise = discrete_pmf(mech, 1.0)
    for bound in (3, 4, 6, 40):
        monkeypatch.setattr(safe_mod, "MAX_OUTPUT_INDEX", bound)
        for x in ([0.0] * 6, [2.0, 1.0], [-3.0, 0.0], [5.0], [-35.0, 35.0], [0.0], []):
            for seed in range(8):
                j = np.rint(np.asarray(x, dtype=float)).astype(np.int64)
                big = noise.sample(j.shape, rng=seed)
                refuse = bool(np.any(np.abs(big) >= bound) or np.any(np.abs(j + big) >= bound))
                try:
                    safe_release(mech, x, rng=seed, granularity=1.0)
                    refused = False
                except InvalidParameter as exc:
                    refused = "exceeds 2^53" in str(exc)
                assert refused == refuse, (bound, x, seed)
