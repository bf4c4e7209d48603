"""No module outside the core reaches into a Hand: every ``x._name`` where ``_name`` is a
private member of :class:`tapete.core.hand.Hand` (and ``x`` is not ``self`` or ``cls``) is a
failure. history/ drives hands through the public API (``apply``, ``apply_unchecked``,
``advance``, ``board_street``, ``live_stack``, ...)."""

from __future__ import annotations

import ast
from pathlib import Path

import tapete

PACKAGE = Path(tapete.__file__).parent
CORE = PACKAGE / "core"


def private_members() -> set[str]:
    """Hand's private names: its methods and the attributes its methods set on self."""
    tree = ast.parse((PACKAGE / "core" / "hand.py").read_text("utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and node.name == "Hand":
            for item in ast.walk(node):
                if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef):
                    names.add(item.name)
                elif isinstance(item, ast.Attribute) and isinstance(item.value, ast.Name) \
                        and item.value.id == "self":
                    names.add(item.attr)
    return {n for n in names if n.startswith("_") and not n.endswith("__")}


def uses(source: str, private: set[str]) -> list[tuple[int, str]]:
    """(line, name) of each access to one of ``private`` on something not self or cls."""
    out: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and node.attr in private:
            owner = node.value
            if isinstance(owner, ast.Name) and owner.id in ("self", "cls"):
                continue
            out.append((node.lineno, node.attr))
    return out


def test_the_members_found_are_the_private_ones() -> None:
    private = private_members()
    assert {"_apply_action", "_floor", "_legal", "_check_turn", "_settle"} <= private
    assert not {"apply", "apply_unchecked", "advance", "legal", "stacks"} & private


def test_the_check_catches_a_planted_use() -> None:
    private = private_members()
    planted = ("def f(hand):\n    hand.advance()\n    x = hand._floor[0]\n"
               "    return self_like._legal, self._settle\n")
    assert uses(planted, private) == [(3, "_floor"), (4, "_legal")]


def test_no_module_outside_the_core_uses_a_private_member_of_hand() -> None:
    private = private_members()
    found: list[str] = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if CORE in path.parents:
            continue
        for line, name in uses(path.read_text("utf-8"), private):
            found.append(f"{path.relative_to(PACKAGE)}:{line}: .{name}")
    assert not found, "private members of Hand used outside tapete.core:\n" + "\n".join(found)
