"""privlab.verify.check_pure_dp — exact decision of inequality (4.2), thesis §4.2.

Expected values are derived independently of the checker (from the distributions' scale/rate
attributes, or by hand for the test doubles below — derivations in the docstrings); the checker
computes them from the piecewise log-linear structure.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import attrs
import mpmath
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from privlab.errors import InvalidParameter
from privlab.mechanisms.noise._base import LogPiece, Tail
from privlab.mechanisms.noise.controls import (
    HalfScaleLaplace,
    HalfWidthStaircase,
    WrongRatioStaircase,
)
from privlab.mechanisms.noise.laplace import Laplace
from privlab.mechanisms.noise.staircase import Staircase
from privlab.types import Method, Status, status_of
from privlab.verify import check_pure_dp

EPS = st.floats(0.05, 5.0)
SENS = st.floats(0.1, 10.0)
FRAC = st.one_of(st.just(0.0), st.just(1.0), st.floats(0.0, 1.0))
FAST = settings(max_examples=30, deadline=None)


@attrs.frozen
class Periodic:
    """Test double: for t ≥ 0, log f(t) = level + slope·(t − kP − a) + k·log_ratio on
    [kP + a, kP + b) for each (a, b, level, slope) in ``cycle``; for t < 0 the same with
    ``left_cycle``/``left_log_ratio`` applied to −t.  Numbers may be strings (parsed at the
    current mpmath precision); log ratios may be zero-argument callables (evaluated there).
    Tail(0, P) by construction."""

    epsilon: Any
    sensitivity: Any = 1.0
    period: Any = 1.0
    cycle: tuple[Any, ...] = ((0, 1, 0, 0),)
    log_ratio: Any = -1
    left_cycle: tuple[Any, ...] | None = None
    left_log_ratio: Any = None

    def _half(self, cycle: tuple[Any, ...], lr: Any, hi: Any) -> list[tuple[Any, ...]]:
        lr = lr() if callable(lr) else lr
        p, lr, out, k = mpmath.mpf(self.period), mpmath.mpf(lr), [], 0
        while k * p < hi:
            for a, b, lev, s in cycle:
                lo_, hi_, s = k * p + mpmath.mpf(a), k * p + mpmath.mpf(b), mpmath.mpf(s)
                out.append((lo_, hi_, mpmath.mpf(lev) - s * lo_ + k * lr, s))
            k += 1
        return out

    def log_pieces(self, lo: Any, hi: Any) -> list[LogPiece]:
        lo, hi = mpmath.mpf(lo), mpmath.mpf(hi)
        left = self.left_cycle if self.left_cycle is not None else self.cycle
        llr = self.left_log_ratio if self.left_log_ratio is not None else self.log_ratio
        out = [LogPiece(max(a, lo), min(b, hi), c, s)
               for a, b, c, s in self._half(self.cycle, self.log_ratio, hi) if b > lo and a < hi]
        out += [LogPiece(max(-b, lo), min(-a, hi), c, -s)
                for a, b, c, s in self._half(left, llr, -lo) if -a > lo and -b < hi]
        return sorted(out, key=lambda p: p.lo)

    def tail(self) -> Tail:
        return Tail(start=0.0, period=float(self.period))

    def log_density(self, x: Any) -> Any:
        """Own evaluation (not through the checker): log f(x), −inf off the support."""
        x = mpmath.mpf(x)
        for p in self.log_pieces(x - 1, x + 1):
            if p.lo < x < p.hi:
                return p.at(x)
        return mpmath.mpf("-inf")


def _check_witness_by_logpdf(dist: Any, res: Any, eps: float, delta: float) -> None:
    """The counterexample is re-evaluated with the distribution's own float logpdf."""
    cex = res.counterexample
    assert abs(cex["x"] - cex["y"]) <= delta
    lr = float(dist.logpdf(cex["x"]) - dist.logpdf(cex["y"]))
    assert lr > eps
    assert math.isclose(lr, cex["log_ratio"], rel_tol=1e-9)


# ---- the correct families pass, with sup exactly ε ---------------------------------------------
@FAST
@given(eps=EPS, delta=SENS)
def test_laplace_is_dp_with_tight_ratio(eps, delta):
    y = Laplace(epsilon=eps, sensitivity=delta)
    res = check_pure_dp(y)
    assert res.holds and res.decided and res.method is Method.EXACT
    # independent: log f is (1/b)-Lipschitz and the bound is attained, so sup = Δ/b
    assert math.isclose(res.value, delta / y.scale, rel_tol=1e-12)
    assert res.counterexample is None
    assert status_of(res) is Status.VERIFIED


