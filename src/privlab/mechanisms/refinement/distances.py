"""Distances over Range(f) that decide which points are "near" f(D) (thesis §5.2, Table 5.1).

* ``absolute``  d(x, y) = |x − y|            (continuous / numeric answers)
* ``nominal``   d(cᵢ, cⱼ) = 0 if i = j else 1 (categories)
* ``ordinal``   d(cᵢ, cⱼ) = |i − j|           (ordered categories, by their position in a list)
* user-supplied: any ``callable(x, y) -> number ≥ 0`` wrapped by :func:`custom`.

The refinement only uses the *ordering* of points by distance to f(D): the candidate sets
U¹_{f(D),r} = {x : d(f(D), x) ≤ r} and U²_{f(D),r} = {x : d(f(D), x) < r} of (5.1) are the
unions of the k nearest distance levels, k = 0, 1, ….
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import attrs

from privlab.errors import InvalidParameter

NAMES = ("absolute", "nominal", "ordinal")


@attrs.frozen(kw_only=True)
class Distance:
    """A named distance ``fn(x, y) >= 0``."""

    name: str
    fn: Callable[[Any, Any], Any] = attrs.field(eq=False, repr=False)
    metric_on_reals: bool = False
    """True when d(x, y) = |x − y| (the only distance usable with a continuous prior)."""

    def __call__(self, x: Any, y: Any) -> Any:
        d = self.fn(x, y)
        if isinstance(d, bool) or not d >= 0:
            raise InvalidParameter(f"distance {self.name}({x!r}, {y!r}) = {d!r} must be a "
                                   f"number >= 0")
        return d


def _abs(x: Any, y: Any) -> Any:
    try:
        return abs(x - y)
    except TypeError:
        raise InvalidParameter(f"absolute distance needs numbers, got {x!r} and {y!r}") from None


ABSOLUTE = Distance(name="absolute", fn=_abs, metric_on_reals=True)
NOMINAL = Distance(name="nominal", fn=lambda x, y: 0 if x == y else 1)


def ordinal(categories: Sequence[Any]) -> Distance:
    """d(cᵢ, cⱼ) = |i − j| for the positions in ``categories``."""
    cats = tuple(categories)
    pos = {c: i for i, c in enumerate(cats)}
    if len(pos) != len(cats):
        raise InvalidParameter(f"categories={cats!r} must be distinct")

    def fn(x: Any, y: Any) -> int:
        if x not in pos or y not in pos:
            bad = x if x not in pos else y
            raise InvalidParameter(f"ordinal distance: {bad!r} is not one of {cats!r}")
        return abs(pos[x] - pos[y])

    return Distance(name="ordinal", fn=fn)


def custom(fn: Callable[[Any, Any], Any], name: str = "custom") -> Distance:
    if not callable(fn):
        raise InvalidParameter(f"distance={fn!r} must be callable (x, y) -> number >= 0")
    return Distance(name=name, fn=fn)


def get_distance(spec: str | Distance | Callable[[Any, Any], Any],
                 categories: Sequence[Any] | None = None) -> Distance:
    """A distance by name (``absolute``/``nominal``/``ordinal``), or wrap a callable."""
    if isinstance(spec, Distance):
        return spec
    if callable(spec):
        return custom(spec)
    if spec == "absolute":
        return ABSOLUTE
    if spec == "nominal":
        return NOMINAL
    if spec == "ordinal":
        if categories is None:
            raise InvalidParameter("distance='ordinal' needs the ordered categories")
        return ordinal(categories)
    raise InvalidParameter(f"distance={spec!r} is unknown; use one of {', '.join(NAMES)} or a "
                           f"callable")
