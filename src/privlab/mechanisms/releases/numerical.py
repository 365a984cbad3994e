"""DP data releases through microaggregation (thesis §6.3 Alg. 6.2, vldb14 Alg. 3, irm Alg. 1).

Pipeline (numerical attributes, declared domain [lo_j, hi_j], range Δ_j = hi_j − lo_j):

1. microaggregate — ``insensitive-mdav``: one fixed total order (Euclidean distance to the
   lower domain corner in units of range, ties lexicographic, then by index), consecutive
   clusters of k, the last one absorbing the remainder (thesis Prop. 6 proof);
   ``individual-ranking``: the same per attribute (numerical order); ``none``: k = 1;
2. replace each record (attribute) by its cluster centroid (mean);
3. add Laplace noise of scale s·Δ_j on attribute j, s the scale per unit of range
   (:attr:`privlab.mechanisms.releases.config.ReleaseConfig.scale_per_unit`: thesis Δ/(kε),
   vldb14 (n/k)Δ/(kε), irm mΔ_j/(kε), or a value) — one draw per cluster copied to its rows
   (``noise="shared"``) or one per row (``"per-record"``);
4. optionally clamp to the domain (post-processing), and keep rows aligned with the input
   records or shuffle them.

``noise_mode="safe"`` (the default) draws step 3 exactly on a power-of-two grid per attribute
(:class:`~privlab.mechanisms.releases.grid.GridNoise`): every value written is a grid point, a
deterministic function of integer noise, so the doubles carry nothing beyond the discrete
mechanism (Mironov 2012).  ``noise_mode="fast"`` adds float Laplace noise
(``rng.laplace()·scale``): the law of the paper's continuous mechanism, for simulation only —
its low-order bits leak the centroid, so it is not ε-DP as written (``docs/threat-model.md``).

Which configurations are ε-DP is decided in :mod:`privlab.verify.releases.certificate`.

The partition comes from :func:`privlab.mechanisms.microaggregation.dp_release_labels`.
"""

from __future__ import annotations

from typing import Any

import attrs
import numpy as np

from privlab import _validate as v
from privlab._rng import as_generator
from privlab.errors import InvalidParameter
from privlab.mechanisms import microaggregation
from privlab.mechanisms.releases.config import ReleaseConfig
from privlab.mechanisms.releases.grid import GridNoise, largest_cluster

__all__ = ["NOISE_MODES", "DPRelease", "order_partition"]

NOISE_MODES = ("safe", "fast")


def order_partition(u: np.ndarray, k: int, kind: str) -> tuple[np.ndarray, str]:
    """Cluster labels for data ``u`` in units ([0, 1]^m): (n,) for insensitive MDAV and none,
    (n, m) for individual ranking; and the name of the code that produced them."""
    n, _ = u.shape
    if kind == "none":
        return np.arange(n), "identity"
    return (np.asarray(microaggregation.dp_release_labels(u, k, kind)),
            "privlab.mechanisms.microaggregation")


def _check_data(x: Any, bounds: Any) -> tuple[np.ndarray, np.ndarray]:
    x = np.asarray(x, dtype=float)
    if x.ndim == 1:
        x = x[:, None]
    if x.ndim != 2 or x.shape[0] == 0 or x.shape[1] == 0:
        raise InvalidParameter(f"data of shape {x.shape} must be a non-empty (n, m) table")
    b = np.asarray(bounds, dtype=float).reshape(-1, 2)
    if b.shape[0] == 1 and x.shape[1] > 1:
        b = np.repeat(b, x.shape[1], axis=0)
    if b.shape[0] != x.shape[1] or not np.isfinite(b).all() or (b[:, 1] <= b[:, 0]).any():
        raise InvalidParameter(f"bounds={bounds!r} must give finite lo < hi for each of the "
                               f"{x.shape[1]} columns")
    if not np.isfinite(x).all():
        raise InvalidParameter("data contains non-finite values")
    out = (x < b[:, 0]) | (x > b[:, 1])
    if out.any():
        r, c = np.argwhere(out)[0]
        raise InvalidParameter(f"value {x[r, c]!r} in row {r}, column {c} lies outside the "
                               f"declared domain [{b[c, 0]:g}, {b[c, 1]:g}]")
    return x, b


