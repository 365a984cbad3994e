"""WordNet-derived taxonomies of the Adult OCCUPATION and NATIVE-COUNTRY attributes.

vldb14 §5, thesis §6.4 and irm §4.1 model these two attributes with taxonomies "extracted from
WordNet 2.1" through the label-to-concept mappings of their reference [42], and report their
sizes: 122 concepts for OCCUPATION, 127 for NATIVE-COUNTRY.  Neither WordNet 2.1 nor those
mappings are available, so privlab *reconstructs* the taxonomies from the WordNet 3.0 noun
database (``data_dir()/wordnet-3.0``, see ``../shared/data/SOURCES.md``) and its own mapping
(package data ``wordnet_adult_mapping.json``, one entry per Adult category with the chosen
synset(s) and the reason for each non-obvious choice).

The taxonomy of a mapping is the closure of its synsets under the hypernym (``@``) and
instance-hypernym (``@i``) pointers, up to ``entity.n.01``; every pointer is kept (WordNet is a
DAG), and :class:`~privlab.mechanisms.microaggregation.taxonomy.Taxonomy` checks that the result
is an upper semilattice.  A category mapped to one synset *is* that synset (the leaf is named by
the category); a category mapped to several synsets is a leaf below each of them.  Internal
nodes are named ``lemma.n.NN`` (first lemma, lower case; NN the synset's rank among the senses
of that lemma in ``index.noun``).

The database files are read in the format of wndb(5) with the standard library only: a synset
is the line of ``data.noun`` that starts at its byte offset; ``index.noun`` lists each lemma's
synset offsets in sense order.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable, Mapping
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import attrs

from privlab.errors import InvalidParameter

__all__ = ["MAPPING_FILE", "WORDNET_DIR", "WORDNET_NAMES", "Synset", "WordNetNouns",
           "WordNetSource", "build_parents", "load_mapping", "parse_data_line", "wordnet_dir",
           "wordnet_source"]

WORDNET_DIR = "wordnet-3.0"
"""The WordNet folder inside the data directory."""
FILES = ("data.noun", "index.noun")
MAPPING_FILE = "wordnet_adult_mapping.json"
WORDNET_NAMES = ("wordnet-occupation", "wordnet-native-country")
"""The taxonomies of the mapping (Adult OCCUPATION, NATIVE-COUNTRY)."""
HYPERNYM_POINTERS = ("@", "@i")
ROOT = "entity.n.01"
PAPER_SOURCE = ("vldb14 §5, thesis §6.4, irm §4.1: WordNet 2.1 with the label-to-concept "
                "mappings of their ref. [42] (not available)")


@attrs.frozen
class Synset:
    """One line of ``data.noun``: offset, lemmas (as written), hypernym offsets, gloss."""

    offset: str
    lemmas: tuple[str, ...]
    hypernyms: tuple[str, ...]
    gloss: str


def parse_data_line(line: str) -> Synset:
    """Parse one synset line of ``data.noun`` (wndb(5)): ``offset lex_filenum ss_type w_cnt
    word lex_id … p_cnt [ptr_symbol offset pos source/target]… | gloss``."""
    head, _, gloss = line.partition(" | ")
    f = head.split()
    try:
        if f[2] != "n":
            raise ValueError(f"ss_type {f[2]!r} is not a noun")
        w_cnt = int(f[3], 16)
        lemmas = tuple(f[4 + 2 * i] for i in range(w_cnt))
        i = 4 + 2 * w_cnt
        p_cnt = int(f[i])
        i += 1
        hyp = []
        for _ in range(p_cnt):
            sym, off, pos = f[i], f[i + 1], f[i + 2]
            i += 4
            if sym in HYPERNYM_POINTERS and pos == "n":
                hyp.append(off)
    except (IndexError, ValueError) as e:
        raise InvalidParameter(f"data.noun line {line[:40]!r} is not a wndb(5) synset line "
                               f"({e})") from None
    return Synset(offset=f[0], lemmas=lemmas, hypernyms=tuple(hyp), gloss=gloss.strip())


def wordnet_dir(explicit: str | os.PathLike[str] | None = None) -> Path | None:
    """``data_dir()/wordnet-3.0`` when it holds ``data.noun`` and ``index.noun``, else None."""
    from privlab._data import data_dir

    d = data_dir(explicit)
    if d is None:
        return None
    w = d / WORDNET_DIR
    return w if all((w / f).is_file() for f in FILES) else None


class WordNetNouns:
    """Random access to a WordNet noun database folder (``data.noun``, ``index.noun``)."""

    def __init__(self, directory: str | os.PathLike[str]) -> None:
        self.directory = Path(directory)
        missing = [f for f in FILES if not (self.directory / f).is_file()]
        if missing:
            raise InvalidParameter(f"wordnet directory {str(self.directory)!r} lacks "
                                   f"{', '.join(missing)}")
        self._synsets: dict[str, Synset] = {}
        self._index: dict[str, tuple[str, ...]] | None = None

    # -- data.noun ---------------------------------------------------------------------------
    def synset(self, offset: str) -> Synset:
        """The synset at byte ``offset`` of ``data.noun`` (an 8-digit string)."""
        off = str(offset).zfill(8)
        if off in self._synsets:
            return self._synsets[off]
        if not off.isdigit():
            raise InvalidParameter(f"offset={offset!r} must be a data.noun byte offset (digits)")
        with open(self.directory / "data.noun", "rb") as fh:
            fh.seek(int(off))
            raw = fh.readline()
        line = raw.decode("utf-8")
        if not line.startswith(off + " "):
            raise InvalidParameter(f"offset={offset!r} does not start a synset of "
                                   f"{str(self.directory / 'data.noun')!r}")
        s = parse_data_line(line)
        self._synsets[off] = s
        return s

    def closure(self, offsets: Iterable[str]) -> dict[str, tuple[str, ...]]:
        """offset → hypernym offsets, for ``offsets`` and all their (instance) hypernyms."""
        out: dict[str, tuple[str, ...]] = {}
        stack = [str(o).zfill(8) for o in offsets]
        while stack:
            o = stack.pop()
            if o in out:
                continue
            out[o] = self.synset(o).hypernyms
            stack.extend(h for h in out[o] if h not in out)
        return out

    # -- index.noun --------------------------------------------------------------------------
    def senses(self, lemma: str) -> tuple[str, ...]:
        """The synset offsets of ``lemma`` (lower case, ``_`` for spaces) in sense order."""
        return self._read_index().get(lemma.lower(), ())

    def _read_index(self) -> dict[str, tuple[str, ...]]:
        if self._index is None:
            index: dict[str, tuple[str, ...]] = {}
            with open(self.directory / "index.noun", encoding="utf-8") as fh:
                for line in fh:
                    if line.startswith(" "):  # the licence header
                        continue
                    f = line.split()
                    # lemma pos synset_cnt p_cnt [ptr_symbol…] sense_cnt tagsense_cnt offsets…
                    p_cnt = int(f[3])
                    index[f[0]] = tuple(f[4 + p_cnt + 2:])
            self._index = index
        return self._index

    def name(self, offset: str) -> str:
        """``lemma.n.NN``: the first lemma (lower case) and the synset's sense rank for it."""
        s = self.synset(offset)
        lemma = s.lemmas[0].lower()
        senses = self.senses(lemma)
        if s.offset not in senses:
            raise InvalidParameter(f"synset {s.offset} is not among the senses of {lemma!r} in "
                                   "index.noun")
        return f"{lemma}.n.{senses.index(s.offset) + 1:02d}"


