"""Issue 33 item 4: support events from the whole first selection half (value sets seen under
one input only), structural leaks preferred and described in words, the precision feature."""

from __future__ import annotations

import json

import numpy as np
import pytest

from privlab.audit import audit_pair, replay
from privlab.audit import features as ft
from privlab.audit import supportscan as ss


def _icdf(p: np.ndarray) -> np.ndarray:
    return np.where(p < 0.5, np.log(2.0 * p), -np.log(2.0 - 2.0 * p))


def _grid(x: float, bits: int = 14):
    """Laplace by inverse CDF on the grid (k + ½)/2^bits, the release rounded to float32: two
    inputs give two different finite sets of floats (2 shared of 2 · 16384 at 14 bits)."""
    k = np.arange(1 << bits, dtype=np.float64)
    table = (x + _icdf((k + 0.5) / float(1 << bits))).astype(np.float32)
    return lambda n, g: table[g.integers(0, table.size, n)]


def test_sparse_float32_grid_is_a_structural_leak() -> None:
    """Each value has probability 2⁻¹⁴: the pilot (10⁴ a side) sees too few repeats for a
    support feature, the first selection half sees enough."""
    r = audit_pair(_grid(0.0), _grid(1.0), samples=100_000, claimed_epsilon=1.0, rng=0)
    cex = r.counterexample
    assert r.verdict == "violation" and r.structural_leak
    assert cex["feature"].startswith("support[") and r.event_class == "implementation"
    assert len(cex["support"]["a_only"]) + len(cex["support"]["b_only"]) <= 4 * ss.HEAVY
    assert "float32 values" in r.description and "never under" in r.description
    r0 = audit_pair(_grid(0.0), _grid(1.0), samples=100_000, claimed_epsilon=1.0, rng=0,
                    support_scan=False)
    assert not r0.structural_leak and r0.epsilon_lower_bound < 2.0


def test_support_scan_replays_and_is_worker_independent() -> None:
    kw = {"samples": 60_000, "claimed_epsilon": 1.0, "rng": 3, "chunk": 4096}
    d1 = audit_pair(_grid(0.0), _grid(1.0), workers=1, **kw).to_dict()
    d2 = audit_pair(_grid(0.0), _grid(1.0), workers=2, **kw).to_dict()
    for d in (d1, d2):
        d.pop("seconds")
    assert d1 == d2
    saved = json.loads(json.dumps(d1))
    ft._SUPPORT.clear()  # a fresh process: the value sets come from the file
    rep = replay(saved, samples=20_000, rng=4, sample_a=_grid(0.0), sample_b=_grid(1.0))
    assert rep.verdict == "violation" and rep.structural_leak


def test_sketch_merge_is_order_independent_and_the_hash_sample_consistent() -> None:
    g = np.random.default_rng(5)
    blocks = [np.round(g.normal(size=3000), 2) for _ in range(6)]
    parts = [ss.sketch(b) for b in blocks]
    m1, m2 = ss.merge(parts), ss.merge(parts[::-1])
    assert m1.heavy.tobytes() == m2.heavy.tobytes() and m1.sample.tobytes() == m2.sample.tobytes()
    assert np.array_equal(m1.counts, m2.counts) and m1.repeats
    # continuous values never repeat: no support event
    cont = ss.merge([ss.sketch(g.normal(size=4000)) for _ in range(3)])
    assert not cont.repeats and ss.one_sided(cont, cont) is None
    # the hash sample of both sides is cut at the same hash: "seen under a, not b" is exact
    a = g.integers(0, 100_000, 50_000).astype(float)
    b = a + 0.5
    sa, sb = ss.merge([ss.sketch(a[:25_000]), ss.sketch(a[25_000:])]), ss.sketch(b)
    a_only, b_only = ss.one_sided(sa, sb)
    assert np.intersect1d(a_only, b).size == 0 and np.intersect1d(b_only, a).size == 0
    assert a_only.size >= ss.SLICE // 2


