"""A user's own mechanism as an auditable sampler: references, factories, adapters.

The auditor (:func:`privlab.audit.audit_pair`) needs, for each of two neighbouring inputs, a
*sampler* ``(n, rng) -> array`` of n outputs.  Users hold mechanisms in other shapes; this
module turns them into samplers, with one-line errors (``InvalidParameter``) for everything a
user can get wrong:

* :func:`load_reference` — ``MODULE:NAME`` (a module on ``sys.path``, else in ``base`` — a
  suite file's folder — or in the current directory, as ``python -m`` finds it) or
  ``path/to/file.py:NAME`` (a file outside any package; its folder is on ``sys.path`` while the
  file is imported, so it may import the modules beside it, and is removed afterwards);
* :func:`factory_sampler` — ``factory(input) -> sampler`` (the ``--sampler`` contract);
* :func:`mechanism_sampler` — an object with ``release(values, *, rng)`` (the ``--mechanism``
  contract; one call per output through :func:`vectorize` when it returns one output per call);
* :func:`vectorize` — a one-output-per-call function ``fn(rng) -> output`` as a sampler, with a
  progress bar on stderr when it is slow (tqdm, only on a terminal);
* :func:`checked` — wraps a sampler so that a wrong signature, a wrong output shape, a
  non-finite output (NaN, ±inf) or a ``sys.exit()`` are reported as one line naming the
  reference (for a scalar input, the line says how to give a mechanism of data sets its data);
* :func:`seed_probe` / :func:`check_seedable` — a cheap test that a sampler ignores ``rng``
  (:data:`PROBE_OUTPUTS` outputs drawn twice with one seed and once with another) and the
  one-line :class:`~privlab.audit.result.SeedWarning` that says so;
* :func:`contained` — runs a whole audit of user code in a forked worker process, under a
  timeout: an exit, a crash, a signal or a timeout of that process becomes a
  :class:`ContainedError` naming the code and what happened, never a result;
* :func:`code_identity` / :func:`check_code_identity` — the file a reference resolves to and its
  SHA-256, recorded in saved counterexamples and checked (before anything is imported) when
  they are replayed.

Containment.  Everything that runs the user's code — importing it, checking its contract,
drawing outputs, on one worker or many — happens in a child process of the command
(:func:`contained`), in its own process group: the child sends progress lines, warnings and
finally its result (or the error it raised) through a pipe.  The command process never imports
the user's code, so ``sys.exit(0)`` or ``os._exit(0)`` in it, a segmentation fault, a SIGKILL
or an endless loop end only the child; the command sees no result and reports an error (exit
2), never a verdict.  Output the code prints goes to stderr (stdout carries the command's
result only).  On a timeout, an interrupt or any other exit of the command, the child's whole
process group is killed; the child and its workers also die with the command (Linux
``PR_SET_PDEATHSIG``).

Confinement.  ``load_reference(..., confine=True)`` (references from a suite file) resolves
file references relative to ``base`` only and refuses one whose real path (symlinks followed)
is outside ``base``; a module not on ``sys.path`` is looked for in ``base`` only.

Threat model: the auditor bounds the privacy loss of the *law* the sampler draws from, as seen
through the events it searches (docs/auditor.md); a sampler that ignores ``rng`` and draws from
numpy's or Python's global state is audited as it is — its same-seed reproducibility is the
user's responsibility (``seedable=False`` is reported in the result).

Samplers that ignore ``rng``.  A sampler that draws from a source of its own (OpenDP's and
diffprivlib's generators, ``secrets``, a generator created once outside the call) gives valid
bounds as long as its draws are independent, but the same seed does not reproduce the audit.
:func:`seed_probe` finds most of them for the price of 3 × :data:`PROBE_OUTPUTS` outputs: the
same seed twice gives different outputs, or two different seeds give the same outputs (counted
only when the outputs carry at least :data:`PROBE_NATS` nats, so that a low-entropy law, such as
randomized response with a large ε, cannot repeat by chance).  The global generators are seeded
as in an audit (:func:`privlab.audit.sampling.draw`), so samplers on numpy's or Python's global
state pass.  The audits of user code (:func:`privlab.audit.usersuite.run_audit`, hence
``privlab audit --sampler`` and ``audit-suite run``) and :func:`privlab.audit.audit_mechanism`
run it unless ``seedable=False`` was declared, warn once and report ``seedable: false``.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import inspect
import math
import os
import pathlib
import pickle
import re
import select
import signal
import struct
import sys
import time
import warnings
from collections.abc import Callable, Mapping, Sequence
from typing import Any, NoReturn, TypeVar

import numpy as np

from privlab.errors import InvalidParameter

__all__ = ["DEFAULT_TIMEOUT", "PROBE_NATS", "PROBE_OUTPUTS", "ContainedError",
           "check_code_identity", "check_seedable", "check_timeout", "checked", "code_file",
           "code_identity", "contained", "factory_sampler", "is_user_spec", "load_reference",
           "mechanism_sampler", "samplers_from_spec", "seed_probe", "vectorize"]

Sampler = Callable[[int, np.random.Generator], Any]
T = TypeVar("T")

DEFAULT_TIMEOUT = 3600.0
"""Seconds a contained run of user code may take unless told otherwise (``--timeout``)."""


def _split(ref: Any, what: str) -> tuple[str, str, bool]:
    """(module or file part, attribute part, is a file reference) of ``ref``."""
    if not isinstance(ref, str) or ref.count(":") < 1:
        raise InvalidParameter(f"{what}={ref!r} must look like MODULE:NAME or path/to/file.py:NAME")
    modname, _, attr = ref.rpartition(":")
    if not modname or not attr:
        raise InvalidParameter(f"{what}={ref!r} must look like MODULE:NAME or path/to/file.py:NAME")
    return modname, attr, modname.endswith(".py") or "/" in modname or "\\" in modname


def load_reference(ref: Any, *, what: str = "sampler", base: pathlib.Path | None = None,
                   confine: bool = False) -> Any:
    """The object named by ``MODULE:NAME`` or ``FILE.py:NAME`` (dotted NAME allowed).

    A relative FILE is looked up under ``base`` first, then the current directory; FILE's folder
    is on ``sys.path`` while FILE is imported (its sibling modules are importable at import
    time, as for ``python FILE``).  A MODULE is imported from ``sys.path``; when it is not there
    it is looked for in ``base`` and then in the current directory (``python -m`` puts the
    current directory first; ``PYTHONPATH`` is not needed), and the error names every place.
    ``confine=True`` (a suite file's references): FILE only under ``base`` and inside it (its
    real path), a MODULE not on ``sys.path`` only in ``base``.  Importing code that calls
    ``sys.exit()`` is an error naming the reference."""
    modname, attr, is_file = _split(ref, what)
    if confine and base is None:
        raise InvalidParameter(f"{what}={ref!r}: a confined reference needs the folder it is "
                               f"relative to")
    if is_file:
        module = _import_file(ref, modname, what, base, confine)
    else:
        module = _import_module(ref, modname, what, base, confine)
    obj: Any = module
    for part in attr.split("."):
        if not hasattr(obj, part):
            raise InvalidParameter(f"{what}={ref!r}: {modname!r} has no attribute {attr!r}")
        obj = getattr(obj, part)
    return obj


class _OnSysPath:
    """``dirs`` at the front of ``sys.path`` inside the ``with`` block only (each entry this
    added is removed again, whatever the imported code did to ``sys.path`` meanwhile)."""

    def __init__(self, dirs: list[str]) -> None:
        self.dirs = [d for d in dirs if d not in sys.path]

    def __enter__(self) -> None:
        sys.path[:0] = self.dirs
        importlib.invalidate_caches()

    def __exit__(self, *exc: object) -> None:
        for d in self.dirs:
            if d in sys.path:
                sys.path.remove(d)


def _locate_file(ref: str, modname: str, what: str, base: pathlib.Path | None,
                 confine: bool) -> pathlib.Path:
    """The real path of the file a file reference names (nothing is read or run)."""
    from privlab._input import not_regular

    path = pathlib.Path(modname).expanduser()
    if confine:
        assert base is not None
        root = pathlib.Path(base).expanduser().resolve()
        cand = path if path.is_absolute() else root / path
        if not cand.exists():
            raise InvalidParameter(f"{what}={ref!r}: file {modname!r} does not exist (looked "
                                   f"in {root}, the suite file's folder)")
        real = cand.resolve()
        if not real.is_relative_to(root):
            raise InvalidParameter(f"{what}={ref!r}: {str(real)!r} is outside the suite file's "
                                   f"folder {str(root)!r}; references of a suite file stay "
                                   f"inside its folder (--allow-outside to permit it)")
        path = real
    elif base is not None and not path.is_absolute() and (base / path).is_file():
        path = base / path
    if not path.exists():
        where = ""
        if not path.is_absolute():
            dirs = dict.fromkeys(str(pathlib.Path(d).expanduser().resolve())
                                 for d in ([base] if base is not None else [])
                                 + [pathlib.Path.cwd()])
            where = f" (looked in {' and '.join(dirs)})"
        raise InvalidParameter(f"{what}={ref!r}: file {modname!r} does not exist{where}")
    bad = not_regular(path)
    if bad is not None:
        raise InvalidParameter(f"{what}={ref!r}: {modname!r} {bad}")
    return path.resolve()


def _import_file(ref: str, modname: str, what: str, base: pathlib.Path | None,
                 confine: bool) -> Any:
    path = _locate_file(ref, modname, what, base, confine)
    key = f"privlab_user_{abs(hash(str(path)))}"
    spec = importlib.util.spec_from_file_location(key, path)
    if spec is None or spec.loader is None:
        raise InvalidParameter(f"{what}={ref!r}: cannot load {modname!r} as Python")
    module = importlib.util.module_from_spec(spec)
    sys.modules[key] = module
    try:
        with _OnSysPath([str(path.parent)]):
            spec.loader.exec_module(module)
    except (Exception, SystemExit) as exc:
        sys.modules.pop(key, None)
        _reraise_signal_exit(exc)
        raise InvalidParameter(f"{what}={ref!r}: importing {modname!r} failed: "
                               f"{_what_raised(exc)}") from None
    return module


def _reraise_signal_exit(exc: BaseException) -> None:
    """Re-raise privlab's own SIGTERM exit (not code's ``sys.exit()``)."""
    from privlab.audit.sampling import is_user_exit

    if isinstance(exc, SystemExit) and not is_user_exit(exc):
        raise exc


def _what_raised(exc: BaseException) -> str:
    """``Type: message``, or ``called sys.exit(CODE)`` for a ``SystemExit``."""
    if isinstance(exc, SystemExit):
        return f"called sys.exit({exc.code!r})"
    return f"{type(exc).__name__}: {exc}"


def _missing_is_the_reference(exc: ModuleNotFoundError, modname: str) -> bool:
    """True when the module not found is ``modname`` itself or one of its packages (not a
    module that ``modname`` imports)."""
    parts = modname.split(".")
    return exc.name in {".".join(parts[:i]) for i in range(1, len(parts) + 1)}


def _fallback_dirs(base: pathlib.Path | None, confine: bool) -> list[str]:
    """Where a module not on ``sys.path`` is looked for: ``base``, then the current directory
    (``base`` only when confined)."""
    cwd = str(pathlib.Path.cwd().resolve())
    b = None if base is None else str(pathlib.Path(base).expanduser().resolve())
    if confine:
        return [b] if b is not None else []
    return [cwd] if b is None or b == cwd else [b, cwd]


def _import_module(ref: str, modname: str, what: str, base: pathlib.Path | None,
                   confine: bool) -> Any:
    def failed(exc: BaseException, where: str = "") -> InvalidParameter:
        _reraise_signal_exit(exc)
        detail = f"it {_what_raised(exc)}" if isinstance(exc, SystemExit) else \
            f"{type(exc).__name__}: {exc}"
        return InvalidParameter(f"{what}={ref!r}: cannot import module {modname!r} "
                                f"({detail}){where}")

    try:
        return importlib.import_module(modname)
    except ModuleNotFoundError as exc:
        if not _missing_is_the_reference(exc, modname):
            raise failed(exc) from None
        first = exc
    except (Exception, SystemExit) as exc:
        raise failed(exc) from None
    cwd = str(pathlib.Path.cwd().resolve())
    dirs = _fallback_dirs(base, confine)
    places = [f"{d} (the current directory)" if d == cwd and not confine else
              f"{d} (the folder references are relative to)" for d in dirs]
    where = (f"; looked on sys.path, then in {' and '.join(places)}; for a file elsewhere use "
             f"path/to/file.py:NAME")
    try:
        with _OnSysPath(dirs):
            return importlib.import_module(modname)
    except ModuleNotFoundError as exc:
        raise failed(first if _missing_is_the_reference(exc, modname) else exc,
                     where if _missing_is_the_reference(exc, modname) else "") from None
    except (Exception, SystemExit) as exc:
        raise failed(exc) from None


def _arity_ok(fn: Any, n: int) -> bool:
    try:
        inspect.signature(fn).bind(*range(n))
    except TypeError:
        return False
    except ValueError:  # builtins without a signature: let the call decide
        return True
    return True


SCALAR_HINT = ("; it was given the scalar input {value!r}: a mechanism of data sets needs data "
               "sets (pairs of CSV/JSON files, --input-a/--input-b, or in a suite search = "
               "{{ datasets = true, domain = [lo, hi] }})")
"""Added to the error of user code that raised on a scalar input (it may expect a data set)."""


def scalar_hint(value: Any) -> str:
    """:data:`SCALAR_HINT` for a scalar input, else nothing."""
    return SCALAR_HINT.format(value=_plain(value)) if np.ndim(value) == 0 else ""


def _plain(value: Any) -> Any:
    try:
        return float(value)
    except (TypeError, ValueError):
        return value


def checked(sampler: Any, label: str, hint: str = "") -> Sampler:
    """``sampler`` with its contract checked at each call: ``(n, rng)`` → n outputs, shape
    ``(n,)`` or ``(n, d)``, every output finite — NaN or ±inf would make every threshold event
    trivially equal on both sides, so "consistent" would mean nothing (the auditor checks the
    rest); a ``sys.exit()`` in it is an error too.  ``hint`` ends the message of an exception
    the sampler raised (:func:`scalar_hint`)."""
    if not callable(sampler) or not _arity_ok(sampler, 2):
        raise InvalidParameter(f"{label} must return a sampler (n, rng) -> array of n outputs, "
                               f"got {type(sampler).__name__}")

    def call(n: int, rng: np.random.Generator) -> np.ndarray:
        try:
            out = np.asarray(sampler(n, rng))
        except InvalidParameter:
            raise
        except (Exception, SystemExit) as exc:
            _reraise_signal_exit(exc)
            raise InvalidParameter(f"{label}: the sampler {_what_raised(exc)}"
                                   if isinstance(exc, SystemExit) else
                                   f"{label}: the sampler raised {type(exc).__name__}: "
                                   f"{exc}{hint}") from None
        if out.ndim == 0 or out.ndim > 2 or out.shape[0] != n:
            raise InvalidParameter(f"{label}: the sampler returned shape {out.shape} for n={n}; "
                                   f"expected ({n},) or ({n}, d)")
        if out.dtype.kind in "fc":
            bad = ~np.isfinite(out)
            if bad.any():
                what = "NaN" if np.isnan(out).any() else "±inf"
                raise InvalidParameter(f"{label}: the sampler returned {what} "
                                       f"({int(bad.sum())} of {out.size} values not finite); "
                                       f"outputs must be finite numbers")
        return out

    return call


def factory_sampler(factory: Any, value: Any, label: str) -> Sampler:
    """``factory(value)`` must return a sampler ``(n, rng) -> array`` (``--sampler``)."""
    if not callable(factory) or not _arity_ok(factory, 1):
        raise InvalidParameter(f"{label} must be a factory taking one input and returning a "
                               f"sampler (n, rng) -> array")
    try:
        sampler = factory(value)
    except (Exception, SystemExit) as exc:
        _reraise_signal_exit(exc)
        raise InvalidParameter(f"{label}: factory({value!r}) {_what_raised(exc)}"
                               if isinstance(exc, SystemExit) else
                               f"{label}: factory({value!r}) raised {type(exc).__name__}: "
                               f"{exc}{scalar_hint(value)}") from None
    return checked(sampler, label, scalar_hint(value))


PROBE_OUTPUTS = 64
"""Outputs per draw of :func:`seed_probe` (three draws per sampler)."""
PROBE_NATS = 20.0
"""Identical outputs under two seeds count only when they carry this much information: a
sampler that does use ``rng`` repeats such a batch with probability about e^-20."""
_PROBE_ENTROPY = 0x5EED_9B0B
"""Entropy of the probe's two streams (fixed: the probe never draws from the audit's seed)."""


def _probe_stream(i: int) -> np.random.SeedSequence:
    return np.random.SeedSequence(_PROBE_ENTROPY, spawn_key=(i,))


def _nats(batch: np.ndarray) -> float:
    """Size × empirical Rényi-2 entropy of the batch's rows: about −log of the probability that
    an independent batch of the same law repeats it."""
    rows = batch.reshape(len(batch), -1)
    _, counts = np.unique(rows, axis=0, return_counts=True)
    p = counts / counts.sum()
    return float(-np.log(np.sum(p * p)) * len(batch))


def seed_probe(sampler: Sampler, name: str = "sampler") -> str | None:
    """How ``sampler`` shows that it ignores ``rng`` ("the same seed gave different outputs",
    "two different seeds gave the same outputs"), or None (module docstring, "Samplers that
    ignore rng").  Each draw is :func:`privlab.audit.sampling.draw`'s (the global generators
    seeded from the stream and restored afterwards) on fixed streams of its own, so an audit
    that follows draws exactly what it would have drawn without the probe.  A sampler that
    fails here gives None: the audit reports its failure in its own words."""
    from privlab.audit.sampling import draw

    try:
        # copies: a sampler may refill and return the same buffer on every call
        first = draw(sampler, name, PROBE_OUTPUTS, _probe_stream(0)).copy()
        again = draw(sampler, name, PROBE_OUTPUTS, _probe_stream(0)).copy()
        other = draw(sampler, name, PROBE_OUTPUTS, _probe_stream(1)).copy()
    except Exception:  # the audit itself reports a sampler that fails
        return None
    if not _same(first, again):
        return "the same seed gave different outputs"
    if _same(first, other) and _nats(first) >= PROBE_NATS:
        return "two different seeds gave the same outputs"
    return None


def _same(x: np.ndarray, y: np.ndarray) -> bool:
    return x.dtype == y.dtype and x.shape == y.shape and x.tobytes() == y.tobytes()


def unseedable_message(name: str, why: str) -> str:
    """The one-line warning about a sampler that ignores ``rng``."""
    return (f"{name} ignores rng ({why}): its bounds stay valid as long as its draws are "
            f"independent, but the same seed will not reproduce this audit; declare it with "
            f"seedable=False (suite: seedable = false; privlab audit: --unseedable)")


def check_seedable(samplers: Sequence[Sampler], name: str, *, stacklevel: int = 2) -> bool:
    """:func:`seed_probe` each sampler; at the first that ignores ``rng`` issue one
    :class:`~privlab.audit.result.SeedWarning` naming ``name`` and return False (the audit
    then reports ``seedable: false``); True when none does."""
    from privlab.audit.result import SeedWarning

    for s in samplers:
        why = seed_probe(s, name)
        if why is not None:
            warnings.warn(unseedable_message(name, why), SeedWarning, stacklevel=stacklevel + 1)
            return False
    return True


def vectorize(fn: Callable[[np.random.Generator], Any], *, label: str = "mechanism",
              progress_every: float = 2.0) -> Sampler:
    """A sampler from a one-output-per-call function ``fn(rng) -> output`` (scalar-only
    libraries).  Shows a tqdm bar on stderr (terminal only) when a batch takes longer than
    ``progress_every`` seconds; outputs are stacked (scalars → (n,), vectors → (n, d))."""
    import time

    def sample(n: int, rng: np.random.Generator) -> np.ndarray:
        from tqdm import tqdm

        out: list[Any] = []
        t0 = time.monotonic()
        bar = None
        for i in range(n):
            out.append(fn(rng))
            if bar is None and i % 256 == 255 and time.monotonic() - t0 > progress_every:
                bar = tqdm(total=n, initial=i + 1, file=sys.stderr, disable=None, leave=False,
                           unit=" outputs", desc=label)
            elif bar is not None:
                bar.update(1)
        if bar is not None:
            bar.close()
        return np.asarray(out)

    return sample


def mechanism_sampler(obj: Any, value: Any, label: str) -> Sampler:
    """A sampler from an object with ``release(values, *, rng)`` (``--mechanism``).

    A scalar input is released n times at once as the vector ``[value] * n`` when the
    mechanism is elementwise (one output per input value: the usual additive-noise API);
    otherwise (data-set inputs, or a release that does not return n outputs) one release per
    output through :func:`vectorize`."""
    release = getattr(obj, "release", None)
    if not callable(release):
        raise InvalidParameter(f"{label} must have a method release(values, *, rng)")

    def one(rng: np.random.Generator) -> Any:
        try:
            return np.asarray(release(value, rng=rng))
        except (Exception, SystemExit) as exc:
            _reraise_signal_exit(exc)
            raise InvalidParameter(f"{label}: release {_what_raised(exc)}"
                                   if isinstance(exc, SystemExit) else
                                   f"{label}: release raised {type(exc).__name__}: "
                                   f"{exc}{scalar_hint(value)}") from None

    scalar = np.ndim(value) == 0
    slow = vectorize(one, label=label)

    def sample(n: int, rng: np.random.Generator) -> np.ndarray:
        if scalar:
            try:
                out = np.asarray(release(np.full(n, float(value)), rng=rng))
            except Exception:
                out = None
            if out is not None and out.shape == (n,):
                return out
        res = slow(n, rng)
        return res.reshape(n, -1) if res.ndim > 2 else res

    return checked(sample, label)


def is_user_spec(spec: Any) -> bool:
    """True for the ``spec`` of a counterexample of user code: ``{"sampler" | "mechanism":
    REF, "pair": [a, b], "base": DIR}`` (written by ``audit-suite run`` and ``audit
    --sampler``)."""
    return isinstance(spec, dict) and "pair" in spec and ("sampler" in spec
                                                          or "mechanism" in spec)


SPEC_KEYS = frozenset({"sampler", "mechanism", "pair", "base", "code_file", "code_sha256"})
"""The keys of a user-code counterexample's ``spec``."""
_SHA256 = re.compile(r"[0-9a-f]{64}")


