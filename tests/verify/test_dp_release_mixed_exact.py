"""Exact checker of the mixed release (privlab.verify.releases.mixed_exact) against the
certificate (privlab.verify.releases.mixed): agreement on small cases, broken variants caught,
exact quality sensitivity."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from privlab.errors import InvalidParameter
from privlab.mechanisms.microaggregation.semantic import NumericDomain
from privlab.mechanisms.microaggregation.taxonomy import Taxonomy, project_taxonomy
from privlab.mechanisms.releases.mixed import MixedDPRelease
from privlab.verify.releases.mixed import certify_mixed, quality_sensitivity, structure
from privlab.verify.releases.mixed_exact import (
    categorical_law,
    check_mixed_exact,
    exact_mixed_loss,
    small_datasets,
)

TINY = Taxonomy(parents={"root": (), "A": ("root",), "B": ("root",), "a1": ("A",),
                         "a2": ("A",), "b1": ("B",)}, name="tiny")


@pytest.mark.parametrize("n, k", [(4, 1), (4, 2), (5, 2), (6, 3)])
def test_certificate_bounds_exact_loss_on_every_small_data_set(n, k):
    rel = MixedDPRelease(attributes=(TINY,), k=k, epsilon=1.0)
    r = check_mixed_exact(rel, list(small_datasets(rel, n)))
    assert r.holds and r.evidence["certificate_sound"], r.evidence
    cert = certify_mixed(rel, n)
    assert cert["certified_epsilon"] <= 1.0 + 1e-12
    assert 0 < r.value <= cert["certified_epsilon"]


def test_numerical_and_categorical_parts():
    grid = {0: (0.0, 1.0)}
    rel = MixedDPRelease(attributes=(NumericDomain(0, 1), TINY), k=2, epsilon=1.0)
    data = [[[0.0, "a1"], [1.0, "b1"], [0.0, "a2"], [1.0, "a1"]],
            [[0.0, "b1"], [0.0, "b1"], [1.0, "a1"], [1.0, "a1"]]]
    r = check_mixed_exact(rel, data, grid)
    assert r.holds and r.evidence["certificate_sound"]
    num = max(d["numerical_loss"] for d in r.evidence["datasets"])
    part = certify_mixed(rel, 4)["parts"][0]["epsilon"]
    assert 0 < num <= part + 1e-12


def test_no_n_over_k_factor_is_caught():
    """thesis Algorithm 6.3 (factor 1): certificate q·ε and an exact loss above ε."""
    rel = MixedDPRelease(attributes=(TINY,), k=2, epsilon=4.0, em_factor="1")
    cert = certify_mixed(rel, 5)
    assert cert["certified_epsilon"] == pytest.approx(8.0) and not cert["holds"]
    r = check_mixed_exact(rel, [[["a1"], ["a1"], ["a2"], ["a2"], ["a2"]]])
    assert not r.holds and r.value > 4.0 and r.counterexample["exact_loss"] > 4.0
    assert r.evidence["certificate_sound"]  # still below the (uncertified) q·ε
    fixed = MixedDPRelease(attributes=(TINY,), k=2, epsilon=4.0)
    assert check_mixed_exact(fixed, [[["a1"], ["a1"], ["a2"], ["a2"], ["a2"]]]).holds


def test_aligned_rows_with_shared_draws_are_caught():
    rel = MixedDPRelease(attributes=(TINY,), k=2, epsilon=1.0, rows="aligned")
    cert = certify_mixed(rel, 4)
    assert cert["certified_epsilon"] is None and cert["counterexample"]["p_x"] == 0.0
    r = check_mixed_exact(rel, [[["b1"], ["b1"], ["a1"], ["a2"]]])
    assert not r.holds and math.isinf(r.value)
    loss = exact_mixed_loss(rel, [["b1"], ["b1"], ["a1"], ["a2"]])
    assert math.isinf(loss["worst_log_ratio"]) and 0.0 in (loss["at"]["p_x"],
                                                           loss["at"]["p_x_prime"])
    # the certificate's neighbour pair and event, replayed on the exact laws
    cex = cert["counterexample"]
    differ = [sum(p for o, p in categorical_law(rel, d).items() if o[0] != o[1])
              for d in (cex["x"], cex["x_prime"])]
    assert differ[0] == 0.0 and differ[1] > 0.5


def test_per_record_baseline_aligned_is_certified():
    grid = {0: (0.0, 1.0)}
    rel = MixedDPRelease(attributes=(NumericDomain(0, 1), TINY), k=1, epsilon=1.0,
                         microaggregation="none", rows="aligned")
    assert structure(rel, 3)["changed_draws"] == 1
    r = check_mixed_exact(rel, [[[0.0, "a1"], [1.0, "b1"], [0.0, "a2"]]], grid)
    assert r.holds and r.evidence["certificate_sound"]
    assert certify_mixed(rel, 3)["certified_epsilon"] == pytest.approx(1.0)


def test_laws_are_distributions():
    for rows in ("shuffled", "aligned"):
        rel = MixedDPRelease(attributes=(TINY, TINY), k=2, epsilon=1.0, rows=rows)
        law = categorical_law(rel, [["a1", "b1"], ["a2", "a2"], ["b1", "a1"], ["a1", "a1"]])
        assert sum(law.values()) == pytest.approx(1.0, abs=1e-12)
        assert len(law) > 1



def test_shuffled_law_equals_counter_enumeration():
    """The multiset law (sorted (row, count) keys updated in place) is, key for key and bit
    for bit, the law enumerated with Counter and sorted() over every tuple of draws."""
    import itertools
    from collections import Counter, defaultdict

    rel = MixedDPRelease(attributes=(TINY, TINY), k=2, epsilon=1.0)
    records = [["a1", "b1"], ["a2", "a2"], ["b1", "a1"], ["a1", "a1"], ["b1", "b1"]]
    law = categorical_law(rel, records)
    state: dict = {(): 1.0}
    ref: dict = state
    lab = rel.labels(rel.encode(records))
    clusters = [[i for i in range(len(records)) if lab[i] == c] for c in range(int(lab.max()) + 1)]
    for members in clusters:
        opts = []
        per = [rel.centroid_mechanism(TINY, len(records)).probabilities(
            [records[i][j] for i in members]) for j in (0, 1)]
        for (c0, p0), (c1, p1) in itertools.product(zip(TINY.concepts, per[0], strict=True),
                                                    zip(TINY.concepts, per[1], strict=True)):
            if p0 > 0 and p1 > 0:
                opts.append(((c0, c1), float(p0) * float(p1)))
        ref = defaultdict(float)
        for key, p in state.items():
            for t, pt in opts:
                cnt = Counter(dict(key))
                cnt[t] += len(members)
                ref[tuple(sorted(cnt.items()))] += p * pt
        state = ref
    assert list(law.items()) == list(ref.items())


def test_add_remove_and_bad_input():
    rel = MixedDPRelease(attributes=(TINY,), k=2, epsilon=1.0)
    c = certify_mixed(rel, 6, "add-remove")
    assert c["certified_epsilon"] is None and "6 rows" in c["counterexample"]["event"]
    with pytest.raises(InvalidParameter, match="neighbour='bounded'"):
        certify_mixed(rel, 6, "bounded")
    with pytest.raises(InvalidParameter, match="datasets"):
        check_mixed_exact(rel, [])


def test_structure_and_tighter_numeric_shift():
    rel = MixedDPRelease(attributes=(NumericDomain(0, 1),), k=3, epsilon=1.0)
    st7 = structure(rel, 7)  # clusters of 3 and 4: shift 1/3 + 1/4
    assert st7["changed_draws"] == 2 and st7["numeric_shift"] == pytest.approx(1 / 3 + 1 / 4)
    assert structure(rel, 5)["changed_draws"] == 1  # n < 2k: one cluster


def test_quality_sensitivity_exact_on_project_taxonomies():
    for name in ("job", "sport"):
        t = project_taxonomy(name)
        q = quality_sensitivity(t)
        assert q["range_ok"] and q["equals_domain_diameter"] and q["float_agrees"]
        assert q["quality_sensitivity"] <= q["max_distance"] < 1
    job = quality_sensitivity(project_taxonomy("job"))
    assert job["boundary_underestimates"]  # δ(a_b, a_t) < D on the unbalanced job taxonomy


@st.composite
def trees(draw):
    """Random small trees: each new concept hangs under an earlier one."""
    n = draw(st.integers(2, 9))
    parents = {"c0": ()}
    for i in range(1, n):
        parents[f"c{i}"] = (f"c{draw(st.integers(0, i - 1))}",)
    return Taxonomy(parents=parents, name="random")


@settings(max_examples=40, deadline=None)
@given(trees())
def test_quality_sensitivity_properties(t):
    """D = max_c max_{s,s'} |δ(s,c) − δ(s',c)| (float, brute force) = the exact value, and it
    equals the domain diameter (δ is a metric) and lies in [0, 1)."""
    q = quality_sensitivity(t)
    dom = list(t.domain)
    brute = max(abs(t.distance(s, c) - t.distance(u, c))
                for c in t.concepts for s in dom for u in dom)
    assert q["quality_sensitivity"] == pytest.approx(brute, abs=1e-12)
    assert q["range_ok"] and q["equals_domain_diameter"] and 0 <= brute < 1
