"""The claim ledger: one module per seed chapter/paper (``CLAIMS`` and ``TABLES``), collected by
:class:`~privlab.proofs.ledger.Ledger`.  Proof modules are imported lazily by the ledger."""

from privlab.proofs.ledger import MODULES, ClaimOutcome, Ledger, LoadError, default_ledger

__all__ = ["MODULES", "ClaimOutcome", "Ledger", "LoadError", "default_ledger"]
