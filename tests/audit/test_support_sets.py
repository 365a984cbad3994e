"""Support events (issue 15 item 2): exact values seen under one neighbour only, in the
default search for discrete outputs, estimated on fresh samples, replayable."""

from __future__ import annotations

import json

import numpy as np
import pytest

from privlab.audit import audit_pair, replay
from privlab.audit import features as ft

S = np.sort(np.random.default_rng(7).choice(1000, size=500, replace=False)).astype(float)


def on_subset(n: int, g: np.random.Generator) -> np.ndarray:
    return g.choice(S, size=n)  # side a: an irregular half of the values


def on_all(n: int, g: np.random.Generator) -> np.ndarray:
    return g.integers(0, 1000, size=n).astype(float)  # side b: all of them


def test_support_event_finds_the_whole_one_sided_set(monkeypatch: pytest.MonkeyPatch) -> None:
    r = audit_pair(on_subset, on_all, samples=50_000, claimed_epsilon=1.0, rng=0, workers=1)
    cex = r.counterexample
    assert r.verdict == "violation" and r.structural_leak
    assert cex["feature"].startswith("support[") and r.event_class == "implementation"
    # the event is {value never seen under a in the first selection half}: about half of
    # b's mass
    assert cex["b" if cex["direction"] == "b>a" else "a"]["p_hat"] > 0.3
    # without support features (pilot or scan) and with the plain quantile partition the
    # same audit only finds a few atoms: a weaker bound (the tail/stretch edges of
    # ``tails=True`` resolve the values between the heaviest atoms almost as well)
    monkeypatch.setattr(ft, "_support_feature", lambda *a: None)
    r0 = audit_pair(on_subset, on_all, samples=50_000, claimed_epsilon=1.0, rng=0, workers=1,
                    support_scan=False, tails=False)
    assert not r0.counterexample["feature"].startswith("support[")
    assert r.epsilon_lower_bound > r0.epsilon_lower_bound + 1.0


def test_support_counterexample_replays_from_json() -> None:
    r = audit_pair(on_subset, on_all, samples=50_000, claimed_epsilon=1.0, rng=1, workers=1)
    saved = json.loads(json.dumps(r.to_dict()))
    ft._SUPPORT.clear()  # a fresh process: the sets come from the file
    rep = replay(saved, samples=20_000, rng=2, sample_a=on_subset, sample_b=on_all)
    assert rep.verdict == "violation" and rep.structural_leak
    assert rep.event_class == "implementation"
    # the event is fixed: replayed on two equal laws it does not violate
    rep2 = replay(saved, samples=20_000, rng=3, sample_a=on_all, sample_b=on_all)
    assert rep2.verdict == "consistent"
    ft._SUPPORT.clear()
    with pytest.raises(Exception, match="value sets are unknown"):
        ft.compute(saved["counterexample"]["feature"], np.zeros(3))


def test_correct_discrete_mechanisms_are_not_flagged() -> None:
    p = np.exp(1.0) / (1 + np.exp(1.0))  # randomized response, exactly 1-DP

    def rr(bit: int):
        return lambda n, g: np.where(g.random(n) < p, bit, 1 - bit).astype(np.int64)

    q = 1 - np.exp(-1.0)  # discrete Laplace at eps = 1 on the integers

    def dlap(x: int):
        return lambda n, g: x + g.geometric(q, n) - g.geometric(q, n)

    for a, b in ((rr(0), rr(1)), (dlap(0), dlap(1))):
        r = audit_pair(a, b, samples=50_000, claimed_epsilon=1.0, rng=0, workers=1)
        assert r.verdict == "consistent" and not r.structural_leak


def test_support_features_only_for_repeating_values() -> None:
    g = np.random.default_rng(0)
    cont = g.laplace(size=2000)
    assert not any(f.startswith("support[") for f in
                   ft.default_features(cont, other=cont + 1.0))
    ints = g.integers(0, 10, 2000)
    names = ft.default_features(ints, other=ints + 1)
    assert any(f.startswith("support[") for f in names)
    assert ft.event_class(next(f for f in names if f.startswith("support["))) == \
        "implementation"
