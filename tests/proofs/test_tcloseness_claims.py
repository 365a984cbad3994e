"""thesis ch.7 / ins15 ledger: statuses of the fast claims, tables carry paper_ columns."""

from __future__ import annotations

import math

import pytest

from privlab.proofs import ins15
from privlab.proofs.ledger import Ledger
from privlab.proofs.thesis import ch7 as thesis_ch7
from privlab.types import Status

EXPECTED = {
    "thesis:alg-7.1": Status.CONFIRMED,  # bounded: N <= 60
    "thesis:alg-7.1-optimal": Status.REFUTED,
    "thesis:def-15": Status.CONFIRMED,
    "thesis:prop-10": Status.CONFIRMED,
    "thesis:sec-7.2.1-buckets": Status.REFUTED,  # t = 1 leaves b free
    "thesis:table-7.6": Status.VERIFIED,
    "thesis:sec-7.2.2-construction": Status.CONFIRMED,
    "thesis:sec-7.2.2-l-range": Status.CONFIRMED,  # bounded: N ≤ 80, t ≤ 4
    "thesis:sec-7.3.1": Status.INCONCLUSIVE,  # the check restates t-closeness
    "thesis:sec-7.3-substitute": Status.FINDING,  # issue 14: substitution is the lab's extension
    "thesis:sec-7.3.2": Status.VERIFIED,
    "ins15:prop-1": Status.REFUTED,
    "ins15:prop-1-derived": Status.CONFIRMED,
    "ins15:prop-1-second-term": Status.VERIFIED,
    "ins15:prop-2": Status.CONFIRMED,
    "ins15:prop-3": Status.REFUTED,  # neighbouring data sets: ratio 2 > t² = 25/16
    "ins15:sec-6.1-buckets": Status.REFUTED,  # t = 1 leaves b_i free
    "ins15:sec-6.3-bucket-sizes": Status.REFUTED,
    "ins15:sec-6.2-count-rule": Status.REFUTED,
    "ins15:table-1": Status.VERIFIED,
}


@pytest.fixture(scope="module")
def outcomes():
    led = Ledger(["privlab.proofs.thesis.ch7", "privlab.proofs.ins15"])
    assert led.load_errors == ()
    return {o.claim.id: o for o in led.run(quick=True)}


def test_statuses(outcomes):
    for cid, status in EXPECTED.items():
        assert outcomes[cid].status == status, (cid, outcomes[cid].to_dict())
    assert outcomes["thesis:sec-7.2.2-count-rules"].reason is not None  # slow, skipped


def test_refuted_have_counterexamples(outcomes):
    for o in outcomes.values():
        if o.status == Status.REFUTED:
            assert o.result.counterexample is not None


def test_prop1_counterexample_is_exact(outcomes):
    cx = outcomes["ins15:prop-1"].result.counterexample
    from fractions import Fraction

    assert cx["exact_t"] == Fraction(9, 5) and cx["printed_t"] == Fraction(8, 5)


@pytest.mark.parametrize("tid", ["thesis-7.5", "thesis-7.6", "ins15-1", "ins15-prop1",
                                 "tcloseness-utility"])
def test_tables(tid):
    tables = {**thesis_ch7.TABLES, **ins15.TABLES}
    t = tables[tid]()
    assert t.id == tid and t.rows
    if tid != "tcloseness-utility":
        assert any(c.startswith("paper_") for c in t.columns)
    if tid == "thesis-7.6":
        assert all(r["achieved_mass"] == r["derived_mass"] for r in t.rows)
    if tid == "thesis-7.5":
        assert {str(r["distance"]) for r in t.rows} == {"3/2"}


# ---- issue 30: the quantified parameters and the grids the checks run on --------------------
DECLARED = ("thesis:alg-7.1", "thesis:alg-7.1-optimal", "thesis:sec-7.2.2-construction",
            "thesis:sec-7.2.2-l-range", "thesis:sec-7.3.1", "thesis:sec-7.3-substitute",
            "thesis:sec-7.2.2-count-rules", "ins15:prop-1", "ins15:prop-1-derived",
            "ins15:prop-3", "ins15:sec-6.2-count-rule")


