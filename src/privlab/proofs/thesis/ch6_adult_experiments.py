"""Experiment helpers for the Adult categorical tables (thesis §6.4 Tables 6.3–6.4, vldb14 §5
Tables 3–4, "Adult-Categorical").

Data: UCI Adult (``adult.csv``, training part) with every row holding a ``?`` removed (30,162
rows, thesis §6.4.1), attributes OCCUPATION and NATIVE-COUNTRY.  Taxonomies: ARX's hand-made
generalisation hierarchies ``arx_adult_hierarchy_occupation.csv`` and
``arx_adult_hierarchy_native-country.csv`` (value; group; ``*``) — *not* the WordNet 2.1
taxonomies of the papers (122 and 127 concepts), which were not found (``SOURCES.md``).  The ARX
country hierarchy files England under ``Europa`` and the other European countries under
``Europe``; it is used as is.  Without those files a seeded synthetic table of the same shape
is used (30,162 × 2, taxonomies with ARX's group sizes, skewed value frequencies) and
:func:`adult_categorical` says so.

Releases (record-aligned, so that SSE and RL can be measured against the input records):

* baseline — standard MDAV with the eq. (6.7) distance and marginality centroids (eq. 6.4)
  (:func:`privlab.mechanisms.microaggregation.categorical.categorical_mdav_labels`);
* DP release — insensitive microaggregation (Algorithm 6.1, boundary corners as reference
  points, §6.3.3–6.3.4) + exponential-mechanism centroids (Algorithm 6.3):
  Pr(c) ∝ exp(−ε·m(S, c) / (2·factor·Δ(m))) over every concept c of τ(A), one draw per cluster
  and attribute, Δ(m) = δ(a_b, a_t) as the sources set it; factor 1 (thesis Algorithm 6.3) or
  n/k (vldb14 eq. 6); k = 1 is the exponential mechanism applied to each record (factor 1).
"""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any

import numpy as np

from privlab._data import data_file
from privlab._rng import as_generator
from privlab.mechanisms.microaggregation.categorical import (
    SemanticSpace,
    categorical_mdav_labels,
    insensitive_categorical_labels,
    marginality_centroids,
)
from privlab.mechanisms.microaggregation.taxonomy import Taxonomy, load_taxonomy
from privlab.metrics.categorical import semantic_record_linkage, semantic_sse

__all__ = ["ADULT_COLUMNS", "HIERARCHIES", "N_ADULT", "adult_categorical", "distinct_rows",
           "em_releases",
           "marginality_matrices", "mdav_release", "mean_sse_rl", "release_labels"]

ADULT_COLUMNS = ("occupation", "native-country")
HIERARCHIES = ("arx_adult_hierarchy_occupation.csv", "arx_adult_hierarchy_native-country.csv")
N_ADULT = 30_162
# ARX group sizes: occupation (Nontechnical, Other, Technical); country (Africa, Asia, Europa,
# Europe, North America, South America)
_GROUPS = ((3, 7, 4), (1, 11, 1, 11, 12, 5))


def _read_adult(path: Path) -> list[tuple[str, str]]:
    with path.open(newline="") as f:
        r = csv.reader(f)
        header = [h.strip() for h in next(r)]
        cols = [header.index(c) for c in ADULT_COLUMNS]
        a, b = cols
        # a row is dropped when a stripped field is "?"; rows without any "?" are kept as is
        return [(row[a].strip(), row[b].strip()) for row in r
                if row and ("?" not in "".join(row) or "?" not in [v.strip() for v in row])]


def synthetic_taxonomy(prefix: str, groups: tuple[int, ...]) -> Taxonomy:
    """A 3-level tree (leaf; group; root) with the given group sizes."""
    parents: dict[str, tuple[str, ...]] = {"*": ()}
    for gi, size in enumerate(groups):
        g = f"{prefix}-group-{gi}"
        parents[g] = ("*",)
        for li in range(size):
            parents[f"{prefix}-{gi}-{li:02d}"] = (g,)
    return Taxonomy(parents=parents, name=f"synthetic {prefix}")


def _synthetic(seed: int) -> tuple[np.ndarray, SemanticSpace]:
    g = as_generator(seed)
    taxes = [synthetic_taxonomy(p, s) for p, s in zip(("occ", "country"), _GROUPS,
                                                      strict=True)]
    cols = []
    for j, t in enumerate(taxes):
        dom = sorted(t.domain)
        w = g.permutation(len(dom))  # Zipf-like frequencies; countries very skewed (one ≈ 90%)
        p = 1.0 / (1.0 + w) ** (0.6 if j == 0 else 2.6)
        cols.append(t.codes(list(np.asarray(dom)[g.choice(len(dom), N_ADULT, p=p / p.sum())])))
    return np.stack(cols, axis=1), SemanticSpace(taxes)


