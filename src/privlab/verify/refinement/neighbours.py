"""Exact DP analysis of knowledge refinement over every neighbour of a small data set.

For a data set D, a query f and a relation (add/remove one record, or substitute one value
within a finite domain) the checker computes the exact output law of the mechanism at D and at
every neighbour D′ and, in both directions,

* the worst pointwise ratio max_x P_D(x)/P_D′(x) and where it occurs (pure ε-DP holds iff it is
  ≤ e^ε, since for a discrete or piecewise law the worst event is a union of points/cells);
* δ(ε) = max Σ_x (P_D(x) − e^ε P_D′(x))₊, the smallest δ making the pair (ε, δ)-DP;
* mass conservation (every law sums to 1 — exactly, for Fraction priors and factors).

Product priors (multi-component queries) likewise: the ratio is constant on the four cells cut
by the two balls (:func:`compare_product`).  Continuous priors are analysed *exactly
piecewise*: both laws are prior-quantile laws
(:class:`~privlab.mechanisms.refinement.laws.ContinuousLaw`) whose density ratio is constant on
the cells of the merged knots, so the supremum over events is a finite maximum over cells and
atoms.  Arithmetic: exact when the prior and factors are Fractions (the bound e^ε is then the
rational α_u/α_d or max(α_u, 1/α_d)); otherwise float with relative tolerance 1e-12.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from privlab.mechanisms.refinement.algorithm import ABSENT, Refinement
from privlab.mechanisms.refinement.laws import ContinuousLaw, DiscreteLaw
from privlab.mechanisms.refinement.product import ProductLaw
from privlab.mechanisms.refinement.queries import Dataset
from privlab.types import CheckResult, Method, Neighbour

TOL = 1e-12
INF = math.inf


def exp_epsilon(mech: Refinement, epsilon: float | None = None) -> Any:
    """e^ε: exact rational when the factors are exact and ε is the one they define."""
    f = mech.factors
    eps = f.epsilon if epsilon is None else float(epsilon)
    if f.exact:
        r = f.alpha_u / f.alpha_d if f.query == "statistical" else max(f.alpha_u, 1 / f.alpha_d)
        if math.isclose(math.log(float(r)), eps, rel_tol=1e-15, abs_tol=1e-15):
            return r
    return math.exp(eps)


def _le(a: Any, b: Any) -> bool:
    if a == INF:
        return b == INF
    if isinstance(a, float) or isinstance(b, float):
        return float(a) <= float(b) * (1 + TOL) + TOL
    return bool(a <= b)


def compare_discrete(p: DiscreteLaw, q: DiscreteLaw, e_eps: Any) -> dict[str, Any]:
    """Worst ratio P/Q (and where), and δ(ε) = Σ (P − e^ε Q)₊ for two laws on the same values."""
    worst: Any = 0
    where = None
    need: Any = 0
    qd = q.as_dict()
    for x, px in zip(p.values, p.probs, strict=True):
        qx = qd.get(x, 0)
        if px > 0:
            r = INF if qx == 0 else px / qx
            if worst != INF and (r == INF or r > worst):
                worst, where = r, x
        gap = px - e_eps * qx
        if gap > 0:
            need = need + gap
    return {"ratio": worst, "at": where, "delta_needed": need}


def compare_continuous(p: ContinuousLaw, q: ContinuousLaw, e_eps: float, *,
                       locate: bool = True) -> dict[str, Any]:
    """The same for two quantile laws over one prior: ratios of slopes on merged cells + atoms.
    ``locate=False`` leaves out the worst cell's x-range (two prior quantiles) unless the atom
    is the worst: ``at`` is then None."""
    return _compare_cells(p, q, e_eps, *_merged_cells(p, q), locate=locate)


def _merged_cells(p: ContinuousLaw, q: ContinuousLaw
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The merged knots in [0, 1], the cells' widths and each law's slope on every cell."""
    kn = np.unique(np.concatenate([p.knots, q.knots]))
    kn = kn[(kn >= 0) & (kn <= 1)]
    mids = (kn[:-1] + kn[1:]) / 2
    width = np.diff(kn)

    def slopes(law: ContinuousLaw) -> np.ndarray:
        k = np.clip(np.searchsorted(law.knots, mids, side="right") - 1, 0, len(law.slopes) - 1)
        return np.asarray(law.slopes)[k]

    return kn, width, slopes(p), slopes(q)


