"""Audit suites of a user's own mechanisms, kept in a TOML file (``privlab audit-suite``).

A suite is a list of audits; each names a sampler factory (``MODULE:FACTORY``, ``factory(input)
-> (n, rng) -> array``) or a mechanism object (``MODULE:OBJ`` with ``release(values, *, rng)``),
its neighbouring inputs (``pairs``) or a search domain, and the claim (ε, δ)::

    [suite]                       # optional
    alpha = 0.01                  # family-wise false-alarm budget of the whole run
    samples = 100000              # default per audit (outputs per side)
    timeout = 3600                # default per audit (seconds; see "Containment")
    bins = 200                    # default per audit: an audit_pair option (below)

    [[audit]]
    name = "team-laplace"
    sampler = "mymechs:good"
    pairs = [[0, 1]]              # or  search = { domain = [0, 10], sensitivity = 1 }
    claimed_epsilon = 1.0
    delta = 0.0                   # optional
    samples = 100000              # optional
    expect = "consistent"         # optional; "violation" for a known-bad control
    tags = ["noise"]              # optional
    seedable = false              # optional: the sampler ignores rng (audited with a warning)
    timeout = 600                 # optional: seconds this audit may take
    bins = 1000                   # optional: an audit_pair option (below)

Options of the auditor.  The keys of
:data:`privlab._audit_options.PAIR_OPTIONS` (``bins``: the pilot partition's quantile cells,
default 200) go to :func:`~privlab.audit.audit_pair` in every audit of the entry (pilots
included); ``[suite]`` sets a default, an audit's own key wins.  The same table makes them
options of ``privlab audit`` (``--bins``), checked the same way.

Data-set search.  ``search = { datasets = true, domain = [lo, hi] | [[lo, hi], …], size = 6,
relation = "substitute" | "add_remove" | "both", k = 2 }`` is the data-set search of the Python
API (:func:`privlab.audit.datasets.dataset_candidates`, as in
:func:`privlab.audit.audit_mechanism` with ``domain=``): small neighbouring data sets of
``size`` records (default max(6, 2k + 2) when ``k`` is given, else 6) in the box ``domain``,
each candidate scored by a pilot audit and the worst audited.  The factory or ``release`` gets
each data set as an array of shape (size, columns), as it gets a CSV file of ``pairs``.
``search = { domain = [lo, hi], sensitivity = 1 }`` (no ``datasets``) searches scalar inputs.
Every candidate and its pilot bound is reported (``search`` in the result).

Every key is checked by type (a string ``claimed_epsilon = "1"``, a boolean in a domain or a
pair, a non-finite number are errors) and an unknown key is an error.  There is no per-audit
``confidence``: the run's error budget is ``alpha``, α/m per audit (below).

Error control.  The run spends one family-wise error budget α over its m audits (Bonferroni):
audit i reports ``violation`` only if (1) its bound, at confidence 1 − α/m, exceeds the claim,
and (2) a replay of the selected event on *fresh* samples, again at confidence 1 − α/m, also
exceeds it.  Step (2) alone is a valid level-α/m test of the fixed event (the event was chosen
on other samples), so for a suite of correct mechanisms P(any violation reported) ≤ α, whatever
the seed; step (1) only decides which audits are replayed.  A pair list of K pairs splits the
audit's share again (α/(mK) per pair, the largest bound is kept); a search scores candidate
pairs by pilot audits on independent streams and audits the chosen pair on fresh samples.

Samplers that ignore ``rng`` (:func:`privlab.audit.usercode.seed_probe`): unless the audit
says ``seedable = false``, its first pair's samplers are probed in the audit's child process
before it runs; one that ignores ``rng`` gets one warning line on stderr and the result says
``seedable: false`` (the bounds stay valid for independent draws; the seed does not reproduce
them).  ``check`` probes too.

Workers: :func:`run_suite_file` and :func:`run_audit` draw in one process unless ``workers`` is
given (``None``: all cores), as everywhere in the Python API; ``privlab audit-suite run`` uses
all cores unless ``--workers``.

Containment and confinement.  The user's code runs only in child processes
(:func:`privlab.audit.usercode.contained`), one per audit for each step: resolving its
reference, drawing outputs (``check``) and the audit itself, each under the audit's
``timeout``.  References and input files are relative to the suite file's folder and must stay
inside it (its real path) unless the suite is loaded with ``allow_outside=True``
(``--allow-outside``); a module not on ``sys.path`` is looked for in that folder only.

A run always leaves a report.  Every reference is imported and its contract checked before any
audit runs (:func:`resolve_references`: all bad references in one ``InvalidParameter``); an audit
that raises, exits, crashes or times out while it runs becomes an entry with verdict
``"error"`` and a one-line message naming it, and the other audits still run (it has no verdict:
the run's exit code is 2).
"""

from __future__ import annotations

import csv
import datetime
import functools
import inspect
import io
import math
import pathlib
import time
import tomllib
import zlib
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import attrs
import numpy as np