def _input(x: Any, where: str) -> Any:
    if isinstance(x, bool) or not isinstance(x, int | float | list):
        raise InvalidParameter(f"{where}={x!r} must be a number or a list of numbers")
    _finite_numbers(x, where)
    try:
        return float(x) if not isinstance(x, list) else np.asarray(x, dtype=float)
    except (TypeError, ValueError):
        raise InvalidParameter(f"{where}={x!r} must be numeric") from None


def _finite_numbers(x: Any, where: str) -> None:
    """``x`` is a finite number or a (nested) list of them — no bool, string or NaN/±inf."""
    stack = [x]
    while stack:
        y = stack.pop()
        if isinstance(y, list):
            stack.extend(y)
        elif isinstance(y, bool) or not isinstance(y, int | float) or not math.isfinite(y):
            raise InvalidParameter(f"{where}={x!r} must hold finite numbers only (found "
                                   f"{y!r})")


def spec_parts(spec: Mapping[str, Any]) -> tuple[str, str, pathlib.Path | None]:
    """(kind, reference, base) of a user-code ``spec``, its keys checked by type."""
    unknown = sorted(set(spec) - SPEC_KEYS)
    if unknown:
        raise InvalidParameter(f"spec: unknown key(s) {', '.join(map(repr, unknown))} (known: "
                               f"{', '.join(sorted(SPEC_KEYS))})")
    kinds = [k for k in ("sampler", "mechanism") if k in spec]
    if len(kinds) != 1:
        raise InvalidParameter(f"spec={dict(spec)!r} must name exactly one of sampler or "
                               f"mechanism")
    kind, ref = kinds[0], spec[kinds[0]]
    if not isinstance(ref, str):
        raise InvalidParameter(f"spec.{kind}={ref!r} must be a string MODULE:NAME or "
                               f"path/to/file.py:NAME")
    base = spec.get("base")
    if base is not None and (not isinstance(base, str) or not base):
        raise InvalidParameter(f"spec.base={base!r} must be a folder name")
    for key in ("code_file",):
        if key in spec and not isinstance(spec[key], str):
            raise InvalidParameter(f"spec.{key}={spec[key]!r} must be a file name")
    if "code_sha256" in spec and not (isinstance(spec["code_sha256"], str)
                                      and _SHA256.fullmatch(spec["code_sha256"])):
        raise InvalidParameter(f"spec.code_sha256={spec['code_sha256']!r} must be 64 "
                               f"lower-case hex digits")
    return kind, ref, None if base is None else pathlib.Path(base)


