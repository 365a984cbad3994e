"""WordNet-derived Adult taxonomies (issue 31, item 4): the mapping, the wndb(5) parser, the
hypernym closure and its registration under ``project_taxonomy``.

The closure is recomputed here by an independent reading of ``data.noun`` (every line parsed,
not random access by offset) and compared with the module's; the concept counts are computed,
never compared with the papers' 122 / 127 (which are reported beside them)."""

from __future__ import annotations

import csv
import json
import re
from importlib import resources
from pathlib import Path

import pytest

from privlab.errors import InvalidParameter
from privlab.mechanisms.microaggregation import wordnet as wnmod
from privlab.mechanisms.microaggregation.taxonomy import (
    WORDNET_TAXONOMIES,
    named_taxonomy,
    project_taxonomy,
    taxonomy_names,
)

WN = wnmod.wordnet_dir()
needs_wordnet = pytest.mark.skipif(
    WN is None, reason="WordNet 3.0 noun database (wordnet-3.0/data.noun, index.noun) not in the "
                       "data directory ($PRIVLAB_DATA_DIR or ../shared/data)")
ATTRIBUTE = {"wordnet-occupation": "occupation", "wordnet-native-country": "native-country"}


def _mapping() -> dict:
    return json.loads(resources.files("privlab.data").joinpath(wnmod.MAPPING_FILE)
                      .read_text("utf-8"))


def _adult_values(column: str) -> set[str] | None:
    from privlab._data import data_file

    p = data_file("adult.csv")
    if p is None:
        return None
    with open(p, newline="", encoding="utf-8") as fh:
        return {row[column] for row in csv.DictReader(fh)} - {"?"}


_FULL: dict[str, dict] = {}


def _full_parse(directory: Path) -> dict:
    """Every synset of data.noun (offset → lemmas, @/@i targets) and every index.noun entry,
    read line by line with a regex — a second reading, independent of the module's seek()."""
    key = str(directory)
    if key not in _FULL:
        syn: dict[str, tuple[list[str], list[str]]] = {}
        for line in (directory / "data.noun").read_text("utf-8").splitlines():
            m = re.match(r"(\d{8}) \d\d n ([0-9a-f]{2}) ", line)
            if not m:
                continue
            f = line.split(" | ")[0].split()
            n = int(m.group(2), 16)
            lemmas = f[4:4 + 2 * n:2]
            rest = f[4 + 2 * n + 1:]
            hyp = [rest[i + 1] for i in range(0, len(rest) - 3, 4)
                   if rest[i] in ("@", "@i") and rest[i + 2] == "n"]
            syn[m.group(1)] = (lemmas, hyp)
        index = {}
        for line in (directory / "index.noun").read_text("utf-8").splitlines():
            if line.startswith(" "):
                continue
            f = line.split()
            index[f[0]] = [x for x in f if re.fullmatch(r"\d{8}", x)]
        _FULL[key] = {"synsets": syn, "index": index}
    return _FULL[key]


# -- the mapping (package data; no WordNet needed) ----------------------------------------------
def test_mapping_is_package_data_with_one_entry_per_category() -> None:
    m = _mapping()
    assert set(m["taxonomies"]) == set(WORDNET_TAXONOMIES)
    for name, entry in m["taxonomies"].items():
        assert entry["attribute"] == ATTRIBUTE[name]
        cats = entry["categories"]
        assert len(cats) == {"wordnet-occupation": 14, "wordnet-native-country": 41}[name]
        seen: set[str] = set()
        for cat, spec in cats.items():
            syns = spec["synsets"]
            assert syns, cat
            for s in syns:
                assert re.fullmatch(r"\d{8}", s["offset"]), (cat, s)
                assert re.fullmatch(r"[a-z0-9_.'-]+\.n\.\d\d", s["name"]), (cat, s)
            offs = tuple(sorted(s["offset"] for s in syns))
            assert "|".join(offs) not in seen, f"{cat}: same synsets as another category"
            seen.add("|".join(offs))
            # a choice is obvious only when the category is one of the synset's own words
            label = cat.lower().replace("-", "_")
            obvious = len(syns) == 1 and syns[0]["name"].split(".")[0] == label
            assert obvious or spec.get("reason", "").strip(), f"{cat}: no reason given"


@pytest.mark.parametrize("name", WORDNET_TAXONOMIES)
def test_mapping_covers_the_adult_categories(name: str) -> None:
    values = _adult_values(ATTRIBUTE[name])
    if values is None:
        pytest.skip("adult.csv not in the data directory")
    assert set(_mapping()["taxonomies"][name]["categories"]) == values


def test_parse_data_line() -> None:
    line = ("00002137 03 n 02 abstraction 0 abstract_entity 0 003 @ 00001740 n 0000 "
            "+ 00692347 v 0101 ~ 00023100 n 0000 | a general concept  \n")
    s = wnmod.parse_data_line(line)
    assert s == wnmod.Synset("00002137", ("abstraction", "abstract_entity"), ("00001740",),
                             "a general concept")
    with pytest.raises(InvalidParameter, match="not a wndb"):
        wnmod.parse_data_line("00002137 03 n zz abstraction")


