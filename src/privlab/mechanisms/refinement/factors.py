"""Refinement factors α_u, α_d (thesis §5.1–5.2, Table 5.2) and the masses they require.

Mass conservation.  Applying α_u to a set U_u and α_d to its complement U_d keeps total mass 1
iff α_u·P_f(U_u) + α_d·(1 − P_f(U_u)) = 1 (equation (5.2)), i.e.

    P_f(U_u) = (1 − α_d)/(α_u − α_d),        P_f(U_d) = (α_u − 1)/(α_u − α_d).

(derived in :func:`required_masses`).  The thesis prints these two fractions *swapped* — in
§5.2 after (5.2), in Algorithm 5.1 steps a–b and again in §5.5.2 — while its Table 5.5 uses the
derived ones (size(U_u) = 1/(1 + e^ε) for the individual factors).  The printed pair is kept
as :func:`printed_masses` so that the ledger can show what it would do.

Table 5.2.  *Individual* queries (the answer depends on one person; the only neighbour that
changes it is the person's absence, whose answer is the prior itself): any α_u ∈ [1, e^ε],
α_d ∈ [e^{−ε}, 1], the largest gain at α_u = e^ε, α_d = e^{−ε}.  *Statistical* queries (any
two data sets may give different f): α_u ∈ [1, e^ε], α_d ∈ [e^{−ε}, 1] with α_u/α_d ≤ e^ε; the
database holder chooses α_u and α_d = α_u·e^{−ε}.
"""

from __future__ import annotations

import math
from typing import Any

import attrs

from privlab import _validate as v
from privlab.errors import InvalidParameter

QUERIES = ("individual", "statistical")
REL_TOL = 1e-12


def _lt(a: Any, b: Any) -> bool:
    """a > b beyond float rounding (exact for Fractions)."""
    return float(a) > float(b) * (1 + REL_TOL) + REL_TOL


@attrs.frozen(kw_only=True)
class Factors:
    """The factors applied near (α_u) and far from (α_d) the true answer.

    ``epsilon`` is the guarantee claimed for them; numbers may be floats or exact
    (``Fraction``: e.g. α_u = 2, α_d = 1/2 is ε = ln 2 for an individual query).
    ``control=True`` skips the range checks: only for deliberately broken controls.
    """

    alpha_u: Any
    alpha_d: Any
    query: str = attrs.field(validator=v.attrs_validator(lambda n, x: v.one_of(n, x, QUERIES)))
    epsilon: float = attrs.field(converter=v.attrs_converter(v.positive))
    control: bool = False

    def __attrs_post_init__(self) -> None:
        for name in ("alpha_u", "alpha_d"):
            x = getattr(self, name)
            if isinstance(x, bool) or not (isinstance(x, int | float)
                                           or hasattr(x, "limit_denominator")):
                raise InvalidParameter(f"{name}={x!r} must be a real number")
            v.positive(name, x)
        if self.control:
            return
        e = math.exp(self.epsilon)
        au, ad = self.alpha_u, self.alpha_d
        if au < 1 or _lt(au, e):
            raise InvalidParameter(f"alpha_u={au!r} must lie in [1, e^epsilon={e:.6g}]")
        if ad > 1 or _lt(1 / e, ad):
            raise InvalidParameter(f"alpha_d={ad!r} must lie in [e^-epsilon={1 / e:.6g}, 1]")
        if au == ad:
            raise InvalidParameter(f"alpha_u={au!r} and alpha_d={ad!r} are both 1: nothing is "
                                   f"refined")
        if self.query == "statistical" and _lt(au / ad, e):
            raise InvalidParameter(f"alpha_u/alpha_d={float(au / ad):.6g} must be <= "
                                   f"e^epsilon={e:.6g} for a statistical query")

    # ---- constructors (Table 5.2) ------------------------------------------------------------
    @classmethod
    def individual(cls, epsilon: float) -> Factors:
        """α_u = e^ε, α_d = e^{−ε} (the largest gain for an individual query)."""
        eps = v.positive("epsilon", epsilon)
        return cls(alpha_u=math.exp(eps), alpha_d=math.exp(-eps), query="individual",
                   epsilon=eps)

    @classmethod
    def statistical(cls, epsilon: float, alpha_u: float | None = None) -> Factors:
        """α_u (holder's choice in [1, e^ε], default e^{ε/2}) and α_d = α_u·e^{−ε}."""
        eps = v.positive("epsilon", epsilon)
        au = math.exp(eps / 2) if alpha_u is None else v.in_closed("alpha_u", alpha_u, 1.0,
                                                                    math.exp(eps))
        return cls(alpha_u=au, alpha_d=au * math.exp(-eps), query="statistical", epsilon=eps)

    @classmethod
    def from_alphas(cls, alpha_u: Any, alpha_d: Any, query: str) -> Factors:
        """Factors with the smallest ε they give: ln(α_u/α_d) (statistical) or
        ln max(α_u, 1/α_d) (individual).  Exact inputs stay exact."""
        v.one_of("query", query, QUERIES)
        v.positive("alpha_u", alpha_u)
        v.positive("alpha_d", alpha_d)
        ratio = alpha_u / alpha_d if query == "statistical" else max(alpha_u, 1 / alpha_d)
        return cls(alpha_u=alpha_u, alpha_d=alpha_d, query=query,
                   epsilon=math.log(float(ratio)))

    # ---- derived quantities ------------------------------------------------------------------
    @property
    def exact(self) -> bool:
        return all(hasattr(x, "limit_denominator") or isinstance(x, int)
                   for x in (self.alpha_u, self.alpha_d))

    @property
    def ratio(self) -> Any:
        """The largest ratio of output densities this pair allows between two true answers."""
        return self.alpha_u / self.alpha_d

    def to_dict(self) -> dict[str, Any]:
        pu, pd = required_masses(self)
        return {"query": self.query, "epsilon": self.epsilon, "alpha_u": float(self.alpha_u),
                "alpha_d": float(self.alpha_d), "p_u": float(pu), "p_d": float(pd),
                "control": self.control}


def required_masses(f: Factors) -> tuple[Any, Any]:
    """(P_f(U_u), P_f(U_d)) from α_u·p + α_d·(1 − p) = 1 (mass conservation, derived)."""
    return (1 - f.alpha_d) / (f.alpha_u - f.alpha_d), (f.alpha_u - 1) / (f.alpha_u - f.alpha_d)


def printed_masses(f: Factors) -> tuple[Any, Any]:
    """The pair as printed in §5.2 / Algorithm 5.1 a–b / §5.5.2 (swapped; see module doc)."""
    return (f.alpha_u - 1) / (f.alpha_u - f.alpha_d), (1 - f.alpha_d) / (f.alpha_u - f.alpha_d)


def printed_alpha_ud(f: Factors, p_u: Any, p_d: Any) -> Any:
    """Algorithm 5.1 step iv as printed: (1 − α_u p_u − α_d p_d)/(1 − p_u − p_d).

    Since p_u + p_d = 1 for either pair of masses the denominator is 0: returns ``None`` when
    the printed formula is undefined (0/0 or x/0)."""
    den = 1 - p_u - p_d
    if den == 0 or (isinstance(den, float) and abs(den) < 1e-12):
        return None
    return (1 - f.alpha_u * p_u - f.alpha_d * p_d) / den
