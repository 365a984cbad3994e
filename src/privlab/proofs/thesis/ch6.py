"""Claim ledger: DP releases via microaggregation (thesis ch.6 §6.2–6.3, vldb14 §3–4, irm §3).

Findings (exhaustive sweeps of :mod:`privlab.verify.releases.exact` for n ≤ 6 and exact
instances at every k of the seeds' registries, :mod:`privlab.proofs.parameters`; Fractions):

* thesis Prop. 8 / vldb14 Prop. 3 (Δ(I_r∘M) ≤ Δ(I_r)/k): the row of the *modified* record can
  move by the whole range (n = 4, k = 2: change 1 > 1/2; the same at every k ≥ 2 with
  n = 2k) — refuted.
* Univariate (m = 1) insensitive MDAV / individual ranking: the ordered centroid list moves by
  at most Δ/k, attained (irm Lemma 1; the monotone-shift argument proves it for all n) —
  confirmed on the grid.
* thesis §6.3.1 scale Δ/(kε) with m = 2 attributes: centroid-list sensitivity 7/4 > Δ/k = 1;
  with rows shuffled the exact loss of the witness pair is 7/4·ε (matching bound, attained),
  at n = 4, k = 2 and at every k ≥ 2 with n = 2k — refuted; vldb14's (n/k)·Δ/(kε) covers it
  (q·m/k = 2).
* Shared noise with rows aligned to the records (thesis Alg. 6.2, vldb14 Alg. 3 "for r = 1 to
  n") releases the partition through ties — ε = ∞; irm Algorithm 1 with m ≥ 2 releases the
  pattern of per-attribute cluster tuples through ties — Lemma 3 refuted (ε = ∞).
* Per-record noise multiplies the univariate sensitivity by k (irm's note) — confirmed.
* (n/k)·Δ/k ≤ Δ ⟺ k ≥ √n — verified symbolically (sympy).
* Prop. 9 / vldb14 Prop. 4 take Δ(m) = δ(a_b, a_t); on an unbalanced taxonomy (the project's
  ``job``) the quality's true sensitivity is 2% larger and one cluster's draw loses up to
  1.0213·ε at the thesis's ε and k (:mod:`.sec634_em`); whole-release composition over q
  clusters (thesis factor 1 → q·ε) is checked in :mod:`privlab.proofs.thesis.ch6_mixed`.
* Under add/remove neighbours (the thesis's Def. 3) every release reveals n — ε = ∞.
"""
from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from functools import cache
from math import isqrt
from typing import Any

from privlab.proofs.parameters import paper_values
from privlab.proofs.setting import AR, SUB, _p, _priv, _x
from privlab.proofs.thesis import sec634_em as em
from privlab.proofs.thesis.ch6_mutants import _squared_metric
from privlab.types import CheckResult, Claim, Method, Mutant, Param, Proof, Refutation

F, V, IRM = "000_65177858bc9aa63c.txt", "001_b1bb29bd0e0b4af8.txt", "004_e4358174ca440815.txt"


@cache
def _sw(n: int, k: int, m: int, kind: str, matching: bool = False) -> dict[str, Any]:
    from privlab.verify.releases.exact import sweep

    return sweep(n, k, m, kind, matching=matching)


def _grid(claim_id: str, key: str, *extra: Any) -> tuple[Any, ...]:
    """The seed's registry values of ``key`` with ``extra`` (boundary cases), sorted."""
    return tuple(sorted({*paper_values(claim_id, key), *extra}))


def _eps(claim_id: str) -> Param:
    """ε ∈ (0, ∞) on the seed's own ε (the check evaluates the loss at each of them)."""
    return Param(name="epsilon", lo=0, registry="epsilon", grid=_grid(claim_id, "epsilon"))


def _k(claim_id: str, lo: int = 1) -> Param:
    """k ≥ ``lo`` on the seed's own k and the boundary k = ``lo``."""
    return Param(name="k", lo=lo, lo_closed=True, integer=True, registry="k", boundary=(lo,),
                 grid=tuple(int(k) for k in _grid(claim_id, "k", lo) if k >= lo))


def ks_of(claim_id: str, lo: int = 1) -> tuple[int, ...]:
    return _k(claim_id, lo).grid or ()


def eps_of(claim_id: str) -> tuple[float, ...]:
    return _eps(claim_id).grid or ()


# ---- exact instances at every k of the registries ------------------------------------------
# The exhaustive sweeps (privlab.verify.releases.exact) cover n ≤ 6; the papers' k reach 500.
# At each k the checks below run the implementation (order_partition) on explicit neighbouring
# pairs of n ∈ {k, 2k, 2k + 1, …} records and compute every released quantity exactly
# (Fractions): the constructions that attain the bounds, and seeded random data sets on the
# grid {0, ¼, ½, ¾, 1}^m with chosen records moved to the corners.


_Z = Fraction(0)
G = 4
"""Random data sets live on the grid {0, 1/G, …, 1}^m (integers in units of 1/G)."""


def _centroids_of(v: Any, den: int, k: int, kind: str
                  ) -> tuple[Any, list[list[Fraction]], list[list[int]]]:
    """Cluster labels (n, m) of the implementation (order_partition on v/den, as the sweeps)
    and the exact cluster centroids and sizes of the integer table ``v`` (units of 1/den)."""
    import numpy as np

    from privlab.mechanisms.releases.numerical import order_partition

    n, m = v.shape
    lab, _ = order_partition(v / den, k, kind)
    lab2 = lab[:, None].repeat(m, axis=1) if lab.ndim == 1 else lab
    q = int(lab2.max()) + 1
    sums = np.zeros((q, m), dtype=np.int64)
    sizes = np.zeros((q, m), dtype=np.int64)
    cols = np.broadcast_to(np.arange(m)[None, :], (n, m))
    np.add.at(sums, (lab2, cols), v)
    np.add.at(sizes, (lab2, cols), 1)
    cents = [[Fraction(int(sums[i, j]), int(sizes[i, j]) * den) if sizes[i, j] else _Z
              for j in range(m)] for i in range(q)]
    return lab2, cents, sizes.tolist()


