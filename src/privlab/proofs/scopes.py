"""Scope and refutation kind of every claim of the default ledger (issue 14), reviewed one by one.

One entry per claim id.  ``paper`` scopes use the seed's own setting: thesis ch.5 states its
refinement results under add/remove (the thesis's Definition 3 cites both relations); thesis
ch.6, vldb14 and irm work with substitution ("modifying one record", X, X′ ∈ Dⁿ); thesis §7.3
compares I's posterior with the marginal prior (I ∈ D vs I ∉ D); ins15 Proposition 3 states both
relations.  Noise laws (ch.4, §4.5) are relation-agnostic: they are stated for query differences
d ∈ [−Δ, Δ] (neighbour ``n/a``).  ``extension`` scopes are the lab's own questions (another
relation or release format, privlab's own guarantees and repaired constructions): their failure
is a finding about that setting, not an erratum.

A refutation's kind (:data:`privlab.types.KINDS`) says what a failure means; privacy refutations
carry the exact loss and the weakest failing instance found.
"""

from __future__ import annotations

from privlab.types import Refutation, Scope


def _p(**kw: str) -> Scope:
    return Scope(setting="paper", **kw)


def _x(**kw: str) -> Scope:
    return Scope(setting="extension", **kw)


OWN = "privlab's own guarantee (not a claim of a seed)"
NOISE = "noise law stated for query differences d ∈ [−Δ, Δ] (relation-agnostic)"
SUB = "substitute"
AR = "add/remove"

