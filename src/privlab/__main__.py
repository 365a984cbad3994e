"""``python -m privlab`` runs the command line (same as the ``privlab`` script)."""

from privlab.cli import main

raise SystemExit(main())
