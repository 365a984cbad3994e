"""privlab.verify.compare / check_order — the order of thesis §4.1 Definition 6, decided exactly.

Every witness the checker returns is re-evaluated here with an independent computation of
G(a) = P(|Y| ≤ a): for the staircase a direct sum of the step masses (core height from
normalisation M0 = 1/(2(d + rΔ/(1 − r)))), for Laplace 1 − e^{−εa/Δ}; both at 100 digits.
For symmetric laws P(Y ∈ ⟨0, α⟩) = G(|α|)/2, so signs of P1 − P2 and G1 − G2 agree.
"""

from __future__ import annotations

import math
from typing import Any

import attrs
import mpmath
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from privlab.errors import InvalidParameter
from privlab.mechanisms.noise.laplace import Laplace
from privlab.mechanisms.noise.staircase import Staircase
from privlab.types import Status, status_of
from privlab.verify import check_order, compare

FAST = settings(max_examples=25, deadline=None)
EPS = st.floats(0.05, 5.0)
SENS = st.sampled_from([0.5, 1.0, 3.0])
# members: the two ends exactly, or interior fractions away from 0 and 1 (a core of width
# 1e-300 changes the law by ~1e-300, below any working precision: see the precision test)
FRAC = st.one_of(st.just(0.0), st.just(1.0), st.floats(1e-6, 1 - 1e-6))
DIGITS = 100


def _m_exact(eps: Any, delta: Any) -> Any:
    """§4.3: m = Δ(1 − r − εr)/(ε(1 − r)), r = e^{−ε}, at the current precision."""
    eps, delta = mpmath.mpf(eps), mpmath.mpf(delta)
    r = mpmath.exp(-eps)
    return delta * (1 - r - eps * r) / (eps * (1 - r))


@attrs.frozen(kw_only=True)
class ExactSec43(Staircase):
    """The §4.3 member with d = m computed at the working precision (Staircase.d is a float,
    so Staircase.from_laplace carries m rounded to 53 bits)."""

    def _mp(self) -> tuple[Any, Any, Any, Any]:
        rate, width = mpmath.mpf(self.epsilon), mpmath.mpf(self.sensitivity)
        r = mpmath.exp(-rate)
        d = _m_exact(rate, width)
        return rate, width, d, (1 - r) / (2 * (d * (1 - r) + r * width))


def g_staircase(eps: Any, delta: Any, d: Any, a: Any) -> Any:
    """P(|Y| ≤ a) by summing step masses directly (independent of the checker)."""
    eps, delta, d, a = (mpmath.mpf(v) for v in (eps, delta, d, a))
    r = mpmath.exp(-eps)
    m0 = 1 / (2 * (d + r * delta / (1 - r)))
    total, i = 2 * m0 * min(a, d), 0
    while d + i * delta < a:
        total += 2 * m0 * r ** (i + 1) * (min(d + (i + 1) * delta, a) - (d + i * delta))
        i += 1
    return total


def g_law(y: Any, a: Any) -> Any:
    if isinstance(y, ExactSec43):
        return g_staircase(y.epsilon, y.sensitivity, _m_exact(y.epsilon, y.sensitivity), a)
    if isinstance(y, Staircase):
        return g_staircase(y.epsilon, y.sensitivity, y.d, a)
    return -mpmath.expm1(-mpmath.mpf(a) / (mpmath.mpf(y.sensitivity) / mpmath.mpf(y.epsilon)))


def assert_witnesses(res: Any, y1: Any, y2: Any) -> None:
    """Each witness α: independently, sign(G1 − G2) at |α| is the claimed one."""
    with mpmath.workdps(DIGITS):
        for key, sign in (("witness_P1_gt_P2", 1), ("witness_P1_lt_P2", -1)):
            w = res.evidence[key]
            if w is None:
                continue
            a = abs(mpmath.mpf(w["alpha_exact"]))
            diff = g_law(y1, a) - g_law(y2, a)
            assert sign * diff > 0, (key, w, mpmath.nstr(diff, 5))


