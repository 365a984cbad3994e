"""Claim ledger: thesis §6.3.4–6.3.6, equations (6.1)–(6.5) and (6.7), decided exactly.

The semantic distance of eq. (6.6) is δ(a, b) = log₂ r(a, b) with the rational
r(a, b) = (2u − i)/u, u = |φ(a) ∪ φ(b)|, i = |φ(a) ∩ φ(b)|
(:func:`privlab.verify.microaggregation.taxonomy.ratio_parts`).  Every comparison below is
made on these rationals — no float tolerance:

* eq. (6.1), the marginality m(Dom, a) = Σ_{l ≠ j} δ(a_l, a_j), is log₂ of the product of the
  r(a_l, a_j), so the argmax of eq. (6.2) is the argmax of a product of rationals;
* eq. (6.3)'s a_t maximises r(a, a_b);
* the change of m(S, c) when one value s of S ⊆ Dom(A) is replaced by s′ is
  δ(s′, c) − δ(s, c) = log₂(r(s′, c)/r(s, c)), so the sensitivity Δ(m) of Proposition 9 is
  log₂ of max_{c ∈ τ(A)} max_{s, s′} r(s′, c)/r(s, c).  Taking c = s gives Δ(m) ≥ δ(s, s′),
  and the triangle inequality gives ≤, so Δ(m) is the largest distance in Dom(A).

Eqs. (6.2)–(6.3) leave ties in the argmax open; a claim about "the" boundaries is judged for
every admissible choice (the evidence lists them) and refuted only when every choice fails.

Claims (thesis seed ``000_65177858bc9aa63c.txt``):

* ``thesis:eq-6.2-6.3`` — δ(a_b, a_t) is the marginality's sensitivity, Δ(m(A)) (Proposition
  9's proof).  Refuted: on every rooted tree with ≤ 7 concepts it holds; the smallest
  counterexample (8 concepts: one leaf under the root, two groups of two leaves) has a unique
  a_b — the lone leaf — and every a_t at r = 7/4, while two leaves of different groups are at
  r = 9/5: Δ(m) = log₂(9/5) = 1.0503·δ(a_b, a_t).  privlab's ``job`` taxonomy fails for all
  three tied a_b (13/7 against 11/6).
* ``thesis:eq-6.2-6.3-wordnet`` — the same on the WordNet 3.0 reconstructions of the Adult
  taxonomies (needs ``wordnet-3.0``): it holds there, exactly.
* ``thesis:eq-6.4`` — candidates τ(S(A)) of eq. (6.4) are data-dependent: the exponential
  mechanism over them is not ε-DP for any ε (§6.3.4's reason for drawing from τ(A)).
* ``thesis:eq-6.5`` — Proposition 9's "uncertainty that decreases as k grows": for a cluster
  of fixed composition the probability that Expression (6.5) draws an optimal centroid does
  not decrease with k, and the draw's entropy does not increase.
* ``thesis:eq-6.7`` — the boundary distance normalises each attribute of eq. (6.7) to [0, 1]:
  refuted on the same 8-concept tree and on ``job`` (a term reaches 1.0503 and 1.0213).

Eq. (6.1) (the marginality) and the forms of eqs. (6.4), (6.5), (6.7) are definitions; what
they assert is checked in the claims above (and Proposition 9's ε-DP in thesis:prop-9).
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from fractions import Fraction
from functools import cache
from itertools import combinations_with_replacement, pairwise
from typing import TYPE_CHECKING, Any

from privlab.proofs.parameters import paper_values
from privlab.proofs.setting import SUB, _p
from privlab.types import (
    CheckResult,
    Claim,
    Conjunct,
    Method,
    Mutant,
    Param,
    Proof,
    Refutation,
)

if TYPE_CHECKING:  # annotations only
    from privlab.mechanisms.microaggregation.taxonomy import Taxonomy

F = "000_65177858bc9aa63c.txt"
SHIPPED = ("sport", "job")
"""privlab's own taxonomies (package data)."""
WORDNET = ("wordnet-occupation", "wordnet-native-country")
MAX_CONCEPTS = 8
"""Every rooted tree with at most this many concepts is enumerated (200 trees)."""


