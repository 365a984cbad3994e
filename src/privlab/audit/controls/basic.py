"""Controls with closed-form ground truth: noise laws, randomized response, exponential mechanism,
noisy histograms.

Truths (Δ = 1 unless stated; "pair" is the exact loss on the audited pair):

* two-sided geometric, P(k) ∝ e^{−ε|k|/Δ} on ℤ: ε exactly (pmf ratio at a shift of Δ);
* randomized response, report x with probability e^ε/(1 + e^ε): ε exactly; the broken variant
  uses e^{2ε}/(1 + e^{2ε}): 2ε;
* exponential mechanism on k candidates, P(r) ∝ exp(ε·u(r)/(2Δu)) (McSherry–Talwar 2007):
  ε-DP, and sup over utilities is exactly ε (u = (s, 0, …, 0) vs (s − 1, 1, …, 1) as s → −∞);
  the pair s = −2, k = 20 has loss ε/2 + log(Z'/Z), computed below.  Without the ½ (a
  classic bug): 2ε;
* noisy histogram, Lap(1/ε) per cell, add/remove neighbours (one cell ±1): ε exactly; with
  Lap(ε) instead (StatDP's "histogram with wrong scale"): 1/ε; the correct histogram under
  substitution (two cells change, ±1 each): 2ε.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from privlab import _validate as v
from privlab.audit.controls._base import Control
from privlab.mechanisms.noise.controls import (
    HalfScaleLaplace,
    HalfWidthStaircase,
    WrongRatioStaircase,
)
from privlab.mechanisms.noise.laplace import Laplace
from privlab.mechanisms.noise.staircase import Staircase

NOISE_NAMES = ("laplace", "staircase", "broken-laplace-half-scale", "broken-staircase-ratio",
               "broken-staircase-width")


def laplace(epsilon: float = 1.0, sensitivity: float = 1.0) -> Laplace:
    return Laplace(epsilon=epsilon, sensitivity=sensitivity)


def staircase(epsilon: float = 1.0, sensitivity: float = 1.0, d: float | None = None) -> Staircase:
    if d is None:
        return Staircase.optimal(epsilon, sensitivity)
    return Staircase(epsilon=epsilon, sensitivity=sensitivity, d=d)


def broken_laplace(epsilon: float = 1.0, sensitivity: float = 1.0) -> HalfScaleLaplace:
    return HalfScaleLaplace(epsilon=epsilon, sensitivity=sensitivity)


def broken_ratio(epsilon: float = 1.0, sensitivity: float = 1.0,
                 d: float = 0.4) -> WrongRatioStaircase:
    return WrongRatioStaircase(epsilon=epsilon, sensitivity=sensitivity, d=d)


def broken_width(epsilon: float = 1.0, sensitivity: float = 1.0,
                 d: float = 0.3) -> HalfWidthStaircase:
    return HalfWidthStaircase(epsilon=epsilon, sensitivity=sensitivity, d=d)


def geometric(epsilon: float = 1.0) -> Control:
    eps = v.positive("epsilon", epsilon)
    q = -math.expm1(-eps)

    def draw(x: Any, n: int, g: np.random.Generator) -> Any:
        return int(x) + g.geometric(q, n) - g.geometric(q, n)

    return Control(name="geometric", params={"epsilon": eps}, epsilon=eps, true_epsilon=eps,
                   true_note="exact", draw=draw, pairs=((0, 1),), family="noise",
                   source="Ghosh, Roughgarden & Sundararajan 2009 (two-sided geometric)")


def _rr(name: str, eps: float, used: float) -> Control:
    p = 1.0 / (1.0 + math.exp(-used))  # e^used / (1 + e^used)

    def draw(x: Any, n: int, g: np.random.Generator) -> Any:
        keep = g.random(n) < p
        return np.where(keep, int(x), 1 - int(x)).astype(np.int64)

    return Control(name=name, params={"epsilon": eps}, epsilon=eps, true_epsilon=used,
                   true_note="exact", draw=draw, pairs=((0, 1),), family="randomized response",
                   source="Warner 1965; keep probability e^ε/(1+e^ε)")


def randomized_response(epsilon: float = 1.0) -> Control:
    eps = v.positive("epsilon", epsilon)
    return _rr("randomized-response", eps, eps)


def randomized_response_wrong(epsilon: float = 1.0) -> Control:
    eps = v.positive("epsilon", epsilon)
    return _rr("randomized-response-wrong", eps, 2 * eps)


EM_K, EM_S = 20, -2.0


def _em(name: str, eps: float, factor: float) -> Control:
    a = np.array([EM_S] + [0.0] * (EM_K - 1))
    b = np.array([EM_S - 1] + [1.0] * (EM_K - 1))

    def draw(u: Any, n: int, g: np.random.Generator) -> Any:
        w = np.exp(factor * eps * (np.asarray(u, float) - np.max(u)))
        cum = np.cumsum(w / w.sum())
        return np.minimum(np.searchsorted(cum, g.random(n), side="right"), EM_K - 1)

    def loss(x: np.ndarray, y: np.ndarray) -> float:
        px, py = np.exp(factor * eps * x), np.exp(factor * eps * y)
        return float(np.max(np.abs(np.log(px / px.sum()) - np.log(py / py.sum()))))

    pair = loss(a, b)
    return Control(name=name, params={"epsilon": eps, "pair_epsilon": pair}, epsilon=eps,
                   true_epsilon=2 * factor * eps, true_note="exact", draw=draw,
                   pairs=((a.tolist(), b.tolist()),), family="exponential mechanism",
                   source="McSherry & Talwar 2007; utility sensitivity 1, k = 20 candidates")


def exponential_mechanism(epsilon: float = 1.0) -> Control:
    return _em("exponential-mechanism", v.positive("epsilon", epsilon), 0.5)


def exponential_mechanism_no_half(epsilon: float = 1.0) -> Control:
    return _em("exponential-mechanism-no-half", v.positive("epsilon", epsilon), 1.0)


def _hist(name: str, eps: float, scale: float, true: float, pair: tuple[Any, Any]) -> Control:
    def draw(x: Any, n: int, g: np.random.Generator) -> Any:
        c = np.asarray(x, float)
        out = g.laplace(0.0, scale, (n, c.size))
        out += c[None, :]  # c + noise (addition commutes exactly), in place
        return out

    return Control(name=name, params={"epsilon": eps}, epsilon=eps, true_epsilon=true,
                   true_note="exact", draw=draw, pairs=(pair,), family="noisy histogram",
                   source="Dwork et al. 2006; variants as in StatDP (Ding et al. 2018)")


ADD = ([1, 1, 1, 1, 1], [2, 1, 1, 1, 1])
SUB = ([2, 1, 1, 1, 1], [1, 2, 1, 1, 1])


def histogram(epsilon: float = 1.0) -> Control:
    eps = v.positive("epsilon", epsilon)
    return _hist("histogram", eps, 1 / eps, eps, ADD)


def histogram_wrong_scale(epsilon: float = 0.5) -> Control:
    eps = v.positive("epsilon", epsilon)
    return _hist("histogram-wrong-scale", eps, eps, 1 / eps, ADD)


def histogram_substitute(epsilon: float = 1.0) -> Control:
    eps = v.positive("epsilon", epsilon)
    return _hist("histogram-substitute", eps, 1 / eps, 2 * eps, SUB)


FACTORIES = {
    "laplace": laplace, "staircase": staircase, "broken-laplace-half-scale": broken_laplace,
    "broken-staircase-ratio": broken_ratio, "broken-staircase-width": broken_width,
    "geometric": geometric, "randomized-response": randomized_response,
    "randomized-response-wrong": randomized_response_wrong,
    "exponential-mechanism": exponential_mechanism,
    "exponential-mechanism-no-half": exponential_mechanism_no_half,
    "histogram": histogram, "histogram-wrong-scale": histogram_wrong_scale,
    "histogram-substitute": histogram_substitute,
}
