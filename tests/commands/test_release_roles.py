"""Attribute roles (--qi / --sensitive / --keep / --drop-other) of every release command, and
certificates that are true of the file they accompany: each test reads the written file back
and recounts the certified property with ``collections.Counter`` (independent of the checker
in privlab.verify.microaggregation.published).

The synthetic table: 5 clusters of 4 close (a, b) records far apart, so that MDAV's groups
(k = 4) are the clusters — the tests do not rely on it: each group is read back from the
written file.  ``sex`` is constant in every cluster except row FLIP (its cluster's other
value); ``race`` is the same everywhere.  So the published quasi-identifiers (a, b, sex, race)
split exactly one group, on ``sex`` only.
"""

from __future__ import annotations

import csv
import json
from collections import Counter
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from privlab.cli import main
from privlab.commands._roles import AttributeRoles
from privlab.commands.release import run_release
from privlab.errors import InvalidParameter

FLIP = 6  # 0-based data row whose sex differs from the rest of its cluster
HEADER = ["id", "a", "b", "sex", "race", "zip", "income"]


def run(capsys: pytest.CaptureFixture[str], *args: object) -> tuple[int, str, str]:
    code = main([str(a) for a in args])
    cap = capsys.readouterr()
    return code, cap.out, cap.err


def _rows() -> list[list[str]]:
    out = []
    for i in range(20):
        c = i // 4
        sex = "F" if c % 2 == 0 else "M"
        if i == FLIP:
            sex = "M" if sex == "F" else "F"
        out.append([f"r{i}", str(100 * c + i % 4), str(50 * c + 7 + i % 2), sex, "w", f"z{c}",
                    str(1000 * (i % 3))])
    return out


@pytest.fixture
def data_csv(tmp_path: Path) -> Path:
    p = tmp_path / "in.csv"
    with p.open("w", newline="") as fh:
        csv.writer(fh).writerows([HEADER, *_rows()])
    return p


def _read(path: Path) -> tuple[list[str], list[list[str]]]:
    with path.open(newline="") as fh:
        got = list(csv.reader(fh))
    return got[0], got[1:]


def _counts(header: list[str], rows: list[list[str]], cols: list[str]) -> Counter:
    idx = [header.index(c) for c in cols]
    return Counter(tuple(r[j] for j in idx) for r in rows)


def _expected_split(out: Path, qi: list[str], anonymised: list[str]) -> dict:
    """Smallest class of the written file and the columns that split its group, recounted."""
    header, rows = _read(out)
    counts = _counts(header, rows, qi)
    kmin = min(counts.values())
    key = [tuple(r[header.index(c)] for c in qi) for r in rows]
    r0 = next(i for i, kk in enumerate(key) if counts[kk] == kmin)
    anon = [c for c in qi if c in anonymised]
    group = [r for r in rows if all(r[header.index(c)] == rows[r0][header.index(c)]
                                    for c in anon)]
    split = {c: len({r[header.index(c)] for r in group}) for c in qi if c not in anon}
    return {"size": kmin, "row": r0 + 1, "classes": len(counts),
            "below": sum(1 for v in counts.values() if v < 4),
            "split": {c: d for c, d in split.items() if d > 1}}


def test_kept_identifying_qi_is_refused_naming_the_split(tmp_path: Path, data_csv: Path,
                                                         capsys) -> None:
    """Mutants caught: k-anonymity over the anonymised columns only (the issue's bug: exit 0);
    split_by listing every pass-through QI (race, constant, would be named); writing before
    refusing (files would exist)."""
    out = tmp_path / "o.csv"
    args = ["release", "mdav", "--input", data_csv, "--output", out, "--k", "4",
            "--columns", "a,b", "--qi", "sex,race", "--sensitive", "income", "--drop-other"]
    code, o, err = run(capsys, *args)
    assert code == 1 and o == "" and err.startswith("refused: mdav k=4: ")
    assert err.count("\n") == 1 and "Traceback" not in err
    assert not out.exists() and not Path(f"{out}.cert.json").exists()
    assert list(tmp_path.iterdir()) == [data_csv]
    # the same release written anyway, read back: the message named what the file shows
    code, o, _err2 = run(capsys, *args, "--allow-uncertified", "--format", "json")
    assert code == 1 and out.exists()
    exp = _expected_split(out, ["a", "b", "sex", "race"], ["a", "b"])
    assert exp["size"] < 4 and list(exp["split"]) == ["sex"]  # by construction (module doc)
    rec = "record" if exp["size"] == 1 else "records"
    assert f"the smallest class has {exp['size']} {rec} (data row {exp['row']};" in err
    assert f"{exp['below']} of {exp['classes']} classes have fewer than 4" in err
    assert "sex (2 values)" in err and "race (" not in err
    cert = json.loads(o)
    assert cert["holds"] is False and cert["achieved_k"] == exp["size"]
    assert cert["roles"]["quasi_identifiers"] == ["a", "b", "sex", "race"]
    assert cert["roles"]["dropped"] == ["id", "zip"]


