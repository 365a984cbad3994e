"""Issue 16: a hypothesis-driven fuzz test of the command line, in-process (``privlab.cli.main``).

Random argument lists over the release / certify / session / audit-replay commands, with random
or malformed CSV, JSON, YAML, taxonomy and replay files.  Asserted for every case: the exit code
is 0, 1 or 2; no "Traceback" and no "internal error" on stdout or stderr; on exit 2 the output
folder holds nothing new (no data, certificate or temp file).  Bounded to ~60 examples with
cheap parameters (small files, k and samples small) so that it runs in well under a minute.
"""

from __future__ import annotations

import contextlib
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from privlab.cli import main

# weighted towards well-formed values, so that the commands get past the first check
CELLS = st.one_of(st.sampled_from(["1", "2.5", "0", "100", "42"]), st.sampled_from(
    ["-3", "x", "", "nan", "inf", "1e308", "é", "a,b", '"q"', "engineer", "nurse", " 7 "]))
HEADERS = st.one_of(st.just(["a", "b"]), st.sampled_from(
    [["id", "a", "b"], ["a"], ["a", "a"], ["", "b"], ["job", "a"]]))


@st.composite
def csv_bytes(draw: st.DrawFn) -> bytes:
    kind = draw(st.one_of(st.just("table"), st.sampled_from(
        ["binary", "latin1", "empty", "ragged", "ragged"])))
    if kind == "binary":
        return draw(st.binary(min_size=1, max_size=40))
    if kind == "latin1":
        return b"a,b\n1,\xe9\n"
    if kind == "empty":
        return b""
    header = draw(HEADERS)
    n = draw(st.integers(0, 24))
    rows = [[draw(CELLS) for _ in header] for _ in range(n)]
    if kind == "ragged" and rows:
        r = rows[draw(st.integers(0, len(rows) - 1))]
        if draw(st.booleans()):
            r.append("9")
        else:
            del r[-1]
    text = "\n".join(",".join(r) for r in [header, *rows]) + "\n"
    return text.encode("utf-8")


SIDE_FILES = st.sampled_from([
    b'{"job": {"technical": ["engineer"], "services": ["nurse"]}}',
    b'{"job": {"a": ["x"', b"job:\n  technical: [engineer]\n  services: [nurse]\n",
    b"- [unclosed\n", b"engineer;technical;*\nnurse;services;*\n", b"\xff\xfe\x00",
    b'{"kind": "replay"}', b"[]", b"null", b'{"event": 1}',
])

NUM = st.one_of(st.sampled_from(["1", "2"]), st.sampled_from(
    ["0.5", "0", "-1", "1e308", "1e-300", "nan", "x", "3/2"]))
K = st.one_of(st.sampled_from(["1", "2"]), st.sampled_from(["3", "4", "0", "x", "99"]))
COLS = st.one_of(st.sampled_from(["a,b", "a"]), st.sampled_from(
    ["b", "id", "a,a", "zz", "job", ""]))
BOUNDS = st.one_of(st.sampled_from(["0:100", "a=0:100,b=0:100"]), st.sampled_from(
    ["0:100,0:100", "10:0", "0:1", "x", "a=0:100", "0:inf"]))
FILE_OUT = st.sampled_from(["{OUT}"] * 6 + ["{IN}", "{DIR}", "{OUT_IN_FILE}"])
TAX = st.sampled_from(["job={SIDE}", "a={SIDE}", "job", "job=project:job", "={SIDE}"])
CHOICE = st.sampled_from(["aligned", "shuffled", "shared", "per-record", "zz"])
RELEASE_OPTS = {"--input": st.just("{IN}"), "--output": FILE_OUT}
SEED = st.sampled_from(["0", "7", "-1", "x"])
DP_OPTS = {**RELEASE_OPTS, "--epsilon": NUM, "--k": K, "--columns": COLS, "--bounds": BOUNDS,
           "--taxonomy": TAX, "--rows": CHOICE, "--noise": CHOICE, "--drop-other": None,
           "--allow-uncertified": None, "--noise-scale": NUM, "--clamp": None,
           "--no-clamp": None, "--noise-mode": st.sampled_from(["safe", "fast", "zz"]),
           "--max-relative-error": NUM, "--qi": COLS, "--sensitive": COLS, "--keep": COLS,
           "--seed": SEED}
MA_OPTS = {**RELEASE_OPTS, "--k": K, "--columns": COLS, "--bounds": BOUNDS, "--keep": COLS,
           "--qi": COLS, "--sensitive": COLS, "--drop-other": None, "--confidential": COLS,
           "--allow-uncertified": None, "--seed": SEED,
           "--distance": st.sampled_from(["standardised", "raw", "zz"])}
