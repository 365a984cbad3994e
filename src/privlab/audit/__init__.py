"""Black-box Monte-Carlo auditing: sound, high-confidence lower bounds on the privacy loss.

See :mod:`privlab.audit.auditor` for the method (pilot → event selection → independent
estimation with Clopper–Pearson bounds) and its guarantee, :mod:`privlab.audit.mechanism` for
neighbour pairs, :mod:`privlab.audit.replay` for re-checking a saved counterexample and
:mod:`privlab.audit.suite` for the control suite.  The Python API is documented in
``docs/auditor.md``.
"""

from privlab.audit.auditor import AuditResult, audit_pair
from privlab.audit.bounds import cp_interval, cp_lower, cp_upper
from privlab.audit.mechanism import audit_mechanism
from privlab.audit.replay import replay

__all__ = ["AuditResult", "audit_mechanism", "audit_pair", "cp_interval", "cp_lower", "cp_upper",
           "replay"]