def load_mapping() -> dict[str, Any]:
    """The package's Adult-category → synset mapping (``privlab/data/`` :data:`MAPPING_FILE`)."""
    return json.loads(_mapping_text())


def _mapping_text() -> str:
    return resources.files("privlab.data").joinpath(MAPPING_FILE).read_text("utf-8")


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


@attrs.frozen
class WordNetSource:
    """A taxonomy's structure built from WordNet (``parents``, ``domain``: the arguments of
    :class:`~privlab.mechanisms.microaggregation.taxonomy.Taxonomy`) and where it came from."""

    parents: Mapping[str, tuple[str, ...]]
    domain: tuple[str, ...]
    provenance: Mapping[str, Any]


def build_parents(name: str, wn: WordNetNouns, entry: Mapping[str, Any]
                  ) -> tuple[dict[str, list[str]], tuple[str, ...], dict[str, str]]:
    """The hypernym closure of one mapping entry (``taxonomies[name]`` of the mapping):
    concept → parents, the domain (the categories, sorted) and the synset offset of each
    concept that is a synset.  The upper-semilattice condition is checked by ``Taxonomy``."""
    cats: Mapping[str, Any] = entry["categories"]
    single: dict[str, str] = {}  # synset offset → the category that is that synset
    leaf_parents: dict[str, list[str]] = {}
    seeds: list[str] = []
    for cat, spec in cats.items():
        syns = spec.get("synsets") or []
        if not syns:
            raise InvalidParameter(f"mapping {name!r}: category {cat!r} has no synset")
        offs = []
        for s in syns:
            off = str(s["offset"]).zfill(8)
            got = wn.name(off)
            if got != s["name"]:
                raise InvalidParameter(f"mapping {name!r}: category {cat!r}: offset {off} is "
                                       f"{got!r} in this WordNet, not {s['name']!r}")
            offs.append(off)
        seeds += offs
        if len(offs) == 1:
            if offs[0] in single:
                raise InvalidParameter(f"mapping {name!r}: categories {single[offs[0]]!r} and "
                                       f"{cat!r} are the same synset {offs[0]}")
            single[offs[0]] = cat
        else:
            leaf_parents[cat] = offs
    closure = wn.closure(seeds)
    node = {o: single.get(o) or wn.name(o) for o in closure}
    parents: dict[str, list[str]] = {node[o]: [node[h] for h in hs] for o, hs in closure.items()}
    for cat, offs in leaf_parents.items():
        parents[cat] = [node[o] for o in offs]
    inner = sorted(set(cats) & {p for ps in parents.values() for p in ps})
    if inner:
        raise InvalidParameter(f"mapping {name!r}: categories {inner} are ancestors of other "
                               "categories (every category must be a leaf)")
    return parents, tuple(sorted(cats)), {c: o for o, c in node.items()}