from privlab import _validate as v
from privlab._audit_options import MAX_SAMPLES, PAIR_OPTIONS
from privlab.audit import datasets as ds
from privlab.audit.auditor import AuditResult, audit_pair
from privlab.audit.replay import replay
from privlab.audit.usercode import (
    DEFAULT_TIMEOUT,
    ContainedError,
    check_seedable,
    check_timeout,
    code_identity,
    contained,
    factory_sampler,
    load_reference,
    mechanism_sampler,
)
from privlab.errors import InvalidParameter

__all__ = ["AuditSpec", "DatasetSearch", "Suite", "SuiteResult", "check_suite", "load_suite",
           "parse_audit", "resolve_references", "run_audit", "run_suite_file"]

EXPECT = ("consistent", "violation")
AUDIT_KEYS = {"name", "sampler", "mechanism", "pairs", "search", "claimed_epsilon", "delta",
              "samples", "expect", "tags", "float_bits", "objective", "seedable", "timeout",
              *(o.key for o in PAIR_OPTIONS)}
SUITE_KEYS = {"alpha", "samples", "seed", "name", "timeout", *(o.key for o in PAIR_OPTIONS)}
SEARCH_KEYS = {"domain", "sensitivity"}
DATASET_SEARCH_KEYS = {"datasets", "domain", "size", "relation", "k"}
NOT_A_KEY = {"confidence": "a suite file sets no confidence: its error budget is [suite] alpha, "
                           "spent as alpha/m per audit (every violation confirmed at that "
                           "level), which another confidence would break; remove the key"}
"""Keys a suite file might be expected to hold, and why they are refused."""


@attrs.frozen(kw_only=True)
class DatasetSearch:
    """``search = { datasets = true, … }`` of an audit (module docstring, "Data-set search")."""

    domain: tuple[tuple[float, float], ...]
    size: int = ds.DEFAULT_SIZE
    relation: str = "substitute"
    k: int | None = None

    def candidates(self, rng: Any) -> list[tuple[Any, Any, str]]:
        """The neighbouring data sets ``(x, x', label)`` of
        :func:`privlab.audit.datasets.dataset_candidates` (its random base data set from
        ``rng``)."""
        return ds.dataset_candidates(self.domain, size=self.size, k=self.k,
                                     relation=self.relation, rng=rng)


@attrs.frozen(kw_only=True)
class AuditSpec:
    """One audit of a suite file (validated; inputs already read)."""

    name: str
    reference: str
    kind: str  # "sampler" | "mechanism"
    pairs: tuple[tuple[Any, Any], ...] = ()
    domain: tuple[float, float] | None = None
    sensitivity: float = 1.0
    claimed_epsilon: float
    delta: float = 0.0
    samples: int
    expect: str = "consistent"
    tags: tuple[str, ...] = ()
    float_bits: bool = False
    objective: str = "epsilon"
    base: str = "."
    seedable: bool = True
    """False: the user's sampler ignores ``rng`` (audited with a warning; no same-seed
    guarantee)."""
    timeout: float = DEFAULT_TIMEOUT
    """Seconds each contained step of this audit may take."""
    confine: bool = False
    """References resolve inside ``base`` only (a suite file without ``--allow-outside``)."""
    options: tuple[tuple[str, Any], ...] = ()
    """The :data:`~privlab._audit_options.PAIR_OPTIONS` this audit sets (key, value), sorted;
    passed to every :func:`~privlab.audit.audit_pair` call of the audit."""
    datasets: DatasetSearch | None = None
    """A data-set search (then ``domain`` is None)."""

    @property
    def pair_options(self) -> dict[str, Any]:
        return dict(self.options)

    @property
    def searches(self) -> bool:
        return self.domain is not None or self.datasets is not None

    @property
    def label(self) -> str:
        """How errors name this audit: ``audit 'NAME' (KIND REFERENCE)``."""
        return f"audit {self.name!r} ({self.kind} {self.reference})"

    def contained(self, fn: Callable[[Callable[[str], None]], Any],
                  progress: Callable[[str], Any] | None = None) -> Any:
        """``fn(say)`` run in a contained child process under this audit's timeout
        (:func:`privlab.audit.usercode.contained`; errors name the audit)."""
        return contained(fn, label=self.label, timeout=self.timeout, progress=progress,
                         timeout_name="the audit's timeout key, [suite] timeout or --timeout",
                         mention=f"audit {self.name!r}")

    def resolve(self) -> Any:
        """The referenced object, its contract checked without calling it: a factory taking
        one input, or an object with ``release`` (``InvalidParameter`` naming the audit)."""
        what = f"audit {self.name!r} {self.kind}"
        obj = load_reference(self.reference, what=what, base=pathlib.Path(self.base),
                             confine=self.confine)
        if self.kind == "sampler" and not (callable(obj) and _takes_one(obj)):
            raise InvalidParameter(f"{what}={self.reference!r} must be a factory taking one "
                                   f"input and returning a sampler (n, rng) -> array")
        if self.kind == "mechanism" and not callable(getattr(obj, "release", None)):
            raise InvalidParameter(f"{what}={self.reference!r} must have a method "
                                   f"release(values, *, rng)")
        return obj

    def sampler(self, value: Any) -> Callable[[int, np.random.Generator], Any]:
        obj = load_reference(self.reference, what=f"audit {self.name!r} {self.kind}",
                             base=pathlib.Path(self.base), confine=self.confine)
        label = self.label
        if self.kind == "sampler":
            return factory_sampler(obj, value, label)
        return mechanism_sampler(obj, value, label)

    def candidates(self, rng: Any = 0) -> list[tuple[Any, Any, str | None]]:
        """Every pair to audit or to score by a pilot: ``(a, b, label)`` (label: a data-set
        candidate's description, else None); ``rng`` draws a data-set search's random base."""
        if self.datasets is not None:
            return list(self.datasets.candidates(np.random.default_rng(rng)))
        return [(a, b, None) for a, b in self.candidate_pairs()]

    def candidate_pairs(self, rng: Any = 0) -> list[tuple[Any, Any]]:
        if self.datasets is not None:
            return [(a, b) for a, b, _ in self.candidates(rng)]
        if self.pairs:
            return list(self.pairs)
        assert self.domain is not None
        lo, hi = self.domain
        top = hi - self.sensitivity
        xs = np.unique(np.linspace(lo, top, 5)) if top > lo else np.array([lo])
        out = []
        for x in xs:
            out += [(float(x), float(x) + self.sensitivity), (float(x) + self.sensitivity,
                                                               float(x))]
        return out


