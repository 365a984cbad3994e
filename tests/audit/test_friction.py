"""The friction of auditing real libraries (issue 33, "What to build" 6): ``bins`` from the
command line and suite files through one table of audit_pair options, samplers that ignore
``rng`` detected and warned about, one rule for worker defaults, ``--search`` reporting its
candidates, and the data-set search in suite files (with a clean error for a mechanism of data
sets given scalars)."""

from __future__ import annotations

import inspect
import json
import pathlib
import random
import sys
import warnings
from typing import Any

import numpy as np
import pytest

from privlab import _audit_options as audit_options
from privlab.audit import audit_mechanism, audit_pair
from privlab.audit import suite as control_suite
from privlab.audit import usersuite as us
from privlab.audit.controls import make
from privlab.audit.datasets import dataset_candidates
from privlab.audit.replay import counterexample_of
from privlab.audit.result import SeedWarning
from privlab.audit.usercode import PROBE_OUTPUTS, check_seedable, seed_probe
from privlab.cli import main
from privlab.commands import audit as audit_cmd
from privlab.commands import audit_suite as audit_suite_cmd
from privlab.errors import InvalidParameter

USER_MODULE = '''
import numpy as np

def good(x):                      # x + Laplace(1): 1-DP for |x - x'| <= 1
    return lambda n, rng: x + rng.laplace(0.0, 1.0, n)

def own_generator(x):             # ignores rng: draws from a generator of its own (seeded
    g = np.random.default_rng(12345)  # here only so that the test does not depend on luck)
    return lambda n, rng: x + g.laplace(0.0, 1.0, n)

class Mean:                       # a mechanism of data sets: mean of column 0 + Laplace(1/n)
    epsilon = 1.0
    sensitivity = 1.0
    def release(self, x, *, rng):
        rows, cols = np.asarray(x, dtype=float).shape
        return float(np.asarray(x)[:, 0].mean()) + rng.laplace(0.0, 1.0 / rows)

mean = Mean()

def mean_factory(x):              # the same as a factory
    rows, cols = np.asarray(x, dtype=float).shape
    m = float(np.asarray(x)[:, 0].mean())
    return lambda n, rng: m + rng.laplace(0.0, 1.0 / rows, n)
'''


@pytest.fixture
def user_dir(tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch) -> pathlib.Path:
    """The user's module in a temporary folder (the current directory)."""
    (tmp_path / "frictionmechs.py").write_text(USER_MODULE)
    monkeypatch.chdir(tmp_path)
    sys.modules.pop("frictionmechs", None)
    return tmp_path


def _audit(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["audit", *args])
    out, err = capsys.readouterr()
    return code, out, err


def _suite(tmp: pathlib.Path, body: str) -> pathlib.Path:
    p = tmp / "suite.toml"
    p.write_text(body)
    return p


# ---- 1. bins from the command line and suite files, one table of options -----------------


def test_pair_options_table_is_the_single_source() -> None:
    """Every entry of the table is an audit_pair keyword, a suite key (in [suite] and per
    audit) and a ``privlab audit`` option; ``bins`` is one of them."""
    pair_kw = inspect.signature(audit_pair).parameters
    cli_params = {p.name for p in audit_cmd.audit.params}
    assert "bins" in {o.key for o in audit_options.PAIR_OPTIONS}
    for o in audit_options.PAIR_OPTIONS:
        assert o.key in pair_kw
        assert o.key in us.AUDIT_KEYS and o.key in us.SUITE_KEYS
        assert o.key in cli_params


@pytest.mark.parametrize("value", [True, 1.5, "200", 1, 0, -3, 10_001])
def test_bins_is_validated(value: Any) -> None:
    with pytest.raises(InvalidParameter, match=r"^--bins=.* must be an integer from 2 to 10000"):
        audit_options.check_bins("--bins", value)


def test_bins_bounds_are_accepted() -> None:
    assert audit_options.check_bins("--bins", 2) == 2
    assert audit_options.check_bins("--bins", 10_000) == 10_000


def test_flag_checker_for_boolean_options() -> None:
    assert audit_options.check_flag("x", False) is False
    with pytest.raises(InvalidParameter, match="x=1 must be true or false"):
        audit_options.check_flag("x", 1)


