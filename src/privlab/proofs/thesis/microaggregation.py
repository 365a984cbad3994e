"""Claim ledger: microaggregation, insensitivity and probabilistic k-anonymity (thesis ch.3,
§6.2–6.3.3; irm §3.1).

Findings (checkers: :mod:`privlab.verify.microaggregation.insensitivity`,
:mod:`privlab.verify.microaggregation.prob_kanon`):

* Definition 12 / Fig. 6.1: MDAV is not insensitive.  The smallest counterexample the
  exhaustive search finds is univariate: k = 2, X = {0, 0, 1, 1, 1} → X′ = {0, 0, 1, 1, 2}.
* Proposition 6 as stated ("MDAV with a distance consistent with a total order is
  insensitive") is refuted by that same example — on one attribute the Euclidean distance is
  consistent with the numerical order.  When 2k … 3k − 1 records remain, MDAV takes one more
  cluster at the end farther from the average, a data-dependent choice.  The proof's reading
  (clusters taken from the extremes in a fixed pattern — privlab's insensitive MDAV) is
  verified exhaustively.
* Proposition 7 (⇐): Algorithm 6.1 with fixed sequences of total orders (one reference point,
  alternating ends, the Hamming corner sequence, individual ranking) passes every exhaustive
  and hypothesis search.  (⇒): a data-dependent order (MDAV) and a preorder whose ties are
  broken by presentation are both broken by concrete pairs.
* irm Lemma 1 survives adversarial search; the thesis's Δ/k scale for the multivariate
  insensitive-MDAV centroid list does not (the search finds 7/4 for m = 2, k = 2, n = 4).
* §3.3.1: the swap methods give re-identification probability exactly 1/|G| ≤ 1/k (exact
  rational intruder) on distinct values; a deterministic swap and groups smaller than k are
  caught.  With tied confidential values, IR-SWAP's deterministic tie-break leaks: 13/36 > 1/3.
* Table 3.10's ordering (IR-SWAP best; MDAV-SWAP better than MDAV-ID for small k) is
  reproduced; the EIA data set of Table 3.11 is not available.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any

from privlab.proofs.lazyref import lazy_module
from privlab.proofs.setting import SUB, _p
from privlab.proofs.thesis.ch6_mutants import _lexicographic
from privlab.types import CheckResult, Claim, Conjunct, Method, Mutant, Param, Refutation

if TYPE_CHECKING:  # loaded on first call of a check (see privlab.proofs.lazyref)
    import numpy as np

    from privlab.proofs.thesis import ch3_tables as _tb
else:
    _tb = lazy_module("privlab.proofs.thesis.ch3_tables")

F, IRM = "000_65177858bc9aa63c.txt", "004_e4358174ca440815.txt"


@cache
def _search(algorithm: str, k: int, ms: tuple[int, ...] = (1, 2), examples: int = 150
            ) -> CheckResult:
    from privlab.verify.microaggregation.insensitivity import check_insensitive

    return check_insensitive(algorithm, k=k, ms=ms, hypothesis_examples=examples)


def check_def_12_mdav(*, sensitive_ks: tuple[int, ...] = (2, 3), insensitive_k: int = 1
                      ) -> CheckResult:
    """MDAV is not insensitive for each k of ``sensitive_ks`` (a counterexample is searched)
    and is insensitive for ``insensitive_k`` (exhaustive search, n ≤ 4).  k = 1 is decided by
    proof: every cluster is one record, so changing one record changes one cluster by one
    record.  Mutants move one conjunct's k."""
    from privlab.verify.microaggregation.insensitivity import check_insensitive

    res = {k: _search("mdav", k) for k in sensitive_ks if k > 1}
    singleton = 1 in sensitive_ks
    kx = check_insensitive("mdav", k=insensitive_k, ms=(1, 2), n_max=4, hypothesis_examples=50)
    found = all(not r.holds and r.counterexample is not None for r in res.values())
    ok = found and not singleton and kx.holds
    cex: dict[str, Any] | None = None
    if singleton:
        cex = {"k": 1, "why": "with k = 1 every cluster is a single record: MDAV is insensitive "
                              "(proof), so it is not 'not insensitive'"}
    elif not kx.holds:
        cex = {"k": insensitive_k, "pair": kx.counterexample}
    return CheckResult(holds=ok, claim=f"MDAV (Euclidean) is not insensitive for k ∈ "
                       f"{sensitive_ks}; with k = {insensitive_k} it is", value={
                           k: r.counterexample and {"n": r.counterexample["n"],
                                                    "m": r.counterexample["m"]}
                           for k, r in res.items()},
                       method=Method.EXHAUSTIVE, counterexample=cex,
                       evidence={"counterexamples": {k: r.counterexample for k, r in res.items()},
                                 "insensitive_k_pairs_checked": kx.value,
                                 "reading": "holds = a counterexample exists for each k > 1 "
                                            "checked and none exists for k = 1 on the searched "
                                            "grids"})


