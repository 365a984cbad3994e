"""privlab.verify.check_normalisation / check_symmetry — exact checks on the piece structure.

Expected integrals come from scipy quadrature of the float pdf (independent of the pieces) or
from a hand-summed geometric series for the test doubles.
"""

from __future__ import annotations

import itertools
import math
from typing import Any

import attrs
import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import integrate

from privlab.errors import InvalidParameter
from privlab.mechanisms.noise._base import LogPiece, Tail
from privlab.mechanisms.noise.controls import (
    HalfScaleLaplace,
    HalfWidthStaircase,
    WrongRatioStaircase,
)
from privlab.mechanisms.noise.laplace import Laplace
from privlab.mechanisms.noise.staircase import Staircase
from privlab.types import Status, status_of
from privlab.verify import check_normalisation, check_symmetry

FAST = settings(max_examples=25, deadline=None)
EPS = st.floats(0.05, 5.0)
SENS = st.floats(0.1, 10.0)
FRAC = st.one_of(st.just(0.0), st.just(1.0), st.floats(0.0, 1.0))


@attrs.frozen
class Periodic:
    """Test double: for t ≥ 0, log f(t) = level + slope·(t − kP − a) + k·log_ratio on
    [kP + a, kP + b) for each (a, b, level, slope) in ``cycle``; t < 0 uses ``left_cycle`` and
    ``left_log_ratio`` on −t.  Strings are parsed at the current mpmath precision."""

    epsilon: Any = 1.0
    sensitivity: Any = 1.0
    period: Any = 1.0
    cycle: tuple[Any, ...] = ((0, 1, 0, 0),)
    log_ratio: Any = -1
    left_cycle: tuple[Any, ...] | None = None
    left_log_ratio: Any = None

    def _half(self, cycle: tuple[Any, ...], lr: Any, hi: Any) -> list[tuple[Any, ...]]:
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
        x = mpmath.mpf(x)
        for p in self.log_pieces(x - 1, x + 1):
            if p.lo < x < p.hi:
                return p.at(x)
        return mpmath.mpf("-inf")


def _quad_total(dist: Any) -> float:
    """∫ pdf by scipy quadrature over the breakpoints of |x| (independent of log_pieces)."""
    scale = dist.sensitivity / dist.epsilon
    top = 80 * scale + 10 * dist.sensitivity
    pts = sorted({0.0, float(getattr(dist, "d", 0.0))}
                 | set(np.arange(float(getattr(dist, "d", 0.0)), top,
                                 float(getattr(dist, "width", dist.sensitivity)))))
    half = sum(integrate.quad(lambda x: float(dist.pdf(x)), a, b, epsabs=1e-14)[0]
               for a, b in itertools.pairwise(pts))
    return 2 * half


# ---- normalisation -----------------------------------------------------------------------------
@FAST
@given(eps=EPS, delta=SENS, frac=FRAC)
def test_staircase_is_normalised(eps, delta, frac):
    res = check_normalisation(Staircase(epsilon=eps, sensitivity=delta, d=frac * delta))
    assert res.holds and res.decided
    assert abs(mpmath.mpf(res.evidence["integral"]) - 1) < mpmath.mpf("1e-40")
    assert status_of(res) is Status.VERIFIED


@pytest.mark.parametrize("dist", [
    Laplace(epsilon=1.0), Laplace(epsilon=0.3, sensitivity=2.0),
    Staircase(epsilon=1.0, d=0.3), Staircase(epsilon=2.0, sensitivity=0.5, d=0.5),
    HalfScaleLaplace(epsilon=1.0), WrongRatioStaircase(epsilon=1.0, d=0.3),
    HalfWidthStaircase(epsilon=1.5, d=0.2)], ids=lambda d: type(d).__name__)
def test_normalisation_agrees_with_quadrature(dist):
    res = check_normalisation(dist)
    assert res.holds
    assert res.value == pytest.approx(_quad_total(dist), abs=1e-9)