SCOPES: dict[str, Scope] = {
    # ---- privlab's own -----------------------------------------------------------------------
    "privlab:safe-mode-dp": _x(neighbour="n/a", domain="ε ∈ {0.1, 0.5, 1, 2, 5}, d ∈ {0, ¼, "
                               "½, 1}, Δ ∈ {1, 2.5}", reading=OWN),
    "privlab:checker-refutes-controls": _x(domain="3 broken controls, Laplace, staircase",
                                           reading=OWN),
    "privlab:fast-sampler-is-inverse-cdf": _x(domain="20 laws × 20 000 uniforms", reading=OWN),
    "privlab:mixed-release-certificate": _x(neighbour=SUB, release="shuffled",
                                            noise="one draw per centroid and attribute",
                                            domain="n ≤ 6, k ∈ {1, 2, 3}, 3-leaf taxonomy",
                                            reading=OWN),
    # ---- thesis ch.2–3 -----------------------------------------------------------------------
    "thesis:alg-2.1": _p(domain="every k ≥ 1; random continuous data and integer grids"),
    "thesis:sec-3.3.1-reid-bound": _p(domain="6 records, k ∈ {2, 3}, all realisations"),
    "thesis:sec-3.3.1-reid-bound-ties": _p(
        domain="6 records, k = 3", reading="confidential values may tie; the ranking's "
        "deterministic tie-break (by the other attributes) is known to the intruder — the "
        "text does not discuss ties"),
    "thesis:sec-3.4.1-table-3.10": _p(domain="k as printed (Table 3.10)",
                                      reading="'MDAV-SWAP better than MDAV-ID' read for k ≤ 50"),
    "thesis:sec-3.4.2-table-3.11": _p(domain="EIA data set"),
    # ---- thesis ch.6 / vldb14 / irm: microaggregation ---------------------------------------
    "thesis:def-12": _p(neighbour=SUB, domain="k ∈ {1, 2, 3}, small grids, hypothesis"),
    "thesis:prop-6": _p(neighbour=SUB, reading="univariate MDAV with the Euclidean distance "
                        "is an instance of 'a distance consistent with a total order'"),
    "thesis:prop-6-fixed-ends": _p(neighbour=SUB, domain="k ∈ {2, 3}, small grids"),
    "thesis:prop-7": _p(neighbour=SUB, domain="grids ≤ 4 values, 1–2 attributes, n ≤ 2k + 2"),
    "thesis:prop-7-only-if": _p(neighbour=SUB),
    "vldb14:prop-1": _p(neighbour=SUB, reading="univariate MDAV with the Euclidean distance "
                        "is an instance"),
    "vldb14:prop-2": _p(neighbour=SUB, domain="grids ≤ 4 values, 1–2 attributes, n ≤ 2k + 2"),
    "thesis:sec-6.3.3-hamming": _p(domain="m = 1 … 6 attributes"),
    "irm:lemma-1-adversarial": _p(neighbour=SUB, release="n/a",
                                  domain="(n, k) ∈ {(4,2), (5,2), (7,3), (9,3)}"),
    "thesis:sec-6.3.1-centroid-list-adversarial": _p(neighbour=SUB, domain="n = 4, k = 2, m = 2"),
    "thesis:prop-8": _p(neighbour=SUB, reading="I_r∘M is the centroid replacing record r"),
    "vldb14:prop-3": _p(neighbour=SUB, reading="I_r∘M is the centroid replacing record r"),
    "thesis:sec-6.3.1-univariate": _p(neighbour=SUB, release="shuffled",
                                      noise="one draw per centroid (shared by its rows)",
                                      domain="m = 1"),
    "thesis:sec-6.3.1-noise-scale": _p(neighbour=SUB, release="shuffled",
                                       noise="one draw per centroid (shared by its rows)",
                                       domain="m ≥ 2",
                                       reading="most favourable reading of §6.3.1: one draw "
                                       "per centroid, rows shuffled"),
    "vldb14:sec-4-noise-scale": _p(neighbour=SUB, release="shuffled",
                                   noise="one draw per centroid (shared by its rows)"),
    "vldb14:alg-3": _p(neighbour=SUB, release="record-aligned",
                       noise="one draw per centroid (shared by its rows)",
                       reading="x_ε = S_ε(I_r(X̄)) for r = 1..n in record order, as printed"),
    "vldb14:sec-4-sqrt-n": _p(domain="1 ≤ k ≤ n ≤ 1200"),
    "irm:lemma-1": _p(neighbour=SUB, domain="exhaustive exact sweep, small n"),
    "irm:lemma-3": _p(neighbour=SUB, release="record-aligned",
                      noise="one draw per cluster and attribute",
                      reading="records keep their attribute combination (irm §3.3)"),
    "irm:sec-3.2-note": _p(neighbour=SUB, noise="independent draw per repeated value"),
    "thesis:prop-9": _p(neighbour=SUB, domain="one cluster, n = k = 3, the job taxonomy"),
    "vldb14:prop-4": _p(neighbour=SUB, domain="one cluster, the project's taxonomies"),
    "thesis:eq-6.6": _p(domain="privlab's taxonomies (the papers' WordNet ones unavailable)"),
    "thesis:sec-6.3-add-remove": _x(neighbour=AR, release="shuffled",
                                    noise="one draw per centroid",
                                    reading="thesis ch.6 uses substitution (Def. 12 "
                                    "'modifying', Def. 14 X, X′ ∈ Dⁿ); add/remove is the "
                                    "lab's question"),
    "thesis:sec-6.3.6-mixed-release": _p(neighbour=SUB, release="shuffled",
                                         noise="one draw per centroid and attribute",
                                         domain="lab's 3-leaf taxonomy"),
    "vldb14:sec-4.6-mixed-release": _p(neighbour=SUB, release="shuffled",
                                       noise="one draw per centroid and attribute"),
    # ---- thesis ch.4 -------------------------------------------------------------------------
    **{cid: _p(reading=NOISE) for cid in (
        "thesis:def-6", "thesis:def-7", "thesis:def-8", "thesis:eq-4.2",
        "thesis:sec-4.3-m-independent-of-i", "thesis:sec-4.3-m-formula", "thesis:sec-4.3-dp",
        "thesis:sec-4.3-smaller-than-laplace", "thesis:lemma-1", "thesis:lemma-2",
        "thesis:cor-1", "thesis:thm-1-proof-construction", "thesis:thm-1-di-independent",
        "thesis:thm-2", "thesis:thm-2-interior", "thesis:sec-4.4-m0-d-relation",
        "thesis:sec-4.4-variance", "thesis:sec-4.4-fig-4.2-minimum",
        "thesis:sec-4.4-fig-4.3-minimum", "thesis:table-4.1", "thesis:table-4.2",
        "thesis:prop-1", "thesis:def-9", "thesis:thm-3", "thesis:thm-3-recursion-index",
        "thesis:ex-4", "thesis:ex-5", "thesis:table-4.3", "thesis:table-4.4")},
    "thesis:thm-1": _p(reading="as printed: zero mean only (not symmetric)"),
    "thesis:thm-1-symmetric": _p(reading="Theorem 1 for symmetric Y, the case its proof "
                                 "addresses"),
    "thesis:thm-1-indexing": _p(reading="both literal readings of i ∈ ℕ"),
    "thesis:thm-2-d-above-sensitivity": _p(reading="the printed form places no bound on d"),
    # ---- thesis ch.5 (refinement; the thesis states it under add/remove) ---------------------
    "thesis:sec-5.2-masses": _p(),
    "thesis:alg-5.1-step-iv": _p(),
    "thesis:alg-5.1": _p(reading="step iv corrected to use P(U′_u), P(U′_d)"),
    "thesis:alg-5.1-printed-masses": _p(),
    "thesis:prop-2": _p(neighbour="both", domain="150 random priors, all pairs of answers"),
    "thesis:prop-3": _p(neighbour=AR, domain="150 priors, every neighbour of a small data set"),
    "thesis:prop-3-substitution": _x(neighbour=SUB, reading="the thesis states Prop. 3 under "
                                     "add/remove; substitution is the lab's question"),
    "thesis:table-5.2": _p(neighbour="both", domain="ε = ln 4, α_u ∈ {1, 3/2, 2, 3, 4}"),
    "thesis:sec-5.2-delta-individual": _p(neighbour=AR, reading="δ as output mass moved"),
    "thesis:sec-5.2-delta-statistical": _p(neighbour=AR),
    "thesis:ex-8": _p(),
    "thesis:prop-4": _p(neighbour=AR, domain="3 individuals, ε_i ∈ {ln 2, ln 3, ln 3/2}"),
    "thesis:prop-5": _p(domain="all 81 maps of Example 8's outcomes into 3 values"),
    "thesis:cor-2": _p(neighbour=AR, domain="adaptive Bayesian adversary, 1–6 rounds"),
    "thesis:protocol-1": _x(neighbour=AR, reading="privlab's session enforces Protocol 1's "
                            "budget rule; the privacy content (composition) is thesis:prop-4"),
    "thesis:protocol-2": _x(neighbour=AR, reading="privlab's session enforces Protocol 2's "
                            "budget rule; the privacy content is thesis:prop-4/prop-5"),
    "thesis:sec-5.4.1-modified-condition": _p(),
    "thesis:table-5.5": _p(),
    "thesis:sec-5.5.1": _p(),
    "thesis:sec-5.2-example-7-products": _p(neighbour="both", reading="the text gives no "
                                            "multivariate distance: chebyshev / l1 / l2"),
    "thesis:prop-2-continuous-all-answers": _p(neighbour="both",
                                               domain="uniform, beta(2,5), N(0,1), a piecewise "
                                               "density; ε = 1; every true answer"),
    "thesis:sec-5.5.1-conclusion": _p(),
    # ---- thesis ch.7 / ins15 -----------------------------------------------------------------
    "thesis:alg-7.1": _p(domain="N ≤ 60, 1 ≤ k ≤ N"),
    "thesis:alg-7.1-optimal": _p(reading="'optimal partitioning' = minimum within-class SSE"),
    "thesis:def-15": _p(domain="300 random rational pairs"),
    "thesis:prop-10": _p(domain="400 random pairs, support ≤ 7"),
    "thesis:sec-7.2.1-buckets": _p(),
    "thesis:table-7.6": _p(),
    "thesis:sec-7.2.2-count-rules": _p(release="set", reading="the printed count rule"),
    "thesis:sec-7.2.2-construction": _x(release="set", reading="privlab's repaired "
                                        "construction (printed counts when they add up, else "
                                        "the exact integer solution); the printed rule is "
                                        "thesis:sec-7.2.2-count-rules"),
    "thesis:sec-7.2.2-l-range": _p(domain="N ≤ 80, t ∈ {1, 2, 3, 4}"),
    "thesis:sec-7.3.1": _p(neighbour=AR, release="set",
                           reading="I ∈ D vs I ∉ D with the marginal as prior"),
    "thesis:sec-7.3-substitute": _x(neighbour=SUB, release="set",
                                    reading="thesis §7.3 compares posterior and marginal prior; "
                                    "two neighbouring releases both containing I is the lab's "
                                    "question (ins15 case iv)"),
    "thesis:sec-7.3.2": _p(release="set", reading="informed intruder knowing k − 1 values"),
    "ins15:prop-1": _p(neighbour=SUB),
    "ins15:prop-1-derived": _x(neighbour=SUB, reading="privlab's derived bound"),
    "ins15:prop-1-second-term": _p(),
    "ins15:prop-2": _p(domain="random pairs, support ≤ 7"),
    "ins15:prop-3": _p(neighbour="both", release="set"),
    "ins15:sec-6.1-buckets": _p(),
    "ins15:sec-6.3-bucket-sizes": _p(),
    "ins15:sec-6.2-count-rule": _p(reading="as extracted"),
    "ins15:table-1": _p(),
}