# ---- taxonomies ------------------------------------------------------------------------------
@cache
def rooted_trees(size: int) -> tuple[tuple[Any, ...], ...]:
    """Every unlabelled rooted tree with ``size`` nodes, as nested sorted tuples of children
    (A000081: 1, 1, 2, 4, 9, 20, 48, 115 for 1 … 8 nodes)."""
    if size == 1:
        return ((),)
    out: set[tuple[Any, ...]] = set()

    def parts(rest: int, top: int) -> Iterator[tuple[int, ...]]:
        if rest == 0:
            yield ()
            return
        for s in range(min(rest, top), 0, -1):
            for tail in parts(rest - s, s):
                yield (s, *tail)

    def forests(sizes: list[tuple[int, int]]) -> Iterator[tuple[Any, ...]]:
        if not sizes:
            yield ()
            return
        (s, count), rest = sizes[0], sizes[1:]
        for combo in combinations_with_replacement(rooted_trees(s), count):
            for tail in forests(rest):
                yield combo + tail

    for p in parts(size - 1, size - 1):
        counts = sorted({s: p.count(s) for s in p}.items())
        for children in forests(counts):
            out.add(tuple(sorted(children)))
    return tuple(sorted(out))


def tree_taxonomy(tree: tuple[Any, ...], name: str) -> Taxonomy:
    """The taxonomy of a nested-tuple tree: nodes n0 (the root), n1, … in depth-first order;
    Dom(A) is its leaves (the default of :class:`Taxonomy`)."""
    from privlab.mechanisms.microaggregation.taxonomy import Taxonomy

    parents: dict[str, tuple[str, ...]] = {}

    def walk(node: tuple[Any, ...], parent: str | None) -> None:
        me = f"n{len(parents)}"
        parents[me] = () if parent is None else (parent,)
        for child in node:
            walk(child, me)

    walk(tree, None)
    return Taxonomy(parents=parents, name=name)


def _trees() -> Iterator[tuple[int, Taxonomy]]:
    for size in range(1, MAX_CONCEPTS + 1):
        for i, tree in enumerate(rooted_trees(size)):
            yield size, tree_taxonomy(tree, f"tree-{size}-{i}")


@cache
def _shipped(name: str) -> Taxonomy:
    from privlab.mechanisms.microaggregation.taxonomy import project_taxonomy

    return project_taxonomy(name)


# ---- exact boundaries and sensitivity --------------------------------------------------------
def _ratio(tax: Taxonomy) -> Any:
    """r(a, b) as a Fraction, indexed by concept names."""
    from privlab.verify.microaggregation.taxonomy import ratio_parts

    num, den = ratio_parts(tax)
    ix = tax.index

    def r(a: str, b: str) -> Fraction:
        return Fraction(int(num[ix[a], ix[b]]), int(den[ix[a], ix[b]]))

    return r


def _log2(x: Fraction) -> float:
    return math.log2(x.numerator) - math.log2(x.denominator)


def boundary_analysis(tax: Taxonomy, *, centre: bool = False) -> dict[str, Any]:
    """Exact eqs. (6.2)–(6.3) and the marginality's sensitivity on ``tax``.

    ``choices``: every admissible (a_b, a_t) with r(a_b, a_t); ``sensitivity``: max over
    c ∈ τ(A), s, s′ ∈ Dom(A) of r(s′, c)/r(s, c) (Δ(m) = log₂ of it) with its witness;
    ``diameter``: max r over Dom(A)².  ``centre`` (a mutant's construction) takes a_b as the
    *least* marginal value instead."""
    r = _ratio(tax)
    dom = sorted(tax.domain)
    marg = {a: math.prod((r(a, b) for b in dom if b != a), start=Fraction(1)) for a in dom}
    best = (min if centre else max)(marg.values())
    a_bs = [a for a in dom if marg[a] == best]
    choices: list[dict[str, Any]] = []
    for a_b in a_bs:
        far = max(r(a_b, b) for b in dom)
        choices.extend({"a_b": a_b, "a_t": b, "r": far} for b in dom if r(a_b, b) == far)
    sens, wit = Fraction(1), None
    for c in tax.concepts:
        lo = min(dom, key=lambda s: r(s, c))
        hi = max(dom, key=lambda s: r(s, c))
        if r(hi, c) / r(lo, c) > sens:
            sens, wit = r(hi, c) / r(lo, c), {"candidate": c, "s": lo, "s_prime": hi}
    diam = max(r(a, b) for a in dom for b in dom)
    return {"taxonomy": tax.name, "concepts": len(tax.concepts), "domain": len(dom),
            "choices": choices, "sensitivity": sens, "sensitivity_at": wit, "diameter": diam,
            "implementation_boundaries": tax.boundaries if len(dom) > 1 else None}


