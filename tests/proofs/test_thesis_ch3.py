"""privlab.proofs.thesis.ch3: MDAV (Algorithm 2.1) and probabilistic k-anonymity (thesis ch.3),
and the Table 3.10 readings of privlab.proofs.thesis.ch3_tables."""

from __future__ import annotations

import importlib
from fractions import Fraction

import numpy as np
import pytest

from privlab._data import data_file
from privlab.proofs import ledger
from privlab.proofs.ledger import Ledger, run_claim
from privlab.proofs.printed import Printed
from privlab.proofs.thesis import ch3 as thesis_ch3
from privlab.proofs.thesis import ch3_tables as tb
from privlab.proofs.verdict import form_problems, grid_gaps
from privlab.types import Status
from privlab.verify.microaggregation.reference import mdav_group_sizes

CENSUS = data_file("census_casc.csv")
needs_census = pytest.mark.skipif(CENSUS is None, reason="census_casc.csv absent")
CH3_IDS = ("thesis:alg-2.1", "thesis:sec-3.3.1-reid-bound", "thesis:sec-3.3.1-reid-bound-ties",
           "thesis:sec-3.4.1-table-3.10", "thesis:sec-3.4.2-table-3.11")
DECLARED = ("thesis:alg-2.1", "thesis:sec-3.3.1-reid-bound", "thesis:sec-3.3.1-reid-bound-ties",
            "thesis:sec-3.4.1-table-3.10")


def _claim(cid: str):
    return next(c for c in thesis_ch3.CLAIMS if c.id == cid)


def test_registered_once_and_ids_unique():
    mods = ledger.MODULES
    assert mods.count("privlab.proofs.thesis.ch3") == 1
    assert mods.index("privlab.proofs.thesis.sec62_insensitivity") > \
        mods.index("privlab.proofs.thesis.ch3")
    assert "privlab.proofs.thesis.microaggregation" not in mods
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("privlab.proofs.thesis.microaggregation")
    ids = [c.id for c in thesis_ch3.CLAIMS]
    assert tuple(ids) == CH3_IDS
    assert list(thesis_ch3.TABLES) == ["thesis-3.10"]


def test_ledger_loads_the_module_without_errors():
    led = Ledger(("privlab.proofs.thesis.ch3",))
    ids = {c.id for c in led.claims()}
    assert ids == set(CH3_IDS)
    assert not led.load_errors


@pytest.mark.parametrize("cid", CH3_IDS)
def test_claims_are_well_formed(cid):
    assert form_problems(_claim(cid)) == ()


@pytest.mark.parametrize("cid", DECLARED)
def test_quantified_claims_declare_k_on_the_registry(cid):
    (p,) = _claim(cid).params
    assert p.name == "k" and p.registry == "k" and p.integer
    assert grid_gaps(_claim(cid)) == ()


def test_declared_grids_are_the_ones_the_checks_run():
    assert _claim("thesis:alg-2.1").params[0].grid == thesis_ch3.ALG_2_1_KS
    assert _claim("thesis:sec-3.3.1-reid-bound").params[0].grid == thesis_ch3.REID_KS
    assert _claim("thesis:sec-3.4.1-table-3.10").params[0].grid == thesis_ch3.TABLE_3_10_KS
    res = thesis_ch3.check_reid_bound_ties()
    assert tuple(int(k.split("=")[1]) for k in res.evidence if k.startswith("k=")) == \
        _claim("thesis:sec-3.3.1-reid-bound-ties").params[0].grid


# ---- Algorithm 2.1 ---------------------------------------------------------------------------
def test_group_size_arithmetic_by_hand():
    # n = 23, k = 4: 23 ≥ 12 → 4, 4 (15 left) → 4, 4 (7 left) → 7 < 8 → last cluster of 7
    assert mdav_group_sizes(23, 4) == [4, 4, 4, 4, 7]
    # n = 10, k = 3: 10 ≥ 9 → 3, 3 (4 left) → 4 < 6 → last cluster of 4
    assert mdav_group_sizes(10, 3) == [3, 3, 4]
    # 2k ≤ n < 3k: one extra cluster; n = 5, k = 2 → 2, 3
    assert mdav_group_sizes(5, 2) == [2, 3]


def test_alg_2_1_confirmed_on_its_grid():
    """Runs of privlab's MDAV are instances: confirmed (no proof object), not verified."""
    out = run_claim(thesis_ch3.ALG_2_1)
    assert out.error is None
    assert out.status is Status.CONFIRMED, out.result
    assert out.result is not None
    ev = out.result.evidence
    assert ev["grid_k"] == list(thesis_ch3.ALG_2_1_KS)
    assert ev["grid_arithmetic_pairs"] == sum(3 * k + 1 for k in (25, 30, 100, 300))


