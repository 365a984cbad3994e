"""irm §3.1 Lemma 1 with the clusters of the optimal partition
(privlab.proofs.thesis.irm_sec31)."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from privlab.errors import InvalidParameter
from privlab.proofs import default_ledger
from privlab.proofs.ledger import run_claim
from privlab.proofs.thesis import irm_sec31 as irm
from privlab.proofs.verdict import form_problems
from privlab.types import Status

F = Fraction


def _compositions(n: int, sizes: range) -> list[tuple[int, ...]]:
    if n == 0:
        return [()]
    return [(s, *rest) for s in sizes if s <= n for rest in _compositions(n - s, sizes)]


def _brute(values: list[int | Fraction], k: int, shape: str
           ) -> tuple[Fraction, list[tuple[int, ...]]]:
    """Least SSE and every optimal partition, by enumerating every composition of n."""
    xs = sorted(values)
    n = len(xs)
    cands = _compositions(n, range(k, 2 * k))
    if shape == "lemma":
        cands = [c for c in cands if len(c) == n // k and irm.lemma_shaped(c, k)]

    def sse(c: tuple[int, ...]) -> Fraction:
        out, i = F(0), 0
        for s in c:
            g = xs[i:i + s]
            m = F(sum(g), s)
            out += sum((x - m) ** 2 for x in g)
            i += s
        return out

    costs = {c: sse(c) for c in cands}
    best = min(costs.values())
    return best, [c for c, v in costs.items() if v == best]


@pytest.mark.parametrize("shape", irm.SHAPES)
def test_programme_matches_enumeration(shape: str) -> None:
    """The dynamic programme's SSE, count of optima and chosen partition agree with a plain
    enumeration of every composition (seeded random multisets, integer and fractional)."""
    rng = random.Random(31)
    for _ in range(300):
        k = rng.randint(1, 4)
        n = rng.randint(k, 11)
        vals: list[int | Fraction] = [rng.randint(0, 5) for _ in range(n)]
        if rng.random() < 0.3:
            vals = [F(v, rng.randint(1, 3)) for v in vals]
        opt = irm.optimal_partition(vals, k, shape=shape)
        best, argmins = _brute(vals, k, shape)
        assert opt.sse == best, (vals, k)
        assert opt.count == len(argmins), (vals, k)
        assert opt.sizes in argmins
        assert opt.centroids == irm.centroids(sorted(vals), opt.sizes)


def test_brief_witness_reproduced_exactly() -> None:
    """k = 3, Δ = 4: 0 0 0 2 2 4 4 → 0 0 2 2 4 4 4 (one 0 replaced by 4).  By hand: X's SSE is
    4 for (3, 4) against 17/3 for (4, 3); X′'s is 4 for (4, 3) against 17/3 for (3, 4)."""
    x, y = [0, 0, 0, 2, 2, 4, 4], [0, 0, 2, 2, 4, 4, 4]
    ox, oy = irm.optimal_partition(x, 3), irm.optimal_partition(y, 3)
    assert (ox.sizes, ox.sse, ox.count) == ((3, 4), F(4), 1)
    assert (oy.sizes, oy.sse, oy.count) == ((4, 3), F(4), 1)
    assert ox.centroids == (F(0), F(3)) and oy.centroids == (F(1), F(4))
    p = irm.pair(x, y, 3, 4)
    for shape in irm.SHAPES:
        assert p[shape]["judged"] and p[shape]["l1"] == 2 and p[shape]["ratio"] == F(3, 2)
    # individual ranking on the same pair: (0, 3) → (2/3, 7/2), within Δ/k = 4/3
    assert p["ranked"]["centroids"] == ((F(0), F(3)), (F(2, 3), F(7, 2)))
    assert p["ranked"]["l1"] == F(7, 6) <= F(4, 3)


