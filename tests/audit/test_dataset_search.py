"""Neighbour search for data-set inputs (issue 15 item 5): ``audit_mechanism(...,
neighbours="search", domain=...)`` on the lab's releases (thesis §6.3)."""

from __future__ import annotations

import numpy as np
import pytest

from privlab.audit import audit_mechanism
from privlab.audit.datasets import dataset_candidates, parse_domain, table_features
from privlab.audit.release_audit import certified_epsilon
from privlab.errors import InvalidParameter
from privlab.mechanisms.releases.numerical import DPRelease


def _is_substitution(x: np.ndarray, xp: np.ndarray) -> bool:
    return x.shape == xp.shape and int((x != xp).any(axis=1).sum()) == 1


def _is_add_remove(x: np.ndarray, xp: np.ndarray) -> bool:
    small, big = (x, xp) if len(x) < len(xp) else (xp, x)
    if len(big) != len(small) + 1:
        return False
    return any(np.array_equal(np.delete(big, i, axis=0), small) for i in range(len(big)))


@pytest.mark.parametrize("relation", ["substitute", "add_remove", "both"])
def test_candidates_are_neighbours_of_the_asked_relation(relation: str) -> None:
    cands = dataset_candidates([(0.0, 1.0), (-2.0, 2.0)], size=6, k=2, relation=relation,
                               rng=0, limit=60)
    assert cands
    kinds = {"sub": 0, "ar": 0}
    for x, xp, _ in cands:
        assert x.shape[1] == 2 and ((x >= [0, -2]) & (x <= [1, 2])).all()
        assert ((xp >= [0, -2]) & (xp <= [1, 2])).all()
        if _is_substitution(x, xp):
            kinds["sub"] += 1
        else:
            assert _is_add_remove(x, xp), (x, xp)
            kinds["ar"] += 1
    assert (kinds["sub"] > 0) == (relation != "add_remove")
    assert (kinds["ar"] > 0) == (relation != "substitute")
    labels = " ".join(lab for _, _, lab in cands)
    for word in ("ties of 2", "extremes", "corner", "tie", "record 1", "record 2"):
        assert word in labels  # ties, extremes, cluster boundaries (k - 1, k) are all tried


def test_bad_domain_and_size() -> None:
    for d in [(1.0, 0.0), (0.0,), [(0, 1), (2, 2)], "x"]:
        with pytest.raises(InvalidParameter, match="domain"):
            parse_domain(d)
    with pytest.raises(InvalidParameter, match="size"):
        dataset_candidates((0, 1), size=1)


def test_table_features_read_the_tie_structure() -> None:
    out = np.array([[[1.0], [1.0], [2.0]], [[1.0], [2.0], [2.0]]])  # two releases, 3 rows
    f = table_features(out, 4)
    assert f[:, 0].tolist() == [3, 3]
    assert f[0, 1:5].tolist() == [0, 0, 2, -1] and f[1, 1:5].tolist() == [0, 1, 1, -1]


def test_search_finds_the_structural_leak_of_aligned_shared_noise() -> None:
    rel = DPRelease(rows="aligned", noise="shared", k=2)
    assert certified_epsilon(rel.config(6, 1)) is None  # the ledger: eps = inf
    r = audit_mechanism(rel, samples=10_000, neighbours="search", domain=(0.0, 1.0),
                        claimed_epsilon=1.0, rng=0)
    assert r.verdict == "violation" and r.structural_leak
    assert r.confirmation is not None and r.confirmation["verdict"] == "violation"
    searched = [p for p in r.pairs if "searched" in p]
    assert len(searched) > 1
    # a pair that leaves the partition alone (record 0 moved inside its own cluster) does
    # not show the leak: the search, not luck, found the pair above
    x = [[0.0], [0.2], [0.4], [0.6], [0.8], [1.0]]
    xp = [[0.1], [0.2], [0.4], [0.6], [0.8], [1.0]]
    r1 = audit_mechanism(rel, samples=10_000, neighbours=[(x, xp)], domain=(0.0, 1.0),
                         claimed_epsilon=1.0, rng=0)
    assert not r1.structural_leak and r1.verdict == "consistent"


def test_no_false_alarm_on_a_certified_configuration() -> None:
    rel = DPRelease(rows="shuffled", noise="shared", k=2)
    eps = certified_epsilon(rel.config(6, 1))
    assert eps is not None
    for seed in (0, 1):
        r = audit_mechanism(rel, samples=10_000, neighbours="search", domain=(0.0, 1.0),
                            claimed_epsilon=eps, rng=seed)
        assert r.verdict == "consistent" and not r.structural_leak
        assert r.epsilon_lower_bound > 0  # the search did find a pair that loses privacy