def test_alg_2_1_check_can_fail(monkeypatch):
    from privlab.mechanisms.microaggregation import mdav_algorithm as microagg_mdav

    def broken(x, k, distance="standardised", domain=None):  # chunks of k in input order
        n = x.shape[0]
        return np.minimum(np.arange(n) // k, max(n // k, 1) - 1)

    monkeypatch.setattr(microagg_mdav, "mdav_labels", broken)
    res = thesis_ch3.check_alg_2_1(random_sets=20)
    assert res.holds is False and res.counterexample is not None


def test_alg_2_1_grid_runs_can_fail(monkeypatch):
    """The runs beyond k = 8 catch a labeler that is wrong only there."""
    from privlab.mechanisms.microaggregation import mdav_algorithm as microagg_mdav

    real = microagg_mdav.mdav_labels

    def wrong_above_8(x, k, distance="standardised", domain=None):
        return np.zeros(x.shape[0], dtype=np.int64) if k > 8 else real(x, k, distance)

    monkeypatch.setattr(microagg_mdav, "mdav_labels", wrong_above_8)
    thesis_ch3._grid_runs.cache_clear()
    try:
        res = thesis_ch3.check_alg_2_1_on_grid(seed=3, random_sets=2)
    finally:
        thesis_ch3._grid_runs.cache_clear()
    bad = res.evidence["grid_fast_vs_arithmetic_failures"]
    assert not res.holds and bad and all(b["k"] > 8 for b in bad)


def test_alg_2_1_mutant_is_caught():
    (mut,) = thesis_ch3.ALG_2_1.mutants
    assert mut.check().holds is False


# ---- re-identification ------------------------------------------------------------------------
def test_swap_posteriors_equal_the_exact_enumeration():
    """The group-size formula against the exact rational intruder on 6 records (13 attributes,
    distinct values)."""
    from privlab.verify.microaggregation.prob_kanon import check_probabilistic_k_anonymity

    x = np.random.default_rng(5).normal(size=(6, 13))
    j = tb.CONFIDENTIAL[0]
    others = [i for i in range(13) if i != j]
    for k in (2, 3):
        post = thesis_ch3.swap_posteriors(x, k)
        for method in ("mdav-swap", "ir-swap"):
            exact = check_probabilistic_k_anonymity(x[:, others], x[:, j], k, method=method)
            assert post[method][f"A{j + 1}"] == exact.evidence["max_posterior"]
        assert post["ir-swap_ties_straddle"] == []


def test_swap_posteriors_leave_out_ties_across_a_boundary():
    x = np.random.default_rng(6).normal(size=(8, 13))
    x[:, 6] = [1, 2, 3, 3, 3, 4, 5, 6]  # k = 2: the tie 3, 3 straddles the boundary after rank 4
    post = thesis_ch3.swap_posteriors(x, 2)
    assert post["ir-swap_ties_straddle"] == ["A7"] and "A7" not in post["ir-swap"]
    assert post["mdav-swap"]["A7"] == Fraction(1, 2)


def test_reid_bound_check_can_fail(monkeypatch):
    """Partitions with a group smaller than k make the Census part fail."""
    from privlab.mechanisms.microaggregation import prob_kanon

    def small_groups(x, k, conf, distance="standardised"):
        lab = np.minimum(np.arange(x.shape[0]) // k, x.shape[0] // k - 1)
        lab[0] = lab.max() + 1  # a group of one record
        return {c: lab for c in conf}

    monkeypatch.setattr(prob_kanon, "mdav_swap_partitions", small_groups)
    res = thesis_ch3.check_reid_bound(exact_ks=(2,), census_ks=(5,))
    assert res.holds is False and res.counterexample["k"] == 5
    assert res.counterexample["max_posterior"] == "1"


@needs_census
def test_reid_bound_confirmed_on_census():
    out = run_claim(_claim("thesis:sec-3.3.1-reid-bound"))
    assert out.status is Status.CONFIRMED, out.reason
    assert out.result is not None
    census = out.result.evidence["census_by_k"]
    assert tuple(census) == thesis_ch3.REID_KS
    assert all(v["max_posterior"] == str(Fraction(1, k)) for k, v in census.items())


def test_reid_bound_ties_refuted_at_k_2_and_3():
    out = run_claim(_claim("thesis:sec-3.3.1-reid-bound-ties"))
    assert out.status is Status.REFUTED and out.result is not None
    assert out.result.value == {1: "1", 2: "1/2", 3: "13/36"}
    assert out.result.counterexample["k"] == 2
    assert out.result.evidence["k=2"]["max_success"] == Fraction(3, 4)


# ---- Table 3.10 ------------------------------------------------------------------------------
def test_table_3_10_synthetic(monkeypatch) -> None:
    monkeypatch.setattr(tb, "load_census", lambda data_dir=None: None)
    t = tb.table_thesis_3_10(runs=2)
    assert t.columns[:6] == ("k", "method", "mean", "sd", "paper_mean", "paper_sd")
    assert len(t.rows) == 27 and all(r["paper_mean"] is None for r in t.rows)
    assert any("synthetic" in n for n in t.notes)
    assert not any(n.startswith("Readings") for n in t.notes)  # no printed values to count


def test_printed_digits_are_kept():
    mean, sd = tb.PAPER_3_10[50][2]
    assert isinstance(mean, Printed) and isinstance(sd, Printed)
    assert (mean.text, sd.text) == (".010", ".020")
    cells = tb.printed_cells(tb.PAPER_3_6)
    assert len(cells) == 70 and all(cells[j, j] == "1" for j in tb.CONFIDENTIAL)
    assert cells[8, 11] == ".70"  # as printed (the Census value is 0.070)


def test_readings_enumerate_the_choices():
    assert tb.READINGS[0] == tb.LAB and len(set(tb.READINGS)) == len(tb.READINGS) == 4 * 2 ** 4 * 4
    assert tb.LAB.label_for("IR-SWAP").count("/") == 3


def test_lab_reading_is_the_rows():
    x = tb.synthetic_census(seed=3, n=150)
    rows = tb.corr_experiment(x, (5, 11), runs=3, seed=1)
    cells = tb.reading_cells(x, (5, 11), runs=3, seed=1, readings=(tb.LAB,))[tb.LAB]
    for a, b in zip(cells, rows, strict=True):
        assert (a["k"], a["method"]) == (b["k"], b["method"])
        assert a["mean"] == pytest.approx(b["mean"], rel=1e-12)
        assert a["sd"] == pytest.approx(b["sd"], rel=1e-12)


def test_readings_differ_where_the_choice_matters():
    x = tb.synthetic_census(seed=3, n=150)
    r70 = tb.Reading(pairs="printed-cells")
    one = tb.Reading(statistic="run-means")
    cells = tb.reading_cells(x, (5,), runs=3, seed=1, readings=(tb.LAB, r70, one))
    for a, b, c in zip(cells[tb.LAB], cells[r70], cells[one], strict=True):
        assert b["mean"] == pytest.approx(a["mean"] * 63 / 70)  # 7 zero diagonal cells added
        assert c["mean"] == pytest.approx(a["mean"])  # same mean, other sd
    mdav_id = [c for c in cells[one] if c["method"] == "MDAV-ID"]
    assert all(c["sd"] == 0 for c in mdav_id)  # deterministic: its run means do not vary


def test_reading_summary_counts_matches():
    cells = [(k, m, float(p[0]), float(p[1]))
             for k, row in tb.PAPER_3_10.items() for m, p in zip(tb.METHODS, row, strict=True)]
    printed = [{"k": k, "method": m, "mean": mu, "sd": sd} for k, m, mu, sd in cells]
    off = [{"k": k, "method": m, "mean": mu * 1.5, "sd": sd * 1.5} for k, m, mu, sd in cells]
    exact, wrong = tb.reading_summary({tb.LAB: printed, tb.READINGS[1]: off})
    assert exact["matches"] == exact["cells"] == 54
    assert wrong["matches"] == 0
    assert wrong["median_relative_error_mean"] == pytest.approx(0.5)


def test_table_3_7_implied_values_by_hand():
    x = tb.synthetic_census(seed=2)
    res = tb.table_3_7_consistency(x)
    t6 = [float(v) for line in tb.PAPER_3_6.split("\n") for v in line.split()]
    t7 = [float(v) for line in tb.PAPER_3_7.split("\n") for v in line.split()]
    d = np.abs(np.array(t7) - np.array(t6))  # 70 cells; the 7 diagonal ones are 1 − 1 = 0
    got = res["implied_k12"]["70 printed cells, against the printed Table 3.6"]
    assert got["mean"] == pytest.approx(d.mean())
    off = res["implied_k12"]["63 pairs, against the printed Table 3.6"]
    assert off["mean"] == pytest.approx(d.sum() / 63)


@needs_census
def test_table_3_10_order_confirmed_and_readings_reported():
    out = run_claim(_claim("thesis:sec-3.4.1-table-3.10"))
    assert out.status is Status.CONFIRMED, out.reason
    assert out.result is not None
    ev = out.result.evidence
    assert ev["data"]["path"] != "synthetic"
    assert ev["orderings_by_reading"]["readings"] == len(tb.READINGS)
    assert {int(k.split("/")[0]) for k in out.result.value} == set(thesis_ch3.TABLE_3_10_KS)