def _claims():
    return {c.id: c for c in (*thesis_ch7.CLAIMS, *ins15.CLAIMS)}


def _param(cid, name):
    return next(p for p in _claims()[cid].params if p.name == name)


def _runs(values):
    from privlab.proofs.tcloseness.checks import _runs as runs

    return runs(values)


@pytest.mark.parametrize("cid", DECLARED)
def test_quantified_parameters_are_declared_without_gaps(cid):
    from privlab.proofs.parameters import paper_values
    from privlab.proofs.verdict import form_problems, grid_gaps

    claim = _claims()[cid]
    assert claim.params, cid
    assert grid_gaps(claim) == () and form_problems(claim) == ()
    for p in claim.params:
        assert p.grid is not None  # no proof object covers these parameters
        for x in (*p.boundary, *(v for v in paper_values(cid, p.registry or "")
                                 if p.contains(v))):
            assert any(abs(float(g) - float(x)) <= 1e-12 * max(1.0, abs(float(x)))
                       for g in p.grid), (cid, p.name, x)


def test_thesis_registry_of_t_is_chapter_7s():
    from privlab.proofs.parameters import PAPER_PARAMETERS

    assert PAPER_PARAMETERS["thesis"]["t"] == (1.5, 2.0)  # Fig./Table 7.5, Figs 7.6-7.7
    for cid in ("thesis:sec-7.2.2-construction", "thesis:sec-7.2.2-l-range"):
        p = _param(cid, "t")
        assert p.registry == "t" and {1, 1.5, 2} <= set(p.grid)
    for cid in ("thesis:sec-7.3.1", "thesis:sec-7.3-substitute"):
        p = _param(cid, "epsilon")
        assert p.registry == "epsilon" and 0 in p.grid and 10.0 in p.grid


def test_alg_7_1_runs_on_its_declared_grid(outcomes):
    ev = outcomes["thesis:alg-7.1"].result.evidence
    k, n = _param("thesis:alg-7.1", "k"), _param("thesis:alg-7.1", "N")
    assert {100, 300} <= set(k.grid)  # the thesis's largest k (ch.6, ch.3)
    assert ev["k_grid"] == _runs(k.grid) and ev["N_grid"] == _runs(n.grid)


def test_alg_7_1_optimal_is_decided_at_every_k_of_its_grid(outcomes):
    from fractions import Fraction

    from privlab.proofs.tcloseness.checks import alg_7_1_instance

    res = outcomes["thesis:alg-7.1-optimal"].result
    rows = {r["k"]: r for r in res.evidence["per_k"]}
    assert tuple(rows) == _param("thesis:alg-7.1-optimal", "k").grid
    assert rows[1]["alg_optimal"] and rows[1]["sse_alg"] == 0  # singletons
    for k, row in rows.items():
        if k == 1:
            continue
        # an explicit better partition, computed here: the first k + 1 values, then the rest
        x = alg_7_1_instance(k)

        def sse(xs):
            return Fraction(sum(v * v for v in xs)) - Fraction(sum(xs)) ** 2 / len(xs)

        better = sse(x[:k + 1]) + sse(x[k + 1:])
        assert not row["alg_optimal"] and row["sse_opt"] <= better < row["sse_alg"], k
    assert res.counterexample["refuted_at_k"] == [k for k in rows if k > 1]


def test_construction_and_l_range_run_on_their_declared_grids(outcomes):
    ev = outcomes["thesis:sec-7.2.2-construction"].result.evidence
    cid = "thesis:sec-7.2.2-construction"
    assert ev["t_grid"] == list(_param(cid, "t").grid)
    assert ev["N_grid"] == _runs(_param(cid, "N").grid)
    assert ev["l_grid"] == _runs(_param(cid, "l").grid)
    ev = outcomes["thesis:sec-7.2.2-l-range"].result.evidence
    cid = "thesis:sec-7.2.2-l-range"
    assert 1.5 in ev["t_grid"] and ev["t_grid"] == list(_param(cid, "t").grid)
    assert ev["N_grid"] == _runs(_param(cid, "N").grid)


