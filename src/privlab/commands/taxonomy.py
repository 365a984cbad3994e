"""``privlab taxonomy list|show``: the taxonomies privlab ships or rebuilds, by name.

``privlab taxonomy list [--data-dir DIR]`` lists every name with its kind, concept count and
source; ``privlab taxonomy show NAME [--data-dir DIR]`` prints the tree of one (a concept with
several parents is printed under each of them and expanded under the first), its concept count
beside the papers' (vldb14 §5: 122 for OCCUPATION, 127 for NATIVE-COUNTRY), its boundary pair
δ(a_b, a_t) against the true sensitivity of the marginality, and its provenance (files and
sha256).  Names: ``sport`` and ``job`` (privlab's own, package data), ``wordnet-occupation`` and
``wordnet-native-country`` (rebuilt from WordNet 3.0 in the data directory,
:mod:`privlab.mechanisms.microaggregation.wordnet`), ``arx-occupation`` and
``arx-native-country`` (ARX's hand-made hierarchies in the data directory).  A name whose data
is missing, or an unknown name, is bad input: one line ``error: …``, exit 2.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from privlab.commands._common import emit, fail_usage, format_option, text_table

if TYPE_CHECKING:  # numpy (via Taxonomy) is imported where it is used: --help imports no engine
    from privlab.mechanisms.microaggregation.taxonomy import Taxonomy

#: :func:`privlab.mechanisms.microaggregation.taxonomy.taxonomy_names`, kept literal so that
#: ``--help`` imports no engine (a test holds the two equal)
NAMES = ("sport", "job", "wordnet-occupation", "wordnet-native-country", "arx-occupation",
         "arx-native-country")

data_dir_option = click.option(
    "--data-dir", type=click.Path(path_type=Path), default=None,
    help="Data directory holding wordnet-3.0/ and the ARX hierarchies (default "
         "$PRIVLAB_DATA_DIR, else ../shared/data).")


def _check_data_dir(value: Path | None) -> Path | None:
    if value is not None and not value.is_dir():
        fail_usage(f"--data-dir={str(value)!r} is not a directory")
    return value


def _load(name: str, data_dir: Path | None) -> tuple[Taxonomy, dict[str, Any]]:
    from privlab.mechanisms.microaggregation.taxonomy import named_taxonomy

    if name not in NAMES:
        fail_usage(f"NAME={name!r} must be one of {', '.join(NAMES)}")
    return named_taxonomy(name, data_dir)


def _tree(tax: Taxonomy) -> dict[str, Any]:
    """Nested ``{concept: {child: {…}}}`` from the root (a DAG's shared nodes repeated)."""
    children: dict[str, list[str]] = {c: [] for c in tax.concepts}
    for c, ps in tax.parents.items():
        for p in ps:
            children[p].append(c)

    def sub(c: str) -> dict[str, Any]:
        return {k: sub(k) for k in sorted(children[c])}

    return {tax.root: sub(tax.root)}


def _tree_lines(tax: Taxonomy) -> list[str]:
    children: dict[str, list[str]] = {c: [] for c in tax.concepts}
    for c, ps in tax.parents.items():
        for p in ps:
            children[p].append(c)
    lines: list[str] = []
    shown: set[str] = set()
    domain = set(tax.domain)

    def walk(c: str, depth: int) -> None:
        mark = " [category]" if c in domain else ""
        if c in shown:
            lines.append(f"{'  ' * depth}{c}{mark} (also under {', '.join(tax.parents[c])}; "
                         "expanded above)" if children[c] else f"{'  ' * depth}{c}{mark}")
            return
        shown.add(c)
        lines.append(f"{'  ' * depth}{c}{mark}")
        for k in sorted(children[c]):
            walk(k, depth + 1)

    walk(tax.root, 0)
    return lines


def describe(name: str, data_dir: Path | None = None) -> dict[str, Any]:
    """The JSON object of ``privlab taxonomy show NAME``."""
    return _describe(name, data_dir)[1]


def _describe(name: str, data_dir: Path | None) -> tuple[Taxonomy, dict[str, Any]]:
    tax, prov = _load(name, data_dir)
    a_b, a_t = tax.boundaries
    paper = prov.get("paper_concepts")
    return tax, {
        "name": name,
        "kind": prov["kind"],
        "concepts": len(tax.concepts),
        "paper_concepts": paper,
        "concepts_minus_paper": None if paper is None else len(tax.concepts) - paper,
        "categories": len(tax.domain),
        "root": tax.root,
        "depth": tax.depth(),
        "domain": list(tax.domain),
        "boundaries": {"a_b": a_b, "a_t": a_t, "delta_a_b_a_t": tax.boundary_distance,
                       "marginality_sensitivity": tax.marginality_sensitivity},
        "parents": {c: list(tax.parents[c]) for c in tax.concepts},
        "tree": _tree(tax),
        "source": prov["source"],
        "provenance": prov,
    }


def _show_text(d: dict[str, Any]) -> str:
    prov = d["provenance"]
    paper = (f" (the papers: {d['paper_concepts']}, difference {d['concepts_minus_paper']:+d})"
             if d["paper_concepts"] is not None else "")
    b = d["boundaries"]
    lines = [f"{d['name']}: {d['concepts']} concepts{paper}, {d['categories']} categories, "
             f"root {d['root']}, depth {d['depth']}",
             f"source: {d['source']}"]
    for key in ("reconstruction", "note"):
        if prov.get(key):
            lines.append(f"{key}: {prov[key]}")
    for f in prov.get("files", ()):
        lines.append(f"file: {f['file']} sha256 {f['sha256']}"
                     + (f" ({f['path']})" if f.get("path") else ""))
    if "mapping" in prov:
        lines.append(f"mapping: {prov['mapping']['file']} sha256 {prov['mapping']['sha256']}")
    lines.append(f"boundaries: a_b={b['a_b']}, a_t={b['a_t']}, δ(a_b, a_t)={b['delta_a_b_a_t']:.6g}"
                 f"; true sensitivity of the marginality {b['marginality_sensitivity']:.6g}")
    lines.append("tree ([category]: a value of the domain; a concept with several parents is "
                 "expanded under the first):")
    return "\n".join(lines)


@click.group()
def taxonomy() -> None:
    """Show the shipped taxonomies (tree, concept count, source)."""


@taxonomy.command("show")
@click.argument("name", metavar="NAME")
@data_dir_option
@format_option
def show(name: str, data_dir: Path | None, fmt: str) -> None:
    """Print taxonomy NAME: its tree, concept count (beside the papers') and provenance.

    NAME: sport, job, wordnet-occupation, wordnet-native-country, arx-occupation,
    arx-native-country (see `privlab taxonomy list`)."""
    tax, d = _describe(name, _check_data_dir(data_dir))
    emit(d, fmt, lambda: "\n".join([_show_text(d), *_tree_lines(tax)]))


@taxonomy.command("list")
@data_dir_option
@format_option
def list_(data_dir: Path | None, fmt: str) -> None:
    """List the taxonomy names with kind, concept count (beside the papers') and source."""
    from privlab.errors import InvalidParameter

    _check_data_dir(data_dir)
    rows = []
    for name in NAMES:
        try:
            tax, prov = _load(name, data_dir)
        except InvalidParameter as e:
            rows.append({"name": name, "available": False, "kind": _kind(name),
                         "concepts": None, "paper_concepts": _paper_concepts(name),
                         "categories": None, "source": None, "unavailable": str(e)})
            continue
        rows.append({"name": name, "available": True, "kind": prov["kind"],
                     "concepts": len(tax.concepts), "paper_concepts": prov.get("paper_concepts"),
                     "categories": len(tax.domain), "source": prov["source"],
                     "unavailable": None})
    emit({"taxonomies": rows}, fmt, lambda: text_table(
        [{**r, "source": r["source"] or f"unavailable: {r['unavailable']}"} for r in rows],
        ["name", "kind", "concepts", "paper_concepts", "categories", "source"]))


def _kind(name: str) -> str:
    return name.split("-", 1)[0] if "-" in name else "project"


def _paper_concepts(name: str) -> int | None:
    """The concept count the papers report for the attribute (WordNet names only)."""
    if not name.startswith("wordnet-"):
        return None
    from privlab.mechanisms.microaggregation.wordnet import load_mapping

    return load_mapping()["taxonomies"][name].get("paper_concepts")

