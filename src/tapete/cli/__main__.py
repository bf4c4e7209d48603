"""``python -m tapete.cli``: the same command line as ``tapete``."""

from tapete.cli import main

raise SystemExit(main())