def test_l_range_at_t_1_5_uses_the_printed_bound():
    """t = 1.5 (Table 7.5): ⌊N/(t+1)²⌋ = ⌊N/6.25⌋, and one more class per bucket is
    infeasible with the three buckets of Table 7.5 (N = 12: l = 2 gives six classes of two)."""
    from privlab.mechanisms.tcloseness import counts as tc
    from privlab.proofs.tcloseness.checks import l_max_printed

    assert l_max_printed(12, 1.5) == 1 and l_max_printed(13, 1.5) == 2
    assert tc.solve_counts(12, tc.as_fraction_t(1.5), 2, 3) is None
    assert tc.solve_counts(12, tc.as_fraction_t(1.5), 1, 3) is not None


def test_sec_7_3_1_builds_releases_at_every_epsilon(outcomes):
    from privlab.proofs.tcloseness import grids as gr

    ev = outcomes["thesis:sec-7.3.1"].result.evidence
    rows = {r["epsilon"]: r for r in ev["per_epsilon"]}
    assert tuple(rows) == gr.SEC73_EPS and ev["undecided"] == []
    assert [gr.eps_float(e) for e in rows] == list(_param("thesis:sec-7.3.1", "epsilon").grid)
    for spec, row in rows.items():
        assert row["releases"] >= 1 and row["within_bound"] is True, spec


def test_sec_7_3_substitute_witnesses_are_exact(outcomes):
    """Each witness, recomputed here: the two classes' data set is t-close with t ≤ e^ε and
    the classes' ratio exceeds e^ε (mpmath at 50 digits; the margins are far wider)."""
    from fractions import Fraction

    import mpmath

    from privlab.proofs.tcloseness import grids as gr

    ev = outcomes["thesis:sec-7.3-substitute"].result.evidence
    rows = {r["epsilon"]: r for r in ev["per_epsilon"]}
    assert tuple(rows) == gr.SEC73_EPS
    assert rows["0"]["holds"]  # 1-closeness: every class equals the marginal
    for spec, row in rows.items():
        if spec == "0":
            continue
        w = row["witness"]
        m, (c, c2) = w["class_size"], w["count_a"]
        assert c + c2 == m and c > c2 >= 1 and not row["holds"]
        t = max(Fraction(2 * c, m), Fraction(m, 2 * c2))  # distance to the marginal (½, ½)
        with mpmath.workdps(50):
            e = (mpmath.log(mpmath.mpf(Fraction(spec[4:-1]).numerator)
                            / Fraction(spec[4:-1]).denominator) if spec.startswith("log(")
                 else mpmath.mpf(Fraction(spec).numerator) / Fraction(spec).denominator)
            u = mpmath.exp(e)
            assert mpmath.mpf(t.numerator) / t.denominator <= u * (1 + mpmath.mpf(10)**-40)
            assert mpmath.mpf(c) / c2 > u, spec


def test_ins15_prop_1_rows_cover_the_boundary_cases(outcomes):
    rows = outcomes["ins15:prop-1"].result.evidence["instances"]
    seen = {(r["N"], r["E"], r["epsilon"]) for r in rows}
    assert (10, 10, math.log(2)) in seen and (1, 1, math.log(2)) in seen  # |E| = N, N = 1
    assert (10, 1, math.log(2)) in seen and (10, 2, 0.0) in seen  # |E| = 1, ε = 0
    for r in rows:  # printed (|E|/N)(1 + (N − |E| − 1)e^ε/|E|), recomputed here
        pri = r["E"] / r["N"] * (1 + (r["N"] - r["E"] - 1) / r["E"] * math.exp(r["epsilon"]))
        assert r["paper_formula"] == pytest.approx(pri, rel=1e-12)
        assert r["exact_exceeds_paper"] == (r["exact_t"] > pri)
    assert all(r["exact_exceeds_paper"] for r in rows)
    one_class = [r for r in rows if r["N"] == r["E"]]
    assert one_class and all(r["exact_t"] == pytest.approx(1.0) for r in one_class)
    for name in ("epsilon", "N", "|E|"):
        grid = _param("ins15:prop-1", name).grid
        key = {"epsilon": "epsilon", "N": "N", "|E|": "E"}[name]
        assert sorted({r[key] for r in rows}) == pytest.approx(list(grid))