def _compare_cells(p: ContinuousLaw, q: ContinuousLaw, e_eps: float, kn: np.ndarray,
                   width: np.ndarray, sp: np.ndarray, sq: np.ndarray, *,
                   locate: bool) -> dict[str, Any]:
    """The body of :func:`compare_continuous` on the cells of :func:`_merged_cells`."""
    live = (width > 0) & (sp > 0)
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.where(live, np.where(sq > 0, sp / np.where(sq > 0, sq, 1.0), INF), 0.0)
    need = float(np.sum(np.clip(sp - e_eps * sq, 0, None) * width))
    j = int(np.argmax(ratio)) if len(ratio) else 0
    worst = float(ratio[j]) if len(ratio) else 0.0
    lo, hi = (float(kn[j]), float(kn[j + 1])) if len(ratio) else (0.0, 1.0)
    where: Any = ({"u": [lo, hi], "x": [float(p.prior.ppf(lo)), float(p.prior.ppf(hi))]}
                  if locate else None)
    if p.atom > 0:
        q_at = q.atom if q.atom > 0 and q.center == p.center else 0.0
        r = INF if q_at == 0 else p.atom / q_at
        if r > worst:
            worst, where = r, {"atom": p.center}
        need += max(0.0, p.atom - e_eps * q_at)
    return {"ratio": worst, "at": where, "delta_needed": need}


MASS_TOL = 1e-10
"""Cells of a product law with computed prior mass ≤ this count as empty (ball masses are
computed with error estimates ≤ 1e-12 in d = 2 and ≤ 1e-11 in d = 3,
:mod:`privlab.mechanisms.refinement.quadrature`)."""


def _intersection(p: ProductLaw, q: ProductLaw) -> tuple[float, float]:
    """Prior mass of B_p ∩ B_q and its quadrature error (0 when a law is the prior)."""
    if p.radius < 0 or q.radius < 0 or p.ball_mass <= 0 or q.ball_mass <= 0:
        return 0.0, 0.0
    return p.distance.intersection_mass(p.prior, np.asarray(p.center), p.radius,
                                        np.asarray(q.center), q.radius)


def compare_product(p: ProductLaw, q: ProductLaw, e_eps: float,
                    inter: tuple[float, float] | None = None) -> dict[str, Any]:
    """Exact piecewise comparison of two product laws: the density ratio is constant on the
    four cells B_p ∩ B_q, B_p \\ B_q, B_q \\ B_p and the outside (an empty ball for the prior
    itself), whose prior masses come from the balls' masses and their intersection
    (``inter``: that mass and its error, when already computed)."""
    def ball(law: ProductLaw) -> tuple[float, float, float]:
        if law.radius < 0:  # the prior itself: no ball, factor 1
            return 0.0, 1.0, 1.0
        return law.ball_mass, law.alpha_u, law.alpha_d

    mp, pin, pout = ball(p)
    mq, qin, qout = ball(q)
    mi, err = _intersection(p, q) if inter is None else inter
    cells = {"B_D ∩ B_D'": (mi, pin, qin), "B_D only": (mp - mi, pin, qout),
             "B_D' only": (mq - mi, pout, qin), "outside both": (1 - mp - mq + mi, pout, qout)}
    worst, where, need = 0.0, None, 0.0
    for name, (mass, fp, fq) in cells.items():
        if mass <= MASS_TOL:
            continue
        r = fp / fq
        if r > worst:
            worst, where = r, {"cell": name, "prior_mass": mass}
        need += max(0.0, (fp - e_eps * fq) * mass)
    return {"ratio": worst, "at": where, "delta_needed": need, "quadrature_error": err}


