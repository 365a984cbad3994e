"""Claim ledger: insensitive microaggregation (thesis §6.2–6.3.3, Definition 12, Propositions 6–7,
Algorithm 6.1; vldb14 §3 Propositions 1–2; irm §3.1 Lemma 1).

**Definition 12** (§6.2): a microaggregation function M is insensitive when for every pair
X, X′ of data sets that differ in one record there is a bijection between the clusters of M(X)
and of M(X′) under which corresponding clusters differ in at most one record.  Checker:
:func:`privlab.verify.microaggregation.insensitivity.check_insensitive` — exhaustive over
multisets on small grids, then hypothesis; a given pair is decided exactly (perfect matching).

* Definition 12 / Fig. 6.1: MDAV is not insensitive for k > 1.  The smallest counterexample
  of the exhaustive search is univariate: k = 2, X = {0, 0, 1, 1, 1} → X′ = {0, 0, 1, 1, 2};
  it generalises to X = 0^k 1^(k+1) → X′ = 0^k 1^k 2 for every k ≥ 2 (:func:`mdav_witness`).
  With k = 1 every cluster is one record, so changing one record changes one cluster.
* Proposition 6 ("MDAV with a distance consistent with a total order is insensitive"; vldb14
  Proposition 1): on one attribute the Euclidean distance is consistent with the numerical
  order, and the example above is a counterexample — when 2k … 3k − 1 records remain, MDAV
  takes its last cluster at the end farther from the average, a data-dependent choice.  The
  proof's reading (clusters of k taken from the two ends of a fixed total order in a fixed
  pattern: insensitive MDAV, §6.3.2) is searched separately.
* Proposition 7 (Algorithm 6.1 is insensitive if and only if its orders are a fixed sequence
  of total orders; vldb14 Proposition 2): (⇐) is checked for one reference point, the Hamming
  corner sequence of §6.3.3 and individual ranking, for every k ≥ 1 the statement covers read
  at the seeds' k (:data:`THESIS_KS`, :data:`VLDB14_KS`): seeded random neighbouring pairs at
  each k (:func:`check_sampled_insensitive`, decided exactly by :func:`clusters_match`) and an
  exhaustive search at k = 1, 2, 3; (⇒) read literally fails at k = 1, and for
  k > 1 both ways of failing the condition (a data-dependent order, a preorder whose ties are
  broken by presentation) have concrete counterexample pairs.
* §6.3.3: the corner sequence starts at the lower and upper corners and each next corner is
  unused and at maximal Hamming distance from the previous one.
* Centroid lists (:func:`privlab.verify.microaggregation.centroid_sensitivity
  .check_centroid_sensitivity`, adversarial hill climbing on [0, 1]^m): irm Lemma 1 — the
  univariate (individual-ranking) centroid list moves by at most Δ/k in L1; §6.3.1 / Prop. 8 —
  the m·Δ/k scale for the multivariate insensitive-MDAV centroid list, which the search
  exceeds for m = 2 at every k ≥ 2 it runs.

The claims quantified over k run at the seeds' experimental k
(:data:`privlab.proofs.parameters.PAPER_PARAMETERS`; :data:`THESIS_KS`, :data:`VLDB14_KS`,
:data:`IRM_CASES`) and the boundary k = 1, and declare exactly those k as their grid; the
searches are bounded (small grids, hypothesis, sampled data sets), so a passing claim is
confirmed, not verified.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any

from privlab.proofs.setting import SUB, _p
from privlab.proofs.thesis.ch6_mutants import _lexicographic
from privlab.types import CheckResult, Claim, Conjunct, Method, Mutant, Param, Refutation

if TYPE_CHECKING:  # annotations only; numpy is imported when a check runs
    import numpy as np

F, IRM = "000_65177858bc9aa63c.txt", "004_e4358174ca440815.txt"


@cache
def _search(algorithm: str, k: int, ms: tuple[int, ...] = (1, 2), examples: int = 150
            ) -> CheckResult:
    from privlab.verify.microaggregation.insensitivity import check_insensitive

    return check_insensitive(algorithm, k=k, ms=ms, hypothesis_examples=examples)


THESIS_KS = (1, 2, 3, 5, 11, 12, 15, 25, 30, 100, 300)
"""The k of the searches and families below: the thesis's experimental k
(:data:`privlab.proofs.parameters.PAPER_PARAMETERS`) and k = 3."""


def mdav_witness(k: int) -> tuple[list[float], list[float]]:
    """The univariate pair X = 0^k 1^(k+1), X′ = 0^k 1^k 2 (one 1 replaced by 2).

    For k ≥ 2, n = 2k + 1 lies in [2k, 3k), so MDAV forms one cluster of the k records nearest
    to the record farthest from the mean and puts the rest in a second cluster.  X: the mean
    (k + 1)/(2k + 1) exceeds ½, so a 0 is farthest and the clusters are {0^k}, {1^(k+1)}.  X′:
    the 2 is at distance 3k/(2k + 1) from the mean (k + 2)/(2k + 1), a 0 at (k + 2)/(2k + 1) <
    3k/(2k + 1), so the clusters are {2, 1^(k−1)}, {0^k, 1}.  {1^(k+1)} differs from
    {2, 1^(k−1)} in two records and from {0^k, 1} in k ≥ 2, so no bijection of Definition 12
    exists: MDAV is not insensitive, for every k ≥ 2.  (k = 2 is the smallest counterexample of
    the exhaustive search.)"""
    return [0.0] * k + [1.0] * (k + 1), [0.0] * k + [1.0] * k + [2.0]


def check_def_12_mdav(*, sensitive_ks: tuple[int, ...] = THESIS_KS[1:],
                      searched_ks: tuple[int, ...] = (2, 3), insensitive_k: int = 1
                      ) -> CheckResult:
    """MDAV is not insensitive for each k of ``sensitive_ks``: the pair of
    :func:`mdav_witness` is decided exactly by
    :func:`~privlab.verify.microaggregation.insensitivity.check_insensitive`, and for the k of
    ``searched_ks`` a counterexample is also searched (exhaustive on small grids, then
    hypothesis).  MDAV is insensitive for ``insensitive_k`` (exhaustive search, n ≤ 4).  k = 1
    in ``sensitive_ks`` is decided by proof: every cluster is one record, so changing one
    record changes one cluster by one record.  Mutants move one conjunct's k."""
    from privlab.verify.microaggregation.insensitivity import check_insensitive

    witness = {}
    for k in sensitive_ks:
        if k > 1:
            x, xp = mdav_witness(k)
            witness[k] = check_insensitive("mdav", x, xp, k=k)
    res = {k: _search("mdav", k) for k in searched_ks if k > 1 and k in sensitive_ks}
    singleton = 1 in sensitive_ks
    kx = check_insensitive("mdav", k=insensitive_k, ms=(1, 2), n_max=4, hypothesis_examples=50)
    found = (all(not r.holds for r in witness.values())
             and all(not r.holds and r.counterexample is not None for r in res.values()))
    ok = found and not singleton and kx.holds
    cex: dict[str, Any] | None = None
    if singleton:
        cex = {"k": 1, "why": "with k = 1 every cluster is a single record: MDAV is insensitive "
                              "(proof), so it is not 'not insensitive'"}
    elif not kx.holds:
        cex = {"k": insensitive_k, "pair": kx.counterexample}
    elif not found:
        cex = {"k_without_counterexample": sorted(
            [k for k, r in witness.items() if r.holds]
            + [k for k, r in res.items() if r.holds])}
    return CheckResult(holds=ok, claim=f"MDAV (Euclidean) is not insensitive for k ∈ "
                       f"{sensitive_ks}; with k = {insensitive_k} it is", value={
                           k: r.counterexample and {"n": r.counterexample["n"],
                                                    "m": r.counterexample["m"]}
                           for k, r in res.items()},
                       method=Method.EXHAUSTIVE, counterexample=cex,
                       evidence={"counterexamples": {k: r.counterexample for k, r in res.items()},
                                 "witness_pairs": {k: {"n": 2 * k + 1, "not_insensitive":
                                                       not r.holds}
                                                   for k, r in witness.items()},
                                 "insensitive_k_pairs_checked": kx.value,
                                 "reading": "holds = the witness pair 0^k 1^(k+1) → 0^k 1^k 2 "
                                            "breaks Definition 12 for each k > 1 checked (and "
                                            "the search finds a counterexample for k ∈ "
                                            f"{searched_ks}), and none exists for k = "
                                            f"{insensitive_k} on the searched grids"})


