"""The package's layers: no module imports a layer above its own, and no import cycle.

The modules are parsed, never imported, and every import of a tapete module counts wherever it
is written: at the top, inside a function (a lazy import), or under ``if TYPE_CHECKING:`` (a
type-only import). ``from tapete.x import y`` where ``y`` is a module imports ``tapete.x.y``
(and ``tapete.x`` itself only for the names that are not modules). The layers are those of the
design, lowest first (``LAYERS``); a module may import its own layer and the layers below it.
"""

from __future__ import annotations

import ast
import importlib.util
from collections import defaultdict
from dataclasses import dataclass
from functools import cache
from pathlib import Path

# --------------------------------------------------------------------------- the layers, as data

#: lowest first; a module belongs to the layer of the longest prefix that names it and may import
#: only modules of its own layer and of the layers before it. Packages not written yet (store,
#: cluster) hold their places.
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    # the hand-ranking kernels, scalar and bulk: nothing of tapete but each other
    ("ranking", ("tapete.ranking",)),
    # the engine; the package's root only asks the engine whether it runs compiled
    ("core", ("tapete.core", "tapete")),
    ("eval", ("tapete.eval",)),
    ("history", ("tapete.history",)),
    ("words", ("tapete.words",)),
    ("bots", ("tapete.bots",)),
    ("tournament", ("tapete.tournament",)),
    ("room", ("tapete.room",)),
    ("store", ("tapete.store",)),
    ("cluster", ("tapete.cluster",)),
    ("server", ("tapete.server",)),
    ("cli", ("tapete.cli", "tapete.__main__")),
)

#: imports that break the layers today, each (importer, imported module). Every entry is a debt:
#: move the code to the layer it belongs to and delete the entry. Nothing may be added.
KNOWN_LAYER_BREAKS: frozenset[tuple[str, str]] = frozenset()


# --------------------------------------------------------------------------- reading the imports

@dataclass(frozen=True)
class Source:
    path: Path
    is_package: bool


def package_root() -> Path:
    """The folder of the tapete package the tests import (found, not imported)."""
    spec = importlib.util.find_spec("tapete")
    assert spec is not None and spec.submodule_search_locations, "tapete is not importable"
    return Path(next(iter(spec.submodule_search_locations)))


