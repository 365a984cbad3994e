"""Report-noisy-max variants (Dwork & Roth 2014 §3.3; buggy variants as in Ding, Wang, Wang,
Zhang & Kifer, "Detecting Violations of Differential Privacy", CCS 2018 / StatDP).

Queries q ∈ ℝ^m of sensitivity 1 (neighbours change every answer by ≤ 1), m = 5.

* ``noisy-max-laplace``: argmax_i (q_i + Lap(2/ε)) — ε-DP (each noisy answer is ε/2-DP and the
  argmax is ε-DP for sensitivity-1 queries; Dwork & Roth Claim 3.9 with 2/ε); upper bound.
* ``noisy-max-exponential``: argmax_i (q_i + Exp(2/ε)) — the exponential mechanism in
  disguise, ε-DP; upper bound.
* ``noisy-max-small-noise``: argmax with Lap(ε/2) noise (scale and rate swapped) — the same
  argument gives 4/ε (an upper bound, > ε for ε < 2).
* ``noisy-max-value``: returns the maximum noisy *value* with Lap(2/ε) — the max of m values
  each ε/2-DP: at most mε/2; shifting every answer by 1 attains it in the lower tail
  (P(max ≤ x) = Π P(q_i + η_i ≤ x) ∝ e^{m·x·ε/2} there), so the loss is exactly mε/2.
Pairs: (1, 1, 1, 1, 1) against (2, 0, 0, 0, 0) (index outputs) and 0⁵ against 1⁵.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from privlab import _validate as v
from privlab.audit.controls._base import Control

M = 5
PAIRS = (([1.0] * M, [2.0] + [0.0] * (M - 1)), ([0.0] * M, [1.0] * M))


def _row_max(y: Any) -> Any:
    """max over each row of y (n, m), as ``y.max(axis=1)`` (max is exact, the order of the
    comparisons does not matter) but column by column, without numpy's slow short-row
    reduction."""
    out = y[:, 0].copy()
    for j in range(1, y.shape[1]):
        np.maximum(out, y[:, j], out=out)
    return out


def _make(name: str, epsilon: float, noise: str, scale_of: Any, value: bool, true: Any,
          note: str) -> Control:
    eps = v.positive("epsilon", epsilon)
    scale = scale_of(eps)

    def draw(x: Any, n: int, g: np.random.Generator) -> Any:
        q = np.asarray(x, float)
        z = g.laplace(0.0, scale, (n, q.size)) if noise == "laplace" else \
            g.exponential(scale, (n, q.size))
        z += q[None, :]  # q_i + noise (addition commutes exactly), in place
        return _row_max(z) if value else z.argmax(axis=1)

    return Control(name=name, params={"epsilon": eps}, epsilon=eps, true_epsilon=true(eps),
                   true_note=note, draw=draw, pairs=PAIRS, family="noisy max",
                   source="Dwork & Roth 2014 §3.3; variants of Ding et al. 2018 (StatDP)")


def noisy_max_laplace(epsilon: float = 1.0) -> Control:
    return _make("noisy-max-laplace", epsilon, "laplace", lambda e: 2 / e, False,
                 lambda e: e, "upper bound")


def noisy_max_exponential(epsilon: float = 1.0) -> Control:
    return _make("noisy-max-exponential", epsilon, "exponential", lambda e: 2 / e, False,
                 lambda e: e, "upper bound")


def noisy_max_small_noise(epsilon: float = 1.0) -> Control:
    return _make("noisy-max-small-noise", epsilon, "laplace", lambda e: e / 2, False,
                 lambda e: 4 / e, "upper bound")


def noisy_max_value(epsilon: float = 1.0) -> Control:
    return _make("noisy-max-value", epsilon, "laplace", lambda e: 2 / e, True,
                 lambda e: M * e / 2, "exact")


FACTORIES = {"noisy-max-laplace": noisy_max_laplace,
             "noisy-max-exponential": noisy_max_exponential,
             "noisy-max-small-noise": noisy_max_small_noise, "noisy-max-value": noisy_max_value}