def _verdict_row(a: dict[str, Any], factor: Fraction = Fraction(1)) -> dict[str, Any]:
    """Does r(a_b, a_t) realise the sensitivity (Δ(m) ≤ factor·δ(a_b, a_t)) for every choice?
    Compared as log₂ ratios: Δ(m) ≤ f·δ ⟺ sens ≤ r^f, decided exactly for f = 1 and f = ½
    (sens² ≤ r)."""
    def ok(rb: Fraction) -> bool:
        if factor == 1:
            return a["sensitivity"] <= rb
        if factor == Fraction(1, 2):
            return a["sensitivity"] ** 2 <= rb
        raise ValueError(f"factor={factor} is not decided exactly")

    fails = [c for c in a["choices"] if not ok(c["r"])]
    return {"taxonomy": a["taxonomy"], "concepts": a["concepts"], "domain": a["domain"],
            "sensitivity": str(a["sensitivity"]), "diameter": str(a["diameter"]),
            "delta_m": _log2(a["sensitivity"]),
            "boundaries": [{"a_b": c["a_b"], "a_t": c["a_t"], "r": str(c["r"]),
                            "delta": _log2(c["r"])} for c in a["choices"]],
            "fails_for_every_choice": bool(a["choices"]) and len(fails) == len(a["choices"]),
            "fails_for_some_choice": bool(fails),
            "ratio_delta_m_over_boundary_distance": (
                _log2(a["sensitivity"]) / max(_log2(c["r"]) for c in a["choices"])
                if a["choices"] and max(c["r"] for c in a["choices"]) > 1 else None),
            "sensitivity_at": a["sensitivity_at"],
            "implementation_boundaries": a["implementation_boundaries"]}


def check_eq_6_2_6_3(*, factor: Fraction = Fraction(1), centre: bool = False,
                     names: Sequence[str] = SHIPPED, trees: bool = True) -> CheckResult:
    """Δ(m(A)) ≤ ``factor``·δ(a_b, a_t) with (a_b, a_t) of eqs. (6.2)–(6.3), exactly, on every
    rooted tree with ≤ MAX_CONCEPTS concepts (if ``trees``) and the taxonomies ``names``;
    refuted where it fails for every admissible choice of the boundaries."""
    rows = []
    if trees:
        rows += [_verdict_row(boundary_analysis(t, centre=centre), factor) for _, t in _trees()]
    rows += [_verdict_row(boundary_analysis(_shipped(n), centre=centre), factor)
             for n in names]
    failing = [r for r in rows if r["fails_for_every_choice"]]
    weakest = min(failing, key=lambda r: (r["concepts"], r["domain"]), default=None)
    by_size: dict[int, dict[str, int]] = {}
    for r in rows[:-len(names)] if names else rows:
        s = by_size.setdefault(r["concepts"], {"trees": 0, "failing": 0})
        s["trees"] += 1
        s["failing"] += r["fails_for_every_choice"]
    return CheckResult(
        holds=not failing,
        claim=f"Δ(m) ≤ {factor}·δ(a_b, a_t) with the boundaries of eqs. (6.2)–(6.3)"
              + (" (a_b the least marginal value)" if centre else ""),
        value=max((r["ratio_delta_m_over_boundary_distance"] or 0.0) for r in rows),
        method=Method.EXHAUSTIVE,
        evidence={"trees_by_concepts": by_size, "taxonomies": [r for r in rows
                                                               if not r["taxonomy"].startswith(
                                                                   "tree-")],
                  "failing_trees": sum(r["fails_for_every_choice"] for r in rows
                                       if r["taxonomy"].startswith("tree-")),
                  "exact": "δ = log₂ r, r rational; comparisons on the rationals"},
        counterexample=None if weakest is None else {
            **weakest, "tree": _tree_of(weakest["taxonomy"]),
            "failing": [r["taxonomy"] for r in failing if not r["taxonomy"].startswith("tree-")]
            + [f"{sum(r['taxonomy'].startswith('tree-') for r in failing)} trees"]})


def _tree_of(name: str) -> dict[str, Any] | None:
    """The parent map of an enumerated tree ``tree-<size>-<i>`` (None for a named one)."""
    if not name.startswith("tree-"):
        return None
    _, size, i = name.split("-")
    tax = tree_taxonomy(rooted_trees(int(size))[int(i)], name)
    return {c: list(p) for c, p in tax.parents.items()}


