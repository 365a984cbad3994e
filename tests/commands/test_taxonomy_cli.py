"""``privlab taxonomy list|show`` (issue 31, item 4): JSON shape, concept counts beside the
papers', provenance; bad names and missing data are one ``error:`` line, exit 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from privlab.cli import main
from privlab.commands import taxonomy as cmd
from privlab.mechanisms.microaggregation.taxonomy import taxonomy_names
from privlab.mechanisms.microaggregation.wordnet import wordnet_dir

needs_wordnet = pytest.mark.skipif(
    wordnet_dir() is None, reason="WordNet 3.0 noun database not in the data directory "
                                  "($PRIVLAB_DATA_DIR or ../shared/data)")


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_names_match_the_registry() -> None:
    assert cmd.NAMES == taxonomy_names()


def _check_shape(d: dict) -> None:
    assert {"name", "kind", "concepts", "paper_concepts", "concepts_minus_paper", "categories",
            "root", "depth", "domain", "boundaries", "parents", "tree", "source",
            "provenance"} <= set(d)
    assert d["concepts"] == len(d["parents"]) == d["provenance"]["concepts"]
    assert d["categories"] == len(d["domain"])
    assert list(d["tree"]) == [d["root"]] and d["parents"][d["root"]] == []
    b = d["boundaries"]
    assert {b["a_b"], b["a_t"]} <= set(d["domain"])
    assert 0 < b["delta_a_b_a_t"] <= b["marginality_sensitivity"] + 1e-12

    def nodes(tree: dict) -> set[str]:
        return set(tree) | {n for sub in tree.values() for n in nodes(sub)}

    assert nodes(d["tree"]) == set(d["parents"])


def test_show_job_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "taxonomy", "show", "job", "--format", "json")
    assert code == 0, err
    d = json.loads(out)
    _check_shape(d)
    assert d["name"] == "job" and d["kind"] == "project" and d["paper_concepts"] is None
    assert d["provenance"]["files"][0]["file"] == "privlab/data/taxonomy_job.json"


@needs_wordnet
@pytest.mark.parametrize("name,paper", [("wordnet-occupation", 122),
                                        ("wordnet-native-country", 127)])
def test_show_wordnet_json_and_table(capsys: pytest.CaptureFixture[str], name: str,
                                     paper: int) -> None:
    code, out, err = run(capsys, "taxonomy", "show", name, "--format", "json")
    assert code == 0, err
    d = json.loads(out)
    _check_shape(d)
    assert d["kind"] == "wordnet" and d["root"] == "entity.n.01"
    assert d["paper_concepts"] == paper and d["concepts_minus_paper"] == d["concepts"] - paper
    assert {f["file"] for f in d["provenance"]["files"]} == {"wordnet-3.0/data.noun",
                                                              "wordnet-3.0/index.noun"}
    code, out, _ = run(capsys, "taxonomy", "show", name)
    assert code == 0
    first = out.splitlines()[0]
    assert first.startswith(f"{name}: {d['concepts']} concepts (the papers: {paper},")
    assert "sha256" in out and "entity.n.01" in out and "[category]" in out


def test_list_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "taxonomy", "list", "--format", "json")
    assert code == 0, err
    rows = json.loads(out)["taxonomies"]
    assert [r["name"] for r in rows] == list(cmd.NAMES)
    by = {r["name"]: r for r in rows}
    assert by["job"]["available"] and by["job"]["concepts"] == 19
    assert by["wordnet-occupation"]["paper_concepts"] == 122
    assert by["wordnet-native-country"]["paper_concepts"] == 127
    for r in rows:
        assert (r["concepts"] is not None) == r["available"] == (r["unavailable"] is None)


def test_list_without_data_says_why(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, _ = run(capsys, "taxonomy", "list", "--data-dir", str(tmp_path),
                       "--format", "json")
    assert code == 0
    by = {r["name"]: r for r in json.loads(out)["taxonomies"]}
    assert by["sport"]["available"]
    assert not by["wordnet-occupation"]["available"]
    assert str(tmp_path) in by["wordnet-occupation"]["unavailable"]
    assert by["wordnet-occupation"]["paper_concepts"] == 122


@pytest.mark.parametrize("args,needle", [
    (("taxonomy", "show", "nope"), "NAME='nope' must be one of sport, job"),
    (("taxonomy", "show", "wordnet-occupation", "--data-dir", "{tmp}"),
     "name='wordnet-occupation'"),
    (("taxonomy", "show", "arx-occupation", "--data-dir", "{tmp}"), "name='arx-occupation'"),
    (("taxonomy", "show", "job", "--data-dir", "/nonexistent/dir"),
     "--data-dir='/nonexistent/dir'"),
    (("taxonomy", "show", "job", "--format", "xml"), "'xml'"),
])
def test_bad_input_one_line_exit_2(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                   args: tuple[str, ...], needle: str) -> None:
    code, out, err = run(capsys, *(a.replace("{tmp}", str(tmp_path)) for a in args))
    assert code == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    assert needle in lines[0] and "Traceback" not in err