@pytest.mark.parametrize("method", ["mdav", "insensitive-mdav", "individual-ranking",
                                    "mdav-swap", "ir-swap"])
def test_certificate_recounted_from_the_file(tmp_path: Path, data_csv: Path, method: str,
                                             capsys) -> None:
    """Every certified number recounted from OUTPUT.  Mutants caught: classes counted before
    the text is written or over other columns, l-diversity counting rows, SSE/SST of the
    original against itself, roles in the certificate not those used."""
    out = tmp_path / "o.csv"
    code, o, err = run(capsys, "release", method, "--input", data_csv, "--output", out,
                       "--k", "4", "--columns", "a,b", "--bounds", "a=0:410,b=0:300",
                       "--qi", "sex", "--sensitive", "income", "--keep", "id,zip",
                       "--drop-other", "--allow-uncertified", "--format", "json")
    assert code in (0, 1), err
    cert = json.loads(o)
    assert json.loads(Path(f"{out}.cert.json").read_text())["published"] == cert["published"]
    roles = cert["roles"]
    assert roles["quasi_identifiers"] == ["a", "b", "sex"]
    assert roles["sensitive"] == ["income"] and roles["non_identifying"] == ["id", "zip"]
    assert roles["dropped"] == ["race"] and "user's statement" in roles[
        "non_identifying_statement"]
    header, rows = _read(out)
    assert header == ["id", "a", "b", "sex", "zip", "income"]
    counts = _counts(header, rows, roles["quasi_identifiers"])
    kan = cert["published"]["k_anonymity"]
    assert kan["value"] == min(counts.values()) == cert["achieved_k"]
    assert kan["evidence"]["classes"] == len(counts)
    assert cert["published"]["k_anonymity_claimed"] == (method in ("mdav", "insensitive-mdav"))
    if cert["published"]["k_anonymity_claimed"]:
        assert cert["holds"] == (min(counts.values()) >= 4) and code == (0 if cert["holds"]
                                                                         else 1)
    distinct: dict[tuple, set] = {}
    qidx = [header.index(c) for c in roles["quasi_identifiers"]]
    for r in rows:
        distinct.setdefault(tuple(r[j] for j in qidx), set()).add(r[header.index("income")])
    (ld,) = cert["published"]["l_diversity"]
    assert ld["value"] == min(len(v) for v in distinct.values())
    src = np.array([[float(r[1]), float(r[2])] for r in _rows()])
    rel = np.array([[float(r[1]), float(r[2])] for r in rows])
    m = cert["properties"]["information_loss_and_linkage"]
    for j, c in enumerate(["a", "b"]):
        sst = ((src[:, j] - src[:, j].mean()) ** 2).sum()
        assert m["sse_sst_per_column"][c] == pytest.approx(
            ((src[:, j] - rel[:, j]) ** 2).sum() / sst, rel=1e-12, abs=1e-15)
    alt = cert["published"]["if_non_identifying_were_quasi_identifiers"]
    assert alt["achieved_k"] == min(_counts(header, rows, ["id", "a", "b", "sex", "zip"])
                                    .values())


def test_keep_is_the_users_statement(tmp_path: Path, data_csv: Path, capsys) -> None:
    """--keep sex,race certifies over (a, b) and says what k would be were they QIs.
    Mutant caught: the 'were they quasi-identifiers' count made over the QIs only."""
    out = tmp_path / "o.csv"
    code, o, err = run(capsys, "release", "mdav", "--input", data_csv, "--output", out,
                       "--k", "4", "--columns", "a,b", "--keep", "sex,race",
                       "--sensitive", "income", "--drop-other")
    assert code == 0, err
    header, rows = _read(out)
    wider = _counts(header, rows, ["a", "b", "sex", "race"])
    assert min(wider.values()) < 4  # the flipped row, by construction
    cert = json.loads(Path(f"{out}.cert.json").read_text())
    assert cert["holds"] and cert["roles"]["non_identifying"] == ["sex", "race"]
    assert cert["achieved_k"] == min(_counts(header, rows, ["a", "b"]).values()) >= 4
    alt = cert["published"]["if_non_identifying_were_quasi_identifiers"]
    assert alt["achieved_k"] == min(wider.values()) and alt["split_by"] == ["sex"]
    assert "were the --keep columns quasi-identifiers" in o
    assert "non-identifying (your statement, --keep): sex, race" in o