def check_prop_6_literal() -> CheckResult:
    uni = _search("mdav", 2, (1,))
    lit = _search("insensitive-mdav-literal", 2, (1, 2))
    return CheckResult(holds=uni.holds and lit.holds,
                       claim="MDAV with a distance consistent with a total order is insensitive",
                       value=uni.value, method=Method.EXHAUSTIVE,
                       evidence={"univariate_euclidean_mdav": uni.counterexample,
                                 "reference_point_order_literal_mdav": lit.counterexample},
                       counterexample=uni.counterexample or lit.counterexample)


def check_prop_6_fixed() -> CheckResult:
    res = {k: _search("insensitive-mdav", k) for k in (2, 3)}
    return CheckResult(holds=all(r.holds for r in res.values()),
                       claim="MDAV taking clusters of k from the two ends of a fixed total order "
                       "(fixed pattern) is insensitive",
                       value=sum(r.value for r in res.values()), method=Method.EXHAUSTIVE,
                       evidence={f"k={k}": dict(r.evidence) for k, r in res.items()},
                       counterexample=next((r.counterexample for r in res.values()
                                            if r.counterexample), None))


def check_prop_7_if() -> CheckResult:
    algs = ("insensitive-mdav", "insensitive-corners", "individual-ranking")
    res = {(a, k): _search(a, k) for a in algs for k in (2, 3)}
    return CheckResult(holds=all(r.holds for r in res.values()),
                       claim="Algorithm 6.1 with a fixed sequence of total orders is insensitive",
                       value=sum(r.value for r in res.values()), method=Method.EXHAUSTIVE,
                       evidence={f"{a} k={k}": {"pairs": r.value,
                                                "hypothesis": r.evidence["hypothesis"]}
                                 for (a, k), r in res.items()},
                       counterexample=next((r.counterexample for r in res.values()
                                            if r.counterexample), None))


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


def check_irm_lemma_1(*, bound_factor: float = 1.0) -> CheckResult:
    from privlab.verify.microaggregation.centroid_sensitivity import check_centroid_sensitivity

    cases = [(4, 2), (5, 2), (7, 3), (9, 3)]
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


def check_multivariate_scale() -> CheckResult:
    from privlab.verify.microaggregation.centroid_sensitivity import check_centroid_sensitivity

    r = check_centroid_sensitivity("insensitive-mdav", k=2, n=4, m=2, bound=2 / 2, restarts=6,
                                   iterations=150, grid=3, rng=7)
    return CheckResult(holds=r.holds, claim=r.claim, value=r.value, method=Method.NUMERIC,
                       evidence=dict(r.evidence), counterexample=r.counterexample)


@cache
def _reid_data() -> tuple[np.ndarray, np.ndarray]:
    """``REID_DATA``: quasi-identifiers and confidential values of the re-identification
    checks."""
    import numpy as np

    return (np.array([[1, 5], [2, 3], [3, 9], [4, 1], [5, 2], [6, 7]], dtype=float),
            np.array([10, 40, 20, 50, 30, 60], dtype=float))


@cache
def _tied_c() -> np.ndarray:
    """``TIED_C``: confidential values with ties."""
    import numpy as np

    return np.array([10, 10, 20, 20, 20, 30], dtype=float)


_CONSTANTS = {"PREORDER_PAIR": _preorder_pair, "REID_DATA": _reid_data, "TIED_C": _tied_c}