@attrs.frozen(kw_only=True)
class Suite:
    name: str
    path: str
    alpha: float
    seed: int
    audits: tuple[AuditSpec, ...]


def _read_input(x: Any, base: pathlib.Path, where: str, confine: bool = False) -> Any:
    """A finite number, a list of them (a vector) or a CSV/JSON file name (a data set)
    relative to ``base`` (inside it when ``confine``), read through :mod:`privlab._input`."""
    if isinstance(x, str):
        return _read_data_file(x, base, where, confine)
    if isinstance(x, bool) or not isinstance(x, int | float | list):
        raise InvalidParameter(f"{where}: input {x!r} must be a number, a list or a file name")
    _finite(x, where)
    try:
        return float(x) if not isinstance(x, list) else np.asarray(x, dtype=float)
    except (TypeError, ValueError):
        raise InvalidParameter(f"{where}: input {x!r} must be numeric") from None


def _finite(x: Any, where: str) -> None:
    """``x`` holds finite numbers only (nested lists allowed; no bool, string, NaN, ±inf)."""
    stack = [x]
    while stack:
        y = stack.pop()
        if isinstance(y, list):
            stack.extend(y)
        elif isinstance(y, bool) or not isinstance(y, int | float) or not math.isfinite(y):
            raise InvalidParameter(f"{where}: input {_brief(x)} must hold finite numbers only "
                                   f"(found {y!r})")


def _brief(x: Any) -> str:
    t = repr(x)
    return t if len(t) <= 80 else t[:79] + "…"


def _read_data_file(name: str, base: pathlib.Path, where: str, confine: bool) -> Any:
    from privlab import _input

    p = (base / name).expanduser()
    shown = f"{where}: input file {name!r}"
    if not p.exists():
        raise InvalidParameter(f"{shown} does not exist")
    if confine:
        root, real = base.expanduser().resolve(), p.resolve()
        if not real.is_relative_to(root):
            raise InvalidParameter(f"{shown} is outside the suite file's folder "
                                   f"{str(root)!r} ({str(real)!r}); inputs of a suite file "
                                   f"stay inside its folder (--allow-outside to permit it)")
    param = f"{where} input"
    try:
        if p.suffix.lower() == ".json":
            arr = np.asarray(_input.load_json(p, param), dtype=float)
        else:
            text = _input.read_text(p, param, cap=_input.TABLE_CAP)
            rows = [r for r in csv.reader(io.StringIO(text, newline=""))]
            body = rows[1:] if rows and not _numeric(rows[0]) else rows
            arr = np.asarray([[float(c) for c in r] for r in body], dtype=float)
    except (ValueError, TypeError, csv.Error) as exc:
        if isinstance(exc, InvalidParameter):
            raise
        raise InvalidParameter(f"{shown} is not numeric CSV/JSON ({exc})") from None
    if arr.size and not np.isfinite(arr).all():
        raise InvalidParameter(f"{shown} holds a non-finite value (NaN or ±inf)")
    return arr


def _numeric(row: Sequence[str]) -> bool:
    try:
        [float(c) for c in row]
    except ValueError:
        return False
    return True


