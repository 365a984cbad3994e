"""Issue 14: scope, refutation kind, able-to-fail mutants and data provenance on the ledger.

The verdict rules are tested on synthetic claims whose truth is computed here (2**10 vs 1000),
so each rule is shown able to fail; the ledger-wide tests run the registered mutants of every
claim and require each to be *refuted* by its claim's checker.
"""

from __future__ import annotations

import importlib

import pytest

from privlab.proofs import default_ledger
from privlab.proofs.ledger import LOAD_ERROR_PREFIX, run_claim
from privlab.proofs.verdict import DATA_UNAVAILABLE, NOT_ABLE_TO_FAIL, run_mutants
from privlab.types import CheckResult, Claim, Method, Mutant, Proof, Refutation, Scope, Status


def _res(holds: bool, method: Method = Method.EXACT, evidence: dict | None = None
         ) -> CheckResult:
    return CheckResult(holds=holds, claim="t", method=method, evidence=evidence or {},
                       counterexample=None if holds else {"2^10": 2**10})


def _true() -> CheckResult:
    return _res(2**10 == 1024)


def _false() -> CheckResult:
    return _res(2**10 == 1000)


def _claim(check, **kw) -> Claim:  # type: ignore[no-untyped-def]
    return Claim(id="test:x", source="t", statement="s", check=check, **kw)


CAUGHT = Mutant(kind="constant", description="2^10 = 1000", check=_false)
MISSED = Mutant(kind="constant", description="2^10 = 1024 (not a mutant: true)", check=_true)


PROOF = Proof(kind="exact-decision", argument="2^10 computed exactly")


def test_verified_needs_a_refuted_mutant() -> None:
    assert run_claim(_claim(_true, mutants=(CAUGHT,), proof=PROOF)).status is Status.VERIFIED
    out = run_claim(_claim(_true))
    assert out.status is Status.INCONCLUSIVE and NOT_ABLE_TO_FAIL in out.reason
    out = run_claim(_claim(_true, mutants=(MISSED,)))
    assert out.status is Status.INCONCLUSIVE
    assert out.to_dict()["able_to_fail"] == [{"mutant": MISSED.description,
                                              "status": "verified", "conjunct": "",
                                              "kind": "constant"}]


def test_raising_mutant_is_not_a_catch() -> None:
    def boom() -> CheckResult:
        raise ZeroDivisionError("x")

    boom_mutant = Mutant(kind="constant", description="b", check=boom)
    rows = run_mutants(_claim(_true, mutants=(boom_mutant,)))
    assert rows[0]["status"] == "error"
    assert run_claim(_claim(_true, mutants=(boom_mutant,))).status is Status.INCONCLUSIVE


def test_bounded_confirms_not_verifies() -> None:
    assert run_claim(_claim(_true, mutants=(CAUGHT,), bounded=True)).status is Status.CONFIRMED


def test_extension_refutation_is_a_finding_with_kind() -> None:
    ref = Refutation(kind="privacy", loss="∞", weakest="n = 1", paper_parameters="none")
    ext = _claim(_false, scope=Scope(setting="extension", neighbour="add/remove"),
                 refutation=ref)
    out = run_claim(ext)
    assert out.status is Status.FINDING
    d = out.to_dict()
    assert d["kind"] == "privacy" and d["severity"] == "high" and d["loss"] == "∞"
    paper = run_claim(_claim(_false, scope=Scope(setting="paper"), refutation=ref))
    assert paper.status is Status.REFUTED


def test_data_claim_without_real_data_is_inconclusive() -> None:
    synth = {"data": {"name": "d.csv", "path": "synthetic", "rows": 3, "sha256": None}}
    real = {"data": {"name": "d.csv", "path": "/x/d.csv", "rows": 3, "sha256": "ab"}}
    out = run_claim(_claim(lambda: _res(True, evidence=synth), mutants=(CAUGHT,),
                           data="d.csv"))
    assert out.status is Status.INCONCLUSIVE and DATA_UNAVAILABLE in out.reason
    assert out.to_dict()["data"]["path"] == "synthetic"
    assert run_claim(_claim(lambda: _res(True, evidence=real), mutants=(CAUGHT,),
                            data="d.csv", proof=PROOF)).status is Status.VERIFIED


def test_scope_and_kind_validate() -> None:
    with pytest.raises(ValueError, match="setting="):
        Scope(setting="erratum")
    with pytest.raises(ValueError, match="kind="):
        Refutation(kind="bad")


# ---- the real ledger -------------------------------------------------------------------------
def test_every_ledger_claim_has_a_scope() -> None:
    claims = default_ledger().claims()
    assert [c.id for c in claims if c.id.startswith(LOAD_ERROR_PREFIX)] == []
    assert [c.id for c in claims if c.scope is None] == []