def check_prop_6_literal() -> CheckResult:
    uni = _search("mdav", 2, (1,))
    lit = _search("insensitive-mdav-literal", 2, (1, 2))
    return CheckResult(holds=uni.holds and lit.holds,
                       claim="MDAV with a distance consistent with a total order is insensitive",
                       value=uni.value, method=Method.EXHAUSTIVE,
                       evidence={"univariate_euclidean_mdav": uni.counterexample,
                                 "reference_point_order_literal_mdav": lit.counterexample},
                       counterexample=uni.counterexample or lit.counterexample)


def check_prop_6_fixed(*, ks: tuple[int, ...] = THESIS_KS) -> CheckResult:
    """Insensitive MDAV (clusters of k from the two ends of a fixed total order, §6.3.2)
    searched for a counterexample for each k of ``ks``: exhaustive over multisets of 2k … 2k + 2
    records on small grids (configurations of at most 3000 multisets), then 150 hypothesis
    examples of up to 4k records."""
    res = {k: _search("insensitive-mdav", k) for k in ks}
    return CheckResult(holds=all(r.holds for r in res.values()),
                       claim="MDAV taking clusters of k from the two ends of a fixed total order "
                       "(fixed pattern) is insensitive",
                       value=sum(r.value for r in res.values()), method=Method.EXHAUSTIVE,
                       evidence={f"k={k}": dict(r.evidence) for k, r in res.items()},
                       counterexample=next((r.counterexample for r in res.values()
                                            if r.counterexample), None))