@attrs.frozen(kw_only=True)
class DPRelease:
    """A configured release mechanism; ``release(x)`` returns one noisy table."""

    microaggregation: str = "insensitive-mdav"
    k: int = attrs.field(default=1, converter=v.attrs_converter(v.positive_int))
    epsilon: float = attrs.field(default=1.0, converter=v.attrs_converter(v.positive))
    noise_scale: str | float = "thesis"
    noise: str = "shared"
    rows: str = "shuffled"
    clamp: bool = False
    noise_mode: str = attrs.field(default="safe", validator=v.attrs_validator(
        lambda n, x: v.one_of(n, x, NOISE_MODES)))
    """"safe": exact integer noise on a power-of-two grid (float-safe, module docstring);
    "fast": float Laplace noise (simulation of the continuous law; leaks through its bits)."""

    def config(self, n: int, m: int, neighbour: str = "substitute") -> ReleaseConfig:
        return ReleaseConfig(microaggregation=self.microaggregation, noise_scale=self.noise_scale,
                             n=n, k=self.k, epsilon=self.epsilon, attributes=m, noise=self.noise,
                             rows=self.rows, neighbour=neighbour)

    def aggregate(self, x: Any, bounds: Any) -> tuple[np.ndarray, np.ndarray, str]:
        """(centroid table aligned with the input (n, m), labels, partition source)."""
        x, b = _check_data(x, bounds)
        n, m = x.shape
        self.config(n, m)  # validates k <= n etc.
        u = (x - b[:, 0]) / (b[:, 1] - b[:, 0])
        lab, src = order_partition(u, self.k, self.microaggregation)
        cen = np.empty_like(x)
        for j in range(m):
            lj = lab if lab.ndim == 1 else lab[:, j]
            sums = np.bincount(lj, weights=x[:, j])
            cen[:, j] = (sums / np.bincount(lj))[lj]
        return cen, lab, src

    def grid(self, bounds: Any, n: int) -> GridNoise:
        """The grid and integer noise rates of the safe mode for n records in ``bounds``
        (public parameters only)."""
        b = np.asarray(bounds, dtype=float).reshape(-1, 2)
        m = b.shape[0]
        k = 1 if self.microaggregation == "none" else self.k
        return GridNoise.plan(b, self.config(n, m).scale_per_unit, largest_cluster(n, k))

    def sample(self, x: Any, bounds: Any, shape: int = 1, *, rng: Any = None) -> np.ndarray:
        """``shape`` independent releases, array (shape, n, m) (vectorized over releases)."""
        g = as_generator(rng)
        t = v.positive_int("shape", shape)
        x, b = _check_data(x, bounds)
        n = x.shape[0]
        if self.noise_mode == "safe":
            out = self._sample_safe(x, b, t, g)
        else:
            out = self._sample_fast(x, b, t, g)
        if self.rows == "shuffled":
            perm = np.argsort(g.random((t, n)), axis=1)
            out = np.take_along_axis(out, perm[:, :, None], axis=1)
        return out

    def _sample_safe(self, x: np.ndarray, b: np.ndarray, t: int,
                     g: np.random.Generator) -> np.ndarray:
        n, m = x.shape
        grid = self.grid(b, n)
        u = (x - b[:, 0]) / (b[:, 1] - b[:, 0])
        lab, _ = order_partition(u, self.k, self.microaggregation)
        per_record = self.noise == "per-record" or self.microaggregation == "none"
        out = np.empty((t, n, m))
        for j in range(m):
            lj = lab if lab.ndim == 1 else lab[:, j]
            cen = np.bincount(lj, weights=x[:, j]) / np.bincount(lj)
            out[:, :, j] = grid.noisy(j, cen, lj, t, per_record, self.clamp, g)
        return out

    def _sample_fast(self, x: np.ndarray, b: np.ndarray, t: int,
                     g: np.random.Generator) -> np.ndarray:
        n, m = x.shape
        cen, lab, _ = self.aggregate(x, b)
        scale = self.config(n, m).scale_per_unit * (b[:, 1] - b[:, 0])
        if self.noise == "per-record" or self.microaggregation == "none":
            noise = g.laplace(size=(t, n, m)) * scale
        else:
            labs = lab[:, None] if lab.ndim == 1 else lab
            q = int(labs.max()) + 1
            draws = g.laplace(size=(t, q, m)) * scale
            noise = np.take_along_axis(draws, np.broadcast_to(labs, (t, n, m)), axis=1)
        out = cen[None] + noise
        if self.clamp:
            out = np.clip(out, b[:, 0], b[:, 1])
        return out

    def release(self, x: Any, bounds: Any, *, rng: Any = None) -> np.ndarray:
        """One release (n, m)."""
        return self.sample(x, bounds, 1, rng=rng)[0]
