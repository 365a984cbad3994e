"""The issue-5 CLI under the names the lead mounts (code: :mod:`privlab.commands.release`).

* :data:`release_microagg` — the click group ``release`` with the subcommands ``mdav``,
  ``insensitive-mdav``, ``individual-ranking``, ``mdav-swap`` and ``ir-swap``
  (``--input CSV --output CSV --k K --columns A,B [--bounds A=LO:HI,…]`` and the attribute
  roles ``--qi/--sensitive/--keep/--drop-other``; stdlib csv, the row order kept, atomic
  writes, ``OUTPUT.cert.json`` with method, k, every column's role, k-anonymity over the
  quasi-identifiers as written, l-diversity, SSE/SST, record linkage and the checks run).
* :data:`certify_insensitivity` — ``privlab certify insensitivity --algorithm NAME`` (the
  Definition 12 search of :func:`privlab.verify.microaggregation.insensitivity.check_insensitive`).
* :func:`mount` — adds both to existing ``release`` and ``certify`` groups, e.g. issue 6's
  :data:`privlab.commands.dp_release.release_dp` (whose subcommands ``insensitive-mdav-dp``,
  ``ir-dp``, ``laplace-dp`` do not collide with these) and ``core.certify``.  A name already
  taken in a target group is an error rather than a silent replacement.
"""

from __future__ import annotations

import click

from privlab.commands.release import (
    RELEASE_COMMANDS,
    certify_insensitivity,
    release_group,
    run_release,
)
from privlab.errors import InvalidParameter

__all__ = ["MICROAGG_RELEASE_COMMANDS", "certify_insensitivity", "mount", "release_microagg",
           "run_release"]

release_microagg: click.Group = release_group
"""``privlab release mdav|insensitive-mdav|individual-ranking|mdav-swap|ir-swap``."""

MICROAGG_RELEASE_COMMANDS: tuple[click.Command, ...] = RELEASE_COMMANDS


def mount(release: click.Group, certify: click.Group) -> None:
    """Add the five release subcommands to ``release`` and ``insensitivity`` to ``certify``."""
    for group, cmds in ((release, MICROAGG_RELEASE_COMMANDS), (certify, (certify_insensitivity,))):
        for cmd in cmds:
            have = group.commands.get(cmd.name or "")
            if have is not None and have is not cmd:
                raise InvalidParameter(f"command={cmd.name!r} already exists in group "
                                       f"{group.name!r}")
            group.add_command(cmd)
