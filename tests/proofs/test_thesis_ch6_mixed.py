"""Ledger claims on the whole mixed release (privlab.proofs.thesis.ch6_mixed)."""

from __future__ import annotations

import math

import pytest

from privlab.proofs.thesis import ch6_mixed as mx
from privlab.proofs.thesis.ch6_mixed import CLAIMS, privlab_cases
from privlab.proofs.verdict import form_problems
from privlab.types import Status, status_of

BY_ID = {c.id: c for c in CLAIMS}


def test_thesis_algorithm_6_3_release_refuted_with_counterexample() -> None:
    r = BY_ID["thesis:sec-6.3.6-mixed-release"].check()
    assert status_of(r) is Status.REFUTED
    cex = r.counterexample["sweep"]
    assert cex["exact_loss"] > cex["epsilon"] and cex["p_x"] > 0 and cex["p_x_prime"] > 0
    # every data set of 5 records: within ε at the smallest ε (the factor 2 absorbs it) …
    assert r.evidence["cases"][0]["within_epsilon"]
    # … while the two-cluster pairs fail at ε = 1 already for k = 5 (thesis Tables 6.x)
    fam = {(p["epsilon"], p["k"]): p for p in r.evidence["pairs_by_k_and_epsilon"]}
    assert fam[(1.0, 5)]["exact_loss"] > 1.0 and fam[(1.0, 5)]["clusters_changed"] == 2


def test_vldb14_release_refuted_by_composition_only() -> None:
    r = BY_ID["vldb14:sec-4.6-mixed-release"].check()
    assert status_of(r) is Status.REFUTED
    three, one = r.evidence["cases"][:2]
    assert three["exact_loss"] > three["epsilon"] and three["certified_epsilon"] > 5
    assert one["within_epsilon"] and one["certificate_sound"]
    # one cluster changes; its three draws approach the bound 3·ε·k/n
    for p in r.evidence["pairs_by_k_and_epsilon"]:
        assert p["clusters_changed"] == 1
        assert p["exact_loss"] <= 3 * p["epsilon"] * p["k"] / p["n"] * (1 + 1e-9)


@pytest.mark.parametrize("rel_of, pair_of, k, eps", [
    (mx._thesis_rel, mx._thesis_pair, 2, 4.0), (mx._thesis_rel, mx._thesis_pair, 3, 1.0),
    (mx._vldb14_rel, mx._vldb14_pair, 2, 5.0)])
def test_two_cluster_loss_equals_the_enumerated_law(rel_of, pair_of, k, eps) -> None:
    """The product-law loss equals max_o |log P_x(o) − log P_x′(o)| over the enumerated law
    of the released multiset (verify.releases.mixed_exact.categorical_law)."""
    from privlab.verify.releases.mixed_exact import categorical_law

    rel = rel_of(k, eps)
    x, xp = pair_of(k)
    law_x, law_y = categorical_law(rel, x), categorical_law(rel, xp)
    oracle = max(abs(math.log(law_x[o]) - math.log(law_y[o])) for o in law_x)
    assert set(law_x) == set(law_y)
    assert math.isclose(mx._two_cluster_loss(rel, x, xp)["exact_loss"], oracle, rel_tol=1e-9)


@pytest.mark.parametrize("cid", ["thesis:sec-6.3.6-mixed-release",
                                 "vldb14:sec-4.6-mixed-release"])
def test_grid_is_what_the_check_runs(cid: str) -> None:
    claim = BY_ID[cid]
    eps, ks = (p.grid or () for p in claim.params)
    r = claim.check()
    ran = {(p["epsilon"], p["k"]) for p in r.evidence["pairs_by_k_and_epsilon"]}
    assert ran == {(e, k) for e in eps for k in ks if k >= 2}
    assert any(c["k"] == 1 for c in r.evidence["cases"])  # the boundary k = 1


def _wordnet_available() -> bool:
    from privlab.errors import InvalidParameter
    from privlab.mechanisms.microaggregation.taxonomy import named_taxonomy

    try:
        named_taxonomy(mx.WN_OCCUPATION)
    except InvalidParameter:
        return False
    return True


WN_ID = "thesis:sec-6.3.6-mixed-release-wordnet"
needs_wordnet = pytest.mark.skipif(not _wordnet_available(),
                                   reason="wordnet-3.0 absent (../shared/data or "
                                          "PRIVLAB_DATA_DIR)")


@pytest.fixture(scope="module")
def wordnet_run():
    return BY_ID[WN_ID].check()


