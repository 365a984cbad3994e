"""Mechanisms with known ground truth for the auditor's benchmark suite (claimed and true ε).

Each control is a :class:`Control` (or, for the lab's own additive-noise laws, the mechanism
object itself) built by name with :func:`make` — the name and parameters are recorded in every
counterexample (``spec``), so :func:`privlab.audit.replay` can rebuild the mechanism.  Families:

* :mod:`.basic` — Laplace, two-sided geometric, staircase, randomized response, exponential
  mechanism, noisy histograms (correct and broken variants), the lab's broken noise controls;
* :mod:`.svt` — the sparse vector technique variants of Lyu, Su & Li (PVLDB 2017);
* :mod:`.noisy_max` — report-noisy-max variants (Ding et al., CCS 2018; StatDP);
* :mod:`.floating` — naive floating-point Laplace (Mironov, CCS 2012) against the lab's
  snapping/discrete safe mode (:mod:`privlab.mechanisms.noise.safe`).

"true ε" is the mechanism's exact privacy loss where it is known in closed form (``true_note``
says "exact"), an upper bound from the literature ("upper bound"), or ∞.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from privlab.audit.controls._base import Control
from privlab.errors import InvalidParameter

Factory = Callable[..., Any]


def _registry() -> dict[str, Factory]:
    from privlab.audit.controls import basic, floating, noisy_max, svt

    out: dict[str, Factory] = {}
    for mod in (basic, svt, noisy_max, floating):
        out.update(mod.FACTORIES)
    return out


def names() -> tuple[str, ...]:
    """Every mechanism name :func:`make` knows."""
    return tuple(_registry())


def make(name: str, **params: Any) -> Any:
    """Build the control (or lab mechanism) ``name`` with ``params`` (e.g. ``epsilon=0.5``)."""
    reg = _registry()
    if name not in reg:
        raise InvalidParameter(f"mechanism={name!r} is not one of {', '.join(sorted(reg))}")
    try:
        return reg[name](**params)
    except TypeError as exc:
        raise InvalidParameter(f"mechanism={name!r}: bad parameters {params!r} ({exc})") from None


def from_spec(spec: Mapping[str, Any]) -> Any:
    """Rebuild a mechanism from a counterexample's ``spec`` ({"mechanism": …, "params": …})."""
    if not isinstance(spec, Mapping) or "mechanism" not in spec:
        raise InvalidParameter(f"spec={spec!r} must be a mapping with a 'mechanism' name")
    return make(str(spec["mechanism"]), **dict(spec.get("params") or {}))


def spec_of_noise(mech: Any) -> dict[str, Any] | None:
    """The spec of a lab noise mechanism (Laplace, staircase, their broken controls)."""
    from privlab.audit.controls.basic import NOISE_NAMES

    name = getattr(mech, "name", None)
    if name not in NOISE_NAMES:
        return None
    params = {"epsilon": float(mech.epsilon), "sensitivity": float(mech.sensitivity)}
    if hasattr(mech, "d"):
        params["d"] = float(mech.d)
    return {"mechanism": name, "params": params}


__all__ = ["Control", "from_spec", "make", "names", "spec_of_noise"]
