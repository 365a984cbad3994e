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
* :func:`checked` — wraps a sampler so that a wrong signature, a wrong output shape, or NaN are
  reported as one line naming the reference.

Threat model: the auditor bounds the privacy loss of the *law* the sampler draws from, as seen
through the events it searches (docs/auditor.md); a sampler that ignores ``rng`` and draws from
numpy's or Python's global state is audited as it is — its same-seed reproducibility is the
user's responsibility (``seedable=False`` is reported in the result).
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import pathlib
import sys
from collections.abc import Callable
from typing import Any

import numpy as np

from privlab.errors import InvalidParameter

__all__ = ["checked", "factory_sampler", "is_user_spec", "load_reference", "mechanism_sampler",
           "samplers_from_spec", "vectorize"]

Sampler = Callable[[int, np.random.Generator], Any]


def load_reference(ref: Any, *, what: str = "sampler", base: pathlib.Path | None = None) -> Any:
    """The object named by ``MODULE:NAME`` or ``FILE.py:NAME`` (dotted NAME allowed).

    A relative FILE is looked up under ``base`` first, then the current directory; FILE's folder
    is on ``sys.path`` while FILE is imported (its sibling modules are importable at import
    time, as for ``python FILE``).  A MODULE is imported from ``sys.path``; when it is not there
    it is looked for in ``base`` and then in the current directory (``python -m`` puts the
    current directory first; ``PYTHONPATH`` is not needed), and the error names every place."""
    if not isinstance(ref, str) or ref.count(":") < 1:
        raise InvalidParameter(f"{what}={ref!r} must look like MODULE:NAME or path/to/file.py:NAME")
    modname, _, attr = ref.rpartition(":")
    if not modname or not attr:
        raise InvalidParameter(f"{what}={ref!r} must look like MODULE:NAME or path/to/file.py:NAME")
    if modname.endswith(".py") or "/" in modname or "\\" in modname:
        module = _import_file(ref, modname, what, base)
    else:
        module = _import_module(ref, modname, what, base)
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


def _import_file(ref: str, modname: str, what: str, base: pathlib.Path | None) -> Any:
    path = pathlib.Path(modname).expanduser()
    if base is not None and not path.is_absolute() and (base / path).is_file():
        path = base / path
    if not path.is_file():
        where = ""
        if not path.is_absolute():
            dirs = dict.fromkeys(str(pathlib.Path(d).expanduser().resolve())
                                 for d in ([base] if base is not None else [])
                                 + [pathlib.Path.cwd()])
            where = f" (looked in {' and '.join(dirs)})"
        raise InvalidParameter(f"{what}={ref!r}: file {modname!r} does not exist{where}")
    path = path.resolve()
    key = f"privlab_user_{abs(hash(str(path)))}"
    spec = importlib.util.spec_from_file_location(key, path)
    if spec is None or spec.loader is None:
        raise InvalidParameter(f"{what}={ref!r}: cannot load {modname!r} as Python")
    module = importlib.util.module_from_spec(spec)
    sys.modules[key] = module
    try:
        with _OnSysPath([str(path.parent)]):
            spec.loader.exec_module(module)
    except Exception as exc:
        sys.modules.pop(key, None)
        raise InvalidParameter(f"{what}={ref!r}: importing {modname!r} failed: "
                               f"{type(exc).__name__}: {exc}") from None
    return module


def _missing_is_the_reference(exc: ModuleNotFoundError, modname: str) -> bool:
    """True when the module not found is ``modname`` itself or one of its packages (not a
    module that ``modname`` imports)."""
    parts = modname.split(".")
    return exc.name in {".".join(parts[:i]) for i in range(1, len(parts) + 1)}


def _import_module(ref: str, modname: str, what: str, base: pathlib.Path | None) -> Any:
    def failed(exc: Exception, where: str = "") -> InvalidParameter:
        return InvalidParameter(f"{what}={ref!r}: cannot import module {modname!r} "
                                f"({type(exc).__name__}: {exc}){where}")

    try:
        return importlib.import_module(modname)
    except ModuleNotFoundError as exc:
        if not _missing_is_the_reference(exc, modname):
            raise failed(exc) from None
        first = exc
    except Exception as exc:
        raise failed(exc) from None
    cwd = str(pathlib.Path.cwd().resolve())
    dirs = [cwd]
    if base is not None and str(pathlib.Path(base).expanduser().resolve()) != cwd:
        dirs.insert(0, str(pathlib.Path(base).expanduser().resolve()))
    places = [f"{d} (the current directory)" if d == cwd else
              f"{d} (the folder references are relative to)" for d in dirs]
    where = (f"; looked on sys.path, then in {' and '.join(places)}; for a file elsewhere use "
             f"path/to/file.py:NAME")
    try:
        with _OnSysPath(dirs):
            return importlib.import_module(modname)
    except ModuleNotFoundError as exc:
        raise failed(first if _missing_is_the_reference(exc, modname) else exc,
                     where if _missing_is_the_reference(exc, modname) else "") from None
    except Exception as exc:
        raise failed(exc) from None


