"""Thesis §3.4.1 Tables 3.6–3.9 with their claim, and §3.4.2 Table 3.11 (issue 31).

The computed cells are checked against independent computations here (numpy on the file, the
mechanisms called directly), never against the printed numbers; the printed numbers are only
checked as transcribed and as compared by the one printed-number rule."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from privlab._data import data_file
from privlab.proofs.printed import Printed, matches_printed
from privlab.proofs.thesis import sec341_correlations as s1
from privlab.proofs.thesis import sec342_eia as s2
from privlab.proofs.verdict import form_problems, verdict
from privlab.types import Status

CENSUS = data_file("census_casc.csv")
EIA = data_file("eia.csv")
needs_census = pytest.mark.skipif(CENSUS is None, reason="census_casc.csv absent")
needs_eia = pytest.mark.skipif(EIA is None, reason="eia.csv absent")


# ---- transcription and the printed-digit reading ------------------------------------------------
def test_printed_tables_have_the_63_cells_of_the_same_pairs() -> None:
    ref = s1.pairs()
    assert len(ref) == 63 and len(set(ref)) == 63
    assert all(i < j and j >= 6 for i, j in ref)
    for number, text in s1.PRINTED.items():
        assert tuple(s1.parse_printed(text)) == ref, number
    with pytest.raises(ValueError):
        s1.parse_printed("A1 .1 .2")


def test_two_digit_reading_pads_only_short_texts() -> None:
    assert s1.two_digits("1") == "1.0"
    assert s1.two_digits(".2") == ".20"
    assert s1.two_digits("-.7") == "-.70"
    assert s1.two_digits("-.027") == "-.027"
    assert s1.two_digits(".0038") == ".0038"
    # the padding makes the rule stricter: .97 matches "1" literally, not "1.0"
    assert matches_printed(0.97, "1") and not matches_printed(0.94, s1.two_digits("1"))


def test_printed_3_11_is_parsed_per_k_and_method() -> None:
    assert list(s2.PAPER_3_11) == list(s2.KS)
    assert all(len(v) == 3 and all(isinstance(p, Printed) for pair in v for p in pair)
               for v in s2.PAPER_3_11.values())


def test_orderings_find_the_failing_k() -> None:
    means = {1: {"MDAV-ID": 3.0, "MDAV-SWAP": 2.0, "IR-SWAP": 1.0},
             2: {"MDAV-ID": 2.0, "MDAV-SWAP": 2.5, "IR-SWAP": 1.0},
             3: {"MDAV-ID": 3.0, "MDAV-SWAP": 1.0, "IR-SWAP": 1.5}}
    got = s2.orderings(means)
    assert got == {"MDAV-SWAP not below MDAV-ID": [2], "IR-SWAP not the smallest": [3]}


def test_printed_orderings_are_those_of_the_printed_cells() -> None:
    got = s2.printed_orderings()
    swap_fail = [k for k, v in s2.PAPER_3_11.items() if not v[1][0] < v[0][0]]
    ir_fail = [k for k, v in s2.PAPER_3_11.items() if not (v[2][0] < v[0][0] and v[2][0] < v[1][0])]
    assert got["MDAV-SWAP not below MDAV-ID"] == swap_fail
    assert got["IR-SWAP not the smallest"] == ir_fail


# ---- the claim's definition ---------------------------------------------------------------------
def test_claim_is_well_formed() -> None:
    c = s1.CLAIM
    assert form_problems(c) == ()
    assert c.data == "census_casc.csv" and c.params[0].grid == (12,)
    assert {m.conjunct for m in c.mutants} == {x.name for x in c.conjuncts}
    assert "closest to the original correlations" in c.statement


# ---- without the data ---------------------------------------------------------------------------
def test_without_census_the_tables_are_synthetic_and_the_claim_undecided(tmp_path: Path) -> None:
    t = s1.table_thesis_3_8(data_dir=tmp_path, runs=3)
    assert len(t.rows) == 63 and all(r["paper_corr"] is None for r in t.rows)
    assert any("synthetic" in n for n in t.notes)
    r = s1.check_sec_3_4_1(data_dir=tmp_path, runs=3)
    assert not r.decided and r.evidence["data"]["path"] == "synthetic"
    assert verdict(s1.CLAIM, r).status is Status.INCONCLUSIVE


def test_without_eia_the_table_is_synthetic_and_the_check_undecided(tmp_path: Path) -> None:
    t = s2.table_thesis_3_11(data_dir=tmp_path, runs=2)
    assert len(t.rows) == 27 and all(r["paper_mean"] is None for r in t.rows)
    assert any("synthetic" in n for n in t.notes)
    r = s2.check_table_3_11(data_dir=tmp_path, runs=2)
    assert not r.decided and r.evidence["data"]["path"] == "synthetic"


# ---- Census -------------------------------------------------------------------------------------
def _census() -> np.ndarray:
    assert CENSUS is not None
    return np.loadtxt(CENSUS, delimiter=",", skiprows=1)


@needs_census
def test_table_3_6_is_the_correlation_of_the_file() -> None:
    x = _census()
    c = np.corrcoef(x, rowvar=False)
    t = s1.table_thesis_3_6()
    printed = s1.parse_printed(s1.PRINTED["3.6"])
    n = 0
    for r in t.rows:
        i, j = int(r["row"][1:]) - 1, int(r["column"][1:]) - 1
        assert r["corr"] == pytest.approx(c[i, j], abs=1e-12)
        assert r["printed"] == printed[i, j] and r["paper_corr"].text == s1.two_digits(r["printed"])
        n += matches_printed(r["corr"], r["paper_corr"].text)
    assert any(f"{n} of 63 cells match in the two-digit reading" in x for x in t.notes)


@needs_census
def test_table_3_7_is_mdav_id_on_raw_attributes() -> None:
    from privlab.mechanisms.microaggregation.prob_kanon import mdav_id

    x = _census()
    c = np.corrcoef(np.asarray(mdav_id(x, 12, distance="raw").released), rowvar=False)
    for r in s1.table_thesis_3_7().rows:
        i, j = int(r["row"][1:]) - 1, int(r["column"][1:]) - 1
        assert r["corr"] == pytest.approx(c[i, j], abs=1e-12)


@needs_census
def test_swap_runs_keep_the_quasi_identifiers_and_run_0_is_stable() -> None:
    a = s1.census_runs(runs=2)
    b = s1.census_runs(runs=3)
    qi = slice(0, 6)
    for m in ("MDAV-SWAP", "IR-SWAP"):
        cm = a.corr(m)
        assert np.allclose(cm[:, qi, qi], a.original[qi, qi])  # swaps touch A7–A13 only
        assert np.array_equal(cm[0], b.corr(m)[0])
        assert not np.allclose(cm[0], cm[1])  # two draws differ
    t = s1.table_thesis_3_9(runs=3)
    for r in t.rows:
        assert r["corr_min"] <= r["corr"] <= r["corr_max"] and 0 <= r["runs_matching"] <= 3


@needs_census
def test_claim_decision_follows_the_run_distances() -> None:
    """The check's verdict is the per-run comparison of d(M), recomputed here."""
    runs = 8
    r = s1.check_sec_3_4_1(runs=runs)
    cr = s1.census_runs(runs=runs)
    d = {m: cr.distance_to_original(m) for m in s1.METHODS}
    direct = np.abs(cr.cells("IR-SWAP") - cr.cells(None)).mean(axis=1)
    assert np.allclose(d["IR-SWAP"], direct)
    expect = bool(np.all((d["MDAV-SWAP"] < d["MDAV-ID"]) & (d["IR-SWAP"] < d["MDAV-ID"])
                         & (d["IR-SWAP"] < d["MDAV-SWAP"])))
    assert r.decided and r.holds == expect
    flipped = s1.check_sec_3_4_1(runs=runs, closest="MDAV-SWAP")
    expect_flip = bool(np.all((d["MDAV-SWAP"] < d["MDAV-ID"]) & (d["IR-SWAP"] < d["MDAV-ID"])
                              & (d["MDAV-SWAP"] < d["IR-SWAP"])))
    assert flipped.holds == expect_flip


