"""Certificates and audit-ready cases for multivariate shell noise (thesis §4.5).

* :func:`certify_box_staircase` — a parameter choice with exact DP evidence, Theorem 3's
  conditions, the marginal variances checked by quadrature, and the comparison with the Laplace
  baseline (variances, 95 % minimal-region volume).
* :func:`audit_cases` — 2-D neighbouring sampler pairs (the real mechanism, broken controls and
  baselines), each with the exact privacy loss, the expected verdict and events suited to 2-D
  outputs (boxes, half-planes, likelihood-ratio level sets), with exact event probabilities
  where they exist.  The auditor (privlab.audit) consumes them; nothing here estimates ε.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import attrs
import numpy as np

from privlab._rng import RngLike, as_generator
from privlab.mechanisms.noise.box_objectives import parse_objective
from privlab.mechanisms.noise.box_staircase import (
    BoxStaircase,
    HalfStepBoxStaircase,
    OversizedCoreBoxStaircase,
    WrongRatioBoxStaircase,
    as_widths,
)
from privlab.mechanisms.noise.l1_staircase import HalfStepL1Staircase, L1BallStaircase
from privlab.mechanisms.noise.multi_laplace import IndependentLaplace
from privlab.types import Certificate
from privlab.verify.noise.multivariate import (
    check_marginal_variances,
    check_shell_dp,
    check_theorem3_conditions,
)


def certify_box_staircase(epsilon: float, sensitivity: Sequence[float],
                          core: Sequence[float] | None = None,
                          objective: str = "variance", *, level: float = 0.95) -> Certificate:
    """Certificate for box-staircase noise; ``core=None`` picks the core minimising
    ``objective`` (variance | volume95 | volume99 | volume90 | volume with ``level``)."""
    s = as_widths("sensitivity", sensitivity)
    kind, lv = parse_objective(objective, level)
    if core is None:
        mech = BoxStaircase.optimal(epsilon, s, objective, level=level)
        how = f"core chosen to minimise {objective}"
    else:
        mech = BoxStaircase(epsilon=epsilon, sensitivity=s, core=core)
        how = "core given by the user"
    lap = IndependentLaplace.for_box(epsilon, s)
    checks = (check_shell_dp(mech), check_theorem3_conditions(mech),
              check_marginal_variances(mech, dps=20))
    reg, lreg = mech.confidence_region(lv), lap.confidence_region(lv)
    props = {
        "normaliser": mech.normaliser, "variances": list(mech.variances()),
        "laplace_scale": lap.scale, "laplace_variances": list(lap.variances()),
        "confidence_level": lv, "region_volume": reg.volume, "region_beta": reg.beta,
        "region_half_widths": list(reg.half_widths or ()),
        "laplace_region_alpha": lreg.radius, "laplace_region_volume": lreg.volume,
        "volume_ratio_laplace_over_staircase": lreg.volume / reg.volume,
        "objective": objective, "objective_kind": kind,
    }
    notes = (
        f"{how}; S_f = Π[−s_j, s_j]: every neighbouring pair must change the query by a vector "
        "in this box (Definition 9), otherwise the guarantee does not apply.",
        "Density M·e^{−iε} on shell i = max(0, ⌈max_j (|x_j| − z_j)/s_j⌉) (thesis §4.5, "
        "Theorem 3); Laplace baseline: d independent Laplace(Σ s_j/ε).",
        "Sampling uses floats (fast mode): the float threat model of the univariate "
        "mechanisms applies.",
    )
    return Certificate(mechanism=mech.name, parameters=mech.parameters,
                       guarantee=mech.guarantee, checks=checks, properties=props, notes=notes)


@attrs.frozen(kw_only=True)
class Event:
    """A measurable set of outputs: ``contains(points[n, d]) -> bool[n]``; ``p0``/``p1`` are its
    exact probabilities under the two hypotheses when known."""

    name: str
    kind: str  # "box" | "half-plane" | "lr-level"
    contains: Callable[[np.ndarray], np.ndarray] = attrs.field(repr=False)
    p0: float | None = None
    p1: float | None = None


@attrs.frozen(kw_only=True)
class AuditCase:
    """Outputs of one mechanism on two neighbouring query answers x0, x1 (x1 − x0 ∈ S_f)."""

    name: str
    mechanism: Any
    epsilon_claimed: float
    true_epsilon: float  # exact worst log-ratio (check_shell_dp / Laplace calibration)
    expected: str  # "consistent" | "violation"
    x0: tuple[float, ...]
    x1: tuple[float, ...]
    events: tuple[Event, ...] = ()

    def sample0(self, n: int, *, rng: RngLike = None) -> np.ndarray:
        return np.asarray(self.x0) + self.mechanism.sample(n, rng=as_generator(rng))

    def sample1(self, n: int, *, rng: RngLike = None) -> np.ndarray:
        return np.asarray(self.x1) + self.mechanism.sample(n, rng=as_generator(rng))


def _events(mech: Any, x0: np.ndarray, x1: np.ndarray, loss: float) -> tuple[Event, ...]:
    out: list[Event] = []
    exact_box = hasattr(mech, "prob_box")
    s = np.asarray(mech.sensitivity) if hasattr(mech, "sensitivity") else np.ones(len(x0))

    def box(lo: np.ndarray, hi: np.ndarray, name: str) -> Event:
        p0 = p1 = None
        if exact_box:
            p0 = float(mech.prob_box(list(lo - x0), list(hi - x0)))
            p1 = float(mech.prob_box(list(lo - x1), list(hi - x1)))
        def inside(y: np.ndarray) -> np.ndarray:
            return np.all((y >= lo) & (y <= hi), axis=-1)

        return Event(name=name, kind="box", p0=p0, p1=p1, contains=inside)

    for k in (0.5, 1.0, 2.0, 3.0):
        out.append(box(x0 - k * s, x0 + k * s, f"centred box ±{k}·s at x0"))
    out.append(box(x0, x0 + s, "box between x0 and x0 + s"))
    inf = np.full(len(x0), np.inf)
    for j in range(len(x0)):
        for c in (-1.0, 0.0, 1.0):
            lo = -inf.copy()
            hi = inf.copy()
            hi[j] = x0[j] + c * s[j]
            out.append(box(lo, hi, f"half-plane y_{j} ≤ x0_{j} + {c}·s_{j}"))
    direction = (x1 - x0) / np.linalg.norm(x1 - x0)
    for c in (-1.0, 0.0, 1.0, 2.0):
        thr = float(direction @ x0 + c * np.linalg.norm(x1 - x0))

        def below(y: np.ndarray, thr: float = thr) -> np.ndarray:
            return np.asarray(y @ direction <= thr)

        out.append(Event(name=f"half-plane along x1 − x0, offset {c}", kind="half-plane",
                         contains=below))
    for frac in (0.5, 1.0 - 1e-9):
        t = frac * loss

        def lr(y: np.ndarray, t: float = t) -> np.ndarray:
            with np.errstate(invalid="ignore"):
                return (mech.logpdf(y - x0) - mech.logpdf(y - x1)) >= t

        out.append(Event(name=f"likelihood-ratio level set log f0/f1 ≥ {t:.6g}",
                         kind="lr-level", contains=lr))
    return tuple(out)


def audit_cases(epsilon: float = 1.0) -> list[AuditCase]:
    """2-D cases: Example 5's box staircase and its broken controls, the Laplace baseline, and
    L1-ball shells; x0 = 0, x1 = a vertex of S_f (the worst shift for every case here)."""
    s, z = (1.0, 10.0), (0.1, 1.0)
    mechs: list[Any] = [
        BoxStaircase(epsilon=epsilon, sensitivity=s, core=z),
        WrongRatioBoxStaircase(epsilon=epsilon, sensitivity=s, core=z),
        HalfStepBoxStaircase(epsilon=epsilon, sensitivity=s, core=z),
        OversizedCoreBoxStaircase(epsilon=epsilon, sensitivity=s, core=(2.0, 20.0)),
        L1BallStaircase(epsilon=epsilon, sensitivity=(1.0, 1.0), core=0.5),
        HalfStepL1Staircase(epsilon=epsilon, sensitivity=(1.0, 1.0), core=0.5),
    ]
    cases = []
    for m in mechs:
        res = check_shell_dp(m, samples=0)
        loss = float(res.value)
        if isinstance(m, L1BallStaircase):
            x1 = np.array([m.sensitivity[0], 0.0])
        else:
            x1 = np.asarray(m.sensitivity, dtype=float)
        x0 = np.zeros(2)
        cases.append(AuditCase(name=m.name, mechanism=m, epsilon_claimed=epsilon,
                               true_epsilon=loss,
                               expected="consistent" if res.holds else "violation",
                               x0=tuple(x0), x1=tuple(x1), events=_events(m, x0, x1, loss)))
    lap = IndependentLaplace.for_box(epsilon, s)
    x0, x1 = np.zeros(2), np.asarray(s)
    cases.append(AuditCase(name="independent-laplace (box calibration)", mechanism=lap,
                           epsilon_claimed=epsilon, true_epsilon=epsilon, expected="consistent",
                           x0=tuple(x0), x1=tuple(x1), events=_events(lap, x0, x1, epsilon)))
    return cases
