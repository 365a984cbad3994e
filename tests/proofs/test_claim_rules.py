"""The rules of a verdict are enforced by construction (issue 30): each rule is shown to fire on
a deliberately broken claim, and the whole ledger is checked against the rules that can be read
off a claim without running it."""

from __future__ import annotations

import re

import pytest

from privlab.errors import InvalidParameter
from privlab.proofs import default_ledger
from privlab.proofs.parameters import PAPER_PARAMETERS
from privlab.proofs.verdict import (
    GRID_GAP,
    IMPLIED,
    NOT_ABLE_TO_FAIL,
    form_problems,
    grid_gaps,
    proved,
    verdict,
)
from privlab.types import (
    CheckResult,
    Claim,
    Conjunct,
    Method,
    Mutant,
    Param,
    Proof,
    Status,
)


def _result(holds: bool, method: Method = Method.EXACT) -> CheckResult:
    return CheckResult(holds=holds, claim="c", method=method,
                       counterexample=None if holds else {"x": 1})


def _caught(conjunct: str = "") -> Mutant:
    return Mutant(description=f"a false variant of {conjunct or 'it'}", kind="constant",
                  conjunct=conjunct, check=lambda: _result(False))


EPS = Param(name="epsilon", lo=0, registry="epsilon")
"""ε ∈ (0, ∞), tied to the seed's registry of experimental ε values."""


def _claim(**kw: object) -> Claim:
    base: dict[str, object] = {"id": "thesis:test", "source": "test", "statement": "s",
                               "check": lambda: _result(True), "mutants": (_caught(),)}
    base.update(kw)
    return Claim(**base)  # type: ignore[arg-type]


# ---- each rule fires on a broken claim -----------------------------------------------------------
def test_verified_needs_a_proof_object() -> None:
    assert verdict(_claim(), _result(True)).status is Status.CONFIRMED
    proof = Proof(kind="symbolic", argument="sympy identity")
    assert verdict(_claim(proof=proof), _result(True)).status is Status.VERIFIED


def test_a_grid_never_verifies_an_infinite_domain() -> None:
    grid = PAPER_PARAMETERS["thesis"]["epsilon"]
    exhaustive = Proof(kind="exhaustive", argument="every ε of the grid")
    c = _claim(proof=exhaustive, params=(attrs_evolve(EPS, grid=grid),))
    assert not proved(c)
    assert verdict(c, _result(True)).status is Status.CONFIRMED
    finite = Param(name="k", lo=1, hi=3, lo_closed=True, hi_closed=True, integer=True,
                   grid=(1, 2, 3))
    assert verdict(_claim(proof=exhaustive, params=(finite,)), _result(True)).status \
        is Status.VERIFIED
    short = attrs_evolve(finite, grid=(1, 2))
    assert verdict(_claim(proof=exhaustive, params=(short,)), _result(True)).status \
        is Status.CONFIRMED


def test_a_grid_that_misses_a_paper_parameter_is_inconclusive() -> None:
    gap = attrs_evolve(EPS, grid=(0.1, 1.0))  # thesis §6.4 uses ε = 10 as well
    assert any("10.0" in g for g in grid_gaps(_claim(params=(gap,))))
    v = verdict(_claim(params=(gap,)), _result(True))
    assert v.status is Status.INCONCLUSIVE and GRID_GAP in (v.reason or "")
    full = attrs_evolve(EPS, grid=PAPER_PARAMETERS["thesis"]["epsilon"])
    assert grid_gaps(_claim(params=(full,))) == ()
    boundary = Param(name="k", lo=1, integer=True, lo_closed=True, boundary=(1,), grid=(2, 3))
    assert grid_gaps(_claim(params=(boundary,))) == ("k: grid misses 1",)
    outside = Param(name="k", lo=2, lo_closed=True, integer=True, grid=(1, 2))
    assert "outside" in grid_gaps(_claim(params=(outside,)))[0]


def test_a_refutation_stands_whatever_the_grid() -> None:
    gap = attrs_evolve(EPS, grid=(0.1,))
    assert verdict(_claim(params=(gap,)), _result(False)).status is Status.REFUTED