def test_cli_bins_reaches_the_auditor(capsys: pytest.CaptureFixture[str]) -> None:
    """``privlab audit laplace --bins 7`` audits with 7 pilot cells: the number of candidate
    events is that of ``audit_mechanism(..., bins=7)`` and not that of the default."""
    code, out, _ = _audit(capsys, "laplace", "--samples", "20000", "--bins", "7", "--workers",
                          "1", "--format", "json")
    assert code == 0
    got = json.loads(out)["candidates"]
    want = audit_mechanism(make("laplace"), samples=20_000, rng=0, bins=7).candidates
    default = audit_mechanism(make("laplace"), samples=20_000, rng=0).candidates
    assert got == want != default


def test_cli_bins_errors_are_one_line(capsys: pytest.CaptureFixture[str],
                                      tmp_path: pathlib.Path) -> None:
    code, out, err = _audit(capsys, "laplace", "--samples", "2000", "--bins", "1")
    assert code == 2 and out == ""
    assert err.strip().splitlines() == ["error: --bins=1 must be an integer from 2 to 10000"]
    cex = tmp_path / "cex.json"
    assert _audit(capsys, "laplace", "--samples", "2000", "--save", str(cex))[0] == 0
    code, _, err = _audit(capsys, "--replay", str(cex), "--bins", "50")
    assert code == 2 and "--replay" in err and "--bins" in err and "Traceback" not in err


def test_suite_bins_default_and_override(user_dir: pathlib.Path,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """``[suite] bins`` is the default of every audit (pilots included), an audit's own key
    wins, and the value reaches every audit_pair call."""
    p = _suite(user_dir, "[suite]\nbins = 40\nsamples = 2000\n"
                         "[[audit]]\nname = 'a'\nsampler = 'frictionmechs.py:good'\n"
                         "pairs = [[0, 1]]\nclaimed_epsilon = 1\n"
                         "[[audit]]\nname = 'b'\nsampler = 'frictionmechs.py:good'\n"
                         "search = { domain = [0, 2] }\nclaimed_epsilon = 1\nbins = 900\n")
    s = us.load_suite(p)
    assert [a.pair_options for a in s.audits] == [{"bins": 40}, {"bins": 900}]
    seen: list[Any] = []
    real = us.audit_pair

    def spy(*args: Any, **kw: Any) -> Any:
        seen.append(kw.get("bins"))
        return real(*args, **kw)

    monkeypatch.setattr(us, "audit_pair", spy)
    for a in s.audits:
        us.run_audit(a, 0.01, 0)
    assert seen[0] == 40 and len(seen) > 2 and set(seen[1:]) == {900}


@pytest.mark.parametrize("where, line, words", [
    ("audit", "bins = 1.5", "audit 'a': bins=1.5 must be an integer"),
    ("audit", "bins = true", "audit 'a': bins=True must be an integer"),
    ("audit", "bins = 1", "audit 'a': bins=1 must be an integer from 2 to 10000"),
    ("suite", "bins = 20000", "[suite]: bins=20000 must be an integer"),
])
def test_suite_bins_errors(user_dir: pathlib.Path, where: str, line: str, words: str) -> None:
    head = f"[suite]\n{line}\n" if where == "suite" else ""
    body = "" if where == "suite" else f"{line}\n"
    p = _suite(user_dir, f"{head}[[audit]]\nname = 'a'\nsampler = 'frictionmechs.py:good'\n"
                         f"pairs = [[0, 1]]\nclaimed_epsilon = 1\n{body}")
    with pytest.raises(InvalidParameter) as e:
        us.load_suite(p)
    assert words in str(e.value)


# ---- 2. samplers that ignore rng ---------------------------------------------------------


def _seeded(n: int, rng: np.random.Generator) -> Any:
    return rng.laplace(0.0, 1.0, n)


def _global_numpy(n: int, rng: np.random.Generator) -> Any:
    return np.random.laplace(0.0, 1.0, n)  # noqa: NPY002 (the point: the global generator)


def _global_python(n: int, rng: np.random.Generator) -> Any:
    return np.array([random.random() for _ in range(n)])


def _own() -> Any:
    g = np.random.default_rng(7)
    return lambda n, rng: g.laplace(0.0, 1.0, n)


def _fixed(n: int, rng: np.random.Generator) -> Any:
    return np.random.default_rng(3).laplace(0.0, 1.0, n)


def _low_information(n: int, rng: np.random.Generator) -> Any:
    return np.r_[np.zeros(n - 1), 1.0]  # ignores rng, but 2 nats could repeat by chance


def _constant(n: int, rng: np.random.Generator) -> Any:
    return np.zeros(n)


def _buffer() -> Any:
    buf = np.empty(PROBE_OUTPUTS)

    def sample(n: int, rng: np.random.Generator) -> Any:
        out = buf if n == buf.size else np.empty(n)
        out[:] = rng.laplace(0.0, 1.0, n)
        return out

    return sample


@pytest.mark.parametrize("make_sampler, want", [
    (lambda: _seeded, None),
    (lambda: _global_numpy, None),     # the auditor seeds the global generators per draw
    (lambda: _global_python, None),
    (lambda: _low_information, None),  # too little information to tell from chance
    (lambda: _constant, None),
    (_buffer, None),                   # returns the same buffer each call: compared as copies
    (_own, "the same seed gave different outputs"),
    (lambda: _fixed, "two different seeds gave the same outputs"),
])
def test_seed_probe(make_sampler: Any, want: str | None) -> None:
    assert seed_probe(make_sampler(), "s") == want


def test_seed_probe_leaves_global_state_alone() -> None:
    np.random.seed(11)  # noqa: NPY002
    random.seed(11)
    before = (np.random.random(), random.random())  # noqa: NPY002
    np.random.seed(11)  # noqa: NPY002
    random.seed(11)
    seed_probe(_global_numpy, "s")
    seed_probe(_global_python, "s")
    assert (np.random.random(), random.random()) == before  # noqa: NPY002


def test_seed_probe_failures_are_left_to_the_audit() -> None:
    def boom(n: int, rng: np.random.Generator) -> Any:
        raise RuntimeError("boom")

    assert seed_probe(boom, "s") is None
    assert check_seedable([boom], "s") is True


class _OwnNoise:
    """A lab-style additive mechanism whose noise ignores rng."""

    name, epsilon, sensitivity = "own-noise", 1.0, 1.0

    def __init__(self) -> None:
        self.g = np.random.default_rng(1)

    def release(self, values: Any, *, rng: Any) -> Any:
        v = np.asarray(values, dtype=float)
        return v + self.g.laplace(0.0, 1.0, v.shape)


def test_audit_mechanism_warns_once_and_reports_unseedable() -> None:
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        r = audit_mechanism(_OwnNoise(), samples=2000, rng=0)
    msgs = [str(x.message) for x in w if issubclass(x.category, SeedWarning)]
    assert len(msgs) == 1 and "own-noise" in msgs[0] and "ignores rng" in msgs[0]
    assert "\n" not in msgs[0] and "will not reproduce" in msgs[0]
    assert w[0].filename == __file__  # the warning points at the caller
    assert r.seedable is False and r.to_dict()["seedable"] is False
    # declared: audit_pair's own warning only, no probe
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        audit_mechanism(_OwnNoise(), samples=2000, rng=0, seedable=False)
    assert [str(x.message) for x in w if "ignores rng (" in str(x.message)] == []


def test_probe_changes_nothing_for_seeded_mechanisms() -> None:
    """A well-behaved mechanism: no warning, and the result is the one of an audit without
    the probe (``seedable=False`` skips it) — the probe never draws from the caller's rng."""
    mech = make("laplace")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        probed = audit_mechanism(mech, samples=3000, rng=np.random.default_rng(5)).to_dict()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SeedWarning)
        plain = audit_mechanism(mech, samples=3000, rng=np.random.default_rng(5),
                                seedable=False).to_dict()
    for d in (probed, plain):
        d.pop("seconds")
    assert probed.pop("seedable") is True and plain.pop("seedable") is False
    assert probed == plain