def _compare(p: Any, q: Any, e_eps: Any) -> dict[str, Any]:
    if isinstance(p, DiscreteLaw):
        return compare_discrete(p, q, e_eps)
    if isinstance(p, ProductLaw):
        return compare_product(p, q, float(e_eps))
    return compare_continuous(p, q, float(e_eps))


def _both(a: Any, b: Any, e_eps: Any) -> list[dict[str, Any]]:
    """Both directions of a pair (a product pair's intersection mass is computed once)."""
    if isinstance(a, ProductLaw):
        mi = _intersection(a, b)
        return [compare_product(a, b, float(e_eps), mi), compare_product(b, a, float(e_eps), mi)]
    if isinstance(a, ContinuousLaw):  # locate a cell only when it is the worst so far
        out = []
        kn, width, sa, sb = _merged_cells(a, b)
        # the reverse direction has the same cells: the sorted distinct knots do not depend
        # on the order of the two lists (up to the sign of a zero knot, which changes no
        # width, midpoint or slope; the knots themselves are only read to locate a cell,
        # and _Locate recomputes that with compare_continuous)
        for p, q, cells in ((a, b, (kn, width, sa, sb)), (b, a, (kn, width, sb, sa))):
            c = _compare_cells(p, q, float(e_eps), *cells, locate=False)
            if c["at"] is None:
                c["at"] = _Locate(p, q, float(e_eps))
            out.append(c)
        return out
    return [_compare(a, b, e_eps), _compare(b, a, e_eps)]


class _Locate:
    """``compare_continuous(p, q, e)["at"]``, computed when asked for (:func:`_at`)."""

    def __init__(self, p: ContinuousLaw, q: ContinuousLaw, e: float) -> None:
        self.args = (p, q, e)

    def __call__(self) -> Any:
        return compare_continuous(*self.args)["at"]


def _at(c: dict[str, Any]) -> Any:
    return c["at"]() if isinstance(c["at"], _Locate) else c["at"]


def _mass_ok(law: Any) -> bool:
    tot = law.total
    if isinstance(law, DiscreteLaw) and not any(isinstance(x, float) for x in law.probs):
        return bool(tot == 1)
    return abs(float(tot) - 1.0) <= 1e-9


def law_of(mech: Refinement, query: Any, data: Dataset) -> Any:
    t = query(data)
    return mech.output(ABSENT if t is ABSENT else t)


def pairs(mech: Refinement, query: Any, data: Dataset, neighbour: Any,
          domain: Sequence[Any]) -> list[tuple[str, Any, Any]]:
    """(label, law at D, law at D′) for every neighbour D′ of ``data``."""
    base = law_of(mech, query, data)
    return [(lab, base, law_of(mech, query, d2))
            for lab, d2 in data.neighbours(neighbour, domain)]


def check_refinement_dp(mech: Refinement, query: Any, data: Dataset, *, neighbour: Any,
                        domain: Sequence[Any], epsilon: float | None = None,
                        delta: float | None = None) -> CheckResult:
    """Is ``mech`` answering ``query`` (ε, δ)-DP at ``data`` under ``neighbour``?  Exhaustive over
    the neighbours of ``data``, exact on each pair (both directions)."""
    nb = Neighbour.parse(neighbour)
    eps = mech.epsilon if epsilon is None else float(epsilon)
    dl = mech.delta if delta is None else float(delta)
    e_eps = exp_epsilon(mech, eps)
    worst: Any = 0
    worst_need: Any = 0
    loc: dict[str, Any] = {}
    mass_ok = True
    rows = pairs(mech, query, data, nb, domain)
    for lab, a, b in rows:
        mass_ok &= _mass_ok(a) and _mass_ok(b)
        for direction, (p, q) in (("D>D'", (a, b)), ("D'>D", (b, a))):
            c = _compare(p, q, e_eps)
            if c["ratio"] == INF or (worst != INF and c["ratio"] > worst):
                worst = c["ratio"]
                loc = {"neighbour": lab, "direction": direction, "output": c["at"]}
            if c["delta_needed"] > worst_need:
                worst_need = c["delta_needed"]
    pure_ok = _le(worst, e_eps)
    holds = mass_ok and (pure_ok if dl == 0 else _le(worst_need, dl))
    log_ratio = INF if worst == INF else (math.log(float(worst)) if worst else 0.0)
    ev = {"neighbour": nb.value, "pairs": len(rows), "epsilon": eps, "delta": dl,
          "exp_epsilon": e_eps, "worst_ratio": worst, "worst_log_ratio": log_ratio,
          "worst_location": loc, "delta_needed_at_epsilon": worst_need,
          "mass_conserved": mass_ok, "exact": not isinstance(e_eps, float)}
    return CheckResult(
        holds=holds, claim=f"{mech.name} answering {getattr(query, 'name', query)} is "
                           f"({eps:g}, {dl:g})-DP under {nb.value}",
        value=log_ratio, evidence=ev, method=Method.EXHAUSTIVE,
        counterexample=None if holds else {**loc, "worst_ratio": worst,
                                           "delta_needed": worst_need})


