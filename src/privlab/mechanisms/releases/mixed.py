"""DP release of mixed numerical / categorical records (thesis §6.3.4–6.3.6, vldb14 §4.4–4.6).

Records have numerical attributes (declared domain [lo, hi]) and categorical ones (values of a
:class:`~privlab.mechanisms.microaggregation.taxonomy.Taxonomy`).  Pipeline:

1. insensitive total order: the eq. (6.7) distance (:class:`HeterogeneousDistance`) from a
   fixed reference record — every numerical attribute at its lower bound, every categorical one
   at the taxonomy's boundary a_b (eq. 6.2) — ties by the attribute values, then by index; it
   does not depend on the data, so consecutive clusters of k (the last absorbing the
   remainder) change by at most one record between substitution neighbours;
2. numerical centroids: cluster means + Laplace noise of scale s·Δ_j, one draw per cluster,
   s = (n/k)·m/(kε) by default (vldb14 §4; ``scale_per_unit`` overrides);
3. categorical centroids: exponential mechanism over all concepts of the taxonomy with quality
   −m(S, c) (Algorithm 6.3 / vldb14 Algorithm 4, :class:`ExponentialCentroid`, factor n/k as in
   vldb14 eq. 6), one draw per cluster, at ε/m with the exact marginality sensitivity by
   default (``budget="split"``, ``em_sensitivity="exact"``); :meth:`MixedDPRelease.as_printed`
   runs it at ε per categorical attribute with Δ(m) = δ(a_b, a_t), as vldb14 prints it;
4. every record replaced by its cluster's noisy centroid; rows shuffled (the record-aligned
   layout with one draw per cluster releases the partition, see
   :mod:`privlab.verify.releases.certificate`); numerical centroids optionally clamped to their
   domain (post-processing).

``microaggregation="none"`` is the per-record baseline (k = 1, no order): every record is its
own cluster, Laplace scale m/ε per unit of range, exponential mechanism with factor 1 — one
substitution changes one record's draws only, so record-aligned rows are fine there.
``em_factor="1"`` is thesis Algorithm 6.3 as printed (no n/k factor).  Categorical values must
lie in the taxonomy's domain Dom(A) (the sensitivity of the quality is computed over Dom(A)).

Certificate and exact check: :mod:`privlab.verify.releases.mixed`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import attrs
import numpy as np

from privlab import _validate as v
from privlab._rng import as_generator
from privlab.errors import InvalidParameter
from privlab.mechanisms.microaggregation.ranking import consecutive_labels
from privlab.mechanisms.microaggregation.semantic import (
    ExponentialCentroid,
    HeterogeneousDistance,
    NumericDomain,
)
from privlab.mechanisms.microaggregation.taxonomy import Taxonomy
from privlab.mechanisms.releases.grid import GridNoise, largest_cluster

__all__ = ["BUDGETS", "EM_FACTORS", "MICROAGGREGATIONS", "MixedDPRelease"]

BUDGETS = ("split", "per-attribute")
MICROAGGREGATIONS = ("insensitive", "none")
EM_FACTORS = ("n/k", "1")


@attrs.frozen(kw_only=True)
class MixedDPRelease:
    """``attributes``: one :class:`NumericDomain` or :class:`Taxonomy` per column."""

    attributes: tuple[NumericDomain | Taxonomy, ...] = attrs.field(converter=tuple)
    k: int = attrs.field(converter=v.attrs_converter(v.positive_int))
    epsilon: float = attrs.field(converter=v.attrs_converter(v.positive))
    scale_per_unit: float | None = attrs.field(
        default=None, converter=attrs.converters.optional(v.attrs_converter(v.positive)))
    rows: str = attrs.field(default="shuffled", validator=v.attrs_validator(
        lambda n, x: v.one_of(n, x, ("aligned", "shuffled"))))
    budget: str = attrs.field(default="split", validator=v.attrs_validator(
        lambda n, x: v.one_of(n, x, BUDGETS)))
    """"split": each of the m attributes gets ε/m (the numerical scale already does; the
    exponential mechanism of a categorical attribute runs at ε/m) — ε in total; "per-attribute":
    vldb14 Algorithm 4 as printed, ε for every categorical attribute."""
    em_sensitivity: str = attrs.field(default="exact", validator=v.attrs_validator(
        lambda n, x: v.one_of(n, x, ("exact", "boundary"))))
    """Δ(m) of the exponential mechanism: "exact" — the exhaustive marginality sensitivity
    (:attr:`Taxonomy.marginality_sensitivity`); "boundary" — δ(a_b, a_t) as the sources say."""
    microaggregation: str = attrs.field(default="insensitive", validator=v.attrs_validator(
        lambda n, x: v.one_of(n, x, MICROAGGREGATIONS)))
    """"insensitive": the eq. (6.7) order cut into clusters of k; "none": k = 1, no order."""
    em_factor: str = attrs.field(validator=v.attrs_validator(
        lambda n, x: v.one_of(n, x, EM_FACTORS)))
    """Factor of the exponential mechanism's denominator: "n/k" (vldb14 eq. 6) or "1"
    (thesis Algorithm 6.3; default with ``microaggregation="none"``)."""
    clamp: bool = False
    """Clamp released numerical centroids to their domain [lo, hi] (post-processing)."""
    noise_mode: str = attrs.field(default="safe", validator=v.attrs_validator(
        lambda n, x: v.one_of(n, x, ("safe", "fast"))))
    """Numerical centroids: "safe" — exact integer noise on a power-of-two grid
    (:class:`~privlab.mechanisms.releases.grid.GridNoise`, float-safe); "fast" — float Laplace
    noise (simulation of the continuous law; its low-order bits leak).  The categorical
    centroids are concepts (no float output): the exponential mechanism's probabilities are
    computed in doubles in both modes."""

    @em_factor.default
    def _em_factor_default(self) -> str:
        return "1" if self.microaggregation == "none" else "n/k"

    def __attrs_post_init__(self) -> None:
        HeterogeneousDistance(attributes=self.attributes)  # validates the attribute list
        for a in self.attributes:
            if isinstance(a, Taxonomy) and len(a.domain) < 2:
                raise InvalidParameter(f"taxonomy {a.name!r} has domain {list(a.domain)}: a "
                                       "categorical attribute needs at least 2 domain values")
        if self.microaggregation == "none" and self.k != 1:
            raise InvalidParameter(f"k={self.k} must be 1 without microaggregation")

    @classmethod
    def as_printed(cls, **kw: Any) -> MixedDPRelease:
        """vldb14 §4.4–4.6 as printed: ε per categorical attribute, Δ(m) = δ(a_b, a_t)."""
        return cls(budget="per-attribute", em_sensitivity="boundary", **kw)

    def em_epsilon(self) -> float:
        m = len(self.attributes)
        return self.epsilon / m if self.budget == "split" else self.epsilon

    def centroid_mechanism(self, tax: Taxonomy, n: int) -> ExponentialCentroid:
        """The exponential mechanism used for attribute ``tax`` on n records."""
        sens = tax.marginality_sensitivity if self.em_sensitivity == "exact" else None
        return ExponentialCentroid(taxonomy=tax, epsilon=self.em_epsilon(),
                                   factor=self.factor(n), sensitivity=sens)

    def factor(self, n: int) -> float:
        """The exponential mechanism's factor on n records (n/k, or 1)."""
        return max(n / self.k, 1.0) if self.em_factor == "n/k" else 1.0

    def scale(self, n: int) -> float:
        """Laplace scale per unit of range on n records: ``scale_per_unit`` if given, else
        (n/k)·m/(kε) (vldb14 §4) with microaggregation, m/ε without."""
        if self.scale_per_unit is not None:
            return float(self.scale_per_unit)
        m = len(self.attributes)
        if self.microaggregation == "none":
            return m / self.epsilon
        return (n / self.k) * m / (self.k * self.epsilon)

    def grid(self, n: int) -> GridNoise:
        """Safe mode's grid of the numerical attributes (in their order) on n records."""
        doms = [a for a in self.attributes if isinstance(a, NumericDomain)]
        k = 1 if self.microaggregation == "none" else self.k
        return GridNoise.plan([(a.lo, a.hi) for a in doms], self.scale(n),
                              largest_cluster(n, k))

    @property
    def distance(self) -> HeterogeneousDistance:
        return HeterogeneousDistance(attributes=self.attributes)

    def encode(self, records: Sequence[Sequence[Any]]) -> np.ndarray:
        """(n, m) float table: numbers checked against their domain, concepts as codes."""
        n = len(records)
        m = len(self.attributes)
        if n == 0:
            raise InvalidParameter("records=[] must be non-empty")
        if any(len(r) != m for r in records):
            raise InvalidParameter(f"every record must have {m} values")
        out = np.empty((n, m))
        for j, a in enumerate(self.attributes):
            col = [r[j] for r in records]
            if isinstance(a, Taxonomy):
                dom = set(a.domain)
                bad_c = [i for i, c in enumerate(col) if str(c) not in dom]
                if bad_c:
                    i = bad_c[0]
                    raise InvalidParameter(f"value {col[i]!r} in row {i}, column {j} is not in "
                                           f"the domain of taxonomy {a.name!r}")
                out[:, j] = a.codes([str(c) for c in col], f"column {j}")
            else:
                x = np.asarray(col, dtype=float)
                bad = ~np.isfinite(x) | (x < a.lo) | (x > a.hi)
                if bad.any():
                    i = int(np.flatnonzero(bad)[0])
                    raise InvalidParameter(f"value {col[i]!r} in row {i}, column {j} lies "
                                           f"outside the declared domain [{a.lo:g}, {a.hi:g}]")
                out[:, j] = x
        return out

    def reference(self) -> np.ndarray:
        return np.array([a.lo if isinstance(a, NumericDomain) else a.index[a.boundaries[0]]
                         for a in self.attributes], dtype=float)

    def labels(self, enc: np.ndarray) -> np.ndarray:
        """Cluster labels from the data-independent order (module docstring, step 1)."""
        n = enc.shape[0]
        if self.k > n:
            raise InvalidParameter(f"k={self.k} must be <= n={n}")
        if self.microaggregation == "none":
            return np.arange(n)
        d = self.distance(enc, self.reference()[None, :])
        keys = (np.arange(n), *[enc[:, j] for j in range(enc.shape[1] - 1, -1, -1)], d)
        return consecutive_labels(np.lexsort(keys), self.k)

    def release(self, records: Sequence[Sequence[Any]], *, rng: Any = None) -> list[list[Any]]:
        """One release: a list of n records (numbers as floats, concepts as names)."""
        g = as_generator(rng)
        enc = self.encode(records)
        n = enc.shape[0]
        lab = self.labels(enc)
        q = int(lab.max()) + 1
        s = self.scale(n)
        grid = self.grid(n) if self.noise_mode == "safe" and any(
            isinstance(a, NumericDomain) for a in self.attributes) else None
        cols: list[np.ndarray] = []
        num = 0
        for j, a in enumerate(self.attributes):
            if isinstance(a, NumericDomain):
                cen = np.bincount(lab, weights=enc[:, j], minlength=q) / np.bincount(lab)
                if grid is not None:
                    noisy = grid.noisy(num, cen, np.arange(q), 1, False, self.clamp, g)[0]
                else:
                    noisy = cen + g.laplace(size=q) * s * a.width
                    if self.clamp:
                        noisy = np.clip(noisy, a.lo, a.hi)
                num += 1
                cols.append(noisy[lab].astype(object))
            else:
                em = self.centroid_mechanism(a, n)
                concepts = np.asarray(a.concepts, dtype=object)
                draws = np.array([em.sample(list(concepts[enc[lab == c, j].astype(int)]),
                                            rng=g) for c in range(q)], dtype=object)
                cols.append(draws[lab])
        out = np.stack(cols, axis=1)
        if self.rows == "shuffled":
            out = out[g.permutation(n)]
        return out.tolist()
