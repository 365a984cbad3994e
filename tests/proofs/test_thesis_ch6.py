"""Fast ledger claims of thesis ch.6 / vldb14 / irm (the slow ones run in the ledger), and the
exact instances that reach the seeds' own k (issue 30)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from privlab.proofs.ledger import run_claim
from privlab.proofs.parameters import paper_values
from privlab.proofs.thesis import ch6
from privlab.proofs.thesis.ch6 import CLAIMS
from privlab.proofs.verdict import form_problems, grid_gaps
from privlab.types import Status, status_of

BY_ID = {c.id: c for c in CLAIMS}
EXPECTED = {"thesis:prop-8": Status.REFUTED, "vldb14:prop-3": Status.REFUTED,
            "vldb14:alg-3": Status.REFUTED, "vldb14:sec-4-sqrt-n": Status.VERIFIED,
            "thesis:prop-9": Status.REFUTED, "vldb14:prop-4": Status.REFUTED,
            "thesis:eq-6.6": Status.VERIFIED, "thesis:sec-6.3-add-remove": Status.REFUTED}
MINE = ("thesis:prop-8", "vldb14:prop-3", "thesis:sec-6.3.1-univariate",
        "thesis:sec-6.3.1-noise-scale", "vldb14:sec-4-noise-scale", "vldb14:alg-3",
        "vldb14:sec-4-sqrt-n", "irm:lemma-1", "irm:lemma-3", "irm:sec-3.2-note",
        "thesis:sec-6.3-add-remove")


@pytest.mark.parametrize("claim", [c for c in CLAIMS if not c.slow and c.id in EXPECTED],
                         ids=lambda c: c.id)
def test_fast_claims(claim) -> None:
    assert status_of(claim.check()) is EXPECTED[claim.id]


def test_ids_unique() -> None:
    assert len({c.id for c in CLAIMS}) == len(CLAIMS)


@pytest.mark.parametrize("cid", MINE)
def test_claims_declare_their_parameters_on_the_seed_grid(cid: str) -> None:
    """Each claim declares k (and ε where the statement is about ε-DP) and its grid holds the
    seed's own values and the boundary cases (rule 4 of the verdict)."""
    claim = BY_ID[cid]
    assert claim.params and form_problems(claim) == () and grid_gaps(claim) == ()
    names = {p.name for p in claim.params}
    assert "k" in names
    for p in claim.params:
        if p.registry and p.grid is not None:
            assert set(paper_values(cid, p.registry)) <= set(p.grid)


def test_prop_8_runs_at_every_k_of_its_grid_and_fails_for_k_at_least_2() -> None:
    claim = BY_ID["vldb14:prop-3"]
    ks = claim.params[0].grid or ()
    r = claim.check()
    assert set(r.evidence["by_k"]) == set(ks)
    # derived by hand: in the construction "last-moves" the moved record leaves the lower
    # cluster (all 0) for the upper one (all 1): its row moves by the whole range
    for k, row in r.evidence["by_k"].items():
        assert Fraction(row["row_change"]["last-moves"]) == 1
        assert row["holds"] is (k == 1)
    assert status_of(r) is Status.REFUTED and r.counterexample["k"] == 2


def test_scale_pair_loss_is_seven_quarters_at_every_k() -> None:
    """By hand: x's centroids (1/(2k), (k−1)/k), ((k−1)/k, 1/k), x′'s (0, 1), (1, 0); the best
    matching's L1 distance is 3/(2k) + 2/k = 7/(2k), over the scale m/(kε) = 2/(kε): 7/4·ε."""
    for k in (2, 5, 30):
        inst = ch6._scale_instance(k)
        assert Fraction(inst["matching_bound"]) == Fraction(7, 2 * k)
        assert inst["_exact"] == Fraction(7, 4) and inst["attained_at"] is not None


def test_univariate_instances_attain_delta_over_k() -> None:
    """The pair 'one record rising 0 → 1' at n = 2k changes the last cluster's centroid by
    1/k (derived), and nothing exceeds it (irm Lemma 1)."""
    for kind in ("insensitive-mdav", "individual-ranking"):
        for k in (1, 5, 25):
            inst = ch6._univariate_instances(kind, k)
            assert inst["_exact"]["centroids"] == Fraction(1, k)
            assert inst["_exact"]["weighted"] == 1


def test_univariate_mutant_is_caught_on_the_instances_alone() -> None:
    r = ch6._univariate("individual-ranking", (5,), bound_factor=Fraction(1, 2))
    assert status_of(r) is Status.REFUTED
    assert "k=5 (instances)" in r.counterexample["over_bound"]


def test_leaks_are_replayed_at_every_k() -> None:
    r = ch6.check_aligned_shared_leak((1, 2, 33), (0.1, 10.0))
    assert status_of(r) is Status.REFUTED
    assert r.evidence["leaking_k"] == [2, 33]
    assert r.evidence["by_k"][1]["holds_at_every_epsilon"]
    r = ch6.check_irm_lemma_3((1, 5), (1.0,))
    assert [mk for mk in r.evidence["leaking"]] == [(2, 5)]


def test_sqrt_n_is_verified_and_its_mutant_refuted() -> None:
    out = run_claim(BY_ID["vldb14:sec-4-sqrt-n"])
    assert out.status is Status.VERIFIED
    assert [a["status"] for a in out.able_to_fail] == ["refuted"]


def test_em_worst_loss_matches_the_per_pair_oracle() -> None:
    """sec634_em.worst_loss (vectorised over b, additive marginality) equals the loss of
    ExponentialCentroid.privacy_loss pair by pair (the former code, kept as the oracle)."""
    from privlab.mechanisms.microaggregation.semantic import ExponentialCentroid
    from privlab.mechanisms.microaggregation.taxonomy import project_taxonomy
    from privlab.proofs.thesis.sec634_em import worst_loss

    t = project_taxonomy("job")
    for eps, k in ((0.1, 3), (1.0, 30), (10.0, 300)):
        em = ExponentialCentroid(taxonomy=t, epsilon=eps)
        oracle = max(em.privacy_loss([a] * k, [b] + [a] * (k - 1))
                     for a in t.domain for b in t.domain)
        assert abs(worst_loss(eps, k)[0] - oracle) <= 1e-12 * max(1.0, oracle)


@pytest.mark.slow
@pytest.mark.parametrize("cid", [c for c in MINE if BY_ID[c].slow])
def test_slow_claims_keep_their_status(cid: str) -> None:
    expected = {"thesis:sec-6.3.1-univariate": Status.CONFIRMED,
                "thesis:sec-6.3.1-noise-scale": Status.REFUTED,
                "vldb14:sec-4-noise-scale": Status.CONFIRMED, "irm:lemma-1": Status.CONFIRMED,
                "irm:lemma-3": Status.REFUTED, "irm:sec-3.2-note": Status.CONFIRMED}
    assert run_claim(BY_ID[cid]).status is expected[cid]