PROP7_ALGORITHMS = ("insensitive-mdav", "insensitive-corners", "individual-ranking")
"""Algorithm 6.1 with the fixed order sequences Proposition 7 (⇐) is checked on: one reference
point read from both ends (insensitive MDAV, §6.3.2), the Hamming corner sequence (§6.3.3) and
one fixed order per attribute (individual ranking)."""
PROP7_SEARCHED_KS = (1, 2, 3)
"""k at which Proposition 7 (⇐) is also searched exhaustively (then by hypothesis)."""
VLDB14_KS = (1, 2, 3, 5, 33, 66, 100, 174, 348, 500)
"""k of vldb14 Proposition 2's check: vldb14's experimental k
(:data:`privlab.proofs.parameters.PAPER_PARAMETERS`), the boundary k = 1 and k = 3."""
SAMPLED_MS = (1, 2, 3)
"""Numbers of attributes of the sampled data sets (m = 3: eight corners for the Hamming
sequence)."""
SAMPLED_KINDS = ("uniform", "ties")
"""Sampled data: uniform on [0, 1]^m (no ties), or integers in {0, …, 3}^m (ties and repeated
records; domain [0, 3]^m)."""


def sampled_sizes(k: int) -> tuple[int, ...]:
    """n of the sampled data sets at k: k and 2k − 1 (one cluster), 2k (two of k), 3k (three),
    3k + 1 (a last cluster of k + 1) and 5k + 2 (four steps: the Hamming sequence on two
    attributes uses all four corners)."""
    return tuple(sorted({k, 2 * k - 1, 2 * k, 3 * k, 3 * k + 1, 5 * k + 2}))


def _sampled_data(rng: np.random.Generator, kind: str, n: int, m: int
                  ) -> tuple[np.ndarray, np.ndarray]:
    """A data set of ``kind`` (:data:`SAMPLED_KINDS`) and its declared domain."""
    import numpy as np

    if kind == "uniform":
        return rng.random((n, m)), np.array([[0.0, 1.0]] * m)
    return rng.integers(0, 4, (n, m)).astype(float), np.array([[0.0, 3.0]] * m)


def _substitutions(rng: np.random.Generator, x: np.ndarray, kind: str, bounds: np.ndarray
                   ) -> list[tuple[str, int, np.ndarray]]:
    """One-record substitutions of ``x``: a random record by a random point of the domain; the
    record nearest the lower corner by the upper corner (it crosses every order from one end to
    the other); a random record by a copy of another record (a repeated record)."""
    import numpy as np

    n, m = x.shape
    new = np.asarray(rng.random(m) if kind == "uniform" else rng.integers(0, 4, m),
                     dtype=float)
    u = (x - bounds[:, 0]) / (bounds[:, 1] - bounds[:, 0])
    out = [("random point", int(rng.integers(n)), new),
           ("lowest to upper corner", int(np.argmin(np.einsum("ij,ij->i", u, u))),
            bounds[:, 1].copy())]
    if n > 1:
        r, s = (int(v) for v in rng.choice(n, 2, replace=False))
        out.append(("copy of another record", r, x[s].copy()))
    return out


def _record_ids(rows: np.ndarray) -> np.ndarray:
    """Equal rows get equal ids 0 … u − 1 (lexicographic order of the rows)."""
    import numpy as np

    order = np.lexsort(rows.T[::-1])
    s = rows[order]
    new = np.ones(len(s), dtype=np.int64)
    new[0] = 0
    new[1:] = (s[1:] != s[:-1]).any(axis=1)
    ids = np.empty(len(s), dtype=np.int64)
    ids[order] = np.cumsum(new)
    return ids


def _cluster_counts(labels: np.ndarray, ids: np.ndarray, u: int) -> np.ndarray:
    """(clusters × records) matrix: how many copies of record id j cluster i holds."""
    import numpy as np

    _, lab = np.unique(labels, return_inverse=True)
    q = int(lab.max()) + 1
    return np.bincount(lab.ravel() * u + ids, minlength=q * u).reshape(q, u)


def clusters_match(x: np.ndarray, labels_x: np.ndarray, x_prime: np.ndarray,
                   labels_xp: np.ndarray) -> bool:
    """Definition 12's condition for one pair, decided exactly on cluster count vectors: the
    records of X ∪ X′ (per attribute for (n, m) labels) are numbered, each cluster is its
    vector of record counts, C and C′ are compatible when Σ max(C − C′, 0) ≤ 1 and
    Σ max(C′ − C, 0) ≤ 1 (one record replaced, added or removed), and a bijection exists iff
    both sides have the same number of clusters and the compatibility graph has a perfect
    matching (Hopcroft–Karp).  The same decision as
    :func:`privlab.verify.microaggregation.insensitivity.clusters_correspond` (which also
    describes a failure), with O(q²·u) work for q clusters — cheap when clusters are large."""
    import numpy as np
    from scipy.sparse import csr_matrix
    from scipy.sparse.csgraph import maximum_bipartite_matching

    la, lb = np.asarray(labels_x), np.asarray(labels_xp)
    if la.ndim == 1:
        parts = [(x, la, x_prime, lb)]
    else:
        parts = [(x[:, [j]], la[:, j], x_prime[:, [j]], lb[:, j]) for j in range(la.shape[1])]
    for xa, a, xb, b in parts:
        inv = _record_ids(np.vstack([xa, xb]))
        u = int(inv.max()) + 1
        ca = _cluster_counts(a, inv[:len(xa)], u)
        cb = _cluster_counts(b, inv[len(xa):], u)
        if ca.shape[0] != cb.shape[0]:
            return False
        diff = ca[:, None, :] - cb[None, :, :]
        ok = (np.maximum(diff, 0).sum(axis=2) <= 1) & (np.maximum(-diff, 0).sum(axis=2) <= 1)
        if (maximum_bipartite_matching(csr_matrix(ok.astype(np.int8)),
                                       perm_type="column") < 0).any():
            return False
    return True