def test_float32_noise_in_float64_caught_by_precision() -> None:
    """x + float64(float32(Y)): every output under x = 0 is a float32 value, almost none under
    x = 1 (Mironov 2012's kind of leak, 29 bits above the last mantissa bit)."""
    def side(x: float):
        return lambda n, g: x + g.laplace(0.0, 1.0, n).astype(np.float32).astype(np.float64)

    r = audit_pair(side(0.0), side(1.0), samples=60_000, claimed_epsilon=1.0, rng=6,
                   float_bits=True, neighbours=[0.0, 1.0])
    assert r.verdict == "violation" and r.structural_leak
    assert r.counterexample["feature"] == "prec(value)" and r.event_class == "implementation"
    assert "more than 24 significant bits" in r.description
    assert "never under x = 0" in r.description
    assert ft.precision(np.array([1.0, 0.1, float(np.float32(0.1)), 0.0])).tolist() == \
        [1.0, 52.0, 24.0, 0.0]


def test_naive_float_laplace_is_a_structural_leak_on_a_zero_set() -> None:
    """Mironov's naive float Laplace (x + (−b·ln U)·sign, b = 10): outputs with an odd last bit
    are impossible under x = 1 in many binades.  The event is the *zero set* of the bit
    patterns — every cell with at least ZERO_MIN hits under x = 0 and none under x = 1 — not a
    likelihood-ratio level set, which also gathers cells of a few chance hits and is then not
    empty under x = 1 on the larger estimation sample."""
    def naive(x: float):
        def s(n: int, g: np.random.Generator) -> np.ndarray:
            u = 1.0 - g.random(n)
            mag = -10.0 * np.log(u)
            return x + np.where(g.random(n) < 0.5, -mag, mag)
        return s

    r = audit_pair(naive(0.0), naive(1.0), samples=200_000, claimed_epsilon=0.1, rng=7,
                   float_bits=True, neighbours=[0.0, 1.0])
    cex = r.counterexample
    assert r.verdict == "violation" and r.structural_leak and r.epsilon_lower_bound > 7.0
    assert cex["feature"] == "lowbits(value)" and cex["event"]["kind"] == "level_set"
    assert cex["b"]["count"] == 0 and cex["a"]["count"] > 5000
    assert "last two float64 mantissa bits" in r.description


def test_structural_candidate_preferred_within_the_slack() -> None:
    """A cell never hit under b (300 a-hits) against a threshold with ratio ≈ e^3.5: the
    threshold's predicted bound is higher by less than STRUCT_SLACK, so the structural cell is
    chosen; with ``prefer_structural=False`` the threshold is."""
    from privlab.audit import auditor as au
    from privlab.audit import events as ev

    ha = np.array([150, 30000, 40000, 20000, 9850])
    hb = np.array([0, 900, 40000, 30000, 29100])
    hists = {"a1": [ha], "a2": [ha], "b1": [hb], "b2": [hb]}
    feats = [au._Feature(name="value", part=ev.Partition(edges=np.arange(1.0, 5.0)))]
    kw = {"runs": True}
    on = au._select(hists, feats, 2_000_000, 0.05, 0.0, "epsilon", 1.0,
                    prefer_structural=True, **kw)
    off = au._select(hists, feats, 2_000_000, 0.05, 0.0, "epsilon", 1.0,
                     prefer_structural=False, **kw)
    assert on.structural and int(on.cands.count_b[on.j]) == 0
    assert not off.structural and int(off.cands.count_b[off.j]) > 0
    assert on.score < off.score < on.score + au.STRUCT_SLACK


@pytest.mark.parametrize("flag", ["tails", "runs", "support_scan", "multidim",
                                  "prefer_structural"])
def test_new_switches_are_validated(flag: str) -> None:
    from privlab.errors import InvalidParameter

    with pytest.raises(InvalidParameter, match=f"{flag}=1 must be True or False"):
        audit_pair(_grid(0.0), _grid(1.0), samples=2000, **{flag: 1})
