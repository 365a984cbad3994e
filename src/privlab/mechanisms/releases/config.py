"""One configuration of the numerical DP release pipeline (thesis §6.3, vldb14 §4, irm §3).

Every attribute j has a declared range Δ_j; the Laplace scale on attribute j is ``s · Δ_j``
where s, the *scale per unit of range*, is fixed by the source's rule (m attributes,
q = ⌊n/k⌋ clusters): thesis §6.3.1 Δ(I_r)/(kε) with Δ(I_r) = Σ_j Δ_j → s = m/(kε); vldb14 §4
(n/k)·Δ/(kε) → s = (n/k)·m/(kε); irm Algorithm 1 m·Δ_j/(kε) → s = m/(kε); or a number.
The guarantee such a configuration gives is established in
:mod:`privlab.verify.releases.certificate`.
"""

from __future__ import annotations

from typing import Any

import attrs

from privlab import _validate as v
from privlab.errors import InvalidParameter
from privlab.types import Neighbour

__all__ = ["MICROAGGREGATIONS", "NOISE_SCALES", "ReleaseConfig"]

MICROAGGREGATIONS = ("insensitive-mdav", "individual-ranking", "none")
NOISE_SCALES = ("thesis", "vldb14", "irm")


def _scale(value: Any) -> str | float:
    if isinstance(value, str) and value in NOISE_SCALES:
        return value
    try:
        return v.positive("noise_scale", float(value))
    except (TypeError, ValueError) as e:
        raise InvalidParameter(f"noise_scale={value!r} must be one of {NOISE_SCALES} "
                               "or a positive number") from e


@attrs.frozen(kw_only=True)
class ReleaseConfig:
    """One configuration of the release pipeline (see module docstring)."""

    microaggregation: str = attrs.field(
        validator=v.attrs_validator(lambda n, x: v.one_of(n, x, MICROAGGREGATIONS)))
    noise_scale: str | float = attrs.field(converter=_scale)
    n: int = attrs.field(converter=v.attrs_converter(v.positive_int))
    k: int = attrs.field(converter=v.attrs_converter(v.positive_int))
    epsilon: float = attrs.field(converter=v.attrs_converter(v.positive))
    attributes: int = attrs.field(default=1, converter=v.attrs_converter(v.positive_int))
    noise: str = attrs.field(default="shared", validator=v.attrs_validator(
        lambda n, x: v.one_of(n, x, ("shared", "per-record"))))
    rows: str = attrs.field(default="shuffled", validator=v.attrs_validator(
        lambda n, x: v.one_of(n, x, ("aligned", "shuffled"))))
    neighbour: Neighbour = attrs.field(default=Neighbour.SUBSTITUTE, converter=Neighbour.parse)

    def __attrs_post_init__(self) -> None:
        if self.k > self.n:
            raise InvalidParameter(f"k={self.k} must be <= n={self.n}")
        if self.microaggregation == "none" and self.k != 1:
            raise InvalidParameter(f"k={self.k} must be 1 without microaggregation")

    @property
    def clusters(self) -> int:
        """q = ⌊n/k⌋ (k = 1: n singleton clusters)."""
        return self.n // self.k

    @property
    def scale_per_unit(self) -> float:
        """Laplace scale per unit of attribute range."""
        m, k, e, n = self.attributes, self.k, self.epsilon, self.n
        if self.noise_scale == "thesis" or self.noise_scale == "irm":
            return m / (k * e)
        if self.noise_scale == "vldb14":
            return (n / k) * m / (k * e)
        return float(self.noise_scale)

    def to_dict(self) -> dict[str, Any]:
        d = attrs.asdict(self)
        d["neighbour"] = str(self.neighbour)
        d["scale_per_unit"] = self.scale_per_unit
        return d
