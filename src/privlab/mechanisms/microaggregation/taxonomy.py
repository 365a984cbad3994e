"""Taxonomies of categorical values and the semantic tools of thesis §6.3.4–6.3.6 / vldb14 §4.4–4.6.

A taxonomy τ is an upper semilattice on a finite set of concepts with a top element (root)
(thesis §6.3.4).  ``parents`` maps each concept to its direct generalisations (one for a tree,
several allowed for a DAG); every pair of concepts must have a least common ancestor.

* φ(a): the ancestors of a including a itself.
* Semantic distance, thesis eq. (6.6) / vldb14 eq. (7) / irm eq. (3):
  δ(a, b) = log₂(1 + (|φ(a) ∪ φ(b)| − |φ(a) ∩ φ(b)|) / |φ(a) ∪ φ(b)|) ∈ [0, 1].
* Marginality, eq. (6.1): m(S, a) = Σ_{s ∈ S, s ≠ a} δ(s, a) (S a multiset; δ(a, a) = 0 so the
  exclusion changes nothing).
* Domain boundaries, eq. (6.2)–(6.3): a_b = argmax_{a ∈ Dom} m(Dom, a); a_t = argmax δ(a, a_b).
  Ties are broken by the concept name (smallest first) so the boundaries are data-independent.
* Marginality-based centroid, eq. (6.4): argmin over the concepts of τ(S) (the values of S and
  all their ancestors) of m(S, a).

Loaders: nested JSON/YAML mappings (``{"root": {"group": ["leaf", ...]}}``) and the ARX
``leaf;level1;…;*`` CSV generalisation hierarchies.  The ARX hierarchies for Adult OCCUPATION
and NATIVE-COUNTRY in ``data_dir`` are hand-made generalisation hierarchies, *not* the
WordNet-derived taxonomies used in vldb14 / irm (those were not found); results computed with
them deviate from the papers' setting.  :mod:`privlab.mechanisms.microaggregation.wordnet`
rebuilds the WordNet ones from WordNet 3.0 with privlab's own label-to-synset mapping (a
reconstruction: the papers' WordNet 2.1 and mappings are not available).  Named taxonomies:
:func:`project_taxonomy` / :func:`named_taxonomy` (with provenance), :func:`taxonomy_names`.
"""

from __future__ import annotations

import functools
import itertools
import json
import math
from collections.abc import Iterable, Mapping, Sequence
from functools import cached_property
from pathlib import Path
from typing import Any

import attrs
import numpy as np

from privlab.errors import InvalidParameter
from privlab.mechanisms.microaggregation.wordnet import WORDNET_NAMES, wordnet_source

__all__ = ["Taxonomy", "load_taxonomy", "named_taxonomy", "project_taxonomy", "taxonomy_names"]


def _freeze_parents(value: Mapping[str, Iterable[str]]) -> dict[str, tuple[str, ...]]:
    if not isinstance(value, Mapping) or not value:
        raise InvalidParameter(f"parents={value!r} must be a non-empty mapping")
    return {str(c): tuple(str(p) for p in ps) for c, ps in value.items()}