def test_a_claim_is_its_definition() -> None:
    """Each claim is one object, defined in one place: the ledger hands out the ``Claim`` of its
    module's ``CLAIMS`` itself (scope, refutation, data, mutants and covers written in the
    definition; nothing stitched on at load time)."""
    led = default_ledger()
    defined = {c.id: c for m in led.modules for c in importlib.import_module(m).CLAIMS}
    claims = led.claims()
    assert [c.id for c in claims if defined.get(c.id) is not c] == []
    assert {c.id for c in claims if c.refutation is not None} <= {
        c.id for c in claims if c.scope is not None}


def test_extensions_are_not_paper_errata() -> None:
    """The settings the paper does not use are extensions (issue 14's named example)."""
    by = {c.id: c for c in default_ledger().claims()}
    for cid in ("thesis:sec-6.3-add-remove", "thesis:prop-3-substitution",
                "thesis:sec-7.3-substitute", "thesis:sec-7.2.2-construction"):
        assert by[cid].scope.setting == "extension", cid
    assert by["thesis:sec-6.3.1-noise-scale"].scope.setting == "paper"


def _mutant_cases(slow: bool) -> list[tuple[str, Mutant]]:
    return [(c.id, m) for c in default_ledger().claims() if c.slow == slow for m in c.mutants]


@pytest.mark.parametrize(("cid", "mutant"), _mutant_cases(False),
                         ids=lambda x: x if isinstance(x, str) else "")
def test_each_mutant_is_refuted_by_its_checker(cid: str, mutant: Mutant) -> None:
    rows = run_mutants(Claim(id=cid, source="", statement="", check=None, mutants=(mutant,)))
    if rows[0]["status"] == "inconclusive" and _data_missing(cid):
        pytest.skip(f"{cid} needs {default_ledger().get(cid).data}, absent here")
    assert rows[0]["status"] == "refuted", rows


def _data_missing(cid: str) -> bool:
    """The real data set (file or folder) a claim depends on is not in the data directory."""
    from privlab._data import data_dir

    name = default_ledger().get(cid).data
    d = data_dir()
    return name is not None and (d is None or not (d / name).exists())


@pytest.mark.slow
@pytest.mark.parametrize(("cid", "mutant"), _mutant_cases(True),
                         ids=lambda x: x if isinstance(x, str) else "")
def test_each_mutant_of_slow_claims_is_refuted(cid: str, mutant: Mutant) -> None:
    rows = run_mutants(Claim(id=cid, source="", statement="", check=None, mutants=(mutant,)))
    assert rows[0]["status"] == "refuted", rows


@pytest.mark.slow
def test_no_verified_or_confirmed_claim_without_a_refuted_mutant() -> None:
    """The whole quick ledger: every verified/confirmed claim carries a refuted mutant (the
    ledger downgrades the others, which must then say why); every refutation has a kind."""
    for o in default_ledger().run(quick=True):
        d = o.to_dict()
        if d["status"] in ("verified", "confirmed"):
            assert any(a["status"] == "refuted" for a in d["able_to_fail"]), d["id"]
        if d["status"] == "inconclusive" and not d["able_to_fail"] and d["method"]:
            assert d["evidence"].get("reason") or d["evidence"].get("error"), d["id"]
        if d["status"] in ("refuted", "finding (extension)"):
            assert d["kind"] and d["severity"], d["id"]
        assert d["scope"] is not None, d["id"]


def test_coverage_lists_every_numbered_item() -> None:
    """Every numbered item of the seeds has a ledger entry or a not-checkable reason; an item
    with neither is reported missing (shown with a fake item)."""
    from privlab.proofs import coverage as cov

    led = default_ledger()
    rows = cov.coverage_rows(led.claims(), led.tables())
    assert cov.missing(rows) == []
    vp1 = next(r for r in rows if r["seed"] == "vldb14" and r["item"] == "Proposition 1")
    assert vp1["covered_by"] == ["vldb14:prop-1"]
    fake = cov.coverage_rows([], {})
    assert "thesis Theorem 3" in cov.missing(fake)


def test_covers_name_numbered_items_and_count() -> None:
    """A claim filed under another id covers the items its ``covers`` lists (and only when the
    claim itself is given, not its bare id); every entry names an item of the seed."""
    from privlab.proofs import coverage as cov

    led = default_ledger()
    assert cov.unknown_covers(led.claims()) == []
    assert cov.unknown_covers([_claim(_true, covers=("thesis:Definition 99",))]) == \
        ["thesis:Definition 99"]

    def row(rows: list[dict], seed: str, item: str) -> dict:
        return next(r for r in rows if r["seed"] == seed and r["item"] == item)

    rows = cov.coverage_rows(led.claims(), led.tables())
    assert row(rows, "vldb14", "Proposition 2")["covered_by"] == ["thesis:prop-7-only-if",
                                                                  "vldb14:prop-2"]
    assert row(rows, "thesis", "Definition 13")["covered_by"] == ["thesis:prop-6"]
    by_id = cov.coverage_rows(led.ids(), led.tables())
    assert row(by_id, "thesis", "Definition 13")["why"] == "missing"
    one = cov.coverage_rows([_claim(_true, covers=("thesis:Definition 13",))], {})
    assert row(one, "thesis", "Definition 13")["covered_by"] == ["test:x"]
