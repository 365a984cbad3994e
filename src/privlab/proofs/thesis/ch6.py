"""Claim ledger: DP releases via microaggregation (thesis ch.6 §6.2–6.3, vldb14 §3–4, irm §3).

Findings (exhaustive sweeps of :mod:`privlab.verify.releases.exact`, exact Fractions):

* thesis Prop. 8 / vldb14 Prop. 3 (Δ(I_r∘M) ≤ Δ(I_r)/k): the row of the *modified* record can
  move by the whole range (n = 4, k = 2: change 1 > 1/2) — refuted.
* Univariate (m = 1) insensitive MDAV / individual ranking: the ordered centroid list moves by
  exactly ≤ 1/k (irm Lemma 1; the monotone-shift argument proves it for all n) — verified.
* thesis §6.3.1 scale Δ/(kε) with m = 2 attributes: centroid-list sensitivity 7/4 > Δ/k = 1;
  with rows shuffled the exact loss of the witness pair is 5/4·ε (matching bound, attained)
  (n = 4, k = 2, grid {0, ½, 1}) — refuted; vldb14's (n/k)·Δ/(kε) covers it (q·m/k = 2).
* Shared noise with rows aligned to the records (thesis Alg. 6.2, vldb14 Alg. 3 "for r = 1 to
  n") releases the partition through ties — ε = ∞; irm Algorithm 1 with m ≥ 2 releases the
  pattern of per-attribute cluster tuples through ties — Lemma 3 refuted (ε = ∞).
* Per-record noise multiplies the univariate sensitivity by k (irm's note) — confirmed.
* Prop. 9 / vldb14 Prop. 4 take Δ(m) = δ(a_b, a_t); on an unbalanced taxonomy (the project's
  ``job``) the quality's true sensitivity is 2% larger, yet the exact loss of one cluster's
  draw stays below ε (0.58ε, exhaustive over one-value changes); whole-release composition
  over q clusters (thesis factor 1 → q·ε) is checked in :mod:`privlab.proofs.thesis.ch6_mixed`.
* Under add/remove neighbours (the thesis's Def. 3) every release reveals n — ε = ∞.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from math import isqrt
from typing import Any

from privlab.proofs.parameters import paper_values
from privlab.proofs.setting import AR, SUB, _p, _priv, _x
from privlab.proofs.thesis import sec634_em as em
from privlab.proofs.thesis.ch6_mutants import _squared_metric
from privlab.types import CheckResult, Claim, Method, Mutant, Param, Refutation

F, V, IRM = "000_65177858bc9aa63c.txt", "001_b1bb29bd0e0b4af8.txt", "004_e4358174ca440815.txt"


@cache
def _sw(n: int, k: int, m: int, kind: str, matching: bool = False) -> dict[str, Any]:
    from privlab.verify.releases.exact import sweep

    return sweep(n, k, m, kind, matching=matching)


def _ratio(s: dict[str, Any], key: str) -> float:
    return float(s[f"{key}_float"])


def check_prop_8() -> CheckResult:
    s = _sw(4, 2, 1, "insensitive-mdav")
    row = _ratio(s, "row")
    return CheckResult(holds=row <= 1 / 2, claim="Δ(I_r∘M) ≤ Δ(I_r)/k", value=s["row"],
                       method=Method.EXHAUSTIVE,
                       evidence={k: s[k] for k in ("n", "k", "grid", "datasets", "pairs", "row")},
                       counterexample=None if row <= 0.5 else s["witness"]["row"])


def _univariate(kind: str, *, bound_factor: float = 1.0) -> CheckResult:
    """Exhaustive sweeps; ``bound_factor`` < 1 (a mutant) tightens the bound Δ/k."""
    cases = [(4, 2), (5, 2), (6, 3)]
    got = {f"n={n},k={k}": _sw(n, k, 1, kind)["centroids"] for n, k in cases}
    over = {c: v for (n, k), (c, v) in zip(cases, got.items(), strict=True)
            if _ratio(_sw(n, k, 1, kind), "centroids") > bound_factor / k}
    ok = not over
    return CheckResult(holds=ok, claim="univariate ordered centroid list: L1 sensitivity ≤ Δ/k",
                       value=got, method=Method.EXHAUSTIVE,
                       evidence={"max_by_case": got, "general_proof": (
                           "replacing x by x' ≥ x makes every order statistic weakly larger "
                           "with total increase x' − x ≤ Δ; cluster sums move by non-negative "
                           "amounts summing to ≤ Δ, each centroid by its sum's change / size "
                           "≥ k, so Σ_i |Δc_i| ≤ Δ/k")},
                       counterexample=None if ok else {"over_bound": over,
                                                       "bound": f"{bound_factor}·Δ/k"})


def _witness_loss(s: dict[str, Any], n: int, k: int, m: int) -> dict[str, Any]:
    """Exact loss (× ε) of Laplace Δ(I_r)/(kε), Δ(I_r) = m, one draw per centroid, rows
    shuffled (:mod:`.ch6_shuffled`).  The sweep's ``matching`` maximum is the largest loss
    bound over every neighbouring pair of the grid; the pairs attaining it are tried in turn
    until one attains the bound at an explicit output — then it is the supremum on the grid."""
    import numpy as np

    from privlab.proofs.thesis.ch6_shuffled import shuffled_loss
    from privlab.verify.releases.exact import _reps

    scale = Fraction(k, m)  # 1/b in units of ε: b = m/(kε)
    out: dict[str, Any] = {}
    tried, seen = 0, set()
    for w in s["matching_witnesses"]:
        cs = [_reps(np.array([[Fraction(repr(v)) for v in r] for r in w[key]], dtype=object), k,
                    "insensitive-mdav")["centroids"] for key in ("x", "x_prime")]
        lists = (tuple(map(tuple, cs[0])), tuple(map(tuple, cs[1])))
        if lists in seen:  # the same centroid lists: the same loss
            continue
        seen.add(lists)
        tried += 1
        coords = tuple(sorted({v for c in cs for r in c for v in r}))  # ties sit on these
        res = shuffled_loss(list(lists[0]), list(lists[1]), values=coords)
        ex = res["exact_loss_units"]
        out = {"pair": w, "centroids": [[[str(v) for v in r] for r in c] for c in cs],
               "ordered_list_l1": str(res["ordered_list_l1"]),
               "matching_bound": f"{res['matching_bound'] * scale}·ε",
               "exact_loss": None if ex is None else f"{ex * scale}·ε",
               "exact_loss_float": None if ex is None else float(ex * scale),
               "attained_at": res["attained_at"], "centroid_lists_tried": tried,
               "pairs_at_the_maximum": len(s["matching_witnesses"])}
        if ex is not None:
            break
    return out


def check_noise_scale_multivariate() -> CheckResult:
    s = _sw(4, 2, 2, "insensitive-mdav", matching=True)
    loss = _witness_loss(s, 4, 2, 2)
    exact = loss["exact_loss_float"]
    refuted = exact is not None and exact > 1
    return CheckResult(holds=exact is not None and exact <= 1,
                       claim="Laplace Δ(I_r)/(kε) on insensitive-MDAV centroids (m = 2, one draw "
                       "per centroid, rows shuffled) is ε-DP", value=loss["exact_loss"],
                       # the supremum over the grid: max matching bound, attained at its pair
                       method=Method.EXHAUSTIVE, decided=exact is not None,
                       evidence={"max_l1_units_ordered_list": s["centroids"],
                                 "loss_on_witness_pair": loss,
                                 "note": "the ordered-list L1 distance only bounds the loss of "
                                         "the shuffled release; the exact loss of the pair is "
                                         "the matching bound, attained (exact Fractions)",
                                 "grid": s["grid"], "datasets": s["datasets"]},
                       counterexample=loss if refuted else None)


def check_alg_6_2(*, cases: tuple[tuple[int, int], ...] = ((4, 2), (6, 3))) -> CheckResult:
    """Thesis Algorithm 6.2 as printed: one ε-DP sanitizer per record, S_ε(I_r(X̄)) with Laplace
    Δ(I_r)/(kε) (Proposition 8, §6.3.1), rows in record order, univariate insensitive MDAV.
    With independent per-record noise on a record-aligned release, the exact loss of a
    neighbouring pair is the L1 change of the row vector over the scale; the sweep gives its
    maximum over every neighbouring pair of the grid (``aligned``, units of the range Δ), so the
    supremum on the grid is aligned·k·ε.  Parallel composition does not apply: one record
    changes the rows of every member of its cluster, and can move to another cluster."""
    rows = []
    for n, k in cases:
        s = _sw(n, k, 1, "insensitive-mdav")
        loss = Fraction(s["aligned"]) * k
        rows.append({"n": n, "k": k, "grid": s["grid"], "max_aligned_l1_units": s["aligned"],
                     "loss_over_epsilon": str(loss), "witness": s["witness"]["aligned"]})
    worst = max(rows, key=lambda r: Fraction(r["loss_over_epsilon"]))
    ok = Fraction(worst["loss_over_epsilon"]) <= 1
    return CheckResult(holds=ok, claim="Algorithm 6.2 (per-record S_ε, Laplace Δ/(kε), rows in "
                       "record order) is ε-DP", value=f"{worst['loss_over_epsilon']}·ε",
                       method=Method.EXHAUSTIVE, evidence={"cases": rows},
                       counterexample=None if ok else worst)


def check_vldb14_scale() -> CheckResult:
    from privlab.verify.releases.certificate import certify_dp_release

    s = _sw(4, 2, 2, "insensitive-mdav")
    bound = 2 * 2 / 2  # q·m/k
    c = _ratio(s, "centroids")
    cert = certify_dp_release("insensitive-mdav", "vldb14", 1080, 33, 1.0, 4)
    return CheckResult(holds=c <= bound and cert.holds,
                       claim="(n/k)·Δ/(kε) Laplace on the shared, shuffled centroids is ε-DP",
                       value=s["centroids"], method=Method.EXHAUSTIVE,
                       evidence={"exhaustive_max": s["centroids"], "bound_q_m_over_k": bound,
                                 "census_certificate_epsilon": cert.certified_epsilon,
                                 "argument": cert.argument})


def check_aligned_shared_leak() -> CheckResult:
    from privlab.verify.releases.certificate import certify_dp_release

    s = _sw(4, 2, 1, "insensitive-mdav")
    cert = certify_dp_release("insensitive-mdav", "vldb14", 4, 2, 1.0, 1, "shared", "aligned")
    return CheckResult(holds=s["partition_changes"] is None,
                       claim="record-aligned release with shared noise is ε-DP",
                       value=cert.certified_epsilon, method=Method.EXHAUSTIVE,
                       evidence={"exhaustive_partition_change": s["partition_changes"]},
                       counterexample=cert.counterexample)


def check_irm_lemma_3() -> CheckResult:
    from privlab.verify.releases.certificate import certify_dp_release

    s = _sw(4, 2, 2, "individual-ranking")
    cert = certify_dp_release("individual-ranking", "irm", 4, 2, 1.0, 2, "shared", "shuffled")
    return CheckResult(holds=s["tuple_pattern_changes"] is None,
                       claim="irm Algorithm 1 (m = 2, shared noise) is ε-DP",
                       value=cert.certified_epsilon, method=Method.EXHAUSTIVE,
                       evidence={"exhaustive_tuple_pattern_change": s["tuple_pattern_changes"],
                                 "per_attribute_centroid_sensitivity": s["centroids"]},
                       counterexample=cert.counterexample)


def check_irm_note(*, offset: int = 0) -> CheckResult:
    cases = [(4, 2), (6, 3)]
    ratios = {f"n={n},k={k}": _ratio(_sw(n, k, 1, "individual-ranking"), "weighted")
              / _ratio(_sw(n, k, 1, "individual-ranking"), "centroids") for n, k in cases}
    ok = all(abs(r - (k + offset)) < 1e-12
             for r, (_, k) in zip(ratios.values(), cases, strict=True))
    return CheckResult(holds=ok, claim="per-record noise multiplies the sensitivity by k",
                       value=ratios, method=Method.EXHAUSTIVE, evidence={"ratio": ratios},
                       counterexample=None if ok else {"ratio": ratios, "claimed": f"k + {offset}"})


def check_metric() -> CheckResult:
    from privlab.mechanisms.microaggregation.taxonomy import project_taxonomy
    from privlab.verify.microaggregation.taxonomy import check_semantic_metric

    rs = {n: check_semantic_metric(project_taxonomy(n)) for n in ("sport", "job")}
    return CheckResult(holds=all(r.holds for r in rs.values()),
                       claim="eq. 6.6 is a metric (non-negative, reflexive, symmetric, "
                       "triangle) on the shipped taxonomies", value=len(rs),
                       method=Method.EXHAUSTIVE,
                       evidence={n: dict(r.evidence) for n, r in rs.items()},
                       counterexample=next((r.counterexample for r in rs.values()
                                            if r.counterexample), None))


def check_add_remove() -> CheckResult:
    from privlab.verify.releases.certificate import certify_dp_release

    cert = certify_dp_release("insensitive-mdav", "thesis", 10, 2, 1.0, 1,
                              neighbour="add-remove")
    return CheckResult(holds=cert.certified_epsilon is not None,
                       claim="the release is ε-DP under add/remove-one neighbours",
                       value=None, method=Method.EXACT, counterexample=cert.counterexample)


def check_sqrt_n(*, strict: bool = False) -> CheckResult:
    """(n/k)·Δ/k ≤ Δ ⟺ n ≤ k² ⟺ k ≥ √n, exhaustively for n ≤ 1200 (``strict``: the mutant
    n < k²)."""
    bad = [(n, k) for n in range(1, 1201) for k in range(1, n + 1)
           if (((n < k * k) if strict else (n <= k * k))
               != (k >= isqrt(n - 1) + 1 if n > 1 else True))]
    return CheckResult(holds=not bad, claim="(n/k)·Δ/k ≤ Δ ⟺ k ≥ √n", value=len(bad),
                       method=Method.EXHAUSTIVE, evidence={"n_range": "1..1200"},
                       counterexample=bad[:3] or None)


WORDNET = ("wordnet-occupation", "wordnet-native-country")


def check_prop_9_wordnet(*, claimed: float = 1.0, names: tuple[str, ...] = WORDNET,
                         epsilons: tuple[float, ...] | None = None,
                         ks: tuple[int, ...] | None = None) -> CheckResult:
    """Proposition 9 on the papers' own kind of taxonomy: Adult OCCUPATION and NATIVE-COUNTRY
    rebuilt from WordNet (privlab.mechanisms.microaggregation.wordnet; WordNet 3.0 and
    privlab's mapping, a reconstruction of the papers' WordNet 2.1 ones), at the seed's own ε
    and k (``P9W``); ``claimed`` < 1 is a mutant."""
    from privlab.errors import InvalidParameter
    from privlab.mechanisms.microaggregation.taxonomy import named_taxonomy

    eps = epsilons if epsilons is not None else (P9W[0].grid or ())
    kk = ks if ks is not None else (P9W[1].grid or ())
    try:
        prov = {n: named_taxonomy(n)[1] for n in names}
    except InvalidParameter as exc:
        return CheckResult(holds=False, decided=False, claim="Proposition 9 on WordNet",
                           evidence={"data": {"name": "wordnet-3.0", "path": None},
                                     "reason": f"data unavailable: {exc}"})
    runs = {n: em.check_em_centroid(eps, kk, claimed=claimed, taxonomy=n) for n in names}
    first = prov[names[0]]
    noun = next(f for f in first["files"] if f["file"].endswith("data.noun"))
    data = {"name": "wordnet-3.0", "path": noun["path"],
            "rows": sum(p["concepts"] for p in prov.values()), "sha256": noun["sha256"]}
    bad = next((n for n, r in runs.items() if not r.holds), None)
    return CheckResult(
        holds=bad is None, claim="Algorithm 6.3 is ε-DP on the WordNet taxonomies",
        value={n: r.value for n, r in runs.items()}, method=Method.EXHAUSTIVE,
        evidence={"data": data,
                  "concepts": {n: (p["concepts"], p["paper_concepts"]) for n, p in prov.items()},
                  "ratio_true_over_boundary": {n: r.evidence["ratio_true_over_boundary"]
                                               for n, r in runs.items()},
                  "max_loss_over_epsilon": {n: r.value for n, r in runs.items()}},
        counterexample=None if bad is None else {"taxonomy": bad,
                                                 **(runs[bad].counterexample or {})})


def _em_params(claim_id: str, k_lo: int) -> tuple[Param, Param]:
    """ε and k of Prop. 9 / Prop. 4, on the seed's own experimental values."""
    eps = paper_values(claim_id, "epsilon")
    ks = paper_values(claim_id, "k")
    return (Param(name="epsilon", lo=0, registry="epsilon", grid=eps),
            Param(name="k", lo=k_lo, lo_closed=True, integer=True, registry="k",
                  boundary=(k_lo,), grid=tuple(sorted({k_lo, *ks}))))