@attrs.frozen(kw_only=True)
class Taxonomy:
    """A finite taxonomy (upper semilattice with root) over string concepts.

    ``parents[c]`` are the direct generalisations of c (empty for the root only); ``domain``
    is Dom(A), the values an attribute may take (default: the leaves).
    """

    parents: Mapping[str, tuple[str, ...]] = attrs.field(converter=_freeze_parents)
    domain: tuple[str, ...] = attrs.field(default=(), converter=tuple)
    name: str = "taxonomy"

    def __attrs_post_init__(self) -> None:
        ps = self.parents
        for c, pp in ps.items():
            for p in pp:
                if p not in ps:
                    raise InvalidParameter(f"parent {p!r} of concept {c!r} is not a concept")
        roots = [c for c, pp in ps.items() if not pp]
        if len(roots) != 1:
            raise InvalidParameter(
                f"taxonomy {self.name!r} must have exactly one root, got {roots}")
        for c in ps:  # acyclic and reaching the root
            self._ancestors_of(c)
        if not self.domain:
            object.__setattr__(self, "domain", tuple(sorted(self.leaves)))
        for a in self.domain:
            self.check_concept("domain", a)
        if len(set(self.domain)) != len(self.domain):
            raise InvalidParameter(f"domain of taxonomy {self.name!r} has repeated values")
        self._check_semilattice()

    # -- structure ---------------------------------------------------------------------------
    def _ancestors_of(self, c: str) -> frozenset[str]:
        stack, out = [c], {c}
        while stack:
            x = stack.pop()
            for p in self.parents[x]:
                if p == c:
                    raise InvalidParameter(f"taxonomy {self.name!r} has a cycle through {c!r}")
                if p not in out:
                    out.add(p)
                    stack.append(p)
        return frozenset(out)

    @cached_property
    def concepts(self) -> tuple[str, ...]:
        """All concepts, sorted by name (the index order of matrices)."""
        return tuple(sorted(self.parents))

    @cached_property
    def index(self) -> dict[str, int]:
        return {c: i for i, c in enumerate(self.concepts)}

    @cached_property
    def root(self) -> str:
        return next(c for c, pp in self.parents.items() if not pp)

    @cached_property
    def leaves(self) -> frozenset[str]:
        inner = {p for pp in self.parents.values() for p in pp}
        return frozenset(c for c in self.parents if c not in inner)

    @cached_property
    def _phi(self) -> dict[str, frozenset[str]]:
        return {c: self._ancestors_of(c) for c in self.parents}

    def ancestors(self, concept: str) -> frozenset[str]:
        """φ(a): the taxonomic ancestors of ``concept`` including itself."""
        return self._phi[self.check_concept("concept", concept)]

    def check_concept(self, name: str, concept: Any) -> str:
        if concept not in self.parents:
            raise InvalidParameter(f"{name}={concept!r} is not a concept of taxonomy {self.name!r}")
        return str(concept)

    def _check_semilattice(self) -> None:
        phi, cs = self._phi, self.concepts
        if len(cs) > 400:  # O(N³); large DAGs are rare, trees are semilattices anyway
            if all(len(p) <= 1 for p in self.parents.values()):
                return
        for i, a in enumerate(cs):
            for b in cs[i + 1:]:
                common = phi[a] & phi[b]
                if not any(common <= phi[c] for c in common):
                    raise InvalidParameter(
                        f"concepts {a!r} and {b!r} of taxonomy {self.name!r} have no least "
                        "common ancestor (not an upper semilattice)")

    # -- distances ---------------------------------------------------------------------------
    def distance(self, a: str, b: str) -> float:
        """Semantic distance δ(a, b) of thesis eq. (6.6) (float; see :meth:`distance_parts`)."""
        u, i = self.distance_parts(a, b)
        return math.log2(1.0 + (u - i) / u)

    def distance_parts(self, a: str, b: str) -> tuple[int, int]:
        """(|φ(a) ∪ φ(b)|, |φ(a) ∩ φ(b)|): δ = log₂(1 + (u − i)/u) = log₂((2u − i)/u) exactly."""
        pa, pb = self.ancestors(a), self.ancestors(b)
        return len(pa | pb), len(pa & pb)

    @cached_property
    def distance_matrix(self) -> np.ndarray:
        """δ between all concepts, indexed by :attr:`concepts` (vectorized over membership)."""
        cs = self.concepts
        member = np.zeros((len(cs), len(cs)), dtype=np.int64)
        for c in cs:
            for p in self._phi[c]:
                member[self.index[c], self.index[p]] = 1
        inter = member @ member.T
        size = member.sum(axis=1)
        union = size[:, None] + size[None, :] - inter
        d = np.log2(1.0 + (union - inter) / union)
        d.setflags(write=False)
        return d

    def codes(self, values: Sequence[Any], name: str = "values") -> np.ndarray:
        """Integer codes (indices into :attr:`concepts`); unknown values raise InvalidParameter."""
        idx = self.index
        bad = [x for x in values if x not in idx]
        if bad:
            raise InvalidParameter(f"{name} contains {bad[0]!r}, not a concept of taxonomy "
                                   f"{self.name!r}")
        return np.fromiter((idx[x] for x in values), dtype=np.int64, count=len(values))

    # -- marginality ---------------------------------------------------------------------------
    def marginality(self, sample: Sequence[str], candidates: Sequence[str] | None = None
                    ) -> np.ndarray:
        """m(S, a) = Σ_{s∈S} δ(s, a) (eq. 6.1) for each candidate a (default: all concepts)."""
        s = self.codes(sample, "sample")
        cand = self.codes(self.concepts if candidates is None else candidates, "candidates")
        return self.distance_matrix[np.ix_(cand, s)].sum(axis=1)

    @cached_property
    def boundaries(self) -> tuple[str, str]:
        """(a_b, a_t) of eq. (6.2)–(6.3); ties broken by the smallest concept name."""
        dom = sorted(self.domain)
        m = self.marginality(dom, dom)
        a_b = dom[int(np.flatnonzero(m == m.max())[0])]
        d = self.distance_matrix[self.index[a_b], self.codes(dom)]
        a_t = dom[int(np.flatnonzero(d == d.max())[0])]
        return a_b, a_t

    @cached_property
    def boundary_distance(self) -> float:
        """δ(a_b, a_t): the sensitivity Δ(m(A)) the sources assign to the marginality."""
        return self.distance(*self.boundaries)

    @cached_property
    def marginality_sensitivity(self) -> float:
        """The true sensitivity of q(S, c) = −m(S, c) when one value of S ⊆ Dom changes:
        max over candidates c ∈ τ and s, s' ∈ Dom of |δ(s, c) − δ(s', c)| (exhaustive)."""
        d = self.distance_matrix[:, self.codes(self.domain)]
        return float((d.max(axis=1) - d.min(axis=1)).max())

    def sub_concepts(self, sample: Sequence[str]) -> tuple[str, ...]:
        """τ(S): the values of S and all their ancestors (sorted)."""
        out: set[str] = set()
        for s in set(sample):
            out |= self.ancestors(s)
        return tuple(sorted(out))

    def centroid(self, sample: Sequence[str]) -> str:
        """Marginality-based centroid (eq. 6.4) over τ(S); ties → smallest concept name."""
        if len(sample) == 0:
            raise InvalidParameter("sample=[] must be non-empty")
        cand = self.sub_concepts(sample)
        m = self.marginality(sample, cand)
        return cand[int(np.flatnonzero(m == m.min())[0])]

    def depth(self) -> int:
        return max(len(p) for p in self._phi.values()) - 1