def adult_categorical(data_dir: Any = None, seed: int = 6, synthetic: bool = False
                      ) -> tuple[np.ndarray, SemanticSpace, str, bool]:
    """(codes (n, 2), the two taxonomies, a description of the data, real data?)."""
    paths = [None if synthetic else data_file(f, data_dir) for f in ("adult.csv", *HIERARCHIES)]
    if all(p is not None for p in paths):
        adult, occ, cty = (Path(p) for p in paths)  # type: ignore[arg-type]
        taxes = (load_taxonomy(occ, name="occupation (ARX)"),
                 load_taxonomy(cty, name="native-country (ARX)"))
        rows = _read_adult(adult)
        codes = np.stack([taxes[j].codes([r[j] for r in rows], ADULT_COLUMNS[j])
                          for j in range(2)], axis=1)
        what = (f"Adult ({adult}), rows with '?' removed ({len(rows):,} rows), attributes "
                "OCCUPATION and NATIVE-COUNTRY, ARX hierarchies "
                f"({len(taxes[0].concepts)} and {len(taxes[1].concepts)} concepts)")
        return codes, SemanticSpace(taxes), what, True
    codes, space = _synthetic(seed)
    missing = [f for f, p in zip(("adult.csv", *HIERARCHIES), paths, strict=True) if p is None]
    what = (f"seeded synthetic Adult-shaped data ({N_ADULT:,} × 2, seed {seed}; taxonomies "
            "with the ARX hierarchies' group sizes)"
            + ("" if synthetic else f": {', '.join(missing)} not found"))
    return codes, space, what, False


def release_labels(codes: np.ndarray, space: SemanticSpace, k: int) -> np.ndarray:
    """Partition of the DP release: insensitive Algorithm 6.1 (k ≥ 2) or singletons (k = 1)."""
    if k == 1:
        return np.arange(codes.shape[0])
    return insensitive_categorical_labels(codes, space, k)


def marginality_matrices(codes: np.ndarray, labels: np.ndarray, space: SemanticSpace
                         ) -> list[np.ndarray]:
    """Per attribute, the (q, C_j) matrix m(S_cluster, c) for every concept c of τ(A_j)."""
    q = int(labels.max()) + 1
    out = []
    for j in range(space.m):
        c = int(space.sizes[j])
        cnt = np.bincount(labels * c + codes[:, j], minlength=q * c).reshape(q, c)
        out.append(cnt.astype(float) @ space.dist[j, :c, :c])
    return out


def distinct_rows(mg: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(the distinct rows of ``mg`` (bitwise, sorted by their bytes), inverse) with
    ``rows[inverse] == mg`` bit for bit; read-only arrays.  Clusters holding the same counts of
    concepts share one row (k = 1: at most C_j distinct rows out of n)."""
    a = np.ascontiguousarray(mg)
    v = a.view(np.dtype((np.void, a.shape[1] * a.itemsize))).ravel()
    _, first, inv = np.unique(v, return_index=True, return_inverse=True)
    rows, inv = a[first], inv.ravel().astype(np.intp)
    rows.setflags(write=False)
    inv.setflags(write=False)
    return rows, inv


def em_releases(margs: list[np.ndarray], labels: np.ndarray, space: SemanticSpace,
                epsilon: float, runs: int, *, factor: float = 1.0, rng: Any = None,
                distinct: Any = None) -> np.ndarray:
    """``runs`` record-aligned releases (runs, n, m) of exponential-mechanism centroids,
    one draw per cluster and attribute (inverse-CDF sampling).

    The weights and CDFs are row-wise functions of a marginality row, so they are computed
    once per distinct row (:func:`distinct_rows`; ``distinct`` may hold them, one pair per
    attribute) and gathered per cluster: the same floats as row by row."""
    g = as_generator(rng)
    out = np.empty((runs, labels.shape[0], space.m), dtype=np.int64)
    for j, mg in enumerate(margs):
        rows, inv = distinct[j] if distinct is not None else distinct_rows(mg)
        logw = -epsilon * rows / (2.0 * factor * space.norm[j])
        p = np.exp(logw - logw.max(axis=1, keepdims=True))
        cum = np.cumsum(p, axis=1)
        cum /= cum[:, -1:]
        u = g.random((runs, mg.shape[0]))
        out[:, :, j] = np.minimum(_count_below(cum[inv], u), mg.shape[1] - 1)[:, labels]
    return out


def _count_below(cum: np.ndarray, u: np.ndarray) -> np.ndarray:
    """``(cum[None, :, :] < u[:, :, None]).sum(axis=2)``: per run r and row i, the number of
    entries of ``cum[i]`` below ``u[r, i]`` (the inverse-CDF index), accumulated column by
    column (an exact integer count; a uint8 counter while the rows have < 256 entries)."""
    cols = np.ascontiguousarray(cum.T)
    acc = np.zeros(u.shape, dtype=np.uint8 if cum.shape[1] < 256 else np.intp)
    for c in cols:
        np.add(acc, np.less(c, u), out=acc, casting="unsafe")
    return acc.astype(np.intp)


def mdav_release(codes: np.ndarray, space: SemanticSpace, k: int) -> np.ndarray:
    """Standard MDAV (semantic distance, marginality centroids), aligned with the input."""
    lab = categorical_mdav_labels(codes, space, k)
    return marginality_centroids(codes, lab, space)[lab]


def mean_sse_rl(codes: np.ndarray, space: SemanticSpace, outs: np.ndarray
                ) -> tuple[float, float]:
    """Averages over releases (runs, n, m) of SSE and RL (%)."""
    return (float(np.mean(semantic_sse(space, codes, outs))),
            float(np.mean(semantic_record_linkage(space, codes, outs))))