@cache
def _build(name: str, directory: str) -> WordNetSource:
    mapping = load_mapping()
    entry = mapping["taxonomies"][name]
    wn = WordNetNouns(directory)
    parents, domain, offsets = build_parents(name, wn, entry)
    d = Path(directory)
    cats = entry["categories"]
    synsets = {}
    for c, off in sorted(offsets.items()):
        s = wn.synset(off)
        synsets[c] = {"offset": s.offset, "name": wn.name(off), "lemmas": list(s.lemmas),
                      "gloss": s.gloss}
    n, paper = len(parents), entry.get("paper_concepts")
    provenance = {
        "name": name,
        "kind": "wordnet",
        "attribute": entry["attribute"],
        "source": (f"WordNet {mapping['wordnet']} noun database (Princeton), closure under "
                   "hypernym (@) and instance hypernym (@i) pointers up to entity.n.01"),
        "reconstruction": (f"{PAPER_SOURCE}; this taxonomy uses WordNet {mapping['wordnet']} "
                           "and privlab's own mapping, so it is a reconstruction"),
        "data_dir": str(d.parent),
        "files": [{"file": f"{WORDNET_DIR}/{f}", "path": str(d / f),
                   "sha256": _sha256(d / f)} for f in FILES],
        "mapping": {"file": f"privlab/data/{MAPPING_FILE}",
                    "sha256": hashlib.sha256(_mapping_text().encode("utf-8")).hexdigest(),
                    "categories": {c: [s["name"] for s in cats[c]["synsets"]]
                                   for c in sorted(cats)}},
        "concepts": n,
        "categories": len(domain),
        "synset_concepts": len(offsets),
        "paper_concepts": paper,
        "concepts_minus_paper": None if paper is None else n - paper,
        "synsets": synsets,
    }
    return WordNetSource(parents={c: tuple(ps) for c, ps in parents.items()}, domain=domain,
                         provenance=provenance)


def wordnet_source(name: str, data_dir: str | os.PathLike[str] | None = None) -> WordNetSource:
    """The structure and provenance of WordNet taxonomy ``name`` (one of :data:`WORDNET_NAMES`);
    the taxonomy itself: ``project_taxonomy(name)`` / ``named_taxonomy(name)``.

    Raises InvalidParameter (one line) when the WordNet data is not in the data directory."""
    if name not in WORDNET_NAMES:
        raise InvalidParameter(f"name={name!r} must be one of {WORDNET_NAMES}")
    d = wordnet_dir(data_dir)
    if d is None:
        from privlab._data import data_dir as find

        where = find(data_dir)
        raise InvalidParameter(
            f"name={name!r} needs the WordNet 3.0 noun database ({WORDNET_DIR}/data.noun and "
            "index.noun), which is not in "
            + (f"the data directory {str(where)!r}" if where is not None else
               "a data directory (none found: set $PRIVLAB_DATA_DIR or use ../shared/data)"))
    return _build(name, str(d.resolve()))