def test_ins15_prop_1_derived_runs_on_its_declared_grid(outcomes):
    from privlab.proofs.tcloseness.checks import prop1_derived_cases

    ev = outcomes["ins15:prop-1-derived"].result.evidence
    eps = _param("ins15:prop-1-derived", "epsilon").grid
    assert [math.log(r) for r in ev["exp_epsilon_grid"]] == list(eps) and 0.0 in eps
    cases = prop1_derived_cases()
    assert sorted({n for _, n, _ in cases}) == list(_param("ins15:prop-1-derived", "N").grid)
    assert sorted({e for _, _, e in cases}) == list(_param("ins15:prop-1-derived", "|E|").grid)
    assert ev["attained_on_every_extremal_instance"] is True


def test_ins15_prop_3_is_decided_at_each_t_of_its_grid(outcomes):
    """Refuted at t = 1 by one class of three records (counts of a 1 → 2, both 1-close, views
    (1/3, 2/3) and (2/3, 1/3): ratio 2 > t² = 1); at ins15's t = 1.5 and 2 the family's view
    ratio, at most 2, stays within t²."""
    from fractions import Fraction

    res = outcomes["ins15:prop-3"].result
    rows = {r["t"]: r for r in res.evidence["per_t"]}
    assert tuple(rows) == _param("ins15:prop-3", "t").grid
    for t, row in rows.items():
        assert row["holds"] == (row["max_view_ratio"] is None
                                or row["max_view_ratio"] <= t * t)
    assert not rows[Fraction(1)]["holds"] and not rows[Fraction(5, 4)]["holds"]
    assert rows[Fraction(3, 2)]["holds"] and rows[Fraction(2)]["holds"]
    assert rows[Fraction(3, 2)]["pairs_t_close"] > 0 and rows[Fraction(2)]["pairs_t_close"] > 0
    cx = res.counterexample
    assert cx["t"] == 1 and cx["view ratio"] == 2 and cx["class_sizes"] == (3,)


# ---- the count rules (thesis §7.2.2, ins15 §6.2) on integer t ----------------------------------
COUNT_RULES = {"thesis:sec-7.2.2-count-rules": "check_printed_rules",
               "ins15:sec-6.2-count-rule": "check_ins15_count_rule_literal"}


@pytest.fixture(scope="module")
def count_rule_results():
    from privlab.proofs.tcloseness import checks as ck

    return {cid: getattr(ck, fn)() for cid, fn in COUNT_RULES.items()}


def _text_sizes(n, t, per_bucket):
    """Bucket sizes (boundaries ⌊jN/(t+1) + 0.5⌋) and class sizes (⌈iN/((t+1)l)⌉ −
    ⌈(i−1)N/((t+1)l)⌉), from the seeds' formulas, exact."""
    from fractions import Fraction

    b = t + 1
    edges = [0] + [math.floor(Fraction(j * n, b) + Fraction(1, 2)) for j in range(1, b)] + [n]
    e = b * per_bucket
    cuts = [math.ceil(Fraction(i * n, e)) for i in range(e + 1)]
    return ([edges[j + 1] - edges[j] for j in range(b)],
            [cuts[i + 1] - cuts[i] for i in range(e)])


def _t_close(counts, buckets, n, t):
    """Each class's bucket shares within a factor t of the buckets' shares (Definition 15 via
    Proposition 10), the counts non-negative and adding up to the bucket sizes."""
    from fractions import Fraction

    if any(c < 0 for row in counts for c in row):
        return False
    if [sum(col) for col in zip(*counts, strict=True)] != buckets:
        return False
    for row in counts:
        k = sum(row)
        for c, bj in zip(row, buckets, strict=True):
            q, p = Fraction(c, k), Fraction(bj, n)
            if not (p / t <= q <= p * t):
                return False
    return True


@pytest.mark.parametrize("cid", list(COUNT_RULES))
def test_count_rules_declare_integer_t_with_the_registry_value(cid):
    from privlab.proofs.parameters import paper_values
    from privlab.proofs.tcloseness import grids as gr

    t, n, per = (_param(cid, name) for name in ("t", "N", "l"))
    assert t.integer and t.registry == "t" and t.boundary == (1,)
    assert t.grid == gr.COUNT_RULE_TS
    assert [v for v in paper_values(cid, "t") if t.contains(v)] == [2.0]  # 1.5 is not integer
    assert not t.contains(1.5) and 2 in t.grid and 1 in t.grid
    assert (n.grid, per.grid) == gr.count_rule_grid()


