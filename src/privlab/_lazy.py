"""Lazy re-exports for package ``__init__`` modules (PEP 562).

A family package lists ``_EXPORTS = {name: module}`` and binds
``__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)``: importing the package imports
none of its modules (``privlab --help`` stays fast); ``from package import X`` imports X's
module on first use and caches X in the package namespace.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping
from typing import Any


def lazy_exports(package: str, exports: Mapping[str, str]
                 ) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """``(__getattr__, __dir__)`` for ``package`` re-exporting ``exports`` lazily."""

    def __getattr__(name: str) -> Any:
        module = exports.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module), name)
        setattr(sys.modules[package], name, value)
        return value

    def __dir__() -> list[str]:
        return sorted(set(vars(sys.modules[package])) | set(exports))

    return __getattr__, __dir__
