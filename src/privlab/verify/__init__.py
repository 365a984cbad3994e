"""Exact, symbolic and exhaustive checkers: ``check_<property>(...) -> CheckResult``.

Univariate noise densities (thesis ch. 4), decided exactly on the piecewise log-linear structure
that noise laws expose (``log_pieces``, ``tail``):

* :func:`check_pure_dp` — inequality (4.2) of §4.2 (pure ε-DP of additive noise);
* :func:`check_normalisation`, :func:`check_symmetry` — ∫ f = 1 and f(x) = f(−x);
* :func:`compare`, :func:`check_order` — the order of §4.1 Definition 6.

Multivariate shell noise (§4.5) lives in :mod:`privlab.verify.noise.multivariate`.

The names below are re-exported lazily (PEP 562): importing the package (or one of its other
subpackages) imports none of the noise checkers and their numeric dependencies.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from privlab._lazy import lazy_exports

if TYPE_CHECKING:  # pragma: no cover - for type checkers and readers
    from privlab.verify.noise.density import check_normalisation, check_symmetry
    from privlab.verify.noise.dp import check_pure_dp
    from privlab.verify.noise.order import check_order, compare

_EXPORTS: dict[str, str] = {
    "check_normalisation": "privlab.verify.noise.density",
    "check_order": "privlab.verify.noise.order",
    "check_pure_dp": "privlab.verify.noise.dp",
    "check_symmetry": "privlab.verify.noise.density",
    "compare": "privlab.verify.noise.order",
}

__all__ = ["check_normalisation", "check_order", "check_pure_dp", "check_symmetry", "compare"]

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
