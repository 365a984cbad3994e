"""The text syntax of priors (CLI ``--prior`` and session JSON), thesis ch.5.

``uniform:LO,HI`` (an exact :class:`PiecewisePrior` when LO, HI are decimals or fractions),
``<scipy.stats name>:SHAPES[,LOC[,SCALE]]`` (a :class:`ContinuousPrior`), ``pmf:V=P,…`` (a
:class:`DiscretePrior` with exact masses) and ``product(SPEC;SPEC;…)`` of continuous components
(a :class:`~privlab.mechanisms.refinement.product.ProductPrior`, for multi-component queries).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from privlab.errors import InvalidParameter
from privlab.mechanisms.refinement.priors import (
    ContinuousPrior,
    DiscretePrior,
    PiecewisePrior,
    Prior,
)
from privlab.mechanisms.refinement.product import parse_product

__all__ = ["parse_prior"]

def _number(text: str) -> Any:
    for conv in (int, float):
        try:
            return conv(text)
        except ValueError:
            continue
    return text


def parse_prior(spec: str) -> Prior:
    """``uniform:LO,HI`` | ``<scipy name>:ARGS`` | ``pmf:V=P,V=P,...`` (masses as fractions) |
    ``product(SPEC;SPEC;…)`` of continuous components (a multi-component query)."""
    from scipy import stats

    if isinstance(spec, str) and spec.strip().lower().startswith("product(") \
            and spec.strip().endswith(")"):
        return parse_product(spec, parse_prior)  # type: ignore[return-value]
    if not isinstance(spec, str) or ":" not in spec:
        raise InvalidParameter(f"prior={spec!r} must look like 'uniform:0,1', 'beta:2,5' or "
                               f"'pmf:0=0.99,1=0.01'")
    kind, _, rest = spec.partition(":")
    kind = kind.strip().lower()
    if kind == "pmf":
        pmf: dict[Any, Any] = {}
        for item in filter(None, (s.strip() for s in rest.split(","))):
            val, eq, mass = item.partition("=")
            if not eq:
                raise InvalidParameter(f"prior={spec!r}: entry {item!r} must be VALUE=MASS")
            try:
                pmf[_number(val.strip())] = Fraction(mass.strip())
            except (ValueError, ZeroDivisionError):
                raise InvalidParameter(f"prior={spec!r}: mass {mass!r} is not a number") from None
        return DiscretePrior.from_mapping(pmf)
    try:
        args = [float(a) for a in rest.split(",") if a.strip()]
    except ValueError:
        raise InvalidParameter(f"prior={spec!r}: arguments must be numbers") from None
    if kind == "uniform":
        if len(args) != 2:
            raise InvalidParameter(f"prior={spec!r}: uniform needs LO,HI")
        try:  # decimal or rational text: an exact prior (same floats, exact ball masses)
            lo, hi = (Fraction(a.strip()) for a in rest.split(","))
        except (ValueError, ZeroDivisionError):
            return PiecewisePrior.uniform(args[0], args[1])
        return PiecewisePrior.uniform(lo, hi)
    family = getattr(stats, kind, None)
    if family is None or not isinstance(family, stats.rv_continuous):
        raise InvalidParameter(f"prior={spec!r}: unknown continuous family {kind!r}")
    try:
        frozen = family(*args)
        frozen.cdf(0.0)
    except Exception as exc:
        raise InvalidParameter(f"prior={spec!r}: {exc}") from None
    shapes, loc_scale = args[:family.numargs], args[family.numargs:]
    if len(loc_scale) > 2 or not frozen.dist._argcheck(*shapes) or \
            (len(loc_scale) == 2 and not loc_scale[1] > 0):
        raise InvalidParameter(f"prior={spec!r}: invalid arguments for {kind} "
                               f"({family.numargs} shape(s), then optional loc, scale > 0)")
    return ContinuousPrior(dist=frozen, label=spec)