def _number(where: str, key: str, x: Any) -> float:
    """A TOML number (integer or float; not a string or a boolean), finite."""
    if isinstance(x, bool) or not isinstance(x, int | float):
        raise InvalidParameter(f"{where}: {key}={x!r} must be a number, not "
                               f"{type(x).__name__}")
    if not math.isfinite(x):
        raise InvalidParameter(f"{where}: {key}={x!r} must be finite")
    return float(x)


def _count(where: str, key: str, x: Any) -> int:
    """A TOML integer from 1 to :data:`~privlab._audit_options.MAX_SAMPLES` (not a float, a
    string or a boolean)."""
    if isinstance(x, bool) or not isinstance(x, int) or not 1 <= x <= MAX_SAMPLES:
        raise InvalidParameter(f"{where}: {key}={x!r} must be an integer from 1 to "
                               f"{MAX_SAMPLES}")
    return x


def _text(where: str, key: str, x: Any) -> str:
    if not isinstance(x, str):
        raise InvalidParameter(f"{where}: {key}={x!r} must be a string")
    return x


def _refuse_unknown(where: str, raw: Mapping[str, Any], known: set[str]) -> None:
    for k, why in NOT_A_KEY.items():
        if k in raw:
            raise InvalidParameter(f"{where}: {k} is not a key here: {why}")
    unknown = sorted(str(k) for k in set(raw) - known)
    if unknown:
        raise InvalidParameter(f"{where}: unknown key(s) {', '.join(unknown)} (known: "
                               f"{', '.join(sorted(known))})")


def parse_audit(raw: Any, i: int, base: pathlib.Path, default_samples: int, *,
                default_timeout: float = DEFAULT_TIMEOUT, confine: bool = False,
                default_options: Mapping[str, Any] | None = None) -> AuditSpec:
    """One validated audit from its suite-file table ``raw`` (also the ``privlab audit
    --sampler`` options, gathered into the same table by the command).  ``confine``: references
    and input files must stay inside ``base`` (a suite file's folder); ``default_options``:
    the ``[suite]`` values of :data:`~privlab._audit_options.PAIR_OPTIONS` (checked)."""
    where = f"audit #{i + 1}"
    if not isinstance(raw, Mapping):
        raise InvalidParameter(f"{where} must be a table ([[audit]])")
    name = raw.get("name")
    if not isinstance(name, str) or not name.strip():
        raise InvalidParameter(f"{where}: name must be a non-empty string")
    where = f"audit {name!r}"
    _refuse_unknown(where, raw, AUDIT_KEYS)
    kinds = [k for k in ("sampler", "mechanism") if k in raw]
    if len(kinds) != 1 or not isinstance(raw[kinds[0]], str):
        raise InvalidParameter(f"{where}: exactly one of sampler = \"MODULE:FACTORY\" or "
                               f"mechanism = \"MODULE:OBJ\" is required")
    if ("pairs" in raw) == ("search" in raw):
        raise InvalidParameter(f"{where}: exactly one of pairs = [[a, b], …] or "
                               f"search = {{ domain = [lo, hi] }} is required")
    pairs: tuple[tuple[Any, Any], ...] = ()
    domain: tuple[float, float] | None = None
    datasets: DatasetSearch | None = None
    sens = 1.0
    if "pairs" in raw:
        ps = raw["pairs"]
        if not isinstance(ps, list) or not ps or not all(isinstance(p, list) and len(p) == 2
                                                         for p in ps):
            raise InvalidParameter(f"{where}: pairs={_brief(ps)} must be a non-empty list of "
                                   f"[a, b]")
        pairs = tuple((_read_input(a, base, where, confine), _read_input(b, base, where, confine))
                      for a, b in ps)
    else:
        s = raw["search"]
        if not isinstance(s, Mapping) or "domain" not in s:
            raise InvalidParameter(f"{where}: search={_brief(s)} must be {{ domain = [lo, hi] }}")
        if "datasets" in s and _flag(f"{where}: search.datasets", s["datasets"]):
            datasets = _dataset_search(where, s)
        else:
            domain, sens = _scalar_search(where, s)
    expect = _text(where, "expect", raw.get("expect", "consistent"))
    v.one_of(f"{where} expect", expect, EXPECT)
    tags = raw.get("tags", [])
    if not isinstance(tags, list) or not all(isinstance(t, str) for t in tags):
        raise InvalidParameter(f"{where}: tags={_brief(tags)} must be a list of strings")
    claim = _number(where, "claimed_epsilon", raw.get("claimed_epsilon")) \
        if "claimed_epsilon" in raw else None
    if claim is None or not claim > 0:
        raise InvalidParameter(f"{where}: claimed_epsilon={raw.get('claimed_epsilon')!r} must "
                               f"be a number > 0 (the epsilon the mechanism claims)")
    delta = _number(where, "delta", raw.get("delta", 0.0))
    if not 0.0 <= delta < 1.0:
        raise InvalidParameter(f"{where}: delta={delta!r} must lie in [0, 1)")
    objective = _text(where, "objective", raw.get("objective", "epsilon"))
    timeout = default_timeout if "timeout" not in raw else \
        check_timeout(f"{where} timeout", raw["timeout"])
    options = dict(default_options or {})
    for o in PAIR_OPTIONS:
        if o.key in raw:
            options[o.key] = o.check(f"{where}: {o.key}", raw[o.key])
    return AuditSpec(
        name=name, reference=raw[kinds[0]], kind=kinds[0], pairs=pairs, domain=domain,
        sensitivity=sens, claimed_epsilon=claim, delta=delta,
        samples=_count(where, "samples", raw.get("samples", default_samples)),
        expect=expect, tags=tuple(tags),
        float_bits=_flag(f"{where} float_bits", raw.get("float_bits", False)),
        base=str(base), seedable=_flag(f"{where} seedable", raw.get("seedable", True)),
        objective=v.one_of(f"{where} objective", objective, ("epsilon", "delta")),
        timeout=timeout, confine=confine, options=tuple(sorted(options.items())),
        datasets=datasets)


