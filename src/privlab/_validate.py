"""Small validators shared by the value types (messages name the parameter and value)."""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable
from typing import Any

from privlab.errors import InvalidParameter


def _as_real(name: str, value: Any) -> float:
    if isinstance(value, bool):
        raise InvalidParameter(f"{name}={value!r} must be a real number, not a bool")
    try:
        x = float(value)
    except (TypeError, ValueError):
        raise InvalidParameter(f"{name}={value!r} must be a real number") from None
    if math.isnan(x):
        raise InvalidParameter(f"{name}={value!r} must not be NaN")
    return x


def finite(name: str, value: Any) -> float:
    x = _as_real(name, value)
    if not math.isfinite(x):
        raise InvalidParameter(f"{name}={value!r} must be finite")
    return x


def finite_array(name: str, value: Any) -> Any:
    """``value`` as a float ndarray; raises naming the first non-finite entry and its index."""
    import numpy as np

    x = np.asarray(value, dtype=float)
    bad = np.flatnonzero(~np.isfinite(x.ravel()))
    if bad.size:
        i = int(bad[0])
        raise InvalidParameter(f"{name}={float(x.ravel()[i])!r} (at flat index {i}) "
                               f"must be finite")
    return x


def positive(name: str, value: Any) -> float:
    x = finite(name, value)
    if not x > 0:
        raise InvalidParameter(f"{name}={value!r} must be > 0")
    return x


def non_negative(name: str, value: Any) -> float:
    x = finite(name, value)
    if not x >= 0:
        raise InvalidParameter(f"{name}={value!r} must be >= 0")
    return x


def in_closed(name: str, value: Any, lo: float, hi: float) -> float:
    x = finite(name, value)
    if not lo <= x <= hi:
        raise InvalidParameter(f"{name}={value!r} must lie in [{lo:g}, {hi:g}]")
    return x


def in_open(name: str, value: Any, lo: float, hi: float) -> float:
    x = finite(name, value)
    if not lo < x < hi:
        raise InvalidParameter(f"{name}={value!r} must lie in ({lo:g}, {hi:g})")
    return x


def one_of(name: str, value: Any, allowed: tuple[str, ...]) -> str:
    if value not in allowed:
        raise InvalidParameter(f"{name}={value!r} must be one of {', '.join(allowed)}")
    return str(value)


def positive_int(name: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int | float) or value != int(value):
        raise InvalidParameter(f"{name}={value!r} must be a positive integer")
    if int(value) < 1:
        raise InvalidParameter(f"{name}={value!r} must be a positive integer")
    return int(value)


def attrs_validator(check: Callable[[str, Any], Any]) -> Callable[[Any, Any, Any], None]:
    """Wrap a ``check(name, value)`` function as an attrs validator."""

    def _v(_instance: Any, attribute: Any, value: Any) -> None:
        check(attribute.name, value)

    return _v


def attrs_converter(check: Callable[[str, Any], Any]) -> Any:
    """Wrap a ``check(name, value) -> converted`` function as an attrs converter, so that the
    message names the field even when the value cannot be converted (``epsilon='one'``)."""
    import attrs

    return attrs.Converter(lambda value, field: check(field.name, value), takes_field=True)


def shape_tuple(shape: Any) -> tuple[int, ...]:
    """A sample shape (an int or a tuple of non-negative ints) as a tuple."""
    if isinstance(shape, numbers.Integral):
        shape = (int(shape),)
    try:
        out = tuple(int(s) for s in shape)
    except TypeError:
        raise InvalidParameter(f"shape={shape!r} must be an int or a tuple of ints") from None
    if any(s < 0 for s in out):
        raise InvalidParameter(f"shape={shape!r} must have non-negative entries")
    return out
