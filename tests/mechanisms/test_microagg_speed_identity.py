"""The speed shortcuts of issue 19 in microaggregation give what the code they replaced gave
(the replaced code is kept here as the oracle):

* ``swap_released`` / ``group_order``: the released table of ``mdav_swap`` / ``ir_swap`` with
  the same generator (same draws, same order), and ``corr_experiment`` the rows of the former
  per-run ``mdav_swap`` / ``ir_swap`` loop;
* ``correlation_differences``: the former per-pair loop, and the memoised pair list is not
  changed by a caller;
* ``corner_sequence`` (memoised) and ``algorithm_6_1_labels`` (memoised plan): the former
  computations, on repeated, cyclic and reversed references;
* the hypothesis search of ``check_insensitive`` (strategies built once, labels memoised per
  data set): the former search — same examples, same evaluations, same counterexample.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from privlab.mechanisms.microaggregation import Domain, labeler
from privlab.mechanisms.microaggregation import insensitive as ins
from privlab.mechanisms.microaggregation.prob_kanon import (
    group_order,
    ir_swap,
    ir_swap_partitions,
    mdav_id,
    mdav_swap,
    mdav_swap_partitions,
    swap_released,
)
from privlab.metrics import utility as ut
from privlab.proofs.thesis import ch3_tables
from privlab.verify.microaggregation import correspondence as corr
from privlab.verify.microaggregation import insensitivity as insv


# ---- swaps and Table 3.10 ------------------------------------------------------------------
def _corr_experiment_reference(x: np.ndarray, ks: tuple[int, ...], runs: int, seed: int,
                               conf: list[int], distance: str) -> list[dict[str, Any]]:
    """corr_experiment before issue 19's h8 change (per-run mdav_swap / ir_swap)."""
    rows = []
    for k in ks:
        rid = mdav_id(x, k, distance=distance)
        d_id = ut.correlation_differences(x, rid.released, conf)["values"]
        vals: dict[str, list[np.ndarray]] = {"MDAV-ID": [d_id] * runs, "MDAV-SWAP": [],
                                             "IR-SWAP": []}
        p_md = mdav_swap_partitions(x, k, conf, distance)
        p_ir = ir_swap_partitions(x, k, conf)
        for s in np.random.SeedSequence([seed, 3, 10, k]).spawn(runs):
            g = np.random.default_rng(s)
            a = mdav_swap(x, k, confidential=conf, rng=g, partitions=p_md).released
            b = ir_swap(x, k, confidential=conf, rng=g, partitions=p_ir).released
            vals["MDAV-SWAP"].append(ut.correlation_differences(x, a, conf)["values"])
            vals["IR-SWAP"].append(ut.correlation_differences(x, b, conf)["values"])
        for meth in ch3_tables.METHODS:
            v = np.concatenate(vals[meth])
            rows.append({"k": k, "method": meth, "mean": float(v.mean()),
                         "sd": float(v.std()), "runs": runs})
    return rows


def test_corr_experiment_equals_the_per_run_swaps() -> None:
    x = ch3_tables.synthetic_census(seed=4, n=240)
    conf = list(ch3_tables.CONFIDENTIAL)
    got = ch3_tables.corr_experiment(x, (5, 11, 60), runs=4, seed=2)
    assert got == _corr_experiment_reference(x, (5, 11, 60), 4, 2, conf, "raw")


@pytest.mark.parametrize("method", ["mdav", "ir"])
def test_swap_released_equals_the_swap_functions(method: str) -> None:
    rng = np.random.default_rng(11)
    x = np.round(rng.normal(size=(97, 5)), 1)  # ties in values
    conf = [4, 1, 3]  # not sorted: the columns are drawn in this order
    parts = (mdav_swap_partitions(x, 3, conf) if method == "mdav"
             else ir_swap_partitions(x, 3, conf))
    fn = mdav_swap if method == "mdav" else ir_swap
    g1, g2 = np.random.default_rng(5), np.random.default_rng(5)
    orders = {c: group_order(parts[c]) for c in conf}
    for _ in range(3):  # the same orders reused run after run
        want = fn(x, 3, confidential=conf, rng=g1, partitions=parts).released
        assert np.array_equal(swap_released(x, orders, g2), want)
    assert g1.random() == g2.random()  # the same number of draws


