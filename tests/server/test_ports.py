"""One process and several nodes are two implementations of the same ports (room/ports.py),
chosen once where the app is built (``server/app.py``'s ``ports``): no module of the server
asks again whether it runs alone (``if node is None``), and the one-process implementations
(server/alone.py) do what one process did."""

from __future__ import annotations

import ast
import asyncio
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from tapete.room.errors import Unavailable
from tapete.room.ports import Ports
from tapete.server import alone

SERVER = Path(__file__).resolve().parents[2] / "src" / "tapete" / "server"
# the modules that are the several-node implementations: they hold their node
IMPLEMENTATIONS = {"cluster.py", "fanout.py"}


def _names_node(expr: ast.expr) -> bool:
    """Whether ``expr`` is this process's node, or the setting that makes one: ``node``,
    ``x.node``, ``node_id``, ``x.node_id``."""
    if isinstance(expr, ast.Name):
        return expr.id in ("node", "node_id")
    if isinstance(expr, ast.Attribute):
        return expr.attr in ("node", "node_id")
    return False


def _choice(path: Path, fn: str | None, node: ast.AST) -> bool:
    """The one place that chooses: ``settings.node_id is not None`` in app.py's ``ports``."""
    return path.name == "app.py" and fn == "ports" and isinstance(node, ast.Compare)


