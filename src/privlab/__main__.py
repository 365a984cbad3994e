"""``python -m privlab`` runs the command line (same as the ``privlab`` script)."""

from privlab.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