@needs_wordnet
def test_thesis_release_on_wordnet_refuted_witness_recomputed(wordnet_run) -> None:
    """The weakest failing pair's loss recomputed; the n = 5 witness's log-ratio recomputed
    from the enumerated laws of the released multiset exceeds ε."""
    from privlab.mechanisms.microaggregation.taxonomy import named_taxonomy
    from privlab.verify.releases.mixed_exact import categorical_law

    r = wordnet_run
    assert status_of(r) is Status.REFUTED and r.evidence["data"]["path"] is not None
    tax = named_taxonomy(mx.WN_OCCUPATION)[0]
    w = r.counterexample["weakest_pair"]
    rel = mx._thesis_rel(w["k"], w["epsilon"], tax)
    x, xp = mx._thesis_pair(w["k"], w["a1"], w["a2"], w["b1"], w["replaced"])
    assert math.isclose(mx._two_cluster_loss(rel, x, xp)["exact_loss"], w["exact_loss"],
                        rel_tol=1e-12)
    assert w["exact_loss"] > w["epsilon"] and w["clusters_changed"] == 2
    # every (ε, k) of the grid before the weakest one holds
    fam = {(p["epsilon"], p["k"]): p for p in r.evidence["pairs_by_k_and_epsilon"]}
    assert all(p["exact_loss"] <= p["epsilon"] for (e, k), p in fam.items()
               if (e, k) < (w["epsilon"], w["k"]))
    # the exact law checker's witness (n = 5, k = 2): its log-ratio from the enumerated laws
    cex = r.counterexample["exact_law"]
    rel = mx._thesis_rel(2, cex["epsilon"], tax)
    other = [list(row) for row in cex["data"]]
    other[cex["record"]] = cex["replaced_by"]
    out = tuple((tuple(t), c) for t, c in cex["output"])
    lx, ly = categorical_law(rel, cex["data"]), categorical_law(rel, other)
    loss = abs(math.log(lx[out]) - math.log(ly[out]))
    assert math.isclose(loss, cex["exact_loss"], rel_tol=1e-9) and loss > cex["epsilon"]


@needs_wordnet
def test_wordnet_n5_sweep_bounds_the_pairs_and_its_witness_is_exact(wordnet_run) -> None:
    """The n = 5 sweep covers every data set, so its maximum is at least the k = 2 pair's;
    its worst neighbour's loss equals the enumerated law's; a sampled data set (a trial's
    witness) exceeds ε = 10 as well."""
    from privlab.mechanisms.microaggregation.taxonomy import named_taxonomy
    from privlab.verify.releases.mixed_exact import categorical_law

    tax = named_taxonomy(mx.WN_OCCUPATION)[0]
    fam = {(p["epsilon"], p["k"]): p for p in wordnet_run.evidence["pairs_by_k_and_epsilon"]}
    sweep = wordnet_run.evidence["sweep_n5_k2"]
    assert {s["epsilon"] for s in sweep} == set(BY_ID[WN_ID].params[0].grid or ())
    for s in sweep:
        assert s["data_sets"] == math.comb(14 + 5 - 1, 5)
        assert s["exact_loss"] >= fam[(s["epsilon"], 2)]["exact_loss"] * (1 - 1e-12)
        assert math.isclose(s["sweep_loss"], s["exact_loss"], rel_tol=1e-9)
    top = max(sweep, key=lambda s: s["epsilon"])
    rel = mx._thesis_rel(2, top["epsilon"], tax)
    lx, ly = categorical_law(rel, top["x"]), categorical_law(rel, top["x_prime"])
    oracle = max(abs(math.log(lx[o]) - math.log(ly[o])) for o in lx)
    assert math.isclose(oracle, top["exact_loss"], rel_tol=1e-9) and oracle > top["epsilon"]
    x = [["Machine-op-inspct"], ["Priv-house-serv"], ["Priv-house-serv"],
         ["Transport-moving"], ["Transport-moving"]]
    xp = [*x[:3], ["Exec-managerial"], x[4]]
    rel = mx._thesis_rel(2, 10.0, tax)
    lx, ly = categorical_law(rel, x), categorical_law(rel, xp)
    assert max(abs(math.log(lx[o]) - math.log(ly[o])) for o in lx) > 10.0


