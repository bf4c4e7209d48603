"""A person's chips at room tables are their money too (issue 29, 8): ``GET /api/me`` and the
database's ``at_table`` show them (the stack as each hand began, plus chips brought since),
and both go back to 0 when the person leaves, the chips in their bankroll, the books adding up.
Before this, a player seated with their whole bankroll was shown a total of 0."""

from __future__ import annotations

import json
import time
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from test_server import cookie_pid, settings

from waiting import LONG, bound

warnings.filterwarnings("ignore", category=DeprecationWarning)
from starlette.testclient import TestClient  # noqa: E402

from tapete.server import create_app  # noqa: E402

START = 10_000


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(settings(tmp_path))) as c:
        c.get("/")
        yield c


def state(ws: Any, pred: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    while True:
        m = json.loads(ws.receive_text())
        if m["type"] == "state" and pred(m):
            return m


def eventually(what: Callable[[], Any], limit: float = LONG) -> None:
    deadline = time.monotonic() + bound(limit)
    while not what():
        assert time.monotonic() < deadline, "not in time"
        time.sleep(0.02)


def test_chips_at_a_room_table_are_shown_and_stored_and_come_back(client: TestClient) -> None:
    storage = client.app.state.storage  # type: ignore[attr-defined]
    room = client.app.state.room  # type: ignore[attr-defined]
    pid = cookie_pid(client)
    table = client.post("/api/room/tables", json={
        "bots": True, "act_ms": 60_000, "bank_ms": 0, "min_buy_in": 40,
        "max_buy_in": START}).json()["table"]
    with client.websocket_connect(f"/ws/t/{table}") as ws:
        ws.send_text(json.dumps({"type": "take_seat", "name": "Ana", "buy_in": START}))
        s = state(ws, lambda m: m["room"]["seated"])
        assert s["me"]["total"] == START and s["me"]["bankroll"] == 0
        me = client.get("/api/me").json()
        assert (me["bankroll"], me["at_table"], me["total"]) == (0, START, START), me
        row = storage.get_player(pid)
        assert (row.bankroll, row.at_table) == (0, START)
        # a few hands against the bots: check when free, else fold
        running = room.tables[table]
        while running.table.hand_no < 4:
            s = state(ws, lambda m: m["decision"] is not None or m["hand"] is None)
            if s["decision"] is not None:
                action = "check" if s["hand"]["legal"]["check"] else "fold"
                ws.send_text(json.dumps({"type": "act", "seq": s["seq"], "action": action}))
        ws.send_text(json.dumps({"type": "leave"}))
        s = state(ws, lambda m: not m["room"]["seated"])
        total = s["me"]["total"]
        assert s["me"]["at_table"] == 0 and total == s["me"]["bankroll"]
    # the chips are back in the bankroll, and nothing is left at a table
    eventually(lambda: (lambda r: (r.bankroll, r.at_table))(storage.get_player(pid))
               == (total, 0))
    assert storage.books(pid) == []
    kinds = [r["kind"] for r in storage.ledger(pid)]
    # (the last hand's result may be stored after the chips went back: the sum is the same)
    assert kinds[:2] == ["new", "room_in"] and "room_out" in kinds and "result" in kinds
    me = client.get("/api/me").json()
    assert (me["bankroll"], me["at_table"], me["total"]) == (total, 0, total), me
