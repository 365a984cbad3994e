"""Prior knowledge P_f of the database user (thesis ch.5 §5.1, Definition 10).

Three kinds, all frozen attrs values:

* :class:`DiscretePrior` — a pmf over finitely many answers (categories, ordered values or
  tuples).  Masses are kept in the caller's number type: ``fractions.Fraction`` (or ints) give
  *exact* refinement, floats give float refinement.  The masses must be ≥ 0 and sum to 1
  (exactly for Fractions, within 1e-9 for floats).
* :class:`ContinuousPrior` — an absolutely continuous law on ℝ given by any frozen
  ``scipy.stats`` distribution, or :class:`PiecewisePrior`, a piecewise-constant density on an
  interval with closed-form ``cdf``/``ppf`` (the uniform prior of §5.5.2 is one piece); with
  int/``Fraction`` parameters it stays exact (:mod:`privlab.verify.refinement.exact`).
* :func:`product_prior` — independent discrete components (a multi-component query whose user
  knows nothing about the dependence, §5.1): the joint pmf over tuples.  Products of
  continuous components: :class:`~privlab.mechanisms.refinement.product.ProductPrior`.

:func:`~privlab.mechanisms.refinement.spec.parse_prior` reads the CLI syntax ``uniform:0,1`` (exact
when LO, HI are decimals or
fractions), ``beta:2,5``, ``pmf:0=0.99,1=0.01`` (values are parsed as numbers when possible,
masses as exact fractions) and ``product(SPEC;SPEC;…)``.
"""

from __future__ import annotations

import functools
import itertools
import weakref
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

import attrs
import numpy as np

from privlab import _validate as v
from privlab.errors import InvalidParameter

FLOAT_TOL = 1e-9


def _is_exact(x: Any) -> bool:
    return isinstance(x, Fraction | int) and not isinstance(x, bool)


def _check_values(_i: Any, _a: Any, values: tuple[Any, ...]) -> None:
    if len(values) == 0:
        raise InvalidParameter("values=() must hold at least one answer")
    try:
        distinct = len(set(values)) == len(values)
    except TypeError:
        raise InvalidParameter(f"values={values!r} must be hashable") from None
    if not distinct:
        raise InvalidParameter(f"values={values!r} must be distinct")


def _check_probs(inst: Any, _a: Any, probs: tuple[Any, ...]) -> None:
    if len(probs) != len(inst.values):
        raise InvalidParameter(f"probs has {len(probs)} entries but values has "
                               f"{len(inst.values)}")
    for k, p in enumerate(probs):
        if isinstance(p, bool) or not isinstance(p, int | float | Fraction):
            raise InvalidParameter(f"probs[{k}]={p!r} must be a real number")
        if not p >= 0 or (isinstance(p, float) and not np.isfinite(p)):
            raise InvalidParameter(f"probs[{k}]={p!r} (mass of {inst.values[k]!r}) must be >= 0")
    total = sum(probs)
    exact = all(_is_exact(p) for p in probs)
    if (exact and total != 1) or (not exact and abs(float(total) - 1.0) > FLOAT_TOL):
        raise InvalidParameter(f"probs sum to {total} (prior of {len(probs)} values); a prior "
                               f"must sum to 1")


@attrs.frozen(kw_only=True)
class DiscretePrior:
    """pmf ``probs[i] = P_f(values[i])`` over a finite Range(f)."""

    values: tuple[Any, ...] = attrs.field(converter=tuple, validator=_check_values)
    probs: tuple[Any, ...] = attrs.field(converter=tuple, validator=_check_probs)
    kind = "discrete"

    @classmethod
    def from_mapping(cls, pmf: Mapping[Any, Any]) -> DiscretePrior:
        return cls(values=tuple(pmf), probs=tuple(pmf.values()))

    @classmethod
    def uniform(cls, values: Sequence[Any]) -> DiscretePrior:
        n = len(values)
        return cls(values=tuple(values), probs=(Fraction(1, n),) * n if n else ())

    @property
    def exact(self) -> bool:
        return all(_is_exact(p) for p in self.probs)

    def mass(self, value: Any) -> Any:
        try:
            return self.probs[self.values.index(value)]
        except ValueError:
            return 0

    def as_dict(self) -> dict[Any, Any]:
        return dict(zip(self.values, self.probs, strict=True))

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "pmf": [[x, str(p) if isinstance(p, Fraction) else p]
                                           for x, p in zip(self.values, self.probs,
                                                           strict=True)]}


def _check_dist(_i: Any, _a: Any, dist: Any) -> None:
    for m in ("cdf", "ppf", "pdf"):
        if not callable(getattr(dist, m, None)):
            raise InvalidParameter(f"dist={dist!r} must be a frozen scipy.stats distribution "
                                   f"(no {m}())")
    if hasattr(dist, "dist") and not hasattr(dist.dist, "_pdf"):
        raise InvalidParameter(f"dist={dist!r} must be absolutely continuous (has no pdf)")


