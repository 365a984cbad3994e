"""Exponential-mechanism centroids and the heterogeneous record distance (thesis §6.3.4–6.3.6).

* :class:`ExponentialCentroid` — thesis Algorithm 6.3 / vldb14 Algorithm 4 / irm Algorithm 2:
  for a cluster sample S of a categorical attribute, draw a centroid c from the candidates
  (all concepts of τ(A)) with Pr(c) ∝ exp(ε · (−m(S, c)) / (2 · factor · Δ(m))).
  The thesis uses factor = 1; vldb14 eq. (6) uses factor = n/k (one change of a record may
  change one value in every one of the n/k clusters).  Δ(m) defaults to the sources'
  δ(a_b, a_t); :attr:`Taxonomy.marginality_sensitivity` is the exhaustively computed value
  (they differ on unbalanced taxonomies, see :mod:`privlab.verify.microaggregation.taxonomy`).
* :class:`HeterogeneousDistance` — eq. (6.7) / vldb14 eq. (8):
  d(x, y) = √Σ_i (dist_i(x_i, y_i) / dist_i(a_b^i, a_t^i))², numerical attributes with
  |x − y| over their declared domain [lo, hi], categorical ones with δ of eq. (6.6) over the
  distance between the taxonomy's boundaries.  Categorical columns hold concept codes
  (:meth:`Taxonomy.codes`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import attrs
import numpy as np

from privlab import _validate as v
from privlab._rng import as_generator
from privlab.errors import InvalidParameter
from privlab.mechanisms.microaggregation.taxonomy import Taxonomy

__all__ = ["ExponentialCentroid", "HeterogeneousDistance", "NumericDomain"]


@attrs.frozen(kw_only=True)
class ExponentialCentroid:
    """ε-DP centroid selection by the exponential mechanism with quality −m(S, c)."""

    taxonomy: Taxonomy
    epsilon: float = attrs.field(converter=v.attrs_converter(v.positive))
    factor: float = attrs.field(default=1.0, converter=v.attrs_converter(v.positive))
    sensitivity: float | None = None

    @property
    def delta_m(self) -> float:
        return self.taxonomy.boundary_distance if self.sensitivity is None else self.sensitivity

    def log_weights(self, sample: Sequence[str]) -> np.ndarray:
        """ε·(−m(S, c)) / (2·factor·Δ(m)) for every concept c (index order of ``concepts``)."""
        m = self.taxonomy.marginality(sample)
        return -self.epsilon * m / (2.0 * self.factor * self.delta_m)

    def probabilities(self, sample: Sequence[str]) -> np.ndarray:
        if len(sample) == 0:
            raise InvalidParameter("sample=[] must be non-empty")
        lw = self.log_weights(sample)
        w = np.exp(lw - lw.max())
        return w / w.sum()

    def sample(self, sample: Sequence[str], shape: Any = (), *, rng: Any = None) -> np.ndarray:
        """Concept names drawn from :meth:`probabilities` (array of ``shape``)."""
        g = as_generator(rng)
        p = self.probabilities(sample)
        idx = g.choice(len(p), size=shape, p=p)
        return np.asarray(self.taxonomy.concepts, dtype=object)[idx]

    def log_probabilities(self, sample: Sequence[str]) -> np.ndarray:
        """log Pr(c) = q(c) − log Σ_c′ exp q(c′), computed without underflow (a probability
        below the smallest double still has a finite logarithm)."""
        if len(sample) == 0:
            raise InvalidParameter("sample=[] must be non-empty")
        lw = self.log_weights(sample)
        top = lw.max()
        return np.asarray(lw - (top + np.log(np.exp(lw - top).sum())))

    def privacy_loss(self, sample_a: Sequence[str], sample_b: Sequence[str]) -> float:
        """max_c |log Pr_a(c) − log Pr_b(c)| (exact privacy loss of one draw)."""
        la, lb = self.log_probabilities(sample_a), self.log_probabilities(sample_b)
        return float(np.abs(la - lb).max())


@attrs.frozen
class NumericDomain:
    """A numerical attribute's declared domain [lo, hi] (hi > lo)."""

    lo: float = attrs.field(converter=float)
    hi: float = attrs.field(converter=float)

    def __attrs_post_init__(self) -> None:
        if not (np.isfinite(self.lo) and np.isfinite(self.hi) and self.hi > self.lo):
            raise InvalidParameter(f"bounds=({self.lo!r}, {self.hi!r}) must be finite with hi > lo")

    @property
    def width(self) -> float:
        return self.hi - self.lo


@attrs.frozen(kw_only=True)
class HeterogeneousDistance:
    """eq. (6.7): attributes are :class:`NumericDomain` or :class:`Taxonomy` (codes)."""

    attributes: tuple[NumericDomain | Taxonomy, ...] = attrs.field(converter=tuple)

    def __attrs_post_init__(self) -> None:
        if not self.attributes:
            raise InvalidParameter("attributes=() must name at least one attribute")
        for a in self.attributes:
            if not isinstance(a, (NumericDomain, Taxonomy)):
                raise InvalidParameter(f"attribute {a!r} must be a NumericDomain or a Taxonomy")

    def per_attribute(self, x: Any, y: Any) -> np.ndarray:
        """Normalised per-attribute distances, broadcasting x (..., m) against y (..., m)."""
        x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
        m = len(self.attributes)
        if x.shape[-1] != m or y.shape[-1] != m:
            raise InvalidParameter(f"records must have {m} attributes, got {x.shape}, {y.shape}")
        x, y = np.broadcast_arrays(x, y)
        out = np.empty(x.shape, dtype=float)
        for j, a in enumerate(self.attributes):
            if isinstance(a, NumericDomain):
                out[..., j] = np.abs(x[..., j] - y[..., j]) / a.width
            else:
                ix, iy = x[..., j].astype(np.int64), y[..., j].astype(np.int64)
                out[..., j] = a.distance_matrix[ix, iy] / a.boundary_distance
        return out

    def __call__(self, x: Any, y: Any) -> np.ndarray:
        return np.sqrt((self.per_attribute(x, y) ** 2).sum(axis=-1))

    def pairwise(self, x: Any, y: Any) -> np.ndarray:
        """(n, p) matrix of eq. (6.7) distances between rows of x (n, m) and y (p, m)."""
        x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
        return self(x[:, None, :], y[None, :, :])