def _scalar_search(where: str, s: Mapping[str, Any]) -> tuple[tuple[float, float], float]:
    """``search = { domain = [lo, hi], sensitivity = S }``: (domain, S)."""
    only = sorted(set(s) & (DATASET_SEARCH_KEYS - SEARCH_KEYS - {"datasets"}))
    if only:
        raise InvalidParameter(f"{where}: search.{only[0]} belongs to a search of data sets: "
                               f"add datasets = true to the search table")
    _refuse_unknown(f"{where} search", s, SEARCH_KEYS | {"datasets"})
    d = s["domain"]
    if not (isinstance(d, list) and len(d) == 2):
        raise InvalidParameter(f"{where}: search.domain={_brief(d)} must be [lo, hi]")
    lo, hi = (_number(where, "search.domain", x) for x in d)
    if not hi > lo:
        raise InvalidParameter(f"{where}: search.domain={d!r} must have lo < hi")
    sens = _number(where, "search.sensitivity", s.get("sensitivity", 1.0))
    if not sens > 0:
        raise InvalidParameter(f"{where}: search.sensitivity={sens!r} must be > 0")
    return (lo, hi), sens


def _dataset_search(where: str, s: Mapping[str, Any]) -> DatasetSearch:
    """``search = { datasets = true, domain, size, relation, k }`` checked key by key."""
    _refuse_unknown(f"{where} search", s, DATASET_SEARCH_KEYS)
    d = s["domain"]
    cols = d if isinstance(d, list) and d and all(isinstance(c, list) for c in d) else [d]
    box = []
    for c in cols:
        if not (isinstance(c, list) and len(c) == 2):
            raise InvalidParameter(f"{where}: search.domain={_brief(d)} must be [lo, hi] or "
                                   f"[[lo, hi], …] (one per column)")
        lo, hi = (_number(where, "search.domain", x) for x in c)
        if not hi > lo:
            raise InvalidParameter(f"{where}: search.domain={_brief(d)} must have lo < hi in "
                                   f"every column")
        box.append((lo, hi))
    k = _count(where, "search.k", s["k"]) if "k" in s else None
    size = _count(where, "search.size", s["size"]) if "size" in s else \
        max(ds.DEFAULT_SIZE, 2 * k + 2) if k is not None else ds.DEFAULT_SIZE
    if size < max(2, k or 2):
        raise InvalidParameter(f"{where}: search.size={size!r} must be >= max(2, k)")
    relation = _text(where, "search.relation", s.get("relation", "substitute"))
    v.one_of(f"{where} search.relation", relation, ds.RELATIONS)
    return DatasetSearch(domain=tuple(box), size=size, relation=relation, k=k)