# -- loaders -----------------------------------------------------------------------------------
def _from_nested(tree: Any, name: str) -> Taxonomy:
    parents: dict[str, list[str]] = {}

    def add(c: str, p: str | None) -> None:
        parents.setdefault(c, [])
        if p is not None and p not in parents[c]:
            parents[c].append(p)

    def walk(node: Any, parent: str) -> None:
        if isinstance(node, Mapping):
            for k, sub in node.items():
                add(str(k), parent)
                walk(sub, str(k))
        elif isinstance(node, (list, tuple)):
            for x in node:
                if isinstance(x, Mapping):
                    walk(x, parent)
                else:
                    add(str(x), parent)
        elif node is not None:
            add(str(node), parent)

    if not isinstance(tree, Mapping) or len(tree) != 1:
        raise InvalidParameter(f"taxonomy {name!r}: the nested mapping must have exactly one "
                               f"top key (the root), got {type(tree).__name__}")
    (root, body), = tree.items()
    add(str(root), None)
    walk(body, str(root))
    return Taxonomy(parents=parents, name=name)


def _from_arx_csv(text: str, name: str, sep: str = ";") -> Taxonomy:
    parents: dict[str, list[str]] = {}
    leaves: list[str] = []
    for line_no, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        path = [x.strip() for x in line.split(sep)]
        if len(path) < 2 or any(not x for x in path):
            raise InvalidParameter(f"taxonomy {name!r} line {line_no}: {line!r} is not "
                                   "'leaf;level1;…;root'")
        leaves.append(path[0])
        for child, parent in itertools.pairwise(path):
            ps = parents.setdefault(child, [])
            if parent not in ps:
                ps.append(parent)
        parents.setdefault(path[-1], [])
    return Taxonomy(parents=parents, domain=tuple(sorted(set(leaves))), name=name)


def load_taxonomy(path: str | Path, name: str | None = None) -> Taxonomy:
    """Load a taxonomy from ``.json``, ``.yaml``/``.yml`` (nested mapping) or ``.csv`` (ARX)."""
    p = Path(path)
    if not p.is_file():
        raise InvalidParameter(f"taxonomy file {str(p)!r} does not exist")
    nm = name or p.stem
    text = p.read_text(encoding="utf-8")
    suffix = p.suffix.lower()
    if suffix == ".csv":
        return _from_arx_csv(text, nm)
    if suffix in (".yaml", ".yml"):
        import yaml

        return _from_nested(yaml.safe_load(text), nm)
    if suffix == ".json":
        return _from_nested(json.loads(text), nm)
    raise InvalidParameter(f"taxonomy file {str(p)!r} must end in .json, .yaml, .yml or .csv")


