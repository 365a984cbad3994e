"""The ch.5 ledger: every claim runs and gets the status its evidence supports; tables carry
paper_* columns; golden values recomputed here by hand formulas (math module)."""

from __future__ import annotations

import math
from fractions import Fraction as Fr

import pytest

from privlab.proofs import default_ledger
from privlab.proofs.thesis import ch5 as ch5
from privlab.proofs.thesis import ch5_tables as tb
from privlab.types import Status

V, C, R = Status.VERIFIED, Status.CONFIRMED, Status.REFUTED
EXPECTED = {
    "thesis:sec-5.2-masses": R, "thesis:alg-5.1-step-iv": R, "thesis:alg-5.1": V,
    "thesis:alg-5.1-printed-masses": R, "thesis:prop-2": V, "thesis:prop-3": V,
    "thesis:prop-3-substitution": Status.FINDING, "thesis:table-5.2": V,
    "thesis:sec-5.2-delta-individual": R, "thesis:sec-5.2-delta-statistical": R,
    "thesis:ex-8": V, "thesis:prop-4": C, "thesis:prop-5": C, "thesis:cor-2": C,
    "thesis:protocol-2": C, "thesis:protocol-1": C, "thesis:sec-5.4.1-modified-condition": V,
    "thesis:table-5.5": R, "thesis:sec-5.5.1": R, "thesis:sec-5.5.1-conclusion": V,
    "thesis:sec-5.2-example-7-products": C, "thesis:prop-2-continuous-all-answers": C,
}
CONTINUOUS = ("thesis:sec-5.2-example-7-products", "thesis:prop-2-continuous-all-answers")
"""The two claims whose continuous-prior certificates take most of the chapter's time."""


def _run(ids):
    from privlab.proofs.ledger import Ledger

    return {o.claim.id: o for o in Ledger(("privlab.proofs.thesis.ch5",)).run(ids)}


@pytest.fixture(scope="module")
def outcomes():
    return _run([cid for cid in EXPECTED if cid not in CONTINUOUS])


def test_statuses(outcomes):
    assert set(EXPECTED) - set(CONTINUOUS) <= set(outcomes)
    for cid, want in EXPECTED.items():
        if cid in CONTINUOUS:
            continue
        assert outcomes[cid].error is None, (cid, outcomes[cid].error)
        assert outcomes[cid].status is want, (cid, outcomes[cid].reason)


@pytest.mark.slow
def test_statuses_of_the_continuous_claims():
    got = _run(list(CONTINUOUS))
    for cid in CONTINUOUS:
        assert got[cid].error is None, (cid, got[cid].error)
        assert got[cid].status is EXPECTED[cid], (cid, got[cid].reason)


def test_registered_in_default_ledger():
    ids = set(default_ledger().ids())
    assert set(EXPECTED) <= ids
    assert {"thesis-5.5", "thesis-5.5.1", "thesis-5.3", "thesis-5.4"} <= set(
        default_ledger().tables())


def test_table_55_golden():
    t = tb.table_5_5()
    assert t.columns[:6] == ("epsilon", "laplace_variance", "laplace_p_in_range",
                             "refinement_variance", "refinement_u_size", "refinement_p_in_u")
    for row in t.rows:
        e = row["epsilon"]
        p = 1 / (1 + math.exp(e))  # derived size of U_u
        var = (math.exp(e) * p**3 + math.exp(-e) * (1 - p**3)) / 12
        assert row["refinement_u_size"] == pytest.approx(p, rel=1e-12)
        assert row["refinement_variance"] == pytest.approx(var, rel=1e-9)
        assert row["laplace_p_in_range"] == pytest.approx(1 - math.exp(-e / 2), rel=1e-12)
        assert all(f"paper_{c}" in row for c in t.columns[1:6])


def test_table_551_golden():
    rows = {r["quantity"]: r for r in tb.table_5_5_1().rows}
    q = 0.01
    assert rows["laplace P(K=1|f=0)"]["value"] == pytest.approx(math.exp(-1) / 2)
    assert rows["refinement P(K=1)"]["value"] == pytest.approx(
        q / math.e * (1 - q) + q * math.e * q, rel=1e-12)
    assert all("paper_value" in r for r in rows.values())