def _pair_quantities(x: Any, xp: Any, den: int, k: int, kind: str, *, row: bool = False
                     ) -> dict[str, Any]:
    """The released quantities' exact changes between neighbours x, x′ (integer (n, m)
    tables in units of 1/den; results in units of range): ``centroids`` (ordered centroid
    list, L1), ``weighted`` (each centroid × its cluster size), with ``row`` the largest change
    of one record's row (Prop. 8); the centroid lists and q."""
    la, ca, sa = _centroids_of(x, den, k, kind)
    lb, cb, sb = _centroids_of(xp, den, k, kind)
    if sa != sb:
        raise AssertionError("cluster sizes are fixed by n")
    d = [[abs(u - v) for u, v in zip(ra, rb, strict=True)] for ra, rb in zip(ca, cb, strict=True)]
    out: dict[str, Any] = {
        "centroids": sum((sum(r, _Z) for r in d), _Z),
        "weighted": sum((s * e for dr, sr in zip(d, sa, strict=True)
                         for e, s in zip(dr, sr, strict=True)), _Z),
        "q": len(ca), "c": [tuple(r) for r in ca], "c_prime": [tuple(r) for r in cb]}
    if row:  # one record's row is its cluster's centroid: compare per (label, label') pattern
        pats = {(tuple(a), tuple(b)) for a, b in zip(la.tolist(), lb.tolist(), strict=True)}
        out["row"] = max(sum((abs(ca[i][j] - cb[i2][j]) for j, (i, i2) in enumerate(
            zip(pa, pb, strict=True))), _Z) for pa, pb in pats)
    return out


def _table(values: Sequence[Sequence[int]]) -> Any:
    import numpy as np

    return np.array(values, dtype=np.int64)


def _moved(x: Any, r: int, new: Sequence[int]) -> Any:
    xp = x.copy()
    xp[r] = new
    return xp


def _random_pairs(n: int, m: int, seed: int) -> Any:
    """Two seeded data sets on {0, ¼, ½, ¾, 1}^m (units of 1/G); six records spread over the
    index range are each moved to the corners (m = 2) or to 0, 1 and a random grid value
    (m = 1)."""
    import numpy as np

    rng = np.random.default_rng(seed)
    for _ in range(2):
        base = rng.integers(0, G + 1, (n, m)).astype(np.int64)
        for r in sorted({int(i) for i in np.linspace(0, n - 1, 6)}):
            news = ((0, 0), (G, G), (0, G), (G, 0)) if m == 2 else (
                (0,), (G,), (int(rng.integers(0, G + 1)),))
            for new in news:
                if tuple(base[r]) != new:
                    yield base, _moved(base, r, new)


def _univariate_pairs(n: int, seed: int) -> Any:
    """irm §3.1's extreme (every record at the maximum, the last one drops to the minimum), one
    record rising from the minimum to the maximum, and the seeded random pairs (units 1/G)."""
    top, low = _table([[G]] * n), _table([[0]] * n)
    yield top, _moved(top, n - 1, (0,))
    yield low, _moved(low, 0, (G,))
    yield from _random_pairs(n, 1, seed)


def _sizes(k: int, largest: int) -> tuple[int, ...]:
    """n = k (one cluster: k = n), 2k, 2k + 1 (a cluster of k + 1), and 3k while 3k ≤
    ``largest``."""
    return tuple(n for n in (k, 2 * k, 2 * k + 1, 3 * k) if n <= max(largest, 2 * k + 1))


def _moved_record(x: Any, xp: Any) -> dict[str, Any]:
    import numpy as np

    r = int(np.flatnonzero((x != xp).any(axis=1))[0])
    return {"n": len(x), "record": r, "from": [str(Fraction(int(e), G)) for e in x[r]],
            "to": [str(Fraction(int(e), G)) for e in xp[r]]}


@cache
def _univariate_instances(kind: str, k: int) -> dict[str, Any]:
    """The largest exact ordered-list and weighted changes over the univariate pairs at k."""
    best: dict[str, tuple[Fraction, Any]] = {"centroids": (Fraction(-1), None),
                                             "weighted": (Fraction(-1), None)}
    count, ns = 0, _sizes(k, 90)
    for n in ns:
        for x, xp in _univariate_pairs(n, 1000 * k + n):
            qs = _pair_quantities(x, xp, G, k, kind)
            count += 1
            for key, (top, _) in best.items():
                if qs[key] > top:
                    best[key] = (qs[key], _moved_record(x, xp))
    return {"k": k, "n": list(ns), "pairs": count,
            **{key: str(v) for key, (v, _) in best.items()},
            **{f"{key}_at": w for key, (_, w) in best.items()},
            "_exact": {key: v for key, (v, _) in best.items()}}


_SMALL = ((3, 1), (2, 2), (3, 3), (4, 2), (5, 2), (6, 3))
"""(n, k) of the exhaustive univariate sweeps: k = 1, k = n, and two clusters."""


def _univariate(kind: str, ks: Sequence[int], *, bound_factor: Fraction = Fraction(1),
                epsilons: Sequence[float] = ()) -> CheckResult:
    """Univariate ordered centroid list: L1 change ≤ ``bound_factor``·Δ/k, exhaustively for
    (n, k) ∈ _SMALL and on the exact instances at every k of ``ks``; with ``epsilons`` also the
    Laplace loss of the list at scale Δ/(kε), (L1 change)·kε/Δ, against ε."""
    exhaustive = {f"n={n},k={k}": _sw(n, k, 1, kind)["centroids"] for n, k in _SMALL}
    over = {c: v for (_, k), (c, v) in zip(_SMALL, exhaustive.items(), strict=True)
            if Fraction(v) > bound_factor / k}
    inst = {k: _univariate_instances(kind, k) for k in ks}
    over.update({f"k={k} (instances)": i["centroids"] for k, i in inst.items()
                 if i["_exact"]["centroids"] > bound_factor / k})
    worst = max([Fraction(v) * k for (_, k), v in zip(_SMALL, exhaustive.values(), strict=True)]
                + [i["_exact"]["centroids"] * k for k, i in inst.items()])
    losses = {str(e): {"loss_bound": float(worst) * e, "loss_over_epsilon": str(worst)}
              for e in epsilons}
    ok = not over and worst <= 1
    return CheckResult(
        holds=ok, claim="univariate ordered centroid list: L1 sensitivity ≤ Δ/k"
        + (" (Laplace Δ/(kε) on it is ε-DP)" if epsilons else ""),
        value=str(worst), method=Method.PROPERTY,
        evidence={"exhaustive_max_by_case": exhaustive,
                  "instances_by_k": {k: {a: b for a, b in i.items() if a != "_exact"}
                                     for k, i in inst.items()},
                  "largest_change_times_k": str(worst), "laplace_loss_by_epsilon": losses,
                  "general_proof": (
                      "replacing x by x' ≥ x makes every order statistic weakly larger "
                      "with total increase x' − x ≤ Δ; cluster sums move by non-negative "
                      "amounts summing to ≤ Δ, each centroid by its sum's change / size "
                      "≥ k, so Σ_i |Δc_i| ≤ Δ/k (irm Lemma 1's argument; not machine-checked)"),
                  "laplace": "one draw per centroid at scale Δ/(kε); with rows shuffled the "
                             "loss of a pair is at most the ordered lists' L1 change over the "
                             "scale (ch6_shuffled), i.e. (change·k/Δ)·ε"},
        counterexample=None if ok else {"over_bound": over, "bound": f"{bound_factor}·Δ/k"})