def check_eq_6_2_6_3_wordnet(*, factor: Fraction = Fraction(1), second_farthest: bool = False,
                             names: Sequence[str] = WORDNET) -> CheckResult:
    """On the WordNet 3.0 reconstructions: Δ(m) ≤ ``factor``·δ(a_b, a_t) (conjunct
    ``sensitivity``) and every δ(a, a′) ≤ δ(a_b, a_t) (conjunct ``normalised``, eq. 6.7's
    categorical terms in [0, 1]), exactly; ``second_farthest`` (a mutant) takes a_t as the
    second most distant value from a_b."""
    from privlab.errors import InvalidParameter
    from privlab.mechanisms.microaggregation.taxonomy import named_taxonomy

    try:
        got = {n: named_taxonomy(n) for n in names}
    except InvalidParameter as exc:
        return CheckResult(holds=False, decided=False, claim="eqs. (6.2)–(6.3) on WordNet",
                           evidence={"data": {"name": "wordnet-3.0", "path": None},
                                     "reason": f"data unavailable: {exc}"})
    rows = []
    for tax, _ in got.values():
        a = boundary_analysis(tax)
        if second_farthest:
            r = _ratio(tax)
            a["choices"] = [{**c, "r": max((r(c["a_b"], b) for b in tax.domain
                                            if r(c["a_b"], b) < c["r"]), default=Fraction(1))}
                            for c in a["choices"]]
        row = _verdict_row(a, factor)
        row["normalised"] = all(a["diameter"] <= c["r"] for c in a["choices"])
        rows.append(row)
    prov = got[names[0]][1]
    noun = next(f for f in prov["files"] if f["file"].endswith("data.noun"))
    data = {"name": "wordnet-3.0", "path": noun["path"],
            "rows": sum(p["concepts"] for _, p in got.values()), "sha256": noun["sha256"]}
    bad_sens = [r["taxonomy"] for r in rows if r["fails_for_some_choice"]]
    bad_norm = [r["taxonomy"] for r in rows if not r["normalised"]]
    ok = not bad_sens and not bad_norm
    return CheckResult(
        holds=ok, claim="δ(a_b, a_t) is the marginality's sensitivity and the largest distance "
                        "of Dom(A) on the WordNet taxonomies",
        value={r["taxonomy"]: r["ratio_delta_m_over_boundary_distance"] for r in rows},
        method=Method.EXACT, evidence={"data": data, "taxonomies": rows},
        counterexample=None if ok else {"sensitivity_fails": bad_sens,
                                        "normalisation_fails": bad_norm,
                                        "rows": [r for r in rows if r["taxonomy"] in
                                                 (*bad_sens, *bad_norm)]})


# ---- eq. (6.4): the candidate set ------------------------------------------------------------
def _log_draw(tax: Taxonomy, sample: Sequence[str], epsilon: float,
              candidates: Sequence[str]) -> dict[str, float]:
    """log Pr(c) of Expression (6.5) over ``candidates`` (−∞ outside): log-softmax of
    −ε·m(S, c)/(2Δ(m)), Δ(m) = δ(a_b, a_t) as Algorithm 6.3."""
    m = tax.marginality(list(sample), list(candidates))
    z = [-epsilon * float(v) / (2.0 * tax.boundary_distance) for v in m]
    top = max(z)
    norm = top + math.log(sum(math.exp(v - top) for v in z))
    out = dict.fromkeys(tax.concepts, -math.inf)
    out.update({c: v - norm for c, v in zip(candidates, z, strict=True)})
    return out


def check_eq_6_4(epsilons: Sequence[float], ks: Sequence[int], *, leaky: str = "sample",
                 fixed: str = "taxonomy", names: Sequence[str] = SHIPPED) -> CheckResult:
    """§6.3.4: drawing Expression (6.5) over τ(S(A)) (eq. 6.4, ``"sample"``) is not ε-DP: for
    S = [a_b]·k and S′ = [a_t] + [a_b]·(k − 1), a_t ∉ τ(S) has probability 0 under S and
    > 0 under S′ (conjunct ``leak``, candidates ``leaky``); over τ(A) (``"taxonomy"``) the
    support is every concept for both, and the loss of the pair is finite (conjunct
    ``fixed``, candidates ``fixed``).  Mutants swap the candidate sets."""
    def cands(kind: str, tax: Taxonomy, sample: Sequence[str]) -> tuple[str, ...]:
        return tax.sub_concepts(sample) if kind == "sample" else tax.concepts

    rows: list[dict[str, Any]] = []
    leak_missing, support_moves, losses = [], [], [0.0]
    for name in names:
        tax = _shipped(name)
        a_b, a_t = tax.boundaries
        for e in epsilons:
            for k in ks:
                s, sp = [a_b] * k, [a_t] + [a_b] * (k - 1)
                lx = _log_draw(tax, s, e, cands(leaky, tax, s))
                ly = _log_draw(tax, sp, e, cands(leaky, tax, sp))
                gap = [c for c in tax.concepts if (lx[c] == -math.inf) != (ly[c] == -math.inf)]
                fx = _log_draw(tax, s, e, cands(fixed, tax, s))
                fy = _log_draw(tax, sp, e, cands(fixed, tax, sp))
                same = all((fx[c] == -math.inf) == (fy[c] == -math.inf) for c in tax.concepts)
                loss = max((abs(fx[c] - fy[c]) for c in tax.concepts if fx[c] > -math.inf),
                           default=0.0)
                row = {"taxonomy": name, "epsilon": e, "k": k, "a": a_b, "b": a_t,
                       "zero_vs_positive": gap[:3], "fixed_support": same,
                       "fixed_loss_over_epsilon": loss / e if same else None}
                rows.append(row)
                losses.append(loss / e if same else 0.0)
                if not gap:
                    leak_missing.append(row)
                if not same:
                    support_moves.append(row)
    ok = not leak_missing and not support_moves
    return CheckResult(
        holds=ok, claim=f"Expression (6.5) over {leaky!r} candidates is not ε-DP for any ε, k; "
                        f"over {fixed!r} candidates the support is fixed",
        value=len(rows), method=Method.EXACT,
        evidence={"instances": len(rows), "sample": rows[:4],
                  "largest_fixed_loss_over_epsilon": max(losses)},
        counterexample=None if ok else {"no_zero_probability_output": leak_missing[:2],
                                        "support_changes": support_moves[:2]})


