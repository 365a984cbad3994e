"""privlab.proofs.thesis.sec62_insensitivity: insensitive microaggregation (thesis §6.2–6.3.3,
vldb14 §3, irm §3.1): claims load, give the documented statuses, and run the declared grids."""

from __future__ import annotations

import inspect

import pytest

from privlab.proofs.ledger import Ledger
from privlab.proofs.parameters import paper_values
from privlab.proofs.thesis import sec62_insensitivity as s62
from privlab.proofs.verdict import form_problems, grid_gaps
from privlab.verify.microaggregation.insensitivity import check_insensitive

MOD = "privlab.proofs.thesis.sec62_insensitivity"
IDS = ("thesis:def-12", "thesis:prop-6", "vldb14:prop-1", "vldb14:prop-2",
       "thesis:prop-6-fixed-ends", "thesis:prop-7", "thesis:prop-7-only-if",
       "thesis:sec-6.3.3-hamming", "irm:lemma-1-adversarial",
       "thesis:sec-6.3.1-centroid-list-adversarial")
DECLARED = ("thesis:def-12", "thesis:prop-6-fixed-ends", "irm:lemma-1-adversarial",
            "thesis:sec-6.3.1-centroid-list-adversarial", "thesis:prop-7", "vldb14:prop-2")


def _claim(cid: str):
    return next(c for c in s62.CLAIMS if c.id == cid)


def test_module_loads() -> None:
    led = Ledger([MOD])
    assert not led.load_errors
    assert tuple(c.id for c in led.claims()) == IDS
    assert s62.TABLES == {}


@pytest.mark.parametrize("cid", IDS)
def test_claims_are_well_formed(cid: str) -> None:
    assert form_problems(_claim(cid)) == ()


@pytest.mark.parametrize("cid", DECLARED)
def test_quantified_claims_declare_k_on_the_registry(cid: str) -> None:
    (p,) = _claim(cid).params
    assert p.name == "k" and p.registry == "k" and p.boundary == (1,)
    assert grid_gaps(_claim(cid)) == ()
    assert set(paper_values(cid, "k")) | {1} <= set(p.grid)  # registry and boundary k = 1


def _default(fn, name):
    return inspect.signature(fn).parameters[name].default


def test_declared_grids_are_the_ones_the_checks_run() -> None:
    def12 = _default(s62.check_def_12_mdav, "sensitive_ks")
    assert (_default(s62.check_def_12_mdav, "insensitive_k"), *def12) == \
        _claim("thesis:def-12").params[0].grid
    assert _default(s62.check_prop_6_fixed, "ks") == \
        _claim("thesis:prop-6-fixed-ends").params[0].grid
    assert tuple(sorted({k for _, k in _default(s62.check_irm_lemma_1, "cases")})) == \
        _claim("irm:lemma-1-adversarial").params[0].grid
    assert _default(s62.check_multivariate_scale, "ks") == \
        _claim("thesis:sec-6.3.1-centroid-list-adversarial").params[0].grid
    assert _claim("thesis:prop-7").check is s62.check_prop_7_if
    assert _default(s62.check_prop_7_if, "ks") == _claim("thesis:prop-7").params[0].grid
    assert _claim("vldb14:prop-2").check is s62.check_vldb14_prop_2
    assert _default(s62.check_vldb14_prop_2, "ks") == _claim("vldb14:prop-2").params[0].grid


@pytest.mark.parametrize("cid, status", [
    ("thesis:prop-6", "refuted"),
    ("thesis:prop-7-only-if", "refuted"),  # k = 1
    ("thesis:sec-6.3.3-hamming", "confirmed"),  # bounded check
    ("thesis:def-12", "confirmed"),  # bounded check
])
def test_claim_status(cid: str, status: str) -> None:
    (out,) = Ledger([MOD]).run([cid])
    assert out.status.value == status, out.to_dict()


@pytest.mark.parametrize("k", [2, 3, 5, 30, 300])
def test_mdav_witness_breaks_mdav_only(k: int) -> None:
    """The pair 0^k 1^(k+1) → 0^k 1^k 2 has no cluster bijection under MDAV; under insensitive
    MDAV (a fixed order) it has one."""
    x, xp = s62.mdav_witness(k)
    assert len(x) == len(xp) == 2 * k + 1
    assert check_insensitive("mdav", x, xp, k=k).holds is False
    assert check_insensitive("insensitive-mdav", x, xp, k=k, bounds=[0, 2]).holds is True


def test_def_12_mutants_are_caught() -> None:
    assert s62.check_def_12_mdav(sensitive_ks=(1,)).holds is False
    assert s62.check_def_12_mdav(sensitive_ks=(), insensitive_k=2).holds is False