def _arity_ok(fn: Any, n: int) -> bool:
    try:
        inspect.signature(fn).bind(*range(n))
    except TypeError:
        return False
    except ValueError:  # builtins without a signature: let the call decide
        return True
    return True


def checked(sampler: Any, label: str) -> Sampler:
    """``sampler`` with its contract checked at each call: ``(n, rng)`` → n outputs, shape
    ``(n,)`` or ``(n, d)``, no NaN (the auditor checks the rest)."""
    if not callable(sampler) or not _arity_ok(sampler, 2):
        raise InvalidParameter(f"{label} must return a sampler (n, rng) -> array of n outputs, "
                               f"got {type(sampler).__name__}")

    def call(n: int, rng: np.random.Generator) -> np.ndarray:
        try:
            out = np.asarray(sampler(n, rng))
        except InvalidParameter:
            raise
        except Exception as exc:
            raise InvalidParameter(f"{label}: the sampler raised {type(exc).__name__}: "
                                   f"{exc}") from None
        if out.ndim == 0 or out.ndim > 2 or out.shape[0] != n:
            raise InvalidParameter(f"{label}: the sampler returned shape {out.shape} for n={n}; "
                                   f"expected ({n},) or ({n}, d)")
        if out.dtype.kind == "f" and np.isnan(out).any():
            raise InvalidParameter(f"{label}: the sampler returned NaN")
        return out

    return call


def factory_sampler(factory: Any, value: Any, label: str) -> Sampler:
    """``factory(value)`` must return a sampler ``(n, rng) -> array`` (``--sampler``)."""
    if not callable(factory) or not _arity_ok(factory, 1):
        raise InvalidParameter(f"{label} must be a factory taking one input and returning a "
                               f"sampler (n, rng) -> array")
    try:
        sampler = factory(value)
    except Exception as exc:
        raise InvalidParameter(f"{label}: factory({value!r}) raised {type(exc).__name__}: "
                               f"{exc}") from None
    return checked(sampler, label)


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
        except Exception as exc:
            raise InvalidParameter(f"{label}: release raised {type(exc).__name__}: "
                                   f"{exc}") from None

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


def _input(x: Any, where: str) -> Any:
    if isinstance(x, bool) or not isinstance(x, int | float | list):
        raise InvalidParameter(f"{where}={x!r} must be a number or a list of numbers")
    try:
        return float(x) if not isinstance(x, list) else np.asarray(x, dtype=float)
    except (TypeError, ValueError):
        raise InvalidParameter(f"{where}={x!r} must be numeric") from None


def samplers_from_spec(spec: dict[str, Any]) -> tuple[Sampler, Sampler, str]:
    """The two samplers of a user-code counterexample (:func:`is_user_spec`), rebuilt from the
    reference (relative file references, and modules not on ``sys.path``, are looked up under
    ``base`` — the folder of the suite file or of the ``audit --sampler`` run — then the current
    directory), and a label."""
    kinds = [k for k in ("sampler", "mechanism") if k in spec]
    if len(kinds) != 1:
        raise InvalidParameter(f"spec={spec!r} must name exactly one of sampler or mechanism")
    kind, ref = kinds[0], spec[kinds[0]]
    pair = spec.get("pair")
    if not isinstance(pair, list) or len(pair) != 2:
        raise InvalidParameter(f"spec.pair={pair!r} must be the neighbouring inputs [a, b]")
    base = spec.get("base")
    obj = load_reference(ref, what=kind, base=None if base is None else pathlib.Path(base))
    label = f"{kind} {ref}"
    build = factory_sampler if kind == "sampler" else mechanism_sampler
    a, b = (_input(x, f"spec.pair[{i}]") for i, x in enumerate(pair))
    return build(obj, a, label), build(obj, b, label), label