def test_mutated_paper_value_is_detected(monkeypatch):
    """If the printed table agreed, the check would hold: the claim can fail both ways."""
    fixed = {k: (v[0], f"{1 - math.exp(-float(sp) / 2):.3f}", *v[2:])
             for (k, sp), v in zip(tb.EPS_55, (tb.PAPER_55[k] for k, _ in tb.EPS_55),
                                   strict=True)}
    monkeypatch.setattr(tb, "PAPER_55", fixed)
    assert tb.check_table_55().holds


def test_claims_have_notes_and_sources():
    for c in ch5.CLAIMS:
        assert c.source.startswith("000_65177858bc9aa63c.txt §")


# ---- issue 30: the declared parameters are what the checks run -------------------------------
MINE = ("thesis:prop-2", "thesis:prop-3", "thesis:prop-3-substitution", "thesis:table-5.2",
        "thesis:sec-5.2-delta-individual", "thesis:sec-5.2-delta-statistical", "thesis:prop-4",
        "thesis:prop-5", "thesis:cor-2", "thesis:protocol-1", "thesis:protocol-2",
        "thesis:sec-5.2-example-7-products", "thesis:prop-2-continuous-all-answers")


def _claim(cid):
    return next(c for c in ch5.CLAIMS if c.id == cid)


def test_quantified_claims_declare_their_parameters():
    from privlab.proofs.parameters import PAPER_PARAMETERS
    from privlab.proofs.verdict import form_problems, grid_gaps

    registry = PAPER_PARAMETERS["thesis"]["epsilon"]
    for cid in MINE:
        c = _claim(cid)
        eps = [p for p in c.params if p.registry == "epsilon"]
        assert eps, cid
        assert form_problems(c) == () and grid_gaps(c) == (), cid
        for p in eps:  # a grid, or a sympy proof of every ε
            assert (p.grid is None and c.proof is not None and c.proof.kind == "symbolic") \
                or all(any(math.isclose(r, g, rel_tol=1e-12) for g in p.grid)
                       for r in registry), cid


def _eps_floats(texts):
    """The floats of the ε texts in evidence ('1/100', 'ln 2', …)."""
    return {math.log(2) if t == "ln 2" else float(Fr(t)) for t in texts}


def test_the_grids_are_the_values_the_checks_run():
    """The evidence of each check names the ε (and δ, B, n) it ran: exactly the declared grid."""
    from privlab.proofs.thesis import ch5_checks as ck
    from privlab.proofs.thesis import ch5_products as pr
    from privlab.proofs.thesis import ch5_protocols as pt

    def grid(cid, name="epsilon"):
        return {round(g, 12) for p in _claim(cid).params if p.name == name for g in p.grid}

    rnd = lambda xs: {round(x, 12) for x in xs}  # noqa: E731
    d = ck.check_delta("individual").evidence["instances"]
    assert rnd(_eps_floats(r["epsilon"] for r in d)) == grid("thesis:sec-5.2-delta-individual")
    assert rnd(float(Fr(r["delta"])) for r in d) == \
        grid("thesis:sec-5.2-delta-individual", "delta")
    p5 = ck.check_prop_5().evidence["cases"]
    assert rnd(_eps_floats(r["epsilon"] for r in p5)) == grid("thesis:prop-5")
    p4 = ck.check_prop_4().evidence["cases"]
    eps_i = {"ln 3": math.log(3), "ln 3/2": math.log(3 / 2)}
    ran = {round(eps_i[e], 12) if e in eps_i else round(next(iter(_eps_floats([e]))), 12)
           for r in p4 for e in r["epsilons"]}
    assert ran == grid("thesis:prop-4", "epsilon_i")
    assert {r["n"] for r in p4} == grid("thesis:prop-4", "n")
    p2 = pt.check_protocol_2().evidence["per_epsilon"]
    assert rnd(_eps_floats(p2)) == grid("thesis:protocol-2")
    p1 = pt.check_protocol_1().evidence
    assert set(p1["per_budget_B"]) == grid("thesis:protocol-1", "B = λε")
    assert len(p1["per_epsilon_lambda"]) == 7 * 3
    c2 = pt.check_cor_2_exact().evidence["per_epsilon"]
    assert rnd(_eps_floats(c2)) == grid("thesis:cor-2")
    assert rnd(m.epsilon for _, m in pr.product_cases()) == \
        grid("thesis:sec-5.2-example-7-products")
    assert rnd(m.epsilon for _, m in pr.continuous_cases()) == \
        grid("thesis:prop-2-continuous-all-answers")