COMMANDS = {
    ("release", "laplace-dp"): DP_OPTS, ("release", "ir-dp"): DP_OPTS,
    ("release", "insensitive-mdav-dp"): DP_OPTS, ("release", "mdav"): MA_OPTS,
    ("release", "insensitive-mdav"): MA_OPTS, ("release", "individual-ranking"): MA_OPTS,
    ("release", "mdav-swap"): MA_OPTS, ("release", "ir-swap"): MA_OPTS,
    ("release", "t-closeness"): {**RELEASE_OPTS, "--confidential": COLS, "--t": NUM,
                                 "--l": K, "--qi": COLS, "--keep": COLS, "--drop-other": None,
                                 "--sensitive": COLS, "--allow-uncertified": None, "--b": K,
                                 "--order": st.sampled_from(["1,2,3", "a,b", "", "x,x"]),
                                 "--seed": SEED,
                                 "--form": st.sampled_from(["anatomy", "permuted", "x"])},
    ("certify", "staircase"): {"--epsilon": NUM, "--sensitivity": NUM, "--d": NUM},
    ("certify", "laplace"): {"--epsilon": NUM, "--sensitivity": NUM},
    ("certify", "dp-release"): {"--n": K, "--k": K, "--epsilon": NUM, "--rows": CHOICE,
                                "--taxonomy": TAX, "--attributes": K},
    ("certify", "t-closeness"): {"--input": st.just("{IN}"), "--groups": COLS,
                                 "--confidential": COLS, "--t": NUM},
    ("certify", "stochastic-t"): {"--n": K, "--class-size": K, "--epsilon": NUM,
                                  "--mechanism": st.sampled_from(["rr", "laplace", "x"])},
    ("certify", "box-staircase"): {"--epsilon": NUM, "--sensitivity": COLS},
}


@st.composite
def invocation(draw: st.DrawFn) -> tuple[list[str], bytes, bytes, str]:
    cmd = draw(st.sampled_from(sorted(COMMANDS)))
    opts = COMMANDS[cmd]
    args: list[str] = list(cmd)
    for name, values in opts.items():
        if draw(st.integers(0, 9)) < (8 if name in ("--input", "--output", "--epsilon", "--k",
                                                    "--columns", "--bounds", "--n") else 3):
            args += [name] if values is None else [name, draw(values)]
    if draw(st.integers(0, 19)) == 0:
        args.append(draw(st.sampled_from(["--bogus", "--format", "--format=xml", "-h"])))
    if draw(st.booleans()):
        args += ["--format", "json"]
    return args, draw(csv_bytes()), draw(SIDE_FILES), draw(st.sampled_from(
        [".json", ".yaml", ".csv"]))


@pytest.mark.filterwarnings("ignore")
@settings(max_examples=300, deadline=None, database=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(case=invocation())
@example(case=(["release", "laplace-dp", "--input", "{IN}", "--output", "{OUT}", "--epsilon", "1",
                "--columns", "a,b", "--bounds", "0:10"], b"a,b\n1,2\n3\n", b"[]", ".json"))
@example(case=(["release", "mdav", "--input", "{IN}", "--output", "{OUT}", "--k", "1",
                "--columns", "a,b"], b"a,b\n1,\xe9\n", b"[]", ".json"))
@example(case=(["release", "insensitive-mdav-dp", "--input", "{IN}", "--output", "{OUT}",
                "--epsilon", "1", "--k", "2", "--taxonomy", "job={SIDE}", "--drop-other"],
               b"job,a\nengineer,1\nnurse,2\nengineer,3\nnurse,4\n", b"- [unclosed\n",
               ".yaml"))
def test_cli_fuzz(case: tuple[list[str], bytes, bytes, str],
                  capsys: pytest.CaptureFixture[str]) -> None:
    argv, data, side, suffix = case
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        (d / "in.csv").write_bytes(data)
        (d / f"side{suffix}").write_bytes(side)
        (d / "blocker").write_text("x")
        out_dir = d / "out"
        out_dir.mkdir()
        subst = {"{IN}": str(d / "in.csv"), "{OUT}": str(out_dir / "o.csv"),
                 "{DIR}": str(out_dir), "{OUT_IN_FILE}": str(d / "blocker" / "o.csv"),
                 "{SIDE}": str(d / f"side{suffix}")}
        args = []
        for a in argv:
            for k, v in subst.items():
                a = a.replace(k, v)
            args.append(a)
        with contextlib.chdir(d):  # anything written relative lands in the temp dir
            code = main(args)
        cap = capsys.readouterr()
        text = cap.out + cap.err
        assert code in (0, 1, 2), (args, code, text)
        assert "Traceback" not in text and "internal error" not in text, (args, text)
        if code == 2:
            assert list(out_dir.iterdir()) == [], (args, text)
            assert (d / "in.csv").read_bytes() == data


def test_the_fuzz_draws_every_option_of_every_release_command() -> None:
    """Every option of every ``privlab release`` command is in its fuzz table (``--format`` is
    drawn for all), so an option added later is fuzzed or this fails."""
    import click

    from privlab import cli

    group = cli.cli.get_command(click.Context(cli.cli), "release")
    assert isinstance(group, click.Group)
    ctx = click.Context(group)
    missing = {}
    for name in group.list_commands(ctx):
        cmd = group.get_command(ctx, name)
        opts = {o for p in cmd.params for o in (*p.opts, *getattr(p, "secondary_opts", ()))
                if o.startswith("--")} - {"--help", "--format"}
        lack = opts - set(COMMANDS.get(("release", name), {}))
        if lack:
            missing[name] = sorted(lack)
    assert missing == {}