@given(level=st.floats(-3.0, 3.0), rate=st.floats(0.05, 4.0))
@settings(max_examples=20, deadline=None)
def test_unnormalised_double_reports_its_integral(level, rate):
    """f = e^L·e^{−kρ} on [k, k + 1) (both sides): by hand ∫ f = 2e^L/(1 − e^{−rate})."""
    y = Periodic(cycle=((0, 1, level, 0),), log_ratio=-rate)
    expected = 2 * math.exp(level) / -math.expm1(-rate)
    res = check_normalisation(y)
    assert res.value == pytest.approx(expected, rel=1e-12)
    assert res.holds == (abs(expected - 1) < 1e-12)
    if not res.holds:
        assert status_of(res) is Status.REFUTED
        assert float(res.counterexample["integral"]) == pytest.approx(expected, rel=1e-12)


def test_normalisation_tie_is_confirmed_at_higher_precision():
    """Integral 1 + 1e-45: a tie at dps = 50 (tolerance 1e-40), resolved at 100 digits."""
    with mpmath.workdps(150):
        level = mpmath.nstr(mpmath.log((1 + mpmath.mpf("1e-45")) * -mpmath.expm1(-1) / 2), 140)
    y = Periodic(cycle=((0, 1, level, 0),), log_ratio=-1)
    res = check_normalisation(y)
    assert not res.holds and res.decided
    assert res.evidence["tie_confirmation"]["verdicts"][:2] == [True, False]
    assert mpmath.mpf(res.counterexample["integral_minus_1"]) == pytest.approx(1e-45, rel=1e-6)


def test_non_decaying_tail_has_infinite_mass():
    res = check_normalisation(Periodic(log_ratio=0.1))
    assert not res.holds and res.value == math.inf


# ---- symmetry ----------------------------------------------------------------------------------
@FAST
@given(eps=EPS, delta=SENS, frac=FRAC)
def test_staircase_and_laplace_are_symmetric(eps, delta, frac):
    for y in (Staircase(epsilon=eps, sensitivity=delta, d=frac * delta),
              Laplace(epsilon=eps, sensitivity=delta),
              HalfWidthStaircase(epsilon=eps, sensitivity=delta, d=frac * delta)):
        res = check_symmetry(y)
        assert res.holds and res.decided, type(y).__name__
        assert res.value < 1e-35


def test_asymmetric_double_is_caught_with_a_witness():
    y = Periodic(cycle=((0, 1, 0, -1),), log_ratio=-1,
                 left_cycle=((0, 0.5, 0, -1), (0.5, 1, -0.4, -1)))
    res = check_symmetry(y)
    assert not res.holds and res.decided
    x = mpmath.mpf(res.counterexample["x_exact"])
    # the double's own evaluation at x and −x differs
    assert abs(y.log_density(x) - y.log_density(-x)) == pytest.approx(0.1, rel=1e-9)


def test_different_tail_ratios_are_caught():
    """Symmetric on [−P, P] but ρ₊ ≠ ρ₋: only the tail comparison sees it."""
    y = Periodic(cycle=((0, 1, 0, 0),), log_ratio=-1, left_log_ratio=-2)
    res = check_symmetry(y)
    assert not res.holds
    assert res.counterexample["reason"] == "rho_right != rho_left"
    x = res.counterexample["x"]
    assert y.log_density(x) != y.log_density(-x)


@attrs.frozen(kw_only=True)
class _LyingTail(Staircase):
    def tail(self) -> Tail:
        return Tail(start=self.d, period=0.7 * self.sensitivity)


@pytest.mark.parametrize("check", [check_normalisation, check_symmetry])
def test_broken_tail_contract_is_undecided(check):
    res = check(_LyingTail(epsilon=1.0, d=0.3))
    assert not res.decided and status_of(res) is Status.INCONCLUSIVE


@pytest.mark.parametrize("check", [check_normalisation, check_symmetry])
def test_bad_input(check):
    with pytest.raises(InvalidParameter, match=r"dist=.*log_pieces"):
        check(Laplace(epsilon=1.0).pdf)
    with pytest.raises(InvalidParameter, match=r"dps=0 must be a positive integer"):
        check(Laplace(epsilon=1.0), dps=0)
    with pytest.raises(InvalidParameter, match=r"dps=14 must be >= 15"):
        check(Laplace(epsilon=1.0), dps=14)