@attrs.frozen(kw_only=True)
class ContinuousPrior:
    """An absolutely continuous prior given by a frozen scipy.stats distribution."""

    dist: Any = attrs.field(validator=_check_dist, eq=False)
    label: str = ""
    kind = "continuous"

    def cdf(self, x: Any) -> Any:
        return self.dist.cdf(x)

    def ppf(self, u: Any) -> Any:
        return self.dist.ppf(u)

    def pdf(self, x: Any) -> Any:
        return self.dist.pdf(x)

    def support(self) -> tuple[float, float]:
        lo, hi = self.dist.support()
        return float(lo), float(hi)

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "dist": self.label or repr(self.dist)}


def _check_edges(_i: Any, _a: Any, edges: tuple[Any, ...]) -> None:
    if len(edges) < 2:
        raise InvalidParameter(f"edges={edges!r} must hold at least two points")
    e = np.asarray([float(x) for x in edges])
    if not np.all(np.isfinite(e)) or not all(a < b for a, b in itertools.pairwise(edges)):
        raise InvalidParameter(f"edges={edges!r} must be finite and strictly increasing")


def _check_densities(inst: Any, _a: Any, dens: tuple[Any, ...]) -> None:
    if len(dens) != len(inst.edges) - 1:
        raise InvalidParameter(f"densities has {len(dens)} entries; edges define "
                               f"{len(inst.edges) - 1} pieces")
    d = np.asarray([float(x) for x in dens])
    if not np.all(np.isfinite(d)) or any(x < 0 for x in dens):
        raise InvalidParameter(f"densities={dens!r} must be finite and >= 0")
    if inst.exact:
        total: Any = sum(x * (b - a) for x, a, b in zip(dens, inst.edges, inst.edges[1:],
                                                        strict=False))
        if total != 1:
            raise InvalidParameter(f"densities integrate to {total} (exactly); a prior must "
                                   f"integrate to 1")
        return
    total = float(np.sum(d * np.diff(np.asarray([float(x) for x in inst.edges]))))
    if abs(total - 1.0) > FLOAT_TOL:
        raise InvalidParameter(f"densities integrate to {total:.12g}; a prior must integrate "
                               f"to 1")


def _numbers(x: Any) -> tuple[Any, ...]:
    """Exact ``Fraction``s when every entry is an int or Fraction, else finite floats."""
    vals = tuple(x)
    if vals and all(_is_exact(e) for e in vals):
        return tuple(Fraction(e) for e in vals)
    return tuple(v.finite("value", e) for e in vals)


_BY_INSTANCE: dict[int, tuple[Any, tuple[np.ndarray, np.ndarray, np.ndarray]]] = {}
_CUM_BY_INSTANCE: dict[int, tuple[Any, tuple[Fraction, ...]]] = {}


