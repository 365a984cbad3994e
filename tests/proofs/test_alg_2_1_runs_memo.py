"""``check_alg_2_1`` computes its random runs (fast MDAV sizes, fast vs literal partitions)
once per process (``_mdav_runs``, shared by the claim and its mutant); the former body is
kept here as the oracle: same CheckResult for the claim and the mutant (``last_max=2``, still
refuted after the memo is filled), for other seeds and set counts (a memo keyed on fewer
inputs would answer another call), and a caller changing its result does not change the
memo's."""

from __future__ import annotations

from typing import Any

import numpy as np

from privlab.proofs.thesis import ch3
from privlab.types import CheckResult, Method


def old_check_alg_2_1(seed: int = 20261122, random_sets: int = 200, *, last_max: int = 1
                      ) -> CheckResult:
    from privlab.mechanisms.microaggregation.mdav_algorithm import mdav_labels
    from privlab.verify.microaggregation.reference import literal_mdav_labels, mdav_group_sizes

    arithmetic_bad = [(n, k) for k in range(1, 21) for n in range(k, 401)
                      for sz in (mdav_group_sizes(n, k),)
                      if not (all(s == k for s in sz[:-1]) and k <= sz[-1] <= 2 * k - last_max)]
    g = np.random.default_rng(seed)
    size_bad: list[dict[str, Any]] = []
    size_runs = 0
    for k in range(1, 9):
        for n in range(k, 61, 3):
            x = g.normal(size=(n, 2))
            for dist in ("standardised", "raw"):
                lab = mdav_labels(x, k, dist)
                sizes = np.bincount(lab).tolist()
                size_runs += 1
                if sizes != mdav_group_sizes(n, k):
                    size_bad.append({"n": n, "k": k, "distance": dist, "sizes": sizes})
    literal_bad: list[dict[str, Any]] = []
    for t in range(random_sets):
        n = int(g.integers(2, 31))
        k = int(g.integers(1, max(2, n // 2) + 1))
        m = int(g.integers(1, 4))
        x = g.normal(size=(n, m))
        dist = ("standardised", "raw")[t % 2]
        if ch3._partition(mdav_labels(x, k, dist)) != ch3._partition(
                literal_mdav_labels(x, k, dist)):
            literal_bad.append({"n": n, "k": k, "m": m, "distance": dist,
                                "x": x.round(6).tolist()})
    holds = not (arithmetic_bad or size_bad or literal_bad)
    cex = (size_bad or literal_bad or [{"n_k": arithmetic_bad[:1]}])[0] if not holds else None
    return CheckResult(
        holds=holds, claim="MDAV clusters have k records except the last (k … 2k − 1)",
        method=Method.SYMBOLIC, value={"sizes_checked": size_runs,
                                       "literal_agreements": random_sets - len(literal_bad)},
        evidence={"symbolic": "loop runs with r >= 3k and removes 2k; the extra step runs with "
                              "2k <= r < 3k; so the remainder r satisfies k <= r < 2k",
                  "arithmetic_pairs": sum(401 - k for k in range(1, 21)),
                  "arithmetic_failures": arithmetic_bad[:3],
                  "fast_vs_arithmetic_failures": size_bad[:3],
                  "fast_vs_literal_failures": len(literal_bad)},
        counterexample=cex)


def test_claim_and_mutant_equal_the_former_check() -> None:
    ch3._mdav_runs.cache_clear()
    for kw in ({}, {"last_max": 2}, {}, {"seed": 5, "random_sets": 30},
               {"seed": 5, "random_sets": 31, "last_max": 2}, {"seed": 6, "random_sets": 30}):
        got, want = ch3.check_alg_2_1(**kw), old_check_alg_2_1(**kw)
        assert got.to_dict() == want.to_dict()
    assert ch3.check_alg_2_1().holds and not ch3.check_alg_2_1(last_max=2).holds


def test_memo_returns_copies(monkeypatch) -> None:
    from privlab.mechanisms.microaggregation import mdav_algorithm

    def one_cluster(x, k, dist):  # a wrong labeler: runs with n >= 2k fail the sizes
        return np.zeros(len(x), dtype=np.int64)

    monkeypatch.setattr(mdav_algorithm, "mdav_labels", one_cluster)
    first = ch3.check_alg_2_1(seed=8, random_sets=3)
    assert not first.holds and first.counterexample["sizes"]
    want = first.to_dict()
    first.counterexample["sizes"].append(-1)  # a caller changing its result
    first.counterexample["k"] = -1
    assert ch3.check_alg_2_1(seed=8, random_sets=3).to_dict() == want
    for seed, sets in ((8, 4), (9, 3), (8, 3)):  # failing runs: every input shows
        assert (ch3.check_alg_2_1(seed=seed, random_sets=sets).to_dict()
                == old_check_alg_2_1(seed=seed, random_sets=sets).to_dict())


def test_memo_keyed_on_seed_and_sets(monkeypatch) -> None:
    from privlab.mechanisms.microaggregation import mdav_algorithm

    real = mdav_algorithm.mdav_labels

    def sometimes_wrong(x, k, dist):  # wrong on part of the data: counts depend on the draws
        return np.zeros(len(x), dtype=np.int64) if x[0, 0] > 0.5 else real(x, k, dist)

    monkeypatch.setattr(mdav_algorithm, "mdav_labels", sometimes_wrong)
    seen = set()
    for seed, sets in ((11, 40), (12, 40), (11, 41)):
        got = ch3.check_alg_2_1(seed=seed, random_sets=sets).to_dict()
        assert got == old_check_alg_2_1(seed=seed, random_sets=sets).to_dict()
        seen.add(repr(got))
    assert len(seen) == 3