def load_suite(path: str | pathlib.Path, *, alpha: float | None = None,
               samples: int | None = None, timeout: float | None = None,
               allow_outside: bool = False) -> Suite:
    """Read and validate a suite file (nothing is imported or run; see :func:`check_suite`).

    ``alpha``, ``samples``, ``timeout`` override the file's ``[suite]`` defaults (an audit's own
    ``samples`` / ``timeout`` win); ``allow_outside`` lets references and input files lie
    outside the suite file's folder."""
    from privlab import _input

    p = pathlib.Path(path)
    shown = f"suite={str(path)!r}"
    text = _input.read_text(p, "suite")
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise InvalidParameter(f"{shown} is not valid TOML: {exc}") from None
    except RecursionError:
        raise InvalidParameter(f"{shown} is not valid TOML: nested too deeply") from None
    except ValueError as exc:  # e.g. an integer of more than 4300 digits
        raise InvalidParameter(f"{shown} is not valid TOML: {exc}") from None
    head = raw.get("suite", {})
    if not isinstance(head, Mapping):
        raise InvalidParameter(f"{shown}: [suite] must be a table")
    _refuse_unknown(f"{shown} [suite]", head, SUITE_KEYS)
    extra = sorted(set(raw) - {"suite", "audit"})
    if extra:
        raise InvalidParameter(f"{shown}: unknown table(s) {', '.join(extra)}")
    audits = raw.get("audit")
    if not isinstance(audits, list) or not audits:
        raise InvalidParameter(f"{shown} holds no [[audit]] entries")
    n_default = samples if samples is not None else \
        _count(f"{shown} [suite]", "samples", head.get("samples", 100_000))
    n_default = v.positive_int("samples", n_default)
    t_default = check_timeout("--timeout", timeout) if timeout is not None else \
        check_timeout(f"{shown} [suite] timeout", head.get("timeout", DEFAULT_TIMEOUT))
    o_default = {o.key: o.check(f"{shown} [suite]: {o.key}", head[o.key]) for o in PAIR_OPTIONS
                 if o.key in head}
    specs = tuple(parse_audit(a, i, p.parent, n_default, default_timeout=t_default,
                              confine=not allow_outside, default_options=o_default)
                  for i, a in enumerate(audits))
    names = [s.name for s in specs]
    dup = sorted({n for n in names if names.count(n) > 1})
    if dup:
        raise InvalidParameter(f"{shown}: duplicate audit name(s) {', '.join(dup)}")
    if alpha is not None:
        a = v.in_open("alpha", alpha, 0.0, 1.0)
    else:
        a = _number(f"{shown} [suite]", "alpha", head.get("alpha", 0.01))
        if not 0.0 < a < 1.0:
            raise InvalidParameter(f"{shown} [suite]: alpha={a!r} must lie in (0, 1)")
    return Suite(name=_text(f"{shown} [suite]", "name", head.get("name", p.stem)), path=str(p),
                 alpha=a, seed=_seed(head.get("seed", 0)), audits=specs)


def _flag(name: str, x: Any) -> bool:
    if not isinstance(x, bool):
        raise InvalidParameter(f"{name}={x!r} must be true or false")
    return x


def _seed(x: Any) -> int:
    if isinstance(x, bool) or not isinstance(x, int) or x < 0:
        raise InvalidParameter(f"seed={x!r} must be a non-negative integer")
    return x


def _takes_one(fn: Any) -> bool:
    try:
        inspect.signature(fn).bind(0)
    except TypeError:
        return False
    except ValueError:  # builtins without a signature: the call decides
        return True
    return True


def _one_line(text: str, limit: int = 500) -> str:
    t = " ".join(str(text).split())
    return t if len(t) <= limit else t[:limit - 1] + "…"


def _all_or_raise(problems: list[str], head: str) -> None:
    if problems:
        raise InvalidParameter(f"{len(problems)} {head}: " + "; ".join(
            _one_line(p) for p in problems))


def _resolve_in_child(a: AuditSpec, _say: Callable[[str], None]) -> None:
    a.resolve()


def resolve_references(audits: Sequence[AuditSpec]) -> None:
    """Import every audit's reference and check its contract (:meth:`AuditSpec.resolve`)
    before anything runs — each in its own contained child process, so that an import that
    exits or crashes is a bad reference like any other; every bad reference is named in one
    ``InvalidParameter``."""
    problems = []
    for a in audits:
        try:
            a.contained(functools.partial(_resolve_in_child, a))
        except InvalidParameter as exc:
            problems.append(str(exc))
    _all_or_raise(problems, "bad reference(s), no audit was run")


def _draw_some(a: AuditSpec, _say: Callable[[str], None]) -> None:
    pairs = a.candidate_pairs()[:2]
    for x, y in pairs:
        for val in (x, y):
            a.sampler(val)(16, np.random.default_rng(0))
    if a.seedable:  # one warning line on stderr for a sampler that ignores rng
        check_seedable([a.sampler(pairs[0][0]), a.sampler(pairs[0][1])], a.label)


def check_suite(suite: Suite) -> list[dict[str, Any]]:
    """Resolve every reference, then draw 16 outputs per input of each audit's first two
    pairs (in a contained child per audit); every problem is named in one
    ``InvalidParameter``; a sampler that ignores ``rng`` gets a warning line on stderr
    (:func:`privlab.audit.usercode.check_seedable`).  One row per audit."""
    resolve_references(suite.audits)
    problems = []
    for a in suite.audits:
        try:
            a.contained(functools.partial(_draw_some, a))
        except InvalidParameter as exc:
            problems.append(str(exc))
    _all_or_raise(problems, "audit(s) cannot draw outputs")
    return [{"name": a.name, "kind": a.kind, "reference": a.reference, "ok": True}
            for a in suite.audits]


