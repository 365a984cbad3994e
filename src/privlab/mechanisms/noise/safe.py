"""Floating-point-safe release of Laplace and staircase noise (``release(..., mode="safe")``).

Threat model (long form: ``docs/threat-model.md``)
--------------------------------------------------
Mironov, "On significance of the least significant bits for differential privacy" (CCS 2012):
a float release ``x + Y`` with Y = F⁻¹(U) from a 53-bit uniform U is *not* ε-DP.  The set of
doubles reachable from x is finite and sparse and depends on x (the low-order bits of the output
carry x), so an attacker who sees one output o and knows the sampler can test whether o is
reachable from x and from a neighbour x'; for many o exactly one of them is, which separates
the neighbours with probability far beyond the factor e^ε (the privacy loss is infinite).  Naive
samplers also lose or distort tail mass (no output beyond ≈ 37·scale, float-rounded
probabilities near the tail), so even the ratio bound fails on events in the tail.  The fast
mode of privlab (``rng.laplace`` and inverse-CDF sampling from one float uniform) is exact only
up to float rounding and is NOT protected against any of this.

Safe mode (like OpenDP's / Google's secure noise, with Mironov's fixed output grid)
----------------------------------------------------------------------------------
1. Grid.  Λ = 2^k, by default the largest power of two ≤ Δ/1000 (else ``granularity``, which
   must be a power of two in [2^−1022, 2^970]).  j = round_half_even(x/Λ): x/Λ is exact because
   Λ is a power of two, so j is the exactly rounded grid index; |x/Λ| < 2^52 is required.
2. Integer sensitivity.  If |x − x'| ≤ Δ then |j − j'| ≤ K := ⌊Δ/Λ⌋ + 1.  Proof:
   |j − x/Λ| ≤ ½ and |j' − x'/Λ| ≤ ½, so |j − j'| ≤ |x − x'|/Λ + 1 ≤ Δ/Λ + 1, and an integer
   ≤ Δ/Λ + 1 is ≤ ⌊Δ/Λ + 1⌋ = ⌊Δ/Λ⌋ + 1.  (The bound is attained by round-half-even ties when
   Δ/Λ is an odd integer, so the "+1" cannot be dropped in general.)
3. Rational rate ε' ≤ ε: the mechanism's rate (Δ/scale for Laplace, ``rate`` for the staircase)
   as an exact Fraction, rounded DOWN to the best fraction of denominator ≤ 2^20 (conservative:
   a smaller rate means more noise).  A rate that exceeds the claimed ε only by float rounding
   of scale = Δ/ε (≤ 2^−50 relative) is snapped to Fraction(ε) first, so ε' ≤ ε holds exactly
   for the honest mechanisms; broken controls keep their (broken) rates.
4. Discrete noise, sampled exactly (:mod:`privlab.mechanisms.noise._exact`), on the integers:
   * Laplace: P(J = y) ∝ exp(−|y|·ε'/K) (scale K/ε' grid units; s/t = ε'/K reduced).  A shift by
     |δ| ≤ K changes the log-weight by ≤ |δ|·ε'/K ≤ ε'.
   * staircase: w(y) = 1 for |y| ≤ D, w(y) = r^{i+1} for |y| ∈ (D + iW, D + (i+1)W], r = e^{−ε'},
     with D = ⌊d/Λ⌋ and W = ⌊width/Λ⌋ + 1.  The step width is rounded UP exactly like the
     sensitivity (Δ ↦ K), so the honest staircase (width = Δ) gets W = K.  The level
     L(y) = ⌈(|y| − D)/W⌉⁺ changes by at most 1 under a shift |δ| ≤ K iff W ≥ K (same side: |y|
     moves by ≤ K ≤ W; across 0 both |y|, |y+δ| ≤ K ≤ D + W lie in levels ≤ 1), so the ratio is
     ≤ e^{ε'}.  Rounding W DOWN would give W = K − 1 for the honest staircase when Δ/Λ is an
     integer, and a shift by K would then cross two levels: loss 2ε'.  D may be rounded either
     way (any D ≥ 0 is private); ⌊·⌋ keeps the core inside [−d, d].
5. Output (j + J)·Λ, exactly representable because |j + J| < 2^53 (checked) and Λ ≥ 2^−1022.
   Every output lies on the fixed grid ΛZ whatever x is, and its law is exactly the shifted
   discrete law: Mironov's attack has nothing left to read.

Out of scope: timing side channels (the number of sampler rounds depends on the noise), the
quality of the PRNG (numpy's PCG64 is not cryptographic), and input errors (an out-of-range x
raises; clamp first).  See ``docs/threat-model.md``.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import attrs
import mpmath
import numpy as np
from numpy.typing import ArrayLike, NDArray

from privlab._rng import RngLike, as_generator
from privlab._validate import one_of, shape_tuple
from privlab.errors import InvalidParameter
from privlab.mechanisms.noise import _exact, _thresholds
from privlab.types import CheckResult, Method

MAX_DENOMINATOR = 2**20
"""ε' is the best fraction ≤ ε with denominator ≤ 2^20."""
MAX_GRID_UNITS = 2**35
"""Upper bound on K and W (keeps every integer of the samplers inside int64)."""
MAX_INPUT_INDEX = 2**52
"""Inputs must satisfy |x/Λ| < 2^52."""
MAX_OUTPUT_INDEX = 2**53
"""Outputs (j + J) must satisfy |j + J| < 2^53, so that (j + J)·Λ is an exact double."""
_SNAP = Fraction(1, 2**50)