@FAST
@given(eps=EPS, delta=SENS, frac=FRAC)
def test_staircase_is_dp_with_tight_ratio(eps, delta, frac):
    y = Staircase(epsilon=eps, sensitivity=delta, d=frac * delta)
    res = check_pure_dp(y)
    assert res.holds and res.decided
    # independent: adjacent levels differ by the factor e^{-ε}; a shift of at most Δ crosses
    # one step boundary between continuity points, so sup = ε
    assert math.isclose(res.value, eps, rel_tol=1e-12)
    assert res.evidence["equal_to_epsilon_within_tolerance"]
    assert res.evidence["tie_confirmation"]["dps_runs"] == [50, 100]


def test_staircase_core_and_second_step_are_not_paired():
    """Core [−d, d] and (d + Δ, d + 2Δ] are at closed distance Δ only: no e^{2ε} violation."""
    y = Staircase(epsilon=1.0, sensitivity=1.0, d=0.4)
    res = check_pure_dp(y)
    assert res.holds
    assert res.evidence["pairs_at_distance_exactly_delta_skipped"] > 0
    assert math.isclose(res.value, 1.0, rel_tol=1e-12)


# ---- the broken controls fail with the expected loss ------------------------------------------
@FAST
@given(eps=EPS, delta=SENS)
def test_half_scale_laplace_fails_with_twice_epsilon(eps, delta):
    y = HalfScaleLaplace(epsilon=eps, sensitivity=delta)
    res = check_pure_dp(y)
    assert not res.holds and res.decided
    expected = delta / y.scale  # from the scale attribute: Δ/(Δ/(2ε)) = 2ε
    assert math.isclose(expected, 2 * eps, rel_tol=1e-12)
    assert math.isclose(res.value, expected, rel_tol=1e-12)
    assert status_of(res) is Status.REFUTED
    _check_witness_by_logpdf(y, res, eps, delta)


@FAST
@given(eps=EPS, delta=SENS, frac=FRAC)
def test_wrong_ratio_staircase_fails_with_its_rate(eps, delta, frac):
    y = WrongRatioStaircase(epsilon=eps, sensitivity=delta, d=frac * delta)
    res = check_pure_dp(y)
    assert not res.holds
    expected = -math.log(y.r)  # log of the step ratio (1.5ε): one boundary per shift
    assert math.isclose(res.value, expected, rel_tol=1e-12)
    assert math.isclose(res.value, 1.5 * eps, rel_tol=1e-12)
    _check_witness_by_logpdf(y, res, eps, delta)


@FAST
@given(eps=EPS, delta=SENS, frac=FRAC)
def test_half_width_staircase_fails_with_two_steps(eps, delta, frac):
    y = HalfWidthStaircase(epsilon=eps, sensitivity=delta, d=frac * delta)
    res = check_pure_dp(y)
    assert not res.holds
    steps = math.ceil(y.sensitivity / y.width)  # boundaries an open shift ≤ Δ can cross
    assert steps == 2
    assert math.isclose(res.value, steps * y.rate, rel_tol=1e-12)
    _check_witness_by_logpdf(y, res, eps, delta)


# ---- other claims: epsilon / sensitivity overrides --------------------------------------------
@FAST
@given(eps=EPS, delta=SENS, frac=FRAC, shrink=st.floats(0.1, 0.99))
def test_staircase_fails_at_a_smaller_epsilon(eps, delta, frac, shrink):
    y = Staircase(epsilon=eps, sensitivity=delta, d=frac * delta)
    res = check_pure_dp(y, epsilon=shrink * eps)
    assert not res.holds and res.decided
    assert math.isclose(res.value, eps, rel_tol=1e-12)
    assert res.counterexample["epsilon"] == pytest.approx(shrink * eps)
    _check_witness_by_logpdf(y, res, shrink * eps, delta)
    assert check_pure_dp(y, epsilon=eps / shrink).holds


def test_laplace_with_larger_sensitivity():
    y = Laplace(epsilon=1.0, sensitivity=1.0)
    res = check_pure_dp(y, sensitivity=2.5)
    assert not res.holds
    assert math.isclose(res.value, 2.5 / y.scale, rel_tol=1e-12)
    assert res.counterexample["|x-y|"] <= 2.5


# ---- test doubles: sawtooth, asymmetric Laplace, zero-density gap, broken tail ----------------
@FAST
@given(eps=EPS, slope_frac=st.floats(0.0, 2.0))
def test_sawtooth(eps, slope_frac):
    """f ∝ e^{−σ(t − kP) − kε} on [kP, (k+1)P), symmetric, Δ = P = 1.  By hand: a pair in one
    tooth gives σ·(x − y) ≤ σP; a pair in neighbouring teeth ε − σ(P − t) ≤ ε or σP − ε; a pair
    across 0 at most σP.  So sup = max(ε, σP)."""
    sigma = slope_frac * eps
    y = Periodic(epsilon=eps, cycle=((0, 1, 0, -sigma),), log_ratio=-eps)
    res = check_pure_dp(y)
    expected = max(eps, sigma)
    assert math.isclose(res.value, expected, rel_tol=1e-12, abs_tol=1e-14)
    assert res.holds == (sigma <= eps)
    if not res.holds:
        cex = res.counterexample
        lr = y.log_density(cex["x_exact"]) - y.log_density(cex["y_exact"])
        assert lr > eps and abs(mpmath.mpf(cex["x_exact"]) - mpmath.mpf(cex["y_exact"])) <= 1


