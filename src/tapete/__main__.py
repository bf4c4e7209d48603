"""`python -m tapete` is the `tapete` command."""

from tapete.cli import main

raise SystemExit(main())