def __getattr__(name: str) -> Any:  # PEP 562: module constants built on first use (numpy)
    if name in _CONSTANTS:
        return _CONSTANTS[name]()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def census_tie_straddles(k: int = 12, data_dir: Any = None) -> dict[str, Any] | None:
    """How often tied confidential values straddle an IR-SWAP group boundary on Census: for
    each confidential attribute, sorted, the boundaries between consecutive groups of k ranks
    whose two sides hold the same value (a deterministic tie-break then decides, visibly, which
    of the tied records goes to which group).  None when census_casc.csv is absent."""
    import numpy as np

    from privlab.proofs.thesis.ch3_tables import CONFIDENTIAL, load_census

    x = load_census(data_dir)
    if x is None:
        return None
    per: dict[str, Any] = {}
    for j in CONFIDENTIAL:
        v = np.sort(x[:, j])
        bounds = np.arange(k, len(v) - len(v) % k if len(v) % k else len(v), k)
        straddle = int((v[bounds - 1] == v[bounds]).sum())
        per[f"A{j + 1}"] = {"boundaries": int(bounds.size), "tied_across": straddle}
    total = sum(p["boundaries"] for p in per.values())
    tied = sum(p["tied_across"] for p in per.values())
    return {"k": k, "attributes": per, "boundaries": total, "tied_across": tied,
            "share": tied / total if total else 0.0}


def check_reid_bound_ties() -> CheckResult:
    from privlab.verify.microaggregation.prob_kanon import check_probabilistic_k_anonymity

    q, _ = _reid_data()
    r = check_probabilistic_k_anonymity(q, _tied_c(), 3, method="ir-swap")
    ev = dict(r.evidence)
    ev["census_ties_at_group_boundaries"] = census_tie_straddles(12)
    return CheckResult(holds=r.holds, claim="IR-SWAP with tied confidential values (ties in the "
                       "ranking broken by the other attributes) keeps re-identification ≤ 1/k",
                       value=r.value, method=Method.EXACT, evidence=ev,
                       counterexample=r.counterexample)


def check_reid_bound() -> CheckResult:
    from privlab.verify.microaggregation.prob_kanon import check_probabilistic_k_anonymity

    q, c = _reid_data()
    good = {f"{m} k={k}": check_probabilistic_k_anonymity(q, c, k, method=m)
            for m in ("mdav-swap", "ir-swap") for k in (2, 3)}
    ctrl = {"reverse": check_probabilistic_k_anonymity(q, c, 3, mechanism="reverse"),
            "groups of k-1": check_probabilistic_k_anonymity(q, c, 3,
                                                             method="ir-swap-small-groups")}
    ok = all(r.holds for r in good.values()) and not any(r.holds for r in ctrl.values())
    exact = all(r.evidence["max_posterior"] == max(
        __import__("fractions").Fraction(1, s) for s in r.evidence["group_sizes"])
        for r in good.values())
    return CheckResult(holds=ok, claim="swap within groups of ≥ k records: re-identification "
                       "probability ≤ 1/k (= 1/|G|), exactly", value={
                           kk: str(r.evidence["max_posterior"]) for kk, r in good.items()},
                       method=Method.EXACT,
                       evidence={"cases": {kk: dict(r.evidence) for kk, r in good.items()},
                                 "posterior_equals_one_over_group_size": exact,
                                 "controls_caught": {kk: not r.holds for kk, r in ctrl.items()},
                                 "control_values": {kk: str(r.value) for kk, r in ctrl.items()}})


@cache
def _table_rows() -> tuple[list[dict[str, Any]], dict[str, Any]]:
    from privlab.proofs.provenance import provenance
    from privlab.proofs.thesis.ch3_tables import corr_experiment, load_census, synthetic_census

    x = load_census()
    synthetic = x is None
    if x is None:
        x = synthetic_census(0)
    src = provenance("census_casc.csv", int(x.shape[0]), synthetic=synthetic)
    if synthetic:
        src["illustration"] = "synthetic Census-shaped data (census_casc.csv absent)"
    return corr_experiment(x, (5, 11, 25, 50, 100, 300), runs=10, seed=0), src


def _magnitudes(by: dict[tuple[int, str], float]) -> dict[str, Any]:
    """Computed mean |Δcorr| (10 runs) beside Table 3.10's printed mean, cell by cell with the
    relative error — evidence only: a swap experiment is random, so the printed digits are not
    reproducible exactly and the verdict rests on the orderings."""
    from privlab.proofs.thesis.ch3_tables import METHODS, PAPER_3_10

    cells = {}
    for (k, m), v in sorted(by.items()):
        if k in PAPER_3_10:
            pm = PAPER_3_10[k][METHODS.index(m)][0]
            cells[f"k={k} {m}"] = {"computed": round(v, 4), "printed": pm,
                                   "relative_error": None if not pm else (v - pm) / pm}
    return cells


