"""Long statistical runs for the auditor (run with ``-m slow``).

* False alarms: a mechanism that meets its claim exactly (the worst event has log-ratio equal to
  the claimed ε) is flagged in at most 1 − confidence of the audits — checked by a one-sided
  binomial test on 200 independent audits.
* Coverage: the Clopper–Pearson bounds printed in the counterexample cover the exact
  probabilities (from the noise law's cdf) of the chosen event at their stated level.
* Scale: one audit at 10⁷ samples per side.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from privlab.audit import audit_mechanism, audit_pair
from privlab.mechanisms.noise.laplace import Laplace
from privlab.mechanisms.noise.staircase import Staircase

pytestmark = pytest.mark.slow

AUDITS = 200


def exact_prob(mech, shift: float, event: dict) -> float:
    """P(shift + Y ∈ event) from the noise law's exact cdf (intervals are (lo, hi])."""
    def cdf(x):
        return float(mech.cdf(float(x) - shift))

    if event["kind"] == "threshold":
        p = cdf(event["t"])
        return 1.0 - p if event["op"] == ">" else p
    if event["kind"] == "atom":
        return 0.0
    if event["kind"] == "cell":
        return cdf(event["hi"]) - cdf(event["lo"])
    return sum(cdf(hi) - cdf(lo) for lo, hi in event["intervals"])


def _not_above(fails: int, trials: int, rate: float) -> bool:
    """No evidence (one-sided binomial test at 10⁻³) that the failure rate exceeds ``rate``."""
    return stats.binomtest(fails, trials, rate, alternative="greater").pvalue > 1e-3


def _rr(p_one: float):
    def s(n, g):
        return (g.random(n) < p_one).astype(np.int64)
    return s


@pytest.mark.parametrize("kind", ["laplace", "staircase", "randomized-response"])
def test_false_alarm_rate_at_most_one_minus_confidence(kind):
    ss = np.random.SeedSequence(2024).spawn(AUDITS)
    violations = 0
    for seed in ss:
        if kind == "randomized-response":  # P(1 | a) / P(1 | b) = e exactly
            e = math.e
            r = audit_pair(_rr(e / (1 + e)), _rr(1 / (1 + e)), samples=5000, rng=seed,
                           claimed_epsilon=1.0)
        else:
            mech = Laplace(epsilon=1.0) if kind == "laplace" else Staircase.optimal(1.0)
            r = audit_mechanism(mech, samples=5000, rng=seed)
        violations += r.verdict == "violation"
    print(f"{kind}: {violations}/{AUDITS} false alarms at confidence 0.95")
    assert _not_above(violations, AUDITS, 0.05)


@pytest.mark.parametrize("make", [lambda: Laplace(epsilon=1.0), lambda: Staircase.optimal(1.0)])
def test_counterexample_bounds_cover_exact_probabilities(make):
    mech = make()
    trials = 300
    fails = np.zeros(4, dtype=int)  # a-lower, a-upper, b-lower, b-upper
    joint = 0
    for seed in np.random.SeedSequence(99).spawn(trials):
        r = audit_mechanism(mech, samples=20_000, rng=seed, confidence=0.95)
        c = r.counterexample
        p = {s: exact_prob(mech, x, c["event"]) for s, x in zip("ab", c["neighbours"],
                                                                 strict=True)}
        f = [c[s]["cp_lower"] > p[s] for s in "ab"], [c[s]["cp_upper"] < p[s] for s in "ab"]
        fails += np.array([f[0][0], f[1][0], f[0][1], f[1][1]])
        big, small = ("a", "b") if c["direction"] == "a>b" else ("b", "a")
        joint += (c[big]["cp_lower"] > p[big]) or (c[small]["cp_upper"] < p[small])
    print(f"{mech.name}: one-sided failures {fails.tolist()} / {trials}, joint {joint}")
    for k in fails:
        assert _not_above(int(k), trials, 0.025)
    assert _not_above(joint, trials, 0.05)


def test_ten_million_samples():
    r = audit_mechanism(Laplace(epsilon=1.0), samples=10**7, rng=0)
    print(f"laplace eps=1, 1e7/side: eps_lb={r.epsilon_lower_bound:.4f} in {r.seconds:.1f} s")
    assert r.verdict == "consistent"
    # the threshold {Y > Δ} has log-ratio exactly ε with probabilities ½ and ½e^{−1}; with
    # 7·10⁶ estimation samples the two 97.5 % CP widths cost ≈ 0.003 in log-ratio
    assert 0.99 <= r.epsilon_lower_bound <= 1.0
