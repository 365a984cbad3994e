"""Black-box Monte-Carlo auditing: sound, high-confidence lower bounds on the privacy loss.

See :mod:`privlab.audit.auditor` for the method (pilot → event selection → independent
estimation with Clopper–Pearson bounds) and its guarantee.
"""

from privlab.audit.auditor import AuditResult, audit_mechanism, audit_pair
from privlab.audit.bounds import cp_interval, cp_lower, cp_upper

__all__ = ["AuditResult", "audit_mechanism", "audit_pair", "cp_interval", "cp_lower", "cp_upper"]