def test_irm_lemma_1_factor_mutant_is_caught() -> None:
    assert s62.check_irm_lemma_1(bound_factor=0.5, cases=((4, 2),)).holds is False
    assert s62.check_irm_lemma_1(cases=((3, 1), (4, 2))).holds is True


def test_multivariate_scale_fails_from_k_2() -> None:
    res = s62.check_multivariate_scale(ks=(1, 2))
    per = res.evidence["per_k"]
    assert per[1]["ratio_to_bound"] <= 1 + 1e-9 and per[2]["ratio_to_bound"] > 1
    assert res.holds is False and res.counterexample["k"] == 2


# ---- Proposition 7 (⇐) / vldb14 Proposition 2 at the seeds' k (issue 30) ----------------------
@pytest.fixture(scope="module")
def prop_7_outcomes():
    return {o.claim.id: o for o in Ledger([MOD]).run(["thesis:prop-7", "vldb14:prop-2"])}


@pytest.mark.parametrize("cid", ["thesis:prop-7", "vldb14:prop-2"])
def test_prop_7_runs_every_k_of_its_declared_grid(prop_7_outcomes, cid: str) -> None:
    """The evidence lists a run at each declared k — sampled pairs for every algorithm, and
    the exhaustive search at k = 1, 2, 3 — and nothing else; the claim stays confirmed."""
    out = prop_7_outcomes[cid]
    assert out.status.value == "confirmed", out.to_dict()
    grid = _claim(cid).params[0].grid
    ev = out.result.evidence
    assert tuple(ev["k_grid"]) == grid and tuple(ev["per_k"]) == grid
    assert ev["searched_k"] == [1, 2, 3]
    for k, row in ev["per_k"].items():
        assert set(row) == set(s62.PROP7_ALGORITHMS)
        for a in row.values():
            assert a["insensitive"] and a["sampled_pairs"] > 0
            assert ("searched_pairs" in a) == (k in (1, 2, 3))
    able = out.to_dict()["able_to_fail"]
    assert len(able) == 2 and all(m["status"] == "refuted" for m in able)


def test_sampled_sizes_cover_the_cluster_regimes() -> None:
    assert s62.sampled_sizes(1) == (1, 2, 3, 4, 7)
    assert s62.sampled_sizes(100) == (100, 199, 200, 300, 301, 502)


def test_clusters_match_is_the_decision_of_clusters_correspond() -> None:
    """The fast decision agrees with the library's on random small neighbouring pairs of
    algorithms that fail Definition 12 (MDAV, the literal reading, the preorder control) and
    of the fixed-order ones; some pairs fail, so both outcomes are compared."""
    import numpy as np

    from privlab.mechanisms.microaggregation import labeler
    from privlab.verify.microaggregation.insensitivity import clusters_correspond

    algs = ("mdav", "insensitive-mdav-literal", "preorder-control", "individual-ranking",
            "insensitive-corners", "insensitive-mdav")
    rng = np.random.default_rng(3)
    outcomes = []
    for i in range(600):
        fn = labeler(algs[i % len(algs)])
        k = int(rng.integers(1, 4))
        n, m = int(rng.integers(k, 4 * k + 3)), int(rng.integers(1, 3))
        x = rng.integers(0, 3, (n, m)).astype(float)
        xp = x.copy()
        xp[rng.integers(n)] = rng.integers(0, 3, m)
        b = np.array([[0.0, 2.0]] * m)
        la, lb = fn(x, k, b), fn(xp, k, b)
        got = s62.clusters_match(x, la, xp, lb)
        assert got == clusters_correspond(x, la, xp, lb)["holds"], (algs[i % len(algs)], x, xp)
        outcomes.append(got)
    assert True in outcomes and False in outcomes


def test_sampled_pairs_catch_mdav_at_a_registry_k() -> None:
    """The sampled pairs can fail: MDAV (orders chosen from the data) at vldb14's k = 500; the
    counterexample is rebuilt from its seed and decided by check_insensitive."""
    import numpy as np

    res = s62.check_prop_7_if(ks=(500,), algorithms=("mdav",), searched=())
    assert res.holds is False
    cx = res.counterexample
    assert cx["algorithm"] == "mdav" and cx["k"] == 500
    rng = np.random.default_rng(cx["seed"])
    x, b = s62._sampled_data(rng, cx["data"], cx["n"], cx["m"])
    subs = {how: (row, new) for how, row, new in s62._substitutions(rng, x, cx["data"], b)}
    row, new = subs[cx["substitution"]]
    xp = x.copy()
    xp[row] = new
    assert row == cx["row"] and new.tolist() == cx["new"]
    assert check_insensitive("mdav", x, xp, k=500, bounds=b).holds is False
    assert check_insensitive("insensitive-mdav", x, xp, k=500, bounds=b).holds is True
