"""Float-safe noise for the DP data releases: exact discrete Laplace on a power-of-two grid.

The continuous releases (thesis §6.3 Alg. 6.2, vldb14 Alg. 3, irm Alg. 1) add Laplace noise of
scale s·Δ_j to each centroid c of attribute j (Δ_j = hi_j − lo_j, s the scale per unit of range
of :class:`~privlab.mechanisms.releases.config.ReleaseConfig`).  Done in doubles
(``c + rng.laplace()·scale``) the written values carry the low-order bits of c, and the release
is not ε-DP for any ε (Mironov 2012; ``docs/threat-model.md``).  :class:`GridNoise` replaces it:

1. **Grid.**  Attribute j is released on Λ_j·ℤ, Λ_j a power of two fixed by public parameters
   only (Δ_j, M_j = max(|lo_j|, |hi_j|), the largest cluster size c_max, which depends on n and
   k alone, and s): the finest of Λ_j ≤ Δ_j·2^−FINE_BITS that satisfies
   Λ_j ≥ (c_max + 2)·M_j·2^−50 (float error of the centroid, below) and
   Λ_j ≥ s·Δ_j·2^−RATE_BITS (keeps the integer scale below 2^46 grid units).
2. **Index.**  i = round_half_even(c/Λ_j) (exact: Λ_j is a power of two), c the centroid as
   numpy computes it (sequential sum, one division).  Its float error is at most
   1.01·c_size·2^−53·M_j, so between neighbours the computed centroids differ from the exact
   ones by at most 2.02·c_max·2^−53·M_j ≤ 0.26·Λ_j in all, and
   |i − i'| ≤ |c − c'|/Λ_j + 1 + 0.26 ≤ |c − c'|/Λ_j + :data:`SLACK` for every changed
   coordinate (an unchanged centroid keeps its index).
3. **Noise.**  J_j ∈ ℤ with P(J = y) ∝ e^{−γ_j·|y|}, sampled exactly
   (:func:`privlab.mechanisms.noise._exact.discrete_laplace`, CKS 2020 Alg. 2, integer
   arithmetic only), γ_j = the largest fraction of denominator ≤ 2^55 not above
   (1 − η)·Λ_j/(s·Δ_j), η = :data:`MARGIN`: at least the continuous noise, in grid units.
4. **Output.**  (i + J)·Λ_j, an exact double (|i + J| is capped at 2^53 − 1, a post-processing
   step reached with probability below e^{−100}); clamped to [lo_j, hi_j] when asked
   (post-processing).  Every written value is a deterministic function of the integer i + J.

Privacy of what is written (:mod:`privlab.verify.releases.certificate`): if the continuous
release has L1 sensitivity S in units of range with at most N_j changed coordinates of
attribute j, the integer release loses at most
ε_written = max_j(γ_j·Δ_j/Λ_j)·S + SLACK·Σ_j γ_j·N_j ≤ (1 − η)·S/s + SLACK·Σ_j γ_j·N_j —
exactly computed with Fractions.

Threat model: as ``docs/threat-model.md`` §3–4 (no timing, PRNG or composition claims).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import attrs
import numpy as np
from numpy.typing import NDArray

from privlab.errors import InvalidParameter
from privlab.mechanisms.noise import _exact
from privlab.mechanisms.noise.safe import grid_index

__all__ = ["FINE_BITS", "MARGIN", "SLACK", "GridNoise", "largest_cluster"]

FINE_BITS = 44
"""The grid is at most Δ_j·2^−44 fine (fine grids shrink the rounding term of ε_written)."""
RATE_BITS = 46
"""The integer noise scale 1/γ_j stays below 2^46 grid units."""
FLOAT_BITS = 50
"""Λ_j ≥ (c_max + 2)·M_j·2^−50 bounds the centroid's float error by 0.26 grid units."""
MARGIN = Fraction(1, 2**20)
"""η: the integer rate is (1 − η) times the continuous one, room for the rounding term."""
SLACK = 2
"""Grid units added per changed coordinate: rounding (1) and the centroid's float error."""
MAX_RATE_DENOMINATOR = 2**55
MAX_INDEX = 2**53 - 1
IMPLEMENTATION = ("exact discrete Laplace on a power-of-two grid per attribute "
                  "(privlab.mechanisms.releases.grid; CKS 2020 Alg. 2 in integer arithmetic)")


