"""Optimal multivariate shell noise for a box sensitivity set (thesis §4.5, Theorem 3).

Sensitivity set S_f = Π_j [−s_j, s_j] (Definition 9), core S_0 = Π_j [−z_j, z_j] ⊂ S_f.  The
thesis builds S_i = (S_{i−1} + S_f) \\ ∪_{j<i} S_j and the density f(x) = M·e^{−iε} on S_i.

* Shells.  By induction ∪_{j≤i} S_j = S_0 + i·S_f =: B_i (S_f convex, so a·S_f + b·S_f =
  (a + b)·S_f), and a Minkowski sum of centred boxes is the box of summed half-widths, so
  B_i = Π[−(z_j + i s_j), z_j + i s_j] and the shell of x is
  i(x) = max(0, ⌈max_j (|x_j| − z_j)/s_j⌉).  (Checked against the set recursion on a lattice by
  :func:`privlab.verify.noise.multivariate.check_shell_recursion`.)
* DP.  For |δ_j| ≤ s_j, (|x_j + δ_j| − z_j)/s_j ≥ (|x_j| − z_j)/s_j − 1, so i(x+δ) ≥ i(x) − 1
  and f(x) ≤ e^ε f(x + δ).  The lemma never uses S_0 ⊂ S_f: that hypothesis of Theorem 3 is
  about optimality, not privacy.
* Normalisation.  V(i) = vol B_i = Π 2(z_j + i s_j); 1 = M Σ_i r^i (V(i) − V(i−1)) =
  M(1 − r) Σ_i r^i V(i), summed exactly by :mod:`privlab.mechanisms.noise._shell_series`.
* Marginal of Y_j at |x| in shell k of the axis (k = max(0, ⌈(|x| − z_j)/s_j⌉)):
  f_j(x) = M(1 − r) r^k Σ_{n≥0} r^n L(k + n), L(m) = Π_{l≠j} 2(z_l + m s_l)
  (d = 2: 2M e^{−kε}(z_2 + k s_2 + s_2/(e^ε − 1)), the thesis's formula after Example 5).
* E Y_j² = M(1 − r) Σ_i r^i W(i), W(i) = ∫_{B_i} x_j² dx = (2a_j³/3) Π_{l≠j} 2a_l, a = z + i s.
* P(Y ∈ Π[l_j, u_j]) = M(1 − r) Σ_i r^i Π_j |[l_j, u_j] ∩ [−a_j(i), a_j(i)]|, piecewise
  polynomial in i.

Broken controls (wrong decay rate, wrong step, core outside S_f) live at the end of this module;
never use them to release data.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import attrs
import mpmath
import numpy as np
from numpy.typing import ArrayLike

from privlab import _validate as v
from privlab._rng import RngLike, as_generator
from privlab.errors import InvalidParameter
from privlab.mechanisms.noise import _shell_series as ss
from privlab.mechanisms.noise._base import Array
from privlab.mechanisms.noise.box_objectives import (
    ConfidenceRegion,
    confidence_region,
    optimal_core,
    prob_box,
)
from privlab.types import Neighbour, PureDP

_CHUNK = 1 << 18  # elements per working chunk (rows = _CHUNK // d)


def as_widths(name: str, value: Any, *, allow_zero: bool = False) -> tuple[float, ...]:
    """A tuple of finite widths (> 0, or ≥ 0 with ``allow_zero``); a scalar means d = 1."""
    if isinstance(value, str):
        raise InvalidParameter(f"{name}={value!r} must be a sequence of real numbers")
    try:
        items = list(value)
    except TypeError:
        items = [value]
    if not items:
        raise InvalidParameter(f"{name}={value!r} must have at least one entry")
    check = v.non_negative if allow_zero else v.positive
    return tuple(check(f"{name}[{j}]", x) for j, x in enumerate(items))


@attrs.frozen(kw_only=True)
class BoxStaircase:
    """Shell noise for S_f = Π[−s_j, s_j] with core Π[−z_j, z_j] (thesis §4.5, Theorem 3)."""

    epsilon: float = attrs.field(converter=v.attrs_converter(v.positive))
    sensitivity: tuple[float, ...] = attrs.field(converter=v.attrs_converter(as_widths))
    core: tuple[float, ...] = attrs.field(
        converter=v.attrs_converter(lambda n, x: as_widths(n, x, allow_zero=True)))
    neighbour: Neighbour = attrs.field(default=Neighbour.SUBSTITUTE, converter=Neighbour.parse)
    name = "box-staircase"
    # Broken controls change these; the real construction never does.
    rate_factor = 1.0  # density ratio between consecutive shells is exp(-rate_factor * epsilon)
    width_factor = 1.0  # shells are built with the step width_factor * S_f

    def __attrs_post_init__(self) -> None:
        if len(self.core) != len(self.sensitivity):
            raise InvalidParameter(
                f"core={self.core!r} has {len(self.core)} entries but "
                f"sensitivity={self.sensitivity!r} has {len(self.sensitivity)}")
        self._check_core()

    def _check_core(self) -> None:
        for j, (z, s) in enumerate(zip(self.core, self.sensitivity, strict=True)):
            if z > s:
                raise InvalidParameter(
                    f"core[{j}]={z!r} must be <= sensitivity[{j}]={s!r} (S_0 must lie inside "
                    "S_f, thesis §4.5 Theorem 3)")

    # ---- constructors ---------------------------------------------------------------------
    @classmethod
    def thesis_core(cls, epsilon: float, sensitivity: Sequence[float],
                    fraction: float = 0.1, **kw: Any) -> BoxStaircase:
        """Core z = fraction·s (Example 5 takes fraction = 1/10)."""
        s = as_widths("sensitivity", sensitivity)
        f = v.in_closed("fraction", fraction, 0.0, 1.0)
        return cls(epsilon=epsilon, sensitivity=s, core=tuple(f * x for x in s), **kw)

    @classmethod
    def optimal(cls, epsilon: float, sensitivity: Sequence[float], objective: str = "variance",
                *, weights: Sequence[float] | None = None, level: float = 0.95,
                **kw: Any) -> BoxStaircase:
        """The core minimising ``objective`` (see
        :mod:`privlab.mechanisms.noise.box_objectives`)."""

        s = as_widths("sensitivity", sensitivity)
        z = optimal_core(cls, epsilon, s, objective, weights=weights, level=level)
        return cls(epsilon=epsilon, sensitivity=s, core=z, **kw)

    # ---- shape ----------------------------------------------------------------------------
    @property
    def dim(self) -> int:
        return len(self.sensitivity)

    @property
    def rate(self) -> float:
        return self.rate_factor * self.epsilon

    @property
    def step(self) -> tuple[float, ...]:
        return tuple(self.width_factor * s for s in self.sensitivity)

    @property
    def r(self) -> float:
        return math.exp(-self.rate)

    @property
    def guarantee(self) -> PureDP:
        return PureDP(epsilon=self.epsilon, neighbour=self.neighbour)

    @property
    def parameters(self) -> dict[str, Any]:
        return {"epsilon": self.epsilon, "sensitivity": list(self.sensitivity),
                "core": list(self.core), "normaliser": self.normaliser}

    def _nums(self, exact: bool) -> tuple[list[Any], list[Any], Any, Any]:
        """(z, w, r, q) as floats or as mpmath numbers at the current precision."""
        if exact:
            rate = mpmath.mpf(self.rate_factor) * mpmath.mpf(self.epsilon)
            w = [mpmath.mpf(self.width_factor) * mpmath.mpf(s) for s in self.sensitivity]
            return ([mpmath.mpf(z) for z in self.core], w, mpmath.exp(-rate),
                    1 / mpmath.expm1(rate))
        return list(self.core), list(self.step), self.r, 1.0 / math.expm1(self.rate)

    def _volume_factors(self, z: list[Any], w: list[Any]) -> list[ss.Factor]:
        return [(2 * zj, 2 * wj) for zj, wj in zip(z, w, strict=True)]

    def _M(self, exact: bool) -> Any:
        z, w, _r, q = self._nums(exact)
        return 1 / ss.gsum(self._volume_factors(z, w), q)

    @property
    def normaliser(self) -> float:
        """M, the density on the core."""
        return float(self._M(False))

    def normaliser_exact(self, dps: int = 50) -> Any:
        with mpmath.workdps(dps):
            return +self._M(True)

    # ---- density --------------------------------------------------------------------------
    def _x(self, x: ArrayLike) -> Array:
        a = np.asarray(x, dtype=float)
        if a.ndim == 0 or a.shape[-1] != self.dim:
            raise InvalidParameter(f"x of shape {a.shape} must have last axis of length "
                                   f"{self.dim}")
        return a

    def _shell_float(self, x: Array) -> Array:
        u = (np.abs(x) - np.asarray(self.core)) / np.asarray(self.step)
        return np.maximum(0.0, np.ceil(np.max(u, axis=-1)))

    def shell_index(self, x: ArrayLike) -> np.ndarray:
        """i(x) = max(0, ⌈max_j (|x_j| − z_j)/w_j⌉) (w = step), vectorized over x[..., d]."""
        a = self._x(x)
        if not np.all(np.isfinite(a)):
            raise InvalidParameter("x must be finite")
        return self._shell_float(a).astype(np.int64)

    def shell_index_exact(self, x: Sequence[Any]) -> int:
        """Shell of one point in exact rational arithmetic (parameters taken as the exact
        rationals of their floats)."""
        if len(x) != self.dim:
            raise InvalidParameter(f"x={x!r} must have {self.dim} entries")
        u = max((abs(Fraction(xj)) - Fraction(z)) / (Fraction(self.width_factor) * Fraction(s))
                for xj, z, s in zip(x, self.core, self.sensitivity, strict=True))
        return max(0, math.ceil(u))

    def logpdf(self, x: ArrayLike) -> Array:
        a = self._x(x)
        i = self._shell_float(a)
        with np.errstate(invalid="ignore"):
            out = math.log(self.normaliser) - self.rate * i
        return np.where(np.isnan(out), -np.inf, out)

    def pdf(self, x: ArrayLike) -> Array:
        return np.exp(self.logpdf(x))

    def logpdf_exact(self, x: Sequence[Any], dps: int = 50) -> Any:
        with mpmath.workdps(dps):
            rate = mpmath.mpf(self.rate_factor) * mpmath.mpf(self.epsilon)
            return mpmath.log(self._M(True)) - rate * self.shell_index_exact(x)

    def shell_volume(self, i: ArrayLike) -> Array:
        """vol S_i = V(i) − V(i − 1) (V(−1) = 0), from the positive binomial expansion."""
        i = np.asarray(i, dtype=float)
        z, w, _r, _q = self._nums(False)
        c = ss.binomial_coeffs(self._volume_factors(z, w))
        n = i - 1.0
        tail = sum(ck * _binom(n, k - 1) for k, ck in enumerate(c) if k >= 1)
        return np.where(i == 0, c[0], tail)

    def shell_mass(self, i: ArrayLike) -> Array:
        i = np.asarray(i, dtype=float)
        return self.normaliser * np.exp(-self.rate * i) * self.shell_volume(i)

    # ---- marginals ------------------------------------------------------------------------
    def _axis(self, axis: Any) -> int:
        if isinstance(axis, bool) or not isinstance(axis, int | np.integer) \
                or not 0 <= int(axis) < self.dim:
            raise InvalidParameter(f"axis={axis!r} must be an integer in [0, {self.dim - 1}]")
        return int(axis)

    def _marg(self, t: Any, j: int, exact: bool, tail: bool) -> Any:
        z, w, r, q = self._nums(exact)
        M = 1 / ss.gsum(self._volume_factors(z, w), q)
        if exact:
            k = max(0, int(mpmath.ceil((t - z[j]) / w[j])))
            rk: Any = r**k
        else:
            k = np.maximum(0.0, np.ceil((t - z[j]) / w[j]))
            rk = np.exp(-self.rate * k)
        fac = [(2 * (z[lx] + k * w[lx]), 2 * w[lx]) for lx in range(self.dim) if lx != j]
        if tail:  # P(|Y_j| > t)
            fac.append((2 * (z[j] + k * w[j] - t), 2 * w[j]))
        return M * rk * ss.gsum(fac, q)

    def marginal_pdf(self, x: ArrayLike, axis: int = 0) -> Array:
        """Exact density of Y_axis (closed form evaluated in floats), vectorized."""
        j = self._axis(axis)
        t = np.abs(np.asarray(x, dtype=float))
        with np.errstate(over="ignore", invalid="ignore"):
            out = np.asarray(self._marg(t, j, False, False), dtype=float)
        return np.where(np.isinf(t), 0.0, np.nan_to_num(out, nan=0.0))

    def marginal_sf_abs(self, t: ArrayLike, axis: int = 0) -> Array:
        """P(|Y_axis| > t) (positive series, no cancellation), vectorized."""
        j = self._axis(axis)
        t = np.abs(np.asarray(t, dtype=float))
        with np.errstate(over="ignore", invalid="ignore"):
            out = np.asarray(self._marg(t, j, False, True), dtype=float)
        return np.where(np.isinf(t), 0.0, np.nan_to_num(out, nan=0.0))

    def marginal_cdf(self, x: ArrayLike, axis: int = 0) -> Array:
        x = np.asarray(x, dtype=float)
        half = 0.5 * self.marginal_sf_abs(x, axis)
        return np.where(x >= 0, 1.0 - half, half)

    def marginal_pdf_exact(self, x: Any, axis: int = 0, dps: int = 50) -> Any:
        j = self._axis(axis)
        with mpmath.workdps(dps):
            return +self._marg(abs(mpmath.mpf(x)), j, True, False)

    def marginal_variance(self, axis: int = 0, *, exact: bool = False, dps: int = 50) -> Any:
        """Var Y_axis = M(1 − r) Σ_i r^i ∫_{B_i} x_axis² dx (closed form)."""
        j = self._axis(axis)
        with mpmath.workdps(dps):
            z, w, _r, q = self._nums(exact)
            M = 1 / ss.gsum(self._volume_factors(z, w), q)
            fac: list[ss.Factor] = [(z[j], w[j])] * 3 + [(mpmath.mpf(2) / 3 if exact
                                                           else 2.0 / 3.0, 0)]
            fac += [(2 * z[lx], 2 * w[lx]) for lx in range(self.dim) if lx != j]
            val = M * ss.gsum(fac, q)
            return +val if exact else float(val)

    def variances(self) -> tuple[float, ...]:
        return tuple(self.marginal_variance(j) for j in range(self.dim))

    # ---- regions --------------------------------------------------------------------------
    def prob_box(self, lower: Sequence[float], upper: Sequence[float], *, exact: bool = False,
                 dps: int = 40) -> Any:
        """P(Y ∈ Π[lower_j, upper_j]) exactly (piecewise-polynomial series, mpmath)."""

        return prob_box(self, lower, upper, exact=exact, dps=dps)

    def prob_centred_box(self, half_widths: Sequence[float], **kw: Any) -> Any:
        h = [v._as_real(f"half_widths[{j}]", x) for j, x in enumerate(half_widths)]
        for j, x in enumerate(h):
            if x < 0:
                raise InvalidParameter(f"half_widths[{j}]={x!r} must be >= 0")
        return self.prob_box([-x for x in h], list(h), **kw)

    def confidence_region(self, level: float = 0.95, *, exact: bool = False,
                          dps: int = 40) -> ConfidenceRegion:
        """Minimal-volume region at ``level``: full shells by decreasing density, then part of
        the next one, taken as the box Π[−(z_j + βw_j), z_j + βw_j]."""

        return confidence_region(self, level, exact=exact, dps=dps)

    # ---- sampling -------------------------------------------------------------------------
    def sample(self, shape: Any = (), *, rng: RngLike = None) -> Array:
        """Exact sampler, output shape (*shape, d): the shell by inverse CDF on a table of the
        bulk shells plus the exact negative-binomial mixture for the rest
        (:class:`._shell_series.ShellLaw`), then a uniform point of the shell by choosing one of
        its d disjoint face slabs by volume.  O(d) work per draw, no rejection; working memory
        O(chunk) beside the output."""
        shape = v.shape_tuple(shape)
        gen = as_generator(rng)
        n = math.prod(shape)
        z, w = np.asarray(self.core), np.asarray(self.step)
        law = ss.ShellLaw.build(self._volume_factors(list(z), list(w)), self.rate)
        out = np.empty((n, self.dim))
        chunk = max(1024, _CHUNK // self.dim)
        for lo in range(0, n, chunk):
            hi = min(n, lo + chunk)
            out[lo:hi] = _uniform_in_box_shell(z, w, law.draw(hi - lo, gen), gen)
        return out.reshape((*shape, self.dim))

    def release(self, value: ArrayLike, *, rng: RngLike = None) -> Array:
        x = self._x(value)
        v.finite_array("value", x)
        return x + self.sample(x.shape[:-1], rng=rng)


def _binom(n: Array, k: int) -> Array:
    out = np.ones_like(n)
    for m in range(k):
        out = out * (n - m) / (m + 1)
    return np.where(n >= k, out, 0.0)


def _uniform_in_box_shell(z: Array, w: Array, i: np.ndarray, gen: np.random.Generator) -> Array:
    """Uniform points of B_i \\ B_{i−1} (B_{−1} = ∅), B_i = Π[−(z + i w), z + i w].

    Slab j = {|x_l| ≤ b_l (l < j), b_j < |x_j| ≤ a_j, |x_l| ≤ a_l (l > j)}, a = z + iw,
    b = z + (i−1)w (b = 0 for the core): the slabs are disjoint, their union is the shell, and
    slab j is a product of intervals of volume 2^d Π_{l<j} b_l (a_j − b_j) Π_{l>j} a_l."""
    n, d = len(i), len(z)
    fi = i.astype(float)[:, None]
    a = fi * w
    a += z
    b = a - np.where(fi > 0, w, a)
    diff = a - b
    u = gen.random((n, d))
    u *= 2.0
    u -= 1.0
    if d == 1:
        return np.copysign(b + np.abs(u) * diff, u)
    vol = diff.copy()
    vol[:, 1:] *= np.cumprod(b[:, :-1], axis=1)
    vol[:, :-1] *= np.cumprod(a[:, :0:-1], axis=1)[:, ::-1]
    np.cumsum(vol, axis=1, out=vol)
    slab = (vol < gen.random(n)[:, None] * vol[:, -1:]).sum(axis=1)
    np.minimum(slab, d - 1, out=slab)
    x = u * np.where(np.arange(d)[None, :] < slab[:, None], b, a)
    rows = np.arange(n)
    us = u[rows, slab]
    x[rows, slab] = np.copysign(b[rows, slab] + np.abs(us) * diff[rows, slab], us)
    return x


# ---- broken controls (never use them to release data) --------------------------------------
@attrs.frozen(kw_only=True)
class WrongRatioBoxStaircase(BoxStaircase):
    """Shells decay by e^{−1.5ε}: true privacy loss 1.5ε."""

    name = "broken-box-staircase-ratio"
    rate_factor = 1.5


@attrs.frozen(kw_only=True)
class HalfStepBoxStaircase(BoxStaircase):
    """Shells built with step S_f/2: a shift by s_j crosses two shells, loss 2ε."""

    name = "broken-box-staircase-step"
    width_factor = 0.5


@attrs.frozen(kw_only=True)
class OversizedCoreBoxStaircase(BoxStaircase):
    """Core allowed outside S_f (violates Theorem 3's first condition; still ε-DP)."""

    name = "broken-box-staircase-core"

    def _check_core(self) -> None:
        return None


BOX_CONTROLS = (WrongRatioBoxStaircase, HalfStepBoxStaircase, OversizedCoreBoxStaircase)