def test_group_order_leaves_the_labels_alone() -> None:
    big = np.array([70_000, 0, 70_000, 5])  # beyond uint16: kept as given
    lab, grouped = group_order(big)
    assert big.flags.writeable and not lab.flags.writeable and not grouped.flags.writeable
    assert grouped.tolist() == [1, 3, 0, 2]
    small = np.array([1, 0, 1, 1, 0])
    lab, grouped = group_order(small)
    assert small.flags.writeable and lab.dtype == np.uint16 and grouped.tolist() == [1, 4, 0, 2, 3]


# ---- correlation differences ---------------------------------------------------------------
def test_correlation_differences_equals_the_pair_loop() -> None:
    rng = np.random.default_rng(3)
    a = rng.normal(size=(200, 6))
    b = a + rng.normal(scale=0.5, size=a.shape)
    for conf in ([5], [0, 3], [2, 4, 1]):
        got = ut.correlation_differences(a, b, conf)
        ca, cb, cs = ut._corr(a), ut._corr(b), set(conf)
        pairs = [(i, j) for i in range(6) for j in range(i + 1, 6) if i in cs or j in cs]
        want = np.array([abs(cb[i, j] - ca[i, j]) for i, j in pairs])
        assert got["pairs"] == pairs
        assert np.array_equal(got["values"], want)  # bit for bit
        got["pairs"].clear()  # a caller's list: the memoised pairs stay
        assert ut.correlation_differences(a, b, conf)["pairs"] == pairs


# ---- insensitive microaggregation ----------------------------------------------------------
def _corner_sequence_reference(m: int, count: int) -> list[tuple[int, ...]]:
    total = 1 << m
    need = min(count, total)
    cand = ((np.arange(total)[:, None] >> np.arange(m - 1, -1, -1)) & 1).astype(np.int8)
    used = np.zeros(total, dtype=bool)
    seq = [0]
    used[0] = True
    while len(seq) < need:
        alive = np.flatnonzero(~used)
        for prev in reversed(seq):
            h = (cand[alive] != cand[prev]).sum(axis=1)
            alive = alive[h == h.max()]
            if alive.size == 1:
                break
        nxt = int(alive.min())
        seq.append(nxt)
        used[nxt] = True
    out = [tuple(int(b) for b in cand[i]) for i in seq]
    return [out[i % len(out)] for i in range(count)]


def test_corner_sequence_equals_the_computation() -> None:
    for m in range(1, 6):
        for count in (1, 2, 3, 7, 40):
            got = ins.corner_sequence(m, count)
            assert got == _corner_sequence_reference(m, count)
            got.append((9,))  # a caller's list: the memoised sequence stays
            assert ins.corner_sequence(m, count) == _corner_sequence_reference(m, count)
    with pytest.raises(TypeError):
        ins.corner_sequence(2.0, 1)  # type: ignore[arg-type]  # as before: no int coercion