def _prop_8_pairs(k: int) -> dict[str, tuple[Any, Any]]:
    """Neighbours of n = 2k univariate records (values 0, 1): ``last-moves`` x = [0]×(k−1) +
    [1]×k + [0] with the last record moved 0 → 1 (it leaves the lower cluster for the upper
    one), ``first-moves`` x = [0]×(2k−1) + [1] with the first record moved 0 → 1."""
    last = _table([[0]] * (k - 1) + [[1]] * k + [[0]])
    first = _table([[0]] * (2 * k - 1) + [[1]])
    return {"last-moves": (last, _moved(last, 2 * k - 1, (1,))),
            "first-moves": (first, _moved(first, 0, (1,)))}


def check_prop_8(ks: Sequence[int]) -> CheckResult:
    """Prop. 8 / vldb14 Prop. 3 on univariate insensitive MDAV: the largest change of one
    record's centroid row, exhaustively for (n, k) ∈ {(3, 1), (2, 2), (3, 3), (4, 2)} and on
    the two constructions of :func:`_prop_8_pairs` at every k of ``ks`` (exact Fractions)."""
    exhaustive = {(n, k): _sw(n, k, 1, "insensitive-mdav") for n, k in _SMALL[:4]}
    rows: dict[int, dict[str, Any]] = {}
    for k in ks:
        got = {name: _pair_quantities(x, xp, 1, k, "insensitive-mdav", row=True)["row"]
               for name, (x, xp) in _prop_8_pairs(k).items()}
        top = max(got, key=lambda c: got[c])
        rows[k] = {"n": 2 * k, "row_change": {c: str(v) for c, v in got.items()},
                   "largest": str(got[top]), "over_delta_over_k": str(got[top] * k),
                   "construction": top, "holds": got[top] <= Fraction(1, k)}
    failing = [k for k, r in rows.items() if not r["holds"]]
    failing_ex = [nk for nk, s in exhaustive.items() if Fraction(s["row"]) > Fraction(1, nk[1])]
    ok = not failing and not failing_ex
    cex = None
    if failing:
        k = failing[0]
        x, xp = _prop_8_pairs(k)[rows[k]["construction"]]
        cex = {"k": k, "n": 2 * k, "construction": rows[k]["construction"],
               "x": [int(r[0]) for r in x], "x_prime": [int(r[0]) for r in xp],
               "row_change": rows[k]["largest"], "bound_delta_over_k": str(Fraction(1, k)),
               "failing_k": failing}
    largest = max((Fraction(r["largest"]) for r in rows.values()), default=None)
    return CheckResult(holds=ok, claim="Δ(I_r∘M) ≤ Δ(I_r)/k",
        value=None if largest is None else f"{largest}·Δ(I_r)", method=Method.EXACT,
        evidence={"exhaustive": {f"n={n},k={k}": {"grid": s["grid"], "pairs": s["pairs"],
                                                  "row": s["row"]}
                                 for (n, k), s in exhaustive.items()},
                  "by_k": rows, "units": "range Δ(I_r) = 1"},
        counterexample=cex)


def _scale_pair(k: int) -> tuple[Any, Any]:
    """n = 2k records in [0, 1]² (units of ½): x = [(0, 1)]×k + [(1, 0)]×(k − 1) + [(½, 0)],
    x′ with the last record moved to (1, 0) — the sweep's witness at k = 2, grown with k."""
    x = _table([[0, 2]] * k + [[2, 0]] * (k - 1) + [[1, 0]])
    return x, _moved(x, 2 * k - 1, (2, 0))


def _halves(x: Any) -> list[list[str]]:
    return [[str(Fraction(int(e), 2)) for e in r] for r in x]


@cache
def _scale_instance(k: int) -> dict[str, Any]:
    """Exact loss (× ε) of the shuffled release with Laplace m/(kε), m = 2, one draw per
    centroid, on :func:`_scale_pair` (:func:`.ch6_shuffled.shuffled_loss`: the matching bound,
    attained at an explicit output; both scale as 1/b, so the loss is linear in ε)."""
    from privlab.proofs.thesis.ch6_shuffled import shuffled_loss

    qs = _pair_quantities(*_scale_pair(k), 2, k, "insensitive-mdav")
    coords = tuple(sorted({v for c in (qs["c"], qs["c_prime"]) for r in c for v in r}))
    res = shuffled_loss(qs["c"], qs["c_prime"], values=coords)
    ex = res["exact_loss_units"]
    return {"k": k, "n": 2 * k, "ordered_list_l1": str(qs["centroids"]),
            "matching_bound": str(res["matching_bound"]), "attained_at": res["attained_at"],
            "loss_over_epsilon": None if ex is None else str(ex * Fraction(k, 2)),
            "_exact": None if ex is None else ex * Fraction(k, 2)}


