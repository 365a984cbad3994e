"""Experiment helpers for the Adult categorical tables (thesis §6.4 Tables 6.3–6.4, vldb14 §5
Tables 3–4, "Adult-Categorical").

Data: UCI Adult (``adult.csv``, training part) with every row holding a ``?`` removed (30,162
rows, thesis §6.4.1), attributes OCCUPATION and NATIVE-COUNTRY.

Taxonomies (:func:`adult_taxonomies`; ``taxonomy=`` of :func:`adult_data`):

* ``"wordnet"`` — the papers' kind of taxonomy: both attributes rebuilt from the WordNet 3.0
  noun database (``data_dir()/wordnet-3.0``) with privlab's label-to-synset mapping
  (:mod:`privlab.mechanisms.microaggregation.wordnet`).  A reconstruction: the papers used
  WordNet 2.1 and the mappings of their ref. [42] (122 and 127 concepts, vldb14 §5 / irm §4.1),
  which are not available, so the concept counts differ (the provenance records both).
* ``"arx"`` — ARX's hand-made generalisation hierarchies ``arx_adult_hierarchy_occupation.csv``
  and ``arx_adult_hierarchy_native-country.csv`` (value; group; ``*``).  The ARX country
  hierarchy files England under ``Europa`` and the other European countries under ``Europe``;
  it is used as is.
* ``"default"`` — WordNet when ``wordnet-3.0`` is in the data directory, else ARX; that
  fallback is recorded (:attr:`AdultTaxonomies.fallback`) and every table says so.

privlab's own ``job`` and ``sport`` taxonomies do not cover Adult's categories; they stay the
taxonomies of the claims that use them.  Without ``adult.csv`` (or without any taxonomy for it)
a seeded synthetic table of the same shape is used (30,162 × 2, taxonomies with ARX's group
sizes, skewed value frequencies) and :func:`adult_data` says so.

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
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import attrs
import numpy as np

from privlab._data import data_file
from privlab._rng import as_generator
from privlab.errors import InvalidParameter
from privlab.mechanisms.microaggregation.categorical import (
    SemanticSpace,
    categorical_mdav_labels,
    insensitive_categorical_labels,
    marginality_centroids,
)
from privlab.mechanisms.microaggregation.taxonomy import Taxonomy, named_taxonomy
from privlab.metrics.categorical import semantic_record_linkage, semantic_sse

__all__ = ["ADULT_COLUMNS", "HIERARCHIES", "N_ADULT", "TAXONOMIES", "TAXONOMY_CHOICES",
           "AdultData", "AdultTaxonomies", "adult_categorical", "adult_data", "adult_taxonomies",
           "distinct_rows", "em_releases", "marginality_matrices", "mdav_release", "mean_sse_rl",
           "release_labels", "taxonomy_available"]

ADULT_COLUMNS = ("occupation", "native-country")
HIERARCHIES = ("arx_adult_hierarchy_occupation.csv", "arx_adult_hierarchy_native-country.csv")
WORDNET_FILES = ("wordnet-3.0/data.noun", "wordnet-3.0/index.noun")
"""The WordNet files the default taxonomies are built from (inside the data directory)."""
TAXONOMIES: dict[str, tuple[str, str]] = {
    "wordnet": ("wordnet-occupation", "wordnet-native-country"),
    "arx": ("arx-occupation", "arx-native-country"),
}
"""Taxonomy kind → the named taxonomies (:func:`~privlab.mechanisms.microaggregation.taxonomy.
named_taxonomy`) of OCCUPATION and NATIVE-COUNTRY."""
TAXONOMY_LABEL = {"wordnet": "WordNet 3.0 reconstructions (privlab)",
                  "arx": "ARX hand-made hierarchies", "synthetic": "synthetic 3-level trees"}
TAXONOMY_CHOICES = ("default", *TAXONOMIES)
"""``default``: WordNet when its files are in the data directory, else ARX (said so)."""
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


def taxonomy_available(kind: str, data_dir: Any = None) -> bool:
    """Whether the files of taxonomy ``kind`` (``wordnet`` or ``arx``) are in the data
    directory."""
    files = WORDNET_FILES if kind == "wordnet" else HIERARCHIES
    return all(data_file(f, data_dir) is not None for f in files)


@attrs.frozen
class AdultTaxonomies:
    """Which taxonomies an Adult experiment uses and why.

    ``kind``: ``wordnet``, ``arx`` or ``synthetic``; ``requested``: one of
    :data:`TAXONOMY_CHOICES`; ``fallback``: why the default did not give WordNet (None when no
    fallback happened); ``provenance``: per attribute, the provenance of
    :func:`~privlab.mechanisms.microaggregation.taxonomy.named_taxonomy` (source, files with
    sha256, ``concepts``, ``categories``, ``paper_concepts``) plus ``fallback``."""

    kind: str
    requested: str
    fallback: str | None
    provenance: tuple[Mapping[str, Any], ...]

    @property
    def concepts(self) -> tuple[int, ...]:
        return tuple(int(p["concepts"]) for p in self.provenance)

    @property
    def label(self) -> str:
        return TAXONOMY_LABEL[self.kind]


def _where(data_dir: Any) -> str:
    from privlab._data import data_dir as find

    d = find(data_dir)
    return (f"the data directory {str(d)!r}" if d is not None
            else "any data directory (none found: set $PRIVLAB_DATA_DIR or use ../shared/data)")


def adult_taxonomies(taxonomy: str = "default", data_dir: Any = None
                     ) -> tuple[tuple[Taxonomy, Taxonomy] | None, AdultTaxonomies]:
    """The two taxonomies of ``taxonomy`` (:data:`TAXONOMY_CHOICES`) and their provenance.

    ``default`` is WordNet when :data:`WORDNET_FILES` are in the data directory, else ARX with
    :attr:`AdultTaxonomies.fallback` saying why; (None, kind ``synthetic``) when neither is
    there.  An explicit ``wordnet`` or ``arx`` whose files are absent raises InvalidParameter
    (it is never replaced by another taxonomy)."""
    if taxonomy not in TAXONOMY_CHOICES:
        raise InvalidParameter(f"taxonomy={taxonomy!r} must be one of {TAXONOMY_CHOICES}")
    kind, fallback = taxonomy, None
    if taxonomy == "default":
        kind = "wordnet"
        if not taxonomy_available("wordnet", data_dir):
            kind = "arx" if taxonomy_available("arx", data_dir) else "synthetic"
            fallback = (f"the WordNet 3.0 noun database ({', '.join(WORDNET_FILES)}) is not in "
                        f"{_where(data_dir)}: FALLBACK from the default WordNet taxonomies to "
                        + ("the ARX hand-made hierarchies" if kind == "arx" else
                           "synthetic taxonomies (the ARX hierarchies are absent too)"))
    if kind == "synthetic":
        return None, AdultTaxonomies(kind="synthetic", requested=taxonomy, fallback=fallback,
                                     provenance=())
    pairs = [named_taxonomy(n, data_dir) for n in TAXONOMIES[kind]]
    prov = tuple({**p, "fallback": fallback} for _, p in pairs)
    taxes = (pairs[0][0], pairs[1][0])
    return taxes, AdultTaxonomies(kind=kind, requested=taxonomy, fallback=fallback,
                                  provenance=prov)


@attrs.frozen(eq=False)
class AdultData:
    """The Adult categorical data of the tables: ``codes`` (n, 2), the two taxonomies
    (``space``), a description, whether it is the real data, and the taxonomies' provenance."""

    codes: np.ndarray
    space: SemanticSpace
    what: str
    real: bool
    taxonomies: AdultTaxonomies


