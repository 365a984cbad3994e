"""The issue-5 CLI mounted next to issue 6's ``release`` group (privlab.commands.microaggregation).

Expected values come from the data written here (row order, untouched columns) and from the
group-size arithmetic of Algorithm 2.1 (23 records, k = 4: sizes 4, 4, 4, 4, 7 → minimum 4).
"""

from __future__ import annotations

import csv
import json

import click
import pytest
from click.testing import CliRunner

from privlab.commands import dp_release as dp_cmds
from privlab.commands.microaggregation import (
    MICROAGG_RELEASE_COMMANDS,
    certify_insensitivity,
    mount,
    release_microagg,
)
from privlab.errors import InvalidParameter


def _merged() -> tuple[click.Group, click.Group]:
    rel = click.Group("release", commands=dict(dp_cmds.release_dp.commands))
    cert = click.Group("certify")
    mount(rel, cert)
    return rel, cert


def test_mount_beside_dp_release_keeps_both():
    rel, cert = _merged()
    names = set(rel.commands)
    assert {"mdav", "insensitive-mdav", "individual-ranking", "mdav-swap", "ir-swap"} <= names
    assert set(dp_cmds.release_dp.commands) <= names
    assert cert.commands["insensitivity"] is certify_insensitivity
    assert set(release_microagg.commands) == {c.name for c in MICROAGG_RELEASE_COMMANDS}


def test_mount_refuses_a_taken_name():
    rel = click.Group("release", commands={"mdav": click.Command("mdav")})
    with pytest.raises(InvalidParameter, match="command='mdav'"):
        mount(rel, click.Group("certify"))


def test_merged_release_runs_mdav(tmp_path):
    src = tmp_path / "in.csv"
    rows = [[f"r{i}", str((7 * i) % 23), str((5 * i) % 11), "keep,me"] for i in range(23)]
    with src.open("w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["id", "a", "b", "note"])
        w.writerows(rows)
    out = tmp_path / "out.csv"
    rel, _ = _merged()
    r = CliRunner().invoke(rel, ["mdav", "--input", str(src), "--output", str(out), "--k", "4",
                                 "--columns", "a,b", "--keep", "id,note", "--format", "json"])
    assert r.exit_code == 0, r.output
    with out.open(newline="") as fh:
        got = list(csv.reader(fh))
    assert got[0] == ["id", "a", "b", "note"]
    assert [g[0] for g in got[1:]] == [r_[0] for r_ in rows]
    assert all(g[3] == "keep,me" for g in got[1:])
    cert = json.loads((tmp_path / "out.csv.cert.json").read_text())
    assert cert["method"] == "mdav" and cert["k"] == 4
    assert cert["achieved_min_group_size"] == 4
    # released (a, b) pairs: 5 distinct centroids, sizes 4,4,4,4,7 (Algorithm 2.1 arithmetic)
    counts: dict[tuple[str, str], int] = {}
    for g in got[1:]:
        counts[g[1], g[2]] = counts.get((g[1], g[2]), 0) + 1
    assert sorted(counts.values()) == [4, 4, 4, 4, 7]


def test_certify_insensitivity_mounted_finds_mdav_broken():
    _, cert = _merged()
    r = CliRunner().invoke(cert, ["insensitivity", "--algorithm", "mdav", "--k", "2",
                                  "--attributes", "1", "--examples", "0", "--format", "json"])
    assert r.exit_code == 1, r.output
    d = json.loads(r.output)
    assert d["holds"] is False and d["counterexample"]["n"] == 5