PACKAGE_TAXONOMIES = ("sport", "job")
"""privlab's own small taxonomies (package data ``taxonomy_NAME.json``)."""
WORDNET_TAXONOMIES = WORDNET_NAMES
"""Adult OCCUPATION / NATIVE-COUNTRY rebuilt from WordNet 3.0 (:mod:`.wordnet`; needs the data)."""
ARX_TAXONOMIES = {"arx-occupation": "arx_adult_hierarchy_occupation.csv",
                  "arx-native-country": "arx_adult_hierarchy_native-country.csv"}
"""The ARX hand-made Adult hierarchies in the data directory (name → file)."""
ARX_NOTE = ("hand-made ARX generalisation hierarchy (value; group; *), not the WordNet-derived "
            "taxonomies of vldb14 / irm")


def taxonomy_names() -> tuple[str, ...]:
    """Every name :func:`project_taxonomy` and :func:`named_taxonomy` accept."""
    return (*PACKAGE_TAXONOMIES, *WORDNET_TAXONOMIES, *ARX_TAXONOMIES)


def project_taxonomy(name: str = "sport") -> Taxonomy:
    """A taxonomy by name: the project's own ``sport`` and ``job`` (package data), the
    WordNet reconstructions ``wordnet-occupation`` / ``wordnet-native-country`` and the ARX
    hierarchies ``arx-occupation`` / ``arx-native-country`` (the last four read from the data
    directory; InvalidParameter when it lacks them).  See :func:`named_taxonomy` for their
    provenance."""
    if name in PACKAGE_TAXONOMIES:
        return _from_nested(json.loads(_package_text(name)), name)
    return named_taxonomy(name)[0]


def _package_text(name: str) -> str:
    from importlib import resources

    return resources.files("privlab.data").joinpath(f"taxonomy_{name}.json").read_text("utf-8")


@functools.cache
def _wordnet_taxonomy(name: str, data_dir: str) -> Taxonomy:
    """One Taxonomy per WordNet taxonomy and data directory (the semilattice check runs once)."""
    src = wordnet_source(name, data_dir)
    return Taxonomy(parents=src.parents, name=name,
                    domain=src.domain)  # type: ignore[arg-type]  # attrs: converter=tuple


def named_taxonomy(name: str, data_dir: str | Path | None = None
                   ) -> tuple[Taxonomy, dict[str, Any]]:
    """(taxonomy, provenance) of a shipped name (:func:`taxonomy_names`).

    The provenance says where the taxonomy comes from (``kind``: project, wordnet or arx;
    ``source``; files with their sha256), its concept count and, for the Adult attributes,
    the concept count the papers report (vldb14 §5: 122 for OCCUPATION, 127 for
    NATIVE-COUNTRY)."""
    import hashlib

    if name in PACKAGE_TAXONOMIES:
        text = _package_text(name)
        tax = _from_nested(json.loads(text), name)
        return tax, {"name": name, "kind": "project",
                     "source": f"privlab package data privlab/data/taxonomy_{name}.json",
                     "note": "privlab's own small taxonomy, not one of the papers'",
                     "files": [{"file": f"privlab/data/taxonomy_{name}.json",
                                "sha256": hashlib.sha256(text.encode("utf-8")).hexdigest()}],
                     "concepts": len(tax.concepts), "categories": len(tax.domain),
                     "paper_concepts": None}
    if name in WORDNET_TAXONOMIES:
        src = wordnet_source(name, data_dir)
        import copy

        return (_wordnet_taxonomy(name, src.provenance["data_dir"]),
                copy.deepcopy(dict(src.provenance)))  # the cached one stays intact
    if name in ARX_TAXONOMIES:
        from privlab._data import data_file

        fname = ARX_TAXONOMIES[name]
        path = data_file(fname, data_dir)
        if path is None:
            from privlab._data import data_dir as find

            where = find(data_dir)
            raise InvalidParameter(
                f"name={name!r} needs {fname}, which is not in " + (
                    f"the data directory {str(where)!r}" if where is not None else
                    "a data directory (none found: set $PRIVLAB_DATA_DIR or use ../shared/data)"))
        path = path.resolve()
        tax = load_taxonomy(path, name=name)
        return tax, {"name": name, "kind": "arx",
                     "source": f"ARX hierarchy {fname} (arx-deidentifier/arx, Apache-2.0)",
                     "note": ARX_NOTE, "data_dir": str(path.parent),
                     "files": [{"file": fname, "path": str(path),
                                "sha256": hashlib.sha256(path.read_bytes()).hexdigest()}],
                     "concepts": len(tax.concepts), "categories": len(tax.domain),
                     "paper_concepts": None}
    raise InvalidParameter(f"name={name!r} must be one of {taxonomy_names()}")