# ---- eq. (6.5): uncertainty and k ------------------------------------------------------------
@cache
def _optimal_set(name: str, pattern: tuple[str, ...]) -> tuple[str, ...]:
    """argmin over τ(A) of m(S, ·) for S = pattern × copies (any copies), decided on the
    rationals: m(S, c) = copies·log₂ Π_{s ∈ pattern} r(s, c)."""
    tax = _shipped(name)
    r = _ratio(tax)
    prod = {c: math.prod((r(s, c) for s in pattern), start=Fraction(1)) for c in tax.concepts}
    best = min(prod.values())
    return tuple(c for c in tax.concepts if prod[c] == best)


def _optimum_and_entropy(name: str, pattern: tuple[str, ...], copies: int, epsilon: float
                         ) -> tuple[float, float]:
    """P(an optimal centroid) and the entropy of Expression (6.5) for S = pattern × copies
    on the shipped taxonomy ``name``."""
    tax = _shipped(name)
    opt = _optimal_set(name, pattern)
    lp = _log_draw(tax, list(pattern) * copies, epsilon, tax.concepts)
    p_opt = sum(math.exp(lp[c]) for c in opt)
    ent = -sum(math.exp(v) * v for v in lp.values() if v > -math.inf)
    return p_opt, ent


def _patterns(tax: Taxonomy) -> list[tuple[str, ...]]:
    dom = sorted(tax.domain)
    return [(a,) for a in dom] + [(a, b) for i, a in enumerate(dom) for b in dom[i + 1:]]