@attrs.frozen(kw_only=True)
class SuiteResult:
    suite: Suite
    results: tuple[dict[str, Any], ...]
    started: str = ""
    """UTC start of the run, ISO 8601 to the second."""
    seconds: float = 0.0

    @property
    def errors(self) -> list[dict[str, Any]]:
        """Audits that raised (verdict ``"error"``)."""
        return [r for r in self.results if r["verdict"] == "error"]

    @property
    def failures(self) -> list[dict[str, Any]]:
        """Audits that ran and do not have their expected verdict."""
        return [r for r in self.results if not r["as_expected"] and r["verdict"] != "error"]

    @property
    def exit_code(self) -> int:
        """0 every audit has its expected verdict; 1 an audit that ran does not; 2 an audit has
        no verdict (it raised, exited, crashed or timed out): the run did not audit
        everything it was asked to."""
        return 2 if self.errors else 1 if self.failures else 0

    def to_dict(self) -> dict[str, Any]:
        m = len(self.suite.audits)
        return {"suite": self.suite.name, "path": self.suite.path, "alpha": self.suite.alpha,
                "audits": m, "level_per_audit": self.suite.alpha / m,
                "error_control": ("Bonferroni over the audits; every violation confirmed by a "
                                  "replay on fresh samples at the same level"),
                "seed": self.suite.seed, "started": self.started, "seconds": self.seconds,
                "failures": [r["name"] for r in self.failures],
                "errors": [r["name"] for r in self.errors], "results": list(self.results)}


def _stream(seed: int, name: str) -> np.random.SeedSequence:
    """A stream per audit keyed by its name (stable when audits are added or reordered)."""
    return np.random.SeedSequence(seed, spawn_key=(zlib.crc32(name.encode()),))