def samplers_from_spec(spec: Mapping[str, Any]) -> tuple[Sampler, Sampler, str]:
    """The two samplers of a user-code counterexample (:func:`is_user_spec`), rebuilt from the
    reference (relative file references, and modules not on ``sys.path``, are looked up under
    ``base`` — the folder of the suite file or of the ``audit --sampler`` run — then the current
    directory), and a label.  When the spec records the SHA-256 of the code file
    (``code_sha256``), the file the reference resolves to now is hashed first and a mismatch is
    refused before anything is imported (:func:`check_code_identity`)."""
    kind, ref, base = spec_parts(spec)
    pair = spec.get("pair")
    if not isinstance(pair, list) or len(pair) != 2:
        raise InvalidParameter(f"spec.pair={pair!r} must be the neighbouring inputs [a, b]")
    a, b = (_input(x, f"spec.pair[{i}]") for i, x in enumerate(pair))
    check_code_identity(spec)
    obj = load_reference(ref, what=kind, base=base)
    label = f"{kind} {ref}"
    build = factory_sampler if kind == "sampler" else mechanism_sampler
    return build(obj, a, label), build(obj, b, label), label


# ---- the code a reference names: its file and hash ---------------------------------------


def _module_origin(modname: str) -> str | None:
    """The file of module ``modname`` as an import would find it now, found with the import
    system's finders without executing anything (a package's ``__init__`` is not run to find
    its submodule: its search locations come from its spec)."""
    parts = modname.split(".")
    path: Any = None
    spec: Any = None
    for i in range(len(parts)):
        name = ".".join(parts[:i + 1])
        mod = sys.modules.get(name)
        spec = getattr(mod, "__spec__", None) if mod is not None else None
        if spec is None:
            for finder in sys.meta_path:
                find = getattr(finder, "find_spec", None)
                if find is None:
                    continue
                try:
                    spec = find(name, path)
                except Exception:  # a finder that cannot answer is no answer
                    spec = None
                if spec is not None:
                    break
        if spec is None:
            return None
        path = spec.submodule_search_locations
        if path is None and i < len(parts) - 1:
            return None
    origin = getattr(spec, "origin", None)
    return origin if getattr(spec, "has_location", False) and isinstance(origin, str) else None