def check_true_values(mech: Refinement, true_values: Sequence[Any], *,
                      individual_absent: bool = True, epsilon: float | None = None,
                      delta: float | None = None,
                      laws_given: Sequence[Any] | None = None) -> CheckResult:
    """Data-free certificate: the output law depends on D only through t = f(D), so checking
    every pair of possible answers (plus ABSENT vs each t for an individual query, the only
    add/remove change) covers every data set.  Individual queries: only t vs ABSENT pairs
    (add/remove); statistical: all ordered pairs of ``true_values``.  ``laws_given``: the
    laws ``mech.output(t)`` when the caller already has them."""
    eps = mech.epsilon if epsilon is None else float(epsilon)
    dl = mech.delta if delta is None else float(delta)
    e_eps = exp_epsilon(mech, eps)
    laws = dict(enumerate(laws_given if laws_given is not None
                          else [mech.output(t) for t in true_values]))
    if mech.factors.query == "individual":
        prior = mech.output(ABSENT)
        todo = [(f"t={true_values[i]!r} vs absent", laws[i], prior) for i in laws]
    else:
        todo = [(f"t={true_values[i]!r} vs t'={true_values[j]!r}", laws[i], laws[j])
                for i in laws for j in laws if i < j]
    worst: Any = 0
    need: Any = 0
    loc: dict[str, Any] = {}
    mass_ok = all(_mass_ok(law) for law in laws.values())
    for lab, a, b in todo:
        for c in _both(a, b, e_eps):
            if c["ratio"] == INF or (worst != INF and c["ratio"] > worst):
                worst, loc = c["ratio"], {"pair": lab, "output": _at(c)}
            need = max(need, c["delta_needed"])
    holds = mass_ok and (_le(worst, e_eps) if dl == 0 else _le(need, dl))
    factors_ok = all(_factors_in_range(law, mech) for law in laws.values())
    return CheckResult(
        holds=holds and factors_ok, claim=f"{mech.name} is ({eps:g}, {dl:g})-DP for every pair "
                                          f"of the {len(true_values)} true answers",
        value=INF if worst == INF else (math.log(float(worst)) if worst else 0.0),
        method=Method.EXHAUSTIVE if mech.prior.kind == "discrete" else Method.NUMERIC,
        evidence={"pairs": len(todo), "worst_ratio": worst, "exp_epsilon": e_eps,
                  "worst_location": loc, "delta_needed_at_epsilon": need,
                  "mass_conserved": mass_ok, "factors_within_[alpha_d, alpha_u]": factors_ok},
        counterexample=None if holds and factors_ok else {**loc, "worst_ratio": worst})


def _factors_in_range(law: Any, mech: Refinement) -> bool:
    lo, hi = mech.factors.alpha_d, mech.factors.alpha_u
    facs = law.factors if isinstance(law, DiscreteLaw) else law.slopes
    moved = bool(mech.delta)
    return all(_le(lo, f) and _le(f, hi) for f in facs if not (moved and f == 0))
