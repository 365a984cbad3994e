"""An adaptive attack on knowledge refinement in the spirit of thesis §5.4.2.

The adversary targets one person's Boolean attribute B.  Within a budget ε it asks ``rounds``
individual queries of ε/rounds each (Protocol 2 admits exactly these), always sending as prior
its current posterior P(B = 1 | answers so far) — the adaptive choice of priors the thesis warns
about — with the nominal distance, and finally outputs its posterior (any function F of the
answers, Proposition 5).  Corollary 2 says the estimate is ε-DP whatever the strategy.

For a two-point prior with mass m on the true answer t and individual factors, Algorithm 5.1
reduces to the closed form P(answer = t) = min(α_u m, 1 − α_d(1 − m)) (then/else branches
coincide at m = p_u); :func:`binary_refined_p1` is the vectorized form, tested against the
general algorithm.  :func:`simulate` draws n independent attacks at once; :func:`exact_law`
enumerates all 2^rounds transcripts.
"""

from __future__ import annotations

import itertools
import math
from typing import Any

import numpy as np

from privlab import _validate as v
from privlab._rng import RngLike, as_generator

PRESENT_1, PRESENT_0, ABSENT = "present, B=1", "present, B=0", "absent"
CASES = (PRESENT_1, PRESENT_0, ABSENT)


def binary_refined_p1(q: Any, b: int, eps: float) -> np.ndarray:
    """P(answer = 1) when the prior is P(1) = q and the true value is b ∈ {0, 1}."""
    q = np.asarray(q, dtype=float)
    au, ad = math.exp(eps), math.exp(-eps)
    m = q if b == 1 else 1.0 - q
    p_t = np.minimum(au * m, 1.0 - ad * (1.0 - m))
    return p_t if b == 1 else 1.0 - p_t


def _p1(q: np.ndarray, case: str, eps: float) -> np.ndarray:
    if case == ABSENT:
        return q
    return binary_refined_p1(q, 1 if case == PRESENT_1 else 0, eps)


def _update(q: np.ndarray, ans: np.ndarray, eps: float) -> np.ndarray:
    """Adversary's Bayes update, modelling the person as present with B ~ Bernoulli(q)."""
    l1 = binary_refined_p1(q, 1, eps)
    l0 = binary_refined_p1(q, 0, eps)
    like1 = np.where(ans == 1, l1, 1.0 - l1)
    like0 = np.where(ans == 1, l0, 1.0 - l0)
    num = q * like1
    den = num + (1.0 - q) * like0
    return np.where(den > 0, num / np.where(den > 0, den, 1.0), q)


def _check(budget: float, rounds: int, prior: float, case: str) -> tuple[float, int, float]:
    eps = v.positive("budget", budget)
    k = v.positive_int("rounds", rounds)
    q0 = v.in_open("prior", prior, 0.0, 1.0)
    v.one_of("case", case, CASES)
    return eps, k, q0


def simulate(n: int, case: str, *, budget: float = 1.0, rounds: int = 4, prior: float = 0.3,
             rng: RngLike = None) -> np.ndarray:
    """Final posterior estimates of ``n`` independent adaptive attacks (shape (n,))."""
    eps, k, q0 = _check(budget, rounds, prior, case)
    gen = as_generator(rng)
    q = np.full(v.positive_int("n", n), q0)
    for _ in range(k):
        ans = (gen.random(q.shape) < _p1(q, case, eps / k)).astype(np.int8)
        q = _update(q, ans, eps / k)
    return q


def exact_law(case: str, *, budget: float = 1.0, rounds: int = 4,
              prior: float = 0.3) -> dict[tuple[int, ...], tuple[float, float]]:
    """transcript → (probability, final estimate), over all 2^rounds transcripts."""
    eps, k, q0 = _check(budget, rounds, prior, case)
    out = {}
    for tr in itertools.product((0, 1), repeat=k):
        q, p = np.array([q0]), 1.0
        for a in tr:
            p1 = float(_p1(q, case, eps / k)[0])
            p *= p1 if a == 1 else 1.0 - p1
            q = _update(q, np.array([a]), eps / k)
        out[tr] = (p, float(q[0]))
    return out


def worst_log_ratio(*, budget: float = 1.0, rounds: int = 4, prior: float = 0.3) -> dict[str, Any]:
    """Exact worst |log P_D(F = y)/P_D′(F = y)| over add/remove pairs (present vs absent)."""
    laws = {c: exact_law(c, budget=budget, rounds=rounds, prior=prior) for c in CASES}
    worst, where = 0.0, None
    for present in (PRESENT_1, PRESENT_0):
        est_a: dict[float, float] = {}
        est_b: dict[float, float] = {}
        for p, y in laws[present].values():
            est_a[round(y, 12)] = est_a.get(round(y, 12), 0.0) + p
        for p, y in laws[ABSENT].values():
            est_b[round(y, 12)] = est_b.get(round(y, 12), 0.0) + p
        for y in set(est_a) | set(est_b):
            a, b = est_a.get(y, 0.0), est_b.get(y, 0.0)
            r = math.inf if min(a, b) == 0 and max(a, b) > 0 else abs(math.log(a / b))
            if r > worst:
                worst, where = r, {"pair": [present, ABSENT], "estimate": y, "p": [a, b]}
    return {"worst_log_ratio": worst, "budget": budget, "rounds": rounds, "where": where,
            "transcripts": 2**rounds}
