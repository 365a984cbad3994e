"""The auditor's targets (issue 8), measured (run with ``-m slow``; prints the numbers).

True values: Laplace ε = 1 (exact), δ(0.9) = 0.0488 from the Laplace cdf (computed in
tests/audit/test_audit_delta_and_streams.py), the controls' truths from their docstrings.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from privlab.audit import audit_mechanism
from privlab.audit.controls import make
from privlab.audit.suite import run_suite
from privlab.mechanisms.noise.laplace import Laplace

pytestmark = pytest.mark.slow

RUNS = 200
CALIBRATION = ("laplace", "geometric", "staircase", "randomized-response", "histogram",
               "exponential-mechanism", "noisy-max-laplace", "svt1", "float-laplace-safe")


# issue targets: 0.98 at 1e5 and 0.99 at 1e6 (medians over 5 seeds; measured 2026-11-22 after
# the joint ratio bound and the simultaneous selection penalty: 1e5 median 0.986 over 32 seeds,
# 1e6 min 0.991 over 6 seeds — benchmarks/RESULTS.md).
@pytest.mark.parametrize("n,floor", [(10**5, 0.98), (10**6, 0.99)])
def test_laplace_epsilon_targets(n, floor):
    lbs = [audit_mechanism(Laplace(epsilon=1.0), samples=n, rng=s).epsilon_lower_bound
           for s in range(5)]
    print(f"laplace eps=1, {n}/side: bounds {np.round(lbs, 4).tolist()}")
    assert max(lbs) <= 1.0 or sum(x > 1.0 for x in lbs) <= 1
    assert float(np.median(lbs)) >= floor


def test_delta_target_at_one_million():
    lbs = [audit_mechanism(Laplace(epsilon=1.0), samples=10**6, rng=s, claimed_epsilon=0.9,
                           objective="delta").delta_lower_bound for s in range(8)]
    print(f"laplace eps=1 at eps'=0.9, 1e6/side: delta bounds {np.round(lbs, 4).tolist()}")
    assert float(np.median(lbs)) >= 0.045 and max(lbs) <= 0.0488


def test_float_target():
    naive = audit_mechanism(make("float-laplace-naive", epsilon=0.1), samples=10**6, rng=0,
                            claimed_epsilon=0.25)
    safe = audit_mechanism(make("float-laplace-safe", epsilon=0.1), samples=10**6, rng=0,
                           claimed_epsilon=0.25)
    print(f"naive float eps_lb={naive.epsilon_lower_bound:.3f} in {naive.seconds:.1f} s; "
          f"safe eps_lb={safe.epsilon_lower_bound:.4f} in {safe.seconds:.1f} s")
    assert naive.verdict == "violation" and naive.epsilon_lower_bound > 0.25
    assert safe.verdict == "consistent"


@pytest.mark.parametrize("name", ["svt5", "float-laplace-naive"])
def test_infinite_variants_ten_times_the_claim(name):
    r = audit_mechanism(make(name), samples=10**6, rng=0)
    print(f"{name}: eps_lb={r.epsilon_lower_bound:.3f} (claimed {r.claimed_epsilon})")
    assert r.epsilon_lower_bound >= 10 * r.claimed_epsilon


@pytest.mark.parametrize("name,true", [("broken-laplace-half-scale", 2.0),
                                       ("broken-staircase-ratio", 1.5),
                                       ("broken-staircase-width", 2.0),
                                       ("randomized-response-wrong", 2.0),
                                       ("histogram-wrong-scale", 2.0)])
def test_finite_buggy_controls_tight_at_ten_million(name, true):
    r = audit_mechanism(make(name), samples=10**7, rng=0)
    print(f"{name}: eps_lb={r.epsilon_lower_bound:.4f}, true {true}, {r.seconds:.1f} s")
    assert 0.9 * true <= r.epsilon_lower_bound <= true


@pytest.mark.parametrize("name", CALIBRATION)
def test_calibration_bound_exceeds_truth_at_most_five_percent(name):
    mech = make(name)
    true = float(getattr(mech, "true_epsilon", mech.epsilon))
    over = 0
    for seed in np.random.SeedSequence(8).spawn(RUNS):
        r = audit_mechanism(mech, samples=5000, rng=seed)
        over += r.epsilon_lower_bound > true
    print(f"calibration {name}: bound > true eps in {over}/{RUNS} runs at confidence 0.95")
    assert stats.binomtest(over, RUNS, 0.05, alternative="greater").pvalue > 1e-3


def test_full_suite_all_ok():
    t = run_suite(quick=False, rng=0)
    secs = sum(r["seconds"] for r in t.rows)
    print(f"full suite (1e6/side): {sum(r['ok'] for r in t.rows)}/{len(t.rows)} ok "
          f"in {secs:.0f} s")
    assert all(r["ok"] for r in t.rows)
    assert math.isfinite(secs)