def code_file(ref: str, *, what: str = "sampler", base: pathlib.Path | None = None,
              confine: bool = False) -> pathlib.Path | None:
    """The file holding the code ``ref`` names, resolved as :func:`load_reference` would
    (nothing is imported or executed); None for a module without a file (built in, frozen)."""
    modname, _, is_file = _split(ref, what)
    if is_file:
        return _locate_file(ref, modname, what, base, confine)
    origin = _module_origin(modname)
    if origin is None:
        dirs = _fallback_dirs(base, confine)
        with _OnSysPath(dirs):
            origin = _module_origin(modname)
    return None if origin is None else pathlib.Path(origin).resolve()


def _sha256(path: pathlib.Path, what: str) -> str:
    from privlab._input import read_bytes

    return hashlib.sha256(read_bytes(path, what)).hexdigest()


def code_identity(ref: str, *, what: str = "sampler", base: pathlib.Path | None = None,
                  confine: bool = False) -> dict[str, str]:
    """``{"code_file": FILE, "code_sha256": HEX}`` of the file ``ref`` names (empty when it
    has none): recorded in a counterexample's ``spec`` so that a replay runs the same code."""
    path = code_file(ref, what=what, base=base, confine=confine)
    if path is None:
        return {}
    return {"code_file": str(path), "code_sha256": _sha256(path, what)}