def test_exhaustive_worst_and_control() -> None:
    """The worst ratios per (k, n) of the search on {0..4}; individual ranking (the control)
    never exceeds Δ/k and attains it."""
    rows = {(r["k"], r["n"]): r for r in (irm.exhaustive(k, n) for k in (1, 2, 3)
                                          for n in range(k, 9))}
    assert rows[2, 5]["free_worst_ratio"] == F(4, 3)
    assert rows[2, 7]["free_worst_ratio"] == 2 == rows[2, 7]["lemma_worst_ratio"]
    assert rows[2, 7]["free_witness"]["x"] == (0, 0, 0, 0, 4, 4, 4)
    assert rows[2, 7]["free_witness"]["sizes"] == ((2, 2, 3), (3, 2, 2))
    assert rows[3, 7]["free_worst_ratio"] == F(3, 2)
    assert rows[3, 8]["free_worst_ratio"] == F(9, 5)
    assert max(r["ranked_worst_ratio"] for r in rows.values()) == 1
    assert all(r["free_worst_ratio"] <= 1 for (k, _), r in rows.items() if k == 1)
    assert all(r["pairs"] == r["judged"] + r["ambiguous"] + r["outside_hypothesis"]
               for r in rows.values())


def test_family_2k_plus_1_is_2k_over_k_plus_1() -> None:
    """The family's worst is 2k/(k + 1) and equals the exhaustive worst at n = 2k + 1 (the
    family's values {0, v, 4} lie in the search's {0..4})."""
    for k in (2, 3, 4, 5, 10):
        f = irm.family_2k_plus_1(k)
        assert f["ratio"] == F(2 * k, k + 1) == f["general_programme_ratio"]
        assert f["witness"]["counts"] == ((k, 2, k - 1), (k - 1, 2, k))
        assert f["control_ratio"] <= 1
    assert irm.family_2k_plus_1(2)["ratio"] == irm.exhaustive(2, 5)["free_worst_ratio"]
    assert irm.family_2k_plus_1(3)["ratio"] == irm.exhaustive(3, 7)["free_worst_ratio"]
    one = irm.family_2k_plus_1(1)
    assert one["forced"] and one["ratio"] == 1


def test_family_4k_minus_1_moves_by_the_whole_range() -> None:
    for k in (1, 2, 5):
        t = irm.family_4k_minus_1(k)
        assert t["free"]["unique"] == (True, True)
        assert t["free"]["sizes"] == (((k, k, 2 * k - 1), (2 * k - 1, k, k)) if k > 1
                                      else ((1, 1, 1), (1, 1, 1)))
        assert t["free"]["ratio"] == k == t["lemma"]["ratio"]
        assert t["control_ratio"] == 1


def test_claim_is_refuted_with_its_witness() -> None:
    claim = next(c for c in irm.CLAIMS if c.id == "irm:lemma-1-optimal-partition")
    assert form_problems(claim) == ()
    out = run_claim(claim)
    assert out.status is Status.REFUTED
    assert out.to_dict()["kind"] == "false-statement"
    res = out.result
    assert res is not None and res.decided
    assert res.value["worst_ratio"] > 1
    assert res.value["family_2k_plus_1"][100] == F(200, 101)
    assert res.value["family_4k_minus_1"][100] == 100
    cex = res.counterexample
    assert (cex["k"], cex["x"], cex["y"], cex["l1"], cex["ratio"]) == \
        (2, (0, 0, 0, 0, 4, 4, 4), (0, 0, 0, 4, 4, 4, 4), 4, 2)
    ctrl = res.evidence["control_individual_ranking"]
    assert ctrl["holds"] and ctrl["worst_ratio"] == 1
    assert res.evidence["no_pair_exceeds_k"]


def test_checker_can_say_holds() -> None:
    """At k = 1 alone (forced partition) the same checker finds the bound kept."""
    res = irm.check_lemma_1_optimal(ks=(1,), exhaustive_ks=(1,), max_n=5)
    assert res.holds and res.decided and res.counterexample is None


def test_claim_in_the_default_ledger() -> None:
    led = default_ledger()
    assert led.load_errors == ()
    claim = led.get("irm:lemma-1-optimal-partition")
    assert "irm:Lemma 1" in claim.covers
    assert claim.scope is not None and claim.scope.neighbour == "substitute"


def test_bad_input_is_refused() -> None:
    with pytest.raises(InvalidParameter, match="--k=3"):
        irm.optimal_partition([1, 2], 3)
    with pytest.raises(InvalidParameter, match="--shape=x"):
        irm.optimal_partition([1, 2], 1, shape="x")
