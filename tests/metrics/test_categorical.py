"""SSE and record linkage of categorical releases (privlab.metrics.categorical) against
brute-force record-by-record computations with Taxonomy.distance."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from privlab.errors import InvalidParameter
from privlab.mechanisms.microaggregation.categorical import SemanticSpace
from privlab.mechanisms.microaggregation.taxonomy import project_taxonomy
from privlab.metrics.categorical import semantic_record_linkage, semantic_sse

TAXES = (project_taxonomy("sport"), project_taxonomy("job"))
SPACE = SemanticSpace(TAXES)


def _names(codes: np.ndarray) -> list[tuple[str, ...]]:
    return [tuple(t.concepts[c] for t, c in zip(TAXES, row, strict=True)) for row in codes]


def brute_sse(orig: np.ndarray, rel: np.ndarray) -> float:
    return sum(t.distance(a, b) ** 2 for x, y in zip(_names(orig), _names(rel), strict=True)
               for t, a, b in zip(TAXES, x, y, strict=True))


def brute_rl(orig: np.ndarray, rel: np.ndarray) -> float:
    xs, ys = _names(orig), _names(rel)
    total = 0.0
    for j, y in enumerate(ys):
        d = [sum(t.distance(a, b) ** 2 for t, a, b in zip(TAXES, x, y, strict=True))
             for x in xs]
        g = [i for i, v in enumerate(d) if v <= min(d) * (1 + 1e-12)]
        total += 1.0 / len(g) if j in g else 0.0
    return 100.0 * total / len(xs)


def _data(seed: int, n: int, internal: bool) -> tuple[np.ndarray, np.ndarray]:
    g = np.random.default_rng(seed)
    orig = np.stack([t.codes(list(g.choice(sorted(t.domain), n))) for t in TAXES], axis=1)
    pool = [t.concepts if internal else sorted(t.domain) for t in TAXES]
    rel = orig.copy()
    flip = g.random(orig.shape) < 0.5
    for j, t in enumerate(TAXES):
        rel[flip[:, j], j] = t.codes(list(g.choice(pool[j], int(flip[:, j].sum()))))
    return orig, rel


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.integers(1, 25), st.booleans())
def test_sse_and_rl_match_brute_force(seed: int, n: int, internal: bool) -> None:
    orig, rel = _data(seed, n, internal)
    assert semantic_sse(SPACE, orig, rel) == pytest.approx(brute_sse(orig, rel), rel=1e-12)
    assert semantic_record_linkage(SPACE, orig, rel) == pytest.approx(brute_rl(orig, rel),
                                                                      rel=1e-12)


def test_several_runs_at_once() -> None:
    orig, r1 = _data(1, 12, True)
    _, r2 = _data(2, 12, True)
    outs = np.stack([r1, r2])
    np.testing.assert_allclose(semantic_sse(SPACE, orig, outs),
                               [brute_sse(orig, r1), brute_sse(orig, r2)])
    rl, prob = semantic_record_linkage(SPACE, orig, outs, per_record=True)
    np.testing.assert_allclose(rl, [brute_rl(orig, r1), brute_rl(orig, r2)])
    assert prob.shape == (2, 12)


def test_golden_by_hand() -> None:
    t0, t1 = TAXES
    orig = np.array([[t0.index["skiing"], t1.index["builder"]]] * 2
                    + [[t0.index["sailing"], t1.index["carer"]]])
    # release = original: the two equal records share G (1/2 each), the third is alone (1)
    assert semantic_record_linkage(SPACE, orig, orig) == pytest.approx(100 * 2 / 3)
    assert semantic_sse(SPACE, orig, orig) == 0.0
    # every value replaced by its taxonomy root: SSE = Σ δ(v, root)², δ = log2(1 + (u − i)/u)
    root = np.array([[t0.index[t0.root], t1.index[t1.root]]] * 3)
    want = sum(np.log2(1 + (len(t.ancestors(v)) - 1) / len(t.ancestors(v))) ** 2
               for t, vals in zip(TAXES, (["skiing", "skiing", "sailing"],
                                          ["builder", "builder", "carer"]), strict=True)
               for v in vals)
    assert semantic_sse(SPACE, orig, root) == pytest.approx(want)


def test_bad_input() -> None:
    orig, rel = _data(0, 4, False)
    with pytest.raises(InvalidParameter, match="shape"):
        semantic_sse(SPACE, orig, rel[:3])
    rel[0, 0] = 500
    with pytest.raises(InvalidParameter, match="code 500"):
        semantic_record_linkage(SPACE, orig, rel)