def check_sampled_insensitive(algorithm: str, k: int) -> CheckResult:
    """Definition 12 for ``algorithm`` at ``k`` on seeded random neighbouring pairs: for each n
    of :func:`sampled_sizes`, m of :data:`SAMPLED_MS` and data kind of :data:`SAMPLED_KINDS`
    one data set (seed (k, n, m, kind), shared by every algorithm) and each substitution of
    :func:`_substitutions`; each pair decided exactly (perfect matching)."""
    import numpy as np

    from privlab.mechanisms.microaggregation import labeler
    from privlab.verify.microaggregation.insensitivity import clusters_correspond

    fn = labeler(algorithm)
    pairs = 0
    found: dict[str, Any] | None = None
    disagree: list[dict[str, Any]] = []
    for n in sampled_sizes(k):
        for m in SAMPLED_MS:
            for ki, kind in enumerate(SAMPLED_KINDS):
                seed = [k, n, m, ki]
                rng = np.random.default_rng(seed)
                x, b = _sampled_data(rng, kind, n, m)
                la = fn(np.ascontiguousarray(x), k, b)
                for how, row, new in _substitutions(rng, x, kind, b):
                    xp = x.copy()
                    xp[row] = new
                    lb = fn(np.ascontiguousarray(xp), k, b)
                    pairs += 1
                    if found is None and not clusters_match(x, la, xp, lb):
                        res = clusters_correspond(x, la, xp, lb)
                        if res["holds"]:  # the two exact decisions disagree: undecided
                            disagree.append({"n": n, "m": m, "data": kind, "row": row})
                            continue
                        found = {"algorithm": algorithm, "k": k, "n": n, "m": m,
                                 "data": kind, "seed": seed, "substitution": how,
                                 "row": row, "old": x[row].tolist(), "new": new.tolist(),
                                 "witness": res.get("worst"),
                                 **({"x": x.tolist(), "x_prime": xp.tolist()}
                                    if n <= 30 else {})}
    return CheckResult(holds=found is None and not disagree, decided=not disagree,
                       claim=f"{algorithm} with k = {k} is insensitive on the sampled "
                       "neighbouring pairs (Definition 12)", value=pairs,
                       method=Method.PROPERTY, counterexample=found,
                       evidence={"algorithm": algorithm, "k": k, "pairs": pairs,
                                 "n": list(sampled_sizes(k)), "m": list(SAMPLED_MS),
                                 "data": list(SAMPLED_KINDS), "disagreements": disagree})


def check_prop_7_if(*, ks: tuple[int, ...] = THESIS_KS,
                    algorithms: tuple[str, ...] = PROP7_ALGORITHMS,
                    searched: tuple[int, ...] = PROP7_SEARCHED_KS) -> CheckResult:
    """Proposition 7 (⇐) / vldb14 Proposition 2: Algorithm 6.1 with a fixed sequence of total
    orders is insensitive, for every k ≥ 1.  For each k of ``ks`` and each algorithm of
    ``algorithms``: the seeded random neighbouring pairs of :func:`check_sampled_insensitive`
    and, for k in ``searched``, the exhaustive search on small grids (multisets of 2k … 2k + 2
    records, 1–2 attributes, grids of 2–4 values) then 150 hypothesis examples.  Each pair is
    decided exactly; the domain is sampled, so a pass confirms."""
    per_k: dict[int, dict[str, Any]] = {}
    failing: list[CheckResult] = []
    total = 0
    for k in ks:
        row: dict[str, Any] = {}
        for a in algorithms:
            runs = [check_sampled_insensitive(a, k)]
            if k in searched:
                runs.append(_search(a, k))
            row[a] = {"sampled_pairs": runs[0].value,
                      **({"searched_pairs": runs[1].value,
                          "hypothesis": runs[1].evidence["hypothesis"]}
                         if len(runs) > 1 else {}),
                      "insensitive": all(r.holds for r in runs)}
            total += sum(r.value for r in runs)
            failing += [r for r in runs if not r.holds]
        per_k[k] = row
    cex = next((r.counterexample for r in failing if r.counterexample), None)
    return CheckResult(holds=not failing, decided=all(r.decided for r in failing),
                       claim="Algorithm 6.1 with a fixed sequence of total orders is insensitive",
                       value=total, method=Method.PROPERTY, counterexample=cex,
                       evidence={"k_grid": list(ks), "searched_k": [k for k in ks
                                                                    if k in searched],
                                 "per_k": per_k,
                                 "sampled": {"n": "k, 2k − 1, 2k, 3k, 3k + 1, 5k + 2",
                                             "m": list(SAMPLED_MS),
                                             "data": list(SAMPLED_KINDS),
                                             "substitutions": ["random point",
                                                               "lowest to upper corner",
                                                               "copy of another record"]}})