def check_code_identity(spec: Mapping[str, Any]) -> None:
    """Refuse a user-code ``spec`` whose recorded ``code_sha256`` differs from the SHA-256 of
    the file its reference resolves to now (one line naming the file); nothing is imported."""
    kind, ref, base = spec_parts(spec)
    want = spec.get("code_sha256")
    if want is None:
        return
    path = code_file(ref, what=kind, base=base)
    if path is None:
        raise InvalidParameter(f"spec.{kind}={ref!r}: the counterexample records the SHA-256 of "
                               f"{spec.get('code_file')!r}, but the reference resolves to no "
                               f"file now; nothing was run")
    got = _sha256(path, kind)
    if got != want:
        raise InvalidParameter(f"spec.{kind}={ref!r}: {str(path)!r} has changed since the "
                               f"counterexample was saved (SHA-256 {got[:12]}…, recorded "
                               f"{want[:12]}…); nothing was run: re-run the audit for a new "
                               f"counterexample")


# ---- containment: user code in a child process -------------------------------------------


class ContainedError(InvalidParameter):
    """A contained run of user code ended without a result: the code raised, exited, crashed,
    was killed or ran out of time.  The message names the code and what happened;
    ``error_type`` is the type of the exception raised in the child, or ``SystemExit``,
    ``ProcessExit``, ``ProcessKilled``, ``Timeout``."""

    def __init__(self, message: str, error_type: str = "InvalidParameter") -> None:
        super().__init__(message)
        self.error_type = error_type

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (str(self), self.error_type))


