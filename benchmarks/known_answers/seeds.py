"""privlab's own noise mechanisms (the seeds' releases), through their public ``release``:
Laplace and the staircase, correct and with broken parameters.

The staircase density (``privlab.mechanisms.noise.staircase``, thesis §4.4 Theorem 1) is
f(y) = M0 for |y| ≤ d and M0·e^{−ρ(i+1)} for d + i·w < |y| ≤ d + (i+1)·w, with decay ρ
(``.rate``) and step width w (``.width``).  The log-ratio log f(y) − log f(y − s) is therefore
piecewise constant, −ρ·(idx(|y|) − idx(|y − s|)) with idx(a) = 0 on the core and
⌈(a − d)/w⌉ beyond, and its supremum is found exactly by evaluating it (in rational arithmetic)
between every pair of consecutive breakpoints ±(d + jw), s ± (d + jw) over enough periods
(:func:`staircase_epsilon`).
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction
from typing import Any

import numpy as np
from numpy.typing import NDArray

from privlab.mechanisms.noise.controls import HalfWidthStaircase, WrongRatioStaircase
from privlab.mechanisms.noise.laplace import Laplace
from privlab.mechanisms.noise.staircase import Staircase

from . import KnownAnswer, entry

Arr = NDArray[Any]
REF = "privlab.mechanisms.noise (thesis §4.4, Theorem 1; Geng & Viswanath 2014)"


def _release(mech: Any, x: float) -> Any:
    def s(n: int, g: np.random.Generator) -> Arr:
        return np.asarray(mech.release(np.full(n, x), rng=g))
    return s


def _idx(a: Fraction, d: Fraction, w: Fraction) -> int:
    """Step index of |y| = a: 0 on the core [0, d], i + 1 on (d + iw, d + (i+1)w]."""
    if a <= d:
        return 0
    q = (a - d) / w
    return math.ceil(q)


def staircase_epsilon(rate: float, width: float, d: float, shift: float) -> float:
    """sup_y |log f(y) − log f(y − shift)| for the staircase density with decay ``rate``, step
    ``width`` and core half-width ``d`` (exact: rational breakpoints, piecewise constant
    log-ratio; the pattern repeats with period w beyond the last breakpoint used)."""
    w, dd, s = Fraction(width), Fraction(d), Fraction(shift)
    reps = math.ceil(s / w) + 6
    base = [dd + j * w for j in range(reps + 1)]
    cuts = sorted({c for b in base for c in (b, -b, s + b, s - b)})
    mids = [cuts[0] - w, *((a + b) / 2 for a, b in itertools.pairwise(cuts)), cuts[-1] + w]
    worst = max(abs(_idx(abs(y), dd, w) - _idx(abs(y - s), dd, w)) for y in mids)
    return float(worst) * rate


def _stair_entry(name: str, mech: Any, shift: float, claimed: float, why: str) -> KnownAnswer:
    return KnownAnswer(name=name, family="privlab mechanisms", pair=f"x = 0 vs x = {shift:g}",
                       sample_a=_release(mech, 0.0), sample_b=_release(mech, shift),
                       claimed_epsilon=claimed,
                       truth=lambda: staircase_epsilon(mech.rate, mech.width, mech.d, shift),
                       reference=f"{REF}; {why}", cost=2.0)


@entry
def privlab_laplace() -> KnownAnswer:
    """privlab ``Laplace(epsilon=1).release`` (fast mode), x = 0 vs 1: x + Lap(Δ/ε) with Δ = 1,
    density ratio e^{(|y − 1| − |y|)/b}, b = 1: true ε = 1 exactly (law; attained on {y ≤ 0})."""
    mech = Laplace(epsilon=1.0)
    return KnownAnswer(name="privlab-laplace", family="privlab mechanisms",
                       pair="x = 0 vs x = 1", sample_a=_release(mech, 0.0),
                       sample_b=_release(mech, 1.0), claimed_epsilon=1.0,
                       truth=lambda: float(Fraction(1) / Fraction(mech.scale)),
                       reference="Dwork, McSherry, Nissim & Smith 2006", cost=1.0)


@entry
def privlab_staircase() -> KnownAnswer:
    """privlab ``Staircase.optimal(1.0)`` (variance-optimal staircase, Geng & Viswanath 2014;
    thesis §4.4), x = 0 vs 1: a shift by Δ = w moves |y| by at most one step, so the log-ratio is
    at most ρ = ε and equals it between breakpoints (exact piecewise-constant enumeration,
    :func:`staircase_epsilon`): true ε = 1."""
    mech = Staircase.optimal(1.0)
    return _stair_entry("privlab-staircase", mech, 1.0, 1.0, "variance-optimal member")


@entry
def privlab_staircase_half_sensitivity() -> KnownAnswer:
    """privlab ``Staircase.optimal(1.0, sensitivity=0.5)`` used on a query of sensitivity 1 (a
    broken parameter: Δ declared half the real one), x = 0 vs 1.  Steps have width 0.5, a shift
    by 1 crosses two of them: exact piecewise-constant enumeration gives true ε = 2ρ = 2
    (:func:`staircase_epsilon`)."""
    mech = Staircase.optimal(1.0, sensitivity=0.5)
    return _stair_entry("privlab-staircase-half-sensitivity", mech, 1.0, 1.0,
                        "sensitivity declared 0.5")


@entry
def privlab_staircase_wrong_ratio() -> KnownAnswer:
    """privlab's broken control ``WrongRatioStaircase(epsilon=1, d=0.4)``: steps decay by
    e^{−1.5ε} while ε = 1 is claimed, x = 0 vs 1.  A shift by Δ moves one step: exact enumeration
    gives true ε = 1.5 (:func:`staircase_epsilon`)."""
    mech = WrongRatioStaircase(epsilon=1.0, d=0.4)
    return _stair_entry("privlab-staircase-wrong-ratio", mech, 1.0, 1.0, "broken control")


@entry
def privlab_staircase_half_width() -> KnownAnswer:
    """privlab's broken control ``HalfWidthStaircase(epsilon=1, d=0.3)``: steps of width Δ/2,
    so a shift by Δ crosses two steps, x = 0 vs 1: exact enumeration gives true ε = 2
    (:func:`staircase_epsilon`)."""
    mech = HalfWidthStaircase(epsilon=1.0, d=0.3)
    return _stair_entry("privlab-staircase-half-width", mech, 1.0, 1.0, "broken control")


WITNESS_SEED = 20240601


def laplace_fast_witness(mech: Laplace, n: int = 4096) -> float | None:
    """An output of ``mech.release`` on x = 0 (seeded draw: it has positive probability) that
    lies in [−1, −1/2) with its last mantissa bit 1; None when the draw holds none."""
    y = np.asarray(mech.release(np.zeros(n), rng=np.random.default_rng(WITNESS_SEED)))
    ok = (y >= -1.0) & (y < -0.5) & ((y.view(np.uint64) & np.uint64(1)) == 1)
    return float(y[ok][0]) if ok.any() else None


@entry
def privlab_laplace_fast_bits() -> KnownAnswer:
    """privlab ``Laplace(epsilon=0.1).release`` in its fast (float64) mode audited as an
    implementation (``float_bits``), x = 0 vs 1 — Mironov's attack on privlab's own release (the
    docs say fast mode is naive in this sense and ``mode="safe"`` fixes it).  Under x = 1 an
    output in [−1, −1/2) is 1 + Y with Y ∈ [−2, −1.5), exact by Sterbenz and a multiple of 2⁻⁵²,
    so its last mantissa bit is 0; under x = 0 a seeded draw (:func:`laplace_fast_witness`)
    exhibits an output there with last bit 1.  True ε = ∞ (Mironov, CCS 2012)."""
    mech = Laplace(epsilon=0.1)
    return KnownAnswer(name="privlab-laplace-fast-bits", family="privlab mechanisms",
                       pair="x = 0 vs x = 1", sample_a=_release(mech, 0.0),
                       sample_b=_release(mech, 1.0), claimed_epsilon=0.1,
                       truth=lambda: math.inf if laplace_fast_witness(mech) is not None
                       else math.nan, target="implementation", reference="Mironov, CCS 2012",
                       float_bits=True, cost=2.0)
