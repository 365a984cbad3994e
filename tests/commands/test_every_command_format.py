"""README: "Every command takes ``--format json``".  Walks the whole click tree (lazy groups
loaded) and the ``privlab A B`` shortcuts; a leaf command without a ``--format`` option taking
``json`` fails here (``audit-suite check`` did)."""

from __future__ import annotations

import click

from privlab import cli


def _leaves(cmd: click.Command, path: str) -> list[tuple[str, click.Command]]:
    if isinstance(cmd, click.Group):
        ctx = click.Context(cmd, info_name=path)
        out: list[tuple[str, click.Command]] = []
        for name in cmd.list_commands(ctx):
            sub = cmd.get_command(ctx, name)
            assert sub is not None, f"{path} {name}"
            out += _leaves(sub, f"{path} {name}")
        return out
    return [(path, cmd)]


def test_every_command_takes_format_json() -> None:
    leaves = _leaves(cli.cli, "privlab")
    leaves += [(f"privlab {a} {b}", make()) for (a, b), make in cli.SUBCOMMANDS.items()]
    assert len(leaves) > 20
    missing = []
    for path, cmd in leaves:
        opts = [p for p in cmd.params if isinstance(p, click.Option) and "--format" in p.opts]
        if not opts or not isinstance(opts[0].type, click.Choice) \
                or "json" not in opts[0].type.choices:
            missing.append(path)
    assert missing == []
