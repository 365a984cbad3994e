"""Sparse vector technique variants of Lyu, Su & Li, "Understanding the Sparse Vector Technique
for Differential Privacy" (PVLDB 10(6), 2017), Figure 1, Algorithms 1–6.

All take query answers q ∈ ℝ^m (sensitivity Δ = 1: neighbours change every answer by ≤ 1),
threshold T, cutoff c and claim ε.  Output row (length m): 1 = ⊤, 0 = ⊥, −1 = not answered
(after the c-th ⊤); Algorithm 3 outputs the noisy answer q_i + ν_i instead of ⊤, with ⊥ and
"not answered" coded −10⁶ and −2·10⁶.  Noise (ε₁ = ε/2, ε₂ = ε − ε₁ unless stated):

1. Lyu et al.: ρ ~ Lap(Δ/ε₁), ν_i ~ Lap(2cΔ/ε₂), stop after c ⊤.            ε-DP.
2. Dwork & Roth 2014: ρ ~ Lap(cΔ/ε₁), ν_i ~ Lap(2cΔ/ε₁), ρ redrawn after each ⊤. ε-DP.
3. Roth 2011: ρ ~ Lap(Δ/ε₁), ν_i ~ Lap(cΔ/ε₂), outputs q_i + ν_i on ⊤.      ∞-DP (as m grows).
4. Lee & Clifton 2014: ε₁ = ε/4, ρ ~ Lap(Δ/ε₁), ν_i ~ Lap(Δ/ε₂).          ((1 + 6c)/4)·ε-DP.
5. Stoddard et al. 2014: ρ ~ Lap(Δ/ε₁), no query noise, no cutoff.          ∞-DP.
6. Chen et al. 2015: ρ ~ Lap(Δ/ε₁), ν_i ~ Lap(Δ/ε₂), no cutoff.             ∞-DP (as m grows).

The ((1 + 6c)/4)·ε of Algorithm 4 is the paper's upper bound (not known to be tight).  For
Algorithms 3 and 6 the loss is finite for a fixed number m of queries but unbounded in m.
Audited pairs (m = 10, T = 0.5): the answers (0⁵, 1⁵) against (1⁵, 0⁵) and 0¹⁰ against 1¹⁰.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from privlab import _validate as v
from privlab.audit.controls._base import Control

M, T = 10, 0.5
PAIRS = (([0.0] * 5 + [1.0] * 5, [1.0] * 5 + [0.0] * 5), ([0.0] * M, [1.0] * M))
BOT, NONE = -1e6, -2e6


def _run(q: Any, n: int, g: np.random.Generator, *, c: int, rho: float, nu: float,
         redraw: float | None = None, numeric: bool = False, cutoff: bool = True) -> Any:
    """n runs of the algorithm on answers q: an (n, m) array.  Generator calls, in order: ρ (n),
    then per query ν_i (n, when ``nu`` > 0) and, for ``redraw``, a fresh ρ (n) when some run
    answered ⊤.  Query i of a run is ⊤ when q_i + ν_i ≥ T + ρ.  The answers are written query by
    query into contiguous rows of an (m, n) buffer, transposed to (n, m) at the end; with
    c = 1 "answered c times" is "answered ⊤ before", kept as a mask without a counter (the same
    floats, draws and order as ``_run_reference`` in the tests, the loop of ``np.where``
    temporaries it replaced)."""
    q = np.asarray(q, dtype=float)
    lim = T + g.laplace(0.0, rho, n)  # T + ρ, updated where ρ is redrawn
    out = np.empty((q.size, n))
    bot, none = (BOT, NONE) if numeric else (0.0, -1.0)
    count = np.zeros(n, dtype=np.int64) if cutoff and c > 1 else None
    done = np.zeros(n, dtype=bool)  # answered c times: "not answered" from here on
    top = np.empty(n, dtype=bool)
    for i in range(q.size):
        if nu > 0:
            val = g.laplace(0.0, nu, n)
            val += q[i]  # q_i + ν_i (addition commutes exactly)
        else:
            val = q[i] + 0.0
        np.greater_equal(val, lim, out=top)
        row = out[i]
        if numeric:
            row.fill(bot)
            np.copyto(row, val, where=top)
        else:
            np.copyto(row, top)  # 1.0 on ⊤, 0.0 = ⊥ elsewhere
        if cutoff:
            np.copyto(row, none, where=done)
            np.greater(top, done, out=top)  # ⊤ and not done: the runs that answered ⊤ here
            if count is None:
                done |= top
            else:
                count += top
                np.greater_equal(count, c, out=done)
        if redraw is not None and top.any():
            fresh = g.laplace(0.0, redraw, n)
            fresh += T  # T + ρ' (addition commutes exactly)
            np.copyto(lim, fresh, where=top)
    return np.ascontiguousarray(out.T)


def _make(alg: int, epsilon: float, c: int) -> Control:
    eps = v.positive("epsilon", epsilon)
    c = v.positive_int("c", c)
    e1 = eps / 4 if alg == 4 else eps / 2
    e2 = eps - e1
    kw: dict[str, Any] = {
        1: {"rho": 1 / e1, "nu": 2 * c / e2},
        2: {"rho": c / e1, "nu": 2 * c / e1, "redraw": c / e1},
        3: {"rho": 1 / e1, "nu": c / e2, "numeric": True},
        4: {"rho": 1 / e1, "nu": 1 / e2},
        5: {"rho": 1 / e1, "nu": 0.0, "cutoff": False},
        6: {"rho": 1 / e1, "nu": 1 / e2, "cutoff": False},
    }[alg]
    true, note = {1: (eps, "upper bound"), 2: (eps, "upper bound"),
                  3: (math.inf, "infinite as queries grow"),
                  4: ((1 + 6 * c) / 4 * eps, "upper bound"), 5: (math.inf, "infinite"),
                  6: (math.inf, "infinite as queries grow")}[alg]

    def draw(x: Any, n: int, g: np.random.Generator) -> Any:
        return _run(x, n, g, c=c, **kw)

    src = ["Lyu, Su & Li 2017 Alg. 1", "Dwork & Roth 2014 (Lyu et al. Alg. 2)",
           "Roth 2011 (Lyu et al. Alg. 3)", "Lee & Clifton 2014 (Lyu et al. Alg. 4)",
           "Stoddard et al. 2014 (Lyu et al. Alg. 5)", "Chen et al. 2015 (Lyu et al. Alg. 6)"]
    return Control(name=f"svt{alg}", params={"epsilon": eps, "c": c}, epsilon=eps,
                   true_epsilon=true, true_note=note, draw=draw, pairs=PAIRS,
                   family="sparse vector", source=src[alg - 1])


def svt1(epsilon: float = 1.0, c: int = 1) -> Control:
    return _make(1, epsilon, c)


def svt2(epsilon: float = 1.0, c: int = 2) -> Control:
    return _make(2, epsilon, c)


def svt3(epsilon: float = 1.0, c: int = 1) -> Control:
    return _make(3, epsilon, c)


def svt4(epsilon: float = 1.0, c: int = 1) -> Control:
    return _make(4, epsilon, c)


def svt5(epsilon: float = 1.0, c: int = 1) -> Control:
    return _make(5, epsilon, c)


def svt6(epsilon: float = 1.0, c: int = 1) -> Control:
    return _make(6, epsilon, c)


FACTORIES = {"svt1": svt1, "svt2": svt2, "svt3": svt3, "svt4": svt4, "svt5": svt5, "svt6": svt6}