def check_noise_scale_multivariate(ks: Sequence[int] = (2,),
                                   epsilons: Sequence[float] = (1.0,)) -> CheckResult:
    """Laplace Δ(I_r)/(kε) (Δ(I_r) = m = 2) on the shuffled insensitive-MDAV centroids: the
    supremum of the loss over the grid sweep (n = 4, k = 2), the exact loss of
    :func:`_scale_pair` at every k ≥ 2 of ``ks`` and, at k = 1, the sweep's largest matching
    bound (n = 2); each (× ε) evaluated at every ε of ``epsilons``."""
    s = _sw(4, 2, 2, "insensitive-mdav", matching=True)
    sweep_loss = _witness_loss(s, 4, 2, 2)
    by_k: dict[int, dict[str, Any]] = {}
    for k in ks:
        if k == 1:
            s1 = _sw(2, 1, 2, "insensitive-mdav", matching=True)
            by_k[1] = {"k": 1, "n": 2, "grid": s1["grid"], "max_matching_bound": s1["matching"],
                       "loss_over_epsilon": str(Fraction(s1["matching"]) / 2),
                       "_exact": Fraction(s1["matching"]) / 2, "what": "upper bound, sweep"}
        else:
            by_k[k] = _scale_instance(k)
    undecided = [k for k, r in by_k.items() if r["_exact"] is None]
    table = {str(e): {str(k): float(r["_exact"]) * e for k, r in by_k.items()
                      if r["_exact"] is not None} for e in epsilons}
    failing = sorted((e, k) for e in epsilons for k, r in by_k.items()
                     if r["_exact"] is not None and r["_exact"] > 1)
    worst = max((r["_exact"] for r in by_k.values() if r["_exact"] is not None),
                default=Fraction(0))
    refuted = bool(failing) or (sweep_loss["exact_loss_float"] or 0) > 1
    return CheckResult(
        holds=not refuted and not undecided,
        claim="Laplace Δ(I_r)/(kε) on insensitive-MDAV centroids (m = 2, one draw per centroid, "
              "rows shuffled) is ε-DP", value=f"{worst}·ε",
        method=Method.EXACT, decided=refuted or not undecided,
        evidence={"max_l1_units_ordered_list": s["centroids"],  # the sweep n = 4, k = 2
                  "loss_on_witness_pair": sweep_loss, "grid": s["grid"],
                  "datasets": s["datasets"],
                  "by_k": {k: {a: b for a, b in r.items() if a != "_exact"}
                           for k, r in by_k.items()},
                  "loss_by_epsilon_and_k": table,
                  "note": "the exact loss of a pair is the matching bound over the scale, "
                          "attained at an output that does not depend on the scale, so it is "
                          "(bound·k/m)·ε at every ε (exact Fractions)"},
        counterexample=None if not refuted else {
            "weakest": {"epsilon": failing[0][0], "k": failing[0][1]} if failing else None,
            "pair": {"x": _halves(_scale_pair(2)[0]), "x_prime": _halves(_scale_pair(2)[1])},
            "loss_over_epsilon": str(worst), "failing_instances": len(failing)})


@cache
def _multivariate_instances(k: int) -> dict[str, Any]:
    """vldb14 scale (n/k)·m/(kε), m = 2: the largest loss (× ε) over the random pairs and
    :func:`_scale_pair` at n ∈ _sizes(k, 30); the ordered list's L1 change bounds the
    shuffled release's loss: loss/ε ≤ L1·k²/(n·m)."""
    best, at, count = Fraction(-1), None, 0
    for n in _sizes(k, 30):
        pairs = [*((G, x, xp) for x, xp in _random_pairs(n, 2, 7000 * k + n)), *(
            [(2, *_scale_pair(k))] if n == 2 * k else [])]
        for den, x, xp in pairs:
            qs = _pair_quantities(x, xp, den, k, "insensitive-mdav")
            count += 1
            loss = qs["centroids"] * k * k / (n * 2)
            if loss > best:
                best, at = loss, {"n": n, "q": qs["q"], "ordered_list_l1": str(qs["centroids"]),
                                  "bound_q_m_over_k": str(Fraction(qs["q"] * 2, k))}
    return {"k": k, "n": list(_sizes(k, 30)), "pairs": count, "loss_over_epsilon": str(best),
            "at": at, "_exact": best}


def check_vldb14_scale(ks: Sequence[int] = (2,), epsilons: Sequence[float] = (1.0,)
                       ) -> CheckResult:
    """vldb14 §4's (n/k)·Δ/(kε) on the shared, shuffled centroids (m = 2): exhaustive sweeps
    (n = 4, k = 2; n = 2, k = 1; n = 2, k = 2) bound the ordered list's L1 change by q·m/k, the
    exact instances at every k of ``ks`` give its loss (× ε), evaluated at every ε of
    ``epsilons``; the lab's certificate at Census's n = 1080, k = 33."""
    from privlab.verify.releases.certificate import certify_dp_release

    sweeps = {}
    for n, k in ((4, 2), (2, 1), (2, 2)):
        s = _sw(n, k, 2, "insensitive-mdav")
        q = n // k
        sweeps[f"n={n},k={k}"] = {"max_l1": s["centroids"], "bound_q_m_over_k": str(
            Fraction(q * 2, k)), "loss_over_epsilon": str(Fraction(s["centroids"]) * k * k
                                                          / (n * 2))}
    inst = {k: _multivariate_instances(k) for k in ks}
    worst = max([Fraction(r["loss_over_epsilon"]) for r in sweeps.values()]
                + [r["_exact"] for r in inst.values()])
    cert = certify_dp_release("insensitive-mdav", "vldb14", 1080, 33, 1.0, 4)
    ok = worst <= 1 and cert.holds
    return CheckResult(holds=ok,
                       claim="(n/k)·Δ/(kε) Laplace on the shared, shuffled centroids is ε-DP",
                       value=str(worst), method=Method.PROPERTY,
                       evidence={"sweeps": sweeps,
                                 "instances_by_k": {k: {a: b for a, b in r.items()
                                                        if a != "_exact"}
                                                    for k, r in inst.items()},
                                 "loss_by_epsilon": {str(e): float(worst) * e
                                                     for e in epsilons},
                                 "census_certificate_epsilon": cert.certified_epsilon,
                                 "argument": cert.argument},
                       counterexample=None if ok else {"loss_over_epsilon": str(worst)})