@pytest.mark.parametrize("extra, needles", [
    (["--qi", "sex", "--keep", "sex"], ["'sex' is given two roles: --qi and --keep"]),
    (["--qi", "nope"], ["qi: column 'nope' is not in the input header"]),
    (["--qi", ""], ["qi='' must name at least one column"]),
    (["--keep", "a"], ["keep: column 'a' is anonymised by mdav"]),
    (["--qi", "sex"], ["not anonymised: id, race, zip, income", "--qi", "--keep",
                       "--drop-other"]),
    (["--sensitive", "sex,sex"], ["names column 'sex' twice"]),
])
def test_role_errors_are_one_line(tmp_path: Path, data_csv: Path, capsys, extra,
                                  needles) -> None:
    """Mutant caught: no check of overlapping roles (sex both QI and non-identifying)."""
    out = tmp_path / "o.csv"
    code, o, err = run(capsys, "release", "mdav", "--input", data_csv, "--output", out,
                       "--k", "4", "--columns", "a,b", *extra)
    assert code == 2 and o == "" and err.startswith("error: ") and err.count("\n") == 1, err
    for n in needles:
        assert n in err, (n, err)
    assert not out.exists()


def test_python_api_takes_the_same_roles(tmp_path: Path, data_csv: Path) -> None:
    """AttributeRoles (names as strings or sequences) gives the CLI's certificate."""
    roles = AttributeRoles(qi=("sex",), sensitive="income", keep=["id", "zip"],
                           drop_other=True)
    cert = run_release("mdav", data_csv, tmp_path / "p.csv", 4, "a,b", None, None, 0,
                       roles=roles, allow_uncertified=True)
    cert2 = run_release("mdav", data_csv, tmp_path / "q.csv", 4, "a,b", None, None, 0,
                        qi="sex", sensitive="income", keep="id,zip", drop_other=True,
                        allow_uncertified=True)
    assert cert["roles"] == cert2["roles"] and cert["published"] == cert2["published"]
    assert (tmp_path / "p.csv").read_bytes() == (tmp_path / "q.csv").read_bytes()
    with pytest.raises(InvalidParameter, match="roles= is given"):
        run_release("mdav", data_csv, tmp_path / "r.csv", 4, "a,b", None, None, 0,
                    roles=roles, qi="sex")


# ---- t-closeness: the same role syntax --------------------------------------------------------

