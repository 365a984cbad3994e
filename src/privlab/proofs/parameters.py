"""Each seed's own experimental parameters (issue 30): the values its tables, figures and worked
examples use.

A claim quantified over a parameter (:class:`privlab.types.Param` with ``registry=`` one of the
keys below) is checked on a grid that must contain every value of its seed's registry that lies
in the claim's declared domain, plus the domain's boundary cases
(:func:`privlab.proofs.verdict.grid_gaps`).  Values are transcribed from the seed texts (line
numbers of ``../shared/seeds/*.txt`` in the comments) — they are the papers' inputs, not results.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

PAPER_PARAMETERS: Mapping[str, Mapping[str, tuple[float, ...]]] = {
    "thesis": {
        # ch.4 Tables 4.1-4.2 (ε ∈ {0.1, 0.5, 1}), Figs 4.2-4.3 (ε = 1); ch.5 Example 7 (ε = 1),
        # Fig. 5.x (ε ∈ {0.1, ln 2, 1, 2}, line 3158); ch.6 §6.4 (ε ∈ {0.01, 0.1, 1, 10},
        # line 4305).
        "epsilon": (0.01, 0.1, 0.5, math.log(2), 1.0, 2.0, 10.0),
        # ch.3 (k = 11, 12, 25, 300; lines 1272-1329); ch.6 Tables 6.1-6.5 (k ∈ {1, 2, 5, 15,
        # 30}; figures k ≤ 100, lines 4307, 4376-4445); Figs 6.1-6.2 (k = 5).
        "k": (1, 2, 5, 11, 12, 15, 25, 30, 100, 300),
        # Δf = 1 throughout ch.4's tables and figures.
        "sensitivity": (1.0,),
        # ch.5 Figs 5.2-5.3: (ln 2, 0.2)-differential privacy (lines 2750, 2769).
        "delta": (0.2,),
        # ch.7 Fig. 7.5 / Table 7.5 (1.5-closeness, lines 5072, 5086, 5104); Figs 7.6-7.7
        # (2-closeness, lines 5118-5134).
        "t": (1.5, 2.0),
    },
    "vldb14": {
        # §5 (ε ∈ {0.01, 0.1, 1, 10}, line 470); k between 2 and 100 (Census) / 500 (Adult);
        # Tables 1-6 use k = 2, 33, 66 (Census) and 2, 174, 348 (Adult).
        "epsilon": (0.01, 0.1, 1.0, 10.0),
        "k": (2, 5, 33, 66, 100, 174, 348, 500),
    },
    "irm": {
        # §4.2 (line 250): "the parameter for differential privacy was set to …, which covers
        # the usual range … VLDB ()": the extraction dropped the numbers; the reading taken is
        # vldb14's range, which the sentence cites.  k: the figures sweep the cluster size up to
        # 100 (values assumed, the axis labels were not extracted).
        "epsilon": (0.01, 0.1, 1.0, 10.0),
        "k": (2, 5, 10, 25, 50, 100),
    },
    "ins15": {
        # No experiments; the worked examples use t = 1.5 (§6.1, line 250) and t = 2 (§6.2,
        # line 260).
        "t": (1.5, 2.0),
    },
}
"""seed → parameter name → the values its own experiments use."""


def seed_of(claim_id: str) -> str:
    """The seed short name of a claim id (``thesis:prop-9`` → ``thesis``)."""
    return claim_id.split(":", 1)[0]


def paper_values(claim_id: str, registry: str) -> tuple[float, ...]:
    """The registry values of ``claim_id``'s seed for parameter ``registry`` (``()``: none)."""
    return tuple(PAPER_PARAMETERS.get(seed_of(claim_id), {}).get(registry, ()))
