"""CLI sub-commands, one module per command family; :mod:`privlab.cli` registers them."""