# ---- exact arithmetic in Q(e^g) ---------------------------------------------------------------
def test_qe_identities_and_signs_are_exact():
    import mpmath

    from privlab.proofs.thesis.ch5_exact import exp_bound_ok, exp_of, field

    y = field(Fr(1, 200))  # e^{1/200}
    assert y * y == field(Fr(1, 200), 2) and (1 + y) ** 2 - 1 - 2 * y - y * y == 0
    assert (y ** 3) / y == y ** 2 and 1 / (1 / y) == y and (y - y) == 0
    # a rational within 1e-40 of e^{1/200}: the float path cannot tell, the rational bounds can
    with mpmath.workprec(400):
        val = mpmath.exp(mpmath.mpf(1) / 200)
        close = Fr(int(val * 10**45), 10**45)  # just below
        assert (y > close) is True and (y < close + Fr(1, 10**44)) is True
    assert exp_of(Fr(1, 2), Fr(1)) == field(Fr(1, 4), 2)  # e^{1/2} = (e^{1/4})^2
    assert exp_bound_ok(Fr(2), "ln 2") and not exp_bound_ok(Fr(2) + Fr(1, 10**30), "ln 2")
    assert exp_bound_ok(Fr(141421356, 10**8), "ln 2", Fr(1, 2))  # 1.41421356 < √2
    assert not exp_bound_ok(Fr(141421357, 10**8), "ln 2", Fr(1, 2))
    e = exp_of(Fr(1), Fr(1), Fr(1, 12))
    assert exp_bound_ok(e, Fr(1)) and not exp_bound_ok(e * (1 + Fr(1, 10**30)), Fr(1))
    assert float(e) == pytest.approx(math.e, rel=1e-15)


def test_symbolic_factor_facts_can_fail():
    from privlab.proofs.thesis import ch5_checks as ck

    assert ck.symbolic_factors("individual")["holds"]
    assert ck.symbolic_factors("statistical", "any")["holds"]
    sub = ck.symbolic_factors("individual", "substitute")
    assert not sub["holds"] and sub["failed"] == ["e^eps >= alpha_u/alpha_d"]
    two = ck.symbolic_factors("statistical", "any", power=2)
    assert not two["holds"] and all("alpha_u/alpha_d" in f for f in two["failed"])


def test_exact_factors_are_table_5_2_at_every_registry_epsilon():
    from privlab.proofs.thesis import ch5_checks as ck
    from privlab.proofs.thesis.ch5_exact import EPSILONS, exp_of

    for eps in EPSILONS:
        e = exp_of(eps, Fr(1))
        au, ad = ck.exact_factors(eps, "individual")
        assert au == e and ad * e == 1
        for pos in ck.POSITIONS:
            au, ad = ck.exact_factors(eps, "statistical", pos)
            assert au / ad == e and 1 <= au <= e and 1 <= ad * e <= e


# ---- Protocols 1 and 2 ------------------------------------------------------------------------
def test_protocol_2_transcripts_are_complete_and_tight():
    """Every data set's transcript probabilities sum to exactly 1 (the enumeration is the whole
    tree); the full-budget individual query reaches e^ε exactly."""
    from privlab.proofs.thesis import ch5_protocols as pt
    from privlab.proofs.thesis.ch5_exact import EPSILONS, exp_of

    for eps in (EPSILONS[0], "ln 2"):
        for name, s in pt.STRATEGIES.items():
            laws = pt.run_protocol_2(s, eps)
            for k in range(len(pt.DSETS2)):
                assert sum(p[k] for p in laws.values()) == 1, (eps, name)
        ok, worst, _ = pt._worst_pairs(pt.run_protocol_2(pt.STRATEGIES["full-then-probe"], eps),
                                       eps)
        assert ok and worst == (2 if eps == "ln 2" else exp_of(eps, Fr(1), Fr(eps) / 12))