def check_vldb14_prop_2(*, ks: tuple[int, ...] = VLDB14_KS) -> CheckResult:
    """vldb14 Proposition 2 (⇐), the journal restatement of thesis Proposition 7 (⇐):
    :func:`check_prop_7_if` on vldb14's grid of k (:data:`VLDB14_KS`)."""
    return check_prop_7_if(ks=ks)


@cache
def _preorder_pair() -> tuple[np.ndarray, np.ndarray]:
    """``PREORDER_PAIR``: two presentations of neighbouring data sets: (0, 2) and (2, 0) tie in
    distance to the lower corner; X′ lists them the other way round and replaces (3, 3) by
    (3, 2)."""
    import numpy as np

    return (np.array([[0, 0], [1, 1], [0, 2], [2, 0], [2, 2], [3, 3]], dtype=float),
            np.array([[0, 0], [1, 1], [2, 0], [0, 2], [2, 2], [3, 2]], dtype=float))


def check_prop_7_only_if(*, control: str = "preorder-control", ks: tuple[int, ...] = (1, 3)
                         ) -> CheckResult:
    """Proposition 7 (⇒) literally: for every k ≥ 1, orders that are not a fixed sequence of
    total orders make Algorithm 6.1 not insensitive.  k = 1 is a counterexample by proof: every
    cluster is one record, so MDAV — whose orders depend on the data — is insensitive (the
    exhaustive search on small grids agrees, ``check_insensitive("mdav", k=1)``).  For each
    k > 1 of ``ks`` the two ways of failing the condition the thesis argues are exhibited: a
    data-dependent order (MDAV) and a preorder with ties broken by presentation
    (``control="insensitive-mdav"``, a fixed total order, is a mutant claimed to fail)."""
    from privlab.verify.microaggregation.insensitivity import check_insensitive

    rows: dict[int, dict[str, Any]] = {}
    for k in ks:
        if k == 1:
            k1 = check_insensitive("mdav", k=1, ms=(1, 2), n_max=4, hypothesis_examples=50)
            rows[1] = {"mdav_insensitive": k1.holds, "pairs_checked": k1.value,
                       "why": "k = 1: every cluster is a single record (proof)"}
            continue
        dep = _search("mdav", k)
        x, xp = _preorder_pair()
        pre = check_insensitive(control, x, xp, k=k, bounds=[0, 3])
        rows[k] = {"data_dependent_fails": not dep.holds, "preorder_fails": not pre.holds,
                   "data_dependent_witness": dep.counterexample,
                   "preorder_witness": pre.counterexample}
    k1_cex = 1 in rows and rows[1]["mdav_insensitive"]
    broken = [k for k, r in rows.items() if k > 1
              and not (r["data_dependent_fails"] and r["preorder_fails"])]
    ok = not k1_cex and not broken
    cex: dict[str, Any] | None = None
    if k1_cex:
        cex = {"k": 1, "algorithm": "MDAV (orders chosen from the data)",
               "insensitive": "every cluster is one record; exhaustive search agrees "
                              f"({rows[1]['pairs_checked']} neighbour pairs)"}
    elif broken:
        cex = {"k": broken[0], "control": control, "row": rows[broken[0]]}
    return CheckResult(holds=ok, claim="for every k ≥ 1, orders that are not a fixed sequence "
                       "of total orders make Algorithm 6.1 not insensitive", value=sorted(rows),
                       method=Method.EXHAUSTIVE, evidence={"per_k": rows},
                       counterexample=cex)


def check_hamming_sequence(*, sequence: Any = None) -> CheckResult:
    """``sequence(m, n)`` (default: privlab's corner_sequence; a mutant passes another)."""
    from privlab.mechanisms.microaggregation import corner_sequence

    seq_of = corner_sequence if sequence is None else sequence
    bad = []
    for m in range(1, 7):
        total = 1 << m
        seq = seq_of(m, 2 * total)
        first = seq[:total]
        if len(set(first)) != total or seq[total:] != first:
            bad.append({"m": m, "problem": "not a cycle over all corners"})
        if first[0] != (0,) * m or (m >= 1 and total > 1 and first[1] != (1,) * m):
            bad.append({"m": m, "problem": "R1/R2 not the lower/upper corner"})
        for i in range(1, total):
            used = set(first[:i])
            cands = [c for c in first[i:]]
            h = [sum(a != b for a, b in zip(c, first[i - 1], strict=True)) for c in cands]
            if sum(a != b for a, b in zip(first[i], first[i - 1], strict=True)) != max(h):
                bad.append({"m": m, "step": i, "problem": "Hamming distance not maximal"})
            if first[i] in used:
                bad.append({"m": m, "step": i, "problem": "repeated corner"})
    return CheckResult(holds=not bad, claim="the corner sequence follows the Hamming rule of "
                       "§6.3.3 (m = 1..6)", value=len(bad), method=Method.EXHAUSTIVE,
                       evidence={"m_range": "1..6", "example_m3": corner_sequence(3, 8)},
                       counterexample=bad[:3] or None)


