"""Certificates for univariate additive noise (thesis ch.4): a parameter choice plus the exact
evidence that it gives the guarantee it claims.

:func:`certify_noise` runs, on one noise law,

* :func:`~privlab.verify.check_pure_dp` — inequality (4.2), decided exactly on the pieces;
* :func:`~privlab.verify.check_normalisation` and :func:`~privlab.verify.check_symmetry`;
* for the floating-point-safe release mode, :func:`privlab.mechanisms.noise.safe.check_safe_dp` —
the
  exact DP check of the discrete noise actually sampled (see docs/threat-model.md);

and records the accuracy the choice buys (variance, 95 % CI half-width, E|Y|) beside the same
numbers for Laplace(Δ/ε), the baseline of §4.3.
"""

from __future__ import annotations

from typing import Any

from privlab import _validate as v
from privlab.mechanisms.noise._base import OBJECTIVES
from privlab.mechanisms.noise.laplace import Laplace
from privlab.mechanisms.noise.staircase import Staircase
from privlab.types import Certificate, PureDP
from privlab.verify.noise.density import check_normalisation, check_symmetry
from privlab.verify.noise.dp import check_pure_dp

NOISES = ("staircase", "laplace")


def accuracy(mech: Any) -> dict[str, float]:
    """Closed-form variance, E|Y| and the 95 % symmetric CI half-width of a noise law."""
    return {"variance": float(mech.variance()), "mean_abs": float(mech.mean_abs()),
            "ci95_halfwidth": float(mech.ci_halfwidth(0.95))}


def make_noise(name: str, *, epsilon: float, sensitivity: float = 1.0, d: float | None = None,
               objective: str = "variance", neighbour: Any = "substitute") -> Any:
    """The noise a user asks for: ``laplace``, or ``staircase`` with ``d`` given or chosen
    optimal for ``objective`` (thesis §4.4)."""
    v.one_of("mechanism", name, NOISES)
    if name == "laplace":
        if d is not None:
            raise v.InvalidParameter(f"d={d!r} applies to the staircase only")
        return Laplace(epsilon=epsilon, sensitivity=sensitivity, neighbour=neighbour)
    if d is None:
        v.one_of("objective", objective, OBJECTIVES)
        return Staircase.optimal(epsilon, sensitivity, objective, neighbour=neighbour)
    return Staircase(epsilon=epsilon, sensitivity=sensitivity, d=d, neighbour=neighbour)


def certify_noise(mech: Any, *, safe: bool = True, granularity: float | None = None,
                  dps: int = 50) -> Certificate:
    """Certificate for ``mech`` (Laplace, Staircase or any law exposing ``log_pieces``/``tail``)
    claiming pure ε-DP for its sensitivity under its neighbour relation."""
    checks = [check_pure_dp(mech, dps=dps), check_normalisation(mech, dps=dps),
              check_symmetry(mech, dps=dps)]
    props: dict[str, Any] = accuracy(mech)
    if safe:
        from privlab.mechanisms.noise.safe import check_safe_dp, safe_parameters

        checks.append(check_safe_dp(mech, granularity))
        props["safe_mode"] = safe_parameters(mech, granularity)
    base = Laplace(epsilon=mech.epsilon, sensitivity=mech.sensitivity)
    lap = accuracy(base)
    props["laplace_baseline"] = lap
    props["ratio_to_laplace"] = {k: props[k] / lap[k] for k in lap}
    params = {"epsilon": mech.epsilon, "sensitivity": mech.sensitivity}
    if hasattr(mech, "d"):
        params["d"] = mech.d
    notes = ("neighbour relation: additive noise on a query of sensitivity Δ — the guarantee "
             "holds for whichever relation Δ was computed under",)
    return Certificate(mechanism=str(getattr(mech, "name", type(mech).__name__)),
                       parameters=params,
                       guarantee=PureDP(epsilon=mech.epsilon, neighbour=mech.neighbour),
                       checks=tuple(checks), properties=props, notes=notes)