@FAST
@given(b_plus=st.floats(0.3, 3.0), b_minus=st.floats(0.3, 3.0), jump=st.floats(-1.0, 1.0),
       delta=st.floats(0.2, 2.0))
def test_asymmetric_two_sided_exponential(b_plus, b_minus, jump, delta):
    """f = e^{−t/b₊} (t > 0), e^{J − |t|/b₋} (t < 0).  By hand: same side Δ/b; across 0 with
    x = −u, y = v, u + v ≤ Δ: J − u/b₋ + v/b₊ ≤ J + Δ/b₊, and −J + Δ/b₋ the other way.
    The double's slopes are the floats −1/b (exact rationals), so the expectation is computed
    in exact rational arithmetic from those floats."""
    s_plus, s_minus = -1 / b_plus, -1 / b_minus
    y = Periodic(epsilon=1.0, sensitivity=delta, period=delta,
                 cycle=((0, delta, 0, s_plus),),
                 log_ratio=lambda: mpmath.mpf(delta) * s_plus,  # continuous at kΔ
                 left_cycle=((0, delta, jump, s_minus),),
                 left_log_ratio=lambda: mpmath.mpf(delta) * s_minus)
    dl, sp, sm, j = (Fraction(v) for v in (delta, s_plus, s_minus, jump))
    expected = max(-dl * sp, -dl * sm, j - dl * sp, -j - dl * sm)
    assume(expected == 1 or abs(expected - 1) > Fraction(1, 10**30))
    res = check_pure_dp(y)
    assert math.isclose(res.value, float(expected), rel_tol=1e-12)
    assert res.holds == (expected <= 1)


def test_zero_density_gap_is_an_infinite_violation():
    y = Periodic(epsilon=1.0, cycle=((0, 0.5, 0, 0),), log_ratio=-1)
    res = check_pure_dp(y)
    assert not res.holds and res.value == math.inf
    cex = res.counterexample
    assert y.log_density(cex["x"]) > -mpmath.inf and y.log_density(cex["y"]) == -mpmath.inf
    assert abs(cex["x"] - cex["y"]) <= 1


def test_tie_below_tolerance_is_resolved_at_higher_precision():
    """Sawtooth with σP = ε + 1e-45: at dps=50 the excess is below 10^-40 (a tie); the
    confirmation run at higher precision finds it."""
    with mpmath.workdps(120):
        sigma = mpmath.nstr(1 + mpmath.mpf("1e-45"), 110)
    y = Periodic(epsilon=1.0, cycle=((0, 1, 0, "-" + sigma),), log_ratio=-1)
    res = check_pure_dp(y)
    assert not res.holds and res.decided
    assert res.evidence["tie_confirmation"]["verdicts"][:2] == [True, False]
    assert 0 < mpmath.mpf(res.counterexample["log_ratio_minus_epsilon"]) < 1e-44
    exact = Periodic(epsilon=1.0, cycle=((0, 1, 0, -1),), log_ratio=-1)  # a true tie
    assert check_pure_dp(exact).holds


@attrs.frozen(kw_only=True)
class _LyingTail(Staircase):
    def tail(self) -> Tail:
        return Tail(start=self.d, period=0.7 * self.sensitivity)


def test_broken_tail_contract_is_undecided():
    res = check_pure_dp(_LyingTail(epsilon=1.0, d=0.3))
    assert not res.decided and not res.holds
    assert status_of(res) is Status.INCONCLUSIVE
    assert "tail" in res.evidence["undecided_because"]


# ---- bad input ---------------------------------------------------------------------------------
def test_rejects_dist_without_structure():
    with pytest.raises(InvalidParameter, match=r"dist=.*log_pieces"):
        check_pure_dp(object())


@pytest.mark.parametrize("kwargs,needle", [
    ({"epsilon": -1.0}, r"epsilon=-1.0 must be > 0"),
    ({"epsilon": "x"}, r"epsilon='x' must be a real number"),
    ({"sensitivity": 0.0}, r"sensitivity=0.0 must be > 0"),
    ({"dps": 5}, r"dps=5 must be >= 15"),
    ({"dps": 20.5}, r"dps=20.5 must be a positive integer"),
    ({"dps": True}, r"dps=True must be a positive integer"),
])
def test_rejects_bad_parameters(kwargs, needle):
    with pytest.raises(InvalidParameter, match=needle):
        check_pure_dp(Laplace(epsilon=1.0), **kwargs)


def test_result_serialises():
    d = check_pure_dp(HalfScaleLaplace(epsilon=1.0)).to_dict()
    assert d["holds"] is False and d["method"] == "exact"
    assert float(d["counterexample"]["log_ratio"]) > 1.0
