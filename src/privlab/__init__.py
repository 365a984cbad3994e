"""privlab: a verification and simulation lab for privacy mechanisms (see README.md).

The names below are re-exported lazily (PEP 562), so that ``import privlab`` (and the CLI's
start-up) costs no scipy/numba import: ``privlab.Staircase`` imports its module on first use.
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version
from typing import TYPE_CHECKING

from privlab._lazy import lazy_exports
from privlab.errors import BudgetExceeded, InvalidParameter, PrivlabError

if TYPE_CHECKING:  # pragma: no cover - for type checkers and readers
    from privlab.mechanisms.noise.laplace import Laplace
    from privlab.mechanisms.noise.staircase import Staircase
    from privlab.types import ApproxDP, CheckResult, Claim, Neighbour, PureDP

try:
    __version__ = version("privlab")
except PackageNotFoundError:  # pragma: no cover - running from a source tree
    __version__ = "0.0.0+unknown"

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

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
