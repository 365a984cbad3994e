"""The :class:`Control` value type: a mechanism with neighbouring inputs and its ground truth."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any

import attrs
import numpy as np

from privlab import _validate as v

TRUE_NOTES = ("exact", "upper bound", "infinite", "infinite as queries grow")


@attrs.frozen(kw_only=True)
class Control:
    """A mechanism of the suite.

    ``draw(x, n, rng)`` returns n outputs on input ``x`` (shape (n,) or (n, d));
    ``pairs`` are the neighbouring inputs audited (Bonferroni over them);
    ``epsilon`` is the claimed ε, ``true_epsilon`` the real loss (``math.inf`` allowed) with
    ``true_note`` ∈ :data:`TRUE_NOTES`.  ``float_bits`` asks the auditor to search the
    floating-point low-bit features too; ``features`` is an optional user feature map.
    """

    name: str
    params: Mapping[str, Any] = attrs.field(factory=dict)
    epsilon: float = attrs.field(validator=v.attrs_validator(v.non_negative))
    true_epsilon: float
    true_note: str = attrs.field(validator=attrs.validators.in_(TRUE_NOTES))
    draw: Callable[[Any, int, np.random.Generator], Any] = attrs.field(eq=False, repr=False)
    pairs: tuple[tuple[Any, Any], ...]
    family: str = ""
    source: str = ""
    float_bits: bool = False
    features: Any = attrs.field(default=None, eq=False, repr=False)

    @property
    def correct(self) -> bool:
        """Whether the claim holds (true ε ≤ claimed ε, up to float rounding)."""
        return self.true_epsilon <= self.epsilon * (1 + 1e-9)

    @property
    def spec(self) -> dict[str, Any]:
        return {"mechanism": self.name, "params": dict(self.params)}

    def sample_on(self, x: Any, n: int, rng: np.random.Generator) -> Any:
        return self.draw(x, n, rng)

    def truth(self) -> dict[str, Any]:
        t = self.true_epsilon
        return {"true_epsilon": t if math.isfinite(t) else "inf", "true_note": self.true_note}
