"""Issue 33 item 2: the partition reaches the tails (extreme order statistics of every stretch
between atoms, and beyond the pilot's range), for both the ε and the δ objective."""

from __future__ import annotations

import numpy as np
import pytest

from privlab.audit import audit_pair
from privlab.audit import events as ev


def _blob(weight: float):
    """Laplace(0, 1), but with probability ``weight`` the output is −15 − Exp(1): a far-left
    blob that the other input never produces (below every 1/200 pooled quantile)."""
    def s(n: int, g: np.random.Generator) -> np.ndarray:
        y = g.laplace(0.0, 1.0, n)
        return np.where(g.random(n) < weight, -15.0 - g.exponential(1.0, n), y)
    return s


def _laplace(n: int, g: np.random.Generator) -> np.ndarray:
    return g.laplace(0.0, 1.0, n)


def test_tail_edges_reach_the_extreme_order_statistics() -> None:
    y = np.sort(np.random.default_rng(0).normal(size=20_000))
    base = ev.build_partition(y, 200).edges
    tails = ev.build_partition(y, 200, tails=True).edges
    assert base.min() > y[50] and base.max() < y[-50]  # the 1/200 quantiles, not beyond
    for rank in (1, 2, 4, 8, 16, 32):  # log-spaced order statistics at both ends
        assert y[rank - 1] in tails and y[-rank] in tails
    assert tails.min() < y[0] and tails.max() > y[-1]  # a little beyond the pilot's range
    assert set(base.tolist()) <= set(tails.tolist())


def test_stretches_between_atoms_get_their_own_edges() -> None:
    """A continuous value beside two atoms carrying 99 % of the mass (the released answer of a
    sparse vector beside its ⊥ codes) gets edges inside its stretch."""
    g = np.random.default_rng(1)
    y = np.concatenate([np.full(10_000, -2e6), np.full(9_800, -1e6), g.normal(size=200)])
    base = ev.build_partition(y, 200).edges
    tails = ev.build_partition(y, 200, tails=True).edges
    inside = lambda e: int(np.count_nonzero(e > -1e6))  # noqa: E731
    assert inside(base) <= 2 and inside(tails) >= 20


def test_far_tail_leak_found_on_both_objectives() -> None:
    """The blob has probability 0.3 % under a and (numerically) none under b: δ(1) ≥ 0.003
    and ε = ∞.  The plain quantile partition puts it in one cell with the Laplace tail, where
    the δ objective sees nothing."""
    kw = {"samples": 200_000, "claimed_epsilon": 1.0, "rng": 2, "objective": "delta",
          "delta": 1e-4}
    r = audit_pair(_blob(0.003), _laplace, **kw)
    assert r.verdict == "violation" and 0.0015 < r.delta_lower_bound <= 0.0031
    r0 = audit_pair(_blob(0.003), _laplace, tails=False, **kw)
    assert r0.verdict == "consistent" and r0.delta_lower_bound < 1e-4
    e = audit_pair(_blob(0.003), _laplace, samples=200_000, claimed_epsilon=1.0, rng=2)
    assert e.verdict == "violation" and e.structural_leak and e.epsilon_lower_bound > 4.0
    assert "never under sample_b" in e.description


@pytest.mark.parametrize("seed", [0, 1])
def test_correct_gaussian_not_flagged_with_tails(seed: int) -> None:
    """x + N(0, 1) is (ε, δ(ε))-DP with the exact profile δ(1) = Φ(−½) − e·Φ(−3/2) ≈ 0.1269
    (Balle & Wang 2018): a claim of δ = 0.13 at ε = 1 holds and must not be flagged."""
    def gauss(x: float):
        return lambda n, g: x + g.standard_normal(n)

    r = audit_pair(gauss(0.0), gauss(1.0), samples=100_000, claimed_epsilon=1.0, delta=0.13,
                   objective="delta", rng=seed)
    assert r.verdict == "consistent" and r.delta_lower_bound <= 0.1269