def _leak_rows(ks: Sequence[int], epsilons: Sequence[float], kind: str, scale: str, m: int,
               rows: str) -> dict[int, dict[str, Any]]:
    """At each k the lab's certificate (n = 2k) and, when it names a structural leak, the
    leak replayed on the implementation's partition: for aligned rows, rows 0 and 1 share a
    cluster in x and not in x′; for shuffled rows of individual ranking, every record's
    attribute-cluster tuple is shared in x and record 0's is unique in x′."""
    import numpy as np

    from privlab.mechanisms.releases.numerical import order_partition
    from privlab.verify.releases.certificate import certify_dp_release

    out: dict[int, dict[str, Any]] = {}
    for k in ks:
        n = 2 * k
        certs = {e: certify_dp_release(kind, scale, n, k, e, m, "shared", rows) for e in epsilons}
        leak = next(iter(certs.values())).counterexample
        row: dict[str, Any] = {"n": n, "certified_epsilon": {
            str(e): c.certified_epsilon for e, c in certs.items()},
            "holds_at_every_epsilon": all(c.holds for c in certs.values())}
        if leak is not None:
            labs = [order_partition(np.asarray(leak[key], dtype=float), k, kind)[0]
                    for key in ("x", "x_prime")]
            if rows == "aligned":
                replay = [bool(lab[0] == lab[1]) for lab in labs]
                row["event_replayed"] = replay == [True, False]
            else:
                tup = [[tuple(np.atleast_1d(r)) for r in lab] for lab in labs]
                shared = [all(t.count(r) >= 2 for r in t) for t in tup]
                row["event_replayed"] = shared == [True, False]
            row["event"] = leak["event"]
        out[k] = row
    return out


def check_aligned_shared_leak(ks: Sequence[int] = (2,), epsilons: Sequence[float] = (1.0,)
                              ) -> CheckResult:
    """vldb14 Algorithm 3 / thesis Algorithm 6.2 in record order with one draw per centroid
    (vldb14 scale): the partition leak at every k ≥ 2 of ``ks`` (ε = ∞), replayed on the
    implementation's clusters; k = 1 (singletons) is certified at every ε."""
    s = _sw(4, 2, 1, "insensitive-mdav")
    rows = _leak_rows(ks, epsilons, "insensitive-mdav", "vldb14", 1, "aligned")
    leaking = [k for k, r in rows.items() if r.get("event_replayed")]
    bad = [k for k, r in rows.items() if "event" in r and not r["event_replayed"]]
    ok = not leaking and all(r["holds_at_every_epsilon"] for r in rows.values())
    return CheckResult(holds=ok, claim="record-aligned release with shared noise is ε-DP",
                       value=None if not leaking else "∞", method=Method.EXACT,
                       decided=not bad,
                       evidence={"exhaustive_partition_change_n4_k2": s["partition_changes"],
                                 "by_k": rows, "leaking_k": leaking},
                       counterexample=None if ok or not leaking else {
                           "k": leaking[0], "n": 2 * leaking[0],
                           "event": rows[leaking[0]]["event"], "p_x": 1.0, "p_x_prime": 0.0,
                           "pair_n4_k2": s["partition_changes"]})


def check_irm_lemma_3(ks: Sequence[int] = (2,), epsilons: Sequence[float] = (1.0,),
                      ms: Sequence[int] = (1, 2)) -> CheckResult:
    """irm Algorithm 1 (individual ranking, shared noise m·Δ_j/(kε), rows shuffled, each row
    keeping its record's attribute combination): for m ≥ 2 the pattern of attribute-cluster
    tuples is released (ε = ∞), replayed at every k ≥ 2 of ``ks``; m = 1 and k = 1 are
    certified (exhaustive sweep n = 4, k = 2: no tuple pattern for m = 1)."""
    by_m = {m: _leak_rows(ks, epsilons, "individual-ranking", "irm", m, "shuffled") for m in ms}
    s2 = _sw(4, 2, 2, "individual-ranking")
    s1 = _sw(4, 2, 1, "individual-ranking")
    leaking = [(m, k) for m, rows in by_m.items() for k, r in rows.items()
               if r.get("event_replayed")]
    bad = [(m, k) for m, rows in by_m.items() for k, r in rows.items()
           if "event" in r and not r["event_replayed"]]
    ok = not leaking and all(r["holds_at_every_epsilon"] for rows in by_m.values()
                             for r in rows.values())
    return CheckResult(holds=ok, claim="irm Algorithm 1 (shared noise) is ε-DP",
                       value=None if not leaking else "∞", method=Method.EXACT,
                       decided=not bad,
                       evidence={"exhaustive_tuple_pattern_change_n4_k2_m2":
                                     s2["tuple_pattern_changes"],
                                 "exhaustive_tuple_pattern_change_n4_k2_m1":
                                     s1["tuple_pattern_changes"],
                                 "per_attribute_centroid_sensitivity": s2["centroids"],
                                 "by_m_and_k": by_m, "leaking": leaking},
                       counterexample=None if ok or not leaking else {
                           "m": leaking[0][0], "k": leaking[0][1], "n": 2 * leaking[0][1],
                           "event": by_m[leaking[0][0]][leaking[0][1]]["event"],
                           "p_x": 1.0, "p_x_prime": 0.0,
                           "pair_n4_k2": s2["tuple_pattern_changes"]})


def check_irm_note(ks: Sequence[int] = (2, 3), *, offset: int = 0) -> CheckResult:
    """Per-record noise releases each centroid × its cluster size: the weighted list's
    sensitivity over the ordered list's.  Exhaustive for (n, k) ∈ {(3, 1), (4, 2), (6, 3)};
    at every k of ``ks`` the exact instances attain Δ/k (ordered list; irm Lemma 1's bound)
    and Δ (weighted; the cluster sums move by non-negative amounts summing to ≤ Δ), so their
    ratio is the ratio of the sensitivities.  ``offset`` = 1 is the mutant k + 1."""
    cases = ((3, 1), (4, 2), (6, 3))
    ratios = {f"n={n},k={k} (exhaustive)": (
        Fraction(_sw(n, k, 1, "individual-ranking")["weighted"])
        / Fraction(_sw(n, k, 1, "individual-ranking")["centroids"]), k) for n, k in cases}
    for k in ks:
        i = _univariate_instances("individual-ranking", k)["_exact"]
        attains = i["centroids"] == Fraction(1, k) and i["weighted"] == 1
        ratios[f"k={k} (instances{'' if attains else ', bounds not attained'})"] = (
            i["weighted"] / i["centroids"], k)
    ok = all(r == k + offset for r, k in ratios.values())
    shown = {c: str(r) for c, (r, _) in ratios.items()}
    return CheckResult(holds=ok, claim="per-record noise multiplies the sensitivity by k",
                       value=shown, method=Method.PROPERTY, evidence={"ratio": shown},
                       counterexample=None if ok else {"ratio": shown,
                                                       "claimed": f"k + {offset}"})


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



