"""Known-answer mechanisms for privlab's black-box auditor (issue 33, item 1).

Each entry of :func:`catalogue` is a frozen :class:`KnownAnswer`: two samplers (the mechanism's
outputs on a fixed pair of neighbouring inputs, in the ``sample(n, rng) -> ndarray`` shape that
:func:`privlab.audit.audit_pair` takes), the claim (ε, and δ where relevant), the objective
(ε at the claimed δ, or δ at the claimed ε) and the **true value of that objective on that pair**,
derived without sampling by :func:`KnownAnswer.true_value` — a closed form, or an exact
enumeration of the output law (:mod:`.exact`: rational arithmetic or mpmath at
:data:`.exact.DPS` digits), or ∞ with a proof.  The builder's docstring (``derivation``) gives
the derivation and the reference.

Why the pair's value: an auditor only sees the two output laws it samples, so the best any
auditor can report is sup over events of the loss *between those two laws*.  That is what
``true_value`` is and what the 0.95 goal of the runner is measured against; where the
mechanism's worst case over all pairs (its real ε) differs, the derivation says so.

``target`` says which law the truth is about:

* ``"law"`` — the mathematical law the sampler implements (floating-point samplers realise it
  up to rounding: events of probability ≲ 2⁻⁵⁰, far below what 10⁷ samples resolve).  These
  entries are audited with privlab's default (law) features.
* ``"implementation"`` — the exact law of the code's outputs as numbers (table samplers on
  integers, grids enumerated point by point, floating-point supports); audited with
  ``float_bits`` where the leak is in float64 bits.

Families: randomized response, exponential mechanism, noisy histogram, partial / prefix sums
(:mod:`.basic`); report-noisy-max (:mod:`.noisy_max`); the sparse vector variants of Lyu, Su &
Li 2017 (:mod:`.svt`); Gaussian and discrete Gaussian on both objectives (:mod:`.gaussian`);
floating-point and lattice leaks (:mod:`.floats`); privlab's own noise mechanisms, correct and
with broken parameters (:mod:`.seeds`).
"""

from __future__ import annotations

import functools
import importlib
import inspect
import math
from collections.abc import Callable
from typing import Any

import attrs
import numpy as np
from numpy.typing import NDArray

Sampler = Callable[[int, np.random.Generator], NDArray[Any]]
OBJECTIVES = ("epsilon", "delta")
TARGETS = ("law", "implementation")
FAMILY_MODULES = ("basic", "noisy_max", "svt", "gaussian", "floats", "seeds")
TRUTH_KINDS = ("exact", "infinite")


@attrs.frozen(kw_only=True)
class KnownAnswer:
    """One mechanism on one neighbouring pair, with its exactly known privacy loss.

    ``truth()`` returns the true value of the objective on the pair: ε (at ``claimed_delta``)
    for ``objective="epsilon"``, δ (at ``claimed_epsilon``) for ``objective="delta"``;
    ``math.inf`` for a loss that is infinite (an output possible under one input only).
    """

    name: str
    family: str
    pair: str
    """The two neighbouring inputs, in words (sample_a runs on the first)."""
    sample_a: Sampler = attrs.field(eq=False, repr=False)
    sample_b: Sampler = attrs.field(eq=False, repr=False)
    claimed_epsilon: float
    claimed_delta: float = 0.0
    objective: str = attrs.field(default="epsilon", validator=attrs.validators.in_(OBJECTIVES))
    truth: Callable[[], float] = attrs.field(eq=False, repr=False)
    target: str = attrs.field(default="law", validator=attrs.validators.in_(TARGETS))
    reference: str
    float_bits: bool = False
    cost: float = 1.0
    """Audit seconds per 10⁶ outputs per side (rounded, measured with one worker on a shared
    2-core machine); the runner can cap the samples of expensive entries (``--budget``)."""
    derivation: str = ""
    """The builder's docstring: how the true value is derived, and the reference."""

    @property
    def true_value(self) -> float:
        """The exact true value (cached per entry name)."""
        return _truth_of(self.name, self.truth)

    @property
    def truth_kind(self) -> str:
        return "infinite" if math.isinf(self.true_value) else "exact"

    @property
    def correct(self) -> bool:
        """Whether the claim holds on this pair (true value ≤ the claimed one)."""
        claim = self.claimed_epsilon if self.objective == "epsilon" else self.claimed_delta
        return self.true_value <= claim * (1 + 1e-12)


_TRUTHS: dict[str, float] = {}


def _truth_of(name: str, fn: Callable[[], float]) -> float:
    if name not in _TRUTHS:
        t = float(fn())
        if math.isnan(t) or t < 0:
            raise ValueError(f"{name}: true value {t!r} must be >= 0 or inf")
        _TRUTHS[name] = t
    return _TRUTHS[name]


Builder = Callable[[], KnownAnswer]
_BUILDERS: list[Builder] = []


def entry(fn: Builder) -> Builder:
    """Register a builder; its docstring becomes the entry's ``derivation``."""
    doc = inspect.getdoc(fn)
    if not doc:
        raise ValueError(f"{fn.__name__} needs a docstring with the derivation")

    @functools.wraps(fn)
    def build() -> KnownAnswer:
        return attrs.evolve(fn(), derivation=doc)

    _BUILDERS.append(build)
    return build


@functools.cache
def catalogue() -> tuple[KnownAnswer, ...]:
    """Every known-answer entry, in family order; names are unique."""
    for mod in FAMILY_MODULES:  # importing a family module registers its builders
        importlib.import_module(f"{__name__}.{mod}")

    def family_rank(b: Builder) -> int:
        return FAMILY_MODULES.index(b.__module__.rsplit(".", 1)[-1])

    out = tuple(b() for b in sorted(_BUILDERS, key=family_rank))  # stable: file order within
    names = [e.name for e in out]
    dup = {x for x in names if names.count(x) > 1}
    if dup:
        raise ValueError(f"duplicate entry names: {sorted(dup)}")
    return out


def by_name(name: str) -> KnownAnswer:
    for e in catalogue():
        if e.name == name:
            return e
    raise KeyError(name)


__all__ = ["KnownAnswer", "Sampler", "by_name", "catalogue", "entry"]