def check_table_3_10_order(*, best: str = "IR-SWAP") -> CheckResult:
    """The printed order on the real data (``best``: the method claimed best at every k; a
    mutant names another)."""
    rows, src = _table_rows()
    by = {(r["k"], r["method"]): r["mean"] for r in rows}
    ks = sorted({r["k"] for r in rows})
    others = [m for m in ("IR-SWAP", "MDAV-SWAP", "MDAV-ID") if m != best]
    ir_best = [k for k in ks if not all(by[k, best] < by[k, o] for o in others)]
    swap_better = [k for k in ks if k <= 50 and not by[k, "MDAV-SWAP"] < by[k, "MDAV-ID"]]
    ok = not ir_best and not swap_better
    return CheckResult(holds=ok, claim="IR-SWAP has the smallest mean |Δcorr| at every k; "
                       "MDAV-SWAP is below MDAV-ID for k ≤ 50", value={
                           f"{k}/{m}": round(v, 4) for (k, m), v in by.items()},
                       method=Method.NUMERIC,
                       evidence={"data": src, "runs": 10, "ir_not_best_at": ir_best,
                                 "magnitudes": _magnitudes(by) if src["path"] != "synthetic"
                                 else "not compared (synthetic data)",
                                 "swap_not_better_at": swap_better,
                                 "k_ge_100_note": "at k ≥ 100 MDAV-SWAP is not better than "
                                 "MDAV-ID, in the thesis's own Table 3.10 either (.19 vs .17)"},
                       counterexample=None if ok else {"ir_not_best_at": ir_best,
                                                       "swap_not_better_at": swap_better})


def check_table_3_11() -> CheckResult:
    return CheckResult(holds=False, decided=False, claim="Table 3.11 (EIA) observations",
                       method=Method.NUMERIC,
                       evidence={"reason": "not computed yet: the lab has no EIA run (eia.csv "
                                           "is in ../shared/data since 2026-11-27; the thesis "
                                           "does not say which EIA attributes are "
                                           "confidential)"})


def _small_groups() -> CheckResult:
    """Mutant of thesis:sec-3.3.1-reid-bound: swapping within groups of k − 1 records."""
    from privlab.verify.microaggregation.prob_kanon import check_probabilistic_k_anonymity

    q, c = _reid_data()
    return check_probabilistic_k_anonymity(q, c, 3, method="ir-swap-small-groups")