@needs_census
def test_mutants_are_refuted_and_a_passing_check_confirms() -> None:
    from privlab.proofs.verdict import run_mutants

    assert [m["status"] for m in run_mutants(s1.CLAIM)] == ["refuted"] * len(s1.CLAIM.mutants)
    res = s1.CLAIM.check()
    out = verdict(s1.CLAIM, res)
    assert out.status is (Status.CONFIRMED if res.holds else Status.REFUTED)


# ---- EIA ----------------------------------------------------------------------------------------
@needs_eia
def test_eia_loader_and_primary_rows() -> None:
    x = s2.load_eia()
    assert x is not None and x.shape == (s2.N_EIA, 10)
    rows, real = s2.eia_rows(runs=2)
    assert real and len(rows) == 27
    assert {(r["k"], r["method"]) for r in rows} == {(k, m) for k in s2.KS for m in s2.METHODS}
    assert all(r["mean"] >= 0 and r["sd"] >= 0 for r in rows)


@needs_eia
def test_eia_rows_are_corr_experiment_on_the_reading() -> None:
    from privlab.proofs.thesis.ch3_tables import corr_experiment

    x = s2.load_eia()
    assert x is not None
    mine, _ = s2.eia_rows(runs=2)
    ref = corr_experiment(x, s2.KS, 2, 0, confidential=(5, 6, 7, 8, 9), distance="raw")
    assert [(r["k"], r["method"], r["mean"]) for r in mine] == \
        [(r["k"], r["method"], r["mean"]) for r in ref]