IRM_CASES = ((3, 1), (4, 2), (5, 2), (7, 3), (9, 3), (11, 5), (21, 10), (51, 25), (101, 50),
             (201, 100))
"""(n, k) of the irm Lemma 1 search: small cases and n = 2k + 1 (one group of k, one of k + 1)
for irm's experimental k (:data:`privlab.proofs.parameters.PAPER_PARAMETERS`) and k = 1."""


def check_irm_lemma_1(*, bound_factor: float = 1.0,
                      cases: tuple[tuple[int, int], ...] = IRM_CASES) -> CheckResult:
    """Adversarial search (exhaustive grid when small, extremal starts, hill climbing) for the
    largest L1 change of the univariate individual-ranking centroid list on [0, 1] over
    neighbouring data sets of n records, against ``bound_factor``·Δ/k, for each (n, k)."""
    from privlab.verify.microaggregation.centroid_sensitivity import check_centroid_sensitivity

    res = {f"n={n},k={k}": check_centroid_sensitivity("individual-ranking", k=k, n=n, m=1,
                                                      bound=bound_factor / k, restarts=6,
                                                      iterations=150,
                                                      grid=3, rng=k * 100 + n)
           for n, k in cases}
    return CheckResult(holds=all(r.holds for r in res.values()),
                       claim="univariate centroid list: L1 change ≤ Δ/k under adversarial search",
                       value={c: r.value for c, r in res.items()}, method=Method.NUMERIC,
                       evidence={c: dict(r.evidence) for c, r in res.items()},
                       counterexample=next((r.counterexample for r in res.values()
                                            if r.counterexample), None))


def check_multivariate_scale(*, ks: tuple[int, ...] = THESIS_KS) -> CheckResult:
    """Adversarial search for the largest L1 change of the insensitive-MDAV centroid list on
    [0, 1]², n = 2k records, against m·Δ/k = 2/k, for each k of ``ks``."""
    from privlab.verify.microaggregation.centroid_sensitivity import check_centroid_sensitivity

    res = {k: check_centroid_sensitivity("insensitive-mdav", k=k, n=max(2 * k, 2), m=2,
                                         bound=2 / k, restarts=6, iterations=150, grid=3, rng=7)
           for k in ks}
    return CheckResult(holds=all(r.holds for r in res.values()),
                       claim="insensitive-MDAV centroid list (m = 2, n = 2k): L1 change ≤ 2Δ/k",
                       value={k: r.value for k, r in res.items()}, method=Method.NUMERIC,
                       evidence={"per_k": {k: {"largest_change": r.value, "bound": 2 / k,
                                               "ratio_to_bound": r.value * k / 2}
                                           for k, r in res.items()},
                                 "k=2": dict(res[2].evidence) if 2 in res else None},
                       counterexample=next(({"k": k, **r.counterexample}
                                            for k, r in res.items() if r.counterexample), None))


_CONSTANTS = {"PREORDER_PAIR": _preorder_pair}


def __getattr__(name: str) -> Any:  # PEP 562: module constants built on first use (numpy)
    if name in _CONSTANTS:
        return _CONSTANTS[name]()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


_PROP7_DOMAIN = ("for each k, seeded random data sets of n ∈ {k, 2k − 1, 2k, 3k, 3k + 1, "
                 "5k + 2} records, m = 1–3 attributes (uniform on [0, 1]^m, or integers in "
                 "{0, …, 3}^m), three one-record substitutions each; at k = 1, 2, 3 also "
                 "exhaustive on grids ≤ 4 values, 1–2 attributes, n ≤ 2k + 2, then 150 "
                 "hypothesis examples")
_PROP7_METHOD = ("Three fixed order sequences (insensitive MDAV's reference point read from "
                 "both ends, the Hamming corner sequence, individual ranking).  At every k of "
                 "the grid: up to 36 seeded data sets × 3 substitutions per algorithm, each pair "
                 "decided exactly (perfect matching of cluster count vectors); at k = 1, 2, 3 "
                 "also exhaustive on grids of up to 4 values, 1–2 attributes, n ≤ 2k + 2, and "
                 "150 hypothesis examples per algorithm and k.")

