"""vldb14 §5 Tables 5, 6 ("Adult-Numerical-Categorical") and 7 (Census statistics) as ledger
tables.  The runs, the readings tried and the printed values beside the lab's are in
:mod:`privlab.proofs.thesis.vldb14_sec5_runs` (numpy and numba), imported on the first call so
that loading the ledger stays light."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from privlab.proofs.lazyref import lazy_module

if TYPE_CHECKING:
    from privlab.proofs.thesis import vldb14_sec5_runs as _runs
    from privlab.types import Table
else:
    _runs = lazy_module("privlab.proofs.thesis.vldb14_sec5_runs")


def table_v5(data_dir: Any = None, runs: int = 3, seed: int = 0, readings: str = "all"
             ) -> Table:
    """vldb14 Table 5: the DP release against standard MDAV on Adult (numerical+categorical)."""
    return _runs.table_v5(data_dir, runs, seed, readings)


def table_v6(data_dir: Any = None, runs: int = 3, seed: int = 0, readings: str = "all"
             ) -> Table:
    """vldb14 Table 6: the DP release against plain ε-DP on the same Adult attributes."""
    return _runs.table_v6(data_dir, runs, seed, readings)


def table_v7(data_dir: Any = None, runs: int = 3, seed: int = 0) -> Table:
    """vldb14 Table 7: variations of Census statistics."""
    return _runs.table_v7(data_dir, runs, seed)


TABLES: dict[str, Any] = {"vldb14-5": table_v5, "vldb14-6": table_v6, "vldb14-7": table_v7}
CLAIMS: tuple[Any, ...] = ()