# ---- the §4.3 member and Laplace ---------------------------------------------------------------
@FAST
@given(eps=EPS, delta=SENS)
def test_exact_sec43_member_is_strictly_smaller_than_laplace(eps, delta):
    lap = Laplace(epsilon=eps, sensitivity=delta)
    sm = ExactSec43(epsilon=eps, sensitivity=delta, d=Staircase.from_laplace(lap).d)
    res = compare(sm, lap)
    assert res.decided and res.value == "less"
    assert res.evidence["witness_P1_lt_P2"] is None
    assert_witnesses(res, sm, lap)
    assert compare(lap, sm).value == "greater"
    assert check_order(sm, lap, strict=True).holds


@pytest.mark.parametrize("eps", [0.1, 1.0, 4.0])
def test_exact_sec43_member_dominates_on_a_dense_grid(eps):
    """Independent corroboration of "less": G_S − G_L ≥ 0 (to 1e-90) on 400 points of
    [0, 4Δ], and the equality points kΔ (mass preservation of §4.3)."""
    with mpmath.workdps(DIGITS):
        m = _m_exact(eps, 1)
        diffs = [g_staircase(eps, 1, m, mpmath.mpf(k) / 100)
                 + mpmath.expm1(-mpmath.mpf(eps) * k / 100) for k in range(1, 401)]
    assert min(diffs) > -mpmath.mpf("1e-90")
    assert max(abs(diffs[k * 100 - 1]) for k in (1, 2, 3, 4)) < mpmath.mpf("1e-90")


@pytest.mark.parametrize("eps", [0.1, 0.5, 1.0, 2.0, 5.0])
def test_float_sec43_member_is_incomparable_with_laplace(eps):
    """Finding: Staircase.from_laplace stores m rounded to a float; its G dips below Laplace's
    by ~(d − m)² ≈ 1e-34 just below α = Δ.  The exact order says incomparable."""
    lap = Laplace(epsilon=eps)
    sm = Staircase.from_laplace(lap)
    res = compare(sm, lap)
    assert res.value == "incomparable"
    assert_witnesses(res, sm, lap)
    neg = res.evidence["witness_P1_lt_P2"]
    assert abs(neg["alpha"] - 1.0) < 1e-12
    assert 0 < -float(neg["P1 - P2"]) < 1e-30
    # a lower requested precision does not hide it: the tie is re-checked at more digits
    low = compare(sm, lap, dps=20)
    assert low.value == "incomparable" and low.evidence["tie_confirmation"]["precision_sensitive"]


@FAST
@given(eps=EPS, delta=SENS, frac=FRAC)
def test_staircase_members_versus_laplace(eps, delta, frac):
    """Interior members other than m are incomparable with Laplace(Δ/ε); the ends d ∈ {0, Δ}
    (one law) are strictly *larger* than Laplace (G_L is concave on [0, Δ] and meets the
    staircase's linear G at 0 and Δ)."""
    lap = Laplace(epsilon=eps, sensitivity=delta)
    m = float(_m_exact(eps, delta))
    assume(abs(frac * delta - m) > 1e-9 * delta)
    y = Staircase(epsilon=eps, sensitivity=delta, d=frac * delta)
    res = compare(y, lap)
    assert res.decided
    assert res.value == ("greater" if frac in (0.0, 1.0) else "incomparable")
    assert_witnesses(res, y, lap)


@pytest.mark.parametrize("eps", [0.1, 0.5, 1.0])
@pytest.mark.parametrize("objective", ["variance", "ci95", "abs"])
def test_objective_optimal_members_are_incomparable_with_laplace(eps, objective):
    y = Staircase.optimal(eps, 1.0, objective)
    lap = Laplace(epsilon=eps)
    res = compare(y, lap)
    assert res.value == "incomparable"
    assert_witnesses(res, y, lap)


# ---- the staircase family among itself --------------------------------------------------------
@FAST
@given(eps=EPS, delta=SENS, f1=FRAC, f2=FRAC)
def test_members_of_the_family(eps, delta, f1, f2):
    y1 = Staircase(epsilon=eps, sensitivity=delta, d=f1 * delta)
    y2 = Staircase(epsilon=eps, sensitivity=delta, d=f2 * delta)
    res = compare(y1, y2)
    assert res.decided
    ends = (f1 in (0.0, 1.0), f2 in (0.0, 1.0))
    if f1 == f2 or all(ends):  # d = 0 and d = Δ give the same density
        expected = "equal"
    elif ends[0]:
        expected = "greater"
    elif ends[1]:
        expected = "less"
    else:
        expected = "incomparable"
    assert res.value == expected
    assert_witnesses(res, y1, y2)