CLAIMS: tuple[Claim, ...] = (
    Claim(id="thesis:def-12", source=f"{F} §6.2 Definition 12, Figure 6.1",
          statement="MDAV is not insensitive to the input data for any k > 1 (Fig. 6.1); with "
                    "k = 1 it is.", check=check_def_12_mdav, slow=True,
          notes=("Exhaustive search over multisets on small grids (then hypothesis) at k = 2, "
                 "3; the smallest counterexample has 5 records on one attribute.  For every k > "
                 "1 of the grid the univariate pair 0^k 1^(k+1) → 0^k 1^k 2 (mdav_witness, "
                 "which also proves the case for every k ≥ 2) is decided exactly.  k = 1: "
                 "exhaustive search up to 4 records and the singleton-cluster argument.",),
          bounded=True,
          scope=_p(neighbour=SUB, domain="k ∈ {1, 2, 3, 5, 11, 12, 15, 25, 30, 100, 300}: for "
                   "k > 1 the witness pair of 2k + 1 records (exact) and, at k = 2, 3, searches "
                   "on small grids and hypothesis; k = 1 exhaustive up to 4 records"),
          params=(Param(name="k", lo=1, lo_closed=True, integer=True, registry="k",
                        boundary=(1,), grid=THESIS_KS),),
          conjuncts=(Conjunct(name="k > 1", statement="MDAV is not insensitive for k > 1"),
                     Conjunct(name="k = 1", statement="with k = 1 MDAV is insensitive")),
          mutants=(Mutant(kind="constant", conjunct="k > 1",
                          description="MDAV claimed not insensitive for k = 1 as well",
                          check=lambda: check_def_12_mdav(sensitive_ks=(1,))),
                   Mutant(kind="constant", conjunct="k = 1",
                          description="MDAV claimed insensitive for k = 2 (not only k = 1)",
                          check=lambda: check_def_12_mdav(sensitive_ks=(), insensitive_k=2)))),
    Claim(id="thesis:prop-6", source=f"{F} §6.2 Proposition 6, Definition 13",
          statement="MDAV with a distance consistent with a total order satisfies the "
                    "insensitivity condition.", check=check_prop_6_literal, slow=True,
          notes=("Read as stated: univariate MDAV with the Euclidean distance (consistent with "
                 "the numerical order) is an instance.  MDAV's extra cluster, taken when "
                 "2k … 3k − 1 records remain, sits at the end farther from the average — "
                 "data-dependent.  The proof's reading is thesis:prop-6-fixed-ends.",),
          scope=_p(neighbour=SUB, reading="univariate MDAV with the Euclidean distance "
                   "is an instance of 'a distance consistent with a total order'"),
          refutation=Refutation(kind="false-statement"),
          covers=("thesis:Definition 13",)),
    Claim(id="vldb14:prop-1", source="001_b1bb29bd0e0b4af8.txt §3 Proposition 1",
          statement="MDAV with a distance d consistent with a total order ≤_X satisfies the "
                    "insensitivity condition.", check=check_prop_6_literal, slow=True,
          notes=("The journal restatement of thesis Proposition 6 (same statement, same "
                 "check; added by issue 14's coverage review, which found it had no entry).",),
          scope=_p(neighbour=SUB, reading="univariate MDAV with the Euclidean distance "
                   "is an instance"),
          refutation=Refutation(kind="false-statement")),
    Claim(id="vldb14:prop-2", source="001_b1bb29bd0e0b4af8.txt §3 Proposition 2",
          statement="Algorithm 2 is insensitive if {≤_i} is a fixed sequence of total orders "
                    "(the 'if' direction; 'only if' is thesis:prop-7-only-if).",
          check=check_vldb14_prop_2, slow=True,
          notes=("The journal restatement of thesis Proposition 7 (⇐); the same check "
                 "(check_prop_7_if) on vldb14's k: 2 … 500 (§5, Tables 1–6), the boundary "
                 "k = 1 and k = 3.",
                 _PROP7_METHOD),
          bounded=True,
          scope=_p(neighbour=SUB, domain="k ∈ {1, 2, 3, 5, 33, 66, 100, 174, 348, 500}; "
                   + _PROP7_DOMAIN),
          params=(Param(name="k", lo=1, lo_closed=True, integer=True, registry="k",
                        boundary=(1,), grid=VLDB14_KS),),
          mutants=(Mutant(kind="dropped-hypothesis",
              description="Algorithm 2 with data-dependent orders (MDAV) claimed insensitive, "
                          "k = 3",
              check=lambda: _search("mdav", 3)),
                   Mutant(kind="dropped-hypothesis",
              description="Algorithm 2 with data-dependent orders (MDAV) claimed insensitive "
                          "on the sampled pairs at k = 500",
              check=lambda: check_prop_7_if(ks=(500,), algorithms=("mdav",), searched=())))),
    Claim(id="thesis:prop-6-fixed-ends", source=f"{F} §6.2 Proposition 6 (proof), §6.3.2",
          statement="Taking clusters of k from the extremes of a fixed total order in a fixed "
                    "pattern (insensitive MDAV) is insensitive.", check=check_prop_6_fixed,
          slow=True,
          bounded=True,
          scope=_p(neighbour=SUB, domain="k ∈ {1, 2, 3, 5, 11, 12, 15, 25, 30, 100, 300}; per "
                   "k exhaustive over 2k … 2k + 2 records, 1–2 attributes, grids of 2–4 values "
                   "(configurations of at most 3000 multisets), then 150 hypothesis examples of "
                   "up to 4k records"),
          params=(Param(name="k", lo=1, lo_closed=True, integer=True, registry="k",
                        boundary=(1,), grid=THESIS_KS),),
          mutants=(Mutant(kind="dropped-hypothesis",
              description="clusters chosen by data-dependent orders (MDAV) claimed "
                          "insensitive, k = 2",
              check=lambda: _search("mdav", 2)),)),
    Claim(id="thesis:prop-7", source=f"{F} §6.2 Proposition 7 (⇐)",
          statement="Algorithm 6.1 with a fixed sequence of total orders is insensitive.",
          check=check_prop_7_if, slow=True,
          notes=(_PROP7_METHOD,),
          bounded=True,
          scope=_p(neighbour=SUB, domain="k ∈ {1, 2, 3, 5, 11, 12, 15, 25, 30, 100, 300}; "
                   + _PROP7_DOMAIN),
          params=(Param(name="k", lo=1, lo_closed=True, integer=True, registry="k",
                        boundary=(1,), grid=THESIS_KS),),
          covers=("thesis:Algorithm 6.1",),
          mutants=(Mutant(kind="dropped-hypothesis",
              description="Algorithm 6.1 with data-dependent orders (MDAV) claimed "
                          "insensitive, k = 3",
              check=lambda: _search("mdav", 3)),
                   Mutant(kind="dropped-hypothesis",
              description="Algorithm 6.1 with data-dependent orders (MDAV) claimed "
                          "insensitive on the sampled pairs at k = 100",
              check=lambda: check_prop_7_if(ks=(100,), algorithms=("mdav",), searched=())))),
    Claim(id="thesis:prop-7-only-if", source=f"{F} §6.2 Proposition 7 (⇒)",
          statement="If the orders are not a fixed sequence of total orders, Algorithm 6.1 is "
                    "not insensitive.", check=check_prop_7_only_if, slow=True,
          notes=("Refuted at k = 1, which the thesis itself says makes MDAV insensitive "
                 "(§6.2) although MDAV's orders depend on the data.  For k > 1 the two ways of "
                 "failing the condition the thesis argues both have counterexamples (k = 3: a "
                 "data-dependent order, MDAV; a preorder with ties broken by presentation).",
                 "The independent referee also finds insensitive data-dependent rules at "
                 "k > 1 when exactly 2k records remain (tests/referee/ref_micro.py)."),
          scope=_p(neighbour=SUB, domain="k ≥ 1 (Algorithm 6.1's parameter)",
                   reading="'only if' read literally, for every k"),
          params=(Param(name="k", lo=1, lo_closed=True, integer=True, boundary=(1,),
                        grid=(1, 3)),),
          refutation=Refutation(kind="false-statement"),
          covers=("thesis:Algorithm 6.1", "vldb14:Proposition 2"),
          mutants=(Mutant(kind="construction",
              description="a fixed total order (insensitive MDAV) on the preorder pair "
                          "claimed to fail",
              check=lambda: check_prop_7_only_if(control="insensitive-mdav", ks=(3,))),)),
    Claim(id="thesis:sec-6.3.3-hamming", source=f"{F} §6.3.3",
          statement="The reference-point sequence over the domain corners follows the Hamming "
                    "rule.", check=check_hamming_sequence,
          bounded=True,
          scope=_p(domain="m = 1 … 6 attributes"),
          mutants=(Mutant(kind="construction",
              description="corners in binary counting order claimed to follow the Hamming rule",
              check=lambda: check_hamming_sequence(sequence=_lexicographic)),)),
    Claim(id="irm:lemma-1-adversarial", source=f"{IRM} §3.1 Lemma 1",
          statement="The univariate centroid list moves by at most Δ/k (adversarial search).",
          check=check_irm_lemma_1, slow=True,
          notes=("Complements irm:lemma-1 (exhaustive exact sweep, thesis_ch6) with "
                 "hill-climbing over real-valued data sets.",),
          scope=_p(neighbour=SUB, release="n/a",
                   domain="(n, k) ∈ {(3,1), (4,2), (5,2), (7,3), (9,3), (11,5), (21,10), "
                   "(51,25), (101,50), (201,100)}, data on [0, 1]"),
          params=(Param(name="k", lo=1, lo_closed=True, integer=True, registry="k",
                        boundary=(1,), grid=tuple(sorted({k for _, k in IRM_CASES}))),),
          covers=("irm:Lemma 1",),
          mutants=(Mutant(kind="factor",
              description="univariate centroid list claimed to move by ≤ Δ/(2k)",
              check=lambda: check_irm_lemma_1(bound_factor=0.5, cases=((4, 2),))),)),
    Claim(id="thesis:sec-6.3.1-centroid-list-adversarial", source=f"{F} §6.3.1, Prop. 8",
          statement="The insensitive-MDAV centroid list moves by at most m·Δ/k (m = 2).",
          check=check_multivariate_scale, slow=True,
          notes=("The search exceeds 2Δ/k at every k ≥ 2 of the grid (n = 2k); k = 1 stays "
                 "within the bound.",),
          scope=_p(neighbour=SUB, domain="m = 2, n = 2k, data on [0, 1]², k ∈ {1, 2, 3, 5, "
                   "11, 12, 15, 25, 30, 100, 300}"),
          params=(Param(name="k", lo=1, lo_closed=True, integer=True, registry="k",
                        boundary=(1,), grid=THESIS_KS),),
          refutation=Refutation(kind="false-statement")),
)

TABLES: dict[str, Any] = {}
