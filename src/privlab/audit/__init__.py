"""Black-box Monte-Carlo auditing: sound, high-confidence lower bounds on the privacy loss.

See :mod:`privlab.audit.auditor` for the method (pilot → event selection → independent
estimation with Clopper–Pearson bounds) and its guarantee, :mod:`privlab.audit.mechanism` for
neighbour pairs, :mod:`privlab.audit.replay` for re-checking a saved counterexample and
:mod:`privlab.audit.suite` for the control suite.  The Python API is documented in
``docs/auditor.md``.  :func:`vectorize` (a one-output-per-call function as a sampler) and the
other adapters of :mod:`privlab.audit.usercode` are re-exported lazily (PEP 562).
"""

from privlab._lazy import lazy_exports
from privlab.audit.auditor import AuditResult, audit_pair
from privlab.audit.bounds import cp_interval, cp_lower, cp_upper
from privlab.audit.mechanism import audit_mechanism
from privlab.audit.replay import replay

_LAZY = {"vectorize": "privlab.audit.usercode", "checked": "privlab.audit.usercode",
         "factory_sampler": "privlab.audit.usercode", "load_reference": "privlab.audit.usercode",
         "mechanism_sampler": "privlab.audit.usercode"}

__all__ = ["AuditResult", "audit_mechanism", "audit_pair", "checked", "cp_interval", "cp_lower",
           "cp_upper", "factory_sampler", "load_reference", "mechanism_sampler", "replay",
           "vectorize"]


__getattr__, __dir__ = lazy_exports(__name__, _LAZY)
