"""The thesis's claims, one module per chapter (``ch3`` … ``ch7``; ``sec45`` is §4.5, the
multivariate staircase) plus their helpers (``*_tables``, ``*_checks``, ``*_symbolic``…).
vldb14 and irm claims sit beside the thesis chapter they reproduce (ch.6).  Each claim module
exposes ``CLAIMS`` and ``TABLES``; :mod:`privlab.proofs.ledger` imports them lazily."""
