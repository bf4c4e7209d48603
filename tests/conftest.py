"""Refuse to test a compiled engine older than its sources (an editable install not rebuilt)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"


def stale_extensions() -> list[str]:
    """Compiled modules in the source tree whose ``.py`` changed after they were built."""
    out = []
    for ext in SRC.rglob("*.so"):
        source = ext.with_name(ext.name.split(".", 1)[0] + ".py")
        if source.exists() and source.stat().st_mtime > ext.stat().st_mtime:
            out.append(str(source.relative_to(SRC)))
    return sorted(out)


def pytest_configure(config: pytest.Config) -> None:
    if os.environ.get("TAPETE_PURE"):
        return  # the Python sources run, compiled or not
    stale = stale_extensions()
    if stale:
        pytest.exit(
            f"the compiled engine is older than {', '.join(stale)}: rebuild it with "
            "`pip install -e .` (or run the sources with TAPETE_PURE=1)", returncode=2)
