"""Nothing outside ``room/`` assigns a table's fields: every change is a command through the
table's owner, and what a kind of table decides is its policy's (room/policy.py).

The check reads the package's source (the one imported: run with another tree on the path
and it checks that tree). It finds, outside ``tapete/room/``, every assignment, augmented
assignment, ``del`` and ``setattr`` whose target goes through a room table: an attribute of
it (``rt.held = True``), a part of one (``rt.votes.open = {}``), an item of one
(``rt.players[3] = p``) or its engine table (``rt.table.seats[0] = None``). A room table is
recognised by its type where the code says it (a name annotated ``RoomTable``, or made by
``RoomTable(...)``, ``RoomTable.open``, ``restore`` or ``rebuild``), and by the names the
server gives it everywhere (``rt``, ``table``, ``room_table``, and ``x.rt``, ``x.table``:
``running.table``, ``self.rt``). The names are the weak side of a scan without types, so the
test also checks the scan itself on writes in each form. What a command does to the table by
calling one of its methods outside the owner's queue is not a write this scan sees.
"""

from __future__ import annotations

import ast
import pathlib

import tapete

TABLE_NAMES = {"rt", "table", "room_table"}
TABLE_ATTRS = {"rt", "table", "room_table"}  # x.rt, running.table, self.rt
MAKERS = {"RoomTable", "RoomTable.open", "restore", "rebuild", "table_mod.restore"}


def _names_table(annotation: ast.expr) -> bool:
    """An annotation that says a room table (or None), not a collection of them."""
    text = ast.unparse(annotation).strip("'\"").replace(" ", "")
    return text in ("RoomTable", "RoomTable|None", "None|RoomTable", "Optional[RoomTable]")


def _typed_names(fn: ast.AST) -> set[str]:
    """The names a function holds a room table in, by annotation or by what made it."""
    names: set[str] = set()
    if isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
        for a in [*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs]:
            if a.annotation is not None and _names_table(a.annotation):
                names.add(a.arg)
    for node in ast.walk(fn):
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) \
                and _names_table(node.annotation):
            names.add(node.target.id)
        elif isinstance(node, ast.Assign) and isinstance(node.value, ast.Call) \
                and ast.unparse(node.value.func) in MAKERS:
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
    return names


def _is_table(expr: ast.expr, typed: set[str]) -> bool:
    if isinstance(expr, ast.Name):
        return expr.id in TABLE_NAMES or expr.id in typed
    return isinstance(expr, ast.Attribute) and expr.attr in TABLE_ATTRS


def _through_table(target: ast.expr, typed: set[str]) -> bool:
    """Whether assigning ``target`` writes into a room table: some prefix of it is a table
    followed by at least one attribute or item."""
    node = target
    while isinstance(node, ast.Attribute | ast.Subscript | ast.Starred):
        inner = node.value
        if isinstance(node, ast.Starred):
            node = inner
            continue
        if _is_table(inner, typed):
            return True
        node = inner
    return False


def _targets(node: ast.AST) -> list[ast.expr]:
    if isinstance(node, ast.Assign | ast.Delete):
        out = list(node.targets)
    elif isinstance(node, ast.AugAssign | ast.AnnAssign):
        out = [node.target]
    else:
        return []
    flat: list[ast.expr] = []
    while out:
        t = out.pop()
        if isinstance(t, ast.Tuple | ast.List):
            out.extend(t.elts)
        else:
            flat.append(t)
    return flat


def writes(source: str) -> list[tuple[int, str]]:
    """The writes into a room table in ``source``: (line, the target)."""
    tree = ast.parse(source)
    found: list[tuple[int, str]] = []
    scopes: list[ast.AST] = [tree, *(n for n in ast.walk(tree) if isinstance(
        n, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda))]
    seen: set[int] = set()
    for scope in reversed(scopes):  # the innermost function first: its names
        typed = _typed_names(scope)
        for node in ast.walk(scope):
            if id(node) in seen:
                continue
            hit: str | None = None
            for t in _targets(node):
                if _through_table(t, typed):
                    hit = ast.unparse(t)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                    and node.func.id in ("setattr", "delattr") and node.args \
                    and (_is_table(node.args[0], typed) or _through_table(node.args[0], typed)):
                hit = ast.unparse(node)
            if hit is not None:
                seen.add(id(node))
                found.append((getattr(node, "lineno", 0), hit))
    return sorted(found)


def test_the_scan_sees_each_form_of_write() -> None:
    code = '''
def f(running, x, made: "RoomTable"):
    rt = running.table
    rt.held = True
    running.table.auto_start = False
    self.rt.turn_at = 0
    table.votes.open = {}
    rt.players[3] = "p"
    del rt.players[3]
    rt.table.seats[0] = None
    rt.paid_in += 5
    a, rt.seq = 1, 2
    made.ended_at = 1
    other = RoomTable(log, "t", config, bank)
    other.pause_ms = 0
    setattr(rt, "held", True)
    running.table = other          # the running's own field, not the table's
    x.seq = 1                      # not a table
    rt.act("p", 1, action)         # a command (a call), not a write
'''
    got = [line for line, _ in writes(code)]
    assert got == [4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 15, 16]


def test_nothing_outside_room_assigns_a_tables_fields() -> None:
    root = pathlib.Path(tapete.__file__).parent
    found = []
    for path in sorted(root.rglob("*.py")):
        if path.relative_to(root).parts[0] == "room":
            continue
        for line, target in writes(path.read_text()):
            found.append(f"{path.relative_to(root)}:{line}: {target}")
    assert not found, "writes into a room table outside room/ (make them a command through" \
        " its owner, or its policy's answer: room/policy.py):\n" + "\n".join(found)