@pytest.mark.parametrize("name", WORDNET_TAXONOMIES)
def test_missing_wordnet_is_one_line_invalid_parameter(name: str, tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PRIVLAB_DATA_DIR", str(tmp_path))
    with pytest.raises(InvalidParameter) as e:
        project_taxonomy(name)
    msg = str(e.value)
    assert "\n" not in msg and f"name={name!r}" in msg and "WordNet" in msg
    assert str(tmp_path) in msg


def test_unknown_name_lists_the_names() -> None:
    with pytest.raises(InvalidParameter, match="must be one of") as e:
        project_taxonomy("wordnet")
    assert all(n in str(e.value) for n in taxonomy_names())


# -- the taxonomies (need the WordNet data) -----------------------------------------------------
@needs_wordnet
@pytest.mark.parametrize("name", WORDNET_TAXONOMIES)
def test_leaves_are_the_categories_and_reach_the_root(name: str) -> None:
    t = project_taxonomy(name)
    cats = set(_mapping()["taxonomies"][name]["categories"])
    assert set(t.domain) == set(t.leaves) == cats
    assert t.root == "entity.n.01"
    for c in t.concepts:
        assert t.root in t.ancestors(c), c
    inner = set(t.concepts) - cats
    assert all(re.fullmatch(r".+\.n\.\d\d", c) for c in inner), inner


@needs_wordnet
@pytest.mark.parametrize("name", WORDNET_TAXONOMIES)
def test_closure_matches_an_independent_reading(name: str) -> None:
    """The concepts are exactly: the closure of the mapped synsets under @/@i (read from the
    whole file), with each one-synset category in place of its synset, plus the categories of
    several synsets; the parents of every node are its WordNet hypernyms."""
    full = _full_parse(WN)
    syn, index = full["synsets"], full["index"]
    cats = _mapping()["taxonomies"][name]["categories"]
    stack = [s["offset"] for spec in cats.values() for s in spec["synsets"]]
    closure: set[str] = set()
    while stack:
        o = stack.pop()
        if o not in closure:
            closure.add(o)
            stack += syn[o][1]

    def sname(o: str) -> str:
        lemma = syn[o][0][0].lower()
        return f"{lemma}.n.{index[lemma].index(o) + 1:02d}"

    single = {spec["synsets"][0]["offset"]: c for c, spec in cats.items()
              if len(spec["synsets"]) == 1}
    node = {o: single.get(o, sname(o)) for o in closure}
    expected = {node[o]: sorted(node[h] for h in syn[o][1]) for o in closure}
    for c, spec in cats.items():
        if len(spec["synsets"]) > 1:
            expected[c] = sorted(node[s["offset"]] for s in spec["synsets"])
    t, prov = named_taxonomy(name)
    assert {c: sorted(ps) for c, ps in t.parents.items()} == expected
    # the count is computed: closure + category nodes of several synsets
    n = len(closure) + sum(len(spec["synsets"]) > 1 for spec in cats.values())
    assert len(t.concepts) == n == prov["concepts"]
    assert prov["synset_concepts"] == len(closure)


@needs_wordnet
@pytest.mark.parametrize("name", WORDNET_TAXONOMIES)
def test_mapping_names_and_offsets_agree_with_wordnet(name: str) -> None:
    full = _full_parse(WN)
    for cat, spec in _mapping()["taxonomies"][name]["categories"].items():
        for s in spec["synsets"]:
            lemmas, _ = full["synsets"][s["offset"]]
            lemma, _, rank = s["name"].rpartition(".n.")
            assert lemmas[0].lower() == lemma, (cat, s)
            assert full["index"][lemma][int(rank) - 1] == s["offset"], (cat, s)


@needs_wordnet
def test_provenance_names_the_files_and_the_papers_counts() -> None:
    import hashlib

    for name, paper in zip(WORDNET_TAXONOMIES, (122, 127), strict=True):
        t, prov = named_taxonomy(name)
        assert prov["kind"] == "wordnet" and prov["paper_concepts"] == paper
        assert prov["concepts_minus_paper"] == len(t.concepts) - paper
        assert "reconstruction" in prov["reconstruction"]
        files = {f["file"]: f for f in prov["files"]}
        assert set(files) == {"wordnet-3.0/data.noun", "wordnet-3.0/index.noun"}
        for f in files.values():
            assert f["sha256"] == hashlib.sha256(Path(f["path"]).read_bytes()).hexdigest()
        assert set(prov["synsets"]) <= set(t.concepts)


@needs_wordnet
def test_a_bad_mapping_is_refused() -> None:
    """Able to fail: a stale name, two categories on one synset, a category above another."""
    wn = wnmod.WordNetNouns(WN)
    entry = _mapping()["taxonomies"]["wordnet-occupation"]

    def variant(**cats: list[dict[str, str]]) -> dict:
        return {**entry, "categories": {**entry["categories"],
                                        **{k.replace("_", "-"): {"synsets": v}
                                           for k, v in cats.items()}}}

    with pytest.raises(InvalidParameter, match=r"not 'clerk\.n\.02'"):
        wnmod.build_parents("x", wn, variant(Adm_clerical=[
            {"name": "clerk.n.02", "offset": "09928451"}]))
    with pytest.raises(InvalidParameter, match="same synset"):
        wnmod.build_parents("x", wn, variant(Sales=[
            {"name": "clerk.n.01", "offset": "09928451"}]))
    with pytest.raises(InvalidParameter, match="ancestors of other categories"):
        wnmod.build_parents("x", wn, variant(Sales=[
            {"name": "worker.n.01", "offset": "09632518"}]))
    with pytest.raises(InvalidParameter, match="does not start a synset"):
        wn.synset("09928452")
