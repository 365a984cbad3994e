"""Interactive access mechanisms of thesis §5.4.1: Protocol 1 (Laplace) and Protocol 2
(knowledge refinement), as stateful sessions that refuse instead of exceeding their budget.

Accounting.  Every session treats all queries so far as one multi-component query (§5.4.1).
A query depends on a set of individuals derived from the query object
(:mod:`privlab.mechanisms.refinement.queries`): {id} for an individual query, everyone for a
statistical
one.  Adding or removing person x changes only the components that depend on x, so

* Protocol 2, ``accounting="sum"``: spent = Σ ε_j (the protocol as printed);
* ``accounting="per-individual"`` (Proposition 4):
  spent = Σ_{statistical} ε_j + max_x Σ_{j individual, x ∈ I_j} ε_j.
  When every answered query is individual and their individuals are pairwise disjoint — the
  condition of Proposition 4, evaluated on the queries, never assumed — this is max ε_j; when
  they overlap it falls back to sums per person, so the bound stays sound;
* Protocol 1: Δ(f_1..f_i) ≤ Σ_{statistical} Δ_j + max_x Σ_{j ∋ x} Δ_j (L1 sensitivity of the
  joint query under add/remove), answered iff Δ(f_1..f_i)/λ ≤ ε (``LaplaceSession`` defaults
  to ``"per-individual"``, i.e. this joint sensitivity); ``"sum"`` with per-query scales λ_j
  is the modified condition Σ Δ_j/λ_j ≤ ε of §5.4.1.

Budgets are summed as exact ``Fraction`` s of the ε's decimal spelling (``repr``: 0.1 is 1/10,
so ten queries of 0.1 fit a budget of 1), so "never past the budget" is exact.
A refusal raises :class:`privlab.errors.BudgetExceeded` with the reason and, as the protocols'
``while`` loops say, closes the session (``close_on_refusal=False`` keeps it open for cheaper
queries).  Under substitution an individual query is answered with statistical factors
(α_u/α_d = e^{ε_i}), because the individual factors cost 2ε_i there.  Adaptive queries are fine:
for pure DP the transcript's likelihood ratio is the product over rounds, each bounded by the
round's charge along that transcript (Proposition 5 / Corollary 2 then cover any estimate).
"""

from __future__ import annotations

from collections.abc import Hashable
from fractions import Fraction
from typing import Any

import attrs
import numpy as np

from privlab import _validate as v
from privlab._rng import as_generator
from privlab.errors import BudgetExceeded, InvalidParameter
from privlab.mechanisms.refinement.algorithm import ABSENT, Refinement
from privlab.mechanisms.refinement.factors import Factors
from privlab.mechanisms.refinement.queries import Dataset
from privlab.types import Neighbour

ACCOUNTING = ("sum", "per-individual")


@attrs.frozen(kw_only=True)
class Answered:
    """One answered query: what was asked, its charge and the answer."""

    index: int
    query: str
    individuals: tuple[Hashable, ...] | None
    epsilon: Fraction
    answer: Any
    spent_after: Fraction
    details: dict[str, Any] = attrs.field(factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"index": self.index, "query": self.query,
                "individuals": None if self.individuals is None else list(self.individuals),
                "epsilon": float(self.epsilon), "answer": self.answer,
                "spent_after": float(self.spent_after), **self.details}


def dec(x: float) -> Fraction:
    """The exact rational of a float's shortest decimal spelling (0.1 → 1/10)."""
    return Fraction(repr(float(x)))


def _charge(cost: list[tuple[frozenset[Hashable] | None, Fraction]], mode: str) -> Fraction:
    if mode == "sum":
        return sum((c for _, c in cost), Fraction(0))
    total = sum((c for ind, c in cost if ind is None), Fraction(0))
    per: dict[Hashable, Fraction] = {}
    for ind, c in cost:
        for x in ind or ():
            per[x] = per.get(x, Fraction(0)) + c
    return total + max(per.values(), default=Fraction(0))


def proposition_4_condition(individual_sets: list[frozenset[Hashable] | None]) -> bool:
    """Proposition 4's hypothesis: every query is about a set of individuals and the sets are
    pairwise disjoint (a statistical query depends on everyone, so it never qualifies)."""
    seen: set[Hashable] = set()
    for s in individual_sets:
        if s is None or seen & s:
            return False
        seen |= s
    return True