def check_add_remove(ks: Sequence[int] = (2,), epsilons: Sequence[float] = (1.0,)
                     ) -> CheckResult:
    """The lab's certificate under add/remove-one at n = 2k for every k and ε of the grid:
    every release has exactly n rows, so "n rows" has probability 1 under D and 0 under a
    neighbour of n − 1 records (ε = ∞ whatever k and ε)."""
    from privlab.verify.releases.certificate import certify_dp_release

    certs = {(k, e): certify_dp_release("insensitive-mdav", "thesis", 2 * k, k, e, 1,
                                        neighbour="add-remove") for k in ks for e in epsilons}
    ok = all(c.certified_epsilon is not None for c in certs.values())
    leak = next((c.counterexample for c in certs.values() if c.counterexample), None)
    return CheckResult(holds=ok, claim="the release is ε-DP under add/remove-one neighbours",
                       value=None if ok else "∞", method=Method.EXACT,
                       evidence={"certified_epsilon_by_k_and_epsilon": {
                           f"k={k},ε={e:g}": c.certified_epsilon for (k, e), c in certs.items()},
                           "reason": next(iter(certs.values())).reason},
                       counterexample=None if ok else {
                           "event": leak["event"] if leak else None, "n": len(leak["x"])
                           if leak else None, "p_x": 1.0, "p_x_prime": 0.0,
                           "every_k_and_epsilon": len(certs)})


def check_sqrt_n(*, strict: bool = False) -> CheckResult:
    """vldb14 §4: (n/k)·Δ/k ≤ Δ ⟺ k ≥ √n for n, k, Δ > 0, so "smaller than Δ" needs k ≥ √n.

    sympy: (n/k)·Δ/k − Δ = (Δ/k²)·(√n − k)(√n + k) with Δ/k² > 0 and √n + k > 0, so the sign
    of the difference is that of √n − k.  ``strict`` (a mutant) claims the equivalence with
    k > √n; the checker then evaluates both sides at k = √n.  The integer pairs 1 ≤ k ≤ n ≤ 1200
    are scanned as a cross-check, and the papers' (n, k) are listed."""
    import sympy as sp

    n, k, d = sp.symbols("n k Delta", positive=True)
    lhs = (n / k) * d / k
    identity = sp.simplify(lhs - d - (d / k**2) * (sp.sqrt(n) - k) * (sp.sqrt(n) + k)) == 0
    signs = bool((d / k**2).is_positive) and bool((sp.sqrt(n) + k).is_positive)
    at_root = sp.simplify(lhs.subs(k, sp.sqrt(n)) - d)  # the two relations differ only there
    mutant_fails = strict and at_root == 0  # lhs ≤ Δ holds at k = √n, k > √n does not
    def claimed(nn: int, kk: int) -> bool:  # k ≥ √n as ⌈√n⌉ ≤ k; the mutant k > √n
        return kk * kk > nn if strict else kk >= isqrt(nn - 1) + 1

    bad = [(nn, kk) for nn in range(1, 1201) for kk in range(1, nn + 1)
           if (nn <= kk * kk) != claimed(nn, kk)]  # (n/k)·Δ/k ≤ Δ ⟺ n ≤ k²
    paper = {f"n={nn},k={kk}": {"sqrt_n": round(float(sp.sqrt(nn)), 4),
                                "n_over_k_squared": str(Fraction(nn, kk * kk)),
                                "k_at_least_sqrt_n": kk * kk >= nn}
             for nn, kk in ((1080, 33), (30162, 174))}
    ok = identity and signs and not mutant_fails and not bad
    return CheckResult(holds=ok, claim="(n/k)·Δ/k ≤ Δ ⟺ k " + (">" if strict else "≥") + " √n",
                       value=len(bad), method=Method.SYMBOLIC,
                       evidence={"identity": "(n/k)·Δ/k − Δ = (Δ/k²)(√n − k)(√n + k)",
                                 "identity_holds": identity, "positive_factors": signs,
                                 "difference_at_k_equal_sqrt_n": str(at_root),
                                 "integer_scan": "1 ≤ k ≤ n ≤ 1200",
                                 "paper_instances (vldb14 §5: Census, Adult)": paper},
                       counterexample=None if ok else {
                           "n": 4, "k": 2, "lhs_over_delta": "1",
                           "why": "at k = √n, (n/k)·Δ/k = Δ ≤ Δ, but k > √n is false",
                           "integer_pairs": bad[:3]})


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


U, NS = "thesis:sec-6.3.1-univariate", "thesis:sec-6.3.1-noise-scale"
VS = "vldb14:sec-4-noise-scale"
A3, L1, L3, NOTE = "vldb14:alg-3", "irm:lemma-1", "irm:lemma-3", "irm:sec-3.2-note"
AddR = "thesis:sec-6.3-add-remove"
PROP_8_NOTE = ("Univariate insensitive MDAV, exact Fractions: exhaustive sweeps (n, k) ∈ {(3, 1), "
               "(2, 2), (3, 3), (4, 2)} and, at every k of the seed, n = 2k records of values 0 "
               "and 1 with one record moved 0 → 1 (two constructions): at every k ≥ 2 one "
               "record's row moves by the whole range Δ(I_r) = k·Δ(I_r)/k; k = 1 and k = n "
               "hold.")
UNIVARIATE_NOTE = ("Exhaustive sweeps for (n, k) ∈ {(3, 1), (2, 2), (3, 3), (4, 2), (5, 2), "
                   "(6, 3)}; at every k of the seed, exact instances at n ∈ {k, 2k, 2k + 1} "
                   "(and 3k for k ≤ 30): irm §3.1's extreme pair, one record rising 0 → 1, and "
                   "seeded data sets on {0, ¼, …, 1} with six records moved.  The largest "
                   "change is Δ/k at every k (attained); the general proof is irm Lemma 1's "
                   "monotone-shift argument (in the evidence, not machine-checked).")


