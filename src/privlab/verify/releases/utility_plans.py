"""The expected error of the three kinds of DP release the commands certify, with the search
for a configuration that meets a requested error (:mod:`~.utility`, :mod:`~.utility_target`):

* :func:`numerical_utility` — a :class:`~privlab.mechanisms.releases.numerical.DPRelease` on
  n records with declared bounds (``release insensitive-mdav-dp | ir-dp | laplace-dp``): the
  release's own noise law (the grid in safe mode), its certificate
  (:func:`~.certificate.certify_release`);
* :func:`law_utility` — a :class:`~privlab.mechanisms.releases.config.ReleaseConfig` alone
  (``certify dp-release``, which certifies the law and knows no bounds): the continuous law on
  attributes of unit range;
* :func:`mixed_utility` — a :class:`~privlab.mechanisms.releases.mixed.MixedDPRelease`
  (``--taxonomy``): its numerical attributes, its certificate (:func:`~.mixed.certify_mixed`);
  the scale rule is the command's (``scale(k, ε)``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

import attrs

from privlab.mechanisms.releases.config import NOISE_SCALES, ReleaseConfig
from privlab.verify.releases.utility import (
    NoiseLaw,
    ReleaseUtility,
    assess,
    continuous_laws,
    grid_laws,
    sum_of_squared_sizes,
)
from privlab.verify.releases.utility_target import (
    Planner,
    calibrated_scale,
    meet_target,
    quick_error,
    structural_leak,
)

__all__ = ["law_utility", "mixed_planner", "mixed_utility", "numerical_planner",
           "numerical_utility", "quick_certificate"]

LAW_SLACK = 2.0**-18
"""The written ε is ≥ (1 − 2^−20)·(the law's ε): the floor is the law's ε·(1 − 2^−18)."""


def _finish(laws: Sequence[NoiseLaw], n: int, k: int, per_record: bool, clamp: bool,
            names: Sequence[str] | None, planner: Planner,
            target: float | None) -> ReleaseUtility:
    u = assess(laws, n, k, per_record=per_record, clamp=clamp, names=names)
    cal = calibrated_scale(planner)
    return attrs.evolve(u, calibration=cal, target=None if target is None else
                        meet_target(planner, target, cal))


def quick_certificate(cfg: ReleaseConfig, grid: Any = None) -> tuple[bool, float | None]:
    """(holds, certified ε) exactly as :func:`~.certificate.certify_dp_release` (``grid``
    None: the law) and :func:`~.certificate.certify_release` (safe mode: the written ε on
    ``grid``) give them, without building :func:`~.certificate.leak_pair`'s neighbour pair
    (n rows: O(n·m) per call, 2 s at n = 10^6; the search calls it many times).  A shortcut
    kept identical to them by ``tests/verify/test_release_utility_target.py``."""
    from privlab.verify.releases.certificate import (
        _round_up,
        _sensitivity_bound,
        changed_coordinates,
    )

    if structural_leak(cfg):
        return False, None
    s_bound, _ = _sensitivity_bound(cfg)
    if grid is None:
        eps = s_bound / cfg.scale_per_unit
        return eps <= cfg.epsilon * (1 + 1e-12), eps
    w = grid.written_epsilon(s_bound, changed_coordinates(cfg))
    return w <= Fraction(cfg.epsilon), _round_up(w)


def _law_floor(cfg: ReleaseConfig) -> float | None:
    """The law's ε·(1 − 2^−18) (None: a structural leak)."""
    from privlab.verify.releases.certificate import _sensitivity_bound

    if structural_leak(cfg):
        return None
    s_bound, _ = _sensitivity_bound(cfg)
    return s_bound / cfg.scale_per_unit * (1 - LAW_SLACK)


def numerical_planner(rel: Any, n: int, bounds: Any) -> tuple[Planner, tuple[NoiseLaw, ...]]:
    """The planner of a :class:`DPRelease` on n records within ``bounds`` ((m, 2)) and the
    noise laws of the requested configuration."""
    b = [tuple(map(float, t)) for t in bounds]
    m = len(b)
    none = rel.microaggregation == "none"
    per_record = rel.noise == "per-record" or none
    k0 = 1 if none else rel.k

    def at(k: int, e: float) -> Any:
        return attrs.evolve(rel, k=k, epsilon=e)

    def laws(r: Any) -> tuple[NoiseLaw, ...]:
        if r.noise_mode == "safe":
            return grid_laws(r.grid(b, n))
        return continuous_laws(b, r.config(n, m).scale_per_unit)

    def err(r: Any, k: int) -> float:
        return assess(laws(r), n, k, per_record=per_record, clamp=rel.clamp).mean_relative_error

    def quick(k: int, e: float) -> float:
        ss = n if per_record else sum_of_squared_sizes(n, k)
        return quick_error([1.0] * m, at(k, e).config(n, m).scale_per_unit, n, ss, rel.clamp)

    def cert(r: Any) -> tuple[bool, float | None]:
        return quick_certificate(r.config(n, m),
                                 r.grid(b, n) if r.noise_mode == "safe" else None)

    def certify(k: int, e: float) -> tuple[bool, float | None]:
        return cert(at(k, e))

    def at_scale(s: float) -> tuple[float, bool, float | None]:
        r = attrs.evolve(rel, noise_scale=s)
        return (err(r, k0), *cert(r))

    p = Planner(k=k0, epsilon=rel.epsilon, ks=(1,) if none else range(1, n + 1),
                scale_depends_on_epsilon=rel.noise_scale in NOISE_SCALES,
                floor=lambda k, e: _law_floor(at(k, e).config(n, m)), quick=quick,
                error=lambda k, e: err(at(k, e), k), certify=certify,
                scale=rel.config(n, m).scale_per_unit, at_scale=at_scale)
    return p, laws(rel)


def numerical_utility(rel: Any, n: int, bounds: Any, names: Sequence[str] | None = None,
                      target: float | None = None) -> ReleaseUtility:
    """The utility of a :class:`DPRelease` on n records within ``bounds`` ((m, 2))."""
    p, laws = numerical_planner(rel, n, bounds)
    per_record = rel.noise == "per-record" or rel.microaggregation == "none"
    return _finish(laws, n, p.k, per_record, rel.clamp, names, p, target)


def law_utility(cfg: ReleaseConfig, clamp: bool = True,
                target: float | None = None) -> ReleaseUtility:
    """The utility of the continuous law of ``cfg`` on attributes of range [0, 1]
    (``certify dp-release``: no bounds, the law is what is certified)."""
    n, m = cfg.n, cfg.attributes
    per_record = cfg.noise == "per-record" or cfg.microaggregation == "none"
    unit = [(0.0, 1.0)] * m

    def at(k: int, e: float) -> ReleaseConfig:
        return attrs.evolve(cfg, k=k, epsilon=e)

    def err(s: float, k: int) -> float:
        return assess(continuous_laws(unit, s), n, k, per_record=per_record,
                      clamp=clamp).mean_relative_error

    def quick(k: int, e: float) -> float:
        ss = n if per_record else sum_of_squared_sizes(n, k)
        return quick_error(unit, at(k, e).scale_per_unit, n, ss, clamp)

    def certify(k: int, e: float) -> tuple[bool, float | None]:
        return quick_certificate(at(k, e))

    def at_scale(s: float) -> tuple[float, bool, float | None]:
        return (err(s, cfg.k), *quick_certificate(attrs.evolve(cfg, noise_scale=s)))

    none = cfg.microaggregation == "none"
    p = Planner(k=cfg.k, epsilon=cfg.epsilon, ks=(1,) if none else range(1, n + 1),
                scale_depends_on_epsilon=cfg.noise_scale in NOISE_SCALES,
                floor=lambda k, e: _law_floor(at(k, e)), quick=quick,
                error=lambda k, e: err(at(k, e).scale_per_unit, k), certify=certify,
                scale=cfg.scale_per_unit, at_scale=at_scale)
    names = [f"attribute {j} (range [0, 1])" for j in range(m)]
    return _finish(continuous_laws(unit, cfg.scale_per_unit), n, cfg.k, per_record, clamp,
                   names, p, target)


def mixed_planner(rel: Any, n: int, scale: Callable[[int, float], float],
                  scale_depends_on_epsilon: bool, neighbour: str = "substitute"
                  ) -> tuple[Planner, tuple[NoiseLaw, ...]] | None:
    """The planner of a :class:`MixedDPRelease` on n records (None without numerical
    attributes) and the laws of its numerical attributes; ``scale(k, ε)`` the scale rule."""
    from privlab.mechanisms.microaggregation.semantic import NumericDomain
    from privlab.mechanisms.microaggregation.taxonomy import Taxonomy
    from privlab.types import Neighbour
    from privlab.verify.releases.mixed import certify_mixed, quality_sensitivity, structure

    add_remove = Neighbour.parse(neighbour) is Neighbour.ADD_REMOVE  # any spelling
    doms = [a for a in rel.attributes if isinstance(a, NumericDomain)]
    if not doms:
        return None
    none = rel.microaggregation == "none"
    # D/Δ(m) of each categorical attribute: its ε part is changed draws·ε_a·D/(f·Δ(m))
    ratios = [quality_sensitivity(a)["quality_sensitivity"]
              / rel.centroid_mechanism(a, n).delta_m
              for a in rel.attributes if isinstance(a, Taxonomy)]

    def at(k: int, e: float) -> Any:
        return attrs.evolve(rel, k=k, epsilon=e, scale_per_unit=scale(k, e))

    def laws(r: Any) -> tuple[NoiseLaw, ...]:
        if r.noise_mode == "safe":
            return grid_laws(r.grid(n))
        return continuous_laws([(d.lo, d.hi) for d in doms], r.scale(n))

    def err(r: Any) -> float:
        return assess(laws(r), n, r.k, per_record=False, clamp=rel.clamp).mean_relative_error

    def floor(k: int, e: float) -> float | None:
        if add_remove or (rel.rows == "aligned" and not none and k >= 2
                                         and n >= 2 * k):
            return None
        r = at(k, e)
        st = structure(r, n)
        cat = sum(st["changed_draws"] * r.em_epsilon() * d / r.factor(n) for d in ratios)
        return len(doms) * st["numeric_shift"] / r.scale(n) * (1 - LAW_SLACK) + cat

    def quick(k: int, e: float) -> float:
        return quick_error([1.0] * len(doms), scale(k, e), n, sum_of_squared_sizes(n, k),
                           rel.clamp)

    def certify(k: int, e: float) -> tuple[bool, float | None]:
        c = certify_mixed(at(k, e), n, neighbour)
        return bool(c["holds"]), c["certified_epsilon"]

    r0 = at(rel.k, rel.epsilon)

    def at_scale(s: float) -> tuple[float, bool, float | None]:
        r = attrs.evolve(r0, scale_per_unit=s)
        c = certify_mixed(r, n, neighbour)
        return err(r), bool(c["holds"]), c["certified_epsilon"]

    p = Planner(k=rel.k, epsilon=rel.epsilon, ks=(1,) if none else range(1, n + 1),
                scale_depends_on_epsilon=scale_depends_on_epsilon, floor=floor, quick=quick,
                error=lambda k, e: err(at(k, e)), certify=certify, scale=r0.scale(n),
                at_scale=at_scale)
    return p, laws(r0)


def mixed_utility(rel: Any, n: int, scale: Callable[[int, float], float],
                  scale_depends_on_epsilon: bool, names: Sequence[str] | None = None,
                  neighbour: str = "substitute",
                  target: float | None = None) -> ReleaseUtility | None:
    """The utility of the numerical attributes of a :class:`MixedDPRelease` on n records
    (None without numerical attributes); ``scale(k, ε)`` the scale rule per unit of range."""
    planned = mixed_planner(rel, n, scale, scale_depends_on_epsilon, neighbour)
    if planned is None:
        return None
    p, laws = planned
    return _finish(laws, n, rel.k, False, rel.clamp, names, p, target)
