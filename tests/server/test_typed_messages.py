"""The server sends instances of the protocol's structs (``tapete.server.protocol``), never a
message built by hand: no dict literal with a ``"type"`` key is left in ``server/`` (read from
the sources with ``ast``), and the one state builder (``server/state.py``) makes every
table's ``state``."""

from __future__ import annotations

import ast
from pathlib import Path

import tapete.server

SERVER = Path(tapete.server.__file__).resolve().parent


def _asgi(value: ast.AST | None) -> bool:
    """An ASGI event (``{"type": "websocket.send", ...}``): the server's own interface, not a
    message of the protocol."""
    return isinstance(value, ast.Constant) and isinstance(value.value, str) and \
        value.value.startswith(("websocket.", "http.", "lifespan."))


def _typed(node: ast.AST) -> bool:
    if isinstance(node, ast.Dict):
        return any(isinstance(k, ast.Constant) and k.value == "type" and not _asgi(v)
                   for k, v in zip(node.keys, node.values, strict=True))
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
        node.func.id == "dict" and any(k.arg == "type" for k in node.keywords)


def typed_dicts(path: Path) -> list[int]:
    """The lines of ``path`` with a dict literal (or ``dict(type=...)``) keyed ``"type"``."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    return sorted(node.lineno for node in ast.walk(tree) if _typed(node))


def test_no_message_is_a_dict_built_by_hand() -> None:
    found = {p.name: lines for p in sorted(SERVER.glob("*.py")) if (lines := typed_dicts(p))}
    assert found == {}, f"dict literals with a 'type' key (build a protocol struct): {found}"


def test_the_scan_reads_a_file(tmp_path: Path) -> None:
    f = tmp_path / "m.py"
    f.write_text('def f():\n    return {"type": "pong"}\n\n\nz = dict(type="x")\n'
                 'asgi = {"type": "websocket.send", "text": "{}"}\n')
    assert typed_dicts(f) == [2, 5]


def test_one_state_builder() -> None:
    """The room's and the practice table's states are made by one function: neither module
    builds a ``TableState`` of its own."""
    for name in ("rooms.py", "practice.py", "sitngo.py", "hub.py", "session.py"):
        source = (SERVER / name).read_text(encoding="utf-8")
        assert "TableState(" not in source, name
    assert "TableState(" in (SERVER / "state.py").read_text(encoding="utf-8")