def check_eq_6_5(epsilons: Sequence[float], ks: Sequence[int], *, direction: int = 1,
                 fixed: bool = True, names: Sequence[str] = SHIPPED) -> CheckResult:
    """Proposition 9: for a cluster of fixed composition — S_k = pattern × (k/|pattern|), every
    pattern [a] and [a, b] of Dom(A) values (pairs at even k) — the probability that
    Expression (6.5) draws an optimal centroid is non-decreasing and the entropy of the draw
    non-increasing along the k of ``ks``, at every ε (tolerance 1e-12, float64 log-space).

    ``direction`` = −1 (a mutant) claims the reverse; ``fixed=False`` (a mutant) drops the
    fixed composition: the cluster [a]·k is compared with [a]·k + [b] (one more record of
    another value)."""
    ks = sorted(ks)
    rows, bad = 0, []
    tol = 1e-12
    for name in names:
        for e in epsilons:
            for pat in _patterns(_shipped(name)):
                if fixed:
                    seq = [(k, *_optimum_and_entropy(name, pat, k // len(pat), e)) for k in ks
                           if k % len(pat) == 0]
                    steps = list(pairwise(seq))
                elif len(pat) == 2:
                    a, b = pat
                    steps = [((k, *_optimum_and_entropy(name, (a,), k, e)),
                              (k + 1, *_optimum_and_entropy(name, (a,) * k + (b,), 1, e)))
                             for k in ks]
                else:
                    continue
                for (k0, p0, h0), (k1, p1, h1) in steps:
                    rows += 1
                    if direction * (p1 - p0) < -tol or direction * (h0 - h1) < -tol:
                        bad.append({"taxonomy": name, "epsilon": e, "pattern": list(pat),
                                    "k": [k0, k1], "p_optimal": [p0, p1], "entropy": [h0, h1]})
    ok = not bad
    return CheckResult(
        holds=ok, claim=("P(optimal centroid) " + ("non-decreasing" if direction > 0 else
                                                   "non-increasing") + " in k"
                         + (" for a fixed composition" if fixed else " for any clusters")),
        value=rows, method=Method.NUMERIC,
        evidence={"comparisons": rows, "taxonomies": list(names), "ks": ks,
                  "epsilons": list(epsilons),
                  "argument": "S_k = pattern × c: m(S_k, x) = c·m(pattern, x), so (6.5) is a "
                              "Gibbs law at inverse temperature ∝ c; its entropy and the mass "
                              "outside the optimal set decrease with c"},
        counterexample=None if ok else {"first": bad[0], "violations": len(bad)})


# ---- eq. (6.7): normalisation ----------------------------------------------------------------
def check_eq_6_7(*, names: Sequence[str] = SHIPPED, trees: bool = True,
                 numeric_points: int = 9) -> CheckResult:
    """Every normalised term of eq. (6.7) lies in [0, 1], so d ≤ √m: numerical attributes
    exactly on a grid of [a_b, a_t] (|a₁ − a₂| ≤ a_t − a_b), categorical ones on every tree
    with ≤ MAX_CONCEPTS concepts and the taxonomies ``names`` (δ(a, a′) ≤ δ(a_b, a_t) ⟺
    r(a, a′) ≤ r(a_b, a_t), for every admissible choice); for m = 2 (one categorical, one
    numerical attribute) d² = t_cat² + t_num² ≤ 2 ⟺ both terms ≤ 1 at the worst pair."""
    lo, hi = Fraction(0), Fraction(1)
    pts = [lo + (hi - lo) * Fraction(i, numeric_points - 1) for i in range(numeric_points)]
    numeric_ok = all(abs(a - b) <= hi - lo for a in pts for b in pts)
    rows = []
    taxes = [t for _, t in _trees()] if trees else []
    taxes += [_shipped(n) for n in names]
    for tax in taxes:
        a = boundary_analysis(tax)
        worst = max(c["r"] for c in a["choices"])
        over = a["diameter"] > worst
        rows.append({"taxonomy": tax.name, "concepts": a["concepts"],
                     "largest_term": (_log2(a["diameter"]) / _log2(worst)) if worst > 1
                     else (None if a["diameter"] == 1 else math.inf),
                     "over_one_for_every_choice": over,
                     "boundaries": [(c["a_b"], c["a_t"]) for c in a["choices"]][:3]})
    failing = [r for r in rows if r["over_one_for_every_choice"]]
    weakest = min(failing, key=lambda r: r["concepts"], default=None)
    ok = numeric_ok and not failing
    return CheckResult(
        holds=ok, claim="every normalised term of eq. (6.7) lies in [0, 1] (d ≤ √m)",
        value=max((r["largest_term"] or 0.0) for r in rows), method=Method.EXHAUSTIVE,
        evidence={"numerical_terms_within_one": numeric_ok, "numerical_grid": len(pts),
                  "categorical": [r for r in rows if not r["taxonomy"].startswith("tree-")],
                  "trees": sum(r["taxonomy"].startswith("tree-") for r in rows),
                  "failing_trees": sum(r["taxonomy"].startswith("tree-") for r in failing)},
        counterexample=None if ok else {
            **(weakest or {}), "tree": _tree_of(weakest["taxonomy"]) if weakest else None,
            "m_2": "with a numerical attribute at distance a_t − a_b, d = √(t² + 1) > √2",
            "failing": [r["taxonomy"] for r in failing if not r["taxonomy"].startswith("tree-")]})


# ---- claims ----------------------------------------------------------------------------------
def _eps(claim_id: str) -> Param:
    return Param(name="epsilon", lo=0, registry="epsilon",
                 grid=paper_values(claim_id, "epsilon"))


def _k(claim_id: str) -> Param:
    return Param(name="k", lo=1, lo_closed=True, integer=True, registry="k", boundary=(1,),
                 grid=tuple(sorted({1, *(int(k) for k in paper_values(claim_id, "k"))})))


CONCEPTS = Param(name="concepts", lo=1, lo_closed=True, integer=True, boundary=(1,),
                 grid=(*range(1, MAX_CONCEPTS + 1), 19, 20))
"""The size of the taxonomy: every rooted tree up to MAX_CONCEPTS, and privlab's ``job`` (19)
and ``sport`` (20)."""
E64, E65 = "thesis:eq-6.4", "thesis:eq-6.5"
SENS = Conjunct(name="sensitivity", statement="Δ(m(A)) = δ(a_b, a_t)")
NORM = Conjunct(name="normalised", statement="δ(a, a′) ≤ δ(a_b, a_t) for all a, a′ ∈ Dom(A)")
LEAK = Conjunct(name="leak", statement="over τ(S(A)) some output has probability 0 under S "
                                       "and > 0 under a neighbour S′")
FIXED = Conjunct(name="fixed", statement="over τ(A) the support is the same for every S")

CLAIMS: tuple[Claim, ...] = (
    Claim(id="thesis:eq-6.2-6.3", source=f"{F} §6.3.4 eqs. (6.1)–(6.3), proof of Proposition 9",
          statement="With a_b = argmax_{a ∈ Dom(A)} m(Dom(A), a) (eq. 6.2) and a_t = "
                    "argmax_{a ∈ Dom(A)} δ(a, a_b) (eq. 6.3), the distance between the "
                    "boundaries is the marginality's sensitivity: for every taxonomy, "
                    "max_{c ∈ τ(A); s, s′ ∈ Dom(A)} |δ(s, c) − δ(s′, c)| = δ(a_b, a_t).",
          check=check_eq_6_2_6_3,
          notes=("Δ(m) ≥ δ(a_b, a_t) always (c = a_b); the content is ≤, i.e. that a_b, a_t "
                 "are the two most distant values of Dom(A) (Δ(m) is exactly the largest "
                 "distance in Dom(A), by the triangle inequality).",
                 "Exact on the rationals r = 2^δ.  Every rooted tree with ≤ 7 concepts "
                 "satisfies it; 1 of the 115 trees with 8 concepts does not: root → {ℓ, A, "
                 "B}, A → {a₁, a₂}, B → {b₁, b₂}; a_b = ℓ (unique, marginality (7/4)⁴ against "
                 "(3/2)(7/4)(9/5)²), every a_t at r = 7/4, while r(a₁, b₁) = 9/5: Δ(m) = "
                 "log₂(9/5) = 1.0503·δ(a_b, a_t).  privlab's job taxonomy: 13/7 against 11/6 "
                 "for all three tied a_b (ratio 1.0213); sport holds.",
                 "Consequence: the exponential mechanism of Algorithm 6.3 / vldb14 Algorithm 4 "
                 "with Δ(m) = δ(a_b, a_t) underestimates the quality's sensitivity "
                 "(thesis:prop-9, vldb14:prop-4)."),
          bounded=True,
          scope=_p(domain="every taxonomy, Dom(A) its leaves (checked: every rooted tree with "
                          "≤ 8 concepts, privlab's sport and job)",
                   reading="ties in the argmax of eqs. (6.2)–(6.3) are open: a taxonomy "
                           "counts against the claim only when every admissible choice "
                           "fails"),
          params=(CONCEPTS,),
          refutation=Refutation(kind="false-statement"),
          mutants=(Mutant(kind="construction",
                          description="a_b taken as the least marginal value (the centre) "
                                      "instead of eq. (6.2)'s most marginal one",
                          check=lambda: check_eq_6_2_6_3(centre=True)),)),
    Claim(id="thesis:eq-6.2-6.3-wordnet",
          source=f"{F} §6.3.4 eqs. (6.2)–(6.3), §6.3.6 eq. (6.7); §6.4 (WordNet)",
          statement="On the WordNet 3.0 reconstructions of Adult OCCUPATION and NATIVE-COUNTRY, "
                    "the boundaries of eqs. (6.2)–(6.3) are the two most distant values of "
                    "Dom(A): Δ(m(A)) = δ(a_b, a_t), and every categorical term of eq. (6.7) "
                    "lies in [0, 1].",
          check=check_eq_6_2_6_3_wordnet,
          notes=("The papers' taxonomies (WordNet 2.1, 122 and 127 concepts) are rebuilt by "
                 "privlab from WordNet 3.0 (47 and 66 concepts); exact on the rationals, every "
                 "admissible choice of the boundaries (both a_b are unique).",),
          scope=_p(domain="the two WordNet-3.0 reconstructions (fixed objects)",
                   reading="the papers' own kind of taxonomy, reconstructed"),
          data="wordnet-3.0",
          conjuncts=(SENS, NORM),
          proof=Proof(kind="exact-decision", argument=(
              "δ = log₂ of a rational: the argmax of eq. (6.2) (a product of rationals), "
              "eq. (6.3), the sensitivity (ratios r(s′, c)/r(s, c) over every concept and "
              "value pair) and the diameter are compared exactly on both taxonomies")),
          mutants=(Mutant(kind="factor", conjunct="sensitivity",
                          description="Δ(m) claimed to be at most δ(a_b, a_t)/2",
                          check=lambda: check_eq_6_2_6_3_wordnet(factor=Fraction(1, 2))),
                   Mutant(kind="construction", conjunct="normalised",
                          description="a_t taken as the second most distant value from a_b",
                          check=lambda: check_eq_6_2_6_3_wordnet(second_farthest=True)))),
    Claim(id=E64, source=f"{F} §6.3.4 eq. (6.4) and the paragraph before Algorithm 6.3",
          statement="The centroid candidates τ(S(A)) of eq. (6.4) depend on the cluster: "
                    "drawing Expression (6.5) over them is not ε-DP for any ε > 0 and k ≥ 1 "
                    "(a substituted value makes an output possible that had probability 0), "
                    "while over τ(A) (Algorithm 6.3) the support is the same for every "
                    "cluster.",
          check=lambda: check_eq_6_4(paper_values(E64, "epsilon"), _k(E64).grid or ()),
          notes=("S = [a_b]·k against S′ = [a_t] + [a_b]·(k − 1) on privlab's sport and job "
                 "taxonomies at every ε and k of the thesis: a_t ∉ τ(S).  Over τ(A) the loss "
                 "of the same pair is finite (evidence).",),
          bounded=True,
          scope=_p(neighbour=SUB, domain="ε > 0, k ≥ 1 (checked: privlab's sport and job)"),
          params=(_eps(E64), _k(E64)),
          conjuncts=(LEAK, FIXED),
          mutants=(Mutant(kind="construction", conjunct="leak",
                          description="over τ(A) (Algorithm 6.3's candidates) some output "
                                      "claimed to have probability 0 under S and > 0 under S′",
                          check=lambda: check_eq_6_4((1.0,), (1, 5), leaky="taxonomy")),
                   Mutant(kind="construction", conjunct="fixed",
                          description="over τ(S(A)) (eq. 6.4's candidates) the support claimed "
                                      "the same for every cluster",
                          check=lambda: check_eq_6_4((1.0,), (1, 5), fixed="sample")))),
    Claim(id=E65, source=f"{F} §6.3.4 Expression (6.5), Proposition 9 and its proof",
          statement="The uncertainty of Expression (6.5) decreases as k grows: for a cluster "
                    "of fixed composition (S_k = a pattern of Dom(A) values repeated), the "
                    "probability of drawing an optimal centroid (a minimiser of m(S_k, ·)) is "
                    "non-decreasing in k and the entropy of the draw non-increasing, at every "
                    "ε > 0.",
          check=lambda: check_eq_6_5(paper_values(E65, "epsilon"), _k(E65).grid or ()),
          notes=("Reading of Proposition 9's second part ('an amount of uncertainty that "
                 "decreases as k grows'); its proof argues with the marginality growing with k. "
                 "Patterns [a] (every k) and [a, b] (even k) of every value of privlab's sport "
                 "and job taxonomies, at every ε and k of the thesis; float64 log-space "
                 "probabilities, optimal sets decided on the rationals.",
                 "Without a fixed composition the statement fails (mutant): one more record "
                 "of another value can lower the probability of the optimum."),
          bounded=True,
          scope=_p(domain="ε > 0, k ≥ 1, fixed composition (checked: sport, job)",
                   reading="'uncertainty' as P(optimal centroid) and the draw's entropy; "
                           "clusters compared at the same composition"),
          params=(_eps(E65), _k(E65)),
          mutants=(Mutant(kind="direction",
                          description="P(optimal centroid) claimed non-increasing in k",
                          check=lambda: check_eq_6_5((1.0,), (1, 2, 5), direction=-1)),
                   Mutant(kind="dropped-hypothesis",
                          description="the fixed composition dropped: a cluster of k + 1 "
                                      "records claimed at least as certain as one of k",
                          check=lambda: check_eq_6_5((1.0,), (2, 5), fixed=False)))),
    Claim(id="thesis:eq-6.7", source=f"{F} §6.3.6 eq. (6.7); §6.3.5",
          statement="In eq. (6.7) the distance between the boundaries of Dom(A_i) — the domain "
                    "interval [a_b, a_t] of a numerical attribute, a_b and a_t of eqs. "
                    "(6.2)–(6.3) for a categorical one — bounds every distance within Dom(A_i), "
                    "so each normalised term dist(a₁, a₂)/dist(a_b, a_t) lies in [0, 1] and "
                    "d(x₁, x₂) ≤ √m.",
          check=check_eq_6_7,
          notes=("Numerical terms hold exactly.  Categorical: fails on the 8-concept tree of "
                 "thesis:eq-6.2-6.3 (largest term log₂(9/5)/log₂(7/4) = 1.0503) and on "
                 "privlab's job taxonomy (1.0213); with one numerical attribute at distance "
                 "a_t − a_b besides, d > √2.",
                 "The order that eq. (6.7) induces stays data-independent (the boundaries do "
                 "not depend on the data); only the normalisation is off."),
          bounded=True,
          scope=_p(domain="every taxonomy / numerical domain (checked: numerical grid of 9 "
                          "points; every rooted tree with ≤ 8 concepts, sport, job)",
                   reading="'used to eliminate the influence of the attribute scale' read as "
                           "each normalised term lying in [0, 1], as for a numerical "
                           "attribute, and as §6.3.5's 'normalized values in the [0, 1] "
                           "range'"),
          params=(CONCEPTS,),
          refutation=Refutation(kind="false-statement")),
)

TABLES: dict[str, Any] = {}