def node_branches(path: Path) -> list[str]:
    """Each place in ``path`` that asks whether this process is one node of several: a
    comparison of the node (or ``node_id``) with None, a test of its truth, or (outside the
    several-node implementations) a look at an object's ``node``."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    found: list[str] = []

    def visit(node: ast.AST, fn: str | None) -> None:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            fn = node.name
        where = f"{path.name}:{getattr(node, 'lineno', 0)}"
        if isinstance(node, ast.Compare) and any(
                isinstance(op, (ast.Is, ast.IsNot)) for op in node.ops) and any(
                _names_node(e) for e in [node.left, *node.comparators]) \
                and not _choice(path, fn, node):
            found.append(f"{where}: {ast.unparse(node)}")
        tests: list[ast.expr] = []
        if isinstance(node, (ast.If, ast.IfExp, ast.While, ast.Assert)):
            tests.append(node.test)
        if isinstance(node, ast.BoolOp):
            tests.extend(node.values)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            tests.append(node.operand)
        found.extend(f"{where}: {ast.unparse(t)}" for t in tests if _names_node(t))
        if path.name not in IMPLEMENTATIONS and isinstance(node, ast.Attribute) \
                and node.attr == "node":
            found.append(f"{where}: {ast.unparse(node)}")
        for child in ast.iter_child_nodes(node):
            visit(child, fn)

    visit(tree, None)
    return found


def test_no_module_of_the_server_asks_whether_it_runs_alone() -> None:
    found = [x for path in sorted(SERVER.rglob("*.py")) for x in node_branches(path)]
    assert not found, "one node or several is chosen once (app.py's ports), then the" \
        " ports are called:\n" + "\n".join(found)


def test_the_app_chooses_in_one_place() -> None:
    tree = ast.parse((SERVER / "app.py").read_text(encoding="utf-8"))
    choices = [n for n in ast.walk(tree) if isinstance(n, ast.Compare)
               and any(_names_node(e) for e in [n.left, *n.comparators])]
    assert len(choices) == 1, [ast.unparse(c) for c in choices]


def test_the_guard_sees_a_branch(tmp_path: Path) -> None:
    # the guard itself: each way of asking is found
    path = tmp_path / "rooms.py"
    path.write_text("def f(self, node):\n"
                    "    if node is None:\n        return 1\n"
                    "    x = self.node.claim() if self.node else None\n"
                    "    if self.settings.node_id is not None and not node:\n        pass\n")
    found = node_branches(path)
    assert len(found) == 6, found  # is None, two .node, the truth of one, node_id, not node


# ---------------------------------------------------------------------------- one process
class _Table:
    def __init__(self, table_id: str, seated: dict[int, str], listed: bool = True,
                 practice: bool = False) -> None:
        self.table_id = table_id
        self.players = seated
        self.config = SimpleNamespace(practice=practice, listed=listed and not practice)


def _room(**tables: Any) -> Any:
    """A room of this process, as the ports see it."""
    people = {"ana": SimpleNamespace(id="ana", outboxes=[object()]),
              "bo": SimpleNamespace(id="bo", outboxes=[])}
    restored: list[Any] = []
    room = SimpleNamespace(tables=tables, hub=SimpleNamespace(players=people),
                           restored=restored)

    def get(table_id: str) -> Any:
        r = tables.get(table_id)
        return None if r is None or r.table.config.practice else r

    async def run_every_table() -> None:
        restored.append(bankroll.made)

    room.get = get
    room.table_ids = lambda everything=False: sorted(
        t for t, r in tables.items() if everything or r.table.config.listed)
    room.run_every_table = run_every_table
    bankroll = SimpleNamespace(made=None)
    room.bankroll = bankroll
    return room


def _served(table: _Table, *players: str | None) -> Any:
    return SimpleNamespace(table=table, owner=None,
                           connections=[SimpleNamespace(player=p) for p in players])


def test_one_process_owns_every_table_it_has_and_no_other() -> None:
    t1 = _served(_Table("t1", {0: "ana"}), "ana", "cy")
    p1 = _served(_Table("p1", {0: "ana"}, practice=True), "ana")
    room = _room(t1=t1, p1=p1)
    known = {"t1:3"}
    ports = alone.ports(room.bankroll, lambda: known)(room)
    assert isinstance(ports, Ports) and ports.bankroll is room.bankroll
    own = ports.ownership

    async def go() -> None:
        await own.start()  # every table of the log, with the moves made known meanwhile
        assert room.restored == [known] and room.bankroll.made is None
        assert own.claim_new("t9") is None  # no lease: the writes quote no epoch
        assert not await own.lost(t1.table)
        assert await own.exists("t1") and not await own.exists("p1")
        assert not await own.exists("elsewhere")
        assert await own.route("t1") is t1 and await own.route("elsewhere") is None
        assert await own.practice_route("ana") is None
        assert not own.moved_away("t1", t1)
        own.closed("t1")
        await own.stop()

    asyncio.run(go())
    # an outage met by a client is raised, as one process always did (not turned away)
    assert not own.turned_away(Unavailable(), "t1")
    assert own.faults.expected(Unavailable(), "a test")  # yet counted as expected
    assert own.info() == {"node": None, "tables": ["t1"], "table_count": 2}
    assert own.info(everything=True)["tables"] == ["p1", "t1"]
    done: list[bool] = []
    assert not own.drains()
    own.begin_drain(lambda: done.append(True))
    assert done == [True]  # nothing to hand over: stopped at once


def test_one_process_restores_with_the_moves_known_and_forgets_them_after_a_failure() -> None:
    room = _room()

    async def fails() -> None:
        raise RuntimeError("a broken log")

    room.run_every_table = fails
    own = alone.LocalOwnership(room, room.bankroll, lambda: {"x:1"})
    with pytest.raises(RuntimeError):
        asyncio.run(own.start())
    assert room.bankroll.made is None


def test_one_process_fanout_delivers_to_itself() -> None:
    t1 = _served(_Table("t1", {0: "ana", 1: "bot:t1:0"}), "ana", "cy", "cy")
    hidden = _served(_Table("h1", {0: "dee"}, listed=False), "dee")
    practice = _served(_Table("p1", {0: "eve"}, practice=True), "eve")
    room = _room(t1=t1, h1=hidden, p1=practice)
    fan = alone.LocalFanout(room)
    fan.changed()  # nothing to say: presence is read when asked
    assert fan.presence() == {
        "online": 3, "nodes": 1,  # ana (two sockets), cy and dee; bo has none, eve practises
        "tables": {"t1": {"players": 1, "spectators": 2}},
        "private": {"tables": 1, "players": 1, "spectators": 0}}
    assert fan.listing() == []  # no table runs elsewhere

    async def go() -> None:
        assert [await fan.allow("open:ana", 2, 60) for _ in range(3)] == [True, True, False]
        assert await fan.allow("open:bo", 2, 60)  # each key its own count
        # one process counts no connections a minute (its limit is the tabs held open)
        assert all([await fan.connects("ana") for _ in range(200)])
        ws = object()  # untouched: there is no other node to watch a table at
        assert not await fan.watch(ws, "t1", "ana", None)

    asyncio.run(go())


def test_the_app_builds_the_ports_once(tmp_path: Path) -> None:
    from test_server import settings

    from tapete.server import create_app
    from tapete.server.cluster import ClusterBankroll, Node
    from tapete.server.fanout import RedisFanout
    from tapete.server.rooms import RoomBankroll

    app = create_app(settings(tmp_path / "one"))
    room = app.state.room
    assert isinstance(room.ownership, alone.LocalOwnership)
    assert isinstance(room.fanout, alone.LocalFanout)
    assert isinstance(room.bankroll, RoomBankroll)
    assert app.state.ownership is room.ownership
    app = create_app(settings(tmp_path / "two", node_id="n0.test",
                              advertise="http://testserver"))
    room = app.state.room
    assert isinstance(room.ownership, Node) and room.ownership.room is room
    assert isinstance(room.fanout, RedisFanout) and room.fanout is room.ownership.fanout
    assert isinstance(room.bankroll, ClusterBankroll)


def test_the_ports_and_their_implementations_are_in_no_import_cycle(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # counting the imports made for types only: the ports sit low (room/), the several-node
    # implementations see the room through them, and the room reaches none of them but the
    # port it is given
    import test_imports

    monkeypatch.setattr(test_imports, "_type_checking", lambda node: False)
    mine = {"tapete.room.ports", "tapete.server.alone", "tapete.server.cluster",
            "tapete.server.fanout", "tapete.server.money", "tapete.server.supervise"}
    cycles = test_imports.cycles(test_imports.graph(test_imports.SRC, "tapete"))
    assert not [c for c in cycles if mine & set(c)], cycles
    ports = test_imports.graph(test_imports.SRC, "tapete")["tapete.room.ports"]
    assert not {m for m in ports if m.startswith("tapete.server")}, ports
