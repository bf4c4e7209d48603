"""docs/rules.md is the rulebook: every vector it writes has a test of its name, and the code
cites it, never a document outside the repository."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "rules.md"
# the vectors' tests: the rulebook's, and those of the home-game options
VECTORS = (ROOT / "tests" / "core" / "test_rules_vectors.py",
           ROOT / "tests" / "core" / "test_homegame.py",
           ROOT / "tests" / "core" / "test_view.py")


def vector_ids(text: str) -> list[str]:
    """The ids in the first column of the document's tables: ``PL-1``, ``NL-4A``, ``BBA-2``."""
    return re.findall(r"^\| ([A-Z]+-\d+[A-Z]?) \|", text, re.M)


def test_every_vector_of_the_rulebook_has_its_test() -> None:
    ids = vector_ids(DOC.read_text("utf-8"))
    assert len(ids) == len(set(ids)) and len(ids) >= 29, ids
    tests = {name for path in VECTORS
             for name in re.findall(r"^def (test_\w+)\(", path.read_text("utf-8"), re.M)}
    missing = [v for v in ids
               if not any(t.startswith(f"test_{v.replace('-', '_')}_") for t in tests)]
    assert not missing, f"vectors of docs/rules.md without a test: {missing}"


def test_the_check_finds_a_vector_without_a_test() -> None:
    planted = "| ZZ-9 | a rule | nobody wrote its test |\n"
    assert vector_ids(planted) == ["ZZ-9"]


CITES_OUTSIDE = re.compile(r"RULES\.md|shared/|\bRULES [0-9]|\bRULES [A-Z]+-[0-9]|seeds?/")


def test_the_code_cites_the_rulebook_in_the_repository() -> None:
    found = []
    for folder in ("src", "tests", "benchmarks", "scripts"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            if path == Path(__file__).resolve():
                continue
            for n, line in enumerate(path.read_text("utf-8").splitlines(), 1):
                if CITES_OUTSIDE.search(line):
                    found.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()}")
    assert not found, "cite docs/rules.md instead:\n" + "\n".join(found)
