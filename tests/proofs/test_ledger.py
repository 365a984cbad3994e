"""The ledger: collection, robust loading, statuses of deliberately true/false/broken claims,
quick mode, progress, and the JSON contract of DESIGN.md §4."""

from __future__ import annotations

import json

import pytest

from privlab.errors import InvalidParameter
from privlab.proofs import default_ledger
from privlab.proofs.ledger import LOAD_ERROR_PREFIX, SKIPPED_QUICK, Ledger
from privlab.types import CheckResult, Claim, Method, Mutant, Proof, Status, Table

KEYS = {"id", "source", "statement", "status", "method", "evidence", "counterexample", "value",
        "notes", "seconds", "scope", "bounded", "kind", "severity", "severity_rank", "loss",
        "weakest", "paper_parameters", "able_to_fail", "data"}


def _false_claim() -> Claim:
    def check() -> CheckResult:
        # 2**10 vs a wrong "printed" value 1000: computed here, not copied
        value = 2**10
        return CheckResult(holds=value == 1000, claim="2^10 = 1000", value=value,
                           method=Method.EXACT, counterexample={"2^10": value})

    return Claim(id="test:false", source="test", statement="2^10 = 1000", check=check)


def _true_claim() -> Claim:
    # issue 14: a verified claim must show its checker can fail — its mutant 2^10 = 1000
    mutant = Mutant(kind="constant", description="2^10 = 1000", check=_false_claim().check)
    return Claim(id="test:true", source="test", statement="2^10 = 1024",
                 check=lambda: CheckResult(holds=2**10 == 1024, claim="2^10 = 1024",
                                           method=Method.EXACT), mutants=(mutant,),
                 proof=Proof(kind="exact-decision", argument="2^10 computed exactly"))


def _raising_claim() -> Claim:
    def check() -> CheckResult:
        raise ZeroDivisionError("boom")

    return Claim(id="test:raises", source="test", statement="raises", check=check)


def _slow_claim() -> Claim:
    return Claim(id="test:slow", source="test", statement="slow", slow=True,
                 check=lambda: CheckResult(holds=True, claim="slow", method=Method.NUMERIC),
                 mutants=(Mutant(kind="constant", description="2^10 = 1000",
                                 check=_false_claim().check),))


def _test_ledger(*claims: Claim, modules: tuple[str, ...] = ()) -> Ledger:
    table = Table(id="t-1", source="test", columns=("a",), rows=({"a": 1},))
    return Ledger(modules, extra_claims=claims, extra_tables={"t-1": lambda: table})


def test_statuses_of_true_false_raising_and_malformed_claims():
    bad_type = Claim(id="test:bad-type", source="test", statement="returns a bool",
                     check=lambda: True)
    led = _test_ledger(_true_claim(), _false_claim(), _raising_claim(), bad_type)
    out = {o.claim.id: o for o in led.run()}
    assert out["test:true"].status is Status.VERIFIED
    assert out["test:false"].status is Status.REFUTED
    assert out["test:false"].to_dict()["counterexample"] == {"2^10": 1024}
    assert out["test:raises"].status is Status.INCONCLUSIVE
    assert out["test:raises"].result is None
    assert "ZeroDivisionError: boom" in out["test:raises"].error
    assert "ZeroDivisionError" in out["test:raises"].to_dict()["evidence"]["error"]
    assert out["test:bad-type"].status is Status.INCONCLUSIVE
    assert "not CheckResult" in out["test:bad-type"].error


def test_quick_skips_slow_claims_and_progress_is_reported():
    led = _test_ledger(_true_claim(), _slow_claim())
    seen = []
    out = led.run(quick=True, progress=lambda i, n, cid: seen.append((i, n, cid)))
    assert seen == [(1, 2, "test:true"), (2, 2, "test:slow")]
    slow = out[1]
    assert slow.status is Status.SKIPPED and slow.reason == SKIPPED_QUICK
    assert slow.to_dict()["evidence"] == {"reason": SKIPPED_QUICK}
    assert led.run(["test:slow"])[0].status is Status.CONFIRMED


def test_module_that_fails_to_import_becomes_an_error_entry():
    led = _test_ledger(_true_claim(), modules=("privlab.proofs.no_such_module",))
    ids = led.ids()
    assert "test:true" in ids
    entry = f"{LOAD_ERROR_PREFIX}privlab.proofs.no_such_module"
    assert entry in ids
    (outcome,) = led.run([entry])
    assert outcome.status is Status.INCONCLUSIVE
    assert "ModuleNotFoundError" in outcome.error
    assert led.load_errors[0].module == "privlab.proofs.no_such_module"


def test_duplicate_ids_are_reported():
    led = _test_ledger(_true_claim(), _true_claim())
    assert [e.error for e in led.load_errors] == [
        "duplicate claim id 'test:true' (also in <extra>)"]
    assert led.ids().count("test:true") == 1


def test_unknown_ids_raise_with_the_known_ones():
    led = _test_ledger(_true_claim())
    with pytest.raises(InvalidParameter, match=r"nope.*known ids: test:true"):
        led.get("nope")
    with pytest.raises(InvalidParameter, match="known ids: t-1"):
        led.table("thesis-9.9")
    with pytest.raises(InvalidParameter, match="unknown"):
        led.run(["nope"])


def test_to_dict_contract_and_json():
    led = _test_ledger(_true_claim(), _false_claim(), _raising_claim(), _slow_claim())
    dicts = [o.to_dict() for o in led.run(quick=True)]
    for d in dicts:
        assert set(d) == KEYS
        assert d["status"] in {s.value for s in Status}
    text = json.dumps(dicts)
    assert json.loads(text)[1]["status"] == "refuted"
    assert led.table("t-1").rows == ({"a": 1},)


def test_default_ledger_collects_ch4_without_load_errors():
    led = default_ledger()
    assert led.load_errors == ()
    ids = led.ids()
    assert len(ids) == len(set(ids))
    for cid in ("thesis:def-6", "thesis:thm-1", "thesis:thm-2", "thesis:table-4.1",
                "thesis:table-4.2", "thesis:sec-4.4-fig-4.3-minimum"):
        assert cid in ids
    assert {"thesis-4.1", "thesis-4.2"} <= set(led.tables())
    assert led.get("thesis:lemma-2").source.startswith("000_65177858bc9aa63c.txt §4.4")


def test_bounded_exhaustive_claim_is_confirmed_not_verified():
    """A universal statement checked exactly on finitely many instances is *confirmed*; the
    same check on an unbounded claim stays verified (status_of of the result)."""
    from privlab.proofs.ledger import BOUNDED, run_claim
    from privlab.types import CheckResult, Claim, Method, Mutant, Status

    def check():
        return CheckResult(holds=True, claim="x", method=Method.EXHAUSTIVE)

    def mutant_check():
        return CheckResult(holds=False, claim="x", method=Method.EXHAUSTIVE,
                           counterexample={"n": 0})

    kw = {"id": "t:x", "source": "s", "statement": "for all n", "check": check,
          "mutants": (Mutant(kind="constant", description="m", check=mutant_check),),
          "proof": Proof(kind="exhaustive", argument="every n of the finite domain")}
    assert run_claim(Claim(**kw)).status is Status.VERIFIED
    out = run_claim(Claim(**kw, bounded=True))
    assert out.status is Status.CONFIRMED
    assert out.to_dict()["evidence"]["reason"].startswith(BOUNDED)