def _priv(loss: str, weakest: str, paper: str) -> Refutation:
    return Refutation(kind="privacy", loss=loss, weakest=weakest, paper_parameters=paper)


REFUTATIONS: dict[str, Refutation] = {
    "thesis:sec-3.3.1-reid-bound-ties": _priv(
        "re-identification probability 13/36 > 1/k = 1/3", "6 records, k = 3, one tie",
        "any data with tied confidential values (tie-breaking unspecified in the text)"),
    "thesis:thm-1": Refutation(kind="false-statement"),
    "thesis:thm-1-proof-construction": Refutation(kind="proof-gap"),
    "thesis:thm-1-indexing": Refutation(kind="typo"),
    "thesis:thm-2": Refutation(kind="false-statement"),
    "thesis:thm-2-d-above-sensitivity": Refutation(kind="false-statement"),
    "thesis:table-4.2": Refutation(kind="numeric"),
    "thesis:thm-3-recursion-index": Refutation(kind="typo"),
    "thesis:table-4.3": Refutation(kind="numeric"),
    "thesis:table-4.4": Refutation(kind="numeric"),
    "thesis:prop-6": Refutation(kind="false-statement"),
    "vldb14:prop-1": Refutation(kind="false-statement"),
    "thesis:sec-6.3.1-centroid-list-adversarial": Refutation(kind="false-statement"),
    "thesis:sec-5.2-masses": Refutation(kind="false-statement"),
    "thesis:alg-5.1-step-iv": Refutation(kind="false-statement"),
    "thesis:alg-5.1-printed-masses": Refutation(kind="false-statement"),
    "thesis:prop-3-substitution": _priv("2ε (ratio e^{2ε})", "any ε > 0, one individual",
                                        "extension only (the thesis uses add/remove)"),
    "thesis:sec-5.2-delta-individual": _priv(
        "δ needed δe^ε instead of δ (exact: 2/5 for δ = 1/5 at α_u = 2)",
        "uniform prior on {0..4}, α_u = 2, α_d = 1/2, δ = 1/5 (the argument holds for any "
        "ε > 0, δ > 0)", "every (ε, δ) the printed rule is used with"),
    "thesis:sec-5.2-delta-statistical": _priv(
        "δ needed δ(1 + e^ε)/2 instead of δ (exact: 1/2 for δ = 1/5 at α_u/α_d = 4)",
        "uniform prior on {0..4}, α_u = 2, α_d = 1/2, δ = 1/5 (the argument holds for any "
        "ε > 0, δ > 0)", "every (ε, δ) the printed rule is used with"),
    "thesis:table-5.5": Refutation(kind="numeric"),
    "thesis:sec-5.5.1": Refutation(kind="numeric"),
    "thesis:prop-8": Refutation(kind="false-statement"),
    "vldb14:prop-3": Refutation(kind="false-statement"),
    "thesis:sec-6.3.1-noise-scale": _priv(
        "1.25·ε exact for the ledger's pair (n = 4, k = 2, m = 2); 1.75·ε only an upper bound",
        "n = 4, k = 2, m = 2 (see evidence)", "every m ≥ 2 configuration"),
    "vldb14:alg-3": _priv("∞ (equal rows reveal the partition)",
                          "n = 4, k = 2, m = 1, any ε (n = 4 is the smallest n with two "
                          "clusters at k = 2)",
                          "every configuration with ≥ 2 clusters (record-aligned output)"),
    "irm:lemma-1": Refutation(kind="false-statement"),
    "irm:lemma-3": _priv("∞ (ties expose which records share clusters)",
                         "n = 4, k = 2, m = 2, any ε",
                         "every configuration with m ≥ 2 and ≥ 2 clusters"),
    "irm:sec-3.2-note": Refutation(kind="false-statement"),
    "thesis:sec-6.3-add-remove": _priv("∞ (n is released)", "any n ≥ 1",
                                       "extension only (the thesis uses substitution)"),
    "thesis:sec-6.3.6-mixed-release": _priv(
        "certificate q·ε (q clusters); exact 1.3685·ε at n = 5, k = 2, ε = 4 (1 categorical "
        "attribute, 3-leaf taxonomy)",
        "n = 5, k = 2, one categorical attribute: fails for ε > 1.1233 (bisection, exact loss "
        "1.0535·ε at ε = 1.5); n = 4 and n = 6 hold at ε ≤ 1 on this taxonomy",
        "not determined: the papers' WordNet taxonomies are unavailable"),
    "vldb14:sec-4.6-mixed-release": _priv(
        "certificate m_c·ε (m_c categorical attributes); exact 1.0742·ε at ε = 5, 3 attributes",
        "3 categorical attributes (two-leaf taxonomy), n = 4, k = 2: fails for ε > 3.748 "
        "(bisection); 2 attributes hold up to ε = 5 on this instance",
        "not determined: the papers' WordNet taxonomies are unavailable"),
    "thesis:alg-7.1-optimal": Refutation(kind="false-statement"),
    "thesis:sec-7.2.2-count-rules": Refutation(kind="false-statement"),
    "thesis:sec-7.3-substitute": _priv("2ε (ratio t² = e^{2ε})", "N = 36, t = 2",
                                       "extension only (ins15 Prop. 3 asks exp(ε/2))"),
    "ins15:prop-1": _priv("t = 9/5 instead of the printed 8/5", "e^ε = 2, N = 10, |E| = 2",
                          "not checked against the paper's experiments"),
    "ins15:sec-6.3-bucket-sizes": Refutation(kind="typo"),
    "ins15:sec-6.2-count-rule": Refutation(kind="typo"),
}

DATA: dict[str, str] = {
    "thesis:sec-3.4.1-table-3.10": "census_casc.csv",
    "thesis:sec-3.4.2-table-3.11": "EIA (not in ../shared/data)",
}
"""Claims that depend on a real data set (their evidence must carry its provenance)."""
