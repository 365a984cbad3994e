"""Exceptions raised by privlab.

Every user-facing validation failure is an :class:`InvalidParameter` whose message
names the parameter and the offending value, e.g. ``epsilon=-1 must be > 0``.
"""

from __future__ import annotations


class PrivlabError(Exception):
    """Base class of every error privlab raises on purpose."""


class InvalidParameter(PrivlabError, ValueError):
    """A parameter value is outside its documented domain."""


class BudgetExceeded(PrivlabError):
    """An interactive session refused a query because the privacy budget would be exceeded."""
