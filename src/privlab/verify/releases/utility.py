"""What a DP release gives its user: the expected error of the numerical attributes, from public
parameters only (n, k, the scale rule, the bounds, the grid), so that it is true of the released
file for every data set within the bounds; and, for the data holder, the same on the data.

Notation: attribute j with declared range Δ = hi − lo; clusters of sizes fixed by n and k
(⌊n/k⌋ − 1 of k and the last n − (⌊n/k⌋ − 1)·k; k = 1: n of 1; individual ranking: the same
sizes in every attribute); c a centroid (computed), V its released value.

Noise laws (:class:`NoiseLaw`):

* continuous (``--noise-mode fast``, and ``certify dp-release``, which certifies the law):
  V = c + L, L Laplace of scale b = s·Δ, σ = √2·b;
* discrete (safe mode, :class:`~privlab.mechanisms.releases.grid.GridNoise`): V = Λ·(i + J),
  i = round(c/Λ), P(J = y) ∝ e^{−γ|y|}: Var J = 2e^{−γ}/(1 − e^{−γ})², so
  σ = Λ/(√2·sinh(γ/2)) ≈ √2·s·Δ/(1 − η) (γ ≤ (1 − η)·Λ/(s·Δ) is tiny unless the noise is
  below ~2^−40 of the range).

One-sided moments (closed forms, p = e^{−γ}; the law is symmetric):
E[(J − d)⁺] = max(−d, 0) + p^{|d|+1}/((1 + p)(1 − p)), P(J > d) = p^{d+1}/(1 + p) (d ≥ 0),
1 − p^{−d}/(1 + p) (d < 0); continuous: E[(L − t)⁺] = max(−t, 0) + (b/2)·e^{−|t|/b}.
Clamping to [lo, hi] with A = ⌈lo/Λ⌉, B = ⌊hi/Λ⌋ shifts the expectation by
h(i) = E[V] − Λi = Λ·E[(J − (i − A))⁺] + (lo − ΛA)·P(J > i − A)
       − Λ·E[(J − (B − i))⁺] − (ΛB − hi)·P(J > B − i),
non-increasing in i (E[V] grows by at most Λ per step of i); continuous:
h(c) = (b/2)·(e^{−(c − lo)/b} − e^{−(hi − c)/b}), |h| ≤ (b/2)·(1 − e^{−Δ/b}).

What is reported (:func:`assess`), for every data set within the bounds:

* per value: E[(V − c)²] = σ² + (Λi − c)² ≤ σ² + Λ² (|Λi − c̄| ≤ Λ/2 + 0.26Λ with the
  centroid's float error, grid module); clamped: V and c lie in [lo, hi] and clamping is a
  contraction towards c, so also ≤ Δ²;
* the released mean M = (1/n)·Σ_rows V against the data's mean x̄ = (1/n)·Σ_C |C|·c_C:
  Var M = σ²·Σ_C |C|²/n² (one draw per cluster, repeated |C| times) or σ²/n (one per record);
  clamped, σ² is replaced by min(σ², Δ²/4) (clamping is 1-Lipschitz, and a variable in
  [lo, hi] has variance ≤ Δ²/4); |E M − x̄| ≤ β with β = Λ (discrete) or 0
  (continuous) unclamped and β = max(|h(i_lo)|, |h(i_hi)|) + Λ, resp. (b/2)·(1 − e^{−Δ/b}),
  clamped; the relative error of the mean is √(Var M + β²)/Δ (root mean square, a bound);
* a warning when σ > Δ, with the probability that a value whose centroid lies at the middle
  of the range is clamped (the smallest over centroids).

All in double precision from these closed forms (expm1, sinh: relative error ~1e-15);
``tests/verify/test_release_utility.py`` compares them with sums of the pmf in mpmath.
Categorical attributes (exponential mechanism) are not covered.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import attrs
import numpy as np

__all__ = ["AttributeUtility", "NoiseLaw", "ReleaseUtility", "assess", "cluster_sizes",
           "continuous_laws", "grid_laws", "on_data", "sum_of_squared_sizes"]

OVER_NOISE = 2.0
"""Warn when the scale is more than this factor above the smallest certified one."""
FLOAT_ERROR_UNITS = 1.0
"""|Λi − c̄| ≤ Λ/2 (rounding) + 0.26Λ (the centroid's float error): at most one grid unit."""

FORMULAS = {
    "noise_sd_discrete": "σ = Λ/(√2·sinh(γ/2)) (P(J = y) ∝ e^{−γ|y|} on the grid Λ·ℤ: "
                         "Var J = 2e^{−γ}/(1 − e^{−γ})²)",
    "noise_sd_continuous": "σ = √2·s·Δ (Laplace of scale s·Δ)",
    "value_rmse": "√E[(V − c)²] ≤ √(σ² + Λ²); clamped also ≤ Δ",
    "mean_noise_sd": "sd of the released mean ≤ σ'·√(Σ_C |C|²)/n (one draw per cluster, "
                     "repeated |C| times) or σ'/√n (one per record); σ' = σ unclamped "
                     "(equality), min(σ, Δ/2) clamped",
    "mean_bias": "|E[mean] − true mean| ≤ β: Λ unclamped (rounding); clamped max over "
                 "c ∈ [lo, hi] of |E[clamp(V)] − c| + Λ (continuous: (b/2)(1 − e^{−Δ/b}))",
    "mean_relative_error": "√(sd_mean² + β²)/Δ (root mean square error of the released mean "
                           "as a fraction of the range, a bound for every data set)",
    "clamped_at_middle": "P(V clamped) for a centroid at (lo + hi)/2: e^{−Δ/(2b)} "
                         "(discrete: P(J > i − A) + P(J > B − i))",
}


def cluster_sizes(n: int, k: int) -> tuple[int, ...]:
    """Cluster sizes of the releases' partitions, fixed by n and k (k = 1: n clusters of 1;
    ⌊n/k⌋ − 1 clusters of k and the last of n − (⌊n/k⌋ − 1)·k)."""
    if k <= 1:
        return (1,) * n
    q = max(n // k, 1)
    return (k,) * (q - 1) + (n - (q - 1) * k,)


def sum_of_squared_sizes(n: int, k: int) -> int:
    """Σ_C |C|² of :func:`cluster_sizes` without building the tuple."""
    if k <= 1:
        return n
    q = max(n // k, 1)
    return (q - 1) * k * k + (n - (q - 1) * k) ** 2


def _dl_excess(g: float, d: Any) -> Any:
    """E[(J − d)⁺] for P(J = y) ∝ e^{−g|y|} (d integer, scalar or array)."""
    d = np.asarray(d, dtype=float)
    tail = np.exp(-g * (np.abs(d) + 1)) / ((1 + math.exp(-g)) * -math.expm1(-g))
    return np.maximum(-d, 0.0) + tail


def _dl_tail(g: float, d: Any) -> Any:
    """P(J > d) (d integer)."""
    d = np.asarray(d, dtype=float)
    pos = np.exp(-g * (np.maximum(d, -1) + 1)) / (1 + math.exp(-g))
    neg = 1 - np.exp(-g * np.maximum(-d, 0)) / (1 + math.exp(-g))
    return np.where(d >= 0, pos, neg)


def _lap_excess(b: float, t: Any) -> Any:
    """E[(L − t)⁺] for L Laplace of scale b."""
    t = np.asarray(t, dtype=float)
    return np.maximum(-t, 0.0) + b / 2 * np.exp(-np.abs(t) / b)


@attrs.frozen(kw_only=True)
class NoiseLaw:
    """The noise of one numerical attribute: continuous Laplace of scale ``scale`` = s·Δ, or
    (``granularity`` and ``rate`` given) the discrete Laplace of rate γ on the grid Λ·ℤ."""

    lo: float
    hi: float
    scale: float
    """s·Δ: the continuous law's scale (also reported beside the discrete one)."""
    granularity: float | None = None
    rate: Fraction | None = None

    @property
    def width(self) -> float:
        return self.hi - self.lo

    @property
    def discrete(self) -> bool:
        return self.granularity is not None

    @property
    def grid_unit(self) -> float:
        return self.granularity if self.granularity is not None else 0.0

    def sd(self) -> float:
        """σ, the noise standard deviation (module docstring)."""
        if self.granularity is None or self.rate is None:
            return math.sqrt(2) * self.scale
        return self.granularity / (math.sqrt(2) * math.sinh(float(self.rate) / 2))

    def index(self, c: Any) -> Any:
        """i = round_half_even(c/Λ) (the grid's rule)."""
        assert self.granularity is not None
        return np.rint(np.asarray(c, dtype=float) / self.granularity).astype(np.int64)

    def _ends(self) -> tuple[int, int]:
        lam = self.grid_unit
        return math.ceil(self.lo / lam), math.floor(self.hi / lam)

    def clamp_shift(self, c: Any) -> Any:
        """E[clamp(V)] − c for centroids c in [lo, hi] (discrete: computed at i = round(c/Λ),
        so the rounding Λi − c is included)."""
        c = np.asarray(c, dtype=float)
        if self.granularity is None or self.rate is None:
            return _lap_excess(self.scale, c - self.lo) - _lap_excess(self.scale, self.hi - c)
        i = self.index(c)
        return self._h(i) + i * self.granularity - c

    def _h(self, i: Any) -> Any:
        """h(i) = E[clamp(Λ(i + J))] − Λi (module docstring)."""
        assert self.granularity is not None and self.rate is not None
        lam, g = self.granularity, float(self.rate)
        a, b = self._ends()
        dl, dh = np.asarray(i) - a, b - np.asarray(i)
        return (lam * _dl_excess(g, dl) + (self.lo - lam * a) * _dl_tail(g, dl)
                - lam * _dl_excess(g, dh) - (lam * b - self.hi) * _dl_tail(g, dh))

    def bias_bound(self, clamp: bool) -> float:
        """β: |E[V] − c̄| ≤ β for every centroid c̄ in [lo, hi] (module docstring)."""
        if self.granularity is None or self.rate is None:
            return -self.scale / 2 * math.expm1(-self.width / self.scale) if clamp else 0.0
        if not clamp:
            return FLOAT_ERROR_UNITS * self.granularity
        ends = self.index([self.lo, self.hi])
        return float(np.max(np.abs(self._h(ends)))) + FLOAT_ERROR_UNITS * self.granularity

    def clamped_at_middle(self) -> float:
        """P(a value is clamped) when its centroid lies at (lo + hi)/2."""
        if self.granularity is None or self.rate is None:
            return math.exp(-self.width / (2 * self.scale))
        a, b = self._ends()
        i = int(self.index((self.lo + self.hi) / 2))
        g = float(self.rate)
        return float(_dl_tail(g, i - a) + _dl_tail(g, b - i))

    def value_mse_bound(self, clamp: bool) -> float:
        """E[(V − c̄)²] ≤ σ² + Λ² (clamped: also ≤ Δ²)."""
        mse = self.sd() ** 2 + self.grid_unit ** 2
        return min(mse, self.width ** 2) if clamp else mse


def grid_laws(grid: Any) -> tuple[NoiseLaw, ...]:
    """The discrete laws of a :class:`~privlab.mechanisms.releases.grid.GridNoise`."""
    return tuple(NoiseLaw(lo=lo, hi=hi, scale=grid.scale_per_unit * (hi - lo), granularity=lam,
                          rate=g)
                 for lo, hi, lam, g in zip(grid.lo, grid.hi, grid.granularity, grid.rate,
                                           strict=True))


def continuous_laws(bounds: Any, scale_per_unit: float) -> tuple[NoiseLaw, ...]:
    """Continuous Laplace laws of scale s·Δ_j for ``bounds`` ((m, 2) lo, hi)."""
    b = np.asarray(bounds, dtype=float).reshape(-1, 2)
    return tuple(NoiseLaw(lo=lo, hi=hi, scale=scale_per_unit * (hi - lo))
                 for lo, hi in b.tolist())


@attrs.frozen(kw_only=True)
class AttributeUtility:
    """The figures of one numerical attribute (module docstring; value units unless said)."""

    name: str
    lo: float
    hi: float
    law: str
    noise_sd: float
    noise_sd_continuous: float
    value_rmse_bound: float
    mean_noise_sd: float
    mean_bias_bound: float
    clamped_at_middle: float | None

    @property
    def range(self) -> float:
        return self.hi - self.lo

    @property
    def mean_relative_error(self) -> float:
        return math.hypot(self.mean_noise_sd, self.mean_bias_bound) / self.range

    def to_dict(self) -> dict[str, Any]:
        w = self.range
        return {"attribute": self.name, "bounds": [self.lo, self.hi], "range": w,
                "law": self.law, "noise_sd": self.noise_sd,
                "noise_sd_continuous": self.noise_sd_continuous,
                "noise_sd_over_range": self.noise_sd / w,
                "value_rmse_bound": self.value_rmse_bound,
                "value_rmse_over_range": self.value_rmse_bound / w,
                "mean_noise_sd": self.mean_noise_sd, "mean_bias_bound": self.mean_bias_bound,
                "mean_relative_error": self.mean_relative_error,
                "clamped_at_middle": self.clamped_at_middle}


def noise_warning(a: AttributeUtility, clamp: bool) -> str | None:
    """The warning of an attribute whose noise exceeds its range (None otherwise)."""
    if a.noise_sd <= a.range:
        return None
    tail = (f"clamped values pile at the bounds ({a.clamped_at_middle:.0%} of the values "
            "whose centroid lies at the middle of the range are clamped)" if clamp else
            "most released values lie outside the bounds")
    return (f"{a.name}: the noise exceeds the attribute's range (noise sd {a.noise_sd:.4g} = "
            f"{a.noise_sd / a.range:.3g}× the range {a.range:g}); {tail}; the released mean "
            f"can be off by {a.mean_relative_error:.2g} of the range (root mean square bound)")


@attrs.frozen(kw_only=True)
class ReleaseUtility:
    """The expected error of a release configuration (module docstring)."""

    attributes: tuple[AttributeUtility, ...]
    n: int
    k: int
    per_record: bool
    clamp: bool
    law: str
    calibration: dict[str, Any] | None = None
    """The smallest scale certified at the requested k and ε (utility_target)."""
    target: dict[str, Any] | None = None

    @property
    def warnings(self) -> list[str]:
        out = [w for a in self.attributes if (w := noise_warning(a, self.clamp)) is not None]
        c = self.calibration
        if c is not None and c.get("scale_per_unit") and c["noise_ratio"] > OVER_NOISE:
            out.append(f"the noise scale {c['requested_scale_per_unit']:.4g} per unit of range "
                       f"is {c['noise_ratio']:.3g}× the smallest one certified at "
                       f"ε = {c['epsilon']:g} (the certified ε is "
                       f"{c['certified_epsilon_requested']:.3g}): --noise-scale "
                       f"{c['scale_per_unit']:g} certifies ε = {c['epsilon']:g} with "
                       f"{c['noise_ratio']:.3g}× less noise (mean error "
                       f"{c['mean_relative_error']:.2g} of the range)")
        t = self.target
        if t is not None and not t["met"]:
            out.append(f"the requested error {t['max_relative_error']:g} of the range is not "
                       f"met (bound {t['value']:.3g}); {t['advice']}")
        return out

    @property
    def mean_relative_error(self) -> float:
        return max((a.mean_relative_error for a in self.attributes), default=0.0)

    def to_dict(self) -> dict[str, Any]:
        return {"what": "expected error of the released numerical attributes, from public "
                        "parameters only (n, k, ε, the scale rule, the bounds, the grid): a "
                        "bound for every data set within the bounds",
                "law": self.law, "n": self.n, "k": self.k,
                "noise": "per-record" if self.per_record else "shared per cluster",
                "clamp": self.clamp,
                "cluster_sizes": _sizes_text(self.n, self.k),
                "sum_of_squared_cluster_sizes": sum_of_squared_sizes(self.n, self.k),
                "attributes": [a.to_dict() for a in self.attributes],
                "mean_relative_error": self.mean_relative_error,
                "warnings": self.warnings, "calibrated_scale": self.calibration,
                "target": self.target, "formulas": FORMULAS}


def _sizes_text(n: int, k: int) -> str:
    s = cluster_sizes(n, k) if k > 1 else ()
    if not s:
        return f"{n} clusters of 1"
    if len(s) == 1:
        return f"1 cluster of {s[0]}"
    return f"{len(s) - 1} clusters of {k} and 1 of {s[-1]}"


def assess(laws: Sequence[NoiseLaw], n: int, k: int, *, per_record: bool, clamp: bool,
           names: Sequence[str] | None = None) -> ReleaseUtility:
    """The data-independent figures of a release whose numerical attributes get ``laws``."""
    names = list(names) if names is not None else [f"attribute {j}" for j in range(len(laws))]
    ss = n if per_record else sum_of_squared_sizes(n, k)
    out = []
    for name, law in zip(names, laws, strict=True):
        sd = law.sd()
        sd_value = min(sd, law.width / 2) if clamp else sd
        out.append(AttributeUtility(
            name=name, lo=law.lo, hi=law.hi, law="discrete" if law.discrete else "continuous",
            noise_sd=sd, noise_sd_continuous=math.sqrt(2) * law.scale,
            value_rmse_bound=math.sqrt(law.value_mse_bound(clamp)),
            mean_noise_sd=sd_value * math.sqrt(ss) / n, mean_bias_bound=law.bias_bound(clamp),
            clamped_at_middle=law.clamped_at_middle() if clamp else None))
    kinds = {a.law for a in out}
    return ReleaseUtility(attributes=tuple(out), n=n, k=k, per_record=per_record, clamp=clamp,
                          law=kinds.pop() if len(kinds) == 1 else "none")


def on_data(laws: Sequence[NoiseLaw], x: Any, centroids: Any, *, clamp: bool,
            names: Sequence[str] | None = None, released: Any = None) -> dict[str, Any]:
    """The figures on the data (for the data holder: they are not covered by ε, so the
    commands print them and never write them into the published certificate).

    ``x`` and ``centroids``: (n, m) tables aligned by record; ``released`` the released table
    (any row order) for its mean.  Per attribute: SST = Σ(x − x̄)², SSE of the aggregation
    Σ(x − c)² and SSE/SST; the expected SSE of the release before clamping,
    SSE_agg + Σ_rows E[(V − c)²] ≤ SSE_agg + n·(σ² + Λ²) (the cross terms vanish: Σ_C (x − c)
    = 0 and the noise of a cluster is the same for its rows in law), clamped also with Δ²;
    the expected released mean x̄ + (1/n)·Σ_rows (E[V] − c) (clamping included, exact
    closed form)."""
    x = np.asarray(x, dtype=float).reshape(len(x), -1)
    cen = np.asarray(centroids, dtype=float).reshape(x.shape)
    names = list(names) if names is not None else [f"attribute {j}" for j in range(len(laws))]
    n = x.shape[0]
    rel = None if released is None else np.asarray(released, dtype=float).reshape(-1, x.shape[1])
    out = []
    for j, (name, law) in enumerate(zip(names, laws, strict=True)):
        xj, cj = x[:, j], cen[:, j]
        sst = float(((xj - xj.mean()) ** 2).sum())
        sse = float(((xj - cj) ** 2).sum())
        noise_sse = n * law.value_mse_bound(clamp)
        if clamp:
            shift = law.clamp_shift(cj)
        elif law.discrete:
            shift = law.index(cj) * law.grid_unit - cj
        else:
            shift = np.zeros(n)
        d = {"attribute": name, "sst": sst, "sse_aggregation": sse,
             "information_loss_aggregation": sse / sst if sst > 0 else None,
             "expected_sse_release_bound": sse + noise_sse,
             "expected_information_loss_release_bound": (sse + noise_sse) / sst if sst > 0
             else None,
             "true_mean": float(xj.mean()),
             "expected_released_mean": float(xj.mean() + np.mean(shift))}
        if rel is not None:
            d["released_mean"] = float(rel[:, j].mean())
        out.append(d)
    return {"what": "computed on the input data for the data holder; not covered by ε and not "
                    "written to OUTPUT.cert.json",
            "formulas": {"information_loss": "SSE/SST, SSE = Σ(x − centroid)², "
                                             "SST = Σ(x − mean)²",
                         "expected_sse_release": "SSE_agg + n·E[(V − c)²] ≤ SSE_agg + "
                                                 "n·(σ² + Λ²) (clamped: also n·Δ²)",
                         "expected_released_mean": "mean + (1/n)·Σ_rows (E[clamp(V)] − c)"},
            "attributes": out}
