"""The pruned selection (events.best_score) picks exactly what the full argmax picks."""

from __future__ import annotations

import numpy as np
import pytest

from privlab.audit import events as ev


def _full(big, small, n_sel, n_est, alpha, delta, sa):
    s_cp = ev.score(big, small, n_sel, n_est, alpha, delta, sa)
    s_jt = ev.score_joint(big, small, n_sel, n_est, alpha, delta, sa)
    s = np.where(s_jt > s_cp, s_jt, s_cp)
    j = int(np.argmax(s))
    return j, float(s[j]), bool(s_jt[j] > s_cp[j])


@pytest.mark.parametrize("seed", range(40))
def test_best_score_equals_full_argmax(seed: int) -> None:
    rng = np.random.default_rng(seed)
    m = int(rng.integers(1, 3000))
    n = int(rng.choice([200, 5_000, 300_000]))
    p = rng.uniform(0, 1, m) ** rng.uniform(0.5, 4)
    ratio = np.exp(rng.normal(0, rng.uniform(0.01, 2), m))
    big = rng.binomial(n, p)
    small = rng.binomial(n, np.clip(p / ratio, 0, 1))
    if seed % 4 == 0:  # many exact ties
        big[: m // 2], small[: m // 2] = big[0], small[0]
    n_sel = np.full(m, n)
    delta = float(rng.choice([0.0, 0.0, 1e-4]))
    n_est = int(n * 7 / 3)
    sa = 0.05 / (2 * m)
    assert ev.best_score(big, small, n_sel, n_est, 0.05, delta, sa) == \
        _full(big, small, n_sel, n_est, 0.05, delta, sa)


def test_best_score_can_fail_when_the_bound_is_wrong(monkeypatch: pytest.MonkeyPatch) -> None:
    """Mutant: a pruning bar above the true maximum loses the winner."""
    rng = np.random.default_rng(3)
    m, n = 2000, 300_000
    big = rng.binomial(n, rng.uniform(0.001, 0.5, m))
    small = rng.binomial(n, rng.uniform(0.001, 0.5, m))
    args = (big, small, np.full(m, n), 700_000, 0.05, 0.0, 0.05 / (2 * m))
    monkeypatch.setattr(ev, "PRUNE_TOP", 1)
    real_score = ev.score
    monkeypatch.setattr(ev, "score", lambda *a, **k: real_score(*a, **k) + 5.0)  # too high
    got = ev.best_score(*args)
    monkeypatch.setattr(ev, "score", real_score)
    assert got != _full(*args)