@pytest.mark.parametrize("cid", list(COUNT_RULES))
def test_count_rules_run_every_case_of_their_declared_grids(count_rule_results, cid):
    """Every (t, N, l) with t in the declared t grid, N in the N grid, N ≥ (t+1)² and
    1 ≤ l ≤ ⌊N/(t+1)²⌋ is decided — counted from the declared grids here."""
    res = count_rule_results[cid]
    t, n, per = (_param(cid, name) for name in ("t", "N", "l"))
    ev = res.evidence
    assert tuple(ev["t_grid"]) == t.grid
    assert ev["N_grid"] == _runs(n.grid) and ev["l_grid"] == _runs(per.grid)
    for row in ev["per_t"]:
        tt = row["t"]
        want = sum(nn // (tt + 1) ** 2 for nn in n.grid if nn >= (tt + 1) ** 2)
        assert row["cases"] == want
        assert row["rule_ok"] + row["rule_at_fault"] + row["no_t_close_partition"] == want
    assert ev["cases"] == sum(r["cases"] for r in ev["per_t"])
    assert set(n.grid) == set(range(4, max(n.grid) + 1))


@pytest.mark.parametrize("cid", list(COUNT_RULES))
def test_count_rule_counterexample_is_in_the_paper_domain(count_rule_results, cid):
    """Refuted at the seeds' t = 2, inside the declared domain; the counts are recomputed here
    from the rule's text, they fail, and a valid (t-close, partitioning) count matrix exists
    for the same buckets and classes."""
    from fractions import Fraction

    from privlab.mechanisms.tcloseness import counts as tc
    from privlab.types import status_of

    res = count_rule_results[cid]
    assert status_of(res) == Status.REFUTED
    cx = res.counterexample
    for name in ("t", "N", "l"):
        assert _param(cid, name).contains(cx[name]), (name, cx[name])
    t, n, per = cx["t"], cx["N"], cx["l"]
    assert t == 2  # the first t of the grid where the rule, not t-closeness, fails
    buckets, classes = _text_sizes(n, t, per)
    assert cx["bucket_sizes"] == buckets and cx["class_sizes"] == classes
    rows = []
    for i, k in enumerate(classes):
        h = i % (t + 1)
        if cid.startswith("thesis"):  # ⌈k_i p_j/t⌉ of each j ≠ i, B_i completes the class
            row = [math.ceil(Fraction(k * buckets[j], n * t)) for j in range(t + 1)]
            row[h] = k - sum(row[j] for j in range(t + 1) if j != h)
        else:  # ⌈e_i p_i t⌉ of each j ≠ i, then e_i − t⌈e_i p_i t⌉ of B_i
            c = math.ceil(Fraction(k * buckets[h] * t, n))
            row = [c] * (t + 1)
            row[h] = k - t * c
        rows.append(row)
    assert cx["counts"] == rows and not _t_close(rows, buckets, n, t)
    valid = tc.solve_counts(n, Fraction(t), per, t + 1)
    assert valid is not None and _t_close(valid.tolist(), buckets, n, t)


@pytest.mark.parametrize("cid", list(COUNT_RULES))
def test_count_rules_at_t_1_fail_only_without_a_1_close_partition(count_rule_results, cid):
    """At t = 1 every failing case has no 1-close partition with two buckets at all (e.g.
    N = 5: classes of 3 and 2 records cannot both hold the buckets 3, 2 in proportion)."""
    from privlab.mechanisms.tcloseness import counts as tc

    row = next(r for r in count_rule_results[cid].evidence["per_t"] if r["t"] == 1)
    assert row["rule_at_fault"] == 0 and row["no_t_close_partition"] > 0
    assert _text_sizes(5, 1, 1) == ([3, 2], [3, 2])
    assert tc.solve_counts(5, tc.as_fraction_t(1), 1, 2) is None
