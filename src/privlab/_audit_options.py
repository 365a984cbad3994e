"""The :func:`privlab.audit.audit_pair` options users set without writing Python: one table
shared by ``privlab audit`` (``--KEY``) and suite files (the key ``KEY``), each entry with its
validation.  Imports neither numpy nor the audit package."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

from privlab.errors import InvalidParameter

MAX_SAMPLES = 10**9
"""Most outputs per side a user may ask for (about 100 minutes of a fast sampler at 10^9; the
known-answer benchmark needs at most 10^7)."""

MAX_BINS = 10_000
"""Largest ``bins`` a user may set: the partition is built from the pilot's quantiles, and a
finer grid than this has too few pilot outputs per cell to mean anything."""


def check_bins(shown: str, x: Any) -> int:
    """``bins``: an integer from 2 to :data:`MAX_BINS` (not a bool, a float or a string)."""
    if isinstance(x, bool) or not isinstance(x, int) or not 2 <= x <= MAX_BINS:
        raise InvalidParameter(f"{shown}={x!r} must be an integer from 2 to {MAX_BINS}")
    return x


def check_flag(shown: str, x: Any) -> bool:
    """A boolean option (TOML ``true``/``false``; on the command line ``click.BOOL``)."""
    if not isinstance(x, bool):
        raise InvalidParameter(f"{shown}={x!r} must be true or false")
    return x


@attrs.frozen
class PairOption:
    """A keyword of :func:`privlab.audit.audit_pair` that users set without writing Python:
    ``--KEY`` on ``privlab audit`` (``_`` written ``-``), the key ``KEY`` of a suite file
    (``[suite]`` default and per ``[[audit]]``).  ``check(shown, value)`` validates a value
    and returns it (``shown`` names the setting in the error: ``--bins``, ``audit 'x': bins``);
    ``type`` (a Python type, or a click type) parses it on the command line.  The table lives
    here, below every layer and importing no numpy, so that the suite parser
    (:mod:`privlab.audit.usersuite`) and ``privlab audit --help`` share it."""

    key: str
    type: Any
    metavar: str
    help: str
    check: Callable[[str, Any], Any]

    @property
    def flag(self) -> str:
        return "--" + self.key.replace("_", "-")


PAIR_OPTIONS: tuple[PairOption, ...] = (
    PairOption("bins", int, "N", "Quantile cells of the pilot partition (default 200; 2..10000): "
               "raise it (e.g. 1000) when the ratio of the two laws changes quickly in the "
               "bulk; see docs/auditor.md.", check_bins),
)
"""Every :func:`~privlab.audit.audit_pair` option of the command line and of suite files: one
entry adds ``--KEY`` to ``privlab audit``, the key to suite files (checked the same way) and
passes the value through to every audit they run — e.g. a boolean keyword ``tails``:
``PairOption("tails", bool, "BOOL", "…", check_flag)``."""
