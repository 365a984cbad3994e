"""Checkers of privlab.verify.noise.multivariate and the certificate / audit helpers.

Each verdict is cross-checked by a route the checker does not use: the mechanism's float
``logpdf`` at the witness and around it, random-point DP gaps, Monte Carlo event frequencies, and
sabotaged closed forms (to show the checkers can fail).
"""

from __future__ import annotations

import json
import math
from fractions import Fraction

import numpy as np
import pytest

from privlab.mechanisms.noise.box_staircase import (
    BoxStaircase,
    HalfStepBoxStaircase,
    OversizedCoreBoxStaircase,
    WrongRatioBoxStaircase,
)
from privlab.mechanisms.noise.l1_staircase import HalfStepL1Staircase, L1BallStaircase
from privlab.types import Method, Status, status_of
from privlab.verify.noise import multivariate as mv
from privlab.verify.noise.multivariate_cert import audit_cases, certify_box_staircase

EX5 = {"epsilon": 1.0, "sensitivity": (1.0, 10.0), "core": (0.1, 1.0)}
GOOD = [BoxStaircase(**EX5), BoxStaircase(epsilon=0.5, sensitivity=(1.0, 2.0, 0.5),
                                          core=(0.3, 0.0, 0.5)),
        BoxStaircase(epsilon=2.0, sensitivity=(3.0,), core=(1.2,)),
        L1BallStaircase(epsilon=1.0, sensitivity=(1.0, 1.0), core=0.3),
        L1BallStaircase(epsilon=0.7, sensitivity=(2.0, 1.0, 3.0), core=0.5)]
BROKEN = [(WrongRatioBoxStaircase(**EX5), 1.5), (HalfStepBoxStaircase(**EX5), 2.0),
          (HalfStepL1Staircase(epsilon=1.0, sensitivity=(1.0, 1.0), core=0.3), 2.0)]


@pytest.mark.parametrize("mech", GOOD, ids=lambda m: f"{m.name}-{m.dim}")
def test_shell_dp_holds_and_is_tight(mech):
    res = mv.check_shell_dp(mech)
    assert res.holds and res.decided and status_of(res) is Status.VERIFIED
    assert res.value == pytest.approx(mech.epsilon, rel=1e-12)  # the bound is attained
    pair = res.evidence["tight_pair"]
    x = np.array([float(Fraction(a)) for a in pair["x"]])
    d = np.array([float(Fraction(b)) for b in pair["delta"]])
    assert float(mech.logpdf(x) - mech.logpdf(x + d)) == pytest.approx(mech.epsilon)


@pytest.mark.parametrize("mech,factor", BROKEN, ids=lambda m: getattr(m, "name", ""))
def test_shell_dp_finds_violations_with_continuity_witness(mech, factor):
    res = mv.check_shell_dp(mech)
    assert not res.holds and status_of(res) is Status.REFUTED
    assert res.value == pytest.approx(factor * mech.epsilon, rel=1e-12)
    x = np.array([float(Fraction(a)) for a in res.counterexample["x"]])
    d = np.array([float(Fraction(b)) for b in res.counterexample["delta"]])
    # a continuity point: the float log-density gap is the same in a small neighbourhood
    gen = np.random.default_rng(0)
    pts = x + gen.uniform(-1, 1, (500, mech.dim)) * 0.02 * min(mech.sensitivity)
    gaps = mech.logpdf(pts) - mech.logpdf(pts + d)
    np.testing.assert_allclose(gaps, factor * mech.epsilon, rtol=1e-12)


def test_oversized_core_is_dp_but_breaks_theorem3_condition_and_optimality():
    m = OversizedCoreBoxStaircase(epsilon=1.0, sensitivity=(1.0, 10.0), core=(2.0, 20.0))
    assert mv.check_shell_dp(m).holds
    cond = mv.check_theorem3_conditions(m)
    assert not cond.holds and status_of(cond) is Status.REFUTED
    assert cond.counterexample["condition"] == "S_0 ⊂ S_f"
    slack = mv.check_core_slack(m)
    assert not slack.holds
    w = slack.counterexample
    # the modified density g keeps ε-DP on random pairs (independent evaluation of g)
    inner = np.array([float(Fraction(c)) for c in w["inner_box_half_widths"]])
    core = np.asarray(m.core)

    def log_g(y):
        base = m.logpdf(y)
        in_core = np.all(np.abs(y) <= core, axis=-1)
        in_r = np.all(np.abs(y) <= inner, axis=-1)
        return np.where(in_r, math.log(w["density_on_R"]),
                        np.where(in_core, math.log(w["density_on_S0_minus_R"]), base))

    gen = np.random.default_rng(1)
    y = gen.uniform(-1.5, 1.5, (200000, 2)) * core
    delta = gen.uniform(-1, 1, (200000, 2)) * np.asarray(m.sensitivity)
    assert (log_g(y) - log_g(y + delta)).max() <= 1.0 + 1e-12
    # mass is conserved and moves into R (closer to 0)
    vol_r, vol_0 = np.prod(2 * inner), np.prod(2 * core)
    moved_in = (w["density_on_R"] - m.normaliser) * vol_r
    moved_out = (m.normaliser - w["density_on_S0_minus_R"]) * (vol_0 - vol_r)
    assert moved_in == pytest.approx(moved_out, rel=1e-12) and moved_in > 0
    partial = OversizedCoreBoxStaircase(epsilon=1.0, sensitivity=(1.0, 10.0), core=(2.0, 5.0))
    assert mv.check_core_slack(partial).holds


