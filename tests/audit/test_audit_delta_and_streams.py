"""(ε, δ) audits, the exact δ bound, vector / categorical outputs, workers, Dask and replay.

Where the numbers come from: true δ and probabilities are computed here from closed forms
(Laplace cdf, binomial pmf); bounds come from the auditor with fixed seeds.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from scipy import stats

from privlab.audit import audit_mechanism, audit_pair, replay
from privlab.audit import features as ft
from privlab.audit.controls import make
from privlab.audit.diffbound import delta_lower, delta_lower_cp
from privlab.errors import InvalidParameter
from privlab.mechanisms.noise.laplace import Laplace


def laplace_hockey_stick(eps: float, eps_prime: float) -> float:
    """δ(ε′) of Lap(1/ε) at shifts 0 and 1: P_0(Y ≤ t) − e^{ε′}P_1(Y ≤ t), t = (1 − ε′/ε)/2."""
    t = (1 - eps_prime / eps) / 2
    p0 = 1 - 0.5 * math.exp(-eps * t)
    p1 = 0.5 * math.exp(-eps * (1 - t))
    return p0 - math.exp(eps_prime) * p1


@pytest.mark.parametrize("pa,pb,c", [(0.5, 0.2, 2.0), (0.3, 0.05, 4.0), (0.9, 0.8, 1.05)])
def test_delta_bound_exact_coverage_small_n(pa, pb, c):
    """P(δ_lb ≥ δ_true) ≤ α, computed exactly by enumerating all (k_a, k_b) for n = 25."""
    n, alpha = 25, 0.1
    true = pa - c * pb
    k = np.arange(n + 1)
    wa, wb = stats.binom.pmf(k, n, pa), stats.binom.pmf(k, n, pb)
    miss = sum(wa[i] * wb[j] for i in range(n + 1) for j in range(n + 1)
               if delta_lower(i, n, j, n, c, alpha) >= max(true, 1e-300))
    assert miss <= alpha


def test_delta_bound_tighter_than_bonferroni_and_below_estimate():
    n = 900_000
    pa, pb, c = 1 - 0.5 * math.exp(-0.05), 0.5 * math.exp(-0.95), math.exp(0.9)
    ka, kb = round(pa * n), round(pb * n)
    exact, cp = delta_lower(ka, n, kb, n, c, 0.05), delta_lower_cp(ka, n, kb, n, c, 0.05)
    assert cp < exact < ka / n - c * kb / n
    assert delta_lower(10, 1000, 10, 1000, 2.0, 0.05) == 0.0


def test_delta_objective_laplace():
    eps, ep = 1.0, 0.9
    true = laplace_hockey_stick(eps, ep)
    assert true == pytest.approx(0.0488, abs=1e-4)  # the "true δ ≈ 0.0488"
    r = audit_mechanism(Laplace(epsilon=eps), samples=200_000, rng=3, claimed_epsilon=ep,
                        objective="delta")
    assert r.objective == "delta" and r.verdict == "violation"
    assert 0.025 <= r.delta_lower_bound <= true
    # claimed (0.9, 0.05): δ_lb ≤ true δ < 0.05, so no violation
    r2 = audit_mechanism(Laplace(epsilon=eps), samples=200_000, rng=3, claimed_epsilon=ep,
                         objective="delta", delta=0.05)
    assert r2.verdict == "consistent"


def test_vector_categorical_and_user_features():
    r = audit_mechanism(make("histogram-substitute"), samples=100_000, rng=0)
    # the product event {y0 > 2} ∩ {y1 ≤ 1} (true loss 2) beats every linear score (proj)
    assert r.verdict == "violation" and r.counterexample["feature"].startswith("joint[")
    assert r.epsilon_lower_bound > 1.8
    r = audit_mechanism(make("svt5"), samples=20_000, rng=0)
    assert r.verdict == "violation" and r.structural_leak

    def rows(x):
        return lambda n, g: x + g.laplace(0.0, 1.0, (n, 3))

    r = audit_pair(rows(0.0), rows(1.0), samples=50_000, rng=1, claimed_epsilon=3.0,
                   features=lambda o: o.sum(axis=1))
    assert r.features == ("user[0]",) and r.verdict == "consistent"


def test_feature_names_round_trip():
    b = np.array([[1.0, 0.0, 2.0], [0.0, 3.0, 3.0]])
    assert ft.compute("proj[1,-1,0]", b).tolist() == [1.0, -3.0]
    assert ft.compute("argmax", b).tolist() == [2.0, 1.0]
    assert ft.compute("pattern", b)[0] != ft.compute("pattern", b)[1]
    lb = ft.lowbits(np.array([-0.75, -0.75 + 2.0**-53]))
    assert lb[0] != lb[1]
    with pytest.raises(InvalidParameter, match="feature='nope' is not a known feature"):
        ft.compute("nope", b)
    with pytest.raises(InvalidParameter, match="features returned NaN"):
        ft.compute("user[0]", b, user=lambda o: np.full(len(o), np.nan))


def test_same_result_for_any_number_of_workers():
    mech = make("svt4")
    d1 = audit_mechanism(mech, samples=40_000, rng=5, chunk=4096, workers=1).to_dict()
    d2 = audit_mechanism(mech, samples=40_000, rng=5, chunk=4096, workers=2).to_dict()
    for d in (d1, d2):
        d.pop("seconds")
    assert d1 == d2


def test_dask_local_cluster_same_result():
    distributed = pytest.importorskip("distributed")
    mech = Laplace(epsilon=1.0)
    local = audit_mechanism(mech, samples=30_000, rng=2, chunk=8192).to_dict()
    with distributed.Client(processes=False, n_workers=2, threads_per_worker=1,
                            dashboard_address=None) as client:
        remote = audit_mechanism(mech, samples=30_000, rng=2, chunk=8192,
                                 scheduler=client).to_dict()
    for d in (local, remote):
        d.pop("seconds")
    assert local == remote


@pytest.mark.parametrize("name", ["broken-laplace-half-scale", "svt6", "noisy-max-value"])
def test_replay_reproduces_violations_from_json(name, tmp_path):
    r = audit_mechanism(make(name), samples=100_000, rng=7)
    assert r.verdict == "violation"
    path = tmp_path / "cex.json"
    path.write_text(json.dumps(r.to_dict(), allow_nan=False))
    again = replay(json.loads(path.read_text()), samples=100_000, rng=8)
    assert again.verdict == "violation" and again.selection_samples == 0
    assert again.counterexample["event"] == r.counterexample["event"]
    assert again.counterexample["replayed"] is True


def test_replay_with_user_samplers_and_errors():
    def s(x):
        return lambda n, g: x + g.laplace(0.0, 1.0, n)

    r = audit_pair(s(0.0), s(1.0), samples=20_000, rng=0, claimed_epsilon=1.0)
    assert r.counterexample["spec"] is None
    with pytest.raises(InvalidParameter, match="spec is null"):
        replay(r.counterexample, samples=5000)
    again = replay(r.counterexample, samples=20_000, rng=1, sample_a=s(0.0), sample_b=s(1.0))
    assert again.verdict == "consistent" and again.epsilon_lower_bound <= 1.0
    with pytest.raises(InvalidParameter, match="counterexample must hold the keys"):
        replay({"event": {}}, samples=5000)
    with pytest.raises(InvalidParameter, match="samples=10 must be >= 1000"):
        replay(r.counterexample, samples=10, sample_a=s(0.0), sample_b=s(1.0))


def test_neighbour_search_and_generator():
    mech = Laplace(epsilon=1.0)
    r = audit_mechanism(mech, samples=40_000, rng=0, neighbours="search")
    assert r.counterexample["neighbours"] == [0.0, 1.0]  # the full shift is the worst pair
    assert sum("searched" in p for p in r.pairs) == 4
    r2 = audit_mechanism(mech, samples=20_000, rng=0,
                         neighbours=lambda g: [(0.0, float(g.uniform(0.5, 1.0)))])
    assert len(r2.pairs) == 1
    with pytest.raises(InvalidParameter, match="neighbours='all' must be pairs"):
        audit_mechanism(mech, samples=5000, neighbours="all")