def modules(root: Path) -> dict[str, Source]:
    found = {}
    for path in sorted(root.rglob("*.py")):
        parts = list(path.relative_to(root.parent).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        if is_package:
            parts.pop()
        found[".".join(parts)] = Source(path, is_package)
    return found


def imports(mods: dict[str, Source]) -> dict[tuple[str, str], list[int]]:
    """Every import of one tapete module by another, with the lines that write it."""
    edges: dict[tuple[str, str], list[int]] = defaultdict(list)
    for name, source in mods.items():
        tree = ast.parse(source.path.read_text(encoding="utf-8"), str(source.path))
        package = name if source.is_package else name.rpartition(".")[0]
        for node in ast.walk(tree):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")
                    base = base[:len(base) - (node.level - 1)]
                    module = ".".join([*base, *([node.module] if node.module else [])])
                else:
                    module = node.module or ""
                submodules = [f"{module}.{alias.name}" for alias in node.names
                              if f"{module}.{alias.name}" in mods]
                targets = submodules
                if len(submodules) < len(node.names):  # names defined in the module itself
                    targets.append(module)
            for target in targets:
                if target in mods and target != name:
                    edges[(name, target)].append(node.lineno)
    return dict(edges)


def layer_of(module: str) -> int:
    """The index in LAYERS of ``module``'s layer, -1 for none. The root package ``tapete``
    names only itself, not every module under it."""
    best, level = -1, -1
    for index, (_, prefixes) in enumerate(LAYERS):
        for prefix in prefixes:
            inside = prefix != "tapete" and module.startswith(prefix + ".")
            if (module == prefix or inside) and len(prefix) > best:
                best, level = len(prefix), index
    return level


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, successors = work[-1]
            for succ in successors:
                if succ not in index:
                    index[succ] = low[succ] = len(index)
                    stack.append(succ)
                    on_stack.add(succ)
                    work.append((succ, iter(sorted(graph.get(succ, ())))))
                    break
                if succ in on_stack:
                    low[node] = min(low[node], index[succ])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
    return found


def path(graph: dict[str, set[str]], start: str, goal: str, within: set[str]) -> list[str]:
    """The shortest import path from ``start`` to ``goal`` among ``within``."""
    came: dict[str, str] = {start: start}
    queue = [start]
    for node in queue:
        if node == goal:
            break
        for succ in sorted(graph.get(node, ())):
            if succ in within and succ not in came:
                came[succ] = node
                queue.append(succ)
    out = [goal]
    while out[-1] != start:
        out.append(came[out[-1]])
    return out[::-1]


def describe(edges: dict[tuple[str, str], list[int]], importer: str, imported: str) -> str:
    lines = ", ".join(str(n) for n in sorted(set(edges[(importer, imported)])))
    return f"{importer} imports {imported} (line {lines})"


@cache
def check(root: Path) -> tuple[list[str], list[str]]:
    """The layer breaks and the cycles' edges under ``root``, each said in words (read once
    for both tests)."""
    mods = modules(root)
    edges = imports(mods)
    breaks = []
    for (importer, imported), _ in sorted(edges.items()):
        mine, theirs = layer_of(importer), layer_of(imported)
        assert mine >= 0, f"{importer} is in no layer: add it to LAYERS"
        if theirs > mine and (importer, imported) not in KNOWN_LAYER_BREAKS:
            breaks.append(f"{describe(edges, importer, imported)}: layer "
                          f"{LAYERS[mine][0]} may not import {LAYERS[theirs][0]}, above it")
    graph: dict[str, set[str]] = defaultdict(set)
    for importer, imported in edges:
        graph[importer].add(imported)
    problems = []
    for component in cycles(graph):
        members = set(component)
        for importer in component:
            for imported in sorted(graph[importer] & members):
                loop = path(graph, imported, importer, members)
                steps = zip([importer, *loop[:-1]], loop, strict=True)
                said = [describe(edges, a, b) for a, b in steps]
                problems.append("import cycle: " + "; ".join(said))
    for importer, imported in sorted(KNOWN_LAYER_BREAKS - set(edges)):
        problems.append(f"{importer} -> {imported} is gone: delete it from KNOWN_LAYER_BREAKS")
    return breaks, problems


# --------------------------------------------------------------------------- the tests

def test_every_module_is_in_a_layer() -> None:
    mods = modules(package_root())
    assert "tapete.core.hand" in mods and len(mods) > 100
    assert [m for m in mods if layer_of(m) < 0] == [], "a package in no layer: add it to LAYERS"
    assert layer_of("tapete.newpackage.x") < 0 and layer_of("tapete") == 1


def test_no_module_imports_a_layer_above_its_own() -> None:
    breaks, _ = check(package_root())
    assert not breaks, "imports that run up the layers:\n" + "\n".join(breaks)


def test_no_import_cycle() -> None:
    _, problems = check(package_root())
    assert not problems, "\n".join(problems)


def test_the_check_sees_lazy_type_only_and_relative_imports(tmp_path: Path) -> None:
    """The reader finds a cycle closed by a type-only import, a function's import and a
    relative import, and a lazy import that runs up the layers."""
    (tmp_path / "tapete" / "core").mkdir(parents=True)
    (tmp_path / "tapete" / "eval").mkdir()
    files = {
        "tapete/__init__.py": "",
        "tapete/core/__init__.py": "",
        "tapete/eval/__init__.py": "",
        "tapete/core/a.py": "from typing import TYPE_CHECKING\n"
                            "if TYPE_CHECKING:\n    from tapete.core import b\n",
        "tapete/core/b.py": "def f():\n    from .c import x\n",
        "tapete/core/c.py": "import tapete.core.a\nx = 1\n\n"
                            "def g():\n    from tapete.eval import e\n",
        "tapete/eval/e.py": "",
    }
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    breaks, problems = check(tmp_path / "tapete")
    assert breaks == ["tapete.core.c imports tapete.eval.e (line 5): layer core may not import "
                      "eval, above it"]
    assert any("tapete.core.a imports tapete.core.b (line 3)" in p
               and "tapete.core.b imports tapete.core.c (line 2)" in p
               and "tapete.core.c imports tapete.core.a (line 1)" in p for p in problems), problems
