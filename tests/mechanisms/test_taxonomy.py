"""Taxonomy, semantic distance (eq. 6.6), marginality (6.1–6.4), EM centroids, eq. 6.7."""

from __future__ import annotations

import json
import math
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from privlab.errors import InvalidParameter
from privlab.mechanisms.microaggregation.semantic import (
    ExponentialCentroid,
    HeterogeneousDistance,
    NumericDomain,
)
from privlab.mechanisms.microaggregation.taxonomy import Taxonomy, load_taxonomy, project_taxonomy
from privlab.verify.microaggregation.taxonomy import (
    check_marginality_sensitivity,
    check_semantic_metric,
)

DATA = Path("/work/shared/data")


@st.composite
def trees(draw: st.DrawFn) -> Taxonomy:
    """Random rooted trees (parent of node i is a random earlier node)."""
    n = draw(st.integers(2, 14))
    parents = {"n0": ()}
    for i in range(1, n):
        parents[f"n{i}"] = (f"n{draw(st.integers(0, i - 1))}",)
    return Taxonomy(parents=parents, name="random")


def test_distance_by_hand() -> None:
    # sport -> winter sport -> skiing ; sport -> water sport -> sailing
    t = project_taxonomy("sport")
    # φ(skiing) = {skiing, winter sport, sport}; φ(sailing) = {sailing, water sport, sport}
    # union 5, intersection 1: δ = log2(1 + 4/5)
    assert t.distance("skiing", "sailing") == pytest.approx(math.log2(9 / 5), abs=1e-15)
    assert t.distance("skiing", "skating") == pytest.approx(math.log2(1 + 2 / 4), abs=1e-15)
    assert t.distance("skiing", "skiing") == 0.0


@pytest.mark.parametrize("name", ["sport", "job"])
def test_project_taxonomies_are_metrics(name: str) -> None:
    r = check_semantic_metric(project_taxonomy(name))
    assert r.holds and r.evidence["triangle"]


@pytest.mark.skipif(not DATA.is_dir(), reason="shared data absent")
@pytest.mark.parametrize("f", ["arx_adult_hierarchy_occupation.csv",
                               "arx_adult_hierarchy_native-country.csv"])
def test_arx_hierarchies(f: str) -> None:
    t = load_taxonomy(DATA / f)
    assert t.root == "*" and t.depth() == 2
    assert check_semantic_metric(t).holds
    assert check_marginality_sensitivity(t).holds


def test_job_taxonomy_boundary_distance_underestimates_sensitivity() -> None:
    r = check_marginality_sensitivity(project_taxonomy("job"))
    assert not r.holds
    # independent: max_c max_{s,s'} |δ(s,c) − δ(s',c)| recomputed from distance()
    t = project_taxonomy("job")
    best = max(abs(t.distance(s, c) - t.distance(s2, c))
               for c in t.concepts for s in t.domain for s2 in t.domain)
    assert r.value == pytest.approx(best, abs=1e-12) and best > t.boundary_distance


@settings(max_examples=60, deadline=None)
@given(trees())
def test_metric_on_random_trees(t: Taxonomy) -> None:
    assert check_semantic_metric(t).holds
    d = t.distance_matrix
    assert (d >= 0).all() and (d <= 1 + 1e-12).all()


@settings(max_examples=60, deadline=None)
@given(trees(), st.data())
def test_marginality_and_centroid(t: Taxonomy, data: st.DataObject) -> None:
    dom = list(t.domain)
    s = data.draw(st.lists(st.sampled_from(dom), min_size=1, max_size=6))
    m = t.marginality(s)
    for c, mc in zip(t.concepts, m, strict=True):  # eq. 6.1 by the loop definition
        assert mc == pytest.approx(sum(t.distance(x, c) for x in s if x != c), abs=1e-12)
    cen = t.centroid(s)
    cand = {a for x in s for a in t.ancestors(x)}
    assert cen in cand
    assert t.marginality(s, [cen])[0] <= min(t.marginality(s, sorted(cand))) + 1e-12
    # identical sample: centroid is the value itself
    assert t.centroid([s[0]] * 3) == s[0]
    a_b, _a_t = t.boundaries
    md = t.marginality(dom, dom)
    assert md[dom.index(a_b)] == md.max()


def test_exact_distance_parts() -> None:
    t = project_taxonomy("job")
    for a in t.concepts:
        for b in t.concepts:
            u, i = t.distance_parts(a, b)
            assert Fraction(2 * u - i, u) >= 1


def test_exponential_centroid_privacy() -> None:
    t = project_taxonomy("sport")
    em = ExponentialCentroid(taxonomy=t, epsilon=1.0)
    a_b, a_t = t.boundaries
    s1, s2 = [a_b] * 4, [a_b] * 3 + [a_t]
    # one value changed: loss ≤ ε·Δ_true/Δ_stated (exponential mechanism, factor 2 in exponent)
    assert em.privacy_loss(s1, s2) <= 1.0 + 1e-12
    p = em.probabilities(s1)
    assert p.sum() == pytest.approx(1.0) and t.concepts[int(p.argmax())] == t.centroid(s1)
    x = em.sample(s1, 2000, rng=1)
    assert (x == t.centroid(s1)).mean() == pytest.approx(p.max(), abs=0.05)
    vl = ExponentialCentroid(taxonomy=t, epsilon=1.0, factor=10.0)
    assert vl.privacy_loss(s1, s2) <= 0.1 + 1e-12


def test_heterogeneous_distance() -> None:
    t = project_taxonomy("sport")
    hd = HeterogeneousDistance(attributes=(NumericDomain(0, 10), t))
    a_b, a_t = t.codes(list(t.boundaries))
    x = np.array([[0.0, a_b], [10.0, a_t]])
    assert hd(x[0], x[1]) == pytest.approx(math.sqrt(2))
    assert hd.pairwise(x, x).shape == (2, 2)
    with pytest.raises(InvalidParameter):
        NumericDomain(1, 1)


def test_bad_inputs(tmp_path: Path) -> None:
    t = project_taxonomy("sport")
    with pytest.raises(InvalidParameter, match="not a concept"):
        t.codes(["curling"])
    with pytest.raises(InvalidParameter, match="one root"):
        Taxonomy(parents={"a": (), "b": ()})
    with pytest.raises(InvalidParameter, match="not a concept"):
        Taxonomy(parents={"a": (), "b": ("zz",)})
    with pytest.raises(InvalidParameter, match="semilattice"):
        Taxonomy(parents={"r": (), "x": ("r",), "y": ("r",), "a": ("x", "y"), "b": ("x", "y")})
    with pytest.raises(InvalidParameter, match="non-empty"):
        t.centroid([])
    with pytest.raises(InvalidParameter, match="epsilon"):
        ExponentialCentroid(taxonomy=t, epsilon=0)
    f = tmp_path / "t.json"
    f.write_text(json.dumps({"all": {"g": ["a", "b"], "h": ["c"]}}))
    assert load_taxonomy(f).boundaries[0] in {"a", "b", "c"}
    y = tmp_path / "t.yaml"
    y.write_text("all:\n  g: [a, b]\n  h: [c]\n")
    assert load_taxonomy(y).concepts == load_taxonomy(f).concepts
    c = tmp_path / "t.csv"
    c.write_text("a;g;*\nb;g;*\nc;h;*\n")
    assert load_taxonomy(c).concepts == ("*", "a", "b", "c", "g", "h")
    c.write_text("a\n")
    with pytest.raises(InvalidParameter, match="line 1"):
        load_taxonomy(c)
