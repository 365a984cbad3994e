"""privlab: a verification and simulation lab for privacy mechanisms (see README.md).

The names below are re-exported lazily (PEP 562), so that ``import privlab`` (and the CLI's
start-up) costs no scipy/numba import: ``privlab.Staircase`` imports its module on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from privlab._lazy import lazy_exports
from privlab.errors import BudgetExceeded, InvalidParameter, PrivlabError

if TYPE_CHECKING:  # pragma: no cover - for type checkers and readers
    from privlab.mechanisms.noise.laplace import Laplace
    from privlab.mechanisms.noise.staircase import Staircase
    from privlab.types import ApproxDP, CheckResult, Claim, Neighbour, PureDP

_EXPORTS: dict[str, str] = {
    "Laplace": "privlab.mechanisms.noise.laplace",
    "Staircase": "privlab.mechanisms.noise.staircase",
    "ApproxDP": "privlab.types",
    "CheckResult": "privlab.types",
    "Claim": "privlab.types",
    "Neighbour": "privlab.types",
    "PureDP": "privlab.types",
}

__all__ = ["ApproxDP", "BudgetExceeded", "CheckResult", "Claim", "InvalidParameter", "Laplace",
           "Neighbour", "PrivlabError", "PureDP", "Staircase", "__version__"]

_exported, __dir__ = lazy_exports(__name__, _EXPORTS)


def __getattr__(name: str) -> Any:
    if name == "__version__":  # importlib.metadata costs ~50 ms: only when asked for
        from importlib.metadata import PackageNotFoundError, version

        try:
            value = version("privlab")
        except PackageNotFoundError:  # pragma: no cover - running from a source tree
            value = "0.0.0+unknown"
        globals()["__version__"] = value
        return value
    return _exported(name)
