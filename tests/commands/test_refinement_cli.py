"""CLI: certify refinement (JSON contract, exit codes, bad input) and the JSON-lines session."""

from __future__ import annotations

import json

from click.testing import CliRunner

from privlab.commands.refinement import certify_refinement, session
from privlab.errors import InvalidParameter


def test_certify_json_individual():
    r = CliRunner().invoke(certify_refinement, ["--prior", "uniform:0,1", "--epsilon", "1",
                                                "--query", "individual", "--format", "json"])
    assert r.exit_code == 0, r.output
    c = json.loads(r.output)
    assert c["holds"] and c["guarantee"]["neighbour"] == "add/remove"
    assert c["properties"]["substitution_epsilon_is_not_certified"] is True


def test_certify_statistical_pmf_table_format():
    r = CliRunner().invoke(certify_refinement, ["--prior", "pmf:0=1/4,1=1/4,2=1/2",
                                                "--epsilon", "0.5", "--query", "statistical",
                                                "--distance", "ordinal", "--alpha-u", "1.1"])
    assert r.exit_code == 0 and "HOLDS" in r.output


def test_certify_bad_inputs():
    for args in (["--prior", "pmf:0=0.9,1=0.2", "--epsilon", "1"],
                 ["--prior", "uniform:0,1", "--epsilon", "-1"],
                 ["--prior", "uniform:0,1", "--epsilon", "1", "--delta", "1.5"],
                 ["--prior", "uniform:0,1", "--epsilon", "1", "--distance", "nominal"]):
        r = CliRunner().invoke(certify_refinement, args)
        assert isinstance(r.exception, InvalidParameter), args


def test_session_jsonlines(tmp_path):
    data = tmp_path / "d.json"
    data.write_text(json.dumps({"a": 1, "b": 0}))
    lines = [{"individual": "a", "prior": "pmf:0=1/2,1=1/2", "epsilon": 0.6},
             {"individual": "b", "prior": "pmf:0=1/2,1=1/2", "epsilon": 0.6},
             {"oops": 1}]
    r = CliRunner().invoke(session, ["refinement", "--budget", "1", "--data", str(data),
                                     "--format", "json"],
                           input="\n".join(json.dumps(x) for x in lines))
    assert r.exit_code == 0, r.output
    out = [json.loads(s) for s in r.output.strip().splitlines()]
    assert out[0]["answered"] and not out[1]["answered"] and "budget" in out[1]["reason"]
    assert out[-1]["summary"]["spent"] == 0.6


def test_laplace_session_jsonlines():
    lines = [{"statistic": "count", "value": 1}] * 3
    r = CliRunner().invoke(session, ["laplace", "--budget", "2", "--format", "json"],
                           input="\n".join(json.dumps(x) for x in lines))
    out = [json.loads(s) for s in r.output.strip().splitlines()]
    assert [o.get("answered") for o in out[:3]] == [True, True, False]
