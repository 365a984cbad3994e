"""Lazy references to check functions, so that loading the ledger does not import the checks.

Building the :class:`~privlab.types.Claim` objects needs only the check *callables*, not the
modules that implement them (and their scipy / sympy / numba imports).  A ledger module binds
``op = lazy_module("privlab.proofs.thesis.ch4_optimality")`` (with the real import under
``TYPE_CHECKING``, so the import graph and the type checker still see the dependency);
``op.check_x`` is then a :class:`LazyRef` that imports the module and calls the function on
first call — the same function with the same arguments, so the result is the same.
"""

from __future__ import annotations

import importlib
from typing import Any

__all__ = ["LazyModule", "LazyRef", "lazy_module"]


class LazyRef:
    """``module.name``, imported when called (then cached on the reference)."""

    __slots__ = ("_target", "module", "name")

    def __init__(self, module: str, name: str) -> None:
        self.module = module
        self.name = name
        self._target: Any = None

    def resolve(self) -> Any:
        if self._target is None:
            self._target = getattr(importlib.import_module(self.module), self.name)
        return self._target

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.resolve()(*args, **kwargs)

    def __repr__(self) -> str:
        return f"<lazy {self.module}.{self.name}>"


class LazyModule:
    """A stand-in for a module whose attributes are :class:`LazyRef` callables."""

    __slots__ = ("_name",)

    def __init__(self, name: str) -> None:
        self._name = name

    def __getattr__(self, attr: str) -> LazyRef:
        if attr.startswith("__"):
            raise AttributeError(attr)
        return LazyRef(self._name, attr)

    def __repr__(self) -> str:
        return f"<lazy module {self._name}>"


def lazy_module(name: str) -> Any:
    """A :class:`LazyModule` for ``name`` (typed ``Any``: bind the real module under
    ``TYPE_CHECKING``)."""
    return LazyModule(name)