P9 = _em_params("thesis:prop-9", 1)
P9W = (P9[0], Param(name="k", lo=1, lo_closed=True, integer=True, registry="k", boundary=(1,),
                    grid=tuple(sorted({*(P9[1].grid or ()), *paper_values("vldb14:prop-4",
                                                                          "k")}))))
"""Prop. 9 on WordNet: the thesis's ε and k, and vldb14's k (174, 348, 500) as well."""
P4 = _em_params("vldb14:prop-4", 2)

CLAIMS: tuple[Claim, ...] = (
    Claim(id="thesis:prop-8", source=f"{F} §6.2 Proposition 8",
          statement="Δ(I_r∘M) ≤ Δ(I_r)/k for mean-centroid microaggregation.",
          check=check_prop_8,
          notes=("I_r∘M read as the centroid that replaces record r; the modified record itself "
                 "can jump between clusters.",),
          scope=_p(neighbour=SUB, reading="I_r∘M is the centroid replacing record r"),
          refutation=Refutation(kind="false-statement")),
    Claim(id="vldb14:prop-3", source=f"{V} §3 Proposition 3",
          statement="Δ(I_r∘M) ≤ Δ(I_r)/k (r-th record).", check=check_prop_8,
          scope=_p(neighbour=SUB, reading="I_r∘M is the centroid replacing record r"),
          refutation=Refutation(kind="false-statement")),
    Claim(id="thesis:sec-6.3.1-univariate", source=f"{F} §6.3.1 (m = 1)",
          statement="With one attribute, Laplace Δ/(kε) on the centroids gives ε-DP.",
          check=lambda: _univariate("insensitive-mdav"), slow=True,
          notes=("Holds for the ordered centroid list (shared noise, shuffled rows).",),
          bounded=True,
          scope=_p(neighbour=SUB, release="shuffled",
                   noise="one draw per centroid (shared by its rows)",
                   domain="m = 1"),
          mutants=(Mutant(kind="factor",
              description="univariate ordered centroid list claimed to move by ≤ Δ/(2k)",
              check=lambda: _univariate("insensitive-mdav", bound_factor=0.5)),)),
    Claim(id="thesis:sec-6.3.1-noise-scale", source=f"{F} §6.3.1, Proposition 8",
          statement="Laplace Δ(I_r)/(kε) on insensitive-MDAV centroids gives ε-DP (m ≥ 2).",
          check=check_noise_scale_multivariate, slow=True,
          notes=("Most favourable reading: one draw per centroid, shuffled rows, substitution.",
                 "Supremum of the loss over every neighbouring pair of the grid (n = 4, k = 2, "
                 "m = 2, grid {0, ½, 1}²): 7/4·ε.  The loss of a pair is at most the minimum "
                 "over matchings of the centroid lists' L1 distance (in units of 1/b); the "
                 "sweep's largest such bound, 7/4, is attained exactly at an explicit output of "
                 "its witness pair (exact Fractions, privlab.proofs.thesis.ch6_shuffled).  n = 4 "
                 "is the smallest n with two clusters at k = 2 (one cluster moves by "
                 "≤ Δ(I_r)/k)."),
          scope=_p(neighbour=SUB, release="shuffled",
                   noise="one draw per centroid (shared by its rows)",
                   domain="m ≥ 2",
                   reading="most favourable reading of §6.3.1: one draw "
                   "per centroid, rows shuffled"),
          refutation=_priv(
              "7/4·ε, the supremum on the grid (attained; exact)",
              "n = 4, k = 2, m = 2 (see evidence)", "every m ≥ 2 configuration"),
          covers=("thesis:Definition 14",)),
    Claim(id="thesis:alg-6.2", source=f"{F} §6.3 Algorithm 6.2, Proposition 8",
          statement="Algorithm 6.2 — an ε-DP sanitizer S_ε per record on the insensitively "
                    "microaggregated data (Laplace Δ(I_r)/(kε)), rows in record order — gives "
                    "an ε-DP data set (parallel composition).",
          check=check_alg_6_2,
          notes=("Univariate, substitution, exhaustive on the grid: the rows of a whole cluster "
                 "move when one record changes, and the changed record can move to another "
                 "cluster (thesis:prop-8), so the row vector's L1 change reaches 2Δ (n = 4, "
                 "k = 2) and 7Δ/3 (n = 6, k = 3); over the scale Δ/(kε) that is 4ε and 7ε.  "
                 "One shared draw per centroid with shuffled rows is thesis:sec-6.3.1-univariate "
                 "(ε-DP in one dimension).",),
          scope=_p(neighbour=SUB, release="record-aligned",
                   noise="one Laplace draw per record", domain="m = 1, (n, k) ∈ {(4, 2), (6, 3)}",
                   reading="S_ε is Laplace with the scale Proposition 8 gives, Δ(I_r)/(kε); "
                           "rows in record order, as printed"),
          params=(Param(name="k", lo=1, lo_closed=True, integer=True, grid=(2, 3)),),
          refutation=Refutation(kind="privacy", loss="7·ε at n = 6, k = 3 (4·ε at n = 4, k = 2)",
                                weakest="n = 4, k = 2, one record moved 0 → Δ",
                                paper_parameters="every k ≥ 2 (ch.6 uses k = 2 … 100)"),
          covers=("thesis:Algorithm 6.2",)),
    Claim(id="vldb14:sec-4-noise-scale", source=f"{V} §4 (n/k × ΔI_r/k)",
          statement="Laplace (n/k)·Δ/(kε) on the centroids gives ε-DP.",
          check=check_vldb14_scale, slow=True,
          notes=("Holds for shared noise and shuffled rows; aligned rows leak (vldb14:alg-3).",),
          bounded=True,
          scope=_p(neighbour=SUB, release="shuffled",
                   noise="one draw per centroid (shared by its rows)"),
          mutants=(Mutant(kind="factor",
              description="the factor n/k dropped: Laplace Δ(I_r)/(kε) claimed ε-DP (m = 2)",
              check=lambda: check_noise_scale_multivariate()),)),
    Claim(id="vldb14:alg-3", source=f"{V} §4 Algorithm 3; {F} §6.3 Algorithm 6.2",
          statement="Releasing x_ε = S_ε(I_r(X̄)) for r = 1..n in record order is ε-DP.",
          check=check_aligned_shared_leak,
          notes=("With one draw per centroid, equal rows reveal the partition.  With a draw "
                 "per row the ε is finite but ≥ k times larger (see certify dp-release).",),
          scope=_p(neighbour=SUB, release="record-aligned",
                   noise="one draw per centroid (shared by its rows)",
                   reading="x_ε = S_ε(I_r(X̄)) for r = 1..n in record order, as printed"),
          refutation=_priv("∞ (equal rows reveal the partition)",
                           "n = 4, k = 2, m = 1, any ε (n = 4 is the smallest n with two "
                           "clusters at k = 2)",
                           "every configuration with ≥ 2 clusters (record-aligned output)"),
          covers=("thesis:Algorithm 6.2", "vldb14:Algorithm 3")),
    Claim(id="vldb14:sec-4-sqrt-n", source=f"{V} §4", statement="n/k·Δ/k < Δ needs k ≥ √n.",
          check=check_sqrt_n,
          bounded=True,
          scope=_p(domain="1 ≤ k ≤ n ≤ 1200"),
          mutants=(Mutant(kind="direction",
              description="(n/k)·Δ/k ≤ Δ claimed equivalent to n < k² (strict)",
              check=lambda: check_sqrt_n(strict=True)),)),
    Claim(id="irm:lemma-1", source=f"{IRM} §3.1 Lemma 1",
          statement="The univariate centroid list has L1 sensitivity Δ/k.",
          check=lambda: _univariate("individual-ranking"), slow=True,
          bounded=True,
          scope=_p(neighbour=SUB, domain="exhaustive exact sweep, small n"),
          refutation=Refutation(kind="false-statement"),
          covers=("irm:Lemma 1",),
          mutants=(Mutant(kind="factor",
              description="univariate IR centroid list claimed to move by ≤ Δ/(2k)",
              check=lambda: _univariate("individual-ranking", bound_factor=0.5)),)),
    Claim(id="irm:lemma-3", source=f"{IRM} §3.2 Lemma 3, Algorithm 1",
          statement="Algorithm 1 (IR per attribute, shared noise m·Δ_j/(kε)) is ε-DP.",
          check=check_irm_lemma_3, slow=True,
          notes=("The records keep their attribute combination (irm §3.3), so ties expose "
                 "which records share clusters in every attribute.",),
          scope=_p(neighbour=SUB, release="record-aligned",
                   noise="one draw per cluster and attribute",
                   reading="records keep their attribute combination (irm §3.3)"),
          refutation=_priv("∞ (ties expose which records share clusters)",
                           "n = 4, k = 2, m = 2, any ε",
                           "every configuration with m ≥ 2 and ≥ 2 clusters"),
          covers=("irm:Algorithm 1",)),
    Claim(id="irm:sec-3.2-note", source=f"{IRM} §3.2 Note after Lemma 3",
          statement="Independent noise per repeated value multiplies the sensitivity by k.",
          check=check_irm_note, slow=True,
          bounded=True,
          scope=_p(neighbour=SUB, noise="independent draw per repeated value"),
          refutation=Refutation(kind="false-statement"),
          mutants=(Mutant(kind="constant",
              description="per-record noise claimed to multiply the sensitivity by k + 1",
              check=lambda: check_irm_note(offset=1)),)),
    Claim(id="thesis:prop-9", source=f"{F} §6.3.4 Proposition 9, Algorithm 6.3",
          statement="Algorithm 6.3 with Δ(m) = δ(a_b, a_t) gives ε-DP centroids.",
          check=lambda: em.check_em_centroid(P9[0].grid or (), P9[1].grid or ()),
          notes=("One cluster of k records ([a]·k vs [b] + [a]·(k − 1), every pair a, b) on "
                 "privlab's job taxonomy, whose δ(a_b, a_t) underestimates the marginality's "
                 "sensitivity by 2 %.  Over the thesis's own ε and k the loss reaches 1.0213·ε: "
                 "the draw concentrates on the optimum as k·ε grows and the normaliser no "
                 "longer offsets the quality term.  On the sport taxonomy (no underestimate) the "
                 "loss stays ≤ ε.  Composition over the clusters of a whole release: "
                 "thesis:sec-6.3.6-mixed-release.",),
          scope=_p(neighbour=SUB, domain="ε > 0, k ≥ 1, any taxonomy (checked: one cluster, "
                   "privlab's job taxonomy)"),
          params=P9,
          refutation=Refutation(kind="privacy", loss="1.0213·ε (ε = 0.1 … 10)",
                                weakest="ε = 0.1, k = 300 (thesis ch.3's k); in ch.6's range "
                                        "k ≤ 100: ε = 0.5, k = 100; ε = 1, k = 25",
                                paper_parameters="yes: ε ∈ {0.5, ln 2, 1, 2, 10} with the k "
                                                 "of Tables 6.1–6.5 and §3.4"),
          covers=("thesis:Algorithm 6.3",),
          mutants=(Mutant(kind="factor",
                          description="Algorithm 6.3's centroid draw claimed (ε/2)-DP",
                          check=lambda: em.check_em_centroid((1.0,), (3,), claimed=0.5)),)),
    Claim(id="thesis:prop-9-wordnet", source=f"{F} §6.3.4 Proposition 9; §6.4 (WordNet)",
          statement="Algorithm 6.3 gives ε-DP centroids on the papers' taxonomies (Adult "
                    "OCCUPATION and NATIVE-COUNTRY from WordNet) at the papers' ε and k.",
          check=check_prop_9_wordnet,
          notes=("The papers built both taxonomies from WordNet 2.1 (122 and 127 concepts); "
                 "the lab rebuilds them from WordNet 3.0 with its own mapping "
                 "(privlab/data/wordnet_adult_mapping.json; `privlab taxonomy show NAME`), "
                 "with fewer concepts (evidence: concepts, paper_concepts).  On them "
                 "δ(a_b, a_t) equals the marginality's sensitivity, so the loss reaches ε and "
                 "does not exceed it; the universal statement fails on taxonomies where it "
                 "does not (thesis:prop-9).",),
          bounded=True,
          scope=_p(neighbour=SUB, domain="one cluster; WordNet-3.0 reconstructions of the "
                   "papers' two taxonomies", reading="the papers' own taxonomies, "
                   "reconstructed"),
          params=P9W,
          data="wordnet-3.0",
          mutants=(Mutant(kind="factor",
                          description="Algorithm 6.3's centroid draw on WordNet OCCUPATION "
                                      "claimed (ε/2)-DP",
                          check=lambda: check_prop_9_wordnet(
                              claimed=0.5, names=("wordnet-occupation",), epsilons=(1.0,),
                              ks=(3,))),)),
    Claim(id="vldb14:prop-4", source=f"{V} §4.4 Proposition 4, Algorithm 4",
          statement="Algorithm 4 (factor n/k) gives ε-DP centroids.",
          check=lambda: em.check_em_centroid(P4[0].grid or (), P4[1].grid or ()),
          notes=("One cluster (n = k, so n/k = 1) on privlab's job taxonomy; as "
                 "thesis:prop-9.",),
          scope=_p(neighbour=SUB, domain="ε > 0, k ≥ 2, any taxonomy (checked: one cluster, "
                   "privlab's job taxonomy)"),
          params=P4,
          refutation=Refutation(kind="privacy", loss="1.0213·ε",
                                weakest="ε = 0.1, k = 174 (Adult's k ≈ √n in Tables 3–6)",
                                paper_parameters="yes: ε ∈ {0.1, 1, 10} with k ∈ {33, 66, 174, "
                                                 "348, 500}; ε = 10 already at k = 5"),
          covers=("vldb14:Algorithm 4",),
          mutants=(Mutant(kind="factor", description="Algorithm 4's centroid draw claimed (ε/2)-DP",
                          check=lambda: em.check_em_centroid((1.0,), (3,), claimed=0.5)),)),
    Claim(id="thesis:eq-6.6", source=f"{F} §6.3.5 eq. (6.6); {V} eq. (7)",
          statement="The semantic distance is a metric.", check=check_metric,
          notes=("Exhaustive on privlab's taxonomies; the papers' WordNet taxonomies were "
                 "not available.",
                 "Able to fail: the same checker on the same taxonomies refutes the squared "
                 "count of non-shared ancestors (siblings: 2² > 1² + 1²)."),
          bounded=True,
          scope=_p(domain="privlab's taxonomies (the papers' WordNet ones unavailable)"),
          mutants=(Mutant(kind="construction",
              description="the squared count of non-shared ancestors |φ(a) Δ φ(b)|² claimed a "
                          "metric (the checker, same taxonomies, with the distance replaced)",
              check=_squared_metric),)),
    Claim(id="thesis:sec-6.3-add-remove", source=f"{F} §6.3 with Definition 3 (add/remove)",
          statement="The microaggregated release is ε-DP under add/remove-one.",
          check=check_add_remove,
          scope=_x(neighbour=AR, release="shuffled",
                   noise="one draw per centroid",
                   reading="thesis ch.6 uses substitution (Def. 12 "
                   "'modifying', Def. 14 X, X′ ∈ Dⁿ); add/remove is the "
                   "lab's question"),
          refutation=_priv("∞ (n is released)", "any n ≥ 1",
                           "extension only (the thesis uses substitution)"),
          covers=("thesis:Definition 14",)),
)

TABLES: dict[str, Any] = {}
