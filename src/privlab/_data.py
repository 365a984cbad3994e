"""Where the real data sets are (never copied into the repository; see ../shared/data/SOURCES.md).

Resolution order: the environment variable ``PRIVLAB_DATA_DIR`` (``privlab verify --data-dir``
sets it, so that tables computed in worker processes see the same directory), then
``../shared/data`` relative to the working directory when it exists.  ``None`` means: no real
data — every consumer then runs on seeded synthetic data of the same shape and says so.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import os
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

ENV = "PRIVLAB_DATA_DIR"
DEFAULT = Path("../shared/data")


def data_dir(explicit: str | os.PathLike[str] | None = None) -> Path | None:
    """The data directory to use, or None when there is none."""
    for cand in (explicit, os.environ.get(ENV) or None):
        if cand:
            p = Path(cand)
            return p if p.is_dir() else None
    return DEFAULT if DEFAULT.is_dir() else None


def data_file(name: str, explicit: str | os.PathLike[str] | None = None) -> Path | None:
    """``data_dir()/name`` when that file exists, else None."""
    d = data_dir(explicit)
    if d is None:
        return None
    p = d / name
    return p if p.is_file() else None


CACHE_ENV = "PRIVLAB_CACHE_DIR"


def cache_dir() -> Path:
    """privlab's cache folder: ``$PRIVLAB_CACHE_DIR``, else ``$XDG_CACHE_HOME/privlab``, else
    ``~/.cache/privlab`` (never the current directory)."""
    explicit = os.environ.get(CACHE_ENV)
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "privlab"


def configure_hypothesis(home: Path | None = None) -> Path | None:
    """Point Hypothesis's storage (example database, constants cache) at
    ``cache_dir()/hypothesis`` instead of ``./.hypothesis`` in the user's current folder.

    Called by :func:`privlab.cli.main` and by the report's worker processes — not by the test
    suite, which keeps Hypothesis's own settings).  Returns the previous setting (None: the
    default), which ``configure_hypothesis(previous)`` restores.  When Hypothesis is not
    imported yet, it is configured the moment it is (:func:`_on_import`), so that commands
    that never use it do not pay for importing it (about 0.13 s of every start-up)."""
    target = home or cache_dir() / "hypothesis"
    mod = sys.modules.get("hypothesis.configuration")
    if mod is None:
        _on_import("hypothesis.configuration",
                   lambda m: m.set_hypothesis_home_dir(target))
        return None
    previous = getattr(mod, "__hypothesis_home_directory", None)
    mod.set_hypothesis_home_dir(target)
    return previous


def restore_hypothesis(previous: Path | None) -> None:
    """Undo :func:`configure_hypothesis` (which returned ``previous``)."""
    _HOOKS.pop("hypothesis.configuration", None)
    mod = sys.modules.get("hypothesis.configuration")
    if mod is not None:
        mod.set_hypothesis_home_dir(previous)


_HOOKS: dict[str, Callable[[ModuleType], Any]] = {}


class _AfterImport(importlib.abc.MetaPathFinder):
    """Runs ``_HOOKS[name](module)`` right after module ``name`` is first executed.

    The module is located with the standard path finder (a fresh loader per module, so the
    wrapped ``exec_module`` touches no other module); a module that only another finder can
    locate (a zip import, a custom finder) is left to that finder and the hook is dropped —
    Hypothesis then keeps its own default storage, as before privlab configured it."""

    def find_spec(self, fullname: str, path: Any, target: Any = None) -> Any:
        hook = _HOOKS.pop(fullname, None)
        if hook is None:
            return None
        spec = importlib.machinery.PathFinder.find_spec(fullname, path, target)
        if spec is None or spec.loader is None or not hasattr(spec.loader, "exec_module"):
            return spec
        run = spec.loader.exec_module

        def exec_module(module: ModuleType) -> None:
            run(module)
            hook(module)

        spec.loader.exec_module = exec_module  # type: ignore[method-assign]
        return spec


def _on_import(name: str, hook: Callable[[ModuleType], Any]) -> None:
    _HOOKS[name] = hook
    if not any(isinstance(f, _AfterImport) for f in sys.meta_path):
        sys.meta_path.insert(0, _AfterImport())