def test_protocol_2_menu_recursion_equals_brute_force():
    """The longest-path recursion over the budget equals the maximum over every admissible
    sequence of queries of a small menu, enumerated one by one (answers: the worst per round)."""
    from privlab.proofs.thesis import ch5_protocols as pt

    half = (Fr(1, 2), Fr(1, 2))
    small = (pt.RQuery("ind1", half, "nominal", 1), pt.RQuery("ind1", (Fr(9, 10), Fr(1, 10)),
                                                             "nominal", 3),
             pt.RQuery("count", (Fr(1, 3),) * 3, "absolute", 2),
             pt.RQuery("size", (Fr(1, 10), Fr(1, 10), Fr(4, 5)), "nominal", 3))
    for eps, rule in ((Fr(1), "printed"), ("ln 2", "printed"), (Fr(1), "exclusive")):
        dp = pt._menu_worst(eps, rule, "thesis", small)
        menu, total = pt.budget_menu(eps), pt.e_total(eps)
        for row, (i, j) in zip(dp["pairs"], pt.PAIRS2, strict=True):
            ratio = {q: pt._round_worst(q, q.value(pt.DSETS2[i]), q.value(pt.DSETS2[j]), eps,
                                        "thesis") for q in small}
            best, stack, seqs = Fr(1), [(Fr(1), Fr(1))], 0
            while stack:  # every admissible sequence, depth first
                spent, prod = stack.pop()
                best = max(best, prod)
                for q in small:
                    if pt._admit(spent, menu[q.budget], total, rule):
                        seqs += 1
                        stack.append((spent * menu[q.budget], prod * ratio[q]))
            assert seqs > len(small)
            assert str(best) == row["worst_ratio"], (eps, rule, i, j)


def test_protocol_mutants_are_refuted_and_the_protocols_hold():
    from privlab.proofs.thesis import ch5_protocols as pt

    assert pt.check_protocol_2().holds and pt.check_protocol_1().holds
    for kw in ({"rule": "exclusive"}, {"rule": "double"}, {"variant": "absent-refined"},
               {"variant": "individual-factors-on-statistical"}):
        r = pt.check_protocol_2(**kw)
        assert not r.holds and r.counterexample, kw
    for rule in ("double", "per-query", "max"):
        r = pt.check_protocol_1(rule=rule)
        assert not r.holds and r.counterexample, rule


def test_protocol_1_region_supremum_and_sensitivity_by_hand():
    import random

    import numpy as np

    from privlab.proofs.thesis import ch5_protocols as pt

    assert pt.sensitivity(("value of 1", "value of 2", "value of 3")) == 1  # disjoint
    assert pt.sensitivity(("count of ones", "count of ones")) == 2
    assert pt.sensitivity(("2 × value of 1",)) == 2
    assert pt.sensitivity(("number of records", "count of ones")) == 2
    # the region supremum: dense sampling never exceeds it and comes within the grid step
    rnd = random.Random(5)
    q = "value of 1 + value of 2"
    for t2 in (-1, 1, 3, 5):
        for above in (False, True):
            sup2 = pt._region_sup2(q, t2, above)
            for k in rnd.sample(range(len(pt.PAIRS1)), 12):
                a, b = int(pt._A[q][k]), int(pt._B[q][k])
                ys = np.arange(t2 / 2, t2 / 2 + 8, 1 / 64) if above \
                    else np.arange(t2 / 2 - 8, t2 / 2, 1 / 64)
                h = np.abs(ys - b) - np.abs(ys - a)
                assert 2 * h.max() <= sup2[k] + 1e-12
                assert 2 * h.max() >= sup2[k] - 2 / 32 - 1e-12
    # "repeat value of 1" at B = 2 answers two queries and reaches L = 2 exactly
    worst, regions, _ = pt._p1_strategy_worst(pt.P1_STRATEGIES["repeat value of 1"], 2,
                                              "printed")
    assert worst == 2 and regions == 4