def run_audit(a: AuditSpec, level: float, seed: int, workers: int | None = 1,
              scheduler: Any = None,
              progress: Callable[[str], Any] = lambda m: None) -> dict[str, Any]:
    """One audit at family-wise level ``level`` (its share of the suite's budget; the whole
    1 − confidence for ``privlab audit --sampler``): union bound over its K pairs, pilot
    search when it has a domain (every candidate and its pilot bound reported under
    ``search``), confirmation replay on fresh samples (module docstring).  Unless the audit
    says ``seedable = false`` its first pair's samplers are probed for ignoring ``rng``
    (:func:`privlab.audit.usercode.check_seedable`: one warning, ``seedable: false``).
    ``workers``: local processes (1 unless asked; None: all cores)."""
    ss = _stream(seed, a.name)
    s_pilot, s_main, s_confirm, s_cands = ss.spawn(4)
    found = a.candidates(s_cands)
    cands = [(x, y) for x, y, _ in found]
    base = pathlib.Path(a.base)
    common = {"delta": a.delta, "claimed_epsilon": a.claimed_epsilon, "objective": a.objective,
              "float_bits": a.float_bits, "workers": workers, "scheduler": scheduler,
              "seedable": a.seedable, **a.pair_options}
    seedable = a.seedable and check_seedable([a.sampler(cands[0][0]), a.sampler(cands[0][1])],
                                             a.label)
    search: dict[str, Any] | None = None
    if a.searches:  # pilots on their own streams choose the pair
        n_pilot = max(a.samples // 20, 1000)
        pilots = []
        for (x, y), g in zip(cands, s_pilot.spawn(len(cands)), strict=True):
            r = audit_pair(a.sampler(x), a.sampler(y), samples=n_pilot,
                           confidence=0.5, rng=g, name=a.name, confirm=False, **common)
            pilots.append(r.epsilon_lower_bound if a.objective == "epsilon"
                          else r.delta_lower_bound)
        chosen = int(np.argmax(pilots))
        search = {"kind": "datasets" if a.datasets is not None else "scalars",
                  "objective": a.objective, "pilot_samples": n_pilot, "pilot_confidence": 0.5,
                  "chosen": chosen,
                  "candidates": [{"pair": [_jsonable(x), _jsonable(y)],
                                  **({"label": lab} if lab is not None else {}),
                                  "pilot_bound": b}
                                 for (x, y, lab), b in zip(found, pilots, strict=True)]}
        progress(f"audit {a.name}: searched {len(cands)} candidate pair(s) by pilot audits; "
                 f"auditing the worst")
        cands = [cands[chosen]]
    per_pair = level / len(cands)
    best: AuditResult | None = None
    best_pair = cands[0]
    spec = {"sampler" if a.kind == "sampler" else "mechanism": a.reference,
            "base": str(base.resolve()),
            **code_identity(a.reference, what=f"audit {a.name!r} {a.kind}", base=base,
                            confine=a.confine)}
    for j, ((x, y), g) in enumerate(zip(cands, s_main.spawn(len(cands)), strict=True)):
        progress(f"audit {a.name}: pair {j + 1}/{len(cands)}")
        r = audit_pair(a.sampler(x), a.sampler(y), samples=a.samples, confidence=1 - per_pair,
                       rng=g, name=a.name, neighbours=[_jsonable(x), _jsonable(y)],
                       spec={**spec, "pair": [_jsonable(x), _jsonable(y)]}, **common)
        key = (r.epsilon_lower_bound if a.objective == "epsilon" else r.delta_lower_bound)
        if best is None or key > (best.epsilon_lower_bound if a.objective == "epsilon"
                                  else best.delta_lower_bound):
            best, best_pair = r, (x, y)
    assert best is not None
    verdict = best.verdict
    confirmation = None
    if verdict == "violation":
        x, y = best_pair
        progress(f"audit {a.name}: confirming the violation on fresh samples")
        rep = replay(best.to_dict(), samples=a.samples, rng=s_confirm,
                     sample_a=a.sampler(x), sample_b=a.sampler(y), confidence=1 - per_pair)
        confirmation = {"verdict": rep.verdict, "epsilon_lower_bound": rep.epsilon_lower_bound,
                        "delta_lower_bound": rep.delta_lower_bound,
                        "confidence": rep.confidence, "samples": a.samples}
        if rep.verdict != "violation":
            verdict = "unconfirmed"
    reported = "violation" if verdict == "violation" else "consistent"
    d = best.to_dict()
    return {"name": a.name, "reference": a.reference, "kind": a.kind, "tags": list(a.tags),
            "claimed_epsilon": a.claimed_epsilon, "delta": a.delta, "objective": a.objective,
            "samples": a.samples, "confidence": 1 - per_pair, "pairs_audited": len(cands),
            "epsilon_lower_bound": best.epsilon_lower_bound,
            "delta_lower_bound": best.delta_lower_bound,
            "structural_leak": best.structural_leak, "event_class": best.event_class,
            "seedable": seedable, "first_stage": best.verdict,
            "confirmation": confirmation, "verdict": reported, "expect": a.expect,
            "as_expected": reported == a.expect, "pair": [_jsonable(p) for p in best_pair],
            "counterexample": d.get("counterexample"),
            **({"search": search} if search is not None else {})}


_run_one = run_audit


def _jsonable(x: Any) -> Any:
    return x.tolist() if isinstance(x, np.ndarray) else x


def _error_entry(a: AuditSpec, level: float, exc: Exception) -> dict[str, Any]:
    """The result of an audit that has no verdict: verdict "error", the one-line message (a
    :class:`~privlab.audit.usercode.ContainedError` keeps the type raised in the child)."""
    msg = str(exc) if isinstance(exc, InvalidParameter) else f"{type(exc).__name__}: {exc}"
    kind = exc.error_type if isinstance(exc, ContainedError) else type(exc).__name__
    return {"name": a.name, "reference": a.reference, "kind": a.kind, "tags": list(a.tags),
            "claimed_epsilon": a.claimed_epsilon, "delta": a.delta, "objective": a.objective,
            "samples": a.samples, "confidence": 1 - level, "pairs_audited": 0,
            "epsilon_lower_bound": None, "delta_lower_bound": None, "structural_leak": False,
            "event_class": None, "seedable": a.seedable, "first_stage": None,
            "confirmation": None, "verdict": "error", "expect": a.expect, "as_expected": False,
            "pair": None, "counterexample": None, "error": _one_line(msg),
            "error_type": kind}


def run_suite_file(suite: Suite, *, workers: int | None = 1, scheduler: Any = None,
                   names: Sequence[str] | None = None,
                   progress: Callable[[str], Any] = lambda m: None) -> SuiteResult:
    """Run every audit of ``suite`` (or those in ``names``) under one error budget.

    Every reference is resolved first (all bad ones in one ``InvalidParameter``, nothing run);
    each audit then runs in its own contained child process under its ``timeout``; one that
    raises, exits, crashes or times out is an entry with verdict "error" and the others still
    run.  ``workers``: local processes per audit (1 unless asked, as everywhere in the Python
    API; None: all cores, the default of ``privlab audit-suite run``)."""
    audits = suite.audits
    if names:
        missing = sorted(set(names) - {a.name for a in audits})
        if missing:
            raise InvalidParameter(f"audit name(s) {', '.join(missing)} not in the suite")
        audits = tuple(a for a in audits if a.name in names)
        suite = attrs.evolve(suite, audits=audits)
    resolve_references(audits)
    level = suite.alpha / len(audits)
    started = datetime.datetime.now(datetime.UTC).replace(microsecond=0).isoformat()
    t_run = time.perf_counter()
    results = []
    for i, a in enumerate(audits):
        progress(f"audit {a.name} ({i + 1}/{len(audits)})")
        t0 = time.perf_counter()
        try:
            r = a.contained(functools.partial(_run_one, a, level, suite.seed, workers,
                                              scheduler), progress=progress)
        except Exception as exc:  # the user's code failed: an error entry, the others run
            r = _error_entry(a, level, exc)
            progress(f"audit {a.name}: error: {r['error']}")
        results.append({**r, "seconds": time.perf_counter() - t0})
    return SuiteResult(suite=suite, results=tuple(results), started=started,
                       seconds=time.perf_counter() - t_run)