CLAIMS: tuple[Claim, ...] = (
    Claim(id="thesis:def-12", source=f"{F} §6.2 Definition 12, Figure 6.1",
          statement="MDAV is not insensitive to the input data for any k > 1 (Fig. 6.1); with "
                    "k = 1 it is.", check=check_def_12_mdav, slow=True,
          notes=("Exhaustive search over multisets on small grids (then hypothesis); the "
                 "smallest counterexample has 5 records on one attribute.",),
          bounded=True,
          scope=_p(neighbour=SUB, domain="k ∈ {1, 2, 3}, small grids, hypothesis"),
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
          check=check_prop_7_if, slow=True,
          notes=("The journal restatement of thesis Proposition 7 (⇐); same check.",),
          bounded=True,
          scope=_p(neighbour=SUB, domain="grids ≤ 4 values, 1–2 attributes, n ≤ 2k + 2"),
          mutants=(Mutant(kind="dropped-hypothesis",
              description="Algorithm 2 with data-dependent orders (MDAV) claimed insensitive, "
                          "k = 3",
              check=lambda: _search("mdav", 3)),)),
    Claim(id="thesis:prop-6-fixed-ends", source=f"{F} §6.2 Proposition 6 (proof), §6.3.2",
          statement="Taking clusters of k from the extremes of a fixed total order in a fixed "
                    "pattern (insensitive MDAV) is insensitive.", check=check_prop_6_fixed,
          slow=True,
          bounded=True,
          scope=_p(neighbour=SUB, domain="k ∈ {2, 3}, small grids"),
          mutants=(Mutant(kind="dropped-hypothesis",
              description="clusters chosen by data-dependent orders (MDAV) claimed "
                          "insensitive, k = 2",
              check=lambda: _search("mdav", 2)),)),
    Claim(id="thesis:prop-7", source=f"{F} §6.2 Proposition 7 (⇐)",
          statement="Algorithm 6.1 with a fixed sequence of total orders is insensitive.",
          check=check_prop_7_if, slow=True,
          notes=("Exhaustive on grids of up to 4 values, 1–2 attributes, n ≤ 2k + 2, and 150 "
                 "hypothesis examples per algorithm and k.",),
          bounded=True,
          scope=_p(neighbour=SUB, domain="grids ≤ 4 values, 1–2 attributes, n ≤ 2k + 2"),
          covers=("thesis:Algorithm 6.1",),
          mutants=(Mutant(kind="dropped-hypothesis",
              description="Algorithm 6.1 with data-dependent orders (MDAV) claimed "
                          "insensitive, k = 3",
              check=lambda: _search("mdav", 3)),)),
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
                   domain="(n, k) ∈ {(4,2), (5,2), (7,3), (9,3)}"),
          covers=("irm:Lemma 1",),
          mutants=(Mutant(kind="factor",
              description="univariate centroid list claimed to move by ≤ Δ/(2k)",
              check=lambda: check_irm_lemma_1(bound_factor=0.5)),)),
    Claim(id="thesis:sec-6.3.1-centroid-list-adversarial", source=f"{F} §6.3.1, Prop. 8",
          statement="The insensitive-MDAV centroid list moves by at most m·Δ/k (m = 2).",
          check=check_multivariate_scale, slow=True,
          scope=_p(neighbour=SUB, domain="n = 4, k = 2, m = 2"),
          refutation=Refutation(kind="false-statement")),
    Claim(id="thesis:sec-3.3.1-reid-bound", source=f"{F} §3.3.1, Definition 5, ineq. (3.1)",
          statement="Swapping within groups of at least k records gives re-identification "
                    "probability at most 1/k.", check=check_reid_bound,
          notes=("Exact rational intruder on 6 records (all realisations); MDAV-SWAP and "
                 "IR-SWAP, k = 2, 3; a deterministic swap and groups of k − 1 are caught.",),
          bounded=True,
          scope=_p(domain="6 records, k ∈ {2, 3}, all realisations"),
          covers=("thesis:Definition 5",),
          mutants=(Mutant(kind="constant",
              description="swapping within groups of k − 1 records claimed to give ≤ 1/k",
              check=_small_groups),)),
    Claim(id="thesis:sec-3.3.1-reid-bound-ties", source=f"{F} §3.3.1–3.3.3, Definition 5",
          statement="The 1/k bound also holds for IR-SWAP when confidential values tie.",
          check=check_reid_bound_ties,
          notes=("An under-specification and an implementation hazard, not a false theorem: "
                 "the text states no tie rule and its argument assumes distinct values.  With "
                 "random tie-breaking the bound holds; with a deterministic tie-break known to "
                 "the intruder (privlab's IR-SWAP breaks ties by the other attributes) the "
                 "re-identification probability reaches 13/36 > 1/3 on 6 records, k = 3.",
                 "On Census at k = 12 the evidence counts the IR-SWAP group boundaries whose "
                 "two sides hold tied confidential values (census_ties_at_group_boundaries)."),
          scope=_p(
              domain="6 records, k = 3", reading="confidential values may tie; the ranking's "
              "deterministic tie-break (by the other attributes) is known to the intruder — the "
              "text does not discuss ties"),
          refutation=Refutation(kind="proof-gap")),
    Claim(id="thesis:sec-3.4.1-table-3.10", source=f"{F} §3.4.1 Table 3.10",
          statement="IR-SWAP preserves correlations best; MDAV-SWAP better than MDAV-ID.",
          check=check_table_3_10_order, slow=True,
          notes=("Read for k ≤ 50 for MDAV-SWAP vs MDAV-ID: the printed table itself has "
                 "MDAV-SWAP worse at k = 100 and 200.",),
          scope=_p(domain="k as printed (Table 3.10)",
                   reading="'MDAV-SWAP better than MDAV-ID' read for k ≤ 50"),
          data="census_casc.csv",
          covers=("thesis:Table 3.10",),
          mutants=(Mutant(kind="direction",
              description="MDAV-ID claimed to preserve correlations best at every k",
              check=lambda: check_table_3_10_order(best="MDAV-ID")),)),
    Claim(id="thesis:sec-3.4.2-table-3.11", source=f"{F} §3.4.2 Table 3.11",
          statement="On EIA, MDAV-SWAP beats MDAV-ID and IR-SWAP is best.",
          check=check_table_3_11,
          notes=("Inconclusive: the lab has not computed the EIA run yet (the data set is "
                 "available; the confidential attributes must be chosen — the thesis does not "
                 "name them).  The independent referee's reading (first five energy attributes "
                 "quasi-identifiers, last five confidential) finds the printed table "
                 "contradicting the sentence and its re-run agreeing (tests/referee).",),
          scope=_p(domain="EIA data set"),
          data="eia.csv",
          covers=("thesis:Table 3.11",)),
)

TABLES: dict[str, Any] = {"thesis-3.10": _tb.table_thesis_3_10}  # = ch3_tables.TABLES