def _concepts_text(info: AdultTaxonomies) -> str:
    names = " and ".join(str(p["name"]) for p in info.provenance)
    counts = " and ".join(str(c) for c in info.concepts)
    paper = [p.get("paper_concepts") for p in info.provenance]
    text = f"{info.label} ({names}: {counts} concepts"
    if all(x is not None for x in paper):
        text += f"; the papers' WordNet 2.1 taxonomies: {' and '.join(map(str, paper))}"
    return text + ")"


def adult_data(data_dir: Any = None, seed: int = 6, synthetic: bool = False,
               taxonomy: str = "default") -> AdultData:
    """The Adult data with the taxonomies of ``taxonomy`` (:func:`adult_taxonomies`); seeded
    synthetic data (ARX-shaped taxonomies) when ``adult.csv`` or every taxonomy is absent, or
    when ``synthetic``."""
    adult = None if synthetic else data_file("adult.csv", data_dir)
    taxes, info = (None, AdultTaxonomies(kind="synthetic", requested=taxonomy, fallback=None,
                                         provenance=())) if adult is None \
        else adult_taxonomies(taxonomy, data_dir)
    if adult is not None and taxes is not None:
        rows = _read_adult(Path(adult))
        codes = np.stack([taxes[j].codes([r[j] for r in rows], ADULT_COLUMNS[j])
                          for j in range(2)], axis=1)
        what = (f"Adult ({adult}), rows with '?' removed ({len(rows):,} rows), attributes "
                f"OCCUPATION and NATIVE-COUNTRY, taxonomies: {_concepts_text(info)}")
        if info.fallback:
            what += f" — TAXONOMY FALLBACK: {info.fallback}"
        return AdultData(codes=codes, space=SemanticSpace(taxes), what=what, real=True,
                         taxonomies=info)
    codes, space = _synthetic(seed)
    missing = [f for f in ("adult.csv", *HIERARCHIES, *WORDNET_FILES)
               if data_file(f, data_dir) is None]
    what = (f"seeded synthetic Adult-shaped data ({N_ADULT:,} × 2, seed {seed}; taxonomies "
            "with the ARX hierarchies' group sizes)"
            + ("" if synthetic else f": {', '.join(missing)} not found"))
    return AdultData(codes=codes, space=space, what=what, real=False, taxonomies=info)


def adult_categorical(data_dir: Any = None, seed: int = 6, synthetic: bool = False,
                      taxonomy: str = "default"
                      ) -> tuple[np.ndarray, SemanticSpace, str, bool]:
    """(codes (n, 2), the two taxonomies, a description of the data, real data?) of
    :func:`adult_data`."""
    d = adult_data(data_dir, seed, synthetic, taxonomy)
    return d.codes, d.space, d.what, d.real


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
