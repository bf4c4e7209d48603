"""The README's code examples run as doctests, and its two fresh-machine commands are true."""

from __future__ import annotations

import doctest
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_readme_examples() -> None:
    result = doctest.testfile(str(ROOT / "README.md"), module_relative=False,
                              optionflags=doctest.ELLIPSIS)
    assert result.attempted > 10
    assert result.failed == 0


def test_readme_has_the_two_fresh_machine_commands() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "pip install . && tapete play" in text
    assert "bash scripts/test.sh" in text
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "scripts/test.sh" in ci