@pytest.mark.parametrize("mech", [m for m in GOOD if isinstance(m, BoxStaircase)],
                         ids=lambda m: f"d{m.dim}")
def test_theorem3_conditions_hold_for_the_construction(mech):
    assert mv.check_theorem3_conditions(mech).holds
    assert mv.check_core_slack(mech).holds


@pytest.mark.parametrize("mech,cond", [(WrongRatioBoxStaircase(**EX5), "density ratio"),
                                       (HalfStepBoxStaircase(**EX5), "S_{i+1}")])
def test_theorem3_conditions_flag_broken_shells(mech, cond):
    res = mv.check_theorem3_conditions(mech)
    assert not res.holds and res.counterexample["condition"].startswith(cond)


@pytest.mark.parametrize("mech", GOOD, ids=lambda m: f"{m.name}-{m.dim}")
def test_closed_form_shells_equal_set_recursion(mech):
    res = mv.check_shell_recursion(mech, shells=3)
    assert res.holds and res.decided and res.method is Method.EXHAUSTIVE
    assert res.evidence["lattice_points_compared"] >= 30


@pytest.mark.parametrize("mech", [HalfStepBoxStaircase(**EX5),
                                  HalfStepL1Staircase(epsilon=1.0, sensitivity=(1.0, 1.0),
                                                      core=0.3)], ids=lambda m: m.name)
def test_set_recursion_catches_wrong_step(mech):
    res = mv.check_shell_recursion(mech)
    assert not res.holds and res.counterexample is not None
    x = np.asarray(res.counterexample["x"])
    assert int(mech.shell_index(x)) == res.counterexample["closed_form_shell"]


def test_recursion_undecided_on_too_fine_lattice():
    m = BoxStaircase(epsilon=1.0, sensitivity=(1.0, 1.0), core=(0.4167374325160369, 0.5))
    res = mv.check_shell_recursion(m)
    assert not res.decided and status_of(res) is Status.INCONCLUSIVE


def test_printed_recursion_overlaps():
    res = mv.check_printed_recursion(BoxStaircase(**EX5))
    assert not res.holds and len(res.counterexample["in_shells"]) >= 2


def test_marginal_variance_check_holds_and_can_fail(monkeypatch):
    m = BoxStaircase(**EX5)
    res = mv.check_marginal_variances(m, dps=20)
    assert res.holds and status_of(res) is Status.CONFIRMED
    orig = BoxStaircase.marginal_variance

    def sabotaged(self, axis=0, *, exact=False, dps=50):
        return orig(self, axis, exact=exact, dps=dps) * (1 + 1e-9)

    monkeypatch.setattr(BoxStaircase, "marginal_variance", sabotaged)
    assert not mv.check_marginal_variances(m, dps=20).holds


def test_certificate():
    cert = certify_box_staircase(1.0, (1.0, 10.0), (0.1, 1.0))
    assert cert.holds
    d = json.loads(json.dumps(cert.to_dict()))
    assert d["guarantee"]["epsilon"] == 1.0 and len(d["checks"]) == 3
    p = d["properties"]
    assert p["laplace_variances"] == [242.0, 242.0]
    assert p["volume_ratio_laplace_over_staircase"] > 1.0
    auto = certify_box_staircase(1.0, (1.0, 2.0), None, "volume95")
    assert auto.holds and auto.properties["objective"] == "volume95"
    from privlab.errors import InvalidParameter

    with pytest.raises(InvalidParameter, match="objective="):
        certify_box_staircase(1.0, (1.0, 2.0), None, "median")
    with pytest.raises(InvalidParameter, match=r"core\[0\]=2\.0 must be <="):
        certify_box_staircase(1.0, (1.0, 2.0), (2.0, 1.0))


def test_audit_cases_events_and_expected_verdicts():
    cases = audit_cases(1.0)
    names = {c.name: c for c in cases}
    assert names["box-staircase"].expected == "consistent"
    assert names["broken-box-staircase-ratio"].expected == "violation"
    assert names["broken-box-staircase-ratio"].true_epsilon == pytest.approx(1.5)
    assert names["broken-box-staircase-step"].true_epsilon == pytest.approx(2.0)
    n = 40000
    for c in cases:
        y0, y1 = c.sample0(n, rng=1), c.sample1(n, rng=2)
        assert y0.shape == (n, 2)
        kinds = {e.kind for e in c.events}
        assert kinds == {"box", "half-plane", "lr-level"}
        for e in c.events:
            for p, y in ((e.p0, y0), (e.p1, y1)):
                if p is None:
                    continue
                k = e.contains(y).sum()
                assert abs(k - n * p) <= 5 * math.sqrt(n * p * (1 - p)) + 1, (c.name, e.name)
        lr = [e for e in c.events if e.kind == "lr-level"][-1]
        f0, f1 = lr.contains(y0).mean(), lr.contains(y1).mean()
        assert f0 > 0.01  # the extremal likelihood-ratio set has visible mass
        if c.expected == "violation":
            assert math.log(f0 / f1) > c.epsilon_claimed + 0.2
