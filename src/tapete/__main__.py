"""`python -m tapete` is the `tapete` command."""

from .cli import main

raise SystemExit(main())