def _labels_reference(x: np.ndarray, k: int, domain: Domain, refs: list[np.ndarray],
                      directions: list[bool] | None, scale: str) -> np.ndarray:
    """algorithm_6_1_labels before the memoised plan."""
    n = x.shape[0]
    q = max(n // k, 1)
    steps = max(q - 1, 0)
    period = len(refs)
    if directions is None:
        directions = [False] * period
    used = min(period, max(steps, 1))
    uniq: dict[tuple[float, ...], int] = {}
    perms_list: list[np.ndarray] = []
    for ref in refs[:used]:
        key = tuple(float(t) for t in ref)
        if key not in uniq:
            uniq[key] = len(perms_list)
            perms_list.append(ins.total_order(x, domain, np.asarray(ref, float), scale))
    order_id: list[int] = []
    reverse: list[bool] = []
    combos: dict[tuple[int, bool], int] = {}
    for j in range(used):
        pid = uniq[tuple(float(t) for t in refs[j])]
        c = (pid, bool(directions[j]))
        if c not in combos:
            combos[c] = len(order_id)
            order_id.append(pid)
            reverse.append(bool(directions[j]))
    perms = np.stack([perms_list[p] for p in order_id]).astype(np.int64)
    step_order = np.array([combos[(uniq[tuple(float(t) for t in refs[i % period])],
                                   bool(directions[i % period]))]
                           for i in range(max(steps, 1))], dtype=np.int64)
    return ins._take_by_orders(perms, np.array(reverse, dtype=np.bool_), step_order, int(k))


@pytest.mark.parametrize("seed", range(10))
def test_algorithm_6_1_labels_equals_the_unplanned_computation(seed: int) -> None:
    rng = np.random.default_rng(seed)
    m = int(rng.integers(1, 4))
    n = int(rng.integers(2, 40))
    k = int(rng.integers(1, n + 1))
    dom = Domain(lower=np.zeros(m), upper=np.full(m, 4.0))
    x = rng.integers(0, 5, size=(n, m)).astype(float)
    corners = [dom.corner(list(rng.integers(0, 2, m))) for _ in range(int(rng.integers(1, 6)))]
    refs = corners + corners[:1]  # a repeated reference
    dirs = [bool(d) for d in rng.integers(0, 2, len(refs))] if seed % 2 else None
    scale = "raw" if seed % 3 == 0 else "domain"
    for _ in range(2):  # the second call uses the memoised plan
        got = ins.algorithm_6_1_labels(x, k, dom, refs, dirs, scale)
        assert np.array_equal(got, _labels_reference(x, k, dom, refs, dirs, scale))


# ---- the hypothesis search -----------------------------------------------------------------
def _hypothesis_reference(fn: Any, k: int, ms: tuple[int, ...], max_value: int, n_max: int,
                          examples: int) -> dict[str, Any]:
    """_hypothesis_search before issue 19's h8 change."""
    from hypothesis import HealthCheck, find, settings
    from hypothesis import strategies as st
    from hypothesis.errors import NoSuchExample

    @st.composite
    def pairs(draw: Any) -> tuple[np.ndarray, np.ndarray]:
        m = draw(st.sampled_from(ms))
        n = draw(st.integers(min_value=2 * k, max_value=max(n_max, 2 * k)))
        rec = st.lists(st.integers(0, max_value), min_size=m, max_size=m)
        rows = draw(st.lists(rec, min_size=n, max_size=n))
        r = draw(st.integers(0, n - 1))
        new = draw(rec)
        perm = draw(st.permutations(range(n)))
        x = np.array(rows, dtype=float)
        xp = x.copy()
        xp[r] = new
        return x, xp[list(perm)]

    calls = {"n": 0}

    def broken(pair: tuple[np.ndarray, np.ndarray]) -> bool:
        x, xp = pair
        calls["n"] += 1
        m = x.shape[1]
        b = np.array([[0.0, float(max_value)]] * m)
        return not insv._pair_result("", fn, x, xp, k, b)["holds"]

    cfg = settings(max_examples=examples, database=None, derandomize=True, deadline=None,
                   suppress_health_check=list(HealthCheck))
    try:
        x, xp = find(pairs(), broken, settings=cfg)
    except NoSuchExample:
        return {"examples": examples, "evaluations": calls["n"], "counterexample": None}
    m = x.shape[1]
    b = np.array([[0.0, float(max_value)]] * m)
    res = insv._pair_result("", fn, x, xp, k, b)
    return {"examples": examples, "evaluations": calls["n"],
            "counterexample": insv._pair_witness(x, xp, k, res, found_by="hypothesis",
                                                 domain=b.tolist())}


@pytest.mark.parametrize(("alg", "k"), [("mdav", 2), ("preorder-control", 2),
                                        ("insensitive-mdav", 3), ("individual-ranking", 2)])
def test_hypothesis_search_equals_the_former_search(alg: str, k: int) -> None:
    fn = labeler(alg)
    got = insv._hypothesis_search(fn, k, (1, 2), 6, 8, 40)
    assert got == _hypothesis_reference(fn, k, (1, 2), 6, 8, 40)


# ---- the exhaustive search -----------------------------------------------------------------
def _exhaust_reference(fn: Any, k: int, n: int, m: int, g: int) -> tuple[Any, int]:
    """_exhaust deciding every pair by clusters_correspond itself (no counts, no interning)."""
    import itertools

    pts = np.array(list(itertools.product(range(g), repeat=m)), dtype=float)
    bounds = np.array([[0.0, float(g - 1)]] * m)
    pairs = 0
    for combo in itertools.combinations_with_replacement(range(len(pts)), n):
        xa = pts[list(combo)]
        la = fn(np.ascontiguousarray(xa), k, bounds)
        seen: set[int] = set()
        for pos, c in enumerate(combo):
            if c in seen:
                continue
            seen.add(c)
            for c2 in range(c + 1, len(pts)):
                other = tuple(sorted((*combo[:pos], c2, *combo[pos + 1:])))
                pairs += 1
                xb = pts[list(other)]
                res = insv.clusters_correspond(xa, la, xb, fn(np.ascontiguousarray(xb), k,
                                                              bounds))
                if not res["holds"]:
                    xp = xa.copy()
                    xp[pos] = pts[c2]
                    res2 = insv.clusters_correspond(xa, la, xp, fn(np.ascontiguousarray(xp), k,
                                                                   bounds))
                    return insv._pair_witness(xa, xp, k, res2 if not res2["holds"] else res,
                                              found_by="exhaustive", grid=g,
                                              domain=bounds.tolist()), pairs
    return None, pairs


@pytest.mark.parametrize("alg", ["mdav", "insensitive-mdav", "insensitive-mdav-literal",
                                 "insensitive-corners", "individual-ranking",
                                 "preorder-control"])
def test_exhaust_equals_the_pairwise_decision(alg: str) -> None:
    fn = labeler(alg)
    for n, m, g in ((4, 1, 3), (4, 2, 2), (5, 2, 2), (5, 1, 4)):
        assert insv._exhaust(fn, 2, n, m, g) == _exhaust_reference(fn, 2, n, m, g)


def test_grid_counts_equals_small_counts_up_to_names() -> None:
    rng = np.random.default_rng(8)
    pts = np.array([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]])
    coords = [(0, 0), (0, 1), (1, 0), (1, 1)]
    for _ in range(20):
        combo = tuple(sorted(rng.integers(0, 4, 6).tolist()))
        for lab in (rng.integers(0, 3, 6), rng.integers(0, 3, (6, 2))):
            got = corr._grid_counts(combo, lab, coords)
            want = corr._small_counts(pts[list(combo)], lab)
            assert want is not None and len(got) == len(want)
            for j, ((kg, cg, sg), (kw, cw, sw)) in enumerate(zip(got, want, strict=True)):
                assert kg == kw and sg == sw
                name = ((lambda c: tuple(pts[c].tolist())) if lab.ndim == 1
                        else (lambda v, j=j: (float(v),)))
                assert {c: {name(r): t for r, t in d.items()} for c, d in cg.items()} == cw


@pytest.mark.parametrize("conf", [(), (6, 6), (13,), (-1,)])
def test_corr_experiment_rejects_bad_confidential_columns(conf: tuple[int, ...]) -> None:
    from privlab.errors import InvalidParameter

    x = ch3_tables.synthetic_census(seed=1, n=60)
    with pytest.raises(InvalidParameter, match="confidential"):
        ch3_tables.corr_experiment(x, (5,), runs=1, confidential=conf)