def test_cli_warns_one_line_on_stderr(user_dir: pathlib.Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    args = ("--sampler", "frictionmechs.py:own_generator", "--pair", "0", "1",
            "--claimed-epsilon", "1", "--samples", "3000", "--workers", "1", "--format", "json")
    code, out, err = _audit(capsys, *args)
    warn = [ln for ln in err.splitlines() if "ignores rng" in ln]
    assert code == 0 and json.loads(out)["seedable"] is False
    assert len(warn) == 1 and warn[0].startswith("warning: ")
    assert "frictionmechs.py:own_generator" in warn[0] and "--unseedable" in warn[0]
    code, out, err = _audit(capsys, *args, "--unseedable")
    assert code == 0 and "ignores rng (" not in err
    code, out, err = _audit(capsys, "--sampler", "frictionmechs.py:good", *args[2:])
    assert code == 0 and "warning" not in err and json.loads(out)["seedable"] is True


def test_suite_check_and_run_warn(user_dir: pathlib.Path,
                                  capsys: pytest.CaptureFixture[str]) -> None:
    p = _suite(user_dir, "[suite]\nsamples = 2000\n"
                         "[[audit]]\nname = 'own'\nsampler = 'frictionmechs.py:own_generator'\n"
                         "pairs = [[0, 1]]\nclaimed_epsilon = 1\n"
                         "[[audit]]\nname = 'good'\nsampler = 'frictionmechs.py:good'\n"
                         "pairs = [[0, 1]]\nclaimed_epsilon = 1\n")
    for cmd in (["check", str(p)], ["run", str(p), "--workers", "1", "--format", "json"]):
        code = main(["audit-suite", *cmd])
        out, err = capsys.readouterr()
        warn = [ln for ln in err.splitlines() if "ignores rng" in ln]
        assert code == 0, err
        assert len(warn) == 1 and warn[0].startswith("warning: audit 'own'"), err
    seed = {r["name"]: r["seedable"] for r in json.loads(out)["results"]}
    assert seed == {"own": False, "good": True}


# ---- 3. one rule for workers -------------------------------------------------------------


def test_worker_defaults_follow_one_rule() -> None:
    """Python API: 1 process unless asked; every command: all cores (None) unless --workers."""
    for fn in (audit_pair, audit_mechanism, control_suite.run, control_suite.run_suite,
               us.run_audit, us.run_suite_file):
        assert inspect.signature(fn).parameters["workers"].default == 1, fn.__name__
    run_cmd = audit_suite_cmd.audit_suite.commands["run"]
    for cmd in (audit_cmd.audit, run_cmd):
        (opt,) = [p for p in cmd.params if p.name == "workers"]
        assert opt.default is None, cmd.name


def test_audit_suite_run_uses_all_cores_by_default(user_dir: pathlib.Path,
                                                   monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    p = _suite(user_dir, "[[audit]]\nname = 'g'\nsampler = 'frictionmechs.py:good'\n"
                         "pairs = [[0, 1]]\nclaimed_epsilon = 1\nsamples = 1000\n")
    seen: list[Any] = []
    real = us.run_suite_file

    def spy(*args: Any, **kw: Any) -> Any:
        seen.append(kw["workers"])
        return real(*args, **{**kw, "workers": 1})

    monkeypatch.setattr(us, "run_suite_file", spy)
    assert main(["audit-suite", "run", str(p)]) == 0
    assert main(["audit-suite", "run", str(p), "--workers", "3"]) == 0
    capsys.readouterr()
    assert seen == [None, 3]


def test_box_staircase_gets_workers_and_bins(monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    import privlab.audit.multivariate as mv

    seen: dict[str, Any] = {}
    real = mv.audit_shift

    def spy(*args: Any, **kw: Any) -> Any:
        seen.update(kw)
        return real(*args, **{**kw, "workers": 1})

    monkeypatch.setattr(mv, "audit_shift", spy)
    code, _, _ = _audit(capsys, "box-staircase", "--samples", "3000", "--bins", "30",
                        "--workers", "2")
    assert code == 0 and seen["workers"] == 2 and seen["bins"] == 30


# ---- 4. --search reports its candidates --------------------------------------------------


def test_search_reports_every_candidate(user_dir: pathlib.Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    args = ("--sampler", "frictionmechs.py:good", "--search", "0,3", "--claimed-epsilon", "1",
            "--samples", "4000", "--workers", "1")
    code, out, _ = _audit(capsys, *args, "--format", "json", "--save", "s.json")
    d = json.loads(out)
    s = d["search"]
    pairs = [c["pair"] for c in s["candidates"]]
    assert code == 0 and s["kind"] == "scalars" and s["objective"] == "epsilon"
    assert len(pairs) == 10 and [0.0, 1.0] in pairs and [3.0, 2.0] in pairs
    assert all(isinstance(c["pilot_bound"], float) for c in s["candidates"])
    best = max(range(10), key=lambda i: s["candidates"][i]["pilot_bound"])
    assert s["chosen"] == best and d["pair"] == pairs[best]
    counterexample_of(json.loads((user_dir / "s.json").read_text()))  # still replayable
    code, out, _ = _audit(capsys, *args)
    assert code == 0 and "search: 10 candidate pair(s)" in out
    assert out.count("<- audited") == 1
    assert all(json.dumps(p) in out for p in pairs)
    # an audit of explicit pairs has no search
    code, out, _ = _audit(capsys, "--sampler", "frictionmechs.py:good", "--pair", "0", "1",
                          *args[4:], "--format", "json")
    assert code == 0 and "search" not in json.loads(out)


# ---- 5. data-set search in suites; data-set mechanisms given scalars ---------------------


def test_dataset_search_keys_are_parsed(user_dir: pathlib.Path) -> None:
    p = _suite(user_dir, "[[audit]]\nname = 'm'\nmechanism = 'frictionmechs.py:mean'\n"
                         "search = { datasets = true, domain = [[0, 1], [0, 5]], "
                         "relation = 'both', k = 3 }\nclaimed_epsilon = 1\n")
    a = us.load_suite(p).audits[0]
    assert a.datasets == us.DatasetSearch(domain=((0.0, 1.0), (0.0, 5.0)), size=8,
                                          relation="both", k=3)
    assert a.domain is None and a.searches
    got = a.candidates(np.random.SeedSequence(1))
    want = dataset_candidates([[0, 1], [0, 5]], size=8, k=3, relation="both",
                              rng=np.random.default_rng(np.random.SeedSequence(1)))
    assert [lab for *_, lab in got] == [lab for *_, lab in want]
    assert all(np.array_equal(x, y) for (x, _, _), (y, _, _) in zip(got, want, strict=True))


@pytest.mark.parametrize("search, words", [
    ("{ domain = [0, 1], size = 4 }", "search.size belongs to a search of data sets"),
    ("{ datasets = true, domain = [0, 1], relation = 'swap' }", "relation"),
    ("{ datasets = true, domain = [0, true] }", "search.domain=True must be a number"),
    ("{ datasets = true, domain = [[0, 1], [2, 1]] }", "lo < hi in every column"),
    ("{ datasets = true, domain = [0, 1], size = 2, k = 3 }", "search.size=2 must be >="),
    ("{ datasets = 'yes', domain = [0, 1] }", "search.datasets='yes' must be true or false"),
    ("{ datasets = true, domain = [0, 1], sensitivity = 1 }", "unknown key(s) sensitivity"),
])
def test_dataset_search_errors(user_dir: pathlib.Path, search: str, words: str) -> None:
    p = _suite(user_dir, f"[[audit]]\nname = 'm'\nmechanism = 'frictionmechs.py:mean'\n"
                         f"search = {search}\nclaimed_epsilon = 1\n")
    with pytest.raises(InvalidParameter) as e:
        us.load_suite(p)
    assert words in str(e.value) and "audit 'm'" in str(e.value)


def test_dataset_search_runs_and_reports(user_dir: pathlib.Path) -> None:
    p = _suite(user_dir, "[suite]\nsamples = 2000\n"
                         "[[audit]]\nname = 'm'\nmechanism = 'frictionmechs.py:mean'\n"
                         "search = { datasets = true, domain = [0, 1], size = 4 }\n"
                         "claimed_epsilon = 1\n"
                         "[[audit]]\nname = 'f'\nsampler = 'frictionmechs.py:mean_factory'\n"
                         "search = { datasets = true, domain = [[0, 1], [0, 3]], size = 5 }\n"
                         "claimed_epsilon = 1\n")
    res = us.run_suite_file(us.load_suite(p))
    assert res.exit_code == 0, res.results
    for r in res.results:
        s = r["search"]
        n = len(dataset_candidates((0, 1), size=4) if r["name"] == "m" else
                dataset_candidates([[0, 1], [0, 3]], size=5))
        assert s["kind"] == "datasets" and len(s["candidates"]) == n > 2
        assert all(c["label"] and len(c["pair"]) == 2 for c in s["candidates"])
        assert r["pair"] == s["candidates"][s["chosen"]]["pair"]
        assert r["verdict"] == "consistent" and r["seedable"] is True
    assert counterexample_of(res.results[0])["spec"]["pair"] == res.results[0]["pair"]


def test_dataset_mechanism_given_scalars_is_a_clean_error(user_dir: pathlib.Path) -> None:
    p = _suite(user_dir, "[suite]\nsamples = 2000\n"
                         "[[audit]]\nname = 'm'\nmechanism = 'frictionmechs.py:mean'\n"
                         "search = { domain = [0, 1] }\nclaimed_epsilon = 1\n"
                         "[[audit]]\nname = 'f'\nsampler = 'frictionmechs.py:mean_factory'\n"
                         "pairs = [[0, 1]]\nclaimed_epsilon = 1\n")
    res = us.run_suite_file(us.load_suite(p))
    for r in res.results:
        assert r["verdict"] == "error" and "\n" not in r["error"]
        assert "scalar input 0.0" in r["error"] and "datasets = true" in r["error"]
    with pytest.raises(InvalidParameter, match=r"query values .*needs domain=\(lo, hi\)"):
        audit_mechanism(us.load_suite(p).audits[0].resolve(), samples=2000, rng=0)