# ---- different decay rates ----------------------------------------------------------------------
@FAST
@given(e1=EPS, e2=EPS)
def test_laplace_scales(e1, e2):
    """G = 1 − e^{−εa/Δ} increases with ε at every a > 0: the larger ε is strictly smaller."""
    assume(abs(e1 - e2) > 1e-3 * max(e1, e2))  # closer rates: see the test below
    y1, y2 = Laplace(epsilon=e1), Laplace(epsilon=e2)
    res = compare(y1, y2)
    assert res.value == ("less" if e1 > e2 else "greater")
    assert_witnesses(res, y1, y2)


def test_heavier_tail_but_more_central_mass_is_incomparable():
    y1 = Laplace(epsilon=1.0)  # rate 1
    y2 = Staircase(epsilon=5.0, sensitivity=10.0, d=0.01)  # rate 1/2, tall core
    res = compare(y1, y2)
    assert res.value == "incomparable"
    assert_witnesses(res, y1, y2)
    assert "heavier tail" in res.evidence["sides"]["right"]["tail"]
    with mpmath.workdps(30):  # independent: G2 > G1 near 0, G1 > G2 far out
        assert g_law(y2, "0.01") > g_law(y1, "0.01")
        assert g_law(y1, 60) > g_law(y2, 60)


# ---- what cannot be decided is not guessed ------------------------------------------------------
def test_nearly_equal_rates_are_undecided():
    """Rates 1 and 1 + 1e-12: the tail bound is only proved ~1e12 periods out."""
    res = compare(Laplace(epsilon=1.0), Laplace(epsilon=1.0 + 1e-12))
    assert not res.decided and res.value is None
    assert status_of(res) is Status.INCONCLUSIVE
    assert "periods" in res.evidence["undecided_because"]


def test_differences_below_precision_are_undecided_not_equal():
    res = compare(Staircase(epsilon=1.0, d=1e-300), Staircase(epsilon=1.0, d=1e-300 * 3))
    assert res.value != "equal"
    res = compare(Staircase(epsilon=1.0, d=0.0), Staircase(epsilon=1.0, d=1.0))
    assert res.value == "equal"  # the same density, written two ways


# ---- check_order ---------------------------------------------------------------------------------
def test_check_order():
    lap = Laplace(epsilon=1.0)
    sm = ExactSec43(epsilon=1.0, d=0.4)
    assert check_order(sm, lap).holds and check_order(sm, lap, strict=True).holds
    assert check_order(lap, lap).holds
    strict_self = check_order(lap, lap, strict=True)
    assert not strict_self.holds and strict_self.counterexample["relation"] == "equal"
    bad = check_order(Staircase(epsilon=1.0, d=0.3), lap)
    assert not bad.holds and status_of(bad) is Status.REFUTED
    with mpmath.workdps(DIGITS):
        a = abs(mpmath.mpf(bad.counterexample["alpha_exact"]))
        assert g_staircase(1.0, 1.0, 0.3, a) < g_law(lap, a)
    assert math.isfinite(bad.counterexample["alpha"])


def test_bad_input():
    lap = Laplace(epsilon=1.0)
    with pytest.raises(InvalidParameter, match=r"y1=.*log_pieces"):
        compare(object(), lap)
    with pytest.raises(InvalidParameter, match=r"y2=3 has no exact"):
        compare(lap, 3)
    with pytest.raises(InvalidParameter, match=r"dps=0 must be a positive integer"):
        compare(lap, lap, dps=0)
    with pytest.raises(InvalidParameter, match=r"strict='yes' must be a bool"):
        check_order(lap, lap, strict="yes")


def test_laplace_scales_too_close_are_undecided_not_wrong():
    """Rates 2.6e-5 apart (a case hypothesis found) exceed the checker's 4000-period window: it
    must say so (decided=False) rather than return an order."""
    res = compare(Laplace(epsilon=2.728515625), Laplace(epsilon=2.7284433962694186))
    assert res.decided is False and res.value is None