CLAIMS: tuple[Claim, ...] = (
    Claim(id="thesis:prop-8", source=f"{F} §6.2 Proposition 8",
          statement="Δ(I_r∘M) ≤ Δ(I_r)/k for mean-centroid microaggregation.",
          check=lambda: check_prop_8(ks_of("thesis:prop-8")),
          notes=("I_r∘M read as the centroid that replaces record r; the modified record itself "
                 "can jump between clusters.",
                 PROP_8_NOTE),
          scope=_p(neighbour=SUB, domain="k ≥ 1, n ≥ k (checked: m = 1, insensitive MDAV)",
                   reading="I_r∘M is the centroid replacing record r"),
          params=(_k("thesis:prop-8"),),
          refutation=Refutation(kind="false-statement")),
    Claim(id="vldb14:prop-3", source=f"{V} §3 Proposition 3",
          statement="Δ(I_r∘M) ≤ Δ(I_r)/k (r-th record).",
          check=lambda: check_prop_8(ks_of("vldb14:prop-3")),
          notes=(PROP_8_NOTE,),
          scope=_p(neighbour=SUB, domain="k ≥ 1, n ≥ k (checked: m = 1, insensitive MDAV)",
                   reading="I_r∘M is the centroid replacing record r"),
          params=(_k("vldb14:prop-3"),),
          refutation=Refutation(kind="false-statement")),
    Claim(id="thesis:sec-6.3.1-univariate", source=f"{F} §6.3.1 (m = 1)",
          statement="With one attribute, Laplace Δ/(kε) on the centroids gives ε-DP.",
          check=lambda: _univariate("insensitive-mdav", ks_of(U), epsilons=eps_of(U)),
          slow=True,
          notes=("Holds for the ordered centroid list (shared noise, shuffled rows).",
                 UNIVARIATE_NOTE),
          bounded=True,
          scope=_p(neighbour=SUB, release="shuffled",
                   noise="one draw per centroid (shared by its rows)",
                   domain="m = 1, ε > 0, k ≥ 1, n ≥ k"),
          params=(_eps(U), _k(U)),
          mutants=(Mutant(kind="factor",
              description="univariate ordered centroid list claimed to move by ≤ Δ/(2k)",
              check=lambda: _univariate("insensitive-mdav", ks_of(U),
                                        bound_factor=Fraction(1, 2))),)),
    Claim(id="thesis:sec-6.3.1-noise-scale", source=f"{F} §6.3.1, Proposition 8",
          statement="Laplace Δ(I_r)/(kε) on insensitive-MDAV centroids gives ε-DP (m ≥ 2).",
          check=lambda: check_noise_scale_multivariate(ks_of(NS), eps_of(NS)), slow=True,
          notes=("Most favourable reading: one draw per centroid, shuffled rows, substitution.",
                 "At every k ≥ 2 of the thesis: n = 2k records x = [(0, 1)]×k + [(1, 0)]×(k − 1) "
                 "+ [(½, 0)], the last moved to (1, 0); the exact loss (matching bound, attained) "
                 "is 7/4·ε at every k and ε.  k = 1 holds (sweep n = 2: loss ≤ ε).",
                 "Supremum of the loss over every neighbouring pair of the grid (n = 4, k = 2, "
                 "m = 2, grid {0, ½, 1}²): 7/4·ε.  The loss of a pair is at most the minimum "
                 "over matchings of the centroid lists' L1 distance (in units of 1/b); the "
                 "sweep's largest such bound, 7/4, is attained exactly at an explicit output of "
                 "its witness pair (exact Fractions, privlab.proofs.thesis.ch6_shuffled).  n = 4 "
                 "is the smallest n with two clusters at k = 2 (one cluster moves by "
                 "≤ Δ(I_r)/k)."),
          scope=_p(neighbour=SUB, release="shuffled",
                   noise="one draw per centroid (shared by its rows)",
                   domain="m ≥ 2, ε > 0, k ≥ 1 (checked: m = 2)",
                   reading="most favourable reading of §6.3.1: one draw "
                   "per centroid, rows shuffled"),
          params=(_eps(NS), _k(NS)),
          refutation=_priv(
              "7/4·ε, the supremum on the grid n = 4, k = 2 (attained; exact), and 7/4·ε at "
              "every k ≥ 2 of the thesis (n = 2k)",
              "n = 4, k = 2, m = 2 (see evidence)",
              "every ε and every k ≥ 2 of the thesis with m = 2 attributes (Census's m = 4 "
              "not run)"),
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
          check=lambda: check_vldb14_scale(ks_of(VS), eps_of(VS)), slow=True,
          notes=("Holds for shared noise and shuffled rows; aligned rows leak (vldb14:alg-3).",
                 "m = 2: exhaustive sweeps (n, k) ∈ {(4, 2), (2, 1), (2, 2)}; at every k of "
                 "vldb14, exact instances at n ∈ {k, 2k, 2k + 1} (and 3k for k ≤ 10): seeded "
                 "data sets on {0, ¼, …, 1}² with six records moved to the corners, and the "
                 "pair of thesis:sec-6.3.1-noise-scale; the loss is at most the ordered "
                 "list's L1 change over the scale, ≤ 1·ε everywhere (attained at k = n)."),
          bounded=True,
          scope=_p(neighbour=SUB, release="shuffled",
                   noise="one draw per centroid (shared by its rows)",
                   domain="ε > 0, k ≥ 1, n ≥ k (checked: m = 2)"),
          params=(_eps(VS), _k(VS)),
          mutants=(Mutant(kind="factor",
              description="the factor n/k dropped: Laplace Δ(I_r)/(kε) claimed ε-DP (m = 2)",
              check=lambda: check_noise_scale_multivariate()),)),
    Claim(id="vldb14:alg-3", source=f"{V} §4 Algorithm 3; {F} §6.3 Algorithm 6.2",
          statement="Releasing x_ε = S_ε(I_r(X̄)) for r = 1..n in record order is ε-DP.",
          check=lambda: check_aligned_shared_leak(ks_of(A3), eps_of(A3)),
          notes=("With one draw per centroid, equal rows reveal the partition.  With a draw "
                 "per row the ε is finite but ≥ k times larger (see certify dp-release).",
                 "At every k ≥ 2 of vldb14 (n = 2k) the leak is replayed on the "
                 "implementation's clusters: rows 0 and 1 share a cluster in x and not in x′; "
                 "k = 1 (singletons, scale n·Δ/ε) is certified at every ε."),
          scope=_p(neighbour=SUB, release="record-aligned",
                   noise="one draw per centroid (shared by its rows)",
                   domain="ε > 0, k ≥ 1 (checked: m = 1, n = 2k)",
                   reading="x_ε = S_ε(I_r(X̄)) for r = 1..n in record order, as printed"),
          params=(_eps(A3), _k(A3)),
          refutation=_priv("∞ (equal rows reveal the partition)",
                           "n = 4, k = 2, m = 1, any ε (n = 4 is the smallest n with two "
                           "clusters at k = 2)",
                           "every ε and every k ≥ 2 of vldb14 (record-aligned output)"),
          covers=("thesis:Algorithm 6.2", "vldb14:Algorithm 3")),
    Claim(id="vldb14:sec-4-sqrt-n", source=f"{V} §4",
          statement="(n/k)·Δ/k ≤ Δ ⟺ k ≥ √n (n, k, Δ > 0), so n/k·Δ/k < Δ needs k ≥ √n.",
          check=check_sqrt_n,
          notes=("Census (n = 1080, k = 33) and Adult (n = 30162, k = 174) satisfy k ≥ √n; "
                 "integer pairs 1 ≤ k ≤ n ≤ 1200 scanned as a cross-check.",),
          scope=_p(domain="n, k, Δ > 0"),
          params=(Param(name="n", lo=0), Param(name="k", lo=0, registry="k")),
          proof=Proof(kind="symbolic", argument=(
              "sympy: (n/k)·Δ/k − Δ = (Δ/k²)(√n − k)(√n + k) with Δ/k² > 0 and √n + k > 0, "
              "so (n/k)·Δ/k ≤ Δ exactly when k ≥ √n, for every n, k, Δ > 0")),
          mutants=(Mutant(kind="direction",
              description="(n/k)·Δ/k ≤ Δ claimed equivalent to k > √n (strict)",
              check=lambda: check_sqrt_n(strict=True)),)),
    Claim(id="irm:lemma-1", source=f"{IRM} §3.1 Lemma 1",
          statement="The univariate centroid list has L1 sensitivity Δ/k.",
          check=lambda: _univariate("individual-ranking", ks_of(L1)), slow=True,
          notes=(UNIVARIATE_NOTE,
                 "Judged for individual ranking (irm Algorithm 1: the larger cluster last in "
                 "both data sets).  Read as stated, with the optimal partition the sentence "
                 "before the lemma cites, it fails: irm:lemma-1-optimal-partition."),
          bounded=True,
          scope=_p(neighbour=SUB, domain="k ≥ 1, n ≥ k (exhaustive for n ≤ 6, exact instances "
                                         "at irm's k)"),
          params=(_k(L1),),
          refutation=Refutation(kind="false-statement"),
          covers=("irm:Lemma 1",),
          mutants=(Mutant(kind="factor",
              description="univariate IR centroid list claimed to move by ≤ Δ/(2k)",
              check=lambda: _univariate("individual-ranking", ks_of(L1),
                                        bound_factor=Fraction(1, 2))),)),
    Claim(id="irm:lemma-3", source=f"{IRM} §3.2 Lemma 3, Algorithm 1",
          statement="Algorithm 1 (IR per attribute, shared noise m·Δ_j/(kε)) is ε-DP.",
          check=lambda: check_irm_lemma_3(ks_of(L3), eps_of(L3)), slow=True,
          notes=("The records keep their attribute combination (irm §3.3), so ties expose "
                 "which records share clusters in every attribute.",
                 "At every k ≥ 2 of irm (n = 2k, m = 2) the leak is replayed on the "
                 "implementation's clusters: every record's tuple of attribute clusters is "
                 "shared in x, record 0's is unique in x′; m = 1 (no tuple pattern; "
                 "exhaustive n = 4, k = 2) and k = 1 are certified at every ε."),
          scope=_p(neighbour=SUB, release="shuffled",
                   noise="one draw per cluster and attribute",
                   domain="ε > 0, k ≥ 1, m ≥ 1",
                   reading="rows shuffled, each row keeping its record's attribute "
                           "combination (irm §3.3): the most favourable layout"),
          params=(_eps(L3), _k(L3),
                  Param(name="m", lo=1, lo_closed=True, integer=True, boundary=(1,),
                        grid=(1, 2))),
          refutation=_priv("∞ (ties expose which records share clusters)",
                           "n = 4, k = 2, m = 2, any ε",
                           "every ε and every k ≥ 2 of irm with m ≥ 2 attributes"),
          covers=("irm:Algorithm 1",)),
    Claim(id="irm:sec-3.2-note", source=f"{IRM} §3.2 Note after Lemma 3",
          statement="Independent noise per repeated value multiplies the sensitivity by k.",
          check=lambda: check_irm_note(ks_of(NOTE)), slow=True,
          notes=("Exhaustive ratio for (n, k) ∈ {(3, 1), (4, 2), (6, 3)}; at every k of irm "
                 "the exact instances attain Δ/k (ordered list, irm Lemma 1's bound) and Δ "
                 "(cluster-size-weighted list, the sum argument's bound): ratio k.",),
          bounded=True,
          scope=_p(neighbour=SUB, noise="independent draw per repeated value",
                   domain="k ≥ 1, m = 1"),
          params=(_k(NOTE),),
          refutation=Refutation(kind="false-statement"),
          mutants=(Mutant(kind="constant",
              description="per-record noise claimed to multiply the sensitivity by k + 1",
              check=lambda: check_irm_note(ks_of(NOTE), offset=1)),)),
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
          check=lambda: check_add_remove(ks_of(AddR), eps_of(AddR)),
          notes=("The lab's certificate at n = 2k for every k and ε of the thesis: the row "
                 "count separates neighbours.",),
          scope=_x(neighbour=AR, release="shuffled",
                   noise="one draw per centroid", domain="ε > 0, k ≥ 1",
                   reading="thesis ch.6 uses substitution (Def. 12 "
                   "'modifying', Def. 14 X, X′ ∈ Dⁿ); add/remove is the "
                   "lab's question"),
          params=(_eps(AddR), _k(AddR)),
          refutation=_priv("∞ (n is released)", "any n ≥ 1",
                           "extension only (the thesis uses substitution)"),
          covers=("thesis:Definition 14",)),
)

TABLES: dict[str, Any] = {}