@pytest.fixture
def tc_csv(tmp_path: Path) -> Path:
    rng = np.random.default_rng(0)
    p = tmp_path / "tc.csv"
    with p.open("w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["id", "age", "city", "income"])
        for i in range(90):
            w.writerow([i, int(rng.integers(18, 80)), rng.choice(["a", "b", "c"]),
                        int(rng.integers(0, 1000))])
    return p


@pytest.mark.parametrize("form", ["permuted", "anatomy"])
def test_tcloseness_roles_and_recount(tmp_path: Path, tc_csv: Path, form: str,
                                      capsys) -> None:
    """--keep id without --qi: the default QIs are the other columns (age, city), id is
    listed as the user's statement; t, class sizes and QI classes recounted from the files.
    Mutant caught: default QIs that include the kept column."""
    from privlab.verify.tcloseness import achieved_t

    out = tmp_path / "t.csv"
    code, _o, err = run(capsys, "release", "t-closeness", "--input", tc_csv, "--output", out,
                       "--confidential", "income", "--t", "2", "--keep", "id", "--form", form)
    assert code == 0, err
    cert = json.loads(Path(f"{out}.cert.json").read_text())
    assert cert["roles"]["quasi_identifiers"] == ["age", "city"]
    assert cert["roles"]["non_identifying"] == ["id"] and cert["roles"]["sensitive"] == [
        "income"]
    header, rows = _read(out)
    side = (header, rows) if form == "permuted" else _read(Path(f"{out}.groups.csv"))
    g = side[1]
    gi, bi = side[0].index("group"), side[0].index("bucket")
    t_file, _ = achieved_t(np.array([r[bi] for r in g]), np.array([r[gi] for r in g]))
    assert Fraction(cert["properties"]["achieved_t"]) == t_file <= 2
    sizes = Counter(r[gi] for r in g)
    assert cert["properties"]["min_class_size"] == min(sizes.values())
    qi_counts = _counts(header, rows, ["age", "city"])
    assert cert["published"]["k_anonymity"]["value"] == min(qi_counts.values())
    assert cert["published"]["k_anonymity_claimed"] is False


@pytest.mark.parametrize("extra, needle", [
    (["--sensitive", "city"], "t-closeness protects the --confidential column only"),
    (["--qi", "age,income"], "qi: column 'income' is the sensitive column"),
    (["--keep", "income"], "keep: column 'income' is anonymised by t-closeness"),
    (["--qi", "age"], "not anonymised: id, city"),
])
def test_tcloseness_role_errors(tmp_path: Path, tc_csv: Path, capsys, extra, needle) -> None:
    out = tmp_path / "t.csv"
    code, _o, err = run(capsys, "release", "t-closeness", "--input", tc_csv, "--output", out,
                       "--confidential", "income", "--t", "2", *extra)
    assert code == 2 and err.startswith("error: ") and err.count("\n") == 1 and needle in err, err
    assert not out.exists()


def test_tcloseness_refuses_an_input_group_column(tmp_path: Path, capsys) -> None:
    """Mutant caught: a 'group' input column written twice (the re-check would read it)."""
    src = tmp_path / "g.csv"
    src.write_text("group,income\n" + "".join(f"{i % 2},{i}\n" for i in range(12)))
    code, _o, err = run(capsys, "release", "t-closeness", "--input", src, "--output",
                       tmp_path / "t.csv", "--confidential", "income", "--t", "2")
    assert code == 2 and "input column 'group' would collide" in err, err


# ---- one syntax for every release command ----------------------------------------------------

def test_every_role_aware_release_command_has_the_shared_options() -> None:
    """--qi, --sensitive, --keep, --drop-other on the microaggregation, t-closeness and DP
    releases (from _csvio.role_options).  Mutant caught: a command built without it."""
    from privlab.commands.dp_release import release_dp
    from privlab.commands.release import RELEASE_COMMANDS
    from privlab.commands.tcloseness import release_t_closeness

    dp = [release_dp.commands[m] for m in ("insensitive-mdav-dp", "ir-dp", "laplace-dp")]
    for cmd in (*RELEASE_COMMANDS, release_t_closeness, *dp):
        opts = {o for p in cmd.params for o in p.opts}
        assert {"--qi", "--sensitive", "--keep", "--drop-other"} <= opts, cmd.name


def test_released_roles_for_releases_without_pass_through() -> None:
    """The helper the DP releases can use: roles are declarative, nothing passes through.
    Mutant caught: a --keep column accepted (it would be published unchanged)."""
    from privlab.commands._csvio import released_roles

    header = ["id", "a", "b"]
    r = released_roles(AttributeRoles(qi="a", sensitive="b", drop_other=True), header,
                       ["a", "b"])
    assert (r.quasi_identifiers, r.sensitive, r.dropped) == (("a",), ("b",), ("id",))
    assert r.pass_through == ()
    with pytest.raises(InvalidParameter, match="publishes no column unchanged"):
        released_roles(AttributeRoles(keep="id"), header, ["a", "b"])
    with pytest.raises(InvalidParameter, match="'id' has a role but is not released"):
        released_roles(AttributeRoles(qi="id"), header, ["a", "b"])
    with pytest.raises(InvalidParameter, match="not released: id"):
        released_roles(AttributeRoles(), header, ["a", "b"])


def test_dp_release_roles_are_declarative_and_listed(tmp_path: Path) -> None:
    """A DP release takes the shared roles: --qi/--sensitive name released columns and are
    listed in the certificate, --keep is refused (nothing passes through), and columns with no
    role need --drop-other.  Mutant caught: a --keep column published unchanged."""
    import json

    from privlab.cli import main

    src = tmp_path / "in.csv"
    src.write_text("id,a,b\n" + "\n".join(f"{i},{i % 50},{(7 * i) % 50}" for i in range(40))
                   + "\n")
    out = tmp_path / "out.csv"
    base = ["release", "insensitive-mdav-dp", "--input", str(src), "--output", str(out),
            "--epsilon", "1", "--k", "5", "--columns", "a,b", "--bounds", "0:50", "--seed", "1"]
    assert main([*base, "--keep", "id"]) == 2 and not out.exists()
    assert main(base) == 2 and not out.exists()  # id has no role
    assert main([*base, "--qi", "a", "--sensitive", "b", "--drop-other"]) == 0
    cert = json.loads(Path(f"{out}.cert.json").read_text())
    assert cert["roles"]["quasi_identifiers"] == ["a"]
    assert cert["roles"]["sensitive"] == ["b"] and cert["dropped_columns"] == ["id"]
    assert out.read_text().splitlines()[0] == "a,b"