@needs_eia
def test_eia_check_follows_the_computed_means() -> None:
    rows, _ = s2.eia_rows(runs=2)
    means = {(r["k"], r["method"]): r["mean"] for r in rows}
    r = s2.check_table_3_11(runs=2, alternatives=False)
    ok = all(means[k, "MDAV-SWAP"] < means[k, "MDAV-ID"]
             and means[k, "IR-SWAP"] < min(means[k, "MDAV-SWAP"], means[k, "MDAV-ID"])
             for k in s2.KS)
    assert r.decided and r.holds == ok
    assert (r.counterexample is None) == ok
    assert not s2.check_table_3_11(runs=2, alternatives=False, best="MDAV-ID").holds


@pytest.mark.slow
@needs_eia
def test_table_3_11_notes_every_reading() -> None:
    t = s2.table_thesis_3_11()
    assert len(t.rows) == 27 and all(isinstance(r["paper_mean"], Printed) for r in t.rows)
    note = next(n for n in t.notes if n.startswith("Printed cells matched per reading"))
    assert all(rd.label in note for rd in s2.READINGS)
    assert any(n.startswith("The printed table against its own text") for n in t.notes)


@needs_eia
def test_eia_check_on_a_subset_of_k_judges_only_those() -> None:
    rows, _ = s2.eia_rows(runs=2)
    means = {(r["k"], r["method"]): r["mean"] for r in rows}
    ks = (5, 7)
    r = s2.check_table_3_11(runs=2, alternatives=False, ks=ks)
    assert set(r.evidence["means"]) == {"5", "7"}
    ok = all(means[k, "MDAV-SWAP"] < means[k, "MDAV-ID"]
             and means[k, "IR-SWAP"] < min(means[k, "MDAV-SWAP"], means[k, "MDAV-ID"])
             for k in ks)
    assert r.holds == ok
    with pytest.raises(ValueError):
        s2.check_table_3_11(runs=2, alternatives=False, ks=(6,))