@needs_wordnet
def test_wordnet_pair_scan_matches_two_cluster_loss_and_law() -> None:
    """The scan's maximum equals the largest :func:`_two_cluster_loss` over every triple and
    both replacements, computed directly, and the enumerated law's at its pair."""
    import itertools

    from privlab.mechanisms.microaggregation.taxonomy import named_taxonomy
    from privlab.verify.releases.mixed_exact import categorical_law

    tax = named_taxonomy(mx.WN_OCCUPATION)[0]
    rel = mx._thesis_rel(2, 4.0, tax)
    best, scan = mx._best_thesis_pair(rel)
    direct = max(mx._two_cluster_loss(rel, *mx._thesis_pair(2, a1, a2, b1, out))["exact_loss"]
                 for a1, a2 in itertools.permutations(tax.domain, 2) for b1 in tax.domain
                 for out in (a1, a2) if b1 != out)
    assert math.isclose(scan, direct, rel_tol=1e-12)
    x, xp = mx._thesis_pair(2, *best)
    lx, ly = categorical_law(rel, x), categorical_law(rel, xp)
    oracle = max(abs(math.log(lx[o]) - math.log(ly[o])) for o in lx)
    assert math.isclose(oracle, scan, rel_tol=1e-9)


@needs_wordnet
def test_wordnet_grid_is_what_the_check_runs(wordnet_run) -> None:
    eps, ks = (p.grid or () for p in BY_ID[WN_ID].params)
    ran = {(p["epsilon"], p["k"]) for p in wordnet_run.evidence["pairs_by_k_and_epsilon"]}
    assert ran == {(e, k) for e in eps for k in ks if k >= 2}
    one = wordnet_run.evidence["k1_one_draw_bound"]
    assert {c["epsilon"] for c in one} == set(eps) and 1 in ks
    assert all(c["one_draw_bound"] <= c["epsilon"] for c in one)
    exact = [c for c in wordnet_run.evidence["cases"] if c["k"] == 1]
    assert exact and all(c["exact_loss"] <= c["epsilon"] for c in exact)


def test_wordnet_release_undecided_without_the_data(monkeypatch, tmp_path) -> None:
    monkeypatch.setenv("PRIVLAB_DATA_DIR", str(tmp_path))
    r = mx.check_thesis_mixed_wordnet()
    assert not r.decided and r.evidence["data"]["path"] is None
    assert status_of(r) is Status.INCONCLUSIVE


def test_privlab_certificate_confirmed_and_controls_caught() -> None:
    claim = BY_ID["privlab:mixed-release-certificate"]
    assert claim.bounded and status_of(claim.check()) is Status.VERIFIED
    controls = [c for c in privlab_cases() if c["case"].startswith("control")]
    assert len(controls) == 2 and not any(c["within_epsilon"] for c in controls)
    ran = {c["epsilon"] for c in privlab_cases() if not c["case"].startswith("control")}
    eps, ks = (p.grid or () for p in claim.params)
    assert ran == set(eps)
    assert {c["k"] for c in privlab_cases()} == set(ks)


def test_ids_unique_sources_and_form() -> None:
    assert len(BY_ID) == len(CLAIMS)
    assert all(c.source for c in CLAIMS)
    assert all(form_problems(c) == () for c in CLAIMS)


@needs_wordnet
def test_vldb14_release_on_wordnet_both_attributes_refuted() -> None:
    """Adult-Categorical on WordNet: at ε = 1, k = 33 (vldb14 §5) the two-cluster pair loses
    more than ε, both clusters change, and the per-attribute scan's value is the exact loss of
    the pair on the implementation's own clusters; one cluster (n = k) fails at every k, near
    2·ε at k = 33; k = 1 with n ≥ 2 stays below ε."""
    r = mx.check_vldb14_mixed_wordnet(ks=(1, 5, 33), epsilons=(1.0,))
    assert status_of(r) is Status.REFUTED
    fam = {p["k"]: p for p in r.evidence["pairs_by_k_and_epsilon"]}
    assert fam[5]["exact_loss"] < 1.0 < fam[33]["exact_loss"]
    for p in fam.values():
        assert p["clusters_changed"] == 2 and p["n"] == 2 * p["k"] + 1
        assert math.isclose(p["scan_loss"], p["exact_loss"], rel_tol=1e-9)
    one = {p["k"]: p for p in r.evidence["one_cluster"]}
    assert all(p["exact_loss"] > 1.0 for p in one.values())  # n = k: both draws spend ε
    assert one[33]["exact_loss"] > 1.99 and one[1]["rest_row"] is None
    assert r.evidence["k1_n2_bound"][0]["bound"] < 1.0
    assert r.evidence["taxonomies"]["wordnet-native-country"]["values"] == 41


def test_vldb14_wordnet_release_undecided_without_the_data(monkeypatch, tmp_path) -> None:
    monkeypatch.setenv("PRIVLAB_DATA_DIR", str(tmp_path))
    r = mx.check_vldb14_mixed_wordnet()
    assert not r.decided and status_of(r) is Status.INCONCLUSIVE