def test_each_conjunct_needs_its_own_caught_mutant() -> None:
    parts = (Conjunct(name="dp", statement="ε-DP"), Conjunct(name="optimal", statement="opt"))
    only_dp = _claim(conjuncts=parts, mutants=(_caught("dp"),))
    v = verdict(only_dp, _result(True))
    assert v.status is Status.INCONCLUSIVE and "optimal" in (v.reason or "")
    assert NOT_ABLE_TO_FAIL in (v.reason or "")
    both = _claim(conjuncts=parts, mutants=(_caught("dp"), _caught("optimal")))
    assert verdict(both, _result(True)).status is Status.CONFIRMED


def test_unclassified_mutants_are_not_evidence() -> None:
    raw = Mutant(description="x", check=lambda: _result(False))
    assert verdict(_claim(mutants=(raw,)), _result(True)).status is Status.INCONCLUSIVE


def test_a_negation_is_not_a_mutant_kind() -> None:
    with pytest.raises(InvalidParameter, match="kind='negation'"):
        Mutant(description="not s", kind="negation", check=lambda: _result(False))


def test_a_check_implied_by_its_premises_is_inconclusive() -> None:
    c = _claim(premise_implies="the releases are built t-close, so the bound is automatic")
    v = verdict(c, _result(True))
    assert v.status is Status.INCONCLUSIVE and IMPLIED in (v.reason or "")


def attrs_evolve(p: Param, **kw: object) -> Param:
    import attrs

    return attrs.evolve(p, **kw)  # type: ignore[arg-type]


# ---- the whole ledger, read without running ------------------------------------------------------
LEDGER = default_ledger().claims()


@pytest.mark.parametrize("claim", LEDGER, ids=lambda c: c.id)
def test_ledger_claim_is_well_formed(claim: Claim) -> None:
    assert form_problems(claim) == (), claim.id


def test_a_broken_claim_added_to_the_ledger_is_caught() -> None:
    """Each rule, on a claim added to a ledger: the form check names what is wrong."""
    from privlab.proofs.ledger import Ledger
    from privlab.types import Scope

    scope = Scope(setting="paper")
    raw = Mutant(description="raw", check=lambda: _result(False))
    broken = {
        "thesis:unclassified": _claim(id="thesis:unclassified", scope=scope, mutants=(raw,)),
        "thesis:orphan": _claim(id="thesis:orphan", scope=scope, mutants=(_caught("nope"),)),
        "thesis:grid": _claim(id="thesis:grid", scope=scope,
                              params=(attrs_evolve(EPS, grid=(1.0,)),)),
        "thesis:proof": _claim(id="thesis:proof", scope=scope,
                               proof=Proof(kind="exhaustive", argument="a grid"),
                               params=(attrs_evolve(EPS, grid=(1.0,)),)),
        "thesis:no-scope": _claim(id="thesis:no-scope"),
    }
    led = Ledger((), extra_claims=broken.values())
    problems = {c.id: form_problems(c) for c in led.claims()}
    assert "unclassified" in problems["thesis:unclassified"][0]
    assert "names no conjunct" in problems["thesis:orphan"][0]
    assert any("grid misses" in p for p in problems["thesis:grid"])
    assert any("proof object" in p for p in problems["thesis:proof"])
    assert problems["thesis:no-scope"] == ("no scope",)


# ---- the parameters a claim quantifies over ----------------------------------------------------
QUANTIFIED = re.compile(r"ε|(?<![A-Za-z_])k\b|epsilon|(?<![A-Za-z_])t\b(?!-)")
"""A statement or scope domain naming ε, k (also "2k") or t (not "t-closeness")."""


def test_claims_over_epsilon_k_or_t_declare_their_parameters() -> None:
    """A claim quantified over ε, k or t declares the parameter (its domain and grid), or its
    proof object covers it: none is checked on an undeclared grid (issue 30)."""
    undeclared = {c.id for c in LEDGER if not c.params and c.proof is None
                  and QUANTIFIED.search(c.statement + " " + (c.scope.domain if c.scope else ""))}
    assert undeclared == set(), sorted(undeclared)


def test_the_quantifier_pattern_finds_what_it_must() -> None:
    """mutant caught: a pattern that misses "2k" or matches "t-closeness"."""
    assert QUANTIFIED.search("clusters of 2k records") and QUANTIFIED.search("for every t > 1")
    assert not QUANTIFIED.search("t-closeness of the bucketization")
