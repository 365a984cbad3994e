"""Floating-point Laplace: the naive float sampler against the lab's snapping/discrete safe mode.

``float-laplace-naive``: x + Y in doubles with Y from numpy's inverse-CDF Laplace sampler
(one 53-bit uniform).  Mironov (CCS 2012): the set of doubles reachable from x depends on x, so
the true loss is ∞.  Concretely for x = 1 and Y ∈ [−2, −1) (a double of spacing 2^−52),
1 + Y is computed exactly (Sterbenz) and is a multiple of 2^−52, so in the binade [−1, −½) of
spacing 2^−53 its last mantissa bit is 0, while for x = 0 the output Y there has its last bit
uniform: the event "last bit 1 in [−1, −½)" has probability ≈ P(Y ∈ [−1, −½))/2 under x = 0
and 0 under x = 1.  The auditor's ``lowbits`` feature finds such events black-box.

``float-laplace-safe``: :func:`privlab.mechanisms.noise.safe.safe_release` — exact discrete Laplace
on the grid Λℤ with rate ε' ≤ ε (exhaustively checked by ``check_safe_dp``): true loss ≤ ε for
any event, the low bits included.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from privlab import _validate as v
from privlab.audit.controls._base import Control
from privlab.mechanisms.noise.laplace import Laplace


def naive(epsilon: float = 0.1, sensitivity: float = 1.0) -> Control:
    eps, sens = v.positive("epsilon", epsilon), v.positive("sensitivity", sensitivity)

    def draw(x: Any, n: int, g: np.random.Generator) -> Any:
        return float(x) + g.laplace(0.0, sens / eps, n)

    return Control(name="float-laplace-naive", params={"epsilon": eps, "sensitivity": sens},
                   epsilon=eps, true_epsilon=math.inf, true_note="infinite", draw=draw,
                   pairs=((0.0, sens),), family="floating point", float_bits=True,
                   source="Mironov 2012 (naive x + Lap(Δ/ε) in doubles)")


def safe(epsilon: float = 0.1, sensitivity: float = 1.0) -> Control:
    eps, sens = v.positive("epsilon", epsilon), v.positive("sensitivity", sensitivity)
    mech = Laplace(epsilon=eps, sensitivity=sens)

    def draw(x: Any, n: int, g: np.random.Generator) -> Any:
        return mech.release(np.full(n, float(x)), rng=g, mode="safe")

    return Control(name="float-laplace-safe", params={"epsilon": eps, "sensitivity": sens},
                   epsilon=eps, true_epsilon=eps, true_note="upper bound", draw=draw,
                   pairs=((0.0, sens),), family="floating point", float_bits=True,
                   source="privlab safe mode (snapping grid + exact discrete Laplace)")


FACTORIES = {"float-laplace-naive": naive, "float-laplace-safe": safe}
