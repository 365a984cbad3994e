"""privlab: a verification and simulation lab for privacy mechanisms (see README.md)."""

from importlib.metadata import PackageNotFoundError, version

from privlab.errors import BudgetExceeded, InvalidParameter, PrivlabError
from privlab.mechanisms.noise.laplace import Laplace
from privlab.mechanisms.noise.staircase import Staircase
from privlab.types import ApproxDP, CheckResult, Claim, Neighbour, PureDP

try:
    __version__ = version("privlab")
except PackageNotFoundError:  # pragma: no cover - running from a source tree
    __version__ = "0.0.0+unknown"

__all__ = ["ApproxDP", "BudgetExceeded", "CheckResult", "Claim", "InvalidParameter", "Laplace",
           "Neighbour", "PrivlabError", "PureDP", "Staircase", "__version__"]
