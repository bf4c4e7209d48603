"""No import cycle anywhere in the package: the graph of which ``tapete`` module imports which,
read from the sources with ``ast`` (imports at the top of a module and inside functions alike;
only the ones under ``if TYPE_CHECKING:`` are left out, as they never run), has no cycle.

``from tapete.server import work`` is an edge to the module ``tapete.server.work``; ``from
tapete.server import create_app`` one to the package ``tapete.server`` (its ``__init__``).
A submodule's parent packages are not counted as imported: Python runs them first, whatever
the order, so they close no cycle.
"""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src"


def modules(root: Path, top: str) -> dict[str, Path]:
    """Every module of the package ``top`` under ``root``: its dotted name -> its file."""
    out: dict[str, Path] = {}
    for path in sorted((root / top).rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _type_checking(node: ast.If) -> bool:
    t = node.test
    return (isinstance(t, ast.Name) and t.id == "TYPE_CHECKING") or (
        isinstance(t, ast.Attribute) and t.attr == "TYPE_CHECKING")


def _imports(tree: ast.AST) -> list[ast.Import | ast.ImportFrom]:
    """Every import statement that can run: at any depth, but not under TYPE_CHECKING."""
    out: list[ast.Import | ast.ImportFrom] = []
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            out.append(node)
        if isinstance(node, ast.If) and _type_checking(node):
            stack.extend(node.orelse)
            continue
        stack.extend(ast.iter_child_nodes(node))
    return out


def graph(root: Path, top: str) -> dict[str, set[str]]:
    """Which module of ``top`` imports which (resolved to modules of ``top``)."""
    mods = modules(root, top)
    out: dict[str, set[str]] = {m: set() for m in mods}
    for name, path in mods.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in _imports(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            else:
                base = node.module or ""
                if node.level:
                    parts = package.split(".")
                    parts = parts[:len(parts) - node.level + 1]
                    base = ".".join(parts + ([base] if base else []))
                # a name that is a module of its own is that module; else the one it is in
                targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in mods else base
                           for a in node.names]
            for target in targets:
                while target and target not in mods:  # "import tapete.x.y" of a package
                    target = target.rpartition(".")[0]
                if target and target != name:
                    out[name].add(target)
    return out


def cycles(g: dict[str, set[str]]) -> list[list[str]]:
    """The graph's strongly connected components of more than one module (Tarjan), each as
    a sorted list: empty when there is no cycle."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found: list[list[str]] = []
    counter = [0]

    def visit(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in sorted(g.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    for v in sorted(g):
        if v not in index:
            visit(v)
    return found


def test_the_package_has_no_import_cycle() -> None:
    g = graph(SRC, "tapete")
    assert len(g) > 50 and "tapete.server.replayer" in g["tapete.server.app"]
    assert cycles(g) == []


def test_a_planted_cycle_is_found(tmp_path: Path) -> None:
    """A function-level import that closes a cycle through a relative import and a package."""
    pkg = tmp_path / "planted"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "sub" / "__init__.py").write_text("from planted.sub.b import thing\n")
    (pkg / "a.py").write_text("from planted import sub\n")
    (pkg / "sub" / "b.py").write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    import planted.c\n"
        "def thing():\n    from .. import a\n    return a\n")
    (pkg / "c.py").write_text("import planted.a\n")
    g = graph(tmp_path, "planted")
    assert g["planted.a"] == {"planted.sub"}
    assert g["planted.sub"] == {"planted.sub.b"}
    assert g["planted.sub.b"] == {"planted.a"}  # not planted.c: under TYPE_CHECKING
    assert cycles(g) == [["planted.a", "planted.sub", "planted.sub.b"]]
    (pkg / "sub" / "b.py").write_text("def thing():\n    return 1\n")
    assert cycles(graph(tmp_path, "planted")) == []