@attrs.frozen(kw_only=True)
class DiscreteNoise:
    """The exact integer noise law used by safe mode, with the parameters actually used.

    ``kind`` is ``"laplace"`` (P(y) ∝ e^{−|y|·ε'/K}) or ``"staircase"`` (levels as in the module
    docstring).  Calling the object returns the exact pmf (mpmath at ``dps`` digits).
    """

    kind: str
    mechanism: str
    epsilon: float
    """The privacy parameter the mechanism claims."""
    epsilon_prime: Fraction
    """Rational rate actually used (≤ epsilon for honest mechanisms)."""
    granularity: float
    K: int
    D: int = 0
    W: int = 0

    def __attrs_post_init__(self) -> None:
        one_of("kind", self.kind, ("laplace", "staircase"))
        if not self.epsilon_prime > 0:
            raise InvalidParameter(f"epsilon_prime={self.epsilon_prime!r} must be > 0")
        for name, low in (("K", 1), ("D", 0), ("W", 1 if self.kind == "staircase" else 0)):
            val = getattr(self, name)
            if not isinstance(val, int) or val < low:
                raise InvalidParameter(f"{name}={val!r} must be an integer >= {low}")

    @property
    def unit(self) -> Fraction:
        """log w(y) = −unit·cost(y): ε'/K per grid unit (Laplace) or ε' per level (staircase)."""
        return self.epsilon_prime / self.K if self.kind == "laplace" else self.epsilon_prime

    def cost(self, y: ArrayLike) -> NDArray[np.int64]:
        """Integer cost: |y| (Laplace) or the level L(y) (staircase, 0 on the core)."""
        a = np.abs(np.asarray(y, dtype=np.int64))
        if self.kind == "laplace":
            return a
        return np.where(a <= self.D, 0, (a - self.D + self.W - 1) // self.W)

    def log_weight(self, y: int) -> Fraction:
        """Exact log of the unnormalised weight at the integer y (a rational number)."""
        return -self.unit * int(self.cost(int(y)))

    def normaliser(self, dps: int = 50) -> Any:
        with mpmath.workdps(dps):
            u = mpmath.mpf(self.unit.numerator) / self.unit.denominator
            r = mpmath.exp(-u)
            if self.kind == "laplace":
                return (1 + r) / (1 - r)
            return (2 * self.D + 1) + 2 * self.W * r / (1 - r)

    def pmf(self, y: int, dps: int = 50) -> Any:
        """P(J = y), exact up to mpmath's ``dps`` digits."""
        with mpmath.workdps(dps):
            lw = self.log_weight(y)
            return mpmath.exp(mpmath.mpf(lw.numerator) / lw.denominator) / self.normaliser(dps)

    __call__ = pmf

    def pmf_array(self, ys: ArrayLike, dps: int = 30) -> NDArray[np.float64]:
        """The pmf at each integer of ``ys`` as floats (for goodness-of-fit tests)."""
        flat = np.asarray(ys, dtype=np.int64).ravel()
        out = np.array([float(self.pmf(int(y), dps)) for y in flat])
        return out.reshape(np.shape(ys))

    @property
    def core_probability(self) -> float | None:
        """Staircase: P(|J| ≤ D) = a(1 − r)/(a(1 − r) + b·r) with a = 2D + 1, b = 2W,
        r = e^{−ε'}: the sampler's first decision, made exactly (:mod:`._exact`); here rounded
        to a float for reports.  None for Laplace."""
        if self.kind == "laplace":
            return None
        ep = self.epsilon_prime
        return float(_thresholds.staircase_core_bounds(ep.numerator, ep.denominator, self.D,
                                                       self.W, 64)[0])

    def sample(self, shape: Any = (), *, rng: RngLike = None) -> NDArray[np.int64]:
        """Exact integer samples of shape ``shape`` (vectorized; see :mod:`._exact`)."""
        shape = shape_tuple(shape)
        gen = as_generator(rng)
        n = math.prod(shape)
        if self.kind == "laplace":
            st = self.unit
            out = _exact.discrete_laplace(n, st.numerator, st.denominator, gen)
        else:
            ep = self.epsilon_prime
            out = _exact.discrete_staircase(n, ep.numerator, ep.denominator, self.D, self.W, gen)
        return out.reshape(shape)

    @property
    def parameters(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "kind": self.kind, "mechanism": self.mechanism, "epsilon": self.epsilon,
            "epsilon_prime": self.epsilon_prime, "epsilon_prime_float": float(self.epsilon_prime),
            "epsilon_prime_le_epsilon": self.epsilon_prime <= Fraction(self.epsilon),
            "granularity": self.granularity,
            "granularity_log2": math.frexp(self.granularity)[1] - 1, "K": self.K,
            "max_abs_input": MAX_INPUT_INDEX * self.granularity,
        }
        if self.kind == "laplace":
            out["scale_grid_units"] = 1 / self.unit
        else:
            out.update(D=self.D, W=self.W, core_probability=self.core_probability)
        return out


# --------------------------------------------------------------------------------------------
def _granularity(sensitivity: float, granularity: Any) -> float:
    if granularity is None:
        target = Fraction(sensitivity) / 1000
        lam = math.ldexp(0.5, math.frexp(float(target))[1])
        while Fraction(lam) > target:  # float(target) may have rounded up to a power of two
            lam /= 2
    else:
        ok = not isinstance(granularity, bool) and isinstance(granularity, int | float)
        lam = float(granularity) if ok else math.nan
        if not (ok and math.isfinite(lam) and lam > 0 and math.frexp(lam)[0] == 0.5):
            raise InvalidParameter(f"granularity={granularity!r} must be a power of two > 0")
    if not 2.0**-1022 <= lam <= 2.0**970:
        raise InvalidParameter(f"granularity={lam!r} must lie in [2^-1022, 2^970]")
    return lam


def _rate(rate: Fraction, epsilon: float) -> Fraction:
    eps = Fraction(epsilon)
    if eps < rate <= eps * (1 + _SNAP):  # float rounding of scale = Δ/ε, not a different rate
        rate = eps
    ep = _exact.rational_floor(rate, MAX_DENOMINATOR)
    if ep == 0:
        raise InvalidParameter(f"epsilon={epsilon!r} gives a rate {float(rate):.3g} below "
                               f"2^-20, the smallest rate safe mode represents")
    if ep.numerator >= _exact.INT_LIMIT:
        raise InvalidParameter(f"epsilon={epsilon!r} gives a rate {float(rate):.3g} too large "
                               f"for safe mode")
    return ep


def _grid_units(name: str, length: float, lam: float, plus_one: bool) -> int:
    n = math.floor(Fraction(length) / Fraction(lam)) + int(plus_one)
    if n > MAX_GRID_UNITS:
        raise InvalidParameter(f"granularity={lam!r} is too fine for {name}={length!r}: "
                               f"{n} grid units exceed 2^35")
    return n


def discrete_pmf(mech: Any, granularity: float | None = None) -> DiscreteNoise:
    """The exact discrete noise law safe mode uses for ``mech`` (see the module docstring).

    Dispatch: staircase-like objects (``d``, ``width``, ``rate``) and Laplace-like objects
    (``scale``); the properties are read, so broken controls keep their broken parameters.
    """
    is_stair = all(hasattr(mech, a) for a in ("d", "width", "rate"))
    if not (is_stair or hasattr(mech, "scale")) or not hasattr(mech, "sensitivity"):
        raise InvalidParameter(f"mech={type(mech).__name__} is neither Laplace-like (scale) nor "
                               f"staircase-like (d, width, rate)")
    delta, eps = float(mech.sensitivity), float(mech.epsilon)
    lam = _granularity(delta, granularity)
    k = _grid_units("sensitivity", delta, lam, plus_one=True)
    name = str(getattr(mech, "name", type(mech).__name__))
    if is_stair:
        ep = _rate(Fraction(float(mech.rate)), eps)
        d_units = _grid_units("d", float(mech.d), lam, plus_one=False)
        w_units = _grid_units("width", float(mech.width), lam, plus_one=True)
        return DiscreteNoise(kind="staircase", mechanism=name, epsilon=eps, epsilon_prime=ep,
                             granularity=lam, K=k, D=d_units, W=w_units)
    ep = _rate(Fraction(delta) / Fraction(float(mech.scale)), eps)
    if (ep / k).numerator >= _exact.INT_LIMIT or (ep / k).denominator >= _exact.INT_LIMIT:
        raise InvalidParameter(f"granularity={lam!r} is too fine for epsilon={eps!r}")
    return DiscreteNoise(kind="laplace", mechanism=name, epsilon=eps, epsilon_prime=ep,
                         granularity=lam, K=k)


def safe_parameters(mech: Any, granularity: float | None = None) -> dict[str, Any]:
    """The parameters safe mode would use for ``mech``, for reports (Fractions stay exact)."""
    return discrete_pmf(mech, granularity).parameters


def grid_index(value: ArrayLike, granularity: float) -> NDArray[np.int64]:
    """j = round_half_even(value/Λ) (exact: Λ is a power of two); |value/Λ| < 2^52 required.

    Computed as value·(1/Λ): 1/Λ = 2^−e is exact for Λ = 2^e in [2^−1022, 2^970], and both
    forms are the correctly rounded value·2^−e (the same floats, overflow and subnormals
    included).  The common case is screened by one max and one min (NaN propagates into
    both); only a failing input takes the element-wise checks that name the first bad value.
    """
    lam = _granularity(1.0, granularity)
    x = np.asarray(value, dtype=float)
    with np.errstate(over="ignore"):
        q = np.multiply(x, 1.0 / lam, out=np.empty_like(x))
    if q.size and not (-MAX_INPUT_INDEX < q.min() and q.max() < MAX_INPUT_INDEX):
        bad = ~np.isfinite(x)
        if np.any(bad):
            raise InvalidParameter(f"value={float(x[bad].flat[0])!r} must be finite")
        worst = float(x[np.abs(q) >= MAX_INPUT_INDEX].flat[0])
        raise InvalidParameter(f"value={worst!r} is too large for granularity={lam!r}: "
                               f"|value/granularity| must be < 2^52")
    j = np.rint(q, out=q).astype(np.int64)
    return j if j.ndim else j[()]  # a scalar for a scalar value, as numpy's ufuncs give


def _max_abs(a: NDArray[np.int64]) -> int:
    """max |a| as a Python int (0 for an empty array; no int64 overflow at −2^63)."""
    return max(int(a.max()), -int(a.min())) if a.size else 0


def safe_release(mech: Any, x: ArrayLike, *, rng: RngLike = None,
                 granularity: float | None = None) -> NDArray[np.float64]:
    """(round(x/Λ) + J)·Λ elementwise, with J drawn exactly from :func:`discrete_pmf`.

    The noise is drawn before and independently of x: for a fixed seed, the output minus the
    rounded input is the same whatever x is.
    """
    noise = discrete_pmf(mech, granularity)
    j = grid_index(x, noise.granularity)
    big_noise = noise.sample(j.shape, rng=rng)
    noise_bound = _max_abs(big_noise)
    total = np.add(j, big_noise, out=big_noise) if big_noise.ndim else j + big_noise  # ours
    if noise_bound >= MAX_OUTPUT_INDEX or _max_abs(total) >= MAX_OUTPUT_INDEX:
        raise InvalidParameter(f"value={np.asarray(x)!r}: the noisy grid index exceeds 2^53 "
                               f"(granularity={noise.granularity!r} too fine for this magnitude)")
    out = total.astype(np.float64)
    out *= noise.granularity  # (j + J)·Λ
    return out


# --------------------------------------------------------------------------------------------
def check_discrete_dp(noise: DiscreteNoise, epsilon: float | None = None, *,
                      max_pairs: int = 2 * 10**8) -> CheckResult:
    """Exhaustive exact check that pmf(y)/pmf(y + δ) ≤ e^ε for all y ∈ ℤ and |δ| ≤ K.

    log pmf(y) − log pmf(y + δ) = unit·(cost(y + δ) − cost(y)) with integer costs, so the worst
    log-ratio is an exact Fraction.  Window: y ∈ [−R, R] with R = K + 1 (Laplace) or
    R = D + K + W (staircase).  Why it suffices: w(−y) = w(y), so the pair (y, δ) has the ratio
    of (−y, −δ) and only y ≥ 0 needs an argument.  Laplace: for y ≥ K both y and y + δ are ≥ 0
    and the log-ratio is unit·δ, independent of y.  Staircase: for y ≥ D + 1 + K both y and
    y + δ are ≥ D + 1, where L(y + W) = L(y) + 1, so the log-ratio is periodic in y with period
    W; the window contains the full period [D + 1 + K, D + K + W] beyond that point.
    """
    eps = Fraction(noise.epsilon if epsilon is None else float(epsilon))
    k = noise.K
    radius = k + 1 if noise.kind == "laplace" else noise.D + k + noise.W
    pairs = (2 * radius + 1) * (2 * k + 1)
    claim = (f"safe {noise.mechanism}: integer noise on grid {noise.granularity!r} is "
             f"{float(eps):g}-DP for integer sensitivity K={k}")
    evidence: dict[str, Any] = {**noise.parameters, "window": [-radius, radius], "pairs": pairs}
    if pairs > max_pairs:
        evidence["reason"] = f"window of {pairs} pairs exceeds max_pairs={max_pairs}"
        return CheckResult(holds=False, claim=claim, evidence=evidence,
                           method=Method.EXHAUSTIVE, decided=False)
    ys = np.arange(-radius, radius + 1, dtype=np.int64)
    base = noise.cost(ys)
    # cost(y + δ) for every δ ∈ [−K, K] (rows, δ ascending) as windows of one cost array;
    # the first maximum in (δ, y) order, as a loop over δ keeping strict improvements gives
    ext = noise.cost(np.arange(-radius - k, radius + k + 1, dtype=np.int64))
    # costs are ≥ 0, so every difference lies in [−max, max]: the narrowest integer type that
    # holds it gives the same differences exactly (less memory traffic than int64)
    top = int(ext.max())
    small = next(t for t in (np.int8, np.int16, np.int32, np.int64) if top <= np.iinfo(t).max)
    base, ext = base.astype(small), ext.astype(small)
    shifted = np.lib.stride_tricks.sliding_window_view(ext, ys.size)
    worst, arg = -1, (0, 0)
    block = max(1, (1 << 22) // ys.size)
    for lo in range(0, 2 * k + 1, block):
        diff = shifted[lo:lo + block] - base[None, :]
        r, i = np.unravel_index(int(np.argmax(diff)), diff.shape)
        if diff[r, i] > worst:
            worst, arg = int(diff[r, i]), (int(ys[i]), int(lo + r) - k)
    loss = noise.unit * worst
    evidence.update(worst_cost_jump=worst, worst_log_ratio=loss,
                    worst_log_ratio_le_epsilon_prime=loss <= noise.epsilon_prime)
    holds = loss <= eps
    counter = None if holds else {"y": arg[0], "shift": arg[1], "log_ratio": loss,
                                  "log_ratio_float": float(loss), "epsilon": float(eps)}
    return CheckResult(holds=holds, claim=claim, value=loss, evidence=evidence,
                       counterexample=counter, method=Method.EXHAUSTIVE)


def check_safe_dp(mech: Any, granularity: float | None = None) -> CheckResult:
    """:func:`check_discrete_dp` of the noise safe mode uses for ``mech``, against its ε."""
    return check_discrete_dp(discrete_pmf(mech, granularity), float(mech.epsilon))