def check_timeout(name: str, value: Any) -> float:
    """A timeout in seconds: a number, finite and > 0."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise InvalidParameter(f"{name}={value!r} must be a number of seconds")
    x = float(value)
    if not math.isfinite(x) or not x > 0:
        raise InvalidParameter(f"{name}={value!r} must be a finite number of seconds > 0")
    return x


_HEADER = struct.Struct(">Q")
_POLL = 0.1
"""Seconds between checks that the child is alive while it sends nothing."""


def _send(fd: int, msg: Any) -> None:
    data = pickle.dumps(msg, protocol=pickle.HIGHEST_PROTOCOL)
    view = memoryview(_HEADER.pack(len(data)) + data)
    while view:
        view = view[os.write(fd, view):]


def _flush_stdio() -> None:
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:  # a closed or odd stream: nothing to lose
            pass


def _child(fn: Callable[[Callable[[str], None]], Any], r: int, w: int) -> NoReturn:
    """The child of :func:`contained`: runs ``fn``, sends its result, never returns."""
    code = 0
    try:
        os.close(r)
        try:
            os.setpgid(0, 0)
        except OSError:
            pass
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # the command decides, and kills us
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})
        from privlab.audit.sampling import die_with_parent

        die_with_parent()
        try:
            os.dup2(2, 1)  # stdout carries the command's result: the code's prints go to stderr
        except OSError:
            pass

        def say(m: str) -> None:
            _send(w, ("progress", str(m)))

        def show(message: Any, category: Any, filename: str, lineno: int, file: Any = None,
                 line: str | None = None) -> None:
            from privlab.audit.result import SeedWarning

            text = f"warning: {' '.join(str(message).split())}\n" \
                if isinstance(category, type) and issubclass(category, SeedWarning) else \
                warnings.formatwarning(message, category, filename, lineno, line)
            _send(w, ("stderr", text))

        warnings.showwarning = show
        final: tuple[Any, ...]
        try:
            final = ("ok", fn(say))
        except SystemExit as exc:
            final = ("raised", "SystemExit", f"called sys.exit({exc.code!r})")
        except InvalidParameter as exc:
            final = ("invalid", type(exc).__name__, str(exc))
        except BaseException as exc:
            final = ("raised", type(exc).__name__, f"{type(exc).__name__}: {exc}")
        _flush_stdio()
        try:
            _send(w, final)
        except (pickle.PicklingError, TypeError, AttributeError, RecursionError) as exc:
            _send(w, ("raised", type(exc).__name__, f"the result could not be sent back: "
                                                      f"{type(exc).__name__}: {exc}"))
    except BaseException:  # the command is gone (broken pipe) or the child is broken
        code = 70
    finally:
        _flush_stdio()
        os._exit(code)


def _dead(pid: int) -> bool:
    """True once the child ``pid`` has ended (it is left unreaped: its pid and process group
    stay reserved until :func:`_finish`)."""
    try:
        return os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None
    except ChildProcessError:
        return True


def _finish(pid: int) -> int:
    """Kill what is left of the child's process group (its workers), reap the child and return
    its exit code (negative: the signal that ended it)."""
    for kill in (os.killpg, os.kill):
        try:
            kill(pid, signal.SIGKILL)
        except OSError:
            pass
    while True:
        try:
            _, status = os.waitpid(pid, 0)
            return os.waitstatus_to_exitcode(status)
        except InterruptedError:  # pragma: no cover - PEP 475 retries
            continue
        except ChildProcessError:
            return 0


def contained(fn: Callable[[Callable[[str], None]], T], *, label: str,
              timeout: float = DEFAULT_TIMEOUT,
              progress: Callable[[str], Any] | None = None,
              timeout_name: str = "--timeout", mention: str | None = None) -> T:
    """``fn(say)`` run in a forked child process (module docstring, "Containment"): its
    return value (pickled back), or a :class:`ContainedError` naming ``label``.

    ``say(message)`` in the child calls ``progress(message)`` here; warnings the child shows go
    to this process's stderr.  An exception raised in the child becomes a ContainedError with
    its message (prefixed by ``label`` unless it holds ``label`` or ``mention``, e.g. the
    audit's name) and ``error_type``; a child that
    exits, crashes or is killed without sending a result, or runs longer than ``timeout``
    seconds (its whole process group is then killed), becomes one naming ``label`` and what
    happened (``timeout_name``: where the user sets the timeout, for the message).  Nothing
    the child does can make this return normally without its result."""
    limit = check_timeout("timeout", timeout)
    from privlab._procs import blocked

    _flush_stdio()
    r, w = os.pipe()
    with blocked():
        pid = os.fork()
        if pid == 0:  # pragma: no cover - the child (its coverage is not collected)
            _child(fn, r, w)
    os.close(w)
    try:
        os.setpgid(pid, pid)
    except OSError:
        pass
    status: int | None = None
    try:
        final = _collect(pid, r, limit, progress)
        status = _finish(pid)
    finally:
        os.close(r)
        if status is None:  # interrupted: the child and its workers go with the command
            _finish(pid)
    return _outcome(final, status, label, limit, timeout_name, mention or label)


def _collect(pid: int, r: int, limit: float,
             progress: Callable[[str], Any] | None) -> tuple[Any, ...] | None:
    """Read the child's messages until its final one (returned), its end without one (None)
    or the deadline (``("timeout",)``)."""
    deadline = time.monotonic() + limit
    buf = bytearray()

    def parse() -> tuple[Any, ...] | None:
        while len(buf) >= _HEADER.size:
            (size,) = _HEADER.unpack_from(buf)
            if len(buf) < _HEADER.size + size:
                return None
            try:
                msg = pickle.loads(bytes(buf[_HEADER.size:_HEADER.size + size]))
            except Exception as exc:  # not what _send writes: something else wrote to the pipe
                return ("raised", "ProcessOutput", f"sent an unreadable message "
                                                   f"({type(exc).__name__})")
            del buf[:_HEADER.size + size]
            if not isinstance(msg, tuple) or not msg:
                return ("raised", "ProcessOutput", "sent an unreadable message")
            if msg[0] == "progress":
                if progress is not None:
                    progress(msg[1])
            elif msg[0] == "stderr":
                sys.stderr.write(msg[1])
                sys.stderr.flush()
            else:
                return tuple(msg)
        return None

    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            return ("timeout",)
        ready, _, _ = select.select([r], [], [], min(left, _POLL))
        if ready:
            chunk = os.read(r, 1 << 16)
            if not chunk:  # every writer is gone
                return parse()
            buf += chunk
            final = parse()
            if final is not None:
                return final
        elif _dead(pid):  # its workers may hold the pipe open: read what is there
            while select.select([r], [], [], 0)[0]:
                chunk = os.read(r, 1 << 16)
                if not chunk:
                    break
                buf += chunk
            return parse()


def _outcome(final: tuple[Any, ...] | None, status: int, label: str, limit: float,
             timeout_name: str, mention: str) -> Any:
    if final is not None and final[0] == "ok":
        return final[1]
    if final is None:
        from privlab.audit.sampling import exit_text

        kind = "ProcessKilled" if status < 0 else "ProcessExit"
        raise ContainedError(f"{label}: its process ended without a result "
                             f"({exit_text(status)}); no verdict", kind)
    if final[0] == "timeout":
        raise ContainedError(f"{label}: did not finish within the timeout of {limit:g} s "
                             f"({timeout_name}); stopped, no verdict", "Timeout")
    _, error_type, message = final
    text = " ".join(str(message).split())
    if label not in text and mention not in text:
        text = f"{label}: {text}"
    raise ContainedError(text, str(error_type))