@functools.lru_cache(maxsize=256)
def _piecewise_arrays(edges: tuple[tuple[type, Any], ...], dens: tuple[tuple[type, Any], ...]
                      ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(edges, densities, cdf at the edges) as float arrays; keys carry the types, so exact
    and float parameters of equal value are kept apart."""
    ev, dv = [x for _, x in edges], [x for _, x in dens]
    e = np.asarray([float(x) for x in ev])
    d = np.asarray([float(x) for x in dv])
    if all(isinstance(x, Fraction) for x in (*ev, *dv)):
        c = np.asarray([float(x) for x in _cum_exact(edges, dens)])
    else:
        c = np.concatenate([[0.0], np.cumsum(d * np.diff(e))])
    for arr in (e, d, c):
        arr.flags.writeable = False
    return e, d, c


@functools.lru_cache(maxsize=256)
def _cum_exact(edges: tuple[tuple[type, Any], ...], dens: tuple[tuple[type, Any], ...]
               ) -> tuple[Fraction, ...]:
    ev, dv = [x for _, x in edges], [x for _, x in dens]
    out = [Fraction(0)]
    for d, a, b in zip(dv, ev, ev[1:], strict=False):
        out.append(out[-1] + Fraction(d) * (Fraction(b) - Fraction(a)))
    return tuple(out)


@attrs.frozen(kw_only=True)
class PiecewisePrior:
    """Density ``densities[i]`` on (edges[i], edges[i+1]); zero outside [edges[0], edges[-1]].

    Given as ints/``Fraction``s (both fields) the parameters stay exact — the density must then
    integrate to exactly 1 and :mod:`privlab.verify.refinement.exact` computes ball masses and
    the radius of U_u exactly; ``pdf``/``cdf``/``ppf`` always compute in floats."""

    edges: tuple[Any, ...] = attrs.field(converter=_numbers, validator=_check_edges)
    densities: tuple[Any, ...] = attrs.field(converter=_numbers, validator=_check_densities)
    kind = "continuous"

    @classmethod
    def uniform(cls, lo: Any = 0.0, hi: Any = 1.0) -> PiecewisePrior:
        """Uniform on [lo, hi]; exact when ``lo`` and ``hi`` are ints or Fractions."""
        if not hi > lo:
            raise InvalidParameter(f"uniform prior needs lo < hi, got lo={lo!r}, hi={hi!r}")
        if _is_exact(lo) and _is_exact(hi):
            return cls(edges=(lo, hi), densities=(1 / Fraction(hi - lo),))
        return cls(edges=(lo, hi), densities=(1.0 / (hi - lo),))

    @property
    def exact(self) -> bool:
        """True when edges and densities are exact rationals."""
        return all(isinstance(x, Fraction) for x in (*self.edges, *self.densities))

    @property
    def _e(self) -> np.ndarray:
        return self._arrays()[0]

    @property
    def _d(self) -> np.ndarray:
        return self._arrays()[1]

    @property
    def _cum(self) -> np.ndarray:
        return self._arrays()[2]

    def _arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Float edges, densities and cdf at the edges (memoised per parameters and per
        instance, read-only)."""
        hit = _BY_INSTANCE.get(id(self))
        if hit is not None and hit[0]() is self:
            return hit[1]
        arrs = _piecewise_arrays(tuple((type(x), x) for x in self.edges),
                                 tuple((type(x), x) for x in self.densities))
        key = id(self)
        _BY_INSTANCE[key] = (weakref.ref(self, lambda _r, memo=_BY_INSTANCE: memo.pop(key, None)),
                             arrs)  # (memo bound now: module globals are gone at exit)
        return arrs

    def cum_exact(self) -> list[Fraction]:
        """F(edges[k]) as exact Fractions (exact priors only)."""
        return list(self.cum_exact_tuple())

    def cum_exact_tuple(self) -> tuple[Fraction, ...]:
        """:meth:`cum_exact` as a tuple, memoised per instance (a weak reference checks that
        the id still names this object; the entry goes with it): the exact cdf is read at
        every cell of every pair, and building the typed key costs more than the lookup."""
        hit = _CUM_BY_INSTANCE.get(id(self))
        if hit is not None and hit[0]() is self:
            return hit[1]
        cum = _cum_exact(tuple((type(x), x) for x in self.edges),
                         tuple((type(x), x) for x in self.densities))
        key = id(self)
        _CUM_BY_INSTANCE[key] = (
            weakref.ref(self, lambda _r, memo=_CUM_BY_INSTANCE: memo.pop(key, None)), cum)
        return cum

    def pdf(self, x: Any) -> Any:
        x = np.asarray(x, dtype=float)
        e = self._e
        k = np.clip(np.searchsorted(e, x, side="right") - 1, 0, len(self.densities) - 1)
        inside = (x >= e[0]) & (x <= e[-1])
        return np.where(inside, self._d[k], 0.0)

    def cdf(self, x: Any) -> Any:
        x = np.asarray(x, dtype=float)
        e, d, c = self._e, self._d, self._cum
        k = np.clip(np.searchsorted(e, x, side="right") - 1, 0, len(d) - 1)
        val = c[k] + d[k] * (np.clip(x, e[0], e[-1]) - e[k])
        return np.clip(np.where(x >= e[-1], 1.0, val), 0.0, 1.0)

    def ppf(self, u: Any) -> Any:
        u = np.asarray(u, dtype=float)
        e, d, c = self._e, self._d, self._cum
        k = np.clip(np.searchsorted(c, u, side="right") - 1, 0, len(d) - 1)
        safe = np.where(d[k] > 0, d[k], 1.0)
        return np.clip(e[k] + (u - c[k]) / safe, e[0], e[-1])

    def support(self) -> tuple[float, float]:
        return float(self.edges[0]), float(self.edges[-1])

    def to_dict(self) -> dict[str, Any]:
        return {"kind": "piecewise", "edges": [float(x) for x in self.edges],
                "densities": [float(x) for x in self.densities], "exact": self.exact}


Prior = DiscretePrior | ContinuousPrior | PiecewisePrior


def product_prior(*components: DiscretePrior) -> DiscretePrior:
    """Joint pmf of independent discrete components (values are tuples)."""
    if not components:
        raise InvalidParameter("product_prior needs at least one component")
    for k, c in enumerate(components):
        if not isinstance(c, DiscretePrior):
            raise InvalidParameter(f"components[{k}]={c!r} must be a DiscretePrior")
    values, probs = [], []
    for combo in itertools.product(*(zip(c.values, c.probs, strict=True) for c in components)):
        values.append(tuple(x for x, _ in combo))
        p: Any = 1
        for _, q in combo:
            p = p * q
        probs.append(p)
    return DiscretePrior(values=tuple(values), probs=tuple(probs))
