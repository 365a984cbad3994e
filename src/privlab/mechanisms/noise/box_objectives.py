"""Regions and objectives of the box staircase (thesis §4.5, Example 5, Table 4.4).

* :func:`prob_box` — P(Y ∈ Π[l_j, u_j]) = M(1 − r) Σ_i r^i Π_j len_j(i), where
  len_j(i) = |[l_j, u_j] ∩ [−a_j(i), a_j(i)]|, a_j(i) = z_j + i w_j, is continuous and piecewise
  linear in i with non-negative slopes; between consecutive breakpoints the product is a product
  of linear factors and the sum is exact (:mod:`._shell_series`) at mpmath precision.
* :func:`confidence_region` — the density is constant on shells and decreases with the shell
  index, so a minimal-volume region at level L takes B_{k−1} = ∪_{i<k} S_i whole, where k is the
  first shell with P(B_k) ≥ L, and a part of S_k of volume (L − P(B_{k−1}))/(M r^k).  Any such
  part gives the same (minimal) volume; we report the box Π[−(z_j + βw_j), z_j + βw_j] with
  β ∈ (k − 1, k], the family the thesis uses for Table 4.4.
* :func:`optimal_core` — z minimising a sum of (weighted) marginal variances, or the volume of
  the minimal region at a level, over z ∈ Π[0, s_j].
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from typing import Any

import attrs
import mpmath
import numpy as np
from scipy import optimize

from privlab import _validate as v
from privlab.errors import InvalidParameter
from privlab.mechanisms.noise import _shell_series as ss

OBJECTIVES = ("variance", "weighted", "volume", "volume90", "volume95", "volume99")


@attrs.frozen(kw_only=True)
class ConfidenceRegion:
    """A minimal-volume region at ``level``: the box Π[−(z_j + β s_j), z_j + β s_j]
    (box staircase) or the ball {‖x‖ ≤ radius} (Laplace, L1 shells)."""

    level: float
    volume: float
    beta: float | None = None
    half_widths: tuple[float, ...] | None = None
    radius: float | None = None


def check_level(level: Any) -> float:
    return v.in_open("level", level, 0.0, 1.0)


def _pieces(lo: Any, hi: Any, z: Any, w: Any) -> list[tuple[int, Any, Any]]:
    """len(i) = α + β i from shell index ``start`` on: list of (start, α, β)."""
    if hi <= 0:
        lo, hi = -hi, -lo
    inf = mpmath.inf

    def first(c: Any) -> int | None:  # first i >= 0 with a(i) >= c
        if c == inf:
            return None
        return max(0, int(mpmath.ceil((c - z) / w)))

    if lo >= 0:
        out = [(0, mpmath.mpf(0), mpmath.mpf(0))]
        i1 = first(lo)
        if i1 is not None:
            out.append((i1, z - lo, w))
            i2 = first(hi)
            if i2 is not None:
                out.append((i2, hi - lo, mpmath.mpf(0)))
        return out
    p, q = min(-lo, hi), max(-lo, hi)
    out = [(0, 2 * z, 2 * w)]
    i1 = first(p)
    if i1 is not None:
        out.append((i1, z + p, w))
        i2 = first(q)
        if i2 is not None:
            out.append((i2, hi - lo, mpmath.mpf(0)))
    return out


def _active(pieces: list[tuple[int, Any, Any]], i: int) -> tuple[Any, Any]:
    a = b = mpmath.mpf(0)
    for start, al, be in pieces:  # later pieces override earlier ones
        if start <= i:
            a, b = al, be
    return a, b


def prob_box(mech: Any, lower: Sequence[Any], upper: Sequence[Any], *,
             exact: bool = False, dps: int = 40) -> Any:
    """P(Y ∈ Π[lower_j, upper_j]); ±inf bounds allowed."""
    d = mech.dim
    if len(lower) != d or len(upper) != d:
        raise InvalidParameter(f"lower={list(lower)!r} and upper={list(upper)!r} must have "
                               f"{d} entries")
    with mpmath.workdps(dps):
        lo = [mpmath.mpf(v._as_real(f"lower[{j}]", x)) for j, x in enumerate(lower)]
        hi = [mpmath.mpf(v._as_real(f"upper[{j}]", x)) for j, x in enumerate(upper)]
        for j in range(d):
            if lo[j] > hi[j]:
                raise InvalidParameter(f"lower[{j}]={lower[j]!r} must be <= "
                                       f"upper[{j}]={upper[j]!r}")
            if lo[j] == hi[j]:
                return mpmath.mpf(0) if exact else 0.0
        z, w, r, q = mech._nums(True)
        M = 1 / ss.gsum(mech._volume_factors(z, w), q)
        pieces = [_pieces(lo[j], hi[j], z[j], w[j]) for j in range(d)]
        starts = sorted({p[0] for pc in pieces for p in pc})
        total = mpmath.mpf(0)
        for n, start in enumerate(starts):
            end = starts[n + 1] if n + 1 < len(starts) else None
            fac = [_active(pc, start) for pc in pieces]
            if any(a == 0 and b == 0 for a, b in fac):
                continue
            total += ss.range_sum(fac, r, q, start, end)
        val = M * total
        return +val if exact else float(val)


def _prob_core_box(M: Any, vf: list[Any], r: Any, q: Any, k: int) -> Any:
    """P(Y ∈ B_k) = M[(1 − r) Σ_{i≤k} r^i V(i) + r^{k+1} V(k)]."""
    vk = mpmath.fprod(a + b * k for a, b in vf)
    return M * (ss.range_sum(vf, r, q, 0, k + 1) + r ** (k + 1) * vk)


class _CoreProbs:
    """k ↦ P(Y ∈ B_k) of :func:`_prob_core_box`, memoised, at the caller's precision.

    The short sums of :func:`._shell_series.range_sum` (at most 64 terms, added from i = 0 on)
    are prefixes of one another: they are accumulated once, term by term with the same
    operations in the same order, so every value is bit-identical to :func:`_prob_core_box`."""

    def __init__(self, M: Any, vf: list[Any], r: Any, q: Any) -> None:
        self.M, self.vf, self.r, self.q = M, vf, r, q
        self.memo: dict[int, Any] = {}
        self.totals: list[Any] = [0]  # totals[n] = Σ_{i<n} r^i V(i), summed as range_sum does

    def _head(self, k: int) -> Any:
        """range_sum(vf, r, q, 0, k + 1)."""
        if k + 1 > 64:
            return ss.range_sum(self.vf, self.r, self.q, 0, k + 1)
        totals = self.totals
        while len(totals) <= k + 1:
            i = len(totals) - 1
            p: Any = 1
            for a, b in self.vf:
                p = p * (a + b * i)
            totals.append(totals[-1] + self.r**i * p)
        return totals[k + 1] * (1 - self.r)

    def __call__(self, k: int) -> Any:
        val = self.memo.get(k)
        if val is None:
            r = self.r
            vk = mpmath.fprod(a + b * k for a, b in self.vf)
            val = self.memo[k] = self.M * (self._head(k) + r ** (k + 1) * vk)
        return val


def _min_volume(vf: list[Any], r: Any, q: Any, level: Any) -> tuple[Any, int, Any]:
    """(V*, k, L): k is the first shell with P(B_k) ≥ L = ``level`` and V* the minimal volume
    of a region of probability L (see :func:`min_volume_level`)."""
    Lm = mpmath.mpf(level)
    M = 1 / ss.gsum(vf, q)
    P = _CoreProbs(M, vf, r, q)

    hi = 1
    while P(hi) < Lm:
        hi *= 2
    lo = -1  # P(B_{-1}) = 0 < L
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (mid, hi) if P(mid) < Lm else (lo, mid)
    k = hi

    if k == 0:
        vstar = Lm / M
    else:
        vstar = _volume(vf, k - 1) + (Lm - P(k - 1)) / (M * r**k)
    return vstar, k, Lm


def _volume(vf: list[Any], b: Any) -> Any:
    return mpmath.fprod(a + bb * b for a, bb in vf)


def min_volume(vf: list[Any], r: Any, q: Any, level: Any) -> Any:
    """V* of :func:`min_volume_level` alone (no search for β); same value, bit for bit."""
    return _min_volume(vf, r, q, level)[0]


def min_volume_level(vf: list[Any], r: Any, q: Any, level: Any, beta_floor: Any) -> tuple[Any, Any]:
    """(V*, β) for shell noise with V(β) = Π(α + β' β) over ``vf``: V* is the minimal volume of a
    region of probability ``level`` and V(β) = V*; β ≥ ``beta_floor`` (the β with V(β) = 0).
    Runs at the caller's mpmath precision."""
    vstar, k, _Lm = _min_volume(vf, r, q, level)
    if k == 0:
        blo, bhi = mpmath.mpf(beta_floor), mpmath.mpf(0)
    else:
        blo, bhi = mpmath.mpf(k - 1), mpmath.mpf(k)
    for _ in range(int(3.5 * mpmath.mp.dps) + 20):
        mid = (blo + bhi) / 2
        blo, bhi = (mid, bhi) if _volume(vf, mid) < vstar else (blo, mid)
    return vstar, (blo + bhi) / 2


def confidence_region(mech: Any, level: float, *, exact: bool = False,
                      dps: int = 40) -> ConfidenceRegion:

    L = check_level(level)
    with mpmath.workdps(dps):
        z, w, r, q = mech._nums(True)
        floor = -min(zj / wj for zj, wj in zip(z, w, strict=True))
        vstar, beta = min_volume_level(mech._volume_factors(z, w), r, q, L, floor)
        cv = (lambda x: +x) if exact else float
        return ConfidenceRegion(level=L, volume=cv(vstar), beta=cv(beta),
                                half_widths=tuple(cv(zj + beta * wj)
                                                  for zj, wj in zip(z, w, strict=True)))


def region_volume(mech: Any, level: float, *, dps: int = 40) -> float:
    """``confidence_region(mech, level, dps=dps).volume`` without the search for β."""
    L = check_level(level)
    with mpmath.workdps(dps):
        z, w, r, q = mech._nums(True)
        return float(min_volume(mech._volume_factors(z, w), r, q, L))


def parse_objective(objective: str, level: float) -> tuple[str, float]:
    v.one_of("objective", objective, OBJECTIVES)
    m = re.fullmatch(r"volume(\d\d)", objective)
    if m:
        return "volume", int(m.group(1)) / 100.0
    return objective, level


def objective_value(mech: Any, objective: str, *, weights: Sequence[float] | None = None,
                    level: float = 0.95) -> float:
    """Sum of (weighted) marginal variances, or the minimal region's volume at ``level``."""
    kind, lv = parse_objective(objective, level)
    if kind == "volume":
        return region_volume(mech, lv, dps=20)
    wts = _weights(kind, weights, mech.dim)
    return float(sum(wj * vj for wj, vj in zip(wts, mech.variances(), strict=True)))


def _weights(kind: str, weights: Sequence[float] | None, d: int) -> tuple[float, ...]:
    if kind == "weighted" and weights is None:
        raise InvalidParameter("objective='weighted' needs weights=(w_1, …, w_d)")
    if weights is None:
        return (1.0,) * d
    wts = tuple(v.non_negative(f"weights[{j}]", x) for j, x in enumerate(weights))
    if len(wts) != d:
        raise InvalidParameter(f"weights={weights!r} must have {d} entries")
    if sum(wts) <= 0:
        raise InvalidParameter(f"weights={weights!r} must not all be 0")
    return wts


def optimal_core(cls: type, epsilon: float, s: tuple[float, ...], objective: str,
                 *, weights: Sequence[float] | None = None,
                 level: float = 0.95) -> tuple[float, ...]:
    """:func:`_optimal_core`, memoised per process (deterministic: a repeated call finds the
    same core)."""
    try:
        key = (cls, epsilon, tuple(s), objective,
               None if weights is None else tuple(weights), level)
        hash(key)
    except TypeError:  # unhashable arguments: no memo
        return _optimal_core(cls, epsilon, s, objective, weights=weights, level=level)
    return _optimal_core_memo(*key)


def _optimal_core_key(cls: type, epsilon: float, s: tuple[float, ...], objective: str,
                      weights: tuple[float, ...] | None, level: float) -> tuple[float, ...]:
    return _optimal_core(cls, epsilon, s, objective, weights=weights, level=level)


_optimal_core_memo = functools.lru_cache(maxsize=256)(_optimal_core_key)


def _optimal_core(cls: type, epsilon: float, s: tuple[float, ...], objective: str,
                  *, weights: Sequence[float] | None = None,
                  level: float = 0.95) -> tuple[float, ...]:
    """z = t·s minimising the objective over t ∈ [0, 1]^d: a 41-point scan of the diagonal
    t = c·(1, …, 1), then bounded Powell searches from the best diagonal point and from t = ½
    (numerical; the objective itself is evaluated in closed form)."""
    eps = v.positive("epsilon", epsilon)
    kind, lv = parse_objective(objective, level)
    if kind != "volume":
        _weights(kind, weights, len(s))
    else:
        v.in_open("level", lv, 0.0, 1.0)
    sa = np.asarray(s)
    # the Powell searches revisit points (and the scan's best one): evaluate each point once
    memo: dict[tuple[str, tuple[int, ...], bytes], float] = {}

    def f(t: np.ndarray) -> float:
        t = np.clip(t, 0.0, 1.0)
        key = (t.dtype.str, t.shape, t.tobytes())
        val = memo.get(key)
        if val is None:
            mech = cls(epsilon=eps, sensitivity=s, core=tuple(t * sa))
            val = memo[key] = objective_value(mech, kind, weights=weights, level=lv)
        return val

    d = len(s)
    diag = [(f(np.full(d, c)), c) for c in np.linspace(0.0, 1.0, 41)]
    best_val, c0 = min(diag)
    best = np.full(d, c0)
    for x0 in (np.full(d, c0), np.full(d, 0.5)):
        res = optimize.minimize(f, x0, method="Powell", bounds=[(0.0, 1.0)] * d,
                                options={"xtol": 1e-9, "ftol": 1e-13})
        if res.fun < best_val:
            best_val, best = float(res.fun), np.clip(res.x, 0.0, 1.0)
    return tuple(float(x) for x in best * sa)
