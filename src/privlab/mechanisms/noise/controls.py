"""Deliberately broken controls.

Each claims the guarantee of the mechanism it imitates (same ``epsilon`` and ``sensitivity``
fields) but samples from a density that violates it.  The exact checker
(:func:`privlab.verify.check_pure_dp`) and the auditor must flag every one of them; they exist
only so that the lab can show it catches known-bad mechanisms (as DP-Auditorium keeps
known-bad mechanisms).  Never use them to release data.

* :class:`HalfScaleLaplace` — Laplace with scale Δ/(2ε): true privacy loss 2ε.
* :class:`WrongRatioStaircase` — staircase whose steps decay by e^{−1.5ε}: loss 1.5ε.
* :class:`HalfWidthStaircase` — staircase with steps of width Δ/2: a shift by Δ crosses two
  steps, loss 2ε (for d ≤ Δ/2; the core is re-validated against the narrower width).
"""

from __future__ import annotations

import attrs

from privlab.mechanisms.noise.laplace import Laplace
from privlab.mechanisms.noise.staircase import Staircase


@attrs.frozen(kw_only=True)
class HalfScaleLaplace(Laplace):
    name = "broken-laplace-half-scale"
    scale_factor = 0.5


@attrs.frozen(kw_only=True)
class WrongRatioStaircase(Staircase):
    name = "broken-staircase-ratio"
    rate_factor = 1.5


@attrs.frozen(kw_only=True)
class HalfWidthStaircase(Staircase):
    name = "broken-staircase-width"
    width_factor = 0.5


CONTROLS = (HalfScaleLaplace, WrongRatioStaircase, HalfWidthStaircase)
"""Broken controls; each has the constructor signature of its parent."""


def make_control(cls: type[Laplace] | type[Staircase], epsilon: float, *,
                 d: float = 0.3) -> Laplace | Staircase:
    """Instantiate a broken control claiming ``epsilon`` (staircase controls with core ``d``)."""
    if issubclass(cls, Staircase):
        return cls(epsilon=epsilon, d=d)
    return cls(epsilon=epsilon)