def largest_cluster(n: int, k: int) -> int:
    """Largest cluster of the releases' partitions: consecutive clusters of k, the last one
    absorbing the remainder (n − (⌊n/k⌋ − 1)·k records); k = 1 or n < 2k: 1 or n."""
    if k <= 1:
        return 1
    q = max(n // k, 1)
    return n - (q - 1) * k


def _pow2_at_least(x: float) -> int:
    """The exponent e of the smallest power of two ≥ x > 0."""
    m, e = math.frexp(x)
    return e - 1 if m == 0.5 else e


@attrs.frozen(kw_only=True)
class GridNoise:
    """The grid and the integer noise rate of each attribute (module docstring)."""

    lo: tuple[float, ...]
    hi: tuple[float, ...]
    granularity: tuple[float, ...]
    """Λ_j (powers of two)."""
    rate: tuple[Fraction, ...]
    """γ_j: P(J = y) ∝ e^{−γ_j·|y|} in grid units."""
    scale_per_unit: float
    largest_cluster: int

    @classmethod
    def plan(cls, bounds: Any, scale_per_unit: float, largest_cluster: int) -> GridNoise:
        """The grid for declared domains ``bounds`` ((m, 2) lo, hi), Laplace scale s per unit
        of range and the largest cluster size (all public: the grid never depends on data)."""
        b = np.asarray(bounds, dtype=float).reshape(-1, 2)
        s = float(scale_per_unit)
        if not (math.isfinite(s) and s > 0):
            raise InvalidParameter(f"scale_per_unit={scale_per_unit!r} must be finite and > 0")
        lams, rates = [], []
        for lo, hi in b.tolist():
            width, big = hi - lo, max(abs(lo), abs(hi))
            if not (math.isfinite(width) and width > 0):
                raise InvalidParameter(f"bounds=[{lo!r}, {hi!r}] must give finite lo < hi")
            e = max(math.frexp(width)[1] - 1 - FINE_BITS,
                    _pow2_at_least((largest_cluster + 2) * big) - FLOAT_BITS if big > 0
                    else -1022,
                    _pow2_at_least(s * width) - RATE_BITS)
            if not -1022 <= e <= 970:
                raise InvalidParameter(f"bounds=[{lo!r}, {hi!r}] with noise scale {s:g} per "
                                       f"unit need a grid 2^{e} outside [2^-1022, 2^970]")
            lam = math.ldexp(1.0, e)
            target = (1 - MARGIN) * Fraction(lam) / (Fraction(s) * Fraction(width))
            g = _exact.rational_floor(target, MAX_RATE_DENOMINATOR)
            if g == 0 or g.numerator >= _exact.INT_LIMIT:
                raise InvalidParameter(f"scale_per_unit={s!r} gives a grid rate {float(target):.3g}"
                                       f" outside what the exact sampler represents")
            lams.append(lam)
            rates.append(g)
        return cls(lo=tuple(b[:, 0].tolist()), hi=tuple(b[:, 1].tolist()),
                   granularity=tuple(lams), rate=tuple(rates), scale_per_unit=s,
                   largest_cluster=int(largest_cluster))

    def index(self, j: int, centroids: NDArray[np.float64]) -> NDArray[np.int64]:
        """i = round_half_even(c/Λ_j) of the centroids of attribute j."""
        return np.asarray(grid_index(np.asarray(centroids, dtype=float), self.granularity[j]))

    def draw(self, j: int, size: int, rng: np.random.Generator) -> NDArray[np.int64]:
        """``size`` exact integer noises of attribute j."""
        g = self.rate[j]
        return _exact.discrete_laplace(int(size), g.numerator, g.denominator, rng)

    def value(self, j: int, total: NDArray[np.int64], clamp: bool) -> NDArray[np.float64]:
        """(i + J)·Λ_j as exact doubles (index capped at ±(2^53 − 1)), optionally clamped to
        [lo_j, hi_j] — both post-processing of the integer i + J."""
        t = np.clip(total, -MAX_INDEX, MAX_INDEX).astype(np.float64)
        t *= self.granularity[j]
        if clamp:
            np.clip(t, self.lo[j], self.hi[j], out=t)
        return t

    def noisy(self, j: int, centroids: NDArray[np.float64], labels: NDArray[np.int64],
              releases: int, per_record: bool, clamp: bool,
              rng: np.random.Generator) -> NDArray[np.float64]:
        """(releases, n) values of attribute j: centroid index of each record's cluster plus
        one noise per cluster (shared) or per record, as written."""
        idx = self.index(j, centroids)
        if per_record:
            tot = idx[labels][None, :] + self.draw(j, releases * labels.size, rng).reshape(
                releases, labels.size)
        else:
            noise = self.draw(j, releases * idx.size, rng).reshape(releases, idx.size)
            tot = (idx[None, :] + noise)[:, labels]
        return self.value(j, tot, clamp)

    def rate_per_unit(self) -> Fraction:
        """max_j γ_j·Δ_j/Λ_j: the loss per unit of range of a shift of the exact centroids."""
        return max(g * (Fraction(h) - Fraction(lo)) / Fraction(lam) for g, lo, h, lam in
                   zip(self.rate, self.lo, self.hi, self.granularity, strict=True))

    def written_epsilon(self, sensitivity_units: float, changed: int) -> Fraction:
        """ε of the integer release: max_j(γ_j Δ_j/Λ_j)·S + SLACK·Σ_j γ_j·N_j with N_j =
        ``changed`` coordinates of each attribute that a neighbour can change."""
        return (self.rate_per_unit() * Fraction(sensitivity_units)
                + SLACK * changed * sum(self.rate, Fraction(0)))

    def on_grid(self, j: int, values: NDArray[np.float64], clamp: bool) -> NDArray[np.bool_]:
        """Which written values of attribute j are grid points (or a clamping bound)."""
        v = np.asarray(values, dtype=float)
        q = v / self.granularity[j]
        ok = np.isfinite(q) & (q == np.rint(q)) & (np.abs(q) <= MAX_INDEX)
        if clamp:
            ok |= (v == self.lo[j]) | (v == self.hi[j])
        return ok

    def to_dict(self) -> dict[str, Any]:
        return {"implementation": IMPLEMENTATION, "float_safe": True,
                "grid": list(self.granularity),
                "grid_log2": [math.frexp(lam)[1] - 1 for lam in self.granularity],
                "rate_per_grid_unit": [str(g) for g in self.rate],
                "noise_scale_per_unit_of_range": float(1 / self.rate_per_unit()),
                "continuous_scale_per_unit_of_range": self.scale_per_unit,
                "margin": str(MARGIN), "slack_grid_units_per_changed_coordinate": SLACK,
                "largest_cluster": self.largest_cluster,
                "rounding": "round half to even of the computed centroid to the grid",
                "output": "(index + integer noise) x grid, exact doubles",
                "threat_model": "docs/threat-model.md (no timing, PRNG or composition claims)"}
