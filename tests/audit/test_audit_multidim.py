"""Issue 33 item 3: events in several dimensions — products of coordinate events, a learned
per-coordinate score, stretch runs for mixed (code, value) outputs — all replayable from the
counterexample alone."""

from __future__ import annotations

import json

import numpy as np

from privlab.audit import audit_pair, replay
from privlab.audit import events as ev
from privlab.audit import features as ft
from privlab.audit import multidim as md


def _hist(counts: tuple[float, ...]):
    c = np.asarray(counts, dtype=float)
    return lambda n, g: c + g.laplace(0.0, 1.0, (n, c.size))


A, B = (2, 1, 1, 1, 1), (1, 2, 1, 1, 1)


def test_product_event_reaches_the_loss_of_substitution() -> None:
    """Lap(1) histogram under substitution: the loss 2 lives only on {y0 ≥ 2} ∩ {y1 ≤ 1}."""
    r = audit_pair(_hist(A), _hist(B), samples=100_000, claimed_epsilon=1.0, rng=0)
    assert r.verdict == "violation" and r.counterexample["feature"].startswith("joint[")
    assert 1.85 < r.epsilon_lower_bound <= 2.0
    assert r.description.startswith("Event: all of x[0]")
    r0 = audit_pair(_hist(A), _hist(B), samples=100_000, claimed_epsilon=1.0, rng=0,
                    multidim=False)
    assert r0.epsilon_lower_bound < 1.8


def test_joint_counterexample_replays_without_anything_else() -> None:
    r = audit_pair(_hist(A), _hist(B), samples=50_000, claimed_epsilon=1.0, rng=1)
    saved = json.loads(json.dumps(r.to_dict()))
    rep = replay(saved, samples=20_000, rng=2, sample_a=_hist(A), sample_b=_hist(B))
    assert rep.verdict == "violation" and rep.counterexample["feature"] == \
        r.counterexample["feature"]
    rep2 = replay(saved, samples=20_000, rng=3, sample_a=_hist(A), sample_b=_hist(A))
    assert rep2.verdict == "consistent"


def test_joint_and_lrsum_features_compute_from_their_names() -> None:
    b = np.array([[3.0, 0.0, 5.0], [1.0, 2.0, 5.0], [2.5, 0.5, -1.0]])
    assert ft.compute("joint[x[0]>2.0;x[1]<=1.0]", b).tolist() == [3.0, 0.0, 3.0]
    assert ft.compute("joint[x[0]~(0.5,2.5];x[2]>0]", b).tolist() == [1.0, 3.0, 2.0]
    assert ft.compute("lrsum[0:1.5/2.6:-1/0/1;2:0:0.5/-0.5]", b).tolist() == [0.5, -1.5, 0.5]
    assert ft.event_class("joint[x[0]>2.0;x[1]<=1.0]") == "law"


def test_learned_score_fitted_on_informative_coordinates_only() -> None:
    """Per-coordinate piecewise-constant log ratios: the two shifted coordinates enter the
    score, the three unchanged ones do not."""
    g = np.random.default_rng(4)
    a, b = _hist(A)(60_000, g), _hist(B)(60_000, g)
    coords = []
    for i in range(5):
        part = ev.build_partition(np.concatenate([a[:5000, i], b[:5000, i]]), 200, tails=True)
        coords.append((i, part, part.histogram(a[:, i]), part.histogram(b[:, i])))
    name = md.learned_score(coords)
    assert name is not None and name.startswith("lrsum[")
    terms = name[len("lrsum["):-1].split(";")
    assert sorted(int(t.split(":")[0]) for t in terms) == [0, 1]
    score_a, score_b = ft.compute(name, a), ft.compute(name, b)
    assert score_a.mean() > 0.5 > -0.5 > score_b.mean()  # a's log-ratio sum is positive


def test_mixed_code_and_value_outputs_use_runs_between_atoms() -> None:
    """(⊥ or a noisy value) per coordinate as in SVT Algorithm 3: the event {⊥ < x ≤ t} is a
    run from an atom, written as a cell of the partition."""
    edges = np.array([np.nextafter(-2e6, -np.inf), -2e6, np.nextafter(-1e6, -np.inf), -1e6,
                      -1.0, 0.0, 1.0, 2.0])
    first, last = ev.stretch_runs(edges)
    part = ev.Partition(edges=edges)
    spans = [(part.bounds(int(s))[0], part.bounds(int(t))[1]) for s, t in zip(first, last,
                                                                              strict=True)]
    assert spans == [(-1e6, 0.0), (-1e6, 1.0), (-1e6, 2.0)]
    c = ev.plain_candidates(np.arange(9), np.arange(9)[::-1], (first, last))
    j = int(np.flatnonzero(c.kind == ev.KINDS.index("run"))[0])
    assert ev.describe(c, j, part) == {"kind": "cell", "lo": -1e6, "hi": 0.0,
                                       "closed": "(lo, hi]"}
    assert int(c.count_a[j]) == 4 + 5  # cells 4 and 5