@attrs.define
class _Session:
    data: Dataset
    budget: float = attrs.field(converter=v.attrs_converter(v.positive))
    accounting: str = attrs.field(default="sum", validator=v.attrs_validator(
        lambda n, x: v.one_of(n, x, ACCOUNTING)))
    rng: Any = None
    close_on_refusal: bool = True
    history: list[Answered] = attrs.field(factory=list)
    refusals: list[dict[str, Any]] = attrs.field(factory=list)
    closed: str | None = None
    _costs: list[tuple[frozenset[Hashable] | None, Fraction]] = attrs.field(factory=list)

    def __attrs_post_init__(self) -> None:
        if not isinstance(self.data, Dataset):
            self.data = Dataset(records=self.data)
        self.rng = as_generator(self.rng)

    @property
    def spent(self) -> Fraction:
        return _charge(self._costs, self.accounting)

    @property
    def remaining(self) -> Fraction:
        return dec(self.budget) - self.spent

    @property
    def proposition_4_holds(self) -> bool:
        return proposition_4_condition([c for c, _ in self._costs])

    def _admit(self, label: str, individuals: frozenset[Hashable] | None,
               cost: Fraction) -> Fraction:
        if self.closed is not None:
            raise BudgetExceeded(f"refused {label}: the session is closed ({self.closed})")
        new = _charge([*self._costs, (individuals, cost)], self.accounting)
        if new > dec(self.budget):
            reason = (f"refused {label}: answering would spend {float(new):.6g} > budget "
                      f"{self.budget:g} (spent {float(self.spent):.6g}, accounting "
                      f"{self.accounting})")
            self.refusals.append({"query": label, "would_spend": float(new),
                                  "spent": float(self.spent), "reason": reason})
            if self.close_on_refusal:
                self.closed = f"query {len(self.history) + len(self.refusals)} was refused"
            raise BudgetExceeded(reason)
        return new

    def _record(self, label: str, individuals: frozenset[Hashable] | None, cost: Fraction,
                answer: Any, details: dict[str, Any]) -> Any:
        self._costs.append((individuals, cost))
        ind = None if individuals is None else tuple(sorted(individuals, key=repr))
        self.history.append(Answered(index=len(self.history) + 1, query=label,
                                     individuals=ind, epsilon=cost, answer=answer,
                                     spent_after=self.spent, details=details))
        return answer

    def summary(self) -> dict[str, Any]:
        return {"budget": self.budget, "spent": float(self.spent),
                "spent_exact": str(self.spent), "accounting": self.accounting,
                "answered": [h.to_dict() for h in self.history], "refusals": self.refusals,
                "closed": self.closed, "proposition_4_condition": self.proposition_4_holds}


@attrs.define
class RefinementSession(_Session):
    """Protocol 2: queries q_i = (f_i, P_{f_i}, d_i, ε_i), answered by knowledge refinement."""

    neighbour: Neighbour = attrs.field(default=Neighbour.ADD_REMOVE, converter=Neighbour.parse)
    alpha_u: float | None = None
    """The holder's α_u for statistical queries (Table 5.2); default e^{ε_i/2}."""

    def ask(self, query: Any, prior: Any, epsilon: float, distance: Any = None) -> Any:
        eps = v.positive("epsilon", epsilon)
        cost = dec(eps)
        individual = getattr(query, "kind", None) == "individual"
        if individual and self.neighbour is Neighbour.ADD_REMOVE:
            factors = Factors.individual(eps)
        else:
            au = None if self.alpha_u is None else min(self.alpha_u, float(np.exp(eps)))
            factors = Factors.statistical(eps, au)
        mech = Refinement(prior=prior, factors=factors, distance=distance)
        inds = query.individuals
        label = getattr(query, "name", repr(query))
        self._admit(label, inds, cost)
        t = query(self.data)
        answer = mech.release(ABSENT if t is ABSENT else t, rng=self.rng)
        return self._record(label, inds, cost, answer,
                            {"factors": factors.to_dict(), "distance": mech.distance.name})


@attrs.define
class LaplaceSession(_Session):
    """Protocol 1: every answer is f_i(D) + Laplace(λ); answered iff Δ(f_1..f_i)/λ ≤ ε.

    ``scale`` is λ; ``ask(..., scale=λ_i)`` switches a query to the modified condition
    Σ Δ_j/λ_j ≤ ε (then every query's charge is Δ_j/λ_j).  Individual queries answer
    ``absent_value`` for a missing individual (§5.5.1 uses 1/2)."""

    accounting: str = attrs.field(default="per-individual", validator=v.attrs_validator(
        lambda n, x: v.one_of(n, x, ACCOUNTING)))
    scale: float = attrs.field(default=1.0, converter=v.attrs_converter(v.positive))
    absent_value: float = 0.0

    def __attrs_post_init__(self) -> None:
        super().__attrs_post_init__()

    def ask(self, query: Any, scale: float | None = None) -> float:
        sens = getattr(query, "sensitivity", None)
        if sens is None:
            raise InvalidParameter(f"query {getattr(query, 'name', query)!r} has no declared "
                                   f"sensitivity; Protocol 1 needs it")
        sens = v.positive("sensitivity", sens)
        lam = self.scale if scale is None else v.positive("scale", scale)
        cost = dec(sens) / dec(lam)
        label = getattr(query, "name", repr(query))
        self._admit(label, query.individuals, cost)
        t = query(self.data)
        x = self.absent_value if t is ABSENT else v.finite("f(D)", t)
        answer = float(x + self.rng.laplace(0.0, lam))
        return self._record(label, query.individuals, cost, answer,
                            {"sensitivity": sens, "scale": lam})

    @property
    def joint_sensitivity_over_scale(self) -> Fraction:
        """Δ(f_1..f_i)/λ as charged (equals :attr:`spent`)."""
        return self.spent


def session_from_spec(kind: str, data: Any, budget: float, **kw: Any) -> _Session:
    v.one_of("kind", kind, ("refinement", "laplace"))
    cls = RefinementSession if kind == "refinement" else LaplaceSession
    try:
        return cls(data=data, budget=budget, **kw)
    except TypeError as exc:
        raise InvalidParameter(str(exc)) from None


__all__ = ["Answered", "LaplaceSession", "RefinementSession", "proposition_4_condition",
           "session_from_spec"]
