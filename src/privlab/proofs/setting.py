"""Small constructors and texts for the ``scope=`` and ``refutation=`` of the ledger's claims
(issue 14); each claim states its own in its ``Claim(...)`` definition.

``paper`` scopes (:func:`_p`) use the seed's own setting: thesis ch.5 states its refinement
results under add/remove (the thesis's Definition 3 cites both relations); thesis ch.6, vldb14
and irm work with substitution ("modifying one record", X, X′ ∈ Dⁿ); thesis §7.3 compares I's
posterior with the marginal prior (I ∈ D vs I ∉ D); ins15 Proposition 3 states both relations.
Noise laws (ch.4, §4.5) are relation-agnostic: they are stated for query differences
d ∈ [−Δ, Δ] (neighbour ``n/a``, reading :data:`NOISE`).  ``extension`` scopes (:func:`_x`) are
the lab's own questions (another relation or release format, privlab's own guarantees and
repaired constructions): their failure is a finding about that setting, not an erratum.

A refutation's kind (:data:`privlab.types.KINDS`) says what a failure means; privacy refutations
(:func:`_priv`) carry the exact loss and the weakest failing instance found.
"""

from __future__ import annotations

from privlab.types import Refutation, Scope

__all__ = ["AR", "NOISE", "OWN", "SUB", "_p", "_priv", "_x"]

OWN = "privlab's own guarantee (not a claim of a seed)"
NOISE = "noise law stated for query differences d ∈ [−Δ, Δ] (relation-agnostic)"
SUB = "substitute"
AR = "add/remove"


def _p(**kw: str) -> Scope:
    """A scope in the seed's own setting."""
    return Scope(setting="paper", **kw)


def _x(**kw: str) -> Scope:
    """A scope the lab chose (an extension): its failure is a finding, not an erratum."""
    return Scope(setting="extension", **kw)


def _priv(loss: str, weakest: str, paper: str) -> Refutation:
    """A privacy refutation: the exact ``loss``, the ``weakest`` failing instance found, and
    whether the ``paper``'s own experiment parameters are affected."""
    return Refutation(kind="privacy", loss=loss, weakest=weakest, paper_parameters=paper)
